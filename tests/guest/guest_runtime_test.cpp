// Guest SDK behaviour inside both executors: never-written bss, heap and stack read 0 (a
// RapidCheck property over random places), and a standard program's output and exit code do
// not depend on the host randomness it draws.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>

#include "optimized/exec/fast_executor.h"
#include "reference/elf/elf_loader.h"
#include "reference/exec/executor.h"
#include "tools/common/files.h"

namespace zkrv {
namespace {

spec::ProgramImage load(const std::string& name) {
  auto bytes = tools::read_file(std::string(ZKRV_GUEST_PROGRAMS_DIR) + "/" + name + ".elf", 1 << 30, "guest");
  if (!bytes.bytes) throw std::runtime_error(bytes.error);
  auto loaded = ref::load_elf(*bytes.bytes);
  if (!loaded.ok()) throw std::runtime_error(loaded.message);
  return *loaded.image;
}

RC_GTEST_PROP(GuestRuntime, NeverWrittenMemoryReadsZeroInBothExecutors, ()) {
  static const spec::ProgramImage image = load("zero_init");
  const auto places = *rc::gen::container<std::vector<std::pair<int, uint32_t>>>(
      rc::gen::pair(rc::gen::inRange(0, 3), rc::gen::arbitrary<uint32_t>()));
  RC_PRE(!places.empty());
  std::string input;
  for (const auto& [region, offset] : places) input += std::string(1, "bhs"[region]) + " " + std::to_string(offset) + "\n";
  const std::vector<uint8_t> in(input.begin(), input.end());
  spec::ExecOptions opt;
  const auto r = ref::execute(image, in, opt), f = opt::execute(image, in, opt);
  RC_ASSERT(r.status == spec::ExitStatus::kExited);
  RC_ASSERT(r.exit_code == 0);
  RC_ASSERT(f.output == r.output);
  std::string want;
  for (size_t k = 0; k < places.size(); ++k) want += "0\n";
  RC_ASSERT(std::string(r.output.begin(), r.output.end()) == want);
}

// The default heap spans the address space up to 0xFFFF0000 (over 4,000 MiB: other zkVMs give
// 2-4 GiB), and zkrv_add_guest's HEAP_SIZE and STACK_SIZE set the sizes; both executors agree.
TEST(GuestRuntime, HeapAndStackSizes) {
  for (const auto& [name, want] : {std::pair{"heap_probe", std::string("stack 1024 KiB, top byte ok\n")},
                                   std::pair{"heap_probe_sized", std::string("stack 256 KiB, top byte ok\n")}}) {
    auto bytes = tools::read_file(std::string(ZKRV_TEST_GUESTS) + "/" + name + ".elf", 1 << 30, "guest");
    ASSERT_TRUE(bytes.bytes) << bytes.error;
    const auto image = *ref::load_elf(*bytes.bytes).image;
    spec::ExecOptions opt;
    const auto r = ref::execute(image, {}, opt), f = opt::execute(image, {}, opt);
    ASSERT_EQ(r.status, spec::ExitStatus::kExited) << name << ": " << spec::describe(r.fault);
    EXPECT_EQ(f.output, r.output) << name;
    const std::string out(r.output.begin(), r.output.end());
    EXPECT_NE(out.find(want), std::string::npos) << name << ": " << out;
    const size_t mib = std::stoul(out.substr(5));
    if (std::string(name) == "heap_probe") {
      EXPECT_GE(mib, 4000u) << out;
      EXPECT_LT(mib, 4096u) << out;
    } else {  // HEAP_SIZE 8M: 8 blocks, or 7 when the runtime allocated something first
      EXPECT_GE(mib, 7u) << out;
      EXPECT_LE(mib, 8u) << out;
    }
  }
}

TEST(GuestRuntime, OutputDoesNotDependOnTheRandomSeed) {
  const auto image = load("random_seed");
  std::vector<uint64_t> draws;
  std::vector<uint8_t> first_output;
  for (uint64_t seed : {1ull, 2ull, 0xdeadbeefull}) {
    spec::ExecOptions opt;
    opt.random_seed = seed;
    opt.trace = true;
    for (const auto& r : {ref::execute(image, {}, opt), opt::execute(image, {}, opt)}) {
      ASSERT_EQ(r.status, spec::ExitStatus::kExited);
      ASSERT_EQ(r.exit_code, 0);
      if (first_output.empty()) first_output = r.output;
      EXPECT_EQ(r.output, first_output) << "seed " << seed;
      for (const auto& ev : r.syscalls)
        if (ev.number == spec::kSysRandomU64) draws.push_back(ev.result);
    }
  }
  ASSERT_EQ(draws.size(), 12u);        // 2 draws x 3 seeds x 2 executors
  EXPECT_EQ(draws[0], draws[2]);       // same seed: both executors drew the same values
  EXPECT_NE(draws[0], draws[4]);       // another seed: other values, same output
}

// The clock follows the cycle count (isa:sys:cycle_count): 2025-01-01 plus one microsecond per
// cycle, read at the cycle of each reading's own cycle_count ecall; both executors agree.
TEST(GuestRuntime, TheClockIsTheCycleCount) {
  auto bytes = tools::read_file(std::string(ZKRV_TEST_GUESTS) + "/clock_guest.elf", 1 << 30, "guest");
  ASSERT_TRUE(bytes.bytes) << bytes.error;
  const auto image = *ref::load_elf(*bytes.bytes).image;
  spec::ExecOptions opt;
  opt.trace = true;
  const auto r = ref::execute(image, {}, opt), f = opt::execute(image, {}, opt);
  ASSERT_EQ(r.status, spec::ExitStatus::kExited) << spec::describe(r.fault);
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_EQ(f.output, r.output);
  // the fast executor's other modes: run mode (cycles counted per straight-line run), with
  // control-flow events, with statistics
  spec::ExecOptions run, flow, stats;
  flow.flow_sink = [](std::span<const spec::FlowEvent>) {};
  stats.collect_stats = true;
  for (const auto* o : {&run, &flow, &stats}) EXPECT_EQ(opt::execute(image, {}, *o).output, r.output);
  std::vector<uint64_t> cycles;  // the cycle of every cycle_count ecall, which is its result
  for (const auto& ev : r.syscalls)
    if (ev.number == spec::kSysCycleCount) {
      EXPECT_EQ(ev.result, ev.cycle);
      cycles.push_back(ev.cycle);
    }
  ASSERT_EQ(cycles.size(), 6u);  // c0, clock_gettime, c1, gettimeofday, time, clock
  ASSERT_EQ(r.output.size(), 8u * 8);
  std::vector<uint64_t> v(8);
  for (size_t i = 0; i < 8; ++i)
    for (size_t b = 0; b < 8; ++b) v[i] |= uint64_t{r.output[8 * i + b]} << (8 * b);
  constexpr uint64_t kEpoch = 1735689600;  // 2025-01-01T00:00:00Z
  EXPECT_EQ(v[0], cycles[0]);
  EXPECT_EQ(v[1], kEpoch + cycles[1] / 1000000);
  EXPECT_EQ(v[2], cycles[1] % 1000000 * 1000);
  EXPECT_EQ(v[3], cycles[2]);
  EXPECT_GT(v[3], v[0] + 2000 * 3);  // the loop between took cycles, and the clock saw them
  EXPECT_EQ(v[4], kEpoch + cycles[3] / 1000000);
  EXPECT_EQ(v[5], cycles[3] % 1000000);
  EXPECT_EQ(v[6], kEpoch + cycles[4] / 1000000);
  EXPECT_EQ(v[7], cycles[5]);  // CLOCKS_PER_SEC is 10^6 in picolibc: clock() is microseconds
}

}  // namespace
}  // namespace zkrv
