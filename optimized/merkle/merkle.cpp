#include "optimized/merkle/merkle.h"

#include <algorithm>
#include <stdexcept>

namespace zkrv::opt {

MerkleTree::MerkleTree(Backend& be, std::span<const Backend::Slot> slots, size_t leaves) : be_(&be) {
  build(slots, leaves);
}

MerkleTree::MerkleTree(std::span<const Fp> matrix, size_t rows, size_t width, unsigned threads)
    : own_(make_cpu_backend(threads)), be_(own_.get()) {
  if (rows == 0 || (rows & (rows - 1)) || matrix.size() != rows * width)
    throw std::invalid_argument("a Merkle tree needs a power-of-two number of rows and rows * width elements");
  const Backend::Slot row{be_->upload<Fp>(matrix), 0, width};
  build(std::span<const Backend::Slot>(&row, 1), rows);
}

void MerkleTree::build(std::span<const Backend::Slot> slots, size_t leaves) {
  if (leaves == 0 || (leaves & (leaves - 1))) throw std::invalid_argument("a Merkle tree needs a power-of-two number of leaves");
  Buffer<Digest> level = be_->alloc<Digest>(leaves);
  be_->hash_leaves(slots, leaves, 1, 0, level);
  levels_.push_back(std::move(level));
  for (size_t w = leaves / 2; w >= 1; w /= 2) {
    Buffer<Digest> up = be_->alloc<Digest>(w);
    be_->hash_level(levels_.back(), Backend::Children::kPairs, {}, w, 1, 0, up);
    levels_.push_back(std::move(up));
  }
  root_ = be_->gather(levels_.back(), std::vector<size_t>{0})[0];
}

std::vector<Digest> MerkleTree::open(size_t index) const {
  if (index >= leaves()) throw std::out_of_range("leaf index out of range");
  std::vector<Digest> path;
  for (size_t l = 0; l + 1 < levels_.size(); ++l, index /= 2)
    path.push_back(be_->gather(levels_[l], std::vector<size_t>{index ^ 1})[0]);
  return path;
}

// spec: protocol:merkle:batch — per level, the siblings of known nodes that are not known; one
// gather per level.
std::vector<Digest> MerkleTree::open_batch(std::vector<size_t> indices) const {
  std::sort(indices.begin(), indices.end());
  indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
  if (!indices.empty() && indices.back() >= leaves()) throw std::out_of_range("leaf index out of range");
  std::vector<Digest> proof;
  for (size_t l = 0; l + 1 < levels_.size(); ++l) {
    std::vector<size_t> siblings;
    size_t out = 0;
    for (size_t k = 0; k < indices.size(); ++k) {
      const size_t i = indices[k];
      if ((i & 1) == 0 && k + 1 < indices.size() && indices[k + 1] == (i | 1))
        ++k;  // both children known
      else
        siblings.push_back(i ^ 1);
      indices[out++] = i / 2;
    }
    indices.resize(out);
    const std::vector<Digest> got = be_->gather(levels_[l], siblings);
    proof.insert(proof.end(), got.begin(), got.end());
  }
  return proof;
}

size_t MerkleTree::bytes() const {
  size_t b = 0;
  for (const auto& l : levels_) b += l.size() * sizeof(Digest);
  return b;
}

}  // namespace zkrv::opt
