// The optimized run-segment builder (optimized/trace/segments.h) against the reference's
// (ref::air::build_segment_traces): the same tables of the segment AIR, column for column and row
// for row, and the same publics, at 1 and 2 threads, for example guests, a program whose reads,
// writes and short read fall in different segments, and random programs. A difference names the
// segment, table, column and row. Its segments also pass the reference's check of the bundle.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "optimized/exec/fast_executor.h"
#include "optimized/trace/segments.h"
#include "reference/air/segment_trace.h"
#include "reference/elf/elf_loader.h"
#include "reference/exec/executor.h"
#include "spec/air/embedded.h"
#include "spec/run_segments.h"
#include "tests/support/elf_builder.h"
#include "tests/support/opt_from_rows.h"
#include "tests/support/random_program.h"
#include "tools/common/files.h"

namespace zkrv {
namespace {

// The first difference between segment s of the two builders; empty when they agree.
std::string first_difference(const ref::air::AirTrace& want, const opt::trace::SegmentTrace& got, size_t s) {
  const auto& sp = spec::air::embedded_spec(spec::air::Mode::kSegmented);
  const std::string at = "segment " + std::to_string(s) + ": ";
  if (got.tables.size() != sp.tables.size()) return at + "table count " + std::to_string(got.tables.size());
  for (size_t t = 0; t < sp.tables.size(); ++t) {
    const auto& st = sp.tables[t];
    const ref::air::TraceTable& w = want.table(st.name);
    const opt::air::TableColumns& g = got.tables[t];
    if (g.height != w.height()) return at + st.name + ": height " + std::to_string(g.height) + ", want " + std::to_string(w.height());
    if (g.columns.size() != st.columns.size()) return at + st.name + ": width " + std::to_string(g.columns.size());
    for (size_t c = 0; c < st.columns.size(); ++c) {
      const size_t k = w.col(st.columns[c].name);
      if (g.columns[c].size() != g.height) return at + st.name + "." + st.columns[c].name + ": column length";
      for (size_t r = 0; r < g.height; ++r) {
        const uint64_t want_v = opt::Fp::from_u64(w.rows[r][k]).value(), got_v = g.columns[c][r].value();
        if (want_v != got_v)
          return at + st.name + "." + st.columns[c].name + " row " + std::to_string(r) + ": " + std::to_string(got_v) +
                 ", want " + std::to_string(want_v);
      }
    }
  }
  if (got.publics.size() != sp.publics.size()) return at + "public count";
  for (size_t i = 0; i < sp.publics.size(); ++i)
    if (got.publics[i].value() != want.publics.at(sp.publics[i].name)) return at + "public " + sp.publics[i].name;
  return "";
}

// Cuts the run into segments of 2^k cycles, builds them both ways and compares; returns how many
// segments there were.
size_t agree(const spec::ProgramImage& image, const std::vector<uint8_t>& input, unsigned k, const std::string& what) {
  const test::SegmentedRun ref_run = test::segmented_run(image, input, k);
  const spec::RunPlan& plan = ref_run.plan;
  const spec::ExecResult& planned = ref_run.run;
  EXPECT_EQ(planned.status, spec::ExitStatus::kExited) << what;
  if (planned.status != spec::ExitStatus::kExited) return 0;
  const auto& want = ref_run.segments;
  for (unsigned threads : {1u, 2u}) {
    size_t seen = 0;
    std::string diff;
    opt::trace::build_segment_traces(image, input, {}, plan, planned, threads,
                                     [&](size_t s, opt::trace::SegmentTrace&& got) {
                                       EXPECT_EQ(s, seen) << what;
                                       ++seen;
                                       if (diff.empty() && s < want.size()) diff = first_difference(want[s], got, s);
                                     });
    EXPECT_EQ(seen, plan.count()) << what;
    EXPECT_EQ(diff, "") << what << " at " << threads << " threads";
  }
  return plan.count();
}

spec::ProgramImage guest(const std::string& name, std::vector<uint8_t>* input) {
  auto bytes = tools::read_file(std::string(ZKRV_GUEST_PROGRAMS_DIR) + "/" + name + ".elf", 1 << 30, "guest");
  if (!bytes.bytes) throw std::runtime_error(bytes.error);
  auto in = tools::read_file(std::string(ZKRV_SOURCE_DIR) + "/guest/programs/" + name + ".input", 1 << 20, "input");
  if (in.bytes) *input = *in.bytes;
  return *ref::load_elf(*bytes.bytes).image;
}

TEST(SegmentBuilder, EqualsTheReferenceOnExampleGuests) {
  for (const auto& [name, k] : {std::pair{"fibonacci", 10u}, {"cost_scopes", 13u}, {"zero_init", 12u}}) {
    std::vector<uint8_t> input;
    EXPECT_GE(agree(guest(name, &input), input, k, name), 2u) << name;
  }
}

// The echo program (tests/support/elf_builder.h): reads, writes and a short read in different
// segments.
TEST(SegmentBuilder, EqualsTheReferenceWhereTheInputAndOutputCrossSegments) {
  const auto image = *ref::load_elf(testing::echo_elf()).image;
  EXPECT_GE(agree(image, testing::kEchoInput, 10, "echo"), 3u);
}

TEST(SegmentBuilder, EqualsTheReferenceOnRandomPrograms) {
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    const auto prog = testing::random_program(seed * 0x9E3779B97F4A7C15ull, {.body_instructions = 2500});
    EXPECT_GE(agree(*ref::load_elf(prog.elf).image, {}, 10, "seed " + std::to_string(seed)), 2u);
  }
}

TEST(SegmentBuilder, RefusesARunThatIsNotThePlannedOne) {
  std::vector<uint8_t> input;
  const auto image = guest("fibonacci", &input);
  spec::RunPlanner planner(image, 10);
  spec::ExecOptions o;
  spec::attach(planner, o);
  const spec::ExecResult planned = opt::execute(image, input, o);
  const spec::RunPlan plan = planner.finish(planned);
  spec::ExecResult other = planned;
  other.cycles += 1;
  EXPECT_THROW(opt::trace::build_segment_traces(image, input, {}, plan, other, 1, [](size_t, opt::trace::SegmentTrace&&) {}),
               std::invalid_argument);
}

}  // namespace
}  // namespace zkrv
