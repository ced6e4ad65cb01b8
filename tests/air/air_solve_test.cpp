// zkrv-air-solve's three answers, each on a case that Z3 settles in seconds (the whole run is
// `air.solve.long`). On the spec: a constraint that the rest of its table does not imply (the
// counterexample is checked by the spec's own evaluator: every other constraint that applies
// holds on it, the byte and range16 lookups are in range, and the constraint fails), and a table
// whose rows are determined. On small hand-made specs with known answers: an implied
// constraint, one that only a transition seems to imply (not implied: the question must not
// assume the constraint on the next row), and a row whose zero multiplicity leaves its tuple free.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <stdexcept>
#include <string>

#include "spec/air/embedded.h"
#include "spec/air/expr.h"
#include "tools/air_solve/solve.h"

namespace zkrv {
namespace {

using air_solve::Verdict;
using spec::air::Rows;

// A hand-made spec, or a throw naming its first error.
spec::air::Spec loaded(const std::vector<spec::air::SourceFile>& files) {
  auto r = spec::air::load_spec(files);
  if (!r.spec) throw std::runtime_error(r.errors.empty() ? "no spec" : r.errors.front().str());
  return std::move(*r.spec);
}

air_solve::Options generous() {
  air_solve::Options o;
  o.timeout_ms = 60000;  // these take seconds; the bound only keeps a slow machine from failing
  return o;
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

// byte: value is preprocessed, and mult is fixed by the interaction.
TEST(AirSolve, ATableWhoseRowsTheirInteractionsDetermine) {
  const auto u = air_solve::unique(spec::air::embedded_spec(), "byte", generous());
  EXPECT_EQ(u.verdict, Verdict::kImplied) << air_solve::format(u);
  // mem's rows that touch the memory bus are determined by their tokens (mem.md's claim; its
  // padding rows are not, and nothing reads them), but for the gaps after the last real row,
  // which mem.md marks free: 4 s
  auto o = generous();
  o.interacting = true;
  const auto m = air_solve::unique(spec::air::embedded_spec(), "mem", o);
  EXPECT_EQ(m.verdict, Verdict::kImplied) << air_solve::format(m);
}

// The segment AIR's new table (zkrv-air-solve --segmented): memb's rows that interact are
// determined by their tokens, but for the gaps after the last real row, which memb.md marks
// free; and memb:c:real_bit is not implied by the rest of its table (the solver's attack is a row
// with is_real = 2; on real segments, segment_trace_test's lone edit is a row with is_real = -1,
// memb.md "Adequacy").
TEST(AirSolve, TheSegmentTablesRowsTheirInteractionsDetermine) {
  const auto& seg = spec::air::embedded_spec(spec::air::Mode::kSegmented);
  auto o = generous();
  o.interacting = true;
  const auto m = air_solve::unique(seg, "memb", o);
  EXPECT_EQ(m.verdict, Verdict::kImplied) << air_solve::format(m);
  EXPECT_EQ(m.but, "gap0 unless is_real'; gap1 unless is_real'") << air_solve::format(m);
  const auto r = air_solve::implied(seg, "memb", "memb:c:real_bit", generous());
  EXPECT_EQ(r.verdict, Verdict::kAttack) << air_solve::format(r);
}

// A padding-row attack (zkrv-air-solve --padding): one row between two zero rows of alu that
// breaks s_addw_bit and nothing else, with every interaction inactive on it and on the row
// before. Checked by the spec's evaluator; the trace-level check is the padding-row mutations
// in tests/air/air_mutations_padding.cpp. div's one_op has none: two selectors at 1 make a
// multiplicity of 2.
TEST(AirSolve, APaddingRowAttackChangesNoInteraction) {
  const auto& spec = spec::air::embedded_spec();
  const auto& alu = *spec.table("alu");
  const auto a = air_solve::padding_attack(spec, "alu", "alu:c:s_addw_bit", generous());
  ASSERT_EQ(a.verdict, Verdict::kAttack) << air_solve::format(a);
  std::map<std::string, uint64_t> row;
  for (const auto& x : a.model) row[x.column] = x.value;
  auto at = [&](bool prev_zero, bool next_zero) {  // (row, next) with either of them a zero row
    return [&row, prev_zero, next_zero](const std::string& name, bool next) -> uint64_t {
      if (next ? next_zero : prev_zero) return 0;
      const auto it = row.find(name);
      return it == row.end() ? 0 : it->second;
    };
  };
  for (const auto& c : alu.constraints) {
    if (c.rows == Rows::kEvery) {
      const uint64_t v = spec::air::eval(*c.expr, at(false, true));
      if (c.id == "alu:c:s_addw_bit") EXPECT_NE(v, 0u);
      else EXPECT_EQ(v, 0u) << c.id;
    } else if (c.rows == Rows::kTransition) {
      EXPECT_EQ(spec::air::eval(*c.expr, at(true, false)), 0u) << c.id << " into the row";
      EXPECT_EQ(spec::air::eval(*c.expr, at(false, true)), 0u) << c.id << " out of the row";
    }
  }
  for (const auto& b : alu.buses) {
    ASSERT_TRUE(b.mult) << b.id;
    EXPECT_EQ(spec::air::eval(*b.mult, at(false, true)), 0u) << b.id;
    EXPECT_EQ(spec::air::eval(*b.mult, at(true, false)), 0u) << b.id << " on the row before";
  }
  const auto none = air_solve::padding_attack(spec, "div", "div:c:one_op", generous());
  EXPECT_EQ(none.verdict, Verdict::kImplied) << air_solve::format(none);
  EXPECT_NE(air_solve::format(none).find("none"), std::string::npos);
  EXPECT_EQ(air_solve::padding_attack(spec, "io", "io:c:idx_first", generous()).verdict, Verdict::kUnknown);
  EXPECT_EQ(air_solve::padding_attack(spec, "byte", "byte:c:value_step", generous()).verdict, Verdict::kUnknown);
}

// zkrv-air-solve --at: three consecutive real rows of fib's mem table (the middle one a file byte
// that is 0). The solver changes the middle row so that from_file_bit alone breaks, with the
// interactions of the row and of the row before it kept (its image lookup may be counted
// again: a lookup's count is the table's multiplicity column). Checked by the spec's evaluator.
// real_bit has no such change: is_real is the multiplicity of every interaction.
TEST(AirSolve, ARealRowChangedSoThatOneConstraintAloneBreaks) {
  const auto& spec = spec::air::embedded_spec();
  const auto& mem = *spec.table("mem");
  auto row_of = [&](const std::map<std::string, uint64_t>& v) {
    std::vector<uint64_t> r(mem.columns.size(), 0);
    for (const auto& [c, x] : v) r.at(static_cast<size_t>(mem.column_index(c))) = x;
    return r;
  };
  const std::map<std::string, uint64_t> common = {{"is_real", 1}, {"from_file", 1}, {"start", 77824},
                                                  {"file_end", 78944}, {"end", 78944}};
  auto with = [&](std::map<std::string, uint64_t> v) {
    v.insert(common.begin(), common.end());
    return row_of(v);
  };
  air_solve::TraceRows rows;
  rows.prev = with({{"addr", 77840}, {"init", 10}, {"fin_ts", 8299}, {"fin_v", 10}, {"lo0", 16}, {"hi0", 1103}, {"fd0", 1103}});
  rows.row = with({{"addr", 77841}, {"fin_ts", 8379}, {"lo0", 17}, {"hi0", 1102}, {"fd0", 1102}, {"gap0", 250}});
  rows.next = with({{"addr", 78092}, {"init", 124}, {"fin_ts", 6111}, {"fin_v", 124}, {"lo0", 268}, {"hi0", 851}, {"fd0", 851}});
  rows.publics = {{"entry", 65536}, {"exit_code", 0}};
  const auto a = air_solve::row_attack(spec, "mem", "mem:c:from_file_bit", rows, generous());
  ASSERT_EQ(a.verdict, Verdict::kAttack) << air_solve::format(a);
  std::vector<uint64_t> changed = rows.row;
  for (const auto& x : a.model) changed.at(static_cast<size_t>(mem.column_index(x.column))) = x.value;
  auto at = [&](const std::vector<uint64_t>& local, const std::vector<uint64_t>& next) {
    return [&, local, next](const std::string& name, bool nx) -> uint64_t {
      return (nx ? next : local).at(static_cast<size_t>(mem.column_index(name)));
    };
  };
  for (const auto& c : mem.constraints) {
    if (c.rows == Rows::kEvery) {
      const uint64_t v = spec::air::eval(*c.expr, at(changed, *rows.next));
      if (c.id == "mem:c:from_file_bit") EXPECT_NE(v, 0u);
      else EXPECT_EQ(v, 0u) << c.id;
    } else if (c.rows == Rows::kTransition) {
      EXPECT_EQ(spec::air::eval(*c.expr, at(*rows.prev, changed)), 0u) << c.id << " into the row";
      EXPECT_EQ(spec::air::eval(*c.expr, at(changed, *rows.next)), 0u) << c.id << " out of the row";
    }
  }
  for (const auto& b : mem.buses) {
    const uint64_t m0 = b.mult ? spec::air::eval(*b.mult, at(rows.row, *rows.next)) : 1;
    const uint64_t m1 = b.mult ? spec::air::eval(*b.mult, at(changed, *rows.next)) : 1;
    if (b.bus == "image") continue;  // a lookup: counted by the image table's multiplicity column
    EXPECT_EQ(m0, m1) << b.id;
    for (const auto& el : b.tuple) {
      const uint64_t v0 = spec::air::eval(*el, at(rows.row, *rows.next)), v1 = spec::air::eval(*el, at(changed, *rows.next));
      if (b.bus == "range16") EXPECT_LT(v1, 65536u) << b.id;
      else EXPECT_EQ(v0, v1) << b.id;
    }
  }
  const auto none = air_solve::row_attack(spec, "mem", "mem:c:real_bit", rows, generous());
  EXPECT_EQ(none.verdict, Verdict::kImplied) << air_solve::format(none);
  auto missing = rows;  // an attack must not choose the public values
  missing.publics.pop_back();
  EXPECT_THROW(air_solve::row_attack(spec, "mem", "mem:c:real_bit", missing, generous()), std::invalid_argument);
  rows.row.pop_back();
  EXPECT_THROW(air_solve::row_attack(spec, "mem", "mem:c:real_bit", rows, generous()), std::invalid_argument);
}

// Small hand-made specs whose answers are known, so that a question that assumes too much shows.
spec::air::Spec small_spec(const std::string& table_doc, bool with_byte_bus) {
  std::vector<spec::air::SourceFile> files = {{"air.md", "```zkrv\nmax_degree 3\n```\n"}, {"t.md", table_doc}};
  if (with_byte_bus) {
    files[0].text = "```zkrv\nmax_degree 3\nbusdef byte (value: byte)\n```\n";
    files.push_back({"bt.md",
                     "```zkrv\ntable bt\ncolumn v preprocessed byte \"v\"\ncolumn m main field \"m\"\n"
                     "bus bt:b:r receive byte (v) mult m\n```\n"});
  }
  return loaded(files);
}

// x (x - 1) on every row and x' = x: x = 2 on every row breaks the first and satisfies the
// second, so the first is not implied (a question that assumed it on the next row would say it is).
TEST(AirSolve, ABitThatOnlyATransitionCarriesIsNotImplied) {
  const auto sp = small_spec("```zkrv\ntable t\ncolumn x main field \"x\"\n"
                             "constraint t:c:bit every: x * (x - 1)\nconstraint t:c:same transition: x' - x\n```\n",
                             false);
  const auto a = air_solve::implied(sp, "t", "t:c:bit", generous());
  EXPECT_EQ(a.verdict, Verdict::kAttack) << air_solve::format(a);
}

// y = 2x with x a bit implies y (y - 2) = 0; and a row whose multiplicity is 0 fixes nothing of
// its tuple, so v is free there.
TEST(AirSolve, SmallSpecsGiveTheirKnownAnswers) {
  const auto sp = small_spec("```zkrv\ntable t\ncolumn x main bit \"x\"\ncolumn y main field \"y\"\n"
                             "column v main byte \"v\"\n"
                             "constraint t:c:x_bit every: x * (x - 1)\nconstraint t:c:y every: y - 2 * x\n"
                             "constraint t:c:y_range every: y * (y - 2)\n"
                             "bus t:b:v send byte (v) mult x\n```\n",
                             true);
  EXPECT_EQ(air_solve::implied(sp, "t", "t:c:y_range", generous()).verdict, Verdict::kImplied);
  EXPECT_EQ(air_solve::implied(sp, "t", "t:c:y", generous()).verdict, Verdict::kAttack);
  const auto u = air_solve::unique(sp, "t", generous());
  ASSERT_EQ(u.verdict, Verdict::kAttack) << air_solve::format(u);
  EXPECT_NE(air_solve::format(u).find("v"), std::string::npos) << air_solve::format(u);
}

// --interacting: a row of t with r = 0 receives nothing, so its k and z are free (a second
// witness); asked only about rows that interact (r = 1), k is the received value and z = 2 k.
// A table whose only interactions are lookup sends has no interacting row: no answer, rather
// than a vacuous "unique".
TEST(AirSolve, AnInteractingRowIsDeterminedWhereAPaddingRowIsNot) {
  const auto r = spec::air::load_spec(
      {{"air.md", "```zkrv\nmax_degree 3\nbusdef flag (f: field)\nbusdef byte (value: byte)\n```\n"},
       {"bt.md", "```zkrv\ntable bt\ncolumn v preprocessed byte \"v\"\ncolumn m main field \"m\"\n"
                 "bus bt:b:r receive byte (v) mult m\n```\n"},
       {"s.md", "```zkrv\ntable s\ncolumn k main field \"k\"\nbus s:b:k send flag (k)\n```\n"},
       {"t.md", "```zkrv\ntable t\ncolumn r main bit \"r\"\ncolumn k main field \"k\"\ncolumn z main field \"z\"\n"
                "column v main byte \"v\"\nconstraint t:c:r_bit every: r * (r - 1)\n"
                "constraint t:c:z every: r * (z - 2 * k)\nbus t:b:k receive flag (k) mult r\n"
                "constraint t:c:v every: v - r\nbus t:b:v send byte (v)\n```\n"}});
  ASSERT_TRUE(r.errors.empty()) << r.errors.front().str();
  auto o = generous();
  EXPECT_EQ(air_solve::unique(*r.spec, "t", o).verdict, Verdict::kAttack);
  o.interacting = true;
  const auto u = air_solve::unique(*r.spec, "t", o);
  EXPECT_EQ(u.verdict, Verdict::kImplied) << air_solve::format(u);
  const auto sp = small_spec("```zkrv\ntable t\ncolumn v main byte \"v\"\nbus t:b:v send byte (v)\n```\n", true);
  EXPECT_EQ(air_solve::unique(sp, "t", o).verdict, Verdict::kUnknown);
}

// An inverse witness: s (s - 1) follows from d (1 - s) and s (d inv - 1) alone, since d = 0 where
// s is not 1 and then d inv is 0, not 1. The implied question states a compound factor reduced
// mod p and "some inv makes d inv = 1" as d != 0 (inv is named nowhere else); on a case this
// small Z3 also proves it without those rewrites. What only the rewrite can get wrong is an
// attack: with s (d - 3) added, the attack on it has s = 1 and d != 3, and inv must be the
// inverse of d, computed after the solver's answer (checked by the spec's evaluator: every other
// constraint holds on the row).
TEST(AirSolve, AnInverseWitnessIsStatedAsANonzeroValue) {
  const std::string columns = "```zkrv\ntable t\ncolumn d main field \"d\"\ncolumn s main field \"s\"\n"
                              "column inv main field \"inv\"\n"
                              "constraint t:c:s_bit every: s * (s - 1)\nconstraint t:c:set every: d * (1 - s)\n"
                              "constraint t:c:inv every: s * (d * inv - 1)\n";
  EXPECT_EQ(air_solve::implied(small_spec(columns + "```\n", false), "t", "t:c:s_bit", generous()).verdict, Verdict::kImplied);
  const auto sp = small_spec(columns + "constraint t:c:three every: s * (d - 3)\n```\n", false);
  const auto a = air_solve::implied(sp, "t", "t:c:three", generous());
  ASSERT_EQ(a.verdict, Verdict::kAttack) << air_solve::format(a);
  std::map<std::string, uint64_t> v;
  for (const auto& x : a.model) v[x.column] = x.value;
  auto row = [&](bool next) {
    return [&v, next](const std::string& name, bool) -> uint64_t {
      const auto it = v.find(name + (next ? "'" : ""));
      return it == v.end() ? 0 : it->second;
    };
  };
  const bool on_next = a.violate_next;
  for (const auto& c : sp.table("t")->constraints) {
    const uint64_t here = spec::air::eval(*c.expr, row(on_next));
    if (c.id == "t:c:three") EXPECT_NE(here, 0u);
    else EXPECT_EQ(here, 0u) << c.id << " " << air_solve::format(a);
  }
  EXPECT_NE(v.count(on_next ? "inv'" : "inv"), 0u) << air_solve::format(a);
}

// --using: a subset of the table as a certificate. y = 2x with x a bit implies y (y - 2) = 0; the
// bit constraint alone does not (unknown, never an attack: the rest of the table is not asked).
TEST(AirSolve, AGivenSubsetIsACertificateOrNothing) {
  const auto sp = small_spec("```zkrv\ntable t\ncolumn x main bit \"x\"\ncolumn y main field \"y\"\n"
                             "constraint t:c:x_bit every: x * (x - 1)\nconstraint t:c:y every: y - 2 * x\n"
                             "constraint t:c:y_range every: y * (y - 2)\n```\n",
                             false);
  auto o = generous();
  o.using_ids = {"t:c:x_bit", "t:c:y"};
  EXPECT_EQ(air_solve::implied(sp, "t", "t:c:y_range", o).verdict, Verdict::kImplied);
  o.using_ids = {"t:c:x_bit"};
  EXPECT_EQ(air_solve::implied(sp, "t", "t:c:y_range", o).verdict, Verdict::kUnknown);
  o.using_ids = {"t:c:y_range"};  // the constraint asked about is not its own certificate
  EXPECT_THROW(air_solve::implied(sp, "t", "t:c:y_range", o), std::invalid_argument);
  o.using_ids = {"t:c:nosuch"};
  EXPECT_THROW(air_solve::implied(sp, "t", "t:c:y_range", o), std::invalid_argument);
}

// A definition: d makes f = 1 - a - b (a, b bits), so f is -1, 0 or 1, and the implied question
// states f as that sum on every row (a product f (w - 5) becomes bit-gated copies of w - 5). With
// k = 17 f a byte, f = -1 is out (k = p - 17) and f (f - 1) is implied, from the whole table and
// from a certificate that names d; a certificate without d has no definition to use (f is any
// field element, 2 among them) and proves nothing. Without the byte lookup the attack is f = -1:
// the model must show f as the field element p - 1 that its definition gives (the spec's
// evaluator checks every other constraint on the row).
TEST(AirSolve, ADefinedColumnIsStatedAsItsDefinition) {
  const std::string columns = "```zkrv\ntable t\ncolumn a main bit \"a\"\ncolumn b main bit \"b\"\n"
                              "column f main field \"f\"\ncolumn w main field \"w\"\ncolumn k main byte \"k\"\n"
                              "constraint t:c:a_bit every: a * (a - 1)\nconstraint t:c:b_bit every: b * (b - 1)\n"
                              "constraint t:c:d every: f + a + b - 1\nconstraint t:c:f_bit every: f * (f - 1)\n"
                              "constraint t:c:k every: k - 17 * f\nconstraint t:c:wf every: f * (w - 5)\n"
                              "constraint t:c:w every: w * (w - 5) * (w - 6)\n";
  const auto sp = small_spec(columns + "bus t:b:k send byte (k)\n```\n", true);
  EXPECT_EQ(air_solve::implied(sp, "t", "t:c:f_bit", generous()).verdict, Verdict::kImplied);
  auto o = generous();
  o.using_ids = {"t:c:d", "t:c:k", "t:b:k"};
  EXPECT_EQ(air_solve::implied(sp, "t", "t:c:f_bit", o).verdict, Verdict::kImplied);
  o.using_ids = {"t:c:k", "t:b:k"};
  EXPECT_EQ(air_solve::implied(sp, "t", "t:c:f_bit", o).verdict, Verdict::kUnknown);

  const auto open = small_spec(columns + "```\n", false);
  const auto a = air_solve::implied(open, "t", "t:c:f_bit", generous());
  ASSERT_EQ(a.verdict, Verdict::kAttack) << air_solve::format(a);
  std::map<std::string, uint64_t> v;
  for (const auto& x : a.model) v[x.column] = x.value;
  const std::string tick = a.violate_next ? "'" : "";
  EXPECT_EQ(v["f" + tick], 0xffffffff00000000ull) << air_solve::format(a);  // p - 1
  auto row = [&](const std::string& name, bool) -> uint64_t {
    const auto it = v.find(name + tick);
    return it == v.end() ? 0 : it->second;
  };
  for (const auto& c : open.table("t")->constraints) {
    const uint64_t here = spec::air::eval(*c.expr, row);
    if (c.id == "t:c:f_bit") EXPECT_NE(here, 0u);
    else EXPECT_EQ(here, 0u) << c.id << " " << air_solve::format(a);
  }
}

// x + y + b = 0 in the field with x = 1, y = p - 1, b = 0: the integer sum is p. The implied
// question states a constraint with a known integer range as "e = k p" for each k in reach, and
// must keep k = 1 (with only k = 0, the sum would force x = 0 and call t:c:x implied).
TEST(AirSolve, ASumThatReachesPIsZeroInTheField) {
  // b, a bit, makes the question use ranges (the bit columns' range is what it knows); b y keeps
  // y from being a witness that the question would eliminate
  const auto sp = small_spec("```zkrv\ntable t\ncolumn x main field \"x\"\ncolumn y main field \"y\"\n"
                             "column b main bit \"b\"\nconstraint t:c:b_bit every: b * (b - 1)\n"
                             "constraint t:c:sum every: x + y + b\nconstraint t:c:by every: b * y\n"
                             "constraint t:c:x every: x\n```\n",
                             false);
  const auto a = air_solve::implied(sp, "t", "t:c:x", generous());
  EXPECT_EQ(a.verdict, Verdict::kAttack) << air_solve::format(a);
}

// A descent through a bus. Table t receives (op) with multiplicity a + b (bits), op = 5a + 6b, and
// sends (h) on the same bus, h = 5 (a + b) - 1; s sends (v) with v a byte below 11 (v + w = 10, w
// a byte). With a = b = 1 (a b = 0 broken) t receives 11 twice: only t's own send could supply
// it, and that sends 9. So a b = 0 is implied through the bus, which t alone does not show (an
// attack there). A threshold of 12 is not reached by a = b = 1 (Q1); if s may send 11, the
// descent fails at Q3; if t's send were op itself, at Q2 (a row that sends 11 receives no more).
spec::air::Spec descent_spec(const std::string& s_sum, const std::string& h) {
  std::vector<spec::air::SourceFile> files = {
      {"air.md", "```zkrv\nmax_degree 3\nbusdef byte (value: byte)\nbusdef ops (op: field)\n```\n"},
      {"bt.md", "```zkrv\ntable bt\ncolumn v preprocessed byte \"v\"\ncolumn m main field \"m\"\n"
                "bus bt:b:r receive byte (v) mult m\n```\n"},
      {"s.md", "```zkrv\ntable s\ncolumn v main byte \"v\"\ncolumn w main byte \"w\"\nconstraint s:c:sum every: v + w - " +
                   s_sum + "\nbus s:b:v send byte (v)\nbus s:b:w send byte (w)\nbus s:b:out send ops (v)\n```\n"},
      {"t.md", "```zkrv\ntable t\ncolumn a main bit \"a\"\ncolumn b main bit \"b\"\ncolumn op main field \"op\"\n"
               "column h main field \"h\"\nconstraint t:c:a_bit every: a * (a - 1)\nconstraint t:c:b_bit every: b * (b - 1)\n"
               "constraint t:c:op every: op - 5 * a - 6 * b\nconstraint t:c:h every: h - (" + h + ")\n"
               "constraint t:c:one every: a * b\nbus t:b:in receive ops (op) mult a + b\nbus t:b:out send ops (h) mult a + b\n```\n"}};
  return loaded(files);
}
TEST(AirSolve, ADescentThroughABusProvesWhatNoRowShows) {
  const auto sp = descent_spec("10", "5 * (a + b) - 1");
  EXPECT_EQ(air_solve::implied(sp, "t", "t:c:one", generous()).verdict, Verdict::kAttack);
  auto o = generous();
  o.descent = spec::air::Descent{"t:b:in", 0, 11};
  { const auto a = air_solve::implied(sp, "t", "t:c:one", o); EXPECT_EQ(a.verdict, Verdict::kImplied) << air_solve::format(a); }
  o.using_ids = {"t:c:op", "t:c:h", "s:c:sum", "s:b:v", "s:b:w"};  // a certificate from both tables
  { const auto a = air_solve::implied(sp, "t", "t:c:one", o); EXPECT_EQ(a.verdict, Verdict::kImplied) << air_solve::format(a); }
  o.using_ids = {"t:c:op", "t:c:h", "s:b:v"};  // without s:c:sum, v is any byte
  const auto any_byte = air_solve::implied(sp, "t", "t:c:one", o);
  EXPECT_EQ(any_byte.verdict, Verdict::kUnknown);
  EXPECT_NE(any_byte.scenario.find("Q3"), std::string::npos) << air_solve::format(any_byte);
  o.using_ids = {};
  o.descent->from = 12;
  const auto high = air_solve::implied(sp, "t", "t:c:one", o);
  EXPECT_NE(high.scenario.find("Q1"), std::string::npos) << air_solve::format(high);
  o.descent->from = 11;
  const auto s_reaches = air_solve::implied(descent_spec("11", "5 * (a + b) - 1"), "t", "t:c:one", o);
  EXPECT_NE(s_reaches.scenario.find("Q3"), std::string::npos) << air_solve::format(s_reaches);
  const auto t_resends = air_solve::implied(descent_spec("10", "op"), "t", "t:c:one", o);
  EXPECT_NE(t_resends.scenario.find("Q2"), std::string::npos) << air_solve::format(t_resends);
  o.descent->receive = "t:b:out";  // a send, not a receive
  EXPECT_THROW(air_solve::implied(sp, "t", "t:c:one", o), std::invalid_argument);
}

// A term's integer value and its interval must agree, or "e = k p for a k in reach" misses the
// value and a satisfiable constraint reads as unsatisfiable (everything then looks implied).
// (p - 1) (2 + b) + 2 + c is c - b in the field, stated through the constant read as -1; and
// (b - c)^2 with b = 0, c = 1 is (p - 1)^2 as the integers compute it (a compound base is reduced
// first), not 1. In both, a free column x and a c that may be 1 leave attacks, which a
// disagreeing interval would turn into "implied".
TEST(AirSolve, ATermsIntervalHoldsItsValue) {
  const std::string bits = "```zkrv\ntable t\ncolumn b main bit \"b\"\ncolumn c main bit \"c\"\ncolumn x main field \"x\"\n"
                           "constraint t:c:b_bit every: b * (b - 1)\nconstraint t:c:c_bit every: c * (c - 1)\n"
                           "constraint t:c:x_bit every: x * (x - 1)\nconstraint t:c:c every: c\n";
  const auto negated = small_spec(bits + "constraint t:c:f every: 0xffffffff00000000 * (2 + b) + 2 + c\n```\n", false);
  EXPECT_EQ(air_solve::implied(negated, "t", "t:c:x_bit", generous()).verdict, Verdict::kAttack);
  EXPECT_EQ(air_solve::implied(negated, "t", "t:c:c", generous()).verdict, Verdict::kAttack);  // b = c = 1
  const auto squared = small_spec(bits + "constraint t:c:f every: (b - c)^2 - b - c\n```\n", false);
  const auto a = air_solve::implied(squared, "t", "t:c:c", generous());
  EXPECT_EQ(a.verdict, Verdict::kAttack) << air_solve::format(a);  // b = 0, c = 1
}

// A bus carries a bound across: r receives (b) where s sends (a), and s makes a a bit, so where
// r's multiplicity g is not zero, b is a bit too, and g·b·(b − 1) is implied. What carries it is
// r's count of the tuple: with every receive's multiplicity a sum of bits, a tuple received with
// g ≠ 0 has a nonzero count, which some send must match, whatever the senders' multiplicities
// (a product e·h, not known to be a bit, still carries). Without s's bit constraint, or with g a
// column nothing makes a bit (r's receives could then cancel: g = 1 on one row and −1 on
// another), nothing is carried and the constraint is needed.
spec::air::Spec two_tables(bool sender_bit, const std::string& sender_mult, bool receiver_bit = true) {
  std::vector<spec::air::SourceFile> files = {
      {"air.md", "```zkrv\nmax_degree 3\nbusdef flag (f: bit)\n```\n"},
      {"s.md", "```zkrv\ntable s\ncolumn a main bit \"a\"\ncolumn e main bit \"e\"\ncolumn h main bit \"h\"\n" +
                   std::string(sender_bit ? "constraint s:c:a_bit every: a * (a - 1)\n" : "") +
                   "constraint s:c:e_bit every: e * (e - 1)\nconstraint s:c:h_bit every: h * (h - 1)\n"
                   "bus s:b:f send flag (a) mult " + sender_mult + "\n```\n"},
      {"r.md", "```zkrv\ntable r\ncolumn b main bit \"b\"\ncolumn g main bit \"g\"\n" +
                   std::string(receiver_bit ? "constraint r:c:g_bit every: g * (g - 1)\n" : "") +
                   "constraint r:c:b_bit every: g * b * (b - 1)\n"
               "bus r:b:f receive flag (b) mult g\n```\n"}};
  return loaded(files);
}
TEST(AirSolve, ABusCarriesTheSendersBoundToTheReceiver) {
  EXPECT_EQ(air_solve::implied(two_tables(true, "e + h"), "r", "r:c:b_bit", generous()).verdict, Verdict::kImplied);
  EXPECT_EQ(air_solve::implied(two_tables(false, "e + h"), "r", "r:c:b_bit", generous()).verdict, Verdict::kAttack);
  EXPECT_EQ(air_solve::implied(two_tables(true, "e * h"), "r", "r:c:b_bit", generous()).verdict, Verdict::kImplied);
  EXPECT_EQ(air_solve::implied(two_tables(true, "e + h", false), "r", "r:c:b_bit", generous()).verdict, Verdict::kAttack);
}

// A token bus (the memory and register arguments' shape): `acc` consumes (key, prev) and makes
// (key, ts) with ts - prev - 1 = d0 + 65536 d1 >= 0, and the verifier's table `init` holds the first
// and last token of each key k, a bit it fills. A key no init row has could only be consumed from a
// pair that made it earlier, which makes a cycle whose timestamps cannot close: so the keys are
// init's, bits, and acc's key_bit is implied. Without the order constraint, pairs may form such a
// cycle (any key: an attack); with init's key a main column, nothing bounds it.
spec::air::Spec token_bus(bool ordered, bool preprocessed) {
  std::vector<spec::air::SourceFile> files = {
      {"air.md", "```zkrv\nmax_degree 3\nbusdef tok (k: field, t: field)\n```\n"},
      {"init.md", "```zkrv\ntable init\ncolumn k " + std::string(preprocessed ? "preprocessed" : "main") +
                      " bit \"a key\"\ncolumn fin main field \"its last timestamp\"\n"
                      "bus init:b:first send tok (k, 0)\nbus init:b:last receive tok (k, fin)\n```\n"},
      {"acc.md", "```zkrv\ntable acc\ncolumn live main bit \"l\"\ncolumn key main field \"k\"\ncolumn prev main field \"p\"\n"
                 "column ts main field \"t\"\ncolumn d0 main bit \"d\"\ncolumn d1 main bit \"e\"\n"
                 "constraint acc:c:live_bit every: live * (live - 1)\nconstraint acc:c:d0_bit every: d0 * (d0 - 1)\n"
                 "constraint acc:c:d1_bit every: d1 * (d1 - 1)\nconstraint acc:c:key_bit every: live * key * (key - 1)\n" +
                     std::string(ordered ? "constraint acc:c:order every: live * (ts - prev - 1 - d0 - 65536 * d1)\n" : "") +
                     "bus acc:b:in receive tok (key, prev) mult live\nbus acc:b:out send tok (key, ts) mult live\n```\n"}};
  return loaded(files);
}
TEST(AirSolve, ATokenBusCarriesItsKeysFromTheTableThatHoldsThem) {
  EXPECT_EQ(air_solve::implied(token_bus(true, true), "acc", "acc:c:key_bit", generous()).verdict, Verdict::kImplied);
  EXPECT_EQ(air_solve::implied(token_bus(false, true), "acc", "acc:c:key_bit", generous()).verdict, Verdict::kAttack);
  EXPECT_EQ(air_solve::implied(token_bus(true, false), "acc", "acc:c:key_bit", generous()).verdict, Verdict::kAttack);
  // a certificate may name the interaction whose carried bound it needs; without it, no answer
  auto o = generous();
  o.using_ids = {"acc:b:in"};
  EXPECT_EQ(air_solve::implied(token_bus(true, true), "acc", "acc:c:key_bit", o).verdict, Verdict::kImplied);
  o.using_ids = {"acc:c:d0_bit"};
  EXPECT_EQ(air_solve::implied(token_bus(true, true), "acc", "acc:c:key_bit", o).verdict, Verdict::kUnknown);
}

// Counting a receive's tuples. Table s sends (ts, a) on grp once per row where m = 1, its real
// rows a prefix along which ts increases; table r receives it with multiplicity `last`, on rows
// that also take a token of key a on tok and leave one at ts (ordered by d0, d1); table m holds
// each key's first token, its addresses increasing. With last = 2 on one row (last_bit broken)
// the tuple would need a second sender or a second receiving row at the same (a, ts): neither
// exists, which no row of r alone shows (an attack there). Each variation breaks one step.
struct OnceParts {
  std::string s_order = "ts' - ts - 1 - g0 - 65536 * g1";    // s's step (O3 for the sends)
  std::string r_guard = "constraint r:c:last_real every: last * (1 - is_real)\n";  // R1
  std::string m_order = "addr' - addr - 1 - g0 - 65536 * g1";  // m's step (O3 for the source)
  std::string s_more;                                          // more interactions of s
};
spec::air::Spec once_spec(const OnceParts& p) {
  const std::string ordered =
      "column is_real main bit \"r\"\ncolumn g0 main bit \"g\"\ncolumn g1 main bit \"h\"\n";
  auto bits = [](const std::string& t) {
    return "constraint " + t + ":c:real_bit every: is_real * (is_real - 1)\nconstraint " + t +
           ":c:g0_bit every: g0 * (g0 - 1)\nconstraint " + t + ":c:g1_bit every: g1 * (g1 - 1)\n";
  };
  std::vector<spec::air::SourceFile> files = {
      {"air.md", "```zkrv\nmax_degree 3\nbusdef grp (ts: field, a: field)\nbusdef tok (k: field, t: field, v: field)\n```\n"},
      {"s.md", "```zkrv\ntable s\n" + ordered + "column ts main field \"t\"\ncolumn a main field \"a\"\ncolumn m main bit \"m\"\n" +
                   bits("s") + "constraint s:c:m_bit every: m * (m - 1)\nconstraint s:c:m_real every: m * (1 - is_real)\n"
                   "constraint s:c:prefix transition: is_real' * (1 - is_real)\nconstraint s:c:order transition: is_real' * (" +
                   p.s_order + ")\nbus s:b:out send grp (ts, a) mult m\n" + p.s_more + "```\n"},
      {"r.md", "```zkrv\ntable r\ncolumn is_real main bit \"r\"\ncolumn last main bit \"l\"\ncolumn ts main field \"t\"\n"
               "column a main field \"a\"\ncolumn prev main field \"p\"\ncolumn v main field \"v\"\ncolumn d0 main bit \"d\"\n"
               "column d1 main bit \"e\"\nconstraint r:c:real_bit every: is_real * (is_real - 1)\n"
               "constraint r:c:last_bit every: last * (last - 1)\n" + p.r_guard +
               "constraint r:c:d0_bit every: d0 * (d0 - 1)\nconstraint r:c:d1_bit every: d1 * (d1 - 1)\n"
               "constraint r:c:order every: is_real * (ts - prev - 1 - d0 - 65536 * d1)\n"
               "bus r:b:in receive tok (a, prev, v) mult is_real\nbus r:b:out send tok (a, ts, v) mult is_real\n"
               "bus r:b:grp receive grp (ts, a) mult last\n```\n"},
      {"m.md", "```zkrv\ntable m\n" + ordered + "column addr main field \"a\"\ncolumn fin main field \"f\"\n"
               "column v main field \"v\"\n" + bits("m") +
               "constraint m:c:prefix transition: (1 - is_real) * is_real'\nconstraint m:c:order transition: is_real' * (" +
               p.m_order + ")\nbus m:b:init send tok (addr, 0, v) mult is_real\n"
               "bus m:b:final receive tok (addr, fin, v) mult is_real\n```\n"}};
  return loaded(files);
}
TEST(AirSolve, CountingATuplesSendersAndReceiversMakesItsMultiplicityABit) {
  const OnceParts honest;
  EXPECT_EQ(air_solve::implied(once_spec(honest), "r", "r:c:last_bit", generous()).verdict, Verdict::kAttack);
  auto o = generous();
  o.once = spec::air::Once{"r:b:grp", {{"s", "is_real", "ts"}, {"m", "is_real", "addr"}}};
  auto why = [&](const OnceParts& p) {
    const auto a = air_solve::implied(once_spec(p), "r", "r:c:last_bit", o);
    EXPECT_NE(a.verdict, Verdict::kAttack);  // a count gives a proof or no answer, never an attack
    return a.verdict == Verdict::kImplied ? std::string("implied") : a.scenario;
  };
  EXPECT_EQ(why(honest), "implied");
  OnceParts p = honest;
  p.s_order = "ts' - ts - g0 - 65536 * g1";  // two sends of one ts
  EXPECT_NE(why(p).find("sends: O3"), std::string::npos) << why(p);
  p = honest;
  p.r_guard = "";  // last on a padding row, which takes no token
  EXPECT_NE(why(p).find("receives"), std::string::npos) << why(p);
  p = honest;
  p.m_order = "addr' - addr - g0 - 65536 * g1";  // two first tokens of one key: two chains
  EXPECT_NE(why(p).find("source: O3"), std::string::npos) << why(p);
  p = honest;
  p.s_more = "bus s:b:back receive grp (ts, a) mult m\n";  // a second receive takes the tuple too
  EXPECT_NE(why(p).find("another receive"), std::string::npos) << why(p);
  p = honest;
  p.s_more = "bus s:b:twice send grp (ts, a) mult m\n";  // each tuple sent twice
  EXPECT_NE(why(p).find("two sends"), std::string::npos) << why(p);
  o.once->orders.pop_back();  // the source's order is not given
  EXPECT_NE(why(honest).find("no order given for table m"), std::string::npos) << why(honest);
  o.once->orders = {{"s", "is_real", "ts"}, {"m", "is_real", "addr"}, {"r", "is_real", "ts"}};  // r sends nothing ordered
  EXPECT_THROW(air_solve::implied(once_spec(honest), "r", "r:c:last_bit", o), std::invalid_argument);
  o.once->orders = {{"s", "is_real", "nosuch"}};
  EXPECT_THROW(air_solve::implied(once_spec(honest), "r", "r:c:last_bit", o), std::invalid_argument);
  o.once->orders = {{"s", "is_real", "ts"}, {"m", "is_real", "addr"}};
  o.once->receive = "r:b:out";  // a send, not a receive
  EXPECT_THROW(air_solve::implied(once_spec(honest), "r", "r:c:last_bit", o), std::invalid_argument);
}

// Padding rows interact with nothing. io's output multiplicity was `out` with out (out - 1): a
// row with is_real = 0 and out = 1 sent a byte that no syscall wrote (appended to the claimed
// output). out (out - is_real) makes it 0 there. The spec's tables are all silent.
TEST(AirSolve, APaddingRowThatSendsIsFound) {
  auto spec_with = [](const std::string& bit) {
    std::vector<spec::air::SourceFile> files = {
        {"air.md", "```zkrv\nmax_degree 3\nbusdef outb (pos: field, v: field)\n```\n"},
        {"o.md", "```zkrv\ntable o\ncolumn pos preprocessed field \"p\"\ncolumn v preprocessed field \"v\"\n"
                 "bus o:b:in receive outb (pos, v)\n```\n"},
        {"w.md", "```zkrv\ntable w\ncolumn is_real main bit \"r\"\ncolumn out main bit \"o\"\ncolumn pos main field \"p\"\n"
                 "column v main field \"v\"\nconstraint w:c:real_bit every: is_real * (is_real - 1)\n"
                 "constraint w:c:out_bit every: out * (out - " + bit + ")\nbus w:b:out send outb (pos, v) mult out\n```\n"}};
    return loaded(files);
  };
  const auto loose = air_solve::padding_silent(spec_with("1"), "w", generous());
  ASSERT_EQ(loose.size(), 1u);
  EXPECT_EQ(loose[0].verdict, Verdict::kAttack);
  bool out_one = false;
  for (const auto& a : loose[0].model) out_one = out_one || (a.column == "out" && a.value == 1);
  EXPECT_TRUE(out_one) << air_solve::format(loose[0]);
  const auto tight = air_solve::padding_silent(spec_with("is_real"), "w", generous());
  ASSERT_EQ(tight.size(), 1u);
  EXPECT_EQ(tight[0].verdict, Verdict::kImplied);
  EXPECT_TRUE(air_solve::padding_silent(spec_with("1"), "o", generous()).empty());  // no is_real: nothing asked
  const auto& spec = spec::air::embedded_spec();
  size_t asked = 0;
  for (const char* t : {"io", "mem", "syscall", "output", "cpu"})
    for (const auto& a : air_solve::padding_silent(spec, t, generous())) {
      EXPECT_EQ(a.verdict, Verdict::kImplied) << a.id << ": " << air_solve::format(a);
      ++asked;
    }
  EXPECT_GT(asked, 100u);
}

// Uniqueness column by column. Table u receives (a) where is_real = 1; z = [a = 0] through an
// inverse witness inv, and b = 3 a + z. b and z follow from a, column by column; inv is free
// where a = 0 (z = 1), which the question alone shows as a second witness in inv only. With
// inv gone and z = is_real instead, every column follows. With the mark `free inv unless 1 - z`
// inv is asked only where z = 0, where a·inv = 1 pins it (a (x − y) = 0 mod p with a ≠ 0: p is
// prime, which the column-by-column question states): unique but for the mark. A mark whose
// expression is wrong (`unless z`: asked exactly where inv is free) leaves the second witness.
TEST(AirSolve, UniquenessColumnByColumnNamesTheFreeColumn) {
  auto spec_with = [](const std::string& more) {
    std::vector<spec::air::SourceFile> files = {
        {"air.md", "```zkrv\nmax_degree 3\nbusdef as (a: field)\n```\n"},
        {"s.md", "```zkrv\ntable s\ncolumn a preprocessed field \"a\"\nbus s:b:out send as (a)\n```\n"},
        {"u.md", "```zkrv\ntable u\ncolumn is_real main bit \"r\"\ncolumn a main field \"a\"\ncolumn z main bit \"z\"\n"
                 "column b main field \"b\"\n" + more + "constraint u:c:real_bit every: is_real * (is_real - 1)\n"
                 "constraint u:c:z_bit every: z * (z - 1)\nconstraint u:c:b every: b - 3 * a - z\n" +
                 "bus u:b:in receive as (a) mult is_real\n```\n"}};
    return loaded(files);
  };
  auto o = generous();
  o.interacting = true, o.by_columns = true;
  const auto loose = air_solve::unique(spec_with("column inv main field \"i\"\nconstraint u:c:z_zero every: a * z\n"
                                                 "constraint u:c:z_inv every: is_real * (a * inv - 1 + z)\n"),
                                       "u", o);
  ASSERT_EQ(loose.verdict, Verdict::kAttack) << air_solve::format(loose);
  EXPECT_NE(loose.place.find("free alone: inv"), std::string::npos) << loose.place;
  auto value = [](const std::vector<air_solve::Assignment>& row, const std::string& col) {
    for (const auto& a : row)
      if (a.column.substr(0, a.column.find('#')) == col) return a.value;
    return uint64_t{0};
  };
  EXPECT_NE(value(loose.first, "inv"), value(loose.second, "inv"));
  for (const char* col : {"is_real", "a", "z", "b"}) EXPECT_EQ(value(loose.first, col), value(loose.second, col)) << col;
  const auto tight = air_solve::unique(spec_with("constraint u:c:z_real every: z - is_real\n"), "u", o);
  EXPECT_EQ(tight.verdict, Verdict::kImplied) << air_solve::format(tight);
  const std::string inverse = "column inv main field \"i\"\nconstraint u:c:z_zero every: a * z\n"
                              "constraint u:c:z_inv every: is_real * (a * inv - 1 + z)\n";
  const auto marked = air_solve::unique(spec_with(inverse + "free inv unless 1 - z\n"), "u", o);
  EXPECT_EQ(marked.verdict, Verdict::kImplied) << air_solve::format(marked);
  EXPECT_NE(air_solve::format(marked).find("but for inv unless"), std::string::npos) << air_solve::format(marked);
  const auto wrong = air_solve::unique(spec_with(inverse + "free inv unless z\n"), "u", o);
  EXPECT_EQ(wrong.verdict, Verdict::kAttack) << air_solve::format(wrong);
}

// A kind that follows from a number only through values (syscall's k_random and k_other): the
// differences say nothing (k_other = 1 on one row and 0 on the other is no difference of a column
// shown equal), so the value step splits the kinds on both rows and propagates: k_rand = 1 fixes
// the number, hence p = 0, which other's inverse forbids. Without other's inverse the number 5
// may be called either kind, and the step must not claim the kinds equal (the answer is then
// unknown: a second witness differs in two columns, and only one is asked at a time).
TEST(AirSolve, AKindThatOnlyTheNumbersValueFixesIsShownByCases) {
  auto spec_with = [](const std::string& more) {
    std::vector<spec::air::SourceFile> files = {
        {"air.md", "```zkrv\nmax_degree 3\nbusdef ns (n0: field, n1: field)\n```\n"},
        {"s.md", "```zkrv\ntable s\ncolumn n0 preprocessed u16 \"n0\"\ncolumn n1 preprocessed u16 \"n1\"\n"
                 "bus s:b:out send ns (n0, n1)\n```\n"},
        {"u.md", "```zkrv\ntable u\ncolumn is_real main bit \"r\"\ncolumn n0 main u16 \"n0\"\ncolumn n1 main u16 \"n1\"\n"
                 "column k_rand main bit \"k\"\ncolumn k_other main bit \"o\"\ncolumn p main field \"p\"\n"
                 "column inv main field \"i\"\ncolumn clk main field \"c\"\n"
                 // a transition: the previous and the next row of an interior place are two rows
                 // (taken as one, clk' = clk + 1 and clk = clk^ + 1 had no solution, and every case
                 // of the loose table below was "shown" vacuously)
                 "constraint u:c:clk transition: clk' - clk - 1\nconstraint u:c:clk_first first: clk\n"
                 "constraint u:c:real_bit every: is_real * (is_real - 1)\n"
                 "constraint u:c:k_rand_bit every: k_rand * (k_rand - 1)\n"
                 "constraint u:c:k_other_bit every: k_other * (k_other - 1)\n"
                 "constraint u:c:one_kind every: is_real - k_rand - k_other\n"
                 "constraint u:c:rand0 every: k_rand * (n0 - 40960)\n"
                 "constraint u:c:rand1 every: k_rand * (n1 - 5)\n"
                 "constraint u:c:p every: p - is_real * (n0 + 65536 * n1 - 63) * (n0 + 65536 * n1 - 368640)\n" +
                 more + "free inv unless k_other\nbus u:b:in receive ns (n0, n1) mult is_real\n```\n"}};
    return loaded(files);
  };
  auto o = generous();
  o.interacting = true, o.by_columns = true;
  std::vector<std::string> lines;
  o.progress = [&](const std::string& line) { lines.push_back(line); };
  auto said = [&](const std::string& what) {
    return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) { return l.find(what) != std::string::npos; });
  };
  const auto u = air_solve::unique(spec_with("constraint u:c:other every: k_other * (p * inv - 1)\n"), "u", o);
  EXPECT_EQ(u.verdict, Verdict::kImplied) << air_solve::format(u);
  EXPECT_TRUE(said("without a solution; shown equal: 2")) << "the value step showed the two kinds equal";
  lines.clear();
  const auto loose = air_solve::unique(spec_with("constraint u:c:other every: k_other * inv\n"), "u", o);
  EXPECT_NE(loose.verdict, Verdict::kImplied) << air_solve::format(loose);
  EXPECT_EQ(loose.place.rfind("an interior row", 0), 0u) << "the first place asked has the freedom: " << loose.place;
  EXPECT_FALSE(said("shown equal: 2")) << "the value step claimed the kinds equal";
}

// The uniqueness question as a function (Options::outputs): a row whose tuple fixes every
// column is unique, but its output field need not follow from its input. With r an output of
// the bus, a table that only says "r is a bit" has a second witness (r = 0 and r = 1 for one
// a); one that says r = 2a is unique. Unknown bus or field names are refused.
TEST(AirSolve, AnOutputThatTheInputsDoNotFixIsASecondWitness) {
  auto spec_with = [](const std::string& rule) {
    std::vector<spec::air::SourceFile> files = {
        {"air.md", "```zkrv\nmax_degree 3\nbusdef ar (a: field, r: field)\n```\n"},
        {"s.md", "```zkrv\ntable s\ncolumn a preprocessed field \"a\"\ncolumn r preprocessed field \"r\"\n"
                 "bus s:b:out send ar (a, r)\n```\n"},
        {"u.md", "```zkrv\ntable u\ncolumn is_real main bit \"r\"\ncolumn a main field \"a\"\ncolumn r main field \"r\"\n"
                 "constraint u:c:real_bit every: is_real * (is_real - 1)\n" + rule +
                 "bus u:b:in receive ar (a, r) mult is_real\n```\n"}};
    return loaded(files);
  };
  auto o = generous();
  o.interacting = true;
  const auto bit = spec_with("constraint u:c:r_bit every: r * (r - 1)\n");
  EXPECT_EQ(air_solve::unique(bit, "u", o).verdict, Verdict::kImplied) << "the tuple fixes r";
  o.outputs["ar"] = {"r"};
  const auto loose = air_solve::unique(bit, "u", o);
  ASSERT_EQ(loose.verdict, Verdict::kAttack) << air_solve::format(loose);
  auto value = [](const std::vector<air_solve::Assignment>& row, const std::string& col) {
    for (const auto& a : row)
      if (a.column.substr(0, a.column.find('#')) == col) return a.value;
    return uint64_t{0};
  };
  EXPECT_NE(value(loose.first, "r"), value(loose.second, "r"));
  EXPECT_EQ(value(loose.first, "a"), value(loose.second, "a"));
  const auto twice = air_solve::unique(spec_with("constraint u:c:r_twice every: r - 2 * a\n"), "u", o);
  EXPECT_EQ(twice.verdict, Verdict::kImplied) << air_solve::format(twice);
  o.by_columns = true;  // the column-by-column steps leave the output free too
  EXPECT_EQ(air_solve::unique(bit, "u", o).verdict, Verdict::kAttack);
  // A table that asks: it receives a on another bus (its input) and sends the request (a + 1, r)
  // on ar. The request is its own (not fixed), the answer r follows from the request (the
  // receiving table's question): unique. A request field b that nothing fixes is a witness.
  auto asking = [](const std::string& request, const std::string& more) {
    std::vector<spec::air::SourceFile> files = {
        {"air.md", "```zkrv\nmax_degree 3\nbusdef ar (a: field, r: field)\nbusdef ins (a: field)\n```\n"},
        {"s.md", "```zkrv\ntable s\ncolumn a preprocessed field \"a\"\ncolumn r preprocessed field \"r\"\n"
                 "bus s:b:out send ins (a)\nbus s:b:answer receive ar (a, r)\n```\n"},
        {"v.md", "```zkrv\ntable v\ncolumn is_real main bit \"r\"\ncolumn a main field \"a\"\ncolumn b main field \"b\"\n"
                 "column r main field \"r\"\nconstraint v:c:real_bit every: is_real * (is_real - 1)\n"
                 "constraint v:c:r_bit every: r * (r - 1)\n" + more + "bus v:b:in receive ins (a) mult is_real\n"
                 "bus v:b:ask send ar (" + request + ", r) mult is_real\n```\n"}};
    return loaded(files);
  };
  for (const bool by_columns : {false, true}) {
    o.by_columns = by_columns;
    const auto asked = air_solve::unique(asking("a + 1", "constraint v:c:b every: b - a\n"), "v", o);
    EXPECT_EQ(asked.verdict, Verdict::kImplied) << air_solve::format(asked);
    const auto own = air_solve::unique(asking("b", "constraint v:c:b_bit every: b * (b - 1)\n"), "v", o);
    EXPECT_EQ(own.verdict, Verdict::kAttack) << air_solve::format(own);
  }
  o.outputs = {{"ar", {"x"}}};
  EXPECT_THROW(air_solve::unique(bit, "u", o), std::invalid_argument);
  o.outputs = {{"nosuch", {"r"}}};
  EXPECT_THROW(air_solve::unique(bit, "u", o), std::invalid_argument);
}

// A read of a state (Options::reads): table u reads the memory at an address it computes from its
// input x. With the receive's tuple fixed, a row that computes another address reads another
// tuple, which the question does not see: even a loose address (a (a - x - 1) = 0: a = 0 or
// x + 1) is "unique". Read as a function of the state (the address the row's own, the value
// following from the address), the loose address is a second witness, and the exact one
// (a = x + 1) is unique. A read bus or field that does not exist is refused.
TEST(AirSolve, AnAddressTheRowComputesIsAskedWhenItReadsAState) {
  auto spec_with = [](const std::string& address) {
    std::vector<spec::air::SourceFile> files = {
        {"air.md", "```zkrv\nmax_degree 3\nbusdef xs (x: field)\nbusdef st (addr: field, v: field)\n```\n"},
        {"s.md", "```zkrv\ntable s\ncolumn x preprocessed field \"x\"\ncolumn v preprocessed field \"v\"\n"
                 "bus s:b:out send xs (x)\nbus s:b:state send st (x, v)\n```\n"},
        {"u.md", "```zkrv\ntable u\ncolumn is_real main bit \"r\"\ncolumn x main field \"x\"\ncolumn a main field \"a\"\n"
                 "column v main field \"v\"\nconstraint u:c:real_bit every: is_real * (is_real - 1)\n" + address +
                 "bus u:b:in receive xs (x) mult is_real\nbus u:b:read receive st (a, v) mult is_real\n```\n"}};
    return loaded(files);
  };
  const auto loose = spec_with("constraint u:c:a every: a * (a - x - 1)\n");
  const auto exact = spec_with("constraint u:c:a every: a - x - 1\n");
  auto o = generous();
  o.interacting = true;
  for (const bool by_columns : {false, true}) {
    o.by_columns = by_columns;
    o.reads.clear();
    EXPECT_EQ(air_solve::unique(loose, "u", o).verdict, Verdict::kImplied) << "the tuple fixed fixes the address";
    o.reads["st"] = {"addr"};
    const auto l = air_solve::unique(loose, "u", o);
    EXPECT_EQ(l.verdict, Verdict::kAttack) << air_solve::format(l);
    const auto e = air_solve::unique(exact, "u", o);
    EXPECT_EQ(e.verdict, Verdict::kImplied) << air_solve::format(e);
  }
  o.reads = {{"st", {"address"}}};
  EXPECT_THROW(air_solve::unique(exact, "u", o), std::invalid_argument);
}

// A carry that nothing bounds (cpu's adder: c1, c2 are field columns; with c0 and the top carry
// bits the chain is exact, cpu.md "Why c0 is a bit"). Each limb equation alone says nothing of
// the limbs over the integers, since its unbounded carry takes whatever value closes it; the
// combination without c1 and c2 is one equation over small integers. The limb equations of
// two rows' differences (the operands equal): -d0 - 2^16 c0, c0 - d1 - 2^16 c1,
// c1 - d2 - 2^16 c2, c2 - d3 - 2^16 c3. Their span holds one equation free of c1 and c2, up to
// a factor: c0 - d1 - 2^16 d2 - 2^32 d3 - 2^48 c3, which the elimination must return (with
// the multiple whose terms reach least over the integers) and nothing else; d0's equation names no unbounded
// carry and is not returned. A lone equation with its own unbounded variable gives nothing.
TEST(AirSolve, ACarryNothingBoundsIsEliminatedOverTheField) {
  const uint64_t p = 0xffffffff00000001ull;
  auto neg = [&](uint64_t a) { return a == 0 ? 0 : p - a; };
  enum { d0, d1, d2, d3, c0, c1, c2, c3 };
  const std::vector<std::map<int, uint64_t>> limbs = {
      {{d0, neg(1)}, {c0, neg(1ull << 16)}},
      {{c0, 1}, {d1, neg(1)}, {c1, neg(1ull << 16)}},
      {{c1, 1}, {d2, neg(1)}, {c2, neg(1ull << 16)}},
      {{c2, 1}, {d3, neg(1)}, {c3, neg(1ull << 16)}},
  };
  const auto bound = [](int v) { return v == c1 || v == c2 ? 1e30 : v == c0 || v == c3 ? 2.0 : 65536.0; };
  const auto out = air_solve::without_unbounded(limbs, bound);
  ASSERT_EQ(out.size(), 1u);
  std::map<int, uint64_t> want = {{c0, 1}, {d1, neg(1)}, {d2, neg(1ull << 16)}, {d3, neg(1ull << 32)}, {c3, neg(1ull << 48)}};
  std::map<int, uint64_t> negated;
  for (const auto& [v, c] : want) negated[v] = neg(c);
  EXPECT_TRUE(out[0] == want || out[0] == negated);
  EXPECT_TRUE(air_solve::without_unbounded({limbs[0], {{d1, 1}, {c1, neg(1ull << 16)}}}, bound).empty());
  // on a table: the exact chain is unique column by column; with c2 unbounded too (no bit),
  // d1, d2, c1, c2 are free, which an unsound elimination would hide
  auto spec_with = [](const std::string& top) {
    std::vector<spec::air::SourceFile> files = {
        {"air.md", "```zkrv\nmax_degree 3\nbusdef xs (x0: field, x1: field)\nbusdef range16 (v: field)\n```\n"},
        {"s.md", "```zkrv\ntable s\ncolumn x0 preprocessed u16 \"x0\"\ncolumn x1 preprocessed u16 \"x1\"\n"
                 "column v preprocessed u16 \"v\"\nbus s:b:out send xs (x0, x1)\nbus s:b:r receive range16 (v)\n```\n"},
        {"u.md", "```zkrv\ntable u\ncolumn is_real main bit \"r\"\ncolumn x0 main u16 \"x0\"\ncolumn x1 main u16 \"x1\"\n"
                 "column d0 main u16 \"d0\"\ncolumn d1 main u16 \"d1\"\ncolumn d2 main u16 \"d2\"\n"
                 "column c0 main bit \"c0\"\ncolumn c1 main field \"c1\"\ncolumn c2 main field \"c2\"\n"
                 "constraint u:c:real_bit every: is_real * (is_real - 1)\n"
                 "constraint u:c:c0_bit every: c0 * (c0 - 1)\n" + top +
                 "constraint u:c:l0 every: x0 - d0 - 65536 * c0\n"
                 "constraint u:c:l1 every: x1 + c0 - d1 - 65536 * c1\n"
                 "constraint u:c:l2 every: c1 - d2 - 65536 * c2\n"
                 "bus u:b:in receive xs (x0, x1) mult is_real\n"
                 "bus u:b:d0 send range16 (d0) mult is_real\nbus u:b:d1 send range16 (d1) mult is_real\n"
                 "bus u:b:d2 send range16 (d2) mult is_real\n```\n"}};
    return loaded(files);
  };
  auto o = generous();
  o.interacting = true, o.by_columns = true;
  const auto exact = air_solve::unique(spec_with("constraint u:c:c2_bit every: c2 * (c2 - 1)\n"), "u", o);
  EXPECT_EQ(exact.verdict, Verdict::kImplied) << air_solve::format(exact);
  const auto loose = air_solve::unique(spec_with(""), "u", o);
  EXPECT_NE(loose.verdict, Verdict::kImplied) << air_solve::format(loose);
}

// Every `adequacy ID implied` mark in the spec is the solver's: the rest of the table implies the
// constraint (Air.AdequacyKillRate accepts a survivor only with a mark).
TEST(AirSolve, EveryImpliedMarkIsProved) {
  size_t asked = 0;
  std::set<std::string> whole_marks;
  auto ask_marks = [&](const spec::air::Spec& spec, bool segmented) {
    for (const auto& t : spec.tables)
      for (const auto& mark : t.adequacy) {
        if (!segmented) whole_marks.insert(mark.id);
        if (mark.kind != spec::air::AdequacyMark::Kind::kImplied || (segmented && whole_marks.count(mark.id))) continue;
        auto o = generous();
        o.using_ids = mark.using_ids;  // a certificate: that subset alone implies it
        o.descent = mark.descent;      // or, with a descent, those of each table
        o.once = mark.once;            // (the same with a count)
        const auto a = air_solve::implied(spec, t.name, mark.id, o);
        EXPECT_EQ(a.verdict, Verdict::kImplied) << air_solve::format(a);
        ++asked;
      }
  };
  ask_marks(spec::air::embedded_spec(), false);
  // the segment AIR's marks on its new constraints (SegmentAir.EveryNewConstraintIsViolatedByItsEdit)
  ask_marks(spec::air::embedded_spec(spec::air::Mode::kSegmented), true);
  std::printf("%zu implied marks proved\n", asked);
}

TEST(AirSolve, UnknownNamesAreRefused) {
  const auto& spec = spec::air::embedded_spec();
  EXPECT_THROW(air_solve::implied(spec, "nosuch", "nosuch:c:x", generous()), std::invalid_argument);
  EXPECT_THROW(air_solve::implied(spec, "io", "io:c:nosuch", generous()), std::invalid_argument);
  EXPECT_THROW(air_solve::unique(spec, "nosuch", generous()), std::invalid_argument);
}

}  // namespace
}  // namespace zkrv
