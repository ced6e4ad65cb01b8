#include "tools/air_solve/solve.h"

#include <z3++.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "spec/stark.h"

namespace zkrv::air_solve {
namespace {

using spec::air::Expr;
using spec::air::Rows;
using spec::air::Table;

const char* const kP = "18446744069414584321";  // 2^64 - 2^32 + 1
const uint64_t kNoBound = ~uint64_t{0};            // a value anywhere in [0, p)
const uint64_t kPValue = 0xffffffff00000001ull;
const uint64_t kHalfP = kPValue / 2;
const double kPDouble = 18446744069414584321.0;

uint64_t field_mul(uint64_t a, uint64_t b) {
  return static_cast<uint64_t>(static_cast<unsigned __int128>(a) * b % kPValue);
}
uint64_t field_neg(uint64_t a) { return a == 0 ? 0 : kPValue - a; }
uint64_t field_inverse(uint64_t a) {  // a^(p-2), a != 0
  uint64_t r = 1, e = kPValue - 2;
  for (; e; e >>= 1, a = field_mul(a, a))
    if (e & 1) r = field_mul(r, a);
  return r;
}

// The column x of a bit constraint x (x - 1), x (1 - x), (x - 1) x or (1 - x) x; empty otherwise.
std::string bit_column_name(const Expr& e) {
  if (e.op != Expr::Op::kMul) return {};
  auto is_col = [](const Expr& a) { return a.op == Expr::Op::kColumn ? a.name : std::string(); };
  auto is_shift = [&](const Expr& a) {  // x - 1 or 1 - x
    if (a.op != Expr::Op::kSub) return std::string();
    const Expr &l = *a.args[0], &r = *a.args[1];
    if (l.op == Expr::Op::kColumn && r.op == Expr::Op::kConst && r.value == 1) return l.name;
    if (r.op == Expr::Op::kColumn && l.op == Expr::Op::kConst && l.value == 1) return r.name;
    return std::string();
  };
  for (int k = 0; k < 2; ++k) {
    const std::string x = is_col(*e.args[k]), y = is_shift(*e.args[1 - k]);
    if (!x.empty() && x == y) return x;
  }
  return {};
}

// What one table enforces by itself, without constraint `skip`: which columns are bits, which
// multiplicities are non-negative integers (a constant, a bit column, or a sum of those), and
// how far each field of an interaction is bounded where its multiplicity is not zero.
struct TableFacts {
  const Table& t;
  const std::string* skip;
  bool is_bit(const std::string& col) const {
    for (const auto& c : t.constraints)
      if (c.rows == Rows::kEvery && (!skip || c.id != *skip) && bit_column_name(*c.expr) == col) return true;
    return false;
  }
  bool nonnegative(const Expr& e) const {
    if (e.op == Expr::Op::kConst) return e.value < (uint64_t{1} << 32);  // a small non-negative integer (p - 1 is -1)
    if (e.op == Expr::Op::kAdd) return nonnegative(*e.args[0]) && nonnegative(*e.args[1]);
    return e.op == Expr::Op::kColumn && is_bit(e.name);
  }
  // A bound on field `e` of an interaction with multiplicity `mult` (null: 1), where that is not
  // zero: a constant; a bit column; a column sent alone on the byte or range16 bus by a lookup
  // that is active wherever this interaction is (a nonzero constant multiplicity, or the same one).
  uint64_t bound(const Expr& e, const Expr* mult) const {
    if (e.op == Expr::Op::kConst) return e.value == kNoBound ? kNoBound : e.value + 1;
    if (e.op != Expr::Op::kColumn) return kNoBound;
    if (is_bit(e.name)) return 2;
    uint64_t best = kNoBound;
    for (const auto& c : t.columns)  // the verifier fills a preprocessed column, within its type
      if (c.name == e.name && c.kind == spec::air::ColumnKind::kPreprocessed) best = spec::air::type_bound(c.type);
    const std::string m = mult ? spec::air::to_string(*mult) : "1";
    for (const auto& b : t.buses) {
      if (!b.send || b.tuple.size() != 1 || b.tuple[0]->op != Expr::Op::kColumn || b.tuple[0]->name != e.name) continue;
      const uint64_t k = b.bus == "byte" ? 256 : b.bus == "range16" ? 65536 : kNoBound;
      if (k == kNoBound || (b.mult && !nonnegative(*b.mult))) continue;
      const bool always = !b.mult || (b.mult->op == Expr::Op::kConst && b.mult->value != 0);
      if (always || spec::air::to_string(*b.mult) == m) best = std::min(best, k);
    }
    return best;
  }
};

// The factors of e's top product (e itself when it is not one), through negations.
std::vector<const Expr*> factors_of(const Expr& e) {
  std::vector<const Expr*> factors;
  std::function<void(const Expr&)> flatten = [&](const Expr& x) {
    if (x.op == Expr::Op::kMul) flatten(*x.args[0]), flatten(*x.args[1]);
    else if (x.op == Expr::Op::kNeg) flatten(*x.args[0]);
    else factors.push_back(&x);
  };
  flatten(e);
  return factors;
}

// The token pairs of a table on a bus: a receive and a send with the same key (field 0) and the
// same multiplicity, whose timestamps (field 1) the table orders where that multiplicity is not
// zero: a constraint `mult * (ts_out - ts_in - 1 - d0 - 65536 d1)` (any arrangement of those
// terms) whose d0 and d1 it sends to range16 under the same multiplicity. Each pair is counted
// once; the interactions of the bus that are in no pair are its own. (receive, send) indices.
std::vector<std::pair<size_t, size_t>> token_pairs(const Table& t, const TableFacts& f, const std::string& bus) {
  std::vector<std::pair<size_t, size_t>> pairs;
  std::set<size_t> used;
  auto str = [](const Expr* e) { return e ? spec::air::to_string(*e) : std::string("1"); };
  // L == out - in - 1 - d0 - 65536 d1 for columns d0, d1 of L below 2^16 (checked at random points)
  auto orders = [&](const Expr& l, const Expr& out, const Expr& in, const Expr* mult) {
    std::vector<std::string> small;
    spec::air::names(l, [&](const std::string& n, bool next) {
      if (next) return;
      Expr col;
      col.op = Expr::Op::kColumn, col.name = n;
      if (f.bound(col, mult) <= 65536 && std::find(small.begin(), small.end(), n) == small.end()) small.push_back(n);
    });
    for (const auto& d0 : small)
      for (const auto& d1 : small) {
        if (d0 == d1) continue;
        bool same = true;
        for (uint64_t seed = 1; seed <= 4 && same; ++seed) {
          std::map<std::pair<std::string, bool>, uint64_t> env;
          auto look = [&](const std::string& n, bool next) {
            auto [it, fresh] = env.emplace(std::make_pair(n, next), 0);
            if (fresh) it->second = field_mul(0x9e3779b97f4a7c15ull % kPValue + seed, env.size() * 0x2545f4914f6cdd1dull % kPValue + seed);
            return it->second;
          };
          const uint64_t want = spec::air::fp_sub(
              spec::air::fp_sub(spec::air::fp_sub(spec::air::fp_sub(spec::air::eval(out, look), spec::air::eval(in, look)), 1),
                                look(d0, false)),
              field_mul(65536, look(d1, false)));
          same = spec::air::eval(l, look) == want;
        }
        if (same) return true;
      }
    return false;
  };
  for (size_t r = 0; r < t.buses.size(); ++r) {
    const auto& in = t.buses[r];
    if (in.bus != bus || in.send || in.tuple.size() < 2) continue;
    for (size_t s = 0; s < t.buses.size(); ++s) {
      const auto& out = t.buses[s];
      if (out.bus != bus || !out.send || used.count(s) || out.tuple.size() != in.tuple.size() ||
          str(out.tuple[0].get()) != str(in.tuple[0].get()) || str(out.mult.get()) != str(in.mult.get()))
        continue;
      bool ordered = false;
      for (const auto& c : t.constraints) {
        if (c.rows != Rows::kEvery || (f.skip && c.id == *f.skip)) continue;
        const auto factors = factors_of(*c.expr);
        if (factors.size() != 2) continue;
        for (int k = 0; k < 2 && !ordered; ++k)
          ordered = str(factors[k]) == str(in.mult.get()) && orders(*factors[1 - k], *out.tuple[1], *in.tuple[1], in.mult.get());
        if (ordered) break;
      }
      if (!ordered) continue;
      used.insert(s);
      pairs.emplace_back(r, s);
      break;
    }
  }
  return pairs;
}

// Bounds that a bus carries from one side to the other. Where every interaction of one side of a
// bus, in every table, has a non-negative integer multiplicity (without `skip` in `table`), a
// tuple that side puts on the bus with a nonzero multiplicity has a nonzero count there (the
// counts stay below p), and LogUp's balance asks the same count of it from the other side: some
// interaction of the other side has that tuple with a nonzero multiplicity, whatever the signs
// of that side's multiplicities. So the side may assume, on each field, the largest bound that
// the interactions of the other side enforce where their multiplicities are not zero (a lookup
// into a table of preprocessed columns: the sent tuple is one of the table's rows). (bus, side of
// the interaction that may assume it, field) -> bound; only finite ones.
using Carried = std::map<std::tuple<std::string, bool, size_t>, uint64_t>;
Carried carried_bounds(const spec::air::Spec& spec, const std::string& table, const std::string* skip) {
  std::map<std::string, bool> usable;                 // bus -> every multiplicity on it is non-negative
  std::map<std::pair<std::string, bool>, bool> counts;  // (bus, send) -> every multiplicity of that side is
  std::map<std::tuple<std::string, bool, size_t>, uint64_t> side;  // (bus, send, field) -> max bound of that side
  for (const auto& t : spec.tables) {
    const TableFacts f{t, t.name == table ? skip : nullptr};
    for (const auto& b : t.buses) {
      auto [it, fresh] = usable.emplace(b.bus, true);
      auto [ct, cfresh] = counts.emplace(std::make_pair(b.bus, b.send), true);
      if (b.mult && !f.nonnegative(*b.mult)) it->second = false, ct->second = false;
      for (size_t i = 0; i < b.tuple.size(); ++i) {
        const uint64_t k = f.bound(*b.tuple[i], b.mult.get());
        auto [at, first] = side.emplace(std::make_tuple(b.bus, b.send, i), k);
        if (!first) at->second = std::max(at->second, k);
      }
    }
  }
  // Token buses (the memory and register arguments): where some table has token pairs on a bus,
  // a pair consumes a token (key, ts_in) and makes (key, ts_out) with ts_out - ts_in in
  // [1, 2^32]. With every multiplicity a non-negative integer, each consumed token is one that is
  // sent: by an interaction in no pair, or by a pair's send with the same key. Following the
  // latter back from a pair whose key no unpaired send has would give a cycle of pairs whose
  // timestamp steps, each in [1, 2^32], sum to 0 mod p, which needs more than 2^31 rows. So every
  // key on the bus is one that its unpaired sends have, and every interaction of it may assume
  // their bound on field 0.
  std::map<std::string, uint64_t> key_bound;  // bus -> the largest key bound of its unpaired sends
  std::set<std::string> token_bus;
  for (const auto& t : spec.tables) {
    const TableFacts f{t, t.name == table ? skip : nullptr};
    std::set<std::string> buses;
    for (const auto& b : t.buses) buses.insert(b.bus);
    for (const auto& bus : buses) {
      std::set<size_t> paired;
      for (const auto& [r, s] : token_pairs(t, f, bus)) paired.insert(r), paired.insert(s), token_bus.insert(bus);
      for (size_t i = 0; i < t.buses.size(); ++i) {
        const auto& b = t.buses[i];
        if (b.bus != bus || !b.send || paired.count(i) || b.tuple.empty()) continue;
        auto [it, fresh] = key_bound.emplace(bus, 0);
        it->second = std::max(it->second, f.bound(*b.tuple[0], b.mult.get()));
      }
    }
  }
  Carried out;
  for (const auto& bus : token_bus) {
    const auto it = key_bound.find(bus);
    if (!usable[bus] || it == key_bound.end() || it->second == kNoBound) continue;
    for (bool send : {false, true}) out[std::make_tuple(bus, send, size_t{0})] = it->second;
  }
  for (const auto& [key, k] : side) {
    const auto& [bus, send, field] = key;
    const auto assumer = counts.find(std::make_pair(bus, !send));
    if (assumer == counts.end() || !assumer->second || k == kNoBound) continue;
    // a bound the senders enforce is the receivers' to assume, and the other way round; a side
    // with no interactions at all carries nothing (the verifier adds those tuples)
    auto [at, fresh] = out.emplace(std::make_tuple(bus, !send, field), k);
    if (!fresh) at->second = std::min(at->second, k);
  }
  return out;
}

// The witness columns that the implied question eliminates (Encoder::eliminate_witnesses): the
// main columns that the table names once in all (constraints and buses), not in `target`.
std::set<std::string> witness_columns(const Table& t, const spec::air::Constraint& target) {
  std::map<std::string, int> uses;
  auto count = [&](const Expr& x) { spec::air::names(x, [&](const std::string& n, bool) { ++uses[n]; }); };
  for (const auto& c : t.constraints) count(*c.expr);
  for (const auto& b : t.buses) {
    if (b.mult) count(*b.mult);
    for (const auto& el : b.tuple) count(*el);
  }
  std::set<std::string> keep, out;
  spec::air::names(*target.expr, [&](const std::string& n, bool) { keep.insert(n); });
  for (const auto& col : t.columns)
    if (uses[col.name] == 1 && !keep.count(col.name) && col.kind == spec::air::ColumnKind::kMain) out.insert(col.name);
  return out;
}

// Whether e names column `col` of the next row (at_next) or of this one.
bool names_column(const Expr& e, const std::string& col, bool at_next) {
  bool has = false;
  spec::air::names(e, [&](const std::string& n, bool next) { has = has || (n == col && next == at_next); });
  return has;
}

// A leaf of an expression: a constant, a column (this row or the next) or a public value.
bool is_atom(const Expr& e) {
  return e.op == Expr::Op::kConst || e.op == Expr::Op::kColumn || e.op == Expr::Op::kNext || e.op == Expr::Op::kPublic;
}


// The most columns that are not bits (nor witnesses) in one monomial of e, expanded.
int free_degree(const Expr& e, const TableFacts& facts, const std::set<std::string>& witnesses) {
  switch (e.op) {
    case Expr::Op::kConst:
    case Expr::Op::kPublic: return 0;
    case Expr::Op::kColumn:
    case Expr::Op::kNext: return facts.is_bit(e.name) || witnesses.count(e.name) ? 0 : 1;
    case Expr::Op::kNeg: return free_degree(*e.args[0], facts, witnesses);
    case Expr::Op::kPow: return static_cast<int>(e.value) * free_degree(*e.args[0], facts, witnesses);
    case Expr::Op::kAdd:
    case Expr::Op::kSub: return std::max(free_degree(*e.args[0], facts, witnesses), free_degree(*e.args[1], facts, witnesses));
    case Expr::Op::kMul: return free_degree(*e.args[0], facts, witnesses) + free_degree(*e.args[1], facts, witnesses);
  }
  return 99;
}

// free_degree of a constraint as the implied question states it: a product as "some factor is
// 0", so the largest of its factors'.
int constraint_degree(const Expr& e, const TableFacts& facts, const std::set<std::string>& witnesses) {
  int d = 0;
  const auto factors = factors_of(e);
  for (const Expr* f : factors) d = std::max(d, free_degree(*f, facts, witnesses));
  return d;
}

// An affine form c0 + sum of c * leaf, each leaf a column of this row or of the next, with small
// integer coefficients (constants above p/2 taken as their value minus p).
struct Form {
  int64_t c0 = 0;
  std::map<std::pair<std::string, bool>, int64_t> terms;  // (column, next row) -> coefficient
};
using Leaf = std::function<std::optional<Form>(const std::string& column, bool next)>;

// e as an affine form of what `leaf` makes of each column it names (nullopt: not affine there);
// nullopt for a product of two non-constants or a coefficient outside [-2^40, 2^40].
std::optional<Form> affine_form(const Expr& e, const Leaf& leaf) {
  constexpr int64_t kMax = int64_t{1} << 40;
  auto small = [&](int64_t v) { return v >= -kMax && v <= kMax; };
  switch (e.op) {
    case Expr::Op::kConst: {
      const int64_t v = e.value > kHalfP ? -static_cast<int64_t>(kPValue - e.value) : static_cast<int64_t>(e.value);
      if (!small(v)) return std::nullopt;
      return Form{v, {}};
    }
    case Expr::Op::kColumn:
    case Expr::Op::kNext: return leaf(e.name, e.op == Expr::Op::kNext);
    case Expr::Op::kNeg: {
      auto a = affine_form(*e.args[0], leaf);
      if (!a) return std::nullopt;
      a->c0 = -a->c0;
      for (auto& [n, c] : a->terms) c = -c;
      return a;
    }
    case Expr::Op::kAdd:
    case Expr::Op::kSub: {
      auto a = affine_form(*e.args[0], leaf), b = affine_form(*e.args[1], leaf);
      if (!a || !b) return std::nullopt;
      const int64_t sign = e.op == Expr::Op::kAdd ? 1 : -1;
      a->c0 += sign * b->c0;
      for (const auto& [n, c] : b->terms) a->terms[n] += sign * c;
      if (!small(a->c0)) return std::nullopt;
      for (const auto& [n, c] : a->terms)
        if (!small(c)) return std::nullopt;
      return a;
    }
    case Expr::Op::kMul: {  // by a constant only
      auto a = affine_form(*e.args[0], leaf), b = affine_form(*e.args[1], leaf);
      if (!a || !b) return std::nullopt;
      if (!b->terms.empty()) std::swap(a, b);
      if (!b->terms.empty()) return std::nullopt;
      const int64_t k = b->c0;
      auto times = [&](int64_t& c) {  // c * k within the bound, checked before multiplying (2^40 * 2^40 overflows)
        if (c != 0 && k != 0 && std::llabs(k) > kMax / std::llabs(c)) return false;
        c *= k;
        return small(c);
      };
      if (!times(a->c0)) return std::nullopt;
      for (auto& [n, c] : a->terms)
        if (!times(c)) return std::nullopt;
      return a;
    }
    default: return std::nullopt;
  }
}

// The range of an affine form whose leaves are bits.
std::pair<double, double> form_range(const Form& f) {
  double lo = static_cast<double>(f.c0), hi = lo;
  for (const auto& [n, c] : f.terms) (c < 0 ? lo : hi) += static_cast<double>(c);
  return {lo, hi};
}

// Definitions: a column x that an every-row constraint D (other than `skip`; among `using_ids`
// where given) makes an affine form of bit columns, D = a x + (c0 + sum of c b) with a = ±1 and
// x the only column of D that is not a bit. The implied question then states x as that form on
// every row (the same field element, since D holds there), so that a product of x and another
// column is a sum of bit-gated copies of the other (linear) rather than a product of two
// full-range integers. `cpu:c:f_system_bit` needs it: one_class makes f_system is_real minus a
// sum of flags, and f_system multiplies the instruction word and the register indices.
std::map<std::string, Form> definitions(const Table& t, const std::string* skip, const TableFacts& facts,
                                        const std::set<std::string>& witnesses, const std::vector<std::string>& using_ids) {
  std::map<std::string, Form> out;
  const Leaf this_row = [](const std::string& col, bool next) -> std::optional<Form> {
    if (next) return std::nullopt;
    return Form{0, {{{col, false}, 1}}};
  };
  for (const auto& c : t.constraints) {
    if (c.rows != Rows::kEvery || (skip && c.id == *skip)) continue;
    if (!using_ids.empty() && std::find(using_ids.begin(), using_ids.end(), c.id) == using_ids.end()) continue;
    const auto a = affine_form(*c.expr, this_row);
    if (!a) continue;
    std::string x;
    bool ok = true;
    for (const auto& [key, k] : a->terms) {
      const std::string& n = key.first;
      if (k == 0 || facts.is_bit(n)) continue;
      if (!x.empty() || (k != 1 && k != -1) || witnesses.count(n) || out.count(n)) ok = false;  // the first definition of x
      x = n;
    }
    if (!ok || x.empty()) continue;
    // x = -(c0 + sum over the bits) / a, a = ±1
    const int64_t sign = -a->terms.at({x, false});
    Form def{sign * a->c0, {}};
    for (const auto& [key, k] : a->terms)
      if (key.first != x && k != 0) def.terms[key] = sign * k;
    out.emplace(x, std::move(def));  // its terms are bits, so no definition names another
  }
  return out;
}

// One table's variables and terms in one Z3 context.
class Encoder {
 public:
  Encoder(z3::context& ctx, const spec::air::Spec& spec, const Table& t, Carried carried = {})
      : ctx_(ctx), t_(t), p_(ctx.int_val(kP)), carried_(std::move(carried)) {
    for (const auto& pub : spec.publics) publics_.emplace(pub.name, bounded(ctx.int_const(("$" + pub.name).c_str())));
  }

  // A row: one variable per column, named by `suffix` ("" for the row, "'" for the next row,
  // "#2" for a second copy), each in [0, p).
  std::vector<z3::expr> row(const std::string& suffix) {
    std::vector<z3::expr> r;
    for (const auto& c : t_.columns) r.push_back(bounded(ctx_.int_const((c.name + suffix).c_str())));
    return r;
  }

