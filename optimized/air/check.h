#pragma once
// A fast check of a whole trace with the evaluator generated from the spec (zkrv check's default
// path): every constraint on every row it covers, exactly; every lookup bus (byte, range16,
// and8, program, segment, image, pow2) balanced exactly, by each tuple's net multiplicity mod p;
// and every other bus balanced by LogUp sums Σ ±m / (α − h(tuple)) over all tables at random
// α, β in F_{p^3}, which are zero for every bus exactly when its multisets agree, except with
// probability about (interactions × tuple degree) / p^3 < 2^-150. Both say what the prover's
// LogUp argument needs: every tuple's multiplicities add up to zero mod p. It says whether the
// trace holds and, if not, the first failing constraint; the reference checker gives the
// detailed report of a failure.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "optimized/air/air_eval.h"
#include "optimized/memory/column.h"

namespace zkrv::opt::air {

// One table's trace, column-major, in spec column order; the height is a power of two.
struct TableColumns {
  size_t height = 0;
  std::vector<Column> columns;
};

// The trace-domain arguments of a table's generated code (the LogUp challenges left unset):
// `pointers` receives a pointer to each column and must outlive the result.
CheckArgs table_args(const std::vector<Column>& columns, size_t n, const Fp* publics,
                     std::vector<const Fp*>& pointers);

// A table kept row by row (as the reference trace builder makes it) turned column-major.
TableColumns columns_from_rows(const std::vector<std::vector<uint64_t>>& rows, size_t width);

struct FastCheck {
  size_t rows = 0, evaluations = 0;  // rows checked; constraint values computed
  // The first failing constraint: table index (spec order), row, constraint index; none if
  // failed_table == SIZE_MAX.
  size_t failed_table = SIZE_MAX, failed_row = 0, failed_constraint = 0;
  std::vector<uint64_t> unbalanced_buses;  // bus tags whose LogUp sum is not zero
  // A bundle segment's (spec::air::Mode::kSegmented): the LogUp sum of the global bus gmem, which
  // balances over the bundle only (the segments' sums under the same seed add up to zero); gmem
  // is not in unbalanced_buses.
  Fp3 global_sum{};
  bool ok() const { return failed_table == SIZE_MAX && unbalanced_buses.empty(); }
};

// tables in spec order (generated_tables(mode)); publics in spec order; seed for the challenges
// (any value: the answer does not depend on it, except with the probability above). mode: the
// AIR of a whole run, or of one segment of a bundle (its local buses balanced within it).
FastCheck fast_check(const std::vector<TableColumns>& tables, const std::vector<Fp>& publics, uint64_t seed,
                     unsigned threads = 0, spec::air::Mode mode = spec::air::Mode::kWhole);

}  // namespace zkrv::opt::air
