#include "reference/field/goldilocks.h"

namespace zkrv::ref {

// a^(p^3 - 2), with the exponent written in base p: p^3 - 2 = (p-1) p^2 + (p-1) p + (p-2),
// so a^(p^3-2) = (a^(p-1))^(p^2) * (a^(p-1))^p * a^(p-2). Each exponent fits in 128 bits.
Fp3 Fp3::inverse() const {
  const unsigned __int128 p = Fp::P;
  const Fp3 a_pm1 = pow(p - 1);
  return a_pm1.pow(p * p) * a_pm1.pow(p) * pow(p - 2);
}

}  // namespace zkrv::ref
