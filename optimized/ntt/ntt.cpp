#include "optimized/ntt/ntt.h"

#include <memory>
#include <mutex>
#include <stdexcept>

#include "optimized/common/parallel.h"
#include "optimized/ntt/kernels.h"
#include "optimized/simd/simd.h"

namespace zkrv::opt {
namespace {

namespace k = ntt_kernels;

// Blocks of 2^14 elements (128 KiB) stay in L2 while every stage inside them runs.
constexpr unsigned kLogBlock = 14;

uint64_t* raw(std::span<Fp> v) { return reinterpret_cast<uint64_t*>(v.data()); }

// Twiddle tree: entries [h, 2h) hold w_{2h}^j for j < h. A stage's twiddles do not depend on the
// transform size, so one tree serves every size up to the largest built so far.
class TwiddleCache {
 public:
  std::shared_ptr<const std::vector<Fp>> get(unsigned log_n, bool inverse) {
    std::lock_guard lock(mu_);
    auto& slot = trees_[inverse];
    if (!slot || slot->size() < (size_t{1} << log_n)) slot = build(log_n, inverse);
    return slot;
  }

 private:
  static std::shared_ptr<const std::vector<Fp>> build(unsigned log_n, bool inverse) {
    const size_t n = size_t{1} << log_n, top = n / 2;
    auto tw = std::make_shared<std::vector<Fp>>(std::max<size_t>(n, 2));
    if (top == 0) return tw;
    Fp w = root_of_unity(log_n);
    if (inverse) w = w.inverse();
    parallel_for(top, 0, [&](size_t b, size_t e) {
      Fp x = w.pow(b);
      for (size_t j = b; j < e; ++j, x = x * w) (*tw)[top + j] = x;
    }, 4096);
    for (size_t h = top / 2; h >= 1; h /= 2)
      for (size_t j = 0; j < h; ++j) (*tw)[h + j] = (*tw)[2 * h + 2 * j];
    return tw;
  }
  std::mutex mu_;
  std::shared_ptr<const std::vector<Fp>> trees_[2];
};

TwiddleCache& twiddles() {
  static TwiddleCache cache;
  return cache;
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

struct Kernels {
  void (*butterflies)(uint64_t*, uint64_t*, const uint64_t*, size_t);
  void (*first3)(uint64_t*, size_t, uint64_t, uint64_t);
  void (*scale)(uint64_t*, size_t, uint64_t);
  void (*powers_scale)(uint64_t*, size_t, uint64_t, uint64_t);
};
Kernels kernels() {
  if (simd_level() == SimdLevel::kAvx512)
    return {k::butterflies_avx512, k::first3_avx512, k::scale_avx512, k::powers_scale_avx512};
  return {k::butterflies_scalar, k::first3_scalar, k::scale_scalar, k::powers_scale_scalar};
}

// Radix-2 DIT after a bit-reversal permutation: natural order in, natural order out. Stages up
// to the block size run block by block (cache-resident), the rest across the array.
void transform(std::span<Fp> v, bool inverse, unsigned threads) {
  const size_t n = v.size();
  const unsigned log_n = spec::ntt_log2(n);
  if (n <= 1) return;
  const auto tree = twiddles().get(log_n, inverse);
  const uint64_t* tw = reinterpret_cast<const uint64_t*>(tree->data());
  const Kernels kern = kernels();
  bit_reverse(v);
  uint64_t* x = raw(v);
  const size_t block = size_t{1} << std::min(log_n, kLogBlock);
  parallel_for(n / block, threads, [&](size_t b, size_t e) {
    for (size_t blk = b; blk < e; ++blk) {
      uint64_t* base = x + blk * block;
      size_t half = 1;
      if (block >= 8) {
        kern.first3(base, block, tw[3], tw[5]);
        half = 8;
      }
      for (; half < block; half <<= 1)
        for (size_t s = 0; s < block; s += 2 * half) kern.butterflies(base + s, base + s + half, tw + half, half);
    }
  }, 1);
  for (size_t half = block; half < n; half <<= 1) {
    // butterfly k: group k / half, offset k % half; chunks are multiples of 1024 butterflies
    const size_t chunks = n / 2 / 1024;
    parallel_for(chunks, threads, [&](size_t b, size_t e) {
      for (size_t kk = b * 1024; kk < e * 1024;) {
        const size_t group = kk / half, j = kk % half, len = std::min(half - j, e * 1024 - kk);
        uint64_t* a = x + group * 2 * half + j;
        kern.butterflies(a, a + half, tw + half + j, len);
        kk += len;
      }
    }, 1);
  }
}

}  // namespace

Fp root_of_unity(unsigned log_n) {
  return Fp::from_u64(spec::GoldilocksTraits::kTwoAdicRoot).pow(uint64_t{1} << (spec::GoldilocksTraits::kTwoAdicity - log_n));
}

void ntt(std::span<Fp> values, unsigned threads) { transform(values, false, threads); }

void intt(std::span<Fp> values, unsigned threads) {
  transform(values, true, threads);
  const uint64_t n_inv = Fp::from_u64(values.size()).inverse().value();
  parallel_for(values.size(), threads, [&](size_t b, size_t e) { kernels().scale(raw(values) + b, e - b, n_inv); }, 4096);
}

void coset_lde_into(std::span<const Fp> evals, unsigned blowup, Fp shift, std::span<Fp> out, unsigned threads) {
  const size_t n = evals.size();
  if (blowup == 0 || out.size() != n * blowup) throw std::invalid_argument("LDE output must hold n * blowup values");
  spec::ntt_log2(out.size());
  std::copy(evals.begin(), evals.end(), out.begin());
  auto head = out.first(n);
  transform(head, true, threads);
  // coefficients c_j -> c_j shift^j / n (only the first n are nonzero), then evaluate
  const Fp n_inv = Fp::from_u64(n).inverse();
  parallel_for(n, threads, [&](size_t b, size_t e) {
    kernels().powers_scale(raw(out) + b, e - b, shift.value(), (n_inv * shift.pow(b)).value());
  }, 4096);
  std::fill(out.begin() + static_cast<std::ptrdiff_t>(n), out.end(), Fp());
  transform(out, false, threads);
}

std::vector<Fp> coset_lde(std::span<const Fp> evals, unsigned blowup, Fp shift, unsigned threads) {
  std::vector<Fp> out(evals.size() * blowup);
  coset_lde_into(evals, blowup, shift, out, threads);
  return out;
}

}  // namespace zkrv::opt

namespace zkrv::opt {

void batch_coset_lde(std::span<const Fp> matrix, size_t width, unsigned blowup, Fp shift, std::span<Fp> out,
                     unsigned threads) {
  if (width == 0 || matrix.size() % width || out.size() != matrix.size() * blowup)
    throw std::invalid_argument("batch LDE needs an n x width matrix and an (n * blowup) x width output");
  const size_t n = matrix.size() / width, big = n * blowup;
  // Columns in groups of 8: gather 8 columns (one cache line per row), extend each, scatter back.
  constexpr size_t kGroup = 8;
  parallel_for((width + kGroup - 1) / kGroup, threads, [&](size_t gb, size_t ge) {
    std::vector<Fp> col(n), ext(big);
    for (size_t g = gb; g < ge; ++g)
      for (size_t c = g * kGroup; c < std::min(width, (g + 1) * kGroup); ++c) {
        for (size_t r = 0; r < n; ++r) col[r] = matrix[r * width + c];
        coset_lde_into(col, blowup, shift, ext, 1);
        for (size_t r = 0; r < big; ++r) out[r * width + c] = ext[r];
      }
  }, 1);
}

std::vector<Fp3> evaluate_barycentric(std::span<const Fp> matrix, size_t width, const Fp3& z, unsigned threads) {
  if (width == 0 || matrix.size() % width) throw std::invalid_argument("matrix size is not a multiple of the width");
  const size_t n = matrix.size() / width;
  const Fp w = root_of_unity(spec::ntt_log2(n));
  const Fp3 one{{Fp::from_u64(1), Fp(), Fp()}};
  std::vector<Fp3> weight(n);  // 1 / (z - w^i), then times w^i
  std::vector<Fp> xs(n);
  parallel_for(n, threads, [&](size_t b, size_t e) {
    Fp x = w.pow(b);
    for (size_t i = b; i < e; ++i, x = x * w) {
      xs[i] = x;
      weight[i] = z - Fp3{{x, Fp(), Fp()}};
    }
  }, 4096);
  for (size_t i = 0; i < n; ++i)  // z on the subgroup: the interpolant is the evaluation there
    if (weight[i] == Fp3{}) {
      std::vector<Fp3> row(width);
      for (size_t c = 0; c < width; ++c) row[c] = Fp3{{matrix[i * width + c], Fp(), Fp()}};
      return row;
    }
  parallel_for(n, threads, [&](size_t b, size_t e) {
    batch_inverse(std::span(weight).subspan(b, e - b));
    for (size_t i = b; i < e; ++i) weight[i] = weight[i] * xs[i];
  }, 4096);
  Fp3 zn = one;  // z^n by squaring
  {
    Fp3 base = z;
    for (size_t e = n; e; e >>= 1, base = base * base)
      if (e & 1) zn = zn * base;
  }
  const Fp3 factor = (zn - one) * Fp::from_u64(n).inverse();
  // Per thread, partial sums over a row range; added in a fixed order afterwards.
  const unsigned t = resolve_threads(threads);
  std::vector<std::vector<Fp3>> partial(t, std::vector<Fp3>(width));
  const size_t chunk = (n + t - 1) / t;
  parallel_for(t, t, [&](size_t tb, size_t te) {
    for (size_t ti = tb; ti < te; ++ti)
      for (size_t i = ti * chunk; i < std::min(n, (ti + 1) * chunk); ++i)
        for (size_t c = 0; c < width; ++c) partial[ti][c] = partial[ti][c] + weight[i] * matrix[i * width + c];
  }, 1);
  std::vector<Fp3> out(width);
  for (size_t c = 0; c < width; ++c) {
    for (const auto& p : partial) out[c] = out[c] + p[c];
    out[c] = out[c] * factor;
  }
  return out;
}

}  // namespace zkrv::opt
