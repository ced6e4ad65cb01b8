// Completeness of bundles on the example guests (spec/protocol.md §9): each run cut into small
// segments (several per guest), built by the streamed segment builder, proven by the optimized
// prover one segment at a time (prove_bundle_streamed) and verified, its statement the guest's
// expected output and exit code. ZKRV_BUNDLE_GUESTS=all (stark.bundles.long, label long): every
// example guest that exits, with the segment size and input of tests/support/guest_list.cpp (2^10
// to 2^16 cycles per segment; a shorter input for the guests that run for hundreds of thousands
// of cycles or more on their own). By default the guests of that list whose run is under 25,000
// cycles: C and C++, a failing exit, POSIX I/O, the C++ standard library.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "optimized/exec/fast_executor.h"
#include "optimized/prove/prove.h"
#include "optimized/trace/segments.h"
#include "reference/elf/elf_loader.h"
#include "reference/verify/verify.h"
#include "spec/bundle.h"
#include "spec/run_segments.h"
#include "tests/support/guest_list.h"
#include "tools/common/files.h"

namespace zkrv {
namespace {

const spec::StarkOptions kOptions{2, 8, 2, 3};
const spec::SecurityPolicy kAnyBits = spec::SecurityPolicy::at_least(spec::SecurityPolicy::Measure::kProvable, 0);

#ifdef ZKRV_TEST_STDCXX_GUESTS
constexpr bool kStdcxx = true;
#else
constexpr bool kStdcxx = false;
#endif
constexpr uint64_t kDefaultCycles = 25'000;

bool every_guest() {
  const char* all = std::getenv("ZKRV_BUNDLE_GUESTS");
  return all && std::string(all) == "all";
}

TEST(BundleGuests, EveryGuestCutIntoSegmentsIsProvenAndVerified) {
  struct Scratch {  // the shorter inputs' folder, removed however the test ends
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("zkrv-bundle-guests-" + std::to_string(::getpid()));
    Scratch() { std::filesystem::create_directories(path); }
    ~Scratch() { std::filesystem::remove_all(path); }
  } const scratch_dir;
  const std::filesystem::path& scratch = scratch_dir.path;
  if (!kStdcxx) std::printf("the C++ standard library's guests are not built here (scripts/setup.sh builds it)\n");
  const std::vector<test::GuestRun> list = test::exiting_guests(std::string(ZKRV_SOURCE_DIR) + "/guest/programs/", scratch, kStdcxx);
  size_t proven = 0;
  for (const test::GuestRun& c : list) {
    if (!c.bundle || (!every_guest() && c.cycles >= kDefaultCycles)) continue;
    SCOPED_TRACE(c.name);
    const auto elf = tools::read_file(std::string(ZKRV_GUEST_PROGRAMS_DIR) + "/" + c.name + ".elf", 1 << 30, "guest");
    ASSERT_TRUE(elf.bytes) << elf.error;
    const spec::ProgramImage image = *ref::load_elf(*elf.bytes).image;
    std::vector<uint8_t> input, expected;
    for (auto [path, bytes] : {std::pair{&c.input, &input}, {&c.expected, &expected}}) {
      if (path->empty()) continue;
      const auto r = tools::read_file(*path, 1 << 26, "file");
      ASSERT_TRUE(r.bytes) << r.error;
      *bytes = *r.bytes;
    }
    spec::RunPlanner planner(image, c.log_segment);
    spec::ExecOptions o;
    spec::attach(planner, o);
    const spec::ExecResult run = opt::execute(image, input, o);
    ASSERT_EQ(run.status, spec::ExitStatus::kExited);
    ASSERT_EQ(static_cast<uint32_t>(run.exit_code), c.exit_code);
    const spec::RunPlan plan = planner.finish(run);
    ASSERT_GE(plan.count(), 2u) << "the list gives every guest marked a bundle several segments";
    const opt::prove::SegmentSource source = [&](const std::function<void(size_t, opt::prove::Segment&&)>& take) {
      opt::trace::build_segment_traces(image, input, {}, plan, run, 0, [&](size_t s, opt::trace::SegmentTrace&& t) {
        take(s, opt::prove::Segment{std::move(t.tables), std::move(t.publics)});
      });
    };
    const spec::BundleProof bundle =
        opt::prove::prove_bundle_streamed(image, plan, static_cast<uint32_t>(run.exit_code), run.output, source, kOptions);
    EXPECT_EQ(bundle.statement.segments(), plan.count());
    if (!c.expected.empty()) {
      EXPECT_EQ(bundle.statement.output, expected);
    }
    const auto bytes = spec::encode_bundle(bundle);
    const auto v = ref::verify::verify_bundle_bytes(bytes, {&image, static_cast<uint32_t>(run.exit_code), &run.output}, kAnyBits);
    EXPECT_TRUE(v.ok()) << (v.rejection ? v.rejection->what : "") << (v.segment ? " in segment " + std::to_string(*v.segment) : "");
    std::printf("%s: %llu cycles, %zu segments of 2^%u, %zu bytes\n", c.name.c_str(),
                static_cast<unsigned long long>(run.cycles), plan.count(), c.log_segment, bytes.size());
    ++proven;
  }
  size_t bundles = 0;
  for (const test::GuestRun& c : list) bundles += c.bundle;
  if (every_guest())
    EXPECT_EQ(proven, bundles) << "every guest whose run is a bundle";
  else
    EXPECT_GE(proven, kStdcxx ? 7u : 6u) << "the default guests";
}

}  // namespace
}  // namespace zkrv
