#pragma once
// The optimized prover (spec/protocol.md §8): the reference prover's protocol, step for step,
// every step an operation of the backend seam (optimized/backend: the CPU backend by default) and the
// constraint evaluator generated from the spec (optimized/air). It writes exactly the
// reference prover's bytes for every trace, option set and thread count; tests/prove checks
// that and names the first item that differs.

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/stark/stopwatch.h"
#include "optimized/air/check.h"
#include "optimized/backend/backend.h"
#include "optimized/circuit/circuit.h"
#include "spec/bundle.h"
#include "spec/isa.h"
#include "spec/run_segments.h"
#include "spec/stark.h"

namespace zkrv::opt::prove {

using Progress = core::Progress;  // called after each stage with its name and seconds

// How the LDE of the main and auxiliary columns is had: computed a coset part at a time in every
// pass that needs it (kStream: the least memory), or computed once and held (kHold: faster, about
// 2.3 times the memory). The proof is the same.
enum class Lde { kStream, kHold };

// Called at the end of each stage with the bytes each kind of live buffer holds.
using BufferReport =
    std::function<void(std::string_view stage, const std::vector<std::pair<std::string, size_t>>& bytes)>;

// As ref::prove::prove_unchecked: the trace is proven as it is (a dishonest one gives a proof the
// verifier rejects), from column-major tables (spec order, as optimized/trace builds them) and the
// public values (spec order); the tables are consumed. Throws std::invalid_argument on options or
// table shapes the protocol does not allow. Every generic step runs on `backend` (null: the
// CPU backend with `threads` threads; a DualBackend compares each step of two backends), the
// AIR-specific ones on `circuit` over the backend's buffers (null: the CPU circuit).
spec::StarkProof prove_unchecked(const spec::ProgramImage& image, std::vector<air::TableColumns>&& tables,
                                 const std::vector<Fp>& publics, const spec::StarkOptions& options,
                                 unsigned threads = 0, const Progress& progress = {},
                                 const BufferReport& buffers = {}, Lde lde = Lde::kStream,
                                 Backend* backend = nullptr, Circuit* circuit = nullptr);

// spec: protocol:segments:* — as ref::prove::prove_bundle_unchecked, byte for byte: a bundle of a
// run cut by `plan` (N >= 2) from its segments' tables under the segment AIR (spec order of
// core::air_layout(kSegmented)) and publics, consumed. Every segment is held at once. `progress`
// gets one stage per segment and phase: "commit s/N" (phase 1's main roots), "logup" (every
// segment's terminal sums), "prove s/N" (phase 2), s from 1.
struct Segment {
  std::vector<air::TableColumns> tables;
  std::vector<Fp> publics;  // spec order of the segment AIR
};
spec::BundleProof prove_bundle_unchecked(const spec::ProgramImage& image, std::vector<Segment>&& segments,
                                         const spec::RunPlan& plan, const spec::StarkOptions& options,
                                         unsigned threads = 0, const Progress& progress = {},
                                         Backend* backend = nullptr, Circuit* circuit = nullptr);

// The same bundle, one segment's traces held at a time: `source` hands over every segment in order
// (each call of it, one run of the builder: opt::trace::build_segment_traces) and is called
// three times (protocol:segments:transcript's phase 1 needs every main root, then every terminal
// sum, before any segment's phase 2). exit_code and output: the run's. `progress` gets "commit
// s/N", "logup s/N" and "prove s/N". Throws std::logic_error when a segment differs between the
// passes, std::invalid_argument when its publics are not the plan's. With `floor`, the number of
// queries rises once the heights are known (after pass 1) to the least that gives the bundle the
// floor (protocol:segments:queries, core::bundle_options); the bundle's options say what was used.
//
// Without a sink every segment's proof is kept in the bundle returned. With a `sink`, none is:
// `head` gets the bundle once everything but the segments' proofs is final (before the first of
// them), then `segment` each proof as it is made, in order, and the bundle returned has no
// segments; a prover that writes them out as they come (spec::encode_bundle_head,
// spec::encode_segment_body) holds one segment's proof at a time. A throw can come after the sink
// got the head and some segments: what it wrote is then to be discarded.
//
// With `peers`, this process proves only the segments it owns (peers->owns(s)), which are all
// that `source` hands over and all that the sink gets, and every process of the bundle calls this
// at once: phase 1's two exchanges go through peers (spec: protocol:segments:peers). Each process
// gets the same head; the bundle's bytes are the head and every process's segments in order.
using SegmentSource = std::function<void(const std::function<void(size_t, Segment&&)>&)>;
struct BundleSink {
  std::function<void(const spec::BundleProof&)> head;
  std::function<void(size_t, spec::SegmentProof&&)> segment;
};
// Pass 1's result of one segment: what phase 1 absorbs of it and the statement names.
struct Commitment {
  std::vector<uint8_t> log_heights;  // every table's, in table order
  spec::Digest main_root{};
};
struct Peers {
  std::function<bool(size_t)> owns;  // whether this process proves segment s
  // Collective: given this process's own segments' entries (the others' empty), every segment's.
  std::function<void(std::vector<Commitment>&)> share_commitments;
  std::function<void(std::vector<std::vector<spec::Fp3Raw>>&)> share_sums;  // terminal sums, table order
};
spec::BundleProof prove_bundle_streamed(const spec::ProgramImage& image, const spec::RunPlan& plan, uint32_t exit_code,
                                        const std::vector<uint8_t>& output, const SegmentSource& source,
                                        const spec::StarkOptions& options, unsigned threads = 0,
                                        const Progress& progress = {}, Backend* backend = nullptr,
                                        Circuit* circuit = nullptr,
                                        const std::optional<spec::SecurityPolicy>& floor = std::nullopt,
                                        const BundleSink* sink = nullptr, const Peers* peers = nullptr);

}  // namespace zkrv::opt::prove
