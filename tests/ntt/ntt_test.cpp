// NTT: fast == reference == naive O(n^2) DFT up to 2^10; fast == reference beyond; inverse of
// forward is the identity; coset LDE agrees with direct evaluation of the interpolant.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "optimized/ntt/kernels.h"
#include "optimized/ntt/ntt.h"
#include "optimized/simd/simd.h"
#include "reference/ntt/ntt.h"

namespace zkrv {
namespace {

std::vector<uint64_t> random_values(size_t n, uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<uint64_t> v(n);
  for (auto& x : v) x = g();
  return v;
}

template <typename F>
std::vector<F> as_field(const std::vector<uint64_t>& v) {
  std::vector<F> out;
  for (uint64_t x : v) out.push_back(F::from_u64(x));
  return out;
}

// opt::ntt of raw equals want (the reference's), and opt::intt brings raw back.
void expect_round_trip(const std::vector<uint64_t>& raw, const std::vector<ref::Fp>& want, unsigned threads,
                       const std::string& what) {
  auto v = as_field<opt::Fp>(raw);
  opt::ntt(v, threads);
  for (size_t i = 0; i < v.size(); ++i) ASSERT_EQ(v[i].value(), want[i].value()) << what << ", " << i;
  opt::intt(v, threads);
  for (size_t i = 0; i < v.size(); ++i) ASSERT_EQ(v[i].value(), opt::Fp::from_u64(raw[i]).value()) << what << ", " << i;
}

TEST(Ntt, MatchesNaiveDftAndReferenceUpTo1024) {
  for (unsigned k = 0; k <= 10; ++k) {
    const size_t n = size_t{1} << k;
    const auto raw = random_values(n, k);
    const auto rc = as_field<ref::Fp>(raw);
    // naive DFT
    const ref::Fp w = ref::root_of_unity(k);
    std::vector<ref::Fp> naive(n);
    for (size_t i = 0; i < n; ++i) {
      ref::Fp acc, wi = w.pow(i), t = ref::Fp::from_u64(1);
      for (size_t j = 0; j < n; ++j) {
        acc = acc + rc[j] * t;
        t = t * wi;
      }
      naive[i] = acc;
    }
    const auto reference = ref::ntt(rc);
    auto fast = as_field<opt::Fp>(raw);
    opt::ntt(fast);
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(reference[i].value(), naive[i].value()) << "n=" << n << " i=" << i;
      ASSERT_EQ(fast[i].value(), naive[i].value()) << "n=" << n << " i=" << i;
    }
  }
}

TEST(Ntt, FastMatchesReferenceLargeAndRoundTrips) {
  for (unsigned k : {12u, 14u, 16u}) {
    const size_t n = size_t{1} << k;
    const auto raw = random_values(n, 100 + k);
    const auto reference = ref::ntt(as_field<ref::Fp>(raw));
    auto fast = as_field<opt::Fp>(raw);
    opt::ntt(fast);
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(fast[i].value(), reference[i].value()) << i;
    opt::intt(fast);
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(fast[i].value(), opt::Fp::from_u64(raw[i]).value()) << i;
    const auto back = ref::intt(reference);
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(back[i].value(), ref::Fp::from_u64(raw[i]).value()) << i;
  }
}

// Sizes whose stages across blocks need one fused pass of two (2^18), of four (2^20) or a pass
// of four and another (2^21), against the reference, at 1 and 3 threads; and an LDE whose DIF
// runs three of them and whose DIT five.
TEST(Ntt, LargeSizesFuseTheStagesAcrossBlocks) {
  const auto saved = opt::simd_level();
  for (unsigned k : {18u, 20u, 21u}) {  // one pass of two; one of four; four and one
    const size_t n = size_t{1} << k;
    const auto raw = random_values(n, 900 + k);
    const auto want = ref::ntt(as_field<ref::Fp>(raw));
    const unsigned threads = 1 + k % 3;  // 1, 3, 1
    for (auto level : opt::kAllSimdLevels) {
      opt::set_simd_level(level);
      expect_round_trip(raw, want, threads, "log n " + std::to_string(k) + ", " + opt::simd_level_name(level));
    }
  }
  const auto raw = random_values(size_t{1} << 19, 919);
  const auto lde_ref = ref::coset_lde(as_field<ref::Fp>(raw), 4, ref::Fp::from_u64(7));
  for (auto level : opt::kAllSimdLevels) {
    opt::set_simd_level(level);
    const auto lde = opt::coset_lde(as_field<opt::Fp>(raw), 4, opt::Fp::from_u64(7), 2);
    for (size_t i = 0; i < lde.size(); ++i)
      ASSERT_EQ(lde[i].value(), lde_ref[i].value()) << opt::simd_level_name(level) << ", " << i;
  }
  opt::set_simd_level(saved);
}

TEST(Ntt, CosetLdeEvaluatesTheInterpolant) {
  const unsigned k = 6;
  const size_t n = size_t{1} << k;
  const auto raw = random_values(n, 7);
  const auto evals = as_field<ref::Fp>(raw);
  const auto coeffs = ref::intt(evals);
  const ref::Fp shift = ref::Fp::from_u64(spec::GoldilocksTraits::kGenerator);
  for (unsigned blowup : {2u, 4u, 8u}) {
    const auto lde = ref::coset_lde(evals, blowup, shift);
    const auto fast = opt::coset_lde(as_field<opt::Fp>(raw), blowup, opt::Fp::from_u64(spec::GoldilocksTraits::kGenerator));
    const ref::Fp w = ref::root_of_unity(k + (blowup == 2 ? 1 : blowup == 4 ? 2 : 3));
    for (size_t i = 0; i < n * blowup; i += 37) {
      const ref::Fp x = shift * w.pow(i);
      ref::Fp acc, t = ref::Fp::from_u64(1);
      for (const auto& c : coeffs) { acc = acc + c * t; t = t * x; }
      ASSERT_EQ(lde[i].value(), acc.value()) << "blowup " << blowup << " i " << i;
      ASSERT_EQ(fast[i].value(), acc.value()) << "blowup " << blowup << " i " << i;
    }
  }
}

// Every SIMD level and thread count gives the same bytes as the reference, across the sizes
// where the schedule changes (below, at and above the cache block of 2^14).
TEST(Ntt, SimdLevelsAndThreadsAgree) {
  const auto saved = opt::simd_level();
  std::printf("cpu SIMD level: %s\n", opt::simd_level_name(opt::cpu_simd_level()));
  for (unsigned k : {3u, 4u, 9u, 14u, 15u, 17u, 18u}) {
    const size_t n = size_t{1} << k;
    const auto raw = random_values(n, 300 + k);
    const auto want = ref::ntt(as_field<ref::Fp>(raw));
    for (auto level : opt::kAllSimdLevels)
      for (unsigned threads : {1u, 2u, 3u}) {
        opt::set_simd_level(level);
        expect_round_trip(raw, want, threads,
                          "k " + std::to_string(k) + " " + opt::simd_level_name(level) + " t " + std::to_string(threads));
        const auto lde = opt::coset_lde(as_field<opt::Fp>(raw), 4, opt::Fp::from_u64(7), threads);
        const auto lde_ref = ref::coset_lde(as_field<ref::Fp>(raw), 4, ref::Fp::from_u64(7));
        for (size_t i = 0; i < lde.size(); i += 1 + i % 5) ASSERT_EQ(lde[i].value(), lde_ref[i].value()) << i;
      }
  }
  opt::set_simd_level(saved);
}

// The optimized prover's query openings: a few rows of a coset part, without the whole transform.
TEST(Ntt, CosetRowsEqualTheWholeTransformsRows) {
  const auto saved = opt::simd_level();
  std::mt19937_64 g(77);
  for (unsigned k : {0u, 1u, 3u, 4u, 5u, 6u, 9u, 12u, 16u, 18u})  // 18: more than one 2^16 chunk
    for (size_t count : {1u, 2u, 5u, 46u, 300u}) {
      const size_t n = size_t{1} << k;
      auto coeffs = as_field<opt::Fp>(random_values(n, 500 + k));
      opt::dif_coefficients(coeffs);
      const auto factors = opt::bitrev_coset_factors(k, opt::Fp::from_u64(7).pow(1 + count));
      std::vector<opt::Fp> all(n);
      opt::coset_evals_from_dif(coeffs, factors, all);
      std::vector<size_t> rows(count);
      for (auto& r : rows) r = g() % n;  // repeats allowed
      rows[0] = n - 1;
      for (auto level : opt::kAllSimdLevels) {
        opt::set_simd_level(level);
        std::vector<opt::Fp> got(count);
        opt::coset_rows_from_dif(coeffs, factors, rows, got);
        for (size_t j = 0; j < count; ++j)
          ASSERT_EQ(got[j].value(), all[rows[j]].value()) << "log n " << k << ", " << count << " rows, row " << rows[j];
      }
    }
  opt::set_simd_level(saved);
  std::vector<opt::Fp> c(8), out(1);
  const auto f = opt::bitrev_coset_factors(3, opt::Fp::from_u64(7));
  const std::vector<size_t> outside = {8};
  EXPECT_THROW(opt::coset_rows_from_dif(c, f, outside, out), std::invalid_argument);
}

// The AVX-512 kernels' arithmetic lane by lane against the portable kernels, on the values where
// reductions carry and borrow (0, 1, p - 1, 2^32 ± 1, 2^63, ...), every pair of them, and random ones.
TEST(Ntt, Avx512KernelsEqualThePortableOnesOnEdgeValues) {
  if (opt::cpu_simd_level() != opt::SimdLevel::kAvx512) GTEST_SKIP() << "this CPU has no AVX-512";
  const uint64_t p = 0xFFFFFFFF00000001ull;
  std::vector<uint64_t> edge = {0, 1, 2, p - 1, p - 2, (1ull << 32) - 1, 1ull << 32, (1ull << 32) + 1, 1ull << 63,
                                (1ull << 63) - 1, p - (1ull << 32), 0xFFFFFFFFull << 16, 0x00000000FFFFFFFEull};
  std::mt19937_64 g(5);
  while (edge.size() < 64) edge.push_back(g() % p);
  std::vector<uint64_t> a, b;
  for (uint64_t x : edge)
    for (uint64_t y : edge) a.push_back(x), b.push_back(y);
  auto want = a;
  opt::ntt_kernels::mul_scalar(want.data(), b.data(), want.size());
  auto got = a;
  opt::ntt_kernels::mul_avx512(got.data(), b.data(), got.size());
  for (size_t i = 0; i < a.size(); ++i) ASSERT_EQ(got[i], want[i]) << a[i] << " * " << b[i];
  for (uint64_t c : edge) {
    auto w = a, v = a;
    opt::ntt_kernels::scale_scalar(w.data(), w.size(), c);
    opt::ntt_kernels::scale_avx512(v.data(), v.size(), c);
    ASSERT_EQ(v, w) << "scale by " << c;
  }
}

TEST(Ntt, BatchLdeMatchesReferencePerColumn) {
  const auto saved = opt::simd_level();
  for (size_t width : {1u, 5u, 8u, 13u})
    for (unsigned blowup : {2u, 4u, 8u}) {
      const size_t n = 64;
      const auto raw = random_values(n * width, width * 10 + blowup);
      const auto want = ref::batch_coset_lde(as_field<ref::Fp>(raw), width, blowup, ref::Fp::from_u64(7));
      for (auto level : opt::kAllSimdLevels)
        for (unsigned threads : {1u, 2u, 3u}) {
          opt::set_simd_level(level);
          std::vector<opt::Fp> out(n * blowup * width);
          opt::batch_coset_lde(as_field<opt::Fp>(raw), width, blowup, opt::Fp::from_u64(7), out, threads);
          for (size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i].value(), want[i].value()) << width << " " << i;
        }
      // column c of the batch is the single-column LDE of column c
      for (size_t c = 0; c < width; c += 3) {
        std::vector<ref::Fp> col;
        for (size_t r = 0; r < n; ++r) col.push_back(ref::Fp::from_u64(raw[r * width + c]));
        const auto one = ref::coset_lde(col, blowup, ref::Fp::from_u64(7));
        for (size_t r = 0; r < one.size(); ++r) ASSERT_EQ(want[r * width + c], one[r]);
      }
    }
  opt::set_simd_level(saved);
}

