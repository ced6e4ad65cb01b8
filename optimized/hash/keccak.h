#pragma once
// Fast Keccak-f[1600] / Keccak-256: the permutation unrolled with rho and pi fused into one
// pass over a fixed lane schedule, and absorption by 64-bit little-endian loads. Same results as
// ref::keccak_f1600 / ref::keccak256 (tests/hash). Multi-lane SIMD comes with the Merkle work.

#include <array>
#include <cstdint>
#include <span>

namespace zkrv::opt {

using Digest = std::array<uint8_t, 32>;

void keccak_f1600(uint64_t state[25]);
Digest keccak_sponge_256(std::span<const uint8_t> data, uint8_t pad);
inline Digest keccak256(std::span<const uint8_t> data) { return keccak_sponge_256(data, 0x01); }

}  // namespace zkrv::opt
