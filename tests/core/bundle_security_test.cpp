// protocol:segments:security and protocol:segments:queries (core::bundle_security,
// core::bundle_options): the union bound over a bundle's segments costs about log2 N bits, and
// the prover's options rise to the least number of queries that meets the policy's floor, no
// further, and never below the preset's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "core/air/layout.h"
#include "spec/air/embedded.h"
#include "spec/isa.h"
#include "spec/run_segments.h"

namespace zkrv {
namespace {

std::vector<std::vector<uint8_t>> heights(size_t segments, uint8_t log_h) {
  const size_t tables = core::air_layout(spec::air::Mode::kSegmented).tables.size();
  return std::vector<std::vector<uint8_t>>(segments, std::vector<uint8_t>(tables, log_h));
}

TEST(BundleSecurity, TheUnionBoundCostsAboutLog2OfTheSegments) {
  const spec::StarkOptions o = spec::stark_preset("provable");
  const double one = core::bundle_security(o, heights(1, 20)).provable_bits;
  const double many = core::bundle_security(o, heights(32, 20)).provable_bits;
  // 5 bits for 32 segments, and a little more: LogUp's term counts all their interactions
  EXPECT_GE(one - many, 5.0 - 1e-9);
  EXPECT_LT(one - many, 6.0);
}

TEST(BundleSecurity, QueriesRiseToTheFloorAndNoFurther) {
  const spec::StarkOptions preset = spec::stark_preset("provable");
  const auto floor = spec::SecurityPolicy::preset("provable");
  for (size_t n : {size_t{2}, size_t{33}, size_t{1024}}) {
    SCOPED_TRACE(n);
    const auto h = heights(n, 20);
    const spec::StarkOptions o = core::bundle_options(preset, h, floor);
    EXPECT_GE(o.num_queries, preset.num_queries);
    EXPECT_EQ(o.log_blowup, preset.log_blowup);
    EXPECT_EQ(o.pow_bits, preset.pow_bits);
    EXPECT_FALSE(spec::check_policy(floor, core::bundle_security(o, h))) << o.num_queries << " queries";
    if (o.num_queries > preset.num_queries) {  // one fewer does not reach the floor
      spec::StarkOptions less = o;
      --less.num_queries;
      EXPECT_TRUE(spec::check_policy(floor, core::bundle_security(less, h))) << o.num_queries << " queries";
    }
  }
  // 2^25 cycles in 2^20-cycle segments: the preset alone falls short; 33 segments need more
  EXPECT_TRUE(spec::check_policy(floor, core::bundle_security(preset, heights(33, 20))));
  EXPECT_GT(core::bundle_options(preset, heights(33, 20), floor).num_queries, preset.num_queries);
  // a floor no number of queries reaches leaves the options as they are
  EXPECT_EQ(core::bundle_options(preset, heights(2, 20), spec::SecurityPolicy::at_least(
                                                            spec::SecurityPolicy::Measure::kProvable, 1000)),
            preset);
}

// protocol:segments:logup — the interaction bound summed over every segment stays below p for
// the longest run the verifier takes by default (2^32 cycles, spec::kDefaultMaxCycles) at every
// segment size 2^k, even with every table of every segment 8·2^k rows tall (a cycle touches at
// most 8 bytes; at most 2^24): a long honest run is never refused by it.
TEST(BundleSecurity, TheLongestRunStaysBelowTheInteractionBound) {
  const core::AirLayout& layout = core::air_layout(spec::air::Mode::kSegmented);
  double per_row = 0;  // Σ over every table's bounded interactions of the bound, per row
  for (const auto& t : layout.tables)
    for (const auto& in : t.interactions)
      if (!std::isinf(in.mult_bound)) per_row += in.mult_bound;
  ASSERT_GT(per_row, 0);
  constexpr double kP = 18446744069414584321.0;
  for (unsigned k = spec::kMinSegmentLog; k <= spec::kMaxSegmentLog; ++k) {
    const double segments = std::ldexp(static_cast<double>(spec::kDefaultMaxCycles), -static_cast<int>(k));
    const double rows = std::ldexp(1.0, std::min<int>(24, static_cast<int>(k) + 3));
    const double bound = segments * per_row * rows;
    std::printf("2^%u-cycle segments: %.0f of them, bound 2^%.1f\n", k, segments, std::log2(bound));
    EXPECT_LT(bound, kP) << k;
  }
}

}  // namespace
}  // namespace zkrv
