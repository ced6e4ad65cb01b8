#pragma once
// What a table states about itself, and the field's constants (internal.h lists the files of
// tools/air_solve): bits, bounds, carried bounds, token pairs, definitions, the items a
// certificate names. Definitions in facts.cpp; affine forms in encoding.cpp.

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "spec/air/expr.h"
#include "spec/air/spec.h"
#include "spec/field.h"

namespace zkrv::air_solve::internal {

using spec::air::Expr;
using spec::air::Rows;
using spec::air::Table;

// ---- The field ------------------------------------------------------------------------------

inline constexpr uint64_t kPValue = spec::GoldilocksTraits::kModulus;
inline constexpr const char* kP = "18446744069414584321";  // kPValue in decimal, for Z3: 2^64 - 2^32 + 1
inline constexpr uint64_t kNoBound = ~uint64_t{0};          // a value anywhere in [0, p)
inline constexpr uint64_t kHalfP = kPValue / 2;
inline constexpr double kPDouble = 18446744069414584321.0;

// a^(p-2) = 1 / a for a != 0 (spec/air/expr.h has add, sub and mul, no inverse).
uint64_t field_inverse(uint64_t a);
// v as the signed integer of the same field element: values above p/2 are v - p.
inline int64_t signed_value(uint64_t v) {
  return v > kHalfP ? -static_cast<int64_t>(kPValue - v) : static_cast<int64_t>(v);
}

// ---- What a table states about itself (facts.cpp) ------------------------------------------

// The column x of a bit constraint x (x - 1), x (1 - x), (x - 1) x or (1 - x) x; empty otherwise.
std::string bit_column_name(const Expr& e);

// What one table enforces by itself, without constraint `skip`: which columns are bits, which
// multiplicities are non-negative integers (a constant, a bit column, or a sum of those), and
// how far each field of an interaction is bounded where its multiplicity is not zero.
struct TableFacts {
  const Table& t;
  const std::string* skip;
  bool is_bit(const std::string& col) const;
  bool nonnegative(const Expr& e) const;
  // A bound on field `e` of an interaction with multiplicity `mult` (null: 1), where that is not
  // zero: a constant; a bit column; a column sent alone on the byte or range16 bus by a lookup
  // that is active wherever this interaction is (a nonzero constant multiplicity, or the same one).
  uint64_t bound(const Expr& e, const Expr* mult) const;
};

// The factors of e's top product (e itself when it is not one), through negations.
std::vector<const Expr*> factors_of(const Expr& e);

// The token pairs of a table on a bus (facts.cpp says what makes one): (receive, send) indices.
std::vector<std::pair<size_t, size_t>> token_pairs(const Table& t, const TableFacts& f, const std::string& bus);

// Bounds that a bus carries from one side to the other (facts.cpp, carried_bounds, has the
// argument): (bus, side of the interaction that may assume it, field) -> bound; only finite ones.
using Carried = std::map<std::tuple<std::string, bool, size_t>, uint64_t>;
Carried carried_bounds(const spec::air::Spec& spec, const std::string& table, const std::string* skip);

// The witness columns that the implied question eliminates (Encoder::eliminate_witnesses): the
// main columns that the table names once in all (constraints and buses), not in `target`.
std::set<std::string> witness_columns(const Table& t, const spec::air::Constraint& target);

// Whether e names column `col` of the next row (at_next) or of this one.
bool names_column(const Expr& e, const std::string& col, bool at_next);

// A leaf of an expression: a constant, a column (this row or the next) or a public value.
bool is_atom(const Expr& e);

// An affine form c0 + sum of c * leaf, each leaf a column of this row or of the next, with small
// integer coefficients (constants above p/2 taken as their value minus p).
struct Form {
  int64_t c0 = 0;
  std::map<std::pair<std::string, bool>, int64_t> terms;  // (column, next row) -> coefficient
};
using Leaf = std::function<std::optional<Form>(const std::string& column, bool next)>;

// e as an affine form of what `leaf` makes of each column it names (nullopt: not affine there);
// nullopt for a product of two non-constants or a coefficient outside [-2^40, 2^40] (encoding.cpp).
std::optional<Form> affine_form(const Expr& e, const Leaf& leaf);
// The range of an affine form whose leaves are bits.
std::pair<double, double> form_range(const Form& f);

// The columns that every-row constraints define as affine forms of bits (facts.cpp, definitions,
// says which and why the implied question wants them).
std::map<std::string, Form> definitions(const Table& t, const std::string* skip, const TableFacts& facts,
                                        const std::set<std::string>& witnesses, const std::vector<std::string>& using_ids);

// The items of table t that a certificate names: its constraints and interactions in `ids` (an
// ID that is neither, or is `skip`, throws), and the interactions whose columns all lie among
// `cols` and the named constraints' columns. (constraints, interactions) as flags.
std::pair<std::vector<bool>, std::vector<bool>> certificate(const Table& t, const std::vector<std::string>& ids,
                                                            const std::string* skip, std::set<std::string> cols);

// A certificate's IDs by the table they name (before their first ':'); an ID of no table throws.
std::map<std::string, std::vector<std::string>> ids_by_table(const spec::air::Spec& spec, const std::vector<std::string>& ids);

}  // namespace zkrv::air_solve::internal
