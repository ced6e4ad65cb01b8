// The reference AIR checker against real and mutated traces (the air_test executable, whose
// files air_fixture.h lists):
//  - completeness: every example guest and ISA conformance program that exits passes, and the
//    reference evaluator agrees with the spec interpreter on every row (three-way agreement);
//    random rows agree too;
//  - negative tests: for every constraint and bus ID a mutation of a valid trace that it
//    rejects, plus the fault classes this slice covers (pc changed, instruction word changed,
//    a byte of the program image changed, the exit moved) (air_mutations*.cpp; the verifier
//    rejects their proofs: air_prove_mutations.cpp);
//  - adequacy: with each constraint switched off in turn, some mutation must be accepted
//    (air_mutations.cpp);
//  - lint: every spec ID is implemented once in reference/air/evaluate/<table>.cpp, in spec
//    order, the evaluator names no ID the spec lacks, and every constraint and bus ID has a
//    negative test.
// ZKRV_AIR_MAX_CYCLES (default 2^17) bounds the programs of the completeness test; the `long`
// label runs it up to 2^20.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <sstream>

#include "optimized/exec/fast_executor.h"
#include "reference/air/interpret.h"
#include "spec/air/embedded.h"
#include "tests/air/air_fixture.h"

namespace zkrv::ref::air::fixture {
namespace {

namespace fs = std::filesystem;

TEST(Air, BaseTracesPass) {
  for (const AirTrace* t : {&fib(), &mini(), &jumps(), &indirect(), &alu_prog(), &exit_prog(), &mem_prog(), &div_prog(), &sys_prog(), &merge_prog(), &log_prog(), &big_read_prog(), &far_prog()}) {
    const auto rep = check_trace(*t);
    EXPECT_TRUE(rep.ok()) << rep.summary();
    EXPECT_FALSE(spec_disagreement(the_spec(), *t));
  }
}

// The spec's `padding` statements are the rows the trace builder pads with: every row of a table
// with is_real that is not real is that row (cpu: wr_zero = 1, clk its index), on every base
// program of the negative suite. (The tables without is_real pad with zero rows, which the
// statement says.)
TEST(Air, PaddingRowsAreTheRowsTheSpecDeclares) {
  size_t checked = 0;
  for (const auto& trace : {fib(), alu_prog(), mem_prog(), div_prog(), sys_prog()})
    for (const auto& table : the_spec().tables) {
      if (!table.padding) continue;
      const auto& tt = trace.table(table.name);
      if (std::find(tt.columns.begin(), tt.columns.end(), "is_real") == tt.columns.end()) continue;
      for (size_t r = 0; r < tt.height(); ++r) {
        if (tt.rows[r][tt.col("is_real")]) continue;
        std::vector<uint64_t> expect(tt.columns.size(), 0);
        for (const auto& [col, v] : table.padding->fixed) expect[tt.col(col)] = v;
        for (const auto& col : table.padding->counting) expect[tt.col(col)] = r;
        ASSERT_EQ(tt.rows[r], expect) << table.name << " row " << r;
        ++checked;
      }
    }
  EXPECT_GT(checked, 100u);
}

// Determinism of the free columns: a `free COL unless EXPR` mark says that nothing reads COL where
// EXPR is 0 (spec/README.md), so any value there proves; the trace builder writes 0 there, so
// that one run gives one trace and one proof (tables/cpu.md, "The free columns"). Every mark,
// on every row of these traces where its expression is 0 (a next-row name reads 0 past the last
// row), finds 0. Each mark must be met on a real row (padding rows are Air.PaddingRowsAreTheRows-
// TheSpecDeclares's), or the check says nothing of it.
TEST(Air, TheTraceBuilderWritesZeroInAFreeColumnWhereNothingReadsIt) {
  std::map<std::string, size_t> met;  // "table.column": real rows where its expression is 0
  for (const AirTrace* trace : {&fib(), &alu_prog(), &exit_prog(), &mem_prog(), &div_prog(), &sys_prog(), &log_prog(),
                                &big_read_prog(), &far_prog()})
    for (const auto& table : the_spec().tables) {
      const auto& tt = trace->table(table.name);
      for (const auto& mark : table.free) {
        const size_t c = tt.col(mark.column);
        const bool has_real = std::find(tt.columns.begin(), tt.columns.end(), "is_real") != tt.columns.end();
        auto& count = met[table.name + "." + mark.column];
        for (size_t r = 0; r < tt.height(); ++r) {
          const uint64_t unless = spec::air::eval(*mark.unless, [&](const std::string& name, bool next) -> uint64_t {
            if (const auto it = trace->publics.find(name); it != trace->publics.end()) return it->second;
            if (next) return r + 1 < tt.height() ? tt.rows[r + 1][tt.col(name)] : 0;
            return tt.rows[r][tt.col(name)];
          });
          if (unless != 0) continue;
          count += !has_real || tt.rows[r][tt.col("is_real")] == 1;  // padding rows: Air.PaddingRows...
          ASSERT_EQ(tt.rows[r][c], 0u) << table.name << " row " << r << ": " << mark.column << " where "
                                       << spec::air::to_string(*mark.unless) << " = 0";
        }
      }
    }
  for (const auto& [mark, count] : met) EXPECT_GT(count, 0u) << mark << ": its expression is 0 on no real row of these traces";
}

// Edge cases that broke other zkVMs, in one executed program whose code sits just below 2^32:
// rs1 == rs2, rd == rs1, a write to x0 that must not stick, LUI's sign extension, AUIPC whose sum
// crosses 2^32, JALR near the top of the address space. The honest trace passes; each result
// changed (and everything downstream rebuilt) is rejected. (Misaligned accesses across a page
// boundary, a load of never-written memory, a store into read-only memory: mem_prog and its
// mutations; the division edge cases are in Air.DivisionEdgeCases.)
TEST(Air, EdgeCases) {
  const std::vector<std::pair<uint32_t, const char*>> program = {
      {0x00300293, "addi x5, x0, 3"},   {0x005282b3, "add x5, x5, x5 (rs1 == rs2 == rd)"},
      {0x00128293, "addi x5, x5, 1 (rd == rs1)"}, {0x00500013, "addi x0, x0, 5 (does not stick)"},
      {0x00000333, "add x6, x0, x0 (reads x0 = 0)"}, {0x800003b7, "lui x7, 0x80000 (sign-extended)"},
      {0x7ffff417, "auipc x8, 0x7ffff (the sum crosses 2^32)"}, {0x00000497, "auipc x9, 0"},
      {0x00848567, "jalr x10, 8(x9) (near 2^32)"}, {0x05d00893, "addi x17, x0, 93"},
      {0x00000513, "addi x10, x0, 0"}, {0x00000073, "ecall"}};
  spec::ProgramImage img;
  img.entry = 0xfffff000;
  std::vector<uint8_t> code;
  for (const auto& [w, what] : program)
    for (int k = 0; k < 4; ++k) code.push_back(static_cast<uint8_t>(w >> (8 * k)));
  img.segments.push_back({0xfffff000, code.size(), spec::kFlagR | spec::kFlagX, code});
  spec::ExecOptions o;
  o.trace = true;
  const auto run = opt::execute(img, {}, o);
  ASSERT_EQ(run.status, spec::ExitStatus::kExited) << spec::describe(run.fault);
  EXPECT_EQ(run.regs[5], 7u);
  EXPECT_EQ(run.regs[6], 0u);
  EXPECT_EQ(run.regs[7], 0xffffffff80000000ull);
  EXPECT_EQ(run.regs[8], 0xfffff018ull + 0x7ffff000ull);
  const AirTrace base = build_trace(img, run);
  const auto ok = check_trace(base);
  ASSERT_TRUE(ok.ok()) << ok.summary();
  EXPECT_FALSE(spec_disagreement(the_spec(), base));
  for (size_t r = 0; r + 1 < program.size(); ++r) {
    AirTrace t = base;
    const bool x0 = get(t, "cpu", r, "wr") == 0;
    if (get(t, "cpu", r, "f_jalr")) {  // the link (the jump itself is jalr_target's)
      set_limbs(t, r, "d_v", limbs_value(t, r, "d_v") ^ 4);
      rebalance(t);
    } else if (x0) {
      set_limbs(t, r, "d_v", 5);  // the write sticks
      rebalance(t);
    } else {
      forge_result(t, r, limbs_value(t, r, "d_v") ^ 1);
    }
    EXPECT_FALSE(check_trace(t).ok()) << program[r].second << ": a changed result passes";
  }
}

// Division edge cases (div_prog): x/0 and x%0 for every form, -2^63 / -1 and -2^31 / -1 for
// every signed form, DIVW/REMW sign handling, W forms whose operands have bits above 31, signed
// remainders of both signs. Each result is checked against a value computed independently of the
// executor and of the trace builder (by hand, recorded here), the honest trace passes, and for
// every division three changed results (bit 0, bit 32, bit 63 flipped; everything downstream
// rebuilt) are rejected by a constraint of the div table.
TEST(Air, DivisionEdgeCases) {
  const std::vector<std::pair<uint32_t, uint64_t>> expected = {
      {0x02324533, 0xfffffffffffffffeull},  // div x10, x4, x3: -20 / 7 = -2
      {0x023265b3, 0xfffffffffffffffaull},  // rem x11, x4, x3: -20 % 7 = -6
      {0x02325633, 0x249249249249248full},  // divu x12, x4, x3
      {0x023276b3, 0x0000000000000003ull},  // remu x13, x4, x3
      {0x0220c733, 0x8000000000000000ull},  // div x14, x1, x2: -2^63 / -1 = -2^63 (overflow)
      {0x0220e7b3, 0x0000000000000000ull},  // rem x15, x1, x2: -2^63 % -1 = 0
      {0x02524833, 0xffffffffffffffffull},  // div x16, x4, x5: -20 / 0 = -1
      {0x025268b3, 0xffffffffffffffecull},  // rem x17, x4, x5: -20 % 0 = -20
      {0x02525933, 0xffffffffffffffffull},  // divu x18, x4, x5: / 0 = 2^64 - 1
      {0x025279b3, 0xffffffffffffffecull},  // remu x19, x4, x5: % 0
      {0x02234a3b, 0xffffffff80000000ull},  // divw x20, x6, x2: -2^31 / -1 = -2^31 (W overflow)
      {0x02236abb, 0x0000000000000000ull},  // remw x21, x6, x2: -2^31 % -1 = 0
      {0x02324b3b, 0xfffffffffffffffeull},  // divw x22, x4, x3: -20 / 7 = -2
      {0x02326bbb, 0xfffffffffffffffaull},  // remw x23, x4, x3: -6
      {0x02325c3b, 0x0000000024924921ull},  // divuw x24, x4, x3: 0xffffffec / 7
      {0x02327cbb, 0x0000000000000005ull},  // remuw x25, x4, x3
      {0x02524d3b, 0xffffffffffffffffull},  // divw x26, x4, x5: / 0 = -1
      {0x02526dbb, 0xffffffffffffffecull},  // remw x27, x4, x5: % 0 = -20
      {0x02525e3b, 0xffffffffffffffffull},  // divuw x28, x4, x5: / 0 = -1
      {0x02527ebb, 0xffffffffffffffecull},  // remuw x29, x4, x5: % 0 = sext32(x)
      {0x0241cf33, 0x0000000000000000ull},  // div x30, x3, x4: 7 / -20 = 0
      {0x0241efb3, 0x0000000000000007ull},  // rem x31, x3, x4: 7 % -20 = 7
      {0x0292453b, 0xfffffffffffffffeull},  // divw x10, x4, x9: b has bits above 31
      {0x0234d5bb, 0x0000000000000001ull},  // divuw x11, x9, x3: a has bits above 31
      {0x0230c633, 0xedb6db6db6db6db7ull},  // div x12, x1, x3: -2^63 / 7
      {0x0220d6b3, 0x0000000000000000ull},  // divu x13, x1, x2: 2^63 / (2^64 - 1) = 0
      {0x02426733, 0x0000000000000000ull},  // rem x14, x4, x4: -20 % -20 = 0
      {0x021247b3, 0x0000000000000000ull},  // div x15, x4, x1: -20 / -2^63 = 0
      {0x02315833, 0x2492492492492492ull},  // divu x16, x2, x3: (2^64 - 1) / 7
      {0x02745933, 0x0000000000000003ull},  // divu x18, x8, x7: 3
      {0x027479b3, 0x0000000000000004ull},  // remu x19, x8, x7: 4
      {0x02744a33, 0x0000000000000003ull},  // div x20, x8, x7: 3
      {0x02336abb, 0xfffffffffffffffeull},  // remw x21, x6, x3: -2^31 % 7
      {0x02614b3b, 0x0000000000000000ull},  // divw x22, x2, x6: -1 / -2^31 = 0
  };
  const AirTrace& base = div_prog();
  const auto ok = check_trace(base);
  ASSERT_TRUE(ok.ok()) << ok.summary();
  for (const auto& [word, value] : expected) {
    const size_t r = row_with_insn(base, word);
    EXPECT_EQ(limbs_value(base, r, "d_v"), value) << std::hex << word;
    for (int bit : {0, 32, 63}) {
      AirTrace t = base;
      forge_result(t, r, value ^ (uint64_t{1} << bit));
      const auto rep = check_trace(t);
      bool by_div = false;
      for (const auto& id : rep.failing_ids) by_div = by_div || id.rfind("div:", 0) == 0;
      EXPECT_TRUE(by_div) << std::hex << word << ": result bit " << std::dec << bit << " flipped: " << rep.summary();
    }
  }
}

TEST(Air, CompletenessOnGuestsAndConformancePrograms) {
  const char* env = std::getenv("ZKRV_AIR_MAX_CYCLES");
  const uint64_t limit = env ? std::strtoull(env, nullptr, 0) : uint64_t{1} << 17;
  size_t checked = 0, skipped = 0;
  for (const auto& dir : {fs::path(ZKRV_GUEST_PROGRAMS_DIR), fs::path(ZKRV_ISA_DIR)}) {
    std::vector<fs::path> elfs;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".elf") elfs.push_back(e.path());
    std::sort(elfs.begin(), elfs.end());
    for (const auto& elf : elfs) {
      const auto input = fs::path(ZKRV_SOURCE_DIR) / "guest/programs" / (elf.stem().string() + ".input");
      const auto run = run_elf(elf, input, limit);
      ASSERT_TRUE(run) << elf;
      if (run->result.status != spec::ExitStatus::kExited) {
        ++skipped;  // faults (conformance fault programs) and runs longer than the limit
        continue;
      }
      const auto trace = build_trace(run->image, run->result);
      const auto rep = check_trace(trace);
      EXPECT_TRUE(rep.ok()) << elf.filename() << ": " << rep.summary();
      const auto d = spec_disagreement(the_spec(), trace);
      EXPECT_FALSE(d) << elf.filename() << ": " << *d;
      ++checked;
    }
  }
  std::printf("checked %zu programs (up to %llu cycles); %zu faulted or ran longer\n", checked,
              static_cast<unsigned long long>(limit), skipped);
  EXPECT_GE(checked, 20u);
}

TEST(Air, ReferenceAndSpecAgreeOnRandomRows) {
  std::mt19937_64 g(77);
  for (int round = 0; round < 20; ++round) {
    AirTrace t = fib();
    for (auto& tab : t.tables) {
      tab.rows.resize(std::min<size_t>(tab.height(), 64));
      for (auto& row : tab.rows)
        for (auto& v : row) v = (g() % 4 == 0) ? g() % P : g() % 3;  // small values and random field elements
    }
    const auto d = spec_disagreement(the_spec(), t);
    EXPECT_FALSE(d) << *d;
  }
}

// The lint: the evaluator implements each table document spec/tables/<doc>.md in
// reference/air/evaluate/<doc>.cpp, whose `// spec: <id>` comments are that document's
// constraint and bus IDs, each once, in document order; no other file of the evaluator
// (evaluate.h, evaluate.cpp, the rest of evaluate/) names an ID, so the code names no ID the spec
// lacks and none twice; and every constraint and bus ID has a negative test.
// Each table file names every constraint and bus ID of its document once, in spec order, for
// each AIR: `// spec: <id>` where both AIRs share the statement, `// spec whole: <id>` and
// `// spec segmented: <id>` where it is one AIR's (spec/tables/air.md, "A whole run and a segment").
TEST(AirLint, EvaluatorMirrorsTheSpec) {
  const fs::path air = fs::path(ZKRV_SOURCE_DIR) / "reference/air";
  const std::regex id_comment(R"(// spec( whole| segmented)?: ([a-z0-9_]+:[cba]:[a-z0-9_]+))");
  auto ids_in = [&](const fs::path& file, const char* mode) {
    std::ifstream in(file);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string code = ss.str();
    std::vector<std::string> ids;
    for (auto it = std::sregex_iterator(code.begin(), code.end(), id_comment); it != std::sregex_iterator(); ++it)
      if (!(*it)[1].matched || (*it)[1].str() == std::string(" ") + mode) ids.push_back((*it)[2]);
    return ids;
  };
  std::vector<std::string> in_spec;
  std::set<fs::path> table_files;
  for (const spec::air::Mode mode : {spec::air::Mode::kWhole, spec::air::Mode::kSegmented}) {
    const char* name = spec::air::mode_name(mode);
    for (const auto& t : spec::air::embedded_spec(mode).tables) {  // one table per document, in spec order
      std::vector<std::string> ids;
      for (const auto& id : t.ids)
        if (id.find(":a:") == std::string::npos) ids.push_back(id);  // assumptions have no code
      if (ids.empty()) continue;
      const fs::path file = air / "evaluate" / (fs::path(t.file).stem().string() + ".cpp");
      EXPECT_TRUE(fs::is_regular_file(file)) << file << " must implement " << t.file;
      EXPECT_EQ(ids_in(file, name), ids) << file << " must implement every constraint and bus ID of " << t.file
                                         << " in the " << name << " AIR once, in spec order";
      table_files.insert(file);
      if (mode == spec::air::Mode::kWhole) in_spec.insert(in_spec.end(), ids.begin(), ids.end());
    }
  }
  std::vector<fs::path> others = {air / "evaluate.h", air / "evaluate.cpp"};
  for (const auto& e : fs::recursive_directory_iterator(air / "evaluate"))
    if (e.is_regular_file() && !table_files.count(e.path())) others.push_back(e.path());
  for (const auto& file : others)
    for (const char* mode : {"whole", "segmented"})
      EXPECT_EQ(ids_in(file, mode), std::vector<std::string>{}) << file << " is not a table's file: it must name no spec ID";
  // the whole run's negative suite (the segment AIR's: segment_air_test)
  const auto muts = mutations();
  for (const auto& id : in_spec)
    EXPECT_TRUE(std::any_of(muts.begin(), muts.end(), [&](const Mutation& m) { return m.expect == id; }))
        << id << " has no negative test";
}

}  // namespace
}  // namespace zkrv::ref::air::fixture