  // The exact integer value of e on (local, next). With signed constants, a constant above p/2
  // is taken as its value minus p (the same field element): small rows give small terms.
  z3::expr term(const Expr& e, const std::vector<z3::expr>& local, const std::vector<z3::expr>* next) const {
    switch (e.op) {
      case Expr::Op::kConst:
        if (signed_constants_ && e.value > kHalfP) return -ctx_.int_val(std::to_string(kPValue - e.value).c_str());
        return ctx_.int_val(std::to_string(e.value).c_str());
      case Expr::Op::kColumn:
      case Expr::Op::kNext: {
        if (e.op == Expr::Op::kNext && !next) throw std::logic_error("a next-row reference where there is no next row: " + e.name);
        const std::vector<z3::expr>& row = e.op == Expr::Op::kNext ? *next : local;
        if (defs_.count(e.name)) return sum(*bit_affine(e, local, next));  // its definition on that row (always a form)
        return row.at(static_cast<size_t>(t_.column_index(e.name)));
      }
      case Expr::Op::kPublic: return publics_.at(e.name);
      case Expr::Op::kNeg: return -term(*e.args[0], local, next);
      case Expr::Op::kPow: {
        z3::expr base = term(*e.args[0], local, next), r = ctx_.int_val(1);
        if (reduce_products_ && e.args[0]->op != Expr::Op::kColumn) base = reduced(base);
        for (uint64_t k = 0; k < e.value; ++k) r = r * base;
        return r;
      }
      case Expr::Op::kAdd: return term(*e.args[0], local, next) + term(*e.args[1], local, next);
      case Expr::Op::kSub: return term(*e.args[0], local, next) - term(*e.args[1], local, next);
      case Expr::Op::kMul: {
        // a factor that is an affine form of bits multiplies the other as a sum of bit-gated
        // copies (b x is x where b = 1 and 0 where b = 0): linear in the other factor
        for (int k = 0; k < 2; ++k)
          if (auto a = bit_affine(*e.args[static_cast<size_t>(k)], local, next)) {
            const z3::expr other = factor(*e.args[static_cast<size_t>(1 - k)], local, next);
            z3::expr r = a->c0 == 0 ? ctx_.int_val(0) : ctx_.int_val(a->c0) * other;
            for (const auto& [c, b] : a->terms) {
              const z3::expr gated = z3::ite(b == 1, other, ctx_.int_val(0));
              r = r + (c == 1 ? gated : ctx_.int_val(c) * gated);
            }
            return r;
          }
        return factor(*e.args[0], local, next) * factor(*e.args[1], local, next);
      }
    }
    throw std::logic_error("unknown expression node");
  }
  // e as an affine form of bit columns of (local, next), with the defined columns stated by
  // their definitions (use_definitions); nullopt where e is not one, or without use_ranges.
  struct BitAffine {
    int64_t c0 = 0;
    std::vector<std::pair<int64_t, z3::expr>> terms;  // (coefficient, a bit column's variable)
  };
  std::optional<BitAffine> bit_affine(const Expr& e, const std::vector<z3::expr>& local, const std::vector<z3::expr>* next) const {
    const auto a = small_form(e);
    if (!a) return std::nullopt;
    BitAffine out{a->c0, {}};
    for (const auto& [key, c] : a->terms) {
      const auto& [name, at_next] = key;
      if (at_next && !next) throw std::logic_error("a next-row reference where there is no next row: " + name);
      out.terms.emplace_back(c, (at_next ? *next : local).at(static_cast<size_t>(t_.column_index(name))));
    }
    return out;
  }
  z3::expr sum(const BitAffine& a) const {
    z3::expr r = ctx_.int_val(a.c0);
    for (const auto& [c, b] : a.terms) r = r + (c == 1 ? b : ctx_.int_val(c) * b);
    return r;
  }
  // e as a small integer that term() states unreduced, with its range (form_range): an affine
  // form of bits and defined columns, only where the question knows the bits (use_ranges) or
  // defines columns. term(), factor() and range() all decide by it, so that a term's integer
  // value and its interval agree.
  std::optional<Form> small_form(const Expr& e) const {
    if (bit_columns_.empty() && defs_.empty()) return std::nullopt;
    return affine_of_bits(e);
  }
  // The affine form of bits behind bit_affine, with the defined columns' definitions expanded.
  std::optional<Form> affine_of_bits(const Expr& e) const {
    return affine_form(e, [this](const std::string& col, bool next) -> std::optional<Form> {
      if (bit_columns_.count(col)) return Form{0, {{{col, next}, 1}}};
      const auto d = defs_.find(col);
      if (d == defs_.end()) return std::nullopt;
      Form f{d->second.c0, {}};
      for (const auto& [key, c] : d->second.terms) f.terms[{key.first, next}] = c;
      return f;
    });
  }
  // The columns to state by their definitions (definitions()); needs use_ranges (the bits).
  void use_definitions(std::map<std::string, Form> defs) { defs_ = std::move(defs); }
  // Each defined column's variable is its definition's value mod p on `row`, so that a model
  // shows it (every term reads the definition instead).
  z3::expr definitions_hold(const std::vector<z3::expr>& row) const {
    z3::expr all = ctx_.bool_val(true);
    for (const auto& [name, def] : defs_) {
      const auto [lo, hi] = form_range(def);
      if (lo <= -kPDouble / 2 || hi >= kPDouble / 2) continue;
      BitAffine a{def.c0, {}};
      for (const auto& [key, c] : def.terms) a.terms.emplace_back(c, row.at(static_cast<size_t>(t_.column_index(key.first))));
      const z3::expr v = sum(a);
      all = all && row.at(static_cast<size_t>(t_.column_index(name))) == z3::ite(v >= 0, v, v + p_);
    }
    return all;
  }
  // A factor of a product: with reduced products, a compound factor is reduced mod p first (the
  // same field element), so that a factor known to be 0 mod p makes the product 0 by rewriting
  // alone; integer arithmetic mod p does not see that (D * y = 1 mod p with D = 0 mod p).
  z3::expr factor(const Expr& e, const std::vector<z3::expr>& local, const std::vector<z3::expr>* next) const {
    const bool small = small_form(e).has_value();  // a small integer already
    return reduce_products_ && !is_atom(e) && !small ? reduced(term(e, local, next)) : term(e, local, next);
  }
  z3::expr reduced(const z3::expr& v) const { return z3::mod(v, p_); }
  void use_signed_constants() { signed_constants_ = true; }
  void use_reduced_products() { reduce_products_ = true; }
  // e = 0 mod p on (local, next), stated as e = 0 over the integers where |e| < p can be shown
  // from the columns' magnitudes (no quotient for the solver to find).
  z3::expr holds_bounded(const Expr& e, const std::vector<z3::expr>& local, const std::vector<z3::expr>* next,
                         const std::vector<double>& mag_local, const std::vector<double>* mag_next) const {
    if (!signed_constants_) throw std::logic_error("holds_bounded without signed constants");  // magnitude takes them signed
    const double m = magnitude(e, mag_local, mag_next);
    return m < 0x1p62 ? term(e, local, next) == 0 : reduced(term(e, local, next)) == 0;
  }
  // An upper bound on |e| with |column| at most its magnitude (constants signed).
  double magnitude(const Expr& e, const std::vector<double>& local, const std::vector<double>* next) const {
    switch (e.op) {
      case Expr::Op::kConst: return static_cast<double>(e.value > kHalfP ? kPValue - e.value : e.value);
      case Expr::Op::kColumn: return local.at(static_cast<size_t>(t_.column_index(e.name)));
      case Expr::Op::kNext: return next ? next->at(static_cast<size_t>(t_.column_index(e.name))) : 0x1p64;
      case Expr::Op::kPublic: return 0x1p64;
      case Expr::Op::kNeg: return magnitude(*e.args[0], local, next);
      case Expr::Op::kPow: {
        double r = 1;
        for (uint64_t k = 0; k < e.value; ++k) r *= magnitude(*e.args[0], local, next);
        return r;
      }
      case Expr::Op::kAdd:
      case Expr::Op::kSub: return magnitude(*e.args[0], local, next) + magnitude(*e.args[1], local, next);
      case Expr::Op::kMul: return magnitude(*e.args[0], local, next) * magnitude(*e.args[1], local, next);
    }
    return 0x1p64;
  }
  z3::expr holds(const Expr& e, const std::vector<z3::expr>& local, const std::vector<z3::expr>* next) const {
    const z3::expr v = term(e, local, next);
    if (!bit_columns_.empty()) {
      // with the columns' ranges known, e's integer value lies in [lo, hi]: where that spans few
      // multiples of p, e = 0 mod p is e = k p for one of them (linear where e is; no quotient)
      const auto [lo, hi] = range(e);
      const double klo = std::floor(lo / kPDouble) - 1, khi = std::ceil(hi / kPDouble) + 1;
      // only where the bounds are exact enough: beyond 2^100 a double's rounding exceeds p
      if (std::max(std::fabs(lo), std::fabs(hi)) < 0x1p100 && khi - klo <= 8) {
        z3::expr any = ctx_.bool_val(false);
        for (double k = klo; k <= khi; ++k) {
          const z3::expr kp = ctx_.int_val(static_cast<int64_t>(k)) * p_;
          any = any || v == kp;
        }
        return any;
      }
    }
    return reduced(v) == 0;
  }
  // The columns that the question makes bits ([0, 1]); every other column is in [0, p). Turns on
  // the range-based statement of "holds" above.
  void use_ranges(std::set<std::string> bits) { bit_columns_ = std::move(bits); }
  // An interval that holds e's integer value (as term() builds it), in doubles: lo and hi are
  // rounded, which the one extra multiple of p on each side in holds() covers.
  std::pair<double, double> range(const Expr& e) const {
    switch (e.op) {
      case Expr::Op::kConst: {
        const double c = signed_constants_ && e.value > kHalfP ? -static_cast<double>(kPValue - e.value) : static_cast<double>(e.value);
        return {c, c};
      }
      case Expr::Op::kColumn:
      case Expr::Op::kNext:
        if (defs_.count(e.name)) return form_range(*affine_of_bits(e));
        return bit_columns_.count(e.name) ? std::make_pair(0.0, 1.0) : std::make_pair(0.0, kPDouble);
      case Expr::Op::kPublic: return {0.0, kPDouble};
      case Expr::Op::kNeg: {
        const auto [lo, hi] = range(*e.args[0]);
        return {-hi, lo * -1};
      }
      case Expr::Op::kAdd:
      case Expr::Op::kSub: {
        const auto a = range(*e.args[0]), b = range(*e.args[1]);
        if (e.op == Expr::Op::kAdd) return {a.first + b.first, a.second + b.second};
        return {a.first - b.second, a.second - b.first};
      }
      case Expr::Op::kMul:
      case Expr::Op::kPow: {
        auto side = [&](const Expr& x) {
          const bool small = small_form(x).has_value();  // not reduced (factor())
          return reduce_products_ && !is_atom(x) && !small ? std::make_pair(0.0, kPDouble) : range(x);
        };
        auto times = [](std::pair<double, double> a, std::pair<double, double> b) {
          const double c[4] = {a.first * b.first, a.first * b.second, a.second * b.first, a.second * b.second};
          return std::make_pair(*std::min_element(c, c + 4), *std::max_element(c, c + 4));
        };
        if (e.op == Expr::Op::kMul) {
          // as term() states it: a small factor's form (constants read signed there) times the other
          for (int k = 0; k < 2; ++k)
            if (const auto f = small_form(*e.args[static_cast<size_t>(k)])) return times(form_range(*f), side(*e.args[static_cast<size_t>(1 - k)]));
          return times(side(*e.args[0]), side(*e.args[1]));
        }
        // term() reduces a base that is not a column of this row
        const auto base = reduce_products_ && e.args[0]->op != Expr::Op::kColumn ? std::make_pair(0.0, kPDouble) : range(*e.args[0]);
        std::pair<double, double> r{1.0, 1.0};
        for (uint64_t k = 0; k < e.value; ++k) r = times(r, base);
        return r;
      }
    }
    return {-1e300, 1e300};
  }
  z3::expr mult(const spec::air::BusInteraction& b, const std::vector<z3::expr>& local,
                const std::vector<z3::expr>* next) const {
    return b.mult ? reduced(term(*b.mult, local, next)) : ctx_.int_val(1);
  }

  // What the fixed tables enforce on a row's lookups: a byte or range16 send with a nonzero
  // multiplicity has its value in range; an and8 send has its three values below 256. That
  // holds only where no other send of the same value can cancel it: the multiplicity must be
  // known to be non-negative without `skip` (absent, a constant, or a sum of columns that
  // constraints other than `skip` make bits), since LogUp's bound keeps sums of such from wrapping.
  // On the other buses, an interaction (send or receive) with such a multiplicity has the bounds
  // the other side enforces (carried_bounds), where its multiplicity is not zero.
  z3::expr lookups(const std::vector<z3::expr>& local, const std::vector<z3::expr>* next,
                   const std::vector<bool>* only = nullptr, const std::string* skip = nullptr) const {
    z3::expr all = ctx_.bool_val(true);
    for (size_t i = 0; i < t_.buses.size(); ++i) {
      const auto& b = t_.buses[i];
      if (only && !(*only)[i]) continue;
      if (b.mult && !nonnegative(*b.mult, skip)) continue;
      uint64_t bound = 0;  // the fixed tables' ranges bound what is sent to them
      if (b.send && (b.bus == "byte" || b.bus == "and8")) bound = 256;
      else if (b.send && b.bus == "range16") bound = 65536;
      else if (b.bus == "byte" || b.bus == "and8" || b.bus == "range16") continue;
      const z3::expr active = mult(b, local, next) != 0;
      for (size_t f = 0; f < b.tuple.size(); ++f) {
        uint64_t k = bound;
        if (!k && b.tuple[f]->op == Expr::Op::kConst) continue;  // a constant key says nothing new (and slows Z3)
        if (!k) {  // another bus: what the other side enforces on this field, if anything
          const auto it = carried_.find(std::make_tuple(b.bus, b.send, f));
          if (it == carried_.end()) continue;
          k = it->second;
        }
        all = all && z3::implies(active, reduced(term(*b.tuple[f], local, next)) < ctx_.int_val(std::to_string(k).c_str()));
      }
    }
    return all;
  }

  // Multiplicities (as written) that a question of their own proved to be 0 or 1 on every row.
  void use_proved_bits(std::set<std::string> m) { proved_bits_ = std::move(m); }
  // A constant, a column that a constraint other than `skip` makes a bit, or a sum of those; or a
  // multiplicity of use_proved_bits.
  bool nonnegative(const Expr& e, const std::string* skip) const {
    if (proved_bits_.count(spec::air::to_string(e))) return true;
    if (e.op == Expr::Op::kConst) return e.value < (uint64_t{1} << 32);  // a small non-negative integer (p - 1 is -1)
    if (e.op == Expr::Op::kAdd) return nonnegative(*e.args[0], skip) && nonnegative(*e.args[1], skip);
    if (e.op != Expr::Op::kColumn) return false;
    for (const auto& c : t_.constraints)
      if (c.rows == Rows::kEvery && (!skip || c.id != *skip) && bit_column(*c.expr) == t_.column_index(e.name)) return true;
    return false;
  }

  // Every constraint of kind `rows` except `skip` (nullptr: none) holds; only those in `only`
  // when it is given. A bit constraint x (x - 1) is also stated as x = 0 or x = 1, which is the
  // same fact in the form the solver case-splits on.
  z3::expr constraints(Rows rows, const std::string* skip, const std::vector<z3::expr>& local,
                       const std::vector<z3::expr>* next, const std::vector<bool>* only = nullptr) const {
    z3::expr all = ctx_.bool_val(true);
    for (size_t i = 0; i < t_.constraints.size(); ++i) {
      const auto& c = t_.constraints[i];
      if (c.rows != rows || (skip && c.id == *skip) || (only && !(*only)[i])) continue;
      all = all && some_factor_zero(*c.expr, local, next);
      if (const int b = bit_column(*c.expr); b >= 0) {
        const z3::expr& x = local[static_cast<size_t>(b)];
        all = all && (x == 0 || x == 1);
      }
    }
    return all;
  }

  // A product is 0 in the field only if one of its factors is (p is prime): for a constraint
  // whose top is a product, the disjunction over its factors, the same fact in the form the
  // solver case-splits on (integer arithmetic mod p does not know that p has no divisors).
  z3::expr some_factor_zero(const Expr& e, const std::vector<z3::expr>& local, const std::vector<z3::expr>* next,
                            const std::vector<double>* ml = nullptr, const std::vector<double>* mn = nullptr) const {
    const auto factors = factors_of(e);
    auto zero = [&](const Expr& f) {
      if (auto ar = witness_split(f, local, next)) return reduced(ar->first) != 0 || reduced(ar->second) == 0;
      return ml ? holds_bounded(f, local, next, *ml, mn) : holds(f, local, next);
    };
    if (factors.size() < 2) return zero(e);
    z3::expr any = ctx_.bool_val(false);
    for (const Expr* f : factors) any = any || zero(*f);
    return any;
  }

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
                                                             const std::vector<z3::expr>* next) const {
    if (witnesses_.empty()) return std::nullopt;
    std::string y;
    bool y_next = false;
    spec::air::names(f, [&](const std::string& n, bool at_next) {
      if (witnesses_.count(n)) y = n, y_next = at_next;
    });
    if (y.empty()) return std::nullopt;
    return linear_in(f, y, y_next, local, next);
  }
  // f as A y + R over the integers, y the column `y` of the next row (y_next) or of this one, A
  // and R without it; nullopt where f is not linear in it (a product of two factors that name
  // it, a power of one).
  std::optional<std::pair<z3::expr, z3::expr>> linear_in(const Expr& f, const std::string& y, bool y_next,
                                                         const std::vector<z3::expr>& local,
                                                         const std::vector<z3::expr>* next) const {
    auto has_y = [&](const Expr& x) { return names_column(x, y, y_next); };
    std::function<std::optional<std::pair<z3::expr, z3::expr>>(const Expr&)> lin =
        [&](const Expr& x) -> std::optional<std::pair<z3::expr, z3::expr>> {
      if (!has_y(x)) return std::make_pair(ctx_.int_val(0), term(x, local, next));
      switch (x.op) {
        case Expr::Op::kColumn:
        case Expr::Op::kNext: return std::make_pair(ctx_.int_val(1), ctx_.int_val(0));
        case Expr::Op::kNeg: {
          auto a = lin(*x.args[0]);
          if (!a) return std::nullopt;
          return std::make_pair(-a->first, -a->second);
        }
        case Expr::Op::kAdd:
        case Expr::Op::kSub: {
          auto a = lin(*x.args[0]), b = lin(*x.args[1]);
          if (!a || !b) return std::nullopt;
          if (x.op == Expr::Op::kAdd) return std::make_pair(a->first + b->first, a->second + b->second);
          return std::make_pair(a->first - b->first, a->second - b->second);
        }
        case Expr::Op::kMul: {
          const bool in0 = has_y(*x.args[0]), in1 = has_y(*x.args[1]);
          if (in0 && in1) return std::nullopt;
          const size_t side = in0 ? 0 : 1;
          auto a = lin(*x.args[side]);
          if (!a) return std::nullopt;
          const z3::expr other = factor(*x.args[1 - side], local, next);
          return std::make_pair(a->first * other, a->second * other);
        }
        default: return std::nullopt;
      }
    };
    return lin(f);
  }

  // The column of a bit constraint (bit_column_name); -1 otherwise.
  int bit_column(const Expr& e) const {
    const std::string x = bit_column_name(e);
    return x.empty() ? -1 : t_.column_index(x);
  }

  const std::map<std::string, z3::expr>& publics() const { return publics_; }
  // Every variable made so far is in [0, p).
  z3::expr domain() const {
    z3::expr all = ctx_.bool_val(true);
    for (const auto& b : bounds_) all = all && b;
    return all;
  }

 private:
  z3::expr bounded(const z3::expr& v) {
    bounds_.push_back(v >= 0 && v < p_);
    return v;
  }

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

const Table& find_table(const spec::air::Spec& spec, const std::string& name) {
  const Table* t = spec.table(name);
  if (!t) throw std::invalid_argument("no table " + name);
  return *t;
}

std::string show(const std::string& decimal) {
  // values just below p read better as p-k
  static const unsigned __int128 p = (static_cast<unsigned __int128>(1) << 64) - (static_cast<unsigned __int128>(1) << 32) + 1;
  unsigned __int128 v = 0;
  for (char ch : decimal) v = v * 10 + static_cast<unsigned>(ch - '0');
  if (v > p - (static_cast<unsigned __int128>(1) << 32) && v < p) return "p-" + std::to_string(static_cast<uint64_t>(p - v));
  return decimal;
}

void collect(const z3::model& m, const std::vector<z3::expr>& vars, std::vector<Assignment>& out) {
  for (const auto& v : vars) {
    const z3::expr val = m.eval(v, true);
    const std::string s = val.get_decimal_string(0);
    if (s != "0") out.push_back({v.decl().name().str(), std::stoull(s), show(s)});
  }
}

const char* check_name(z3::check_result r) {
  return r == z3::unsat ? "unsatisfiable" : r == z3::sat ? "satisfiable" : "unknown";
}

struct Timer {
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); }
};

// The items of table t that a certificate names: its constraints and interactions in `ids` (an
// ID that is neither, or is `skip`, throws), and the interactions whose columns all lie among
// `cols` and the named constraints' columns. (constraints, interactions) as flags.
std::pair<std::vector<bool>, std::vector<bool>> certificate(const Table& t, const std::vector<std::string>& ids,
                                                            const std::string* skip, std::set<std::string> cols) {
  std::vector<bool> c(t.constraints.size(), false), b(t.buses.size(), false);
  for (const auto& id : ids) {
    size_t i = 0, j = 0;
    while (i < t.constraints.size() && t.constraints[i].id != id) ++i;
    while (j < t.buses.size() && t.buses[j].id != id) ++j;
    if (j < t.buses.size()) {  // an interaction named: its bounds
      b[j] = true;
      continue;
    }
    if (i == t.constraints.size() || (skip && id == *skip))
      throw std::invalid_argument("'" + id + "' is not another constraint or an interaction of table " + t.name);
    c[i] = true;
    spec::air::names(*t.constraints[i].expr, [&](const std::string& n, bool) { cols.insert(n); });
  }
  for (size_t j = 0; j < t.buses.size(); ++j) {  // and the interactions on those columns alone
    bool inside = true;
    auto look = [&](const Expr& e) { spec::air::names(e, [&](const std::string& n, bool) { inside = inside && cols.count(n); }); };
    if (t.buses[j].mult) look(*t.buses[j].mult);
    for (const auto& el : t.buses[j].tuple) look(*el);
    b[j] = b[j] || inside;
  }
  return {std::move(c), std::move(b)};
}

}  // namespace

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kImplied: return "implied";
    case Verdict::kAttack: return "attack";
    case Verdict::kUnknown: return "unknown";
  }
  return "?";
}

