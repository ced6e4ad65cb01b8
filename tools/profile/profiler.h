#pragma once
// Guest cycle profiler: attributes every cycle of a run to a call stack, using the ELF's
// function symbols and the RISC-V calling convention seen in the trace (JAL/JALR writing ra or
// t0 is a call; `jalr x0, 0(ra)` is a return; a jump without link to another function's entry is
// a tail call). Where code does something else, the stack is repaired and counted.
//
// Feed it trace records (ExecOptions::trace_sink), then call finish() and write a report.
//
// With the ELF's DWARF (DebugInfo), it also counts cycles per source location under each stack
// and tells call sites apart, so that the reports show inlined frames and source lines.

#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "spec/isa.h"
#include "tools/profile/debuginfo.h"
#include "tools/profile/symbols.h"

namespace zkrv::tools::profile {

inline constexpr int kNoScope = 256;

struct FunctionStats {
  std::string name;
  uint64_t self = 0, inclusive = 0, distinct_pcs = 0;
};

struct Node {  // call tree: one node per distinct stack
  int parent;  // -1 for a root
  int func;
  int site = -1;  // with DWARF: the parent's source location (DebugInfo) at the call; else -1
};

struct Leaf {  // cycles with `node` on top, at one source location (-1: none known)
  int node;
  int location;
  uint64_t self;
};

class Profiler {
 public:
  // sample_rate > 0 keeps one sample (the stack node) every sample_rate cycles, for the
  // Firefox format; 0 keeps none (text and folded outputs need only the per-node counts).
  // max_samples > 0 bounds the samples kept: whenever there would be more, every other one is
  // dropped and the rate doubles, so the run ends with at most max_samples samples, evenly
  // spaced (sample_rate() tells the rate used).
  // `debug` (may be null or empty; must outlive the profiler) adds source locations.
  explicit Profiler(const SymbolTable& symbols, uint64_t sample_rate = 0, size_t max_samples = 0,
                    const DebugInfo* debug = nullptr);
  // Either feed every trace record (ExecOptions::trace_sink), or, much cheaper, the fast
  // executor's control-flow events (ExecOptions::flow_sink); both give the same profile.
  void consume(std::span<const spec::StepRecord> records);
  void consume_flow(std::span<const spec::FlowEvent> events);
  void finish();

  uint64_t cycles() const { return cycles_; }
  uint64_t repairs() const { return repairs_; }
  const std::string& scope_error() const { return scope_error_; }
  // Function statistics (index = function id; the last one is "[unknown]"), for one scope or all.
  std::vector<FunctionStats> functions(int scope = -1) const;
  std::vector<int> scopes_used() const;  // scope ids that received cycles (kNoScope = outside)
  const std::vector<Node>& nodes() const { return nodes_; }
  const std::vector<uint64_t>& node_self() const { return node_self_; }
  const std::vector<uint32_t>& samples() const { return samples_; }  // node per sampled cycle
  // With DWARF, the source location of each sample (parallel to samples()); else empty.
  const std::vector<int32_t>& sample_locations() const { return sample_locations_; }
  // Cycles per (node, source location), sorted by node then location; without DWARF, one leaf
  // per node that ran, at location -1. Per node they sum to node_self().
  std::vector<Leaf> leaves() const;
  const DebugInfo* debug() const { return debug_; }
  uint64_t sample_rate() const { return sample_rate_; }
  std::string function_name(int func) const;

 private:
  struct Frame {
    int node;
    uint64_t return_address;  // UINT64_MAX for a root
  };
  int func_of(uint64_t pc) const;
  int location_at(uint64_t pc) const;  // -1 without DWARF or where it says nothing
  // Counts n instructions from pc (inside one function) under `node`, per source location.
  void count_locations(int node, uint64_t pc, uint64_t n);
  int child(int parent, int func, int site);
  void set_top(int func);
  void push_frame(int node, uint64_t return_address);
  void pop_frames(size_t keep);  // pops frames until `keep` remain
  // Attributes `count` consecutive instructions starting at pc (one per cycle).
  void run(uint64_t pc, uint64_t count);
  // The effect of a completed control-flow instruction on the stacks.
  void control(uint32_t insn, uint64_t pc, uint64_t next_pc, uint64_t a7, uint64_t a0);

  const SymbolTable& symbols_;
  const DebugInfo* debug_;  // null when there is no DWARF
  mutable int last_range_ = -1;  // location_at: the range found last
  // location_at: direct-mapped by pc, the range index holding it (a loop's blocks stay here)
  static constexpr size_t kRangeCache = 4096;
  mutable std::vector<std::pair<uint64_t, int>> range_cache_;
  std::unordered_map<uint64_t, uint64_t> leaf_self_;  // node << 32 | (location + 1) -> cycles
  // count_locations: direct-mapped by (pc, node), the end of the source range pc is in and the
  // counter of (node, its location) in leaf_self_ (elements of an unordered_map keep their address)
  struct Chunk {
    uint64_t pc = 0;
    int node = -1;
    uint64_t end = 0;
    uint64_t* counter = nullptr;
  };
  static constexpr size_t kChunkCache = 4096;
  std::vector<Chunk> chunk_cache_;
  std::vector<int32_t> sample_locations_;
  uint64_t sample_rate_;
  size_t max_samples_;
  int unknown_;
  std::vector<Node> nodes_;
  std::vector<int> roots_;                      // nodes without a parent
  std::vector<std::vector<int>> children_;      // per node: child node ids
  std::vector<uint64_t> node_self_;             // cycles with this node on top
  std::vector<std::vector<uint64_t>> scope_node_self_;  // per scope (0..256): cycles per node
  std::vector<std::vector<uint8_t>> pcs_seen_;  // per function: word offsets executed (0/1)
  mutable int last_func_ = -1;                  // func_of cache: the last function found
  std::vector<uint64_t> unknown_pcs_;
  std::vector<Frame> stack_;
  // return address -> indices into stack_ of the frames expecting it, innermost last
  std::unordered_map<uint64_t, std::vector<uint32_t>> frames_by_return_;
  std::vector<int> scope_stack_;
  std::vector<uint32_t> samples_;
  uint64_t cycles_ = 0, repairs_ = 0;
  uint64_t resume_pc_ = 0;  // flow mode: where straight-line execution continues
  bool started_ = false;
  std::string scope_error_;
};

// Reports.
std::string text_report(const Profiler& p, size_t top = 20);
std::string folded_report(const Profiler& p);
std::string firefox_profile(const Profiler& p, const std::string& product);

}  // namespace zkrv::tools::profile
