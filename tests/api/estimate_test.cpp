// The prover's memory check happens before any table is built: its table heights come from one
// execution (api/estimate.h). They must be the heights the trace builder then makes, for every
// example guest that is proven as one proof, or the estimate is of another trace.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "api/estimate.h"
#include "optimized/trace/trace.h"
#include "reference/elf/elf_loader.h"
#include "reference/stark/air.h"

namespace {

std::vector<uint8_t> read(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

TEST(Estimate, PredictedHeightsAreTheBuiltOnes) {
  const std::string programs = ZKRV_GUEST_PROGRAMS_DIR, sources = ZKRV_GUEST_SOURCES_DIR;
  const auto& layout = zkrv::ref::stark::air_layout();
  size_t checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(programs)) {
    if (entry.path().extension() != ".elf") continue;
    const std::string name = entry.path().stem();
    const auto loaded = zkrv::ref::load_elf(read(entry.path()));
    ASSERT_TRUE(loaded.ok()) << name;
    // The input the example takes (the alloc_stress builds share theirs); none for the others.
    std::vector<uint8_t> input;
    for (const std::string& in : {sources + "/" + name + ".input", sources + "/" + name.substr(0, name.rfind('_')) + ".input"})
      if (std::filesystem::exists(in)) {
        input = read(in);
        break;
      }
    zkrv::spec::ExecOptions exec;
    exec.max_cycles = uint64_t{1} << 20;  // the default segment: longer runs are bundles
    const zkrv::api::FirstRun first = zkrv::api::execute_first(*loaded.image, input, exec, 20);
    if (first.run.status != zkrv::spec::ExitStatus::kExited) continue;  // faults and bundles are not one proof
    const auto predicted = zkrv::api::predicted_heights(*loaded.image, first.run.output, first.counts);
    const auto built = zkrv::opt::trace::build_trace(*loaded.image, input, exec, 0);
    ASSERT_EQ(built.tables.size(), predicted.size());
    for (size_t t = 0; t < predicted.size(); ++t)
      EXPECT_EQ(predicted[t], built.tables[t].height) << name << ": table " << layout.tables[t].name;
    ++checked;
  }
  EXPECT_GE(checked, 20u) << "example guests checked";
}

}  // namespace
