#pragma once
// The spec's expressions as Z3 terms over the integers (solve.h, "Encoding"): one table's
// variables and terms in one Z3 context. Definitions in encoding.cpp.

#include <z3++.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "spec/air/spec.h"
#include "tools/air_solve/facts.h"

namespace zkrv::air_solve::internal {

// One table's variables and terms in one Z3 context.
class Encoder {
 public:
  Encoder(z3::context& ctx, const spec::air::Spec& spec, const Table& t, Carried carried = {});

  // A row: one variable per column, named by `suffix` ("" for the row, "'" for the next row,
  // "#2" for a second copy), each in [0, p).
  std::vector<z3::expr> row(const std::string& suffix);

  // The exact integer value of e on (local, next). With signed constants, a constant above p/2
  // is taken as its value minus p (the same field element): small rows give small terms.
  z3::expr term(const Expr& e, const std::vector<z3::expr>& local, const std::vector<z3::expr>* next) const;
  // e as an affine form of bit columns of (local, next), with the defined columns stated by
  // their definitions (use_definitions); nullopt where e is not one, or without use_ranges.
  struct BitAffine {
    int64_t c0 = 0;
    std::vector<std::pair<int64_t, z3::expr>> terms;  // (coefficient, a bit column's variable)
  };
  std::optional<BitAffine> bit_affine(const Expr& e, const std::vector<z3::expr>& local,
                                      const std::vector<z3::expr>* next) const;
  z3::expr sum(const BitAffine& a) const;
  // e as a small integer that term() states unreduced, with its range (form_range): an affine
  // form of bits and defined columns, only where the question knows the bits (use_ranges) or
  // defines columns. term(), factor() and range() all decide by it, so that a term's integer
  // value and its interval agree.
  std::optional<Form> small_form(const Expr& e) const;
  // The affine form of bits behind bit_affine, with the defined columns' definitions expanded.
  std::optional<Form> affine_of_bits(const Expr& e) const;
  // The columns to state by their definitions (definitions()); needs use_ranges (the bits).
  void use_definitions(std::map<std::string, Form> defs) { defs_ = std::move(defs); }
  // Each defined column's variable is its definition's value mod p on `row`, so that a model
  // shows it (every term reads the definition instead).
  z3::expr definitions_hold(const std::vector<z3::expr>& row) const;
  // A factor of a product: with reduced products, a compound factor is reduced mod p first (the
  // same field element), so that a factor known to be 0 mod p makes the product 0 by rewriting
  // alone; integer arithmetic mod p does not see that (D * y = 1 mod p with D = 0 mod p).
  z3::expr factor(const Expr& e, const std::vector<z3::expr>& local, const std::vector<z3::expr>* next) const;
  z3::expr reduced(const z3::expr& v) const { return z3::mod(v, p_); }
  void use_signed_constants() { signed_constants_ = true; }
  void use_reduced_products() { reduce_products_ = true; }
  // e = 0 mod p on (local, next), stated as e = 0 over the integers where |e| < p can be shown
  // from the columns' magnitudes (no quotient for the solver to find).
  z3::expr holds_bounded(const Expr& e, const std::vector<z3::expr>& local, const std::vector<z3::expr>* next,
                         const std::vector<double>& mag_local, const std::vector<double>* mag_next) const;
  // An upper bound on |e| with |column| at most its magnitude (constants signed).
  double magnitude(const Expr& e, const std::vector<double>& local, const std::vector<double>* next) const;
  // e = 0 mod p on (local, next); with the columns' ranges known (use_ranges), as e = k p for the
  // few multiples of p that e's integer range spans.
  z3::expr holds(const Expr& e, const std::vector<z3::expr>& local, const std::vector<z3::expr>* next) const;
  // The columns that the question makes bits ([0, 1]); every other column is in [0, p). Turns on
  // the range-based statement of "holds" above.
  void use_ranges(std::set<std::string> bits) { bit_columns_ = std::move(bits); }
  // An interval that holds e's integer value (as term() builds it), in doubles: lo and hi are
  // rounded, which the one extra multiple of p on each side in holds() covers.
  std::pair<double, double> range(const Expr& e) const;
  z3::expr mult(const spec::air::BusInteraction& b, const std::vector<z3::expr>& local,
                const std::vector<z3::expr>* next) const;