Answer implied(const spec::air::Spec& spec, const std::string& table, const std::string& id, const Options& options) {
  if (options.descent && options.once) throw std::invalid_argument("a descent and a count at once: " + id);
  if (options.descent) return descent_implied(spec, table, id, options);
  if (options.once) return once_implied(spec, table, id, options);
  const Table& t = find_table(spec, table);
  const spec::air::Constraint* target = nullptr;
  for (const auto& c : t.constraints)
    if (c.id == id) target = &c;
  if (!target) throw std::invalid_argument("no constraint " + id + " in table " + table);
  Timer timer;
  Answer answer{id, Verdict::kImplied, 0, "", {}};

  // The row positions where C can fail first. A trace that breaks C has a first row (or pair)
  // where it does; rows before it satisfy C, rows after it may not. Each position is a pair of
  // rows (r, r') with r' the next row, or one row alone (a table of height 1, first and last).
  //   every:      r breaks C and has a next row r' (C not assumed on r'); or r' breaks C and is
  //               the last row (C holds on r); or a one-row table
  //   transition: the pair breaks C
  //   first:      r is the first row (with a next row); or a one-row table
  //   last:       r' is the last row (after r); or a one-row table
  struct Scenario {
    const char* name;
    bool pair;          // r and r'; otherwise r alone, first and last
    bool violate_next;  // the row that breaks C is r' (the last row)
  };
  std::vector<Scenario> scenarios;
  switch (target->rows) {
    case Rows::kEvery:
      scenarios = {{"a row with a next row", true, false}, {"the last row", true, true}, {"a one-row table", false, false}};
      break;
    case Rows::kTransition: scenarios = {{"a row and the next", true, false}}; break;
    case Rows::kFirst: scenarios = {{"the first row", true, false}, {"a one-row table", false, false}}; break;
    case Rows::kLast: scenarios = {{"the last row", true, true}, {"a one-row table", false, false}}; break;
  }
  // Subsets of the table first: if some of its constraints and lookups rule out a violation,
  // so do all of them. A pass is a subset with a time bound; the last pass is the whole table,
  // which also gives the attack. First the k neighbouring constraints with the fewest columns,
  // k = 1..6, no lookups (a definition and its inverse often settle a bit between them), at most
  // 0.2 s each; then the neighbourhoods by hops: hop 1 is every constraint and lookup that shares
  // a column with C, hop h + 1 adds those that share a column with hop h (at most a quarter of
  // the time bound each, while a hop adds something and is not the whole table).
  struct Pass {
    std::vector<bool> c, b;  // empty: all
    unsigned timeout_ms;
    bool lazy_after = false;  // then grow this subset by what each answer breaks
  };
  std::vector<Pass> passes;
  auto cols_of = [&](const Expr& e, std::set<std::string>& out) {
    spec::air::names(e, [&](const std::string& n, bool) { out.insert(n); });
  };
  auto bus_cols = [&](const spec::air::BusInteraction& b, std::set<std::string>& out) {
    if (b.mult) cols_of(*b.mult, out);
    for (const auto& el : b.tuple) cols_of(*el, out);
  };
  auto touches = [](const std::set<std::string>& a, const std::set<std::string>& b) {
    for (const auto& x : a)
      if (b.count(x)) return true;
    return false;
  };
  std::vector<std::set<std::string>> c_cols(t.constraints.size()), b_cols(t.buses.size());
  for (size_t i = 0; i < t.constraints.size(); ++i) cols_of(*t.constraints[i].expr, c_cols[i]);
  for (size_t i = 0; i < t.buses.size(); ++i) bus_cols(t.buses[i], b_cols[i]);
  std::set<std::string> near_cols;
  cols_of(*target->expr, near_cols);
  {
    std::vector<size_t> by_size;
    for (size_t i = 0; i < t.constraints.size(); ++i)
      if (touches(c_cols[i], near_cols) && t.constraints[i].id != target->id) by_size.push_back(i);
    std::stable_sort(by_size.begin(), by_size.end(),
                     [&](size_t a, size_t b) { return c_cols[a].size() < c_cols[b].size(); });
    for (size_t k = 1; k <= std::min<size_t>(6, by_size.size()); ++k) {
      Pass pass{std::vector<bool>(t.constraints.size(), false), std::vector<bool>(t.buses.size(), false),
                std::min(options.timeout_ms / 4 + 1, 200u)};
      for (size_t j = 0; j < k; ++j) pass.c[by_size[j]] = true;
      passes.push_back(std::move(pass));
    }
    if (!passes.empty()) passes.back().lazy_after = true;
  }
  const TableFacts facts{t, &target->id};
  const std::set<std::string> witnesses = witness_columns(t, *target);
  std::vector<bool> is_linear(t.constraints.size());
  for (size_t i = 0; i < t.constraints.size(); ++i)
    is_linear[i] = constraint_degree(*t.constraints[i].expr, facts, witnesses) <= 1;
  std::vector<size_t> c_hop(t.constraints.size(), 999), b_hop(t.buses.size(), 999);  // hops from C
  for (size_t before = 0, hop = 1;; ++hop) {
    Pass pass{std::vector<bool>(t.constraints.size()), std::vector<bool>(t.buses.size()), options.timeout_ms / 4 + 1};
    size_t count = 0;
    for (size_t i = 0; i < t.constraints.size(); ++i) count += pass.c[i] = touches(c_cols[i], near_cols);
    for (size_t i = 0; i < t.buses.size(); ++i) count += pass.b[i] = touches(b_cols[i], near_cols);
    for (size_t i = 0; i < t.constraints.size(); ++i)
      if (pass.c[i]) c_hop[i] = std::min(c_hop[i], hop);
    for (size_t i = 0; i < t.buses.size(); ++i)
      if (pass.b[i]) b_hop[i] = std::min(b_hop[i], hop);
    if (count == before || count == t.constraints.size() + t.buses.size()) break;
    before = count;
    // first the hop's constraints that are linear but for bits (and eliminated witnesses)
    Pass linear{pass.c, pass.b, options.timeout_ms / 8 + 1};
    bool dropped = false;
    for (size_t i = 0; i < t.constraints.size(); ++i)
      if (linear.c[i] && !is_linear[i]) linear.c[i] = false, dropped = true;
    if (dropped) passes.push_back(std::move(linear));
    for (size_t i = 0; i < t.constraints.size(); ++i)
      if (pass.c[i]) near_cols.insert(c_cols[i].begin(), c_cols[i].end());
    for (size_t i = 0; i < t.buses.size(); ++i)
      if (pass.b[i]) near_cols.insert(b_cols[i].begin(), b_cols[i].end());
    passes.push_back(std::move(pass));
  }
  passes.push_back({{}, {}, options.timeout_ms});
  if (!options.using_ids.empty()) {
    std::set<std::string> cols;
    cols_of(*target->expr, cols);
    auto [c, b] = certificate(t, options.using_ids, &target->id, std::move(cols));
    Pass given{std::move(c), std::move(b), options.timeout_ms};
    passes = {std::move(given)};
  }
  bool unknown = false;
  const Carried carried = carried_bounds(spec, table, &target->id);
  if (options.progress)
    for (const auto& [key, k] : carried) {
      const auto& [bus, send, field] = key;
      options.progress("carried: field " + std::to_string(field) + " of the " + bus + " bus's " + (send ? "sends" : "receives") +
                       " is below " + std::to_string(k));
    }
  for (const Scenario& sc : scenarios) {
    z3::context ctx;
    Encoder enc(ctx, spec, t, carried);
    enc.use_reduced_products();
    enc.eliminate_witnesses(witnesses);
    // The bit columns (a bit constraint other than C) are bits on both rows: the whole table
    // says so, so every subset may assume it (stated in the domain below), and "holds" may then
    // use their range.
    std::set<std::string> bits;
    for (const auto& col : t.columns)
      if (facts.is_bit(col.name)) bits.insert(col.name);
    enc.use_ranges(bits);
    enc.use_definitions(definitions(t, &target->id, facts, witnesses, options.using_ids));
    const auto r = enc.row(""), n = enc.row("'");
    const std::string* skip = &target->id;
    const std::vector<z3::expr>& bad = sc.violate_next ? n : r;  // the row that breaks C
    // What the position says, one item per constraint and per lookup of the table (true where
    // it says nothing): each constraint on the rows where it applies, each lookup's bounds.
    std::vector<z3::expr> c_item, b_item;
    for (size_t i = 0; i < t.constraints.size(); ++i) {
      std::vector<bool> one(t.constraints.size(), false);
      one[i] = true;
      z3::expr e = ctx.bool_val(true);
      if (sc.pair) {
        // C is assumed only on r when r' breaks it (r comes first); never on r'
        e = e && enc.constraints(Rows::kEvery, sc.violate_next ? nullptr : skip, r, nullptr, &one);
        e = e && enc.constraints(Rows::kEvery, skip, n, nullptr, &one);
        e = e && enc.constraints(Rows::kTransition, skip, r, &n, &one);
        if (target->rows == Rows::kFirst) e = e && enc.constraints(Rows::kFirst, skip, r, &n, &one);
        if (sc.violate_next) e = e && enc.constraints(Rows::kLast, skip, n, nullptr, &one);
      } else {
        // one row, both first and last; no transitions (a next-row reference here is to itself)
        e = e && enc.constraints(Rows::kEvery, skip, r, nullptr, &one);
        e = e && enc.constraints(Rows::kFirst, skip, r, &r, &one);
        e = e && enc.constraints(Rows::kLast, skip, r, nullptr, &one);
      }
      c_item.push_back(e.simplify());
    }
    for (size_t i = 0; i < t.buses.size(); ++i) {
      std::vector<bool> one(t.buses.size(), false);
      one[i] = true;
      b_item.push_back(sc.pair ? enc.lookups(r, &n, &one, skip) && enc.lookups(n, nullptr, &one, skip)
                               : enc.lookups(r, &r, &one, skip));
    }
    const bool pair_c = target->rows == Rows::kTransition;
    const z3::expr broken = !enc.some_factor_zero(*target->expr, bad, pair_c ? &n : (sc.pair ? &n : &r));
    z3::expr domain = enc.domain() && enc.definitions_hold(r) && enc.definitions_hold(n);
    for (const auto& b : bits)
      for (const auto* row : {&r, &n}) {
        const z3::expr& x = (*row)[static_cast<size_t>(t.column_index(b))];
        domain = domain && (x == 0 || x == 1);
      }
    // One question: the items in (c, b) (null: all), C broken; the model when satisfiable.
    auto ask = [&](const std::vector<bool>* c, const std::vector<bool>* b, unsigned timeout_ms,
                   std::optional<z3::model>* model) {
      z3::solver s(ctx);
      z3::params params(ctx);
      params.set("timeout", timeout_ms);
      s.set(params);
      for (size_t i = 0; i < c_item.size(); ++i)
        if (!c || (*c)[i]) s.add(c_item[i]);
      for (size_t i = 0; i < b_item.size(); ++i)
        if (!b || (*b)[i]) s.add(b_item[i]);
      s.add(domain);
      s.add(broken);
      const z3::check_result res = s.check();
      if (res == z3::sat && model) model->emplace(s.get_model());
      return res;
    };
    auto report_attack = [&](const z3::model& m0) {
      // the eliminated witnesses take the value that their factor asks for, y = -R / A, on each
      // instance the question stated (the same rows as c_item)
      z3::model m = m0;  // a handle on the solver's model: unused after this
      struct Instance {
        Rows rows;
        const std::vector<z3::expr>* local;
        const std::vector<z3::expr>* next;
      };
      std::vector<Instance> instances;
      if (sc.pair) {
        instances = {{Rows::kEvery, &r, nullptr}, {Rows::kEvery, &n, nullptr}, {Rows::kTransition, &r, &n}};
        if (target->rows == Rows::kFirst) instances.push_back({Rows::kFirst, &r, &n});
        if (sc.violate_next) instances.push_back({Rows::kLast, &n, nullptr});
      } else {
        instances = {{Rows::kEvery, &r, nullptr}, {Rows::kFirst, &r, &r}, {Rows::kLast, &r, nullptr}};
      }
      for (const Instance& in : instances)
        for (const auto& c : t.constraints) {
          if (c.rows != in.rows) continue;
          for (const Expr* f : factors_of(*c.expr)) {
            const auto ar = enc.witness_split(*f, *in.local, in.next);
            if (!ar) continue;
            std::string y;
            bool y_next = false;
            spec::air::names(*f, [&](const std::string& nm, bool nx) {
              if (enc.witnesses().count(nm)) y = nm, y_next = nx;
            });
            const uint64_t a = std::stoull(m.eval(enc.reduced(ar->first), true).get_decimal_string(0));
            const uint64_t rr = std::stoull(m.eval(enc.reduced(ar->second), true).get_decimal_string(0));
            if (a == 0) continue;  // any y: the factor is R, which the model makes 0 or leaves to another factor
            const uint64_t v = field_mul(field_neg(rr), field_inverse(a));
            z3::func_decl var = (y_next ? *in.next : *in.local)[static_cast<size_t>(t.column_index(y))].decl();
            z3::expr value = ctx.int_val(std::to_string(v).c_str());
            m.add_const_interp(var, value);
          }
        }
      answer.verdict = Verdict::kAttack;
      answer.scenario = sc.name;
      answer.violate_next = sc.violate_next;
      collect(m, r, answer.model);
      if (sc.pair) collect(m, n, answer.model);
      std::vector<z3::expr> pubs;
      for (const auto& [name, v] : enc.publics()) pubs.push_back(v);
      collect(m, pubs, answer.model);
      answer.seconds = timer.seconds();
    };
    bool settled = false;
    for (size_t q = 0; q < passes.size() && !settled; ++q) {
      const bool whole = q + 1 == passes.size() && options.using_ids.empty();
      std::optional<z3::model> model;
      const z3::check_result res = whole ? ask(nullptr, nullptr, passes[q].timeout_ms, &model)
                                         : ask(&passes[q].c, &passes[q].b, passes[q].timeout_ms, nullptr);
      if (options.progress) {
        size_t nc = 0, nb = 0;
        for (bool x : passes[q].c) nc += x;
        for (bool x : passes[q].b) nb += x;
        if (whole) nc = t.constraints.size(), nb = t.buses.size();
        options.progress(std::string(sc.name) + ", pass " + std::to_string(q + 1) + " of " + std::to_string(passes.size()) + ": " +
                         std::to_string(nc) + " constraints, " + std::to_string(nb) + " interactions: " + check_name(res));
      }
      if (res == z3::unsat) {
        settled = true;  // implied here
      } else if (res == z3::sat && whole) {
        report_attack(*model);
        return answer;
      } else if ((res == z3::unknown && whole) || !options.using_ids.empty()) {
        unknown = true;  // with a given subset, satisfiable says nothing of the whole table
        answer.scenario = sc.name;
      }
      if (settled || passes[q].lazy_after == false) continue;
      // Then the constraints that the last answer breaks, added a few at a time: each round asks
      // again with every item that the previous model violates (the model completed with 0),
      // first those that share a column with the items asked so far. Unsatisfiable: implied; a
      // model that breaks nothing else: an attack on the whole table.
      std::vector<bool> c = passes[q].c, b = passes[q].b;
      std::set<std::string> cols;
      cols_of(*target->expr, cols);
      Timer lazy;
      for (int round = 0; round < 40 && lazy.seconds() * 1000 < options.timeout_ms / 2; ++round) {
        for (size_t i = 0; i < c.size(); ++i)
          if (c[i]) cols.insert(c_cols[i].begin(), c_cols[i].end());
        for (size_t i = 0; i < b.size(); ++i)
          if (b[i]) cols.insert(b_cols[i].begin(), b_cols[i].end());
        std::optional<z3::model> m;
        const z3::check_result lr = ask(&c, &b, std::min(options.timeout_ms / 4 + 1, 2000u), &m);
        if (options.progress) {
          size_t nc = 0, nb = 0;
          for (bool x : c) nc += x;
          for (bool x : b) nb += x;
          options.progress(std::string(sc.name) + ", grown by what the answers break, round " + std::to_string(round + 1) + ": " +
                           std::to_string(nc) + " constraints, " + std::to_string(nb) + " interactions: " + check_name(lr));
        }
        if (lr == z3::unsat) {
          settled = true;
          break;
        }
        if (lr != z3::sat) break;
        std::vector<size_t> vc, vb, near_vc, near_vb;
        for (size_t i = 0; i < c.size(); ++i)
          if (!c[i] && !m->eval(c_item[i], true).is_true()) (touches(c_cols[i], cols) ? near_vc : vc).push_back(i);
        for (size_t i = 0; i < b.size(); ++i)
          if (!b[i] && !m->eval(b_item[i], true).is_true()) (touches(b_cols[i], cols) ? near_vb : vb).push_back(i);
        if (vc.empty() && vb.empty() && near_vc.empty() && near_vb.empty()) {
          // every item holds: an attack on the whole table (the domain holds by construction)
          report_attack(*m);
          return answer;
        }
        if (near_vc.empty() && near_vb.empty()) near_vc = vc, near_vb = vb;
        // the two nearest C (fewest hops), then narrowest (fewest columns), constraints first on a tie
        std::vector<std::pair<size_t, long>> pick;  // (hop, then width; index, lookups as ~index)
        for (size_t i : near_vc) pick.emplace_back(c_hop[i] * 1000 + c_cols[i].size(), static_cast<long>(i));
        for (size_t i : near_vb) pick.emplace_back(b_hop[i] * 1000 + b_cols[i].size(), ~static_cast<long>(i));
        std::stable_sort(pick.begin(), pick.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
        for (size_t j = 0; j < std::min<size_t>(2, pick.size()); ++j)
          (pick[j].second >= 0 ? c[static_cast<size_t>(pick[j].second)] : b[static_cast<size_t>(~pick[j].second)]) = true;
      }
    }
  }
  if (unknown) answer.verdict = Verdict::kUnknown;
  answer.seconds = timer.seconds();
  return answer;
}

namespace {

// The rows of a question: one row; a row and the next (with the transitions between them); or
// two rows anywhere in the table (each with its every-row constraints alone).
enum class Shape { kOne, kNext, kTwo };
using Claim = std::function<z3::expr(const Encoder&, const std::vector<z3::expr>&, const std::vector<z3::expr>&)>;

// One question about rows of table t (row positions do not matter: no first- or last-row
// constraints): on each row its every-row constraints other than `skip` hold (those named in
// `ids` alone, where it names some of t's), and the bounds of its interactions (those named, and
// those on the chosen constraints' columns alone; every interaction where ids names none of
// t's), with the table's bit columns as bits and its definitions stated; for kNext the
// transitions from the first row to the second too; and claim(row, second row) holds (the second
// is empty for kOne). Unsatisfiable: no rows of t where those hold satisfy the claim.
z3::check_result rows_question(const spec::air::Spec& spec, const Table& t, const std::string* skip, const Carried& carried,
                               const std::vector<std::string>& ids, unsigned timeout_ms, Shape shape, const Claim& claim,
                               const std::set<std::string>& proved_bits = {}, std::vector<Assignment>* model = nullptr,
                               bool bounds = true) {
  auto [c, b] = ids.empty() ? std::make_pair(std::vector<bool>(t.constraints.size(), true), std::vector<bool>(t.buses.size(), true))
                            : certificate(t, ids, skip, {});
  std::vector<bool> alone = b;  // the interactions a row without its next row can read
  for (size_t j = 0; j < t.buses.size(); ++j) {
    bool names_next = false;
    auto look = [&](const Expr& e) { spec::air::names(e, [&](const std::string&, bool next) { names_next = names_next || next; }); };
    if (t.buses[j].mult) look(*t.buses[j].mult);
    for (const auto& el : t.buses[j].tuple) look(*el);
    if (names_next) alone[j] = false;
  }
  z3::context ctx;
  Encoder enc(ctx, spec, t, carried);
  enc.use_reduced_products();
  enc.use_proved_bits(proved_bits);
  const TableFacts facts{t, skip};
  std::set<std::string> bits;
  for (const auto& col : t.columns)
    if (facts.is_bit(col.name)) bits.insert(col.name);
  enc.use_ranges(bits);
  // the certificate's constraints may define columns (all of the table's where ids names none of
  // its IDs; none where ids names only interactions)
  enc.use_definitions(definitions(t, skip, facts, {}, ids));
  std::vector<std::vector<z3::expr>> rows{enc.row("")};
  if (shape != Shape::kOne) rows.push_back(enc.row(shape == Shape::kNext ? "'" : "#2"));
  z3::solver solver(ctx);
  z3::params params(ctx);
  params.set("timeout", timeout_ms);
  solver.set(params);
  z3::expr domain = enc.domain();
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    solver.add(enc.constraints(Rows::kEvery, skip, r, nullptr, &c));
    if (bounds)  // without: no interaction's bounds (a question that bounds rest on)
      solver.add(shape == Shape::kNext && i == 0 ? enc.lookups(r, &rows[1], &b, skip) : enc.lookups(r, nullptr, &alone, skip));
    domain = domain && enc.definitions_hold(r);
    for (const auto& bit : bits) {
      const z3::expr& x = r[static_cast<size_t>(t.column_index(bit))];
      domain = domain && (x == 0 || x == 1);
    }
  }
  if (shape == Shape::kNext) solver.add(enc.constraints(Rows::kTransition, skip, rows[0], &rows[1], &c));
  solver.add(domain);
  solver.add(claim(enc, rows[0], shape == Shape::kOne ? std::vector<z3::expr>{} : rows[1]));
  const z3::check_result res = solver.check();
  if (res == z3::sat && model)
    for (const auto& r : rows) collect(solver.get_model(), r, *model);
  return res;
}

z3::check_result row_question(const spec::air::Spec& spec, const Table& t, const std::string* skip, const Carried& carried,
                              const std::vector<std::string>& ids, unsigned timeout_ms,
                              const std::function<z3::expr(const Encoder&, const std::vector<z3::expr>&)>& claim) {
  return rows_question(spec, t, skip, carried, ids, timeout_ms, Shape::kOne,
                       [&](const Encoder& enc, const std::vector<z3::expr>& r, const std::vector<z3::expr>&) { return claim(enc, r); });
}

// A certificate's IDs by the table they name (before their first ':'); an ID of no table throws.
std::map<std::string, std::vector<std::string>> ids_by_table(const spec::air::Spec& spec, const std::vector<std::string>& ids) {
  std::map<std::string, std::vector<std::string>> out;
  for (const auto& u : ids) {
    const std::string owner = u.substr(0, u.find(':'));
    if (!spec.table(owner)) throw std::invalid_argument("'" + u + "' names no table");
    out[owner].push_back(u);
  }
  return out;
}

}  // namespace

