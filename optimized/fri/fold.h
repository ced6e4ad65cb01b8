#pragma once
// One FRI fold over a whole layer (spec: protocol:fri:fold), threaded; the CPU backend's fri_fold.
#include <span>

#include "optimized/field/goldilocks.h"

namespace zkrv::opt {

// out[i] = fold(in[i + j*m], j < 2^log_arity) at x = shift·ω^i, m = out.size() = in.size() >> log_arity.
void fri_fold_layer(std::span<const Fp3> in, unsigned log_arity, Fp shift, const Fp3& beta, std::span<Fp3> out,
                    unsigned threads = 0);

}  // namespace zkrv::opt
