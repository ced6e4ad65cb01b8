#include "optimized/hash/keccak.h"

#include <cstring>

#include "optimized/hash/keccak_f1600_body.h"
#include "optimized/simd/simd.h"
#include "spec/keccak.h"

namespace zkrv::opt::keccak_kernels {
void keccak256_x8_avx512(const uint8_t* const msgs[8], size_t len, uint8_t pad, uint8_t out[8][32]);
void keccak_f1600_x8_avx512(uint64_t states[8][25]);
}  // namespace zkrv::opt::keccak_kernels

namespace zkrv::opt {

void keccak_f1600_bmi2(uint64_t state[25]);  // keccak_bmi2.cpp

void keccak_f1600(uint64_t state[25]) {
  if (simd_level() >= SimdLevel::kBmi2) return keccak_f1600_bmi2(state);
  keccak_f1600_body(state);
}

Digest keccak_sponge_256(std::span<const uint8_t> data, uint8_t pad) {
  constexpr size_t kRate = 136;
  uint64_t st[25] = {};
  auto absorb = [&](const uint8_t* block) {
    for (size_t i = 0; i < kRate / 8; ++i) {
      uint64_t w;
      std::memcpy(&w, block + 8 * i, 8);  // little-endian host
      st[i] ^= w;
    }
    keccak_f1600(st);
  };
  size_t off = 0;
  for (; off + kRate <= data.size(); off += kRate) absorb(data.data() + off);
  uint8_t last[kRate] = {};
  if (data.size() > off) std::memcpy(last, data.data() + off, data.size() - off);
  last[data.size() - off] ^= pad;
  last[kRate - 1] ^= 0x80;
  absorb(last);
  Digest out;
  std::memcpy(out.data(), st, 32);
  return out;
}

void keccak256_x8(const uint8_t* const msgs[8], size_t len, Digest out[8]) {
  if (simd_level() == SimdLevel::kAvx512) {
    uint8_t o[8][32];
    keccak_kernels::keccak256_x8_avx512(msgs, len, 0x01, o);
    for (int m = 0; m < 8; ++m) std::memcpy(out[m].data(), o[m], 32);
    return;
  }
  for (int m = 0; m < 8; ++m) out[m] = keccak256(std::span<const uint8_t>(msgs[m], len));
}

void keccak_f1600_x8(uint64_t states[8][25]) {
  if (simd_level() == SimdLevel::kAvx512) return keccak_kernels::keccak_f1600_x8_avx512(states);
  for (int m = 0; m < 8; ++m) keccak_f1600(states[m]);
}

}  // namespace zkrv::opt
