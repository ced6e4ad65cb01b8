#include "optimized/backend/backend.h"

#ifdef ZKRV_HAVE_CUDA
#include "optimized/cuda/cuda_backend.h"
#endif

namespace zkrv::opt {

std::unique_ptr<Backend> make_cuda_backend(std::string* why) {
#ifdef ZKRV_HAVE_CUDA
  return cuda::make_cuda_backend(why);
#else
  if (why) *why = "this build has no CUDA (nvcc was not found or ZKRV_CUDA=OFF)";
  return nullptr;
#endif
}

std::unique_ptr<Backend> make_backend(BackendKind kind, unsigned threads) {
  if (kind == BackendKind::kGpu)
    if (auto gpu = make_cuda_backend()) return gpu;
  return make_cpu_backend(threads);
}

}  // namespace zkrv::opt
