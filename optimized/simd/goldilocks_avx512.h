#pragma once
// Eight Goldilocks elements per AVX-512 register, canonical in [0, p): the same arithmetic as
// opt::Fp (add, sub, mul with the 2^64 = 2^32 - 1, 2^96 = -1 reduction), lane by lane. Only
// included by translation units compiled for AVX-512, which use no templates shared with other
// units (an inline function compiled here could otherwise replace the portable one).

#include <immintrin.h>

#include <cstdint>

#include "spec/field.h"  // for the modulus only (a constant, no function)

namespace zkrv::opt::avx512 {

inline __m512i p_vec() { return _mm512_set1_epi64(static_cast<long long>(spec::GoldilocksTraits::kModulus)); }
inline __m512i eps_vec() { return _mm512_set1_epi64(0xFFFFFFFFll); }

inline __m512i add(__m512i a, __m512i b) {
  const __m512i s = _mm512_add_epi64(a, b);
  const __mmask8 wrap = _mm512_cmplt_epu64_mask(s, a);
  const __mmask8 ge = _mm512_cmpge_epu64_mask(s, p_vec());
  return _mm512_mask_sub_epi64(s, wrap | ge, s, p_vec());  // on wrap, s - p (mod 2^64) = s + 2^32 - 1
}

inline __m512i sub(__m512i a, __m512i b) {
  const __m512i d = _mm512_sub_epi64(a, b);
  return _mm512_mask_add_epi64(d, _mm512_cmplt_epu64_mask(a, b), d, p_vec());
}

// x = hi * 2^64 + lo reduced mod p, as Fp::reduce128: x = lo - hi_hi + hi_lo * (2^32 - 1).
inline __m512i reduce128(__m512i lo, __m512i hi) {
  const __m512i eps = eps_vec();
  const __m512i hi_hi = _mm512_srli_epi64(hi, 32);
  __m512i t0 = _mm512_sub_epi64(lo, hi_hi);
  t0 = _mm512_mask_sub_epi64(t0, _mm512_cmplt_epu64_mask(lo, hi_hi), t0, eps);
  const __m512i t1 = _mm512_mul_epu32(hi, eps);  // (hi mod 2^32) * (2^32 - 1), one instruction
  __m512i r = _mm512_add_epi64(t0, t1);
  r = _mm512_mask_add_epi64(r, _mm512_cmplt_epu64_mask(r, t1), r, eps);
  return _mm512_mask_sub_epi64(r, _mm512_cmpge_epu64_mask(r, p_vec()), r, p_vec());
}

// The 128-bit products from four 32 x 32 multiplications. The high halves come from shuffles
// (port 5) rather than shifts, and the low word is assembled with a shuffle and a blend.
inline __m512i mul(__m512i a, __m512i b) {
  const __m512i a_hi = _mm512_shuffle_epi32(a, _MM_PERM_CDAB), b_hi = _mm512_shuffle_epi32(b, _MM_PERM_CDAB);
  const __m512i ll = _mm512_mul_epu32(a, b), lh = _mm512_mul_epu32(a, b_hi);
  const __m512i hl = _mm512_mul_epu32(a_hi, b), hh = _mm512_mul_epu32(a_hi, b_hi);
  const __m512i lo32 = _mm512_set1_epi64(0xFFFFFFFFll);
  const __m512i t = _mm512_add_epi64(hl, _mm512_srli_epi64(ll, 32));  // < 2^64
  const __m512i u = _mm512_add_epi64(lh, _mm512_and_si512(t, lo32));  // < 2^64
  // lo = (u mod 2^32) * 2^32 + (ll mod 2^32): u's low dword moved up into each odd dword
  const __m512i lo = _mm512_mask_blend_epi32(0xAAAA, ll, _mm512_shuffle_epi32(u, _MM_PERM_CCAA));
  const __m512i hi = _mm512_add_epi64(hh, _mm512_add_epi64(_mm512_srli_epi64(t, 32), _mm512_srli_epi64(u, 32)));
  return reduce128(lo, hi);
}

inline __m512i load(const uint64_t* p) { return _mm512_loadu_si512(p); }
inline void store(uint64_t* p, __m512i v) { _mm512_storeu_si512(p, v); }

}  // namespace zkrv::opt::avx512
