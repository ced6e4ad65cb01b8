#include "spec/stark.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "spec/codec.h"

namespace zkrv::spec {
namespace {

using codec::put;
using codec::Reader;
constexpr char kMagic[8] = {'Z', 'K', 'R', 'V', '-', 'P', 'R', 'F'};

void put_digest(std::vector<uint8_t>& b, const Digest& d) { b.insert(b.end(), d.begin(), d.end()); }
using codec::put_fp3;
using codec::read_fp3;

}  // namespace

// spec: protocol:stark:presets
StarkOptions stark_preset(const std::string& name) {
  if (name == "provable") return StarkOptions{2, 92, 16, 3};
  if (name == "conjectured") return StarkOptions{2, 44, 16, 3};
  throw std::invalid_argument("unknown security preset '" + name + "' (provable or conjectured)");
}

std::optional<std::string> check_options(const StarkOptions& o) {
  if (o.log_blowup < kMinLogBlowup || o.log_blowup > kMaxLogBlowup) return "log_blowup must be 2 or 3";
  if (o.num_queries < 1 || o.num_queries > 1024) return "num_queries must be in 1..1024";
  if (o.pow_bits > 30) return "pow_bits must be at most 30";
  if (o.log_final_size > 8) return "log_final_size must be at most 8";
  return std::nullopt;
}

std::vector<uint8_t> encode_statement(const StarkOptions& o, const Statement& s) {
  std::vector<uint8_t> b;
  codec::put_statement_head(b, kStarkProofVersion, o, s.program_digest, s.exit_code, s.output);
  put(b, s.log_heights.size(), 1);
  b.insert(b.end(), s.log_heights.begin(), s.log_heights.end());
  return b;
}

// spec: protocol:proof:stark
std::vector<uint8_t> encode_stark_proof(const StarkProof& p) {
  std::vector<uint8_t> b(kMagic, kMagic + 8);
  const auto st = encode_statement(p.options, p.statement);
  b.insert(b.end(), st.begin(), st.end());
  put_digest(b, p.main_root);
  put(b, p.terminal_sums.size(), 4);
  for (const Fp3Raw& c : p.terminal_sums) put_fp3(b, c);
  codec::put_tail(b, p);
  return b;
}

ParsedStarkProof decode_stark_proof(std::span<const uint8_t> bytes) {
  Reader r(bytes);
  auto failed = [&]() { return ParsedStarkProof{std::nullopt, r.err}; };
  if (bytes.size() < 8 || std::memcmp(bytes.data(), kMagic, 8) != 0) {
    r.fail(ParseError::Kind::kBadMagic, "not a zkrv proof (bad magic)");
    return failed();
  }
  r.uint(8);
  const uint64_t version = r.uint(4);
  if (r.ok() && version != kStarkProofVersion)
    r.fail_at(8, ParseError::Kind::kBadVersion, "unsupported proof version " + std::to_string(version));
  StarkProof p;
  p.options.log_blowup = static_cast<unsigned>(r.uint(1));
  p.options.num_queries = static_cast<unsigned>(r.uint(2));
  p.options.pow_bits = static_cast<unsigned>(r.uint(1));
  p.options.log_final_size = static_cast<unsigned>(r.uint(1));
  p.statement.program_digest = r.digest();
  p.statement.exit_code = static_cast<uint32_t>(r.uint(4));
  {
    const size_t at = r.pos();
    const uint64_t n = r.uint(8);
    if (r.ok() && n > r.left()) {
      r.fail_at(at, ParseError::Kind::kTooLarge, "output length exceeds the remaining bytes");
    } else if (r.ok()) {
      p.statement.output.resize(static_cast<size_t>(n));
      for (uint8_t& c : p.statement.output) c = static_cast<uint8_t>(r.uint(1));
    }
  }
  {
    const size_t at = r.pos();
    const uint64_t n = r.uint(1);
    if (r.ok() && n > r.left()) r.fail_at(at, ParseError::Kind::kTooLarge, "table count exceeds the remaining bytes");
    if (r.ok()) {
      p.statement.log_heights.resize(static_cast<size_t>(n));
      for (uint8_t& h : p.statement.log_heights) h = static_cast<uint8_t>(r.uint(1));
    }
  }
  p.main_root = r.digest();
  p.terminal_sums.resize(r.count(24, "terminal sum"));
  for (Fp3Raw& c : p.terminal_sums) c = read_fp3(r);
  codec::read_tail(r, p);
  if (r.ok() && r.left() != 0) r.fail(ParseError::Kind::kTrailingBytes, "trailing bytes after the proof");
  if (!r.ok()) return failed();
  return {std::move(p), std::nullopt};
}

// spec: protocol:stark:security
StarkSecurity stark_security(const StarkOptions& o, const SecurityShape& sh) {
  // FRI as the protocol runs it: binary folds down to min(2^log_final_size, shortest height);
  // its first codeword batches every opened value with powers of γ up to opened_values − 1, and
  // each injected height adds one more random combination.
  const unsigned log_max = sh.log_max_height;
  const unsigned log_final = std::min({o.log_final_size, sh.log_min_height, log_max - 1});
  const double batch_degree = static_cast<double>(std::max<size_t>(sh.opened_values, 1) - 1) +
                              static_cast<double>(std::max(sh.heights, 1u) - 1);
  // The Johnson regime's rate condition for the shortest table (2 opened points on h·b):
  // ρ⁺ = ρ + 2/(h·b) < ρ (1 + 1/2m)², i.e. m < 1 / (2 (sqrt(1 + 2/h) − 1)); taller tables allow more.
  const double h_min = std::ldexp(1.0, static_cast<int>(sh.log_min_height));
  const double m_bound = 1 / (2 * (std::sqrt(1 + 2 / h_min) - 1));
  const unsigned max_m = m_bound > 512 ? 512u : static_cast<unsigned>(std::ceil(m_bound) - 1);
  StarkSecurity s{};
  s.fri = fri_security(o.log_blowup, o.num_queries, o.pow_bits, log_max, log_max - log_final, batch_degree, max_m);
  const double field_bits = 3.0 * std::log2(static_cast<double>(GoldilocksTraits::kModulus));
  const double log_domain = log_max + o.log_blowup;
  // The algebraic steps, each a Schwartz-Zippel bound over F_{p^3}:
  // constraint combination (one challenge, powers): constraints / |F|;
  // LogUp: a fingerprint collision among the interactions (arity + 1 terms each) or a false
  // rational identity in α: interactions^2 (arity + 1) / |F|;
  // DEEP: a wrong opening passing at ζ: (opened columns + 4) |D| / |F|.
  // In the Johnson regime each holds for every codeword in the list of size
  // L <= (m + 1/2) / sqrt(ρ) that the committed words may decode to; under the conjecture L = 1.
  s.log_ali = std::log2(static_cast<double>(std::max<size_t>(sh.constraints, 1))) - field_bits;
  s.log_logup = 2 * sh.log_interactions + std::log2(static_cast<double>(sh.max_arity + 1)) - field_bits;
  s.log_deep = std::log2(static_cast<double>(sh.opened_columns + 4)) + log_domain + 2 - field_bits;
  auto bits_of = [](std::initializer_list<double> logs) {
    double sum = 0;
    for (double l : logs) sum += std::exp2(l);
    return -std::log2(sum);
  };
  s.conjectured_bits =
      std::min(kHashCollisionBits, bits_of({-s.fri.conjectured_bits, s.log_ali, s.log_logup, s.log_deep}));
  if (s.fri.johnson_m == 0) {  // no m meets the rate condition: the Johnson regime establishes nothing
    s.provable_bits = 0;
    s.johnson_log_height = 64;
    s.johnson_holds = false;
    return s;
  }
  // The list is that of the code of rate ρ⁺ at FRI's radius 1 − sqrt(ρ)(1 + 1/2m): the Johnson
  // bound's (m' + 1/2) / sqrt(ρ⁺) with sqrt(ρ⁺)(1 + 1/2m') = sqrt(ρ)(1 + 1/2m), the largest for
  // the shortest table.
  const double ratio = (1 + 0.5 / s.fri.johnson_m) / std::sqrt(1 + 2 / h_min);  // > 1 by the choice of m
  const double m_list = 1 / (2 * (ratio - 1));
  s.log_list = std::log2(m_list + 0.5) + 0.5 * o.log_blowup - 0.5 * std::log2(1 + 2 / h_min);
  // No figure exceeds the Merkle hash's collision resistance.
  s.provable_bits = std::min(kHashCollisionBits, bits_of({-s.fri.provable_bits, s.log_ali + s.log_list,
                                                          s.log_logup + s.log_list, s.log_deep + s.log_list}));
  const double slack = std::pow(1 + 0.5 / s.fri.johnson_m, 2) - 1;
  s.johnson_log_height = static_cast<unsigned>(std::ceil(std::log2(2 / slack) - 1e-12));
  s.johnson_holds = sh.log_min_height >= s.johnson_log_height;
  return s;
}

// spec: protocol:stark:policy
SecurityPolicy SecurityPolicy::preset(const std::string& name) {
  if (name == "provable") return {Measure::kProvable, 100};
  if (name == "conjectured") return {Measure::kConjectured, 100};
  throw std::invalid_argument("unknown security policy '" + name + "' (provable or conjectured)");
}
const char* measure_name(SecurityPolicy::Measure m) {
  return m == SecurityPolicy::Measure::kProvable ? "provable" : "conjectured";
}
std::string SecurityPolicy::str() const {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s bits >= %g", measure_name(measure), min_bits);
  return buf;
}
std::optional<std::string> check_policy(const SecurityPolicy& policy, const StarkSecurity& security) {
  const double bits =
      policy.measure == SecurityPolicy::Measure::kProvable ? security.provable_bits : security.conjectured_bits;
  if (bits >= policy.min_bits) return std::nullopt;
  char buf[160];
  std::snprintf(buf, sizeof buf, "the proof's options give %.1f %s bits, fewer than the policy's %g", bits,
                measure_name(policy.measure), policy.min_bits);
  return std::string(buf);
}

}  // namespace zkrv::spec
