// Behaviour of both executors on hand-assembled programs (spec/isa.md rules), and step-by-step
// agreement between them. Each test runs on the reference and on the fast executor.
#include <gtest/gtest.h>

#include "optimized/exec/fast_executor.h"
#include "reference/elf/elf_loader.h"
#include "reference/exec/executor.h"
#include "tests/support/elf_builder.h"

namespace zkrv {
namespace {

using namespace testing::rv;
using spec::ExecOptions;
using spec::ExecResult;
using spec::FaultKind;

using ExecFn = ExecResult (*)(const spec::ProgramImage&, std::span<const uint8_t>, const ExecOptions&);

class Executors : public ::testing::TestWithParam<ExecFn> {
 protected:
  ExecResult run(const std::vector<uint32_t>& code, std::vector<uint8_t> data = {}, std::vector<uint8_t> input = {},
                 ExecOptions opt = {}) {
    auto loaded = ref::load_elf(testing::simple_elf(code, std::move(data)));
    EXPECT_TRUE(loaded.ok()) << loaded.message;
    image_ = *loaded.image;
    opt.collect_stats = true;
    opt.trace = true;
    auto r = GetParam()(image_, input, opt);
    // The other executor must agree on every step.
    auto other = (GetParam() == &ref::execute ? &opt::execute : &ref::execute)(image_, input, opt);
    EXPECT_EQ(r.trace, other.trace);
    EXPECT_EQ(r.syscalls, other.syscalls);
    EXPECT_EQ(r.regs, other.regs);
    EXPECT_EQ(r.fault, other.fault);
    EXPECT_EQ(r.stats, other.stats);
    EXPECT_EQ(r.cycles, other.cycles);
    return r;
  }
  spec::ProgramImage image_;
};

std::vector<uint32_t> cat(std::vector<uint32_t> a, const std::vector<uint32_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

TEST_P(Executors, ExitCodeIsLow32BitsOfA0) {
  auto r = run(exit_with(-3));
  EXPECT_EQ(r.status, spec::ExitStatus::kExited);
  EXPECT_EQ(r.exit_code, -3);
  EXPECT_EQ(r.cycles, 3u);
  EXPECT_EQ(r.trace.size(), 3u);
  EXPECT_EQ(r.trace.back().next_pc, r.trace.back().pc);  // halts at the ecall
}

TEST_P(Executors, WritesToX0DoNotStick) {
  auto r = run(cat({addi(0, 0, 5), addi(10, 0, 0), testing::rv::r(0, 0, 0, 0, 10, 0x33)}, {addi(17, 0, 93), ecall()}));
  EXPECT_EQ(r.regs[0], 0u);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.trace[0].rd, 0);       // the record shows no write
  EXPECT_EQ(r.trace[0].rd_value, 0u);
}

TEST_P(Executors, MisalignedJumpFaultsAtTheJump) {
  // jal x1, +6 : target not 4-aligned; x1 must not be written.
  auto r = run({j(6, 1), addi(0, 0, 0), addi(0, 0, 0)});
  EXPECT_EQ(r.fault.kind, FaultKind::kMisalignedJump);
  EXPECT_EQ(r.fault.pc, 0x10000u);
  EXPECT_EQ(r.fault.address, 0x10006u);
  EXPECT_EQ(r.regs[1], 0u);
  EXPECT_EQ(r.cycles, 0u);
}

TEST_P(Executors, JalrClearsBitZero) {
  // auipc t0, 0 ; jalr x0, 13(t0) -> target 0x1000c ; exit 7
  auto r = run(cat({u(0, 5, 0x17), i(13, 5, 0, 0, 0x67)}, exit_with(7)));
  EXPECT_EQ(r.status, spec::ExitStatus::kExited);
  EXPECT_EQ(r.exit_code, 0);  // jumped over the first instruction of exit_with: a0 stays 0
  EXPECT_EQ(r.cycles, 4u);
}

TEST_P(Executors, FallingOffTheCodeIsAFetchFault) {
  auto r = run({addi(5, 0, 1)});
  EXPECT_EQ(r.fault.kind, FaultKind::kFetch);
  EXPECT_EQ(r.fault.pc, 0x10004u);
  EXPECT_EQ(r.cycles, 1u);
}

TEST_P(Executors, JumpIntoDataIsAFetchFault) {
  auto r = run({lui(5, 0x20), i(0, 5, 0, 1, 0x67)});  // jalr ra, 0(t0) with t0 = 0x20000
  EXPECT_EQ(r.fault.kind, FaultKind::kFetch);
  EXPECT_EQ(r.fault.pc, 0x20000u);
  EXPECT_EQ(r.regs[1], 0x10008u);  // the jump itself completed
  EXPECT_EQ(r.cycles, 2u);
}

TEST_P(Executors, CycleLimitIsExact) {
  ExecOptions opt;
  opt.max_cycles = 10;
  auto r = run({b(0, 0, 0, 0)}, {}, {}, opt);  // beq x0, x0, 0 : spins
  EXPECT_EQ(r.fault.kind, FaultKind::kCycleLimit);
  EXPECT_EQ(r.cycles, 10u);
  // The fault names the instruction that did not run (isa:fault:cycle_limit), never "illegal 0x0".
  EXPECT_EQ(r.fault.insn, b(0, 0, 0, 0));
  EXPECT_EQ(spec::describe(r.fault), "cycle limit at pc 0x10000 (beq zero, zero, 0x10000): cycle limit reached");
  opt.max_cycles = 2;  // the limit at a pc that is not executable: no word, no disassembly
  auto off = run({addi(5, 0, 0x100), i(0, 5, 0, 0, 0x67)}, {}, {}, opt);  // jalr x0, 0(t0) to 0x100
  EXPECT_EQ(off.fault.kind, FaultKind::kCycleLimit);
  EXPECT_EQ(off.fault.insn, 0u);
  EXPECT_EQ(spec::describe(off.fault), "cycle limit at pc 0x100: cycle limit reached");
}

TEST_P(Executors, NeverWrittenMemoryReadsZero) {
  // ld a0, 0x800(t0) with t0 = 0x20000: inside the data segment's zero-filled tail.
  auto r = run(cat({lui(5, 0x20), ld(10, 5, 0x7f8)}, {addi(17, 0, 93), ecall()}), {1, 2, 3});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.trace[1].mem.kind, spec::MemKind::kLoad);
  EXPECT_EQ(r.trace[1].mem.address, 0x207f8u);
}

TEST_P(Executors, MisalignedAccessesExecuteAndAreCounted) {
  std::vector<uint8_t> data(16);
  for (int k = 0; k < 16; ++k) data[k] = static_cast<uint8_t>(k + 1);
  // ld a0, 3(t0); sd a0, 9(t0); ld a1, 9(t0)
  auto r = run(cat({lui(5, 0x20), ld(10, 5, 3), sd(10, 5, 9), ld(11, 5, 9)}, {addi(17, 0, 93), ecall()}), data);
  EXPECT_EQ(r.regs[11], 0x0b0a090807060504ull);
  EXPECT_EQ(r.stats.misaligned_accesses, 3u);
  EXPECT_EQ(r.trace[2].mem.kind, spec::MemKind::kStore);
  EXPECT_EQ(r.trace[2].mem.before, 0x100f0e0d0c0b0aull);
}

TEST_P(Executors, StoreToCodeFaults) {
  auto r = run({lui(5, 0x10), sd(0, 5, 0)});
  EXPECT_EQ(r.fault.kind, FaultKind::kStore);
  EXPECT_EQ(r.fault.address, 0x10000u);
  EXPECT_EQ(r.fault.insn, sd(0, 5, 0));
}

TEST_P(Executors, ReadAndWriteSyscalls) {
  // read(0, 0x20000, 100) -> n ; write(1, 0x20000, n) ; exit(n)
  std::vector<uint32_t> code = {lui(11, 0x20), addi(12, 0, 100), addi(10, 0, 0), addi(17, 0, 63), ecall(),
                                addi(12, 10, 0), addi(10, 0, 1), addi(17, 0, 64), ecall(),
                                addi(17, 0, 93), ecall()};
  std::vector<uint8_t> input = {'z', 'k', 'r', 'v'};
  auto r = run(code, {}, input);
  EXPECT_EQ(r.output, input);
  EXPECT_EQ(r.exit_code, 4);
  ASSERT_EQ(r.syscalls.size(), 3u);
  EXPECT_EQ(r.syscalls[0].bytes, input);
  EXPECT_EQ(r.stats.input_bytes_read, 4u);
}

TEST_P(Executors, RandomStreamFollowsTheSeed) {
  std::vector<uint32_t> code = {lui(17, 0x5A), ecall(), addi(17, 0, 93), ecall()};
  ExecOptions a, b;
  a.random_seed = 1;
  b.random_seed = 2;
  auto ra = run(code, {}, {}, a), ra2 = run(code, {}, {}, a), rb = run(code, {}, {}, b);
  EXPECT_EQ(ra.regs[10], ra2.regs[10]);
  EXPECT_NE(ra.regs[10], rb.regs[10]);
  EXPECT_EQ(ra.regs[10], (spec::RandomStream{1}.next()));
}

TEST_P(Executors, IllegalAndEbreak) {
  EXPECT_EQ(run({0xffffffff}).fault.kind, FaultKind::kIllegalInstruction);
  EXPECT_EQ(run({0x00100073}).fault.kind, FaultKind::kBreakpoint);
  EXPECT_EQ(run({0x30002573}).fault.kind, FaultKind::kIllegalInstruction);  // csrr a0, mstatus
  // SLLI with imm[11:6] != 0 is illegal on RV64
  EXPECT_EQ(run({i(0x440, 5, 1, 5, 0x13)}).fault.kind, FaultKind::kIllegalInstruction);
}

INSTANTIATE_TEST_SUITE_P(Both, Executors, ::testing::Values(&ref::execute, &opt::execute),
                         [](const auto& info) { return info.index == 0 ? std::string("reference") : std::string("fast"); });

// Run mode counts cycles per straight-line run and arms a trap where the limit falls; every
// limit must still stop at exactly the reference's instruction with the same state. The program
// has nested loops (backward branches), a call and a return, so traps go stale too.
TEST(FastExecutor, EveryCycleLimitStopsWhereTheReferenceStops) {
  const std::vector<uint32_t> code = {
      addi(5, 0, 5),          //  0: t0 = 5
      addi(6, 0, 3),          //  4: L1: t1 = 3
      addi(6, 6, -1),         //  8: L2: t1 -= 1
      testing::rv::r(0, 6, 10, 0, 10, 0x33),  // 12: a0 += t1
      b(-8, 0, 6, 1),         // 16: bne t1, x0, L2
      j(24, 1),               // 20: jal ra, F (at 44)
      addi(5, 5, -1),         // 24: t0 -= 1
      b(-24, 0, 5, 1),        // 28: bne t0, x0, L1
      addi(17, 0, 93),        // 32
      ecall(),                // 36
      addi(0, 0, 0),          // 40
      addi(11, 11, 1),        // 44: F: a1 += 1
      b(8, 0, 11, 0),         // 48: beq a1, x0, +8 (never taken)
      i(0, 1, 0, 0, 0x67),    // 52: jalr x0, 0(ra)
  };
  auto loaded = ref::load_elf(testing::simple_elf(code));
  ASSERT_TRUE(loaded.ok());
  const auto full = ref::execute(*loaded.image, {}, {});
  ASSERT_EQ(full.status, spec::ExitStatus::kExited);
  for (uint64_t limit = 1; limit <= full.cycles + 2; ++limit) {
    ExecOptions opt;
    opt.max_cycles = limit;
    const auto want = ref::execute(*loaded.image, {}, opt), got = opt::execute(*loaded.image, {}, opt);
    ASSERT_EQ(got.status, want.status) << "limit " << limit;
    ASSERT_EQ(got.cycles, want.cycles) << "limit " << limit;
    ASSERT_EQ(got.fault, want.fault) << "limit " << limit;
    ASSERT_EQ(got.regs, want.regs) << "limit " << limit;
  }
}

TEST(FastExecutor, RunModeMatchesTraceMode) {
  auto loaded = ref::load_elf(testing::simple_elf(cat({addi(5, 0, 100), addi(5, 5, -1), b(-4, 0, 5, 1)}, exit_with(9))));
  ASSERT_TRUE(loaded.ok());
  ExecOptions plain, traced;
  traced.trace = traced.collect_stats = true;
  auto a = opt::execute(*loaded.image, {}, plain), t = opt::execute(*loaded.image, {}, traced);
  EXPECT_EQ(a.cycles, t.cycles);
  EXPECT_EQ(a.regs, t.regs);
  EXPECT_EQ(a.cycles, 1u + 2 * 100 + 3);
}

}  // namespace
}  // namespace zkrv
