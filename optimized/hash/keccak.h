#pragma once
// Fast Keccak-f[1600] / Keccak-256: the permutation unrolled with rho and pi fused into one
// pass over a fixed lane schedule, and absorption by 64-bit little-endian loads. Same results as
// ref::keccak_f1600 / ref::keccak256 (tests/hash). The x8 forms hash eight equal-length messages
// at once (AVX-512, one state per lane) when optimized/simd allows, else one after another.

#include <array>
#include <cstdint>
#include <span>

namespace zkrv::opt {

using Digest = std::array<uint8_t, 32>;

void keccak_f1600(uint64_t state[25]);
Digest keccak_sponge_256(std::span<const uint8_t> data, uint8_t pad);
inline Digest keccak256(std::span<const uint8_t> data) { return keccak_sponge_256(data, 0x01); }

// out[m] = Keccak-256(msgs[m][0, len)) for m < 8.
void keccak256_x8(const uint8_t* const msgs[8], size_t len, Digest out[8]);
// Eight independent permutations.
void keccak_f1600_x8(uint64_t states[8][25]);

}  // namespace zkrv::opt
