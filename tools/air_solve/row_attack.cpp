// Attacks on one row (internal.h, witness_attack): the honest row changed by small amounts so
// that its interactions stay as they were and one constraint alone breaks. row_attack asks it of
// a real row of a trace (--at); padding_attack (padding.cpp) of the padding template.
#include <z3++.h>

#include <algorithm>
#include <cmath>
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

// The columns a change may touch, narrowest first: those the constraint names, then those of
// the constraints that share a column with it, then all.
std::vector<std::set<std::string>> supports_of(const Table& t, const spec::air::Constraint& target) {
  std::set<std::string> near;
  spec::air::names(*target.expr, [&](const std::string& n, bool) { near.insert(n); });
  std::vector<std::set<std::string>> supports{near};
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
  return supports;
}

// A row of the attack with the bound on each column's magnitude (Encoder::holds_bounded), and
// the row after it (nullptr where there is none).
struct RowAt {
  const std::vector<z3::expr>& row;
  const std::vector<double>& mag;
  const std::vector<z3::expr>* next;
  const std::vector<double>* mag_next;
};

// What the attack is about: the table, the constraint to break, the honest rows.
struct AttackPlace {
  const spec::air::Spec& spec;
  const Table& t;
  const spec::air::Constraint& target;
  const Honest& h;
};

// One question of witness_attack in its own Z3 context: the rows around r, r's columns in
// `support` changed by at most `limit`.
class AttackCase {
 public:
  AttackCase(const AttackPlace& at, const std::set<std::string>& support, int limit, unsigned timeout_ms);
  z3::check_result check() { return s_.check(); }
  // The model as a trace mutation: r's columns that differ from the honest row.
  void report(Answer& answer);

 private:
  void make_rows(const std::set<std::string>& support, int limit);
  z3::expr all(Rows rows, RowAt at);
  void state_constraints();
  z3::expr same(const spec::air::BusInteraction& b, RowAt h, RowAt r);
  void state_interactions();
  void state_broken();

  const Table& t_;
  const spec::air::Constraint& target_;
  const Honest& h_;
  z3::context ctx_;
  Encoder enc_;
  z3::solver s_;
  z3::params params_;
  std::vector<z3::expr> prev_, honest_, row_, next_;
  std::vector<double> mag_prev_, mag_honest_, mag_row_, mag_next_;
};

AttackCase::AttackCase(const AttackPlace& at, const std::set<std::string>& support, int limit, unsigned timeout_ms)
    : t_(at.t), target_(at.target), h_(at.h), enc_(ctx_, at.spec, at.t), s_(ctx_), params_(ctx_) {
  params_.set("timeout", timeout_ms);
  s_.set(params_);
  make_rows(support, limit);
  enc_.use_signed_constants();
  state_constraints();
  state_interactions();
  for (const auto& [name, v] : h_.publics) s_.add(enc_.publics().at(name) == ctx_.int_val(std::to_string(v).c_str()));
  s_.add(enc_.domain());  // the public values
  state_broken();
}

void AttackCase::make_rows(const std::set<std::string>& support, int limit) {
  auto constant = [](z3::context& ctx, uint64_t v) { return ctx.int_val(static_cast<int64_t>(signed_value(v))); };
  const z3::expr bound = ctx_.int_val(limit);
  for (size_t i = 0; i < t_.columns.size(); ++i) {
    const auto& c = t_.columns[i];
    if (h_.counting.count(i)) {
      const z3::expr k = ctx_.int_const(c.name.c_str());
      s_.add(k >= 1 && k + 1 < ctx_.int_val(kP));
      prev_.push_back(k - 1), honest_.push_back(k), row_.push_back(k), next_.push_back(k + 1);
      for (auto* m : {&mag_prev_, &mag_honest_, &mag_row_, &mag_next_}) m->push_back(0x1p64);
      continue;
    }
    auto mag = [](uint64_t v) { return std::fabs(static_cast<double>(signed_value(v))); };
    prev_.push_back(constant(ctx_, h_.prev ? (*h_.prev)[i] : 0)), mag_prev_.push_back(h_.prev ? mag((*h_.prev)[i]) : 0);
    next_.push_back(constant(ctx_, h_.next ? (*h_.next)[i] : 0)), mag_next_.push_back(h_.next ? mag((*h_.next)[i]) : 0);
    const z3::expr hv = constant(ctx_, h_.row[i]);
    honest_.push_back(hv), mag_honest_.push_back(mag(h_.row[i]));
    if (c.kind == spec::air::ColumnKind::kPreprocessed || !support.count(c.name)) {
      row_.push_back(hv), mag_row_.push_back(mag(h_.row[i]));
    } else {
      const z3::expr x = ctx_.int_const(c.name.c_str());  // the change: the field value is h + x mod p
      s_.add(x >= -bound && x <= bound);
      row_.push_back(hv + x);
      mag_row_.push_back(mag(h_.row[i]) + limit);
    }
  }
}

