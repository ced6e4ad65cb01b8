#include "reference/merkle/merkle.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace zkrv::ref {

// spec: protocol:merkle:leaf
Digest merkle_leaf(const Row& row) {
  std::vector<uint8_t> bytes{0x00};
  for (const Fp& x : row)
    for (int k = 0; k < 8; ++k) bytes.push_back(static_cast<uint8_t>(x.value() >> (8 * k)));
  return keccak256(bytes);
}

// spec: protocol:merkle:node
Digest merkle_node(const Digest& left, const Digest& right) {
  std::vector<uint8_t> bytes{0x01};
  bytes.insert(bytes.end(), left.begin(), left.end());
  bytes.insert(bytes.end(), right.begin(), right.end());
  return keccak256(bytes);
}

MerkleTree::MerkleTree(const std::vector<Row>& rows) {
  if (rows.empty() || (rows.size() & (rows.size() - 1)))
    throw std::invalid_argument("a Merkle tree needs a power-of-two number of rows");
  std::vector<Digest> layer;
  for (const Row& r : rows) layer.push_back(merkle_leaf(r));
  layers_.push_back(layer);
  while (layers_.back().size() > 1) {
    const auto& below = layers_.back();
    std::vector<Digest> up;
    for (size_t i = 0; i < below.size(); i += 2) up.push_back(merkle_node(below[i], below[i + 1]));
    layers_.push_back(up);
  }
}

std::vector<Digest> MerkleTree::open(size_t index) const {
  if (index >= layers_[0].size()) throw std::out_of_range("leaf index out of range");
  std::vector<Digest> path;
  for (size_t level = 0; level + 1 < layers_.size(); ++level, index /= 2) path.push_back(layers_[level][index ^ 1]);
  return path;
}

// spec: protocol:merkle:batch — per layer, the siblings of known nodes that are not known.
std::vector<Digest> MerkleTree::open_batch(std::vector<size_t> indices) const {
  std::sort(indices.begin(), indices.end());
  indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
  for (size_t i : indices)
    if (i >= layers_[0].size()) throw std::out_of_range("leaf index out of range");
  std::vector<Digest> proof;
  for (size_t level = 0; level + 1 < layers_.size(); ++level) {
    std::vector<size_t> up;
    for (size_t k = 0; k < indices.size(); ++k) {
      const size_t i = indices[k];
      const bool sibling_known = (i ^ 1) == (k + 1 < indices.size() ? indices[k + 1] : ~size_t{0}) ||
                                 (k > 0 && (i ^ 1) == indices[k - 1]);
      if (!sibling_known) proof.push_back(layers_[level][i ^ 1]);
      if (up.empty() || up.back() != i / 2) up.push_back(i / 2);
    }
    indices = up;
  }
  return proof;
}

std::optional<MerkleError> merkle_verify(const Digest& root, unsigned height, size_t index, const Row& row,
                                         const std::vector<Digest>& siblings) {
  if (height >= 64 || siblings.size() != height) return MerkleError{"opening has the wrong number of siblings"};
  if (index >> height) return MerkleError{"leaf index out of range"};
  Digest h = merkle_leaf(row);
  for (unsigned level = 0; level < height; ++level, index /= 2)
    h = (index & 1) ? merkle_node(siblings[level], h) : merkle_node(h, siblings[level]);
  if (h != root) return MerkleError{"root mismatch"};
  return std::nullopt;
}

std::optional<MerkleError> merkle_verify_batch(const Digest& root, unsigned height, std::vector<size_t> indices,
                                               const std::vector<Row>& rows, const std::vector<Digest>& proof) {
  if (height >= 64) return MerkleError{"tree height out of range"};
  if (indices.size() != rows.size() || indices.empty()) return MerkleError{"one row per index is needed"};
  std::map<size_t, Digest> known;
  for (size_t k = 0; k < indices.size(); ++k) {
    if (indices[k] >> height) return MerkleError{"leaf index out of range"};
    const Digest leaf = merkle_leaf(rows[k]);
    auto [it, fresh] = known.emplace(indices[k], leaf);
    if (!fresh && it->second != leaf) return MerkleError{"the same index opened with two different rows"};
  }
  size_t used = 0;
  for (unsigned level = 0; level < height; ++level) {
    std::map<size_t, Digest> up;
    for (auto it = known.begin(); it != known.end(); ++it) {
      const size_t i = it->first;
      if ((i & 1) && known.count(i ^ 1)) continue;  // handled with its left sibling
      Digest sibling;
      if (auto s = known.find(i ^ 1); s != known.end()) {
        sibling = s->second;
      } else {
        if (used >= proof.size()) return MerkleError{"batch proof too short"};
        sibling = proof[used++];
      }
      up[i / 2] = (i & 1) ? merkle_node(sibling, it->second) : merkle_node(it->second, sibling);
    }
    known = std::move(up);
  }
  if (used != proof.size()) return MerkleError{"batch proof has unused digests"};
  if (known.size() != 1 || known.begin()->second != root) return MerkleError{"root mismatch"};
  return std::nullopt;
}

}  // namespace zkrv::ref
