// The difference step of the uniqueness question (internal.h, settled_by_differences), and the
// field elimination of the differences that nothing bounds (solve.h, without_unbounded).
//
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
#include <z3++.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "spec/air/expr.h"
#include "tools/air_solve/internal.h"
#include "tools/air_solve/polys.h"
#include "tools/air_solve/solve.h"

namespace zkrv::air_solve {
namespace internal {
namespace {

using spec::air::fp_add;
using spec::air::fp_mul;
using spec::air::fp_sub;

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
    out[m[0]] = fp_add(out[m[0]], c);
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
    for (const auto& [u, c] : form) scaled[u] = fp_mul(c, k);
    if (const double r = reach(scaled); r < best_reach) best = std::move(scaled), best_reach = r;
  }
  return best;
}

using Bus = PlacePolys::Bus;

// The difference step's questions about one place (the rounds of settle, the cases of each), and
// what they share: the place's polynomials on the row asked about, the columns its constraints
// define from bits.
class DifferenceStep {
 public:
  DifferenceStep(const UniquePlace& at, const std::set<std::string>& shown_marked);
  std::set<std::string> settle(const std::set<std::string>& left);

 private:
  friend class DifferenceCase;
  int col(const std::string& name) const { return t_.column_index(name); }
  void find_definitions();
  void find_nonnegative_definitions();
  bool nonnegative(const Expr& mult) const {
    return facts_.nonnegative(mult) || (mult.op == Expr::Op::kColumn && nonnegative_defs_.count(col(mult.name)) > 0);
  }
  std::set<int> differences() const;
  std::set<int> split_bits(const std::set<int>& delta) const;
  std::optional<std::set<std::string>> round();

