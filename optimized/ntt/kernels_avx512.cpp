// AVX-512 NTT kernels (compiled with -mavx512f/dq/vl/bw; called only when simd.h says so).
// No templates or library inlines here: see goldilocks_avx512.h.
#include "optimized/ntt/kernels.h"
#include "optimized/simd/goldilocks_avx512.h"

namespace zkrv::opt::ntt_kernels {

using namespace zkrv::opt::avx512;  // NOLINT: kernel-local vocabulary

namespace {
uint64_t mul_const(uint64_t a, uint64_t b) {  // for set-up constants only
  const unsigned __int128 x = static_cast<unsigned __int128>(a) * b;
  return static_cast<uint64_t>(x % spec::GoldilocksTraits::kModulus);
}
}  // namespace

void butterflies_avx512(uint64_t* a, uint64_t* b, const uint64_t* tw, size_t count) {
  size_t j = 0;
  for (; j + 8 <= count; j += 8) {
    const __m512i x = load(a + j), t = mul(load(tw + j), load(b + j));
    store(a + j, add(x, t));
    store(b + j, sub(x, t));
  }
  if (j < count) butterflies_scalar(a + j, b + j, tw + j, count - j);
}

namespace {
// The 8 x 8 transpose of r[0..7] (row k = r[k], lane j), in three rounds of block swaps: at
// distance d, rows k and k + d (bit d of k clear) exchange lanes j + d of row k and j of row k + d.
// An involution, so it also transposes back.
void transpose8(__m512i r[8]) {
  const __m512i lo1 = _mm512_setr_epi64(0, 8, 2, 10, 4, 12, 6, 14), hi1 = _mm512_setr_epi64(1, 9, 3, 11, 5, 13, 7, 15);
  const __m512i lo2 = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13), hi2 = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
  const __m512i lo4 = _mm512_setr_epi64(0, 1, 2, 3, 8, 9, 10, 11), hi4 = _mm512_setr_epi64(4, 5, 6, 7, 12, 13, 14, 15);
  const __m512i lo[3] = {lo1, lo2, lo4}, hi[3] = {hi1, hi2, hi4};
  for (int s = 0; s < 3; ++s) {
    const int d = 1 << s;
    for (int k = 0; k < 8; ++k) {
      if (k & d) continue;
      const __m512i a = r[k], b = r[k + d];
      r[k] = _mm512_permutex2var_epi64(a, lo[s], b);
      r[k + d] = _mm512_permutex2var_epi64(a, hi[s], b);
    }
  }
}
void dit_pair(__m512i& a, __m512i& b) {  // twiddle 1
  const __m512i x = a;
  a = add(x, b), b = sub(x, b);
}
void dit_pair(__m512i& a, __m512i& b, __m512i w) {
  const __m512i x = a, t = mul(b, w);
  a = add(x, t), b = sub(x, t);
}
}  // namespace

