// The CUDA kernels' per-element bodies (optimized/cuda/kernels_hd.h) run here on the CPU, with
// the grids emulated block by block and stage by stage, and must equal the CPU backend: the NTT
// pass decomposition (DIT, DIF, the whole LDE), the prefixed Keccak stream (leaves of every width
// around the rate, nodes), the Merkle level bodies (slot tables, pairs and halves, injected
// columns), the FRI fold for every arity, and the barycentric weights. This is
// what can be checked of the GPU code on a machine without a GPU.
#include "optimized/cuda/kernels_hd.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <random>
#include <stdexcept>
#include <vector>

#include "optimized/backend/backend.h"
#include "optimized/fri/fold.h"
#include "optimized/hash/pow.h"
#include "optimized/ntt/ntt.h"
#include "reference/merkle/merkle.h"

namespace zkrv::opt::cuda {
namespace {

std::vector<Fp> random_fp(size_t n, uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<Fp> v(n);
  for (auto& x : v) x = Fp::from_u64(g());
  return v;
}

// Runs the passes on v as the kernels do: per block, load to "shared memory", every stage of
// the pass over every butterfly (a barrier between stages), store back. The first pass loads
// through first_load (the kernel's other source or its spreading load) when given.
void run_passes(std::vector<Fp>& v, unsigned log_n, bool dif, const Fp* tw,
                const std::function<Fp(size_t)>& first_load = nullptr) {
  NttPass passes[kMaxPasses];
  const unsigned count = ntt_passes(log_n, passes);
  for (unsigned pi = 0; pi < count; ++pi) {
    const NttPass& p = passes[dif ? count - 1 - pi : pi];
    const size_t e_count = pass_elements(p);
    ASSERT_LE(e_count * sizeof(Fp), 32768u) << "shared memory per block";
    std::vector<Fp> smem(e_count);
    for (size_t b = 0; b < pass_blocks(p); ++b) {
      for (size_t e = 0; e < e_count; ++e) {
        const size_t q = pass_index(p, b, e);
        smem[e] = (pi == 0 && first_load) ? first_load(q) : v[q];
      }
      for (unsigned s = 0; s < p.s1 - p.s0; ++s) {
        const unsigned t = dif ? p.s1 - 1 - s : p.s0 + s;
        for (size_t k = 0; k < e_count / 2; ++k) {
          const Butterfly bf = pass_butterfly(p, t, b, k);
          if (dif) dif_butterfly(smem.data(), bf, tw);
          else dit_butterfly(smem.data(), bf, tw);
        }
      }
      for (size_t e = 0; e < e_count; ++e) v[pass_index(p, b, e)] = smem[e];
    }
  }
}

std::vector<Fp> bit_reversed(const std::vector<Fp>& v, unsigned log_n) {
  std::vector<Fp> r(v.size());
  for (size_t i = 0; i < v.size(); ++i) r[reverse_bits(i, log_n)] = v[i];
  return r;
}

TEST(CudaKernelBodies, PassesCoverEveryIndexOnce) {
  for (unsigned log_n : {1u, 5u, 12u, 13u, 20u, 21u, 24u}) {
    NttPass passes[kMaxPasses];
    const unsigned count = ntt_passes(log_n, passes);
    unsigned stages = 0;
    for (unsigned i = 0; i < count; ++i) {
      EXPECT_EQ(passes[i].s0, stages);
      stages = passes[i].s1;
      EXPECT_EQ(pass_elements(passes[i]) * pass_blocks(passes[i]), size_t{1} << log_n);
    }
    EXPECT_EQ(stages, log_n);
    if (log_n <= 13) {  // a permutation: every index hit once per pass
      for (unsigned i = 0; i < count; ++i) {
        std::vector<int> hits(size_t{1} << log_n);
        for (size_t b = 0; b < pass_blocks(passes[i]); ++b)
          for (size_t e = 0; e < pass_elements(passes[i]); ++e) ++hits[pass_index(passes[i], b, e)];
        for (int h : hits) ASSERT_EQ(h, 1);
      }
    }
  }
}

TEST(CudaKernelBodies, NttPassesMatchTheCpu) {
  for (unsigned log_n : {1u, 3u, 9u, 12u, 13u, 16u, 22u}) {
    const size_t n = size_t{1} << log_n;
    const auto x = random_fp(n, log_n);
    const auto tw = twiddle_tree(log_n, false);
    auto want = x;
    ntt(want);
    auto dit = bit_reversed(x, log_n);  // DIT: bit-reversed in, natural out
    run_passes(dit, log_n, false, tw->data());
    ASSERT_EQ(std::memcmp(dit.data(), want.data(), n * 8), 0) << "dit 2^" << log_n;
    auto dif = x;  // DIF: natural in, bit-reversed out
    run_passes(dif, log_n, true, tw->data());
    ASSERT_EQ(std::memcmp(dif.data(), bit_reversed(want, log_n).data(), n * 8), 0) << "dif 2^" << log_n;
  }
}

TEST(CudaKernelBodies, LdeStepsMatchTheCpu) {
  for (unsigned log_n : {0u, 2u, 11u, 14u})
    for (unsigned log_blowup : {1u, 3u}) {
      const size_t n = size_t{1} << log_n, big = n << log_blowup;
      const auto x = random_fp(n, 50 + log_n);
      const Fp shift = Fp::from_u64(7), n_inv = Fp::from_u64(n).inverse();
      // as the CUDA backend: DIF whose first pass reads the input, factors, DIT whose first pass
      // spreads the scaled coefficients as it loads them
      std::vector<Fp> coeffs(n);
      if (log_n == 0) coeffs = x;
      run_passes(coeffs, log_n, true, twiddle_tree(log_n, true)->data(), [&](size_t q) { return x[q]; });
      std::vector<Fp> factors(n);
      for (size_t p = 0; p < n; ++p) factors[p] = lde_scaled_coefficient(Fp::from_u64(1), p, log_n, shift, n_inv);
      std::vector<Fp> out(big, Fp::from_u64(12345));  // garbage: every element must be written
      run_passes(out, log_n + log_blowup, false, twiddle_tree(log_n + log_blowup, false)->data(),
                 [&](size_t q) { return lde_spread_value(coeffs.data(), factors.data(), q, log_blowup); });
      const auto want = coset_lde(x, 1u << log_blowup, shift);
      ASSERT_EQ(std::memcmp(out.data(), want.data(), big * 8), 0) << log_n << " " << log_blowup;
    }
}

TEST(CudaKernelBodies, PrefixedKeccakMatchesMerkleHashes) {
  std::mt19937_64 g(3);
  for (size_t k = 0; k <= 40; ++k) {
    ref::Row row;
    std::vector<uint64_t> words(k);
    for (auto& w : words) {
      w = g() % ref::Fp::P;
      row.push_back(ref::Fp::from_u64(w));
    }
    uint64_t out[4];
    keccak256_prefixed(0x00, k, [&](size_t i) { return words[i]; }, out);
    ref::Digest d;
    std::memcpy(d.data(), out, 32);
    ASSERT_EQ(d, ref::merkle_leaf(row)) << "width " << k;
  }
  ref::Digest l{}, r{};
  for (auto& b : l) b = static_cast<uint8_t>(g());
  for (auto& b : r) b = static_cast<uint8_t>(g());
  uint64_t lw[4], rw[4], out[4];
  std::memcpy(lw, l.data(), 32);
  std::memcpy(rw, r.data(), 32);
  keccak256_prefixed(0x01, 8, [&](size_t i) { return i < 4 ? lw[i] : rw[i - 4]; }, out);
  ref::Digest d;
  std::memcpy(d.data(), out, 32);
  EXPECT_EQ(d, ref::merkle_node(l, r));
}

// The Merkle level kernels' bodies (hash_leaf over a slot table, hash_node with and without
// injected columns, children by pairs and by halves) against the CPU backend's hash_leaves and
// hash_level, emulating the grids: one body call per output.
TEST(CudaKernelBodies, MerkleLevelBodiesMatchTheCpuBackend) {
  std::mt19937_64 g(7);
  auto cpu = make_cpu_backend(1);
  const size_t count = 37;
  // slots of widths 1, 3, 0, 2 and 17 at various offsets, as the FRI layers and the columns use them
  const std::vector<std::pair<size_t, size_t>> shape{{1, 0}, {3, 5}, {0, 2}, {2, 1}, {17, 0}};
  std::vector<std::vector<Fp>> values;
  std::vector<Backend::Slot> slots;
  std::vector<LeafSlot> table;
  size_t words = 0;
  for (const auto& [width, offset] : shape) {
    values.push_back(random_fp(offset + width * count, g()));
    slots.push_back({cpu->upload<Fp>(values.back()), offset, width});
    table.push_back({reinterpret_cast<const uint64_t*>(values.back().data()) + offset, width});
    words += width;
  }
  for (const auto& [stride, first] : {std::pair<size_t, size_t>{1, 0}, {2, 1}}) {
    auto out = cpu->alloc<Digest>(2 * count + 1);
    cpu->hash_leaves(slots, count, stride, first, out);
    const auto want = cpu->download(out);
    for (size_t q = 0; q < count; ++q) {
      Digest d;
      hash_leaf(table.data(), words, q, reinterpret_cast<uint64_t*>(d.data()));
      ASSERT_EQ(d, want[stride * q + first]) << "leaf " << q << " stride " << stride;
    }
  }
  const size_t w = 16;
  std::vector<Digest> below(2 * w);
  for (auto& d : below)
    for (auto& b : d) b = static_cast<uint8_t>(g());
  const auto below_b = cpu->upload<Digest>(below);
  for (size_t ninject : {0u, 3u})
    for (auto children : {Backend::Children::kPairs, Backend::Children::kHalves}) {
      std::vector<std::vector<Fp>> inject;
      std::vector<Buffer<Fp>> inject_b;
      std::vector<const uint64_t*> inject_p;
      for (size_t c = 0; c < ninject; ++c) {
        inject.push_back(random_fp(w / 2, g()));
        inject_b.push_back(cpu->upload<Fp>(inject.back()));
        inject_p.push_back(reinterpret_cast<const uint64_t*>(inject.back().data()));
      }
      auto up = cpu->alloc<Digest>(w);
      cpu->hash_level(below_b, children, inject_b, w / 2, 2, 1, up);  // the odd nodes, as part 1 of 2
      const auto want = cpu->download(up);
      const bool pairs = children == Backend::Children::kPairs;
      for (size_t q = 0; q < w / 2; ++q) {
        const size_t j = 2 * q + 1, l = pairs ? 2 * j : j, r = pairs ? 2 * j + 1 : j + w;
        Digest d;
        hash_node(reinterpret_cast<const uint64_t*>(below[l].data()), reinterpret_cast<const uint64_t*>(below[r].data()),
                  inject_p.data(), ninject, q, reinterpret_cast<uint64_t*>(d.data()));
        ASSERT_EQ(d, want[j]) << "node " << j << (pairs ? " by pairs" : " by halves") << ", " << ninject << " injected";
      }
    }
}

TEST(CudaKernelBodies, FoldAndOodWeightsMatchTheCpu) {
  std::mt19937_64 g(4);
  for (unsigned log_arity : {1u, 2u, 3u, 4u}) {
    const size_t n = 256, a = size_t{1} << log_arity, m = n / a;
    std::vector<Fp3> in(n);
    for (auto& x : in) x = {{Fp::from_u64(g()), Fp::from_u64(g()), Fp::from_u64(g())}};
    const Fp3 beta{{Fp::from_u64(g()), Fp::from_u64(g()), Fp::from_u64(g())}};
    const Fp shift = Fp::from_u64(g());
    std::vector<Fp3> want(m);
    fri_fold_layer(in, log_arity, shift, beta, want, 1);
    std::vector<Fp> zeta(a);
    const Fp z = root_of_unity(log_arity).inverse();
    zeta[0] = Fp::from_u64(a).inverse();
    for (size_t t = 1; t < a; ++t) zeta[t] = zeta[t - 1] * z;
    const Fp w_inv = root_of_unity(8).inverse(), shift_inv = shift.inverse();
    for (size_t i = 0; i < m; ++i)
      ASSERT_EQ(fri_fold_one(in.data(), m, log_arity, i, shift_inv * w_inv.pow(i), beta, zeta.data()), want[i]) << i;
  }
  const Fp3 z{{Fp::from_u64(g()), Fp::from_u64(g()), Fp::from_u64(g())}};
  const auto weights = barycentric_weights(64, z, 1);
  for (size_t i = 0; i < 64; ++i) ASSERT_EQ(ood_weight(root_of_unity(6), i, z), (*weights)[i]);
}

// The grinding kernel's body against optimized/hash/pow.h, nonce by nonce, and the backend's
// window loop (grind_windows, each window's smallest hit, the first window with one) against the
// CPU's grind, with windows of 2^4 … 2^10 here in place of kGrindWindow, so that the hit falls in
// a later window: the device's loop is this one with 2^22.
TEST(CudaKernelBodies, GrindingMatchesTheCpu) {
  std::mt19937_64 g(6);
  size_t later_windows = 0;
  for (int round = 0; round < 6; ++round) {
    Digest state;
    for (auto& b : state) b = static_cast<uint8_t>(g());
    uint64_t words[4];
    std::memcpy(words, state.data(), 32);
    for (uint64_t nonce = 0; nonce < 600; ++nonce)
      ASSERT_EQ(pow_zero_bits(words, nonce), opt::pow_zero_bits(state, nonce)) << nonce;
    const uint64_t high = g();
    ASSERT_EQ(pow_zero_bits(words, high), opt::pow_zero_bits(state, high));
    for (unsigned bits : {1u, 4u, 8u, 12u})
      for (uint64_t window : {uint64_t{16}, uint64_t{1024}}) {
        size_t windows = 0;
        const uint64_t got = grind_windows(window, [&](uint64_t base) {
          EXPECT_EQ(base, windows * window);
          ++windows;
          uint64_t best = kNoNonce;
          for (uint64_t t = window; t-- > 0;)  // threads in any order: the minimum is kept
            if (pow_zero_bits(words, base + t) >= bits) best = std::min(best, base + t);
          return best;
        });
        ASSERT_EQ(got, opt::grind_pow(state, bits, 2)) << bits << " bits, windows of " << window;
        ASSERT_EQ(windows, got / window + 1) << "stops at the first window with a hit";
        later_windows += windows > 1;
      }
  }
  EXPECT_GT(later_windows, 6u) << "the cases must reach windows past the first";
}

// With no hit anywhere, the loop covers every nonce up to 2^64 − 1, each window once, and then
// refuses; it never wraps to 0. A window of no nonces is refused.
TEST(CudaKernelBodies, GrindingWithNoHitEndsWithoutWrapping) {
  std::vector<uint64_t> bases;
  EXPECT_THROW(grind_windows(uint64_t{1} << 62,
                             [&](uint64_t base) {
                               bases.push_back(base);
                               return kNoNonce;
                             }),
               std::runtime_error);
  EXPECT_EQ(bases, (std::vector<uint64_t>{0, uint64_t{1} << 62, uint64_t{1} << 63, uint64_t{3} << 62}));
  bases.clear();
  EXPECT_THROW(grind_windows(kNoNonce, [&](uint64_t base) {
                 bases.push_back(base);
                 return kNoNonce;
               }),
               std::runtime_error);
  EXPECT_EQ(bases, std::vector<uint64_t>{0});
  EXPECT_THROW(grind_windows(0, [](uint64_t) { return uint64_t{0}; }), std::invalid_argument);
}

}  // namespace
}  // namespace zkrv::opt::cuda
