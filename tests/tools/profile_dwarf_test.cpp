// The profiler's DWARF: every code address's inlined frames and file:line against
// llvm-addr2line -i (the oracle: LLVM's own DWARF reader, independent of libdw), then the three
// report formats on a guest whose hot code is inlined two deep.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <unistd.h>

#include "optimized/exec/fast_executor.h"
#include "reference/elf/elf_loader.h"
#include "reference/exec/executor.h"
#include "tools/common/files.h"
#include "tools/profile/debuginfo.h"
#include "tools/profile/profiler.h"

namespace zkrv::tools::profile {
namespace {

const std::string kGuest = std::string(ZKRV_TEST_GUESTS) + "/profile_inline.elf";

std::vector<uint8_t> read_elf(const std::string& path) {
  auto bytes = read_file(path, 1 << 30, "guest");
  if (!bytes.bytes) throw std::runtime_error(bytes.error);
  return *bytes.bytes;
}

// llvm-addr2line's frames (innermost first) for each address, through its JSON output.
std::vector<nlohmann::json> addr2line(const std::string& elf, const std::vector<uint64_t>& pcs) {
  const std::string in = ::testing::TempDir() + "/addr2line_in_" + std::to_string(getpid()) + ".txt";  // ctest runs tests side by side
  {
    std::ofstream f(in);
    for (uint64_t pc : pcs) f << "0x" << std::hex << pc << "\n";
  }
  const std::string cmd = std::string(ZKRV_LLVM_ADDR2LINE) + " --output-style=JSON -f -i -C -e " + elf + " < " + in;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) throw std::runtime_error("cannot run " + cmd);
  std::string out;
  char buf[65536];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  const int status = pclose(p);
  std::remove(in.c_str());
  if (status != 0) throw std::runtime_error(cmd + " failed");
  std::vector<nlohmann::json> frames;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);)
    if (!line.empty()) {  // one object per address read from stdin (an array of one on the command line)
      auto j = nlohmann::json::parse(line);
      frames.push_back(j.is_array() ? j[0]["Symbol"] : j["Symbol"]);
    }
  return frames;
}

struct Compared {
  size_t compared = 0, inlined = 0, total = 0;
};

// Every code address of the ELF: our frames against llvm-addr2line's. `source` names the guest's
// own source file, where the outermost name is compared too.
Compared check_against_addr2line(const std::string& path, const std::string& source) {
  const auto elf = read_elf(path);
  const auto symbols = SymbolTable::from_elf(elf);
  const auto debug = DebugInfo::from_elf(elf);
  EXPECT_FALSE(debug.empty()) << debug.warning();
  std::vector<uint64_t> pcs;
  for (const auto& f : symbols.functions())
    for (uint64_t pc = f.start; pc < f.end; pc += 4) pcs.push_back(pc);
  const auto oracle = addr2line(path, pcs);
  EXPECT_EQ(oracle.size(), pcs.size());
  if (oracle.size() != pcs.size()) return {};
  size_t compared = 0, inlined = 0, mismatches = 0;
  for (size_t i = 0; i < pcs.size(); ++i) {
    const auto& want = oracle[i];  // innermost first
    const int range = debug.find_range(pcs[i]);
    const int f = symbols.find(pcs[i]);
    const auto got = debug.expand(range < 0 ? -1 : debug.ranges()[static_cast<size_t>(range)].location,
                                  symbols.functions()[static_cast<size_t>(f)].name);
    if (want.size() == 1 && want[0]["Line"] == 0) {  // addr2line knows no line here: neither may we
      EXPECT_EQ(got.back().line, 0u) << std::hex << pcs[i];
      continue;
    }
    ++compared;
    if (got.size() > 1) ++inlined;
    std::string diff;
    if (got.size() != want.size()) diff = "frames " + std::to_string(got.size()) + " vs " + std::to_string(want.size());
    for (size_t k = 0; diff.empty() && k < got.size(); ++k) {
      const auto& w = want[want.size() - 1 - k];
      const auto& g = got[k];
      // The outermost name is the ELF symbol's (profiler_test checks those); addr2line may name
      // a local label or an alias inside it instead (.LBB1_4, the __riscv_save_N entries), so
      // it is compared in the guest's own code only, where it is not a label.
      const std::string wname = w["FunctionName"];
      const bool guest_code = w["FileName"].get<std::string>().ends_with(source);
      if (k > 0 || (guest_code && wname.rfind(".L", 0) != 0))
        if (g.name != wname) diff = "name " + g.name + " vs " + wname;
      if (debug.file(g.file) != w["FileName"].get<std::string>() || g.line != w["Line"].get<uint32_t>())
        diff = "frame " + std::to_string(k) + " " + debug.file(g.file) + ":" + std::to_string(g.line) + " vs " +
               w["FileName"].get<std::string>() + ":" + std::to_string(w["Line"].get<uint32_t>());
    }
    if (!diff.empty() && ++mismatches <= 5) ADD_FAILURE() << "pc 0x" << std::hex << pcs[i] << ": " << diff;
  }
  EXPECT_EQ(mismatches, 0u) << path;
  return {compared, inlined, pcs.size()};
}

