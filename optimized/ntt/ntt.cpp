#include "optimized/ntt/ntt.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "optimized/common/parallel.h"
#include "optimized/ntt/kernels.h"
#include "optimized/simd/simd.h"

namespace zkrv::opt {
namespace {

namespace k = ntt_kernels;

// Blocks of 2^16 elements (512 KiB) stay in L2 (1 MiB on Zen 4) while every stage inside them
// runs; 2^12 and 2^14 measured within 3% of it at 2^20 and 2^22.
constexpr unsigned kLogBlock = 16;

uint64_t* raw(std::span<Fp> v) { return reinterpret_cast<uint64_t*>(v.data()); }

// Twiddle tree: entries [h, 2h) hold w_{2h}^j for j < h. A stage's twiddles do not depend on the
// transform size, so one tree serves every size up to the largest built so far.
class TwiddleCache {
 public:
  std::shared_ptr<const std::vector<Fp>> get(unsigned log_n, bool inverse) {
    log_n = std::max(log_n, 1u);  // a size-1 tree would hold no entries, yet claim to cover size 2
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

unsigned reverse_bits(size_t x, unsigned bits) {
  size_t r = 0;
  for (unsigned b = 0; b < bits; ++b, x >>= 1) r = (r << 1) | (x & 1);
  return static_cast<unsigned>(r);
}

// In-place bit reversal by tiles: index = [a | m | c] with t-bit a and c; tile m (2^t rows of 2^t
// contiguous elements) swaps with tile rev(m), element (a, c) taking (rev c, rev a). Tiles are
// independent, so threads split the middle index.
void bit_reverse(uint64_t* v, unsigned log_n, unsigned threads) {
  const size_t n = size_t{1} << log_n;
  if (log_n < 8) {
    for (size_t i = 0; i < n; ++i)
      if (const size_t j = reverse_bits(i, log_n); i < j) std::swap(v[i], v[j]);
    return;
  }
  constexpr unsigned t = 4;
  constexpr size_t tn = size_t{1} << t;
  const unsigned mid_bits = log_n - 2 * t;
  const size_t row_stride = size_t{1} << (log_n - t);
  uint8_t rev_t[tn];
  for (size_t i = 0; i < tn; ++i) rev_t[i] = static_cast<uint8_t>(reverse_bits(i, t));
  parallel_for(size_t{1} << mid_bits, threads, [&](size_t mb, size_t me) {
    uint64_t t1[tn][tn], t2[tn][tn];
    for (size_t m = mb; m < me; ++m) {
      const size_t mr = reverse_bits(m, mid_bits);
      if (mr < m) continue;
      uint64_t* p1 = v + (m << t);
      uint64_t* p2 = v + (mr << t);
      for (size_t a = 0; a < tn; ++a)
        for (size_t c = 0; c < tn; ++c) {
          t1[a][c] = p1[a * row_stride + c];
          t2[a][c] = p2[a * row_stride + c];
        }
      for (size_t a = 0; a < tn; ++a)
        for (size_t c = 0; c < tn; ++c) {
          p1[a * row_stride + c] = t2[rev_t[c]][rev_t[a]];
          p2[a * row_stride + c] = t1[rev_t[c]][rev_t[a]];
        }
    }
  }, 16);
}

struct Kernels {
  void (*dit)(uint64_t*, uint64_t*, const uint64_t*, size_t);
  void (*dif)(uint64_t*, uint64_t*, const uint64_t*, size_t);
  void (*dit_stage)(uint64_t*, size_t, size_t, const uint64_t*);
  void (*dif_stage)(uint64_t*, size_t, size_t, const uint64_t*);
  void (*first3)(uint64_t*, size_t, uint64_t, uint64_t);
  void (*last3)(uint64_t*, size_t, uint64_t, uint64_t);
  void (*scale)(uint64_t*, size_t, uint64_t);
  void (*powers_scale)(uint64_t*, size_t, uint64_t, uint64_t);
  void (*mul)(uint64_t*, const uint64_t*, size_t);
  void (*dit_cross)(uint64_t*, size_t, unsigned, const uint64_t*, size_t, size_t);
  void (*dif_cross)(uint64_t*, size_t, unsigned, const uint64_t*, size_t, size_t);
};
Kernels kernels() {
  if (simd_level() == SimdLevel::kAvx512)
    return {k::butterflies_avx512, k::butterflies_dif_avx512, k::dit_stage_avx512, k::dif_stage_avx512,
            k::first3_avx512,      k::last3_dif_avx512,       k::scale_avx512,     k::powers_scale_avx512,
            k::mul_avx512,         k::dit_cross_avx512,       k::dif_cross_avx512};
  return {k::butterflies_scalar, k::butterflies_dif_scalar, k::dit_stage_scalar, k::dif_stage_scalar,
          k::first3_scalar,      k::last3_dif_scalar,       k::scale_scalar,     k::powers_scale_scalar,
          k::mul_scalar,         k::dit_cross_scalar,       k::dif_cross_scalar};
}

// The stages with half in [h_lo, h_hi) (powers of two, h_lo ≥ the block size), up to four in one
// pass over memory (cross_pass) instead of one pass each; DIT: ascending halves, DIF: descending.
void cross_stages(uint64_t* x, size_t n, size_t h_lo, size_t h_hi, const uint64_t* tw, unsigned threads, bool dit) {
  const Kernels kern = kernels();
  std::vector<std::pair<size_t, unsigned>> passes;  // (h0, k)
  for (size_t h = h_lo; h < h_hi;) {
    unsigned k = 0;
    while (k < 4 && (h << k) < h_hi) ++k;
    passes.emplace_back(h, k);
    h <<= k;
  }
  if (!dit) std::reverse(passes.begin(), passes.end());
  for (const auto& [h0, k] : passes) {
    const size_t span = h0 << k, groups = n / span, chunks = (h0 + 1023) / 1024;
    parallel_for(groups * chunks, threads, [&](size_t b, size_t e) {
      for (size_t q = b; q < e; ++q) {
        uint64_t* v = x + (q / chunks) * span;
        const size_t j0 = (q % chunks) * 1024, j1 = std::min(h0, j0 + 1024);
        (dit ? kern.dit_cross : kern.dif_cross)(v, h0, k, tw, j0, j1);
      }
    }, 1);
  }
}

// Radix-2 DIT, bit-reversed input -> natural output. Stages up to the block size run block by
// block (cache-resident), the rest across the array. With src, the input is src ⊙ scale, formed
// a block at a time as the block's stages start (one pass over memory fewer).
void dit(uint64_t* x, unsigned log_n, const uint64_t* tw, unsigned threads, const uint64_t* src = nullptr,
         const uint64_t* scale = nullptr) {
  const size_t n = size_t{1} << log_n;
  if (n <= 1) return;
  const Kernels kern = kernels();
  const size_t block = size_t{1} << std::min(log_n, kLogBlock);
  parallel_for(n / block, threads, [&](size_t b, size_t e) {
    for (size_t blk = b; blk < e; ++blk) {
      uint64_t* base = x + blk * block;
      if (src) {
        if (src != x) std::copy(src + blk * block, src + (blk + 1) * block, base);
        kern.mul(base, scale + blk * block, block);
      }
      size_t half = 1;
      if (block >= 8) {
        kern.first3(base, block, tw[3], tw[5]);
        half = 8;
      }
      for (; half < block; half <<= 1) kern.dit_stage(base, block, half, tw + half);
    }
  }, 1);
  cross_stages(x, n, block, n, tw, threads, true);
}

// Radix-2 DIF, natural input -> bit-reversed output: the mirror image of dit().
void dif(uint64_t* x, unsigned log_n, const uint64_t* tw, unsigned threads) {
  const size_t n = size_t{1} << log_n;
  if (n <= 1) return;
  const Kernels kern = kernels();
  const size_t block = size_t{1} << std::min(log_n, kLogBlock);
  cross_stages(x, n, block, n, tw, threads, false);
  parallel_for(n / block, threads, [&](size_t b, size_t e) {
    for (size_t blk = b; blk < e; ++blk) {
      uint64_t* base = x + blk * block;
      const size_t stop = block >= 8 ? 8 : 1;
      for (size_t half = block / 2; half >= stop; half >>= 1) kern.dif_stage(base, block, half, tw + half);
      if (block >= 8) kern.last3(base, block, tw[3], tw[5]);
    }
  }, 1);
}

const uint64_t* twiddle_words(const std::shared_ptr<const std::vector<Fp>>& tree) {
  return reinterpret_cast<const uint64_t*>(tree->data());
}

void transform(std::span<Fp> v, bool inverse, unsigned threads) {
  const unsigned log_n = spec::ntt_log2(v.size());
  if (v.size() <= 1) return;
  const auto tree = twiddles().get(log_n, inverse);
  bit_reverse(raw(v), log_n, threads);
  dit(raw(v), log_n, twiddle_words(tree), threads);
}

}  // namespace

// T[p] = shift^rev(p) / n for p < n (rev over log_n bits): the coset scaling of bit-reversed
// coefficients, built by doubling (T[2^l + p] = T[p] shift^(2^(log_n - 1 - l))).
std::vector<Fp> bitrev_coset_factors(unsigned log_n, Fp shift) {
  const size_t n = size_t{1} << log_n;
  std::vector<Fp> t(n);
  t[0] = Fp::from_u64(n).inverse();
  for (unsigned l = 0; l < log_n; ++l) {
    const Fp c = shift.pow(uint64_t{1} << (log_n - 1 - l));
    const size_t h = size_t{1} << l;
    std::copy(t.begin(), t.begin() + static_cast<std::ptrdiff_t>(h), t.begin() + static_cast<std::ptrdiff_t>(h));
    kernels().scale(reinterpret_cast<uint64_t*>(t.data()) + h, h, c.value());
  }
  return t;
}

namespace {

// LDE without any bit-reversal pass: DIF inverse (natural evaluations -> bit-reversed
// coefficients), scale by T, spread coefficient p to position p * blowup (the bit-reversed order
// of the zero-padded coefficients), then DIT forward (-> natural evaluations).
void lde_core(uint64_t* out, unsigned log_n, unsigned log_blowup, const std::vector<Fp>& factors, unsigned threads) {
  const size_t n = size_t{1} << log_n, blowup = size_t{1} << log_blowup;
  const auto inv_tree = twiddles().get(log_n, true);
  dif(out, log_n, twiddle_words(inv_tree), threads);
  kernels().mul(out, reinterpret_cast<const uint64_t*>(factors.data()), n);
  for (size_t p = n; p-- > 0;) {
    const uint64_t c = out[p];
    std::fill(out + p * blowup, out + (p + 1) * blowup, uint64_t{0});
    out[p * blowup] = c;
  }
  const auto fwd_tree = twiddles().get(log_n + log_blowup, false);
  dit(out, log_n + log_blowup, twiddle_words(fwd_tree), threads);
}

}  // namespace

std::shared_ptr<const std::vector<Fp>> twiddle_tree(unsigned log_n, bool inverse) { return twiddles().get(log_n, inverse); }

Fp root_of_unity(unsigned log_n) {
  return Fp::from_u64(spec::GoldilocksTraits::kTwoAdicRoot).pow(uint64_t{1} << (spec::GoldilocksTraits::kTwoAdicity - log_n));
}

void ntt(std::span<Fp> values, unsigned threads) { transform(values, false, threads); }

void intt(std::span<Fp> values, unsigned threads) {
  transform(values, true, threads);
  const uint64_t n_inv = Fp::from_u64(values.size()).inverse().value();
  parallel_for(values.size(), threads, [&](size_t b, size_t e) { kernels().scale(raw(values) + b, e - b, n_inv); }, 4096);
}

std::vector<Fp> coset_coeffs(std::vector<Fp> evals, Fp shift, unsigned threads) {
  intt(evals, threads);
  const Fp inv = shift.inverse();
  Fp s = Fp::from_u64(1);
  for (Fp& x : evals) x = x * s, s = s * inv;
  return evals;
}

void coset_lde_into(std::span<const Fp> evals, unsigned blowup, Fp shift, std::span<Fp> out, unsigned threads) {
  const size_t n = evals.size();
  if (blowup == 0 || out.size() != n * blowup) throw std::invalid_argument("LDE output must hold n * blowup values");
  const unsigned log_n = spec::ntt_log2(n), log_blowup = spec::ntt_log2(blowup);
  spec::ntt_log2(out.size());
  std::copy(evals.begin(), evals.end(), out.begin());
  lde_core(raw(out), log_n, log_blowup, bitrev_coset_factors(log_n, shift), threads);
}

void dif_coefficients(std::span<Fp> values, unsigned threads) {
  if (values.size() <= 1) return;
  const unsigned log_n = spec::ntt_log2(values.size());
  dif(raw(values), log_n, twiddle_words(twiddles().get(log_n, true)), threads);
}

void coset_evals_from_dif(std::span<const Fp> dif_coeffs, std::span<const Fp> factors, std::span<Fp> out,
                          unsigned threads) {
  const size_t n = dif_coeffs.size();
  if (out.size() != n || factors.size() != n) throw std::invalid_argument("coset_evals_from_dif: sizes differ");
  if (n <= 1) {
    if (n == 1) out[0] = dif_coeffs[0] * factors[0];
    return;
  }
  const unsigned log_n = spec::ntt_log2(n);
  dit(raw(out), log_n, twiddle_words(twiddles().get(log_n, false)), threads,
      reinterpret_cast<const uint64_t*>(dif_coeffs.data()), reinterpret_cast<const uint64_t*>(factors.data()));
}

// With a = dif ⊙ factors, out[i] = Σ_p a[p]·ω_n^(i·rev_L(p)). Split p = β·B + t (t < B):
// rev_L(p) = rev_K(t)·n/B + rev_{L−K}(β), so out[i] = Σ_β ω_n^(i·rev_{L−K}(β))·Y_β[i mod B],
// where Y_β is the size-B DIT of block β, which is what the transform's first K stages leave there.
void coset_rows_from_dif(std::span<const Fp> dif_coeffs, std::span<const Fp> factors, std::span<const size_t> rows,
                         std::span<Fp> out, std::vector<Fp>* scratch) {
  const size_t n = dif_coeffs.size();
  if (factors.size() != n || out.size() != rows.size()) throw std::invalid_argument("coset_rows_from_dif: sizes differ");
  for (size_t r : rows)
    if (r >= n) throw std::invalid_argument("coset_rows_from_dif: a row outside the coset");
  if (rows.empty()) return;
  const unsigned L = n > 1 ? spec::ntt_log2(n) : 0;
  unsigned K = 3;
  while (K < L && (size_t{1} << K) < 2 * rows.size()) ++K;
  if (K + 2 > L) {  // few blocks: the whole transform costs about as much
    std::vector<Fp> all(n);
    coset_evals_from_dif(dif_coeffs, factors, all, 1);
    for (size_t j = 0; j < rows.size(); ++j) out[j] = all[rows[j]];
    return;
  }
  const size_t B = size_t{1} << K, blocks = n >> K;
  std::vector<Fp> own;
  std::vector<Fp>& y = scratch ? *scratch : own;
  y.assign(dif_coeffs.begin(), dif_coeffs.end());
  const Kernels kern = kernels();
  kern.mul(raw(y), reinterpret_cast<const uint64_t*>(factors.data()), n);
  const uint64_t* tw = twiddle_words(twiddles().get(K, false));
  const size_t chunk = std::max(B, size_t{1} << kLogBlock);
  for (size_t c0 = 0; c0 < n; c0 += chunk) {  // stages 1..K, a cache-sized chunk at a time
    uint64_t* base = raw(y) + c0;
    const size_t len = std::min(chunk, n - c0);
    kern.first3(base, len, tw[3], tw[5]);
    for (size_t half = 8; half < B; half <<= 1) kern.dit_stage(base, len, half, tw + half);
  }
  const Fp w_n = root_of_unity(L);
  const unsigned bits = L - K;
  std::vector<Fp> pw(blocks);
  for (size_t j = 0; j < rows.size(); ++j) {
    const Fp w = w_n.pow(rows[j]);  // pw[β] = w^rev_{L−K}(β), built as bitrev_coset_factors does
    pw[0] = Fp::from_u64(1);
    for (unsigned l = 0; l < bits; ++l) {
      const Fp c = w.pow(uint64_t{1} << (bits - 1 - l));
      const size_t h = size_t{1} << l;
      for (size_t q = 0; q < h; ++q) pw[h + q] = pw[q] * c;
    }
    const size_t u = rows[j] & (B - 1);
    LazySum s;
    for (size_t b = 0; b < blocks; ++b) s.add(pw[b], y[b * B + u]);
    out[j] = s.value();
  }
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
  const unsigned log_n = spec::ntt_log2(n), log_blowup = spec::ntt_log2(blowup);
  const auto factors = bitrev_coset_factors(log_n, shift);
  twiddles().get(log_n + log_blowup, false);  // build the trees once, before the threads need them
  twiddles().get(log_n, true);
  // Groups of 8 columns: one pass over the rows gathers them (a cache line per row), each is
  // extended in its own buffer, one pass scatters them back.
  constexpr size_t kGroup = 8;
  parallel_for((width + kGroup - 1) / kGroup, threads, [&](size_t gb, size_t ge) {
    std::vector<uint64_t> cols(kGroup * big);
    const uint64_t* in = reinterpret_cast<const uint64_t*>(matrix.data());
    uint64_t* o = raw(out);
    for (size_t g = gb; g < ge; ++g) {
      const size_t c0 = g * kGroup, cw = std::min(kGroup, width - c0);
      for (size_t r = 0; r < n; ++r)
        for (size_t c = 0; c < cw; ++c) cols[c * big + r] = in[r * width + c0 + c];
      for (size_t c = 0; c < cw; ++c) lde_core(cols.data() + c * big, log_n, log_blowup, factors, 1);
      for (size_t r = 0; r < big; ++r)
        for (size_t c = 0; c < cw; ++c) o[r * width + c0 + c] = cols[c * big + r];
    }
  }, 1);
}

size_t index_on_subgroup(size_t n, const Fp3& z) {
  if (!(z.c[1] == Fp()) || !(z.c[2] == Fp())) return n;
  const Fp w = root_of_unity(spec::ntt_log2(n));
  Fp x = Fp::from_u64(1);
  for (size_t i = 0; i < n; ++i, x = x * w)
    if (x == z.c[0]) return i;
  return n;
}

std::optional<std::vector<Fp3>> barycentric_weights(size_t n, const Fp3& z, unsigned threads) {
  if (index_on_subgroup(n, z) < n) return std::nullopt;
  const Fp w = root_of_unity(spec::ntt_log2(n));
  std::vector<Fp3> weight(n);  // 1 / (z - w^i), then times w^i
  parallel_for(n, threads, [&](size_t b, size_t e) {
    Fp x = w.pow(b);
    for (size_t i = b; i < e; ++i, x = x * w) weight[i] = z - Fp3{{x, Fp(), Fp()}};
    batch_inverse(std::span(weight).subspan(b, e - b));
    x = w.pow(b);
    for (size_t i = b; i < e; ++i, x = x * w) weight[i] = weight[i] * x;
  }, 4096);
  return weight;
}

Fp3 ood_factor(size_t n, const Fp3& z) {
  const Fp3 one{{Fp::from_u64(1), Fp(), Fp()}};
  Fp3 zn = one, base = z;
  for (size_t e = n; e; e >>= 1, base = base * base)
    if (e & 1) zn = zn * base;
  return (zn - one) * Fp::from_u64(n).inverse();
}

std::vector<Fp3> evaluate_barycentric(std::span<const Fp> matrix, size_t width, const Fp3& z, unsigned threads) {
  if (width == 0 || matrix.size() % width) throw std::invalid_argument("matrix size is not a multiple of the width");
  const size_t n = matrix.size() / width;
  std::vector<Fp3> out(width);
  const auto weight = barycentric_weights(n, z, threads);
  if (!weight) {  // z on the subgroup: the interpolant is the evaluation there
    const size_t i = index_on_subgroup(n, z);
    for (size_t c = 0; c < width; ++c) out[c] = Fp3{{matrix[i * width + c], Fp(), Fp()}};
    return out;
  }
  // Per thread, partial sums over a row range; field sums are exact, so the order is free.
  const unsigned t = resolve_threads(threads);
  std::vector<std::vector<Fp3>> partial(t, std::vector<Fp3>(width));
  const size_t chunk = (n + t - 1) / t;
  parallel_for(t, t, [&](size_t tb, size_t te) {
    for (size_t ti = tb; ti < te; ++ti)
      for (size_t i = ti * chunk; i < std::min(n, (ti + 1) * chunk); ++i)
        for (size_t c = 0; c < width; ++c) partial[ti][c] = partial[ti][c] + (*weight)[i] * matrix[i * width + c];
  }, 1);
  const Fp3 factor = ood_factor(n, z);
  for (size_t c = 0; c < width; ++c) {
    for (const auto& p : partial) out[c] = out[c] + p[c];
    out[c] = out[c] * factor;
  }
  return out;
}

}  // namespace zkrv::opt
