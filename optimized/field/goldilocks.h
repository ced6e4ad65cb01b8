#pragma once
// Fast Goldilocks arithmetic (host and device): canonical representation in [0, p), products
// reduced with 2^64 = 2^32 - 1 and 2^96 = -1 (mod p), no division. Must equal ref::Fp on every
// input; tests/field checks it against the reference and against Boost.Multiprecision.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "optimized/field/hd.h"
#include "spec/field.h"

namespace zkrv::opt {

class Fp {
 public:
  static constexpr uint64_t P = spec::GoldilocksTraits::kModulus;
  static constexpr uint64_t kEpsilon = 0xFFFFFFFFull;  // 2^64 mod p = 2^32 - 1

  constexpr Fp() = default;
  ZKRV_HD static constexpr Fp from_u64(uint64_t v) { return Fp(v >= P ? v - P : v); }
  ZKRV_HD constexpr uint64_t value() const { return v_; }

  // x mod p for any 128-bit x.
  ZKRV_HD static constexpr uint64_t reduce128(unsigned __int128 x) {
    const uint64_t lo = static_cast<uint64_t>(x), hi = static_cast<uint64_t>(x >> 64);
    const uint64_t hi_hi = hi >> 32, hi_lo = hi & kEpsilon;
    // Branch-free (data-dependent branches mispredict): every correction is a masked add.
    uint64_t t0 = lo - hi_hi;                           // hi_hi * 2^96 = -hi_hi (mod p)
    t0 -= kEpsilon & (0 - static_cast<uint64_t>(lo < hi_hi));  // borrow: add p = subtract 2^32 - 1
    const uint64_t t1 = hi_lo * kEpsilon;               // hi_lo * 2^64 = hi_lo * (2^32 - 1)
    uint64_t r = t0 + t1;
    r += kEpsilon & (0 - static_cast<uint64_t>(r < t1));      // carry: 2^64 = 2^32 - 1
    return r - (P & (0 - static_cast<uint64_t>(r >= P)));
  }

  ZKRV_HD friend constexpr Fp operator+(Fp a, Fp b) {
    const uint64_t s = a.v_ + b.v_;
    const bool over = (s < a.v_) | (s >= P);  // on wrap, s - P (mod 2^64) = s + 2^32 - 1
    return Fp(s - (P & (0 - static_cast<uint64_t>(over))));
  }
  ZKRV_HD friend constexpr Fp operator-(Fp a, Fp b) {
    const uint64_t d = a.v_ - b.v_;
    return Fp(d + (P & (0 - static_cast<uint64_t>(a.v_ < b.v_))));
  }
  ZKRV_HD friend constexpr Fp operator*(Fp a, Fp b) {
    return Fp(reduce128(static_cast<unsigned __int128>(a.v_) * b.v_));
  }
  ZKRV_HD constexpr Fp operator-() const { return Fp(v_ == 0 ? 0 : P - v_); }
  ZKRV_HD friend constexpr bool operator==(Fp a, Fp b) { return a.v_ == b.v_; }

  ZKRV_HD constexpr Fp pow(uint64_t e) const {
    Fp r(1), b = *this;
    for (; e; e >>= 1, b = b * b)
      if (e & 1) r = r * b;
    return r;
  }
  ZKRV_HD constexpr Fp inverse() const { return pow(P - 2); }  // 0 -> 0

