// The CUDA backend against the CPU backend, step by step (every output buffer compared by the
// dual backend), on awkward shapes, the largest column size and whole FRI proofs. Skips, saying
// why, where there is no device or no CUDA build. Label: gpu.
#include "tests/backend/backend_checks.h"

namespace zkrv {
namespace {

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
    std::vector<Buffer<Fp>> in, out;
    std::vector<Backend::Slot> slots;
    for (size_t c = 0; c < width; ++c) {
      in.push_back(be->upload<Fp>(random_fp(size_t{1} << log_n, g)));
      out.push_back(be->alloc<Fp>(size_t{2} << log_n));
      slots.push_back({out.back(), 0, 1});
    }
    be->batch_coset_lde(in, 1, Fp::from_u64(7), out);
    const opt::MerkleTree tree(*be, slots, size_t{2} << log_n);  // every level compared
  }
  check_fri(*be, 18);
}

}  // namespace
}  // namespace zkrv
