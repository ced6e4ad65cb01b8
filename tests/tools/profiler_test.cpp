// The guest profiler on programs with a known call structure. Self cycles are checked against
// a count of trace records per function address range, inclusive cycles against the trace
// interval a call spans: both computed without the profiler's stack logic.
#include "tools/profile/profiler.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>

#include "optimized/exec/fast_executor.h"
#include "reference/elf/elf_loader.h"
#include "reference/exec/executor.h"
#include "tools/common/files.h"

namespace zkrv::tools::profile {
namespace {

struct TracedRun {
  std::vector<uint8_t> elf;
  spec::ProgramImage image;
  SymbolTable symbols;
  std::vector<spec::StepRecord> trace;
  uint64_t cycles = 0;
};

TracedRun load_and_trace(const std::string& path, std::vector<uint8_t> input = {}) {
  TracedRun r;
  auto bytes = read_file(path, 1 << 30, "guest");
  if (!bytes.bytes) throw std::runtime_error(bytes.error);
  r.elf = *bytes.bytes;
  r.image = *ref::load_elf(r.elf).image;
  r.symbols = SymbolTable::from_elf(r.elf);
  spec::ExecOptions opt;
  opt.trace = true;
  auto res = ref::execute(r.image, input, opt);
  r.trace = res.trace;
  r.cycles = res.cycles;
  return r;
}

const FunctionStats& stats(const std::vector<FunctionStats>& fs, const std::string& name) {
  for (const auto& f : fs)
    if (f.name == name) return f;
  throw std::runtime_error("no function " + name);
}

TEST(Profiler, KnownCallStructure) {
  TracedRun r = load_and_trace(std::string(ZKRV_TEST_GUESTS) + "/profile_calls.elf");
  Profiler p(r.symbols);
  p.consume(r.trace);
  p.finish();
  const auto fs = p.functions();
  ASSERT_EQ(p.cycles(), r.cycles);
  EXPECT_EQ(p.repairs(), 0u);
  // Self: records per function range.
  std::map<std::string, uint64_t> self;
  for (const auto& rec : r.trace) self[p.function_name(r.symbols.find(rec.pc))]++;
  uint64_t total = 0;
  for (const auto& [name, n] : self) {
    EXPECT_EQ(stats(fs, name).self, n) << name;
    total += n;
  }
  EXPECT_EQ(total, r.cycles);
  // fact: 9 instructions per level (`call` is auipc + jalr), the innermost skips the call: 43
  // cycles, all inside one interval from its first instruction to the outermost return.
  EXPECT_EQ(self["fact"], 4u * 9 + 7);
  EXPECT_EQ(stats(fs, "fact").inclusive, self["fact"]);  // recursion counted once
  EXPECT_EQ(stats(fs, "_start").inclusive, r.cycles);
  // leaf runs twice (pointer call, then tail call), 3 instructions each; tailer keeps only its own.
  EXPECT_EQ(self["leaf"], 6u);
  EXPECT_EQ(stats(fs, "leaf").inclusive, 6u);
  EXPECT_EQ(stats(fs, "tailer").inclusive, 2u);
  EXPECT_EQ(stats(fs, "leaf").distinct_pcs, 3u);
  // Stacks: the tail-called leaf sits directly under _start.
  const std::string folded = folded_report(p);
  EXPECT_NE(folded.find("_start;leaf 6\n"), std::string::npos) << folded;
  EXPECT_NE(folded.find("_start;fact;fact;fact;fact;fact "), std::string::npos) << folded;
  EXPECT_NE(folded.find("_start;tailer 2\n"), std::string::npos) << folded;
}

TEST(Profiler, FirefoxProfileStructure) {
  TracedRun r = load_and_trace(std::string(ZKRV_TEST_GUESTS) + "/profile_calls.elf");
  for (uint64_t rate : {1u, 7u}) {  // 0 (the default) keeps no samples
    Profiler p(r.symbols, rate);
    p.consume(r.trace);
    p.finish();
    const auto j = nlohmann::json::parse(firefox_profile(p, "test"));
    EXPECT_EQ(j["meta"]["version"], 24);
    EXPECT_TRUE(j["meta"]["categories"].is_array());
    ASSERT_EQ(j["threads"].size(), 1u);
    const auto& t = j["threads"][0];
    const size_t strings = t["stringTable"].size(), frames = t["frameTable"]["data"].size(),
                 stacks = t["stackTable"]["data"].size();
    EXPECT_EQ(t["frameTable"]["schema"]["location"], 0);
    for (const auto& f : t["frameTable"]["data"]) EXPECT_LT(f[0].get<size_t>(), strings);
    for (size_t i = 0; i < stacks; ++i) {
      const auto& s = t["stackTable"]["data"][i];
      if (!s[0].is_null()) {
        EXPECT_LT(s[0].get<size_t>(), i);  // prefix precedes the stack
      }
      EXPECT_LT(s[1].get<size_t>(), frames);
    }
    const auto& samples = t["samples"]["data"];
    EXPECT_EQ(samples.size(), (r.cycles + rate - 1) / rate);
    double last = -1;
    for (const auto& s : samples) {
      EXPECT_LT(s[0].get<size_t>(), stacks);
      EXPECT_GT(s[1].get<double>(), last);  // time increases
      last = s[1].get<double>();
    }
  }
}

TEST(Profiler, ExampleGuestSelfCyclesAddUp) {
  const auto input = *read_file(std::string(ZKRV_SOURCE_DIR) + "/guest/programs/wordfreq.input", 1 << 20, "in").bytes;
  TracedRun r = load_and_trace(std::string(ZKRV_GUEST_PROGRAMS_DIR) + "/wordfreq.elf", input);
  Profiler p(r.symbols);
  p.consume(r.trace);
  p.finish();
  uint64_t self = 0;
  for (const auto& f : p.functions()) self += f.self;
  EXPECT_EQ(self, r.cycles);
  EXPECT_EQ(stats(p.functions(), "_start").inclusive, r.cycles);
  EXPECT_GT(stats(p.functions(), "main").inclusive, r.cycles / 2);
  EXPECT_EQ(p.repairs(), 0u);  // picolibc's millicode (__riscv_save/restore_N) is followed too
  // Profiling consumes the fast executor's trace: same cycles and output as a plain run.
  Profiler q(r.symbols);
  spec::ExecOptions traced;
  traced.trace = true;
  traced.trace_sink = [&](std::span<const spec::StepRecord> c) { q.consume(c); };
  const auto profiled = opt::execute(r.image, input, traced), plain = opt::execute(r.image, input, {});
  EXPECT_EQ(profiled.cycles, plain.cycles);
  EXPECT_EQ(profiled.output, plain.output);
  EXPECT_EQ(q.cycles(), plain.cycles);
}

TEST(Profiler, CostScopesAndMisuse) {
  TracedRun r = load_and_trace(std::string(ZKRV_GUEST_PROGRAMS_DIR) + "/cost_scopes.elf");
  Profiler p(r.symbols);
  p.consume(r.trace);
  p.finish();
  EXPECT_TRUE(p.scope_error().empty());
  const auto scopes = p.scopes_used();
  EXPECT_EQ(scopes, (std::vector<int>{1, 2, 3, kNoScope}));
  uint64_t per_scope_total = 0;
  for (int s : scopes)
    for (const auto& f : p.functions(s)) per_scope_total += f.self;
  EXPECT_EQ(per_scope_total, r.cycles);  // every cycle in exactly one (innermost) scope
  EXPECT_GT(stats(p.functions(2), "sha256_block").self, 0u);
  EXPECT_EQ(stats(p.functions(3), "sha256_block").self, 0u);
  // An end without a start is a misuse, reported with its cycle.
  spec::StepRecord end;
  end.insn = 0x00000073;
  end.rs1 = 17;
  end.rs1_value = spec::kSysCostScopeEnd;
  end.rs2_value = 9;
  Profiler q(r.symbols);
  q.consume(std::span<const spec::StepRecord>(&end, 1));
  q.finish();
  EXPECT_NE(q.scope_error().find("end(9) without a start"), std::string::npos) << q.scope_error();
}

// The cheap path (control-flow events from run mode) must give exactly the profile of the
// full trace, on every example guest and on the call-structure test.
TEST(Profiler, FlowEventsGiveTheTraceProfile) {
  const std::string dir = ZKRV_GUEST_PROGRAMS_DIR;
  for (const std::string name : {"wordfreq", "quicksort", "cost_scopes", "cxx_lifecycle", "alloc_stress_arena",
                                 "fail_misaligned_jump", "fail_abort"}) {
    std::vector<uint8_t> input;
    if (auto in = read_file(std::string(ZKRV_SOURCE_DIR) + "/guest/programs/" + name + ".input", 1 << 20, "in"); in.bytes)
      input = *in.bytes;
    TracedRun r = load_and_trace(dir + "/" + name + ".elf", input);
    for (uint64_t rate : {0u, 3u}) {
      Profiler by_trace(r.symbols, rate), by_flow(r.symbols, rate);
      by_trace.consume(r.trace);
      by_trace.finish();
      spec::ExecOptions opt;
      opt.flow_sink = [&](std::span<const spec::FlowEvent> c) { by_flow.consume_flow(c); };
      const auto res = opt::execute(r.image, input, opt);
      by_flow.finish();
      ASSERT_EQ(res.cycles, r.cycles) << name;
      EXPECT_EQ(by_flow.cycles(), by_trace.cycles()) << name;
      EXPECT_EQ(by_flow.repairs(), by_trace.repairs()) << name;
      EXPECT_EQ(by_flow.node_self(), by_trace.node_self()) << name;
      EXPECT_EQ(by_flow.samples(), by_trace.samples()) << name;
      EXPECT_EQ(folded_report(by_flow), folded_report(by_trace)) << name;
      EXPECT_EQ(text_report(by_flow), text_report(by_trace)) << name;
    }
  }
}

// A recursion 10^6 calls deep: every figure still exact, the folded stacks bounded, and the
// whole profile linear in cycles (the ctest timeout of tools.profile.deep_recursion, and the
// time of this test, would show a walk over the stack per node or per return).
TEST(Profiler, MillionDeepRecursion) {
  auto bytes = read_file(std::string(ZKRV_TEST_GUESTS) + "/profile_deep.elf", 1 << 20, "guest");
  ASSERT_TRUE(bytes.bytes) << bytes.error;
  const auto image = *ref::load_elf(*bytes.bytes).image;
  const auto symbols = SymbolTable::from_elf(*bytes.bytes);
  constexpr uint64_t kCycles = 1000000;
  Profiler p(symbols, 1, 1000);
  spec::ExecOptions opt;
  opt.max_cycles = kCycles;
  opt.flow_sink = [&](std::span<const spec::FlowEvent> c) { p.consume_flow(c); };
  const auto r = opt::execute(image, {}, opt);
  p.finish();
  ASSERT_EQ(r.fault.kind, spec::FaultKind::kCycleLimit);
  ASSERT_EQ(p.cycles(), kCycles);
  EXPECT_EQ(p.nodes().size(), kCycles + 1);  // _start, then one f node per call (the last has run no cycle)
  const auto fs = p.functions();
  EXPECT_EQ(stats(fs, "_start").self, 1u);
  EXPECT_EQ(stats(fs, "_start").inclusive, kCycles);
  EXPECT_EQ(stats(fs, "f").self, kCycles - 1);
  EXPECT_EQ(stats(fs, "f").inclusive, kCycles - 1);  // recursion counts once
  // Folded: depths 1..128 each their own line, every deeper stack the same elided line.
  const std::string folded = folded_report(p);
  EXPECT_EQ(std::count(folded.begin(), folded.end(), '\n'), 129);
  const std::string last = folded.substr(folded.rfind('\n', folded.size() - 2) + 1);
  EXPECT_EQ(last.rfind("_start;f;f;", 0), 0u) << last.substr(0, 100);
  EXPECT_NE(last.find(";[...];f;"), std::string::npos);
  EXPECT_EQ(std::count(last.begin(), last.end(), ';'), 128);
  EXPECT_EQ(last.substr(last.rfind(' ') + 1), std::to_string(kCycles - 128) + "\n");
  // Samples bounded at 1000: the rate doubled until they fit, and sample i is the stack at
  // cycle i * rate (here, the node at depth i * rate).
  EXPECT_LE(p.samples().size(), 1000u);
  EXPECT_GT(p.samples().size(), 500u);
  EXPECT_EQ(p.sample_rate(), 1024u);  // 2^10: 10^6 / 1024 = 977 samples
  for (size_t i = 0; i < p.samples().size(); ++i) ASSERT_EQ(p.samples()[i], i * p.sample_rate()) << i;
}

// A symbol size far past its segment (2^36 bytes: 16 GB of bookkeeping if believed) is clipped
// to the executable bytes of the file, with a warning, and the profile is the same.
TEST(Profiler, SymbolSizesAreClippedToTheirSegment) {
  auto bytes = read_file(std::string(ZKRV_GUEST_PROGRAMS_DIR) + "/wordfreq.elf", 1 << 24, "guest");
  ASSERT_TRUE(bytes.bytes) << bytes.error;
  std::vector<uint8_t> elf = *bytes.bytes;
  auto rd = [&](size_t off, unsigned n) { uint64_t v = 0; for (unsigned k = 0; k < n; ++k) v |= uint64_t{elf[off + k]} << (8 * k); return v; };
  const auto honest = SymbolTable::from_elf(elf);
  EXPECT_EQ(honest.warning(), "");
  // Find main's symbol in .symtab and give it st_size = 2^36.
  const uint64_t shoff = rd(40, 8), shnum = rd(60, 2);
  bool patched = false;
  for (uint64_t i = 0; i < shnum && !patched; ++i) {
    const size_t sh = shoff + i * 64;
    if (rd(sh + 4, 4) != 2) continue;
    const uint64_t off = rd(sh + 24, 8), size = rd(sh + 32, 8), strtab = shoff + rd(sh + 40, 4) * 64;
    const uint64_t str_off = rd(strtab + 24, 8);
    for (uint64_t sym = off; sym + 24 <= off + size; sym += 24)
      if (std::string(reinterpret_cast<const char*>(&elf[str_off + rd(sym, 4)])) == "main") {
        for (unsigned k = 0; k < 8; ++k) elf[sym + 16 + k] = static_cast<uint8_t>((uint64_t{1} << 36) >> (8 * k));
        patched = true;
        break;
      }
  }
  ASSERT_TRUE(patched);
  const auto clipped = SymbolTable::from_elf(elf);
  EXPECT_NE(clipped.warning().find("1 symbol size(s) past the end of their segment clipped"), std::string::npos)
      << clipped.warning();
  uint64_t covered = 0;
  for (const auto& f : clipped.functions()) covered += f.end - f.start;
  EXPECT_LT(covered, elf.size());  // bounded by the file, not by the symbol
  // main now swallows the functions after it; the profile still counts every cycle.
  const auto image = *ref::load_elf(elf).image;
  std::vector<uint8_t> input = *read_file(std::string(ZKRV_SOURCE_DIR) + "/guest/programs/wordfreq.input", 1 << 20, "in").bytes;
  Profiler p(clipped);
  spec::ExecOptions opt;
  opt.flow_sink = [&](std::span<const spec::FlowEvent> c) { p.consume_flow(c); };
  const auto r = opt::execute(image, input, opt);
  p.finish();
  EXPECT_EQ(p.cycles(), r.cycles);
}

TEST(Profiler, OnlyMangledNamesAreDemangled) {
  EXPECT_EQ(demangle("f"), "f");  // not "float"
  EXPECT_EQ(demangle("i"), "i");
  EXPECT_EQ(demangle("_Z3fooi"), "foo(int)");
  EXPECT_EQ(demangle("_Zbogus"), "_Zbogus");
}

TEST(Profiler, StrippedElfHasNoSymbols) {
  EXPECT_TRUE(SymbolTable::from_elf(std::vector<uint8_t>{1, 2, 3}).functions().empty());
  std::vector<uint8_t> garbage(4096, 0xff);
  garbage[0] = 0x7f; garbage[1] = 'E'; garbage[4] = 2; garbage[5] = 1;
  EXPECT_TRUE(SymbolTable::from_elf(garbage).functions().empty());
}

}  // namespace
}  // namespace zkrv::tools::profile
