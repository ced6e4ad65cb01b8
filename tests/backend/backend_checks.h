#pragma once
// Checks shared by backend_test (CPU) and backend_gpu_test (CUDA against CPU): every operation
// against the reference on awkward shapes, and multi-height FRI proofs against the reference bytes.
#include <gtest/gtest.h>

#include <random>

#include "optimized/backend/backend.h"
#include "optimized/fri/fri.h"
#include "optimized/ntt/ntt.h"
#include "optimized/transcript/transcript.h"
#include "reference/fri/fri.h"
#include "reference/merkle/merkle.h"
#include "reference/ntt/ntt.h"
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

// Every operation on `be` against the reference, on shapes that are not multiples of any
// block size (1 row, 3 and 13 columns, arity up to 16).
inline void check_against_reference(Backend& be) {
  std::mt19937_64 g(2026);
  for (unsigned log_n : {0u, 1u, 5u, 11u})
    for (size_t width : {1u, 3u, 13u}) {
      const size_t n = size_t{1} << log_n;
      const auto m = random_fp(n * width, g);
      const auto in = be.upload<Fp>(m);
      // LDE (not defined for n = 1 with a coset? it is: a constant)
      for (unsigned log_blowup : {1u, 3u}) {
        auto out = be.alloc<Fp>((n << log_blowup) * width);
        be.batch_coset_lde(in, width, log_blowup, Fp::from_u64(7), out);
        const auto got = be.download(out);
        for (size_t c = 0; c < width; ++c) {
          std::vector<ref::Fp> col;
          for (size_t i = 0; i < n; ++i) col.push_back(r(m[c * n + i]));
          const auto want = ref::coset_lde(col, 1u << log_blowup, ref::Fp::from_u64(7));
          for (size_t i = 0; i < want.size(); ++i)
            ASSERT_EQ(got[c * want.size() + i].value(), want[i].value()) << "lde n " << n << " col " << c;
        }
      }
      // leaves and tree
      auto nodes = be.alloc<opt::Digest>(2 * n);
      be.hash_rows(in, width, nodes);
      be.merkle_tree(nodes);
      std::vector<ref::Row> rows(n);
      for (size_t i = 0; i < n; ++i)
        for (size_t c = 0; c < width; ++c) rows[i].push_back(r(m[c * n + i]));
      const ref::MerkleTree tree(rows);
      const auto heap = be.download(nodes);
      EXPECT_EQ(heap[n], ref::merkle_leaf(rows[0]));
      EXPECT_EQ(heap[1], tree.root()) << "n " << n << " width " << width;
      // out-of-domain evaluation
      if (n >= 2) {
        const Fp3 z{{Fp::from_u64(g()), Fp::from_u64(g()), Fp::from_u64(g())}};
        const auto ood = be.evaluate_ood(in, width, z);
        for (size_t c = 0; c < width; ++c) {
          std::vector<ref::Fp> col;
          for (size_t i = 0; i < n; ++i) col.push_back(r(m[c * n + i]));
          EXPECT_EQ(r(ood[c]), ref::evaluate_barycentric(col, r(z)));
        }
      }
    }
  // batch inverse with zeros
  auto vals = random_fp(1000, g);
  vals[0] = vals[500] = vals[999] = Fp();
  auto vb = be.upload<Fp>(vals);
  be.batch_inverse(vb);
  const auto inv = be.download(vb);
  for (size_t i = 0; i < vals.size(); ++i) ASSERT_EQ(inv[i].value(), r(vals[i]).inverse().value()) << i;
  // FRI rows and folds for every arity
  for (unsigned log_arity : {1u, 2u, 3u, 4u}) {
    const auto layer = random_fp3(size_t{1} << 9, g);
    const size_t a = size_t{1} << log_arity, mm = layer.size() >> log_arity;
    const auto lb = be.upload<Fp3>(layer);
    auto nodes = be.alloc<opt::Digest>(2 * mm);
    be.hash_fri_rows(lb, log_arity, nodes);
    be.merkle_tree(nodes);  // the whole heap is defined only after this
    const auto heap = be.download(nodes);
    for (size_t i = 0; i < mm; i += 7) {
      ref::Row row;
      for (size_t j = 0; j < a; ++j)
        for (const Fp& c : layer[i + j * mm].c) row.push_back(r(c));
      ASSERT_EQ(heap[mm + i], ref::merkle_leaf(row)) << "arity " << a << " row " << i;
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
