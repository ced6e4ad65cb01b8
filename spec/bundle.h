#pragma once
// A bundle's statement (spec/protocol.md §9, protocol:segments:proof): what a proof of a run in N
// segments claims, and its bytes, which phase 1 of the bundle's transcript absorbs
// (protocol:segments:transcript).

#include <cstdint>
#include <vector>

#include "spec/run_segments.h"
#include "spec/stark.h"

namespace zkrv::spec {

inline constexpr uint32_t kBundleVersion = 1;

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

}  // namespace zkrv::spec
