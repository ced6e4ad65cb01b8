// FRI: honest proofs verify for several arities and blowups; the byte encoding round-trips; the
// verifier rejects every single-byte change of a small serialized proof, a wrong final-polynomial
// length, a too-high-degree polynomial, a wrong query index, reordered layers; the parser
// returns typed errors on truncation, bad magic/version, non-canonical values, huge counts.
#include "reference/fri/fri.h"

#include <gtest/gtest.h>

#include <random>

#include "reference/ntt/ntt.h"

namespace zkrv::ref {
namespace {

using spec::FriOptions;

// Evaluations on 7·<ω_N>, N = 2^log_domain, of a random polynomial with 2^log_coeffs coefficients.
std::vector<Fp3> random_evals(unsigned log_coeffs, unsigned log_domain, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const size_t n = size_t{1} << log_coeffs, big = size_t{1} << log_domain;
  std::vector<std::vector<Fp>> comp(3, std::vector<Fp>(big));
  const Fp g = Fp::from_u64(spec::GoldilocksTraits::kGenerator);
  for (auto& col : comp) {
    Fp s = Fp::from_u64(1);
    for (size_t k = 0; k < n; ++k, s = s * g) col[k] = Fp::from_u64(rng()) * s;  // coefficients of P(7X)
    col = ntt(col);
  }
  std::vector<Fp3> e(big);
  for (size_t i = 0; i < big; ++i) e[i] = {{comp[0][i], comp[1][i], comp[2][i]}};
  return e;
}

spec::FriProof prove(const FriOptions& o, unsigned log_degree, const std::vector<Fp3>& evals) {
  Transcript t("fri-test");
  return fri_prove(o, log_degree, evals, t);
}
std::optional<FriError> verify(const FriOptions& o, unsigned log_degree, const spec::FriProof& p) {
  Transcript t("fri-test");
  return fri_verify(o, log_degree, p, t);
}

TEST(Fri, FoldMatchesEvenOddDefinitionForArityTwo) {
  std::mt19937_64 rng(3);
  auto r3 = [&] { return Fp3{{Fp::from_u64(rng()), Fp::from_u64(rng()), Fp::from_u64(rng())}}; };
  const Fp3 v0 = r3(), v1 = r3(), beta = r3();
  const Fp x = Fp::from_u64(rng());
  const Fp half = Fp::from_u64(2).inverse(), xi = x.inverse();
  auto sc = [](const Fp3& a, Fp s) { return Fp3{{a.c[0] * s, a.c[1] * s, a.c[2] * s}}; };
  const Fp3 expect = sc(v0 + v1, half) + beta * sc(v0 - v1, half * xi);
  EXPECT_EQ(fri_fold({v0, v1}, x, beta), expect);
}

TEST(Fri, HonestProofsVerify) {
  for (unsigned log_arity : {1u, 2u, 3u})
    for (unsigned log_blowup : {1u, 2u, 3u}) {
      FriOptions o{log_blowup, log_arity, 12, 4, 2};
      const unsigned log_degree = 8;
      const auto proof = prove(o, log_degree, random_evals(log_degree, log_degree + log_blowup, log_arity * 10 + log_blowup));
      EXPECT_EQ(proof.layer_roots.size(), (log_degree - 2 + log_arity - 1) / log_arity);
      const auto err = verify(o, log_degree, proof);
      EXPECT_FALSE(err) << "arity 2^" << log_arity << " blowup 2^" << log_blowup << ": " << err->what;
      // Lower-degree inputs pass too: FRI bounds the degree from above.
      const auto low = prove(o, log_degree, random_evals(log_degree - 3, log_degree + log_blowup, 99));
      EXPECT_FALSE(verify(o, log_degree, low));
    }
}

TEST(Fri, SerializationRoundTrips) {
  const FriOptions o{2, 2, 8, 2, 1};
  const auto proof = prove(o, 6, random_evals(6, 8, 5));
  const auto bytes = spec::encode_fri_proof(proof);
  const auto parsed = spec::decode_fri_proof(bytes);
  ASSERT_TRUE(parsed.proof) << parsed.error->what;
  EXPECT_EQ(*parsed.proof, proof);
  EXPECT_EQ(spec::encode_fri_proof(*parsed.proof), bytes);
}

// Every byte of a small serialized proof, flipped, is rejected by the parser or the verifier.
TEST(Fri, EveryFlippedByteIsRejected) {
  const FriOptions o{2, 2, 4, 2, 1};
  const unsigned log_degree = 5;
  const auto bytes = spec::encode_fri_proof(prove(o, log_degree, random_evals(log_degree, log_degree + 2, 11)));
  size_t parse_rejects = 0, verify_rejects = 0;
  for (size_t i = 0; i < bytes.size(); ++i)
    for (uint8_t mask : {uint8_t{0x01}, uint8_t{0x80}}) {
      auto t = bytes;
      t[i] ^= mask;
      const auto parsed = spec::decode_fri_proof(t);
      if (!parsed.proof) {
        ++parse_rejects;
        continue;
      }
      const auto err = verify(o, log_degree, *parsed.proof);
      EXPECT_TRUE(err) << "byte " << i << " mask " << int(mask) << " accepted";
      verify_rejects += err.has_value();
    }
  EXPECT_EQ(parse_rejects + verify_rejects, 2 * bytes.size());
  EXPECT_GT(verify_rejects, bytes.size());  // most bytes are digests and values, caught by the verifier
  std::printf("%zu bytes: %zu flips rejected by the parser, %zu by the verifier\n", bytes.size(), parse_rejects,
              verify_rejects);
}

TEST(Fri, StructuralTamperingIsRejected) {
  const FriOptions o{2, 1, 10, 2, 2};
  const unsigned log_degree = 7;
  const auto proof = prove(o, log_degree, random_evals(log_degree, log_degree + 2, 21));
  ASSERT_FALSE(verify(o, log_degree, proof));
  using K = FriError::Kind;
  auto kind_of = [&](const spec::FriProof& p) { auto e = verify(o, log_degree, p); return e ? e->kind : K(-1); };
  {  // final polynomial one coefficient short / long
    auto p = proof;
    p.final_poly.pop_back();
    EXPECT_EQ(kind_of(p), K::kShape);
    p = proof;
    p.final_poly.push_back({0, 0, 0});
    EXPECT_EQ(kind_of(p), K::kShape);
  }
  {  // reordered layers
    auto p = proof;
    std::swap(p.layer_roots[0], p.layer_roots[1]);
    std::swap(p.openings[0], p.openings[1]);
    EXPECT_TRUE(verify(o, log_degree, p));
  }
  {  // a wrong query: the opened rows of layer 0 moved to a different leaf set
    auto p = proof;
    std::rotate(p.openings[0].rows.begin(), p.openings[0].rows.begin() + 1, p.openings[0].rows.end());
    EXPECT_EQ(kind_of(p), K::kMerkle);
  }
  {  // a changed final coefficient: Merkle paths still verify, the last fold check fails
    auto p = proof;
    p.final_poly[0][0] = (p.final_poly[0][0] + 1) % Fp::P;
    const auto e = verify(o, log_degree, p);
    ASSERT_TRUE(e);  // the transcript changes too, so the failure may come earlier
  }
  {  // wrong pow nonce
    FriOptions hard = o;
    hard.pow_bits = 12;
    auto p = prove(hard, log_degree, random_evals(log_degree, log_degree + 2, 21));
    p.pow_nonce ^= 1;
    Transcript t("fri-test");
    const auto e = fri_verify(hard, log_degree, p, t);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->kind, K::kPow);
  }
  {  // a different domain separator (another statement) rejects
    Transcript t("other");
    EXPECT_TRUE(fri_verify(o, log_degree, proof, t));
  }
  {  // options mismatch between prover and verifier
    FriOptions other = o;
    other.num_queries = 11;
    EXPECT_TRUE(verify(other, log_degree, proof));
    EXPECT_EQ(verify(o, log_degree + 1, proof)->kind, K::kShape);
  }
}

TEST(Fri, TooHighDegreeIsRejected) {
  // Degree 2^log_degree + 2^(log_degree-1) claimed as < 2^log_degree, and a random function.
  const FriOptions o{2, 2, 20, 0, 2};
  const unsigned log_degree = 8;
  auto high = random_evals(log_degree + 1, log_degree + 2, 31);  // 2^9 coefficients, claimed < 2^8
  const auto err = verify(o, log_degree, prove(o, log_degree, high));
  ASSERT_TRUE(err);
  EXPECT_TRUE(err->kind == FriError::Kind::kFold || err->kind == FriError::Kind::kFinal) << err->what;
  std::mt19937_64 rng(4);
  std::vector<Fp3> noise(1 << 10);
  for (auto& x : noise) x = {{Fp::from_u64(rng()), Fp::from_u64(rng()), Fp::from_u64(rng())}};
  EXPECT_TRUE(verify(o, log_degree, prove(o, log_degree, noise)));
}

TEST(Fri, ParserReturnsTypedErrors) {
  using K = spec::ParseError::Kind;
  const FriOptions o{1, 1, 2, 0, 1};
  const auto bytes = spec::encode_fri_proof(prove(o, 3, random_evals(3, 4, 1)));
  auto kind = [](std::vector<uint8_t> b) { return spec::decode_fri_proof(b).error->kind; };
  EXPECT_EQ(kind({}), K::kBadMagic);
  for (size_t cut = 8; cut < bytes.size(); cut += 7) {
    const auto r = spec::decode_fri_proof(std::span(bytes).first(cut));
    ASSERT_FALSE(r.proof) << cut;
    EXPECT_TRUE(r.error->kind == K::kTruncated || r.error->kind == K::kTooLarge) << cut;
  }
  auto b = bytes;
  b[8] = 2;
  EXPECT_EQ(kind(b), K::kBadVersion);
  b = bytes;
  b.push_back(0);
  EXPECT_EQ(kind(b), K::kTrailingBytes);
  b = bytes;
  b[12] = 0xff, b[13] = 0xff, b[14] = 0xff, b[15] = 0x7f;  // layer count 2^31 - 1
  EXPECT_EQ(kind(b), K::kTooLarge);
  // the first final-polynomial coefficient set to p (non-canonical)
  b = bytes;
  const size_t at = 16 + 32 * 2 + 4;  // magic, version, count, 2 roots, count
  for (int k = 0; k < 8; ++k) b[at + k] = static_cast<uint8_t>(Fp::P >> (8 * k));
  EXPECT_EQ(kind(b), K::kNonCanonical);
}

TEST(Fri, SecurityCalculator) {
  const auto s = spec::fri_security({3, 2, 40, 16, 5}, 20);
  EXPECT_DOUBLE_EQ(s.conjectured_bits, 40 * 3 + 16);
  EXPECT_GT(s.provable_bits, 60);
  EXPECT_LT(s.provable_bits, s.conjectured_bits);
  // more queries never lowers security
  EXPECT_GE(spec::fri_security({3, 2, 80, 16, 5}, 20).provable_bits, s.provable_bits);
  std::printf("blowup 8, 40 queries, 16 bits: conjectured %.1f, provable %.1f (m = %u)\n", s.conjectured_bits,
              s.provable_bits, s.johnson_m);
}

}  // namespace
}  // namespace zkrv::ref
