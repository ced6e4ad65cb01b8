#pragma once
// zkrv's host API, verifying side (CMake: find_package(zkrv) and link zkrv::verifier).
//
//   zkrv::Program program = zkrv::Program::from_file("guest.elf");
//   zkrv::Verdict v = zkrv::verify(program, proof_bytes, zkrv::Expected(/*exit_code=*/0));
//   if (v.ok()) use(v.statement->output);          // the public output the proof proves
//   else        log(v.rejection->what);            // why not, typed
//
// Errors. A verdict is a value: a rejected or malformed proof is an answer, never an exception.
// What keeps a call from giving its answer (an ELF that is not a zkrv guest, a file that cannot
// be read, a bad argument) is a zkrv::Error, an exception with a code. Exceptions, as the C++
// standard library does it, because such a failure cannot be ignored by forgetting a check, and
// an error value of every call would be std::expected, which is C++23. No call exits the process.
//
// This header and prover.h are the whole API: nothing here names zkrv's internal headers. The
// library is thread-safe in the usual sense: distinct objects from distinct threads; a Program is
// immutable and may be shared.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#ifndef ZKRV_API
#define ZKRV_API __attribute__((visibility("default")))
#endif

namespace zkrv {

// The library's version (the project's, e.g. "0.1.0") and the proof format versions it writes
// and reads: a single proof's and a bundle's (spec/protocol.md, protocol:proof:*).
ZKRV_API const char* version();
ZKRV_API unsigned proof_format_version();
ZKRV_API unsigned bundle_format_version();

enum class ErrorCode {
  kInvalidArgument,  // an option out of range, a combination that makes no sense
  kBadProgram,       // the ELF is not a zkrv guest (spec/isa.md's loading rules name why)
  kBadInput,         // an input too large
  kIo,               // a file missing, unreadable, or not writable
  kGuestFault,       // prove: the run does not exit (Error::fault() says how it stopped)
  kUnsatisfied,      // prove: the run breaks the constraint spec (a bug in zkrv or the machine)
  kOutOfMemory,      // prove: the run needs more memory than the budget (refused before the work)
  kCancelled,        // prove: the stop token was set
  kUnsupported,      // e.g. the GPU backend in a build without CUDA, or without a device
  kInternal,         // a bug in zkrv
  kBadKey,           // bytes that are not a zkrv verifying key (protocol:stark:key)
};
ZKRV_API const char* error_code_name(ErrorCode c);

// How a run stopped without exiting (spec/isa.md, isa:fault:*): the kind, where, after how
// many cycles, the registers then (sp is regs[2]), and one line describing it.
enum class FaultKind : uint8_t {
  kNone, kIllegalInstruction, kMisalignedJump, kFetch, kLoad, kStore, kBreakpoint, kCycleLimit,
};
struct Fault {
  FaultKind kind = FaultKind::kNone;
  uint64_t pc = 0, address = 0, cycles = 0;
  uint32_t instruction = 0;
  std::array<uint64_t, 32> regs{};
  std::string description;  // e.g. "load fault at pc 0x10010 (lw a0, 0(zero)): address 0x0 is not readable"
};

class ZKRV_API Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& what, std::optional<Fault> fault = std::nullopt);
  ErrorCode code() const noexcept { return code_; }
  const std::optional<Fault>& fault() const noexcept { return fault_; }  // set for kGuestFault

 private:
  ErrorCode code_;
  std::optional<Fault> fault_;
};

using Digest = std::array<uint8_t, 32>;
ZKRV_API std::string to_hex(std::span<const uint8_t> bytes);  // lower-case, two digits a byte

// A guest program: an ELF validated and loaded (RV64IM, static, ET_EXEC; spec/isa.md), and its
// digest, the one a proof of it names (protocol:stark:digest). Cheap to copy (shared, immutable).
class ZKRV_API Program {
 public:
  static Program from_elf(std::span<const uint8_t> elf);  // throws Error (kBadProgram)
  static Program from_file(const std::string& path);      // throws Error (kIo, kBadProgram)
  const Digest& digest() const;
  std::span<const uint8_t> elf() const;

  struct Impl;  // internal
  explicit Program(std::shared_ptr<const Impl> impl);
  const Impl& impl() const { return *impl_; }

 private:
  std::shared_ptr<const Impl> impl_;
};

