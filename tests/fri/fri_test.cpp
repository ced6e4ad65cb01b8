// The STARK's multi-height FRI on its own (core/fri with reference/fri's prover): honest proofs
// of codewords of one or several heights verify for every blowup and final size; a changed
// opened value, Merkle path, row count or width, final coefficient, or a codeword that is not
// low-degree or not the one committed is rejected by the check that should catch it; the fold is
// the even/odd split; the security calculator's figures.
#include <cmath>
#include <gtest/gtest.h>

#include "tests/fri/fri_harness.h"

namespace zkrv {
namespace {

using fri_harness::Fp;
using fri_harness::Fp3;
using Kind = core::FriRejection::Kind;

TEST(Fri, FoldMatchesEvenOddDefinitionForArityTwo) {
  std::mt19937_64 rng(3);
  auto r3 = [&] { return Fp3{{Fp::from_u64(rng()), Fp::from_u64(rng()), Fp::from_u64(rng())}}; };
  for (int k = 0; k < 20; ++k) {
    const Fp3 v0 = r3(), v1 = r3(), beta = r3();
    const Fp x = Fp::from_u64(rng());
    const Fp half = Fp::from_u64(2).inverse(), xi = x.inverse();
    auto sc = [](const Fp3& a, Fp s) { return Fp3{{a.c[0] * s, a.c[1] * s, a.c[2] * s}}; };
    const Fp3 expect = sc(v0 + v1, half) + beta * sc(v0 - v1, half * xi);
    EXPECT_EQ(core::fri_fold2(v0, v1, x, beta), expect);
    EXPECT_EQ(ref::fri_fold({v0, v1}, x, beta), expect);  // the general-arity fold at arity 2
  }
}

TEST(Fri, HonestMultiHeightProofsVerify) {
  const std::vector<std::vector<unsigned>> height_sets = {{6}, {6, 4}, {7, 5, 3}, {5, 5, 2}, {8, 7, 6, 1}};
  uint64_t seed = 1;
  for (const auto& heights : height_sets)
    for (unsigned lb : {1u, 2u, 3u})
      for (unsigned log_final : {0u, 2u}) {
        const auto deep = fri_harness::codewords(heights, lb, seed++);
        const auto o = fri_harness::options(lb, 12, 4, log_final);
        const auto shape = fri_harness::shape_of(deep, o);
        if (shape.rounds < 1) continue;
        const auto p = fri_harness::prove_ref(deep, o);
        EXPECT_EQ(p.roots.size(), shape.rounds - 1);
        EXPECT_EQ(p.openings.size(), shape.rounds - 1);
        EXPECT_EQ(p.final_poly.size(), size_t{1} << shape.log_final);
        const auto e = fri_harness::verify(deep, o, p);
        EXPECT_FALSE(e) << "heights " << heights.size() << " blowup 2^" << lb << ": " << e->what;
      }
}

TEST(Fri, TamperingIsRejectedByTheCheckThatSeesIt) {
  const auto deep = fri_harness::codewords({8, 6, 3}, 2, 77);
  const auto o = fri_harness::options(2, 16, 4, 1);
  const auto honest = fri_harness::prove_ref(deep, o);
  ASSERT_FALSE(fri_harness::verify(deep, o, honest));
  ASSERT_GE(honest.openings.size(), 3u);
  auto verdict = [&](const fri_harness::Proof& p) { return fri_harness::verify(deep, o, p); };
  for (unsigned l = 1; l <= 3; ++l) {
    {  // an opened value of layer l
      auto p = honest;
      p.openings[l - 1].rows[0][1] ^= 1;
      const auto e = verdict(p);
      ASSERT_TRUE(e);
      EXPECT_EQ(e->kind, Kind::kMerkle);
      EXPECT_EQ(e->layer, l);
    }
    {  // a sibling of its batched path
      auto p = honest;
      p.openings[l - 1].merkle_proof.back()[0] ^= 1;
      const auto e = verdict(p);
      ASSERT_TRUE(e);
      EXPECT_EQ(e->kind, Kind::kMerkle);
      EXPECT_EQ(e->layer, l);
    }
    {  // a row too many, a row too narrow, a value ≥ p
      auto p = honest;
      p.openings[l - 1].rows.push_back(p.openings[l - 1].rows[0]);
      EXPECT_EQ(std::make_pair(verdict(p)->kind, verdict(p)->layer), std::make_pair(Kind::kRowCount, l));
      p = honest;
      p.openings[l - 1].rows[0].pop_back();
      EXPECT_EQ(std::make_pair(verdict(p)->kind, verdict(p)->layer), std::make_pair(Kind::kRowWidth, l));
      p = honest;
      p.openings[l - 1].rows[0][0] = spec::GoldilocksTraits::kModulus;
      EXPECT_EQ(std::make_pair(verdict(p)->kind, verdict(p)->layer), std::make_pair(Kind::kNonCanonical, l));
    }
  }
  {  // a layer opening missing
    auto p = honest;
    p.openings.pop_back();
    EXPECT_EQ(verdict(p)->kind, Kind::kLayerCount);
  }
}

// The verifier's own DEEP values (from the trace openings, in a proof) differ from the committed
// codewords: the first fold, or the injection of the smaller height, no longer matches.
TEST(Fri, ACodewordThatIsNotTheCommittedOneIsRejected) {
  const auto deep = fri_harness::codewords({8, 6, 1}, 2, 5);
  const auto o = fri_harness::options(2, 16, 4, 1);
  const auto p = fri_harness::prove_ref(deep, o);
  for (unsigned lh : {8u, 6u, 1u}) {
    auto other = deep;
    for (auto& x : other[lh]) x = x + Fp3{{Fp::from_u64(1), Fp(), Fp()}};
    const auto e = fri_harness::verify(other, o, p);
    ASSERT_TRUE(e) << "height " << lh;
    // The tallest codeword is layer 0 and height 2^6 enters after fold 1: each is caught at the
    // next committed layer; 2^1 enters after the last fold, at the final polynomial.
    const auto want = lh == 8 ? std::make_pair(Kind::kFold, 1u) : lh == 6 ? std::make_pair(Kind::kFold, 2u)
                                                                           : std::make_pair(Kind::kFinal, 7u);
    EXPECT_EQ(std::make_pair(e->kind, e->layer), want) << e->what;
  }
}

TEST(Fri, TooHighDegreeIsRejected) {
  const auto o = fri_harness::options(2, 24, 4, 1);
  for (unsigned extra : {1u, 2u}) {
    // The tallest codeword, then a smaller one, of degree 2^extra times the bound.
    for (unsigned which : {0u, 1u}) {
      auto deep = fri_harness::codewords({7, 5}, 2, 9);
      const auto high = fri_harness::codewords({7, 5}, 2, 10, extra);
      const unsigned lh = which ? 5 : 7;
      deep[lh] = high.at(lh);
      const auto p = fri_harness::prove_ref(deep, o);
      EXPECT_TRUE(fri_harness::verify(deep, o, p)) << "degree ×2^" << extra << " at height 2^" << lh << " accepted";
    }
  }
}

TEST(Fri, SecurityCalculator) {
  const auto s = spec::fri_security(3, 40, 16, 20, 15, 0, 512);
  EXPECT_DOUBLE_EQ(s.conjectured_bits, 40 * 3 + 16);
  EXPECT_GT(s.provable_bits, 60);
  EXPECT_LT(s.provable_bits, s.conjectured_bits);
  // more queries never lowers security; more folds or a larger batch never raises it
  EXPECT_GE(spec::fri_security(3, 80, 16, 20, 15, 0, 512).provable_bits, s.provable_bits);
  EXPECT_LE(spec::fri_security(3, 40, 16, 20, 19, 0, 512).provable_bits, s.provable_bits);
  EXPECT_LE(spec::fri_security(3, 40, 16, 20, 15, 1000, 512).provable_bits, s.provable_bits);
  // the batch's degree weighs the commit phase like the folds (BCIKS20 Thm 8.3 with powers):
  // at the same m, batch 1000 and 15 folds cost log2(1015 / 15) bits on that term
  const auto b = spec::fri_security(3, 40, 16, 20, 15, 1000, 512);
  EXPECT_DOUBLE_EQ(b.commit_weight, 1015);
  EXPECT_NEAR(b.log_commit - std::log2(1015.0 / 15),
              s.log_commit + 7 * (std::log2(b.johnson_m + 0.5) - std::log2(s.johnson_m + 0.5)), 1e-9);
  // a smaller range for m never raises the figure, and an empty one establishes nothing
  EXPECT_LE(spec::fri_security(3, 40, 16, 20, 15, 0, 8).provable_bits, s.provable_bits);
  EXPECT_LE(spec::fri_security(3, 40, 16, 20, 15, 0, 8).johnson_m, 8u);
  EXPECT_EQ(spec::fri_security(3, 40, 16, 20, 15, 0, 2).provable_bits, 0);
  EXPECT_EQ(spec::fri_security(3, 40, 16, 20, 15, 0, 2).johnson_m, 0u);
  // the field caps the conjecture: 3·log2 p − log2 N
  EXPECT_NEAR(spec::fri_security(3, 1000, 16, 20, 15, 0, 512).conjectured_bits, 3 * 64 - 23, 1e-6);
  std::printf("blowup 8, 40 queries, 16 bits, 2^20, 15 folds: conjectured %.1f, provable %.1f (m = %u)\n",
              s.conjectured_bits, s.provable_bits, s.johnson_m);
}

}  // namespace
}  // namespace zkrv
