#pragma once
// Polynomials over F_p in the columns of a place's rows, for the uniqueness question's difference
// and value steps (unique_differences.cpp, unique_values.cpp), and the cases of a few bits that Z3
// lists for them. Definitions in polys.cpp.

#include <z3++.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tools/air_solve/internal.h"

namespace zkrv::air_solve::internal {

// A polynomial over the field: each monomial (its variables' ids, sorted, repeated for a power)
// with its coefficient, never 0.
using Mono = std::vector<int>;
using Poly = std::map<Mono, uint64_t>;
void add_term(Poly& p, const Mono& m, uint64_t c);
// a b; nullopt past `cap` terms
std::optional<Poly> poly_times(const Poly& a, const Poly& b, size_t cap = SIZE_MAX);
// e as a polynomial, with var giving each column reference's (or public's) id; nullopt past a
// few thousand terms (the question then leaves it out).
std::optional<Poly> poly_of(const Expr& e, const std::function<int(const Expr&)>& var);
// p with the variables of `value` (bits) replaced by their values.
Poly substitute(const Poly& p, const std::map<int, uint64_t>& value);
// p with each variable of `sub` replaced by its polynomial (affine ones, in practice); the other
// variables stay.
Poly compose(const Poly& p, const std::map<int, Poly>& sub);

// A place's polynomials, as one row of it sees them: every constraint where it applies to the row
// (the previous row if has_prev, the next row if has_next), each interaction's multiplicity and
// tuple (its next row: the place's, or the row itself at the end), each free mark's expression
// on the row. id(e, is_row) numbers a column reference (is_row: on the row asked about, rather
// than the place's other row) or a public value.
struct PlacePolys {
  struct Bus {
    const spec::air::BusInteraction* b;
    std::optional<Poly> mult;
    std::vector<std::optional<Poly>> tuple;
  };
  std::vector<Poly> constraints;
  std::vector<Bus> buses;
  std::map<std::string, std::optional<Poly>> unless;
};
PlacePolys place_polys(const Table& t, bool has_prev, bool has_next, const std::function<int(const Expr&, bool)>& id);

// The cases of a few bits: Z3 lists the assignments of some bit variables (ids) that the
// polynomials over bits alone allow. A power of a bit is the bit, so each monomial is the
// conjunction of its bits; with small coefficients (|sum| < p) "p = 0 mod p" is a pseudo-Boolean
// equation, which Z3 decides by its cardinality reasoning (an if-then-else sum of 15 one-hot
// selectors already runs out of time as linear arithmetic).
class BitCases {
 public:
  BitCases(const std::map<int, std::string>& bits, unsigned timeout_ms);
  z3::context& ctx() { return ctx_; }
  bool over_bits(const Poly& p) const;
  const z3::expr& bit(int id) const { return bit_.at(id); }
  // p = 0 mod p, for p over bits
  z3::expr zero_mod_p(const Poly& p);
  void require(const z3::expr& e) { cases_.add(e); }
  // the row is real (is_real, the id of a bit, is 1; -1: not asked) and, with `interacting`,
  // some interaction but a lookup send has a multiplicity that is not 0
  void require_row(int is_real, bool interacting, const std::vector<PlacePolys::Bus>& buses);
  // the assignments of `split` that what is required allows; nullopt, with `why`, where Z3 has no
  // answer or there are more than `cap`
  std::optional<std::vector<std::map<int, uint64_t>>> each(const std::set<int>& split, size_t cap, std::string& why);

 private:
  z3::context ctx_;
  std::map<int, z3::expr> bit_;
  z3::solver cases_;
};

}  // namespace zkrv::air_solve::internal