TEST(ProfileDwarf, EveryCodeAddressMatchesAddr2line) {
  const Compared c = check_against_addr2line(kGuest, "profile_inline.c");
  EXPECT_GT(c.compared, c.total / 2);
  EXPECT_GT(c.inlined, 20u) << "the guest's mix and step are inlined: many addresses have inlined frames";
}

// A C++ guest with the guest libstdc++: templates inlined from headers, demangled names.
TEST(ProfileDwarf, CxxGuestMatchesAddr2line) {
  const Compared c = check_against_addr2line(std::string(ZKRV_GUEST_PROGRAMS_DIR) + "/cxx_lifecycle.elf", "cxx_lifecycle.cpp");
  EXPECT_GT(c.compared, c.total / 2);
  EXPECT_GT(c.inlined, 100u);
}

// The line of the guest's source holding `text` (so that the test follows edits of the guest).
uint32_t source_line(const std::string& text) {
  std::ifstream f(std::string(ZKRV_SOURCE_DIR) + "/tests/tools/profile_inline.c");
  std::string line;
  for (uint32_t n = 1; std::getline(f, line); ++n)
    if (line.find(text) != std::string::npos) return n;
  throw std::runtime_error("profile_inline.c has no line with " + text);
}

struct GuestRun {
  std::vector<uint8_t> elf;
  SymbolTable symbols;
  DebugInfo debug;
  std::vector<spec::StepRecord> trace;
};

GuestRun traced_run() {
  GuestRun r;
  r.elf = read_elf(kGuest);
  r.symbols = SymbolTable::from_elf(r.elf);
  r.debug = DebugInfo::from_elf(r.elf);
  spec::ExecOptions opt;
  opt.trace = true;
  r.trace = ref::execute(*ref::load_elf(r.elf).image, {}, opt).trace;
  return r;
}

