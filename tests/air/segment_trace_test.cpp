// The segment AIR (the statements of spec/tables marked `segmented`) on real runs: the segments
// of example guests and random programs, cut by the run planner and built by the reference
// segment builder, satisfy every segmented constraint from the spec's text, and every local bus
// balances within its segment and gmem over the bundle. A cheating prover's boundary edits (a
// moved pc, register, input or output position, a stale memory token, segments swapped) each
// break the check; so does one edit per constraint and per bus interaction that the segment AIR
// has and the whole run's lacks (the negative suite of the segment AIR, with a coverage check).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "optimized/exec/fast_executor.h"
#include "reference/air/segment_trace.h"
#include "reference/elf/elf_loader.h"
#include "spec/air/embedded.h"
#include "reference/exec/executor.h"
#include "spec/run_segments.h"
#include "tests/support/elf_builder.h"
#include "tests/support/opt_from_rows.h"
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
  test::SegmentedRun r = test::segmented_run(image, input, k);
  return Bundle{image, std::move(r.plan), std::move(r.segments)};
}

spec::ProgramImage guest(const std::string& name, std::vector<uint8_t>* input) {
  auto bytes = tools::read_file(std::string(ZKRV_GUEST_PROGRAMS_DIR) + "/" + name + ".elf", 1 << 30, "guest");
  if (!bytes.bytes) throw std::runtime_error(bytes.error);
  auto in = tools::read_file(std::string(ZKRV_SOURCE_DIR) + "/guest/programs/" + name + ".input", 1 << 20, "input");
  if (in.bytes) *input = *in.bytes;
  return *ref::load_elf(*bytes.bytes).image;
}

spec::ProgramImage echo_program() { return *ref::load_elf(testing::echo_elf()).image; }
using testing::kEchoInput;

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
  const auto image = guest("fibonacci", &input);  // before `input` is read
  const Bundle b = bundle(image, input, 12);
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
  if (rep.unbalanced_buses.count(what)) return true;
  for (const auto& f : rep.failing)
    if ((f + " ").find(what) != std::string::npos) return true;
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
  const auto image = guest("fibonacci", &input);  // before `input` is read
  Bundle b = bundle(image, input, 10);
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

