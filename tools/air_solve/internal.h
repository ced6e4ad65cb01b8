#pragma once
// What the questions of solve.h share inside tools/air_solve; not an API. The files, in reading
// order:
//   facts.h, facts.cpp    the field's constants; what a table states about itself: bits, bounds,
//                         carried bounds, token pairs, definitions, the items a certificate names
//   encoder.h, encoding.cpp  the spec's expressions as Z3 terms (Encoder), affine forms
//   solve.cpp             what every answer shares: the table and constraint, a model as shown,
//                         the one-line formats
//   rows_question.cpp     one question about rows of one table (descent, count, silent padding)
//   implied.cpp           "is C implied?", by subsets of the table; descent.cpp and once.cpp: the
//                         proofs through a bus
//   padding.cpp           padding rows: silent, and attacks on them; row_attack.cpp: the search
//                         for an attack on one row, and on a real row of a trace (--at)
//   unique.cpp            "is the row determined?", by whole rows; unique_function.cpp: how each
//                         interaction fixes the two rows (also as a function); unique_columns.cpp:
//                         column by column, with the difference and value steps
//                         (unique_differences.cpp, unique_values.cpp) over the polynomials of
//                         polys.h, polys.cpp

#include <z3++.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "spec/air/spec.h"
#include "tools/air_solve/encoder.h"
#include "tools/air_solve/facts.h"
#include "tools/air_solve/solve.h"

namespace zkrv::air_solve::internal {

// ---- Asking and reporting (solve.cpp, rows_question.cpp) -------------------------------------

const Table& find_table(const spec::air::Spec& spec, const std::string& name);
const spec::air::Constraint& find_constraint(const Table& t, const std::string& id);

// A decimal value as a model shows it: values just below p as "p-k".
std::string show(const std::string& decimal);
// The nonzero values of `vars` in model m, appended to `out`.
void collect(const z3::model& m, const std::vector<z3::expr>& vars, std::vector<Assignment>& out);
const char* check_name(z3::check_result r);  // "unsatisfiable", "satisfiable", "unknown"

struct Timer {
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); }
};

// The rows of a question: one row; a row and the next (with the transitions between them); or
// two rows anywhere in the table (each with its every-row constraints alone).
enum class Shape { kOne, kNext, kTwo };
using Claim = std::function<z3::expr(const Encoder&, const std::vector<z3::expr>&, const std::vector<z3::expr>&)>;
using RowClaim = std::function<z3::expr(const Encoder&, const std::vector<z3::expr>&)>;

// Where a question about rows of table t is asked (rows_question): what holds on its rows.
struct RowsQuestion {
  const spec::air::Spec& spec;
  const Table& t;
  const std::string* skip;  // the constraint left out (null: none)
  const Carried& carried;
  std::vector<std::string> ids;  // a certificate's IDs (empty: the whole table)
  unsigned timeout_ms;
  std::set<std::string> proved_bits = {};  // Encoder::use_proved_bits
  bool bounds = true;                      // without: no interaction's bounds (a question that bounds rest on)
};
// On each row of `shape`, t's every-row constraints other than `skip` hold (those named in `ids`
// alone, where it names some of t's), and the bounds of its interactions (those named, and those
// on the chosen constraints' columns alone; every interaction where ids names none of t's), with
// the table's bit columns as bits and its definitions stated; for kNext the transitions from the
// first row to the second too; and claim(row, second row) holds (the second is empty for kOne).
// Unsatisfiable: no rows of t where those hold satisfy the claim. The model's rows go to `model`.
z3::check_result rows_question(const RowsQuestion& q, Shape shape, const Claim& claim,
                               std::vector<Assignment>* model = nullptr);
z3::check_result row_question(const RowsQuestion& q, const RowClaim& claim);

// ---- Attacks on one row (row_attack.cpp) ----------------------------------------------------

