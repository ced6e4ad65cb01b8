// A bundle's memory does not grow with the run (issue 39; optimized/memory/region.h): the prover's
// large blocks come from its region, every segment frees all of them, and first fit then places
// the next segment's blocks the same way. So in each of the streamed prover's three passes,
// segments of the same shape reach exactly the same high-water mark in the region, however many
// segments came before; and once prove() returns, nothing is left in the region. Measured through
// the API (zkrv_prover_static: the same region as the prover), with one thread, so that the order
// in which blocks are asked for is fixed.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "optimized/memory/region.h"
#include "zkrv/prover.h"

namespace zkrv {
namespace {

TEST(BundlePeak, EverySegmentOfAPassReachesTheSameHighWater) {
  const Program program = Program::from_file(std::string(ZKRV_GUEST_PROGRAMS_DIR) + "/bench_loop.elf");
  const std::string n = "3000";  // about 30,000 cycles: 8 segments of 2^12
  const std::vector<uint8_t> input(n.begin(), n.end());
  auto& region = opt::memory::region();
  if (!region.enabled()) GTEST_SKIP() << "no region in this process (ZKRV_REGION=off, ulimit -v or AddressSanitizer)";
  const size_t live_before = region.stats().in_use;
  std::map<std::string, std::vector<size_t>> peaks;  // pass → each segment's own high-water mark
  ProveOptions o;
  o.segment_cycles = uint64_t{1} << 12;
  o.threads = 1;
  o.progress = [&](const Progress& p) {
    const size_t high = region.restart_high_water();
    if (p.kind != Progress::Kind::kStage) return;
    for (const char* pass : {"commit ", "logup ", "prove "})
      if (p.text.rfind(pass, 0) == 0) peaks[pass].push_back(high);
  };
  const Proof proof = prove(program, input, o);
  ASSERT_GE(proof.report.statement.segments, 6u);  // segments 3 .. n - 1 compared
  const size_t segments = proof.report.statement.segments;
  ASSERT_EQ(peaks.size(), 3u);
  for (const auto& [pass, v] : peaks) {
    ASSERT_EQ(v.size(), segments) << pass;
    std::string all;
    for (size_t x : v) all += " " + std::to_string(x);
    std::printf("%s:%s\n", pass.c_str(), all.c_str());
    EXPECT_GT(v[2], 0u) << pass;
    // Each mark is taken while that segment's prover still holds its blocks, so it starts from
    // the segment before: the first two segments (the first may have other heights) and the last
    // (shorter) one are left out.
    for (size_t s = 3; s + 1 < segments; ++s) EXPECT_EQ(v[s], v[2]) << pass << " segment " << s + 1 << ":" << all;
  }
  EXPECT_EQ(region.stats().in_use, live_before);  // every block of the proof freed
  EXPECT_EQ(region.stats().outside, 0u);          // and every large one placed in the region
}

}  // namespace
}  // namespace zkrv
