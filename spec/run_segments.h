#pragma once
// How a run is cut into segments (spec/protocol.md §9, `protocol:segments:*`): the boundary
// states Σ_0 … Σ_N between segments, the chunk bounds C_0 … C_N of the global memory argument,
// and each byte's final token. A RunPlanner reads a run's records as an executor streams them
// (ExecOptions::trace_sink and syscall_sink), so its memory grows with the bytes the run touches
// (5 bytes per touched byte, in 4 KiB pages), never with the run's length.
//
// "Segment" alone names an ELF segment (spec/isa.h); the pieces of a run are run segments here.

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "spec/isa.h"

namespace zkrv::spec {

// spec: protocol:segments:cut — a run segment has at most 2^k cycles, kMinSegmentLog <= k <=
// kMaxSegmentLog; the default keeps one segment's proof within about 8 GB here.
inline constexpr unsigned kMinSegmentLog = 10;
inline constexpr unsigned kMaxSegmentLog = 21;
inline constexpr unsigned kDefaultSegmentLog = 20;
// Why `cycles` cycles cannot be cut into segments of 2^log_cycles (nullopt when they can): k out of
// range, or N·2^k above `max_cycles` (the verifier's cycle bound).
std::optional<std::string> check_segmenting(uint64_t cycles, unsigned log_cycles, uint64_t max_cycles);
// N = ⌈cycles / 2^k⌉ (at least 1).
uint64_t segment_count(uint64_t cycles, unsigned log_cycles);

// spec: protocol:segments:boundary — Σ_s, the machine between segment s − 1 and segment s.
struct BoundaryState {
  uint64_t pc = 0;
  std::array<uint64_t, 32> regs{};  // x0 … x31; x0 is 0; all 0 in Σ_N (unused there)
  uint64_t ipos = 0;                // bytes read from the private input so far
  bool eof = false;                 // a read from the input has come back short
  uint64_t opos = 0;                // bytes written to the public output so far
  bool operator==(const BoundaryState&) const = default;
};

// What one run segment holds: its cycles and the rows its tables will need.
struct RunSegment {
  uint64_t first_cycle = 0;  // s·2^k
  uint64_t cycles = 0;       // 2^k, or 1 … 2^k for the last
  uint64_t touched = 0;      // distinct byte addresses it loads, stores or moves (memb rows)
  uint64_t chunk = 0;        // touched addresses a with C_s < a <= C_{s+1} (its mem rows)
  uint64_t syscalls = 0;     // ecalls that are not the exit (syscall rows)
  uint64_t io_bytes = 0;     // bytes those ecalls move (io rows)
  bool operator==(const RunSegment&) const = default;
};

// The bytes a run touches, each with its value now and the last run segment that touched it.
class TouchedMemory {
 public:
  explicit TouchedMemory(const ProgramImage& image);
  // Segment `seg` touches byte `addr` (< 2^32); returns true the first time `seg` does.
  bool touch(uint64_t addr, uint64_t seg);
  void write(uint64_t addr, uint8_t value);  // after touch
  bool touched(uint64_t addr) const;
  // spec: protocol:segments:memory — the byte's final token (t = s + 1 of the last segment that
  // touched it, its value then). Only for touched bytes.
  uint64_t final_time(uint64_t addr) const;
  uint8_t final_value(uint64_t addr) const;
  // The touched addresses in increasing order, i-th of them through `visit(i, addr)`.
  template <class F>
  void for_each(F&& visit) const {
    uint64_t i = 0;
    for (size_t p = 0; p < pages_.size(); ++p)
      if (pages_[p])
        for (uint64_t o = 0; o < kPageSize; ++o)
          if (pages_[p]->last[o] != 0) visit(i++, (uint64_t{p} << 12) | o);
  }
  // The touched addresses a with lo < a <= hi, in increasing order, through `visit(a)`.
  template <class F>
  void for_each_in(uint64_t lo, uint64_t hi, F&& visit) const {
    const uint64_t first = lo + 1;
    for (uint64_t p = first >> 12; p <= (hi >> 12) && p < pages_.size(); ++p)
      if (pages_[p])
        for (uint64_t o = 0; o < kPageSize; ++o) {
          const uint64_t a = (p << 12) | o;
          if (a >= first && a <= hi && pages_[p]->last[o] != 0) visit(a);
        }
  }
  uint64_t count() const { return count_; }
  uint64_t pages() const { return allocated_; }

 private:
  struct Page {
    std::array<uint32_t, kPageSize> last{};  // last segment that touched the byte, plus 1; 0: none
    std::array<uint8_t, kPageSize> value{};
  };
  Page& page(uint64_t addr);
  const ProgramImage& image_;
  std::vector<std::unique_ptr<Page>> pages_;
  uint64_t count_ = 0, allocated_ = 0;
};

// spec: protocol:segments:boundary, protocol:segments:memory — everything the statement of a
// bundle says about how its run is cut, and each byte's final token.
struct RunPlan {
  unsigned log_cycles = 0;                  // k
  uint64_t cycles = 0;                      // the run's
  std::vector<BoundaryState> boundaries;    // Σ_0 … Σ_N
  std::vector<uint64_t> chunks;             // C_0 … C_N
  std::vector<RunSegment> segments;         // N
  std::shared_ptr<const TouchedMemory> memory;
  size_t count() const { return segments.size(); }
};

// Feed it a run's StepRecords in order (add_steps) and its SyscallEvents no later than the chunk
// that holds their ecall's step (add_syscall), then finish() with the run's result.
class RunPlanner {
 public:
  // Throws std::invalid_argument when log_cycles is out of range.
  RunPlanner(const ProgramImage& image, unsigned log_cycles);
  void add_syscall(const SyscallEvent& ev);
  void add_steps(std::span<const StepRecord> steps);
  // Throws std::invalid_argument unless the run exited after exactly the steps fed.
  RunPlan finish(const ExecResult& run);

 private:
  void close_segment();
  BoundaryState now_;
  RunPlan plan_;
  std::shared_ptr<TouchedMemory> memory_;
  std::deque<SyscallEvent> pending_;
  RunSegment seg_;
  uint64_t next_cycle_ = 0;
  uint64_t last_pc_ = 0;
};

// Hooks a planner onto an executor's options: trace on, both sinks feeding `planner` (with
// `also`, when set, called on every chunk as well).
void attach(RunPlanner& planner, ExecOptions& options,
            std::function<void(std::span<const StepRecord>)> also = nullptr);

}  // namespace zkrv::spec
