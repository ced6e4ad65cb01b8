// Is a table's row determined by its interactions (solve.h, unique)? Asked of two rows in each
// place of a trace, first as whole rows; where that has no answer, column by column
// (unique_columns.cpp).
#include <z3++.h>

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tools/air_solve/internal.h"
#include "tools/air_solve/solve.h"

namespace zkrv::air_solve {
namespace internal {

// Where a column is asked in the uniqueness question on row x (its next row `next`, nullptr where
// there is none): everywhere, or where its free mark's expression is not 0; false where that
// expression names the next row and there is none (free there).
z3::expr asked_where(const Encoder& enc, const Table& t, const std::string& column, Placed x) {
  const std::vector<z3::expr>* next = x.next;
  z3::context& ctx = x.row.front().ctx();
  const auto m = std::find_if(t.free.begin(), t.free.end(), [&](const spec::air::FreeMark& f) { return f.column == column; });
  if (m == t.free.end()) return ctx.bool_val(true);
  bool names_next = false;
  spec::air::names(*m->unless, [&](const std::string&, bool at_next) { names_next = names_next || at_next; });
  if (names_next && !next) return ctx.bool_val(false);
  return enc.reduced(enc.term(*m->unless, x.row, next)) != 0;
}

namespace {

// Two candidate rows x and y in the same place of the same trace: the same previous row (if
// any: transitions into x and y hold) and next row (if any: transitions out of them hold), the
// same multiplicity on every interaction and the same tuple where it is nonzero (a zero
// multiplicity fixes nothing). Four places: interior, first, last, and the only row.
struct Place {
  const char* name;
  bool prev, next;
};

// The question about whole rows x and y in one place, in its own Z3 context: may they differ in
// some main column (where it is asked)?
class WholeRows {
 public:
  WholeRows(const spec::air::Spec& spec, const Table& t, const Place& pl, const Options& options, const Carried& carried);
  z3::check_result check() { return s_.check(); }
  // The two rows of a satisfiable answer.
  void witness(Uniqueness& u) const;

 private:
  void state_rows(const Place& pl);
  void state_interactions(const Place& pl, const spec::air::Spec& spec, const Options& options);

