#include "spec/fri.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "spec/codec.h"
#include "spec/field.h"

namespace zkrv::spec {

// spec: protocol:fri:schedule
std::optional<FriSchedule> fri_schedule(const FriOptions& o, unsigned log_degree, std::string* error) {
  auto fail = [&](const char* what) -> std::optional<FriSchedule> {
    if (error) *error = what;
    return std::nullopt;
  };
  if (o.log_blowup < 1 || o.log_blowup > 4) return fail("log_blowup must be in 1..4");
  if (o.log_arity < 1 || o.log_arity > 4) return fail("log_arity must be in 1..4");
  if (o.num_queries < 1 || o.num_queries > 1024) return fail("num_queries must be in 1..1024");
  if (o.pow_bits > 40) return fail("pow_bits must be at most 40");
  if (o.log_final_size > 16) return fail("log_final_size must be at most 16");
  if (log_degree <= o.log_final_size) return fail("the degree must exceed the final polynomial size (nothing to fold)");
  if (log_degree + o.log_blowup > 30) return fail("log_degree + log_blowup must be at most 30");
  FriSchedule s;
  unsigned cur = log_degree;
  while (cur > o.log_final_size) {
    const unsigned a = std::min(o.log_arity, cur - o.log_final_size);
    s.layers.push_back({cur + o.log_blowup, a});
    cur -= a;
  }
  s.log_final_degree = cur;
  s.log_final_domain = cur + o.log_blowup;
  return s;
}

namespace {

using codec::put;
using codec::Reader;
constexpr char kMagic[8] = {'Z', 'K', 'R', 'V', '-', 'F', 'R', 'I'};

}  // namespace

// spec: protocol:proof:fri
std::vector<uint8_t> encode_fri_proof(const FriProof& p) {
  std::vector<uint8_t> b(kMagic, kMagic + 8);
  put(b, kFriProofVersion, 4);
  put(b, p.layer_roots.size(), 4);
  for (const Digest& d : p.layer_roots) b.insert(b.end(), d.begin(), d.end());
  put(b, p.final_poly.size(), 4);
  for (const Fp3Raw& c : p.final_poly)
    for (uint64_t v : c) put(b, v, 8);
  put(b, p.pow_nonce, 8);
  put(b, p.openings.size(), 4);
  for (const FriLayerOpening& o : p.openings) codec::put_layer_opening(b, o);
  return b;
}

ParsedFriProof decode_fri_proof(std::span<const uint8_t> bytes) {
  Reader r(bytes);
  auto failed = [&]() { return ParsedFriProof{std::nullopt, r.err}; };
  if (bytes.size() < 8 || std::memcmp(bytes.data(), kMagic, 8) != 0) {
    r.fail(ParseError::Kind::kBadMagic, "not a zkrv FRI proof (bad magic)");
    return failed();
  }
  r.uint(8);
  const uint64_t version = r.uint(4);
  if (r.ok() && version != kFriProofVersion)
    r.fail(ParseError::Kind::kBadVersion, "unsupported FRI proof version " + std::to_string(version));
  FriProof p;
  p.layer_roots.resize(r.count(32, "layer root"));
  for (Digest& d : p.layer_roots) d = r.digest();
  p.final_poly.resize(r.count(24, "final polynomial coefficient"));
  for (Fp3Raw& c : p.final_poly)
    for (uint64_t& v : c) v = r.field();
  p.pow_nonce = r.uint(8);
  p.openings.resize(r.count(8, "layer opening"));
  for (FriLayerOpening& o : p.openings) codec::read_layer_opening(r, o);
  if (r.ok() && r.left() != 0) r.fail(ParseError::Kind::kTrailingBytes, "trailing bytes after the proof");
  if (!r.ok()) return failed();
  return {std::move(p), std::nullopt};
}

// spec: protocol:fri:security
FriSecurity fri_security(const FriOptions& o, unsigned log_degree) {
  const double field_bits = 3.0 * std::log2(static_cast<double>(GoldilocksTraits::kModulus));
  const double log_domain = log_degree + o.log_blowup;
  const double rho = std::ldexp(1.0, -static_cast<int>(o.log_blowup));
  FriSecurity s{};
  s.conjectured_bits = std::min(double(o.num_queries) * o.log_blowup + o.pow_bits, field_bits - log_domain);
  // Johnson regime: each query catches a function delta-far from the code with probability
  // delta = 1 - sqrt(rho) (1 + 1/2m); the commit phase errs with probability at most
  // (m + 1/2)^7 / (3 rho^1.5) * |D|^2 / |F| per folding round, times (arity - 1).
  const auto sched = fri_schedule(o, log_degree);
  double fold_weight = 0;
  if (sched)
    for (const FriLayer& l : sched->layers) fold_weight += std::ldexp(1.0, static_cast<int>(l.log_arity)) - 1;
  if (fold_weight == 0) fold_weight = 1;
  s.provable_bits = 0;
  for (unsigned m = 3; m <= 512; ++m) {
    const double log_commit = 7 * std::log2(m + 0.5) - std::log2(3.0) - 1.5 * std::log2(rho) + 2 * log_domain -
                              field_bits + std::log2(fold_weight);
    const double log_query = o.num_queries * std::log2(std::sqrt(rho) * (1 + 0.5 / m)) - o.pow_bits;
    // -log2(2^a + 2^b), computed stably
    const double hi = std::max(log_commit, log_query), lo = std::min(log_commit, log_query);
    const double bits = -(hi + std::log2(1 + std::exp2(lo - hi)));
    if (bits > s.provable_bits) {
      s.provable_bits = bits;
      s.johnson_m = m;
    }
  }
  return s;
}

}  // namespace zkrv::spec
