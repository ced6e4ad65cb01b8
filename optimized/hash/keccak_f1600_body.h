#pragma once
// The single-state Keccak-f[1600] body, included by keccak.cpp (portable) and keccak_bmi2.cpp
// (compiled with -mbmi -mbmi2, so chi uses andn and the rotations rorx). Internal linkage: each
// file gets its own copy, compiled for its own target.
#include <cstdint>
#include <cstring>

#include "spec/keccak.h"

namespace zkrv::opt {
namespace {

// rho-pi as one cycle through the lanes: lane kPi[i] receives the previous lane rotated by kRot[i].
constexpr int kPi[24] = {10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4, 15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1};
constexpr unsigned kRot[24] = {1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14, 27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44};

inline uint64_t rotl(uint64_t v, unsigned s) { return (v << s) | (v >> (64 - s)); }

inline void keccak_f1600_body(uint64_t state[25]) {
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

}  // namespace
}  // namespace zkrv::opt
