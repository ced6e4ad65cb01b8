#pragma once
// Constraint evaluation generated from the spec (optimized/air/codegen.cpp, run at build time):
// per table, the quotient's combination of every constraint and LogUp constraint
// (protocol:stark:quotient; the same value as ref::stark::combine, bit for bit) over a range of
// rows of column arrays, as the quotient stage holds them on the LDE coset.

#include <cstddef>
#include <string>
#include <vector>

#include "optimized/field/goldilocks.h"

namespace zkrv::opt::air {

struct CombineArgs {
  const Fp* const* columns = nullptr;  // [spec column] -> n values (preprocessed and main)
  const Fp* const* aux = nullptr;      // [3 k + c] -> n values: component c of the k-th
                                       // extension column (fraction columns, then the running sum)
  size_t n = 0;                        // rows, a power of two
  size_t next = 1;                     // offset of the next row (the blowup on an LDE coset)
  const Fp* publics = nullptr;         // spec order
  Fp3 lu_alpha, lu_beta;               // LogUp challenges
  Fp3 terminal;                        // the table's terminal sum
  const Fp3* powers = nullptr;         // combination powers, combined_constraints() of them
  const Fp* sel_first = nullptr;       // per row: the first-row, last-row and transition selectors
  const Fp* sel_last = nullptr;
  const Fp* sel_transition = nullptr;
};

// out[i - begin] = the combined value at row i, for i in [begin, end).
using CombineFn = void (*)(const CombineArgs&, size_t begin, size_t end, Fp3* out);

struct TableCode {
  const char* name;
  size_t columns, aux_width, combined_constraints;
  CombineFn combine;
};
// Spec order, as ref::stark::air_layout().tables.
const std::vector<TableCode>& generated_tables();

}  // namespace zkrv::opt::air
