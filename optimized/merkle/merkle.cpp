#include "optimized/merkle/merkle.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "optimized/common/parallel.h"

namespace zkrv::opt {
MerkleTree::MerkleTree(std::span<const Fp> matrix, size_t rows, size_t width, unsigned threads) {
  if (rows == 0 || (rows & (rows - 1)) || matrix.size() != rows * width)
    throw std::invalid_argument("a Merkle tree needs a power-of-two number of rows and rows * width elements");
  threads = resolve_threads(threads);
  layers_.emplace_back(rows);
  parallel_for(rows, threads, [&](size_t b, size_t e) {
    std::vector<uint8_t> buf(1 + 8 * width);
    buf[0] = 0x00;  // protocol:merkle:leaf
    for (size_t r = b; r < e; ++r) {
      for (size_t c = 0; c < width; ++c) {
        const uint64_t v = matrix[r * width + c].value();
        std::memcpy(buf.data() + 1 + 8 * c, &v, 8);  // little-endian host
      }
      layers_[0][r] = keccak256(buf);
    }
  });
  while (layers_.back().size() > 1) {
    const auto& below = layers_.back();
    std::vector<Digest> up(below.size() / 2);
    parallel_for(up.size(), threads, [&](size_t b, size_t e) {
      uint8_t buf[65];
      buf[0] = 0x01;  // protocol:merkle:node
      for (size_t i = b; i < e; ++i) {
        std::memcpy(buf + 1, below[2 * i].data(), 32);
        std::memcpy(buf + 33, below[2 * i + 1].data(), 32);
        up[i] = keccak256(std::span<const uint8_t>(buf, 65));
      }
    });
    layers_.push_back(std::move(up));
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
  if (!indices.empty() && indices.back() >= layers_[0].size()) throw std::out_of_range("leaf index out of range");
  std::vector<Digest> proof;
  for (size_t level = 0; level + 1 < layers_.size(); ++level) {
    size_t out = 0;
    for (size_t k = 0; k < indices.size(); ++k) {
      const size_t i = indices[k];
      if ((i & 1) == 0 && k + 1 < indices.size() && indices[k + 1] == (i | 1)) {
        ++k;  // both children known
      } else {
        proof.push_back(layers_[level][i ^ 1]);
      }
      indices[out++] = i / 2;
    }
    indices.resize(out);
  }
  return proof;
}

}  // namespace zkrv::opt
