#pragma once
// Fast Merkle tree over a row-major matrix of field elements, built with several threads; the
// same root and openings as ref::MerkleTree (spec: protocol:merkle:*) for any thread count.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "optimized/field/goldilocks.h"
#include "optimized/hash/keccak.h"

namespace zkrv::opt {

class MerkleTree {
 public:
  // rows * width elements, row-major; rows must be a power of two. threads = 0: all cores.
  MerkleTree(std::span<const Fp> matrix, size_t rows, size_t width, unsigned threads = 0);
  const Digest& root() const { return layers_.back()[0]; }
  unsigned height() const { return static_cast<unsigned>(layers_.size() - 1); }
  std::vector<Digest> open(size_t index) const;
  size_t bytes() const {  // what its digests hold
    size_t b = 0;
    for (const auto& l : layers_) b += l.size() * sizeof(Digest);
    return b;
  }
  // protocol:merkle:batch, the same digests as ref::MerkleTree::open_batch.
  std::vector<Digest> open_batch(std::vector<size_t> indices) const;

 private:
  std::vector<std::vector<Digest>> layers_;
};

}  // namespace zkrv::opt
