#pragma once
// Reference Goldilocks arithmetic: plain and obviously correct (128-bit products reduced by
// 2^64 = 2^32 - 1 and 2^96 = -1 mod p, then at most three subtractions), mirroring spec/field.h. Speed is optimized/field's job.

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "spec/field.h"

namespace zkrv::ref {

class Fp {
 public:
  static constexpr uint64_t P = spec::GoldilocksTraits::kModulus;
  constexpr Fp() = default;
  // Any 64-bit value, reduced mod p.
  static constexpr Fp from_u64(uint64_t v) { return Fp(v % P); }
  // spec: protocol:field:encoding — the canonical value in [0, p).
  constexpr uint64_t value() const { return v_; }

  friend constexpr Fp operator+(Fp a, Fp b) {
    const unsigned __int128 s = static_cast<unsigned __int128>(a.v_) + b.v_;
    return Fp(static_cast<uint64_t>(s >= P ? s - P : s));
  }
  friend constexpr Fp operator-(Fp a, Fp b) { return Fp(a.v_ >= b.v_ ? a.v_ - b.v_ : a.v_ + (P - b.v_)); }
  friend constexpr Fp operator*(Fp a, Fp b) { return Fp(reduce128(static_cast<unsigned __int128>(a.v_) * b.v_)); }
  constexpr Fp operator-() const { return Fp(0) - *this; }
  friend constexpr bool operator==(Fp a, Fp b) { return a.v_ == b.v_; }

  constexpr Fp pow(uint64_t e) const {
    Fp r(1), b = *this;
    for (; e; e >>= 1, b = b * b)
      if (e & 1) r = r * b;
    return r;
  }
  // Fermat: a^(p-2); the inverse of 0 is defined as 0 (callers check).
  constexpr Fp inverse() const { return pow(P - 2); }

 private:
  explicit constexpr Fp(uint64_t canonical) : v_(canonical) {}
  // x mod p for x < 2^128, written x = lo + 2^64 (hi_lo + 2^32 hi_hi): since 2^64 = 2^32 - 1 and
  // 2^96 = -1 (mod p), x = lo - hi_hi + (2^32 - 1) hi_lo (mod p).
  static constexpr uint64_t reduce128(unsigned __int128 x) {
    const uint64_t lo = static_cast<uint64_t>(x), hi = static_cast<uint64_t>(x >> 64);
    const uint64_t hi_hi = hi >> 32, hi_lo = hi & 0xffffffffu;
    unsigned __int128 t = static_cast<unsigned __int128>(lo) + P - hi_hi;  // lo - hi_hi + p, in [0, 2^65)
    t += static_cast<unsigned __int128>(hi_lo) * 0xffffffffu;
    while (t >= P) t -= P;  // t < 3 * 2^64: at most three steps
    return static_cast<uint64_t>(t);
  }
  uint64_t v_ = 0;
};
static_assert(sizeof(Fp) == 8);
static_assert(std::is_trivially_copyable_v<Fp>);

// Cubic extension a0 + a1 w + a2 w^2 with w^3 = 2 (spec: protocol:field:extension).
struct Fp3 {
  std::array<Fp, 3> c{};
  friend constexpr bool operator==(const Fp3&, const Fp3&) = default;
  friend constexpr Fp3 operator+(const Fp3& a, const Fp3& b) { return {{a.c[0] + b.c[0], a.c[1] + b.c[1], a.c[2] + b.c[2]}}; }
  friend constexpr Fp3 operator-(const Fp3& a, const Fp3& b) { return {{a.c[0] - b.c[0], a.c[1] - b.c[1], a.c[2] - b.c[2]}}; }
  friend constexpr Fp3 operator*(const Fp3& a, const Fp3& b) {
    // Schoolbook product, then w^3 = 2 and w^4 = 2w.
    const Fp w = Fp::from_u64(spec::GoldilocksTraits::kExtensionW);
    std::array<Fp, 5> t{};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) t[static_cast<size_t>(i + j)] = t[static_cast<size_t>(i + j)] + a.c[static_cast<size_t>(i)] * b.c[static_cast<size_t>(j)];
    return {{t[0] + w * t[3], t[1] + w * t[4], t[2]}};
  }
  constexpr Fp3 pow(unsigned __int128 e) const {
    Fp3 r{{Fp::from_u64(1), Fp(), Fp()}}, b = *this;
    for (; e; e >>= 1, b = b * b)
      if (e & 1) r = r * b;
    return r;
  }
  // a^(p^3 - 2): plain and slow, as a reference should be.
  Fp3 inverse() const;
};
// F_p inside F_{p^3}: x + 0w + 0w^2.
constexpr Fp3 embed(Fp x) { return {{x, Fp(), Fp()}}; }

}  // namespace zkrv::ref
