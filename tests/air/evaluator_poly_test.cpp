// The reference prover's constraints (the hand-written evaluator, reference/air/evaluate/)
// and the verifier's (the spec's own expressions, compiled by reference/stark) are the same
// polynomials. Both are evaluated at random points of F_{p^3}^n (every column of the row and of
// the next row, and every public value, random): two different polynomials of degree d agree at
// a random point with probability at most d / p^3 (Schwartz–Zippel), so agreement on every
// constraint, tuple element and multiplicity at many points is the check. The first point also
// checks that the evaluator reports every ID in the spec's order, with its rows, bus and arity.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "reference/prove/hand_values.h"
#include "reference/stark/air.h"

namespace zkrv {
namespace {

namespace rs = ref::stark;

struct Rng {
  std::mt19937_64 g{20261201};
  ref::Fp3 fp3() { return {{ref::Fp::from_u64(g()), ref::Fp::from_u64(g()), ref::Fp::from_u64(g())}}; }
};

constexpr int kPoints = 256;

// Both AIRs: a whole run's (17 tables) and a bundle segment's (18, with memb and the segmented
// forms, whose publics are random points too).
class EvaluatorPolynomialsIn : public ::testing::TestWithParam<spec::air::Mode> {};

TEST_P(EvaluatorPolynomialsIn, TheHandWrittenEvaluatorIsTheSpecAtRandomPointsOfTheExtension) {
  const spec::air::Mode mode = GetParam();
  const rs::AirLayout& layout = rs::air_layout(mode);
  ASSERT_EQ(layout.tables.size(), mode == spec::air::Mode::kWhole ? 17u : 18u);
  Rng rng;
  size_t compared = 0;
  for (const rs::TableLayout& tl : layout.tables) {
    SCOPED_TRACE(tl.name);
    ref::prove::HandValues<ref::Fp3> hand(tl, mode);
    std::vector<ref::Fp3> local(tl.columns), next(tl.columns), publics(layout.publics.size()), scratch;
    rs::TableValues<ref::Fp3> spec;
    for (int p = 0; p < kPoints; ++p) {
      for (auto& v : local) v = rng.fp3();
      for (auto& v : next) v = rng.fp3();
      for (auto& v : publics) v = rng.fp3();
      const rs::TableValues<ref::Fp3>& got = hand.at(local.data(), next.data(), publics.data());
      rs::spec_values(tl, local.data(), next.data(), publics.data(), spec, scratch);
      for (size_t k = 0; k < tl.constraints.size(); ++k)
        ASSERT_EQ(got.constraints[k], spec.constraints[k]) << tl.constraints[k].id << " at point " << p;
      for (size_t i = 0; i < tl.interactions.size(); ++i) {
        ASSERT_EQ(got.mults[i], spec.mults[i]) << tl.interactions[i].id << " multiplicity at point " << p;
        for (size_t j = 0; j < spec.tuples[i].size(); ++j)
          ASSERT_EQ(got.tuples[i][j], spec.tuples[i][j]) << tl.interactions[i].id << " element " << j << " at point " << p;
      }
      compared += tl.constraints.size() + tl.interactions.size();
    }
  }
  // every constraint and interaction of the spec, at every point
  size_t ids = 0;
  for (const rs::TableLayout& tl : layout.tables) ids += tl.constraints.size() + tl.interactions.size();
  EXPECT_EQ(compared, ids * kPoints);
}
INSTANTIATE_TEST_SUITE_P(Air, EvaluatorPolynomialsIn, ::testing::Values(spec::air::Mode::kWhole, spec::air::Mode::kSegmented),
                         [](const auto& info) { return std::string(spec::air::mode_name(info.param)); });

// The comparison has teeth: changing one column of the next row (cpu's is_real, which the
// transition constraints read) changes constraint values, and both sides still agree.
TEST(EvaluatorPolynomials, AChangedColumnChangesTheValuesOfBothSides) {
  const rs::AirLayout& layout = rs::air_layout();
  const rs::TableLayout& cpu = layout.tables[layout.table_index("cpu")];
  Rng rng;
  std::vector<ref::Fp3> local(cpu.columns), next(cpu.columns), publics(layout.publics.size()), scratch;
  for (auto& v : local) v = rng.fp3();
  for (auto& v : next) v = rng.fp3();
  for (auto& v : publics) v = rng.fp3();
  ref::prove::HandValues<ref::Fp3> hand(cpu);
  const std::vector<ref::Fp3> before = hand.at(local.data(), next.data(), publics.data()).constraints;
  const size_t real = static_cast<size_t>(
      std::find(cpu.column_names.begin(), cpu.column_names.end(), "is_real") - cpu.column_names.begin());
  ASSERT_LT(real, cpu.columns);
  next[real] = next[real] + rng.fp3();  // is_real of the next row
  const std::vector<ref::Fp3> after = hand.at(local.data(), next.data(), publics.data()).constraints;
  rs::TableValues<ref::Fp3> spec;
  rs::spec_values(cpu, local.data(), next.data(), publics.data(), spec, scratch);
  EXPECT_EQ(after, spec.constraints);
  size_t changed = 0;
  for (size_t k = 0; k < before.size(); ++k) changed += before[k] != after[k];
  EXPECT_GT(changed, 0u) << "no constraint of cpu reads is_real of the next row";
}

}  // namespace
}  // namespace zkrv
