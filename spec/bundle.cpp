#include "spec/bundle.h"

#include <array>
#include <cstring>
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
  codec::put_statement_head(b, kBundleVersion, o, s.program_digest, s.exit_code, s.output);
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

namespace {
constexpr char kMagic[8] = {'Z', 'K', 'R', 'V', '-', 'S', 'E', 'G'};

// The statement from r's position on; out.error is left to the caller (r.err).
void read_statement(codec::Reader& r, ParsedBundleStatement& out) {
  const size_t vat = r.pos();
  if (const uint64_t v = r.uint(4); r.ok() && v != kBundleVersion)
    r.fail_at(vat, ParseError::Kind::kBadVersion, "bundle statement version " + std::to_string(v) + ", this verifier reads " +
                                                     std::to_string(kBundleVersion));
  StarkOptions o;
  o.log_blowup = static_cast<unsigned>(r.uint(1));
  o.num_queries = static_cast<unsigned>(r.uint(2));
  o.pow_bits = static_cast<unsigned>(r.uint(1));
  o.log_final_size = static_cast<unsigned>(r.uint(1));
  BundleStatement st;
  st.program_digest = r.digest();
  st.exit_code = static_cast<uint32_t>(r.uint(4));
  const size_t oat = r.pos();
  const uint64_t olen = r.uint(8);
  if (r.ok() && olen > r.left()) r.fail_at(oat, ParseError::Kind::kTooLarge, "output length exceeds the remaining bytes");
  if (!r.ok()) return;
  st.output.resize(static_cast<size_t>(olen));
  for (auto& b : st.output) b = static_cast<uint8_t>(r.uint(1));
  const size_t nat = r.pos();
  const uint64_t n = r.uint(4);
  st.log_segment = static_cast<unsigned>(r.uint(1));
  const uint64_t t = r.uint(1);
  constexpr uint64_t kBoundaryBytes = 8 + 31 * 8 + 8 + 1 + 8, kChunkBytes = 8;
  if (r.ok() && (n > r.left() || n * t + (n + 1) * (kBoundaryBytes + kChunkBytes) > r.left()))
    r.fail_at(nat, ParseError::Kind::kTooLarge, "segment count exceeds the remaining bytes");
  if (!r.ok()) return;
  st.log_heights.assign(static_cast<size_t>(n), std::vector<uint8_t>(static_cast<size_t>(t)));
  for (auto& h : st.log_heights)
    for (auto& x : h) x = static_cast<uint8_t>(r.uint(1));
  st.boundaries.resize(static_cast<size_t>(n + 1));
  for (BoundaryState& b : st.boundaries) {
    b.pc = r.uint(8);
    for (size_t i = 1; i < 32; ++i) b.regs[i] = r.uint(8);
    b.ipos = r.uint(8);
    const size_t eat = r.pos();
    const uint64_t eof = r.uint(1);
    if (r.ok() && eof > 1) r.fail_at(eat, ParseError::Kind::kNonCanonical, "end of input must be 0 or 1");
    b.eof = eof == 1;
    b.opos = r.uint(8);
  }
  st.chunks.resize(static_cast<size_t>(n + 1));
  for (uint64_t& c : st.chunks) c = r.uint(8);
  if (!r.ok()) return;
  out.options = o;
  out.statement = std::move(st);
}
}  // namespace

ParsedBundleStatement decode_bundle_statement(std::span<const uint8_t> bytes) {
  codec::Reader r(bytes);
  ParsedBundleStatement out;
  read_statement(r, out);
  if (r.ok() && r.left() != 0) r.fail(ParseError::Kind::kTrailingBytes, "trailing bytes after the bundle statement");
  if (!r.ok()) return ParsedBundleStatement{std::nullopt, std::nullopt, r.err};
  return out;
}

bool is_bundle(std::span<const uint8_t> bytes) { return bytes.size() >= 8 && std::memcmp(bytes.data(), kMagic, 8) == 0; }

// spec: protocol:segments:proof
std::vector<uint8_t> encode_bundle(const BundleProof& p) {
  if (p.segments.size() != p.statement.segments())
    throw std::invalid_argument("a bundle has one body per segment");
  std::vector<uint8_t> b = encode_bundle_head(p);
  for (const SegmentProof& s : p.segments) codec::put_tail(b, s);
  return b;
}

std::vector<uint8_t> encode_segment_body(const SegmentProof& s) {
  std::vector<uint8_t> b;
  codec::put_tail(b, s);
  return b;
}

std::vector<uint8_t> encode_bundle_head(const BundleProof& p) {
  const size_t n = p.statement.segments();
  if (p.main_roots.size() != n || p.terminal_sums.size() != n)
    throw std::invalid_argument("a bundle has one main root and one list of terminal sums per segment");
  for (const auto& sums : p.terminal_sums)
    if (sums.size() != p.statement.log_heights[0].size())
      throw std::invalid_argument("a bundle's segment has one terminal sum per table");
  std::vector<uint8_t> b(kMagic, kMagic + 8);
  const auto st = encode_bundle_statement(p.options, p.statement);
  b.insert(b.end(), st.begin(), st.end());
  for (const Digest& d : p.main_roots) b.insert(b.end(), d.begin(), d.end());
  for (const auto& sums : p.terminal_sums)
    for (const Fp3Raw& c : sums) codec::put_fp3(b, c);
  return b;
}

