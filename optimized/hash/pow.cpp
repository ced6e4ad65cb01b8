#include "optimized/hash/pow.h"

#include <atomic>
#include <cstring>

#include "optimized/common/parallel.h"

namespace zkrv::opt {

unsigned pow_zero_bits(const Digest& state, uint64_t nonce) {
  uint8_t b[41];
  b[0] = 0x03;
  std::memcpy(b + 1, state.data(), 32);
  for (int i = 0; i < 8; ++i) b[33 + i] = static_cast<uint8_t>(nonce >> (8 * i));
  const Digest d = keccak256(std::span<const uint8_t>(b, 41));
  unsigned zeros = 0;
  for (uint8_t byte : d) {
    if (byte != 0) return zeros + static_cast<unsigned>(__builtin_clz(byte)) - 24;
    zeros += 8;
  }
  return zeros;
}

uint64_t grind_pow(const Digest& state, unsigned bits, unsigned threads) {
  if (bits == 0) return 0;
  constexpr uint64_t kBlock = 4096;
  std::atomic<uint64_t> best{UINT64_MAX};
  std::atomic<uint64_t> next_block{0};
  auto work = [&] {
    for (;;) {
      const uint64_t start = next_block.fetch_add(1) * kBlock;
      if (start >= best.load()) return;  // every later block only holds larger nonces
      for (uint64_t n = start; n < start + kBlock; ++n)
        if (pow_zero_bits(state, n) >= bits) {
          uint64_t cur = best.load();
          while (n < cur && !best.compare_exchange_weak(cur, n)) {}
          break;
        }
    }
  };
  run_on_threads(resolve_threads(threads), [&work](unsigned) { work(); });
  return best.load();
}

}  // namespace zkrv::opt