// Cycles per source line and inline depth: the profiler's, against the trace's pcs each looked
// up with llvm-addr2line; and the same profile whether it is fed the trace or control-flow events.
TEST(ProfileDwarf, CyclesPerLineMatchAddr2lineOfEveryCycle) {
  const GuestRun r = traced_run();
  ASSERT_FALSE(r.debug.empty()) << r.debug.warning();
  Profiler p(r.symbols, 1, 0, &r.debug);
  p.consume(r.trace);
  p.finish();
  ASSERT_EQ(p.cycles(), r.trace.size());
  std::map<uint64_t, uint64_t> per_pc;
  for (const auto& rec : r.trace) per_pc[rec.pc]++;
  std::vector<uint64_t> pcs;
  for (const auto& [pc, n] : per_pc) pcs.push_back(pc);
  const auto oracle = addr2line(kGuest, pcs);
  ASSERT_EQ(oracle.size(), pcs.size());
  std::map<std::string, uint64_t> want, got;  // "file:line depth" -> cycles
  for (size_t i = 0; i < pcs.size(); ++i) {
    const auto& inner = oracle[i][0];
    want[inner["FileName"].get<std::string>() + ":" + std::to_string(inner["Line"].get<uint32_t>()) + " " +
         std::to_string(oracle[i].size())] += per_pc[pcs[i]];
  }
  std::vector<uint64_t> per_node(p.nodes().size());
  for (const Leaf& l : p.leaves()) {
    const auto frames = r.debug.expand(l.location, p.function_name(p.nodes()[static_cast<size_t>(l.node)].func));
    const auto& f = frames.back();
    got[r.debug.file(f.file) + ":" + std::to_string(f.line) + " " + std::to_string(frames.size())] += l.self;
    per_node[static_cast<size_t>(l.node)] += l.self;
  }
  for (const auto& [where, n] : want)
    EXPECT_EQ(got.count(where) ? got[where] : 0, n) << where;
  for (const auto& [where, n] : got) EXPECT_TRUE(want.count(where)) << where;
  EXPECT_EQ(per_node, p.node_self());
  // The leaf frames of every sample (one per cycle) are addr2line's innermost frame at that pc.
  ASSERT_EQ(p.sample_locations().size(), r.trace.size());
  size_t wrong = 0;
  std::map<uint64_t, size_t> index;
  for (size_t i = 0; i < pcs.size(); ++i) index[pcs[i]] = i;
  for (size_t c = 0; c < r.trace.size(); ++c) {
    const auto frames = r.debug.expand(p.sample_locations()[c], "?");
    const nlohmann::json& inner = oracle[index[r.trace[c].pc]][0];
    if (frames.back().line != inner["Line"].get<uint32_t>() || (frames.size() > 1 && frames.back().name != inner["FunctionName"]))
      if (++wrong <= 3) ADD_FAILURE() << "cycle " << c << " pc 0x" << std::hex << r.trace[c].pc;
  }
  EXPECT_EQ(wrong, 0u);
  // Control-flow events give the same profile.
  Profiler q(r.symbols, 1, 0, &r.debug);
  spec::ExecOptions opt;
  opt.flow_sink = [&](std::span<const spec::FlowEvent> chunk) { q.consume_flow(chunk); };
  opt::execute(*ref::load_elf(r.elf).image, {}, opt);
  q.finish();
  ASSERT_EQ(q.nodes().size(), p.nodes().size());
  for (size_t n = 0; n < p.nodes().size(); ++n) EXPECT_EQ(q.nodes()[n].site, p.nodes()[n].site) << n;
  const auto lp = p.leaves(), lq = q.leaves();
  ASSERT_EQ(lq.size(), lp.size());
  for (size_t i = 0; i < lp.size(); ++i) EXPECT_TRUE(lq[i].node == lp[i].node && lq[i].location == lp[i].location && lq[i].self == lp[i].self) << i;
  EXPECT_EQ(q.samples(), p.samples());
  EXPECT_EQ(q.sample_locations(), p.sample_locations());
}

