#pragma once
// Value types shared by every zkrv executor: the memory map, the syscall ABI, the program
// image, the per-cycle trace record and the execution result. Each constant cites the rule
// of spec/isa.md that defines it.

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace zkrv::spec {

// spec: isa:mem:address_space — every address is below 2^32 (one field element).
inline constexpr uint64_t kAddressLimit = uint64_t{1} << 32;
// The low 32 bits of v, sign-extended to 64 (the *W instructions' results, isa:rv64i:*w).
inline constexpr uint64_t sext32(uint64_t v) { return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(v))); }
// spec: isa:mem:page — the page size used by memory checks, statistics and the ELF rules.
inline constexpr uint64_t kPageSize = 4096;
// spec: isa:mem:null_page — [0, 0x1000) is never mapped.
inline constexpr uint64_t kNullPageEnd = 0x1000;

// spec: isa:sys:* — Linux RISC-V numbers so that the same ELF runs under qemu-riscv64.
inline constexpr uint64_t kSysRead = 63;
inline constexpr uint64_t kSysWrite = 64;
inline constexpr uint64_t kSysExit = 93;
inline constexpr uint64_t kSysExitGroup = 94;
// spec: isa:sys:zkrv_range — zkrv-only services live in [0x5A000, 0x5B000), unused by Linux.
inline constexpr uint64_t kSysZkrvBase = 0x5A000;
inline constexpr uint64_t kSysRandomU64 = 0x5A000;
inline constexpr uint64_t kSysCostScopeStart = 0x5A001;
inline constexpr uint64_t kSysCostScopeEnd = 0x5A002;
inline constexpr uint64_t kSysCycleCount = 0x5A003;
inline constexpr uint64_t kSysZkrvEnd = 0x5B000;
inline constexpr int64_t kEnosys = 38;
inline constexpr int64_t kEbadf = 9;

inline constexpr uint64_t kFdInput = 0;
inline constexpr uint64_t kFdOutput = 1;
inline constexpr uint64_t kFdLog = 2;

// ELF program-header flags, as in the ELF standard.
inline constexpr uint32_t kFlagX = 1;
inline constexpr uint32_t kFlagW = 2;
inline constexpr uint32_t kFlagR = 4;

// One loadable segment: `data` holds p_filesz bytes; [vaddr + data.size(), vaddr + memsz)
// reads as zero (spec: isa:mem:zero_fill).
struct Segment {
  uint64_t vaddr = 0;
  uint64_t memsz = 0;
  uint32_t flags = 0;
  std::vector<uint8_t> data;
  bool operator==(const Segment&) const = default;
};

// What an ELF becomes after validation (reference/elf). Segments are sorted by vaddr and
// never overlap; executors build memory only from this.
struct ProgramImage {
  uint64_t entry = 0;
  std::vector<Segment> segments;
  bool operator==(const ProgramImage&) const = default;
};

// spec: isa:fault:* — every way a guest can stop other than exit.
enum class FaultKind : uint8_t {
  kNone = 0,
  kIllegalInstruction,  // isa:fault:illegal
  kMisalignedJump,      // isa:fault:misaligned_jump
  kFetch,               // isa:fault:fetch
  kLoad,                // isa:fault:load
  kStore,               // isa:fault:store
  kBreakpoint,          // isa:fault:ebreak
  kCycleLimit,          // isa:fault:cycle_limit
};
std::string_view fault_name(FaultKind kind);

struct Fault {
  FaultKind kind = FaultKind::kNone;
  uint64_t pc = 0;
  uint32_t insn = 0;     // 0 when the fetch itself failed
  uint64_t address = 0;  // data address, jump target or fetch address where it applies
  bool operator==(const Fault&) const = default;
};
// One line: "load fault at pc 0x10010 (lw a0, 0(zero)): address 0x0 is not readable".
std::string describe(const Fault& fault);

// spec: isa:trace:record — one record per executed cycle.
enum class MemKind : uint8_t { kNone = 0, kLoad = 1, kStore = 2 };
struct MemAccess {
  MemKind kind = MemKind::kNone;
  uint8_t size = 0;        // 1, 2, 4 or 8 bytes
  uint64_t address = 0;
  uint64_t before = 0;     // little-endian value of the `size` bytes before the step
  uint64_t after = 0;      // ... and after it (== before for a load)
  bool operator==(const MemAccess&) const = default;
};
struct StepRecord {
  uint64_t cycle = 0;
  uint64_t pc = 0;
  uint32_t insn = 0;
  uint8_t rs1 = 0, rs2 = 0, rd = 0;  // 0 when the format has no such operand
  uint64_t rs1_value = 0, rs2_value = 0;
  uint64_t rd_value = 0;             // value written; 0 when rd == 0 (writes to x0 do not stick)
  uint64_t next_pc = 0;
  MemAccess mem;
  bool operator==(const StepRecord&) const = default;
};
// spec: isa:trace:syscall — side record of every ecall, with the bytes it moved.
struct SyscallEvent {
  uint64_t cycle = 0;
  uint64_t number = 0;
  std::array<uint64_t, 3> args{};
  uint64_t result = 0;
  std::vector<uint8_t> bytes;  // read: bytes copied into memory; write: bytes taken from it
  bool operator==(const SyscallEvent&) const = default;
};

