// The segment AIR (the statements of spec/tables marked `segmented`) on real runs: the segments
// of example guests and random programs, cut by the run planner and built by the reference
// segment builder, satisfy every segmented constraint from the spec's text, and every local bus
// balances within its segment and gmem over the bundle. A cheating prover's boundary edits (a
// moved pc, register, input or output position, a stale memory token, segments swapped) each
// break the check; so does one edit per constraint and per bus interaction that the segment AIR
// has and the whole run's lacks (the negative suite of the segment AIR, with a coverage check).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <set>
#include <string>

#include "optimized/exec/fast_executor.h"
#include "reference/air/segment_trace.h"
#include "reference/elf/elf_loader.h"
#include "reference/field/goldilocks.h"
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
  if (name == "fibonacci") *input = {'2', '0', '0'};  // fib(200): three 2^10-cycle segments (fib(90) is near two)
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
  enum class Base { kEcho, kFibonacci, kBurst, kSelfJump, kEcallCopies } base = Base::kEcho;  // whose segments of 2^10 cycles it edits
};

// A spin of 1,041 cycles, then 32 writes of no bytes and the exit: cut at 2^10 cycles, its last
// segment's syscall table is full (32 rows, no padding), where the *_end_last constraints apply.
// A spin of 1,020 cycles, then `jalr x5, 0(x5)` with x5 its own address at cycle 1023: a jump to
// itself once (it links x5 to the next instruction, where it jumps the second time), then the
// exit. Its segment 0 ends on a row that stays at its pc without exiting.
std::vector<uint8_t> self_jump_elf() {
  using namespace testing::rv;
  std::vector<uint32_t> code = {addi(6, 0, 510), addi(6, 6, -1), b(-4, 0, 6, 1), u(0, 5, 0x17), addi(5, 5, 8),
                                i(0, 5, 0, 5, 0x67)};
  for (uint32_t w : exit_with(0)) code.push_back(w);
  return testing::simple_elf(code);
}

// A spin, a write of no bytes whose ecall is segment 0's last cycle, then the exit written twice:
// from the second copy the run ends the same, 12 bytes further on.
std::vector<uint8_t> ecall_copies_elf() {
  using namespace testing::rv;
  std::vector<uint32_t> code = {addi(6, 0, 509), addi(6, 6, -1), b(-4, 0, 6, 1), addi(17, 0, 64), addi(10, 0, 1),
                                lui(11, 0x20), addi(12, 0, 0), ecall()};
  for (int copy = 0; copy < 2; ++copy)
    for (uint32_t w : exit_with(0)) code.push_back(w);
  return testing::simple_elf(code);
}

std::vector<uint8_t> burst_elf() {
  using namespace testing::rv;
  std::vector<uint32_t> code = {addi(5, 0, 520), addi(5, 5, -1), b(-4, 0, 5, 1), lui(11, 0x20)};
  for (int i = 0; i < 32; ++i)
    for (uint32_t w : {addi(17, 0, 64), addi(10, 0, 1), addi(12, 0, 0), ecall()}) code.push_back(w);
  for (uint32_t w : testing::rv::exit_with(0)) code.push_back(w);
  return testing::simple_elf(code);
}

uint64_t& cell(AirTrace& t, const char* table, size_t row, const char* column) {
  auto& tb = t.table(table);
  return tb.rows.at(row)[tb.col(column)];
}
// The last row of the echo program's full segment 0 (it is real: the segment runs 2^10 cycles).
constexpr size_t kLast = 1023;

// Edits that break one constraint alone, every other constraint holding and every bus balanced
// (the adequacy kills of the segment AIR). Each is what a cheating prover could send if that
// constraint were missing.

