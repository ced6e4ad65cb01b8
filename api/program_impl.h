#pragma once
// Inside the host API: what a zkrv::Program holds (the ELF, its loaded image, its digest), and
// the conversions the verifier and the prover share. Not installed.
#include <cstdint>
#include <vector>

#include "zkrv/verifier.h"
#include "spec/isa.h"
#include "spec/key.h"
#include "spec/stark.h"

namespace zkrv {

struct Program::Impl {
  std::vector<uint8_t> elf;
  spec::ProgramImage image;
  Digest digest{};
};

struct Key::Impl {
  spec::ProgramKey key;
};

namespace api {
spec::SecurityPolicy to_spec(const Policy& p);
Fault to_api(const spec::Fault& f, uint64_t cycles, const std::array<uint64_t, 32>& regs);
}  // namespace api

}  // namespace zkrv
