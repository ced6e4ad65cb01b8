#pragma once
// Constraint evaluation generated from the spec (optimized/air/codegen.cpp, run at build time):
// per table, the quotient's combination of every constraint and LogUp constraint
// (protocol:stark:quotient; the same value as core::combine, bit for bit) over a range of
// rows of column arrays, as the quotient stage holds them on the LDE coset.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "optimized/field/goldilocks.h"
#include "spec/air/spec.h"

namespace zkrv::opt::air {

struct CombineArgs {
  const Fp* const* columns = nullptr;  // [spec column] -> n values (preprocessed and main)
  const Fp* const* aux = nullptr;      // [3 k + c] -> n values: component c of the k-th
                                       // extension column (fraction columns, then the running sum)
  size_t n = 0;                        // rows, a power of two
  size_t next = 1;                     // offset of the next row (the blowup on an LDE coset)
  const Fp* publics = nullptr;         // spec order
  Fp3 lu_alpha, lu_beta;               // LogUp challenges
  uint64_t local_offset = 0;           // B·s: segment s's offset of a local bus's tag (protocol:segments:scope)
  Fp3 terminal;                        // the table's terminal sum
  const Fp3* powers = nullptr;         // combination powers, combined_constraints() of them
  const Fp* sel_first = nullptr;       // per row: the first-row, last-row and transition selectors
  const Fp* sel_last = nullptr;
  const Fp* sel_transition = nullptr;
};

// out[i - begin] = the combined value at row i, for i in [begin, end).
using CombineFn = void (*)(const CombineArgs&, size_t begin, size_t end, Fp3* out);

// The trace domain, for checking a trace (zkrv check): the table's columns, n rows, and the
// LogUp challenges for the bus sums.
struct CheckArgs {
  const Fp* const* columns = nullptr;  // [spec column] -> n values
  size_t n = 0;                        // rows, a power of two
  const Fp* publics = nullptr;
  Fp3 lu_alpha, lu_beta;
  uint64_t local_offset = 0;  // as CombineArgs
};
struct RowFailure {
  size_t row;         // == end when every constraint holds on the rows checked
  size_t constraint;  // index among the table's constraints (document order)
};
// Every constraint on rows [begin, end), on the rows it covers: the first that is not zero.
using CheckFn = RowFailure (*)(const CheckArgs&, size_t begin, size_t end);
// Each interaction's α − h(tuple) and signed multiplicity on rows [begin, end):
// den[(i − begin) · I + k], mult[(i − begin) · I + k] for interaction k of I.
using LogupFn = void (*)(const CheckArgs&, size_t begin, size_t end, Fp3* den, Fp* mult);

// The sends (or the receives) on the lookup buses (byte, range16, and8, program, segment, image,
// pow2: the buses whose receiving table counts its tuples in a multiplicity column) on rows
// [begin, end): the tuple of interaction k of S, zero-padded to kLookupArity values, at
// tuple[((i − begin) · S + k) · kLookupArity + v], its multiplicity at mult[(i − begin) · S + k].
// The trace builder counts the sends; the fast check balances these buses by exact counts.
constexpr size_t kLookupArity = 5;
using SendFn = void (*)(const CheckArgs&, size_t begin, size_t end, Fp* tuple, Fp* mult);

struct TableCode {
  const char* name;
  size_t columns, aux_width, combined_constraints;
  CombineFn combine;
  size_t constraints;
  CheckFn check;
  size_t interactions;
  const uint64_t* tags;  // per interaction: its bus's index in air.md
  LogupFn logup;
  size_t other_interactions;   // the interactions on the buses that are not lookups
  const uint64_t* other_tags;  // per such interaction: its bus's index
  LogupFn logup_other;         // as logup, for those interactions only
  size_t sends;                // lookup-bus sends
  const uint64_t* send_tags;   // per send: its bus's index in air.md
  SendFn send;
  size_t receives;             // lookup-bus receives
  const uint64_t* receive_tags;
  SendFn receive;
};
// Spec order, as core::air_layout(mode).tables: a whole run's AIR or a bundle segment's.
const std::vector<TableCode>& generated_tables(spec::air::Mode mode = spec::air::Mode::kWhole);

}  // namespace zkrv::opt::air
