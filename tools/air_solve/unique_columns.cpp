// The uniqueness question column by column (internal.h, unique_by_steps), for a place whose
// whole question has no answer, with the difference step (unique_differences.cpp) and the value
// step (unique_values.cpp) between its rounds.
#include <z3++.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tools/air_solve/internal.h"

namespace zkrv::air_solve::internal {
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
class ColumnSteps {
 public:
  explicit ColumnSteps(const UniquePlace& at);
  Steps run();

 private:
  // One question: may x and y differ in a column of `cols`, given the items that name one of
  // them? Narrow: only the items whose columns left are all in `cols`; wide: also the items that
  // name a column left that those name, and so on (what the columns not yet shown equal connect).
  enum Reach { kNarrow, kTouch, kWide };
  void state_items();
  void state_solver();
  z3::expr same_but_one(const Expr& e, bool x_next, const std::vector<z3::expr>& local, const std::vector<z3::expr>* next) const;
  z3::expr asked(const std::string& column) const {
    return asked_where(enc_, t_, column, {x_, at_.has_next ? &next_ : nullptr});
  }
  z3::check_result differ(const std::set<std::string>& cols, Reach how = kTouch, unsigned cap_ms = 2000);
  void settled(const std::string& n);
  bool round();
  bool by_groups();
  void report_left() const;
  Steps free_alone();

