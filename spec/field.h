#pragma once
// The Goldilocks field and its cubic extension, as spec/protocol.md fixes them: the constants
// every implementation shares. Arithmetic lives in reference/field (plain) and optimized/field
// (fast); tests hold both to Boost.Multiprecision.

#include <cstdint>

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

}  // namespace zkrv::spec