// A register's limb k changed by one on the last row of segment 0, a branch (the echo program's
// loop ends segment 0 on one: its rd bits name x29, which no instruction uses as a value): the
// new value carried as a cheating prover would, through the regs table's final and end values into
// every later segment's start value, and through every later row that passes it on (one whose
// register fields name it without using it, or a branch or store naming it as rd). Only
// keep_k_last rejects it.
void carry_register_change(std::vector<AirTrace>& s, int k) {
  const std::string limb = std::to_string(k);
  auto& cpu0 = s[0].table("cpu");
  const size_t last = cpu0.height() - 1;
  const uint64_t reg = cpu0.rows[last][cpu0.col("wr")];
  if (!(cpu0.rows[last][cpu0.col("f_branch")] || cpu0.rows[last][cpu0.col("f_store")]) || reg == 0)
    throw std::logic_error("segment 0 does not end on a branch or store naming a register");
  cpu0.rows[last][cpu0.col("d_v" + limb)] += 1;
  for (size_t seg = 0; seg < s.size(); ++seg) {
    auto& cpu = s[seg].table("cpu");
    for (size_t r = seg == 0 ? last + 1 : 0; r < cpu.height(); ++r) {
      const auto& row = cpu.rows[r];
      if (!row[cpu.col("is_real")]) continue;
      if (row[cpu.col("ra")] == reg) cpu.rows[r][cpu.col("a_v" + limb)] += 1;  // read by a row that ignores it
      if (row[cpu.col("rb")] == reg) cpu.rows[r][cpu.col("b_v" + limb)] += 1;
      if (row[cpu.col("wr")] != reg) continue;
      if (!(row[cpu.col("f_branch")] || row[cpu.col("f_store")])) throw std::logic_error("the register is written later");
      cpu.rows[r][cpu.col("d_old" + limb)] += 1, cpu.rows[r][cpu.col("d_v" + limb)] += 1;
    }
    auto& regs = s[seg].table("regs");
    if (seg > 0) regs.rows[reg][regs.col("iv" + limb)] += 1;
    regs.rows[reg][regs.col("final_v" + limb)] += 1;
    if (s[seg].publics.at("more")) regs.rows[reg][regs.col("ev" + limb)] += 1;
  }
}

// The input position, end of input or output position of segment 2 (two ecalls, both at the end
// of input: a read of nothing and a write of nothing) changed from row `from` on, with its end
// value and segment 3's (no ecalls) moved along.
void move_io_position(std::vector<AirTrace>& s, const char* pos, const char* end, const char* pub, size_t from, uint64_t to) {
  auto& sc = s[2].table("syscall");
  for (size_t r = from; r < sc.height() && sc.rows[r][sc.col("is_real")]; ++r) {
    if (sc.rows[r][sc.col("mv")] != 0) throw std::logic_error("segment 2's ecalls move bytes");
    sc.rows[r][sc.col(pos)] = to, sc.rows[r][sc.col(end)] = to;
    if (std::string(pos) == "opos") sc.rows[r][sc.col("ostart")] = sc.rows[r][sc.col("out1")] * to;
  }
  const std::string p = pub;
  s[2].publics.at(p + "_end") = to;
  s[3].publics.at(p + "_start") = to, s[3].publics.at(p + "_end") = to;
}

// Segment 1 claims to start one cycle earlier than its first row's clk: every token its start
// hands out (registers, memory bytes) is re-timed to 4 (clk_start - 1), and every access that
// consumes one takes it at that time, with its timestamp gap 4 longer. Only clk_first rejects it.
void shift_clk_start(std::vector<AirTrace>& s) {
  AirTrace& t = s[1];
  const uint64_t old_ts = 4 * t.publics.at("clk_start");
  t.publics.at("clk_start") -= 1;
  const uint64_t new_ts = old_ts - 4;
  struct Access {
    const char *table, *ts, *lo, *hi, *mult;
  };
  std::vector<Access> accesses = {{"cpu", "a_prev_ts", "a_dt0", "a_dt1", "is_real"}, {"cpu", "b_prev_ts", "b_dt0", "b_dt1", "is_real"},
                                  {"cpu", "d_prev_ts", "d_dt0", "d_dt1", "is_real"}, {"io", "prev_ts", "dt0", "dt1", "is_real"},
                                  {"syscall", "bp", "bd0", "bd1", "is_real"},        {"syscall", "cp", "cd0", "cd1", "is_real"}};
  static const std::vector<std::array<std::string, 4>> bytes = [] {
    std::vector<std::array<std::string, 4>> b;
    for (int j = 0; j < 8; ++j) {
      const std::string n = std::to_string(j);
      b.push_back({"mt" + n, "mda" + n, "mdb" + n, "mo" + n});
    }
    return b;
  }();
  for (const auto& b : bytes) accesses.push_back({"cpu", b[0].c_str(), b[1].c_str(), b[2].c_str(), b[3].c_str()});
  for (const Access& a : accesses) {
    auto& tb = t.table(a.table);
    for (auto& row : tb.rows) {
      if (!row[tb.col(a.mult)] || row[tb.col(a.ts)] != old_ts) continue;
      row[tb.col(a.ts)] = new_ts;
      const uint64_t gap = row[tb.col(a.lo)] + 65536 * row[tb.col(a.hi)] + 4;
      row[tb.col(a.lo)] = gap & 0xffff, row[tb.col(a.hi)] = gap >> 16;
    }
  }
  auto& regs = t.table("regs");
  for (auto& row : regs.rows)
    if (row[regs.col("final_ts")] == old_ts) row[regs.col("final_ts")] = new_ts;  // untouched: its start token
}

