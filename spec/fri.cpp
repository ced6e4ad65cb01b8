#include "spec/fri.h"

#include <algorithm>
#include <cmath>

#include "spec/field.h"

namespace zkrv::spec {

namespace {
// −log2(Σ 2^l): the bits of a sum of errors given as log2 values, computed stably.
double bits_of_sum(double a, double b) {
  const double hi = std::max(a, b), lo = std::min(a, b);
  return -(hi + std::log2(1 + std::exp2(lo - hi)));
}
}  // namespace

// spec: protocol:fri:security
FriSecurity fri_security(unsigned log_blowup, unsigned num_queries, unsigned pow_bits, unsigned log_degree, unsigned folds,
                         double batch_degree, unsigned max_m) {
  const double field_bits = 3.0 * std::log2(static_cast<double>(GoldilocksTraits::kModulus));
  const double log_domain = log_degree + log_blowup;
  const double rho = std::ldexp(1.0, -static_cast<int>(log_blowup));
  FriSecurity s{};
  s.conjectured_bits = std::min(double(num_queries) * log_blowup + pow_bits, field_bits - log_domain);
  // Johnson regime (BCIKS20 Thm 8.3): each query catches a function delta-far from the code
  // with probability delta = 1 − sqrt(rho) (1 + 1/2m); the commit phase errs with probability
  // at most eps = (m + 1/2)^7 / (3 rho^1.5) · |D|^2 / |F| for each degree of its random
  // combinations: the batching challenge's (powers up to batch_degree) and one per binary fold.
  s.commit_weight = std::max(batch_degree + folds, 1.0);
  s.provable_bits = 0;
  for (unsigned m = 3; m <= std::min(max_m, 512u); ++m) {
    const double log_commit = 7 * std::log2(m + 0.5) - std::log2(3.0) - 1.5 * std::log2(rho) + 2 * log_domain -
                              field_bits + std::log2(s.commit_weight);
    const double log_query = num_queries * std::log2(std::sqrt(rho) * (1 + 0.5 / m)) - pow_bits;
    const double bits = bits_of_sum(log_commit, log_query);
    if (bits > s.provable_bits) {
      s.provable_bits = bits;
      s.johnson_m = m;
      s.log_commit = log_commit;
      s.log_query = log_query;
    }
  }
  return s;
}

}  // namespace zkrv::spec