ParsedBundle decode_bundle(std::span<const uint8_t> bytes) {
  codec::Reader r(bytes);
  if (!is_bundle(bytes)) {
    r.fail(ParseError::Kind::kBadMagic, "not a zkrv bundle (bad magic)");
    return {std::nullopt, r.err};
  }
  r.uint(8);
  ParsedBundleStatement st;
  read_statement(r, st);
  if (!r.ok()) return {std::nullopt, r.err};
  BundleProof p;
  p.options = *st.options;
  p.statement = std::move(*st.statement);
  const size_t n = p.statement.segments(), t = n ? p.statement.log_heights[0].size() : 0;
  // every count against the bytes left before anything is allocated: N roots, N·T sums, and N
  // bodies of at least their fixed 92 bytes (two roots, five counts, the nonce)
  const size_t at = r.pos();
  if (n * (32 + 24 * t + 92) > r.left()) {
    r.fail_at(at, ParseError::Kind::kTooLarge, "segment count exceeds the remaining bytes");
    return {std::nullopt, r.err};
  }
  p.main_roots.resize(n);
  for (Digest& d : p.main_roots) d = r.digest();
  p.terminal_sums.assign(n, std::vector<Fp3Raw>(t));
  for (auto& sums : p.terminal_sums)
    for (Fp3Raw& c : sums) c = codec::read_fp3(r);
  p.segments.resize(n);
  for (SegmentProof& s : p.segments) {
    codec::read_tail(r, s);
    if (!r.ok()) break;
  }
  if (r.ok() && r.left() != 0) r.fail(ParseError::Kind::kTrailingBytes, "trailing bytes after the bundle");
  if (!r.ok()) return {std::nullopt, r.err};
  return {std::move(p), std::nullopt};
}

std::optional<std::string> check_bundle_statement(const BundleStatement& s, uint64_t entry, uint64_t max_cycles) {
  const size_t n = s.segments();
  if (n < 2) return "a bundle has at least 2 segments (a run of one segment is a proof of the whole run)";
  const bool k_ok = s.log_segment >= kMinSegmentLog && s.log_segment <= kMaxSegmentLog;
  if (auto why = check_segmenting(k_ok ? uint64_t{n} << s.log_segment : 0, s.log_segment, max_cycles)) return why;
  if (s.boundaries.size() != n + 1 || s.chunks.size() != n + 1) return "a bundle has N + 1 boundary states and chunk bounds";
  for (const auto& h : s.log_heights)
    if (h.size() != s.log_heights[0].size()) return "every segment of a bundle has the same tables";
  const BoundaryState& first = s.boundaries.front();
  if (first.pc != entry || first.ipos != 0 || first.eof || first.opos != 0 || first.regs != std::array<uint64_t, 32>{})
    return "the first segment must start at the ELF's entry with every register, position and the end of input 0";
  if (s.boundaries.back().regs != std::array<uint64_t, 32>{}) return "the last boundary's registers must be 0 (unused)";
  for (size_t i = 0; i <= n; ++i) {
    const BoundaryState& b = s.boundaries[i];
    if (b.regs[0] != 0) return "x0 is 0 at every boundary";
    if (i == 0) continue;
    const BoundaryState& a = s.boundaries[i - 1];
    if (b.ipos < a.ipos || b.opos < a.opos || (a.eof && !b.eof))
      return "boundary " + std::to_string(i) + ": the input position, the output position and the end of input never fall";
  }
  if (s.boundaries.back().opos != s.output.size()) return "the last boundary's output position must be the output's length";
  if (s.chunks.front() != 0) return "the first chunk bound must be 0";
  for (size_t i = 1; i <= n; ++i)
    if (s.chunks[i] < s.chunks[i - 1]) return "chunk bound " + std::to_string(i) + " falls";
  if (s.chunks.back() >= kAddressLimit) return "the last chunk bound must be below 2^32";
  return std::nullopt;
}

std::vector<std::pair<std::string, uint64_t>> segment_publics(unsigned log_segment, uint32_t exit_code,
                                                              std::span<const BoundaryState> boundaries,
                                                              std::span<const uint64_t> chunks, size_t s) {
  const BoundaryState &in = boundaries[s], &end = boundaries[s + 1];
  const bool more = s + 2 < boundaries.size();
  return {{"entry", in.pc},          {"exit_code", exit_code},  {"clk_start", uint64_t{s} << log_segment},
          {"more", more},            {"seg", s},                {"pc_end", end.pc},
          {"ipos_start", in.ipos},   {"ipos_end", end.ipos},    {"eof_start", in.eof},
          {"eof_end", end.eof},      {"opos_start", in.opos},   {"opos_end", end.opos},
          {"init_prev", chunks[s]},  {"init_last", chunks[s + 1]}};
}

}  // namespace zkrv::spec