  const UniquePlace& at_;
  const Table& t_;
  const Options& options_;
  z3::context ctx_;
  Encoder enc_;
  std::vector<z3::expr> x_, y_, prev_, next_;
  const std::vector<z3::expr>* nx_x_ = nullptr;
  const std::vector<z3::expr>* nx_y_ = nullptr;
  z3::expr bit_rows_, interacts_;
  std::vector<std::set<std::string>> c_cols_, b_cols_;  // the columns each constraint, each interaction names
  // the items: what each constraint says in this place (on x and y), what each interaction does
  std::vector<z3::expr> c_item_, b_item_;
  std::optional<z3::solver> s_;
  std::optional<z3::params> params_;
  std::set<std::string> left_;  // the main columns not shown equal
  // a column is asked again only when a column that shares an item with it has been shown equal
  std::map<std::string, std::set<std::string>> near_;
  std::set<std::string> dirty_;
};

ColumnSteps::ColumnSteps(const UniquePlace& at)
    : at_(at), t_(at.t), options_(at.options), enc_(ctx_, at.spec, at.t, at.carried), bit_rows_(ctx_), interacts_(ctx_) {
  enc_.use_reduced_products();
  // the bit columns are bits on every row (their constraints hold on each): a product with a
  // bit factor is then stated as a gated copy of the other factor, linear in it
  enc_.use_ranges(at.bits);
  x_ = enc_.row(""), y_ = enc_.row("#2"), prev_ = enc_.row("^"), next_ = enc_.row("'");
  bit_rows_ = ctx_.bool_val(true);
  for (const auto* r : {&x_, &y_, &prev_, &next_})
    for (const auto& b : at.bits) {
      const z3::expr& v = (*r)[static_cast<size_t>(t_.column_index(b))];
      bit_rows_ = bit_rows_ && (v == 0 || v == 1);
    }
  nx_x_ = at.has_next ? &next_ : &x_;
  nx_y_ = at.has_next ? &next_ : &y_;
  auto names_of = [](const Expr& e, std::set<std::string>& out) {
    spec::air::names(e, [&](const std::string& n, bool) { out.insert(n); });
  };
  c_cols_.resize(t_.constraints.size()), b_cols_.resize(t_.buses.size());
  for (size_t i = 0; i < t_.constraints.size(); ++i) names_of(*t_.constraints[i].expr, c_cols_[i]);
  for (size_t j = 0; j < t_.buses.size(); ++j) {
    if (t_.buses[j].mult) names_of(*t_.buses[j].mult, b_cols_[j]);
    for (const auto& el : t_.buses[j].tuple) names_of(*el, b_cols_[j]);
  }
  state_items();
  state_solver();
  for (const auto* items : {&c_cols_, &b_cols_})
    for (const auto& names : *items)
      for (const auto& a : names)
        for (const auto& b : names) near_[a].insert(b);
  dirty_ = left_;
}

void ColumnSteps::state_items() {
  const bool has_prev = at_.has_prev, has_next = at_.has_next;
  const auto &x = x_, &y = y_, &prev = prev_, &next = next_;
  for (size_t i = 0; i < t_.constraints.size(); ++i) {
    const auto& c = t_.constraints[i];
    std::vector<bool> one(t_.constraints.size(), false);
    one[i] = true;
    z3::expr e = ctx_.bool_val(true);
    for (const auto* row : {&x, &y}) {
      e = e && enc_.constraints(Rows::kEvery, nullptr, *row, nullptr, &one);
      if (has_next) e = e && enc_.constraints(Rows::kTransition, nullptr, *row, &next, &one);
      if (has_prev) e = e && enc_.constraints(Rows::kTransition, nullptr, prev, row, &one);
      if (!has_prev) e = e && enc_.constraints(Rows::kFirst, nullptr, *row, has_next ? &next : row, &one);
      if (!has_next) e = e && enc_.constraints(Rows::kLast, nullptr, *row, nullptr, &one);
    }
    // and where it applies, what primality gives (same_but_one)
    switch (c.rows) {
      case Rows::kEvery: e = e && same_but_one(*c.expr, false, x, nullptr); break;
      case Rows::kTransition:
        if (has_next) e = e && same_but_one(*c.expr, false, x, &next);
        if (has_prev) e = e && same_but_one(*c.expr, true, prev, &x);
        break;
      case Rows::kFirst:
        if (!has_prev && has_next) e = e && same_but_one(*c.expr, false, x, &next);
        break;  // a one-row table's next row is the row itself: left out
      case Rows::kLast:
        if (!has_next) e = e && same_but_one(*c.expr, false, x, nullptr);
        break;
    }
    c_item_.push_back(e);
  }
  interacts_ = ctx_.bool_val(false);
  for (size_t j = 0; j < t_.buses.size(); ++j) {
    const auto& b = t_.buses[j];
    std::vector<bool> one(t_.buses.size(), false);
    one[j] = true;
    const z3::expr mx = enc_.mult(b, x, nx_x_);
    if (!is_lookup(b.bus) || !b.send) interacts_ = interacts_ || mx != 0;
    b_item_.push_back(same_interaction(enc_, b, {x, nx_x_}, {y, nx_y_}, role_of(at_.spec, options_, b)) &&
                      enc_.lookups(x, nx_x_, &one) && enc_.lookups(y, nx_y_, &one));
  }
}

void ColumnSteps::state_solver() {
  s_.emplace(ctx_);
  params_.emplace(ctx_);
  params_->set("timeout", std::min(options_.timeout_ms, 2000u));
  s_->set(*params_);
  s_->add(enc_.domain() && bit_rows_);
  if (options_.interacting) s_->add(interacts_);
  if (at_.real) {  // an interacting row is real (padding_silent)
    const size_t c = static_cast<size_t>(t_.column_index("is_real"));
    s_->add(x_[c] == 1 && y_[c] == 1);
  }
  for (size_t c = 0; c < t_.columns.size(); ++c) {
    if (t_.columns[c].kind == spec::air::ColumnKind::kPreprocessed) s_->add(x_[c] == y_[c]);
    else left_.insert(t_.columns[c].name);
  }
}

// What p's primality gives about two rows x and y in the same place that a constraint e holds
// on: where they agree on every column of e but v, and e is A v + R in one of its top factors F
// (A and R without v), A (v_x - v_y) = 0 mod p unless another factor is 0, so v_x = v_y unless
// A = 0 or another factor is 0 (evaluated on x: the same on y). Integer arithmetic mod p does not
// find that (an inverse witness x inv = 1 determines inv only through it). One implication per
// column v of e on the rows' side (x_next: the rows are e's next row, after `local`); (local,
// next) is x's placement, with y's the same but for the row itself.
z3::expr ColumnSteps::same_but_one(const Expr& e, bool x_next, const std::vector<z3::expr>& local,
                                   const std::vector<z3::expr>* next) const {
  const Table& t = t_;
  const Encoder& enc = enc_;
  const auto &x = x_, &y = y_;
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

z3::check_result ColumnSteps::differ(const std::set<std::string>& cols, Reach how, unsigned cap_ms) {
  const bool wide = how == kWide;
  std::set<std::string> reach = cols;
  auto touches = [&](const std::set<std::string>& a) {
    const bool hit = std::any_of(a.begin(), a.end(), [&](const std::string& n) { return reach.count(n) > 0; });
    return hit && (how != kNarrow ||
                   std::all_of(a.begin(), a.end(), [&](const std::string& n) { return !left_.count(n) || cols.count(n); }));
  };
  std::vector<bool> c_in(c_item_.size(), false), b_in(b_item_.size(), false);
  for (bool grew = true; grew;) {
    grew = false;
    auto take = [&](const std::set<std::string>& names, std::vector<bool>& in, size_t k) {
      if (in[k] || !touches(names)) return;
      in[k] = true;
      for (const auto& n : names)
        if (wide && left_.count(n) && reach.insert(n).second) grew = true;
    };
    for (size_t i = 0; i < c_item_.size(); ++i) take(c_cols_[i], c_in, i);
    for (size_t j = 0; j < b_item_.size(); ++j) take(b_cols_[j], b_in, j);
  }
  z3::solver& s = *s_;
  s.push();
  for (size_t i = 0; i < c_item_.size(); ++i)
    if (c_in[i]) s.add(c_item_[i]);
  for (size_t j = 0; j < b_item_.size(); ++j)
    if (b_in[j]) s.add(b_item_[j]);
  z3::expr d = ctx_.bool_val(false);
  for (const auto& n : cols) {
    const size_t c = static_cast<size_t>(t_.column_index(n));
    d = d || (x_[c] != y_[c] && asked(n));
  }
  s.add(d);
  // a single column at most 2 s (there are many); a group, the whole bound
  params_->set("timeout", cols.size() == 1 && how != kWide ? std::min(options_.timeout_ms, cap_ms) : options_.timeout_ms);
  s.set(*params_);
  const z3::check_result r = s.check();
  s.pop();
  return r;
}

// Column n is equal on x and y (where it is asked); its neighbours are asked again.
void ColumnSteps::settled(const std::string& n) {
  const size_t c = static_cast<size_t>(t_.column_index(n));
  s_->add(z3::implies(asked(n), x_[c] == y_[c]));
  left_.erase(n);
  for (const auto& m : near_[n])
    if (left_.count(m)) dirty_.insert(m);
}

// One round: true where it shows a column equal.
bool ColumnSteps::round() {
  // first what is quick: each column near one shown equal, alone for a quarter second (a
  // column that a bus fixes: the selectors, the operands), then the differences; the slower
  // questions only where those show nothing more
  const size_t before = left_.size();
  for (const auto& n : std::vector<std::string>(dirty_.begin(), dirty_.end()))
    if (left_.count(n) && differ({n}, kTouch, 250) == z3::unsat) settled(n), dirty_.erase(n);
  std::set<std::string> shown_marked;
  for (const auto& m : t_.free)
    if (!left_.count(m.column)) shown_marked.insert(m.column);
  for (const auto& n : settled_by_differences(at_, left_, shown_marked)) settled(n);
  if (left_.size() == before)  // then the values, case by case
    for (const auto& n : settled_by_values(at_, left_)) settled(n);
  if (options_.progress) options_.progress(t_.name + ": " + std::to_string(left_.size()) + " columns left after the differences");
  if (left_.size() < before) return true;
  bool progress = false;
  while (!dirty_.empty()) {
    const std::string n = *dirty_.begin();
    dirty_.erase(dirty_.begin());
    if (left_.count(n) && differ({n}) == z3::unsat) settled(n), progress = true;
  }
  progress = progress || by_groups();
  if (!progress && !left_.empty() && differ(left_) == z3::unsat) left_.clear();  // the rest together
  report_left();
  return progress;
}

// then the columns left that one constraint names together (limbs of one value, a flag and
// its inverse witness, a one-hot group of flags), at most sixteen at a time: with the items
// that name them, then with what the columns left connect
bool ColumnSteps::by_groups() {
  bool progress = false;
  std::set<std::set<std::string>> asked[3];  // each group once per pass
  for (const Reach how : {kNarrow, kTouch, kWide})
    for (size_t i = 0; i < t_.constraints.size() && !progress; ++i) {
      std::set<std::string> together;
      for (const auto& n : c_cols_[i])
        if (left_.count(n)) together.insert(n);
      if (together.size() < (how == kWide ? 1 : 2) || together.size() > 16) continue;
      if (!asked[how].insert(together).second) continue;
      if (differ(together, how) != z3::unsat) continue;
      for (const auto& n : together) settled(n);
      progress = true;
    }
  return progress;
}

void ColumnSteps::report_left() const {
  if (!options_.progress) return;
  std::string names;
  for (const auto& n : left_) names += " " + n;
  options_.progress(t_.name + ": " + std::to_string(left_.size()) + " columns left" + (left_.size() <= 40 ? ":" + names : ""));
}

Steps ColumnSteps::run() {
  for (bool progress = true; progress && !left_.empty();) progress = round();
  return free_alone();
}

// Each column left alone: a second witness that differs only there?
Steps ColumnSteps::free_alone() {
  Steps out;
  if (left_.size() > 30) {  // too many to ask one by one
    out.left.assign(left_.begin(), left_.end());
    return out;
  }
  z3::solver& s = *s_;
  z3::params& params = *params_;
  for (const auto& n : left_) {  // free alone?
    s.push();
    for (const auto& e : c_item_) s.add(e);
    for (const auto& e : b_item_) s.add(e);
    for (size_t c = 0; c < t_.columns.size(); ++c)
      if (t_.columns[c].name != n) s.add(x_[c] == y_[c]);
    const size_t c = static_cast<size_t>(t_.column_index(n));
    s.add(x_[c] != y_[c] && asked(n));
    // small values first (below 2^20, a witness search the solver settles fast), then any
    s.push();
    for (size_t k = 0; k < t_.columns.size(); ++k) s.add(x_[k] < (1 << 20) && y_[k] < (1 << 20));
    params.set("timeout", std::min(options_.timeout_ms / 4 + 1, 2000u));
    s.set(params);
    z3::check_result r = s.check();
    const bool small = r == z3::sat;
    if (!small) {
      s.pop();
      params.set("timeout", options_.timeout_ms);
      s.set(params);
      r = s.check();
    }
    if (r == z3::sat) {
      if (out.free.empty()) collect(s.get_model(), x_, out.first), collect(s.get_model(), y_, out.second);
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

Steps unique_by_steps(const UniquePlace& at) { return ColumnSteps(at).run(); }

}  // namespace zkrv::air_solve::internal
