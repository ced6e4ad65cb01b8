// Fiat-Shamir transcript: deterministic, sensitive to every absorbed byte, label and order;
// squeezed field elements are canonical and indices in range and unbiased (chi-square on a
// non-power-of-two bound); grinding finds a valid nonce and rejects others.
#include "reference/transcript/transcript.h"
#include "tests/transcript/kat_vectors.h"

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
  EXPECT_EQ(nonce, kat::kPowNonce12);  // the independently computed smallest nonce
  EXPECT_FALSE(t.check_pow(12, nonce + 1) && t.check_pow(12, nonce + 2) && t.check_pow(12, nonce + 3));
  EXPECT_FALSE(t.check_pow(1, kat::kPowFails1));  // its hash starts with a 1 bit
  EXPECT_TRUE(t.check_pow(0, kat::kPowFails1));   // 0 bits: every nonce, even that one
  Transcript other("pow");
  other.absorb("commitment", bytes("toor"));
  EXPECT_NE(other.grind(12), nonce);  // the nonce is bound to the state (2^-12 chance to collide)
}

// Known answers, computed from spec/protocol.md with an independent Keccak-256 by
// tests/transcript/kat.py (kat_vectors.h; ctest transcript.kat_vectors re-derives it).
std::string hex(const Digest& d) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (uint8_t b : d) { s += digits[b >> 4]; s += digits[b & 15]; }
  return s;
}

TEST(Transcript, KnownAnswers) {
  Transcript fresh("kat");
  EXPECT_EQ(hex(fresh.squeeze_digest("c")), kat::kFreshSqueeze1);
  EXPECT_EQ(hex(fresh.squeeze_digest("c")), kat::kFreshSqueeze2);
  Transcript t("kat");
  t.absorb("label", bytes("data"));
  t.absorb_field("f", Fp::from_u64(5));
  t.absorb_ext("e", Fp3{{Fp::from_u64(1), Fp::from_u64(2), Fp::from_u64(Fp::P - 1)}});
  EXPECT_EQ(hex(t.squeeze_digest("x")), kat::kAfterAbsorbs);
  EXPECT_EQ(t.squeeze_field("f").value(), kat::kField);
  const Fp3 e = t.squeeze_ext("alpha");
  for (int k = 0; k < 3; ++k) EXPECT_EQ(e.c[static_cast<size_t>(k)].value(), kat::kExt[k]) << k;
  EXPECT_EQ(t.squeeze_index("q", 1000), kat::kIndex1000);
  EXPECT_EQ(t.squeeze_index("q", 3 * (uint64_t{1} << 62) + 1), kat::kIndexOdd);
}

}  // namespace
}  // namespace zkrv::ref
