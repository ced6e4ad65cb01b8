#pragma once
// The statement the stark_proof seeds prove and the harness verifies against: a three-word
// program at 0x10000 (a0 = 0, a7 = 93, ecall) that exits 0 with no output, and small options.
#include <cstdint>
#include <vector>

#include "spec/isa.h"
#include "spec/stark.h"

namespace zkrv::fuzz {

inline spec::ProgramImage stark_statement_image() {
  const uint32_t words[] = {0x00000513, 0x05d00893, 0x00000073};
  spec::Segment code{0x10000, sizeof words, spec::kFlagR | spec::kFlagX, {}};
  for (uint32_t w : words)
    for (int k = 0; k < 4; ++k) code.data.push_back(static_cast<uint8_t>(w >> (8 * k)));
  return spec::ProgramImage{0x10000, {code}};
}
inline constexpr spec::StarkOptions kStarkSeedOptions{2, 2, 0, 3};
// The seeds' options are weak on purpose, so the harness accepts any bits and reaches every stage.
inline const spec::SecurityPolicy kSeedPolicy =
    spec::SecurityPolicy::at_least(spec::SecurityPolicy::Measure::kProvable, 0);

}  // namespace zkrv::fuzz
