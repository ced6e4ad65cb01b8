// Is constraint C implied by the rest of its table (solve.h, implied)? Asked at each row position
// where C can fail first, by subsets of the table before the whole (a subset that rules out a
// violation settles the position), growing a subset by what its answers break.
#include <z3++.h>

#include <algorithm>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "tools/air_solve/internal.h"
#include "tools/air_solve/solve.h"

namespace zkrv::air_solve {
namespace internal {
namespace {

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
std::vector<Scenario> scenarios_of(Rows rows) {
  switch (rows) {
    case Rows::kEvery: return {{"a row with a next row", true, false}, {"the last row", true, true}, {"a one-row table", false, false}};
    case Rows::kTransition: return {{"a row and the next", true, false}};
    case Rows::kFirst: return {{"the first row", true, false}, {"a one-row table", false, false}};
    case Rows::kLast: return {{"the last row", true, true}, {"a one-row table", false, false}};
  }
  return {};
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

// The table's items (constraints c, interactions b): the columns each names, and its hops from C.
struct Items {
  std::vector<std::set<std::string>> c_cols, b_cols;
  std::vector<size_t> c_hop, b_hop;
};

void cols_of(const Expr& e, std::set<std::string>& out) {
  spec::air::names(e, [&](const std::string& n, bool) { out.insert(n); });
}
bool touches(const std::set<std::string>& a, const std::set<std::string>& b) {
  for (const auto& x : a)
    if (b.count(x)) return true;
  return false;
}
size_t count_of(const std::vector<bool>& flags) {
  size_t n = 0;
  for (bool x : flags) n += x;
  return n;
}

Items items_of(const Table& t) {
  Items items;
  items.c_cols.resize(t.constraints.size()), items.b_cols.resize(t.buses.size());
  for (size_t i = 0; i < t.constraints.size(); ++i) cols_of(*t.constraints[i].expr, items.c_cols[i]);
  for (size_t i = 0; i < t.buses.size(); ++i) {
    const auto& b = t.buses[i];
    if (b.mult) cols_of(*b.mult, items.b_cols[i]);
    for (const auto& el : b.tuple) cols_of(*el, items.b_cols[i]);
  }
  items.c_hop.assign(t.constraints.size(), 999), items.b_hop.assign(t.buses.size(), 999);  // hops from C
  return items;
}

// The most columns that are not bits (nor witnesses) in one monomial of e, expanded.
int free_degree(const Expr& e, const TableFacts& facts, const std::set<std::string>& witnesses) {
  struct FreeDegree {
    const TableFacts& facts;
    const std::set<std::string>& witnesses;
    int constant(uint64_t) const { return 0; }
    int column(const std::string& name, bool) const { return facts.is_bit(name) || witnesses.count(name) ? 0 : 1; }
    int public_value(const std::string&) const { return 0; }
    int add(int a, int b) const { return std::max(a, b); }
    int sub(int a, int b) const { return std::max(a, b); }
    int mul(int a, int b) const { return a + b; }
    int neg(int a) const { return a; }
    int pow(int a, uint64_t k) const { return static_cast<int>(k) * a; }
  };
  return spec::air::fold<int>(e, FreeDegree{facts, witnesses});
}

// free_degree of a constraint as the implied question states it: a product as "some factor is
// 0", so the largest of its factors'.
int constraint_degree(const Expr& e, const TableFacts& facts, const std::set<std::string>& witnesses) {
  int d = 0;
  const auto factors = factors_of(e);
  for (const Expr* f : factors) d = std::max(d, free_degree(*f, facts, witnesses));
  return d;
}

// The question about C, shared by its positions: the table, the passes, the bounds carried.
struct ImpliedQuestion {
  ImpliedQuestion(const spec::air::Spec& spec, const Table& t, const spec::air::Constraint& target, const Options& options)
      : spec(spec), t(t), target(target), options(options), facts{t, &target.id}, witnesses(witness_columns(t, target)),
        items(items_of(t)) {}
  const spec::air::Spec& spec;
  const Table& t;
  const spec::air::Constraint& target;
  const Options& options;
  Timer timer;
  TableFacts facts;                 // without C
  std::set<std::string> witnesses;  // eliminated (Encoder::eliminate_witnesses)
  Items items;
  std::vector<Pass> passes;
  Carried carried;
};

// The k neighbouring constraints with the fewest columns, k = 1..6 (Pass).
void add_nearest_passes(ImpliedQuestion& q) {
  const Table& t = q.t;
  std::set<std::string> near_cols;
  cols_of(*q.target.expr, near_cols);
  std::vector<size_t> by_size;
  for (size_t i = 0; i < t.constraints.size(); ++i)
    if (touches(q.items.c_cols[i], near_cols) && t.constraints[i].id != q.target.id) by_size.push_back(i);
  std::stable_sort(by_size.begin(), by_size.end(),
                   [&](size_t a, size_t b) { return q.items.c_cols[a].size() < q.items.c_cols[b].size(); });
  for (size_t k = 1; k <= std::min<size_t>(6, by_size.size()); ++k) {
    Pass pass{std::vector<bool>(t.constraints.size(), false), std::vector<bool>(t.buses.size(), false),
              std::min(q.options.timeout_ms / 4 + 1, 200u)};
    for (size_t j = 0; j < k; ++j) pass.c[by_size[j]] = true;
    q.passes.push_back(std::move(pass));
  }
  if (!q.passes.empty()) q.passes.back().lazy_after = true;
}

// The neighbourhoods of C by hops (Pass), each after its constraints that are linear but for bits.
void add_hop_passes(ImpliedQuestion& q) {
  const Table& t = q.t;
  Items& items = q.items;
  std::set<std::string> near_cols;
  cols_of(*q.target.expr, near_cols);
  std::vector<bool> is_linear(t.constraints.size());
  for (size_t i = 0; i < t.constraints.size(); ++i)
    is_linear[i] = constraint_degree(*t.constraints[i].expr, q.facts, q.witnesses) <= 1;
  for (size_t before = 0, hop = 1;; ++hop) {
    Pass pass{std::vector<bool>(t.constraints.size()), std::vector<bool>(t.buses.size()), q.options.timeout_ms / 4 + 1};
    size_t count = 0;
    for (size_t i = 0; i < t.constraints.size(); ++i) count += pass.c[i] = touches(items.c_cols[i], near_cols);
    for (size_t i = 0; i < t.buses.size(); ++i) count += pass.b[i] = touches(items.b_cols[i], near_cols);
    for (size_t i = 0; i < t.constraints.size(); ++i)
      if (pass.c[i]) items.c_hop[i] = std::min(items.c_hop[i], hop);
    for (size_t i = 0; i < t.buses.size(); ++i)
      if (pass.b[i]) items.b_hop[i] = std::min(items.b_hop[i], hop);
    if (count == before || count == t.constraints.size() + t.buses.size()) break;
    before = count;
    // first the hop's constraints that are linear but for bits (and eliminated witnesses)
    Pass linear{pass.c, pass.b, q.options.timeout_ms / 8 + 1};
    bool dropped = false;
    for (size_t i = 0; i < t.constraints.size(); ++i)
      if (linear.c[i] && !is_linear[i]) linear.c[i] = false, dropped = true;
    if (dropped) q.passes.push_back(std::move(linear));
    for (size_t i = 0; i < t.constraints.size(); ++i)
      if (pass.c[i]) near_cols.insert(items.c_cols[i].begin(), items.c_cols[i].end());
    for (size_t i = 0; i < t.buses.size(); ++i)
      if (pass.b[i]) near_cols.insert(items.b_cols[i].begin(), items.b_cols[i].end());
    q.passes.push_back(std::move(pass));
  }
}

// The passes (Pass): the nearest constraints, the hops, the whole table; a certificate's
// subset alone where options.using_ids gives one.
void plan_passes(ImpliedQuestion& q) {
  add_nearest_passes(q);
  add_hop_passes(q);
  q.passes.push_back({{}, {}, q.options.timeout_ms});
  if (!q.options.using_ids.empty()) {
    std::set<std::string> cols;
    cols_of(*q.target.expr, cols);
    auto [c, b] = certificate(q.t, q.options.using_ids, &q.target.id, std::move(cols));
    Pass given{std::move(c), std::move(b), q.options.timeout_ms};
    q.passes = {std::move(given)};
  }
}

// One position of the question in its own Z3 context: the rows r and r', what each item of the
// table says there, C broken on the row that breaks it, and the domain.
class ImpliedCase {
 public:
  ImpliedCase(const ImpliedQuestion& q, const Scenario& sc, Answer& answer, bool& unknown);
  // The passes in turn until one settles the position; true where the answer is an attack.
  bool ask_passes();

 private:
  enum class Grown { kSettled, kAttack, kOpen };
  void state_items();
  void state_domain();
  z3::check_result ask(const std::vector<bool>* c, const std::vector<bool>* b, unsigned timeout_ms,
                       std::optional<z3::model>* model);
  Grown grow(const Pass& pass);
  void report_attack(const z3::model& m0);

  const ImpliedQuestion& q_;
  const Table& t_;
  const Scenario& sc_;
  Answer& answer_;
  bool& unknown_;
  z3::context ctx_;
  Encoder enc_;
  std::set<std::string> bits_;
  std::vector<z3::expr> r_, n_;
  // What the position says, one item per constraint and per lookup of the table (true where
  // it says nothing): each constraint on the rows where it applies, each lookup's bounds.
  std::vector<z3::expr> c_item_, b_item_;
  z3::expr broken_, domain_;
};

ImpliedCase::ImpliedCase(const ImpliedQuestion& q, const Scenario& sc, Answer& answer, bool& unknown)
    : q_(q), t_(q.t), sc_(sc), answer_(answer), unknown_(unknown), enc_(ctx_, q.spec, q.t, q.carried), broken_(ctx_),
      domain_(ctx_) {
  enc_.use_reduced_products();
  enc_.eliminate_witnesses(q.witnesses);
  // The bit columns (a bit constraint other than C) are bits on both rows: the whole table
  // says so, so every subset may assume it (stated in the domain below), and "holds" may then
  // use their range.
  for (const auto& col : t_.columns)
    if (q.facts.is_bit(col.name)) bits_.insert(col.name);
  enc_.use_ranges(bits_);
  enc_.use_definitions(definitions(t_, &q.target.id, q.facts, q.witnesses, q.options.using_ids));
  r_ = enc_.row(""), n_ = enc_.row("'");
  state_items();
  const std::vector<z3::expr>& bad = sc.violate_next ? n_ : r_;  // the row that breaks C
  const bool pair_c = q.target.rows == Rows::kTransition;
  broken_ = !enc_.some_factor_zero(*q.target.expr, bad, pair_c ? &n_ : (sc.pair ? &n_ : &r_));
  state_domain();
}

void ImpliedCase::state_items() {
  const std::string* skip = &q_.target.id;
  const auto &r = r_, &n = n_;
  for (size_t i = 0; i < t_.constraints.size(); ++i) {
    std::vector<bool> one(t_.constraints.size(), false);
    one[i] = true;
    z3::expr e = ctx_.bool_val(true);
    if (sc_.pair) {
      // C is assumed only on r when r' breaks it (r comes first); never on r'
      e = e && enc_.constraints(Rows::kEvery, sc_.violate_next ? nullptr : skip, r, nullptr, &one);
      e = e && enc_.constraints(Rows::kEvery, skip, n, nullptr, &one);
      e = e && enc_.constraints(Rows::kTransition, skip, r, &n, &one);
      if (q_.target.rows == Rows::kFirst) e = e && enc_.constraints(Rows::kFirst, skip, r, &n, &one);
      if (sc_.violate_next) e = e && enc_.constraints(Rows::kLast, skip, n, nullptr, &one);
    } else {
      // one row, both first and last; no transitions (a next-row reference here is to itself)
      e = e && enc_.constraints(Rows::kEvery, skip, r, nullptr, &one);
      e = e && enc_.constraints(Rows::kFirst, skip, r, &r, &one);
      e = e && enc_.constraints(Rows::kLast, skip, r, nullptr, &one);
    }
    c_item_.push_back(e.simplify());
  }
  for (size_t i = 0; i < t_.buses.size(); ++i) {
    std::vector<bool> one(t_.buses.size(), false);
    one[i] = true;
    b_item_.push_back(sc_.pair ? enc_.lookups(r, &n, &one, skip) && enc_.lookups(n, nullptr, &one, skip)
                               : enc_.lookups(r, &r, &one, skip));
  }
}

void ImpliedCase::state_domain() {
  domain_ = enc_.domain() && enc_.definitions_hold(r_) && enc_.definitions_hold(n_);
  for (const auto& b : bits_)
    for (const auto* row : {&r_, &n_}) {
      const z3::expr& x = (*row)[static_cast<size_t>(t_.column_index(b))];
      domain_ = domain_ && (x == 0 || x == 1);
    }
}

// One question: the items in (c, b) (null: all), C broken; the model when satisfiable.
z3::check_result ImpliedCase::ask(const std::vector<bool>* c, const std::vector<bool>* b, unsigned timeout_ms,
                                  std::optional<z3::model>* model) {
  z3::solver s(ctx_);
  z3::params params(ctx_);
  params.set("timeout", timeout_ms);
  s.set(params);
  for (size_t i = 0; i < c_item_.size(); ++i)
    if (!c || (*c)[i]) s.add(c_item_[i]);
  for (size_t i = 0; i < b_item_.size(); ++i)
    if (!b || (*b)[i]) s.add(b_item_[i]);
  s.add(domain_);
  s.add(broken_);
  const z3::check_result res = s.check();
  if (res == z3::sat && model) model->emplace(s.get_model());
  return res;
}

bool ImpliedCase::ask_passes() {
  const Options& options = q_.options;
  const std::vector<Pass>& passes = q_.passes;
  bool settled = false;
  for (size_t i = 0; i < passes.size() && !settled; ++i) {
    const bool whole = i + 1 == passes.size() && options.using_ids.empty();
    std::optional<z3::model> model;
    const z3::check_result res = whole ? ask(nullptr, nullptr, passes[i].timeout_ms, &model)
                                       : ask(&passes[i].c, &passes[i].b, passes[i].timeout_ms, nullptr);
    if (options.progress) {
      size_t nc = count_of(passes[i].c), nb = count_of(passes[i].b);
      if (whole) nc = t_.constraints.size(), nb = t_.buses.size();
      options.progress(std::string(sc_.name) + ", pass " + std::to_string(i + 1) + " of " + std::to_string(passes.size()) + ": " +
                       std::to_string(nc) + " constraints, " + std::to_string(nb) + " interactions: " + check_name(res));
    }
    if (res == z3::unsat) {
      settled = true;  // implied here
    } else if (res == z3::sat && whole) {
      report_attack(*model);
      return true;
    } else if ((res == z3::unknown && whole) || !options.using_ids.empty()) {
      unknown_ = true;  // with a given subset, satisfiable says nothing of the whole table
      answer_.scenario = sc_.name;
    }
    if (settled || passes[i].lazy_after == false) continue;
    const Grown grown = grow(passes[i]);
    if (grown == Grown::kAttack) return true;
    settled = grown == Grown::kSettled;
  }
  return false;
}

// Then the constraints that the last answer breaks, added a few at a time: each round asks
// again with every item that the previous model violates (the model completed with 0),
// first those that share a column with the items asked so far. Unsatisfiable: implied; a
// model that breaks nothing else: an attack on the whole table.
ImpliedCase::Grown ImpliedCase::grow(const Pass& pass) {
  const Options& options = q_.options;
  const Items& items = q_.items;
  std::vector<bool> c = pass.c, b = pass.b;
  std::set<std::string> cols;
  cols_of(*q_.target.expr, cols);
  Timer lazy;
  for (int round = 0; round < 40 && lazy.seconds() * 1000 < options.timeout_ms / 2; ++round) {
    for (size_t i = 0; i < c.size(); ++i)
      if (c[i]) cols.insert(items.c_cols[i].begin(), items.c_cols[i].end());
    for (size_t i = 0; i < b.size(); ++i)
      if (b[i]) cols.insert(items.b_cols[i].begin(), items.b_cols[i].end());
    std::optional<z3::model> m;
    const z3::check_result lr = ask(&c, &b, std::min(options.timeout_ms / 4 + 1, 2000u), &m);
    if (options.progress)
      options.progress(std::string(sc_.name) + ", grown by what the answers break, round " + std::to_string(round + 1) + ": " +
                       std::to_string(count_of(c)) + " constraints, " + std::to_string(count_of(b)) +
                       " interactions: " + check_name(lr));
    if (lr == z3::unsat) return Grown::kSettled;
    if (lr != z3::sat) break;
    std::vector<size_t> vc, vb, near_vc, near_vb;
    for (size_t i = 0; i < c.size(); ++i)
      if (!c[i] && !m->eval(c_item_[i], true).is_true()) (touches(items.c_cols[i], cols) ? near_vc : vc).push_back(i);
    for (size_t i = 0; i < b.size(); ++i)
      if (!b[i] && !m->eval(b_item_[i], true).is_true()) (touches(items.b_cols[i], cols) ? near_vb : vb).push_back(i);
    if (vc.empty() && vb.empty() && near_vc.empty() && near_vb.empty()) {
      // every item holds: an attack on the whole table (the domain holds by construction)
      report_attack(*m);
      return Grown::kAttack;
    }
    if (near_vc.empty() && near_vb.empty()) near_vc = vc, near_vb = vb;
    // the two nearest C (fewest hops), then narrowest (fewest columns), constraints first on a tie
    std::vector<std::pair<size_t, long>> pick;  // (hop, then width; index, lookups as ~index)
    for (size_t i : near_vc) pick.emplace_back(items.c_hop[i] * 1000 + items.c_cols[i].size(), static_cast<long>(i));
    for (size_t i : near_vb) pick.emplace_back(items.b_hop[i] * 1000 + items.b_cols[i].size(), ~static_cast<long>(i));
    std::stable_sort(pick.begin(), pick.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    for (size_t j = 0; j < std::min<size_t>(2, pick.size()); ++j)
      (pick[j].second >= 0 ? c[static_cast<size_t>(pick[j].second)] : b[static_cast<size_t>(~pick[j].second)]) = true;
  }
  return Grown::kOpen;
}

void ImpliedCase::report_attack(const z3::model& m0) {
  // the eliminated witnesses take the value that their factor asks for, y = -R / A, on each
  // instance the question stated (the same rows as c_item)
  z3::model m = m0;  // a handle on the solver's model: unused after this
  struct Instance {
    Rows rows;
    const std::vector<z3::expr>* local;
    const std::vector<z3::expr>* next;
  };
  std::vector<Instance> instances;
  if (sc_.pair) {
    instances = {{Rows::kEvery, &r_, nullptr}, {Rows::kEvery, &n_, nullptr}, {Rows::kTransition, &r_, &n_}};
    if (q_.target.rows == Rows::kFirst) instances.push_back({Rows::kFirst, &r_, &n_});
    if (sc_.violate_next) instances.push_back({Rows::kLast, &n_, nullptr});
  } else {
    instances = {{Rows::kEvery, &r_, nullptr}, {Rows::kFirst, &r_, &r_}, {Rows::kLast, &r_, nullptr}};
  }
  for (const Instance& in : instances)
    for (const auto& c : t_.constraints) {
      if (c.rows != in.rows) continue;
      for (const Expr* f : factors_of(*c.expr)) {
        const auto ar = enc_.witness_split(*f, *in.local, in.next);
        if (!ar) continue;
        std::string y;
        bool y_next = false;
        spec::air::names(*f, [&](const std::string& nm, bool nx) {
          if (enc_.witnesses().count(nm)) y = nm, y_next = nx;
        });
        const uint64_t a = std::stoull(m.eval(enc_.reduced(ar->first), true).get_decimal_string(0));
        const uint64_t rr = std::stoull(m.eval(enc_.reduced(ar->second), true).get_decimal_string(0));
        if (a == 0) continue;  // any y: the factor is R, which the model makes 0 or leaves to another factor
        const uint64_t v = spec::air::fp_mul(spec::air::fp_sub(0, rr), field_inverse(a));
        z3::func_decl var = (y_next ? *in.next : *in.local)[static_cast<size_t>(t_.column_index(y))].decl();
        z3::expr value = ctx_.int_val(std::to_string(v).c_str());
        m.add_const_interp(var, value);
      }
    }
  answer_.verdict = Verdict::kAttack;
  answer_.scenario = sc_.name;
  answer_.violate_next = sc_.violate_next;
  collect(m, r_, answer_.model);
  if (sc_.pair) collect(m, n_, answer_.model);
  std::vector<z3::expr> pubs;
  for (const auto& [name, v] : enc_.publics()) pubs.push_back(v);
  collect(m, pubs, answer_.model);
  answer_.seconds = q_.timer.seconds();
}

}  // namespace
}  // namespace internal

Answer implied(const spec::air::Spec& spec, const std::string& table, const std::string& id, const Options& options) {
  using namespace internal;
  if (options.descent && options.once) throw std::invalid_argument("a descent and a count at once: " + id);
  if (options.descent) return descent_implied(spec, table, id, options);
  if (options.once) return once_implied(spec, table, id, options);
  const Table& t = find_table(spec, table);
  ImpliedQuestion q(spec, t, find_constraint(t, id), options);
  Answer answer{id, Verdict::kImplied, 0, "", {}};
  plan_passes(q);
  bool unknown = false;
  q.carried = carried_bounds(spec, table, &q.target.id);
  if (options.progress)
    for (const auto& [key, k] : q.carried) {
      const auto& [bus, send, field] = key;
      options.progress("carried: field " + std::to_string(field) + " of the " + bus + " bus's " + (send ? "sends" : "receives") +
                       " is below " + std::to_string(k));
    }
  for (const Scenario& sc : scenarios_of(q.target.rows)) {
    ImpliedCase position(q, sc, answer, unknown);
    if (position.ask_passes()) return answer;
  }
  if (unknown) answer.verdict = Verdict::kUnknown;
  answer.seconds = q.timer.seconds();
  return answer;
}

}  // namespace zkrv::air_solve
