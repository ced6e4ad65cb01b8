#pragma once
// What proving takes: the memory estimates the prover of the host API checks before the work,
// and zkrv's --help states. Inside the host API: not installed.
#include <cstddef>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "spec/isa.h"
#include "spec/run_segments.h"

namespace zkrv::api {

// A segment's proof before any run is known (what --help says this machine takes): about
// kSegmentBytesPerCycle per cycle of the segment and kSegmentBaseBytes besides, plus 6 bytes per
// byte the run touches; an upper bound for the workloads measured (the loop workload's 2^20-cycle
// segments peaked at 7.5 to 7.6 GB, 0.85 of it; sha256_chain's at 6.7 GB). A run's own estimate,
// once it has been executed, is estimated_bundle_bytes below.
inline constexpr double kSegmentBytesPerCycle = 8192, kSegmentBaseBytes = 0.3e9;
double estimated_segment_bytes(unsigned log_segment, size_t touched_bytes);

// What one execution tells of a run's tables before any is built: the executor's statistics
// (ExecOptions::collect_stats), the distinct bytes it touched (spec::RunPlanner), and the bytes
// and number of its syscalls.
struct RunCounts {
  uint64_t cycles = 0, touched_bytes = 0, io_bytes = 0, syscalls = 0;
  spec::ExecStats stats;
  // The instructions of each class per segment of the cut execute_first was given (its cycles,
  // syscalls and io bytes are the plan's, spec::RunSegment).
  std::vector<std::array<uint64_t, static_cast<size_t>(spec::InsnClass::kCount)>> segment_classes;
};
// The first execution, before anything is built: the run, its cut into segments of 2^k cycles
// (spec: protocol:segments:cut — boundaries, chunk bounds, each byte's final token), and its counts.
struct FirstRun {
  spec::ExecResult run;
  std::optional<spec::RunPlan> plan;  // when the run exited
  RunCounts counts;
};
FirstRun execute_first(const spec::ProgramImage& image, std::span<const uint8_t> input, const spec::ExecOptions& exec,
                       unsigned log_segment);

// Each table's height (spec order) as the trace builder (optimized/trace) will make it: the
// tables built from the ELF, the output and the fixed ones as the verifier derives them; cpu one
// row per cycle; alu one per ALU, compare and branch instruction, shift one per shift, div one per
// division, mul one per multiplication, shift and two per division; mem one per byte touched;
// io one per byte read or written; syscall one per syscall; each padded as the tables say.
std::vector<size_t> predicted_heights(const spec::ProgramImage& image, const std::vector<uint8_t>& output, const RunCounts& run);

// protocol:segments:* — each segment's table heights (spec order of the segment AIR) as the
// segment builder (optimized/trace/segments) will make them: the fixed and ELF tables as the
// verifier derives them; output the segment's slice of the output; cpu its cycles; alu, shift, mul,
// div, io and syscall as predicted_heights counts them, from the segment's classes and the plan's
// syscalls and io bytes; mem its chunk of the global memory argument and memb the bytes it touches.
std::vector<std::vector<size_t>> predicted_segment_heights(const spec::ProgramImage& image, const spec::RunPlan& plan,
                                                           const RunCounts& run);

// The optimized prover holding the LDE (and the reference prover): per table row, every column on
// the trace domain and on the LDE coset, three Merkle trees, and the process besides.
double estimated_prove_bytes(const std::vector<size_t>& heights, unsigned log_blowup);
// The optimized prover computing the LDE a part at a time (Lde::kStream), for heights in the spec
// order of the whole-run AIR or (segmented) the segment AIR.
double estimated_optimized_prove_bytes(const std::vector<size_t>& heights, unsigned log_blowup, bool segmented = false);
// A bundle, proven one segment at a time by the streamed prover (three passes over the segments):
// the largest segment's proof; what the run keeps besides, per byte of the 4 KiB pages it touches:
// the plan's last segment and value (5 bytes, spec::TouchedMemory), the segment builder's prior
// time and value (6, opt::trace's Prior) and the guest's memory (1); and kBundleBaseBytes, the
// streamed builder and executor beside the prover. Fitted to the loop workload, whose 2^20-cycle
// segments peak 60 to 150 MiB above its one 2^20-cycle proof (7,546 to 7,634 MiB from 3 to 33
// segments, the allocator's creep of about 2 MB a segment included: README.md).
inline constexpr double kBundleBytesPerPageByte = 12, kBundleBaseBytes = 0.3e9;
double estimated_bundle_bytes(const std::vector<std::vector<size_t>>& segment_heights, unsigned log_blowup,
                              uint64_t touched_pages);

}  // namespace zkrv::api