// Instruction classes for statistics and the cost model (spec: isa:cost:classes).
enum class InsnClass : uint8_t {
  kAlu, kShift, kCompare, kMul, kDiv, kLoad, kStore, kBranch, kJump, kUpper, kSystem, kCount
};
std::string_view class_name(InsnClass c);
// The class the executors count an instruction they execute in (ExecStats::per_class), from its
// encoding alone.
InsnClass insn_class(uint32_t insn);

struct ExecStats {
  std::array<uint64_t, static_cast<size_t>(InsnClass::kCount)> per_class{};
  uint64_t misaligned_accesses = 0;
  uint64_t pages_touched = 0;      // distinct 4 KiB pages read or written as data
  uint64_t input_bytes_read = 0;
  uint64_t output_bytes = 0;
  bool operator==(const ExecStats&) const = default;
};

// spec: isa:cost:model — proving-cost estimate C, versioned.
inline constexpr uint32_t kCostModelVersion = 1;
uint64_t cost_estimate(const ExecStats& stats, uint64_t cycles);

// spec: isa:fault:cycle_limit, protocol:segments:cut — runs of up to 2^32 cycles are proven in
// segments, so that is the default bound.
inline constexpr uint64_t kDefaultMaxCycles = uint64_t{1} << 32;
inline constexpr uint64_t kDefaultMaxInputBytes = uint64_t{256} << 20;

// Control flow of a run, for cheap profiling (fast executor, run mode): one event per taken
// jump or branch and per ecall, each naming the cycle at which that instruction executed, and a
// final kEnd event whose cycle is the total. Between events, execution is straight-line: after
// an event at pc, the next instruction is at `target` (jumps) or pc + 4 (ecalls).
struct FlowEvent {
  enum Kind : uint8_t { kJump, kEcall, kEnd };
  Kind kind = kEnd;
  uint32_t insn = 0;
  uint64_t cycle = 0;
  uint64_t pc = 0;
  uint64_t target = 0;   // kJump: where control went
  uint64_t a7 = 0, a0 = 0;  // kEcall: the call number and first argument
};

struct ExecOptions {
  uint64_t max_cycles = kDefaultMaxCycles;
  uint64_t random_seed = 0;   // zkvm_random_u64 stream (isa:sys:random)
  bool collect_stats = false;
  bool trace = false;
  // With `trace`: when set, records are handed over in order, in chunks, instead of being kept
  // in ExecResult::trace (a prover streams them into its tables without holding them all).
  std::function<void(std::span<const StepRecord>)> trace_sink;
  // With `trace`: when set, each SyscallEvent (exit included) is also handed over as its ecall
  // executes: before its StepRecord reaches trace_sink, except the exit's, which may come after.
  std::function<void(const SyscallEvent&)> syscall_sink;
  // Without `trace` and `collect_stats`: when set, the fast executor reports FlowEvents, in
  // order, in chunks (the reference executor ignores it).
  std::function<void(std::span<const FlowEvent>)> flow_sink;
};

enum class ExitStatus : uint8_t { kExited, kFaulted };

struct ExecResult {
  ExitStatus status = ExitStatus::kFaulted;
  int32_t exit_code = 0;       // isa:sys:exit — low 32 bits of a0
  uint64_t cycles = 0;
  uint64_t pc = 0;             // pc of the last executed (or faulting) instruction
  std::array<uint64_t, 32> regs{};
  Fault fault;
  std::vector<uint8_t> output;  // fd 1: the public output
  std::vector<uint8_t> log;     // fd 2: debug log, outside the statement
  ExecStats stats;              // filled when ExecOptions::collect_stats
  std::vector<StepRecord> trace;       // filled when ExecOptions::trace
  std::vector<SyscallEvent> syscalls;  // filled when ExecOptions::trace
};

// spec: isa:sys:random — the zkvm_random_u64 stream: SplitMix64 from the run's seed.
struct RandomStream {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};

// ABI register names, x0..x31.
std::string_view reg_name(unsigned index);
// One instruction in assembler syntax, e.g. "addi a0, a0, -1"; "illegal 0x...." otherwise.
std::string disassemble(uint32_t insn, uint64_t pc);

}  // namespace zkrv::spec
