// Completeness of bundles on the example guests (spec/protocol.md §9): each run cut into small
// segments (several per guest), built by the streamed segment builder, proven by the optimized
// prover one segment at a time (prove_bundle_streamed) and verified, its statement the guest's
// expected output and exit code. By default three guests at 2^10 … 2^12 cycles per segment;
// ZKRV_BUNDLE_GUESTS=all proves every example guest that exits, at 2^ZKRV_BUNDLE_LOG cycles
// per segment (default 18; stark.bundles.long, label long).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "optimized/exec/fast_executor.h"
#include "optimized/prove/prove.h"
#include "optimized/trace/segments.h"
#include "reference/elf/elf_loader.h"
#include "reference/verify/verify.h"
#include "spec/bundle.h"
#include "spec/run_segments.h"
#include "tools/common/files.h"

namespace zkrv {
namespace {

const spec::StarkOptions kOptions{2, 8, 2, 3};
const spec::SecurityPolicy kAnyBits = spec::SecurityPolicy::at_least(spec::SecurityPolicy::Measure::kProvable, 0);

struct Case {
  std::string name;
  unsigned log_segment;
};

std::vector<Case> cases() {
  const char* all = std::getenv("ZKRV_BUNDLE_GUESTS");
  if (!all || std::string(all) != "all") return {{"fibonacci", 10}, {"zero_init", 12}, {"cost_scopes", 12}};
  const char* log = std::getenv("ZKRV_BUNDLE_LOG");
  const unsigned k = log ? static_cast<unsigned>(std::strtoul(log, nullptr, 10)) : 18;
  std::vector<Case> out;
  for (const char* g : {"fibonacci", "sha256_chain", "keccak_chain", "quicksort", "modexp", "wordfreq", "alloc_stress_bump",
                        "alloc_stress_picolibc", "alloc_stress_arena", "cxx_lifecycle", "cost_scopes", "zero_init",
                        "random_seed", "routes", "cxx_exceptions"})
    out.push_back({g, k});
  return out;
}

std::vector<uint8_t> read_or_empty(const std::string& path) {
  auto r = tools::read_file(path, 1 << 26, "file");
  return r.bytes ? *r.bytes : std::vector<uint8_t>{};
}

TEST(BundleGuests, EveryGuestCutIntoSegmentsIsProvenAndVerified) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name);
    const auto elf = tools::read_file(std::string(ZKRV_GUEST_PROGRAMS_DIR) + "/" + c.name + ".elf", 1 << 30, "guest");
    ASSERT_TRUE(elf.bytes) << elf.error;
    const spec::ProgramImage image = *ref::load_elf(*elf.bytes).image;
    const std::string src = std::string(ZKRV_SOURCE_DIR) + "/guest/programs/" + c.name;
    const std::vector<uint8_t> input = read_or_empty(src + ".input"), expected = read_or_empty(src + ".expected");
    spec::RunPlanner planner(image, c.log_segment);
    spec::ExecOptions o;
    spec::attach(planner, o);
    const spec::ExecResult run = opt::execute(image, input, o);
    ASSERT_EQ(run.status, spec::ExitStatus::kExited);
    const spec::RunPlan plan = planner.finish(run);
    if (plan.count() < 2) {  // a run of one segment is a proof of the whole run (protocol:segments:single)
      EXPECT_TRUE(std::getenv("ZKRV_BUNDLE_GUESTS")) << "the default guests have several segments";
      continue;
    }
    const opt::prove::SegmentSource source = [&](const std::function<void(size_t, opt::prove::Segment&&)>& take) {
      opt::trace::build_segment_traces(image, input, {}, plan, run, 0, [&](size_t s, opt::trace::SegmentTrace&& t) {
        take(s, opt::prove::Segment{std::move(t.tables), std::move(t.publics)});
      });
    };
    const spec::BundleProof bundle =
        opt::prove::prove_bundle_streamed(image, plan, static_cast<uint32_t>(run.exit_code), run.output, source, kOptions);
    EXPECT_EQ(bundle.statement.segments(), plan.count());
    if (!expected.empty()) {
      EXPECT_EQ(bundle.statement.output, expected);
    }
    const auto bytes = spec::encode_bundle(bundle);
    const auto v = ref::verify::verify_bundle_bytes(bytes, {&image, static_cast<uint32_t>(run.exit_code), &run.output}, kAnyBits);
    EXPECT_TRUE(v.ok()) << (v.rejection ? v.rejection->what : "") << (v.segment ? " in segment " + std::to_string(*v.segment) : "");
    std::printf("%s: %llu cycles, %zu segments of 2^%u, %zu bytes\n", c.name.c_str(),
                static_cast<unsigned long long>(run.cycles), plan.count(), c.log_segment, bytes.size());
  }
}

}  // namespace
}  // namespace zkrv