  const UniquePlace& at_;
  const Table& t_;
  const std::set<std::string>& shown_marked_;
  const int n_;
  std::map<std::string, int> publics_;
  PlacePolys pp_;
  std::vector<Role> roles_;  // each interaction's, as a function (role_of)
  TableFacts facts_;
  // the columns that a constraint on the row defines from bits (mo1 = (f_load + f_store) (i12 +
  // i13 - i12 i13), mo3 = mo2): v - g with v in no other term, g over bits and columns defined
  // before; in dependency order. Where v is shown equal, a case of g's bits fixes its value.
  std::vector<std::pair<int, Poly>> defs_;
  std::set<int> nonnegative_defs_;
  std::map<int, std::set<int>> under_;  // the bits under a defined column (through the columns it is defined from)
  std::set<std::string> open_, settled_;
};

DifferenceStep::DifferenceStep(const UniquePlace& at, const std::set<std::string>& shown_marked)
    : at_(at), t_(at.t), shown_marked_(shown_marked), n_(static_cast<int>(at.t.columns.size())), facts_{at.t, nullptr} {
  const int n = n_;
  for (const auto& pub : at.spec.publics) publics_.emplace(pub.name, 3 * n + static_cast<int>(publics_.size()));
  // ids: column c of the row asked about is c; of the previous row n + c, of the next row 2n + c
  // (an interior place has both, and the values a case fixes may name them)
  pp_ = place_polys(t_, at.has_prev, at.has_next, [&](const Expr& e, bool is_row) {
    if (e.op == Expr::Op::kPublic) return publics_.at(e.name);
    return col(e.name) + (is_row ? 0 : e.op == Expr::Op::kNext ? 2 * n : n);
  });
  for (const auto& b : pp_.buses) roles_.push_back(role_of(at.spec, at.options, *b.b));
  find_definitions();
  find_nonnegative_definitions();
  for (const auto& [v, g] : defs_)
    for (const auto& [m, c] : g)
      for (const int w : m)
        if (const auto it = under_.find(w); it != under_.end()) under_[v].insert(it->second.begin(), it->second.end());
        else under_[v].insert(w);
}

void DifferenceStep::find_definitions() {
  std::set<int> known;
  for (const auto& name : at_.bits) known.insert(col(name));
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& p : pp_.constraints) {
      std::map<int, int> uses;  // variable -> the terms that name it
      bool on_row = true;
      for (const auto& [m, c] : p)
        for (const int v : std::set<int>(m.begin(), m.end())) uses[v]++, on_row = on_row && v < n_;
      if (!on_row) continue;
      for (const auto& [v, k] : uses) {
        const auto it = p.find(Mono{v});
        if (k != 1 || known.count(v) || it == p.end() || (it->second != 1 && it->second != kPValue - 1)) continue;
        if (!std::all_of(uses.begin(), uses.end(), [&](const auto& u) { return u.first == v || known.count(u.first); })) continue;
        Poly g;  // v = -(p - c v) / c, c = +-1
        for (const auto& [m, c] : p)
          if (m != Mono{v}) add_term(g, m, it->second == 1 ? fp_sub(0, c) : c);
        defs_.emplace_back(v, std::move(g));
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
void DifferenceStep::find_nonnegative_definitions() {
  std::map<int, Poly> expanded;
  for (const auto& [v, g] : defs_) {
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
      if (small) nonnegative_defs_.insert(v);
    }
    expanded.emplace(v, std::move(e));
  }
}

// the differences: the columns open, and the marked ones (equal only where they are asked)
std::set<int> DifferenceStep::differences() const {
  std::set<int> delta;
  for (const auto& name : open_) delta.insert(col(name));
  for (const auto& name : shown_marked_) delta.insert(col(name));
  for (const auto& name : settled_)
    if (pp_.unless.count(name)) delta.insert(col(name));
  return delta;
}

// the cases: the bits shown equal that a monomial multiplies with a difference, or that a
// multiplicity or a mark's expression names
std::set<int> DifferenceStep::split_bits(const std::set<int>& delta) const {
  std::set<int> split;
  auto note = [&](const Poly& p, bool all) {
    for (const auto& [m, c] : p) {
      const bool names = all || std::any_of(m.begin(), m.end(), [&](int v) { return delta.count(v) > 0; });
      for (const int v : m) {
        if (!names || v >= n_ || delta.count(v)) continue;
        if (at_.bits.count(t_.columns[static_cast<size_t>(v)].name)) split.insert(v);
        else if (const auto it = under_.find(v); it != under_.end() && it->second.size() <= 4)  // a defined column: its few bits
          for (const int w : it->second)
            if (!delta.count(w)) split.insert(w);
      }
    }
  };
  for (const auto& p : pp_.constraints) note(p, false);
  for (const auto& b : pp_.buses) {
    if (b.mult) note(*b.mult, true);
    for (const auto& el : b.tuple)
      if (el) note(*el, false);
  }
  for (const auto& [name, p] : pp_.unless)
    if (p) note(*p, true);
  return split;
}

// One case of a round: the differences' equations over small integers, in the case's own solver
// on the round's context.
class DifferenceCase {
 public:
  DifferenceCase(const DifferenceStep& step, const std::set<int>& delta, z3::context& ctx, const z3::params& params,
                 std::map<int, uint64_t> value);
  // The candidates that may differ in this case, removed.
  void narrow(std::set<std::string>& candidates);

 private:
  void fix_values();
  z3::expr sum_of(const std::map<int, uint64_t>& form, double& magnitude);
  z3::expr big(double v) { return v >= kPDouble ? ctx_.int_val(kP) : ctx_.int_val(static_cast<int64_t>(v)); }
  bool active(const Bus& b) const;
  void bus_equations(size_t j);
  void state_ranges();
  void state_one_sign();
  z3::expr zero(const std::map<int, uint64_t>& form, bool top);
  void state_equations();

  const DifferenceStep& step_;
  const Table& t_;
  const int n_;
  z3::context& ctx_;
  z3::solver s_;
  std::map<int, uint64_t> value_;
  std::set<int> d_;
  std::vector<z3::expr> dv_;
  std::vector<double> range_;      // |d_c| < range
  std::vector<double> row_range_;  // 0 <= x_c < row_range: the bounds of the row's own values
  unsigned fresh_ = 0;
  std::vector<std::pair<std::map<int, uint64_t>, double>> eqs_;  // sum = 0 mod p, or in (-bound, bound) mod p
  std::vector<std::pair<std::vector<std::map<int, uint64_t>>, std::vector<std::map<int, uint64_t>>>> keyed_;
};

DifferenceCase::DifferenceCase(const DifferenceStep& step, const std::set<int>& delta, z3::context& ctx,
                               const z3::params& params, std::map<int, uint64_t> value)
    : step_(step), t_(step.t_), n_(step.n_), ctx_(ctx), s_(ctx), value_(std::move(value)), d_(delta) {
  fix_values();
  s_.set(params);
  std::set<std::string> marked_equal = step.shown_marked_;
  for (const auto& name : step.settled_)
    if (step.pp_.unless.count(name)) marked_equal.insert(name);
  for (const auto& name : marked_equal)  // a mark shown equal: so in this case where it is asked everywhere
    if (const auto& p = step.pp_.unless.at(name); p) {
      const Poly u = substitute(*p, value_);
      if (u.size() == 1 && u.begin()->first.empty()) d_.erase(step.col(name));
    }
  range_.assign(static_cast<size_t>(n_), kPDouble);
  for (int c = 0; c < n_; ++c) dv_.push_back(ctx.int_const(("d_" + t_.columns[static_cast<size_t>(c)].name).c_str()));
  for (const auto& name : step.at_.bits) range_[static_cast<size_t>(step.col(name))] = 2;
  row_range_ = range_;
  for (const auto& p : step.pp_.constraints)
    if (auto f = delta_form(substitute(p, value_), d_); f && !f->empty()) eqs_.emplace_back(std::move(*f), 0);
  for (size_t j = 0; j < step.pp_.buses.size(); ++j) bus_equations(j);
  state_ranges();
  state_one_sign();
  state_equations();
}

void DifferenceCase::fix_values() {
  for (const auto& [v, g] : step_.defs_)  // the defined columns shown equal that this case fixes
    if (!d_.count(v))
      if (const Poly k = substitute(g, value_); k.empty() || (k.size() == 1 && k.begin()->first.empty()))
        value_[v] = k.empty() ? 0 : k.begin()->second;
  // and what a constraint then fixes of a value that both rows share (their own columns shown
  // equal, the other row's, the public values): a v + c = 0 (the exit row's is_real' = 0)
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& p : step_.pp_.constraints) {
      const Poly q = substitute(p, value_);
      if (q.empty() || q.size() > 2 || q.rbegin()->first.size() != 1 || (q.size() == 2 && !q.begin()->first.empty())) continue;
      const int v = q.rbegin()->first[0];
      if (d_.count(v) || value_.count(v)) continue;
      const uint64_t c = q.size() == 2 ? q.begin()->second : 0;
      value_[v] = fp_mul(fp_sub(0, c), field_inverse(q.rbegin()->second));
      grew = true;
    }
  }
}

