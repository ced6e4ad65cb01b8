// Eight Keccak-f[1600] states at once, one per 64-bit lane of an AVX-512 register: theta with
// three-way XORs (vpternlogq 0x96), rho with vprolq, chi with vpternlogq 0xD2 (a ^ (~b & c)).
// Compiled for AVX-512 and called only after the CPUID check (optimized/simd); no templates here.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

#include "spec/keccak.h"

namespace zkrv::opt::keccak_kernels {
namespace {

constexpr int kPi[24] = {10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4, 15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1};
constexpr int kRot[24] = {1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14, 27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44};

template <int R>
__m512i rol(__m512i v) { return _mm512_rol_epi64(v, R); }

// rho-pi step i of the lane cycle (vprolq needs an immediate, hence the index sequence).
template <int... I>
void rho_pi(__m512i* a, std::integer_sequence<int, I...>) {
  __m512i t = a[1];
  ((void)(([&] {
     const __m512i next = a[kPi[I]];
     a[kPi[I]] = rol<kRot[I]>(t);
     t = next;
   })()), ...);
}

inline void permute(__m512i* a) {
  for (int round = 0; round < 24; ++round) {
    __m512i c[5];
    for (int x = 0; x < 5; ++x)
      c[x] = _mm512_ternarylogic_epi64(_mm512_ternarylogic_epi64(a[x], a[x + 5], a[x + 10], 0x96), a[x + 15],
                                       a[x + 20], 0x96);
    for (int x = 0; x < 5; ++x) {
      const __m512i d = _mm512_xor_si512(c[(x + 4) % 5], rol<1>(c[(x + 1) % 5]));
      for (int y = 0; y < 25; y += 5) a[y + x] = _mm512_xor_si512(a[y + x], d);
    }
    rho_pi(a, std::make_integer_sequence<int, 24>{});
    for (int y = 0; y < 25; y += 5) {
      const __m512i b0 = a[y], b1 = a[y + 1], b2 = a[y + 2], b3 = a[y + 3], b4 = a[y + 4];
      a[y] = _mm512_ternarylogic_epi64(b0, b1, b2, 0xD2);
      a[y + 1] = _mm512_ternarylogic_epi64(b1, b2, b3, 0xD2);
      a[y + 2] = _mm512_ternarylogic_epi64(b2, b3, b4, 0xD2);
      a[y + 3] = _mm512_ternarylogic_epi64(b3, b4, b0, 0xD2);
      a[y + 4] = _mm512_ternarylogic_epi64(b4, b0, b1, 0xD2);
    }
    a[0] = _mm512_xor_si512(a[0], _mm512_set1_epi64(static_cast<long long>(spec::kKeccakRoundConstants[round])));
  }
}

}  // namespace

// Keccak-256 (pad byte `pad`, protocol:hash:keccak256) of 8 messages of the same length.
void keccak256_x8_avx512(const uint8_t* const msgs[8], size_t len, uint8_t pad, uint8_t out[8][32]) {
  constexpr size_t kRate = 136, kWords = kRate / 8;
  __m512i a[25];
  for (auto& v : a) v = _mm512_setzero_si512();
  alignas(64) uint64_t w[8];
  size_t off = 0;
  for (; off + kRate <= len; off += kRate) {
    for (size_t i = 0; i < kWords; ++i) {
      for (int m = 0; m < 8; ++m) std::memcpy(&w[m], msgs[m] + off + 8 * i, 8);
      a[i] = _mm512_xor_si512(a[i], _mm512_load_si512(w));
    }
    permute(a);
  }
  // last block: the tail, the pad byte, the final 0x80
  const size_t tail = len - off;
  uint8_t last[8][kRate];
  for (int m = 0; m < 8; ++m) {
    std::memset(last[m], 0, kRate);
    if (tail) std::memcpy(last[m], msgs[m] + off, tail);
    last[m][tail] ^= pad;
    last[m][kRate - 1] ^= 0x80;
  }
  for (size_t i = 0; i < kWords; ++i) {
    for (int m = 0; m < 8; ++m) std::memcpy(&w[m], last[m] + 8 * i, 8);
    a[i] = _mm512_xor_si512(a[i], _mm512_load_si512(w));
  }
  permute(a);
  for (int i = 0; i < 4; ++i) {
    _mm512_store_si512(w, a[i]);
    for (int m = 0; m < 8; ++m) std::memcpy(out[m] + 8 * i, &w[m], 8);
  }
}

// The bare permutation on 8 states, for benchmarks and tests: states[m] is state m.
void keccak_f1600_x8_avx512(uint64_t states[8][25]) {
  __m512i a[25];
  alignas(64) uint64_t w[8];
  for (int i = 0; i < 25; ++i) {
    for (int m = 0; m < 8; ++m) w[m] = states[m][i];
    a[i] = _mm512_load_si512(w);
  }
  permute(a);
  for (int i = 0; i < 25; ++i) {
    _mm512_store_si512(w, a[i]);
    for (int m = 0; m < 8; ++m) states[m][i] = w[m];
  }
}

}  // namespace zkrv::opt::keccak_kernels
