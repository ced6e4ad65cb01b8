#pragma once
// Shape checks for the steps on the backend seam (backends and circuits): they run before any
// thread starts, since an exception inside parallel_for would end the process.

#include <cstddef>
#include <span>
#include <stdexcept>

#include "optimized/backend/backend.h"

namespace zkrv::opt::shapes {

inline void require(bool ok, const char* what) {
  if (!ok) throw std::invalid_argument(what);
}
template <typename T>
void require_heights(std::span<const Buffer<T>> cols, size_t n, const char* what) {
  for (const auto& c : cols) require(c.size() == n, what);
}
template <typename T>
void require_heights(std::span<Buffer<T>> cols, size_t n, const char* what) {
  for (const auto& c : cols) require(c.size() == n, what);
}
inline bool pow2(size_t n) { return n && !(n & (n - 1)); }

}  // namespace zkrv::opt::shapes