// The three formats show mix inlined into step inlined into main (and into checksum, a real
// call), at the lines of the guest's source.
TEST(ProfileDwarf, ReportsShowInlinedFramesAndLines) {
  const GuestRun r = traced_run();
  const uint32_t mix_line = source_line("x ^= x >> 29;"), step_line = source_line("return mix(x + i"),
                 main_calls_step = source_line("x = step(x, (uint64_t)i);"), main_calls_checksum = source_line("x ^= checksum(v, 64);"),
                 checksum_calls_step = source_line("s = step(s, v[i]);");
  Profiler p(r.symbols, 1, 0, &r.debug);
  p.consume(r.trace);
  p.finish();
  // Folded: inlined frames marked _[i]; the counts add up to the run.
  const std::string folded = folded_report(p);
  EXPECT_NE(folded.find("_start;__zkrv_start;main;step_[i];mix_[i] "), std::string::npos) << folded;
  EXPECT_NE(folded.find("_start;__zkrv_start;main;checksum;step_[i];mix_[i] "), std::string::npos) << folded;
  uint64_t total = 0;
  std::istringstream lines(folded);
  for (std::string line; std::getline(lines, line);) total += std::stoull(line.substr(line.rfind(' ') + 1));
  EXPECT_EQ(total, p.cycles());
  // Firefox: every frame its function and line; the callers' frames at the line of the call.
  const auto j = nlohmann::json::parse(firefox_profile(p, "test"));
  const auto& t = j["threads"][0];
  const auto &strings = t["stringTable"], &frames = t["frameTable"]["data"], &stacks = t["stackTable"]["data"];
  std::set<std::string> paths;
  for (const auto& sample : t["samples"]["data"]) {
    std::string path;
    for (auto s = sample[0]; !s.is_null(); s = stacks[s.get<size_t>()][0]) {
      const auto& f = frames[stacks[s.get<size_t>()][1].get<size_t>()];
      path = strings[f[0].get<size_t>()].get<std::string>() + ":" + (f[5].is_null() ? "-" : std::to_string(f[5].get<uint32_t>())) +
             (path.empty() ? "" : ";") + path;
    }
    if (const size_t at = path.find(";main:"); at != std::string::npos) paths.insert(path.substr(at + 1));
  }
  EXPECT_EQ(t["samples"]["data"].size(), p.cycles());
  const std::string in_main = "main:" + std::to_string(main_calls_step) + ";step:" + std::to_string(step_line) + ";mix:" + std::to_string(mix_line);
  const std::string in_checksum = "main:" + std::to_string(main_calls_checksum) + ";checksum:" + std::to_string(checksum_calls_step) +
                                  ";step:" + std::to_string(step_line) + ";mix:" + std::to_string(mix_line);
  EXPECT_TRUE(paths.count(in_main)) << in_main;
  EXPECT_TRUE(paths.count(in_checksum)) << in_checksum;
  // Text: tables by inlined function and by line.
  const std::string text = text_report(p, 50);
  EXPECT_NE(text.find("  mix [inlined]\n"), std::string::npos) << text;
  EXPECT_NE(text.find("profile_inline.c:" + std::to_string(mix_line) + "  mix\n"), std::string::npos) << text;
  // Without DWARF, none of it.
  Profiler plain(r.symbols, 1);
  plain.consume(r.trace);
  plain.finish();
  EXPECT_EQ(folded_report(plain).find("_[i]"), std::string::npos);
  EXPECT_EQ(text_report(plain, 50).find("(DWARF)"), std::string::npos);
}

// A malformed ELF or DWARF gives fewer or no locations and perhaps a warning, never a crash:
// truncations, and bytes flipped anywhere in the file (most land in the debug sections).
TEST(ProfileDwarf, MalformedInputNeverCrashes) {
  const auto elf = read_elf(kGuest);
  for (size_t cut : {size_t{0}, size_t{16}, size_t{64}, elf.size() / 3, elf.size() / 2, elf.size() - 1}) {
    const auto d = DebugInfo::from_elf(std::span(elf).first(cut));
    if (d.empty()) {
      EXPECT_FALSE(d.warning().empty()) << cut;
    }
  }
  uint64_t x = 0x243f6a8885a308d3ull;
  for (int round = 0; round < 300; ++round) {
    auto bad = elf;
    for (int k = 0; k < 8; ++k) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      bad[(x >> 17) % bad.size()] ^= static_cast<uint8_t>(1u << ((x >> 7) % 8));
    }
    const auto d = DebugInfo::from_elf(bad);
    for (const auto& range : d.ranges()) ASSERT_LT(range.start, range.end);
    for (size_t i = 0; i < d.ranges().size(); ++i) {
      const auto frames = d.expand(d.ranges()[i].location, "f");
      ASSERT_FALSE(frames.empty());
      (void)d.file(frames.back().file);
    }
  }
}

}  // namespace
}  // namespace zkrv::tools::profile
