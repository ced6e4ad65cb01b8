// The backend seam: the CPU backend's every operation equals the reference; the dual backend
// accepts two agreeing backends and names the operation where a faulty one diverges; FRI proofs
// made through any backend equal the reference bytes. The same suite runs CPU against CUDA when
// a device is present (label gpu), and says why it skips otherwise.
#include <gtest/gtest.h>

#include <random>

#include "optimized/backend/backend.h"
#include "optimized/fri/fri.h"
#include "optimized/ntt/ntt.h"
#include "reference/fri/fri.h"
#include "reference/merkle/merkle.h"
#include "reference/ntt/ntt.h"

namespace zkrv {
namespace {

using opt::Backend;
using opt::Buffer;
using opt::Fp;
using opt::Fp3;

std::vector<Fp> random_fp(size_t n, std::mt19937_64& g) {
  std::vector<Fp> v(n);
  for (auto& x : v) x = Fp::from_u64(g());
  return v;
}
std::vector<Fp3> random_fp3(size_t n, std::mt19937_64& g) {
  std::vector<Fp3> v(n);
  for (auto& x : v) x = {{Fp::from_u64(g()), Fp::from_u64(g()), Fp::from_u64(g())}};
  return v;
}
ref::Fp r(Fp x) { return ref::Fp::from_u64(x.value()); }
ref::Fp3 r(const Fp3& x) { return {{r(x.c[0]), r(x.c[1]), r(x.c[2])}}; }

// Every operation on `be` against the reference, on shapes that are not multiples of any
// block size (1 row, 3 and 13 columns, arity up to 16).
void check_against_reference(Backend& be) {
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
  // gather, and the bounds check
  const auto src = be.upload<Fp>(random_fp(50, g));
  const std::vector<size_t> idx{49, 0, 7, 7};
  const auto all = be.download(src);
  const auto got = be.gather(src, idx);
  for (size_t k = 0; k < idx.size(); ++k) EXPECT_EQ(got[k], all[idx[k]]);
  const std::vector<size_t> bad{50};
  EXPECT_THROW(be.gather(src, bad), std::out_of_range);
}

// A FRI proof through `be` equals the reference proof and verifies.
void check_fri(Backend& be, unsigned log_degree) {
  std::mt19937_64 g(log_degree);
  const spec::FriOptions o{2, 2, 24, 4, 3};
  const size_t big = size_t{1} << (log_degree + o.log_blowup);
  std::vector<Fp3> evals(big);
  for (size_t c = 0; c < 3; ++c) {
    const auto col = opt::coset_lde(random_fp(size_t{1} << log_degree, g), 1u << o.log_blowup, Fp::from_u64(7));
    for (size_t i = 0; i < big; ++i) evals[i].c[c] = col[i];
  }
  opt::Transcript ot("backend-fri");
  const auto proof = opt::fri_prove(be, o, log_degree, be.upload<Fp3>(evals), ot);
  std::vector<ref::Fp3> re;
  for (const auto& x : evals) re.push_back(r(x));
  ref::Transcript rt("backend-fri");
  EXPECT_EQ(spec::encode_fri_proof(proof), spec::encode_fri_proof(ref::fri_prove(o, log_degree, re, rt)));
  ref::Transcript vt("backend-fri");
  EXPECT_FALSE(ref::fri_verify(o, log_degree, proof, vt));
}

TEST(Backend, CpuMatchesReference) {
  for (unsigned threads : {1u, 2u, 3u}) {
    auto be = opt::make_cpu_backend(threads);
    check_against_reference(*be);
    check_fri(*be, 8);
  }
}

TEST(Backend, DualOfAgreeingBackendsPasses) {
  auto be = opt::make_dual_backend(opt::make_cpu_backend(1), opt::make_cpu_backend(2));
  check_against_reference(*be);
  check_fri(*be, 7);
}

// A backend that gets one operation wrong: the dual backend must name it.
class FaultyFold final : public Backend {
 public:
  FaultyFold() : inner_(opt::make_cpu_backend(1)) {}
  std::string name() const override { return "faulty"; }
  std::shared_ptr<opt::Storage> allocate(size_t b) override { return inner_->allocate(b); }
  void write(opt::Storage& d, size_t o, const void* s, size_t b) override { inner_->write(d, o, s, b); }
  void read(const opt::Storage& s, size_t o, void* d, size_t b) override { inner_->read(s, o, d, b); }
  void gather(const opt::Storage& s, size_t e, std::span<const size_t> i, void* d) override { inner_->gather(s, e, i, d); }
  void batch_coset_lde(const Buffer<Fp>& in, size_t w, unsigned lb, Fp s, Buffer<Fp>& out) override { inner_->batch_coset_lde(in, w, lb, s, out); }
  void hash_rows(const Buffer<Fp>& m, size_t w, Buffer<opt::Digest>& n) override { inner_->hash_rows(m, w, n); }
  void hash_fri_rows(const Buffer<Fp3>& l, unsigned a, Buffer<opt::Digest>& n) override { inner_->hash_fri_rows(l, a, n); }
  void merkle_tree(Buffer<opt::Digest>& n) override { inner_->merkle_tree(n); }
  void fri_fold(const Buffer<Fp3>& in, unsigned a, Fp s, const Fp3& b, Buffer<Fp3>& out) override {
    inner_->fri_fold(in, a, s, b, out);
    opt::HostView<Fp3> v(*inner_, out, true);
    v[v.size() - 1].c[2] = v[v.size() - 1].c[2] + Fp::from_u64(1);  // one wrong coefficient
  }
  void batch_inverse(Buffer<Fp>& v) override { inner_->batch_inverse(v); }
  std::vector<Fp3> evaluate_ood(const Buffer<Fp>& m, size_t w, const Fp3& z) override { return inner_->evaluate_ood(m, w, z); }