z3::expr DifferenceCase::sum_of(const std::map<int, uint64_t>& form, double& magnitude) {
  z3::expr s = ctx_.int_val(0);
  magnitude = 0;
  for (const auto& [v, c] : form) {
    const int64_t k = signed_value(c);
    s = s + ctx_.int_val(k) * dv_[static_cast<size_t>(v)];
    magnitude += std::fabs(static_cast<double>(k)) * range_[static_cast<size_t>(v)];
  }
  return s;
}

bool DifferenceCase::active(const Bus& b) const {
  if (!b.mult) return false;
  const Poly m = substitute(*b.mult, value_);
  return m.size() == 1 && m.begin()->first.empty();  // a nonzero constant
}

// What interaction j says of the differences: its multiplicity, its bounds, its tuple.
void DifferenceCase::bus_equations(size_t j) {
  const Bus& b = step_.pp_.buses[j];
  const Role& role = step_.roles_[j];
  // as a function, a send's multiplicity is the row's own, and a read's
  if (b.mult && !role.own && !(role.functional && b.b->send))
    if (auto f = delta_form(substitute(*b.mult, value_), d_); f && !f->empty()) eqs_.emplace_back(std::move(*f), 0);
  if (!active(b)) return;
  const auto& bi = *b.b;
  // what the other side enforces: a range on a lookup send's fields, a carried bound
  for (size_t i = 0; i < bi.tuple.size(); ++i) {
    uint64_t k = 0;
    if (bi.send && (bi.bus == "byte" || bi.bus == "and8")) k = 256;
    else if (bi.send && bi.bus == "range16") k = 65536;
    else if (const auto it = step_.at_.carried.find(std::make_tuple(bi.bus, bi.send, i)); it != step_.at_.carried.end() && !is_lookup(bi.bus)) k = it->second;
    if (!k || k == kNoBound || !b.tuple[i] || (bi.mult && !step_.nonnegative(*bi.mult))) continue;
    if (const Poly& e = *b.tuple[i]; e.size() == 1 && e.begin()->second == 1 && e.begin()->first.size() == 1 &&
                                     e.begin()->first[0] < n_)
      row_range_[static_cast<size_t>(e.begin()->first[0])] =
          std::min(row_range_[static_cast<size_t>(e.begin()->first[0])], static_cast<double>(k));
    const auto f = delta_form(substitute(*b.tuple[i], value_), d_);
    if (!f || f->empty()) continue;
    if (f->size() == 1 && f->begin()->second == 1 && bi.tuple[i]->op == Expr::Op::kColumn)
      range_[static_cast<size_t>(f->begin()->first)] = std::min(range_[static_cast<size_t>(f->begin()->first)], static_cast<double>(k));
    else
      eqs_.emplace_back(*f, static_cast<double>(k));
  }
  // the same tuple where the multiplicity is not 0; for a lookup send, given the same key
  if (keyed_by_range(bi)) return;
  const size_t keys = bi.send ? lookup_key_fields(bi.bus) : 0;
  const std::set<size_t>& outs = role.outputs;
  // as a function (same_interaction): a receive's outputs are free; the row's own request or
  // read fixes its outputs given its other fields, or nothing where it has none
  const bool own_send = role.own;
  if (own_send && outs.empty()) return;
  std::vector<std::map<int, uint64_t>> key, rest;
  bool ok = true;
  for (size_t i = 0; i < bi.tuple.size() && ok; ++i) {
    const bool out = outs.count(i) > 0, is_key = own_send ? !out : i < keys;
    if (!own_send && out) continue;  // an output of a request received: not fixed
    const auto f = b.tuple[i] ? delta_form(substitute(*b.tuple[i], value_), d_) : std::nullopt;
    if (!f) ok = !is_key;  // a field that says nothing: only a key's absence spoils the rest
    else (is_key ? key : rest).push_back(*f);
  }
  if (ok && !rest.empty()) keyed_.emplace_back(std::move(key), std::move(rest));
}

