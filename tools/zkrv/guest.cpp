#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "reference/elf/elf_loader.h"
#include "spec/run_segments.h"
#include "tools/common/files.h"
#include "tools/profile/symbols.h"
#include "tools/zkrv/commands.h"
#include "tools/zkrv/exit_codes.h"

namespace zkrv::cli {

int fail(int code, const std::string& msg) {
  std::cerr << "zkrv: error: " << msg << "\n";
  return code;
}

namespace {
bool quiet_ = false;
std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}
}  // namespace
void set_quiet(bool quiet) { quiet_ = quiet; }
void progress(const std::string& line) {
  if (!quiet_) std::cerr << "zkrv: " << line << "\n";
}


Memory memory_here() {
  Memory m{static_cast<double>(::sysconf(_SC_PHYS_PAGES)) * static_cast<double>(::sysconf(_SC_PAGESIZE)),
           "this machine has"};
  if (const char* e = std::getenv("ZKRV_MEMORY_BYTES")) {  // a share of a machine (and the tests' small one)
    char* end = nullptr;
    const double v = std::strtod(e, &end);
    if (end != e && *end == 0 && v > 0 && v < m.bytes) m = {v, "ZKRV_MEMORY_BYTES is"};
  }
  if (rlimit as{}; ::getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY && static_cast<double>(as.rlim_cur) < m.bytes)
    m = {static_cast<double>(as.rlim_cur), "the address-space limit (ulimit -v) is"};
  return m;
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
    if (kSegmentBytesPerCycle * static_cast<double>(uint64_t{1} << j) + kSegmentBaseBytes <= have) k = j;
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

std::string stopped_line(const Guest& g, const spec::ExecResult& r, uint64_t max_cycles) {
  const auto symbols = tools::profile::SymbolTable::from_elf(g.elf);
  std::string where;
  if (const int f = symbols.find(r.fault.pc); f >= 0) where = " in " + symbols.functions()[static_cast<size_t>(f)].name;
  const std::string after = " after " + std::to_string(r.cycles) + " cycles";
  const auto kind = r.fault.kind;
  if (const auto stack = symbols.stack(); stack && (kind == spec::FaultKind::kLoad || kind == spec::FaultKind::kStore)) {
    const auto [bottom, top] = *stack;
    const uint64_t sp = r.regs[2];
    constexpr uint64_t kGuard = 0x10000;  // zkrv.ld's unmapped guard below the stack
    const bool in_guard = bottom >= kGuard && r.fault.address < bottom && r.fault.address >= bottom - kGuard;
    if (in_guard || (sp < bottom && bottom - sp <= top - bottom))  // a frame larger than the guard jumps it
      return "guest stack overflow: " + spec::describe(r.fault) + where + after + ", sp " + hex(sp) + " below the stack [" +
             hex(bottom) + ", " + hex(top) + ") of " + std::to_string((top - bottom) >> 10) +
             " KiB (give the guest more: zkrv_add_guest's STACK_SIZE, or -Wl,--defsym=ZKRV_STACK_SIZE=...)";
  }
  std::string line = "guest " + spec::describe(r.fault) + where + after;
  if (kind == spec::FaultKind::kCycleLimit) line += " (the limit: --max-cycles " + std::to_string(max_cycles) + "; raise it to run longer)";
  return line;
}

}  // namespace zkrv::cli
