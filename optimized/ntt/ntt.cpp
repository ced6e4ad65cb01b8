#include "optimized/ntt/ntt.h"

#include <stdexcept>

namespace zkrv::opt {
namespace {

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
  spec::ntt_log2(n);
  if (n <= 1) return;
  bit_reverse(v);
  // Twiddle tree: entries [h, 2h) hold w_{2h}^j for j < h (w_{2h} = w^(n / 2h)), so every
  // stage reads its twiddles contiguously. The last stage's are computed, the others are every
  // other entry of the stage above.
  std::vector<Fp> tw(n);
  const size_t top = n / 2;
  tw[top] = Fp::from_u64(1);
  for (size_t j = 1; j < top; ++j) tw[top + j] = tw[top + j - 1] * w;
  for (size_t h = top / 2; h >= 1; h /= 2)
    for (size_t j = 0; j < h; ++j) tw[h + j] = tw[2 * h + 2 * j];
  for (size_t half = 1; half < n; half <<= 1) {
    const Fp* t_ = tw.data() + half;
    for (size_t start = 0; start < n; start += 2 * half) {
      Fp* a = v.data() + start;
      Fp* b = a + half;
      for (size_t j = 0; j < half; ++j) {
        const Fp t = t_[j] * b[j];
        const Fp u = a[j];
        a[j] = u + t;
        b[j] = u - t;
      }
    }
  }
}

}  // namespace

Fp root_of_unity(unsigned log_n) {
  return Fp::from_u64(spec::GoldilocksTraits::kTwoAdicRoot).pow(uint64_t{1} << (spec::GoldilocksTraits::kTwoAdicity - log_n));
}

void ntt(std::span<Fp> values) { transform(values, root_of_unity(spec::ntt_log2(values.size()))); }

void intt(std::span<Fp> values) {
  transform(values, root_of_unity(spec::ntt_log2(values.size())).inverse());
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
