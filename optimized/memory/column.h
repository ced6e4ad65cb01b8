#pragma once
// A column of field elements whose buffer comes from the prover's region (region.h): the trace
// builder fills these and the CPU backend adopts them without a copy.

#include <vector>

#include "optimized/field/goldilocks.h"
#include "optimized/memory/region.h"

namespace zkrv::opt {

using Column = std::vector<Fp, memory::Allocator<Fp>>;

}  // namespace zkrv::opt