size_t real_rows(const core::TraceTable& t) {
  size_t n = 0;
  while (n < t.height() && t.rows[n][t.col("is_real")]) ++n;
  return n;
}
void set_digits(core::TraceTable& t, size_t r, const char* lo, const char* hi, uint64_t v) {
  t.rows[r][t.col(lo)] = v & 0xffff, t.rows[r][t.col(hi)] = v >> 16;
}

// Two rows for bytes that segment 1 does not touch, after its last real memb row: the first with
// is_real = 1, the second with is_real = -1. Each takes the token it leaves, at segment time
// seg + 1 (t_in = seg + 1, so seg - t_in = -1: td0 = p - 1, td1 = 0), and hands its local start
// token to its own end (fin_ts = 4 clk_start), so gmem and the local mem bus cancel within each
// row. The first row's range16 send of p - 1 is out of range; the second's, with multiplicity -1,
// takes it back. Only real_bit rejects it: without it, a row of multiplicity -1 cancels a range
// check that another row fails.
void cancel_a_range_check(std::vector<AirTrace>& s) {
  auto& m = s[1].table("memb");
  const size_t n = real_rows(m);
  while (m.height() < n + 2) m.rows.resize(2 * m.height(), std::vector<uint64_t>(m.rows[0].size(), 0));
  const uint64_t last = m.rows[n - 1][m.col("addr")];
  for (size_t k = 0; k < 2; ++k) {
    auto& row = m.rows[n + k];
    std::fill(row.begin(), row.end(), 0);
    row[m.col("is_real")] = k == 0 ? 1 : ref::Fp::P - 1;
    row[m.col("addr")] = last + 1 + k;
    row[m.col("t_in")] = s[1].publics.at("seg") + 1;
    row[m.col("td0")] = ref::Fp::P - 1;
    row[m.col("fin_ts")] = 4 * s[1].publics.at("clk_start");
  }
  set_digits(m, n - 1, "gap0", "gap1", 0);  // the next address is one above
}

// Rows [begin, end) of `rows` (increasing addresses) as mem's real rows, padded to a power of two
// (at least 32), their gaps filled and cb* 0 (the caller sets the first row's).
void place_mem_rows(core::TraceTable& m, const std::vector<std::vector<uint64_t>>& rows, size_t begin, size_t end) {
  const size_t a = m.col("addr");
  size_t h = 32;
  while (h < end - begin) h *= 2;
  m.rows.assign(h, std::vector<uint64_t>(m.columns.size(), 0));
  for (size_t i = begin; i < end; ++i) {
    m.rows[i - begin] = rows[i];
    set_digits(m, i - begin, "cb0", "cb1", 0);
    set_digits(m, i - begin, "gap0", "gap1", i + 1 < end ? rows[i + 1][a] - rows[i][a] - 1 : 0);
  }
}

// The chunks of fibonacci's mem rows cut again (as the planner may): segment 0 takes the first 32
// touched addresses, exactly its table's height, and the rest go to segment 1 (segment 2's chunk
// empty). Segment 0 then claims a chunk that ends one address below its last row's, where segment
// 1's starts: with no padding row, only chunk_last_full rejects it.
void full_chunk_ends_early(std::vector<AirTrace>& s) {
  std::vector<std::vector<uint64_t>> rows;
  for (auto& seg : s) {
    auto& m = seg.table("mem");
    for (size_t r = 0; r < real_rows(m); ++r) rows.push_back(m.rows[r]);
  }
  auto& m0 = s[0].table("mem");
  const size_t a = m0.col("addr");
  if (rows.size() <= 32) throw std::logic_error("fibonacci touches 32 bytes or fewer");
  place_mem_rows(m0, rows, 0, 32);
  set_digits(m0, 0, "cb0", "cb1", rows[0][a] - s[0].publics.at("init_prev") - 1);
  place_mem_rows(s[1].table("mem"), rows, 32, rows.size());
  for (auto& row : s[2].table("mem").rows) std::fill(row.begin(), row.end(), 0);
  const uint64_t last = rows[31][a] - 1;  // honest: rows[31][a]
  s[0].publics.at("init_last") = last;
  s[1].publics.at("init_prev") = last;
  set_digits(s[1].table("mem"), 0, "cb0", "cb1", rows[32][a] - last - 1);
  const uint64_t end = s[2].publics.at("init_last");
  s[1].publics.at("init_last") = end, s[2].publics.at("init_prev") = end;
}

