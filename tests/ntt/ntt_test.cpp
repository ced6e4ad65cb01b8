// NTT: fast == reference == naive O(n^2) DFT up to 2^10; fast == reference beyond; inverse of
// forward is the identity; coset LDE agrees with direct evaluation of the interpolant.
#include <gtest/gtest.h>

#include <random>

#include "optimized/ntt/ntt.h"
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

TEST(Ntt, RejectsSizesThatAreNotPowersOfTwo) {
  std::vector<opt::Fp> v(3);
  EXPECT_THROW(opt::ntt(v), std::invalid_argument);
  EXPECT_THROW(ref::ntt(std::vector<ref::Fp>(6)), std::invalid_argument);
}

}  // namespace
}  // namespace zkrv
