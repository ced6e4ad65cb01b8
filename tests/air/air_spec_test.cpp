// The constraint spec format: the real spec (spec/tables) loads without errors; malformed
// documents are rejected with the file:line and what is wrong; the expression language parses,
// reports the column of a syntax error, and computes degrees and values.
#include <gtest/gtest.h>

#include <set>

#include "spec/air/spec.h"

namespace zkrv::spec::air {
namespace {

TEST(AirSpec, TheRepositorySpecLoads) {
  const auto r = load_spec_dir(ZKRV_SPEC_DIR);
  ASSERT_TRUE(r.spec) << r.errors.front().str();
  EXPECT_EQ(r.spec->max_degree, 3u);
  ASSERT_NE(r.spec->table("cpu"), nullptr);
  EXPECT_GT(r.spec->ids().size(), 30u);
  const auto& pad = r.spec->table("cpu")->padding;  // padding wr_zero=1 clk=row
  ASSERT_TRUE(pad);
  EXPECT_EQ(pad->fixed, (std::vector<std::pair<std::string, uint64_t>>{{"wr_zero", 1}}));
  EXPECT_EQ(pad->counting, std::vector<std::string>{"clk"});
  EXPECT_FALSE(r.spec->table("byte")->padding);  // every row fixed by the verifier
}

// The documents describe two AIRs (spec/tables/air.md, "A whole run and a segment"): the whole
// run's is every statement but the segmented ones, a segment's every statement but the whole ones.
TEST(AirSpec, TheSegmentedSpecLoadsAndDiffersOnlyWhereMarked) {
  const auto w = load_spec_dir(ZKRV_SPEC_DIR, Mode::kWhole), g = load_spec_dir(ZKRV_SPEC_DIR, Mode::kSegmented);
  ASSERT_TRUE(w.spec) << w.errors.front().str();
  ASSERT_TRUE(g.spec) << g.errors.front().str();
  EXPECT_EQ(w.spec->mode, Mode::kWhole);
  EXPECT_EQ(g.spec->mode, Mode::kSegmented);
  // memb and gmem exist in segments only; gmem is the last bus, so every other bus keeps its tag
  EXPECT_EQ(w.spec->table("memb"), nullptr);
  ASSERT_NE(g.spec->table("memb"), nullptr);
  EXPECT_EQ(w.spec->bus("gmem"), nullptr);
  EXPECT_EQ(g.spec->bus_index("gmem"), g.spec->buses.size() - 1);
  ASSERT_EQ(g.spec->buses.size(), w.spec->buses.size() + 1);
  for (size_t i = 0; i < w.spec->buses.size(); ++i) EXPECT_EQ(g.spec->buses[i].name, w.spec->buses[i].name);
  // the whole run's publics first, then the segment's
  ASSERT_EQ(w.spec->publics.size(), 2u);
  ASSERT_EQ(g.spec->publics.size(), 14u);
  for (size_t i = 0; i < 2; ++i) EXPECT_EQ(g.spec->publics[i].name, w.spec->publics[i].name);
  // every table but memb in both, with the whole run's IDs plus the segment's own: a whole
  // statement's ID reappears in its segmented form
  for (const auto& t : w.spec->tables) {
    const Table* s = g.spec->table(t.name);
    ASSERT_NE(s, nullptr) << t.name;
    std::set<std::string> ids(s->ids.begin(), s->ids.end());
    for (const auto& id : t.ids) EXPECT_TRUE(ids.count(id)) << id << " has no segmented form";
  }
  auto forms = [](const Spec& sp, const std::string& table, const std::string& id) {
    for (const auto& c : sp.table(table)->constraints)
      if (c.id == id) return to_string(*c.expr);
    return std::string();
  };
  EXPECT_EQ(forms(*w.spec, "cpu", "cpu:c:clk_first"), "clk");
  EXPECT_EQ(forms(*g.spec, "cpu", "cpu:c:clk_first"), "(clk - clk_start)");
  EXPECT_EQ(forms(*w.spec, "cpu", "cpu:c:full_last"), "");
  EXPECT_NE(forms(*g.spec, "cpu", "cpu:c:full_last"), "");
  EXPECT_EQ(w.spec->table("regs")->columns.size() + 8, g.spec->table("regs")->columns.size());
}

TEST(AirSpec, WholeAndSegmentedMarkOneAirsStatements) {
  const std::string air = "```zkrv\nmax_degree 3\nbusdef b (v: field)\nsegmented public p \"a public\"\n```\n";
  const std::string t =
      "```zkrv\ntable t\ncolumn x main field \"x\"\nsegmented column y main field \"y\"\n"
      "whole constraint t:c:c every: x\nsegmented constraint t:c:c every: x - y - p\n"
      "bus t:b:s send b (x)\nbus t:b:r receive b (x)\n```\n";
  const std::string u = "```zkrv\nsegmented table u\ncolumn z main field \"z\"\nconstraint u:c:z every: z - p\n```\n";
  const auto w = load_spec({{"air.md", air}, {"t.md", t}, {"u.md", u}}, Mode::kWhole);
  ASSERT_TRUE(w.spec) << w.errors.front().str();
  EXPECT_EQ(w.spec->tables.size(), 1u);  // u is a segment's only, and its p is not declared here
  EXPECT_EQ(w.spec->table("t")->columns.size(), 1u);
  EXPECT_EQ(to_string(*w.spec->table("t")->constraints.at(0).expr), "x");
  const auto g = load_spec({{"air.md", air}, {"t.md", t}, {"u.md", u}}, Mode::kSegmented);
  ASSERT_TRUE(g.spec) << g.errors.front().str();
  EXPECT_EQ(g.spec->tables.size(), 2u);
  EXPECT_EQ(to_string(*g.spec->table("t")->constraints.at(0).expr), "((x - y) - p)");
  // an ID twice in one AIR is still a duplicate; a mark needs a statement after it
  const std::string twice = "```zkrv\ntable t\ncolumn x main field \"x\"\nconstraint t:c:c every: x\n"
                            "segmented constraint t:c:c every: x\nbus t:b:s send b (x)\nbus t:b:r receive b (x)\n```\n";
  const auto d = load_spec({{"air.md", air}, {"t.md", twice}}, Mode::kSegmented);
  ASSERT_FALSE(d.errors.empty());
  EXPECT_EQ(d.errors.front().str(), "t.md:5: duplicate ID 't:c:c'");
  EXPECT_TRUE(load_spec({{"air.md", air}, {"t.md", twice}}, Mode::kWhole).spec);
  for (const std::string bad : {"segmented", "whole segmented table t", "segmented max_degree 3"}) {
    const auto e = load_spec({{"air.md", "```zkrv\nmax_degree 3\n" + bad + "\n```\n"}}, Mode::kSegmented);
    ASSERT_FALSE(e.errors.empty()) << bad;
    EXPECT_NE(e.errors.front().what.find("'whole' and 'segmented' mark a public"), std::string::npos) << e.errors.front().str();
  }
}

TEST(AirSpec, Expressions) {
  ParseFailure f;
  auto e = parse_expr("is_real' * (pc' - next_pc) + 3 * x^2 - -1", &f);
  ASSERT_TRUE(e);
  EXPECT_EQ(degree(*e), 2u);
  const uint64_t v = eval(*e, [](const std::string& n, bool next) -> uint64_t {
    if (n == "is_real") return next ? 1 : 0;
    if (n == "pc") return next ? 10 : 0;
    if (n == "next_pc") return 4;
    return 5;  // x
  });
  EXPECT_EQ(v, 6u + 75u + 1u);
  EXPECT_EQ(eval(*parse_expr("0 - 1", &f), [](auto&, bool) { return 0ull; }), 0xFFFFFFFF00000000ull);
  for (const auto& [text, column] : std::vector<std::pair<std::string, size_t>>{
           {"a +", 3}, {"(a", 2}, {"a b", 2}, {"2^", 2}, {"0xFFFFFFFF00000001", 0}, {"a ^ 99", 4}, {"a $ b", 2}}) {
    EXPECT_FALSE(parse_expr(text, &f)) << text;
    EXPECT_EQ(f.column, column) << text << ": " << f.what;
  }
}

std::vector<SpecError> errors_of(const std::string& table_doc) {
  const std::string air = "```zkrv\nmax_degree 3\npublic entry \"e\"\nbusdef byte (value: byte)\n```\n";
  const std::string byte_table = "```zkrv\ntable bt\ncolumn v main byte \"v\"\nbus bt:b:r receive byte (v)\n```\n";
  return load_spec({{"air.md", air}, {"bt.md", byte_table}, {"t.md", table_doc}}).errors;
}

// Each malformed statement: the message names t.md, the line, and says what is wrong.
TEST(AirSpec, ErrorsNameFileLineAndCause) {
  struct Case {
    std::string doc;
    size_t line;
    std::string says;
  };
  const std::string head = "# title\n```zkrv\ntable t\ncolumn a main field \"a\"\ncolumn b main bit \"b\"\n";
  const std::vector<Case> cases = {
      {head + "constraint t:c:x every: a + c\n```\n", 6, "unknown name 'c'"},
      {head + "constraint t:c:x every: a * a * a * a\n```\n", 6, "degree 4 exceeds max_degree 3"},
      {head + "constraint t:c:x every: a' - a\n```\n", 6, "outside a transition constraint"},
      {head + "constraint t:c:x sometimes: a\n```\n", 6, "rows must be first, last, transition or every"},
      {head + "constraint u:c:x every: a\n```\n", 6, "must look like t:c:<name>"},
      {head + "constraint t:c:x every: a\nconstraint t:c:x every: b\n```\n", 7, "duplicate ID 't:c:x'"},
      {head + "constraint t:c:x every: (a + \n```\n", 6, "at column"},
      {head + "column a main field \"again\"\n```\n", 6, "duplicate column 'a'"},
      {head + "column z main wide \"z\"\n```\n", 6, "unknown type 'wide'"},
      {head + "column z secret field \"z\"\n```\n", 6, "kind must be main, preprocessed or auxiliary"},
      {head + "column z main field\n```\n", 6, "quoted description"},
      {head + "bus t:b:x send byte (a)\n```\n", 6, "field value is byte, but 'a' is not known to be in that range"},
      {head + "bus t:b:x send byte (b, b)\n```\n", 6, "carries 1 values, the tuple has 2"},
      {head + "bus t:b:x send nowhere (b)\n```\n", 6, "unknown bus 'nowhere'"},
      {head + "bus t:b:x post byte (b)\n```\n", 6, "expected send or receive"},
      {head + "bus t:b:x send byte (b) times a\n```\n", 6, "expected 'mult <expression>'"},
      {head + "assume t:a:x no quotes\n```\n", 6, "expected: assume"},
      {head + "frobnicate\n```\n", 6, "unknown statement 'frobnicate'"},
      {head + "padding c=1\n```\n", 6, "padding: 'c=1' is not <column>=<value>"},
      {head + "padding a\n```\n", 6, "padding: 'a' is not <column>=<value>"},
      {head + "padding a=x\n```\n", 6, "the value of 'a' must be a decimal number or 'row'"},
      {head + "padding a=1 a=row\n```\n", 6, "column 'a' named twice"},
      {head + "padding\npadding b=1\n```\n", 7, "a second 'padding'"},
      {head + "adequacy t:c:x implied \"why\"\n```\n", 6, "'t:c:x' is not a constraint of table t declared above"},
      {head + "constraint t:c:x every: b\nadequacy t:c:x maybe \"why\"\n```\n", 7, "expected: adequacy"},
      {head + "constraint t:c:x every: b\nadequacy t:c:x implied using \"why\"\n```\n", 7, "'using' names no constraint"},
      {head + "constraint t:c:x every: b\nadequacy t:c:x implied using t:c:x \"why\"\n```\n", 7,
       "using 't:c:x', which is not another constraint or an interaction of table t declared above"},
      {head + "constraint t:c:x every: b\nadequacy t:c:x implied using t:c:y \"why\"\n```\n", 7,
       "using 't:c:y', which is not another constraint or an interaction of table t declared above"},
      {head + "constraint t:c:x every: b\nadequacy t:c:x open \"a\"\nadequacy t:c:x open \"b\"\n```\n", 8,
       "marked twice"},
      {head + "constraint t:c:x every: b\nadequacy t:c:x implied descent t:b:r 0 \"why\"\n```\n", 7,
       "expected: adequacy <constraint ID> implied descent <receive ID> <field> <L>"},
      {head + "constraint t:c:x every: b\nadequacy t:c:x implied descent t:b:r 0 5 \"why\"\n```\n", 7,
       "descent through 't:b:r', which is not a receive of table t declared above with a field 0"},
      {head + "constraint t:c:x every: b\nadequacy t:c:x implied once t:b:r \"why\"\n```\n", 7,
       "once through 't:b:r', which is not a receive of table t declared above"},
      {head + "free a\n```\n", 6, "expected: free <column> unless <expression>"},
      {head + "free a if b\n```\n", 6, "expected: free <column> unless <expression>"},
      {head + "free z unless b\n```\n", 6, "free: 'z' is not a main column of table t declared above"},
      {head + "free a unless b\nfree a unless 1 - b\n```\n", 7, "free: 'a' marked twice"},
      {head + "free a unless c\n```\n", 6, "unknown name 'c'"},
      {head + "constraint t:c:x every: a\n", 6, "unterminated ```zkrv block"},
      {"```zkrv\ncolumn a main field \"a\"\n```\n", 2, "before any 'table'"},
  };
  for (const auto& c : cases) {
    const auto errs = errors_of(c.doc);
    ASSERT_FALSE(errs.empty()) << c.doc;
    const std::string msg = errs.front().str();
    EXPECT_NE(msg.find("t.md:" + std::to_string(c.line) + ": "), std::string::npos) << msg;
    EXPECT_NE(msg.find(c.says), std::string::npos) << msg;
  }
}

// An implied mark with a certificate: the constraints after `using`, in order, then the text.
TEST(AirSpec, AnImpliedMarkCarriesItsCertificate) {
  const std::string air = "```zkrv\nmax_degree 3\n```\n";
  const std::string t = "```zkrv\ntable t\ncolumn a main field \"a\"\ncolumn b main field \"b\"\n"
                        "constraint t:c:x every: a\nconstraint t:c:y every: b\nconstraint t:c:z every: a * b\n"
                        "adequacy t:c:z implied using t:c:x t:c:y \"from either\"\nadequacy t:c:y open \"tried\"\n```\n";
  const auto r = load_spec({{"air.md", air}, {"t.md", t}});
  ASSERT_TRUE(r.errors.empty()) << r.errors.front().str();
  const auto& marks = r.spec->table("t")->adequacy;
  ASSERT_EQ(marks.size(), 2u);
  EXPECT_EQ(marks[0].using_ids, (std::vector<std::string>{"t:c:x", "t:c:y"}));
  EXPECT_EQ(marks[0].text, "from either");
  EXPECT_TRUE(marks[1].using_ids.empty());
}

// A free mark: the column, and the expression where it is asked (which may name the next row).
TEST(AirSpec, AFreeMarkNamesItsColumnAndWhereItIsAsked) {
  const std::string air = "```zkrv\nmax_degree 3\n```\n";
  const std::string t = "```zkrv\ntable t\ncolumn a main field \"a\"\ncolumn b main bit \"b\"\n"
                        "constraint t:c:b every: b * (b - 1)\nfree a unless b * (1 - b')\n```\n";
  const auto r = load_spec({{"air.md", air}, {"t.md", t}});
  ASSERT_TRUE(r.errors.empty()) << r.errors.front().str();
  const auto& marks = r.spec->table("t")->free;
  ASSERT_EQ(marks.size(), 1u);
  EXPECT_EQ(marks[0].column, "a");
  EXPECT_EQ(to_string(*marks[0].unless), "b * (1 - b')");
}

// A descent mark: the receive, its field and the threshold, then a certificate that may name
// another table's IDs (the solver resolves them; this table's must be declared above).
TEST(AirSpec, ADescentMarkNamesItsBusAndThreshold) {
  const std::string air = "```zkrv\nmax_degree 3\nbusdef ops (op: field)\n```\n";
  const std::string s = "```zkrv\ntable s\ncolumn v main field \"v\"\nbus s:b:out send ops (v)\n```\n";
  const std::string t = "```zkrv\ntable t\ncolumn a main field \"a\"\nconstraint t:c:x every: a\n"
                        "bus t:b:in receive ops (a)\n"
                        "adequacy t:c:x implied descent t:b:in 0 73 using t:b:in s:c:later \"down\"\n```\n";
  const auto r = load_spec({{"air.md", air}, {"s.md", s}, {"t.md", t}});
  ASSERT_TRUE(r.errors.empty()) << r.errors.front().str();
  const auto& mark = r.spec->table("t")->adequacy.at(0);
  ASSERT_TRUE(mark.descent.has_value());
  EXPECT_EQ(mark.descent->receive, "t:b:in");
  EXPECT_EQ(mark.descent->field, 0u);
  EXPECT_EQ(mark.descent->from, 73u);
  EXPECT_EQ(mark.using_ids, (std::vector<std::string>{"t:b:in", "s:c:later"}));
  const std::string bad = "```zkrv\ntable t\ncolumn a main field \"a\"\nconstraint t:c:x every: a\n"
                          "bus t:b:in receive ops (a)\n"
                          "adequacy t:c:x implied descent t:b:in 0 73 using t:c:nosuch \"down\"\n```\n";
  const auto e = load_spec({{"air.md", air}, {"s.md", s}, {"t.md", bad}});
  ASSERT_FALSE(e.errors.empty());
  EXPECT_NE(e.errors.front().str().find("using 't:c:nosuch'"), std::string::npos) << e.errors.front().str();
}

// A count mark: the receive, then the orders (table, guard, key) that the solver checks, then a
// certificate that may name another table's IDs. An order needs all three words.
TEST(AirSpec, ACountMarkNamesItsReceiveAndOrders) {
  const std::string air = "```zkrv\nmax_degree 3\nbusdef ops (op: field)\n```\n";
  const std::string s = "```zkrv\ntable s\ncolumn v main field \"v\"\nbus s:b:out send ops (v)\n```\n";
  auto t = [](const std::string& mark) {
    return "```zkrv\ntable t\ncolumn a main field \"a\"\nconstraint t:c:x every: a\nbus t:b:in receive ops (a)\n" + mark +
           "\n```\n";
  };
  const auto r = load_spec(
      {{"air.md", air}, {"s.md", s}, {"t.md", t("adequacy t:c:x implied once t:b:in order s v v order m r k using s:c:z \"one\"")}});
  ASSERT_TRUE(r.errors.empty()) << r.errors.front().str();
  const auto& mark = r.spec->table("t")->adequacy.at(0);
  ASSERT_TRUE(mark.once.has_value());
  EXPECT_FALSE(mark.descent.has_value());
  EXPECT_EQ(mark.once->receive, "t:b:in");
  ASSERT_EQ(mark.once->orders.size(), 2u);
  EXPECT_EQ(mark.once->orders[1].table, "m");
  EXPECT_EQ(mark.once->orders[1].guard, "r");
  EXPECT_EQ(mark.once->orders[1].key, "k");
  EXPECT_EQ(mark.using_ids, (std::vector<std::string>{"s:c:z"}));
  EXPECT_EQ(mark.text, "one");
  const auto e = load_spec({{"air.md", air}, {"s.md", s}, {"t.md", t("adequacy t:c:x implied once t:b:in order s v \"one\"")}});
  ASSERT_FALSE(e.errors.empty());
  EXPECT_NE(e.errors.front().str().find("expected: adequacy <constraint ID> implied once"), std::string::npos)
      << e.errors.front().str();
}

// Found by fuzz/spec_parser: a huge max_degree made std::stoul throw.
TEST(AirSpec, MaxDegreeIsBounded) {
  for (const char* v : {"99999999999999999999", "1", "17", "x"}) {
    const auto r = load_spec({{"air.md", std::string("```zkrv\nmax_degree ") + v + "\n```\n"}});
    ASSERT_FALSE(r.errors.empty()) << v;
    EXPECT_NE(r.errors.front().str().find("air.md:2: max_degree needs one integer in 2..16"), std::string::npos)
        << r.errors.front().str();
  }
}

TEST(AirSpec, BusesNeedBothSides) {
  const std::string air = "```zkrv\nmax_degree 3\nbusdef lonely (x: field)\n```\n";
  const std::string t = "```zkrv\ntable t\ncolumn a main field \"a\"\nbus t:b:x send lonely (a)\n```\n";
  const auto errs = load_spec({{"air.md", air}, {"t.md", t}}).errors;
  ASSERT_EQ(errs.size(), 1u);
  EXPECT_NE(errs[0].str().find("air.md:3: bus lonely has no receiver"), std::string::npos) << errs[0].str();
}

}  // namespace
}  // namespace zkrv::spec::air
