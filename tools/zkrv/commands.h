#pragma once
// What the zkrv subcommands share (guest.cpp, options.cpp; the trace check is api/trace_check.h), and the subcommands,
// one file each (run.cpp, profile.cpp, check.cpp, prove.cpp, verify.cpp): each registers its
// options on the app (add_*) and runs when chosen (cmd_*); main.cpp wires them.

#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <string>
#include <vector>

#include "api/trace_check.h"
#include "zkrv/prover.h"
#include "optimized/air/check.h"
#include "reference/air/trace.h"
#include "spec/isa.h"
#include "spec/run_segments.h"
#include "spec/stark.h"

namespace zkrv::opt {
class Backend;
}  // namespace zkrv::opt

namespace zkrv::cli {

// Prints "zkrv: error: MSG" on stderr and returns code. An error is one line, and the last.
int fail(int code, const std::string& msg);
// The name that starts every error and progress line ("zkrv"; zkrv-prove-mpi's names its rank).
void set_name(const std::string& name);

// Progress lines ("zkrv: ..." on stderr) of the long subcommands; --quiet turns them off.
void set_quiet(bool quiet);
void progress(const std::string& line);

// Numeric options are parsed strictly: a whole number is decimal digits (or 0x and hex digits),
// with no sign, fraction, exponent or overflow; out of [lo, hi] is a usage error that states
// the range in plain numbers. Use as add_option(...)->check(uint_range(1, N)).
std::optional<uint64_t> parse_uint(std::string_view s);
CLI::Validator uint_range(uint64_t lo, uint64_t hi);
CLI::Validator real_range(double lo, double hi);
// A number of bytes: a whole number, optionally followed by K, M, G or T (2^10, 2^20, 2^30, 2^40).
std::optional<uint64_t> parse_bytes(std::string_view s);
CLI::Validator byte_count();
// --segment-cycles: a power of two, 2^kMinSegmentLog .. 2^kMaxSegmentLog (protocol:segments:cut).
CLI::Validator segment_cycles();
// Lower-case hex of the bytes; a string's body escaped for JSON (quotes, backslashes, control bytes).
std::string hex_bytes(std::span<const uint8_t> v);
std::string json_escape(const std::string& in);
inline constexpr uint64_t kMaxU64 = UINT64_MAX;

// A guest ELF (validated) and its input, or a one-line error and the exit code to return.
struct Guest {
  std::vector<uint8_t> elf, input;
  spec::ProgramImage image;
};
inline constexpr uint64_t kMaxElfBytes = uint64_t{1} << 30;
int load_guest(const std::string& program, const std::string& input_path, uint64_t max_input, Guest& out);
// One line for a run that stopped instead of exiting: the fault, the function its pc is in (from
// the ELF's symbols), the cycles, and what to do: for the cycle limit, the option that raises it
// (now max_cycles); for an access in the guard below zkrv.ld's stack, or with sp below the
// stack, that the stack overflowed, its size, and STACK_SIZE.
std::string stopped_line(std::span<const uint8_t> elf, const spec::Fault& fault, uint64_t cycles, uint64_t sp,
                         uint64_t max_cycles);
inline std::string stopped_line(const Guest& g, const spec::ExecResult& r, uint64_t max_cycles) {
  return stopped_line(g.elf, r.fault, r.cycles, r.regs[2], max_cycles);
}

// The memory a run may use here (zkrv::memory_budget): the machine's physical memory, or
// ZKRV_MEMORY_BYTES (a number of bytes) or ulimit -v where lower; `what` names which ("this
// machine has", ...).
struct Memory {
  double bytes;
  std::string what;
};
Memory memory_here();
// What this machine takes. check holds a run's whole trace: about kCheckBytesPerCycle per cycle
// of its tables (padded to a power of two; 2.3 KB measured at 2^18 and 2^21), and
// kCheckReferenceBytesPerCycle on the reference path (--reference, --spec, --segment-cycles, the
// report of a failure: 10.6 KB measured, rows of vectors); a segment's proof, api/estimate.h.
inline constexpr double kCheckBytesPerCycle = 3584, kCheckReferenceBytesPerCycle = 12288;
// The largest k such that check takes runs of 2^k cycles here at that cost (at least 10).
unsigned check_capacity_log(double bytes_per_cycle);
// The largest segment size 2^k (kMinSegmentLog..kMaxSegmentLog) whose proof fits here, or 0.
unsigned segment_capacity_log();
// One paragraph for --help: what check and prove take on this machine.
std::string capacity_text();

// The generated evaluator's check of a built trace (api/trace_check.h), shared with the prover.
using api::fast_tables_check;
using api::fast_trace_check;

// Writes DIR/trace.json (Chrome/Perfetto) and DIR/summary.json of the spans recorded so far.
int write_spans(const std::string& dir);

struct RunArgs {
  std::string program, input, output, executor = "fast", spans_dir;
  uint64_t max_cycles = spec::kDefaultMaxCycles;
  uint64_t max_input = spec::kDefaultMaxInputBytes;
  std::optional<uint64_t> seed, segment_cycles;
  bool stats = false, json = false;
};
CLI::App* add_run(CLI::App& app, RunArgs& a);
int cmd_run(const RunArgs& a);

struct ProfileArgs {
  std::string program, input, out, format = "text", sample_rate = "auto";
  uint64_t max_cycles = spec::kDefaultMaxCycles, seed = 0;
  size_t top = 20;
  bool quiet = false, no_dwarf = false;
};
CLI::App* add_profile(CLI::App& app, ProfileArgs& a);
int cmd_profile(const ProfileArgs& a);

struct CheckArgs {
  std::string program, input, spec_dir;  // spec_dir empty: the spec built into zkrv
  uint64_t max_cycles = uint64_t{1} << 22;
  uint64_t seed = 0;
  std::optional<uint64_t> segment_cycles;
  bool quiet = false, reference = false;
};
CLI::App* add_check(CLI::App& app, CheckArgs& a);
int cmd_check(const CheckArgs& a);

struct ProveArgs {
  std::string program, input, out, security = "provable", prover = "optimized", spans_dir, lde = "auto";
  std::string backend = "cpu";
  unsigned threads = 0;
  uint64_t max_cycles = spec::kDefaultMaxCycles;
  uint64_t seed = 0;
  uint64_t segment_cycles = uint64_t{1} << spec::kDefaultSegmentLog;
  uint64_t max_memory = 0;  // 0: zkrv::memory_budget()
  bool json = false, quiet = false;
};
CLI::App* add_prove(CLI::App& app, ProveArgs& a);
// prove's options and help on `p` (the subcommand, or zkrv-prove-mpi's own app).
void add_prove_options(CLI::App& p, ProveArgs& a);
// With peers, this process is one rank of several proving the run (zkrv::Peers): only rank 0
// writes the proof and prints the summary.
int cmd_prove(const ProveArgs& a, zkrv::Peers* peers = nullptr);
// A zkrv::Error from the host API as the exit code and one line (a guest fault described with the
// ELF's symbols, stopped_line).
int fail_api(const zkrv::Error& e, std::span<const uint8_t> elf, uint64_t max_cycles);

struct VerifyArgs {
  std::string proof, program, key, output, write_output;
  uint32_t exit_code = 0;
  std::string security = "provable";  // the policy preset (protocol:stark:policy)
  double min_provable_bits = -1;      // set: accept proofs with at least this many provable bits instead
  bool json = false;
};
CLI::App* add_verify(CLI::App& app, VerifyArgs& a);
int cmd_verify(const VerifyArgs& a);

struct InspectArgs {
  std::string proof;
};
CLI::App* add_inspect(CLI::App& app, InspectArgs& a);
int cmd_inspect(const InspectArgs& a);

struct DigestArgs {
  std::string program;
};
CLI::App* add_digest(CLI::App& app, DigestArgs& a);
int cmd_digest(const DigestArgs& a);

struct KeyArgs {
  std::string program, out;
};
CLI::App* add_key(CLI::App& app, KeyArgs& a);
int cmd_key(const KeyArgs& a);

struct SecurityArgs {
  std::string security = "provable";
  unsigned log_max = spec::kMaxLogHeight;
  bool json = false;
};
CLI::App* add_security(CLI::App& app, SecurityArgs& a);
struct InputArgs {
  std::vector<std::string> values;
  std::string out = "-";
};
CLI::App* add_input(CLI::App& app, InputArgs& a);
int cmd_input(const InputArgs& a);
int cmd_security(const SecurityArgs& a);
// The options, the shape and every term of both figures as JSON members (no braces around them).
std::string security_json(const spec::StarkOptions& o, const spec::SecurityShape& sh, const spec::StarkSecurity& s);

}  // namespace zkrv::cli
