#pragma once
// The AIR-specific steps of the optimized prover (spec: protocol:stark:logup,
// protocol:stark:quotient), kept apart from the generic backend seam (optimized/backend) as RISC
// Zero keeps CircuitHal apart from Hal: a backend knows NTTs, hashes and folds; a circuit knows
// the tables, and runs its steps on a backend's buffers. Both steps come from the evaluator
// generated from the spec (optimized/air), never from a hand-written copy of the constraints.
//
// The CPU circuit runs in place on host memory (Backend::host_address) and on host copies of
// any other backend's buffers (the outputs written back), so it serves every backend until one
// brings its own (the CUDA prover, issue 43).

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "optimized/backend/backend.h"
#include "spec/air/spec.h"

namespace zkrv::opt {

class Circuit {
 public:
  virtual ~Circuit() = default;
  virtual std::string name() const = 0;

  // Which AIR the tables are of: a whole run's, or segment s of a bundle's, whose local buses'
  // tags are offset by local_offset = B·s (protocol:segments:scope).
  struct Air {
    spec::air::Mode mode = spec::air::Mode::kWhole;
    uint64_t local_offset = 0;
  };

  // protocol:stark:logup for table `table` (spec order): from its trace columns (h rows), each
  // fraction column's three base columns, then the running sum's (3·(fractions + 1) in aux);
  // returns the terminal sum.
  // fractions[f]: the interactions (1 or 2, the generated LogUp order) that fraction f sums.
  virtual Fp3 logup_columns(Backend& be, const Air& air, size_t table, const std::vector<std::vector<size_t>>& fractions,
                            std::span<const Buffer<Fp>> trace, std::span<const Fp> publics, const Fp3& alpha,
                            const Fp3& beta, std::span<Buffer<Fp>> aux) = 0;

  // protocol:stark:quotient on part k of a table's LDE (its rows x_i = x0·ω_h^i, i < h): the
  // constraint combination (powers of alpha, generated from the spec) times `scale` (1/Z_H there),
  // written to q[c][blowup·i + k], c < 3.
  struct QuotientPart {
    size_t table = 0;
    unsigned log_h = 0;
    size_t blowup = 1, k = 0;
    Fp x0, scale;
    Fp3 lu_alpha, lu_beta, terminal;
    Air air;
  };
  virtual void quotient_part(Backend& be, const QuotientPart& part, std::span<const Buffer<Fp>> main,
                             std::span<const Buffer<Fp>> aux, std::span<const Fp> publics, const Buffer<Fp3>& powers,
                             std::span<Buffer<Fp>> q) = 0;
};

// threads: CPU threads, 0 = all cores. Shapes that do not fit throw std::invalid_argument before
// any thread starts.
std::unique_ptr<Circuit> make_cpu_circuit(unsigned threads = 0);

}  // namespace zkrv::opt
