// Keccak-256 (Ethereum padding): known answers at block boundaries, fast == reference on random
// inputs of every length up to 3 blocks, and the permutation against OpenSSL's (SHA3-256 uses
// the same Keccak-f[1600] with padding 0x06).
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <random>
#include <string>
#include <vector>

#include "optimized/hash/keccak.h"
#include "optimized/simd/simd.h"
#include "reference/hash/keccak.h"

namespace zkrv {
namespace {

std::string hex(const std::array<uint8_t, 32>& d) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (uint8_t b : d) { s += digits[b >> 4]; s += digits[b & 15]; }
  return s;
}
std::span<const uint8_t> bytes(const std::string& s) { return {reinterpret_cast<const uint8_t*>(s.data()), s.size()}; }

TEST(Keccak, KnownAnswers) {
  EXPECT_EQ(hex(ref::keccak256(bytes(""))), "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470");
  EXPECT_EQ(hex(ref::keccak256(bytes("abc"))), "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45");
  EXPECT_EQ(hex(opt::keccak256(bytes("The quick brown fox jumps over the lazy dog"))),
            "4d741b6f1eb29cb2a9b9911c82f56fa8d73b04959d3d9d222895df6c0b28aa15");
}

TEST(Keccak, FastMatchesReferenceAndOpenSslPermutation) {
  std::mt19937_64 g(9);
  for (size_t len = 0; len <= 3 * 136 + 1; ++len) {
    std::vector<uint8_t> m(len);
    for (auto& b : m) b = static_cast<uint8_t>(g());
    ASSERT_EQ(hex(opt::keccak256(m)), hex(ref::keccak256(m))) << len;
    const auto ours = opt::keccak_sponge_256(m, 0x06);
    std::array<uint8_t, 32> theirs{};
    unsigned n = 0;
    ASSERT_EQ(EVP_Digest(m.data(), m.size(), theirs.data(), &n, EVP_sha3_256(), nullptr), 1);
    ASSERT_EQ(hex(ours), hex(theirs)) << len;
    ASSERT_EQ(hex(ref::keccak_sponge_256(m, 0x06)), hex(theirs)) << len;
  }
}

TEST(Keccak, PermutationsAgreeOnRandomStates) {
  std::mt19937_64 g(10);
  for (int t = 0; t < 100; ++t) {
    std::array<uint64_t, 25> a;
    for (auto& w : a) w = g();
    auto b = a;
    ref::keccak_f1600(a);
    opt::keccak_f1600(b.data());
    ASSERT_EQ(a, b) << t;
  }
}

// The eight-lane forms equal eight single hashes on every SIMD level, at lengths around the
// rate (one block, the block boundary, several blocks) and with distinct messages per lane.
TEST(Keccak, EightLanesMatchSingleHashes) {
  const auto saved = opt::simd_level();
  std::mt19937_64 g(12);
  for (auto level : opt::kAllSimdLevels) {
    opt::set_simd_level(level);
    for (size_t len : {0u, 1u, 65u, 135u, 136u, 137u, 271u, 272u, 513u}) {
      std::vector<std::vector<uint8_t>> msgs(8, std::vector<uint8_t>(len));
      const uint8_t* ptrs[8];
      for (int m = 0; m < 8; ++m) {
        for (auto& b : msgs[m]) b = static_cast<uint8_t>(g());
        ptrs[m] = msgs[m].data();
      }
      opt::Digest out[8];
      opt::keccak256_x8(ptrs, len, out);
      for (int m = 0; m < 8; ++m) EXPECT_EQ(out[m], ref::keccak256(msgs[m])) << "len " << len << " lane " << m;
    }
    uint64_t states[8][25];
    std::array<uint64_t, 25> single[8];
    for (int m = 0; m < 8; ++m)
      for (int i = 0; i < 25; ++i) states[m][i] = single[m][static_cast<size_t>(i)] = g();
    opt::keccak_f1600_x8(states);
    for (int m = 0; m < 8; ++m) {
      ref::keccak_f1600(single[m]);
      for (int i = 0; i < 25; ++i) ASSERT_EQ(states[m][i], single[m][static_cast<size_t>(i)]) << opt::simd_level_name(level);
    }
  }
  opt::set_simd_level(saved);
}

}  // namespace
}  // namespace zkrv
