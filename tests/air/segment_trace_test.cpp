// The segment AIR (the statements of spec/tables marked `segmented`) on real runs: the segments
// of example guests and random programs, cut by the run planner and built by the reference
// segment builder, satisfy every segmented constraint from the spec's text, and every local bus
// balances within its segment and gmem over the bundle. A cheating prover's boundary edits (a
// moved pc, register, input or output position, a stale memory token, segments swapped) each
// break the check.
#include <gtest/gtest.h>

#include <string>

#include "optimized/exec/fast_executor.h"
#include "reference/air/segment_trace.h"
#include "reference/elf/elf_loader.h"
#include "reference/exec/executor.h"
#include "spec/run_segments.h"
#include "tests/support/elf_builder.h"
#include "tests/support/random_program.h"
#include "tools/common/files.h"

namespace zkrv {
namespace {

using ref::air::AirTrace;

struct Bundle {
  spec::ProgramImage image;
  spec::RunPlan plan;
  std::vector<AirTrace> segments;
};

Bundle bundle(const spec::ProgramImage& image, std::span<const uint8_t> input, unsigned k) {
  Bundle b{image, {}, {}};
  spec::RunPlanner planner(image, k);
  spec::ExecOptions o;
  spec::attach(planner, o);
  b.plan = planner.finish(ref::execute(image, input, o));
  spec::ExecOptions t;
  t.trace = true;
  const auto run = ref::execute(image, input, t);
  b.segments = ref::air::build_segment_traces(image, run, b.plan);
  return b;
}

spec::ProgramImage guest(const std::string& name, std::vector<uint8_t>* input) {
  auto bytes = tools::read_file(std::string(ZKRV_GUEST_PROGRAMS_DIR) + "/" + name + ".elf", 1 << 30, "guest");
  if (!bytes.bytes) throw std::runtime_error(bytes.error);
  auto in = tools::read_file(std::string(ZKRV_SOURCE_DIR) + "/guest/programs/" + name + ".input", 1 << 20, "input");
  if (in.bytes) *input = *in.bytes;
  return *ref::load_elf(*bytes.bytes).image;
}

// Reads its input 4 bytes at a time and echoes each piece, spinning ~900 cycles between reads
// (tests/exec/run_segments_test.cpp): segments with reads, writes, a short read and none.
spec::ProgramImage echo_program() {
  using namespace testing::rv;
  std::vector<uint32_t> code = {lui(8, 0x20),
                                addi(17, 0, 63), addi(10, 0, 0), addi(11, 8, 0), addi(12, 0, 4), ecall(),
                                addi(9, 10, 0),
                                addi(17, 0, 64), addi(10, 0, 1), addi(12, 9, 0), ecall(),
                                addi(8, 8, 4), addi(5, 0, 450),
                                addi(5, 5, -1), b(-4, 0, 5, 1),
                                b(-56, 0, 9, 1)};
  for (uint32_t w : exit_with(0)) code.push_back(w);
  return *ref::load_elf(testing::simple_elf(code)).image;
}
const std::vector<uint8_t> kEchoInput = {'0', '1', '2', '3', '4', '5', '6', '7', '8', '9'};

TEST(SegmentAir, ExampleGuestsSegmentsHold) {
  for (const auto& [name, k] : {std::pair{"fibonacci", 10u}, {"cost_scopes", 13u}, {"zero_init", 12u}}) {
    SCOPED_TRACE(name);
    std::vector<uint8_t> input;
    const auto image = guest(name, &input);
    const Bundle b = bundle(image, input, k);
    EXPECT_GE(b.segments.size(), 3u);
    const auto rep = ref::air::check_segment_traces(b.segments);
    EXPECT_TRUE(rep.ok()) << rep.summary();
  }
}

TEST(SegmentAir, SyscallChainsCrossBoundaries) {
  const Bundle b = bundle(echo_program(), kEchoInput, 10);
  ASSERT_EQ(b.segments.size(), 4u);
  const auto rep = ref::air::check_segment_traces(b.segments);
  EXPECT_TRUE(rep.ok()) << rep.summary();
}

TEST(SegmentAir, OneSegmentIsABundleToo) {
  std::vector<uint8_t> input;
  const Bundle b = bundle(guest("fibonacci", &input), input, 12);
  ASSERT_EQ(b.segments.size(), 1u);
  EXPECT_TRUE(ref::air::check_segment_traces(b.segments).ok());
}

// Random programs (loads and stores of every width at any alignment through one data region):
// twelve seeds, each of two or three segments (a second each: the builder and the interpreter
// are the plain reference ones).
TEST(SegmentAir, RandomProgramsSegmentsHold) {
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    const auto prog = testing::random_program(seed * 0x9E3779B97F4A7C15ull, {.body_instructions = 2500});
    const Bundle b = bundle(*ref::load_elf(prog.elf).image, {}, 10);
    EXPECT_GE(b.segments.size(), 2u) << seed;
    const auto rep = ref::air::check_segment_traces(b.segments);
    EXPECT_TRUE(rep.ok()) << "seed " << seed << ": " << rep.summary();
  }
}

// ---- what a cheating prover might try at a boundary; each must break the check ----

bool fails_with(const ref::air::BundleReport& rep, const std::string& what) {
  for (const auto& f : rep.failures)
    if (f.find(what) != std::string::npos) return true;
  for (const auto& u : rep.unbalanced)
    if (u.find(what) != std::string::npos) return true;
  return false;
}
std::string all(const ref::air::BundleReport& rep) {
  std::string s;
  for (const auto& f : rep.failures) s += f + "\n";
  for (const auto& u : rep.unbalanced) s += u + "\n";
  return s;
}

class SegmentAttack : public ::testing::Test {
 protected:
  void SetUp() override { b_ = bundle(echo_program(), kEchoInput, 10); ASSERT_TRUE(ref::air::check_segment_traces(b_.segments).ok()); }
  Bundle b_;
};

// Σ_1's pc moved, in both segments that read it: segment 0's last row no longer goes there.
TEST_F(SegmentAttack, BoundaryPc) {
  b_.segments[0].publics["pc_end"] += 4;
  b_.segments[1].publics["entry"] += 4;
  const auto rep = ref::air::check_segment_traces(b_.segments);
  EXPECT_TRUE(fails_with(rep, "segment 0: constraint cpu:c:halt_stays_last")) << all(rep);
}

// The last boundary's pc is the exit's: another one is a second encoding of the statement.
TEST_F(SegmentAttack, ExitPc) {
  b_.segments.back().publics["pc_end"] += 4;
  const auto rep = ref::air::check_segment_traces(b_.segments);
  EXPECT_TRUE(fails_with(rep, "segment 3: constraint cpu:c:exit_pc")) << all(rep);
}

// Σ_1's s0 (x8, the buffer pointer) moved in both segments: segment 0 ends with another value.
TEST_F(SegmentAttack, BoundaryRegister) {
  for (const char* col : {"ev0", "iv0"}) {
    auto& regs = b_.segments[col[0] == 'e' ? 0 : 1].table("regs");
    regs.rows[8][regs.col(col)] += 1;
  }
  const auto rep = ref::air::check_segment_traces(b_.segments);
  EXPECT_TRUE(fails_with(rep, "segment 0: constraint regs:c:end0")) << all(rep);
}

// The input position reset between segments 1 and 2 (the last two bytes to be read again).
TEST_F(SegmentAttack, InputPositionReset) {
  b_.segments[1].publics["ipos_end"] = 8;
  b_.segments[2].publics["ipos_start"] = 8;
  const auto rep = ref::air::check_segment_traces(b_.segments);
  EXPECT_TRUE(fails_with(rep, "segment 1: constraint syscall:c:ipos_end")) << all(rep);
}

// The end of input forgotten between segments 1 and 2.
TEST_F(SegmentAttack, EndOfInputReset) {
  b_.segments[1].publics["eof_end"] = 0;
  b_.segments[2].publics["eof_start"] = 0;
  const auto rep = ref::air::check_segment_traces(b_.segments);
  EXPECT_TRUE(fails_with(rep, "segment 1: constraint syscall:c:eof_end")) << all(rep);
}

// The output position reset: segment 1's bytes would overwrite segment 0's.
TEST_F(SegmentAttack, OutputPositionReset) {
  b_.segments[0].publics["opos_end"] = 0;
  b_.segments[1].publics["opos_start"] = 0;
  const auto rep = ref::air::check_segment_traces(b_.segments);
  EXPECT_FALSE(rep.ok());
  EXPECT_TRUE(fails_with(rep, "segment 0: constraint syscall:c:opos_end")) << all(rep);
}

// A segment takes a stale memory token: a byte of fibonacci's stack that segment 0 wrote is taken
// by segment 1 at its initial time 0 instead of at the time segment 0 left it. gmem no longer
// balances (the constraints all hold: t_in = 0 is at most the segment's index).
TEST(SegmentAttackMemory, StaleMemoryToken) {
  std::vector<uint8_t> input;
  Bundle b = bundle(guest("fibonacci", &input), input, 10);
  auto& memb = b.segments[1].table("memb");
  size_t r = 0;
  while (r < memb.height() && memb.rows[r][memb.col("t_in")] != 1) ++r;
  ASSERT_LT(r, memb.height()) << "segment 1 touches no byte that segment 0 touched";
  memb.rows[r][memb.col("t_in")] = 0;
  memb.rows[r][memb.col("td0")] = 1;
  ASSERT_TRUE(ref::air::check_segment_traces(b.segments).failures.empty());
  const auto rep = ref::air::check_segment_traces(b.segments);
  EXPECT_TRUE(rep.failures.empty()) << all(rep);
  EXPECT_TRUE(fails_with(rep, "bus gmem of the bundle")) << all(rep);
}

// Segments 1 and 2 swapped, each with the publics of its new position.
TEST_F(SegmentAttack, SegmentsReordered) {
  std::swap(b_.segments[1].tables, b_.segments[2].tables);
  const auto rep = ref::air::check_segment_traces(b_.segments);
  EXPECT_FALSE(rep.ok()) << all(rep);
}

// Segment 1 dropped: the bundle's gmem tokens of its bytes go missing.
TEST_F(SegmentAttack, SegmentDropped) {
  b_.segments.erase(b_.segments.begin() + 1);
  const auto rep = ref::air::check_segment_traces(b_.segments);
  EXPECT_FALSE(rep.ok()) << all(rep);
}

}  // namespace
}  // namespace zkrv
