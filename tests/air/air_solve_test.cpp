// zkrv-air-solve's three answers, each on a case that Z3 settles in seconds (the whole run is
// `air.solve.long`): a constraint implied by the rest of its table, a constraint that is not
// (the counterexample is checked by the spec's own evaluator: every other constraint that applies
// holds on it, the byte and range16 lookups are in range, and the constraint fails), and a table
// whose rows are determined by their bus interactions.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "spec/air/embedded.h"
#include "spec/air/expr.h"
#include "tools/air_solve/solve.h"

namespace zkrv {
namespace {

using air_solve::Verdict;
using spec::air::Rows;

air_solve::Options generous() {
  air_solve::Options o;
  o.timeout_ms = 60000;  // these take seconds; the bound only keeps a slow machine from failing
  return o;
}

TEST(AirSolve, ABitConstraintImpliedByItsTable) {
  const auto a = air_solve::implied(spec::air::embedded_spec(), "io", "io:c:real_bit", generous());
  EXPECT_EQ(a.verdict, Verdict::kImplied) << air_solve::format(a);
}

TEST(AirSolve, AnAttackIsARowThatBreaksOnlyTheConstraint) {
  const auto& spec = spec::air::embedded_spec();
  const std::string id = "io:c:idx_first";
  const auto a = air_solve::implied(spec, "io", id, generous());
  ASSERT_EQ(a.verdict, Verdict::kAttack) << air_solve::format(a);
  ASSERT_FALSE(a.violate_next);  // a first-row constraint is broken on the first row
  std::map<std::string, uint64_t> v;
  for (const auto& x : a.model) v[x.column] = x.value;
  auto lookup = [&](const std::string& name, bool next) -> uint64_t {
    const auto it = v.find(spec.table("io")->column_index(name) >= 0 ? name + (next ? "'" : "") : "$" + name);
    return it == v.end() ? 0 : it->second;
  };
  auto on_next = [&](const std::string& name, bool) { return lookup(name, true); };
  size_t checked = 0;
  for (const auto& c : spec.table("io")->constraints) {
    const uint64_t here = spec::air::eval(*c.expr, lookup);
    if (c.id == id) {
      EXPECT_NE(here, 0u) << "the counterexample satisfies " << id;
      continue;
    }
    switch (c.rows) {
      case Rows::kEvery:
        EXPECT_EQ(here, 0u) << c.id << " on the row";
        EXPECT_EQ(spec::air::eval(*c.expr, on_next), 0u) << c.id << " on the next row";
        break;
      case Rows::kTransition:
      case Rows::kFirst: EXPECT_EQ(here, 0u) << c.id; break;
      case Rows::kLast: break;  // the row is the first, not the last
    }
    ++checked;
  }
  for (const auto& b : spec.table("io")->buses) {
    if (!b.send || (b.bus != "byte" && b.bus != "range16")) continue;
    const uint64_t bound = b.bus == "byte" ? 256 : 65536;
    for (auto row : {false, true}) {
      auto at = [&](const std::string& name, bool next) { return lookup(name, next || row); };
      const uint64_t m = b.mult ? spec::air::eval(*b.mult, at) : 1;
      if (m != 0) {
        EXPECT_LT(spec::air::eval(*b.tuple[0], at), bound) << b.id << (row ? " on the next row" : "");
      }
    }
  }
  EXPECT_GT(checked, 10u);
}

TEST(AirSolve, ATableWhoseRowsTheirInteractionsDetermine) {
  const auto u = air_solve::unique(spec::air::embedded_spec(), "io", generous());
  EXPECT_EQ(u.verdict, Verdict::kImplied) << air_solve::format(u);
}

TEST(AirSolve, UnknownNamesAreRefused) {
  const auto& spec = spec::air::embedded_spec();
  EXPECT_THROW(air_solve::implied(spec, "nosuch", "nosuch:c:x", generous()), std::invalid_argument);
  EXPECT_THROW(air_solve::implied(spec, "io", "io:c:nosuch", generous()), std::invalid_argument);
  EXPECT_THROW(air_solve::unique(spec, "nosuch", generous()), std::invalid_argument);
}

}  // namespace
}  // namespace zkrv
