#pragma once
// The plain Merkle tree (spec: protocol:merkle:leaf, protocol:merkle:node, protocol:merkle:batch)
// on the backend seam: every level a buffer of the backend (the leaves first, the root last),
// hashed with Backend::hash_leaves and Backend::hash_level, so the digests stay where the backend
// computes. The same root and openings as ref::MerkleTree for any backend and thread count. The
// FRI layers commit with it; the tables' columns commit with the mixed tree (mixed.h), on the
// same two seam operations.

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "optimized/backend/backend.h"

namespace zkrv::opt {

class MerkleTree {
 public:
  // `leaves` leaves (a power of two), leaf q hashing the slots' values for q.
  MerkleTree(Backend& be, std::span<const Backend::Slot> slots, size_t leaves);
  // A host matrix: rows * width elements, row-major (row r is leaf r); rows a power of two;
  // built on a CPU backend of its own (threads = 0: all cores).
  MerkleTree(std::span<const Fp> matrix, size_t rows, size_t width, unsigned threads = 0);
  MerkleTree(const MerkleTree&) = delete;
  MerkleTree& operator=(const MerkleTree&) = delete;
  MerkleTree(MerkleTree&&) = default;

  const Digest& root() const { return root_; }
  unsigned height() const { return static_cast<unsigned>(levels_.size() - 1); }
  size_t leaves() const { return levels_.front().size(); }
  std::vector<Digest> open(size_t index) const;
  // protocol:merkle:batch, the same digests as ref::MerkleTree::open_batch.
  std::vector<Digest> open_batch(std::vector<size_t> indices) const;
  size_t bytes() const;  // what its levels hold

 private:
  void build(std::span<const Backend::Slot> slots, size_t leaves);
  std::unique_ptr<Backend> own_;  // the host constructor's backend
  Backend* be_;
  std::vector<Buffer<Digest>> levels_;
  Digest root_{};
};

}  // namespace zkrv::opt