// The self-jump program's bundle cut to its first segment, claimed to be the whole run (more = 0,
// end registers 0): its mem chunk holds every byte segment 0 touched, each ending with the token
// segment 0 left (this program touches none: an empty chunk). Every bus balances and the run ends
// on a row that does not exit: only halt_system_last rejects it.
void truncate_to_first_segment(std::vector<AirTrace>& s) {
  AirTrace& t = s[0];
  const auto& memb = t.table("memb");
  std::map<uint64_t, uint64_t> left;  // address -> the value segment 0 left
  for (size_t r = 0; r < real_rows(memb); ++r) left[memb.rows[r][memb.col("addr")]] = memb.rows[r][memb.col("fin_v")];
  auto& mem = t.table("mem");
  const size_t a = mem.col("addr");
  std::vector<std::vector<uint64_t>> rows;
  for (auto& seg : s) {
    auto& m = seg.table("mem");
    for (size_t r = 0; r < real_rows(m); ++r)
      if (left.count(m.rows[r][a])) {
        rows.push_back(m.rows[r]);
        rows.back()[m.col("fin_ts")] = 1, rows.back()[m.col("fin_v")] = left[m.rows[r][a]];
      }
  }
  place_mem_rows(mem, rows, 0, rows.size());
  if (!rows.empty()) set_digits(mem, 0, "cb0", "cb1", rows[0][a] - t.publics.at("init_prev") - 1);
  t.publics.at("init_last") = rows.empty() ? t.publics.at("init_prev") : rows.back()[a];
  t.publics.at("more") = 0;
  auto& regs = t.table("regs");
  for (auto& row : regs.rows)
    for (const char* c : {"ev0", "ev1", "ev2", "ev3"}) row[regs.col(c)] = 0;
  s.resize(1);
}

// The echo program's last segment (the exit, then padding) claims the run goes on (more = 1, its
// end registers the final ones): only full_last rejects it.
void claim_more_after_exit(std::vector<AirTrace>& s) {
  AirTrace& t = s.back();
  t.publics.at("more") = 1;
  auto& regs = t.table("regs");
  for (auto& row : regs.rows)
    for (int k = 0; k < 4; ++k) row[regs.col("ev" + std::to_string(k))] = row[regs.col("final_v" + std::to_string(k))];
}

// Segment 0 of the ecall-copies program ends on its write ecall, which claims to go on at the
// exit's second copy, 12 bytes further than pc + 4; segment 1 runs that copy (every pc 12 more).
// Only pc_ecall_last rejects it.
void ecall_skips_ahead(std::vector<AirTrace>& s) {
  auto& cpu0 = s[0].table("cpu");
  cpu0.rows.back()[cpu0.col("next_pc")] += 12;
  s[0].publics.at("pc_end") += 12;
  auto& cpu1 = s[1].table("cpu");
  for (size_t r = 0; r < real_rows(cpu1); ++r) {
    cpu1.rows[r][cpu1.col("pc")] += 12, cpu1.rows[r][cpu1.col("next_pc")] += 12;
    set_digits(cpu1, r, "pc0", "pc1", cpu1.rows[r][cpu1.col("pc")]);
  }
  s[1].publics.at("entry") += 12, s[1].publics.at("pc_end") += 12;
}

