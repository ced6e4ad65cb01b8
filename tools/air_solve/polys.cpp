// Polynomials over F_p (polys.h): built from the spec's expressions, multiplied, evaluated in
// part, composed; a place's polynomials as one of its rows sees them; the cases of a few bits.
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
#include <vector>

#include "spec/air/expr.h"
#include "tools/air_solve/polys.h"

namespace zkrv::air_solve::internal {

void add_term(Poly& p, const Mono& m, uint64_t c) {
  if (c == 0) return;
  auto [it, fresh] = p.emplace(m, c);
  if (!fresh && (it->second = spec::air::fp_add(it->second, c)) == 0) p.erase(it);
}

std::optional<Poly> poly_times(const Poly& a, const Poly& b, size_t cap) {
  Poly r;
  for (const auto& [ma, ca] : a)
    for (const auto& [mb, cb] : b) {
      Mono m;
      std::merge(ma.begin(), ma.end(), mb.begin(), mb.end(), std::back_inserter(m));
      add_term(r, m, spec::air::fp_mul(ca, cb));
      if (r.size() > cap) return std::nullopt;
    }
  return r;
}

std::optional<Poly> poly_of(const Expr& e, const std::function<int(const Expr&)>& var) {
  // One node at a time (spec::air::visit): a variable is numbered from its leaf's expression.
  struct ToPoly {
    const Expr& e;
    const std::function<int(const Expr&)>& var;
    static std::optional<Poly> times(const Poly& a, const Poly& b) { return poly_times(a, b, 4096); }
    std::optional<Poly> constant(uint64_t v) const {
      Poly p;
      add_term(p, {}, v % kPValue);
      return p;
    }
    std::optional<Poly> variable() const {
      Poly p;
      p.emplace(Mono{var(e)}, 1);
      return p;
    }
    std::optional<Poly> column(const std::string&, bool) const { return variable(); }
    std::optional<Poly> public_value(const std::string&) const { return variable(); }
    std::optional<Poly> neg(const Expr& x) const {
      auto a = poly_of(x, var);
      if (a)
        for (auto& [m, c] : *a) c = spec::air::fp_sub(0, c);
      return a;
    }
    std::optional<Poly> add(const Expr& x, const Expr& z) const { return plus(x, z, false); }
    std::optional<Poly> sub(const Expr& x, const Expr& z) const { return plus(x, z, true); }
    std::optional<Poly> plus(const Expr& x, const Expr& z, bool minus) const {
      auto a = poly_of(x, var), b = poly_of(z, var);
      if (!a || !b) return std::nullopt;
      for (const auto& [m, c] : *b) add_term(*a, m, minus ? spec::air::fp_sub(0, c) : c);
      return a;
    }
    std::optional<Poly> mul(const Expr& x, const Expr& z) const {
      const auto a = poly_of(x, var), b = poly_of(z, var);
      if (!a || !b) return std::nullopt;
      return times(*a, *b);
    }
    std::optional<Poly> pow(const Expr& x, uint64_t k) const {
      const auto a = poly_of(x, var);
      if (!a) return std::nullopt;
      std::optional<Poly> r = Poly{};
      r->emplace(Mono{}, 1);
      for (uint64_t i = 0; i < k && r; ++i) r = times(*r, *a);
      return r;
    }
  };
  return spec::air::visit<std::optional<Poly>>(e, ToPoly{e, var});
}

Poly substitute(const Poly& p, const std::map<int, uint64_t>& value) {
  Poly r;
  for (const auto& [m, c] : p) {
    Mono rest;
    uint64_t k = c;
    for (const int v : m) {
      const auto it = value.find(v);
      if (it == value.end()) rest.push_back(v);
      else k = spec::air::fp_mul(k, it->second);
    }
    add_term(r, rest, k);
  }
  return r;
}

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

BitCases::BitCases(const std::map<int, std::string>& bits, unsigned timeout_ms) : cases_(ctx_) {
  for (const auto& [id, name] : bits) bit_.emplace(id, ctx_.bool_const(("b_" + name).c_str()));
  z3::params params(ctx_);
  params.set("timeout", std::min(timeout_ms, 2000u));
  cases_.set(params);
}

bool BitCases::over_bits(const Poly& p) const {
  return std::all_of(p.begin(), p.end(), [&](const auto& mc) {
    return std::all_of(mc.first.begin(), mc.first.end(), [&](int v) { return bit_.count(v) > 0; });
  });
}

z3::expr BitCases::zero_mod_p(const Poly& p) {
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

void BitCases::require_row(int is_real, bool interacting, const std::vector<PlacePolys::Bus>& buses) {
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

std::optional<std::vector<std::map<int, uint64_t>>> BitCases::each(const std::set<int>& split, size_t cap, std::string& why) {
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

}  // namespace zkrv::air_solve::internal