// A program's verifying key (spec/protocol.md, protocol:stark:key): everything the verifier
// derives from the ELF alone (the digest, the entry point, the heights and the roots of the
// program tree, protocol:stark:program), computed once. Verifying with a key needs no ELF and
// costs the same whatever the size of the program's image. A key is trusted input: nothing in it
// ties its roots to its digest, so a forged key can name an honest program's digest; accepting a
// key is trusting whoever made it (Key::of(program).bytes() == key.bytes() checks one against the
// ELF). Cheap to copy.
class ZKRV_API Key {
 public:
  // Computes it: one LDE and Merkle tree of the program's columns per blowup the options allow
  // (seconds for an image of megabytes).
  static Key of(const Program& program);  // throws Error (kBadProgram: tables no proof can have)
  static Key from_bytes(std::span<const uint8_t> bytes);  // throws Error (kBadKey)
  static Key from_file(const std::string& path);          // throws Error (kIo, kBadKey)
  const Digest& digest() const;  // the program's, as Program::digest()
  std::vector<uint8_t> bytes() const;
  struct Impl;  // internal
  explicit Key(std::shared_ptr<const Impl> impl);
  const Impl& impl() const { return *impl_; }
 private:
  std::shared_ptr<const Impl> impl_;
};

// What the caller accepts (protocol:stark:policy): at least min_bits of the measure. A proof whose
// options give less is rejected at the security stage before any hash is computed.
struct Policy {
  enum class Measure { kProvable, kConjectured };
  Measure measure = Measure::kProvable;
  double min_bits = 100;
  static Policy provable() { return {Measure::kProvable, 100}; }
  static Policy conjectured() { return {Measure::kConjectured, 100}; }
  ZKRV_API std::string describe() const;  // e.g. "provable bits >= 100"
};

// What a proof claims: the program, the exit code, the public output, and its shape (one proof:
// each table's height as a power of two; a bundle: the number of segments and their size).
struct Statement {
  Digest program{};
  uint32_t exit_code = 0;
  std::vector<uint8_t> output;
  bool bundle = false;
  std::vector<uint8_t> log_heights;  // one proof: per table, spec order (spec/tables)
  uint64_t segments = 1;             // a bundle: how many, each of 2^log_segment_cycles cycles
  unsigned log_segment_cycles = 0;
};

// Why a proof was not accepted. The stages in the order the verifier checks them; `check` is the
// stable name of the check that failed (spec/protocol.md, protocol:stark:verify_*), `what` one
// line with the values compared.
struct Rejection {
  enum class Stage { kMalformed, kOptions, kStatement, kShape, kSecurity, kLogup, kConstraints, kMerkle, kPow, kFri };
  Stage stage = Stage::kMalformed;
  std::string check, what;
  std::optional<std::string> table;   // the table the check is about
  std::optional<uint64_t> segment;    // a bundle: the segment it is about
};
ZKRV_API const char* stage_name(Rejection::Stage s);  // "malformed", "options", ...

struct Verdict {
  std::optional<Rejection> rejection;  // none (with a statement): verified
  std::optional<Statement> statement;  // what the proof claims; absent only for malformed bytes
  double provable_bits = 0, conjectured_bits = 0;  // set once the options and shapes are accepted
  bool security_computed = false;
  bool ok() const { return statement && !rejection; }  // a default-constructed verdict is no verdict
};

// What the caller expects: the exit code, and optionally the exact public output (without it,
// the output the proof claims is the one verified: read it from the verdict's statement).
// max_cycles bounds a bundle's run length (segments × segment size).
struct Expected {
  Expected() = default;
  Expected(uint32_t exit_code, std::optional<std::vector<uint8_t>> output = std::nullopt,
           uint64_t max_cycles = uint64_t{1} << 32)
      : exit_code(exit_code), output(std::move(output)), max_cycles(max_cycles) {}
  uint32_t exit_code = 0;
  std::optional<std::vector<uint8_t>> output;
  uint64_t max_cycles = uint64_t{1} << 32;
};

// Verifies a proof (one proof or a bundle: told apart by their first bytes) of `program`. Never
// throws on any proof bytes; throws Error: kInvalidArgument for a policy out of range,
// kOutOfMemory when an allocation fails.
ZKRV_API Verdict verify(const Program& program, std::span<const uint8_t> proof, const Expected& expected = {},
                        const Policy& policy = Policy::provable());
// The same verdict from the program's key instead of its ELF.
ZKRV_API Verdict verify(const Key& key, std::span<const uint8_t> proof, const Expected& expected = {},
                        const Policy& policy = Policy::provable());

}  // namespace zkrv
