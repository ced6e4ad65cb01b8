#pragma once
// The CUDA backend's factory. A plain C++ header: the backend class and its kernels live in
// cuda_backend.cu, the only place that includes CUDA headers.
#include <memory>
#include <string>

#include "optimized/backend/backend.h"

namespace zkrv::opt::cuda {

// Null when no device is usable; *why then says what CUDA reported.
std::unique_ptr<Backend> make_cuda_backend(std::string* why);

}  // namespace zkrv::opt::cuda
