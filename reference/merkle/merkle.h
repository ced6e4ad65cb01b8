#pragma once
// Reference Merkle tree over rows of field elements (spec: protocol:merkle:*). Leaves are the
// Keccak-256 of 0x00 followed by the row's canonical little-endian bytes; inner nodes the
// Keccak-256 of 0x01 || left || right. The number of rows is a power of two.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reference/field/goldilocks.h"
#include "reference/hash/keccak.h"

namespace zkrv::ref {

using Row = std::vector<Fp>;

Digest merkle_leaf(const Row& row);
Digest merkle_node(const Digest& left, const Digest& right);

class MerkleTree {
 public:
  // Throws std::invalid_argument unless rows.size() is a power of two (>= 1).
  explicit MerkleTree(const std::vector<Row>& rows);
  const Digest& root() const { return layers_.back()[0]; }
  unsigned height() const { return static_cast<unsigned>(layers_.size() - 1); }
  // Siblings from the leaf layer upward (height() digests).
  std::vector<Digest> open(size_t index) const;
  // Batched opening of several leaves: the sibling digests not computable from the opened set,
  // layer by layer from the leaves, in increasing index order within a layer (duplicates in
  // `indices` are fine).
  std::vector<Digest> open_batch(std::vector<size_t> indices) const;

 private:
  std::vector<std::vector<Digest>> layers_;  // layers_[0] = leaves, back() = {root}
};

// A typed verification failure (never an exception on malformed input).
struct MerkleError {
  std::string what;
};

std::optional<MerkleError> merkle_verify(const Digest& root, unsigned height, size_t index, const Row& row,
                                         const std::vector<Digest>& siblings);
std::optional<MerkleError> merkle_verify_batch(const Digest& root, unsigned height, std::vector<size_t> indices,
                                               const std::vector<Row>& rows, const std::vector<Digest>& proof);

}  // namespace zkrv::ref
