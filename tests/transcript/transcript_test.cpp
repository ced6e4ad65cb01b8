// Fiat-Shamir transcript: deterministic, sensitive to every absorbed byte, label and order;
// squeezed field elements are canonical and indices in range and unbiased (chi-square on a
// non-power-of-two bound); grinding finds a valid nonce and rejects others.
#include "reference/transcript/transcript.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace zkrv::ref {
namespace {

std::vector<uint8_t> bytes(const std::string& s) { return {s.begin(), s.end()}; }

TEST(Transcript, DeterministicAndSensitive) {
  auto run = [](const std::string& domain, const std::string& label, const std::string& data) {
    Transcript t(domain);
    t.absorb(label, bytes(data));
    return t.squeeze_digest("challenge");
  };
  EXPECT_EQ(run("d", "a", "xyz"), run("d", "a", "xyz"));
  EXPECT_NE(run("d", "a", "xyz"), run("e", "a", "xyz"));
  EXPECT_NE(run("d", "a", "xyz"), run("d", "b", "xyz"));
  EXPECT_NE(run("d", "a", "xyz"), run("d", "a", "xyw"));
  // length prefixes: moving a byte between label and data changes the result
  EXPECT_NE(run("d", "ax", "yz"), run("d", "a", "xyz"));
  Transcript t1("d"), t2("d");
  t1.absorb("a", bytes("1")); t1.absorb("b", bytes("2"));
  t2.absorb("b", bytes("2")); t2.absorb("a", bytes("1"));
  EXPECT_NE(t1.squeeze_digest("c"), t2.squeeze_digest("c"));
  // squeezes ratchet: two squeezes differ
  Transcript t3("d");
  EXPECT_NE(t3.squeeze_digest("c"), t3.squeeze_digest("c"));
}

TEST(Transcript, FieldElementsAndIndices) {
  Transcript t("fields");
  for (int i = 0; i < 1000; ++i) EXPECT_LT(t.squeeze_field("x").value(), Fp::P);
  const uint64_t bound = 6;  // not a power of two: rejection sampling must keep it uniform
  std::vector<int> counts(bound, 0);
  const int draws = 60000;
  for (int i = 0; i < draws; ++i) {
    const uint64_t v = t.squeeze_index("q", bound);
    ASSERT_LT(v, bound);
    ++counts[v];
  }
  double chi2 = 0;
  for (int c : counts) chi2 += (c - draws / 6.0) * (c - draws / 6.0) / (draws / 6.0);
  EXPECT_LT(chi2, 20.5);  // 5 degrees of freedom, p = 0.001
  EXPECT_EQ(t.squeeze_index("q", 1), 0u);
  EXPECT_THROW(t.squeeze_index("q", 0), std::invalid_argument);
  Transcript e("ext");
  const Fp3 x = e.squeeze_ext("alpha");
  for (const Fp& c : x.c) EXPECT_LT(c.value(), Fp::P);
}

TEST(Transcript, Grinding) {
  Transcript t("pow");
  t.absorb("commitment", bytes("root"));
  const uint64_t nonce = t.grind(12);
  EXPECT_TRUE(t.check_pow(12, nonce));
  int wrong_accepted = 0;
  for (uint64_t n = 0; n < nonce; ++n) wrong_accepted += t.check_pow(12, n);
  EXPECT_EQ(wrong_accepted, 0);  // grind returns the smallest valid nonce
  EXPECT_TRUE(t.check_pow(0, 12345));
}

}  // namespace
}  // namespace zkrv::ref
