#pragma once
// A Merkle tree over matrices of different power-of-two heights (spec: protocol:merkle:mixed).
// With N the tallest height, leaf i (i < N/2) hashes the rows i and i + N/2 of every matrix of
// height N and row i of every matrix of height N/2; the node at index j of the level of width w
// hashes its children j and j + w of the level below, then, if matrices of height w exist, the
// rows j of those matrices. A position q of the tallest domain is therefore opened by leaf
// q mod N/2, and a matrix of height m meets it at row q mod m: one path opens every matrix.

#include <optional>
#include <string>
#include <vector>

#include "reference/field/goldilocks.h"
#include "reference/hash/keccak.h"
#include "spec/stark.h"

namespace zkrv::ref {

// A matrix as columns of equal power-of-two length (at least 2 for the tallest), owned or viewed.
using Columns = std::vector<std::vector<Fp>>;
using ColumnRefs = std::vector<const std::vector<Fp>*>;
ColumnRefs refs(const Columns& m);

struct MixedShape {
  unsigned log_height;
  size_t width;
};

class MixedMerkleTree {
 public:
  // Matrices in commitment order; empty (width 0) matrices are skipped. Throws
  // std::invalid_argument on columns of unequal or non-power-of-two length.
  explicit MixedMerkleTree(std::vector<ColumnRefs> matrices);
  const Digest& root() const { return levels_.back()[0]; }
  // The opening of leaf i (i < N/2).
  spec::MixedOpening open(size_t leaf) const;
  size_t leaves() const { return levels_.front().size(); }

 private:
  std::vector<ColumnRefs> m_;
  std::vector<std::vector<Digest>> levels_;  // levels_[0]: the N/2 leaves; back(): the root
};

// The rows an opening gives, per matrix: one row (matrices below the tallest height), or two
// (the tallest: rows i and i + N/2, concatenated).
struct MixedRows {
  std::vector<std::vector<Fp>> rows;  // per matrix of `shapes`, in order
};
// Checks `o` as the opening of leaf i in a tree of these shapes (the verifier's, never the
// proof's) with this root: sizes first, then the hashes. Never throws on malformed input.
std::optional<std::string> mixed_verify(const Digest& root, const std::vector<MixedShape>& shapes, size_t leaf,
                                        const spec::MixedOpening& o, MixedRows* rows);

}  // namespace zkrv::ref
