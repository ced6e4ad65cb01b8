#include "reference/ntt/ntt.h"

#include <stdexcept>

namespace zkrv::ref {
namespace {

// e_i = sum_j c_j w^(ij): split into even and odd coefficients.
std::vector<Fp> transform(const std::vector<Fp>& c, Fp w) {
  const size_t n = c.size();
  if (n == 1) return c;
  std::vector<Fp> even(n / 2), odd(n / 2);
  for (size_t j = 0; j < n / 2; ++j) {
    even[j] = c[2 * j];
    odd[j] = c[2 * j + 1];
  }
  const auto e = transform(even, w * w), o = transform(odd, w * w);
  std::vector<Fp> out(n);
  Fp t = Fp::from_u64(1);
  for (size_t i = 0; i < n / 2; ++i) {
    out[i] = e[i] + t * o[i];
    out[i + n / 2] = e[i] - t * o[i];
    t = t * w;
  }
  return out;
}

}  // namespace

Fp root_of_unity(unsigned log_n) {
  return Fp::from_u64(spec::GoldilocksTraits::kTwoAdicRoot).pow(uint64_t{1} << (spec::GoldilocksTraits::kTwoAdicity - log_n));
}

std::vector<Fp> ntt(const std::vector<Fp>& coeffs) { return transform(coeffs, root_of_unity(spec::ntt_log2(coeffs.size()))); }

std::vector<Fp> intt(const std::vector<Fp>& evals) {
  const unsigned k = spec::ntt_log2(evals.size());
  auto c = transform(evals, root_of_unity(k).inverse());
  const Fp n_inv = Fp::from_u64(evals.size()).inverse();
  for (auto& x : c) x = x * n_inv;
  return c;
}

std::vector<Fp> coset_lde(const std::vector<Fp>& evals, unsigned blowup, Fp shift) {
  auto c = intt(evals);
  c.resize(evals.size() * blowup, Fp());
  Fp s = Fp::from_u64(1);
  for (auto& x : c) {  // p(shift * X): coefficient j times shift^j
    x = x * s;
    s = s * shift;
  }
  return ntt(c);
}

}  // namespace zkrv::ref
