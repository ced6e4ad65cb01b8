#pragma once
// The traces of a run's segments for the segment AIR (spec/protocol.md §9; the statements of
// spec/tables marked `segmented`, spec::air::Mode::kSegmented), and their check: every segment's
// constraints from the spec's own text, every local bus balanced within its segment and the
// global bus gmem over the bundle. Plain and slow on purpose: each segment is cut from the whole
// run's trace (build_trace), so this is for small runs, tests and `zkrv check`-sized work.

#include <set>
#include <string>
#include <vector>

#include "reference/air/trace.h"
#include "spec/run_segments.h"

namespace zkrv::ref::air {

// One AirTrace per segment of `plan`, publics included (protocol:segments:publics): the rows of its
// cycles, every token that crosses the segment's start re-timed at 4 clk_start, and the tables a
// segment has of its own (memb, regs' iv and ev, the mem table's chunk, the output's slice).
// `run` must carry its trace (ExecOptions::trace) and be the run `plan` was made from.
std::vector<AirTrace> build_segment_traces(const spec::ProgramImage& image, const spec::ExecResult& run,
                                           const spec::RunPlan& plan);

// Sets each lookup table's multiplicities from the sends of a segment trace under the segment AIR.
void count_segment_lookups(AirTrace& trace);

struct BundleReport {
  std::vector<std::string> failures;  // "segment s: constraint ID fails in table T at row r", at most 20
  size_t failure_count = 0;
  std::set<std::string> failing;  // "segment s: constraint ID" for every constraint that fails somewhere
  std::vector<std::string> unbalanced;  // "bus B of segment s: (tuple) sent - received = x", at most 20
  std::set<std::string> unbalanced_buses;  // "bus B of segment s", "bus gmem of the bundle": every one
  bool ok() const { return failure_count == 0 && unbalanced.empty(); }
  std::string summary() const;
};
// Every constraint of the segment AIR on every segment, and the buses counted exactly: each
// (local bus, segment) and gmem over all segments.
BundleReport check_segment_traces(const std::vector<AirTrace>& segments);

}  // namespace zkrv::ref::air