Answer descent_implied(const spec::air::Spec& spec, const std::string& table, const std::string& id, const Options& options) {
  if (!options.descent) throw std::invalid_argument("descent_implied: no descent given");
  const spec::air::Descent& d = *options.descent;
  const Table& t = find_table(spec, table);
  const spec::air::Constraint* target = nullptr;
  for (const auto& c : t.constraints)
    if (c.id == id) target = &c;
  if (!target) throw std::invalid_argument("no constraint " + id + " in table " + table);
  if (target->rows != Rows::kEvery) throw std::invalid_argument("a descent is about an every-row constraint, not " + id);
  const spec::air::BusInteraction* in = nullptr;
  for (const auto& b : t.buses)
    if (b.id == d.receive) in = &b;
  if (!in || in->send || d.field >= in->tuple.size())
    throw std::invalid_argument("'" + d.receive + "' is not a receive of table " + table + " with a field " + std::to_string(d.field));
  const auto ids = ids_by_table(spec, options.using_ids);  // table -> its IDs in the certificate
  Timer timer;
  Answer answer{id, Verdict::kUnknown, 0, "", {}};
  std::string last = "unknown";  // the last question's answer
  auto fail = [&](const std::string& why) {
    answer.scenario = "descent not proved: " + why + " (" + last + ")";
    answer.seconds = timer.seconds();
    return answer;
  };
  // Q0: every multiplicity on the bus is a non-negative integer (this table without C)
  for (const auto& u : spec.tables) {
    const TableFacts f{u, u.name == table ? &id : nullptr};
    for (const auto& b : u.buses)
      if (b.bus == in->bus && b.mult && !f.nonnegative(*b.mult))
        return last = "Q0", fail("the multiplicity of " + b.id + " is not known to be a non-negative integer");
  }
  const Carried carried = carried_bounds(spec, table, &id);
  const std::string* skip = &id;
  auto value = [&](const Encoder& enc, const std::vector<z3::expr>& r, const spec::air::BusInteraction& b) {
    return enc.reduced(enc.term(*b.tuple[d.field], r, nullptr));
  };
  auto from = [&](z3::context& ctx) { return ctx.int_val(std::to_string(d.from).c_str()); };
  std::set<std::string> asked;  // the tables with a question
  auto ask = [&](const Table& u, const std::string& what, const std::function<z3::expr(const Encoder&, const std::vector<z3::expr>&)>& claim) {
    asked.insert(u.name);
    const auto it = ids.find(u.name);
    const z3::check_result res = row_question(spec, u, u.name == table ? skip : nullptr, carried,
                                              it == ids.end() ? std::vector<std::string>{} : it->second, options.timeout_ms, claim);
    last = res == z3::sat ? "a row satisfies it" : check_name(res);
    if (options.progress) options.progress(what + ": " + check_name(res));
    return res == z3::unsat;
  };
  // Q1: a row that breaks C receives with field f at least L
  if (!ask(t, "Q1: a row that breaks " + id + " receives " + d.receive + " with field " + std::to_string(d.field) + " >= " +
                  std::to_string(d.from),
           [&](const Encoder& enc, const std::vector<z3::expr>& r) {
             const z3::expr broken = !enc.some_factor_zero(*target->expr, r, nullptr);
             return broken && (enc.mult(*in, r, nullptr) == 0 || value(enc, r, *in) < from(r[0].ctx()));
           }))
    return fail("Q1: not shown that a row that breaks it receives at least " + std::to_string(d.from));
  for (const auto& u : spec.tables)
    for (const auto& b : u.buses) {
      if (b.bus != in->bus || !b.send) continue;
      if (d.field >= b.tuple.size()) return fail(b.id + " has no field " + std::to_string(d.field));
      if (u.name == table) {  // Q2: a send of at least L comes from a row that breaks C and receives more
        if (!ask(u, "Q2: " + b.id + " active with field >= " + std::to_string(d.from) + " only on a row that breaks " + id +
                        " and receives more",
                 [&](const Encoder& enc, const std::vector<z3::expr>& r) {
                   const z3::expr broken = !enc.some_factor_zero(*target->expr, r, nullptr);
                   const z3::expr sent = value(enc, r, b);
                   return enc.mult(b, r, nullptr) != 0 && sent >= from(r[0].ctx()) &&
                          !(broken && enc.mult(*in, r, nullptr) != 0 && value(enc, r, *in) > sent);
                 }))
          return fail("Q2: not shown for " + b.id);
      } else if (!ask(u, "Q3: " + b.id + " never active with field >= " + std::to_string(d.from),
                      [&](const Encoder& enc, const std::vector<z3::expr>& r) {
                        return enc.mult(b, r, nullptr) != 0 && value(enc, r, b) >= from(r[0].ctx());
                      })) {  // Q3: another table sends below L
        return fail("Q3: not shown for " + b.id);
      }
    }
  for (const auto& [owner, list] : ids)  // a certificate names only the tables it is asked about
    if (!asked.count(owner))
      throw std::invalid_argument("'" + list.front() + "': table " + owner + " has no question in a descent through " + d.receive);
  answer.verdict = Verdict::kImplied;
  answer.scenario = "a descent through " + d.receive;
  answer.seconds = timer.seconds();
  return answer;
}

// Why the chain bus's rows are distinct (once_implied, "Receives"). Every multiplicity on M is a
// non-negative integer and the verifier keeps their total below p, so LogUp makes the tokens
// consumed on M, counted with multiplicity, the tokens made. Take a row's token pair with
// multiplicity n as n nodes, each consuming one token (key, t_in) and making one (key, t_out)
// with t_out - t_in in [1, 2^32] (mod p), and match every consumed token to a made one with the
// same tuple: each node has one predecessor (a node or an unpaired send, a source) and at most
// one successor. A cycle of nodes would have steps summing to 0 mod p, which needs at least
// p / 2^32 nodes; the table heights (at most 2^24 each) allow fewer. So following predecessors
// from any node ends at a source of its key, and with at most one source row per key (the
// unpaired send is ordered by its key) all nodes of a key lie on one path, whose timestamps
// increase strictly: the sum of fewer than p / 2^32 steps is not 0 mod p. Two nodes of one key
// never make the same timestamp, so two rows with one key and one sent timestamp are one row.
Answer once_implied(const spec::air::Spec& spec, const std::string& table, const std::string& id, const Options& options) {
  if (!options.once) throw std::invalid_argument("once_implied: no receive given");
  const spec::air::Once& o = *options.once;
  const Table& t = find_table(spec, table);
  const spec::air::Constraint* target = nullptr;
  for (const auto& c : t.constraints)
    if (c.id == id) target = &c;
  if (!target) throw std::invalid_argument("no constraint " + id + " in table " + table);
  if (target->rows != Rows::kEvery) throw std::invalid_argument("counting a receive's tuples is for an every-row constraint, not " + id);
  const spec::air::BusInteraction* in = nullptr;
  for (const auto& b : t.buses)
    if (b.id == o.receive) in = &b;
  if (!in || in->send) throw std::invalid_argument("'" + o.receive + "' is not a receive of table " + table);
  std::map<std::string, const spec::air::Order*> order_of;
  for (const auto& ord : o.orders) {
    const Table* u = spec.table(ord.table);
    if (!u) throw std::invalid_argument("order: no table '" + ord.table + "'");
    for (const auto* col : {&ord.guard, &ord.key})
      if (u->column_index(*col) < 0) throw std::invalid_argument("order: no column '" + *col + "' in table " + ord.table);
    if (!order_of.emplace(ord.table, &ord).second) throw std::invalid_argument("order: table " + ord.table + " ordered twice");
  }
  const auto ids = ids_by_table(spec, options.using_ids);
  Timer timer;
  Answer answer{id, Verdict::kUnknown, 0, "", {}};
  std::string last = "no question asked";  // the last question's answer
  auto fail = [&](const std::string& why) {
    answer.scenario = "once not proved: " + why + " (" + last + ")";
    answer.seconds = timer.seconds();
    return answer;
  };
  const Carried carried = carried_bounds(spec, table, &id);
  std::set<std::string> asked, ordered_tables;
  std::map<std::string, std::set<std::string>> proved_bits;  // table -> multiplicities N proved 0 or 1
  // One question about rows of table u. Without a certificate for u, first the constraints that
  // name a column of the interactions `near` (with them and the interactions on those columns
  // alone) for a quarter of the time bound, at most 2 s: what a subset rules out, the table does.
  auto ask = [&](const Table& u, const std::string& what, Shape shape, const Claim& claim,
                 std::vector<const spec::air::BusInteraction*> near = {}, bool bounds = true) {
    asked.insert(u.name);
    const std::string* skip = u.name == table ? &id : nullptr;
    const auto it = ids.find(u.name);
    if (it == ids.end() && !near.empty()) {
      std::set<std::string> cols;
      std::vector<std::string> subset;
      for (const auto* b : near) {
        subset.push_back(b->id);
        if (b->mult) spec::air::names(*b->mult, [&](const std::string& n, bool) { cols.insert(n); });
        for (const auto& el : b->tuple) spec::air::names(*el, [&](const std::string& n, bool) { cols.insert(n); });
      }
      for (const auto& c : u.constraints) {
        bool touches = false;
        spec::air::names(*c.expr, [&](const std::string& n, bool) { touches = touches || cols.count(n); });
        if (touches && (!skip || c.id != *skip)) subset.push_back(c.id);
      }
      const z3::check_result res =
          rows_question(spec, u, skip, carried, subset, std::min(options.timeout_ms / 4 + 1, 2000u), shape, claim, proved_bits[u.name],
                        nullptr, bounds);
      if (options.progress) options.progress(what + " (the " + std::to_string(subset.size()) + " nearest items): " + check_name(res));
      if (res == z3::unsat) return last = check_name(res), true;
    }
    const z3::check_result res = rows_question(spec, u, skip, carried,
                                               it == ids.end() ? std::vector<std::string>{} : it->second, options.timeout_ms,
                                               shape, claim, proved_bits[u.name], nullptr, bounds);
    last = res == z3::sat ? "rows satisfy it" : check_name(res);
    if (options.progress) options.progress(what + ": " + check_name(res));
    return res == z3::unsat;
  };
  auto column = [](const std::string& name) {
    Expr e;
    e.op = Expr::Op::kColumn, e.name = name;
    return e;
  };
  auto value = [](const Encoder& enc, const Expr& e, const std::vector<z3::expr>& r) { return enc.reduced(enc.term(e, r, nullptr)); };
  // Is interaction b of table u ordered, with equal fields [0, fields)? Empty: yes; else why not.
  auto ordered = [&](const Table& u, const spec::air::BusInteraction& b, size_t fields) -> std::string {
    const auto it = order_of.find(u.name);
    if (it == order_of.end()) return "no order given for table " + u.name + ", which " + b.id + " is in";
    ordered_tables.insert(u.name);
    const Expr g = column(it->second->guard), k = column(it->second->key);
    const std::string name = u.name + " by " + it->second->key;
    auto m = [&](const Encoder& enc, const std::vector<z3::expr>& r) { return enc.mult(b, r, nullptr); };
    if (!ask(u, "O1: " + b.id + "'s multiplicity is 0 or 1", Shape::kOne,
             [&](const Encoder& enc, const std::vector<z3::expr>& r, const std::vector<z3::expr>&) { return m(enc, r) != 0 && m(enc, r) != 1; }))
      return "O1: " + b.id + "'s multiplicity is not shown to be 0 or 1";
    if (!ask(u, "O2: " + b.id + " active only where " + it->second->guard + " = 1", Shape::kOne,
             [&](const Encoder& enc, const std::vector<z3::expr>& r, const std::vector<z3::expr>&) {
               return m(enc, r) != 0 && value(enc, g, r) != 1;
             }))
      return "O2: " + b.id + " is not shown to be inactive where " + it->second->guard + " is not 1";
    if (!ask(u, "O3: " + name + " increases along a prefix", Shape::kNext,
             [&](const Encoder& enc, const std::vector<z3::expr>& r, const std::vector<z3::expr>& n) {
               const z3::expr step = enc.reduced(enc.term(k, n, nullptr) - enc.term(k, r, nullptr) - 1);
               return value(enc, g, n) != 0 &&
                      !(value(enc, g, r) == 1 && value(enc, g, n) == 1 && step < r[0].ctx().int_val("4294967296"));
             }))
      return "O3: " + name + " is not shown to increase by 1 to 2^32 from row to row of a prefix";
    if (!ask(u, "O4: two rows of " + b.id + " with equal fields have equal " + it->second->key, Shape::kTwo,
             [&](const Encoder& enc, const std::vector<z3::expr>& r, const std::vector<z3::expr>& r2) {
               z3::expr same = m(enc, r) != 0 && m(enc, r2) != 0;
               for (size_t f = 0; f < fields; ++f) same = same && value(enc, *b.tuple[f], r) == value(enc, *b.tuple[f], r2);
               return same && value(enc, k, r) != value(enc, k, r2);
             }))
      return "O4: two active rows of " + b.id + " with equal fields are not shown to have equal " + it->second->key;
    return "";
  };

  auto names_next = [](const spec::air::BusInteraction& b) {
    bool next = false;
    auto look = [&](const Expr& e) { spec::air::names(e, [&](const std::string&, bool n) { next = next || n; }); };
    if (b.mult) look(*b.mult);
    for (const auto& el : b.tuple) look(*el);
    return next;
  };
  if (names_next(*in)) return fail(o.receive + " names the next row");
  // Sends: at most one interaction, ordered by all its fields
  const spec::air::BusInteraction* send = nullptr;
  const Table* sender = nullptr;
  for (const auto& u : spec.tables)
    for (const auto& b : u.buses) {
      if (b.bus != in->bus || &b == in) continue;
      if (!b.send) return fail("the " + b.bus + " bus has another receive, " + b.id);
      if (send) return fail("the " + b.bus + " bus has two sends, " + send->id + " and " + b.id);
      send = &b, sender = &u;
    }
  if (send && names_next(*send)) return fail("sends: " + send->id + " names the next row");
  if (send)
    if (const std::string why = ordered(*sender, *send, send->tuple.size()); !why.empty()) return fail("sends: " + why);

  // Receives: a token pair of the table that makes the receiving rows distinct. A pair is a
  // receive and a send of one table on one bus with the same multiplicity (as written) that
  // orders its tokens (P, asked below for every table of the chain bus). The candidates, each
  // receive with each such send, in order:
  auto pairs_of = [](const Table& u, const std::string& bus) {
    std::vector<std::pair<size_t, size_t>> out;
    auto str = [](const Expr* e) { return e ? spec::air::to_string(*e) : std::string("1"); };
    for (size_t ri = 0; ri < u.buses.size(); ++ri) {
      if (u.buses[ri].bus != bus || u.buses[ri].send || u.buses[ri].tuple.size() < 2) continue;
      for (size_t si = 0; si < u.buses.size(); ++si)
        if (u.buses[si].bus == bus && u.buses[si].send && u.buses[si].tuple.size() >= 2 &&
            str(u.buses[si].mult.get()) == str(u.buses[ri].mult.get()))
          out.emplace_back(ri, si);
    }
    return out;
  };
  std::set<std::string> buses;
  for (const auto& b : t.buses) buses.insert(b.bus);
  bool paired = false;
  std::string chain_bus;
  std::pair<size_t, size_t> chosen;  // the pair of the table that R1 and R2 are about
  for (auto bus = buses.begin(); bus != buses.end() && !paired; ++bus)
    for (const auto& [ri, si] : pairs_of(t, *bus)) {
      const auto& p_in = t.buses[ri];
      const auto& p_out = t.buses[si];
      if (names_next(p_in) || names_next(p_out)) continue;  // a one-row question cannot read it
      if (!ask(t, "R1: " + o.receive + " active only where " + p_in.id + " and " + p_out.id + " have multiplicity 1", Shape::kOne,
               [&](const Encoder& enc, const std::vector<z3::expr>& r, const std::vector<z3::expr>&) {
                 return enc.mult(*in, r, nullptr) != 0 && enc.mult(p_in, r, nullptr) != 1;
               }))
        continue;
      if (!ask(t, "R2: two rows that receive one tuple of " + o.receive + " send one key and timestamp by " + p_out.id, Shape::kTwo,
               [&](const Encoder& enc, const std::vector<z3::expr>& r, const std::vector<z3::expr>& r2) {
                 z3::expr same = enc.mult(*in, r, nullptr) != 0 && enc.mult(*in, r2, nullptr) != 0;
                 for (const auto& f : in->tuple) same = same && value(enc, *f, r) == value(enc, *f, r2);
                 return same && !(value(enc, *p_out.tuple[0], r) == value(enc, *p_out.tuple[0], r2) &&
                                  value(enc, *p_out.tuple[1], r) == value(enc, *p_out.tuple[1], r2));
               }))
        continue;
      paired = true, chain_bus = *bus, chosen = {ri, si};
      break;
    }
  if (!paired) return fail("receives: no token pair of table " + table + " is shown (R1, R2) to tell its receiving rows apart");

  // The chain bus, in every table: each multiplicity a non-negative integer (as written, or N: a
  // bit); the pairs (candidates whose tokens P shows ordered, each interaction in one pair at
  // most); few enough pairs; at most one send in no pair, ordered by its key. A receive in no
  // pair asks nothing: it only ends a chain.
  double nodes = 0;  // pairs per row, summed over the tables (each at most 2^24 rows)
  double total = 0;  // the bus's multiplicities per row: their sum stays below p (LogUp as integers)
  std::set<std::pair<size_t, size_t>> proved_pairs;  // the table's pairs that P showed
  const spec::air::BusInteraction* source = nullptr;
  const Table* source_table = nullptr;
  std::function<double(const Expr&)> count = [&](const Expr& e) -> double {
    if (e.op == Expr::Op::kConst) return static_cast<double>(e.value);
    if (e.op == Expr::Op::kAdd) return count(*e.args[0]) + count(*e.args[1]);
    return 1;  // a bit column
  };
  for (const auto& u : spec.tables) {
    const TableFacts f{u, u.name == table ? &id : nullptr};
    std::map<size_t, double> bound;  // interaction -> a bound on its multiplicity
    for (size_t i = 0; i < u.buses.size(); ++i) {
      const auto& b = u.buses[i];
      if (b.bus != chain_bus) continue;
      if (names_next(b)) return fail("the " + chain_bus + " bus: " + b.id + " names the next row");
      if (!b.mult || f.nonnegative(*b.mult)) {
        bound[i] = b.mult ? count(*b.mult) : 1;
        continue;
      }
      bound[i] = 1;
      if (proved_bits[u.name].count(spec::air::to_string(*b.mult))) continue;  // the same multiplicity as one asked
      if (!ask(u, "N: " + b.id + "'s multiplicity is 0 or 1", Shape::kOne,
               [&](const Encoder& enc, const std::vector<z3::expr>& r, const std::vector<z3::expr>&) {
                 const z3::expr m = enc.mult(b, r, nullptr);
                 return m != 0 && m != 1;
               },
               {}, false))  // no lookup's bound: those rest on non-negative multiplicities, which N shows
        return fail("the " + chain_bus + " bus: the multiplicity of " + b.id + " is not shown to be a non-negative integer");
      proved_bits[u.name].insert(spec::air::to_string(*b.mult));  // so the lookups under it bound their values
    }
    std::set<size_t> in_pair;
    for (const auto& [ri, si] : pairs_of(u, chain_bus)) {
      if (in_pair.count(ri) || in_pair.count(si)) continue;
      const auto& p_in = u.buses[ri];
      const auto& p_out = u.buses[si];
      if (!ask(u, "P: " + p_in.id + " and " + p_out.id + " keep the key and step the timestamp by 1 to 2^32", Shape::kOne,
               [&](const Encoder& enc, const std::vector<z3::expr>& r, const std::vector<z3::expr>&) {
                 const z3::expr step = enc.reduced(enc.term(*p_out.tuple[1], r, nullptr) - enc.term(*p_in.tuple[1], r, nullptr) - 1);
                 return enc.mult(p_in, r, nullptr) != 0 && !(value(enc, *p_out.tuple[0], r) == value(enc, *p_in.tuple[0], r) &&
                                                             step < r[0].ctx().int_val("4294967296"));
               },
               {&p_in, &p_out}))
        continue;  // not a pair: a send in no pair is a source (asked below), a receive an end
      in_pair.insert(ri), in_pair.insert(si);
      if (u.name == table) proved_pairs.emplace(ri, si);
      nodes += bound[ri];
    }
    for (const auto& [i, k] : bound) total += k;
    if (u.name == table && !proved_pairs.count(chosen))
      return fail("the " + chain_bus + " bus: " + t.buses[chosen.first].id + " and " + t.buses[chosen.second].id +
                  " are not shown to order their tokens (P)");
    for (size_t i = 0; i < u.buses.size(); ++i) {
      const auto& b = u.buses[i];
      if (b.bus != chain_bus || !b.send || in_pair.count(i)) continue;
      if (source) return fail("the " + chain_bus + " bus has two sends in no token pair, " + source->id + " and " + b.id);
      source = &b, source_table = &u;
    }
  }
  if (total * std::ldexp(1.0, static_cast<int>(spec::kMaxLogHeight)) >= kPDouble)
    return fail("the " + chain_bus + " bus's multiplicities may add up to p");
  if (nodes * std::ldexp(1.0, static_cast<int>(spec::kMaxLogHeight) + 32) >= kPDouble)
    return fail("the " + chain_bus + " bus has too many token pairs for its timestamps not to wrap around p");
  if (source)
    if (const std::string why = ordered(*source_table, *source, 1); !why.empty()) return fail("the " + chain_bus + " bus's source: " + why);

  // F: where the multiplicity is a bit, C holds
  if (!ask(t, "F: " + id + " holds where " + o.receive + "'s multiplicity is 0 or 1", Shape::kOne,
           [&](const Encoder& enc, const std::vector<z3::expr>& r, const std::vector<z3::expr>&) {
             const z3::expr m = enc.mult(*in, r, nullptr);
             return (m == 0 || m == 1) && !enc.some_factor_zero(*target->expr, r, nullptr);
           }))
    return fail("F: " + id + " is not shown to hold where the multiplicity is a bit");
  for (const auto& [owner, ord] : order_of)
    if (!ordered_tables.count(owner)) throw std::invalid_argument("order: table " + owner + " is not a sender the count needs ordered");
  for (const auto& [owner, list] : ids)  // a certificate names only the tables it is asked about
    if (!asked.count(owner)) throw std::invalid_argument("'" + list.front() + "': table " + owner + " has no question in counting " + o.receive);
  answer.verdict = Verdict::kImplied;
  answer.scenario = "each tuple of " + o.receive + " is sent at most once and received by one row (chain bus " + chain_bus + ")";
  answer.seconds = timer.seconds();
  return answer;
}

