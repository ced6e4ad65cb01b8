// Reference Merkle tree: honest single and batched openings verify; every tampering is rejected
// with a typed error: a flipped bit in any sibling, a changed row element, a wrong index, a wrong
// root, a truncated or padded batch proof.
#include "reference/merkle/merkle.h"
#include "optimized/merkle/merkle.h"

#include <gtest/gtest.h>

#include <random>

namespace zkrv::ref {
namespace {

std::vector<Row> random_rows(size_t n, size_t width, uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<Row> rows(n, Row(width));
  for (auto& r : rows)
    for (auto& x : r) x = Fp::from_u64(g());
  return rows;
}

TEST(Merkle, SingleOpeningsVerifyAndTamperingIsRejected) {
  const auto rows = random_rows(64, 5, 1);
  const MerkleTree tree(rows);
  EXPECT_EQ(tree.height(), 6u);
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto path = tree.open(i);
    ASSERT_FALSE(merkle_verify(tree.root(), tree.height(), i, rows[i], path)) << i;
    EXPECT_TRUE(merkle_verify(tree.root(), tree.height(), i ^ 1, rows[i], path));           // wrong index
    auto other = rows[i];
    other[2] = other[2] + Fp::from_u64(1);
    EXPECT_TRUE(merkle_verify(tree.root(), tree.height(), i, other, path));                 // changed row
    for (size_t s = 0; s < path.size(); ++s)
      for (int byte = 0; byte < 32; byte += 11) {
        auto bad = path;
        bad[s][static_cast<size_t>(byte)] ^= 1;
        EXPECT_TRUE(merkle_verify(tree.root(), tree.height(), i, rows[i], bad));             // flipped bit
      }
    auto short_path = path;
    short_path.pop_back();
    EXPECT_TRUE(merkle_verify(tree.root(), tree.height(), i, rows[i], short_path));
  }
  auto wrong_root = tree.root();
  wrong_root[0] ^= 0x80;
  EXPECT_TRUE(merkle_verify(wrong_root, tree.height(), 0, rows[0], tree.open(0)));
  EXPECT_TRUE(merkle_verify(tree.root(), tree.height(), 64, rows[0], tree.open(0)));  // index out of range
}

TEST(Merkle, BatchOpenings) {
  const auto rows = random_rows(128, 3, 2);
  const MerkleTree tree(rows);
  std::mt19937_64 g(3);
  for (int t = 0; t < 50; ++t) {
    std::vector<size_t> idx;
    const size_t q = 1 + g() % 20;
    for (size_t k = 0; k < q; ++k) idx.push_back(g() % rows.size());
    idx.push_back(idx[0]);  // a duplicate
    std::vector<Row> opened;
    for (size_t i : idx) opened.push_back(rows[i]);
    const auto proof = tree.open_batch(idx);
    ASSERT_FALSE(merkle_verify_batch(tree.root(), tree.height(), idx, opened, proof)) << t;
    // fewer digests than separate openings would need
    EXPECT_LE(proof.size(), q * tree.height());
    if (!proof.empty()) {
      auto bad = proof;
      bad[g() % bad.size()][5] ^= 4;
      EXPECT_TRUE(merkle_verify_batch(tree.root(), tree.height(), idx, opened, bad));
      auto shorter = proof;
      shorter.pop_back();
      EXPECT_TRUE(merkle_verify_batch(tree.root(), tree.height(), idx, opened, shorter));
    }
    auto longer = proof;
    longer.push_back(tree.root());
    EXPECT_TRUE(merkle_verify_batch(tree.root(), tree.height(), idx, opened, longer));
    auto tampered = opened;
    tampered.back()[0] = tampered.back()[0] + Fp::from_u64(1);  // the duplicate disagrees
    EXPECT_TRUE(merkle_verify_batch(tree.root(), tree.height(), idx, tampered, proof));
  }
}

TEST(Merkle, RejectsNonPowerOfTwo) {
  EXPECT_THROW(MerkleTree(random_rows(6, 1, 4)), std::invalid_argument);
  EXPECT_THROW(MerkleTree(std::vector<Row>{}), std::invalid_argument);
  const MerkleTree one(random_rows(1, 2, 5));
  EXPECT_EQ(one.height(), 0u);
  EXPECT_FALSE(merkle_verify(one.root(), 0, 0, random_rows(1, 2, 5)[0], {}));
}

// The fast, threaded tree gives the reference's root and openings for every size, for widths
// around the Keccak rate (136 bytes = 17 elements), and for 1, 2 and 3 threads.
TEST(Merkle, FastTreeEqualsReference) {
  for (size_t log_rows : {0u, 1u, 5u, 10u}) {
    for (size_t width : {1u, 8u, 16u, 17u, 18u, 40u}) {
      const size_t rows_n = size_t{1} << log_rows;
      const auto rows = random_rows(rows_n, width, log_rows * 100 + width);
      std::vector<opt::Fp> matrix;
      for (const auto& r : rows)
        for (const auto& x : r) matrix.push_back(opt::Fp::from_u64(x.value()));
      const MerkleTree reference(rows);
      for (unsigned threads : {1u, 2u, 3u}) {
        const opt::MerkleTree fast(matrix, rows_n, width, threads);
        ASSERT_EQ(fast.root(), reference.root()) << rows_n << "x" << width << " threads " << threads;
        const size_t probe = rows_n / 3;
        ASSERT_EQ(fast.open(probe), reference.open(probe));
      }
    }
  }
  EXPECT_THROW(opt::MerkleTree(std::vector<opt::Fp>(6), 3, 2), std::invalid_argument);
}

}  // namespace
}  // namespace zkrv::ref