namespace zkrv {
namespace {

// ---- every constraint of the segment AIR that a whole run lacks, violated on real segments ----

using Edit = void (*)(std::vector<AirTrace>&);
struct Kill {
  const char* id;
  size_t segment;  // where the edit makes it fail
  Edit edit;
};

uint64_t& cell(AirTrace& t, const char* table, size_t row, const char* column) {
  auto& tb = t.table(table);
  return tb.rows.at(row)[tb.col(column)];
}
// The last row of the echo program's full segment 0 (it is real: the segment runs 2^10 cycles).
constexpr size_t kLast = 1023;

const std::vector<Kill>& kills() {
  static const std::vector<Kill> k = {
      {"cpu:c:clk_first", 1, [](auto& s) { s[1].publics["clk_start"] += 1; }},
      {"cpu:c:keep0_last", 0, [](auto& s) { cell(s[0], "cpu", kLast, "f_branch") = 1, cell(s[0], "cpu", kLast, "d_v0") += 1; }},
      {"cpu:c:keep1_last", 0, [](auto& s) { cell(s[0], "cpu", kLast, "f_branch") = 1, cell(s[0], "cpu", kLast, "d_v1") += 1; }},
      {"cpu:c:keep2_last", 0, [](auto& s) { cell(s[0], "cpu", kLast, "f_branch") = 1, cell(s[0], "cpu", kLast, "d_v2") += 1; }},
      {"cpu:c:keep3_last", 0, [](auto& s) { cell(s[0], "cpu", kLast, "f_branch") = 1, cell(s[0], "cpu", kLast, "d_v3") += 1; }},
      {"cpu:c:halt_system_last", 0, [](auto& s) { cell(s[0], "cpu", kLast, "sys_exit") = 1; }},
      {"cpu:c:halt_stays_last", 0, [](auto& s) { s[0].publics["pc_end"] += 4; }},
      {"cpu:c:full_last", 0, [](auto& s) { cell(s[0], "cpu", kLast, "is_real") = 0; }},
      {"cpu:c:pc_ecall_last", 0, [](auto& s) { cell(s[0], "cpu", kLast, "f_system") = 1, cell(s[0], "cpu", kLast, "next_pc") += 12, s[0].publics["pc_end"] += 12; }},
      {"cpu:c:exit_pc", 3, [](auto& s) { s[3].publics["pc_end"] += 4; }},
      {"regs:c:end0", 0, [](auto& s) { cell(s[0], "regs", 8, "ev0") += 1; }},
      {"regs:c:end1", 0, [](auto& s) { cell(s[0], "regs", 8, "ev1") += 1; }},
      {"regs:c:end2", 0, [](auto& s) { cell(s[0], "regs", 8, "ev2") += 1; }},
      {"regs:c:end3", 0, [](auto& s) { cell(s[0], "regs", 8, "ev3") += 1; }},
      {"mem:c:chunk_first", 1, [](auto& s) { cell(s[1], "mem", 0, "cb0") += 1; }},
      {"mem:c:chunk_rest", 1, [](auto& s) { cell(s[1], "mem", 1, "cb0") = 1; }},
      {"mem:c:chunk_last", 1, [](auto& s) { s[1].publics["init_last"] += 1; }},
      {"mem:c:chunk_empty", 1, [](auto& s) {
         for (auto& r : s[1].table("mem").rows) std::fill(r.begin(), r.end(), 0);
       }},
      {"memb:c:real_bit", 1, [](auto& s) { cell(s[1], "memb", s[1].table("memb").height() - 1, "is_real") = 2; }},
      {"memb:c:real_prefix", 1, [](auto& s) { cell(s[1], "memb", 0, "is_real") = 0; }},
      {"memb:c:order", 1, [](auto& s) { cell(s[1], "memb", 1, "addr") += 1; }},
      {"memb:c:t_in", 1, [](auto& s) { cell(s[1], "memb", 0, "td0") += 1; }},
      {"syscall:c:eof_first", 1, [](auto& s) { cell(s[1], "syscall", 0, "eof") = 1; }},
      {"syscall:c:opos_first", 1, [](auto& s) { cell(s[1], "syscall", 0, "opos") += 1; }},
      {"syscall:c:ipos_first", 1, [](auto& s) { cell(s[1], "syscall", 0, "ipos") += 1; }},
      {"syscall:c:ipos_next", 0, [](auto& s) { cell(s[0], "syscall", 1, "ipos") += 1; }},
      {"syscall:c:iend", 0, [](auto& s) { cell(s[0], "syscall", 0, "iend") += 1; }},
      {"syscall:c:eend", 0, [](auto& s) { cell(s[0], "syscall", 0, "eend") += 1; }},
      {"syscall:c:oend", 0, [](auto& s) { cell(s[0], "syscall", 0, "oend") += 1; }},
      {"syscall:c:ipos_end", 1, [](auto& s) { s[1].publics["ipos_end"] += 1; }},
      {"syscall:c:eof_end", 1, [](auto& s) { s[1].publics["eof_end"] = 0; }},
      {"syscall:c:opos_end", 1, [](auto& s) { s[1].publics["opos_end"] += 1; }},
      // the last row made real: a table without padding ends at the segment's end values
      {"mem:c:chunk_last_full", 1, [](auto& s) { cell(s[1], "mem", s[1].table("mem").height() - 1, "is_real") = 1; }},
      {"syscall:c:ipos_end_last", 1, [](auto& s) { cell(s[1], "syscall", s[1].table("syscall").height() - 1, "is_real") = 1; }},
      {"syscall:c:eof_end_last", 1, [](auto& s) { cell(s[1], "syscall", s[1].table("syscall").height() - 1, "is_real") = 1; }},
      {"syscall:c:opos_end_last", 1, [](auto& s) { cell(s[1], "syscall", s[1].table("syscall").height() - 1, "is_real") = 1; }},
      {"syscall:c:ipos_none", 3, [](auto& s) { s[3].publics["ipos_end"] += 1; }},
      {"syscall:c:eof_none", 3, [](auto& s) { s[3].publics["eof_start"] = 0; }},
      {"syscall:c:opos_none", 3, [](auto& s) { s[3].publics["opos_end"] += 1; }},
  };
  return k;
}


// ---- every bus interaction of the segment AIR that a whole run lacks, unbalanced on real segments ----

struct Unbalance {
  const char* id;
  const char* bus;  // the bus that no longer balances: "bus B of segment s" or "bus gmem of the bundle"
  Edit edit;
};
size_t first_row(const AirTrace& t, const char* table, const char* column, uint64_t value) {
  const auto& tb = t.table(table);
  for (size_t r = 0; r < tb.height(); ++r)
    if (tb.rows[r][tb.col(column)] == value && tb.rows[r][tb.col("is_real")]) return r;
  throw std::logic_error(std::string("no real row with ") + column + " = " + std::to_string(value));
}

const std::vector<Unbalance>& unbalances() {
  static const std::vector<Unbalance> u = {
      {"regs:b:init", "bus reg of segment 1", [](auto& s) { cell(s[1], "regs", 8, "iv0") += 1; }},
      {"mem:b:init", "bus gmem of the bundle",
       [](auto& s) { cell(s[1], "mem", first_row(s[1], "mem", "from_file", 0), "init") += 1; }},
      {"mem:b:final", "bus gmem of the bundle", [](auto& s) { cell(s[1], "mem", 0, "fin_ts") += 1; }},
      {"mem:b:cb0", "bus range16 of segment 1", [](auto& s) { cell(s[1], "mem", 0, "cb0") += 1; }},
      {"mem:b:cb1", "bus range16 of segment 1", [](auto& s) { cell(s[1], "mem", 0, "cb1") += 1; }},
      {"memb:b:gap0", "bus range16 of segment 1", [](auto& s) { cell(s[1], "memb", 0, "gap0") += 1; }},
      {"memb:b:gap1", "bus range16 of segment 1", [](auto& s) { cell(s[1], "memb", 0, "gap1") += 1; }},
      {"memb:b:td0", "bus range16 of segment 1", [](auto& s) { cell(s[1], "memb", 0, "td0") += 1; }},
      {"memb:b:td1", "bus range16 of segment 1", [](auto& s) { cell(s[1], "memb", 0, "td1") += 1; }},
      {"memb:b:take", "bus gmem of the bundle", [](auto& s) {
         const size_t r = first_row(s[1], "memb", "t_in", 1);  // a byte segment 0 left: take the stale one
         cell(s[1], "memb", r, "t_in") = 0, cell(s[1], "memb", r, "td0") = 1;
       }},
      {"memb:b:start", "bus mem of segment 1", [](auto& s) { cell(s[1], "memb", 0, "v_in") += 1; }},
      {"memb:b:end", "bus mem of segment 1", [](auto& s) { cell(s[1], "memb", 0, "fin_ts") += 1; }},
      {"memb:b:leave", "bus gmem of the bundle", [](auto& s) { cell(s[1], "memb", 0, "fin_v") += 1; }},
  };
  return u;
}

TEST(SegmentAir, EveryNewBusInteractionIsUnbalancedByItsEdit) {
  std::vector<uint8_t> input;
  const auto image = guest("fibonacci", &input);  // before `input` is read
  const Bundle base = bundle(image, input, 10);  // segment 1 takes bytes segment 0 left
  ASSERT_EQ(base.segments.size(), 3u);
  for (const Unbalance& u : unbalances()) {
    auto segs = base.segments;
    u.edit(segs);
    const auto rep = ref::air::check_segment_traces(segs);
    EXPECT_TRUE(rep.unbalanced_buses.count(u.bus)) << u.id << ":\n" << all(rep);
  }
  // every bus interaction of the segment AIR that the whole run's AIR does not have in the same form
  const auto& whole = spec::air::embedded_spec(spec::air::Mode::kWhole);
  const auto& seg = spec::air::embedded_spec(spec::air::Mode::kSegmented);
  std::set<std::string> covered;
  for (const Unbalance& u : unbalances()) covered.insert(u.id);
  auto form = [](const spec::air::BusInteraction& b) {
    std::string f = b.bus + (b.send ? " send " : " receive ") + spec::air::to_string(*b.mult);
    for (const auto& e : b.tuple) f += " " + spec::air::to_string(*e);
    return f;
  };
  for (const auto& t : seg.tables)
    for (const auto& b : t.buses) {
      const auto* wt = whole.table(t.name);
      bool same = false;
      if (wt)
        for (const auto& w : wt->buses)
          if (w.id == b.id) same = form(w) == form(b);
      if (!same) {
        EXPECT_TRUE(covered.count(b.id)) << b.id << " has no edit that unbalances its bus";
      }
    }
}

TEST(SegmentAir, EveryNewConstraintIsViolatedByItsEdit) {
  const Bundle base = bundle(echo_program(), kEchoInput, 10);
  ASSERT_EQ(base.segments.size(), 4u);
  for (const Kill& k : kills()) {
    auto segs = base.segments;
    k.edit(segs);
    const auto rep = ref::air::check_segment_traces(segs);
    EXPECT_TRUE(fails_with(rep, "segment " + std::to_string(k.segment) + ": constraint " + k.id + " "))
        << k.id << ":\n" << all(rep);
  }
  // every constraint of the segment AIR that the whole run's AIR does not have in the same form
  const auto& whole = spec::air::embedded_spec(spec::air::Mode::kWhole);
  const auto& seg = spec::air::embedded_spec(spec::air::Mode::kSegmented);
  std::set<std::string> covered;
  for (const Kill& k : kills()) covered.insert(k.id);
  for (const auto& t : seg.tables)
    for (const auto& c : t.constraints) {
      const auto* wt = whole.table(t.name);
      bool same = false;
      if (wt)
        for (const auto& w : wt->constraints)
          if (w.id == c.id) same = spec::air::to_string(*w.expr) == spec::air::to_string(*c.expr) && w.rows == c.rows;
      if (!same) {
        EXPECT_TRUE(covered.count(c.id)) << c.id << " has no edit that violates it";
      }
    }
}

}  // namespace
}  // namespace zkrv
