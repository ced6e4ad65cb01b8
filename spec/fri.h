#pragma once
// FRI's value types and soundness (spec/protocol.md §6): the digest and extension-element
// encodings every proof uses, a committed layer's opening, the proof decoder's typed errors, and
// the security calculator. The multi-height FRI itself is core/fri (shape, transcript order,
// verifier) with a prover on each side (reference/fri, optimized/fri).

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace zkrv::spec {

using Digest = std::array<uint8_t, 32>;
using Fp3Raw = std::array<uint64_t, 3>;  // canonical coefficients a0, a1, a2

// protocol:stark:queries — one committed FRI layer's opened rows and their batched proof.
struct FriLayerOpening {
  std::vector<std::vector<uint64_t>> rows;  // opened leaves in increasing index order, 6 values each
  std::vector<Digest> merkle_proof;         // protocol:merkle:batch for those leaves
  friend bool operator==(const FriLayerOpening&, const FriLayerOpening&) = default;
};

// A proof decoder's typed error (protocol:proof:stark): what and the byte offset where decoding
// stopped.
struct ParseError {
  enum class Kind { kTruncated, kBadMagic, kBadVersion, kNonCanonical, kTooLarge, kTrailingBytes };
  Kind kind;
  size_t offset;
  std::string what;
};

// protocol:fri:security — soundness of binary FRI over F_{p^3}: `folds` folds of a codeword of
// degree < 2^log_degree at rate 2^-log_blowup, `num_queries` queries after `pow_bits` of grinding,
// the first codeword a random combination of degree `batch_degree` in the batching challenge, the
// Johnson proximity parameter m chosen in 3..max_m (no m: 0 provable bits).
struct FriSecurity {
  double conjectured_bits;  // ethSTARK conjecture: queries * log_blowup + pow_bits, capped by the field
  double provable_bits;     // Johnson-bound list decoding (Ben-Sasson et al. 2020, Thm 8.3) + pow_bits
  unsigned johnson_m;       // the proximity parameter m that maximises provable_bits (0: none allowed)
  double commit_weight;     // batch_degree + folds: the degrees of the commit phase's combinations
  double log_commit;        // log2 of the commit-phase error at johnson_m
  double log_query;         // log2 of the query-phase error at johnson_m, grinding included
};
FriSecurity fri_security(unsigned log_blowup, unsigned num_queries, unsigned pow_bits, unsigned log_degree, unsigned folds,
                         double batch_degree, unsigned max_m);

}  // namespace zkrv::spec
