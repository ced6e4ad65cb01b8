#pragma once
// zkrv's host API, proving side (CMake: find_package(zkrv) and link zkrv::prover, which holds
// the verifier too: link it instead of zkrv::verifier, not beside it): execute a guest, prove a
// run, and everything of verifier.h.
//
//   zkrv::Program program = zkrv::Program::from_file("guest.elf");
//   zkrv::Proof proof = zkrv::prove(program, input_bytes);            // throws zkrv::Error
//   zkrv::Verdict v = zkrv::verify(program, proof.bytes, zkrv::Expected(proof.report.statement.exit_code));
//
// Errors as in verifier.h: a run that faults is an answer of execute() (Execution::fault), and an
// Error (kGuestFault, with the fault) of prove(), which has no proof to give.
#include <cstdint>
#include <functional>
#include <span>
#include <stop_token>
#include <string>
#include <utility>
#include <vector>

#include "zkrv/verifier.h"

namespace zkrv {

struct ExecuteOptions {
  uint64_t max_cycles = uint64_t{1} << 32;  // a longer run stops with FaultKind::kCycleLimit
  uint64_t random_seed = 0;                 // the seed of zkvm_random_u64 (spec/isa.md, isa:sys:random)
};

// A run: exited (with the guest's exit code) or stopped by a fault; its public output (fd 1) and
// debug log (fd 2, outside any statement), and its length.
struct Execution {
  bool exited = false;
  uint32_t exit_code = 0;
  uint64_t cycles = 0;
  std::vector<uint8_t> output, log;
  std::optional<Fault> fault;  // set when !exited
};
// Throws Error (kBadInput) only for an input over 256 MiB.
ZKRV_API Execution execute(const Program& program, std::span<const uint8_t> input, const ExecuteOptions& options = {});

// What prove() reports while it works, on the calling thread: a stage ended (kStage: `text` is
// its name, e.g. "commit" or "prove 3/8", `seconds` its time); a line worth showing (kNote: the
// memory it will need, the segments, the time left); the bytes each of the prover's live buffers
// held at a stage's end (kBuffers: `text` the stage; the names are for reading, not stable).
struct Progress {
  enum class Kind { kStage, kNote, kBuffers };
  Kind kind = Kind::kStage;
  std::string text;
  double seconds = 0;
  std::vector<std::pair<std::string, uint64_t>> live_buffers;
};

// The processes that prove one run together: the ranks of an MPI job (zkrv-prove-mpi), say
// (spec/protocol.md, protocol:segments:peers). Each calls prove_to() at once with the same
// program, input and options and its own Peers. A bundle's N segments are shared out in blocks:
// rank r proves segments ⌊r·N/P⌋ … ⌊(r+1)·N/P⌋ − 1 of P ranks, and only rank 0's `write` gets
// bytes: the whole bundle, the bytes one process alone writes. A run of one segment is one proof,
// which rank 0 makes alone. Every call is collective but send() and receive(), which pair up in
// order; a process that fails must bring the others down (MPI_Abort): they would wait for it.
class Peers {
 public:
  virtual ~Peers() = default;
  virtual unsigned rank() const = 0;  // 0 … size() − 1
  virtual unsigned size() const = 0;
  // How many of the processes share this machine's memory: the memory budget is divided among them.
  virtual unsigned local_size() const { return 1; }
  // Every process's bytes, in rank order, to every process.
  virtual std::vector<std::vector<uint8_t>> all_gather(std::span<const uint8_t> mine) = 0;
  // From a rank above 0 to rank 0: send() there, receive(that rank) on rank 0.
  virtual void send(std::span<const uint8_t> bytes) = 0;
  virtual std::vector<uint8_t> receive(unsigned from) = 0;
};

struct ProveOptions {
  ExecuteOptions execute;
  // provable: at least 100 provable bits; conjectured: at least 100 bits under the ethSTARK
  // conjecture, a smaller proof (spec/protocol.md, protocol:stark:presets).
  enum class Security { kProvable, kConjectured } security = Security::kProvable;
  // A run longer than this (a power of two, 2^10 .. 2^21) is proven as a bundle of segments of
  // this many cycles, one segment in memory at a time (protocol:segments:*); a shorter one as one proof.
  uint64_t segment_cycles = uint64_t{1} << 20;
  // optimized: threaded, the generated evaluator; reference: plain and single-threaded. Same bytes.
  enum class Prover { kOptimized, kReference } prover = Prover::kOptimized;
  unsigned threads = 0;  // the optimized prover's threads; 0: every core
  // The optimized prover: hold the LDE, or compute it a part at a time in each pass (about 2.5x
  // less memory); kAuto holds it when no table is taller than 2^17 rows and it fits in half the budget.
  enum class Lde { kAuto, kHold, kStream } lde = Lde::kAuto;
  // Where the optimized prover's steps run: kCpu; kGpu (the CUDA backend: a CUDA build and a
  // device); kDual (both in lockstep, every step compared: for checking a backend). Same bytes.
  enum class Backend { kCpu, kGpu, kDual } backend = Backend::kCpu;
  // The memory the prover may use, in bytes; 0: memory_budget() (with peers, divided among the
  // Peers::local_size() ranks of this machine). A run estimated to need more is refused
  // (kOutOfMemory) after one execution of the guest and before any table is built.
  double max_memory = 0;
  std::function<void(const Progress&)> progress;  // called on the calling thread
  // Checked at every stage's end (and before each segment is proven): once set, prove() stops with
  // Error(kCancelled), writes nothing more, and frees what it held. A single proof is written at
  // its end, so a cancelled one has written nothing; a bundle's head and the segments proven before
  // the stop may have been handed to `write`.
  std::stop_token stop;
  Peers* peers = nullptr;  // set: this process is one of several proving the run (Peers)
};

// What prove() made: the run (cycles, exit code, output) and the proof's shape and security.
struct ProveReport {
  uint64_t cycles = 0;
  Statement statement;            // what the proof claims (the program, exit code, output, shape)
  uint64_t proof_bytes = 0;
  double provable_bits = 0, conjectured_bits = 0;
  unsigned queries = 0, preset_queries = 0;  // a bundle may raise the preset's queries (protocol:segments:queries)
  std::vector<std::pair<std::string, uint64_t>> table_heights;  // one proof: each table's rows, spec order
  ProveOptions::Lde lde = ProveOptions::Lde::kStream;            // one optimized proof: what it did
  double estimated_bytes = 0;     // the memory it estimated it would need
};

struct Proof {
  std::vector<uint8_t> bytes;
  ProveReport report;
};

// Executes `program` on `input`, checks the run against the constraint spec, and proves it.
// Throws Error: kGuestFault (the run does not exit), kUnsatisfied, kOutOfMemory (refused, or an
// allocation failed), kCancelled, kUnsupported, kInvalidArgument, kBadInput (an input over
// 256 MiB), kInternal; an exception thrown by the caller's `progress` or `write` comes out as it
// was. The same program, input and options give the same bytes.
ZKRV_API Proof prove(const Program& program, std::span<const uint8_t> input, const ProveOptions& options = {});
// The same, with the proof's bytes handed to `write` as they are made (a bundle one segment at a
// time), so that a long run's proof is never whole in memory; an exception from `write` stops the
// prover and propagates.
ZKRV_API ProveReport prove_to(const Program& program, std::span<const uint8_t> input, const ProveOptions& options,
                              const std::function<void(std::span<const uint8_t>)>& write);

// The memory here: the budget prove() uses when ProveOptions::max_memory is 0: the lowest of the
// machine's physical memory, its MemAvailable (/proc/meminfo), the memory limit of this process's
// cgroup and its ancestors (v1 or v2), ZKRV_MEMORY_BYTES (a number of bytes) and the address-space
// limit (ulimit -v); `source` says which ("this machine has", "the cgroup's memory limit is", ...).
struct MemoryBudget {
  double bytes = 0;
  std::string source;
};
ZKRV_API MemoryBudget memory_budget();

}  // namespace zkrv
