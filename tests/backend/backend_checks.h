#pragma once
// Checks shared by backend_test (CPU) and backend_gpu_test (CUDA against CPU): every operation
// against the reference on awkward shapes, and multi-height FRI proofs against the reference bytes.
#include <gtest/gtest.h>

#include <random>

#include "optimized/backend/backend.h"
#include "optimized/fri/fri.h"
#include "optimized/merkle/merkle.h"
#include "optimized/merkle/mixed.h"
#include "optimized/ntt/ntt.h"
#include "optimized/transcript/transcript.h"
#include "reference/fri/fri.h"
#include "reference/merkle/merkle.h"
#include "reference/merkle/mixed.h"
#include "reference/ntt/ntt.h"
#include "reference/transcript/transcript.h"
#include "tests/fri/fri_harness.h"

namespace zkrv {

using opt::Backend;
using opt::Buffer;
using opt::Fp;
using opt::Fp3;

inline std::vector<Fp> random_fp(size_t n, std::mt19937_64& g) {
  std::vector<Fp> v(n);
  for (auto& x : v) x = Fp::from_u64(g());
  return v;
}
inline std::vector<Fp3> random_fp3(size_t n, std::mt19937_64& g) {
  std::vector<Fp3> v(n);
  for (auto& x : v) x = {{Fp::from_u64(g()), Fp::from_u64(g()), Fp::from_u64(g())}};
  return v;
}
inline ref::Fp r(Fp x) { return ref::Fp::from_u64(x.value()); }
inline ref::Fp3 r(const Fp3& x) { return {{r(x.c[0]), r(x.c[1]), r(x.c[2])}}; }

// The mixed-height tree (protocol:merkle:mixed: Backend::hash_leaves, then hash_level with
// Children::kHalves and the shorter matrices injected) against the reference's root and
// openings: matrices of heights 64 (two), 32, 8 and 1, in one part and in four.
inline void check_mixed_tree(Backend& be, std::mt19937_64& g) {
  const std::vector<std::pair<size_t, size_t>> shapes{{64, 3}, {32, 2}, {64, 1}, {8, 5}, {1, 2}};
  std::vector<ref::Columns> host;
  std::vector<std::vector<Buffer<Fp>>> cols;
  for (const auto& [h, w] : shapes) {
    host.emplace_back();
    cols.emplace_back();
    for (size_t c = 0; c < w; ++c) {
      const auto v = random_fp(h, g);
      std::vector<ref::Fp> rv;
      for (Fp x : v) rv.push_back(r(x));
      host.back().push_back(rv);
      cols.back().push_back(be.upload<Fp>(v));
    }
  }
  std::vector<ref::ColumnRefs> matrices;
  for (const auto& m : host) matrices.push_back(ref::refs(m));
  const ref::MixedMerkleTree want(matrices);
  for (size_t parts : {1u, 4u}) {
    std::vector<opt::Matrix> ms;
    for (size_t m = 0; m < shapes.size(); ++m) {
      opt::Matrix x;
      x.rows = shapes[m].first, x.width = shapes[m].second, x.parts = std::min(parts, x.rows);
      const size_t P = x.parts;
      // part k: rows k, k + P, ... of every column
      x.part = [&be, &cols, m, P](size_t k, std::vector<Buffer<Fp>>&, std::vector<Buffer<Fp>>& out) {
        out.clear();
        for (const auto& c : cols[m]) {
          const auto all = be.download(c);
          std::vector<Fp> v;
          for (size_t i = k; i < all.size(); i += P) v.push_back(all[i]);
          out.push_back(be.upload<Fp>(v));
        }
      };
      x.rows_at = [&be, &cols, m, P](size_t k, const std::vector<size_t>& idx) {
        std::vector<std::vector<Fp>> out;
        for (size_t i : idx) {
          out.emplace_back();
          for (const auto& c : cols[m]) out.back().push_back(be.download(c)[k + P * i]);
        }
        return out;
      };
      ms.push_back(std::move(x));
    }
    const opt::MixedTree got(be, std::move(ms));
    EXPECT_EQ(got.root(), want.root()) << parts << " parts";
    for (size_t leaf : {0u, 5u, 31u}) {
      const auto values = got.fetch(got.rows_opened({leaf}));
      EXPECT_EQ(got.open(leaf, values), want.open(leaf)) << "leaf " << leaf << ", " << parts << " parts";
    }
  }
}

// Every operation on `be` against the reference, on shapes that are not multiples of any
// block size (1 row, 3 and 13 columns, arity up to 16).
inline void check_against_reference(Backend& be) {
  std::mt19937_64 g(2026);
  for (unsigned log_n : {0u, 1u, 5u, 11u})
    for (size_t width : {1u, 3u, 13u}) {
      const size_t n = size_t{1} << log_n;
      std::vector<std::vector<Fp>> m(width);
      std::vector<Buffer<Fp>> in;
      for (auto& col : m) col = random_fp(n, g), in.push_back(be.upload<Fp>(col));
      // LDE (for n = 1 too: a constant)
      for (unsigned log_blowup : {1u, 3u}) {
        std::vector<Buffer<Fp>> out;
        for (size_t c = 0; c < width; ++c) out.push_back(be.alloc<Fp>(n << log_blowup));
        be.batch_coset_lde(in, log_blowup, Fp::from_u64(7), out);
        for (size_t c = 0; c < width; ++c) {
          const auto got = be.download(out[c]);
          std::vector<ref::Fp> col;
          for (size_t i = 0; i < n; ++i) col.push_back(r(m[c][i]));
          const auto want = ref::coset_lde(col, 1u << log_blowup, ref::Fp::from_u64(7));
          for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(got[i].value(), want[i].value()) << "lde n " << n << " col " << c;
        }
      }
      // leaves and the plain tree: the columns as slots of width 1, and the same rows as one
      // row-major slot of width `width`
      std::vector<ref::Row> rows(n);
      std::vector<Fp> row_major;
      for (size_t i = 0; i < n; ++i)
        for (size_t c = 0; c < width; ++c) rows[i].push_back(r(m[c][i])), row_major.push_back(m[c][i]);
      const ref::MerkleTree tree(rows);
      std::vector<Backend::Slot> columns;
      for (const auto& b : in) columns.push_back({b, 0, 1});
      const opt::MerkleTree by_columns(be, columns, n);
      const Backend::Slot by_rows_slot{be.upload<Fp>(row_major), 0, width};
      const opt::MerkleTree by_rows(be, std::span<const Backend::Slot>(&by_rows_slot, 1), n);
      EXPECT_EQ(by_columns.root(), tree.root()) << "n " << n << " width " << width;
      EXPECT_EQ(by_rows.root(), tree.root()) << "n " << n << " width " << width;
      const std::vector<size_t> opened{0, n - 1, n / 2};
      EXPECT_EQ(by_columns.open_batch(opened), tree.open_batch(opened));
      EXPECT_EQ(by_rows.open(n - 1), tree.open(n - 1));
      // out-of-domain evaluation
      if (n >= 2) {
        const Fp3 z{{Fp::from_u64(g()), Fp::from_u64(g()), Fp::from_u64(g())}};
        const auto ood = be.evaluate_ood(in, z);
        for (size_t c = 0; c < width; ++c) {
          std::vector<ref::Fp> col;
          for (size_t i = 0; i < n; ++i) col.push_back(r(m[c][i]));
          EXPECT_EQ(r(ood[c]), ref::evaluate_barycentric(col, r(z)));
        }
      }
    }
  check_mixed_tree(be, g);
  // batch inverse with zeros
  auto vals = random_fp(1000, g);
  vals[0] = vals[500] = vals[999] = Fp();
  auto vb = be.upload<Fp>(vals);
  be.batch_inverse(vb);
  const auto inv = be.download(vb);
  for (size_t i = 0; i < vals.size(); ++i) ASSERT_EQ(inv[i].value(), r(vals[i]).inverse().value()) << i;
  // FRI leaves (a leaf = 2^log_arity values of the layer, three coefficients each: slots of
  // width 3 over the codeword's base elements) and folds for every arity
  for (unsigned log_arity : {1u, 2u, 3u, 4u}) {
    const auto layer = random_fp3(size_t{1} << 9, g);
    const size_t a = size_t{1} << log_arity, mm = layer.size() >> log_arity;
    const auto lb = be.upload<Fp3>(layer);
    std::vector<Backend::Slot> slots;
    for (size_t j = 0; j < a; ++j) slots.push_back({lb.as<Fp>(), 3 * j * mm, 3});
    auto leaves = be.alloc<opt::Digest>(mm);
    be.hash_leaves(slots, mm, 1, 0, leaves);
    const auto got = be.download(leaves);
    for (size_t i = 0; i < mm; i += 7) {
      ref::Row row;
      for (size_t j = 0; j < a; ++j)
        for (const Fp& c : layer[i + j * mm].c) row.push_back(r(c));
      ASSERT_EQ(got[i], ref::merkle_leaf(row)) << "arity " << a << " row " << i;
    }
    const Fp3 beta{{Fp::from_u64(g()), Fp::from_u64(g()), Fp::from_u64(g())}};
    const Fp shift = Fp::from_u64(g());
    auto out = be.alloc<Fp3>(mm);
    be.fri_fold(lb, log_arity, shift, beta, out);
    const auto folded = be.download(out);
    const ref::Fp w = ref::root_of_unity(9);
    for (size_t i = 0; i < mm; i += 5) {
      std::vector<ref::Fp3> v;
      for (size_t j = 0; j < a; ++j) v.push_back(r(layer[i + j * mm]));
      ASSERT_EQ(r(folded[i]), ref::fri_fold(v, r(shift) * w.pow(i), r(beta))) << "arity " << a << " i " << i;
    }
  }
  // copy
  {
    const auto src = be.upload<Fp>(random_fp(3000, g));
    auto dst = be.alloc<Fp>(3000);
    be.copy(dst.storage(), src.storage(), 3000 * sizeof(Fp));
    EXPECT_EQ(be.download(dst), be.download(src));
  }
  // gather, and the bounds check
  const auto src = be.upload<Fp>(random_fp(50, g));
  const std::vector<size_t> idx{49, 0, 7, 7};
  const auto all = be.download(src);
  const auto got = be.gather(src, idx);
  for (size_t k = 0; k < idx.size(); ++k) EXPECT_EQ(got[k], all[idx[k]]);
  const std::vector<size_t> bad{50};
  EXPECT_THROW(be.gather(src, bad), std::out_of_range);
  // grinding: the reference transcript's nonce for its own state, for 0 to 14 bits of work
  for (unsigned round = 0; round < 4; ++round) {
    ref::Transcript tr("backend-grind");
    const uint64_t seed = g();
    tr.absorb("seed", std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(&seed), 8));
    opt::Digest state;
    std::copy(tr.state().begin(), tr.state().end(), state.begin());
    for (unsigned bits : {0u, 1u, 5u, 9u, 14u}) {
      const uint64_t nonce = be.grind(state, bits);
      EXPECT_EQ(nonce, tr.grind(bits)) << bits << " bits";
      EXPECT_TRUE(tr.check_pow(bits, nonce));
    }
  }
}

// A multi-height FRI proof through `be` (tallest codeword 2^(log_degree + 2), and two smaller
// ones) equals the reference proof and verifies.
inline void check_fri(Backend& be, unsigned log_degree) {
  const auto deep = fri_harness::codewords({log_degree, log_degree - 2, log_degree - 5}, 2, log_degree);
  const auto o = fri_harness::options(2, 24, 4, 3);
  std::map<unsigned, Buffer<Fp3>> on_device;
  for (const auto& [lh, w] : deep) {
    std::vector<Fp3> v;
    for (const auto& x : w) v.push_back({{Fp::from_u64(x.c[0].value()), Fp::from_u64(x.c[1].value()), Fp::from_u64(x.c[2].value())}});
    on_device[lh] = be.upload<Fp3>(v);
  }
  opt::FriProver prover(be, on_device, o.log_blowup);
  const auto proof = fri_harness::prove<opt::Transcript>(prover, fri_harness::shape_of(deep, o), o);
  EXPECT_EQ(proof, fri_harness::prove_ref(deep, o));
  EXPECT_FALSE(fri_harness::verify(deep, o, proof));
}

}  // namespace zkrv
