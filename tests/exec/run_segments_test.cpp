// How a run is cut into segments (spec/run_segments.h, protocol:segments:*), checked against
// oracles that share none of its code: each boundary state against the executor stopped by
// its cycle limit exactly there, and the touched bytes, their final tokens and the per-segment
// counts against a replay of the whole in-memory trace with std::map and std::set.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <set>
#include <string>

#include "optimized/exec/fast_executor.h"
#include "reference/elf/elf_loader.h"
#include "reference/exec/executor.h"
#include "spec/bundle.h"
#include "spec/run_segments.h"
#include "tests/support/elf_builder.h"
#include "tests/support/random_program.h"
#include "tools/common/files.h"

namespace zkrv {
namespace {

struct Guest {
  spec::ProgramImage image;
  std::vector<uint8_t> input;
};

Guest guest(const std::string& name) {
  const std::string dir = ZKRV_GUEST_PROGRAMS_DIR;
  auto bytes = tools::read_file(dir + "/" + name + ".elf", 1 << 30, "guest");
  if (!bytes.bytes) throw std::runtime_error(bytes.error);
  auto loaded = ref::load_elf(*bytes.bytes);
  if (!loaded.ok()) throw std::runtime_error(loaded.message);
  Guest g{*loaded.image, {}};
  auto in = tools::read_file(std::string(ZKRV_SOURCE_DIR) + "/guest/programs/" + name + ".input", 1 << 20, "input");
  if (in.bytes) g.input = *in.bytes;
  return g;
}

enum class Exec { kFast, kReference };

spec::RunPlan plan(const spec::ProgramImage& image, std::span<const uint8_t> input, unsigned k, Exec e = Exec::kFast) {
  spec::RunPlanner planner(image, k);
  spec::ExecOptions o;
  spec::attach(planner, o);
  const auto run = e == Exec::kFast ? opt::execute(image, input, o) : ref::execute(image, input, o);
  return planner.finish(run);
}

// The boundary states, each against the executor stopped by its cycle limit at s·2^k: the pc it
// would fetch next, its registers, the input it has read and the output it has written.
void expect_boundaries(const spec::ProgramImage& image, std::span<const uint8_t> input, const spec::RunPlan& p) {
  const uint64_t n = p.count();
  ASSERT_EQ(p.boundaries.size(), n + 1);
  ASSERT_EQ(n, spec::segment_count(p.cycles, p.log_cycles));
  const spec::BoundaryState& first = p.boundaries[0];
  EXPECT_EQ(first.pc, image.entry);
  EXPECT_EQ(first.regs, (std::array<uint64_t, 32>{}));
  EXPECT_TRUE(first.ipos == 0 && !first.eof && first.opos == 0);
  for (uint64_t s = 1; s < n; ++s) {
    spec::ExecOptions o;
    o.max_cycles = s << p.log_cycles;
    o.collect_stats = true;
    const auto cut = opt::execute(image, input, o);
    ASSERT_EQ(cut.fault.kind, spec::FaultKind::kCycleLimit) << s;
    const spec::BoundaryState& b = p.boundaries[s];
    EXPECT_EQ(b.pc, cut.fault.pc) << "segment " << s;
    EXPECT_EQ(b.regs, cut.regs) << "segment " << s;
    EXPECT_EQ(b.ipos, cut.stats.input_bytes_read) << "segment " << s;
    EXPECT_EQ(b.opos, cut.output.size()) << "segment " << s;
    EXPECT_LE(p.boundaries[s - 1].ipos, b.ipos);
    EXPECT_LE(static_cast<int>(p.boundaries[s - 1].eof), static_cast<int>(b.eof));
  }
  spec::ExecOptions o;
  o.collect_stats = true;
  const auto whole = opt::execute(image, input, o);
  const spec::BoundaryState& last = p.boundaries[n];
  EXPECT_EQ(last.pc, whole.pc);
  EXPECT_EQ(last.regs, (std::array<uint64_t, 32>{}));
  EXPECT_EQ(last.ipos, whole.stats.input_bytes_read);
  EXPECT_EQ(last.opos, whole.output.size());
  uint64_t cycles = 0;
  for (uint64_t s = 0; s < n; ++s) {
    EXPECT_EQ(p.segments[s].first_cycle, s << p.log_cycles);
    EXPECT_EQ(p.segments[s].cycles, s + 1 < n ? uint64_t{1} << p.log_cycles : whole.cycles - (s << p.log_cycles));
    cycles += p.segments[s].cycles;
  }
  EXPECT_EQ(cycles, whole.cycles);
}

// The touched bytes, each one's last segment and final value, every segment's distinct bytes,
// syscalls and moved bytes, by a plain replay of the reference executor's whole trace; and the
// chunks: C_0 = 0, never falling, each chunk holding exactly its share of the touched bytes.
void expect_memory(const spec::ProgramImage& image, std::span<const uint8_t> input, const spec::RunPlan& p) {
  spec::ExecOptions o;
  o.trace = true;
  const auto run = ref::execute(image, input, o);
  std::map<uint64_t, std::pair<uint64_t, uint8_t>> last;  // address -> (segment + 1, value)
  std::vector<std::set<uint64_t>> per(p.count());
  std::vector<uint64_t> calls(p.count()), moved(p.count());
  auto initial = [&](uint64_t a) -> uint8_t {
    for (const auto& s : image.segments)
      if (a >= s.vaddr && a < s.vaddr + s.data.size()) return s.data[a - s.vaddr];
    return 0;
  };
  auto touch = [&](uint64_t a, uint64_t s) {
    auto [it, fresh] = last.try_emplace(a, s + 1, initial(a));
    it->second.first = s + 1;
    per[s].insert(a);
  };
  size_t e = 0;
  for (const auto& st : run.trace) {
    const uint64_t s = st.cycle >> p.log_cycles;
    for (unsigned i = 0; i < st.mem.size; ++i) {
      touch(st.mem.address + i, s);
      if (st.mem.kind == spec::MemKind::kStore) last[st.mem.address + i].second = static_cast<uint8_t>(st.mem.after >> 8 * i);
    }
    for (; e < run.syscalls.size() && run.syscalls[e].cycle == st.cycle; ++e) {
      const auto& ev = run.syscalls[e];
      if (ev.number == spec::kSysExit || ev.number == spec::kSysExitGroup) continue;
      ++calls[s];
      moved[s] += ev.bytes.size();
      for (size_t i = 0; i < ev.bytes.size(); ++i) {
        touch(ev.args[1] + i, s);
        if (ev.number == spec::kSysRead) last[ev.args[1] + i].second = ev.bytes[i];
      }
    }
  }
  ASSERT_EQ(p.memory->count(), last.size());
  for (const auto& [a, tv] : last) {
    ASSERT_TRUE(p.memory->touched(a)) << a;
    EXPECT_EQ(p.memory->final_time(a), tv.first) << a;
    EXPECT_EQ(p.memory->final_value(a), tv.second) << a;
  }
  for (size_t s = 0; s < p.count(); ++s) {
    EXPECT_EQ(p.segments[s].touched, per[s].size()) << s;
    EXPECT_EQ(p.segments[s].syscalls, calls[s]) << s;
    EXPECT_EQ(p.segments[s].io_bytes, moved[s]) << s;
  }
  ASSERT_EQ(p.chunks.size(), p.count() + 1);
  EXPECT_EQ(p.chunks[0], 0u);
  EXPECT_EQ(p.chunks.back(), last.rbegin()->first);
  uint64_t lo = 0, hi = 0;
  for (size_t s = 0; s < p.count(); ++s) {
    ASSERT_LE(p.chunks[s], p.chunks[s + 1]);
    uint64_t in = 0;
    for (auto it = last.upper_bound(p.chunks[s]); it != last.end() && it->first <= p.chunks[s + 1]; ++it) ++in;
    EXPECT_EQ(p.segments[s].chunk, in) << s;
    lo = s == 0 ? in : std::min(lo, in), hi = std::max(hi, in);
  }
  EXPECT_LE(hi - lo, 1u) << "chunks are near-equal";
}

TEST(RunSegments, ExampleGuestsAgainstTruncatedRunsAndAReplay) {
  // segment sizes that give each guest 3 to 6 segments (each boundary costs a run from the start)
  for (const auto& [name, k] : {std::pair{"zero_init", 12u}, {"quicksort", 16u}, {"wordfreq", 17u}}) {
    SCOPED_TRACE(name);
    const Guest g = guest(name);
    const auto p = plan(g.image, g.input, k);
    EXPECT_GE(p.count(), 3u) << "a guest too short to have several segments";
    expect_boundaries(g.image, g.input, p);
    expect_memory(g.image, g.input, p);
    // the statement of a bundle of this cut passes the verifier's checks of it
    spec::BundleStatement st;
    st.log_segment = p.log_cycles, st.boundaries = p.boundaries, st.chunks = p.chunks;
    st.log_heights.assign(p.count(), {5, 5});
    spec::ExecOptions o;
    st.output = opt::execute(g.image, g.input, o).output;
    EXPECT_EQ(spec::check_bundle_statement(st, g.image.entry, spec::kDefaultMaxCycles), std::nullopt);
  }
}

// A guest that reads its input in pieces until a short read: ipos grows per read and eof turns
// on at the short read, and stays on.
TEST(RunSegments, InputPositionAndEndOfInputCrossBoundaries) {
  const Guest g = guest("wordfreq");
  const auto p = plan(g.image, g.input, 14);
  ASSERT_GE(p.count(), 4u);
  EXPECT_EQ(p.boundaries.back().ipos, g.input.size());
  EXPECT_TRUE(p.boundaries.back().eof) << "wordfreq reads until a read comes back short";
  bool seen = false;
  for (const auto& b : p.boundaries) {
    EXPECT_TRUE(!seen || b.eof) << "eof never falls";
    seen = seen || b.eof;
  }
  spec::ExecOptions o;
  o.trace = true;
  const auto run = opt::execute(g.image, g.input, o);
  // eof at each boundary: a read from fd 0 before it returned fewer bytes than asked
  for (size_t s = 0; s < p.count(); ++s) {
    bool eof = false;
    for (const auto& ev : run.syscalls)
      if (ev.cycle < (uint64_t{s} << p.log_cycles) && ev.number == spec::kSysRead && ev.args[0] == 0 &&
          ev.result < ev.args[2])
        eof = true;
    EXPECT_EQ(p.boundaries[s].eof, eof) << s;
  }
}

// A program that reads its input 4 bytes at a time, echoes each piece to the output and spins
// about 900 cycles between reads, until a read returns 0: with 10 input bytes the reads return
// 4 (cycle 6), 4 (~919), 2 (~1,832: short, the end of input) and 0 (~2,745). Σ_1 (cycle 1,024)
// has read 8 bytes and not reached the end; Σ_2 (2,048) has read all 10 and has.
TEST(RunSegments, AShortReadEndsTheInputAtItsBoundary) {
  using namespace testing::rv;
  std::vector<uint32_t> code = {
      lui(8, 0x20),                    // s0 = 0x20000, the buffer
      addi(17, 0, 63), addi(10, 0, 0), addi(11, 8, 0), addi(12, 0, 4), ecall(),  // read(0, s0, 4)
      addi(9, 10, 0),                  // s1 = bytes read
      addi(17, 0, 64), addi(10, 0, 1), addi(12, 9, 0), ecall(),                  // write(1, s0, s1)
      addi(8, 8, 4), addi(5, 0, 450),  // the next piece; spin
      addi(5, 5, -1), b(-4, 0, 5, 1),  // bne t0, zero, -4
      b(-56, 0, 9, 1),                 // bne s1, zero, back to the read
  };
  for (uint32_t w : exit_with(0)) code.push_back(w);
  auto loaded = ref::load_elf(testing::simple_elf(code));
  ASSERT_TRUE(loaded.ok()) << loaded.message;
  const std::vector<uint8_t> input = {'0', '1', '2', '3', '4', '5', '6', '7', '8', '9'};
  const auto p = plan(*loaded.image, input, 10);
  ASSERT_EQ(p.count(), 4u);
  EXPECT_EQ(p.boundaries[1].ipos, 8u);
  EXPECT_FALSE(p.boundaries[1].eof) << "reads of exactly what was asked leave the input open";
  EXPECT_EQ(p.boundaries[1].opos, 8u);
  EXPECT_EQ(p.boundaries[2].ipos, 10u);
  EXPECT_TRUE(p.boundaries[2].eof) << "the short read of 2 bytes ends the input";
  EXPECT_EQ(p.boundaries[2].opos, 10u);
  EXPECT_TRUE(p.boundaries[3].eof);
  EXPECT_EQ(p.segments[0].syscalls, 2u * 1 + 2);  // two reads and two writes
  EXPECT_EQ(p.segments[0].io_bytes, 16u);
  expect_boundaries(*loaded.image, input, p);
  expect_memory(*loaded.image, input, p);
}

// Both executors hand records over differently (the reference one step at a time, the fast one
// in chunks, with syscall events ahead of their steps); the plan is the same.
TEST(RunSegments, BothExecutorsGiveThePlan) {
  const Guest g = guest("keccak_chain");
  const auto f = plan(g.image, g.input, 10, Exec::kFast), r = plan(g.image, g.input, 10, Exec::kReference);
  EXPECT_EQ(f.boundaries, r.boundaries);
  EXPECT_EQ(f.chunks, r.chunks);
  EXPECT_EQ(f.segments, r.segments);
  EXPECT_GE(f.count(), 2u);
}

RC_GTEST_PROP(RunSegments, RandomProgramsAgainstTheOracles, ()) {
  const uint64_t seed = *rc::gen::arbitrary<uint64_t>();
  const auto prog = testing::random_program(seed, {.body_instructions = 2500});
  auto loaded = ref::load_elf(prog.elf);
  RC_ASSERT(loaded.ok());
  const auto p = plan(*loaded.image, {}, 10);
  RC_CLASSIFY(p.count() >= 2, "several segments");
  expect_boundaries(*loaded.image, {}, p);
  expect_memory(*loaded.image, {}, p);
  RC_ASSERT(!::testing::Test::HasFailure());
}

TEST(RunSegments, SegmentSizesAndTheCycleBound) {
  EXPECT_EQ(spec::segment_count(1, 10), 1u);
  EXPECT_EQ(spec::segment_count(1024, 10), 1u);
  EXPECT_EQ(spec::segment_count(1025, 10), 2u);
  EXPECT_EQ(spec::segment_count(uint64_t{1} << 32, 20), uint64_t{1} << 12);
  EXPECT_EQ(spec::segment_count((uint64_t{1} << 32) + 1, 20), (uint64_t{1} << 12) + 1);
  EXPECT_EQ(spec::kDefaultMaxCycles, uint64_t{1} << 32) << "the default bound shows runs of 2^32 cycles";
  EXPECT_FALSE(spec::check_segmenting(spec::kDefaultMaxCycles, spec::kDefaultSegmentLog, spec::kDefaultMaxCycles));
  EXPECT_FALSE(spec::check_segmenting(spec::kDefaultMaxCycles, spec::kMinSegmentLog, spec::kDefaultMaxCycles));
  const auto over = spec::check_segmenting(spec::kDefaultMaxCycles + 1, 20, spec::kDefaultMaxCycles);
  ASSERT_TRUE(over);
  EXPECT_EQ(*over, "4097 segments of 2^20 cycles exceed the cycle bound of 4294967296");
  // the last segment is rounded up: 1,000 cycles in segments of 2^10 need a bound of 1,024
  EXPECT_TRUE(spec::check_segmenting(1000, 10, 1000));
  EXPECT_FALSE(spec::check_segmenting(1000, 10, 1024));
  for (unsigned k : {0u, 9u, 22u, 64u}) {
    const auto bad = spec::check_segmenting(100, k, spec::kDefaultMaxCycles);
    ASSERT_TRUE(bad) << k;
    EXPECT_EQ(*bad, "a segment must be 2^10 to 2^21 cycles, not 2^" + std::to_string(k));
  }
}

TEST(RunSegments, RefusesWhatItCannotCut) {
  const Guest g = guest("fibonacci");
  EXPECT_THROW(spec::RunPlanner(g.image, 9), std::invalid_argument);
  EXPECT_THROW(spec::RunPlanner(g.image, 22), std::invalid_argument);
  {  // a run that stops at its cycle limit is not proven
    spec::RunPlanner planner(g.image, 10);
    spec::ExecOptions o;
    spec::attach(planner, o);
    o.max_cycles = 1500;  // fibonacci runs about 2,000 cycles
    const auto run = opt::execute(g.image, g.input, o);
    ASSERT_EQ(run.fault.kind, spec::FaultKind::kCycleLimit);
    EXPECT_THROW(planner.finish(run), std::invalid_argument);
  }
  {  // records missing: the plan would not be the run's
    spec::RunPlanner planner(g.image, 10);
    spec::ExecOptions o;
    const auto run = opt::execute(g.image, g.input, o);
    EXPECT_THROW(planner.finish(run), std::invalid_argument);
  }
}

}  // namespace
}  // namespace zkrv
