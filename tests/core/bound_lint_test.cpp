// The interaction bound's lint (core/air/bound_lint.h): on the embedded spec every column that a
// bounded multiplicity reads is enforced (the mapping is printed, one line per table and column);
// on small specs each rule accepts its form and the lint names exactly the column that nothing
// enforces.
#include "core/air/bound_lint.h"

#include <gtest/gtest.h>

#include <iostream>
#include <set>
#include <tuple>

#include "spec/air/embedded.h"

namespace zkrv::core {
namespace {

TEST(BoundLint, EveryColumnTheEmbeddedSpecsBoundsReadIsEnforced) {
  const auto found = lint_bounds(spec::air::embedded_spec());
  ASSERT_FALSE(found.empty());
  std::set<std::pair<std::string, std::string>> printed;  // one line per (table, column)
  std::string failures;
  for (const auto& r : found) {
    if (!r.enforced()) failures += to_string(r) + "\n";
    if (printed.insert({r.table, r.column}).second) std::cout << to_string(r) << "\n";
  }
  std::cout << found.size() << " (interaction, column) pairs, " << printed.size() << " columns\n";
  EXPECT_TRUE(failures.empty()) << failures;
}

// The lint's findings on t:b:tok in a spec of one table `t` around `body` (its columns,
// constraints and buses): t sends (v) on `tok`
// with multiplicity `mult`; `u` receives it, and `lk` is the byte and range16 lookups (each also
// sends once, as a bus needs a sender).
std::vector<BoundReliance> lint(const std::string& body, const std::string& mult) {
  const std::string air =
      "```zkrv\nmax_degree 3\nbusdef byte (value: byte)\nbusdef range16 (value: u16)\n"
      "busdef tok (v: field)\n```\n";
  const std::string lookups =
      "```zkrv\ntable lk\ncolumn value preprocessed byte \"v\"\ncolumn w preprocessed u16 \"w\"\n"
      "column m main field \"m\"\ncolumn n main field \"n\"\nbus lk:b:byte receive byte (value) "
      "mult m\n"
      "bus lk:b:range16 receive range16 (w) mult n\nbus lk:b:sends_byte send byte (value)\n"
      "bus lk:b:sends_range16 send range16 (w)\n```\n";
  const std::string u =
      "```zkrv\ntable u\ncolumn v main field \"v\"\ncolumn m main field \"m\"\n"
      "bus u:b:tok receive tok (v) mult m\n```\n";
  const std::string t = "```zkrv\ntable t\ncolumn v main field \"v\"\n" + body +
                        "bus t:b:tok send tok (v) mult " + mult + "\n```\n";
  const auto loaded =
      spec::air::load_spec({{"air.md", air}, {"lk.md", lookups}, {"t.md", t}, {"u.md", u}});
  EXPECT_TRUE(loaded.spec) << (loaded.errors.empty() ? "" : loaded.errors.front().str());
  if (!loaded.spec) return {};
  std::vector<BoundReliance> out;
  for (const auto& r : lint_bounds(*loaded.spec))
    if (r.interaction == "t:b:tok") out.push_back(r);
  return out;
}
std::string unenforced(const std::vector<BoundReliance>& found) {
  std::string s;
  for (const auto& r : found)
    if (!r.enforced()) s += (s.empty() ? "" : " ") + r.column;
  return s;
}
std::string mapping(const std::vector<BoundReliance>& found) {
  std::string s;
  for (const auto& r : found) s += to_string(r) + "\n";
  return s;
}

TEST(BoundLint, ABitWithoutABitConstraintIsReported) {
  const auto found = lint(
      "column r main bit \"r\"\ncolumn f main bit \"f\"\n"
      "constraint t:c:r_bit every: r * (r - 1)\nconstraint t:c:f_used every: f * v\n",
      "r + f");
  ASSERT_EQ(found.size(), 2u);
  EXPECT_TRUE(found[0].enforced()) << to_string(found[0]);
  EXPECT_EQ(unenforced(found), "f");
  EXPECT_EQ(found[1].interaction, "t:b:tok");
  EXPECT_NE(found[1].failure.find("no every constraint makes it a bit"), std::string::npos)
      << found[1].failure;
}

TEST(BoundLint, ABitConstraintInAnySpellingEnforcesIt) {
  for (const std::string c : {"f * (f - 1)", "f^2 - f", "3 * f - 3 * f * f", "(1 - f) * f * 7"}) {
    const auto found =
        lint("column f main bit \"f\"\nconstraint t:c:f_bit every: " + c + "\n", "f");
    ASSERT_EQ(found.size(), 1u) << c;
    EXPECT_EQ(found[0].enforced_by, std::vector<std::string>{"t:c:f_bit"})
        << c << ": " << to_string(found[0]);
  }
  // not bits: roots 0 and 2; a transition constraint leaves the last row; f' is another row
  for (const std::string c : {"every: f * (f - 2)", "every: f * f", "transition: f * (f - 1)",
                              "transition: f' * (f - 1)"}) {
    const auto found = lint("column f main bit \"f\"\nconstraint t:c:f_bit " + c + "\n", "f");
    EXPECT_EQ(unenforced(found), "f") << c;
  }
}

// c(c - b): c ∈ {0, b}, a bit when b is one.
TEST(BoundLint, AGatedBitNeedsItsGateEnforced) {
  const std::string cols =
      "column r main bit \"r\"\ncolumn f main bit \"f\"\nconstraint t:c:f_bit every: f * (f - r)\n";
  auto found = lint(cols + "constraint t:c:r_bit every: r * (r - 1)\n", "f");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(to_string(found[0]), "t t:b:tok f (bit): t:c:f_bit [given r]");
  found = lint(cols, "f");
  EXPECT_EQ(unenforced(found), "f");
  EXPECT_NE(found[0].failure.find("t:c:f_bit needs r, which is not enforced"), std::string::npos)
      << found[0].failure;
}

// m = a + b is a bit only when a and b are never both 1: a one-hot constraint says so; without it
// the lint reports the assignment that makes m 2.
TEST(BoundLint, ADefinitionIsABitOnlyWhereItsValueIs) {
  const std::string cols =
      "column r main bit \"r\"\ncolumn a main bit \"a\"\ncolumn b main bit \"b\"\ncolumn c main "
      "bit \"c\"\n"
      "column m main bit \"m\"\nconstraint t:c:r_bit every: r * (r - 1)\nconstraint t:c:a_bit "
      "every: a * (a - 1)\n"
      "constraint t:c:b_bit every: b * (b - 1)\nconstraint t:c:c_bit every: c * (c - 1)\n"
      "constraint t:c:m every: m - a - b\n";
  auto found = lint(cols, "m");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(unenforced(found), "m");
  EXPECT_NE(found[0].failure.find("t:c:m gives m a value other than 0 or 1 where a=1 b=1"),
            std::string::npos)
      << found[0].failure;
  found = lint(cols + "constraint t:c:one_hot every: a + b + c - r\n", "m");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(to_string(found[0]), "t t:b:tok m (bit): t:c:m + t:c:one_hot [given a b]");
  // the one-hot group counts only when all its columns are enforced bits
  found = lint(cols.substr(0, cols.find("constraint t:c:c_bit")) +
                   "constraint t:c:m every: m - a - b\n" +
                   "constraint t:c:one_hot every: a + b + c - r\n",
               "m");
  EXPECT_EQ(unenforced(found), "m");
}

// c = (x ≠ 0) from x(1 - c) and c(x y - 1), x and y free.
TEST(BoundLint, ANonzeroIndicatorIsABit) {
  const std::string cols =
      "column x main field \"x\"\ncolumn y main field \"y\"\ncolumn c main bit \"c\"\n";
  auto found = lint(
      cols + "constraint t:c:set every: x * (1 - c)\nconstraint t:c:inv every: c * (x * y - 1)\n",
      "c");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(to_string(found[0]), "t t:b:tok c (bit): t:c:set + t:c:inv");
  found = lint(cols + "constraint t:c:inv every: c * (x * y - 1)\n", "c");  // c = 0 or anything
  EXPECT_EQ(unenforced(found), "c");
}

// byte columns: an ungated byte lookup; a gated one leaves rows where its multiplicity is 0.
TEST(BoundLint, AByteNeedsAnUngatedLookup) {
  const std::string cols =
      "column r main bit \"r\"\ncolumn k main byte \"k\"\nconstraint t:c:r_bit every: r * (r - "
      "1)\n";
  auto found = lint(cols + "bus t:b:k send byte (k)\n", "k");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].enforced_by, std::vector<std::string>{"t:b:k"}) << mapping(found);
  found = lint(cols + "bus t:b:k send byte (k) mult r\n", "k");
  EXPECT_EQ(unenforced(found), "k");
  EXPECT_NE(found[0].failure.find("gated"), std::string::npos) << found[0].failure;
  found = lint("column k main u16 \"k\"\nbus t:b:k send range16 (k) mult 2\n", "k");
  EXPECT_EQ(found[0].enforced_by, std::vector<std::string>{"t:b:k"}) << mapping(found);
}

// A range lookup is only as good as its receivers: a table that also receives on the bus, from a
// main column, would let any value pass.
TEST(BoundLint, ALookupWithAMainReceiverEnforcesNothing) {
  const std::string cols = "column k main byte \"k\"\nbus t:b:k send byte (k)\n";
  auto found = lint(cols + "column x main byte \"x\"\ncolumn mx main field \"mx\"\n"
                           "bus t:b:loose receive byte (x) mult mx\n",
                    "k");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(unenforced(found), "k");
  EXPECT_NE(found[0].failure.find("t:b:loose receives something other than one preprocessed column"),
            std::string::npos)
      << found[0].failure;
}

}  // namespace
}  // namespace zkrv::core
