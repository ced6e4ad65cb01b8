#pragma once
// A bundle's statement (spec/protocol.md §9, protocol:segments:proof): what a proof of a run in N
// segments claims, and its bytes, which phase 1 of the bundle's transcript absorbs
// (protocol:segments:transcript).

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "spec/run_segments.h"
#include "spec/stark.h"

namespace zkrv::spec {

inline constexpr uint32_t kBundleVersion = 3;

struct BundleStatement {
  Digest program_digest{};
  uint32_t exit_code = 0;
  std::vector<uint8_t> output;
  unsigned log_segment = 0;                      // k
  std::vector<std::vector<uint8_t>> log_heights;  // per segment, every table's log height
  std::vector<BoundaryState> boundaries;          // Σ_0 … Σ_N
  std::vector<uint64_t> chunks;                   // C_0 … C_N
  size_t segments() const { return log_heights.size(); }
};

// u32 version, the options (u8 log_blowup, u16 queries, u8 pow_bits, u8 log_final_size), the
// digest, u32 exit code, u64 output length and its bytes, u32 N, u8 k, u8 T, N × T log heights,
// Σ_0 … Σ_N (u64 pc, u64 x1 … x31, u64 ipos, u8 eof, u64 opos), C_0 … C_N (u64). Throws
// std::invalid_argument when the counts disagree (N boundaries and chunks + 1, T equal).
std::vector<uint8_t> encode_bundle_statement(const StarkOptions& o, const BundleStatement& s);

// The statement back from exactly its bytes (protocol:proof:stark's decoding rules: typed errors
// with offsets, counts checked against the bytes left before anything is allocated, eof a bit, no
// trailing bytes). The options are returned as read; check_options judges them.
struct ParsedBundleStatement {
  std::optional<StarkOptions> options;
  std::optional<BundleStatement> statement;
  std::optional<ParseError> error;
};
ParsedBundleStatement decode_bundle_statement(std::span<const uint8_t> bytes);

// protocol:segments:proof — one segment's part of a bundle after phase 1: §7's body from the aux
// root on.
struct SegmentProof {
  Digest aux_root{}, quotient_root{};
  std::vector<Fp3Raw> ood;
  std::vector<Digest> fri_roots;
  std::vector<Fp3Raw> final_poly;
  uint64_t pow_nonce = 0;
  std::vector<QueryOpening> queries;
  std::vector<FriLayerOpening> fri_openings;
  friend bool operator==(const SegmentProof&, const SegmentProof&) = default;
};
struct BundleProof {
  StarkOptions options;
  BundleStatement statement;
  std::vector<Digest> main_roots;                   // one per segment
  std::vector<std::vector<Fp3Raw>> terminal_sums;  // per segment, one per table
  std::vector<SegmentProof> segments;
};
// Magic `ZKRV-SEG`, the statement's bytes, the N main roots, N × T terminal sums, then each
// segment's body. Throws std::invalid_argument when the counts disagree with the statement's.
std::vector<uint8_t> encode_bundle(const BundleProof& p);
// The same bytes in pieces, for a prover that writes each segment's body as it is made: the head
// (everything before the first body; p.segments is not read) and one segment's body. encode_bundle
// is the head followed by every body in order.
std::vector<uint8_t> encode_bundle_head(const BundleProof& p);
std::vector<uint8_t> encode_segment_body(const SegmentProof& s);
struct ParsedBundle {
  std::optional<BundleProof> proof;
  std::optional<ParseError> error;
};
// Never throws; typed errors with offsets, as decode_stark_proof.
ParsedBundle decode_bundle(std::span<const uint8_t> bytes);
// Whether the bytes start with the bundle's magic (a bundle, not a proof of one run).
bool is_bundle(std::span<const uint8_t> bytes);

// spec: protocol:segments:boundary, protocol:segments:cut, protocol:segments:shapes — what the
// verifier checks of the cut before any segment: N >= 2 segments of 2^k cycles, 10 <= k <= 21,
// N·2^k within `max_cycles`; Σ_0 the ELF's `entry` with registers, positions and eof 0; Σ_N's
// registers 0; x0 0 everywhere; eof, ipos and opos never fall and opos_N is the output's length;
// C_0 = 0, C never falls, C_N < 2^32; every segment with the same number of tables. Why not, or
// nothing.
std::optional<std::string> check_bundle_statement(const BundleStatement& s, uint64_t entry, uint64_t max_cycles);

// spec: protocol:segments:publics — segment s's public values by name, from the statement: entry
// and pc_end (Σ_s's and Σ_(s+1)'s pc; in the last segment pc_end is the exit's), clk_start = s·2^k,
// more, seg, the positions and eof from Σ_s and Σ_(s+1), init_prev = C_s, init_last = C_(s+1), the
// exit code.
std::vector<std::pair<std::string, uint64_t>> segment_publics(unsigned log_segment, uint32_t exit_code,
                                                              std::span<const BoundaryState> boundaries,
                                                              std::span<const uint64_t> chunks, size_t s);

}  // namespace zkrv::spec