  const Table& t_;
  z3::context ctx_;
  Encoder enc_;
  std::vector<z3::expr> x_, y_, prev_, next_;
  z3::solver s_;
  z3::params params_;
};

WholeRows::WholeRows(const spec::air::Spec& spec, const Table& t, const Place& pl, const Options& options, const Carried& carried)
    : t_(t), enc_(ctx_, spec, t, carried), x_(enc_.row("")), y_(enc_.row("#2")), prev_(enc_.row("^")), next_(enc_.row("'")),
      s_(ctx_), params_(ctx_) {
  params_.set("timeout", options.timeout_ms);
  s_.set(params_);
  state_rows(pl);
  state_interactions(pl, spec, options);
  // preprocessed columns are the verifier's: the same in both; a main column may differ
  z3::expr differs = ctx_.bool_val(false);
  for (size_t c = 0; c < x_.size(); ++c) {
    if (t.columns[c].kind == spec::air::ColumnKind::kPreprocessed) s_.add(x_[c] == y_[c]);
    else differs = differs || (x_[c] != y_[c] && asked_where(enc_, t, t.columns[c].name, {x_, pl.next ? &next_ : nullptr}));
  }
  s_.add(differs);
}

void WholeRows::state_rows(const Place& pl) {
  for (const auto* row : {&x_, &y_}) {
    const std::vector<z3::expr>* nx = pl.next ? &next_ : (pl.prev ? nullptr : row);
    s_.add(enc_.constraints(Rows::kEvery, nullptr, *row, nullptr));
    if (pl.next) s_.add(enc_.constraints(Rows::kTransition, nullptr, *row, &next_));
    if (pl.prev) s_.add(enc_.constraints(Rows::kTransition, nullptr, prev_, row));
    if (!pl.prev) s_.add(enc_.constraints(Rows::kFirst, nullptr, *row, pl.next ? &next_ : row));
    if (!pl.next) s_.add(enc_.constraints(Rows::kLast, nullptr, *row, nullptr));
    s_.add(enc_.lookups(*row, nx));
  }
  if (pl.next) s_.add(enc_.constraints(Rows::kEvery, nullptr, next_, nullptr) && enc_.lookups(next_, nullptr));
  if (pl.prev) s_.add(enc_.constraints(Rows::kEvery, nullptr, prev_, nullptr) && enc_.lookups(prev_, &x_));
  s_.add(enc_.domain());
}

void WholeRows::state_interactions(const Place& pl, const spec::air::Spec& spec, const Options& options) {
  const std::vector<z3::expr>* nx_x = pl.next ? &next_ : &x_;
  const std::vector<z3::expr>* nx_y = pl.next ? &next_ : &y_;
  z3::expr interacts = ctx_.bool_val(false);
  for (const auto& b : t_.buses) {
    if (!is_lookup(b.bus) || !b.send) interacts = interacts || enc_.mult(b, x_, nx_x) != 0;
    s_.add(same_interaction(enc_, b, {x_, nx_x}, {y_, nx_y}, role_of(spec, options, b)));
  }
  if (options.interacting) s_.add(interacts);
}

void WholeRows::witness(Uniqueness& u) const {
  const z3::model m = s_.get_model();
  collect(m, x_, u.first);
  collect(m, y_, u.second);
}

std::string list(const std::vector<std::string>& v) {
  std::string o;
  for (const auto& n : v) o += (o.empty() ? "" : " ") + n;
  return o;
}

}  // namespace
}  // namespace internal

Uniqueness unique(const spec::air::Spec& spec, const std::string& table, const Options& options) {
  using namespace internal;
  const Table& t = find_table(spec, table);
  check_outputs(spec, options.outputs);
  check_outputs(spec, options.reads);
  Timer timer;
  Uniqueness u{table, Verdict::kImplied, 0, {}, {}, {}, {}};
  for (const auto& m : t.free) u.but += (u.but.empty() ? "" : "; ") + m.column + " unless " + spec::air::to_string(*m.unless);
  if (options.interacting &&
      std::none_of(t.buses.begin(), t.buses.end(), [](const spec::air::BusInteraction& b) { return !is_lookup(b.bus) || !b.send; })) {
    u.verdict = Verdict::kUnknown;  // no row interacts: "unique" would say nothing
    u.place = "no interaction but lookup sends, so no row counts as interacting";
    return u;
  }
  const Carried carried = carried_bounds(spec, table, nullptr);
  std::optional<bool> real;  // asked once, when a place needs it
  for (const Place& pl : {Place{"an interior row", true, true}, Place{"the first row", false, true},
                          Place{"the last row", true, false}, Place{"a one-row table", false, false}}) {
    WholeRows whole(spec, t, pl, options, carried);
    const z3::check_result res = options.by_columns ? z3::unknown : whole.check();
    if (res == z3::unsat) continue;
    if (res == z3::sat) {
      u.verdict = Verdict::kAttack;
      u.place = pl.name;
      whole.witness(u);
      break;
    }
    // no answer for the whole rows: column by column
    if (!real) {
      real = options.interacting && t.column_index("is_real") >= 0 && TableFacts{t, nullptr}.is_bit("is_real");
      for (const auto& a : real ? padding_silent(spec, table, options) : std::vector<Answer>{})
        real = *real && a.verdict == Verdict::kImplied;
    }
    // the bit columns are bits on every row (their constraints hold on each)
    std::set<std::string> bits;
    for (const auto& col : t.columns)
      if (TableFacts{t, nullptr}.is_bit(col.name)) bits.insert(col.name);
    const Steps st = unique_by_steps({spec, t, pl.prev, pl.next, *real, options, bits, carried});
    if (!st.free.empty()) {
      u.verdict = Verdict::kAttack;
      u.place = std::string(pl.name) + "; free alone: " + list(st.free) + (st.left.empty() ? "" : "; not shown: " + list(st.left));
      u.first = st.first, u.second = st.second;
      break;
    }
    if (st.left.empty()) continue;
    u.verdict = Verdict::kUnknown;
    u.place = std::string(pl.name) + "; by columns, not shown: " + list(st.left);
    break;
  }
  u.seconds = timer.seconds();
  return u;
}

}  // namespace zkrv::air_solve
