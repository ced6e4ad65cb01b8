// The backend seam: the CPU backend's every operation equals the reference; the dual backend
// accepts two agreeing backends and names the operation where a faulty one diverges; FRI proofs
// made through any backend equal the reference bytes. backend_gpu_test runs the same checks on
// CUDA against the CPU.
#include <gtest/gtest.h>

#include "optimized/circuit/circuit.h"
#include "optimized/ntt/ntt.h"
#include "tests/backend/backend_checks.h"

namespace zkrv {
namespace {

using opt::Backend;
using opt::Buffer;
using opt::Fp;
using opt::Fp3;

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
  void copy(opt::Storage& d, const opt::Storage& s, size_t b) override { inner_->copy(d, s, b); }
  void gather(const opt::Storage& s, size_t e, std::span<const size_t> i, void* d) override { inner_->gather(s, e, i, d); }
  void batch_coset_lde(std::span<const Buffer<Fp>> in, unsigned lb, Fp s, std::span<Buffer<Fp>> out) override {
    inner_->batch_coset_lde(in, lb, s, out);
  }
  void fri_fold(const Buffer<Fp3>& in, unsigned a, Fp s, const Fp3& b, Buffer<Fp3>& out) override {
    inner_->fri_fold(in, a, s, b, out);
    opt::HostView<Fp3> v(*inner_, out, true);
    v[v.size() - 1].c[2] = v[v.size() - 1].c[2] + Fp::from_u64(1);  // one wrong coefficient
  }
  void batch_inverse(Buffer<Fp>& v) override { inner_->batch_inverse(v); }
  std::vector<Fp3> evaluate_ood(std::span<const Buffer<Fp>> m, const Fp3& z) override { return inner_->evaluate_ood(m, z); }

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

}  // namespace
}  // namespace zkrv

// The prover's steps refuse shapes that do not fit (a typed error before any thread starts, not
// a write past a buffer), on two threads, where a check inside the threads would end the process.
namespace zkrv {
namespace {
TEST(Backend, ProverStepsRefuseWrongShapes) {
  auto be = opt::make_cpu_backend(2);
  auto cols = [&](size_t count, size_t n) {
    std::vector<opt::Buffer<opt::Fp>> v;
    for (size_t c = 0; c < count; ++c) v.push_back(be->upload<opt::Fp>(std::vector<opt::Fp>(n)));
    return v;
  };
  auto c8 = cols(3, 8), c6 = cols(3, 6), c4 = cols(3, 4);
  const auto f8 = be->upload<opt::Fp>(opt::bitrev_coset_factors(3, opt::Fp::from_u64(7)));
  EXPECT_THROW(be->dif_coefficients(c6), std::invalid_argument);
  EXPECT_THROW(be->dif_from_coefficients(c6), std::invalid_argument);
  EXPECT_THROW(be->coset_interpolate(c6, opt::Fp::from_u64(7)), std::invalid_argument);
  EXPECT_THROW(be->coset_part(c8, f8, c4), std::invalid_argument);
  EXPECT_THROW(be->coset_part(c4, f8, c8), std::invalid_argument);
  EXPECT_THROW(be->coset_rows(c4, f8, std::vector<size_t>{1}), std::invalid_argument);
  EXPECT_THROW(be->coset_rows(c8, f8, std::vector<size_t>{8}), std::invalid_argument);
  EXPECT_THROW(be->evaluate_dif(c8, be->upload<opt::Fp3>(std::vector<opt::Fp3>(4))), std::invalid_argument);
  std::vector<opt::Fp3> w(3);
  auto six = cols(6, 8);
  six[5] = be->upload<opt::Fp>(std::vector<opt::Fp>(4));
  EXPECT_THROW(be->linear_combination(c8, w, w, six), std::invalid_argument);
  opt::Backend::DeepPart dp;
  dp.log_h = 3, dp.blowup = 2, dp.k = 2;
  auto acc = be->upload<opt::Fp3>(std::vector<opt::Fp3>(16));
  EXPECT_THROW(be->deep_accumulate(dp, cols(6, 8), acc), std::invalid_argument);  // part 2 of 2
  auto out = be->alloc<opt::Digest>(4);
  auto slots = [](const std::vector<opt::Buffer<opt::Fp>>& cs, size_t width, std::vector<size_t> offsets) {
    std::vector<opt::Backend::Slot> v;
    for (size_t c = 0; c < cs.size(); ++c) v.push_back({cs[c], offsets[c], width});
    return v;
  };
  EXPECT_THROW(be->hash_leaves(slots(c8, 1, {0, 0, 6}), 4, 1, 0, out), std::out_of_range);  // rows 6..9 of 8
  EXPECT_THROW(be->hash_leaves(slots(c8, 3, {0, 0, 0}), 4, 1, 0, out), std::out_of_range);  // 4 leaves of 3 from 8
  EXPECT_THROW(be->hash_leaves(slots(c8, 1, {0, 0, 0}), 4, 2, 0, out), std::out_of_range);  // leaf 3 at 6 of 4
  auto below = be->alloc<opt::Digest>(6);
  EXPECT_THROW(be->hash_level(below, opt::Backend::Children::kHalves, c8, 4, 1, 0, out), std::invalid_argument);
  auto below8 = be->alloc<opt::Digest>(8);
  EXPECT_THROW(be->hash_level(below8, opt::Backend::Children::kPairs, c4, 4, 2, 0, out), std::out_of_range);
  EXPECT_THROW(be->batch_coset_lde(c8, 1, opt::Fp::from_u64(7), c8), std::invalid_argument);
  auto c12 = cols(3, 12);
  EXPECT_THROW(be->batch_coset_lde(c6, 1, opt::Fp::from_u64(7), c12), std::invalid_argument);
  EXPECT_THROW(be->evaluate_ood(std::vector<opt::Buffer<opt::Fp>>{c8[0], c4[0]}, opt::Fp3{}), std::invalid_argument);
  auto circuit = opt::make_cpu_circuit(2);
  EXPECT_THROW(circuit->logup_columns(*be, {}, 0, {}, c8, {}, {}, {}, c8), std::invalid_argument);
}
}  // namespace
}  // namespace zkrv
