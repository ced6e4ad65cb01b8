// Portable NTT kernels: the reference behaviour for kernels_avx512.cpp.
#include "optimized/field/goldilocks.h"
#include "optimized/ntt/kernels.h"

namespace zkrv::opt::ntt_kernels {
namespace {
Fp f(uint64_t v) { return Fp::from_u64(v); }
}  // namespace

void butterflies_scalar(uint64_t* a, uint64_t* b, const uint64_t* tw, size_t count) {
  for (size_t j = 0; j < count; ++j) {
    const Fp t = f(tw[j]) * f(b[j]), u = f(a[j]);
    a[j] = (u + t).value();
    b[j] = (u - t).value();
  }
}

void first3_scalar(uint64_t* v, size_t len, uint64_t w4, uint64_t w8) {
  const uint64_t tw[8] = {0, 1, 1, w4, 1, w8, (f(w8) * f(w8)).value(), (f(w8) * f(w8) * f(w8)).value()};
  for (size_t i = 0; i < len; i += 8)
    for (size_t half = 1; half < 8; half <<= 1)
      for (size_t s = 0; s < 8; s += 2 * half) butterflies_scalar(v + i + s, v + i + s + half, tw + half, half);
}

void butterflies_dif_scalar(uint64_t* a, uint64_t* b, const uint64_t* tw, size_t count) {
  for (size_t j = 0; j < count; ++j) {
    const Fp u = f(a[j]), v = f(b[j]);
    a[j] = (u + v).value();
    b[j] = ((u - v) * f(tw[j])).value();
  }
}

void last3_dif_scalar(uint64_t* v, size_t len, uint64_t w4, uint64_t w8) {
  const uint64_t tw[8] = {0, 1, 1, w4, 1, w8, (f(w8) * f(w8)).value(), (f(w8) * f(w8) * f(w8)).value()};
  for (size_t i = 0; i < len; i += 8)
    for (size_t half = 4; half >= 1; half >>= 1)
      for (size_t s = 0; s < 8; s += 2 * half) butterflies_dif_scalar(v + i + s, v + i + s + half, tw + half, half);
}

void dit_cross_scalar(uint64_t* v, size_t h0, unsigned k, const uint64_t* tw, size_t j0, size_t j1) {
  const size_t R = size_t{1} << k;
  for (size_t j = j0; j < j1; ++j)
    for (unsigned t = 0; t < k; ++t) {
      const size_t d = size_t{1} << t, half = h0 << t;
      for (size_t r = 0; r < R; ++r) {
        if (r & d) continue;
        uint64_t* a = v + j + r * h0;
        butterflies_scalar(a, a + half, tw + half + j + (r & (d - 1)) * h0, 1);
      }
    }
}

void dif_cross_scalar(uint64_t* v, size_t h0, unsigned k, const uint64_t* tw, size_t j0, size_t j1) {
  const size_t R = size_t{1} << k;
  for (size_t j = j0; j < j1; ++j)
    for (unsigned t = k; t-- > 0;) {
      const size_t d = size_t{1} << t, half = h0 << t;
      for (size_t r = 0; r < R; ++r) {
        if (r & d) continue;
        uint64_t* a = v + j + r * h0;
        butterflies_dif_scalar(a, a + half, tw + half + j + (r & (d - 1)) * h0, 1);
      }
    }
}

void dit_stage_scalar(uint64_t* v, size_t len, size_t half, const uint64_t* tw) {
  for (size_t s = 0; s < len; s += 2 * half) butterflies_scalar(v + s, v + s + half, tw, half);
}

void dif_stage_scalar(uint64_t* v, size_t len, size_t half, const uint64_t* tw) {
  for (size_t s = 0; s < len; s += 2 * half) butterflies_dif_scalar(v + s, v + s + half, tw, half);
}

void mul_scalar(uint64_t* v, const uint64_t* m, size_t len) {
  for (size_t i = 0; i < len; ++i) v[i] = (f(v[i]) * f(m[i])).value();
}

void scale_scalar(uint64_t* v, size_t len, uint64_t c) {
  for (size_t i = 0; i < len; ++i) v[i] = (f(v[i]) * f(c)).value();
}

void powers_scale_scalar(uint64_t* v, size_t len, uint64_t c, uint64_t d) {
  Fp s = f(d);
  for (size_t i = 0; i < len; ++i, s = s * f(c)) v[i] = (f(v[i]) * s).value();
}

}  // namespace zkrv::opt::ntt_kernels
