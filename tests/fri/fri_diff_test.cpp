// Optimized vs reference: the transcript (every operation, grinding with 1-3 threads), batched
// Merkle openings, the layer fold for every arity, and the multi-height FRI's proofs are
// byte-identical for every blowup, SIMD level and thread count.
#include <gtest/gtest.h>

#include <random>

#include "optimized/fri/fold.h"
#include "optimized/fri/fri.h"
#include "optimized/merkle/merkle.h"
#include "optimized/simd/simd.h"
#include "optimized/transcript/transcript.h"
#include "reference/fri/fri.h"
#include "reference/merkle/merkle.h"
#include "reference/ntt/ntt.h"
#include "tests/fri/fri_harness.h"

namespace zkrv {
namespace {

ref::Fp3 to_ref(const opt::Fp3& x) {
  return {{ref::Fp::from_u64(x.c[0].value()), ref::Fp::from_u64(x.c[1].value()), ref::Fp::from_u64(x.c[2].value())}};
}

// Evaluations on 7·<ω_N> of a polynomial with 2^log_coeffs random coefficients (reference NTT).
std::vector<opt::Fp3> evals(unsigned log_coeffs, unsigned log_domain, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const size_t big = size_t{1} << log_domain;
  std::vector<opt::Fp3> e(big);
  const ref::Fp g = ref::Fp::from_u64(spec::GoldilocksTraits::kGenerator);
  for (size_t c = 0; c < 3; ++c) {
    std::vector<ref::Fp> col(big);
    ref::Fp s = ref::Fp::from_u64(1);
    for (size_t k = 0; k < (size_t{1} << log_coeffs); ++k, s = s * g) col[k] = ref::Fp::from_u64(rng()) * s;
    col = ref::ntt(col);
    for (size_t i = 0; i < big; ++i) e[i].c[c] = opt::Fp::from_u64(col[i].value());
  }
  return e;
}

TEST(TranscriptDiff, SameBytesAsReference) {
  ref::Transcript r("diff");
  opt::Transcript o("diff");
  std::mt19937_64 rng(8);
  for (int step = 0; step < 200; ++step) {
    const std::string label = "l" + std::to_string(rng() % 5);
    switch (rng() % 5) {
      case 0: {
        std::vector<uint8_t> d(rng() % 300);
        for (auto& b : d) b = static_cast<uint8_t>(rng());
        r.absorb(label, d), o.absorb(label, d);
        break;
      }
      case 1: {
        const uint64_t v = rng() % opt::Fp::P;
        r.absorb_field(label, ref::Fp::from_u64(v)), o.absorb_field(label, opt::Fp::from_u64(v));
        break;
      }
      case 2: EXPECT_EQ(r.squeeze_field(label).value(), o.squeeze_field(label).value()); break;
      case 3: {
        const uint64_t bound = 1 + rng() % 1000;
        EXPECT_EQ(r.squeeze_index(label, bound), o.squeeze_index(label, bound));
        break;
      }
      default: EXPECT_EQ(to_ref(o.squeeze_ext(label)), r.squeeze_ext(label)); break;
    }
    ASSERT_EQ(r.state(), o.state()) << "step " << step;
  }
  for (unsigned threads : {1u, 2u, 3u}) EXPECT_EQ(o.grind(10, threads), r.grind(10)) << threads;
  EXPECT_TRUE(o.check_pow(10, r.grind(10)));
}

TEST(MerkleDiff, BatchOpeningsMatchReference) {
  std::mt19937_64 rng(9);
  for (unsigned log_rows : {0u, 1u, 3u, 6u}) {
    const size_t rows = size_t{1} << log_rows, width = 5;
    std::vector<opt::Fp> m(rows * width);
    std::vector<ref::Row> rrows(rows);
    for (size_t i = 0; i < m.size(); ++i) {
      m[i] = opt::Fp::from_u64(rng());
      rrows[i / width].push_back(ref::Fp::from_u64(m[i].value()));
    }
    const opt::MerkleTree ot(m, rows, width, 2);
    const ref::MerkleTree rt(rrows);
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<size_t> idx(1 + rng() % 8);
      for (auto& i : idx) i = rng() % rows;
      EXPECT_EQ(ot.open_batch(idx), rt.open_batch(idx));
    }
  }
}

TEST(FriDiff, FoldLayerMatchesReference) {
  std::mt19937_64 rng(10);
  for (unsigned log_arity : {1u, 2u, 3u, 4u}) {
    const auto in = evals(8, 8, rng());
    const opt::Fp3 beta{{opt::Fp::from_u64(rng()), opt::Fp::from_u64(rng()), opt::Fp::from_u64(rng())}};
    const opt::Fp shift = opt::Fp::from_u64(rng());
    std::vector<opt::Fp3> out(in.size() >> log_arity);
    opt::fri_fold_layer(in, log_arity, shift, beta, out, 2);
    const size_t m = out.size();
    const ref::Fp w = ref::root_of_unity(8);
    for (size_t i = 0; i < m; i += 7) {
      std::vector<ref::Fp3> v;
      for (size_t j = 0; j < (size_t{1} << log_arity); ++j) v.push_back(to_ref(in[i + j * m]));
      EXPECT_EQ(to_ref(out[i]), ref::fri_fold(v, ref::Fp::from_u64(shift.value()) * w.pow(i), to_ref(beta)));
    }
  }
}

TEST(FriDiff, ProofsAreByteIdentical) {
  for (unsigned lb : {1u, 3u})
    for (const std::vector<unsigned>& heights : {std::vector<unsigned>{9}, std::vector<unsigned>{9, 7, 4}}) {
      const auto deep = fri_harness::codewords(heights, lb, 100 + lb + heights.size());
      const auto o = fri_harness::options(lb, 16, 6, 2);
      const auto shape = fri_harness::shape_of(deep, o);
      const auto want = fri_harness::prove_ref(deep, o);
      const auto saved = opt::simd_level();
      for (auto level : opt::kAllSimdLevels)  // every SIMD level (scalar = SIMD forced off) and thread count
        for (unsigned threads : {1u, 2u, 3u}) {
          opt::set_simd_level(level);
          auto be = opt::make_cpu_backend(threads);
          std::map<unsigned, opt::Buffer<opt::Fp3>> on_device;
          for (const auto& [lh, w] : deep) {
            std::vector<opt::Fp3> v;
            for (const auto& x : w) v.push_back({{opt::Fp::from_u64(x.c[0].value()), opt::Fp::from_u64(x.c[1].value()),
                                                  opt::Fp::from_u64(x.c[2].value())}});
            on_device[lh] = be->upload<opt::Fp3>(v);
          }
          opt::FriProver prover(*be, on_device, lb);
          const auto got = fri_harness::prove<opt::Transcript>(prover, shape, o, threads);
          EXPECT_EQ(got, want) << "blowup 2^" << lb << " heights " << heights.size() << " threads " << threads
                               << " simd " << opt::simd_level_name(level);
        }
      opt::set_simd_level(saved);
      EXPECT_FALSE(fri_harness::verify(deep, o, want));
    }
}

}  // namespace
}  // namespace zkrv