std::vector<Answer> padding_silent(const spec::air::Spec& spec, const std::string& table, const Options& options) {
  const Table& t = find_table(spec, table);
  std::vector<Answer> out;
  if (t.column_index("is_real") < 0) return out;
  const Carried carried = carried_bounds(spec, table, nullptr);
  Expr real;
  real.op = Expr::Op::kColumn, real.name = "is_real";
  for (const auto& b : t.buses) {
    if (!b.mult) continue;  // always active: not a question about padding rows
    Timer timer;
    Answer a{b.id, Verdict::kUnknown, 0, "a row with is_real = 0", {}};
    const z3::check_result res = rows_question(
        spec, t, nullptr, carried, {}, options.timeout_ms, Shape::kOne,
        [&](const Encoder& enc, const std::vector<z3::expr>& r, const std::vector<z3::expr>&) {
          return enc.reduced(enc.term(real, r, nullptr)) == 0 && enc.mult(b, r, nullptr) != 0;
        },
        {}, &a.model);
    a.verdict = res == z3::unsat ? Verdict::kImplied : res == z3::sat ? Verdict::kAttack : Verdict::kUnknown;
    if (a.verdict == Verdict::kAttack) a.scenario = "a row with is_real = 0 where " + b.id + " is active";
    a.seconds = timer.seconds();
    out.push_back(std::move(a));
  }
  return out;
}

namespace {

// The buses whose receiver is a fixed table with a multiplicity column (count_lookups).
bool is_lookup(const std::string& bus) {
  for (const char* b : {"byte", "range16", "and8", "program", "segment", "image", "pow2"})
    if (bus == b) return true;
  return false;
}

// How many leading fields of a lookup's tuple are its key (the rest are a function of it: the
// and8 relation, pow2, the verifier's program and image; segments are keyed by their range,
// keyed_by_range below); a range check (byte, range16) is all key. 0 for a bus that is not a lookup.
size_t lookup_key_fields(const std::string& bus) {
  if (!is_lookup(bus)) return 0;
  return bus == "and8" ? 2 : 1;
}

// The segment table's entries (start, file_end, end, w; spec/tables/air.md) are the ELF's
// segments, which do not overlap (isa:elf:overlap, checked when the image is loaded): two
// entries whose [start, end) meet are the same entry. So a segment lookup is keyed by its range
// rather than by a field.
bool keyed_by_range(const spec::air::BusInteraction& b) { return b.send && b.bus == "segment" && b.tuple.size() == 4; }

// The fields of an interaction that the uniqueness question leaves free (Options::outputs).
using Outputs = std::map<std::string, std::set<std::string>>;
std::set<size_t> output_fields(const spec::air::Spec& spec, const Outputs& outputs, const spec::air::BusInteraction& b) {
  std::set<size_t> out;
  const auto it = outputs.find(b.bus);
  if (it == outputs.end()) return out;
  const auto* decl = spec.bus(b.bus);
  for (size_t i = 0; decl && i < decl->fields.size(); ++i)
    if (it->second.count(decl->fields[i].name)) out.insert(i);
  return out;
}
// How the question as a function takes an interaction (Options::outputs, Options::reads). `own`:
// the row's own (a send that is not a lookup: a request; a receive on a bus it reads: a read at
// an address it computes), so neither its multiplicity nor its fields are fixed, but where both
// rows are active with the same other fields the outputs are the same (the receiving table
// answers as a function; the state holds one value per key). Otherwise (a receive, a lookup
// send) its multiplicity and its fields are fixed but the outputs. Not as a function: nothing
// own, nothing an output.
struct Role {
  bool own = false;
  std::set<size_t> outputs;
};
Role role_of(const spec::air::Spec& spec, const Outputs& outputs, const Outputs& reads, const spec::air::BusInteraction& b) {
  Role r;
  if (outputs.empty() && reads.empty()) return r;
  if (const auto it = reads.find(b.bus); !b.send && it != reads.end()) {
    r.own = true;
    const auto* decl = spec.bus(b.bus);
    for (size_t i = 0; decl && i < decl->fields.size(); ++i)
      if (!it->second.count(decl->fields[i].name)) r.outputs.insert(i);
    return r;
  }
  r.own = b.send && !is_lookup(b.bus);
  r.outputs = output_fields(spec, outputs, b);
  return r;
}
bool as_function(const Options& o) { return !o.outputs.empty() || !o.reads.empty(); }
void check_outputs(const spec::air::Spec& spec, const Outputs& outputs) {
  for (const auto& [bus, fields] : outputs) {
    const auto* decl = spec.bus(bus);
    if (!decl) throw std::invalid_argument("no bus '" + bus + "'");
    for (const auto& f : fields)
      if (std::none_of(decl->fields.begin(), decl->fields.end(), [&](const spec::air::BusField& d) { return d.name == f; }))
        throw std::invalid_argument("bus '" + bus + "' has no field '" + f + "'");
  }
}

// One interaction of rows x and y in the same place: the same multiplicity, and where it is not 0
// the same tuple; for a lookup send, the same values where the keys are the same (a range
// check's value is not fixed by it: another value in range balances as well, with the lookup
// table's multiplicities recounted), or for a segment lookup where the ranges meet.
// As a function (`functional`; `role` from role_of): an interaction of the row's own fixes
// neither its multiplicity nor its fields, only its outputs where both rows are active with the
// same other fields; any other keeps its multiplicity and its fields but the outputs (a receive
// answers a request), and a lookup send's rest follows from its keys where both are active.
z3::expr same_interaction(const Encoder& enc, const spec::air::BusInteraction& b, const std::vector<z3::expr>& x,
                          const std::vector<z3::expr>* nx_x, const std::vector<z3::expr>& y, const std::vector<z3::expr>* nx_y,
                          bool functional = false, const Role& role = {}) {
  const z3::expr mx = enc.mult(b, x, nx_x), my = enc.mult(b, y, nx_y);
  auto value = [&](size_t i, const std::vector<z3::expr>& r, const std::vector<z3::expr>* nr) {
    return enc.reduced(enc.term(*b.tuple[i], r, nr));
  };
  auto field = [&](size_t i) { return value(i, x, nx_x) == value(i, y, nx_y); };
  const bool by_range = keyed_by_range(b);
  size_t keys = by_range || !b.send ? 0 : lookup_key_fields(b.bus);
  const bool own = role.own;
  const std::set<size_t>& outputs = role.outputs;
  if (own && outputs.empty()) return mx.ctx().bool_val(true);  // the row's own: nothing fixed
  z3::expr when = mx != 0;
  const bool answered = own || (functional && b.send);  // fixed only where both rows are active
  if (answered) when = when && my != 0;
  if (by_range) when = when && value(0, x, nx_x) < value(2, y, nx_y) && value(0, y, nx_y) < value(2, x, nx_x);
  z3::expr same = mx.ctx().bool_val(true);
  for (size_t i = 0; i < b.tuple.size(); ++i) {
    const bool out = outputs.count(i) > 0;
    if (own ? !out : i < keys) when = when && field(i);        // a key (a request's other fields)
    else if (own || !out || !functional) same = same && field(i);  // fixed where the keys are
  }
  if (answered) return z3::implies(when, same);
  return mx == my && z3::implies(when, same);
}

int64_t signed_value(uint64_t v) { return v > kHalfP ? -static_cast<int64_t>(kPValue - v) : static_cast<int64_t>(v); }

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
                      const Honest& h, const Options& options, Answer answer) {
  Timer timer;
  if ((target.rows == Rows::kFirst && h.prev) || (target.rows == Rows::kLast && h.next)) {
    answer.scenario = target.rows == Rows::kFirst ? "a first-row constraint: the row is not the first"
                                                  : "a last-row constraint: the row is not the last";
    return answer;
  }
  std::set<std::string> near;
  spec::air::names(*target.expr, [&](const std::string& n, bool) { near.insert(n); });
  std::vector<std::set<std::string>> supports{near};
  {
    std::set<std::string> wider = near;
    for (const auto& c : t.constraints) {
      bool hit = false;
      spec::air::names(*c.expr, [&](const std::string& n, bool) { hit = hit || near.count(n); });
      if (hit) spec::air::names(*c.expr, [&](const std::string& n, bool) { wider.insert(n); });
    }
    supports.push_back(wider);
    std::set<std::string> every;
    for (const auto& c : t.columns) every.insert(c.name);
    supports.push_back(every);
  }
  const std::string* skip = &target.id;
  // small changes first (|x| <= 4), then up to 2^20; the last question (every column, 2^20) decides "none"
  std::vector<std::pair<size_t, int>> passes;
  for (int b : {4, 1 << 20})
    for (size_t k = 0; k < supports.size(); ++k) passes.emplace_back(k, b);
  auto constant = [](z3::context& ctx, uint64_t v) { return ctx.int_val(static_cast<int64_t>(signed_value(v))); };
  for (size_t q = 0; q < passes.size(); ++q) {
    const auto [pass, limit] = passes[q];
    const bool last = q + 1 == passes.size();
    z3::context ctx;
    Encoder enc(ctx, spec, t);
    z3::solver s(ctx);
    z3::params params(ctx);
    params.set("timeout", last ? options.timeout_ms : std::min(options.timeout_ms / 4 + 1, 2000u));
    s.set(params);
    std::vector<z3::expr> prev, honest, row, next;
    std::vector<double> mag_prev, mag_honest, mag_row, mag_next;
    const z3::expr bound = ctx.int_val(limit);
    for (size_t i = 0; i < t.columns.size(); ++i) {
      const auto& c = t.columns[i];
      if (h.counting.count(i)) {
        const z3::expr k = ctx.int_const(c.name.c_str());
        s.add(k >= 1 && k + 1 < ctx.int_val(kP));
        prev.push_back(k - 1), honest.push_back(k), row.push_back(k), next.push_back(k + 1);
        for (auto* m : {&mag_prev, &mag_honest, &mag_row, &mag_next}) m->push_back(0x1p64);
        continue;
      }
      auto mag = [](uint64_t v) { return std::fabs(static_cast<double>(signed_value(v))); };
      prev.push_back(constant(ctx, h.prev ? (*h.prev)[i] : 0)), mag_prev.push_back(h.prev ? mag((*h.prev)[i]) : 0);
      next.push_back(constant(ctx, h.next ? (*h.next)[i] : 0)), mag_next.push_back(h.next ? mag((*h.next)[i]) : 0);
      const z3::expr hv = constant(ctx, h.row[i]);
      honest.push_back(hv), mag_honest.push_back(mag(h.row[i]));
      if (c.kind == spec::air::ColumnKind::kPreprocessed || !supports[pass].count(c.name)) {
        row.push_back(hv), mag_row.push_back(mag(h.row[i]));
      } else {
        const z3::expr x = ctx.int_const(c.name.c_str());  // the change: the field value is h + x mod p
        s.add(x >= -bound && x <= bound);
        row.push_back(hv + x);
        mag_row.push_back(mag(h.row[i]) + limit);
      }
    }
    auto all = [&](Rows rows, const std::string* except, const std::vector<z3::expr>& local,
                   const std::vector<double>& ml, const std::vector<z3::expr>* nx, const std::vector<double>* mn) {
      z3::expr a = ctx.bool_val(true);
      for (const auto& c : t.constraints) {
        if (c.rows != rows || (except && c.id == *except)) continue;
        a = a && enc.some_factor_zero(*c.expr, local, nx, &ml, mn);  // the product itself follows
        if (const int b = enc.bit_column(*c.expr); b >= 0) a = a && (local[b] == 0 || local[b] == 1);
      }
      return a;
    };
    enc.use_signed_constants();
    const bool first = !h.prev, final = !h.next;
    s.add(all(Rows::kEvery, skip, row, mag_row, nullptr, nullptr));
    if (h.prev) s.add(all(Rows::kTransition, skip, prev, mag_prev, &row, &mag_row));
    if (h.next) s.add(all(Rows::kTransition, skip, row, mag_row, &next, &mag_next));
    if (first) s.add(all(Rows::kFirst, skip, row, mag_row, h.next ? &next : &row, h.next ? &mag_next : &mag_row));
    if (final) s.add(all(Rows::kLast, skip, row, mag_row, nullptr, nullptr));
    // every interaction of r, and of the row before it, as it was for h
    auto same = [&](const spec::air::BusInteraction& b, const std::vector<z3::expr>& l0, const std::vector<double>& m0,
                    const std::vector<z3::expr>* n0, const std::vector<double>* mn0, const std::vector<z3::expr>& l1,
                    const std::vector<double>& m1, const std::vector<z3::expr>* n1, const std::vector<double>* mn1) {
      auto value = [&](const Expr& e, const std::vector<z3::expr>& l, const std::vector<double>& m,
                       const std::vector<z3::expr>* n, const std::vector<double>* mn) {
        const z3::expr v = enc.term(e, l, n);
        return enc.magnitude(e, m, mn) < 0x1p62 ? v : enc.reduced(v);
      };
      const z3::expr m_h = b.mult ? value(*b.mult, l0, m0, n0, mn0) : ctx.int_val(1);
      const z3::expr m_r = b.mult ? value(*b.mult, l1, m1, n1, mn1) : ctx.int_val(1);
      if (h.recount_lookups && is_lookup(b.bus) && b.send) {
        // a lookup's count is the fixed table's multiplicity column, which counts whatever is
        // sent: the multiplicity may change; what is sent must be in the table (a byte, a
        // 16-bit value, or a tuple that h sends: it is there)
        z3::expr a = ctx.bool_val(true);
        const uint64_t k = b.bus == "byte" ? 256 : b.bus == "range16" ? 65536 : 0;
        for (const auto& el : b.tuple) {
          const z3::expr v = enc.reduced(value(*el, l1, m1, n1, mn1));
          a = a && z3::implies(enc.reduced(m_r) != 0,
                               k ? v < ctx.int_val(static_cast<int64_t>(k))
                                 : enc.reduced(m_h) != 0 && v == enc.reduced(value(*el, l0, m0, n0, mn0)));
        }
        return a;
      }
      z3::expr a = enc.reduced(m_h) == enc.reduced(m_r);
      for (const auto& el : b.tuple)
        a = a && z3::implies(enc.reduced(m_h) != 0,
                             enc.reduced(value(*el, l0, m0, n0, mn0)) == enc.reduced(value(*el, l1, m1, n1, mn1)));
      return a;
    };
    for (const auto& b : t.buses) {
      if (h.next) s.add(same(b, honest, mag_honest, &next, &mag_next, row, mag_row, &next, &mag_next));
      else s.add(same(b, honest, mag_honest, &honest, &mag_honest, row, mag_row, &row, &mag_row));
      if (h.prev) s.add(same(b, prev, mag_prev, &honest, &mag_honest, prev, mag_prev, &row, &mag_row));
    }
    for (const auto& [name, v] : h.publics) s.add(enc.publics().at(name) == ctx.int_val(std::to_string(v).c_str()));
    s.add(enc.domain());  // the public values
    switch (target.rows) {
      case Rows::kEvery: s.add(!enc.holds_bounded(*target.expr, row, nullptr, mag_row, nullptr)); break;
      case Rows::kTransition: {
        z3::expr broken = ctx.bool_val(false);
        if (h.prev) broken = broken || !enc.holds_bounded(*target.expr, prev, &row, mag_prev, &mag_row);
        if (h.next) broken = broken || !enc.holds_bounded(*target.expr, row, &next, mag_row, &mag_next);
        s.add(broken);
        break;
      }
      case Rows::kFirst:
        s.add(!enc.holds_bounded(*target.expr, row, h.next ? &next : &row, mag_row, h.next ? &mag_next : &mag_row));
        break;
      case Rows::kLast: s.add(!enc.holds_bounded(*target.expr, row, nullptr, mag_row, nullptr)); break;
    }
    const z3::check_result res = s.check();
    if (res == z3::sat) {
      // fewer changed columns read better as a mutation: put each back while the rest still
      // breaks the constraint alone
      z3::model m = s.get_model();
      z3::expr_vector kept(ctx);
      params.set("timeout", 1000u);
      s.set(params);
      for (size_t i = 0; i < t.columns.size(); ++i) {
        const z3::expr back = z3::mod(row[i], ctx.int_val(kP)) == z3::mod(honest[i], ctx.int_val(kP));
        if (h.counting.count(i) || m.eval(back, true).is_true()) continue;
        kept.push_back(back);
        if (s.check(kept) == z3::sat) m = s.get_model();
        else kept.pop_back();
      }
      for (size_t i = 0; i < t.columns.size(); ++i) {
        if (h.counting.count(i)) continue;
        const std::string d = m.eval(z3::mod(row[i], ctx.int_val(kP)), true).get_decimal_string(0);
        const uint64_t v = std::stoull(d);
        if (v != h.row[i]) answer.model.push_back({t.columns[i].name, v, show(d)});
      }
      answer.verdict = Verdict::kAttack;
      answer.seconds = timer.seconds();
      return answer;
    }
    // unsat at the last question: none; unknown there: unknown
    if (last) answer.verdict = res == z3::unsat ? Verdict::kImplied : Verdict::kUnknown;
  }
  answer.seconds = timer.seconds();
  return answer;
}

const spec::air::Constraint& find_constraint(const Table& t, const std::string& id) {
  for (const auto& c : t.constraints)
    if (c.id == id) return c;
  throw std::invalid_argument("no constraint " + id + " in table " + t.name);
}

}  // namespace

Answer padding_attack(const spec::air::Spec& spec, const std::string& table, const std::string& id,
                      const Options& options) {
  const Table& t = find_table(spec, table);
  const spec::air::Constraint& target = find_constraint(t, id);
  Answer answer{id, Verdict::kUnknown, 0, "a padding row", {}, false, true};
  if (!t.padding || (target.rows != Rows::kEvery && target.rows != Rows::kTransition)) {
    answer.scenario = !t.padding ? "no repeated padding row in this table" : "a first- or last-row constraint: a padding row is interior";
    return answer;
  }
  Honest h;
  h.row.assign(t.columns.size(), 0);
  for (const auto& [c, v] : t.padding->fixed) h.row[static_cast<size_t>(t.column_index(c))] = v;
  for (const auto& c : t.padding->counting) h.counting.insert(static_cast<size_t>(t.column_index(c)));
  h.prev = h.row, h.next = h.row;
  return witness_attack(spec, t, target, h, options, answer);
}

Answer row_attack(const spec::air::Spec& spec, const std::string& table, const std::string& id, const TraceRows& rows,
                  const Options& options) {
  const Table& t = find_table(spec, table);
  const spec::air::Constraint& target = find_constraint(t, id);
  auto full = [&](const std::vector<uint64_t>& r, const char* which) {
    if (r.size() != t.columns.size())
      throw std::invalid_argument(std::string(which) + " row has " + std::to_string(r.size()) + " values; table " + table +
                                  " has " + std::to_string(t.columns.size()) + " columns");
    for (uint64_t v : r)
      if (v >= kPValue) throw std::invalid_argument(std::string(which) + " row: a value not below p");
    return r;
  };
  Honest h;
  h.row = full(rows.row, "the");
  if (rows.prev) h.prev = full(*rows.prev, "the previous");
  if (rows.next) h.next = full(*rows.next, "the next");
  for (const auto& [name, v] : rows.publics) {
    if (!std::any_of(spec.publics.begin(), spec.publics.end(), [&](const auto& p) { return p.name == name; }))
      throw std::invalid_argument("no public value " + name);
    if (v >= kPValue) throw std::invalid_argument("public value " + name + ": not below p");
    if (!h.publics.emplace(name, v).second) throw std::invalid_argument("public value " + name + " given twice");
  }
  for (const auto& p : spec.publics)  // an attack must not rely on public values the trace does not have
    if (!h.publics.count(p.name)) throw std::invalid_argument("public value " + p.name + " missing");
  h.recount_lookups = true;
  Answer answer{id, Verdict::kUnknown, 0, "the given row", {}, false, true};
  return witness_attack(spec, t, target, h, options, answer);
}

