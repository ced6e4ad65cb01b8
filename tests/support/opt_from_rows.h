#pragma once
// The reference builder's row-major trace given to the optimized prover, which takes
// column-major tables: tests are where the two sides meet (optimized/ never includes
// reference/).

#include "optimized/prove/prove.h"
#include "reference/air/segment_trace.h"
#include "reference/air/trace.h"

namespace zkrv::test {

// The trace's tables column-major (spec order and column order) and its public values (spec
// order), as opt::prove::prove_unchecked takes them.
struct SpecColumns {
  std::vector<opt::air::TableColumns> tables;
  std::vector<opt::Fp> publics;
};
// `mode`: the AIR the trace is of (a bundle segment's: spec::air::Mode::kSegmented).
SpecColumns spec_columns(const ref::air::AirTrace& trace, spec::air::Mode mode = spec::air::Mode::kWhole);

// opt::prove::prove_unchecked on the reference builder's trace (threads = 0: all cores).
spec::StarkProof prove_optimized(const spec::ProgramImage& image, const ref::air::AirTrace& trace,
                                 const spec::StarkOptions& options, unsigned threads = 0,
                                 opt::prove::Lde lde = opt::prove::Lde::kStream);

// A run cut into segments of 2^k cycles by the run planner and built by the reference segment
// builder (both on the reference executor).
struct SegmentedRun {
  spec::RunPlan plan;
  spec::ExecResult run;  // the traced run (its output and exit code)
  std::vector<ref::air::AirTrace> segments;
};
SegmentedRun segmented_run(const spec::ProgramImage& image, std::span<const uint8_t> input, unsigned k);

// opt::prove::prove_bundle_unchecked on the reference segment builder's traces.
spec::BundleProof prove_bundle_optimized(const spec::ProgramImage& image, const std::vector<ref::air::AirTrace>& segments,
                                         const spec::RunPlan& plan, const spec::StarkOptions& options, unsigned threads = 0);

// opt::prove::prove_bundle_streamed on the same traces with a sink, as zkrv prove writes a bundle:
// its head, then each segment's body as it is made. The bytes, in the order the sink got them;
// the bundle it returns must have no segments (else it throws std::logic_error).
std::vector<uint8_t> prove_bundle_streamed_bytes(const spec::ProgramImage& image,
                                                 const std::vector<ref::air::AirTrace>& segments,
                                                 const spec::RunPlan& plan, uint32_t exit_code,
                                                 const std::vector<uint8_t>& output, const spec::StarkOptions& options);

}  // namespace zkrv::test
