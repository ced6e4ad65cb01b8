// Toolchain wiring check for the CUDA backend (the real kernels come with the STARK core's
// GPU issue). Only optimized/cuda includes CUDA headers; the host calls the extern "C" API.
#include <cuda_runtime.h>

#include <cstdint>

#include "optimized/cuda/smoke.h"

namespace {
__global__ void add_one(uint64_t* v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += 1;
}
}  // namespace

extern "C" int zkrv_cuda_device_count(void) {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess ? n : 0;
}

extern "C" int zkrv_cuda_add_one(uint64_t* host, int n) {
  uint64_t* dev = nullptr;
  const size_t bytes = sizeof(uint64_t) * static_cast<size_t>(n);
  if (cudaMalloc(&dev, bytes) != cudaSuccess) return -1;
  int rc = 0;
  if (cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice) != cudaSuccess) rc = -2;
  if (rc == 0) {
    add_one<<<(n + 255) / 256, 256>>>(dev, n);
    if (cudaGetLastError() != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) rc = -3;
  }
  if (rc == 0 && cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost) != cudaSuccess) rc = -4;
  cudaFree(dev);
  return rc;
}