namespace {

// The uniqueness question column by column, for a place whose whole question has no answer: the
// same two rows x and y (with the shared previous and next rows where the place has them), the
// same multiplicities, tuples and interacting premise, but each question states only the
// constraints and interactions that name one column c (on both rows, and the transitions and
// first- or last-row constraints of the place that name it), with the columns already shown
// equal stated equal, and asks whether x and y can differ in c. Unsatisfiable: c is equal too.
// Rounds go on while one adds a column; then the columns left are asked with every constraint
// and interaction that names any of them. By induction every column found is equal wherever
// the whole question's premises hold (each question assumes a part of them), so all columns
// found means unique. With `real`, both rows have is_real = 1: the question is about interacting
// rows, and padding_silent showed that a row with is_real = 0 (a bit) interacts with nothing.
// A column left is then asked alone with every item, the other columns equal: satisfiable is a
// second witness that differs only there (a free column). Empty left and free: unique.
// Where a column is asked in the uniqueness question on row x (its next row `next`, nullptr where
// there is none): everywhere, or where its free mark's expression is not 0; false where that
// expression names the next row and there is none (free there).
z3::expr asked_where(const Encoder& enc, const Table& t, const std::string& column, const std::vector<z3::expr>& x,
                     const std::vector<z3::expr>* next) {
  z3::context& ctx = x.front().ctx();
  const auto m = std::find_if(t.free.begin(), t.free.end(), [&](const spec::air::FreeMark& f) { return f.column == column; });
  if (m == t.free.end()) return ctx.bool_val(true);
  bool names_next = false;
  spec::air::names(*m->unless, [&](const std::string&, bool at_next) { names_next = names_next || at_next; });
  if (names_next && !next) return ctx.bool_val(false);
  return enc.reduced(enc.term(*m->unless, x, next)) != 0;
}

// What p's primality gives about two rows x and y in the same place that a constraint e holds
// on: where they agree on every column of e but v, and e is A v + R in one of its top factors F
// (A and R without v), A (v_x - v_y) = 0 mod p unless another factor is 0, so v_x = v_y unless
// A = 0 or another factor is 0 (evaluated on x: the same on y). Integer arithmetic mod p does not
// find that (an inverse witness x inv = 1 determines inv only through it). One implication per
// column v of e on the rows' side (x_next: the rows are e's next row, after `local`); (local,
// next) is x's placement, with y's the same but for the row itself.
z3::expr same_but_one(const Encoder& enc, const Table& t, const Expr& e, const std::vector<z3::expr>& x,
                      const std::vector<z3::expr>& y, bool x_next, const std::vector<z3::expr>& local,
                      const std::vector<z3::expr>* next) {
  z3::context& ctx = x.front().ctx();
  std::set<std::string> on_row;
  spec::air::names(e, [&](const std::string& n, bool at_next) {
    if (at_next == x_next && t.column_index(n) >= 0) on_row.insert(n);  // a public value is the same on both
  });
  const auto factors = factors_of(e);
  auto col = [&](const std::string& n) { return static_cast<size_t>(t.column_index(n)); };
  z3::expr all = ctx.bool_val(true);
  for (const auto& v : on_row) {
    if (t.columns[col(v)].kind == spec::air::ColumnKind::kPreprocessed) continue;
    const Expr* f = nullptr;
    size_t with_v = 0;
    for (const Expr* g : factors)
      if (names_column(*g, v, x_next)) f = g, ++with_v;
    if (with_v != 1) continue;
    const auto ar = enc.linear_in(*f, v, x_next, local, next);
    if (!ar) continue;
    z3::expr same = ctx.bool_val(true);
    for (const auto& n : on_row)
      if (n != v) same = same && x[col(n)] == y[col(n)];
    z3::expr out = enc.reduced(ar->first) == 0 || x[col(v)] == y[col(v)];
    for (const Expr* g : factors)
      if (g != f) out = out || enc.reduced(enc.term(*g, local, next)) == 0;
    all = all && z3::implies(same, out);
  }
  return all;
}

// The difference question. Two rows x and y in the same place agree on the columns shown equal,
// so for each constraint its value on x minus its value on y is a polynomial in which every term
// that names no column left cancels (a0 b0 in a limb product, once a0 and b0 are shown equal).
// Where what remains is linear in the differences d_c = x_c - y_c of the columns left, with
// constant coefficients, it says sum a_c d_c = 0 mod p; with each d_c inside (-B_c, B_c) (a bit,
// a range check, a carried bound) that is an equation over small integers. The bits shown equal
// that multiply a column left (an operation's selectors) are split into cases, a constant in
// each. Z3 answers such a question in milliseconds where the one over [0, p) with the products
// in it runs out of time. It is a relaxation (only what the differences say): no d_c != 0 in any
// case proves x_c = y_c; anything else proves nothing.

uint64_t field_add(uint64_t a, uint64_t b) { return static_cast<uint64_t>((static_cast<unsigned __int128>(a) + b) % kPValue); }

// A polynomial over the field: each monomial (its variables' ids, sorted, repeated for a power)
// with its coefficient, never 0.
using Mono = std::vector<int>;
using Poly = std::map<Mono, uint64_t>;
void add_term(Poly& p, const Mono& m, uint64_t c) {
  if (c == 0) return;
  auto [it, fresh] = p.emplace(m, c);
  if (!fresh && (it->second = field_add(it->second, c)) == 0) p.erase(it);
}
// a b; nullopt past `cap` terms
std::optional<Poly> poly_times(const Poly& a, const Poly& b, size_t cap = SIZE_MAX) {
  Poly r;
  for (const auto& [ma, ca] : a)
    for (const auto& [mb, cb] : b) {
      Mono m;
      std::merge(ma.begin(), ma.end(), mb.begin(), mb.end(), std::back_inserter(m));
      add_term(r, m, field_mul(ca, cb));
      if (r.size() > cap) return std::nullopt;
    }
  return r;
}
// e as a polynomial, with var giving each column reference's (or public's) id; nullopt past a
// few thousand terms (the question then leaves it out).
std::optional<Poly> poly_of(const Expr& e, const std::function<int(const Expr&)>& var) {
  constexpr size_t kCap = 4096;
  auto times = [&](const Poly& a, const Poly& b) { return poly_times(a, b, kCap); };
  switch (e.op) {
    case Expr::Op::kConst: {
      Poly p;
      add_term(p, {}, e.value % kPValue);
      return p;
    }
    case Expr::Op::kColumn:
    case Expr::Op::kNext:
    case Expr::Op::kPublic: {
      Poly p;
      p.emplace(Mono{var(e)}, 1);
      return p;
    }
    case Expr::Op::kNeg: {
      auto a = poly_of(*e.args[0], var);
      if (a)
        for (auto& [m, c] : *a) c = field_neg(c);
      return a;
    }
    case Expr::Op::kAdd:
    case Expr::Op::kSub: {
      auto a = poly_of(*e.args[0], var), b = poly_of(*e.args[1], var);
      if (!a || !b) return std::nullopt;
      for (const auto& [m, c] : *b) add_term(*a, m, e.op == Expr::Op::kAdd ? c : field_neg(c));
      return a;
    }
    case Expr::Op::kMul: {
      const auto a = poly_of(*e.args[0], var), b = poly_of(*e.args[1], var);
      if (!a || !b) return std::nullopt;
      return times(*a, *b);
    }
    case Expr::Op::kPow: {
      const auto a = poly_of(*e.args[0], var);
      if (!a) return std::nullopt;
      std::optional<Poly> r = Poly{};
      r->emplace(Mono{}, 1);
      for (uint64_t k = 0; k < e.value && r; ++k) r = times(*r, *a);
      return r;
    }
  }
  return std::nullopt;
}
// p with the variables of `value` (bits) replaced by their values.
Poly substitute(const Poly& p, const std::map<int, uint64_t>& value) {
  Poly r;
  for (const auto& [m, c] : p) {
    Mono rest;
    uint64_t k = c;
    for (const int v : m) {
      const auto it = value.find(v);
      if (it == value.end()) rest.push_back(v);
      else k = field_mul(k, it->second);
    }
    add_term(r, rest, k);
  }
  return r;
}
// p with each variable of `sub` replaced by its polynomial (affine ones, in practice); the other
// variables stay.
Poly compose(const Poly& p, const std::map<int, Poly>& sub) {
  Poly r;
  for (const auto& [m, c] : p) {
    Poly term{{Mono{}, c}};
    for (const int v : m) {
      const auto it = sub.find(v);
      term = *poly_times(term, it == sub.end() ? Poly{{Mono{v}, 1}} : it->second);
    }
    for (const auto& [mm, cc] : term) add_term(r, mm, cc);
  }
  return r;
}
// The part of p's value on x minus its value on y, for p over the row's variables (ids below
// `row_vars`; the others are the same on both): the coefficient of each variable in `delta`
// (the columns left), where every monomial that names one is that variable alone; nullopt where
// one names it with another variable (the difference is not linear in the d's).
std::optional<std::map<int, uint64_t>> delta_form(const Poly& p, const std::set<int>& delta) {
  std::map<int, uint64_t> out;
  for (const auto& [m, c] : p) {
    const bool names = std::any_of(m.begin(), m.end(), [&](int v) { return delta.count(v) > 0; });
    if (!names) continue;  // the same on x and y
    if (m.size() != 1) return std::nullopt;
    out[m[0]] = field_add(out[m[0]], c);
  }
  for (auto it = out.begin(); it != out.end();) it = it->second == 0 ? out.erase(it) : std::next(it);
  return out;
}

// A linear form sum a_v d_v (mod p), with |d_v| < bound(v), scaled by the one of its
// coefficients' inverses that makes sum |a_v| bound(v) (the coefficients as signed values)
// smallest: the multiple that reads best as an equation over small integers.
std::map<int, uint64_t> smallest_multiple(const std::map<int, uint64_t>& form, const std::function<double(int)>& bound) {
  auto reach = [&](const std::map<int, uint64_t>& f) {
    double r = 0;
    for (const auto& [v, c] : f) r += static_cast<double>(std::min(c, kPValue - c)) * bound(v);
    return r;
  };
  std::map<int, uint64_t> best = form;
  double best_reach = reach(form);
  for (const auto& [v, a] : form) {
    const uint64_t k = field_inverse(a);
    std::map<int, uint64_t> scaled;
    for (const auto& [u, c] : form) scaled[u] = field_mul(c, k);
    if (const double r = reach(scaled); r < best_reach) best = std::move(scaled), best_reach = r;
  }
  return best;
}

}  // namespace

// Field elimination of the differences that nothing bounds. An exact equation sum a_v d_v = 0
// (mod p) that names a difference d_u with no bound says nothing over the integers: d_u takes
// whatever value closes it. A combination of equations without d_u may say a lot: cpu's adder
// carries c1, c2 are unbounded, and its limb equations weighted by 2^16k are the whole 64-bit
// sum, an equation over small integers. Each unbounded difference is solved for in the
// equation that names it with the smallest coefficient (+-1 first) and substituted in the
// others; what is left without an unbounded difference, each scaled to its smallest multiple,
// is returned: consequences, to be asked beside the equations they come from.
std::vector<std::map<int, uint64_t>> without_unbounded(std::vector<std::map<int, uint64_t>> work,
                                                       const std::function<double(int)>& bound) {
  const auto unbounded = [&](int v) { return bound(v) >= kPDouble; };
  std::set<int> vars;
  for (const auto& f : work)
    for (const auto& [v, c] : f)
      if (unbounded(v)) vars.insert(v);
  if (vars.empty()) return {};
  std::vector<bool> touched(work.size(), false);  // only what the elimination changed is new
  for (const int u : vars) {
    size_t pivot = work.size();
    auto weight = [&](size_t i) { return std::make_pair(std::min(work[i].at(u), kPValue - work[i].at(u)), work[i].size()); };
    for (size_t i = 0; i < work.size(); ++i)
      if (work[i].count(u) && (pivot == work.size() || weight(i) < weight(pivot))) pivot = i;
    if (pivot == work.size()) continue;
    const std::map<int, uint64_t> row = work[pivot];
    work.erase(work.begin() + static_cast<std::ptrdiff_t>(pivot));
    touched.erase(touched.begin() + static_cast<std::ptrdiff_t>(pivot));
    const uint64_t inv = field_inverse(row.at(u));
    for (size_t i = 0; i < work.size(); ++i) {
      auto& f = work[i];
      const auto it = f.find(u);
      if (it == f.end()) continue;
      touched[i] = true;
      const uint64_t k = field_neg(field_mul(it->second, inv));  // f - (f_u / row_u) row
      for (const auto& [v, c] : row) {
        uint64_t& slot = f[v];
        slot = field_add(slot, field_mul(k, c));
      }
      for (auto jt = f.begin(); jt != f.end();) jt = jt->second == 0 ? f.erase(jt) : std::next(jt);
    }
  }
  std::vector<std::map<int, uint64_t>> out;
  for (size_t i = 0; i < work.size(); ++i)
    if (auto& f = work[i]; touched[i] && !f.empty() && std::none_of(f.begin(), f.end(), [&](const auto& vc) { return unbounded(vc.first); }))
      out.push_back(smallest_multiple(f, bound));
  return out;
}

namespace {

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
PlacePolys place_polys(const Table& t, bool has_prev, bool has_next, const std::function<int(const Expr&, bool)>& id) {
  auto placed = [&](bool local_is_row, bool next_is_row) {
    return [&, local_is_row, next_is_row](const Expr& e) {
      return id(e, e.op == Expr::Op::kNext ? next_is_row : local_is_row);
    };
  };
  PlacePolys out;
  auto add_constraint = [&](const Expr& e, bool local_is_row, bool next_is_row) {
    if (auto p = poly_of(e, placed(local_is_row, next_is_row))) out.constraints.push_back(std::move(*p));
  };
  for (const auto& c : t.constraints) switch (c.rows) {
      case Rows::kEvery: add_constraint(*c.expr, true, false); break;
      case Rows::kTransition:
        if (has_next) add_constraint(*c.expr, true, false);
        if (has_prev) add_constraint(*c.expr, false, true);
        break;
      case Rows::kFirst:
        if (!has_prev) add_constraint(*c.expr, true, !has_next);
        break;
      case Rows::kLast:
        if (!has_next) add_constraint(*c.expr, true, false);
        break;
    }
  for (const auto& b : t.buses) {
    PlacePolys::Bus bus{&b, std::nullopt, {}};
    if (b.mult) bus.mult = poly_of(*b.mult, placed(true, !has_next));
    else bus.mult.emplace().emplace(Mono{}, 1);
    for (const auto& el : b.tuple) bus.tuple.push_back(poly_of(*el, placed(true, !has_next)));
    out.buses.push_back(std::move(bus));
  }
  for (const auto& m : t.free) out.unless[m.column] = poly_of(*m.unless, placed(true, !has_next));
  return out;
}

// The cases of a few bits: Z3 lists the assignments of some bit variables (ids) that the
// polynomials over bits alone allow. A power of a bit is the bit, so each monomial is the
// conjunction of its bits; with small coefficients (|sum| < p) "p = 0 mod p" is a pseudo-Boolean
// equation, which Z3 decides by its cardinality reasoning (an if-then-else sum of 15 one-hot
// selectors already runs out of time as linear arithmetic).
class BitCases {
 public:
  BitCases(const std::map<int, std::string>& bits, unsigned timeout_ms) : cases_(ctx_) {
    for (const auto& [id, name] : bits) bit_.emplace(id, ctx_.bool_const(("b_" + name).c_str()));
    z3::params params(ctx_);
    params.set("timeout", std::min(timeout_ms, 2000u));
    cases_.set(params);
  }
  z3::context& ctx() { return ctx_; }
  bool over_bits(const Poly& p) const {
    return std::all_of(p.begin(), p.end(), [&](const auto& mc) {
      return std::all_of(mc.first.begin(), mc.first.end(), [&](int v) { return bit_.count(v) > 0; });
    });
  }
  const z3::expr& bit(int id) const { return bit_.at(id); }
  // p = 0 mod p, for p over bits
  z3::expr zero_mod_p(const Poly& p) {
    std::map<std::set<int>, int64_t> terms;
    for (const auto& [m, c] : p) terms[std::set<int>(m.begin(), m.end())] += signed_value(c);
    int64_t constant = 0;
    double magnitude = 0;
    z3::expr_vector es(ctx_);
    std::vector<int> coeffs;
    bool small = true;
    for (const auto& [m, k] : terms) {
      if (k == 0) continue;
      magnitude += std::fabs(static_cast<double>(k));
      if (m.empty()) {
        constant += k;
        continue;
      }
      if (std::llabs(k) >= (int64_t{1} << 30)) small = false;
      z3::expr all = ctx_.bool_val(true);
      for (const int v : m) all = all && bit_.at(v);
      es.push_back(all);
      coeffs.push_back(static_cast<int>(k));
    }
    if (small && magnitude < 0x1p30) return es.empty() ? ctx_.bool_val(constant == 0) : z3::pbeq(es, coeffs.data(), static_cast<int>(-constant));
    z3::expr v = ctx_.int_val(constant);  // otherwise as a sum, with the multiples of p it may reach
    for (unsigned i = 0; i < es.size(); ++i) v = v + z3::ite(es[i], ctx_.int_val(coeffs[i]), ctx_.int_val(0));
    z3::expr any = ctx_.bool_val(false);
    for (double k = -std::ceil(magnitude / kPDouble) - 1; k <= std::ceil(magnitude / kPDouble) + 1; ++k)
      any = any || v == ctx_.int_val(static_cast<int64_t>(k)) * ctx_.int_val(kP);
    return any;
  }
  void require(const z3::expr& e) { cases_.add(e); }
  // the row is real (is_real, the id of a bit, is 1; -1: not asked) and, with `interacting`,
  // some interaction but a lookup send has a multiplicity that is not 0
  void require_row(int is_real, bool interacting, const std::vector<PlacePolys::Bus>& buses) {
    if (is_real >= 0) require(bit(is_real));
    if (!interacting) return;
    z3::expr any = ctx_.bool_val(false);
    for (const auto& b : buses) {
      if (is_lookup(b.b->bus) && b.b->send) continue;
      if (!b.mult || !over_bits(*b.mult)) {
        any = ctx_.bool_val(true);
        break;
      }
      any = any || !zero_mod_p(*b.mult);
    }
    require(any);
  }
  // the assignments of `split` that what is required allows; nullopt, with `why`, where Z3 has no
  // answer or there are more than `cap`
  std::optional<std::vector<std::map<int, uint64_t>>> each(const std::set<int>& split, size_t cap, std::string& why) {
    std::vector<std::map<int, uint64_t>> out;
    for (;;) {
      const z3::check_result r = cases_.check();
      if (r == z3::unknown || out.size() >= cap) {
        why = r == z3::unknown ? "no answer on the cases: " + cases_.reason_unknown() : "over " + std::to_string(cap) + " cases";
        return std::nullopt;
      }
      if (r == z3::unsat) return out;
      const z3::model m = cases_.get_model();
      std::map<int, uint64_t> one;
      z3::expr other = ctx_.bool_val(false);
      for (const int v : split) {
        const bool on = m.eval(bit_.at(v), true).is_true();
        one[v] = on ? 1 : 0;
        other = other || (on ? !bit_.at(v) : bit_.at(v));
      }
      out.push_back(std::move(one));
      cases_.add(other);
      if (split.empty()) return out;
    }
  }

