#include "tools/air_solve/solve.h"

#include <z3++.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

namespace zkrv::air_solve {
namespace {

using spec::air::Expr;
using spec::air::Rows;
using spec::air::Table;

const char* const kP = "18446744069414584321";  // 2^64 - 2^32 + 1
const uint64_t kNoBound = ~uint64_t{0};            // a value anywhere in [0, p)
const uint64_t kPValue = 0xffffffff00000001ull;
const uint64_t kHalfP = kPValue / 2;

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
    if (e.op == Expr::Op::kConst) return true;
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

// Bounds that a bus carries from one side to the other. On a bus where every interaction of
// every table has a non-negative integer multiplicity (without `skip` in `table`), LogUp's sum
// makes the received tuples, counted with multiplicity, the sent ones: a received field is below
// the largest bound its senders enforce, and a sent field below the largest its receivers
// enforce. (bus, side of the interaction that may assume it, field) -> bound; only finite ones.
using Carried = std::map<std::tuple<std::string, bool, size_t>, uint64_t>;
Carried carried_bounds(const spec::air::Spec& spec, const std::string& table, const std::string* skip) {
  std::map<std::string, bool> usable;
  std::map<std::tuple<std::string, bool, size_t>, uint64_t> side;  // (bus, send, field) -> max bound of that side
  for (const auto& t : spec.tables) {
    const TableFacts f{t, t.name == table ? skip : nullptr};
    for (const auto& b : t.buses) {
      auto [it, fresh] = usable.emplace(b.bus, true);
      if (b.mult && !f.nonnegative(*b.mult)) it->second = false;
      for (size_t i = 0; i < b.tuple.size(); ++i) {
        const uint64_t k = f.bound(*b.tuple[i], b.mult.get());
        auto [at, first] = side.emplace(std::make_tuple(b.bus, b.send, i), k);
        if (!first) at->second = std::max(at->second, k);
      }
    }
  }
  Carried out;
  for (const auto& [key, k] : side) {
    const auto& [bus, send, field] = key;
    if (!usable[bus] || k == kNoBound) continue;
    // a bound the senders enforce is the receivers' to assume, and the other way round; a side
    // with no interactions at all carries nothing (the verifier adds those tuples)
    out[std::make_tuple(bus, !send, field)] = k;
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
      case Expr::Op::kColumn: return local.at(static_cast<size_t>(t_.column_index(e.name)));
      case Expr::Op::kNext:
        if (!next) throw std::logic_error("a next-row reference where there is no next row: " + e.name);
        return next->at(static_cast<size_t>(t_.column_index(e.name)));
      case Expr::Op::kPublic: return publics_.at(e.name);
      case Expr::Op::kNeg: return -term(*e.args[0], local, next);
      case Expr::Op::kPow: {
        z3::expr base = term(*e.args[0], local, next), r = ctx_.int_val(1);
        for (uint64_t k = 0; k < e.value; ++k) r = r * base;
        return r;
      }
      case Expr::Op::kAdd: return term(*e.args[0], local, next) + term(*e.args[1], local, next);
      case Expr::Op::kSub: return term(*e.args[0], local, next) - term(*e.args[1], local, next);
      case Expr::Op::kMul: return term(*e.args[0], local, next) * term(*e.args[1], local, next);
    }
    throw std::logic_error("unknown expression node");
  }
  z3::expr reduced(const z3::expr& v) const { return z3::mod(v, p_); }
  void use_signed_constants() { signed_constants_ = true; }
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
    return reduced(term(e, local, next)) == 0;
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