void DifferenceCase::state_ranges() {
  for (int c = 0; c < n_; ++c)
    if (d_.count(c)) {
      const z3::expr k = big(range_[static_cast<size_t>(c)]);
      s_.add(dv_[static_cast<size_t>(c)] > -k && dv_[static_cast<size_t>(c)] < k);
    }
}

// a constraint that this case makes a sum of bounded columns of one sign, with no constant
// (x0_stays on a write to x0: d_v0 + d_v1 + d_v2 + d_v3, some of them perhaps shown equal
// already), is that sum over the integers on each row, so each of its columns is 0 on both
// rows, not only their differences' sum
void DifferenceCase::state_one_sign() {
  for (const auto& p : step_.pp_.constraints) {
    const Poly q = substitute(p, value_);
    if (q.empty() || q.count(Mono{})) continue;
    double reach = 0;
    int sign = 0;
    bool one_sign = true;
    for (const auto& [m, c] : q) {
      const int s_c = signed_value(c) > 0 ? 1 : -1;
      if (m.size() != 1 || m[0] >= n_ || row_range_[static_cast<size_t>(m[0])] >= kPDouble || (sign && s_c != sign)) {
        one_sign = false;
        break;
      }
      sign = s_c;
      reach += std::fabs(static_cast<double>(signed_value(c))) * (row_range_[static_cast<size_t>(m[0])] - 1);
    }
    if (one_sign && reach < kPDouble / 2)
      for (const auto& [m, c] : q)
        if (d_.count(m[0])) s_.add(dv_[static_cast<size_t>(m[0])] == 0);
  }
}

z3::expr DifferenceCase::zero(const std::map<int, uint64_t>& form, bool top) {
  double mag = 0;
  const z3::expr v = sum_of(form, mag);
  if (mag < kPDouble) return v == 0;
  if (!top) return z3::mod(v, ctx_.int_val(kP)) == 0;
  return v == ctx_.int_const(("j" + std::to_string(fresh_++)).c_str()) * ctx_.int_val(kP);
}

void DifferenceCase::state_equations() {
  {  // the exact equations' consequences without the unbounded differences (cpu's adder c1, c2)
    std::vector<std::map<int, uint64_t>> exact;
    for (const auto& [form, bound] : eqs_)
      if (bound == 0) exact.push_back(form);
    for (auto& form : without_unbounded(exact, [&](int v) { return range_[static_cast<size_t>(v)]; }))
      eqs_.emplace_back(std::move(form), 0);
  }
  for (const auto& [form, bound] : eqs_) {
    if (bound == 0) {
      s_.add(zero(form, true));
      continue;
    }
    double mag = 0;  // both values in [0, bound): their difference in (-bound, bound), mod p
    const z3::expr v = sum_of(form, mag);
    const z3::expr r = ctx_.int_const(("r" + std::to_string(fresh_++)).c_str());
    s_.add(r > -big(bound) && r < big(bound));
    s_.add(mag + bound < kPDouble ? v == r : v - r == ctx_.int_const(("j" + std::to_string(fresh_++)).c_str()) * ctx_.int_val(kP));
  }
  for (const auto& [key, rest] : keyed_) {
    z3::expr when = ctx_.bool_val(true), then = ctx_.bool_val(true);
    for (const auto& f : key) when = when && zero(f, false);
    for (const auto& f : rest) then = then && zero(f, false);
    s_.add(z3::implies(when, then));
  }
}