 private:
  z3::context ctx_;
  std::map<int, z3::expr> bit_;
  z3::solver cases_;
};

// The columns of `left` that the differences show equal in rows x and y of a place of t (the
// previous row if has_prev, the next row if has_next, shared); unique_by_steps below asks the rest.
std::set<std::string> settled_by_differences(const spec::air::Spec& spec, const Table& t, bool has_prev, bool has_next,
                                             bool real, bool interacting, const std::set<std::string>& left,
                                             const std::set<std::string>& shown_marked, const std::set<std::string>& bits,
                                             const Carried& carried, const Outputs& outputs, const Outputs& reads,
                                             unsigned timeout_ms, const std::function<void(const std::string&)>& progress) {
  const int n = static_cast<int>(t.columns.size());
  auto col = [&](const std::string& name) { return t.column_index(name); };
  std::map<std::string, int> publics;
  for (const auto& pub : spec.publics) publics.emplace(pub.name, 3 * n + static_cast<int>(publics.size()));
  // ids: column c of the row asked about is c; of the previous row n + c, of the next row 2n + c
  // (an interior place has both, and the values a case fixes may name them)
  const PlacePolys pp = place_polys(t, has_prev, has_next, [&](const Expr& e, bool is_row) {
    if (e.op == Expr::Op::kPublic) return publics.at(e.name);
    return col(e.name) + (is_row ? 0 : e.op == Expr::Op::kNext ? 2 * n : n);
  });
  const auto& constraint_polys = pp.constraints;
  const auto& buses = pp.buses;
  const auto& unless = pp.unless;
  using Bus = PlacePolys::Bus;
  std::vector<Role> roles;  // each interaction's, as a function (role_of)
  for (const auto& b : buses) roles.push_back(role_of(spec, outputs, reads, *b.b));
  const TableFacts facts{t, nullptr};
  // the columns that a constraint on the row defines from bits (mo1 = (f_load + f_store) (i12 +
  // i13 - i12 i13), mo3 = mo2): v - g with v in no other term, g over bits and columns defined
  // before; in dependency order. Where v is shown equal, a case of g's bits fixes its value.
  std::vector<std::pair<int, Poly>> defs;
  {
    std::set<int> known;
    for (const auto& name : bits) known.insert(col(name));
    for (bool grew = true; grew;) {
      grew = false;
      for (const auto& p : constraint_polys) {
        std::map<int, int> uses;  // variable -> the terms that name it
        bool on_row = true;
        for (const auto& [m, c] : p)
          for (const int v : std::set<int>(m.begin(), m.end())) uses[v]++, on_row = on_row && v < n;
        if (!on_row) continue;
        for (const auto& [v, k] : uses) {
          const auto it = p.find(Mono{v});
          if (k != 1 || known.count(v) || it == p.end() || (it->second != 1 && it->second != kPValue - 1)) continue;
          if (!std::all_of(uses.begin(), uses.end(), [&](const auto& u) { return u.first == v || known.count(u.first); })) continue;
          Poly g;  // v = -(p - c v) / c, c = +-1
          for (const auto& [m, c] : p)
            if (m != Mono{v}) add_term(g, m, it->second == 1 ? field_neg(c) : c);
          defs.emplace_back(v, std::move(g));
          known.insert(v);
          grew = true;
          break;
        }
      }
    }
  }
  // the defined columns that are non-negative integers wherever their constraint holds: the
  // definition, expanded down to bits, takes a value below 2^32 at every assignment of at most
  // eight bits (mo1 = (f_load + f_store)(i12 + i13 - i12 i13) is 0, 1 or 2); a lookup under
  // such a multiplicity bounds its values as under a sum of bits (TableFacts::nonnegative)
  std::set<int> nonnegative_defs;
  {
    std::map<int, Poly> expanded;
    for (const auto& [v, g] : defs) {
      Poly e = compose(g, expanded);
      std::set<int> vars;
      for (const auto& [m, c] : e) vars.insert(m.begin(), m.end());
      if (vars.size() <= 8) {
        const std::vector<int> vs(vars.begin(), vars.end());
        bool small = true;
        for (uint32_t a = 0; a < (1u << vs.size()) && small; ++a) {
          std::map<int, uint64_t> at;
          for (size_t i = 0; i < vs.size(); ++i) at[vs[i]] = (a >> i) & 1;
          const Poly k = substitute(e, at);
          small = k.empty() || (k.size() == 1 && k.begin()->first.empty() && k.begin()->second < (uint64_t{1} << 32));
        }
        if (small) nonnegative_defs.insert(v);
      }
      expanded.emplace(v, std::move(e));
    }
  }
  auto nonnegative = [&](const Expr& mult) {
    return facts.nonnegative(mult) || (mult.op == Expr::Op::kColumn && nonnegative_defs.count(col(mult.name)) > 0);
  };
  // the bits under a defined column (through the columns it is defined from)
  std::map<int, std::set<int>> under;
  for (const auto& [v, g] : defs)
    for (const auto& [m, c] : g)
      for (const int w : m)
        if (const auto it = under.find(w); it != under.end()) under[v].insert(it->second.begin(), it->second.end());
        else under[v].insert(w);

  std::set<std::string> open = left, settled;
  for (bool grew = true; grew && !open.empty();) {
    grew = false;
    // the differences: the columns open, and the marked ones (equal only where they are asked)
    std::set<int> delta;
    for (const auto& name : open) delta.insert(col(name));
    for (const auto& name : shown_marked) delta.insert(col(name));
    for (const auto& name : settled)
      if (unless.count(name)) delta.insert(col(name));
    // the cases: the bits shown equal that a monomial multiplies with a difference, or that a
    // multiplicity or a mark's expression names
    std::set<int> split;
    auto note = [&](const Poly& p, bool all) {
      for (const auto& [m, c] : p) {
        const bool names = all || std::any_of(m.begin(), m.end(), [&](int v) { return delta.count(v) > 0; });
        for (const int v : m) {
          if (!names || v >= n || delta.count(v)) continue;
          if (bits.count(t.columns[static_cast<size_t>(v)].name)) split.insert(v);
          else if (const auto it = under.find(v); it != under.end() && it->second.size() <= 4)  // a defined column: its few bits
            for (const int w : it->second)
              if (!delta.count(w)) split.insert(w);
        }
      }
    };
    for (const auto& p : constraint_polys) note(p, false);
    for (const auto& b : buses) {
      if (b.mult) note(*b.mult, true);
      for (const auto& el : b.tuple)
        if (el) note(*el, false);
    }
    for (const auto& [name, p] : unless)
      if (p) note(*p, true);
    // the cases that the constraints on bits alone allow (with the row interacting, and real)
    std::map<int, std::string> bit_names;
    for (const auto& name : bits) bit_names.emplace(col(name), name);
    std::set<int> bit_ids;
    for (const auto& [id, name] : bit_names) bit_ids.insert(id);
    BitCases cases(bit_names, timeout_ms);
    z3::context& ctx = cases.ctx();
    z3::params params(ctx);
    params.set("timeout", std::min(timeout_ms, 2000u));
    for (const auto& p : constraint_polys)
      if (cases.over_bits(p)) cases.require(cases.zero_mod_p(p));
    cases.require_row(real && t.column_index("is_real") >= 0 && bits.count("is_real") ? col("is_real") : -1, interacting, buses);
    std::string why;
    const auto listed = cases.each(split, 512, why);
    if (!listed) {  // too many cases: nothing more shown this way
      if (progress) {
        std::string names;
        for (const int v : split) names += " " + t.columns[static_cast<size_t>(v)].name;
        progress(t.name + ": differences: " + why + " (" + std::to_string(split.size()) + " bits split:" + names + ")");
      }
      return settled;
    }
    const auto& each = *listed;
    if (progress) {
      std::string names;
      for (const int v : split) names += " " + t.columns[static_cast<size_t>(v)].name;
      progress(t.name + ": differences: " + std::to_string(each.size()) + " cases of" + names);
    }
    // each case: the differences' equations over small integers
    std::set<std::string> candidates = open;
    for (std::map<int, uint64_t> value : each) {
      if (candidates.empty()) break;
      for (const auto& [v, g] : defs)  // the defined columns shown equal that this case fixes
        if (!delta.count(v))
          if (const Poly k = substitute(g, value); k.empty() || (k.size() == 1 && k.begin()->first.empty()))
            value[v] = k.empty() ? 0 : k.begin()->second;
      // and what a constraint then fixes of a value that both rows share (their own columns shown
      // equal, the other row's, the public values): a v + c = 0 (the exit row's is_real' = 0)
      for (bool grew = true; grew;) {
        grew = false;
        for (const auto& p : constraint_polys) {
          const Poly q = substitute(p, value);
          if (q.empty() || q.size() > 2 || q.rbegin()->first.size() != 1 || (q.size() == 2 && !q.begin()->first.empty())) continue;
          const int v = q.rbegin()->first[0];
          if (delta.count(v) || value.count(v)) continue;
          const uint64_t c = q.size() == 2 ? q.begin()->second : 0;
          value[v] = field_mul(field_neg(c), field_inverse(q.rbegin()->second));
          grew = true;
        }
      }
      z3::solver s(ctx);
      s.set(params);
      std::set<int> d = delta;
      std::set<std::string> marked_equal = shown_marked;
      for (const auto& name : settled)
        if (unless.count(name)) marked_equal.insert(name);
      for (const auto& name : marked_equal)  // a mark shown equal: so in this case where it is asked everywhere
        if (const auto& p = unless.at(name); p) {
          const Poly u = substitute(*p, value);
          if (u.size() == 1 && u.begin()->first.empty()) d.erase(col(name));
        }
      std::vector<z3::expr> dv;
      std::vector<double> range(static_cast<size_t>(n), kPDouble);  // |d_c| < range
      for (int c = 0; c < n; ++c) dv.push_back(ctx.int_const(("d_" + t.columns[static_cast<size_t>(c)].name).c_str()));
      for (const int c : bit_ids) range[static_cast<size_t>(c)] = 2;
      std::vector<double> row_range = range;  // 0 <= x_c < row_range: the bounds of the row's own values
      unsigned fresh = 0;
      auto big = [&](double v) { return v >= kPDouble ? ctx.int_val(kP) : ctx.int_val(static_cast<int64_t>(v)); };
      auto sum_of = [&](const std::map<int, uint64_t>& form, double& magnitude) {
        z3::expr s = ctx.int_val(0);
        magnitude = 0;
        for (const auto& [v, c] : form) {
          const int64_t k = signed_value(c);
          s = s + ctx.int_val(k) * dv[static_cast<size_t>(v)];
          magnitude += std::fabs(static_cast<double>(k)) * range[static_cast<size_t>(v)];
        }
        return s;
      };
      std::vector<std::pair<std::map<int, uint64_t>, double>> eqs;  // sum = 0 mod p, or in (-bound, bound) mod p
      std::vector<std::pair<std::vector<std::map<int, uint64_t>>, std::vector<std::map<int, uint64_t>>>> keyed;
      auto active = [&](const Bus& b) {
        if (!b.mult) return false;
        const Poly m = substitute(*b.mult, value);
        return m.size() == 1 && m.begin()->first.empty();  // a nonzero constant
      };
      for (const auto& p : constraint_polys)
        if (auto f = delta_form(substitute(p, value), d); f && !f->empty()) eqs.emplace_back(std::move(*f), 0);
      const bool functional = !outputs.empty() || !reads.empty();
      for (size_t j = 0; j < buses.size(); ++j) {
        const Bus& b = buses[j];
        const Role& role = roles[j];
        // as a function, a send's multiplicity is the row's own, and a read's
        if (b.mult && !role.own && !(functional && b.b->send))
          if (auto f = delta_form(substitute(*b.mult, value), d); f && !f->empty()) eqs.emplace_back(std::move(*f), 0);
        if (!active(b)) continue;
        const auto& bi = *b.b;
        // what the other side enforces: a range on a lookup send's fields, a carried bound
        for (size_t i = 0; i < bi.tuple.size(); ++i) {
          uint64_t k = 0;
          if (bi.send && (bi.bus == "byte" || bi.bus == "and8")) k = 256;
          else if (bi.send && bi.bus == "range16") k = 65536;
          else if (const auto it = carried.find(std::make_tuple(bi.bus, bi.send, i)); it != carried.end() && !is_lookup(bi.bus)) k = it->second;
          if (!k || k == kNoBound || !b.tuple[i] || (bi.mult && !nonnegative(*bi.mult))) continue;
          if (const Poly& e = *b.tuple[i]; e.size() == 1 && e.begin()->second == 1 && e.begin()->first.size() == 1 &&
                                           e.begin()->first[0] < n)
            row_range[static_cast<size_t>(e.begin()->first[0])] =
                std::min(row_range[static_cast<size_t>(e.begin()->first[0])], static_cast<double>(k));
          const auto f = delta_form(substitute(*b.tuple[i], value), d);
          if (!f || f->empty()) continue;
          if (f->size() == 1 && f->begin()->second == 1 && bi.tuple[i]->op == Expr::Op::kColumn)
            range[static_cast<size_t>(f->begin()->first)] = std::min(range[static_cast<size_t>(f->begin()->first)], static_cast<double>(k));
          else
            eqs.emplace_back(*f, static_cast<double>(k));
        }
        // the same tuple where the multiplicity is not 0; for a lookup send, given the same key
        if (keyed_by_range(bi)) continue;
        const size_t keys = bi.send ? lookup_key_fields(bi.bus) : 0;
        const std::set<size_t>& outs = role.outputs;
        // as a function (same_interaction): a receive's outputs are free; the row's own request or
        // read fixes its outputs given its other fields, or nothing where it has none
        const bool own_send = role.own;
        if (own_send && outs.empty()) continue;
        std::vector<std::map<int, uint64_t>> key, rest;
        bool ok = true;
        for (size_t i = 0; i < bi.tuple.size() && ok; ++i) {
          const bool out = outs.count(i) > 0, is_key = own_send ? !out : i < keys;
          if (!own_send && out) continue;  // an output of a request received: not fixed
          const auto f = b.tuple[i] ? delta_form(substitute(*b.tuple[i], value), d) : std::nullopt;
          if (!f) ok = !is_key;  // a field that says nothing: only a key's absence spoils the rest
          else (is_key ? key : rest).push_back(*f);
        }
        if (ok && !rest.empty()) keyed.emplace_back(std::move(key), std::move(rest));
      }
      for (int c = 0; c < n; ++c)
        if (d.count(c)) {
          const z3::expr k = big(range[static_cast<size_t>(c)]);
          s.add(dv[static_cast<size_t>(c)] > -k && dv[static_cast<size_t>(c)] < k);
        }
      // a constraint that this case makes a sum of bounded columns of one sign, with no constant
      // (x0_stays on a write to x0: d_v0 + d_v1 + d_v2 + d_v3, some of them perhaps shown equal
      // already), is that sum over the integers on each row, so each of its columns is 0 on both
      // rows, not only their differences' sum
      for (const auto& p : constraint_polys) {
        const Poly q = substitute(p, value);
        if (q.empty() || q.count(Mono{})) continue;
        double reach = 0;
        int sign = 0;
        bool one_sign = true;
        for (const auto& [m, c] : q) {
          const int s_c = signed_value(c) > 0 ? 1 : -1;
          if (m.size() != 1 || m[0] >= n || row_range[static_cast<size_t>(m[0])] >= kPDouble || (sign && s_c != sign)) {
            one_sign = false;
            break;
          }
          sign = s_c;
          reach += std::fabs(static_cast<double>(signed_value(c))) * (row_range[static_cast<size_t>(m[0])] - 1);
        }
        if (one_sign && reach < kPDouble / 2)
          for (const auto& [m, c] : q)
            if (d.count(m[0])) s.add(dv[static_cast<size_t>(m[0])] == 0);
      }
      auto zero = [&](const std::map<int, uint64_t>& form, bool top) {
        double mag = 0;
        const z3::expr v = sum_of(form, mag);
        if (mag < kPDouble) return v == 0;
        if (!top) return z3::mod(v, ctx.int_val(kP)) == 0;
        return v == ctx.int_const(("j" + std::to_string(fresh++)).c_str()) * ctx.int_val(kP);
      };
      {  // the exact equations' consequences without the unbounded differences (cpu's adder c1, c2)
        std::vector<std::map<int, uint64_t>> exact;
        for (const auto& [form, bound] : eqs)
          if (bound == 0) exact.push_back(form);
        for (auto& form : without_unbounded(exact, [&](int v) { return range[static_cast<size_t>(v)]; }))
          eqs.emplace_back(std::move(form), 0);
      }
      for (const auto& [form, bound] : eqs) {
        if (bound == 0) {
          s.add(zero(form, true));
          continue;
        }
        double mag = 0;  // both values in [0, bound): their difference in (-bound, bound), mod p
        const z3::expr v = sum_of(form, mag);
        const z3::expr r = ctx.int_const(("r" + std::to_string(fresh++)).c_str());
        s.add(r > -big(bound) && r < big(bound));
        s.add(mag + bound < kPDouble ? v == r : v - r == ctx.int_const(("j" + std::to_string(fresh++)).c_str()) * ctx.int_val(kP));
      }
      for (const auto& [key, rest] : keyed) {
        z3::expr when = ctx.bool_val(true), then = ctx.bool_val(true);
        for (const auto& f : key) when = when && zero(f, false);
        for (const auto& f : rest) then = then && zero(f, false);
        s.add(z3::implies(when, then));
      }
      // asked: a difference in a candidate, where its mark (if any) does not make it free here
      std::vector<std::string> ask;
      for (const auto& name : candidates) {
        if (const auto it = unless.find(name); it != unless.end() && it->second && substitute(*it->second, value).empty()) continue;
        ask.push_back(name);
      }
      if (ask.empty()) continue;
      z3::expr any = ctx.bool_val(false);
      for (const auto& name : ask) any = any || dv[static_cast<size_t>(col(name))] != 0;
      s.push();
      s.add(any);
      const z3::check_result all = s.check();
      s.pop();
      if (all == z3::unsat) continue;
      for (const auto& name : ask) {
        s.push();
        s.add(dv[static_cast<size_t>(col(name))] != 0);
        if (s.check() != z3::unsat) candidates.erase(name);
        s.pop();
      }
    }
    for (const auto& name : candidates) settled.insert(name), open.erase(name), grew = true;
  }
  return settled;
}

// The value question. Where the differences say nothing (the kind of a syscall follows from its
// number only through values: k_random = 1 fixes n0 and n1, hence p4 = 0, which other_number
// forbids on a row with k_other = 1), the bits that are left are split on both rows: every
// assignment of the open bit columns of x and of y, and of the bits shown equal that a constraint
// on an open column names, that the constraints over bits allow. In each case the field's unit
// propagation runs on both rows' constraints and on their interactions (the same multiplicity;
// the same tuple where it is a nonzero constant, for the interactions that are not lookups):
//   - an equation a v + c = 0 with a != 0 fixes v = -c / a (p is prime);
//   - a linear equation whose terms all have one sign, over variables with bounds (bits, the
//     range-checked columns of active lookups, the carried bounds of active interactions) that
//     keep the integer sum below p, is an equation over the integers: every term is 0 (or, with
//     a constant of that sign, no solution);
//   - a constant that is not 0, or a value outside its bound, is no case.
// Every step is a consequence of the constraints, so a case left without a solution has none;
// a column whose values on x and y come out equal in every case left (or that its mark does not
// ask there) is shown equal. Nothing else is shown (a relaxation, as the differences are).
std::set<std::string> settled_by_values(const spec::air::Spec& spec, const Table& t, bool has_prev, bool has_next, bool real,
                                        bool interacting, const std::set<std::string>& left,
                                        const std::set<std::string>& bits, const Carried& carried, const Outputs& outputs,
                                        const Outputs& reads, unsigned timeout_ms,
                                        const std::function<void(const std::string&)>& progress) {
  const int n = static_cast<int>(t.columns.size());
  auto col = [&](const std::string& name) { return t.column_index(name); };
  // ids: on x, column c is c; on y, c where it is shown equal (and unmarked), n + c where it is
  // open or marked (a marked column is equal only where it is asked); the previous row 2n + c,
  // the next row 3n + c (two rows: an interior place has both); public values from 4n
  std::set<int> own;  // the columns with a variable of their own on y
  for (const auto& name : left) own.insert(col(name));
  for (const auto& m : t.free) own.insert(col(m.column));
  std::map<std::string, int> publics;
  for (const auto& pub : spec.publics) publics.emplace(pub.name, 4 * n + static_cast<int>(publics.size()));
  auto id_on = [&](bool on_y) {
    return [&, on_y](const Expr& e, bool is_row) {
      if (e.op == Expr::Op::kPublic) return publics.at(e.name);
      const int c = col(e.name);
      if (!is_row) return (e.op == Expr::Op::kNext ? 3 * n : 2 * n) + c;  // a next-row name: the next row; else the previous
      return on_y && own.count(c) ? n + c : c;
    };
  };
  const PlacePolys px = place_polys(t, has_prev, has_next, id_on(false)), py = place_polys(t, has_prev, has_next, id_on(true));
  // what holds: both rows' constraints, and their interactions' equal multiplicities
  std::vector<Poly> holds = px.constraints;
  holds.insert(holds.end(), py.constraints.begin(), py.constraints.end());
  auto minus = [](Poly a, const Poly& b) {
    for (const auto& [m, c] : b) add_term(a, m, field_neg(c));
    return a;
  };
  // as a function, a send's multiplicity is the row's own, and a read's (same_interaction)
  const bool functional = !outputs.empty() || !reads.empty();
  for (size_t j = 0; j < px.buses.size(); ++j)
    if (px.buses[j].mult && py.buses[j].mult && !(functional && px.buses[j].b->send) &&
        !role_of(spec, outputs, reads, *px.buses[j].b).own)
      holds.push_back(minus(*px.buses[j].mult, *py.buses[j].mult));
  // the bits: the open and the marked bit columns on both rows, the rest on x (shared)
  std::map<int, std::string> bit_names;
  for (const auto& name : bits) {
    bit_names.emplace(col(name), name);
    if (own.count(col(name))) bit_names.emplace(n + col(name), name + "#2");
  }
  std::set<int> split;  // the open bits on both rows, and the shared bits of the constraints that name an open column
  std::set<int> open_ids;
  for (const auto& name : left) open_ids.insert(col(name)), open_ids.insert(n + col(name));
  for (const auto& p : holds) {
    const bool names = std::any_of(p.begin(), p.end(), [&](const auto& mc) {
      return std::any_of(mc.first.begin(), mc.first.end(), [&](int v) { return open_ids.count(v) > 0; });
    });
    if (!names) continue;
    for (const auto& [m, c] : p)
      for (const int v : m)
        if (bit_names.count(v) && (open_ids.count(v) || v < n)) split.insert(v);
  }
  if (split.size() > 20) {  // more cases than the cap allows, as a rule: not worth listing them
    if (progress) progress(t.name + ": values: " + std::to_string(split.size()) + " bits to split, not asked");
    return {};
  }
  BitCases cases(bit_names, timeout_ms);
  for (const auto& p : holds)
    if (cases.over_bits(p)) cases.require(cases.zero_mod_p(p));
  // (the multiplicities are the same on both rows: x interacts where y does)
  cases.require_row(real && col("is_real") >= 0 && bits.count("is_real") ? col("is_real") : -1, interacting, px.buses);
  std::string why;
  const auto listed = cases.each(split, 256, why);
  if (!listed) {
    if (progress) progress(t.name + ": values: " + why + " (" + std::to_string(split.size()) + " bits split)");
    return {};
  }
  // the bounds that hold on each row where its interactions are active (as the differences take them)
  const TableFacts facts{t, nullptr};
  auto bounds_in = [&](const PlacePolys& pp, const std::map<int, uint64_t>& value, std::map<int, double>& bound) {
    for (const auto& [id, name] : bit_names) bound[id] = 2;
    for (const auto& b : pp.buses) {
      if (!b.mult) continue;
      const Poly m = substitute(*b.mult, value);
      if (!(m.size() == 1 && m.begin()->first.empty())) continue;  // not a nonzero constant
      const auto& bi = *b.b;
      if (bi.mult && !facts.nonnegative(*bi.mult)) continue;
      for (size_t i = 0; i < bi.tuple.size(); ++i) {
        uint64_t k = 0;
        if (bi.send && (bi.bus == "byte" || bi.bus == "and8")) k = 256;
        else if (bi.send && bi.bus == "range16") k = 65536;
        else if (const auto it = carried.find(std::make_tuple(bi.bus, bi.send, i)); it != carried.end() && !is_lookup(bi.bus)) k = it->second;
        if (!k || k == kNoBound || bi.tuple[i]->op != Expr::Op::kColumn || !b.tuple[i] || b.tuple[i]->size() != 1) continue;
        const Mono& mono = b.tuple[i]->begin()->first;
        if (mono.size() != 1 || b.tuple[i]->begin()->second != 1) continue;
        auto [it, fresh] = bound.emplace(mono[0], static_cast<double>(k));
        if (!fresh) it->second = std::min(it->second, static_cast<double>(k));
      }
    }
  };
  // one case: propagate; false where it has no solution. `sub` holds what each variable that is
  // solved for is, an affine form of the variables that are not (a constant where it is fixed)
  auto propagate = [&](std::map<int, Poly>& sub) {
    auto reduce = [&](const Poly& p) { return compose(p, sub); };
    auto solve_for = [&](int v, const Poly& q) {  // q = a v + rest = 0, q reduced and affine: v = -rest / a
      const uint64_t inv = field_inverse(q.at(Mono{v}));
      Poly form;
      for (const auto& [m, c] : q)
        if (m != Mono{v}) add_term(form, m, field_neg(field_mul(c, inv)));
      const std::map<int, Poly> one{{v, form}};
      for (auto& [w, f] : sub) f = compose(f, one);
      sub[v] = std::move(form);
    };
    for (;;) {
      // the values fixed so far (for the multiplicities) and the bounds they make hold
      std::map<int, uint64_t> value;
      for (const auto& [v, f] : sub)
        if (f.empty()) value[v] = 0;
        else if (f.size() == 1 && f.begin()->first.empty()) value[v] = f.begin()->second;
      std::map<int, double> bound;
      bounds_in(px, value, bound);
      bounds_in(py, value, bound);
      for (const auto& [v, k] : value)
        if (const auto it = bound.find(v); it != bound.end() && static_cast<double>(k) >= it->second) return false;
      // what holds: the equations, and the tuples of the interactions active on both rows (not lookups)
      std::vector<Poly> all;
      for (const auto& p : holds) all.push_back(reduce(p));
      auto nonzero = [&](const std::optional<Poly>& mult) {
        if (!mult) return false;
        const Poly m = substitute(*mult, value);
        return m.size() == 1 && m.begin()->first.empty();
      };
      for (size_t j = 0; j < px.buses.size(); ++j) {
        const auto &bx = px.buses[j], &by = py.buses[j];
        if (is_lookup(bx.b->bus) || !nonzero(bx.mult)) continue;
        const Role role = role_of(spec, outputs, reads, *bx.b);
        const std::set<size_t>& outs = role.outputs;
        auto same = [&](size_t i) { return reduce(minus(*bx.tuple[i], *by.tuple[i])); };
        auto known = [&](size_t i) { return bx.tuple[i] && by.tuple[i]; };
        if (role.own) {  // the row's own request or read: its answer where both ask the same
          if (outs.empty() || !nonzero(by.mult)) continue;
          bool asked_same = true;
          for (size_t i = 0; i < bx.tuple.size() && asked_same; ++i)
            if (!outs.count(i)) asked_same = known(i) && same(i).empty();
          if (asked_same)
            for (const size_t i : outs)
              if (known(i)) all.push_back(same(i));
          continue;
        }
        for (size_t i = 0; i < bx.tuple.size(); ++i)
          if (known(i) && !outs.count(i)) all.push_back(same(i));
      }
      auto affine = [](const Poly& q) { return std::all_of(q.begin(), q.end(), [](const auto& mc) { return mc.first.size() <= 1; }); };
      // a nonzero constant: no solution; one variable: its value
      bool done = false;
      for (const auto& q : all) {
        if (q.size() == 1 && q.begin()->first.empty()) return false;
        if (!q.empty() && affine(q) && q.size() <= 2 && !q.rbegin()->first.empty() && (q.size() == 1 || q.begin()->first.empty())) {
          solve_for(q.rbegin()->first[0], q);
          done = true;
          break;
        }
      }
      if (done) continue;
      // one sign, bounded: an equation over the integers
      for (const auto& q : all) {
        if (q.empty() || !affine(q)) continue;
        uint64_t constant = 0;
        if (const auto it = q.find(Mono{}); it != q.end()) constant = it->second;
        double reach = std::fabs(static_cast<double>(signed_value(constant)));
        int sign = signed_value(constant) > 0 ? 1 : signed_value(constant) < 0 ? -1 : 0;
        bool same_sign = true;
        for (const auto& [m, c] : q) {
          if (m.empty()) continue;
          const int64_t k = signed_value(c);
          const auto it = bound.find(m[0]);
          const int s = k > 0 ? 1 : -1;
          if (it == bound.end() || (sign != 0 && s != sign)) {
            same_sign = false;
            break;
          }
          sign = s;
          reach += std::fabs(static_cast<double>(k)) * (it->second - 1);
        }
        if (!same_sign || reach >= kPDouble / 2) continue;
        if (constant != 0) return false;  // a sum of terms of one sign, not 0, is not 0
        for (const auto& [m, c] : q)
          if (!m.empty()) solve_for(m[0], Poly{{m, 1}});
        done = true;
        break;
      }
      if (done) continue;
      // an affine equation in several variables: solve it for one (the newest)
      for (const auto& q : all)
        if (!q.empty() && affine(q)) {
          solve_for(q.rbegin()->first[0], q);
          done = true;
          break;
        }
      if (!done) return true;
    }
  };
  std::set<std::string> candidates = left;
  size_t impossible = 0;
  for (const auto& one : *listed) {
    std::map<int, Poly> sub;
    for (const auto& [v, k] : one) sub[v] = k ? Poly{{Mono{}, k}} : Poly{};
    if (!propagate(sub)) {
      ++impossible;
      continue;
    }
    for (auto it = candidates.begin(); it != candidates.end();) {
      const int c = col(*it);
      bool equal = compose(Poly{{Mono{c}, 1}}, sub) == compose(Poly{{Mono{n + c}, 1}}, sub);
      if (const auto m = px.unless.find(*it); !equal && m != px.unless.end() && m->second)
        equal = compose(*m->second, sub).empty();  // not asked in this case
      it = equal ? std::next(it) : candidates.erase(it);
    }
  }
  if (progress) {
    std::string names;
    for (const int v : split) names += " " + bit_names.at(v);
    progress(t.name + ": values: " + std::to_string(listed->size()) + " cases of" + names + ", " + std::to_string(impossible) +
             " without a solution; shown equal: " + std::to_string(candidates.size()));
  }
  return candidates;
}

struct Steps {
  std::vector<std::string> left;  // not shown equal, and no witness found
  std::vector<std::string> free;  // a second witness differs in this column alone
  std::vector<Assignment> first, second;  // the witness of free.front()
};
Steps unique_by_steps(const spec::air::Spec& spec, const Table& t, bool has_prev, bool has_next, bool real,
                      const Options& options) {
  z3::context ctx;
  Encoder enc(ctx, spec, t, carried_bounds(spec, t.name, nullptr));
  enc.use_reduced_products();
  // the bit columns are bits on every row (their constraints hold on each): a product with a
  // bit factor is then stated as a gated copy of the other factor, linear in it
  std::set<std::string> bits;
  for (const auto& col : t.columns)
    if (TableFacts{t, nullptr}.is_bit(col.name)) bits.insert(col.name);
  enc.use_ranges(bits);
  const auto x = enc.row(""), y = enc.row("#2"), prev = enc.row("^"), next = enc.row("'");
  z3::expr bit_rows = ctx.bool_val(true);
  for (const auto* r : {&x, &y, &prev, &next})
    for (const auto& b : bits) {
      const z3::expr& v = (*r)[static_cast<size_t>(t.column_index(b))];
      bit_rows = bit_rows && (v == 0 || v == 1);
    }
  const std::vector<z3::expr>* nx_x = has_next ? &next : &x;
  const std::vector<z3::expr>* nx_y = has_next ? &next : &y;
  auto names_of = [](const Expr& e, std::set<std::string>& out) {
    spec::air::names(e, [&](const std::string& n, bool) { out.insert(n); });
  };
  std::vector<std::set<std::string>> c_cols(t.constraints.size()), b_cols(t.buses.size());
  for (size_t i = 0; i < t.constraints.size(); ++i) names_of(*t.constraints[i].expr, c_cols[i]);
  for (size_t j = 0; j < t.buses.size(); ++j) {
    if (t.buses[j].mult) names_of(*t.buses[j].mult, b_cols[j]);
    for (const auto& el : t.buses[j].tuple) names_of(*el, b_cols[j]);
  }
  // the items: what each constraint says in this place (on x and y), what each interaction does
  std::vector<z3::expr> c_item, b_item;
  for (size_t i = 0; i < t.constraints.size(); ++i) {
    const auto& c = t.constraints[i];
    std::vector<bool> one(t.constraints.size(), false);
    one[i] = true;
    z3::expr e = ctx.bool_val(true);
    for (const auto* row : {&x, &y}) {
      e = e && enc.constraints(Rows::kEvery, nullptr, *row, nullptr, &one);
      if (has_next) e = e && enc.constraints(Rows::kTransition, nullptr, *row, &next, &one);
      if (has_prev) e = e && enc.constraints(Rows::kTransition, nullptr, prev, row, &one);
      if (!has_prev) e = e && enc.constraints(Rows::kFirst, nullptr, *row, has_next ? &next : row, &one);
      if (!has_next) e = e && enc.constraints(Rows::kLast, nullptr, *row, nullptr, &one);
    }
    // and where it applies, what primality gives (same_but_one)
    switch (c.rows) {
      case Rows::kEvery: e = e && same_but_one(enc, t, *c.expr, x, y, false, x, nullptr); break;
      case Rows::kTransition:
        if (has_next) e = e && same_but_one(enc, t, *c.expr, x, y, false, x, &next);
        if (has_prev) e = e && same_but_one(enc, t, *c.expr, x, y, true, prev, &x);
        break;
      case Rows::kFirst:
        if (!has_prev && has_next) e = e && same_but_one(enc, t, *c.expr, x, y, false, x, &next);
        break;  // a one-row table's next row is the row itself: left out
      case Rows::kLast:
        if (!has_next) e = e && same_but_one(enc, t, *c.expr, x, y, false, x, nullptr);
        break;
    }
    c_item.push_back(e);
  }
  z3::expr interacts = ctx.bool_val(false);
  for (size_t j = 0; j < t.buses.size(); ++j) {
    const auto& b = t.buses[j];
    std::vector<bool> one(t.buses.size(), false);
    one[j] = true;
    const z3::expr mx = enc.mult(b, x, nx_x);
    if (!is_lookup(b.bus) || !b.send) interacts = interacts || mx != 0;
    b_item.push_back(same_interaction(enc, b, x, nx_x, y, nx_y, as_function(options), role_of(spec, options.outputs, options.reads, b)) &&
                     enc.lookups(x, nx_x, &one) &&
                     enc.lookups(y, nx_y, &one));
  }
  z3::solver s(ctx);
  z3::params params(ctx);
  params.set("timeout", std::min(options.timeout_ms, 2000u));
  s.set(params);
  s.add(enc.domain() && bit_rows);
  if (options.interacting) s.add(interacts);
  if (real) {  // an interacting row is real (padding_silent)
    const size_t c = static_cast<size_t>(t.column_index("is_real"));
    s.add(x[c] == 1 && y[c] == 1);
  }
  std::set<std::string> left;
  for (size_t c = 0; c < t.columns.size(); ++c) {
    if (t.columns[c].kind == spec::air::ColumnKind::kPreprocessed) s.add(x[c] == y[c]);
    else left.insert(t.columns[c].name);
  }
  // One question: may x and y differ in a column of `cols`, given the items that name one of
  // them? Narrow: only the items whose columns left are all in `cols`; wide: also the items that
  // name a column left that those name, and so on (what the columns not yet shown equal connect).
  enum Reach { kNarrow, kTouch, kWide };
  auto differ = [&](const std::set<std::string>& cols, Reach how = kTouch, unsigned cap_ms = 2000) {
    const bool wide = how == kWide;
    std::set<std::string> reach = cols;
    auto touches = [&](const std::set<std::string>& a) {
      const bool hit = std::any_of(a.begin(), a.end(), [&](const std::string& n) { return reach.count(n) > 0; });
      return hit && (how != kNarrow ||
                     std::all_of(a.begin(), a.end(), [&](const std::string& n) { return !left.count(n) || cols.count(n); }));
    };
    std::vector<bool> c_in(c_item.size(), false), b_in(b_item.size(), false);
    for (bool grew = true; grew;) {
      grew = false;
      auto take = [&](const std::set<std::string>& names, std::vector<bool>& in, size_t k) {
        if (in[k] || !touches(names)) return;
        in[k] = true;
        for (const auto& n : names)
          if (wide && left.count(n) && reach.insert(n).second) grew = true;
      };
      for (size_t i = 0; i < c_item.size(); ++i) take(c_cols[i], c_in, i);
      for (size_t j = 0; j < b_item.size(); ++j) take(b_cols[j], b_in, j);
    }
    s.push();
    for (size_t i = 0; i < c_item.size(); ++i)
      if (c_in[i]) s.add(c_item[i]);
    for (size_t j = 0; j < b_item.size(); ++j)
      if (b_in[j]) s.add(b_item[j]);
    z3::expr d = ctx.bool_val(false);
    for (const auto& n : cols) {
      const size_t c = static_cast<size_t>(t.column_index(n));
      d = d || (x[c] != y[c] && asked_where(enc, t, n, x, has_next ? &next : nullptr));
    }
    s.add(d);
    // a single column at most 2 s (there are many); a group, the whole bound
    params.set("timeout", cols.size() == 1 && how != kWide ? std::min(options.timeout_ms, cap_ms) : options.timeout_ms);
    s.set(params);
    const z3::check_result r = s.check();
    s.pop();
    return r;
  };
  auto settle = [&](const std::string& n) {
    const size_t c = static_cast<size_t>(t.column_index(n));
    s.add(z3::implies(asked_where(enc, t, n, x, has_next ? &next : nullptr), x[c] == y[c]));
    left.erase(n);
  };
  // a column is asked again only when a column that shares an item with it has been shown equal
  std::map<std::string, std::set<std::string>> near;
  for (const auto* items : {&c_cols, &b_cols})
    for (const auto& names : *items)
      for (const auto& a : names)
        for (const auto& b : names) near[a].insert(b);
  std::set<std::string> dirty = left;
  auto settled = [&](const std::string& n) {
    settle(n);
    for (const auto& m : near[n])
      if (left.count(m)) dirty.insert(m);
  };
  const Carried carried = carried_bounds(spec, t.name, nullptr);
  for (bool progress = true; progress && !left.empty();) {
    progress = false;
    // first what is quick: each column near one shown equal, alone for a quarter second (a
    // column that a bus fixes: the selectors, the operands), then the differences; the slower
    // questions only where those show nothing more
    const size_t before = left.size();
    for (const auto& n : std::vector<std::string>(dirty.begin(), dirty.end()))
      if (left.count(n) && differ({n}, kTouch, 250) == z3::unsat) settled(n), dirty.erase(n);
    std::set<std::string> shown_marked;
    for (const auto& m : t.free)
      if (!left.count(m.column)) shown_marked.insert(m.column);
    for (const auto& n : settled_by_differences(spec, t, has_prev, has_next, real, options.interacting, left, shown_marked, bits,
                                                carried, options.outputs, options.reads, options.timeout_ms, options.progress))
      settled(n);
    if (left.size() == before)  // then the values, case by case
      for (const auto& n : settled_by_values(spec, t, has_prev, has_next, real, options.interacting, left, bits, carried,
                                             options.outputs, options.reads, options.timeout_ms, options.progress))
        settled(n);
    if (options.progress) options.progress(t.name + ": " + std::to_string(left.size()) + " columns left after the differences");
    if (left.size() < before) {
      progress = true;
      continue;
    }
    while (!dirty.empty()) {
      const std::string n = *dirty.begin();
      dirty.erase(dirty.begin());
      if (left.count(n) && differ({n}) == z3::unsat) settled(n), progress = true;
    }
    // then the columns left that one constraint names together (limbs of one value, a flag and
    // its inverse witness, a one-hot group of flags), at most sixteen at a time: with the items
    // that name them, then with what the columns left connect
    std::set<std::set<std::string>> asked[3];  // each group once per pass
    for (const Reach how : {kNarrow, kTouch, kWide})
      for (size_t i = 0; i < t.constraints.size() && !progress; ++i) {
        std::set<std::string> together;
        for (const auto& n : c_cols[i])
          if (left.count(n)) together.insert(n);
        if (together.size() < (how == kWide ? 1 : 2) || together.size() > 16) continue;
        if (!asked[how].insert(together).second) continue;
        if (differ(together, how) != z3::unsat) continue;
        for (const auto& n : together) settled(n);
        progress = true;
      }
    if (!progress && !left.empty() && differ(left) == z3::unsat) left.clear();  // the rest together
    if (options.progress) {
      std::string names;
      for (const auto& n : left) names += " " + n;
      options.progress(t.name + ": " + std::to_string(left.size()) + " columns left" + (left.size() <= 40 ? ":" + names : ""));
    }
  }
  Steps out;
  if (left.size() > 30) {  // too many to ask one by one
    out.left.assign(left.begin(), left.end());
    return out;
  }
  for (const auto& n : left) {  // free alone?
    s.push();
    for (const auto& e : c_item) s.add(e);
    for (const auto& e : b_item) s.add(e);
    for (size_t c = 0; c < t.columns.size(); ++c)
      if (t.columns[c].name != n) s.add(x[c] == y[c]);
    const size_t c = static_cast<size_t>(t.column_index(n));
    s.add(x[c] != y[c] && asked_where(enc, t, n, x, has_next ? &next : nullptr));
    // small values first (below 2^20, a witness search the solver settles fast), then any
    s.push();
    for (size_t k = 0; k < t.columns.size(); ++k) s.add(x[k] < (1 << 20) && y[k] < (1 << 20));
    params.set("timeout", std::min(options.timeout_ms / 4 + 1, 2000u));
    s.set(params);
    z3::check_result r = s.check();
    const bool small = r == z3::sat;
    if (!small) {
      s.pop();
      params.set("timeout", options.timeout_ms);
      s.set(params);
      r = s.check();
    }
    if (r == z3::sat) {
      if (out.free.empty()) collect(s.get_model(), x, out.first), collect(s.get_model(), y, out.second);
      out.free.push_back(n);
    } else {
      out.left.push_back(n);
    }
    if (small) s.pop();
    s.pop();
  }
  return out;
}

}  // namespace

