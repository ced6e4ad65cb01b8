#pragma once
// The fast executor: predecoded instructions, threaded (computed-goto) dispatch, a flat 4 GiB
// reserved address space with a per-page permission table. Modes: run (no trace), run with
// statistics, and trace (every StepRecord the prover consumes). Results are identical to
// zkrv::ref::execute for every program; tests compare the two step by step.

#include <cstdint>
#include <span>

#include "spec/isa.h"

namespace zkrv::opt {

spec::ExecResult execute(const spec::ProgramImage& image, std::span<const uint8_t> input,
                         const spec::ExecOptions& options);

}  // namespace zkrv::opt
