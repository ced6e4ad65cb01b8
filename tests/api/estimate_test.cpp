// The prover's memory check happens before any table is built: its table heights come from one
// execution (api/estimate.h). They must be the heights the trace builder then makes, for every
// example guest that is proven as one proof, or the estimate is of another trace.
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "api/estimate.h"
#include "optimized/trace/segments.h"
#include "optimized/trace/trace.h"
#include "reference/elf/elf_loader.h"
#include "reference/stark/air.h"

namespace {

std::vector<uint8_t> read(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// Every example guest: its name, its image and the input it takes (the alloc_stress builds share
// theirs; none for the others).
struct Example {
  std::string name;
  zkrv::spec::ProgramImage image;
  std::vector<uint8_t> input;
};
std::vector<Example> examples() {
  const std::string programs = ZKRV_GUEST_PROGRAMS_DIR, sources = ZKRV_GUEST_SOURCES_DIR;
  std::vector<Example> out;
  for (const auto& entry : std::filesystem::directory_iterator(programs)) {
    if (entry.path().extension() != ".elf") continue;
    const std::string name = entry.path().stem();
    const auto loaded = zkrv::ref::load_elf(read(entry.path()));
    EXPECT_TRUE(loaded.ok()) << name;
    if (!loaded.ok()) continue;
    Example e{name, *loaded.image, {}};
    for (const std::string& in : {sources + "/" + name + ".input", sources + "/" + name.substr(0, name.rfind('_')) + ".input"})
      if (std::filesystem::exists(in)) {
        e.input = read(in);
        break;
      }
    out.push_back(std::move(e));
  }
  return out;
}

TEST(Estimate, PredictedHeightsAreTheBuiltOnes) {
  const auto& layout = zkrv::ref::stark::air_layout();
  size_t checked = 0;
  for (const Example& ex : examples()) {
    const std::string& name = ex.name;
    const zkrv::spec::ProgramImage* const image = &ex.image;
    const std::vector<uint8_t>& input = ex.input;
    zkrv::spec::ExecOptions exec;
    exec.max_cycles = uint64_t{1} << 20;  // the default segment: longer runs are bundles
    const zkrv::api::FirstRun first = zkrv::api::execute_first(*image, input, exec, 20);
    if (first.run.status != zkrv::spec::ExitStatus::kExited) continue;  // faults and bundles are not one proof
    const auto predicted = zkrv::api::predicted_heights(*image, first.run.output, first.counts);
    const auto built = zkrv::opt::trace::build_trace(*image, input, exec, 0);
    ASSERT_EQ(built.tables.size(), predicted.size());
    for (size_t t = 0; t < predicted.size(); ++t)
      EXPECT_EQ(predicted[t], built.tables[t].height) << name << ": table " << layout.tables[t].name;
    ++checked;
  }
  EXPECT_GE(checked, 20u) << "example guests checked";
}

// A bundle's memory check takes each segment's heights from the same execution: they must be the
// heights the segment builder makes, segment by segment, for every example guest cut into
// segments of 2^12 cycles (the runs of up to 2^19 cycles, to keep the test short); and the
// instruction classes counted per segment from the steps add up to the executor's own statistics.
TEST(Estimate, PredictedSegmentHeightsAreTheBuiltOnes) {
  const auto& layout = zkrv::ref::stark::air_layout(zkrv::spec::air::Mode::kSegmented);
  constexpr unsigned k = 12;
  size_t checked = 0, segments = 0;
  for (const Example& ex : examples()) {
    const std::string& name = ex.name;
    const zkrv::spec::ProgramImage* const image = &ex.image;
    const std::vector<uint8_t>& input = ex.input;
    zkrv::spec::ExecOptions exec;
    exec.max_cycles = uint64_t{1} << 19;
    const zkrv::api::FirstRun first = zkrv::api::execute_first(*image, input, exec, k);
    if (first.run.status != zkrv::spec::ExitStatus::kExited || first.run.cycles <= (uint64_t{1} << k)) continue;
    const auto& counts = first.counts;
    ASSERT_EQ(counts.segment_classes.size(), first.plan->count()) << name;
    std::array<uint64_t, static_cast<size_t>(zkrv::spec::InsnClass::kCount)> per_class{};
    for (size_t s = 0; s < counts.segment_classes.size(); ++s) {
      uint64_t steps = 0;
      for (size_t c = 0; c < per_class.size(); ++c) per_class[c] += counts.segment_classes[s][c], steps += counts.segment_classes[s][c];
      EXPECT_EQ(steps, first.plan->segments[s].cycles) << name << ": segment " << s;  // each step in its segment
    }
    EXPECT_EQ(per_class, counts.stats.per_class) << name;
    const auto predicted = zkrv::api::predicted_segment_heights(*image, *first.plan, counts);
    size_t built = 0;
    zkrv::opt::trace::build_segment_traces(*image, input, exec, *first.plan, first.run, 0,
                                           [&](size_t s, zkrv::opt::trace::SegmentTrace&& seg) {
                                             ASSERT_LT(s, predicted.size());
                                             ASSERT_EQ(seg.tables.size(), predicted[s].size());
                                             for (size_t t = 0; t < seg.tables.size(); ++t)
                                               EXPECT_EQ(predicted[s][t], seg.tables[t].height)
                                                   << name << ": segment " << s << ", table " << layout.tables[t].name;
                                             ++built;
                                           });
    EXPECT_EQ(built, predicted.size()) << name;
    segments += built;
    ++checked;
  }
  EXPECT_GE(checked, 8u) << "example guests checked";
  EXPECT_GE(segments, 50u) << "segments checked";
}

}  // namespace
