// The optimized trace builder (optimized/trace) against the reference's (ref::air::build_trace):
// the same tables, column for column and row for row, at 1, 2 and 3 threads, for every example
// guest, every ISA conformance program that exits, and a batch of random programs. A difference
// names the table, column and row.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "optimized/air/check.h"
#include "optimized/exec/fast_executor.h"
#include "optimized/trace/trace.h"
#include "reference/air/trace.h"
#include "reference/elf/elf_loader.h"
#include "reference/stark/air.h"
#include "spec/air/embedded.h"
#include "tests/support/random_program.h"
#include "tools/common/files.h"

namespace zkrv {
namespace {

namespace fs = std::filesystem;

// The first difference between the two builders' traces; empty when they agree.
std::string first_difference(const ref::air::AirTrace& want, const opt::trace::BuiltTrace& got) {
  const auto& sp = spec::air::embedded_spec();
  if (got.tables.size() != sp.tables.size()) return "table count " + std::to_string(got.tables.size());
  for (size_t t = 0; t < sp.tables.size(); ++t) {
    const auto& st = sp.tables[t];
    const ref::air::TraceTable& w = want.table(st.name);
    const opt::air::TableColumns& g = got.tables[t];
    if (g.height != w.height()) return st.name + ": height " + std::to_string(g.height) + ", want " + std::to_string(w.height());
    if (g.columns.size() != st.columns.size()) return st.name + ": width " + std::to_string(g.columns.size());
    for (size_t c = 0; c < st.columns.size(); ++c) {
      const size_t k = w.col(st.columns[c].name);
      if (g.columns[c].size() != g.height) return st.name + "." + st.columns[c].name + ": column length";
      for (size_t r = 0; r < g.height; ++r) {
        const uint64_t want_v = opt::Fp::from_u64(w.rows[r][k]).value(), got_v = g.columns[c][r].value();
        if (want_v != got_v)
          return st.name + "." + st.columns[c].name + " row " + std::to_string(r) + ": " + std::to_string(got_v) +
                 ", want " + std::to_string(want_v);
      }
    }
  }
  const auto& names = ref::stark::air_layout().publics;
  if (got.publics.size() != names.size()) return "public count";
  for (size_t i = 0; i < names.size(); ++i)
    if (got.publics[i].value() != want.publics.at(names[i])) return "public " + names[i];
  return "";
}

// The longest run compared: 2^17 cycles by default (the reference builder needs about 15 s per
// 2^17 cycles here); ZKRV_TRACE_MAX_CYCLES sets it (trace.fast_builder.long: 2^21).
uint64_t max_cycles() {
  const char* env = std::getenv("ZKRV_TRACE_MAX_CYCLES");
  return env ? std::strtoull(env, nullptr, 0) : uint64_t{1} << 17;
}

// Builds both ways and compares; returns false for a run that does not exit (nothing to compare).
bool agree(const spec::ProgramImage& image, const std::vector<uint8_t>& input, const std::string& what) {
  spec::ExecOptions opt;
  opt.max_cycles = max_cycles();
  spec::ExecOptions traced = opt;
  traced.trace = true;
  const auto run = opt::execute(image, input, traced);
  for (unsigned threads : {1u, 2u, 3u}) {
    const auto got = opt::trace::build_trace(image, input, opt, threads);
    EXPECT_EQ(got.run.status, run.status) << what;
    EXPECT_EQ(got.run.cycles, run.cycles) << what;
    if (run.status != spec::ExitStatus::kExited) {
      EXPECT_TRUE(got.tables.empty()) << what;
      return false;
    }
    static std::optional<ref::air::AirTrace> want;  // built once per program
    if (threads == 1) want = ref::air::build_trace(image, run);
    const std::string d = first_difference(*want, got);
    EXPECT_EQ(d, "") << what << " at " << threads << " threads";
    if (!d.empty()) return true;
  }
  return true;
}

struct Program {
  spec::ProgramImage image;
  std::vector<uint8_t> input;
};
std::optional<Program> load(const fs::path& elf) {
  const auto bytes = tools::read_file(elf.string(), 1 << 30, "guest");
  if (!bytes.bytes) return std::nullopt;
  auto loaded = ref::load_elf(*bytes.bytes);
  if (!loaded.image) return std::nullopt;
  Program p{*loaded.image, {}};
  const auto input = tools::read_file(std::string(ZKRV_SOURCE_DIR) + "/guest/programs/" + elf.stem().string() + ".input",
                                      1 << 24, "input");
  if (input.bytes) p.input = *input.bytes;
  return p;
}

std::vector<fs::path> elfs_in(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".elf") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(FastTrace, EqualsTheReferenceOnEveryExampleGuest) {
  size_t built = 0;
  std::string other;
  for (const auto& elf : elfs_in(ZKRV_GUEST_PROGRAMS_DIR)) {
    const auto p = load(elf);
    ASSERT_TRUE(p) << elf;
    if (agree(p->image, p->input, elf.filename().string())) ++built;
    else other += " " + elf.stem().string();
  }
  std::printf("%zu guests built and equal (up to %llu cycles); faulted or longer:%s\n", built,
              static_cast<unsigned long long>(max_cycles()), other.c_str());
  EXPECT_GE(built, 10u);  // the others are the fail_* guests, which fault on purpose, and the long ones
}

TEST(FastTrace, EqualsTheReferenceOnEveryIsaProgram) {
  size_t built = 0, faulted = 0;
  for (const auto& elf : elfs_in(ZKRV_ISA_DIR)) {
    const auto p = load(elf);
    ASSERT_TRUE(p) << elf;
    (agree(p->image, p->input, elf.filename().string()) ? built : faulted) += 1;
  }
  std::printf("%zu ISA programs built and equal; %zu fault (no tables)\n", built, faulted);
  EXPECT_GE(built, 10u);
  EXPECT_GE(faulted, 10u);  // the conformance suite's fault programs
}

TEST(FastTrace, EqualsTheReferenceOnRandomPrograms) {
  const char* env = std::getenv("ZKRV_TRACE_RANDOM_COUNT");
  const uint64_t count = env ? std::strtoull(env, nullptr, 0) : 40;
  size_t built = 0;
  for (uint64_t seed = 1; seed <= count; ++seed) {
    const auto prog = testing::random_program(seed, {.body_instructions = 400, .fault_rate = 0.1});
    auto loaded = ref::load_elf(prog.elf);
    ASSERT_TRUE(loaded.image) << "seed " << seed;
    built += agree(*loaded.image, {}, "random program seed " + std::to_string(seed));
  }
  EXPECT_GE(built, count / 2);
}

// The builder's own failure: a run that faults gives no tables (the caller reports the fault).
TEST(FastTrace, AFaultingRunHasNoTables) {
  uint64_t seed = 1;
  while (!testing::random_program(seed, {.body_instructions = 50, .fault_rate = 1.0}).expects_fault) ++seed;
  const auto prog = testing::random_program(seed, {.body_instructions = 50, .fault_rate = 1.0});
  auto loaded = ref::load_elf(prog.elf);
  ASSERT_TRUE(loaded.image);
  const auto got = opt::trace::build_trace(*loaded.image, {}, {}, 2);
  EXPECT_EQ(got.run.status, spec::ExitStatus::kFaulted);
  EXPECT_TRUE(got.tables.empty());
}

// What the builder produces is what the fast checker accepts (and a changed cell is caught).
TEST(FastTrace, TheGeneratedCheckerAcceptsItsTables) {
  const auto p = load(fs::path(ZKRV_GUEST_PROGRAMS_DIR) / "quicksort.elf");
  ASSERT_TRUE(p);
  auto got = opt::trace::build_trace(p->image, p->input, {}, 2);
  ASSERT_FALSE(got.tables.empty());
  EXPECT_TRUE(opt::air::fast_check(got.tables, got.publics, 5).ok());
  const auto& sp = spec::air::embedded_spec();
  auto& pc = got.tables[static_cast<size_t>(sp.table("cpu") - sp.tables.data())]
                 .columns[static_cast<size_t>(sp.table("cpu")->column_index("pc"))][100];
  pc = pc + opt::Fp::from_u64(4);
  EXPECT_FALSE(opt::air::fast_check(got.tables, got.publics, 5).ok());
}

}  // namespace
}  // namespace zkrv
