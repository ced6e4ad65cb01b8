#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "reference/elf/elf_loader.h"
#include "api/estimate.h"
#include "spec/run_segments.h"
#include "tools/common/files.h"
#include "tools/profile/symbols.h"
#include "tools/zkrv/commands.h"
#include "tools/zkrv/exit_codes.h"

namespace zkrv::cli {

namespace {
std::string& name_() {
  static std::string name = "zkrv";
  return name;
}
bool quiet_ = false;
std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}
}  // namespace

void set_name(const std::string& name) { name_() = name; }

// Each line in one write: the lines of several processes (zkrv-prove-mpi's ranks) then never mix.
int fail(int code, const std::string& msg) {
  std::cerr << (name_() + ": error: " + msg + "\n") << std::flush;
  return code;
}

void set_quiet(bool quiet) { quiet_ = quiet; }
void progress(const std::string& line) {
  if (!quiet_) std::cerr << (name_() + ": " + line + "\n") << std::flush;
}


Memory memory_here() {  // read once: check's capacity before and after a run must agree
  static const zkrv::MemoryBudget m = zkrv::memory_budget();
  return {m.bytes, m.source};
}

unsigned check_capacity_log(double bytes_per_cycle) {
  const double have = memory_here().bytes;
  unsigned k = 10;
  while (k < 40 && bytes_per_cycle * static_cast<double>(uint64_t{1} << (k + 1)) <= have) ++k;
  return k;
}

unsigned segment_capacity_log() {
  const double have = memory_here().bytes;
  unsigned k = 0;
  for (unsigned j = spec::kMinSegmentLog; j <= spec::kMaxSegmentLog; ++j)
    if (api::estimated_segment_bytes(j, 0) <= have) k = j;
  return k;
}

std::string capacity_text() {
  const Memory m = memory_here();
  char buf[500];
  const unsigned seg = segment_capacity_log();
  std::snprintf(buf, sizeof buf,
                "Here (%s %.1f GB): check takes runs of up to 2^%u cycles (it holds the whole trace, about %.1f KB a\n"
                "cycle; 2^%u with --reference, --spec or --segment-cycles); prove takes runs of any length up to\n"
                "--max-cycles, one segment at a time, %s.",
                m.what.c_str(), m.bytes / 1e9, check_capacity_log(kCheckBytesPerCycle), kCheckBytesPerCycle / 1024,
                check_capacity_log(kCheckReferenceBytesPerCycle),
                seg ? ("in segments of up to 2^" + std::to_string(seg) + " cycles (--segment-cycles)").c_str()
                    : "but no segment fits in this memory");
  return buf;
}

int load_guest(const std::string& program, const std::string& input_path, uint64_t max_input, Guest& out) {
  using namespace zkrv;
  if (program == "-" && input_path == "-") return fail(cli::kUsage, "the program and the input cannot both be stdin (-)");
  auto elf = tools::read_file(program, kMaxElfBytes, "program");
  if (!elf.bytes) return fail(cli::kIoError, elf.error);
  if (!input_path.empty()) {
    auto in = tools::read_file(input_path, max_input, "input");
    if (!in.bytes) return fail(in.error.find("limit") != std::string::npos ? cli::kBadInput : cli::kIoError, in.error);
    out.input = std::move(*in.bytes);
  }
  auto loaded = ref::load_elf(*elf.bytes);
  if (!loaded.ok()) return fail(cli::kBadInput, program + ": " + loaded.message);
  out.image = std::move(*loaded.image);
  out.elf = std::move(*elf.bytes);
  return 0;
}

std::string stopped_line(std::span<const uint8_t> elf, const spec::Fault& fault, uint64_t cycles, uint64_t sp,
                         uint64_t max_cycles) {
  const auto symbols = tools::profile::SymbolTable::from_elf(elf);
  std::string where;
  if (const int f = symbols.find(fault.pc); f >= 0) where = " in " + symbols.functions()[static_cast<size_t>(f)].name;
  const std::string after = " after " + std::to_string(cycles) + " cycles";
  const auto kind = fault.kind;
  if (const auto stack = symbols.stack(); stack && (kind == spec::FaultKind::kLoad || kind == spec::FaultKind::kStore)) {
    const auto [bottom, top] = *stack;
    constexpr uint64_t kGuard = 0x10000;  // zkrv.ld's unmapped guard below the stack
    const bool in_guard = bottom >= kGuard && fault.address < bottom && fault.address >= bottom - kGuard;
    if (in_guard || (sp < bottom && bottom - sp <= top - bottom))  // a frame larger than the guard jumps it
      return "guest stack overflow: " + spec::describe(fault) + where + after + ", sp " + hex(sp) + " below the stack [" +
             hex(bottom) + ", " + hex(top) + ") of " + std::to_string((top - bottom) >> 10) +
             " KiB (give the guest more: zkrv_add_guest's STACK_SIZE, or -Wl,--defsym=ZKRV_STACK_SIZE=...)";
  }
  std::string line = "guest " + spec::describe(fault) + where + after;
  if (kind == spec::FaultKind::kCycleLimit) line += " (the limit: --max-cycles " + std::to_string(max_cycles) + "; raise it to run longer)";
  return line;
}

int fail_api(const zkrv::Error& e, std::span<const uint8_t> elf, uint64_t max_cycles) {
  switch (e.code()) {
    case zkrv::ErrorCode::kInvalidArgument:
    case zkrv::ErrorCode::kUnsupported: return fail(kUsage, e.what());
    case zkrv::ErrorCode::kBadProgram:
    case zkrv::ErrorCode::kBadKey:
    case zkrv::ErrorCode::kBadInput: return fail(kBadInput, e.what());
    case zkrv::ErrorCode::kIo: return fail(kIoError, e.what());
    case zkrv::ErrorCode::kGuestFault: {
      const zkrv::Fault& f = *e.fault();
      const spec::Fault sf{static_cast<spec::FaultKind>(f.kind), f.pc, f.instruction, f.address};
      return fail(fault_exit_code(sf.kind), "only runs that exit can be proven: " + stopped_line(elf, sf, f.cycles, f.regs[2], max_cycles));
    }
    case zkrv::ErrorCode::kUnsatisfied: return fail(kFailed, e.what());
    case zkrv::ErrorCode::kOutOfMemory: return fail(kOutOfMemory, e.what());
    case zkrv::ErrorCode::kCancelled:
    case zkrv::ErrorCode::kInternal: break;
  }
  return fail(kInternal, e.what());
}

}  // namespace zkrv::cli
