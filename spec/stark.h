#pragma once
// The whole-proof value types (spec: protocol:stark:*, protocol:proof:stark): options and their
// two presets, the statement, the proof object, its byte encoding with a typed-error decoder,
// the program digest and the security calculator. Shared by every prover and the verifier.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "spec/fri.h"
#include "spec/isa.h"

namespace zkrv::spec {

inline constexpr unsigned kMinLogBlowup = 2, kMaxLogBlowup = 3;
// protocol:stark:options — the options a proof is made with; all are in the statement.
struct StarkOptions {
  unsigned log_blowup = 2;      // LDE and FRI rate 2^-log_blowup; kMinLogBlowup..kMaxLogBlowup (quotients need 4x)
  unsigned num_queries = 92;    // 1..1024
  unsigned pow_bits = 16;       // grinding before the queries; 0..30
  unsigned log_final_size = 3;  // FRI folds until the degree bound is at most 2^log_final_size; 0..8
  friend bool operator==(const StarkOptions&, const StarkOptions&) = default;
};
// protocol:stark:presets — `provable` (the default) and `conjectured`.
StarkOptions stark_preset(const std::string& name);  // throws std::invalid_argument for another name
std::optional<std::string> check_options(const StarkOptions& o);  // why the options are invalid

// protocol:stark:heights — every table's height lies in 2^kMinLogHeight .. 2^kMaxLogHeight. The
// least keeps the Johnson regime's rate condition (protocol:stark:security) for every table.
inline constexpr unsigned kMinLogHeight = 5;
inline constexpr unsigned kMaxLogHeight = 24;
inline constexpr uint32_t kStarkProofVersion = 5;

// protocol:stark:statement
struct Statement {
  Digest program_digest{};
  uint32_t exit_code = 0;
  std::vector<uint8_t> output;
  std::vector<uint8_t> log_heights;  // one per table, spec order
  friend bool operator==(const Statement&, const Statement&) = default;
};

// One opening of a mixed-height Merkle tree (protocol:merkle:mixed): the values of every
// matrix's row at the leaf, then from the leaf upward the sibling digest of each level and the
// rows of the matrices that enter there; values and siblings flat, their counts fixed by the shapes.
struct MixedOpening {
  std::vector<uint64_t> values;
  std::vector<Digest> siblings;
  friend bool operator==(const MixedOpening&, const MixedOpening&) = default;
};
// A query's openings of the four trees: main, aux, quotient and the program tree
// (protocol:stark:program).
struct QueryOpening {
  MixedOpening main, aux, quotient, program;
  friend bool operator==(const QueryOpening&, const QueryOpening&) = default;
};

struct StarkProof {
  StarkOptions options;
  Statement statement;
  Digest main_root{}, aux_root{}, quotient_root{};
  std::vector<Fp3Raw> terminal_sums;  // one per table
  std::vector<Fp3Raw> ood;            // every opened value at ζ and ζ·g, in protocol:stark:ood order
  std::vector<Digest> fri_roots;      // committed FRI layers 1..L-1
  std::vector<Fp3Raw> final_poly;
  uint64_t pow_nonce = 0;
  std::vector<QueryOpening> queries;
  std::vector<FriLayerOpening> fri_openings;  // one per committed FRI layer
  friend bool operator==(const StarkProof&, const StarkProof&) = default;
};

// protocol:proof:stark — encode never fails; decode never throws, and rejects with a typed error
// (the FRI proof's ParseError kinds) and the offset.
std::vector<uint8_t> encode_stark_proof(const StarkProof& proof);
struct ParsedStarkProof {
  std::optional<StarkProof> proof;
  std::optional<ParseError> error;
};
ParsedStarkProof decode_stark_proof(std::span<const uint8_t> bytes);
// The statement and options as the transcript absorbs them (label `statement`).
std::vector<uint8_t> encode_statement(const StarkOptions& o, const Statement& s);

// protocol:stark:security — the whole protocol's soundness for these options and a proof's
// shape: the tallest and shortest heights, how many heights occur, the constraints, the
// interactions, the largest bus arity, and the opened columns and values.
struct SecurityShape {
  unsigned log_max_height = 0, log_min_height = 0;
  unsigned heights = 1;           // distinct table heights: FRI injects the codewords of all but the tallest
  size_t constraints = 0;         // Σ_t combined constraints
  double log_interactions = 0;    // log2 Σ_t interactions · h_t
  size_t max_arity = 0;           // the longest bus tuple
  size_t opened_columns = 0;      // Σ_t columns + aux + quotient
  size_t opened_values = 0;       // Σ_t 2 columns + 2 aux + quotient: the DEEP batch's powers of γ
};
inline constexpr double kHashCollisionBits = 128;  // Keccak-256: no figure exceeds it
struct StarkSecurity {
  double provable_bits;
  double conjectured_bits;
  FriSecurity fri;
  // every other term as the log2 of its error (list: log2 of the Johnson list size L)
  double log_ali, log_logup, log_deep, log_list;
  // The Johnson regime's rate condition for a table of height h opened at 2 points:
  // ρ + 2/(h·2^b) ≤ ρ (1 + 1/2m)², i.e. h ≥ 2 / ((1 + 1/2m)² − 1); the least log2 height for which
  // it holds at FRI's m, and whether every table of the proof is that tall.
  unsigned johnson_log_height;
  bool johnson_holds;
};
StarkSecurity stark_security(const StarkOptions& o, const SecurityShape& shape);

// protocol:stark:policy — what a verifier accepts: at least `min_bits` of the named measure.
// The default is the `provable` preset's floor; accepting less must be asked for.
struct SecurityPolicy {
  enum class Measure { kProvable, kConjectured };
  Measure measure = Measure::kProvable;
  double min_bits = 100;
  // `provable` and `conjectured`: at least 100 bits of that measure; another name throws
  // std::invalid_argument.
  static SecurityPolicy preset(const std::string& name);
  static SecurityPolicy at_least(Measure m, double bits) { return {m, bits}; }
  std::string str() const;  // e.g. "provable bits >= 100"
};
const char* measure_name(SecurityPolicy::Measure m);
// nullopt when the security meets the policy; otherwise why not, naming the figure and the floor.
std::optional<std::string> check_policy(const SecurityPolicy& policy, const StarkSecurity& security);

}  // namespace zkrv::spec