 private:
  ZKRV_HD explicit constexpr Fp(uint64_t canonical) : v_(canonical) {}
  uint64_t v_ = 0;
};
static_assert(sizeof(Fp) == 8);
static_assert(std::is_trivially_copyable_v<Fp>);
static_assert(Fp::reduce128(static_cast<unsigned __int128>(Fp::P) * 3) == 0);
static_assert(Fp::from_u64(spec::GoldilocksTraits::kTwoAdicRoot).pow(uint64_t{1} << 31) == -Fp::from_u64(1));

// Σ_k a_k b_k in F_p with one reduction at the end: the 128-bit products are summed with a count
// of the sum's wraps (2^128 = −2^32 mod p). Exact, so the result is the reduced sum's. Host only.
struct LazySum {
  unsigned __int128 lo = 0;
  uint64_t wraps = 0;
  void add(Fp a, Fp b) {
    const unsigned __int128 p = static_cast<unsigned __int128>(a.value()) * b.value();
    lo += p;
    wraps += lo < p;
  }
  Fp value() const {
    return Fp::from_u64(Fp::reduce128(lo)) + Fp::from_u64(wraps) * Fp::from_u64(Fp::P - (uint64_t{1} << 32));
  }
};
// Cubic extension, w^3 = 2.
struct Fp3 {
  std::array<Fp, 3> c{};
  ZKRV_HD friend constexpr bool operator==(const Fp3& a, const Fp3& b) { return a.c[0] == b.c[0] && a.c[1] == b.c[1] && a.c[2] == b.c[2]; }
  ZKRV_HD friend constexpr Fp3 operator+(const Fp3& a, const Fp3& b) { return {{a.c[0] + b.c[0], a.c[1] + b.c[1], a.c[2] + b.c[2]}}; }
  ZKRV_HD friend constexpr Fp3 operator-(const Fp3& a, const Fp3& b) { return {{a.c[0] - b.c[0], a.c[1] - b.c[1], a.c[2] - b.c[2]}}; }
  ZKRV_HD friend constexpr Fp3 operator*(const Fp3& a, const Fp3& b) {
    static_assert(spec::GoldilocksTraits::kExtensionW == 2, "w^3 = 2: multiplying by w^3 is a doubling");
    const Fp a0b0 = a.c[0] * b.c[0], a1b1 = a.c[1] * b.c[1], a2b2 = a.c[2] * b.c[2];
    // Karatsuba-style cross terms.
    const Fp t01 = (a.c[0] + a.c[1]) * (b.c[0] + b.c[1]) - a0b0 - a1b1;  // a0b1 + a1b0
    const Fp t12 = (a.c[1] + a.c[2]) * (b.c[1] + b.c[2]) - a1b1 - a2b2;  // a1b2 + a2b1
    const Fp t02 = (a.c[0] + a.c[2]) * (b.c[0] + b.c[2]) - a0b0 - a2b2;  // a0b2 + a2b0
    return {{a0b0 + (t12 + t12), t01 + (a2b2 + a2b2), t02 + a1b1}};
  }
  ZKRV_HD friend constexpr Fp3 operator*(const Fp3& a, Fp s) { return {{a.c[0] * s, a.c[1] * s, a.c[2] * s}}; }
  // Inverse through the norm: a^-1 = adj(a) / N(a), with N(a) in the base field.
  ZKRV_HD constexpr Fp3 inverse() const {
    const Fp two = Fp::from_u64(spec::GoldilocksTraits::kExtensionW);
    const Fp a0 = c[0], a1 = c[1], a2 = c[2];
    // Cofactors of the multiplication-by-a matrix [[a0, 2a2, 2a1], [a1, a0, 2a2], [a2, a1, a0]].
    const Fp b0 = a0 * a0 - two * a1 * a2;
    const Fp b1 = two * a2 * a2 - a0 * a1;
    const Fp b2 = a1 * a1 - a0 * a2;
    const Fp norm = a0 * b0 + two * (a2 * b1 + a1 * b2);
    const Fp inv = norm.inverse();
    return {{b0 * inv, b1 * inv, b2 * inv}};
  }
};

// F_p inside F_{p^3}: x + 0w + 0w^2.
ZKRV_HD constexpr Fp3 embed(Fp x) { return {{x, Fp(), Fp()}}; }
// Σ_k a_k b_k over F_{p^3} (b in F_p or F_{p^3}), one LazySum per coefficient. Host only.
struct LazySum3 {
  LazySum c[3];
  void add(const Fp3& w, Fp v) { c[0].add(w.c[0], v), c[1].add(w.c[1], v), c[2].add(w.c[2], v); }
  // += a · b (w^3 = 2: the products that pass w^3 are added twice)
  void add(const Fp3& a, const Fp3& b) {
    c[0].add(a.c[0], b.c[0]), c[0].add(a.c[1], b.c[2]), c[0].add(a.c[1], b.c[2]), c[0].add(a.c[2], b.c[1]),
        c[0].add(a.c[2], b.c[1]);
    c[1].add(a.c[0], b.c[1]), c[1].add(a.c[1], b.c[0]), c[1].add(a.c[2], b.c[2]), c[1].add(a.c[2], b.c[2]);
    c[2].add(a.c[0], b.c[2]), c[2].add(a.c[1], b.c[1]), c[2].add(a.c[2], b.c[0]);
  }
  Fp3 value() const { return {{c[0].value(), c[1].value(), c[2].value()}}; }
};
// a · b with one reduction per coefficient.
inline Fp3 mul_lazy(const Fp3& a, const Fp3& b) {
  LazySum3 s;
  s.add(a, b);
  return s.value();
}

// Montgomery's trick: every nonzero element inverted with one field inversion; zeros stay 0.
void batch_inverse(std::span<Fp> values);
void batch_inverse(std::span<Fp3> values);

}  // namespace zkrv::opt