TEST(Ntt, BarycentricEvaluationOutOfDomain) {
  const unsigned k = 7;
  const size_t n = size_t{1} << k, width = 3;
  const auto raw = random_values(n * width, 77);
  std::mt19937_64 g(78);
  const ref::Fp3 z{{ref::Fp::from_u64(g()), ref::Fp::from_u64(g()), ref::Fp::from_u64(g())}};
  const opt::Fp3 oz{{opt::Fp::from_u64(z.c[0].value()), opt::Fp::from_u64(z.c[1].value()), opt::Fp::from_u64(z.c[2].value())}};
  for (unsigned threads : {1u, 2u}) {
    const auto fast = opt::evaluate_barycentric(as_field<opt::Fp>(raw), width, oz, threads);
    for (size_t c = 0; c < width; ++c) {
      std::vector<ref::Fp> col;
      for (size_t r = 0; r < n; ++r) col.push_back(ref::Fp::from_u64(raw[r * width + c]));
      // direct: Horner over the interpolant's coefficients, in the extension
      const auto coeffs = ref::intt(col);
      ref::Fp3 direct;
      for (size_t j = coeffs.size(); j-- > 0;) direct = direct * z + ref::Fp3{{coeffs[j], ref::Fp(), ref::Fp()}};
      const auto bary = ref::evaluate_barycentric(col, z);
      EXPECT_EQ(bary, direct);
      for (size_t i = 0; i < 3; ++i) EXPECT_EQ(fast[c].c[i].value(), direct.c[i].value());
    }
  }
  // on the subgroup: the evaluation itself
  std::vector<ref::Fp> col;
  for (size_t r = 0; r < n; ++r) col.push_back(ref::Fp::from_u64(raw[r * width]));
  const ref::Fp x = ref::root_of_unity(k).pow(5);
  EXPECT_EQ(ref::evaluate_barycentric(col, {{x, ref::Fp(), ref::Fp()}}).c[0], col[5]);
  const auto at = opt::evaluate_barycentric(as_field<opt::Fp>(raw), width, {{opt::Fp::from_u64(x.value()), opt::Fp(), opt::Fp()}}, 2);
  EXPECT_EQ(at[0].c[0].value(), col[5].value());
}

// Tiny sizes in increasing order: the twiddle cache must not serve a size-2 transform from the
// (empty) tree a size-1 transform built.
TEST(Ntt, TinySizesInSequence) {
  for (unsigned k = 0; k <= 4; ++k)
    for (unsigned blowup : {2u, 8u}) {
      const auto raw = random_values(size_t{1} << k, 900 + k);
      const auto want = ref::coset_lde(as_field<ref::Fp>(raw), blowup, ref::Fp::from_u64(7));
      const auto got = opt::coset_lde(as_field<opt::Fp>(raw), blowup, opt::Fp::from_u64(7));
      for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(got[i].value(), want[i].value()) << k << " " << blowup;
    }
}

TEST(Ntt, RejectsSizesThatAreNotPowersOfTwo) {
  std::vector<opt::Fp> v(3);
  EXPECT_THROW(opt::ntt(v), std::invalid_argument);
  EXPECT_THROW(ref::ntt(std::vector<ref::Fp>(6)), std::invalid_argument);
}

}  // namespace
}  // namespace zkrv
