#pragma once
// Optimized FRI prover, written once against the backend seam (optimized/backend): layers stay
// in the backend's memory, only roots, the final layer and the opened values come back. The same
// spec::FriProof bytes as ref::fri_prove for every backend, thread count and SIMD level
// (tests/fri). Verification is the reference verifier's job (cheap; it never links the prover).

#include <span>

#include "optimized/backend/backend.h"
#include "optimized/field/goldilocks.h"
#include "optimized/transcript/transcript.h"
#include "spec/fri.h"

namespace zkrv::opt {

// evals: 2^(log_degree + log_blowup) values on 7·<ω_N>, natural order. threads = 0: all cores.
spec::FriProof fri_prove(const spec::FriOptions& options, unsigned log_degree, std::span<const Fp3> evals,
                         Transcript& transcript, unsigned threads = 0);
spec::FriProof fri_prove(Backend& backend, const spec::FriOptions& options, unsigned log_degree,
                         const Buffer<Fp3>& evals, Transcript& transcript);

// spec: protocol:merkle:batch as heap indices: the siblings to send for the sorted distinct
// leaf indices of a tree with n leaves, layer by layer from the leaves.
std::vector<size_t> batch_opening_heap_indices(std::vector<size_t> leaves, size_t n);

}  // namespace zkrv::opt