// Every constraint of kind `rows` but the target holds at `at`.
z3::expr AttackCase::all(Rows rows, RowAt at) {
  const std::string* except = &target_.id;
  const std::vector<z3::expr>& local = at.row;
  z3::expr a = ctx_.bool_val(true);
  for (const auto& c : t_.constraints) {
    if (c.rows != rows || (except && c.id == *except)) continue;
    a = a && enc_.some_factor_zero(*c.expr, local, at.next, &at.mag, at.mag_next);  // the product itself follows
    if (const int b = enc_.bit_column(*c.expr); b >= 0) a = a && (local[b] == 0 || local[b] == 1);
  }
  return a;
}

void AttackCase::state_constraints() {
  const bool first = !h_.prev, final = !h_.next;
  s_.add(all(Rows::kEvery, {row_, mag_row_, nullptr, nullptr}));
  if (h_.prev) s_.add(all(Rows::kTransition, {prev_, mag_prev_, &row_, &mag_row_}));
  if (h_.next) s_.add(all(Rows::kTransition, {row_, mag_row_, &next_, &mag_next_}));
  if (first) s_.add(all(Rows::kFirst, {row_, mag_row_, h_.next ? &next_ : &row_, h_.next ? &mag_next_ : &mag_row_}));
  if (final) s_.add(all(Rows::kLast, {row_, mag_row_, nullptr, nullptr}));
}

// Interaction b at r as it was at h.
z3::expr AttackCase::same(const spec::air::BusInteraction& b, RowAt h, RowAt r) {
  auto value = [&](const Expr& e, RowAt at) {
    const z3::expr v = enc_.term(e, at.row, at.next);
    return enc_.magnitude(e, at.mag, at.mag_next) < 0x1p62 ? v : enc_.reduced(v);
  };
  const z3::expr m_h = b.mult ? value(*b.mult, h) : ctx_.int_val(1);
  const z3::expr m_r = b.mult ? value(*b.mult, r) : ctx_.int_val(1);
  if (h_.recount_lookups && is_lookup(b.bus) && b.send) {
    // a lookup's count is the fixed table's multiplicity column, which counts whatever is
    // sent: the multiplicity may change; what is sent must be in the table (a byte, a
    // 16-bit value, or a tuple that h sends: it is there)
    z3::expr a = ctx_.bool_val(true);
    const uint64_t k = b.bus == "byte" ? 256 : b.bus == "range16" ? 65536 : 0;
    for (const auto& el : b.tuple) {
      const z3::expr v = enc_.reduced(value(*el, r));
      a = a && z3::implies(enc_.reduced(m_r) != 0,
                           k ? v < ctx_.int_val(static_cast<int64_t>(k)) : enc_.reduced(m_h) != 0 && v == enc_.reduced(value(*el, h)));
    }
    return a;
  }
  z3::expr a = enc_.reduced(m_h) == enc_.reduced(m_r);
  for (const auto& el : b.tuple)
    a = a && z3::implies(enc_.reduced(m_h) != 0, enc_.reduced(value(*el, h)) == enc_.reduced(value(*el, r)));
  return a;
}

// every interaction of r, and of the row before it, as it was for h
void AttackCase::state_interactions() {
  for (const auto& b : t_.buses) {
    if (h_.next) s_.add(same(b, {honest_, mag_honest_, &next_, &mag_next_}, {row_, mag_row_, &next_, &mag_next_}));
    else s_.add(same(b, {honest_, mag_honest_, &honest_, &mag_honest_}, {row_, mag_row_, &row_, &mag_row_}));
    if (h_.prev) s_.add(same(b, {prev_, mag_prev_, &honest_, &mag_honest_}, {prev_, mag_prev_, &row_, &mag_row_}));
  }
}

