#pragma once
// Run-time selection of instruction-set extensions. Levels are ordered: BMI1/BMI2 scalar code
// (andn, rorx: the single-state Keccak), then AVX-512 (F, DQ, VL, BW) vector kernels. The
// highest level the CPU has is used unless switched off; otherwise the portable code runs. Every path gives the same
// bytes (tests force each one and compare).
//   ZKRV_SIMD=off      in the environment: scalar code everywhere
//   set_simd_level(l)  in tests: force a level (clamped to what the CPU supports)

namespace zkrv::opt {

enum class SimdLevel { kScalar = 0, kBmi2 = 1, kAvx512 = 2 };
inline constexpr SimdLevel kAllSimdLevels[] = {SimdLevel::kScalar, SimdLevel::kBmi2, SimdLevel::kAvx512};

SimdLevel cpu_simd_level();  // what this CPU supports
SimdLevel simd_level();      // what kernels use now
void set_simd_level(SimdLevel level);
const char* simd_level_name(SimdLevel level);

}  // namespace zkrv::opt
