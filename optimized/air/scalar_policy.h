#pragma once
// The value types the generated row code (air_generated.inc) runs on, one row at a time:
// opt::Fp and opt::Fp3, with lazily reduced sums. See avx512_policy.h for eight rows at a time.

#include <cstddef>
#include <cstdint>

#include "optimized/air/air_eval.h"

namespace zkrv::opt::air {

struct ScalarPolicy {
  static constexpr size_t kLanes = 1;
  using F = Fp;
  using F3 = Fp3;
  using Lazy3 = LazySum3;
  static F ld(const Fp* column, size_t i) { return column[i]; }
  static F K(uint64_t v) { return Fp::from_u64(v); }
  static F Z() { return Fp(); }
  static F bc(Fp x) { return x; }
  static F3 b3(const Fp3& x) { return x; }
  static F3 mk3(F a, F b, F c) { return {{a, b, c}}; }
  static F3 z3() { return Fp3{}; }
  static F3 mul3(const F3& a, const F3& b) { return mul_lazy(a, b); }
  static void put(const F3& v, Fp3* out) { *out = v; }
};

}  // namespace zkrv::opt::air