// Segment 1's chunk emptied into segment 0's (its rows appended there, as an honest planner may
// cut), then claimed to end one address below where it starts; segment 2's chunk starts there.
void claim_empty_chunk_backwards(std::vector<AirTrace>& s) {
  auto& m0 = s[0].table("mem");
  auto& m1 = s[1].table("mem");
  auto& m2 = s[2].table("mem");
  const size_t n0 = real_rows(m0), n1 = real_rows(m1);
  if (n0 + n1 > m0.height()) throw std::logic_error("segment 0's mem table has no room");
  for (size_t i = 0; i < n1; ++i) {
    m0.rows[n0 + i] = m1.rows[i];
    set_digits(m0, n0 + i, "cb0", "cb1", 0);
  }
  set_digits(m0, n0 - 1, "gap0", "gap1", m0.rows[n0][m0.col("addr")] - m0.rows[n0 - 1][m0.col("addr")] - 1);
  for (auto& row : m1.rows) std::fill(row.begin(), row.end(), 0);
  const uint64_t y = s[1].publics.at("init_last");
  s[0].publics.at("init_last") = y;
  s[1].publics.at("init_prev") = y, s[1].publics.at("init_last") = y - 1;
  s[2].publics.at("init_prev") = y - 1;
  set_digits(m2, 0, "cb0", "cb1", m2.rows[0][m2.col("addr")] - (y - 1) - 1);
}

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
      // the adequacy kills: each breaks its constraint alone
      {"cpu:c:keep0_last", 0, [](auto& s) { carry_register_change(s, 0); }},
      {"cpu:c:keep1_last", 0, [](auto& s) { carry_register_change(s, 1); }},
      {"cpu:c:keep2_last", 0, [](auto& s) { carry_register_change(s, 2); }},
      {"cpu:c:keep3_last", 0, [](auto& s) { carry_register_change(s, 3); }},
      {"syscall:c:ipos_first", 2, [](auto& s) { move_io_position(s, "ipos", "iend", "ipos", 0, 11); }},
      {"syscall:c:ipos_next", 2, [](auto& s) { move_io_position(s, "ipos", "iend", "ipos", 1, 11); }},
      {"syscall:c:opos_first", 2, [](auto& s) { move_io_position(s, "opos", "oend", "opos", 0, 11); }},
      {"syscall:c:eof_first", 2, [](auto& s) { cell(s[2], "syscall", 0, "eof") = 0; }},
      {"mem:c:chunk_empty", 1, [](auto& s) { claim_empty_chunk_backwards(s); }},
      {"cpu:c:clk_first", 1, [](auto& s) { shift_clk_start(s); }},
      // segment 1's last real memb row after a padding row (that row's gap leads to it)
      {"memb:c:real_prefix", 1, [](auto& s) {
         auto& m = s[1].table("memb");
         const size_t n = real_rows(m);
         std::swap(m.rows[n - 1], m.rows[n]);
         set_digits(m, n - 1, "gap0", "gap1", m.rows[n][m.col("addr")] - m.rows[n - 1][m.col("addr")] - 1);
       }},
      // an extra memory token: a gap off by one
      {"memb:c:order", 1, [](auto& s) { cell(s[1], "memb", 0, "gap0") += 1; }},
      {"mem:c:chunk_last_full", 0, full_chunk_ends_early, Kill::Base::kFibonacci},
      // the last segment's end values of a full syscall table, claimed otherwise
      {"syscall:c:ipos_end_last", 1, [](auto& s) { s[1].publics.at("ipos_end") += 1; }, Kill::Base::kBurst},
      {"syscall:c:eof_end_last", 1, [](auto& s) { s[1].publics.at("eof_end") ^= 1; }, Kill::Base::kBurst},
      {"syscall:c:opos_end_last", 1, [](auto& s) { s[1].publics.at("opos_end") += 1; }, Kill::Base::kBurst},
      {"cpu:c:halt_system_last", 0, truncate_to_first_segment, Kill::Base::kSelfJump},
      {"cpu:c:full_last", 3, claim_more_after_exit},
      {"cpu:c:pc_ecall_last", 0, ecall_skips_ahead, Kill::Base::kEcallCopies},
      {"memb:c:real_bit", 1, cancel_a_range_check},
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

bool whole_marked(const spec::air::Spec& whole, const std::string& id) {
  for (const auto& t : whole.tables)
    for (const auto& m : t.adequacy)
      if (m.id == id) return true;
  return false;
}