void DifferenceCase::narrow(std::set<std::string>& candidates) {
  // asked: a difference in a candidate, where its mark (if any) does not make it free here
  std::vector<std::string> ask;
  for (const auto& name : candidates) {
    if (const auto it = step_.pp_.unless.find(name); it != step_.pp_.unless.end() && it->second && substitute(*it->second, value_).empty()) continue;
    ask.push_back(name);
  }
  if (ask.empty()) return;
  z3::expr any = ctx_.bool_val(false);
  for (const auto& name : ask) any = any || dv_[static_cast<size_t>(step_.col(name))] != 0;
  s_.push();
  s_.add(any);
  const z3::check_result all = s_.check();
  s_.pop();
  if (all == z3::unsat) return;
  for (const auto& name : ask) {
    s_.push();
    s_.add(dv_[static_cast<size_t>(step_.col(name))] != 0);
    if (s_.check() != z3::unsat) candidates.erase(name);
    s_.pop();
  }
}

// One round: the columns open that no case lets differ; nullopt where the cases are not listed.
std::optional<std::set<std::string>> DifferenceStep::round() {
  const auto& progress = at_.options.progress;
  const std::set<int> delta = differences();
  const std::set<int> split = split_bits(delta);
  // the cases that the constraints on bits alone allow (with the row interacting, and real)
  std::map<int, std::string> bit_names;
  for (const auto& name : at_.bits) bit_names.emplace(col(name), name);
  BitCases cases(bit_names, at_.options.timeout_ms);
  z3::context& ctx = cases.ctx();
  z3::params params(ctx);
  params.set("timeout", std::min(at_.options.timeout_ms, 2000u));
  for (const auto& p : pp_.constraints)
    if (cases.over_bits(p)) cases.require(cases.zero_mod_p(p));
  cases.require_row(at_.real && t_.column_index("is_real") >= 0 && at_.bits.count("is_real") ? col("is_real") : -1,
                    at_.options.interacting, pp_.buses);
  std::string why;
  const auto listed = cases.each(split, 512, why);
  std::string names;
  for (const int v : split) names += " " + t_.columns[static_cast<size_t>(v)].name;
  if (!listed) {  // too many cases: nothing more shown this way
    if (progress) progress(t_.name + ": differences: " + why + " (" + std::to_string(split.size()) + " bits split:" + names + ")");
    return std::nullopt;
  }
  if (progress) progress(t_.name + ": differences: " + std::to_string(listed->size()) + " cases of" + names);
  // each case: the differences' equations over small integers
  std::set<std::string> candidates = open_;
  for (const std::map<int, uint64_t>& value : *listed) {
    if (candidates.empty()) break;
    DifferenceCase(*this, delta, ctx, params, value).narrow(candidates);
  }
  return candidates;
}

std::set<std::string> DifferenceStep::settle(const std::set<std::string>& left) {
  open_ = left;
  for (bool grew = true; grew && !open_.empty();) {
    grew = false;
    const auto shown = round();
    if (!shown) return settled_;
    for (const auto& name : *shown) settled_.insert(name), open_.erase(name), grew = true;
  }
  return settled_;
}

}  // namespace

std::set<std::string> settled_by_differences(const UniquePlace& at, const std::set<std::string>& left,
                                             const std::set<std::string>& shown_marked) {
  return DifferenceStep(at, shown_marked).settle(left);
}

}  // namespace internal

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
  using namespace internal;
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
      const uint64_t k = fp_sub(0, fp_mul(it->second, inv));  // f - (f_u / row_u) row
      for (const auto& [v, c] : row) {
        uint64_t& slot = f[v];
        slot = fp_add(slot, fp_mul(k, c));
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

}  // namespace zkrv::air_solve
