#include "reference/hash/keccak.h"

#include <bit>

#include "spec/keccak.h"

namespace zkrv::ref {
namespace {


uint64_t rotl(uint64_t v, unsigned s) { return std::rotl(v, static_cast<int>(s)); }

// Lane (x, y) is state[x + 5y]. Rotation offsets r[x][y] from FIPS 202 (Table 2).
constexpr unsigned kRho[5][5] = {{0, 36, 3, 41, 18}, {1, 44, 10, 45, 2}, {62, 6, 43, 15, 61},
                                 {28, 55, 25, 21, 56}, {27, 20, 39, 8, 14}};

}  // namespace

// spec: protocol:hash:keccak_f — 24 rounds of theta, rho, pi, chi, iota.
void keccak_f1600(std::array<uint64_t, 25>& a) {
  // The loops have constant bounds; unrolling them makes every index and rotation a constant
  // (the Merkle trees hash millions of nodes through this function).
  for (uint64_t rc : spec::kKeccakRoundConstants) {
    std::array<uint64_t, 5> c, d;
#pragma GCC unroll 5
    for (int x = 0; x < 5; ++x) c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];   // theta
#pragma GCC unroll 5
    for (int x = 0; x < 5; ++x) d[x] = c[(x + 4) % 5] ^ rotl(c[(x + 1) % 5], 1);
#pragma GCC unroll 25
    for (int i = 0; i < 25; ++i) a[i] ^= d[i % 5];
    std::array<uint64_t, 25> b;
#pragma GCC unroll 5
    for (int x = 0; x < 5; ++x)                                                               // rho and pi
#pragma GCC unroll 5
      for (int y = 0; y < 5; ++y) b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(a[x + 5 * y], kRho[x][y]);
#pragma GCC unroll 5
    for (int x = 0; x < 5; ++x)                                                               // chi
#pragma GCC unroll 5
      for (int y = 0; y < 5; ++y) a[x + 5 * y] = b[x + 5 * y] ^ (~b[(x + 1) % 5 + 5 * y] & b[(x + 2) % 5 + 5 * y]);
    a[0] ^= rc;                                                                               // iota
  }
}

// spec: protocol:hash:keccak256 — rate 136, multi-rate padding pad || 0* || 0x80, 32-byte output.
Digest keccak_sponge_256(std::span<const uint8_t> data, uint8_t pad) {
  constexpr size_t kRate = 136;
  std::array<uint64_t, 25> st{};
  auto absorb = [&](const uint8_t* block) {
    for (size_t i = 0; i < kRate / 8; ++i) {
      uint64_t w = 0;
      for (size_t k = 0; k < 8; ++k) w |= uint64_t{block[8 * i + k]} << (8 * k);
      st[i] ^= w;
    }
    keccak_f1600(st);
  };
  size_t off = 0;
  for (; off + kRate <= data.size(); off += kRate) absorb(data.data() + off);
  std::array<uint8_t, kRate> last{};
  for (size_t i = off; i < data.size(); ++i) last[i - off] = data[i];
  last[data.size() - off] ^= pad;
  last[kRate - 1] ^= 0x80;
  absorb(last.data());
  Digest out{};
  for (size_t i = 0; i < 32; ++i) out[i] = static_cast<uint8_t>(st[i / 8] >> (8 * (i % 8)));
  return out;
}

}  // namespace zkrv::ref
