// The spec's expressions as Z3 terms (encoder.h; solve.h, "Encoding"), the affine forms that the
// terms of bits take, and the one field operation that spec/air/expr.h does not offer.
#include <z3++.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/assert.h"
#include "spec/air/expr.h"
#include "tools/air_solve/encoder.h"
#include "tools/air_solve/facts.h"

namespace zkrv::air_solve::internal {

uint64_t field_inverse(uint64_t a) {  // a^(p-2), a != 0
  uint64_t r = 1, e = kPValue - 2;
  for (; e; e >>= 1, a = spec::air::fp_mul(a, a))
    if (e & 1) r = spec::air::fp_mul(r, a);
  return r;
}

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

std::pair<double, double> form_range(const Form& f) {
  double lo = static_cast<double>(f.c0), hi = lo;
  for (const auto& [n, c] : f.terms) (c < 0 ? lo : hi) += static_cast<double>(c);
  return {lo, hi};
}

Encoder::Encoder(z3::context& ctx, const spec::air::Spec& spec, const Table& t, Carried carried)
    : ctx_(ctx), t_(t), p_(ctx.int_val(kP)), carried_(std::move(carried)) {
  for (const auto& pub : spec.publics) publics_.emplace(pub.name, bounded(ctx.int_const(("$" + pub.name).c_str())));
}

std::vector<z3::expr> Encoder::row(const std::string& suffix) {
  std::vector<z3::expr> r;
  for (const auto& c : t_.columns) r.push_back(bounded(ctx_.int_const((c.name + suffix).c_str())));
  return r;
}

z3::expr Encoder::term(const Expr& e, const std::vector<z3::expr>& local, const std::vector<z3::expr>* next) const {
  switch (e.op) {
    case Expr::Op::kConst:
      if (signed_constants_ && e.value > kHalfP) return -ctx_.int_val(std::to_string(kPValue - e.value).c_str());
      return ctx_.int_val(std::to_string(e.value).c_str());
    case Expr::Op::kColumn:
    case Expr::Op::kNext: {
      ZKRV_ASSERT(e.op != Expr::Op::kNext || next, "a next-row reference where there is no next row: " + e.name);
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
  ZKRV_ASSERT(false, "unknown expression node");
}

std::optional<Encoder::BitAffine> Encoder::bit_affine(const Expr& e, const std::vector<z3::expr>& local, const std::vector<z3::expr>* next) const {
  const auto a = small_form(e);
  if (!a) return std::nullopt;
  BitAffine out{a->c0, {}};
  for (const auto& [key, c] : a->terms) {
    const auto& [name, at_next] = key;
    ZKRV_ASSERT(!at_next || next, "a next-row reference where there is no next row: " + name);
    out.terms.emplace_back(c, (at_next ? *next : local).at(static_cast<size_t>(t_.column_index(name))));
  }
  return out;
}

z3::expr Encoder::sum(const BitAffine& a) const {
  z3::expr r = ctx_.int_val(a.c0);
  for (const auto& [c, b] : a.terms) r = r + (c == 1 ? b : ctx_.int_val(c) * b);
  return r;
}

std::optional<Form> Encoder::small_form(const Expr& e) const {
  if (bit_columns_.empty() && defs_.empty()) return std::nullopt;
  return affine_of_bits(e);
}

std::optional<Form> Encoder::affine_of_bits(const Expr& e) const {
  return affine_form(e, [this](const std::string& col, bool next) -> std::optional<Form> {
    if (bit_columns_.count(col)) return Form{0, {{{col, next}, 1}}};
    const auto d = defs_.find(col);
    if (d == defs_.end()) return std::nullopt;
    Form f{d->second.c0, {}};
    for (const auto& [key, c] : d->second.terms) f.terms[{key.first, next}] = c;
    return f;
  });
}

z3::expr Encoder::definitions_hold(const std::vector<z3::expr>& row) const {
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

z3::expr Encoder::factor(const Expr& e, const std::vector<z3::expr>& local, const std::vector<z3::expr>* next) const {
  const bool small = small_form(e).has_value();  // a small integer already
  return reduce_products_ && !is_atom(e) && !small ? reduced(term(e, local, next)) : term(e, local, next);
}

z3::expr Encoder::holds_bounded(const Expr& e, const std::vector<z3::expr>& local, const std::vector<z3::expr>* next,
                                const std::vector<double>& mag_local, const std::vector<double>* mag_next) const {
  ZKRV_ASSERT(signed_constants_, "holds_bounded without signed constants");  // magnitude takes them signed
  const double m = magnitude(e, mag_local, mag_next);
  return m < 0x1p62 ? term(e, local, next) == 0 : reduced(term(e, local, next)) == 0;
}

double Encoder::magnitude(const Expr& e, const std::vector<double>& local, const std::vector<double>* next) const {
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

z3::expr Encoder::holds(const Expr& e, const std::vector<z3::expr>& local, const std::vector<z3::expr>* next) const {
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

std::pair<double, double> Encoder::range(const Expr& e) const {
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

z3::expr Encoder::mult(const spec::air::BusInteraction& b, const std::vector<z3::expr>& local,
                       const std::vector<z3::expr>* next) const {
  return b.mult ? reduced(term(*b.mult, local, next)) : ctx_.int_val(1);
}

z3::expr Encoder::lookups(const std::vector<z3::expr>& local, const std::vector<z3::expr>* next,
                          const std::vector<bool>* only, const std::string* skip) const {
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

bool Encoder::nonnegative(const Expr& e, const std::string* skip) const {
  if (proved_bits_.count(spec::air::to_string(e))) return true;
  if (e.op == Expr::Op::kConst) return e.value < (uint64_t{1} << 32);  // a small non-negative integer (p - 1 is -1)
  if (e.op == Expr::Op::kAdd) return nonnegative(*e.args[0], skip) && nonnegative(*e.args[1], skip);
  if (e.op != Expr::Op::kColumn) return false;
  for (const auto& c : t_.constraints)
    if (c.rows == Rows::kEvery && (!skip || c.id != *skip) && bit_column(*c.expr) == t_.column_index(e.name)) return true;
  return false;
}

z3::expr Encoder::constraints(Rows rows, const std::string* skip, const std::vector<z3::expr>& local,
                              const std::vector<z3::expr>* next, const std::vector<bool>* only) const {
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

z3::expr Encoder::some_factor_zero(const Expr& e, const std::vector<z3::expr>& local, const std::vector<z3::expr>* next,
                                   const std::vector<double>* ml, const std::vector<double>* mn) const {
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

std::optional<std::pair<z3::expr, z3::expr>> Encoder::witness_split(const Expr& f, const std::vector<z3::expr>& local,
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

std::optional<std::pair<z3::expr, z3::expr>> Encoder::linear_in(const Expr& f, const std::string& y, bool y_next,
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

int Encoder::bit_column(const Expr& e) const {
  const std::string x = bit_column_name(e);
  return x.empty() ? -1 : t_.column_index(x);
}

z3::expr Encoder::domain() const {
  z3::expr all = ctx_.bool_val(true);
  for (const auto& b : bounds_) all = all && b;
  return all;
}

z3::expr Encoder::bounded(const z3::expr& v) {
  bounds_.push_back(v >= 0 && v < p_);
  return v;
}

}  // namespace zkrv::air_solve::internal
