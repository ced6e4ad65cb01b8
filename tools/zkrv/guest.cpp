#include <cstdio>
#include <iostream>

#include "reference/elf/elf_loader.h"
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
