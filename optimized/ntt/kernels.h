#pragma once
// NTT butterfly kernels on raw canonical words, one scalar and one AVX-512 version of each with
// identical results. ntt.cpp schedules them; simd.h picks the version.
#include <cstddef>
#include <cstdint>

namespace zkrv::opt::ntt_kernels {

// For j < count: t = tw[j] * b[j]; a[j], b[j] = a[j] + t, a[j] - t (one radix-2 DIT stage piece).
void butterflies_scalar(uint64_t* a, uint64_t* b, const uint64_t* tw, size_t count);
void butterflies_avx512(uint64_t* a, uint64_t* b, const uint64_t* tw, size_t count);
// The first three DIT stages (half = 1, 2, 4) on every group of 8 in v[0, len), len % 8 == 0;
// w4, w8 are the primitive 4th and 8th roots the transform uses.
void first3_scalar(uint64_t* v, size_t len, uint64_t w4, uint64_t w8);
void first3_avx512(uint64_t* v, size_t len, uint64_t w4, uint64_t w8);
// One whole stage over v[0, len): every group of 2 * half, radix-2 DIT / DIF, tw = the stage's
// twiddles (tree + half). Saves a call per group in the small stages.
void dit_stage_scalar(uint64_t* v, size_t len, size_t half, const uint64_t* tw);
void dit_stage_avx512(uint64_t* v, size_t len, size_t half, const uint64_t* tw);
void dif_stage_scalar(uint64_t* v, size_t len, size_t half, const uint64_t* tw);
void dif_stage_avx512(uint64_t* v, size_t len, size_t half, const uint64_t* tw);
// Decimation in frequency (Gentleman-Sande): for j < count: a[j], b[j] = a[j] + b[j], (a[j] - b[j]) tw[j].
void butterflies_dif_scalar(uint64_t* a, uint64_t* b, const uint64_t* tw, size_t count);
void butterflies_dif_avx512(uint64_t* a, uint64_t* b, const uint64_t* tw, size_t count);
// The last three DIF stages (half = 4, 2, 1) on every group of 8 in v[0, len).
void last3_dif_scalar(uint64_t* v, size_t len, uint64_t w4, uint64_t w8);
void last3_dif_avx512(uint64_t* v, size_t len, uint64_t w4, uint64_t w8);
// The stages across blocks, k of them (1 ≤ k ≤ 4) in one pass over the group of 2^k·h0 values
// at v: for each j in [j0, j1), the 2^k values v[j + r·h0] are loaded once and go through the
// stages half = h0, 2·h0, ..., 2^(k−1)·h0 (DIT) or the reverse (DIF), each butterfly with the
// twiddle the stage-by-stage transform gives it (tw = the whole tree), so the results are
// identical. The AVX-512 versions need h0, j0 and j1 to be multiples of 8.
void dit_cross_scalar(uint64_t* v, size_t h0, unsigned k, const uint64_t* tw, size_t j0, size_t j1);
void dit_cross_avx512(uint64_t* v, size_t h0, unsigned k, const uint64_t* tw, size_t j0, size_t j1);
void dif_cross_scalar(uint64_t* v, size_t h0, unsigned k, const uint64_t* tw, size_t j0, size_t j1);
void dif_cross_avx512(uint64_t* v, size_t h0, unsigned k, const uint64_t* tw, size_t j0, size_t j1);
// v[i] *= m[i] for i < len.
void mul_scalar(uint64_t* v, const uint64_t* m, size_t len);
void mul_avx512(uint64_t* v, const uint64_t* m, size_t len);
// v[i] *= c for i < len.
void scale_scalar(uint64_t* v, size_t len, uint64_t c);
void scale_avx512(uint64_t* v, size_t len, uint64_t c);
// v[i] *= c^i * d: the coset shift of an LDE (c = shift, d = 1/n folds in the inverse scaling).
void powers_scale_scalar(uint64_t* v, size_t len, uint64_t c, uint64_t d);
void powers_scale_avx512(uint64_t* v, size_t len, uint64_t c, uint64_t d);

}  // namespace zkrv::opt::ntt_kernels