void first3_avx512(uint64_t* v, size_t len, uint64_t w4, uint64_t w8) {
  const uint64_t w8_2 = mul_const(w8, w8), w8_3 = mul_const(w8_2, w8);
  // 64 values at a time: transposed, register c[j] holds position j of eight groups, so the three
  // stages are plain butterflies between registers (5 multiplications instead of 16), then back.
  const __m512i t4 = _mm512_set1_epi64(static_cast<long long>(w4)), t8 = _mm512_set1_epi64(static_cast<long long>(w8)),
                t8_2 = _mm512_set1_epi64(static_cast<long long>(w8_2)),
                t8_3 = _mm512_set1_epi64(static_cast<long long>(w8_3));
  size_t i = 0;
  for (; i + 64 <= len; i += 64) {
    __m512i c[8];
    for (int k = 0; k < 8; ++k) c[k] = load(v + i + 8 * k);
    transpose8(c);
    dit_pair(c[0], c[1]), dit_pair(c[2], c[3]), dit_pair(c[4], c[5]), dit_pair(c[6], c[7]);
    dit_pair(c[0], c[2]), dit_pair(c[1], c[3], t4), dit_pair(c[4], c[6]), dit_pair(c[5], c[7], t4);
    dit_pair(c[0], c[4]), dit_pair(c[1], c[5], t8), dit_pair(c[2], c[6], t8_2), dit_pair(c[3], c[7], t8_3);
    transpose8(c);
    for (int k = 0; k < 8; ++k) store(v + i + 8 * k, c[k]);
  }
  // Per stage: X = the "a" inputs and Y = the "b" inputs gathered to every lane, Y times the
  // lane's twiddle, then lanes in the upper half of each pair take X - Y.
  const __m512i x1 = _mm512_setr_epi64(0, 0, 2, 2, 4, 4, 6, 6), y1 = _mm512_setr_epi64(1, 1, 3, 3, 5, 5, 7, 7);
  const __m512i x2 = _mm512_setr_epi64(0, 1, 0, 1, 4, 5, 4, 5), y2 = _mm512_setr_epi64(2, 3, 2, 3, 6, 7, 6, 7);
  const __m512i x3 = _mm512_setr_epi64(0, 1, 2, 3, 0, 1, 2, 3), y3 = _mm512_setr_epi64(4, 5, 6, 7, 4, 5, 6, 7);
  const __m512i t2 = _mm512_setr_epi64(1, static_cast<long long>(w4), 1, static_cast<long long>(w4), 1,
                                       static_cast<long long>(w4), 1, static_cast<long long>(w4));
  const __m512i t3 = _mm512_setr_epi64(1, static_cast<long long>(w8), static_cast<long long>(w8_2),
                                       static_cast<long long>(w8_3), 1, static_cast<long long>(w8),
                                       static_cast<long long>(w8_2), static_cast<long long>(w8_3));
  for (; i < len; i += 8) {  // fewer than 64 left: one group of 8 per register
    __m512i e = load(v + i);
    {
      const __m512i x = _mm512_permutexvar_epi64(x1, e), y = _mm512_permutexvar_epi64(y1, e);
      e = _mm512_mask_blend_epi64(0xAA, add(x, y), sub(x, y));
    }
    {
      const __m512i x = _mm512_permutexvar_epi64(x2, e), y = mul(_mm512_permutexvar_epi64(y2, e), t2);
      e = _mm512_mask_blend_epi64(0xCC, add(x, y), sub(x, y));
    }
    {
      const __m512i x = _mm512_permutexvar_epi64(x3, e), y = mul(_mm512_permutexvar_epi64(y3, e), t3);
      e = _mm512_mask_blend_epi64(0xF0, add(x, y), sub(x, y));
    }
    store(v + i, e);
  }
}

void butterflies_dif_avx512(uint64_t* a, uint64_t* b, const uint64_t* tw, size_t count) {
  size_t j = 0;
  for (; j + 8 <= count; j += 8) {
    const __m512i u = load(a + j), v = load(b + j);
    store(a + j, add(u, v));
    store(b + j, mul(sub(u, v), load(tw + j)));
  }
  if (j < count) butterflies_dif_scalar(a + j, b + j, tw + j, count - j);
}

void last3_dif_avx512(uint64_t* v, size_t len, uint64_t w4, uint64_t w8) {
  const uint64_t w8_2 = mul_const(w8, w8), w8_3 = mul_const(w8_2, w8);
  // Per stage: lanes of the lower half of each pair take X + Y, the upper half (X - Y) t, where X
  // and Y are the pair's "a" and "b" gathered to every lane.
  const __m512i x3 = _mm512_setr_epi64(0, 1, 2, 3, 0, 1, 2, 3), y3 = _mm512_setr_epi64(4, 5, 6, 7, 4, 5, 6, 7);
  const __m512i x2 = _mm512_setr_epi64(0, 1, 0, 1, 4, 5, 4, 5), y2 = _mm512_setr_epi64(2, 3, 2, 3, 6, 7, 6, 7);
  const __m512i x1 = _mm512_setr_epi64(0, 0, 2, 2, 4, 4, 6, 6), y1 = _mm512_setr_epi64(1, 1, 3, 3, 5, 5, 7, 7);
  const __m512i t3 = _mm512_setr_epi64(1, 1, 1, 1, 1, static_cast<long long>(w8), static_cast<long long>(w8_2),
                                       static_cast<long long>(w8_3));
  const __m512i t2 = _mm512_setr_epi64(1, 1, 1, static_cast<long long>(w4), 1, 1, 1, static_cast<long long>(w4));
  for (size_t i = 0; i < len; i += 8) {
    __m512i e = load(v + i);
    {
      const __m512i x = _mm512_permutexvar_epi64(x3, e), y = _mm512_permutexvar_epi64(y3, e);
      e = _mm512_mask_blend_epi64(0xF0, add(x, y), mul(sub(x, y), t3));
    }
    {
      const __m512i x = _mm512_permutexvar_epi64(x2, e), y = _mm512_permutexvar_epi64(y2, e);
      e = _mm512_mask_blend_epi64(0xCC, add(x, y), mul(sub(x, y), t2));
    }
    {
      const __m512i x = _mm512_permutexvar_epi64(x1, e), y = _mm512_permutexvar_epi64(y1, e);
      e = _mm512_mask_blend_epi64(0xAA, add(x, y), sub(x, y));
    }
    store(v + i, e);
  }
}

