#include "optimized/ntt/ntt.h"

#include <stdexcept>

namespace zkrv::opt {
namespace {

unsigned log2_exact(size_t n) {
  unsigned k = 0;
  while ((size_t{1} << k) < n) ++k;
  if ((size_t{1} << k) != n || k > spec::GoldilocksTraits::kTwoAdicity)
    throw std::invalid_argument("NTT size must be a power of two up to 2^32");
  return k;
}

void bit_reverse(std::span<Fp> v) {
  const size_t n = v.size();
  for (size_t i = 0, j = 0; i < n; ++i) {
    if (i < j) std::swap(v[i], v[j]);
    size_t bit = n >> 1;  // increment j in bit-reversed order
    for (; j & bit; bit >>= 1) j ^= bit;
    j |= bit;
  }
}

void transform(std::span<Fp> v, Fp w) {
  const size_t n = v.size();
  log2_exact(n);
  if (n <= 1) return;
  bit_reverse(v);
  // Twiddles for the last stage: w^0 .. w^(n/2 - 1); earlier stages use a stride through it.
  std::vector<Fp> tw(n / 2);
  tw[0] = Fp::from_u64(1);
  for (size_t i = 1; i < n / 2; ++i) tw[i] = tw[i - 1] * w;
  for (size_t len = 2; len <= n; len <<= 1) {
    const size_t half = len / 2, stride = n / len;
    for (size_t start = 0; start < n; start += len) {
      for (size_t j = 0; j < half; ++j) {
        const Fp t = tw[j * stride] * v[start + j + half];
        const Fp u = v[start + j];
        v[start + j] = u + t;
        v[start + j + half] = u - t;
      }
    }
  }
}

}  // namespace

Fp root_of_unity(unsigned log_n) {
  return Fp::from_u64(spec::GoldilocksTraits::kTwoAdicRoot).pow(uint64_t{1} << (spec::GoldilocksTraits::kTwoAdicity - log_n));
}

void ntt(std::span<Fp> values) { transform(values, root_of_unity(log2_exact(values.size()))); }

void intt(std::span<Fp> values) {
  transform(values, root_of_unity(log2_exact(values.size())).inverse());
  const Fp n_inv = Fp::from_u64(values.size()).inverse();
  for (auto& x : values) x = x * n_inv;
}

std::vector<Fp> coset_lde(std::span<const Fp> evals, unsigned blowup, Fp shift) {
  std::vector<Fp> c(evals.begin(), evals.end());
  intt(c);
  c.resize(evals.size() * blowup, Fp());
  Fp s = Fp::from_u64(1);
  for (size_t i = 0; i < evals.size(); ++i) {  // only the first n coefficients are nonzero
    c[i] = c[i] * s;
    s = s * shift;
  }
  ntt(c);
  return c;
}

}  // namespace zkrv::opt
