// protocol:segments:security and protocol:segments:queries (core::bundle_security,
// core::bundle_options): the union bound over a bundle's segments costs about log2 N bits, and
// the prover's options rise to the least number of queries that meets the policy's floor, no
// further, and never below the preset's.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/air/layout.h"
#include "spec/air/embedded.h"

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

}  // namespace
}  // namespace zkrv
