#include "reference/ntt/ntt.h"

#include <stdexcept>
#include <utility>

namespace zkrv::ref {
namespace {

// e_i = sum_j c_j w^(ij), radix-2 Cooley–Tukey in place: the coefficients in bit-reversed order,
// then for each block size 2, 4, …, n the butterflies (u, v) → (u + t·v, u − t·v) with t running
// over the block's powers of its root w^(n / size). The same sums as splitting into even and odd
// coefficients recursively, without a vector per call.
std::vector<Fp> transform(std::vector<Fp> a, Fp w) {
  const size_t n = a.size();
  for (size_t i = 1, j = 0; i < n; ++i) {  // j = bit-reverse(i), counted in reverse
    size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(a[i], a[j]);
  }
  for (size_t size = 2; size <= n; size *= 2) {
    const Fp step = w.pow(n / size);
    for (size_t start = 0; start < n; start += size) {
      Fp t = Fp::from_u64(1);
      for (size_t k = 0; k < size / 2; ++k, t = t * step) {
        const Fp u = a[start + k], v = t * a[start + k + size / 2];
        a[start + k] = u + v;
        a[start + k + size / 2] = u - v;
      }
    }
  }
  return a;
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

std::vector<Fp> coset_coeffs(const std::vector<Fp>& evals, Fp shift) {
  auto c = intt(evals);
  const Fp inv = shift.inverse();
  Fp s = Fp::from_u64(1);
  for (Fp& x : c) x = x * s, s = s * inv;
  return c;
}

}  // namespace zkrv::ref

namespace zkrv::ref {

std::vector<Fp> batch_coset_lde(const std::vector<Fp>& matrix, size_t width, unsigned blowup, Fp shift) {
  if (width == 0 || matrix.size() % width) throw std::invalid_argument("matrix size is not a multiple of the width");
  const size_t n = matrix.size() / width;
  std::vector<Fp> out(n * blowup * width);
  for (size_t c = 0; c < width; ++c) {
    std::vector<Fp> col(n);
    for (size_t r = 0; r < n; ++r) col[r] = matrix[r * width + c];
    const auto ext = coset_lde(col, blowup, shift);
    for (size_t r = 0; r < ext.size(); ++r) out[r * width + c] = ext[r];
  }
  return out;
}

// P(z) = (z^n - 1) / n * sum_i e_i w^i / (z - w^i).
Fp3 evaluate_barycentric(const std::vector<Fp>& evals, const Fp3& z) {
  const size_t n = evals.size();
  const Fp w = root_of_unity(spec::ntt_log2(n));
  auto embed = [](Fp x) { return Fp3{{x, Fp(), Fp()}}; };
  Fp x = Fp::from_u64(1);
  for (size_t i = 0; i < n; ++i, x = x * w)
    if (z == embed(x)) return embed(evals[i]);
  Fp3 sum;
  x = Fp::from_u64(1);
  for (size_t i = 0; i < n; ++i, x = x * w) sum = sum + embed(evals[i] * x) * (z - embed(x)).inverse();
  const Fp3 zn = z.pow(n);
  return (zn - embed(Fp::from_u64(1))) * embed(Fp::from_u64(n).inverse()) * sum;
}

}  // namespace zkrv::ref
