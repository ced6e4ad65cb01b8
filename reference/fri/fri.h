#pragma once
// Reference FRI prover and verifier (spec: protocol:fri:*), plain and single-threaded. The
// polynomial is given by its evaluations over F_{p^3} on the coset 7·<ω_N>, natural order,
// N = 2^(log_degree + log_blowup); the proof is a spec::FriProof.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "reference/field/goldilocks.h"
#include "reference/transcript/transcript.h"
#include "spec/fri.h"

namespace zkrv::ref {

// A typed rejection: what failed and where (layer, query), never an exception.
struct FriError {
  enum class Kind { kOptions, kShape, kPow, kMerkle, kFold, kFinal };
  Kind kind;
  unsigned layer = 0;
  size_t query = 0;
  std::string what;
};

// Throws std::invalid_argument on bad options or a wrong number of evaluations (caller bugs).
spec::FriProof fri_prove(const spec::FriOptions& options, unsigned log_degree, const std::vector<Fp3>& evals,
                         Transcript& transcript);
std::optional<FriError> fri_verify(const spec::FriOptions& options, unsigned log_degree, const spec::FriProof& proof,
                                   Transcript& transcript);

// protocol:fri:fold — the arity-a fold of v_j = f(x ζ^j) (ζ = ω_a) with challenge beta.
Fp3 fri_fold(const std::vector<Fp3>& v, Fp x, const Fp3& beta);

}  // namespace zkrv::ref
