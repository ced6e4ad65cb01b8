#include "optimized/hash/keccak.h"

#include <cstring>

#include "optimized/simd/simd.h"
#include "spec/keccak.h"

namespace zkrv::opt::keccak_kernels {
void keccak256_x8_avx512(const uint8_t* const msgs[8], size_t len, uint8_t pad, uint8_t out[8][32]);
void keccak_f1600_x8_avx512(uint64_t states[8][25]);
}  // namespace zkrv::opt::keccak_kernels

namespace zkrv::opt {
namespace {

// rho-pi as one cycle through the lanes: lane kPi[i] receives the previous lane rotated by kRot[i].
constexpr int kPi[24] = {10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4, 15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1};
constexpr unsigned kRot[24] = {1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14, 27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44};

inline uint64_t rotl(uint64_t v, unsigned s) { return (v << s) | (v >> (64 - s)); }

}  // namespace

void keccak_f1600(uint64_t state[25]) {
  uint64_t a[25];  // a local copy the compiler can keep in registers
  std::memcpy(a, state, sizeof a);
#pragma GCC unroll 2
  for (int round = 0; round < 24; ++round) {
    uint64_t c0 = a[0] ^ a[5] ^ a[10] ^ a[15] ^ a[20], c1 = a[1] ^ a[6] ^ a[11] ^ a[16] ^ a[21],
             c2 = a[2] ^ a[7] ^ a[12] ^ a[17] ^ a[22], c3 = a[3] ^ a[8] ^ a[13] ^ a[18] ^ a[23],
             c4 = a[4] ^ a[9] ^ a[14] ^ a[19] ^ a[24];
    const uint64_t d0 = c4 ^ rotl(c1, 1), d1 = c0 ^ rotl(c2, 1), d2 = c1 ^ rotl(c3, 1), d3 = c2 ^ rotl(c4, 1),
                   d4 = c3 ^ rotl(c0, 1);
#pragma GCC unroll 5
    for (int y = 0; y < 25; y += 5) {
      a[y] ^= d0; a[y + 1] ^= d1; a[y + 2] ^= d2; a[y + 3] ^= d3; a[y + 4] ^= d4;
    }
    uint64_t t = a[1];
#pragma GCC unroll 24
    for (int i = 0; i < 24; ++i) {
      const int j = kPi[i];
      const uint64_t next = a[j];
      a[j] = rotl(t, kRot[i]);
      t = next;
    }
#pragma GCC unroll 5
    for (int y = 0; y < 25; y += 5) {
      const uint64_t b0 = a[y], b1 = a[y + 1], b2 = a[y + 2], b3 = a[y + 3], b4 = a[y + 4];
      a[y] = b0 ^ (~b1 & b2); a[y + 1] = b1 ^ (~b2 & b3); a[y + 2] = b2 ^ (~b3 & b4);
      a[y + 3] = b3 ^ (~b4 & b0); a[y + 4] = b4 ^ (~b0 & b1);
    }
    a[0] ^= spec::kKeccakRoundConstants[static_cast<size_t>(round)];
  }
  std::memcpy(state, a, sizeof a);
}

Digest keccak_sponge_256(std::span<const uint8_t> data, uint8_t pad) {
  constexpr size_t kRate = 136;
  uint64_t st[25] = {};
  auto absorb = [&](const uint8_t* block) {
    for (size_t i = 0; i < kRate / 8; ++i) {
      uint64_t w;
      std::memcpy(&w, block + 8 * i, 8);  // little-endian host
      st[i] ^= w;
    }
    keccak_f1600(st);
  };
  size_t off = 0;
  for (; off + kRate <= data.size(); off += kRate) absorb(data.data() + off);
  uint8_t last[kRate] = {};
  if (data.size() > off) std::memcpy(last, data.data() + off, data.size() - off);
  last[data.size() - off] ^= pad;
  last[kRate - 1] ^= 0x80;
  absorb(last);
  Digest out;
  std::memcpy(out.data(), st, 32);
  return out;
}

void keccak256_x8(const uint8_t* const msgs[8], size_t len, Digest out[8]) {
  if (simd_level() == SimdLevel::kAvx512) {
    uint8_t o[8][32];
    keccak_kernels::keccak256_x8_avx512(msgs, len, 0x01, o);
    for (int m = 0; m < 8; ++m) std::memcpy(out[m].data(), o[m], 32);
    return;
  }
  for (int m = 0; m < 8; ++m) out[m] = keccak256(std::span<const uint8_t>(msgs[m], len));
}

void keccak_f1600_x8(uint64_t states[8][25]) {
  if (simd_level() == SimdLevel::kAvx512) return keccak_kernels::keccak_f1600_x8_avx512(states);
  for (int m = 0; m < 8; ++m) keccak_f1600(states[m]);
}

}  // namespace zkrv::opt