Uniqueness unique(const spec::air::Spec& spec, const std::string& table, const Options& options) {
  const Table& t = find_table(spec, table);
  check_outputs(spec, options.outputs);
  check_outputs(spec, options.reads);
  Timer timer;
  Uniqueness u{table, Verdict::kImplied, 0, {}, {}, {}, {}};
  for (const auto& m : t.free) u.but += (u.but.empty() ? "" : "; ") + m.column + " unless " + spec::air::to_string(*m.unless);
  if (options.interacting &&
      std::none_of(t.buses.begin(), t.buses.end(), [](const spec::air::BusInteraction& b) { return !is_lookup(b.bus) || !b.send; })) {
    u.verdict = Verdict::kUnknown;  // no row interacts: "unique" would say nothing
    u.place = "no interaction but lookup sends, so no row counts as interacting";
    return u;
  }
  // Two candidate rows x and y in the same place of the same trace: the same previous row (if
  // any: transitions into x and y hold) and next row (if any: transitions out of them hold), the
  // same multiplicity on every interaction and the same tuple where it is nonzero (a zero
  // multiplicity fixes nothing). Four places: interior, first, last, and the only row.
  struct Place {
    const char* name;
    bool prev, next;
  };
  std::optional<bool> real;  // asked once, when a place needs it
  for (const Place& pl : {Place{"an interior row", true, true}, Place{"the first row", false, true},
                          Place{"the last row", true, false}, Place{"a one-row table", false, false}}) {
    z3::context ctx;
    Encoder enc(ctx, spec, t, carried_bounds(spec, table, nullptr));
    const auto x = enc.row(""), y = enc.row("#2"), prev = enc.row("^"), next = enc.row("'");
    z3::solver s(ctx);
    z3::params params(ctx);
    params.set("timeout", options.timeout_ms);
    s.set(params);
    for (const auto* row : {&x, &y}) {
      const std::vector<z3::expr>* nx = pl.next ? &next : (pl.prev ? nullptr : row);
      s.add(enc.constraints(Rows::kEvery, nullptr, *row, nullptr));
      if (pl.next) s.add(enc.constraints(Rows::kTransition, nullptr, *row, &next));
      if (pl.prev) s.add(enc.constraints(Rows::kTransition, nullptr, prev, row));
      if (!pl.prev) s.add(enc.constraints(Rows::kFirst, nullptr, *row, pl.next ? &next : row));
      if (!pl.next) s.add(enc.constraints(Rows::kLast, nullptr, *row, nullptr));
      s.add(enc.lookups(*row, nx));
    }
    if (pl.next) s.add(enc.constraints(Rows::kEvery, nullptr, next, nullptr) && enc.lookups(next, nullptr));
    if (pl.prev) s.add(enc.constraints(Rows::kEvery, nullptr, prev, nullptr) && enc.lookups(prev, &x));
    s.add(enc.domain());
    const std::vector<z3::expr>* nx_x = pl.next ? &next : &x;
    const std::vector<z3::expr>* nx_y = pl.next ? &next : &y;
    z3::expr interacts = ctx.bool_val(false);
    for (const auto& b : t.buses) {
      if (!is_lookup(b.bus) || !b.send) interacts = interacts || enc.mult(b, x, nx_x) != 0;
      s.add(same_interaction(enc, b, x, nx_x, y, nx_y, as_function(options), role_of(spec, options.outputs, options.reads, b)));
    }
    if (options.interacting) s.add(interacts);
    // preprocessed columns are the verifier's: the same in both; a main column may differ
    z3::expr differs = ctx.bool_val(false);
    for (size_t c = 0; c < x.size(); ++c) {
      if (t.columns[c].kind == spec::air::ColumnKind::kPreprocessed) s.add(x[c] == y[c]);
      else differs = differs || (x[c] != y[c] && asked_where(enc, t, t.columns[c].name, x, pl.next ? &next : nullptr));
    }
    s.add(differs);
    const z3::check_result res = options.by_columns ? z3::unknown : s.check();
    if (res == z3::unsat) continue;
    if (res == z3::sat) {
      u.verdict = Verdict::kAttack;
      u.place = pl.name;
      const z3::model m = s.get_model();
      collect(m, x, u.first);
      collect(m, y, u.second);
      break;
    }
    // no answer for the whole rows: column by column
    if (!real) {
      real = options.interacting && t.column_index("is_real") >= 0 && TableFacts{t, nullptr}.is_bit("is_real");
      for (const auto& a : real ? padding_silent(spec, table, options) : std::vector<Answer>{})
        real = *real && a.verdict == Verdict::kImplied;
    }
    const Steps st = unique_by_steps(spec, t, pl.prev, pl.next, *real, options);
    auto list = [](const std::vector<std::string>& v) {
      std::string o;
      for (const auto& n : v) o += (o.empty() ? "" : " ") + n;
      return o;
    };
    if (!st.free.empty()) {
      u.verdict = Verdict::kAttack;
      u.place = std::string(pl.name) + "; free alone: " + list(st.free) + (st.left.empty() ? "" : "; not shown: " + list(st.left));
      u.first = st.first, u.second = st.second;
      break;
    }
    if (st.left.empty()) continue;
    u.verdict = Verdict::kUnknown;
    u.place = std::string(pl.name) + "; by columns, not shown: " + list(st.left);
    break;
  }
  u.seconds = timer.seconds();
  return u;
}

std::string format(const Answer& a) {
  std::ostringstream o;
  o << a.id << "  " << (a.padding && a.verdict == Verdict::kImplied ? "none" : verdict_name(a.verdict));
  o.setf(std::ios::fixed);
  o.precision(2);
  o << " (" << a.seconds << " s)";
  if (a.verdict == Verdict::kAttack) {
    o << ": " << a.scenario << ";";
    for (const auto& v : a.model) o << ' ' << v.column << '=' << v.shown;
  } else if (a.verdict == Verdict::kUnknown) {
    o << ": " << (a.scenario.find("padding row is") != std::string::npos || a.scenario.find("no repeated") != std::string::npos ||
                          a.scenario.find("the row is not") != std::string::npos || a.scenario.rfind("descent", 0) == 0 ||
                          a.scenario.rfind("once", 0) == 0
                      ? a.scenario
                      : "no answer within the time bound (" + a.scenario + ")");
  } else if (a.padding) {
    o << (a.scenario == "a padding row" ? ": no padding row breaks it alone" : ": no small change of the row breaks it alone");
  }
  return o.str();
}

std::string format(const Uniqueness& u) {
  std::ostringstream o;
  o << u.table << "  " << (u.verdict == Verdict::kImplied ? "unique" : u.verdict == Verdict::kAttack ? "second witness" : "unknown");
  o.setf(std::ios::fixed);
  o.precision(2);
  o << " (" << u.seconds << " s)";
  if (u.verdict != Verdict::kImplied) o << ": " << u.place;
  else if (!u.but.empty()) o << ": but for " << u.but;
  if (u.verdict == Verdict::kAttack) {
    o << "; row";
    for (const auto& v : u.first) o << ' ' << v.column << '=' << v.shown;
    o << "; other row";
    for (const auto& v : u.second) o << ' ' << v.column << '=' << v.shown;
  }
  return o.str();
}

}  // namespace zkrv::air_solve
