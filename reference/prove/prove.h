#pragma once
// The reference prover (spec/protocol.md, protocol:stark:*): plain and single-threaded, one
// block per protocol step in the order the protocol runs them. Speed is the optimized prover's
// job; this one is the oracle its bytes are compared with.

#include "core/stark/stopwatch.h"
#include "reference/air/trace.h"
#include "spec/bundle.h"
#include "spec/isa.h"
#include "spec/run_segments.h"
#include "spec/stark.h"

namespace zkrv::ref::prove {

using Progress = core::Progress;  // called after each stage with its name and seconds

// Proves the trace as it is, without checking it first: a trace that violates a constraint
// gives a proof the verifier rejects (the quotient is not a polynomial, or a bus does not
// balance). Tests use it to show that dishonest traces cannot pass; `zkrv prove` calls
// air::check_trace first and refuses a failing run. Throws std::invalid_argument on options
// or table shapes the protocol does not allow.
spec::StarkProof prove_unchecked(const spec::ProgramImage& image, const air::AirTrace& trace,
                                 const spec::StarkOptions& options, const Progress& progress = {});
// The same proof; the trace's rows are released as soon as their columns are copied (the row-major
// trace and its column-major copy are never both whole in memory).
spec::StarkProof prove_unchecked_consuming(const spec::ProgramImage& image, air::AirTrace&& trace,
                                           const spec::StarkOptions& options, const Progress& progress = {});

// spec: protocol:segments:* — a bundle of a run cut by `plan` (N >= 2), from its segments' traces
// (air::build_segment_traces) as they are: the segment AIR, each segment's LogUp on the tags
// offset by its index, phase 1 over all segments (statement, main roots, α and β, terminal sums),
// then each segment's own phase 2. Every segment is held at once: for small runs (tests, the
// optimized prover's cross-check). Throws std::invalid_argument when a segment's publics are not
// the plan's.
spec::BundleProof prove_bundle_unchecked(const spec::ProgramImage& image, const std::vector<air::AirTrace>& segments,
                                         const spec::RunPlan& plan, const spec::StarkOptions& options,
                                         const Progress& progress = {});

}  // namespace zkrv::ref::prove
