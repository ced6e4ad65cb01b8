// The spec's expressions as Z3 terms (encoder.h; solve.h, "Encoding"), the affine forms that the
// terms of bits take, and the one field operation that spec/air/expr.h does not offer.
#include <z3++.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
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
  struct Affine {
    const Leaf& leaf;
    static bool small(int64_t v) { return v >= -kMax && v <= kMax; }
    std::optional<Form> constant(uint64_t value) const {
      const int64_t v = value > kHalfP ? -static_cast<int64_t>(kPValue - value) : static_cast<int64_t>(value);
      if (!small(v)) return std::nullopt;
      return Form{v, {}};
    }
    std::optional<Form> column(const std::string& name, bool next) const { return leaf(name, next); }
    std::optional<Form> public_value(const std::string&) const { return std::nullopt; }
    std::optional<Form> neg(std::optional<Form> a) const {
      if (!a) return std::nullopt;
      a->c0 = -a->c0;
      for (auto& [n, c] : a->terms) c = -c;
      return a;
    }
    std::optional<Form> add(std::optional<Form> a, std::optional<Form> b) const { return plus(std::move(a), b, 1); }
    std::optional<Form> sub(std::optional<Form> a, std::optional<Form> b) const { return plus(std::move(a), b, -1); }
    std::optional<Form> plus(std::optional<Form> a, const std::optional<Form>& b, int64_t sign) const {  // a + sign b
      if (!a || !b) return std::nullopt;
      a->c0 += sign * b->c0;
      for (const auto& [n, c] : b->terms) a->terms[n] += sign * c;
      if (!small(a->c0)) return std::nullopt;
      for (const auto& [n, c] : a->terms)
        if (!small(c)) return std::nullopt;
      return a;
    }
    std::optional<Form> mul(std::optional<Form> a, std::optional<Form> b) const {  // by a constant only
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
    std::optional<Form> pow(const std::optional<Form>&, uint64_t) const { return std::nullopt; }
  };
  return spec::air::fold<std::optional<Form>>(e, Affine{leaf});
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
  // One node at a time (spec::air::visit): a product and a power look at their operands'
  // expressions, not only at their terms.
  struct Term {
    const Encoder& enc;
    const Expr& e;
    const std::vector<z3::expr>& local;
    const std::vector<z3::expr>* next;
    z3::expr of(const Expr& x) const { return enc.term(x, local, next); }
    z3::expr constant(uint64_t v) const {
      if (enc.signed_constants_ && v > kHalfP) return -enc.ctx_.int_val(std::to_string(kPValue - v).c_str());
      return enc.ctx_.int_val(std::to_string(v).c_str());
    }
    z3::expr column(const std::string& name, bool at_next) const {
      ZKRV_ASSERT(!at_next || next, "a next-row reference where there is no next row: " + name);
      const std::vector<z3::expr>& row = at_next ? *next : local;
      if (enc.defs_.count(name)) return enc.sum(*enc.bit_affine(e, local, next));  // its definition on that row (always a form)
      return row.at(static_cast<size_t>(enc.t_.column_index(name)));
    }
    z3::expr public_value(const std::string& name) const { return enc.publics_.at(name); }
    z3::expr neg(const Expr& a) const { return -of(a); }
    z3::expr pow(const Expr& a, uint64_t k) const {
      z3::expr base = of(a), r = enc.ctx_.int_val(1);
      if (enc.reduce_products_ && a.op != Expr::Op::kColumn) base = enc.reduced(base);
      for (uint64_t i = 0; i < k; ++i) r = r * base;
      return r;
    }
    z3::expr add(const Expr& a, const Expr& b) const { return of(a) + of(b); }
    z3::expr sub(const Expr& a, const Expr& b) const { return of(a) - of(b); }
    z3::expr mul(const Expr& a, const Expr& b) const {
      // a factor that is an affine form of bits multiplies the other as a sum of bit-gated
      // copies (b x is x where b = 1 and 0 where b = 0): linear in the other factor
      const Expr* factors[2] = {&a, &b};
      for (int k = 0; k < 2; ++k)
        if (auto f = enc.bit_affine(*factors[k], local, next)) {
          const z3::expr other = enc.factor(*factors[1 - k], local, next);
          z3::expr r = f->c0 == 0 ? enc.ctx_.int_val(0) : enc.ctx_.int_val(f->c0) * other;
          for (const auto& [c, bit] : f->terms) {
            const z3::expr gated = z3::ite(bit == 1, other, enc.ctx_.int_val(0));
            r = r + (c == 1 ? gated : enc.ctx_.int_val(c) * gated);
          }
          return r;
        }
      return enc.factor(a, local, next) * enc.factor(b, local, next);
    }
  };
  return spec::air::visit<z3::expr>(e, Term{*this, e, local, next});
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
  struct Magnitude {
    const Table& t;
    const std::vector<double>& local;
    const std::vector<double>* next;
    double constant(uint64_t v) const { return static_cast<double>(v > kHalfP ? kPValue - v : v); }
    double column(const std::string& name, bool at_next) const {
      const auto c = static_cast<size_t>(t.column_index(name));
      if (!at_next) return local.at(c);
      return next ? next->at(c) : 0x1p64;
    }
    double public_value(const std::string&) const { return 0x1p64; }
    double neg(double a) const { return a; }
    double pow(double a, uint64_t k) const {
      double r = 1;
      for (uint64_t i = 0; i < k; ++i) r *= a;
      return r;
    }
    double add(double a, double b) const { return a + b; }
    double sub(double a, double b) const { return a + b; }
    double mul(double a, double b) const { return a * b; }
  };
  return spec::air::fold<double>(e, Magnitude{t_, local, next});
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
  using Range = std::pair<double, double>;
  // One node at a time (spec::air::visit): a product and a power look at their operands'
  // expressions, as term() does.
  struct Ranges {
    const Encoder& enc;
    const Expr& e;
    Range constant(uint64_t v) const {
      const double c = enc.signed_constants_ && v > kHalfP ? -static_cast<double>(kPValue - v) : static_cast<double>(v);
      return {c, c};
    }
    Range column(const std::string& name, bool) const {
      if (enc.defs_.count(name)) return form_range(*enc.affine_of_bits(e));
      return enc.bit_columns_.count(name) ? std::make_pair(0.0, 1.0) : std::make_pair(0.0, kPDouble);
    }
    Range public_value(const std::string&) const { return {0.0, kPDouble}; }
    Range neg(const Expr& a) const {
      const auto [lo, hi] = enc.range(a);
      return {-hi, lo * -1};
    }
    Range add(const Expr& a, const Expr& b) const {
      const auto x = enc.range(a), y = enc.range(b);
      return {x.first + y.first, x.second + y.second};
    }
    Range sub(const Expr& a, const Expr& b) const {
      const auto x = enc.range(a), y = enc.range(b);
      return {x.first - y.second, x.second - y.first};
    }
    // a factor as factor() states it: reduced unless an atom or small
    Range side(const Expr& x) const {
      const bool small = enc.small_form(x).has_value();
      return enc.reduce_products_ && !is_atom(x) && !small ? std::make_pair(0.0, kPDouble) : enc.range(x);
    }
    static Range times(Range a, Range b) {
      const double c[4] = {a.first * b.first, a.first * b.second, a.second * b.first, a.second * b.second};
      return std::make_pair(*std::min_element(c, c + 4), *std::max_element(c, c + 4));
    }
    Range mul(const Expr& a, const Expr& b) const {
      // as term() states it: a small factor's form (constants read signed there) times the other
      if (const auto f = enc.small_form(a)) return times(form_range(*f), side(b));
      if (const auto f = enc.small_form(b)) return times(form_range(*f), side(a));
      return times(side(a), side(b));
    }
    Range pow(const Expr& a, uint64_t k) const {
      // term() reduces a base that is not a column of this row
      const Range base = enc.reduce_products_ && a.op != Expr::Op::kColumn ? std::make_pair(0.0, kPDouble) : enc.range(a);
      Range r{1.0, 1.0};
      for (uint64_t i = 0; i < k; ++i) r = times(r, base);
      return r;
    }
  };
  return spec::air::visit<Range>(e, Ranges{*this, e});
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
  using Linear = std::optional<std::pair<z3::expr, z3::expr>>;
  // (A, R) of a sub-expression; one node at a time (spec::air::visit) where it names y, as
  // (0, its term) where it does not. Not linear: a power of y, a product of two y factors.
  struct Lin {
    const Encoder& enc;
    const std::string& y;
    bool y_next;
    const std::vector<z3::expr>& local;
    const std::vector<z3::expr>* next;
    bool has_y(const Expr& x) const { return names_column(x, y, y_next); }
    Linear of(const Expr& x) const {
      if (!has_y(x)) return std::make_pair(enc.ctx_.int_val(0), enc.term(x, local, next));
      return spec::air::visit<Linear>(x, *this);
    }
    Linear constant(uint64_t) const { return std::nullopt; }
    Linear column(const std::string&, bool) const { return std::make_pair(enc.ctx_.int_val(1), enc.ctx_.int_val(0)); }  // y
    Linear public_value(const std::string&) const { return std::nullopt; }
    Linear neg(const Expr& x) const {
      auto a = of(x);
      if (!a) return std::nullopt;
      return std::make_pair(-a->first, -a->second);
    }
    Linear add(const Expr& x, const Expr& z) const {
      auto a = of(x), b = of(z);
      if (!a || !b) return std::nullopt;
      return std::make_pair(a->first + b->first, a->second + b->second);
    }
    Linear sub(const Expr& x, const Expr& z) const {
      auto a = of(x), b = of(z);
      if (!a || !b) return std::nullopt;
      return std::make_pair(a->first - b->first, a->second - b->second);
    }
    Linear mul(const Expr& x, const Expr& z) const {
      const bool in0 = has_y(x), in1 = has_y(z);
      if (in0 && in1) return std::nullopt;
      auto a = of(in0 ? x : z);
      if (!a) return std::nullopt;
      const z3::expr other = enc.factor(in0 ? z : x, local, next);
      return std::make_pair(a->first * other, a->second * other);
    }
    Linear pow(const Expr&, uint64_t) const { return std::nullopt; }
  };
  return Lin{*this, y, y_next, local, next}.of(f);
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
