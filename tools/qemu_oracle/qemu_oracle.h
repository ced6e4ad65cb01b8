#pragma once
// Runs an ELF under qemu-riscv64 (the independent oracle) with the input on stdin, and reports
// how it ended and what it wrote to stdout. Used by the conformance runner, the differential
// tests and the benchmark.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace zkrv::tools {

struct QemuResult {
  bool started = false;      // false when qemu could not be run at all (see error)
  bool exited = false;       // exited normally with exit_code; otherwise killed by signal
  int exit_code = 0;         // 0..255
  int signal = 0;
  bool timed_out = false;
  std::vector<uint8_t> stdout_bytes;
  std::string stderr_text;   // qemu's own diagnostics and the guest's fd 2 (first 64 KiB)
  std::string error;
  // The guest stopped abnormally: killed by a signal, or qemu-user gave up on a CPU exception
  // it does not map to a signal (it does so for misaligned instruction addresses: exit 1 and
  // "unhandled CPU exception" on stderr).
  bool guest_faulted() const {
    return started && !timed_out &&
           (!exited || (exit_code != 0 && stderr_text.find("unhandled CPU exception") != std::string::npos));
  }
};

// The qemu-riscv64 binary found at configure time, or from $ZKRV_QEMU; empty when absent.
std::string qemu_path();

// `elf_path` must exist. The guest runs with `-cpu rv64,c=false` (no C extension, so a jump to
// a 2-byte-aligned address faults as in zkrv). `timeout_s` bounds the run.
QemuResult run_qemu(const std::string& elf_path, std::span<const uint8_t> input, double timeout_s = 60);

// Writes bytes to a fresh file in $TMPDIR and returns its path (caller removes it).
std::string write_temp_file(std::span<const uint8_t> bytes, const std::string& suffix);

}  // namespace zkrv::tools
