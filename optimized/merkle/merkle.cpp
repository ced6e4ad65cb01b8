#include "optimized/merkle/merkle.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace zkrv::opt {
namespace {

// Runs body(begin, end) over [0, n) split into contiguous chunks, one per thread. Each index is
// written by exactly one thread, so the result does not depend on the thread count.
template <typename F>
void parallel_for(size_t n, unsigned threads, F&& body) {
  if (threads <= 1 || n < 64) {
    body(size_t{0}, n);
    return;
  }
  std::vector<std::thread> pool;
  const size_t chunk = (n + threads - 1) / threads;
  for (unsigned t = 0; t < threads; ++t) {
    const size_t b = t * chunk, e = std::min(n, b + chunk);
    if (b < e) pool.emplace_back([&, b, e] { body(b, e); });
  }
  for (auto& th : pool) th.join();
}

}  // namespace

MerkleTree::MerkleTree(std::span<const Fp> matrix, size_t rows, size_t width, unsigned threads) {
  if (rows == 0 || (rows & (rows - 1)) || matrix.size() != rows * width)
    throw std::invalid_argument("a Merkle tree needs a power-of-two number of rows and rows * width elements");
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
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

}  // namespace zkrv::opt
