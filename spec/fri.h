#pragma once
// FRI: the options, the layer schedule, the proof object and its byte encoding, and the security
// calculator (spec: protocol:fri:*, protocol:proof:*). Shared value types: the reference and the
// optimized prover both produce a FriProof, and one parser reads it back with typed errors.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace zkrv::spec {

using Digest = std::array<uint8_t, 32>;
using Fp3Raw = std::array<uint64_t, 3>;  // canonical coefficients a0, a1, a2

struct FriOptions {
  unsigned log_blowup = 3;      // rate 2^-log_blowup; 1..4
  unsigned log_arity = 2;       // folding arity 2^log_arity; 1..4 (the last fold may be smaller)
  unsigned num_queries = 40;    // 1..1024
  unsigned pow_bits = 16;       // grinding before the queries; 0..40
  unsigned log_final_size = 5;  // fold until the degree bound is at most 2^log_final_size; 0..16
};

// The layer schedule for a polynomial of degree < 2^log_degree (protocol:fri:schedule).
struct FriLayer {
  unsigned log_size;   // log2 of the layer's evaluation domain
  unsigned log_arity;  // log2 of this layer's folding arity
};
struct FriSchedule {
  std::vector<FriLayer> layers;  // committed layers, first = the input evaluations
  unsigned log_final_degree;     // the final polynomial has 2^log_final_degree coefficients
  unsigned log_final_domain;     // log2 of the domain the final polynomial is checked on
};
// Empty optional and `error` filled when the options or the degree are out of range.
std::optional<FriSchedule> fri_schedule(const FriOptions& o, unsigned log_degree, std::string* error = nullptr);

struct FriLayerOpening {
  std::vector<std::vector<uint64_t>> rows;  // opened leaves in increasing index order, 3 * arity values each
  std::vector<Digest> merkle_proof;         // protocol:merkle:batch for those leaves
  friend bool operator==(const FriLayerOpening&, const FriLayerOpening&) = default;
};
struct FriProof {
  std::vector<Digest> layer_roots;
  std::vector<Fp3Raw> final_poly;  // coefficients, lowest degree first
  uint64_t pow_nonce = 0;
  std::vector<FriLayerOpening> openings;  // one per layer
  friend bool operator==(const FriProof&, const FriProof&) = default;
};

// protocol:proof:fri — the byte encoding. encode never fails; decode rejects with a typed error
// and the offset where decoding stopped, never throws or aborts on any input.
std::vector<uint8_t> encode_fri_proof(const FriProof& proof);
struct ParseError {
  enum class Kind { kTruncated, kBadMagic, kBadVersion, kNonCanonical, kTooLarge, kTrailingBytes };
  Kind kind;
  size_t offset;
  std::string what;
};
struct ParsedFriProof {
  std::optional<FriProof> proof;
  std::optional<ParseError> error;
};
ParsedFriProof decode_fri_proof(std::span<const uint8_t> bytes);
inline constexpr uint32_t kFriProofVersion = 1;

// protocol:fri:security — soundness of FRI over F_{p^3} for the given options and degree.
struct FriSecurity {
  double conjectured_bits;  // ethSTARK conjecture: queries * log_blowup + pow_bits, capped by the field
  double provable_bits;     // Johnson-bound list decoding (Ben-Sasson et al. 2020, Thm 8.3) + pow_bits
  unsigned johnson_m;       // the proximity parameter m that maximises provable_bits
};
FriSecurity fri_security(const FriOptions& o, unsigned log_degree);

}  // namespace zkrv::spec
