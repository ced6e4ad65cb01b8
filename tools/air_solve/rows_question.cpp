// One question about rows of one table (internal.h, rows_question): what the descent, the count
// of a receive's tuples and the silent padding ask, each with its own claim.
#include <z3++.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tools/air_solve/internal.h"

namespace zkrv::air_solve::internal {

z3::check_result rows_question(const RowsQuestion& q, Shape shape, const Claim& claim, std::vector<Assignment>* model) {
  const Table& t = q.t;
  const std::string* skip = q.skip;
  auto [c, b] = q.ids.empty() ? std::make_pair(std::vector<bool>(t.constraints.size(), true), std::vector<bool>(t.buses.size(), true))
                              : certificate(t, q.ids, skip, {});
  std::vector<bool> alone = b;  // the interactions a row without its next row can read
  for (size_t j = 0; j < t.buses.size(); ++j) {
    bool names_next = false;
    auto look = [&](const Expr& e) { spec::air::names(e, [&](const std::string&, bool next) { names_next = names_next || next; }); };
    if (t.buses[j].mult) look(*t.buses[j].mult);
    for (const auto& el : t.buses[j].tuple) look(*el);
    if (names_next) alone[j] = false;
  }
  z3::context ctx;
  Encoder enc(ctx, q.spec, t, q.carried);
  enc.use_reduced_products();
  enc.use_proved_bits(q.proved_bits);
  const TableFacts facts{t, skip};
  std::set<std::string> bits;
  for (const auto& col : t.columns)
    if (facts.is_bit(col.name)) bits.insert(col.name);
  enc.use_ranges(bits);
  // the certificate's constraints may define columns (all of the table's where ids names none of
  // its IDs; none where ids names only interactions)
  enc.use_definitions(definitions(t, skip, facts, {}, q.ids));
  std::vector<std::vector<z3::expr>> rows{enc.row("")};
  if (shape != Shape::kOne) rows.push_back(enc.row(shape == Shape::kNext ? "'" : "#2"));
  z3::solver solver(ctx);
  z3::params params(ctx);
  params.set("timeout", q.timeout_ms);
  solver.set(params);
  z3::expr domain = enc.domain();
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    solver.add(enc.constraints(Rows::kEvery, skip, r, nullptr, &c));
    if (q.bounds)  // without: no interaction's bounds (a question that bounds rest on)
      solver.add(shape == Shape::kNext && i == 0 ? enc.lookups(r, &rows[1], &b, skip) : enc.lookups(r, nullptr, &alone, skip));
    domain = domain && enc.definitions_hold(r);
    for (const auto& bit : bits) {
      const z3::expr& x = r[static_cast<size_t>(t.column_index(bit))];
      domain = domain && (x == 0 || x == 1);
    }
  }
  if (shape == Shape::kNext) solver.add(enc.constraints(Rows::kTransition, skip, rows[0], &rows[1], &c));
  solver.add(domain);
  solver.add(claim(enc, rows[0], shape == Shape::kOne ? std::vector<z3::expr>{} : rows[1]));
  const z3::check_result res = solver.check();
  if (res == z3::sat && model)
    for (const auto& r : rows) collect(solver.get_model(), r, *model);
  return res;
}

z3::check_result row_question(const RowsQuestion& q, const RowClaim& claim) {
  return rows_question(q, Shape::kOne,
                       [&](const Encoder& enc, const std::vector<z3::expr>& r, const std::vector<z3::expr>&) { return claim(enc, r); });
}

}  // namespace zkrv::air_solve::internal