 private:
  std::unique_ptr<Backend> inner_;
};

TEST(Backend, DualNamesTheDivergingOperation) {
  auto be = opt::make_dual_backend(opt::make_cpu_backend(1), std::make_unique<FaultyFold>());
  std::mt19937_64 g(5);
  const auto in = be->upload<Fp3>(random_fp3(64, g));
  auto out = be->alloc<Fp3>(32);
  try {
    be->fri_fold(in, 1, Fp::from_u64(7), Fp3{{Fp::from_u64(3), Fp(), Fp()}}, out);
    FAIL() << "the mismatch was not detected";
  } catch (const opt::BackendMismatch& e) {
    EXPECT_NE(std::string(e.what()).find("fri_fold"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("element 31"), std::string::npos) << e.what();
  }
}

TEST(Backend, GpuKindFallsBackToCpuWithoutDevice) {
  std::string why;
  auto cuda = opt::make_cuda_backend(&why);
  auto be = opt::make_backend(opt::BackendKind::kGpu, 2);
  if (!cuda) {
    EXPECT_FALSE(why.empty());
    EXPECT_EQ(be->name().rfind("cpu", 0), 0u) << be->name();
  } else {
    EXPECT_EQ(be->name().rfind("cuda", 0), 0u) << be->name();
  }
}

// GPU: the whole suite with the CUDA backend checked against the CPU one after every step.
TEST(BackendGpu, CudaMatchesCpuStepByStep) {
  std::string why;
  auto cuda = opt::make_cuda_backend(&why);
  if (!cuda) GTEST_SKIP() << "no CUDA backend: " << why;
  auto be = opt::make_dual_backend(opt::make_cpu_backend(0), std::move(cuda));
  check_against_reference(*be);
  check_fri(*be, 8);
  check_fri(*be, 12);
}

TEST(BackendGpu, LargeSizesMatchCpu) {
  std::string why;
  auto cuda = opt::make_cuda_backend(&why);
  if (!cuda) GTEST_SKIP() << "no CUDA backend: " << why;
  auto be = opt::make_dual_backend(opt::make_cpu_backend(0), std::move(cuda));
  std::mt19937_64 g(99);
  // the largest column size the issue names (2^24 after blowup 2), 2 columns; and 2^20 x 8
  for (auto [log_n, width] : {std::pair{23u, size_t{2}}, std::pair{20u, size_t{8}}}) {
    const auto in = be->upload<Fp>(random_fp((size_t{1} << log_n) * width, g));
    auto out = be->alloc<Fp>((size_t{2} << log_n) * width);
    be->batch_coset_lde(in, width, 1, Fp::from_u64(7), out);
    auto nodes = be->alloc<opt::Digest>(size_t{4} << log_n);
    be->hash_rows(out, width, nodes);
    be->merkle_tree(nodes);
  }
  check_fri(*be, 18);
}

}  // namespace
}  // namespace zkrv