void AttackCase::state_broken() {
  auto holds = [&](RowAt at) { return enc_.holds_bounded(*target_.expr, at.row, at.next, at.mag, at.mag_next); };
  switch (target_.rows) {
    case Rows::kEvery: s_.add(!holds({row_, mag_row_, nullptr, nullptr})); break;
    case Rows::kTransition: {
      z3::expr broken = ctx_.bool_val(false);
      if (h_.prev) broken = broken || !holds({prev_, mag_prev_, &row_, &mag_row_});
      if (h_.next) broken = broken || !holds({row_, mag_row_, &next_, &mag_next_});
      s_.add(broken);
      break;
    }
    case Rows::kFirst: s_.add(!holds({row_, mag_row_, h_.next ? &next_ : &row_, h_.next ? &mag_next_ : &mag_row_})); break;
    case Rows::kLast: s_.add(!holds({row_, mag_row_, nullptr, nullptr})); break;
  }
}

void AttackCase::report(Answer& answer) {
  // fewer changed columns read better as a mutation: put each back while the rest still
  // breaks the constraint alone
  z3::model m = s_.get_model();
  z3::expr_vector kept(ctx_);
  params_.set("timeout", 1000u);
  s_.set(params_);
  for (size_t i = 0; i < t_.columns.size(); ++i) {
    const z3::expr back = z3::mod(row_[i], ctx_.int_val(kP)) == z3::mod(honest_[i], ctx_.int_val(kP));
    if (h_.counting.count(i) || m.eval(back, true).is_true()) continue;
    kept.push_back(back);
    if (s_.check(kept) == z3::sat) m = s_.get_model();
    else kept.pop_back();
  }
  for (size_t i = 0; i < t_.columns.size(); ++i) {
    if (h_.counting.count(i)) continue;
    const std::string d = m.eval(z3::mod(row_[i], ctx_.int_val(kP)), true).get_decimal_string(0);
    const uint64_t v = std::stoull(d);
    if (v != h_.row[i]) answer.model.push_back({t_.columns[i].name, v, show(d)});
  }
  answer.verdict = Verdict::kAttack;
}

}  // namespace

Answer witness_attack(const spec::air::Spec& spec, const Table& t, const spec::air::Constraint& target,
                      const Honest& h, const Options& options, Answer answer) {
  Timer timer;
  if ((target.rows == Rows::kFirst && h.prev) || (target.rows == Rows::kLast && h.next)) {
    answer.scenario = target.rows == Rows::kFirst ? "a first-row constraint: the row is not the first"
                                                  : "a last-row constraint: the row is not the last";
    return answer;
  }
  const std::vector<std::set<std::string>> supports = supports_of(t, target);
  // small changes first (|x| <= 4), then up to 2^20; the last question (every column, 2^20) decides "none"
  std::vector<std::pair<size_t, int>> passes;
  for (int b : {4, 1 << 20})
    for (size_t k = 0; k < supports.size(); ++k) passes.emplace_back(k, b);
  for (size_t q = 0; q < passes.size(); ++q) {
    const auto [pass, limit] = passes[q];
    const bool last = q + 1 == passes.size();
    AttackCase question({spec, t, target, h}, supports[pass], limit,
                        last ? options.timeout_ms : std::min(options.timeout_ms / 4 + 1, 2000u));
    const z3::check_result res = question.check();
    if (res == z3::sat) {
      question.report(answer);
      answer.seconds = timer.seconds();
      return answer;
    }
    // unsat at the last question: none; unknown there: unknown
    if (last) answer.verdict = res == z3::unsat ? Verdict::kImplied : Verdict::kUnknown;
  }
  answer.seconds = timer.seconds();
  return answer;
}

}  // namespace internal

Answer row_attack(const spec::air::Spec& spec, const std::string& table, const std::string& id, const TraceRows& rows,
                  const Options& options) {
  using namespace internal;
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

}  // namespace zkrv::air_solve