  // A constant, a column that a constraint other than `skip` makes a bit, or a sum of those.
  bool nonnegative(const Expr& e, const std::string* skip) const {
    if (e.op == Expr::Op::kConst) return true;
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
      all = all && holds(*c.expr, local, next) && some_factor_zero(*c.expr, local, next);
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
    std::vector<const Expr*> factors;
    std::function<void(const Expr&)> flatten = [&](const Expr& x) {
      if (x.op == Expr::Op::kMul) flatten(*x.args[0]), flatten(*x.args[1]);
      else if (x.op == Expr::Op::kNeg) flatten(*x.args[0]);
      else factors.push_back(&x);
    };
    flatten(e);
    if (factors.size() < 2) return ctx_.bool_val(true);
    z3::expr any = ctx_.bool_val(false);
    for (const Expr* f : factors) any = any || (ml ? holds_bounded(*f, local, next, *ml, mn) : holds(*f, local, next));
    return any;
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

struct Timer {
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); }
};

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
  // First the constraints and lookups that share a column with C (its neighbourhood): if they
  // alone rule out a violation, so do all of them. Otherwise the whole table, which also gives
  // the attack.
  std::set<std::string> near_cols;
  spec::air::names(*target->expr, [&](const std::string& n, bool) { near_cols.insert(n); });
  auto mentions = [&](const Expr& e) {
    bool hit = false;
    spec::air::names(e, [&](const std::string& n, bool) { hit = hit || near_cols.count(n); });
    return hit;
  };
  std::vector<bool> near_c(t.constraints.size()), near_b(t.buses.size());
  for (size_t i = 0; i < t.constraints.size(); ++i) near_c[i] = mentions(*t.constraints[i].expr);
  for (size_t i = 0; i < t.buses.size(); ++i) {
    bool hit = t.buses[i].mult && mentions(*t.buses[i].mult);
    for (const auto& el : t.buses[i].tuple) hit = hit || mentions(*el);
    near_b[i] = hit;
  }
  // Before them, the few smallest neighbours alone (a definition and its inverse often settle a
  // bit between them): the k neighbouring constraints with the fewest columns, k = 1..6, no
  // lookups, at most 0.2 s each.
  std::vector<size_t> by_size;
  for (size_t i = 0; i < t.constraints.size(); ++i)
    if (near_c[i] && t.constraints[i].id != target->id) by_size.push_back(i);
  auto width = [&](size_t i) {
    std::set<std::string> cols;
    spec::air::names(*t.constraints[i].expr, [&](const std::string& n, bool) { cols.insert(n); });
    return cols.size();
  };
  std::stable_sort(by_size.begin(), by_size.end(), [&](size_t a, size_t b) { return width(a) < width(b); });
  std::vector<std::vector<bool>> few_c;
  for (size_t k = 1; k <= std::min<size_t>(6, by_size.size()); ++k) {
    std::vector<bool> pick(t.constraints.size(), false);
    for (size_t j = 0; j < k; ++j) pick[by_size[j]] = true;
    few_c.push_back(pick);
  }
  const std::vector<bool> no_b(t.buses.size(), false);
  bool unknown = false;
  for (const Scenario& sc : scenarios) {
    bool settled = false;
    const int first_pass = -static_cast<int>(few_c.size());
    for (int pass = first_pass; pass < 2 && !settled; ++pass) {
      const std::vector<bool>* oc = pass < 0 ? &few_c[static_cast<size_t>(pass - first_pass)] : pass == 0 ? &near_c : nullptr;
      const std::vector<bool>* ob = pass < 0 ? &no_b : pass == 0 ? &near_b : nullptr;
      z3::context ctx;
      Encoder enc(ctx, spec, t, carried_bounds(spec, table, &target->id));
      const auto r = enc.row(""), n = enc.row("'");
      z3::solver s(ctx);
      z3::params params(ctx);
      params.set("timeout", pass < 0 ? std::min(options.timeout_ms / 4 + 1, 200u)
                            : pass == 0 ? std::min(options.timeout_ms / 4 + 1, 2000u)
                                        : options.timeout_ms);
      s.set(params);
      const std::string* skip = &target->id;
      const std::vector<z3::expr>& bad = sc.violate_next ? n : r;  // the row that breaks C
      if (sc.pair) {
        // C is assumed only on r when r' breaks it (r comes first); never on r'
        s.add(enc.constraints(Rows::kEvery, sc.violate_next ? nullptr : skip, r, nullptr, oc));
        s.add(enc.constraints(Rows::kEvery, skip, n, nullptr, oc));
        s.add(enc.constraints(Rows::kTransition, skip, r, &n, oc));
        if (target->rows == Rows::kFirst) s.add(enc.constraints(Rows::kFirst, skip, r, &n, oc));
        if (sc.violate_next) s.add(enc.constraints(Rows::kLast, skip, n, nullptr, oc));
        s.add(enc.lookups(r, &n, ob, skip));
        s.add(enc.lookups(n, nullptr, ob, skip));
      } else {
        // one row, both first and last; no transitions (a next-row reference here is to itself)
        s.add(enc.constraints(Rows::kEvery, skip, r, nullptr, oc));
        s.add(enc.constraints(Rows::kFirst, skip, r, &r, oc));
        s.add(enc.constraints(Rows::kLast, skip, r, nullptr, oc));
        s.add(enc.lookups(r, &r, ob, skip));
      }
      s.add(enc.domain());
      const bool pair_c = target->rows == Rows::kTransition;
      s.add(!enc.holds(*target->expr, bad, pair_c ? &n : (sc.pair ? &n : &r)));
      const z3::check_result res = s.check();
      if (res == z3::unsat) {
        settled = true;  // implied here
      } else if (res == z3::sat && pass == 1) {
        answer.verdict = Verdict::kAttack;
        answer.scenario = sc.name;
        answer.violate_next = sc.violate_next;
        const z3::model m = s.get_model();
        collect(m, r, answer.model);
        if (sc.pair) collect(m, n, answer.model);
        std::vector<z3::expr> pubs;
        for (const auto& [name, v] : enc.publics()) pubs.push_back(v);
        collect(m, pubs, answer.model);
        answer.seconds = timer.seconds();
        return answer;
      } else if (res == z3::unknown && pass == 1) {
        unknown = true;
        answer.scenario = sc.name;
      }
    }
  }
  if (unknown) answer.verdict = Verdict::kUnknown;
  answer.seconds = timer.seconds();
  return answer;
}

