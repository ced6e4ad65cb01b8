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
// Coefficients (natural order) of the polynomial whose evaluations on shift·<ω_n> are `evals`.
std::vector<Fp> coset_coeffs(const std::vector<Fp>& evals, Fp shift);

}  // namespace zkrv::ref

namespace zkrv::ref {

// spec: protocol:ntt:batch_lde — columns of a row-major n x width matrix, each extended as by
// coset_lde; the result is row-major (n * blowup) x width.
std::vector<Fp> batch_coset_lde(const std::vector<Fp>& matrix, size_t width, unsigned blowup, Fp shift);
// spec: protocol:ntt:ood_eval — the interpolant of evals (on <ω_n>) at z, by the barycentric
// formula; at a point of <ω_n> it is the matching evaluation.
Fp3 evaluate_barycentric(const std::vector<Fp>& evals, const Fp3& z);

}  // namespace zkrv::ref
