#pragma once
// The reference executor: a plain interpreter that mirrors spec/isa.md rule by rule. It is
// slow on purpose (sparse page map, full decode every cycle) so that it can be read against
// the spec; optimized/exec must agree with it on every step.

#include <cstdint>
#include <span>

#include "spec/isa.h"

namespace zkrv::ref {

spec::ExecResult execute(const spec::ProgramImage& image, std::span<const uint8_t> input,
                         const spec::ExecOptions& options);

}  // namespace zkrv::ref