  // What the fixed tables enforce on a row's lookups: a byte or range16 send with a nonzero
  // multiplicity has its value in range; an and8 send has its three values below 256. That
  // holds only where no other send of the same value can cancel it: the multiplicity must be
  // known to be non-negative without `skip` (absent, a constant, or a sum of columns that
  // constraints other than `skip` make bits), since LogUp's bound keeps sums of such from wrapping.
  // On the other buses, an interaction (send or receive) with such a multiplicity has the bounds
  // the other side enforces (carried_bounds), where its multiplicity is not zero.
  z3::expr lookups(const std::vector<z3::expr>& local, const std::vector<z3::expr>* next,
                   const std::vector<bool>* only = nullptr, const std::string* skip = nullptr) const;

  // Multiplicities (as written) that a question of their own proved to be 0 or 1 on every row.
  void use_proved_bits(std::set<std::string> m) { proved_bits_ = std::move(m); }
  // A constant, a column that a constraint other than `skip` makes a bit, or a sum of those; or a
  // multiplicity of use_proved_bits.
  bool nonnegative(const Expr& e, const std::string* skip) const;

  // Every constraint of kind `rows` except `skip` (nullptr: none) holds; only those in `only`
  // when it is given. A bit constraint x (x - 1) is also stated as x = 0 or x = 1, which is the
  // same fact in the form the solver case-splits on.
  z3::expr constraints(Rows rows, const std::string* skip, const std::vector<z3::expr>& local,
                       const std::vector<z3::expr>* next, const std::vector<bool>* only = nullptr) const;

  // A product is 0 in the field only if one of its factors is (p is prime): for a constraint
  // whose top is a product, the disjunction over its factors, the same fact in the form the
  // solver case-splits on (integer arithmetic mod p does not know that p has no divisors).
  z3::expr some_factor_zero(const Expr& e, const std::vector<z3::expr>& local, const std::vector<z3::expr>* next,
                            const std::vector<double>* ml = nullptr, const std::vector<double>* mn = nullptr) const;

  // Witness columns to eliminate: a column that the table names once, in one factor, as A y + R
  // (A and R without y), is there only to be chosen, and some y makes A y + R = 0 mod p exactly
  // when A != 0 or R = 0 (p is prime). So that factor is stated as the disjunction, without y:
  // an inverse witness (x * inv - 1) becomes x != 0, which integer arithmetic mod p cannot find
  // by itself. Only for the implied question (unique asks whether the witness is determined).
  // `target`'s columns are kept.
  void eliminate_witnesses(std::set<std::string> w) { witnesses_ = std::move(w); }
  const std::set<std::string>& witnesses() const { return witnesses_; }
  // f as A y + R for an eliminated witness y in f (integer terms); nullopt when f names none or
  // is not linear in it.
  std::optional<std::pair<z3::expr, z3::expr>> witness_split(const Expr& f, const std::vector<z3::expr>& local,
                                                             const std::vector<z3::expr>* next) const;
  // f as A y + R over the integers, y the column `y` of the next row (y_next) or of this one, A
  // and R without it; nullopt where f is not linear in it (a product of two factors that name
  // it, a power of one).
  std::optional<std::pair<z3::expr, z3::expr>> linear_in(const Expr& f, const std::string& y, bool y_next,
                                                         const std::vector<z3::expr>& local,
                                                         const std::vector<z3::expr>* next) const;

  // The column of a bit constraint (bit_column_name); -1 otherwise.
  int bit_column(const Expr& e) const;

  const std::map<std::string, z3::expr>& publics() const { return publics_; }
  // Every variable made so far is in [0, p).
  z3::expr domain() const;

 private:
  z3::expr bounded(const z3::expr& v);

  z3::context& ctx_;
  const Table& t_;
  z3::expr p_;
  std::map<std::string, z3::expr> publics_;
  std::vector<z3::expr> bounds_;
  Carried carried_;
  bool signed_constants_ = false;
  bool reduce_products_ = false;
  std::set<std::string> witnesses_;
  std::set<std::string> bit_columns_;
  std::map<std::string, Form> defs_;
  std::set<std::string> proved_bits_;
};

}  // namespace zkrv::air_solve::internal
