// The value step of the uniqueness question (internal.h, settled_by_values).
//
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
#include <z3++.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "spec/air/expr.h"
#include "tools/air_solve/internal.h"
#include "tools/air_solve/polys.h"

namespace zkrv::air_solve::internal {
namespace {

using spec::air::fp_mul;
using spec::air::fp_sub;

Poly minus(Poly a, const Poly& b) {
  for (const auto& [m, c] : b) add_term(a, m, fp_sub(0, c));
  return a;
}

// affine: every monomial names at most one variable
bool affine(const Poly& q) {
  return std::all_of(q.begin(), q.end(), [](const auto& mc) { return mc.first.size() <= 1; });
}

// A polynomial that is a nonzero constant once `value` is put in.
bool nonzero(const std::optional<Poly>& mult, const std::map<int, uint64_t>& value) {
  if (!mult) return false;
  const Poly m = substitute(*mult, value);
  return m.size() == 1 && m.begin()->first.empty();
}

// The value step's cases for one place, and what they share: both rows' polynomials, what holds
// on them, the bits split.
class ValueStep {
 public:
  ValueStep(const UniquePlace& at, const std::set<std::string>& left);
  std::set<std::string> settle();

 private:
  friend class Propagation;
  int col(const std::string& name) const { return t_.column_index(name); }
  void find_split();
  // the bounds that hold on each row where its interactions are active (as the differences take them)
  void bounds_in(const PlacePolys& pp, const std::map<int, uint64_t>& value, std::map<int, double>& bound) const;

  const UniquePlace& at_;
  const Table& t_;
  const std::set<std::string>& left_;
  const int n_;
  std::set<int> own_;  // the columns with a variable of their own on y
  std::map<std::string, int> publics_;
  PlacePolys px_, py_;
  std::vector<Poly> holds_;  // both rows' constraints, and their interactions' equal multiplicities
  std::map<int, std::string> bit_names_;
  // the open bits on both rows, and the shared bits of the constraints that name an open column
  std::set<int> split_;
  TableFacts facts_;
};

ValueStep::ValueStep(const UniquePlace& at, const std::set<std::string>& left)
    : at_(at), t_(at.t), left_(left), n_(static_cast<int>(at.t.columns.size())), facts_{at.t, nullptr} {
  const int n = n_;
  // ids: on x, column c is c; on y, c where it is shown equal (and unmarked), n + c where it is
  // open or marked (a marked column is equal only where it is asked); the previous row 2n + c,
  // the next row 3n + c (two rows: an interior place has both); public values from 4n
  for (const auto& name : left) own_.insert(col(name));
  for (const auto& m : t_.free) own_.insert(col(m.column));
  for (const auto& pub : at.spec.publics) publics_.emplace(pub.name, 4 * n + static_cast<int>(publics_.size()));
  auto id_on = [&](bool on_y) {
    return [&, on_y](const Expr& e, bool is_row) {
      if (e.op == Expr::Op::kPublic) return publics_.at(e.name);
      const int c = col(e.name);
      if (!is_row) return (e.op == Expr::Op::kNext ? 3 * n : 2 * n) + c;  // a next-row name: the next row; else the previous
      return on_y && own_.count(c) ? n + c : c;
    };
  };
  px_ = place_polys(t_, at.has_prev, at.has_next, id_on(false)), py_ = place_polys(t_, at.has_prev, at.has_next, id_on(true));
  // what holds: both rows' constraints, and their interactions' equal multiplicities
  holds_ = px_.constraints;
  holds_.insert(holds_.end(), py_.constraints.begin(), py_.constraints.end());
  // as a function, a send's multiplicity is the row's own, and a read's (same_interaction)
  for (size_t j = 0; j < px_.buses.size(); ++j) {
    const Role role = role_of(at.spec, at.options, *px_.buses[j].b);
    if (px_.buses[j].mult && py_.buses[j].mult && !(role.functional && px_.buses[j].b->send) && !role.own)
      holds_.push_back(minus(*px_.buses[j].mult, *py_.buses[j].mult));
  }
  find_split();
}

void ValueStep::find_split() {
  // the bits: the open and the marked bit columns on both rows, the rest on x (shared)
  for (const auto& name : at_.bits) {
    bit_names_.emplace(col(name), name);
    if (own_.count(col(name))) bit_names_.emplace(n_ + col(name), name + "#2");
  }
  std::set<int> open_ids;
  for (const auto& name : left_) open_ids.insert(col(name)), open_ids.insert(n_ + col(name));
  for (const auto& p : holds_) {
    const bool names = std::any_of(p.begin(), p.end(), [&](const auto& mc) {
      return std::any_of(mc.first.begin(), mc.first.end(), [&](int v) { return open_ids.count(v) > 0; });
    });
    if (!names) continue;
    for (const auto& [m, c] : p)
      for (const int v : m)
        if (bit_names_.count(v) && (open_ids.count(v) || v < n_)) split_.insert(v);
  }
}

void ValueStep::bounds_in(const PlacePolys& pp, const std::map<int, uint64_t>& value, std::map<int, double>& bound) const {
  for (const auto& [id, name] : bit_names_) bound[id] = 2;
  for (const auto& b : pp.buses) {
    if (!b.mult) continue;
    const Poly m = substitute(*b.mult, value);
    if (!(m.size() == 1 && m.begin()->first.empty())) continue;  // not a nonzero constant
    const auto& bi = *b.b;
    if (bi.mult && !facts_.nonnegative(*bi.mult)) continue;
    for (size_t i = 0; i < bi.tuple.size(); ++i) {
      uint64_t k = 0;
      if (bi.send && (bi.bus == "byte" || bi.bus == "and8")) k = 256;
      else if (bi.send && bi.bus == "range16") k = 65536;
      else if (const auto it = at_.carried.find(std::make_tuple(bi.bus, bi.send, i)); it != at_.carried.end() && !is_lookup(bi.bus)) k = it->second;
      if (!k || k == kNoBound || bi.tuple[i]->op != Expr::Op::kColumn || !b.tuple[i] || b.tuple[i]->size() != 1) continue;
      const Mono& mono = b.tuple[i]->begin()->first;
      if (mono.size() != 1 || b.tuple[i]->begin()->second != 1) continue;
      auto [it, fresh] = bound.emplace(mono[0], static_cast<double>(k));
      if (!fresh) it->second = std::min(it->second, static_cast<double>(k));
    }
  }
}

// One case: propagate; false where it has no solution. `sub` holds what each variable that is
// solved for is, an affine form of the variables that are not (a constant where it is fixed)
class Propagation {
 public:
  Propagation(const ValueStep& step, std::map<int, Poly>& sub) : step_(step), sub_(sub) {}
  bool run();

