#pragma once
// Reference Keccak-f[1600] and Keccak-256 with Ethereum padding (spec: protocol:hash:*),
// written for reading against FIPS 202: theta, rho, pi, chi, iota as separate loops.

#include <array>
#include <cstdint>
#include <span>

namespace zkrv::ref {

using Digest = std::array<uint8_t, 32>;

void keccak_f1600(std::array<uint64_t, 25>& state);
// Sponge with rate 136 bytes and the given domain/padding byte (0x01 Keccak-256, 0x06 SHA3-256).
Digest keccak_sponge_256(std::span<const uint8_t> data, uint8_t pad);
inline Digest keccak256(std::span<const uint8_t> data) { return keccak_sponge_256(data, 0x01); }

}  // namespace zkrv::ref
