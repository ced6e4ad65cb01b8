#pragma once
// Fast NTT over Goldilocks: iterative in-place radix-2 (bit-reversal permutation, then
// butterflies with a precomputed twiddle table), same conventions and results as ref::ntt.

#include <cstdint>
#include <span>
#include <vector>

#include "optimized/field/goldilocks.h"

namespace zkrv::opt {

Fp root_of_unity(unsigned log_n);
void ntt(std::span<Fp> values);   // coefficients -> evaluations, in place, natural order
void intt(std::span<Fp> values);  // evaluations -> coefficients
// Evaluations on H (size n) -> evaluations on shift * H' (size n * blowup), natural order.
std::vector<Fp> coset_lde(std::span<const Fp> evals, unsigned blowup, Fp shift);

}  // namespace zkrv::opt
