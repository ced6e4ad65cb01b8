// Padding rows (solve.h): does a row with is_real = 0 interact (padding_silent), and can one
// row of the table's padding template, changed, break a constraint alone (padding_attack, by the
// search of row_attack.cpp)?
#include <z3++.h>

#include <string>
#include <utility>
#include <vector>

#include "tools/air_solve/internal.h"
#include "tools/air_solve/solve.h"

namespace zkrv::air_solve {

std::vector<Answer> padding_silent(const spec::air::Spec& spec, const std::string& table, const Options& options) {
  using namespace internal;
  const Table& t = find_table(spec, table);
  std::vector<Answer> out;
  if (t.column_index("is_real") < 0) return out;
  const Carried carried = carried_bounds(spec, table, nullptr);
  Expr real;
  real.op = Expr::Op::kColumn, real.name = "is_real";
  for (const auto& b : t.buses) {
    if (!b.mult) continue;  // always active: not a question about padding rows
    Timer timer;
    Answer a{b.id, Verdict::kUnknown, 0, "a row with is_real = 0", {}};
    const z3::check_result res = rows_question(
        {spec, t, nullptr, carried, {}, options.timeout_ms}, Shape::kOne,
        [&](const Encoder& enc, const std::vector<z3::expr>& r, const std::vector<z3::expr>&) {
          return enc.reduced(enc.term(real, r, nullptr)) == 0 && enc.mult(b, r, nullptr) != 0;
        },
        &a.model);
    a.verdict = res == z3::unsat ? Verdict::kImplied : res == z3::sat ? Verdict::kAttack : Verdict::kUnknown;
    if (a.verdict == Verdict::kAttack) a.scenario = "a row with is_real = 0 where " + b.id + " is active";
    a.seconds = timer.seconds();
    out.push_back(std::move(a));
  }
  return out;
}

Answer padding_attack(const spec::air::Spec& spec, const std::string& table, const std::string& id,
                      const Options& options) {
  using namespace internal;
  const Table& t = find_table(spec, table);
  const spec::air::Constraint& target = find_constraint(t, id);
  Answer answer{id, Verdict::kUnknown, 0, "a padding row", {}, false, true};
  if (!t.padding || (target.rows != Rows::kEvery && target.rows != Rows::kTransition)) {
    answer.scenario = !t.padding ? "no repeated padding row in this table" : "a first- or last-row constraint: a padding row is interior";
    return answer;
  }
  Honest h;
  h.row.assign(t.columns.size(), 0);
  for (const auto& [c, v] : t.padding->fixed) h.row[static_cast<size_t>(t.column_index(c))] = v;
  for (const auto& c : t.padding->counting) h.counting.insert(static_cast<size_t>(t.column_index(c)));
  h.prev = h.row, h.next = h.row;
  return witness_attack(spec, t, target, h, options, answer);
}

}  // namespace zkrv::air_solve