namespace {

// The buses whose receiver is a fixed table with a multiplicity column (count_lookups).
bool is_lookup(const std::string& bus) {
  for (const char* b : {"byte", "range16", "and8", "program", "segment", "image", "pow2"})
    if (bus == b) return true;
  return false;
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
        a = a && enc.holds_bounded(*c.expr, local, nx, ml, mn) && enc.some_factor_zero(*c.expr, local, nx, &ml, mn);
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

Uniqueness unique(const spec::air::Spec& spec, const std::string& table, const Options& options) {
  const Table& t = find_table(spec, table);
  Timer timer;
  Uniqueness u{table, Verdict::kImplied, 0, {}, {}, {}};
  // Two candidate rows x and y in the same place of the same trace: the same previous row (if
  // any: transitions into x and y hold) and next row (if any: transitions out of them hold), the
  // same multiplicity on every interaction and the same tuple where it is nonzero (a zero
  // multiplicity fixes nothing). Four places: interior, first, last, and the only row.
  struct Place {
    const char* name;
    bool prev, next;
  };
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
    for (const auto& b : t.buses) {
      const z3::expr mx = enc.mult(b, x, nx_x), my = enc.mult(b, y, nx_y);
      s.add(mx == my);
      for (const auto& el : b.tuple)
        s.add(z3::implies(mx != 0, enc.reduced(enc.term(*el, x, nx_x)) == enc.reduced(enc.term(*el, y, nx_y))));
    }
    // preprocessed columns are the verifier's: the same in both; a main column may differ
    z3::expr differs = ctx.bool_val(false);
    for (size_t c = 0; c < x.size(); ++c) {
      if (t.columns[c].kind == spec::air::ColumnKind::kPreprocessed) s.add(x[c] == y[c]);
      else differs = differs || x[c] != y[c];
    }
    s.add(differs);
    const z3::check_result res = s.check();
    if (res == z3::unsat) continue;
    if (res == z3::sat) {
      u.verdict = Verdict::kAttack;
      u.place = pl.name;
      const z3::model m = s.get_model();
      collect(m, x, u.first);
      collect(m, y, u.second);
      break;
    }
    u.verdict = Verdict::kUnknown;
    u.place = pl.name;
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
                          a.scenario.find("the row is not") != std::string::npos
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
  if (u.verdict == Verdict::kAttack) {
    o << "; row";
    for (const auto& v : u.first) o << ' ' << v.column << '=' << v.shown;
    o << "; other row";
    for (const auto& v : u.second) o << ' ' << v.column << '=' << v.shown;
  }
  return o.str();
}

}  // namespace zkrv::air_solve
