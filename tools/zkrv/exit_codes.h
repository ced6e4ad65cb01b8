#pragma once
// Process exit codes of `zkrv run` (documented in tools/README.md and `zkrv run --help`).
// A guest that exits normally gives its own exit code (low 8 bits). A guest may choose a code
// that collides with one below; --json reports the outcome unambiguously.

#include "spec/isa.h"

namespace zkrv::cli {

inline constexpr int kUsage = 64;        // bad command line
inline constexpr int kBadInput = 65;     // ELF rejected, input too large, malformed file
inline constexpr int kIoError = 66;      // file missing or unreadable, output not writable
inline constexpr int kFaultBase = 100;   // 100 + FaultKind: 101 illegal instruction,
                                         // 102 misaligned jump, 103 fetch, 104 load, 105 store,
                                         // 106 breakpoint, 107 cycle limit

inline int fault_exit_code(spec::FaultKind kind) { return kFaultBase + static_cast<int>(kind); }

}  // namespace zkrv::cli
