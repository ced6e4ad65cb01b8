#pragma once
// Fast NTT over Goldilocks, same conventions and results as ref::ntt (spec: protocol:ntt:*):
// radix-2 DIT after a bit-reversal permutation, cache-blocked, AVX-512 butterflies when the CPU
// has them (optimized/simd), threads over blocks and butterflies. Results never depend on the
// SIMD level or thread count. threads = 0: all cores.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "optimized/field/goldilocks.h"

namespace zkrv::opt {

Fp root_of_unity(unsigned log_n);
// The twiddle tree the transforms use, covering sizes up to 2^log_n: entries [h, 2h) hold
// ω_{2h}^j (j < h), or their inverses. Cached; shared with the CUDA backend.
std::shared_ptr<const std::vector<Fp>> twiddle_tree(unsigned log_n, bool inverse);
void ntt(std::span<Fp> values, unsigned threads = 1);   // coefficients -> evaluations, in place
void intt(std::span<Fp> values, unsigned threads = 1);  // evaluations -> coefficients
// Evaluations on H (size n) -> evaluations on shift * H' (size n * blowup), natural order.
std::vector<Fp> coset_lde(std::span<const Fp> evals, unsigned blowup, Fp shift, unsigned threads = 1);
void coset_lde_into(std::span<const Fp> evals, unsigned blowup, Fp shift, std::span<Fp> out, unsigned threads = 1);
// Coefficients (natural order) of the polynomial whose evaluations on shift·<ω_n> are `evals`.
std::vector<Fp> coset_coeffs(std::vector<Fp> evals, Fp shift, unsigned threads = 1);

// The LDE a coset at a time (the optimized prover's parts), with no bit-reversal pass:
// dif_coefficients turns evaluations on <ω_n> into n times the coefficients, in bit-reversed
// order (a DIF inverse transform, in place); coset_evals_from_dif gives the evaluations on
// c·<ω_n>, natural order, from those and bitrev_coset_factors(log_n, c) (c^rev(p) / n).
void dif_coefficients(std::span<Fp> values, unsigned threads = 1);
std::vector<Fp> bitrev_coset_factors(unsigned log_n, Fp shift);
void coset_evals_from_dif(std::span<const Fp> dif_coeffs, std::span<const Fp> factors, std::span<Fp> out,
                          unsigned threads = 1);
// Only some of those evaluations: out[j] = coset_evals_from_dif(...)[rows[j]]. The first
// log2 B stages of the transform run on every block of B (B ≥ 2·rows.size()), then each wanted
// row is one sum over the n/B blocks: about 0.35 of the whole transform at n = 2^20 and 46 rows
// (the query openings).
// `scratch` (optional) holds the transform's working copy, reused from call to call.
void coset_rows_from_dif(std::span<const Fp> dif_coeffs, std::span<const Fp> factors, std::span<const size_t> rows,
                         std::span<Fp> out, std::vector<Fp>* scratch = nullptr);

}  // namespace zkrv::opt

namespace zkrv::opt {

// protocol:ntt:batch_lde: every column of the row-major n x width `matrix` extended by blowup,
// written row-major ((n * blowup) x width) into out. Columns are spread over the threads.
void batch_coset_lde(std::span<const Fp> matrix, size_t width, unsigned blowup, Fp shift, std::span<Fp> out,
                     unsigned threads = 0);
// protocol:ntt:ood_eval for every column of a row-major n x width matrix at one point z: the
// barycentric weights w^i / (z - w^i) are computed once (one batch inversion) and shared.
std::vector<Fp3> evaluate_barycentric(std::span<const Fp> matrix, size_t width, const Fp3& z, unsigned threads = 0);
// Its parts: the weights ω^i / (z - ω^i) (none when z is on <ω_n>), the index i with z = ω^i (n
// when there is none), and the factor (z^n - 1) / n.
std::optional<std::vector<Fp3>> barycentric_weights(size_t n, const Fp3& z, unsigned threads = 0);
size_t index_on_subgroup(size_t n, const Fp3& z);
Fp3 ood_factor(size_t n, const Fp3& z);

}  // namespace zkrv::opt
