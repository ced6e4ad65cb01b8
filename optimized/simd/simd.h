#pragma once
// Run-time SIMD selection. AVX-512 (F, DQ, VL, BW) kernels are used when the CPU has them and
// they are not switched off; otherwise the portable scalar code runs. Every path gives the same
// bytes (tests force each one and compare).
//   ZKRV_SIMD=off      in the environment: scalar code everywhere
//   set_simd_level(l)  in tests: force a level (clamped to what the CPU supports)

namespace zkrv::opt {

enum class SimdLevel { kScalar = 0, kAvx512 = 1 };

SimdLevel cpu_simd_level();  // what this CPU supports
SimdLevel simd_level();      // what kernels use now
void set_simd_level(SimdLevel level);
const char* simd_level_name(SimdLevel level);

}  // namespace zkrv::opt