 private:
  enum class Step { kNone, kSolved, kNoSolution };
  Poly reduce(const Poly& p) const { return compose(p, sub_); }
  void solve_for(int v, const Poly& q);
  std::vector<Poly> equations(const std::map<int, uint64_t>& value) const;
  Step solve_single(const std::vector<Poly>& all);
  Step solve_one_sign(const std::vector<Poly>& all, const std::map<int, double>& bound);
  Step solve_affine(const std::vector<Poly>& all);

  const ValueStep& step_;
  std::map<int, Poly>& sub_;
};

void Propagation::solve_for(int v, const Poly& q) {  // q = a v + rest = 0, q reduced and affine: v = -rest / a
  const uint64_t inv = field_inverse(q.at(Mono{v}));
  Poly form;
  for (const auto& [m, c] : q)
    if (m != Mono{v}) add_term(form, m, fp_sub(0, fp_mul(c, inv)));
  const std::map<int, Poly> one{{v, form}};
  for (auto& [w, f] : sub_) f = compose(f, one);
  sub_[v] = std::move(form);
}

// what holds: the equations, and the tuples of the interactions active on both rows (not lookups)
std::vector<Poly> Propagation::equations(const std::map<int, uint64_t>& value) const {
  std::vector<Poly> all;
  for (const auto& p : step_.holds_) all.push_back(reduce(p));
  for (size_t j = 0; j < step_.px_.buses.size(); ++j) {
    const auto &bx = step_.px_.buses[j], &by = step_.py_.buses[j];
    if (is_lookup(bx.b->bus) || !nonzero(bx.mult, value)) continue;
    const Role role = role_of(step_.at_.spec, step_.at_.options, *bx.b);
    const std::set<size_t>& outs = role.outputs;
    auto same = [&](size_t i) { return reduce(minus(*bx.tuple[i], *by.tuple[i])); };
    auto known = [&](size_t i) { return bx.tuple[i] && by.tuple[i]; };
    if (role.own) {  // the row's own request or read: its answer where both ask the same
      if (outs.empty() || !nonzero(by.mult, value)) continue;
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
  return all;
}

// a nonzero constant: no solution; one variable: its value
Propagation::Step Propagation::solve_single(const std::vector<Poly>& all) {
  for (const auto& q : all) {
    if (q.size() == 1 && q.begin()->first.empty()) return Step::kNoSolution;
    if (!q.empty() && affine(q) && q.size() <= 2 && !q.rbegin()->first.empty() && (q.size() == 1 || q.begin()->first.empty())) {
      solve_for(q.rbegin()->first[0], q);
      return Step::kSolved;
    }
  }
  return Step::kNone;
}

// one sign, bounded: an equation over the integers
Propagation::Step Propagation::solve_one_sign(const std::vector<Poly>& all, const std::map<int, double>& bound) {
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
    if (constant != 0) return Step::kNoSolution;  // a sum of terms of one sign, not 0, is not 0
    for (const auto& [m, c] : q)
      if (!m.empty()) solve_for(m[0], Poly{{m, 1}});
    return Step::kSolved;
  }
  return Step::kNone;
}

// an affine equation in several variables: solve it for one (the newest)
Propagation::Step Propagation::solve_affine(const std::vector<Poly>& all) {
  for (const auto& q : all)
    if (!q.empty() && affine(q)) {
      solve_for(q.rbegin()->first[0], q);
      return Step::kSolved;
    }
  return Step::kNone;
}

bool Propagation::run() {
  for (;;) {
    // the values fixed so far (for the multiplicities) and the bounds they make hold
    std::map<int, uint64_t> value;
    for (const auto& [v, f] : sub_)
      if (f.empty()) value[v] = 0;
      else if (f.size() == 1 && f.begin()->first.empty()) value[v] = f.begin()->second;
    std::map<int, double> bound;
    step_.bounds_in(step_.px_, value, bound);
    step_.bounds_in(step_.py_, value, bound);
    for (const auto& [v, k] : value)
      if (const auto it = bound.find(v); it != bound.end() && static_cast<double>(k) >= it->second) return false;
    const std::vector<Poly> all = equations(value);
    Step step = solve_single(all);
    if (step == Step::kNone) step = solve_one_sign(all, bound);
    if (step == Step::kNone) step = solve_affine(all);
    if (step == Step::kNoSolution) return false;
    if (step == Step::kNone) return true;
  }
}

std::set<std::string> ValueStep::settle() {
  const auto& progress = at_.options.progress;
  if (split_.size() > 20) {  // more cases than the cap allows, as a rule: not worth listing them
    if (progress) progress(t_.name + ": values: " + std::to_string(split_.size()) + " bits to split, not asked");
    return {};
  }
  BitCases cases(bit_names_, at_.options.timeout_ms);
  for (const auto& p : holds_)
    if (cases.over_bits(p)) cases.require(cases.zero_mod_p(p));
  // (the multiplicities are the same on both rows: x interacts where y does)
  cases.require_row(at_.real && col("is_real") >= 0 && at_.bits.count("is_real") ? col("is_real") : -1, at_.options.interacting,
                    px_.buses);
  std::string why;
  const auto listed = cases.each(split_, 256, why);
  if (!listed) {
    if (progress) progress(t_.name + ": values: " + why + " (" + std::to_string(split_.size()) + " bits split)");
    return {};
  }
  std::set<std::string> candidates = left_;
  size_t impossible = 0;
  for (const auto& one : *listed) {
    std::map<int, Poly> sub;
    for (const auto& [v, k] : one) sub[v] = k ? Poly{{Mono{}, k}} : Poly{};
    if (!Propagation(*this, sub).run()) {
      ++impossible;
      continue;
    }
    for (auto it = candidates.begin(); it != candidates.end();) {
      const int c = col(*it);
      bool equal = compose(Poly{{Mono{c}, 1}}, sub) == compose(Poly{{Mono{n_ + c}, 1}}, sub);
      if (const auto m = px_.unless.find(*it); !equal && m != px_.unless.end() && m->second)
        equal = compose(*m->second, sub).empty();  // not asked in this case
      it = equal ? std::next(it) : candidates.erase(it);
    }
  }
  if (progress) {
    std::string names;
    for (const int v : split_) names += " " + bit_names_.at(v);
    progress(t_.name + ": values: " + std::to_string(listed->size()) + " cases of" + names + ", " + std::to_string(impossible) +
             " without a solution; shown equal: " + std::to_string(candidates.size()));
  }
  return candidates;
}

}  // namespace

std::set<std::string> settled_by_values(const UniquePlace& at, const std::set<std::string>& left) {
  return ValueStep(at, left).settle();
}

}  // namespace zkrv::air_solve::internal
