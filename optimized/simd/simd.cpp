#include "optimized/simd/simd.h"

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace zkrv::opt {
namespace {

SimdLevel detect() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  const bool bmi2 = __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
  if (bmi2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw"))
    return SimdLevel::kAvx512;
  if (bmi2) return SimdLevel::kBmi2;
#endif
  return SimdLevel::kScalar;
}

SimdLevel initial() {
  const char* env = std::getenv("ZKRV_SIMD");
  if (env && (std::strcmp(env, "off") == 0 || std::strcmp(env, "0") == 0 || std::strcmp(env, "scalar") == 0))
    return SimdLevel::kScalar;
  return detect();
}

std::atomic<int>& current() {
  static std::atomic<int> level{static_cast<int>(initial())};
  return level;
}

}  // namespace

SimdLevel cpu_simd_level() {
  static const SimdLevel level = detect();
  return level;
}

SimdLevel simd_level() { return static_cast<SimdLevel>(current().load(std::memory_order_relaxed)); }

void set_simd_level(SimdLevel level) {
  if (static_cast<int>(level) > static_cast<int>(cpu_simd_level())) level = cpu_simd_level();
  current().store(static_cast<int>(level));
}

const char* simd_level_name(SimdLevel level) {
  switch (level) {
    case SimdLevel::kAvx512: return "avx512";
    case SimdLevel::kBmi2: return "bmi2";
    default: return "scalar";
  }
}

}  // namespace zkrv::opt