// The honest rows around the row to change: prev, row, next (absent: the row is the first or
// the last), and the columns that count rows (the padding template's `row`: prev, row and next
// hold k − 1, k, k + 1 for a free k).
struct Honest {
  std::optional<std::vector<uint64_t>> prev, next;
  std::vector<uint64_t> row;
  std::set<size_t> counting;
  std::map<std::string, uint64_t> publics;  // fixed public values; the rest are free
  bool recount_lookups = false;  // a lookup's multiplicity may change (a real row); otherwise it stays 0
};
// One row r in place of the honest row h: r = h + x column by column (x small and signed, 0
// outside the support), with every interaction of r and of the row before it what it was for h
// (the same multiplicity, and the same tuple where that is not 0), every other constraint that
// applies there holding, and `target` broken. kImplied: no such r (among small changes).
Answer witness_attack(const spec::air::Spec& spec, const Table& t, const spec::air::Constraint& target,
                      const Honest& h, const Options& options, Answer answer);

// ---- How the uniqueness question takes an interaction (unique_function.cpp) -----------------

// The buses whose receiver is a fixed table with a multiplicity column (count_lookups).
bool is_lookup(const std::string& bus);
// How many leading fields of a lookup's tuple are its key (the rest are a function of it); 0
// for a bus that is not a lookup.
size_t lookup_key_fields(const std::string& bus);
// A segment lookup is keyed by its range rather than by a field (unique_function.cpp says why).
bool keyed_by_range(const spec::air::BusInteraction& b);

// Options::outputs and Options::reads: bus -> the names of fields of its busdef.
using Outputs = std::map<std::string, std::set<std::string>>;
// How the question as a function takes an interaction (Options::outputs, Options::reads). `own`:
// the row's own (a send that is not a lookup: a request; a receive on a bus it reads: a read at
// an address it computes), so neither its multiplicity nor its fields are fixed, but where both
// rows are active with the same other fields the outputs are the same (the receiving table
// answers as a function; the state holds one value per key). Otherwise (a receive, a lookup
// send) its multiplicity and its fields are fixed but the outputs. Not as a function: nothing
// own, nothing an output.
struct Role {
  bool functional = false;  // the question is asked as a function (some outputs or reads)
  bool own = false;
  std::set<size_t> outputs;
};
Role role_of(const spec::air::Spec& spec, const Options& options, const spec::air::BusInteraction& b);
// Unknown buses or fields of Options::outputs or Options::reads throw std::invalid_argument.
void check_outputs(const spec::air::Spec& spec, const Outputs& outputs);

// A row of a place with the row after it (nullptr where there is none).
struct Placed {
  const std::vector<z3::expr>& row;
  const std::vector<z3::expr>* next;
};
// One interaction of rows x and y in the same place (unique_function.cpp): the same
// multiplicity, and where it is not 0 the same tuple, as `role` takes it.
z3::expr same_interaction(const Encoder& enc, const spec::air::BusInteraction& b, Placed x, Placed y, const Role& role);

// Where a column is asked in the uniqueness question on row x: everywhere, or where its free
// mark's expression is not 0 (unique.cpp).
z3::expr asked_where(const Encoder& enc, const Table& t, const std::string& column, Placed x);

// ---- The uniqueness question column by column (unique_columns.cpp) --------------------------

// The place of a trace that the uniqueness steps ask about, and what they ask with: two rows x
// and y with the same previous row (has_prev) and next row (has_next), where they are.
struct UniquePlace {
  const spec::air::Spec& spec;
  const Table& t;
  bool has_prev, has_next;
  bool real;  // both rows have is_real = 1 (interacting rows, which padding_silent showed real)
  const Options& options;  // interacting, outputs, reads, timeout_ms, progress
  std::set<std::string> bits;  // the table's bit columns
  Carried carried;             // carried_bounds(spec, t.name, nullptr)
};

struct Steps {
  std::vector<std::string> left;          // not shown equal, and no witness found
  std::vector<std::string> free;          // a second witness differs in this column alone
  std::vector<Assignment> first, second;  // the witness of free.front()
};
Steps unique_by_steps(const UniquePlace& at);

// The columns of `left` that the differences show equal in rows x and y of the place
// (unique_differences.cpp); `shown_marked`: the marked columns shown equal where asked.
std::set<std::string> settled_by_differences(const UniquePlace& at, const std::set<std::string>& left,
                                             const std::set<std::string>& shown_marked);
// The columns of `left` that the values, case by case, show equal (unique_values.cpp).
std::set<std::string> settled_by_values(const UniquePlace& at, const std::set<std::string>& left);

}  // namespace zkrv::air_solve::internal
