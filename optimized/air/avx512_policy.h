#pragma once
// The generated row code's value types for eight consecutive rows at once: one AVX-512 register
// per base-field value (optimized/simd/goldilocks_avx512.h), three per extension value. Only for
// translation units compiled for AVX-512. Everything here is in an anonymous namespace and
// touches opt::Fp only as memory, so no inline function compiled for AVX-512 can stand in for a
// portable one at link time (optimized/README.md).

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "optimized/air/air_eval.h"
#include "optimized/simd/goldilocks_avx512.h"

namespace zkrv::opt::air {
namespace {

struct P8 {
  __m512i v;
};
inline P8 operator+(P8 a, P8 b) { return {avx512::add(a.v, b.v)}; }
inline P8 operator-(P8 a, P8 b) { return {avx512::sub(a.v, b.v)}; }
inline P8 operator*(P8 a, P8 b) { return {avx512::mul(a.v, b.v)}; }
inline P8 operator-(P8 a) { return {avx512::sub(_mm512_setzero_si512(), a.v)}; }

struct P3 {
  P8 c[3];
};
inline P3 operator+(const P3& a, const P3& b) { return {{a.c[0] + b.c[0], a.c[1] + b.c[1], a.c[2] + b.c[2]}}; }
inline P3 operator-(const P3& a, const P3& b) { return {{a.c[0] - b.c[0], a.c[1] - b.c[1], a.c[2] - b.c[2]}}; }
inline P3 operator*(const P3& a, P8 s) { return {{a.c[0] * s, a.c[1] * s, a.c[2] * s}}; }
inline P3 operator*(const P3& a, const P3& b) {  // w^3 = 2
  const P8 t12 = a.c[1] * b.c[2] + a.c[2] * b.c[1], t22 = a.c[2] * b.c[2];
  return {{a.c[0] * b.c[0] + (t12 + t12), a.c[0] * b.c[1] + a.c[1] * b.c[0] + (t22 + t22),
           a.c[0] * b.c[2] + a.c[1] * b.c[1] + a.c[2] * b.c[0]}};
}

struct PackedSum3 {
  P3 acc{{{_mm512_setzero_si512()}, {_mm512_setzero_si512()}, {_mm512_setzero_si512()}}};
  void add(const P3& w, P8 v) { acc = acc + w * v; }
  void add(const P3& a, const P3& b) { acc = acc + a * b; }
  P3 value() const { return acc; }
};

inline uint64_t raw(const Fp& x) {
  uint64_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

struct Avx512Policy {
  static constexpr size_t kLanes = 8;
  using F = P8;
  using F3 = P3;
  using Lazy3 = PackedSum3;
  static F ld(const Fp* column, size_t i) { return {_mm512_loadu_si512(reinterpret_cast<const uint64_t*>(column) + i)}; }
  static F K(uint64_t v) {
    constexpr uint64_t p = spec::GoldilocksTraits::kModulus;
    return {_mm512_set1_epi64(static_cast<long long>(v >= p ? v - p : v))};
  }
  static F Z() { return {_mm512_setzero_si512()}; }
  static F bc(const Fp& x) { return {_mm512_set1_epi64(static_cast<long long>(raw(x)))}; }
  static F3 b3(const Fp3& x) {
    uint64_t u[3];
    std::memcpy(u, &x, sizeof u);
    return {{{_mm512_set1_epi64(static_cast<long long>(u[0]))}, {_mm512_set1_epi64(static_cast<long long>(u[1]))},
             {_mm512_set1_epi64(static_cast<long long>(u[2]))}}};
  }
  static F3 mk3(F a, F b, F c) { return {{a, b, c}}; }
  static F3 z3() { return {{Z(), Z(), Z()}}; }
  static F3 mul3(const F3& a, const F3& b) { return a * b; }
  // The eight rows' values into out[0, 8) (coefficient-interleaved, as Fp3 is laid out).
  static void put(const F3& v, Fp3* out) {
    alignas(64) uint64_t lanes[3][8];
    for (int c = 0; c < 3; ++c) _mm512_store_si512(lanes[c], v.c[c].v);
    uint64_t rows[24];
    for (int l = 0; l < 8; ++l)
      for (int c = 0; c < 3; ++c) rows[3 * l + c] = lanes[c][l];
    std::memcpy(static_cast<void*>(out), rows, sizeof rows);
  }
};

}  // namespace
}  // namespace zkrv::opt::air
