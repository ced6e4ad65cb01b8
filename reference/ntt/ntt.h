#pragma once
// Reference NTT over Goldilocks (spec: protocol:ntt:*), recursive Cooley-Tukey, plain.
// Conventions: sizes are powers of two up to 2^32; omega_n = kTwoAdicRoot^(2^(32 - log2 n));
// forward maps coefficients c (natural order) to evaluations e_i = sum_j c_j omega_n^(ij)
// (natural order); inverse maps back. Coset LDE evaluates on shift * <omega_{n*blowup}>.

#include <cstdint>
#include <vector>

#include "reference/field/goldilocks.h"

namespace zkrv::ref {

Fp root_of_unity(unsigned log_n);
std::vector<Fp> ntt(const std::vector<Fp>& coeffs);
std::vector<Fp> intt(const std::vector<Fp>& evals);
// Evaluations on the subgroup of size n -> evaluations on the coset shift * H', |H'| = n * blowup.
std::vector<Fp> coset_lde(const std::vector<Fp>& evals, unsigned blowup, Fp shift);

}  // namespace zkrv::ref
