#include "spec/fri.h"

#include <algorithm>
#include <cmath>

#include "spec/field.h"

namespace zkrv::spec {

// spec: protocol:fri:security
FriSecurity fri_security(unsigned log_blowup, unsigned num_queries, unsigned pow_bits, unsigned log_degree, unsigned folds) {
  const double field_bits = 3.0 * std::log2(static_cast<double>(GoldilocksTraits::kModulus));
  const double log_domain = log_degree + log_blowup;
  const double rho = std::ldexp(1.0, -static_cast<int>(log_blowup));
  FriSecurity s{};
  s.conjectured_bits = std::min(double(num_queries) * log_blowup + pow_bits, field_bits - log_domain);
  // Johnson regime: each query catches a function delta-far from the code with probability
  // delta = 1 - sqrt(rho) (1 + 1/2m); the commit phase errs with probability at most
  // (m + 1/2)^7 / (3 rho^1.5) * |D|^2 / |F| per folding round, times (arity - 1).
  // Each binary fold weighs arity − 1 = 1.
  const double fold_weight = folds == 0 ? 1 : folds;
  s.provable_bits = 0;
  for (unsigned m = 3; m <= 512; ++m) {
    const double log_commit = 7 * std::log2(m + 0.5) - std::log2(3.0) - 1.5 * std::log2(rho) + 2 * log_domain -
                              field_bits + std::log2(fold_weight);
    const double log_query = num_queries * std::log2(std::sqrt(rho) * (1 + 0.5 / m)) - pow_bits;
    // -log2(2^a + 2^b), computed stably
    const double hi = std::max(log_commit, log_query), lo = std::min(log_commit, log_query);
    const double bits = -(hi + std::log2(1 + std::exp2(lo - hi)));
    if (bits > s.provable_bits) {
      s.provable_bits = bits;
      s.johnson_m = m;
    }
  }
  return s;
}

}  // namespace zkrv::spec
