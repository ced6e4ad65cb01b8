#pragma once
// Optimized FRI prover: threaded row gathering, Merkle commitment and folding; the same
// spec::FriProof bytes as ref::fri_prove for any thread count (tests/fri). Verification is the
// reference verifier's job (it is cheap and the verifier never links the prover).

#include <span>

#include "optimized/field/goldilocks.h"
#include "optimized/transcript/transcript.h"
#include "spec/fri.h"

namespace zkrv::opt {

// evals: 2^(log_degree + log_blowup) values on 7·<ω_N>, natural order. threads = 0: all cores.
spec::FriProof fri_prove(const spec::FriOptions& options, unsigned log_degree, std::span<const Fp3> evals,
                         Transcript& transcript, unsigned threads = 0);

// protocol:fri:fold of one layer: out[i] = fold(in[i + j*m], j < 2^log_arity) at x = shift·ω^i.
void fri_fold_layer(std::span<const Fp3> in, unsigned log_arity, Fp shift, const Fp3& beta, std::span<Fp3> out,
                    unsigned threads = 0);

}  // namespace zkrv::opt
