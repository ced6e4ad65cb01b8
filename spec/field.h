#pragma once
// The Goldilocks field and its cubic extension, as spec/protocol.md fixes them: the constants
// every implementation shares. Arithmetic lives in reference/field (plain) and optimized/field
// (fast); tests hold both to Boost.Multiprecision.

#include <cstddef>
#include <cstdint>
#include <stdexcept>

namespace zkrv::spec {

struct GoldilocksTraits {
  // spec: protocol:field:modulus — p = 2^64 - 2^32 + 1.
  static constexpr uint64_t kModulus = 0xFFFFFFFF00000001ull;
  // spec: protocol:field:generator — 7 generates the multiplicative group (order p - 1 =
  // 2^32 * 3 * 5 * 17 * 257 * 65537).
  static constexpr uint64_t kGenerator = 7;
  static constexpr unsigned kTwoAdicity = 32;
  // 7^((p-1)/2^32): a primitive 2^32-th root of unity.
  static constexpr uint64_t kTwoAdicRoot = 0x185629dcda58878cull;
  // spec: protocol:field:extension — F_p[w] / (w^3 - 2); 2 is not a cube mod p, so the
  // polynomial is irreducible.
  static constexpr uint64_t kExtensionW = 2;
};

static_assert(GoldilocksTraits::kModulus == (~uint64_t{0} - (uint64_t{1} << 32) + 2));
static_assert((GoldilocksTraits::kModulus - 1) % (uint64_t{1} << GoldilocksTraits::kTwoAdicity) == 0);

// log2(n) for an NTT size: n must be a power of two up to 2^kTwoAdicity (spec: protocol:ntt:forward).
inline unsigned ntt_log2(size_t n) {
  unsigned k = 0;
  while ((size_t{1} << k) < n) ++k;
  if ((size_t{1} << k) != n || k > GoldilocksTraits::kTwoAdicity)
    throw std::invalid_argument("NTT size must be a power of two up to 2^32");
  return k;
}

}  // namespace zkrv::spec