void dit_cross_avx512(uint64_t* v, size_t h0, unsigned k, const uint64_t* tw, size_t j0, size_t j1) {
  const size_t R = size_t{1} << k;
  __m512i x[16];
  for (size_t j = j0; j < j1; j += 8) {
    for (size_t r = 0; r < R; ++r) x[r] = load(v + j + r * h0);
    for (unsigned t = 0; t < k; ++t) {
      const size_t d = size_t{1} << t, half = h0 << t;
      for (size_t r = 0; r < R; ++r) {
        if (r & d) continue;
        const __m512i a = x[r], b = mul(load(tw + half + j + (r & (d - 1)) * h0), x[r + d]);
        x[r] = add(a, b), x[r + d] = sub(a, b);
      }
    }
    for (size_t r = 0; r < R; ++r) store(v + j + r * h0, x[r]);
  }
}

void dif_cross_avx512(uint64_t* v, size_t h0, unsigned k, const uint64_t* tw, size_t j0, size_t j1) {
  const size_t R = size_t{1} << k;
  __m512i x[16];
  for (size_t j = j0; j < j1; j += 8) {
    for (size_t r = 0; r < R; ++r) x[r] = load(v + j + r * h0);
    for (unsigned t = k; t-- > 0;) {
      const size_t d = size_t{1} << t, half = h0 << t;
      for (size_t r = 0; r < R; ++r) {
        if (r & d) continue;
        const __m512i a = x[r], b = x[r + d];
        x[r] = add(a, b), x[r + d] = mul(sub(a, b), load(tw + half + j + (r & (d - 1)) * h0));
      }
    }
    for (size_t r = 0; r < R; ++r) store(v + j + r * h0, x[r]);
  }
}

void dit_stage_avx512(uint64_t* v, size_t len, size_t half, const uint64_t* tw) {
  if (half < 8) {
    dit_stage_scalar(v, len, half, tw);
    return;
  }
  for (size_t s = 0; s < len; s += 2 * half)
    for (size_t j = 0; j < half; j += 8) {
      uint64_t* a = v + s + j;
      const __m512i x = load(a), t = mul(load(tw + j), load(a + half));
      store(a, add(x, t));
      store(a + half, sub(x, t));
    }
}

void dif_stage_avx512(uint64_t* v, size_t len, size_t half, const uint64_t* tw) {
  if (half < 8) {
    dif_stage_scalar(v, len, half, tw);
    return;
  }
  for (size_t s = 0; s < len; s += 2 * half)
    for (size_t j = 0; j < half; j += 8) {
      uint64_t* a = v + s + j;
      const __m512i x = load(a), y = load(a + half);
      store(a, add(x, y));
      store(a + half, mul(sub(x, y), load(tw + j)));
    }
}

void mul_avx512(uint64_t* v, const uint64_t* m, size_t len) {
  size_t i = 0;
  for (; i + 8 <= len; i += 8) store(v + i, mul(load(v + i), load(m + i)));
  if (i < len) mul_scalar(v + i, m + i, len - i);
}

void scale_avx512(uint64_t* v, size_t len, uint64_t c) {
  const __m512i cv = _mm512_set1_epi64(static_cast<long long>(c));
  size_t i = 0;
  for (; i + 8 <= len; i += 8) store(v + i, mul(load(v + i), cv));
  if (i < len) scale_scalar(v + i, len - i, c);
}

void powers_scale_avx512(uint64_t* v, size_t len, uint64_t c, uint64_t d) {
  // lanes hold d c^i .. d c^(i+7); each step multiplies by c^8
  alignas(64) uint64_t start[8];
  start[0] = d;
  for (int k = 1; k < 8; ++k) start[k] = mul_const(start[k - 1], c);
  uint64_t c8 = 1;
  for (int k = 0; k < 8; ++k) c8 = mul_const(c8, c);
  __m512i pw = load(start);
  const __m512i step = _mm512_set1_epi64(static_cast<long long>(c8));
  size_t i = 0;
  for (; i + 8 <= len; i += 8) {
    store(v + i, mul(load(v + i), pw));
    pw = mul(pw, step);
  }
  if (i < len) {
    alignas(64) uint64_t rest[8];
    store(rest, pw);
    for (size_t k = 0; i + k < len; ++k) v[i + k] = mul_const(v[i + k], rest[k]);
  }
}

}  // namespace zkrv::opt::ntt_kernels
