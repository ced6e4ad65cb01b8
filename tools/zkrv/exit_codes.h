#pragma once
// Process exit codes of every zkrv subcommand: one table, shown by `zkrv --help` and in
// tools/README.md. A guest that exits normally makes `zkrv run` exit with the guest's own code
// (low 8 bits); a guest may choose a code that collides with one below, and --json reports the
// outcome unambiguously.

#include <string>

#include "spec/isa.h"

namespace zkrv::cli {

inline constexpr int kFailed = 1;        // check/prove: the run breaks the spec; verify: rejected
inline constexpr int kUsage = 64;        // bad command line
inline constexpr int kBadInput = 65;     // ELF rejected, input too large, malformed file
inline constexpr int kIoError = 66;      // file missing or unreadable, output not writable
inline constexpr int kInternal = 70;     // a bug in zkrv
inline constexpr int kOutOfMemory = 71;  // out of memory, or more needed than the machine has
inline constexpr int kFaultBase = 100;   // 100 + FaultKind: 101 illegal instruction,
                                         // 102 misaligned jump, 103 fetch, 104 load, 105 store,
                                         // 106 breakpoint, 107 cycle limit

inline int fault_exit_code(spec::FaultKind kind) { return kFaultBase + static_cast<int>(kind); }

// The table `zkrv --help` prints, made from the constants above.
inline std::string exit_code_table() {
  using spec::FaultKind;
  auto row = [](const std::string& code, const std::string& meaning) {
    return "  " + code + std::string(code.size() < 9 ? 9 - code.size() : 1, ' ') + meaning + "\n";
  };
  auto fault = [](FaultKind k) { return std::to_string(fault_exit_code(k)) + " " + std::string(spec::fault_name(k)); };
  return "Exit codes (every subcommand):\n" +
         row("0", "success: run: the guest exited, and zkrv exits with the guest's own code (low 8 bits)") +
         row(std::to_string(kFailed), "check, prove: the run breaks the constraint spec; verify: proof rejected") +
         row(std::to_string(kUsage), "bad command line") +
         row(std::to_string(kBadInput), "bad input: ELF rejected, input too large, malformed proof or spec, cost-scope misuse") +
         row(std::to_string(kIoError), "file missing or unreadable, or output not writable") +
         row(std::to_string(kInternal), "internal error (a bug in zkrv)") +
         row(std::to_string(kOutOfMemory), "out of memory, or the run needs more memory than this machine (or its cgroup, ulimit -v, ZKRV_MEMORY_BYTES, --max-memory) gives") +
         row(std::to_string(fault_exit_code(FaultKind::kIllegalInstruction)) + "-" +
                 std::to_string(fault_exit_code(FaultKind::kCycleLimit)),
             "the guest faulted: " + fault(FaultKind::kIllegalInstruction) + ", " + fault(FaultKind::kMisalignedJump) +
                 ", " + fault(FaultKind::kFetch) + ",") +
         row("", fault(FaultKind::kLoad) + ", " + fault(FaultKind::kStore) + ", " + fault(FaultKind::kBreakpoint) + ", " +
                     fault(FaultKind::kCycleLimit));
}

}  // namespace zkrv::cli
