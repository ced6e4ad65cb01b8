#pragma once
// The optimized builder of a run's segments (spec/protocol.md §9, protocol:segments:*): one
// traced execution streamed into one run segment's tables at a time, under the segment AIR (the
// statements of spec/tables marked `segmented`). What it holds besides one segment's tables grows
// with the bytes the run touches, never with its length. Each segment equals the reference's
// (ref::air::build_segment_traces), column for column (tests/trace/segment_trace_test.cpp).

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "optimized/air/check.h"
#include "spec/isa.h"
#include "spec/run_segments.h"

namespace zkrv::opt::trace {

struct SegmentTrace {
  std::vector<air::TableColumns> tables;  // spec order of the segment AIR
  std::vector<Fp> publics;                // spec order of the segment AIR (protocol:segments:publics)
};

// Executes `image` on `input` once more (the fast executor; options.trace and the sinks are set
// here) and hands each run segment's tables to on_segment(s, tables) in order, as soon as its
// cycles have run. `plan` and `planned` are this run's (a RunPlanner over the same image, input
// and options, and the run it planned: its cycles, exit code and output). threads = 0: every
// core. With `wanted`, only the segments s with wanted(s) are built and handed over; the others
// are executed and only the memory they leave is kept (a process proving some of a run's segments,
// protocol:segments:peers). Throws std::invalid_argument or std::logic_error where build_trace
// throws, and std::invalid_argument when the run is not the planned one.
void build_segment_traces(const spec::ProgramImage& image, std::span<const uint8_t> input,
                          const spec::ExecOptions& options, const spec::RunPlan& plan, const spec::ExecResult& planned,
                          unsigned threads, const std::function<void(size_t, SegmentTrace&&)>& on_segment,
                          const std::function<bool(size_t)>& wanted = nullptr);

}  // namespace zkrv::opt::trace
