#pragma once
// The optimized prover (spec/protocol.md §8): the reference prover's protocol, step for step,
// every step an operation of the backend seam (optimized/backend: the CPU backend by default) and the
// constraint evaluator generated from the spec (optimized/air). It writes exactly the
// reference prover's bytes for every trace, option set and thread count; tests/prove checks
// that and names the first item that differs.

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "optimized/air/check.h"
#include "optimized/backend/backend.h"
#include "reference/air/trace.h"
#include "reference/prove/stopwatch.h"
#include "spec/isa.h"
#include "spec/stark.h"

namespace zkrv::opt::prove {

using Progress = ref::prove::Progress;  // called after each stage with its name and seconds

// How the LDE of the main and auxiliary columns is had: computed a coset part at a time in every
// pass that needs it (kStream: the least memory), or computed once and held (kHold: faster, about
// 2.3 times the memory). The proof is the same.
enum class Lde { kStream, kHold };

// As ref::prove::prove_unchecked: the trace is proven as it is (a dishonest one gives a proof
// the verifier rejects). threads = 0: all cores. Throws std::invalid_argument on options or
// table shapes the protocol does not allow.
spec::StarkProof prove_unchecked(const spec::ProgramImage& image, const ref::air::AirTrace& trace,
                                 const spec::StarkOptions& options, unsigned threads = 0,
                                 const Progress& progress = {}, Lde lde = Lde::kStream);
// The same proof; the trace's rows are released as soon as their columns are copied.
spec::StarkProof prove_unchecked_consuming(const spec::ProgramImage& image, ref::air::AirTrace&& trace,
                                           const spec::StarkOptions& options, unsigned threads = 0,
                                           const Progress& progress = {});

// The reference builder's trace as column-major tables (spec order and column order) and the
// public values (spec order), as the column-major prove_unchecked takes them. consume: the
// trace's rows are released as each table is copied.
struct SpecColumns {
  std::vector<air::TableColumns> tables;
  std::vector<Fp> publics;
};
SpecColumns spec_columns(const ref::air::AirTrace& trace, ref::air::AirTrace* consume = nullptr);

// Called at the end of each stage with the bytes each kind of live buffer holds.
using BufferReport =
    std::function<void(std::string_view stage, const std::vector<std::pair<std::string, size_t>>& bytes)>;

// The same proof from column-major tables (spec order, as optimized/trace builds them) and the
// public values (spec order); the tables are consumed. Every step runs on `backend` (null: the
// CPU backend with `threads` threads); a DualBackend compares each step of two backends.
spec::StarkProof prove_unchecked(const spec::ProgramImage& image, std::vector<air::TableColumns>&& tables,
                                 const std::vector<Fp>& publics, const spec::StarkOptions& options,
                                 unsigned threads = 0, const Progress& progress = {},
                                 const BufferReport& buffers = {}, Lde lde = Lde::kStream,
                                 Backend* backend = nullptr);

}  // namespace zkrv::opt::prove
