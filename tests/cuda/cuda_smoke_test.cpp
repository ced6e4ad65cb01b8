// CUDA toolchain wiring: the backend library links into a host-only test; on a machine with a
// device the kernel runs, elsewhere the test says why it skips.
#include <gtest/gtest.h>

#include <vector>

#include "optimized/cuda/smoke.h"

TEST(CudaSmoke, AddOneOnTheDevice) {
  if (zkrv_cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device on this machine (the toolchain wiring built and linked)";
  std::vector<uint64_t> v(1000);
  for (size_t i = 0; i < v.size(); ++i) v[i] = i * 3;
  ASSERT_EQ(zkrv_cuda_add_one(v.data(), static_cast<int>(v.size())), 0);
  for (size_t i = 0; i < v.size(); ++i) ASSERT_EQ(v[i], i * 3 + 1);
}
