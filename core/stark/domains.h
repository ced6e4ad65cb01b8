#pragma once
// The STARK's evaluation domains (spec/protocol.md, protocol:stark:domains and
// protocol:stark:ood), written once over any Goldilocks implementation: F is a base field type
// with from_u64, pow and inverse (ref::Fp, opt::Fp), E its cubic extension with components c[3].

#include <cstdint>
#include <type_traits>
#include <vector>

#include "spec/field.h"

namespace zkrv::core {

// Every table's LDE coset shift (protocol:stark:domains): 7, whatever the heights, so that a
// column's LDE depends on its table's height and the blowup alone and the program's columns can be
// committed once (protocol:stark:program).
template <class F>
F lde_shift() {
  return F::from_u64(spec::GoldilocksTraits::kGenerator);
}

template <class E>
E ext_pow(E base, uint64_t e) {
  using F = std::remove_cvref_t<decltype(base.c[0])>;
  E r{{F::from_u64(1), F(), F()}};
  for (; e; e >>= 1, base = base * base)
    if (e & 1) r = r * base;
  return r;
}

// Whether ζ may be the out-of-domain point: outside F_p, and outside every table's trace domain
// <ω_h> and LDE coset shift·<ω_(h·2^log_blowup)>. Prover and verifier redraw until it is.
template <class E>
bool ood_point_ok(const E& zeta, const std::vector<uint8_t>& log_heights, unsigned log_blowup) {
  using F = std::remove_cvref_t<decltype(zeta.c[0])>;
  if (zeta.c[1] == F() && zeta.c[2] == F()) return false;
  const E one{{F::from_u64(1), F(), F()}};
  const F s = lde_shift<F>().inverse();
  for (uint8_t lh : log_heights) {
    const uint64_t h = uint64_t{1} << lh;
    if (ext_pow(zeta, h) == one) return false;
    if (ext_pow(E{{zeta.c[0] * s, zeta.c[1] * s, zeta.c[2] * s}}, h << log_blowup) == one) return false;
  }
  return true;
}

}  // namespace zkrv::core
