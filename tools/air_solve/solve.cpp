#include "tools/air_solve/solve.h"

#include <z3++.h>

#include <algorithm>
#include <chrono>
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

// One table's variables and terms in one Z3 context.
class Encoder {
 public:
  Encoder(z3::context& ctx, const spec::air::Spec& spec, const Table& t) : ctx_(ctx), t_(t), p_(ctx.int_val(kP)) {
    for (const auto& pub : spec.publics) publics_.emplace(pub.name, bounded(ctx.int_const(("$" + pub.name).c_str())));
  }

  // A row: one variable per column, named by `suffix` ("" for the row, "'" for the next row,
  // "#2" for a second copy), each in [0, p).
  std::vector<z3::expr> row(const std::string& suffix) {
    std::vector<z3::expr> r;
    for (const auto& c : t_.columns) r.push_back(bounded(ctx_.int_const((c.name + suffix).c_str())));
    return r;
  }

  // The exact integer value of e on (local, next).
  z3::expr term(const Expr& e, const std::vector<z3::expr>& local, const std::vector<z3::expr>* next) const {
    switch (e.op) {
      case Expr::Op::kConst: return ctx_.int_val(std::to_string(e.value).c_str());
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
  z3::expr holds(const Expr& e, const std::vector<z3::expr>& local, const std::vector<z3::expr>* next) const {
    return reduced(term(e, local, next)) == 0;
  }
  z3::expr mult(const spec::air::BusInteraction& b, const std::vector<z3::expr>& local,
                const std::vector<z3::expr>* next) const {
    return b.mult ? reduced(term(*b.mult, local, next)) : ctx_.int_val(1);
  }

  // What the fixed tables enforce on a row's lookups: a byte or range16 send with a nonzero
  // multiplicity has its value in range; an and8 send has its three values below 256.
  z3::expr lookups(const std::vector<z3::expr>& local, const std::vector<z3::expr>* next,
                   const std::vector<bool>* only = nullptr) const {
    z3::expr all = ctx_.bool_val(true);
    for (size_t i = 0; i < t_.buses.size(); ++i) {
      const auto& b = t_.buses[i];
      if (!b.send || (only && !(*only)[i])) continue;
      uint64_t bound = 0;
      if (b.bus == "byte" || b.bus == "and8") bound = 256;
      else if (b.bus == "range16") bound = 65536;
      else continue;
      const z3::expr active = mult(b, local, next) != 0;
      for (const auto& el : b.tuple)
        all = all && z3::implies(active, reduced(term(*el, local, next)) < ctx_.int_val(std::to_string(bound).c_str()));
    }
    return all;
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
      all = all && holds(*c.expr, local, next);
      if (const int b = bit_column(*c.expr); b >= 0) {
        const z3::expr& x = local[static_cast<size_t>(b)];
        all = all && (x == 0 || x == 1);
      }
    }
    return all;
  }

  // The column of a bit constraint x (x - 1), x (1 - x), (x - 1) x or (1 - x) x; -1 otherwise.
  int bit_column(const Expr& e) const {
    if (e.op != Expr::Op::kMul) return -1;
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
      if (!x.empty() && x == y) return t_.column_index(x);
    }
    return -1;
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

  // The row positions where C applies. Each is a pair of rows (r, r'), r' the next row; the
  // violating row is r, r' or the pair. Whatever else holds there is assumed.
  struct Scenario {
    const char* name;
    bool violate_next;  // the violating row is r' (the last row) rather than r
  };
  std::vector<Scenario> scenarios;
  switch (target->rows) {
    case Rows::kEvery: scenarios = {{"a row with a next row", false}, {"the last row", true}}; break;
    case Rows::kTransition: scenarios = {{"a row and the next", false}}; break;
    case Rows::kFirst: scenarios = {{"the first row", false}}; break;
    case Rows::kLast: scenarios = {{"the last row", true}}; break;
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
  bool unknown = false;
  for (const Scenario& sc : scenarios) {
    bool settled = false;
    for (int pass = 0; pass < 2 && !settled; ++pass) {
      const std::vector<bool>* oc = pass == 0 ? &near_c : nullptr;
      const std::vector<bool>* ob = pass == 0 ? &near_b : nullptr;
      z3::context ctx;
      Encoder enc(ctx, spec, t);
      const auto r = enc.row(""), n = enc.row("'");
      z3::solver s(ctx);
      z3::params params(ctx);
      params.set("timeout", pass == 0 ? std::min(options.timeout_ms / 4 + 1, 2000u) : options.timeout_ms);
      s.set(params);
      const std::string* skip = &target->id;
      // every-row constraints on both rows, except C on the violating row
      s.add(enc.constraints(Rows::kEvery, sc.violate_next ? nullptr : skip, r, nullptr, oc));
      s.add(enc.constraints(Rows::kEvery, sc.violate_next ? skip : nullptr, n, nullptr, oc));
      s.add(enc.constraints(Rows::kTransition, target->rows == Rows::kTransition ? skip : nullptr, r, &n, oc));
      if (target->rows == Rows::kFirst) s.add(enc.constraints(Rows::kFirst, skip, r, &n, oc));
      if (sc.violate_next) s.add(enc.constraints(Rows::kLast, target->rows == Rows::kLast ? skip : nullptr, n, nullptr, oc));
      s.add(enc.lookups(r, &n, ob));
      s.add(enc.lookups(n, nullptr, ob));
      s.add(enc.domain());
      const bool pair = target->rows == Rows::kTransition;
      s.add(!enc.holds(*target->expr, sc.violate_next ? n : r, pair ? &n : nullptr));
      const z3::check_result res = s.check();
      if (res == z3::unsat) {
        settled = true;  // implied here
      } else if (res == z3::sat && pass == 1) {
        answer.verdict = Verdict::kAttack;
        answer.scenario = sc.name;
        answer.violate_next = sc.violate_next;
        const z3::model m = s.get_model();
        collect(m, r, answer.model);
        collect(m, n, answer.model);
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

Uniqueness unique(const spec::air::Spec& spec, const std::string& table, const Options& options) {
  const Table& t = find_table(spec, table);
  Timer timer;
  Uniqueness u{table, Verdict::kUnknown, 0, {}, {}};
  z3::context ctx;
  Encoder enc(ctx, spec, t);
  // two rows with the same next row
  const auto x = enc.row(""), y = enc.row("#2"), n = enc.row("'");
  z3::solver s(ctx);
  z3::params params(ctx);
  params.set("timeout", options.timeout_ms);
  s.set(params);
  for (const auto* row : {&x, &y}) {
    s.add(enc.constraints(Rows::kEvery, nullptr, *row, nullptr));
    s.add(enc.constraints(Rows::kTransition, nullptr, *row, &n));
    s.add(enc.lookups(*row, &n));
  }
  s.add(enc.constraints(Rows::kEvery, nullptr, n, nullptr));
  s.add(enc.lookups(n, nullptr));
  s.add(enc.domain());
  // the same interactions: every tuple element and multiplicity
  for (const auto& b : t.buses) {
    s.add(enc.mult(b, x, &n) == enc.mult(b, y, &n));
    for (const auto& el : b.tuple) s.add(enc.reduced(enc.term(*el, x, &n)) == enc.reduced(enc.term(*el, y, &n)));
  }
  z3::expr differs = ctx.bool_val(false);
  for (size_t c = 0; c < x.size(); ++c) differs = differs || x[c] != y[c];
  s.add(differs);
  const z3::check_result res = s.check();
  u.seconds = timer.seconds();
  if (res == z3::unsat) u.verdict = Verdict::kImplied;
  if (res == z3::sat) {
    u.verdict = Verdict::kAttack;
    const z3::model m = s.get_model();
    collect(m, x, u.first);
    collect(m, y, u.second);
  }
  return u;
}

std::string format(const Answer& a) {
  std::ostringstream o;
  o << a.id << "  " << verdict_name(a.verdict);
  o.setf(std::ios::fixed);
  o.precision(2);
  o << " (" << a.seconds << " s)";
  if (a.verdict == Verdict::kAttack) {
    o << ": " << a.scenario << ";";
    for (const auto& v : a.model) o << ' ' << v.column << '=' << v.shown;
  } else if (a.verdict == Verdict::kUnknown) {
    o << ": no answer within the time bound (" << a.scenario << ")";
  }
  return o.str();
}

std::string format(const Uniqueness& u) {
  std::ostringstream o;
  o << u.table << "  " << (u.verdict == Verdict::kImplied ? "unique" : u.verdict == Verdict::kAttack ? "second witness" : "unknown");
  o.setf(std::ios::fixed);
  o.precision(2);
  o << " (" << u.seconds << " s)";
  if (u.verdict == Verdict::kAttack) {
    o << ": row";
    for (const auto& v : u.first) o << ' ' << v.column << '=' << v.shown;
    o << "; other row";
    for (const auto& v : u.second) o << ' ' << v.column << '=' << v.shown;
  }
  return o.str();
}

}  // namespace zkrv::air_solve
