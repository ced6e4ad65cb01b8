// Random differential testing: generated RV64IM programs run on the reference executor, the
// fast executor (trace and run modes) and qemu-riscv64. Traces must agree step by step, and
// the public output (register dump + data-region digest) and exit status must match qemu's.
//
// ZKRV_DIFF_SEED (default 1) and ZKRV_DIFF_COUNT (programs per shard, default 500) override;
// the seed of a failing program is printed so it can be replayed; ZKRV_DIFF_KEEP=DIR keeps
// every generated ELF there (run one with `zkrv run` or qemu-riscv64 by hand).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "optimized/exec/fast_executor.h"
#include "reference/elf/elf_loader.h"
#include "reference/exec/executor.h"
#include "tests/support/random_program.h"
#include "tools/qemu_oracle/qemu_oracle.h"

namespace zkrv {
namespace {

uint64_t env_u64(const char* name, uint64_t def) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 0) : def;
}

class RandomDiff : public ::testing::TestWithParam<int> {};

TEST_P(RandomDiff, ExecutorsAndQemuAgree) {
  const bool use_qemu = !tools::qemu_path().empty();
  if (!use_qemu) GTEST_SKIP() << "qemu-riscv64 not found; install qemu-user (scripts/setup.sh does)";
  const uint64_t count = env_u64("ZKRV_DIFF_COUNT", 500);
  const uint64_t base = env_u64("ZKRV_DIFF_SEED", 1) * 1000003 + static_cast<uint64_t>(GetParam()) * count;
  uint64_t faults = 0, instructions = 0;
  for (uint64_t n = 0; n < count; ++n) {
    const uint64_t seed = base + n;
    SCOPED_TRACE("program seed " + std::to_string(seed) + " (replay: ZKRV_DIFF_SEED/COUNT, or testing::random_program(seed))");
    testing::RandomProgramOptions opt;
    opt.body_instructions = 50 + seed % 300;
    opt.fault_rate = 0.05;
    auto prog = testing::random_program(seed, opt);
    auto loaded = ref::load_elf(prog.elf);
    ASSERT_TRUE(loaded.ok()) << loaded.message;

    spec::ExecOptions eo;
    eo.max_cycles = 100000;
    eo.trace = eo.collect_stats = true;
    auto r = ref::execute(*loaded.image, {}, eo);
    auto f = opt::execute(*loaded.image, {}, eo);
    spec::ExecOptions plain;
    plain.max_cycles = eo.max_cycles;
    auto fr = opt::execute(*loaded.image, {}, plain);
    ASSERT_EQ(r.trace.size(), f.trace.size());
    for (size_t k = 0; k < r.trace.size(); ++k) ASSERT_EQ(r.trace[k], f.trace[k]) << "cycle " << k;
    ASSERT_EQ(r.fault, f.fault);
    ASSERT_EQ(r.regs, f.regs);
    ASSERT_EQ(r.output, f.output);
    ASSERT_EQ(r.stats, f.stats);
    ASSERT_EQ(fr.regs, f.regs);
    ASSERT_EQ(fr.cycles, f.cycles);
    ASSERT_EQ(fr.output, f.output);
    ASSERT_NE(r.fault.kind, spec::FaultKind::kCycleLimit) << "generated programs always end";
    // Run mode under a cycle limit that falls somewhere inside the program.
    spec::ExecOptions limited;
    limited.max_cycles = 1 + seed % (r.cycles + 1);
    auto lr = ref::execute(*loaded.image, {}, limited), lf = opt::execute(*loaded.image, {}, limited);
    ASSERT_EQ(lf.cycles, lr.cycles) << "limit " << limited.max_cycles;
    ASSERT_EQ(lf.fault, lr.fault) << "limit " << limited.max_cycles;
    ASSERT_EQ(lf.regs, lr.regs) << "limit " << limited.max_cycles;
    const bool faulted = r.status == spec::ExitStatus::kFaulted;
    if (faulted) {
      ASSERT_TRUE(prog.expects_fault) << "unplanned " << spec::describe(r.fault);
    }
    faults += faulted;
    instructions += r.cycles;

    const std::string path = tools::write_temp_file(prog.elf, ".elf");
    ASSERT_FALSE(path.empty());
    auto q = tools::run_qemu(path, {}, 20);
    if (const char* keep = std::getenv("ZKRV_DIFF_KEEP"); keep && *keep) {  // keep ELFs to replay by hand
      std::filesystem::copy_file(path, std::string(keep) + "/diff-" + std::to_string(seed) + ".elf",
                                 std::filesystem::copy_options::overwrite_existing);
    }
    std::filesystem::remove(path);
    ASSERT_TRUE(q.started) << q.error;
    if (faulted) {
      EXPECT_TRUE(q.guest_faulted()) << "zkrv: " << spec::describe(r.fault) << "; qemu exited " << q.exit_code;
    } else {
      ASSERT_TRUE(q.exited) << "qemu signal " << q.signal;
      ASSERT_EQ(q.exit_code, r.exit_code & 0xff) << "qemu stderr: " << q.stderr_text;
      ASSERT_EQ(q.stdout_bytes, r.output) << "register dump or memory digest differs from qemu";
    }
  }
  std::printf("shard %d: %llu programs, %llu instructions, %llu deliberate faults\n", GetParam(),
              static_cast<unsigned long long>(count), static_cast<unsigned long long>(instructions),
              static_cast<unsigned long long>(faults));
  EXPECT_GT(instructions, count * 20);  // the programs really ran
}

INSTANTIATE_TEST_SUITE_P(Shards, RandomDiff, ::testing::Range(0, 6));

}  // namespace
}  // namespace zkrv
