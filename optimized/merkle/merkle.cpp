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
  // Leaves and nodes are hashed eight at a time (keccak256_x8: one AVX-512 lane per message);
  // ranges handed to threads are multiples of 8, the remainder goes one by one.
  const size_t leaf_bytes = 1 + 8 * width;
  parallel_for(rows, threads, [&](size_t b, size_t e) {
    std::vector<uint8_t> buf(8 * leaf_bytes);
    const uint8_t* msgs[8];
    for (int m = 0; m < 8; ++m) msgs[m] = buf.data() + m * leaf_bytes;
    auto fill = [&](size_t slot, size_t r) {
      uint8_t* p = buf.data() + slot * leaf_bytes;
      p[0] = 0x00;  // protocol:merkle:leaf
      std::memcpy(p + 1, matrix.data() + r * width, 8 * width);  // canonical words, little-endian host
    };
    size_t r = b;
    for (; r + 8 <= e; r += 8) {
      for (size_t m = 0; m < 8; ++m) fill(m, r + m);
      keccak256_x8(msgs, leaf_bytes, &layers_[0][r]);
    }
    for (; r < e; ++r) {
      fill(0, r);
      layers_[0][r] = keccak256(std::span<const uint8_t>(buf.data(), leaf_bytes));
    }
  }, 256);
  while (layers_.back().size() > 1) {
    const auto& below = layers_.back();
    std::vector<Digest> up(below.size() / 2);
    parallel_for(up.size(), threads, [&](size_t b, size_t e) {
      uint8_t buf[8][65];
      const uint8_t* msgs[8];
      for (int m = 0; m < 8; ++m) msgs[m] = buf[m];
      auto fill = [&](size_t slot, size_t i) {
        buf[slot][0] = 0x01;  // protocol:merkle:node
        std::memcpy(buf[slot] + 1, below[2 * i].data(), 32);
        std::memcpy(buf[slot] + 33, below[2 * i + 1].data(), 32);
      };
      size_t i = b;
      for (; i + 8 <= e; i += 8) {
        for (size_t m = 0; m < 8; ++m) fill(m, i + m);
        keccak256_x8(msgs, 65, &up[i]);
      }
      for (; i < e; ++i) {
        fill(0, i);
        up[i] = keccak256(std::span<const uint8_t>(buf[0], 65));
      }
    }, 256);
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
