#pragma once
// Keccak-f[1600] round constants (FIPS 202, iota step), shared by the reference and the fast
// permutation (spec: protocol:hash:keccak_f). The guest SDK's C copy (guest/sdk/keccak.c) is
// compiled for riscv64 and keeps its own table.

#include <array>
#include <cstdint>

namespace zkrv::spec {

inline constexpr std::array<uint64_t, 24> kKeccakRoundConstants = {
    0x0000000000000001ull, 0x0000000000008082ull, 0x800000000000808aull, 0x8000000080008000ull,
    0x000000000000808bull, 0x0000000080000001ull, 0x8000000080008081ull, 0x8000000000008009ull,
    0x000000000000008aull, 0x0000000000000088ull, 0x0000000080008009ull, 0x000000008000000aull,
    0x000000008000808bull, 0x800000000000008bull, 0x8000000000008089ull, 0x8000000000008003ull,
    0x8000000000008002ull, 0x8000000000000080ull, 0x000000000000800aull, 0x800000008000000aull,
    0x8000000080008081ull, 0x8000000000008080ull, 0x0000000080000001ull, 0x8000000080008008ull};

}  // namespace zkrv::spec
