// The SDK's software hashes, compiled for the host: SHA-256 against OpenSSL on random inputs of
// every length around the block boundaries; Keccak-256 against known answers; and the Keccak
// permutation against OpenSSL's through the SHA3-256 padding (same permutation, pad 0x06).
#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <openssl/sha.h>

#include <random>
#include <string>
#include <vector>

#include "guest/sdk/hashes.h"

namespace {

std::string hex(const uint8_t* p, size_t n) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) { s += d[p[i] >> 4]; s += d[p[i] & 15]; }
  return s;
}

TEST(GuestHashes, Sha256MatchesOpenSsl) {
  std::mt19937_64 g(7);
  for (size_t len = 0; len < 300; ++len) {
    std::vector<uint8_t> m(len);
    for (auto& b : m) b = static_cast<uint8_t>(g());
    uint8_t ours[32], theirs[32];
    zkrv_sha256(m.data(), m.size(), ours);
    SHA256(m.data(), m.size(), theirs);
    ASSERT_EQ(hex(ours, 32), hex(theirs, 32)) << "length " << len;
  }
}

TEST(GuestHashes, Keccak256KnownAnswers) {
  uint8_t h[32];
  zkrv_keccak_sponge(reinterpret_cast<const uint8_t*>(""), 0, 0x01, h);
  EXPECT_EQ(hex(h, 32), "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470");
  zkrv_keccak_sponge(reinterpret_cast<const uint8_t*>("abc"), 3, 0x01, h);
  EXPECT_EQ(hex(h, 32), "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45");
  const std::string fox = "The quick brown fox jumps over the lazy dog";
  zkrv_keccak_sponge(reinterpret_cast<const uint8_t*>(fox.data()), fox.size(), 0x01, h);
  EXPECT_EQ(hex(h, 32), "4d741b6f1eb29cb2a9b9911c82f56fa8d73b04959d3d9d222895df6c0b28aa15");
}

TEST(GuestHashes, KeccakPermutationMatchesOpenSslSha3) {
  std::mt19937_64 g(11);
  for (size_t len : {0, 1, 135, 136, 137, 271, 272, 273, 1000}) {
    std::vector<uint8_t> m(len);
    for (auto& b : m) b = static_cast<uint8_t>(g());
    uint8_t ours[32], theirs[32];
    unsigned n = 0;
    zkrv_keccak_sponge(m.data(), m.size(), 0x06, ours);
    ASSERT_EQ(EVP_Digest(m.data(), m.size(), theirs, &n, EVP_sha3_256(), nullptr), 1);
    ASSERT_EQ(hex(ours, 32), hex(theirs, 32)) << "length " << len;
  }
}

}  // namespace