TEST(SegmentAir, EveryNewConstraintIsViolatedByItsEdit) {
  const Bundle base = bundle(echo_program(), kEchoInput, 10);
  ASSERT_EQ(base.segments.size(), 4u);
  std::vector<uint8_t> input;
  const auto image = guest("fibonacci", &input);  // before `input` is read
  const Bundle fib = bundle(image, input, 10);
  ASSERT_EQ(fib.segments.size(), 3u);
  const Bundle burst = bundle(*ref::load_elf(burst_elf()).image, {}, 10);
  ASSERT_EQ(burst.segments.size(), 2u);
  const auto& calls = burst.segments[1].table("syscall");
  ASSERT_EQ(calls.height(), 32u);
  ASSERT_EQ(real_rows(calls), 32u) << "the burst's last segment must fill its syscall table";
  const Bundle self_jump = bundle(*ref::load_elf(self_jump_elf()).image, {}, 10);
  ASSERT_EQ(self_jump.segments.size(), 2u);
  const auto& sj = self_jump.segments[0].table("cpu");
  ASSERT_EQ(sj.rows.back()[sj.col("next_pc")], sj.rows.back()[sj.col("pc")]) << "segment 0 must end on the self-jump";
  const Bundle copies = bundle(*ref::load_elf(ecall_copies_elf()).image, {}, 10);
  ASSERT_EQ(copies.segments.size(), 2u);
  const auto& ce = copies.segments[0].table("cpu");
  ASSERT_EQ(ce.rows.back()[ce.col("f_system")], 1u) << "segment 0 must end on the write's ecall";
  std::set<std::string> lone;  // edits that break their constraint alone, every bus balanced
  std::map<std::string, std::string> broken;  // what else each edit breaks
  for (const Kill& k : kills()) {
    auto segs = k.base == Kill::Base::kFibonacci     ? fib.segments
                : k.base == Kill::Base::kBurst       ? burst.segments
                : k.base == Kill::Base::kSelfJump    ? self_jump.segments
                : k.base == Kill::Base::kEcallCopies ? copies.segments
                                                     : base.segments;
    k.edit(segs);
    for (auto& seg : segs) ref::air::count_segment_lookups(seg);  // as a cheating prover would
    const auto rep = ref::air::check_segment_traces(segs);
    const std::string target = "segment " + std::to_string(k.segment) + ": constraint " + k.id;
    EXPECT_TRUE(rep.failing.count(target)) << k.id << ":\n" << all(rep);
    // lone: no other constraint fails in any segment (this one may fail in several)
    const std::string suffix = std::string(": constraint ") + k.id;
    const bool only = std::all_of(rep.failing.begin(), rep.failing.end(), [&](const std::string& f) {
      return f.size() > suffix.size() && f.compare(f.size() - suffix.size(), std::string::npos, suffix) == 0;
    });
    if (only && rep.failing.count(target) && rep.unbalanced_buses.empty()) lone.insert(k.id);
    for (const auto& f : rep.failing)
      if (f != target) broken[k.id] += f + "; ";
    for (const auto& u : rep.unbalanced_buses) broken[k.id] += u + "; ";
  }
  // every constraint of the segment AIR that the whole run's AIR does not have in the same form
  const auto& whole = spec::air::embedded_spec(spec::air::Mode::kWhole);
  const auto& seg = spec::air::embedded_spec(spec::air::Mode::kSegmented);
  std::set<std::string> covered;
  for (const Kill& k : kills()) covered.insert(k.id);
  std::vector<std::string> news;
  for (const auto& t : seg.tables)
    for (const auto& c : t.constraints) {
      const auto* wt = whole.table(t.name);
      bool same = false;
      if (wt)
        for (const auto& w : wt->constraints)
          if (w.id == c.id) same = spec::air::to_string(*w.expr) == spec::air::to_string(*c.expr) && w.rows == c.rows;
      if (!same) {
        EXPECT_TRUE(covered.count(c.id)) << c.id << " has no edit that violates it";
        news.push_back(c.id);
      }
    }
  // Adequacy of the segment AIR (as Air.AdequacyKillRate for a whole run's): with a new
  // constraint switched off, its edit is accepted, or the constraint carries an `adequacy ...
  // implied` mark in its table, which zkrv-air-solve --segmented proves
  // (AirSolve.EveryImpliedMarkIsProved): 100 % killed or solver-proven, no `open` mark.
  std::set<std::string> marked, implied;
  for (const auto& t : seg.tables)
    for (const auto& m : t.adequacy) {
      marked.insert(m.id);
      if (m.kind == spec::air::AdequacyMark::Kind::kImplied) implied.insert(m.id);
    }
  size_t killed = 0, survivors = 0;
  for (const auto& id : news) {
    if (lone.count(id)) {
      ++killed;
      EXPECT_FALSE(marked.count(id) && !whole_marked(whole, id)) << id << " is killed: its adequacy mark is stale";
      continue;
    }
    ++survivors;
    EXPECT_TRUE(implied.count(id)) << id << ": its edit breaks more than it (" << broken[id] << "), and it has no implied mark";
  }
  std::printf("segment AIR adequacy: %zu of %zu new constraints killed alone, %zu proved implied\n", killed, news.size(), survivors);
}

}  // namespace
}  // namespace zkrv

