#include "spec/bundle.h"

#include <stdexcept>

#include "spec/codec.h"

namespace zkrv::spec {

// spec: protocol:segments:proof — the statement's bytes
std::vector<uint8_t> encode_bundle_statement(const StarkOptions& o, const BundleStatement& s) {
  const size_t n = s.segments();
  if (n == 0 || s.boundaries.size() != n + 1 || s.chunks.size() != n + 1)
    throw std::invalid_argument("a bundle statement needs N >= 1 segments and N + 1 boundaries and chunk bounds");
  const size_t t = s.log_heights[0].size();
  for (const auto& h : s.log_heights)
    if (h.size() != t || t > 255) throw std::invalid_argument("every segment of a bundle has the same tables");
  using codec::put;
  std::vector<uint8_t> b;
  put(b, kBundleVersion, 4);
  put(b, o.log_blowup, 1);
  put(b, o.num_queries, 2);
  put(b, o.pow_bits, 1);
  put(b, o.log_final_size, 1);
  b.insert(b.end(), s.program_digest.begin(), s.program_digest.end());
  put(b, s.exit_code, 4);
  put(b, s.output.size(), 8);
  b.insert(b.end(), s.output.begin(), s.output.end());
  put(b, n, 4);
  put(b, s.log_segment, 1);
  put(b, t, 1);
  for (const auto& h : s.log_heights) b.insert(b.end(), h.begin(), h.end());
  for (const BoundaryState& x : s.boundaries) {
    put(b, x.pc, 8);
    for (size_t r = 1; r < 32; ++r) put(b, x.regs[r], 8);
    put(b, x.ipos, 8);
    put(b, x.eof ? 1 : 0, 1);
    put(b, x.opos, 8);
  }
  for (uint64_t c : s.chunks) put(b, c, 8);
  return b;
}

}  // namespace zkrv::spec
