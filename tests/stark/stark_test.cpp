// The proof system end to end (spec/protocol.md §8): the reference prover's proofs verify, and
// the verifier rejects every change to the statement, to the proof's bytes and to the trace.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <cstdlib>
#include <iterator>

#include "core/stark/domains.h"
#include "fuzz/stark_proof/statement.h"
#include "reference/air/check.h"
#include "reference/air/evaluate.h"
#include "spec/air/embedded.h"
#include "reference/air/trace.h"
#include "reference/elf/elf_loader.h"
#include "reference/ntt/ntt.h"
#include "reference/prove/prove.h"
#include "reference/stark/air.h"
#include "reference/verify/key.h"
#include "reference/verify/verify.h"
#include "optimized/exec/fast_executor.h"

namespace zkrv {
namespace {

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), {}};
}

struct GuestRun {
  spec::ProgramImage image;
  spec::ExecResult result;
  ref::air::AirTrace trace;
};
GuestRun run_guest(const std::string& name, const std::vector<uint8_t>& input) {
  const auto elf = read_file(std::string(ZKRV_GUEST_PROGRAMS_DIR) + "/" + name + ".elf");
  auto loaded = ref::load_elf(elf);
  EXPECT_TRUE(loaded.ok()) << name << ": " << loaded.message;
  GuestRun r{*loaded.image, {}, {}};
  spec::ExecOptions opt;
  opt.trace = true;
  opt.max_cycles = uint64_t{1} << 19;  // the most this suite proves
  r.result = opt::execute(r.image, input, opt);
  if (r.result.status == spec::ExitStatus::kExited) r.trace = ref::air::build_trace(r.image, r.result);
  return r;
}

// Small, fast options for the tests (the verifier reports their low security honestly).
spec::StarkOptions test_options() { return spec::StarkOptions{2, 8, 2, 3}; }
// The tests' options are honestly weak (few queries, little grinding): the tests that are not
// about the policy accept any bits, saying so.
const spec::SecurityPolicy kAnyBits = spec::SecurityPolicy::at_least(spec::SecurityPolicy::Measure::kProvable, 0);

// fibonacci(90) and its proof with test_options(), proved once for the tests that tamper with it.
struct Proved {
  GuestRun run;
  spec::StarkProof proof;
};
const Proved& fibonacci_proved() {
  static const Proved proved = [] {
    GuestRun r = run_guest("fibonacci", {'9', '0'});
    spec::StarkProof proof = ref::prove::prove_unchecked(r.image, r.trace, test_options());
    return Proved{std::move(r), std::move(proof)};
  }();
  return proved;
}

spec::SecurityShape largest_shape(unsigned log_max) {
  return ref::stark::air_layout().largest_security_shape(log_max);
}

// The presets give what they promise (protocol:stark:presets) for every tallest height the
// protocol allows (the fixed tables make it at least 2^16), with the spec's real counts.
TEST(Stark, PresetsGiveTheirBits) {
  for (unsigned log_max = 16; log_max <= spec::kMaxLogHeight; ++log_max) {
    const auto p = spec::stark_security(spec::stark_preset("provable"), largest_shape(log_max));
    EXPECT_GE(p.provable_bits, 100.0) << "log_max " << log_max;
    const auto c = spec::stark_security(spec::stark_preset("conjectured"), largest_shape(log_max));
    EXPECT_GE(c.conjectured_bits, 100.0) << "log_max " << log_max;
    EXPECT_LT(c.provable_bits, p.provable_bits);
    if (log_max % 4 == 0)
      std::printf("2^%u: provable preset %.1f provable / %.1f conjectured bits; conjectured preset %.1f / %.1f\n",
                  log_max, p.provable_bits, p.conjectured_bits, c.provable_bits, c.conjectured_bits);
  }
  // and the test options below are honestly weak
  EXPECT_LT(spec::stark_security(spec::StarkOptions{2, 8, 2, 3}, largest_shape(16)).conjectured_bits, 20.0);
}

// protocol:stark:security — the terms add up as the spec writes them: the list size weighs ALI,
// LogUp and DEEP in the provable figure only, and no figure passes the hash's 128 bits.
TEST(Stark, SecurityTermsAddUp) {
  const auto s = spec::stark_security(spec::stark_preset("provable"), largest_shape(20));
  auto bits = [](std::initializer_list<double> logs) {
    double sum = 0;
    for (double l : logs) sum += std::exp2(l);
    return -std::log2(sum);
  };
  EXPECT_NEAR(s.provable_bits, bits({-s.fri.provable_bits, s.log_ali + s.log_list, s.log_logup + s.log_list,
                                     s.log_deep + s.log_list}), 1e-9);
  EXPECT_NEAR(s.conjectured_bits, std::min(128.0, bits({-s.fri.conjectured_bits, s.log_ali, s.log_logup, s.log_deep})),
              1e-9);
  // the list of the code of rate ρ⁺ = (1/4)(1 + 2/32) at FRI's radius: (m' + 1/2) / sqrt(ρ⁺), with
  // sqrt(ρ⁺)(1 + 1/2m') = sqrt(1/4)(1 + 1/2m); larger than the list at rate 1/4
  const double r = (1 + 0.5 / s.fri.johnson_m) / std::sqrt(1 + 2.0 / 32);
  EXPECT_NEAR(s.log_list, std::log2(1 / (2 * (r - 1)) + 0.5) - 0.5 * std::log2(0.25 * (1 + 2.0 / 32)), 1e-9);
  EXPECT_GT(s.log_list, std::log2(s.fri.johnson_m + 0.5) + 1);
  // the DEEP batch: powers of γ up to opened_values − 1, plus one per injected height, plus the folds
  const auto sh = largest_shape(20);
  EXPECT_DOUBLE_EQ(s.fri.commit_weight, double(sh.opened_values - 1) + (sh.heights - 1) + (20 - 3));  // folds to 2^3
  // the hash caps both figures: many queries, much grinding
  const auto strong = spec::stark_security(spec::StarkOptions{3, 200, 30, 3}, largest_shape(16));
  EXPECT_DOUBLE_EQ(strong.conjectured_bits, spec::kHashCollisionBits);
  EXPECT_LE(strong.provable_bits, spec::kHashCollisionBits);
  // the Johnson-regime rate condition, h >= 2 / ((1 + 1/2m)^2 − 1), holds for the shortest table
  // the protocol allows (2^5 rows): m is chosen so that it does
  const double slack = std::pow(1 + 0.5 / s.fri.johnson_m, 2) - 1;
  EXPECT_GE(std::ldexp(1.0, s.johnson_log_height), 2 / slack);
  EXPECT_LT(std::ldexp(1.0, s.johnson_log_height - 1), 2 / slack);
  EXPECT_TRUE(s.johnson_holds);
  EXPECT_LE(s.johnson_log_height, spec::kMinLogHeight);
  EXPECT_EQ(sh.log_min_height, spec::kMinLogHeight);
  // at 2^16 the best m unconstrained would be 33, which needs tables of 2^7 rows; with 2^5-row
  // tables m is at most 16, and every table meets the condition
  const auto p16 = spec::stark_security(spec::stark_preset("provable"), largest_shape(16));
  EXPECT_LE(p16.fri.johnson_m, 16u);
  EXPECT_TRUE(p16.johnson_holds);
  // tables of 4 rows leave no m >= 3: nothing is established in the Johnson regime
  auto tiny = largest_shape(16);
  tiny.log_min_height = 2;
  const auto t = spec::stark_security(spec::stark_preset("provable"), tiny);
  EXPECT_EQ(t.fri.johnson_m, 0u);
  EXPECT_EQ(t.provable_bits, 0);
  EXPECT_FALSE(t.johnson_holds);
  EXPECT_GT(t.conjectured_bits, 100);  // the conjecture does not depend on it
}

TEST(Stark, PreprocessedColumnsAreTheTraceBuilders) {
  const GuestRun r = run_guest("fibonacci", {'9', '0'});
  const auto& layout = ref::stark::air_layout();
  const auto pre = ref::stark::preprocessed(r.image, r.result.output);
  for (size_t t = 0; t < layout.tables.size(); ++t) {
    const auto& tt = r.trace.table(layout.tables[t].name);
    if (pre.log_heights[t]) { EXPECT_EQ(size_t{1} << *pre.log_heights[t], tt.height()) << layout.tables[t].name; }
    for (size_t k = 0; k < layout.tables[t].pre.size(); ++k)
      for (size_t row = 0; row < tt.height(); ++row)
        ASSERT_EQ(pre.columns[t][k][row].value(), tt.rows[row][layout.tables[t].pre[k]])
            << layout.tables[t].name << " column " << k << " row " << row;
  }
}

using ref::verify::Rejection;
using Stage = Rejection::Stage;
using Check = Rejection::Check;

// The verdict's stage, or "accepted".
std::string verdict(const ref::verify::VerifyResult& v) {
  return v.ok() ? "accepted" : std::string(ref::verify::stage_name(v.rejection->stage)) + ": " + v.rejection->what;
}

// A rejection as the tests compare it: "stage/check" ("accepted" when none); with kWhere also the
// table, query and FRI layer it names; with kValues also what the verifier expected and found.
enum class Detail { kCheck, kWhere, kValues };
std::string fired(const ref::verify::VerifyResult& v, Detail detail = Detail::kValues) {
  if (v.ok()) return "accepted";
  const Rejection& r = *v.rejection;
  std::string s = std::string(ref::verify::stage_name(r.stage)) + "/" + ref::verify::check_name(r.check);
  if (detail == Detail::kCheck) return s;
  if (r.table) s += " table " + *r.table;
  if (r.query) s += " query " + std::to_string(*r.query);
  if (r.layer) s += " layer " + std::to_string(*r.layer);
  if (detail == Detail::kValues && !r.expected.empty()) s += " | expected " + r.expected;
  if (detail == Detail::kValues && !r.found.empty()) s += " | found " + r.found;
  return s;
}
std::string hex(std::span<const uint8_t> bytes) {
  std::string s;
  for (uint8_t b : bytes) s += "0123456789abcdef"[b >> 4], s += "0123456789abcdef"[b & 15];
  return s;
}

// protocol:stark:policy — the caller's floor decides what is accepted, not the proof's options.
// The rejection is typed, comes before any hash, and names the figure and the floor.
TEST(Stark, PolicyDecidesTheSecurityAccepted) {
  const Proved& fp = fibonacci_proved();  // 8 queries, 2 bits of grinding
  const ref::verify::Expected e{&fp.run.image, 0, &fp.run.result.output};
  const auto strict = ref::verify::verify(fp.proof, e, spec::SecurityPolicy{});
  ASSERT_FALSE(strict.ok());
  EXPECT_EQ(fired(strict, Detail::kCheck), "security/security_policy");
  const double bits = strict.security.provable_bits;
  char figure[32];
  std::snprintf(figure, sizeof figure, "%.1f provable bits", bits);
  EXPECT_NE(strict.rejection->what.find(figure), std::string::npos) << strict.rejection->what;
  EXPECT_NE(strict.rejection->what.find("fewer than the policy's 100"), std::string::npos) << strict.rejection->what;
  EXPECT_EQ(strict.rejection->expected, "provable bits >= 100");
  using M = spec::SecurityPolicy::Measure;
  EXPECT_EQ(verdict(ref::verify::verify(fp.proof, e, spec::SecurityPolicy::at_least(M::kProvable, bits))), "accepted");
  EXPECT_EQ(fired(ref::verify::verify(fp.proof, e, spec::SecurityPolicy::at_least(M::kProvable, bits + 0.01)),
                  Detail::kCheck),
            "security/security_policy");
  EXPECT_EQ(fired(ref::verify::verify(fp.proof, e, spec::SecurityPolicy::preset("conjectured")), Detail::kCheck),
            "security/security_policy");
  EXPECT_THROW(spec::SecurityPolicy::preset("none"), std::invalid_argument);
}

// The weak proofs of the audit (winterfell#160's class): with 0 grinding bits the nonce is free and
// the prover may redraw the query positions at no cost. The default policy rejects both; only an
// explicit lower floor accepts them.
TEST(Stark, WeakOptionsAreRejectedByTheDefaultPolicy) {
  const Proved& fp = fibonacci_proved();
  const ref::verify::Expected e{&fp.run.image, 0, &fp.run.result.output};
  using M = spec::SecurityPolicy::Measure;
  const auto one = ref::prove::prove_unchecked(fp.run.image, fp.run.trace, spec::StarkOptions{2, 1, 0, 3});
  EXPECT_EQ(fired(ref::verify::verify(one, e, spec::SecurityPolicy{}), Detail::kCheck), "security/security_policy");
  EXPECT_EQ(verdict(ref::verify::verify(one, e, kAnyBits)), "accepted");
  const auto weak = ref::prove::prove_unchecked(fp.run.image, fp.run.trace, spec::StarkOptions{2, 51, 0, 3});
  const auto v = ref::verify::verify(weak, e, spec::SecurityPolicy{});
  EXPECT_EQ(fired(v, Detail::kCheck), "security/security_policy");
  EXPECT_LT(v.security.provable_bits, 55);
  EXPECT_GT(v.security.provable_bits, 45);
  EXPECT_EQ(verdict(ref::verify::verify(weak, e, spec::SecurityPolicy::at_least(M::kProvable, 45))), "accepted");
  std::printf("blowup 4, 51 queries, no grinding: %.1f provable bits, %.1f conjectured\n", v.security.provable_bits,
              v.security.conjectured_bits);
}

// protocol:stark:ood — the out-of-domain point is redrawn unless it is outside F_p, every trace
// domain and every LDE coset. In F_{p^3} every root of unity of 2-power order already lies in
// F_p (p^2 + p + 1 is odd, so F_{p^3}^* has the 2-part of F_p^*), so the domain points are
// excluded with F_p; the function checks all three anyway.
TEST(Stark, OodPointMustLeaveEveryDomain) {
  const std::vector<uint8_t> heights = {4, 10, 16};
  std::mt19937_64 g(3);
  auto fp = [&] { return ref::Fp::from_u64(g()); };
  for (int i = 0; i < 50; ++i) {
    EXPECT_TRUE(core::ood_point_ok(ref::Fp3{{fp(), fp(), fp()}}, heights, 2));  // ζ off F_p: accepted
    EXPECT_FALSE(core::ood_point_ok(ref::Fp3{{fp(), ref::Fp(), ref::Fp()}}, heights, 2));  // ζ in F_p: redrawn
  }
  const ref::Fp w = ref::root_of_unity(10);
  EXPECT_FALSE(core::ood_point_ok(ref::embed(w.pow(3)), heights, 2));  // on a trace domain
  const ref::Fp shift = core::lde_shift<ref::Fp>();
  EXPECT_FALSE(core::ood_point_ok(ref::embed(shift * ref::root_of_unity(12).pow(5)), heights, 2));  // on an LDE coset
  EXPECT_TRUE(core::ood_point_ok(ref::Fp3{{ref::Fp(), ref::Fp::from_u64(1), ref::Fp()}}, heights, 2));  // w itself is fine
  // 2-power roots of unity of F_{p^3} are in F_p: (p^3 - 1) / (p - 1) = p^2 + p + 1 is odd (parity
  // survives the wrap modulo 2^128).
  const unsigned __int128 p = ref::Fp::P;
  EXPECT_EQ((p * p + p + 1) % 2, 1u);
}

TEST(Stark, HonestProofVerifiesAndIsDeterministic) {
  const GuestRun r = run_guest("fibonacci", {'9', '0'});
  ASSERT_TRUE(ref::air::check_trace(r.trace).ok());
  const auto proof = ref::prove::prove_unchecked(r.image, r.trace, test_options());
  const ref::verify::Expected e{&r.image, 0, &r.result.output};
  EXPECT_EQ(verdict(ref::verify::verify(proof, e, kAnyBits)), "accepted");
  const auto bytes = spec::encode_stark_proof(proof);
  const auto parsed = spec::decode_stark_proof(bytes);
  ASSERT_TRUE(parsed.proof);
  EXPECT_EQ(spec::encode_stark_proof(*parsed.proof), bytes);  // every accepted input re-encodes to itself
  EXPECT_EQ(verdict(ref::verify::verify_bytes(bytes, e, kAnyBits)), "accepted");
  // Determinism: the same trace and options give the same bytes.
  EXPECT_EQ(spec::encode_stark_proof(ref::prove::prove_unchecked(r.image, r.trace, test_options())), bytes);
}

// Flips bit (k mod 8) of byte k at every position `stride` apart (and every byte below `dense`);
// every resulting proof must be rejected. Truncations likewise must be malformed.
void expect_every_flip_rejected(const std::vector<uint8_t>& bytes, const ref::verify::Expected& e, size_t dense,
                                size_t stride) {
  ref::verify::Cache cache;
  size_t tried = 0, accepted = 0;
  for (size_t k = 0; k < bytes.size(); k += (k < dense ? 1 : stride)) {
    auto b = bytes;
    b[k] ^= static_cast<uint8_t>(1u << (k % 8));
    ++tried;
    const auto v = ref::verify::verify_bytes(b, e, kAnyBits, &cache);
    if (v.ok()) {
      ++accepted;
      ADD_FAILURE() << "a proof with byte " << k << " flipped was accepted";
    }
  }
  EXPECT_EQ(accepted, 0u) << "of " << tried << " flipped proofs";
  for (size_t n = 0; n < bytes.size(); n += (n < dense ? 1 : stride)) {
    const auto parsed = spec::decode_stark_proof(std::span(bytes.data(), n));
    ASSERT_FALSE(parsed.proof) << "a proof truncated to " << n << " bytes parsed";
    using K = spec::ParseError::Kind;
    const K kind = parsed.error->kind;
    if (n < 8) ASSERT_EQ(kind, K::kBadMagic) << n;
    else ASSERT_TRUE(kind == K::kTruncated || kind == K::kTooLarge) << "truncated to " << n << ": " << parsed.error->what;
  }
}

TEST(Stark, RejectsOtherStatementsShapesAndEveryChangedByte) {
  const GuestRun& r = fibonacci_proved().run;
  const spec::StarkProof& proof = fibonacci_proved().proof;
  const auto bytes = spec::encode_stark_proof(proof);
  const ref::verify::Expected e{&r.image, 0, &r.result.output};
  ref::verify::Cache cache;
  ASSERT_EQ(verdict(ref::verify::verify(proof, e, kAnyBits, &cache)), "accepted");
  auto fire = [&](const spec::StarkProof& p, const ref::verify::Expected& ex, Detail detail = Detail::kValues) {
    return fired(ref::verify::verify(p, ex, kAnyBits, &cache), detail);
  };

  // Statement binding: another ELF (one code byte, one data byte), exit code or output.
  for (bool code : {true, false}) {  // a code byte, a data byte
    spec::ProgramImage other = r.image;
    bool changed = false;
    for (auto& s : other.segments)
      if (((s.flags & spec::kFlagX) != 0) == code && !s.data.empty() && !changed) s.data[s.data.size() / 2] ^= 1, changed = true;
    ASSERT_TRUE(changed);
    EXPECT_EQ(fire(proof, {&other, 0, &r.result.output}), "statement/program_digest | expected " +
                                                              hex(ref::stark::program_digest(other)) + " | found " +
                                                              hex(proof.statement.program_digest))
        << (code ? "code" : "data");
  }
  EXPECT_EQ(fire(proof, {&r.image, 42, &r.result.output}), "statement/exit_code | expected 42 | found 0");
  const std::vector<uint8_t>& claimed_out = proof.statement.output;
  ASSERT_EQ(claimed_out, r.result.output);
  const std::string n_bytes = std::to_string(claimed_out.size()) + " bytes";
  std::vector<uint8_t> out = r.result.output;
  out[3] ^= 0x20;
  EXPECT_EQ(fire(proof, {&r.image, 0, &out}), "statement/output | expected " + n_bytes + ", byte 3 = 0x" +
                                                  hex(std::span(&out[3], 1)) + " | found " + n_bytes + ", byte 3 = 0x" +
                                                  hex(std::span(&claimed_out[3], 1)));
  out = r.result.output;
  out.pop_back();
  EXPECT_EQ(fire(proof, {&r.image, 0, &out}),
            "statement/output | expected " + std::to_string(out.size()) + " bytes | found " + n_bytes);
  out = r.result.output;
  out.push_back('x');
  EXPECT_EQ(fire(proof, {&r.image, 0, &out}),
            "statement/output | expected " + std::to_string(out.size()) + " bytes | found " + n_bytes);
  const auto& layout = ref::stark::air_layout();
  const std::string first_table = layout.tables[0].name;
  // The claimed output changed inside the proof: the statement is absorbed first, so every
  // challenge changes and the first table's constraints no longer hold at ζ.
  {
    auto p = proof;
    p.statement.output[0] ^= 1;
    std::vector<uint8_t> claimed = p.statement.output;
    EXPECT_EQ(fire(p, {&r.image, 0, &claimed}, Detail::kWhere), "constraints/constraints_at_zeta table " + first_table);
  }

  // The verifier bugs others had.
  {
    auto p = proof;
    p.options.num_queries = 0;
    EXPECT_EQ(fire(p, e), "options/options_invalid");  // zero queries
    p = proof;
    p.queries.pop_back();
    const std::string nq = std::to_string(proof.queries.size());
    EXPECT_EQ(fire(p, e), "shape/query_count | expected " + nq + " | found " + std::to_string(p.queries.size()));
    const std::string nf = std::to_string(proof.final_poly.size());
    p = proof;
    p.final_poly.pop_back();  // a final polynomial of the wrong length
    EXPECT_EQ(fire(p, e), "shape/final_length | expected " + nf + " | found " + std::to_string(p.final_poly.size()));
    p = proof;
    p.final_poly.push_back({0, 0, 0});
    EXPECT_EQ(fire(p, e), "shape/final_length | expected " + nf + " | found " + std::to_string(p.final_poly.size()));
    const size_t cpu = layout.table_index("cpu"), and8 = layout.table_index("and8");
    p = proof;
    p.statement.log_heights[cpu] = 25;  // above the bound
    EXPECT_EQ(fire(p, e), "shape/too_tall table cpu | expected at most 2^24 | found 2^25");
    p = proof;
    p.statement.log_heights[and8] -= 1;  // a height the verifier derives
    const unsigned and8_height = proof.statement.log_heights[and8];
    EXPECT_EQ(fire(p, e), "shape/height_derived table and8 | expected 2^" + std::to_string(and8_height) + " | found 2^" +
                              std::to_string(and8_height - 1));
    p = proof;
    p.statement.log_heights.pop_back();
    EXPECT_EQ(fire(p, e), "shape/height_count | expected " + std::to_string(layout.tables.size()) + " | found " +
                              std::to_string(layout.tables.size() - 1));
    p = proof;
    p.statement.log_heights[cpu] += 1;  // a prover-chosen height off by one: every width check follows it
    EXPECT_EQ(fire(p, e, Detail::kWhere), "constraints/constraints_at_zeta table " + first_table);
    p = proof;
    p.ood.pop_back();  // a width that differs from the spec's
    EXPECT_EQ(fire(p, e), "shape/ood_count | expected " + std::to_string(proof.ood.size()) + " | found " +
                              std::to_string(p.ood.size()));
    p = proof;
    p.queries[0].main.values.pop_back();
    EXPECT_EQ(fire(p, e), "merkle/merkle_main query 0");
    // Terminal sums that still add up to zero but are not the tables' own: the last-row
    // constraint S = T fails at ζ, first for table 0.
    p = proof;
    p.terminal_sums[0][0] = (p.terminal_sums[0][0] + 1) % ref::Fp::P;
    p.terminal_sums[1][0] = p.terminal_sums[1][0] == 0 ? ref::Fp::P - 1 : p.terminal_sums[1][0] - 1;
    EXPECT_EQ(fire(p, e, Detail::kWhere), "constraints/constraints_at_zeta table " + first_table);
    p = proof;
    p.terminal_sums[2][1] = (p.terminal_sums[2][1] + 1) % ref::Fp::P;  // an unbalanced bus
    EXPECT_EQ(fire(p, e), "logup/unbalanced | expected (0, 0, 0) | found (0, 1, 0)");
    p = proof;
    p.ood[5][0] = (p.ood[5][0] + 1) % ref::Fp::P;  // one opened value, of table 0
    EXPECT_EQ(fire(p, e, Detail::kWhere), "constraints/constraints_at_zeta table " + first_table);
  }

  // Every byte bound: flips at every byte of the first 2 KiB and every 97th byte after (all of
  // them under the `long` label: StarkLong.EveryByteOfAProofIsBound).
  expect_every_flip_rejected(bytes, e, 2048, 97);
}

// Every tampering of a different kind fires a different check, named with where it fired (table,
// query, FRI layer) and, where the test knows them, the values compared. The checks no proof of
// this spec can reach are listed with the fact about the spec that makes them unreachable; every
// other check is fired here.
TEST(Stark, EachTamperingFiresItsOwnCheck) {
  const GuestRun& r = fibonacci_proved().run;
  const spec::StarkProof& proof = fibonacci_proved().proof;
  const auto& layout = ref::stark::air_layout();
  const size_t cpu = layout.table_index("cpu"), and8 = layout.table_index("and8");
  const auto bytes = spec::encode_stark_proof(proof);
  const ref::verify::Expected e{&r.image, 0, &r.result.output};
  ref::verify::Cache cache;
  const uint64_t P = ref::Fp::P;
  auto bump = [](uint64_t& v) { v = (v + 1) % ref::Fp::P; };
  auto tampered = [&](const std::function<void(spec::StarkProof&)>& change) {
    auto p = proof;
    change(p);
    return ref::verify::verify(p, e, kAnyBits, &cache);
  };
  // The verifier's own preprocessed columns (outside the program tree) differ from the prover's
  // where no constraint and no bus reads them (a padding row of output, is_real 0): only DEEP and
  // FRI can tell. output (2^5 rows) enters FRI after fold log_max − 5; with a final polynomial of
  // 2^5 coefficients (syscall padded to 2^5 rows, the smallest height) it enters after the last fold.
  const unsigned log_max = *std::max_element(proof.statement.log_heights.begin(), proof.statement.log_heights.end());
  const unsigned output_height = proof.statement.log_heights[layout.table_index("output")];
  auto forged_output = [&](bool pad_syscall) {
    ref::air::AirTrace trace = r.trace;
    if (pad_syscall) {
      auto& sys = trace.table("syscall");
      while (sys.height() < (size_t{1} << output_height)) sys.rows.push_back(std::vector<uint64_t>(sys.columns.size(), 0));
      EXPECT_TRUE(ref::air::check_trace(trace).ok()) << "padding syscall with zero rows keeps the trace valid";
    }
    auto& out = trace.table("output");
    auto& row = out.rows.back();
    EXPECT_EQ(row[out.col("is_real")], 0u);
    row[out.col("value")] = 1;
    const spec::StarkOptions o{2, 8, 2, static_cast<uint8_t>(pad_syscall ? output_height : 3)};
    return ref::verify::verify(ref::prove::prove_unchecked(r.image, trace, o), e, kAnyBits, &cache);
  };
  // A key that lacks the proof's blowup.
  spec::ProgramKey no_root = ref::verify::make_key(r.image);
  no_root.roots.pop_back();
  no_root.roots.erase(no_root.roots.begin());
  std::vector<uint8_t> longer_output = r.result.output;
  longer_output.push_back('x');
  spec::ProgramImage other_code = r.image;
  for (auto& seg : other_code.segments)
    if ((seg.flags & spec::kFlagX) && !seg.data.empty()) {
      seg.data[0] ^= 1;
      break;
    }
  const std::string n_rows = std::to_string(proof.fri_openings[1].rows.size());

  const std::vector<std::pair<std::string, std::function<ref::verify::VerifyResult()>>> cases = {
      {"malformed/malformed", [&] { return ref::verify::verify_bytes(std::span(bytes.data(), 100), e, kAnyBits, &cache); }},
      {"options/options_invalid", [&] { return tampered([](auto& p) { p.options.num_queries = 0; }); }},
      {"statement/program_digest", [&] { return ref::verify::verify(proof, {&other_code, 0, &r.result.output}, kAnyBits, &cache); }},
      {"statement/exit_code | expected 1 | found 0",
       [&] { return ref::verify::verify(proof, {&r.image, 1, &r.result.output}, kAnyBits, &cache); }},
      {"statement/output", [&] { return ref::verify::verify(proof, {&r.image, 0, &longer_output}, kAnyBits, &cache); }},
      {"shape/height_count", [&] { return tampered([](auto& p) { p.statement.log_heights.pop_back(); }); }},
      {"shape/output_too_long table output | expected at most 2^24 bytes | found 16777217",
       [&] {  // no expected output: the claimed one is verified
         auto p = proof;
         p.statement.output.resize((size_t{1} << 24) + 1);
         return ref::verify::verify(p, {&r.image, 0, nullptr}, kAnyBits, &cache);
       }},
      {"shape/height_derived table and8", [&] { return tampered([&](auto& p) { p.statement.log_heights[and8] -= 1; }); }},
      {"shape/too_tall table cpu", [&] { return tampered([&](auto& p) { p.statement.log_heights[cpu] = 25; }); }},
      {"shape/too_short table cpu | expected at least 2^5 | found 2^4",
       [&] { return tampered([&](auto& p) { p.statement.log_heights[cpu] = 4; }); }},
      {"shape/terminal_sum_count", [&] { return tampered([](auto& p) { p.terminal_sums.pop_back(); }); }},
      {"shape/ood_count", [&] { return tampered([](auto& p) { p.ood.pop_back(); }); }},
      {"shape/fri_root_count", [&] { return tampered([](auto& p) { p.fri_roots.pop_back(); }); }},
      {"shape/fri_opening_count", [&] { return tampered([](auto& p) { p.fri_openings.pop_back(); }); }},
      {"shape/final_length", [&] { return tampered([](auto& p) { p.final_poly.pop_back(); }); }},
      {"shape/query_count", [&] { return tampered([](auto& p) { p.queries.pop_back(); }); }},
      {"shape/non_canonical_terminal_sum table " + layout.tables[3].name,
       [&] { return tampered([&](auto& p) { p.terminal_sums[3][0] = P; }); }},
      {"shape/non_canonical_ood table " + layout.tables.back().name,
       [&] { return tampered([&](auto& p) { p.ood.back()[1] = P; }); }},
      {"shape/non_canonical_final", [&] { return tampered([&](auto& p) { p.final_poly[1][2] = P; }); }},
      {"security/security_policy",  // an honest proof, but weaker than the caller accepts
       [&] { return ref::verify::verify(proof, e, spec::SecurityPolicy{}, &cache); }},
      {"logup/unbalanced", [&] { return tampered([&](auto& p) { bump(p.terminal_sums[2][1]); }); }},
      {"constraints/constraints_at_zeta table " + layout.tables[0].name,
       [&] { return tampered([&](auto& p) { bump(p.ood[5][0]); }); }},
      {"pow/pow",
       [&] {  // the next nonces that fail the proof of work (3 in 4 do at 2 bits)
         ref::verify::VerifyResult v;
         for (uint64_t k = 1; k <= 16 && (v.ok() || v.rejection->check != Check::kPow); ++k)
           v = tampered([&](auto& p) { p.pow_nonce += k; });
         return v;
       }},
      {"shape/fri_row_count layer 2 | expected " + n_rows + " | found " + std::to_string(std::stoul(n_rows) - 1),
       [&] { return tampered([](auto& p) { p.fri_openings[1].rows.pop_back(); }); }},
      {"shape/fri_row_width layer 2 | expected 6 | found 5",
       [&] { return tampered([](auto& p) { p.fri_openings[1].rows[2].pop_back(); }); }},
      {"shape/non_canonical_fri_row layer 2 | found " + std::to_string(P),
       [&] { return tampered([&](auto& p) { p.fri_openings[1].rows[2][4] = P; }); }},
      {"merkle/fri_layer_merkle layer 2", [&] { return tampered([&](auto& p) { bump(p.fri_openings[1].rows[2][4]); }); }},
      {"merkle/merkle_main query 3", [&] { return tampered([&](auto& p) { bump(p.queries[3].main.values[0]); }); }},
      {"merkle/merkle_aux query 1", [&] { return tampered([&](auto& p) { bump(p.queries[1].aux.values[0]); }); }},
      {"merkle/merkle_quotient query 2", [&] { return tampered([&](auto& p) { bump(p.queries[2].quotient.values[0]); }); }},
      {"merkle/merkle_program query 1", [&] { return tampered([&](auto& p) { bump(p.queries[1].program.values[0]); }); }},
      {"statement/key", [&] { return ref::verify::verify(proof, {nullptr, 0, &r.result.output, &no_root}, kAnyBits); }},
      {"fri/fri_fold query 0 layer " + std::to_string(log_max - output_height), [&] { return forged_output(false); }},
      {"fri/fri_final query 0 layer " + std::to_string(log_max - output_height), [&] { return forged_output(true); }},
  };
  std::set<std::string> checks;
  for (const auto& [expect, run] : cases) {
    const auto v = run();
    const bool with_values = expect.find(" | ") != std::string::npos;
    EXPECT_EQ(fired(v, with_values ? Detail::kValues : Detail::kWhere), expect);
    EXPECT_TRUE(checks.insert(fired(v, Detail::kCheck)).second) << expect << ": a check two tamperings share";
  }

  // Unreachable with this spec: every table's quotient fits the smallest blowup (4); no table
  // sends with an unbounded multiplicity; every table has interactions; the bounded
  // multiplicities stay below p even at 2^24 rows everywhere; and8's fixed 2^16 rows always
  // leave a fold above the largest final polynomial (2^8).
  double total = 0;
  for (const auto& t : layout.tables) {
    EXPECT_LE(t.chunks, 4u) << t.name;
    EXPECT_FALSE(t.interactions.empty()) << t.name;
    for (const auto& in : t.interactions) {
      EXPECT_FALSE(in.send && std::isinf(in.mult_bound)) << in.id;
      if (!std::isinf(in.mult_bound)) total += in.mult_bound * std::ldexp(1.0, spec::kMaxLogHeight);
    }
  }
  EXPECT_LT(total, static_cast<double>(P));
  EXPECT_GT(proof.statement.log_heights[and8], 8u);
  const std::set<Check> unreachable = {Check::kBlowupTooSmall, Check::kUnboundedSend, Check::kNonzeroSumWithoutInteractions,
                                       Check::kInteractionBound, Check::kNothingToFold};
  // a bundle's own checks: fired by tests/prove/bundle_test.cpp, never by a proof of one run
  const std::set<Check> bundle_only = {Check::kBundleStatement, Check::kSegmentCount, Check::kSegmentHeight};
  for (int k = 0; k <= static_cast<int>(Check::kFriFinal); ++k) {  // kFriFinal is the last check
    const auto c = static_cast<Check>(k);
    if (bundle_only.count(c)) continue;
    const std::string name = ref::verify::check_name(c);
    const bool is_fired = std::any_of(checks.begin(), checks.end(), [&](const std::string& s) {
      return s.size() > name.size() && s.compare(s.size() - name.size(), name.size(), name) == 0 &&
             s[s.size() - name.size() - 1] == '/';
    });
    EXPECT_NE(is_fired, unreachable.count(c) != 0) << name << (is_fired ? " fired but listed unreachable" : " never fired");
  }
}

TEST(StarkLong, EveryByteOfAProofIsBound) {
  if (!std::getenv("ZKRV_STARK_LONG")) GTEST_SKIP() << "long run: ctest -L long (stark.long) sets ZKRV_STARK_LONG=1";
  const GuestRun r = run_guest("fibonacci", {'9', '0'});
  const auto proof = ref::prove::prove_unchecked(r.image, r.trace, spec::StarkOptions{2, 2, 0, 3});
  const ref::verify::Expected e{&r.image, 0, &r.result.output};
  expect_every_flip_rejected(spec::encode_stark_proof(proof), e, SIZE_MAX, 1);
}

// Traces that do not satisfy the spec, proven without the pre-check, must be rejected.
TEST(Stark, DishonestTracesAreRejected) {
  const GuestRun r = run_guest("fibonacci", {'9', '0'});
  struct Case {
    const char* what;
    std::function<void(ref::air::AirTrace&)> mutate;
    uint32_t exit_code;
  };
  const std::vector<Case> cases = {
      {"a cpu cell changed (cpu:c:* fails on one row)",
       [](ref::air::AirTrace& t) {
         auto& cpu = t.table("cpu");
         cpu.rows[7][cpu.col("next_pc")] += 4;
       },
       0},
      {"a lookup multiplicity changed (the byte bus does not balance)",
       [](ref::air::AirTrace& t) {
         auto& byte = t.table("byte");
         byte.rows[19][byte.col("mult")] += 1;
       },
       0},
      {"another exit code claimed (cpu:c:exit_code)", [](ref::air::AirTrace& t) { t.publics["exit_code"] = 7; }, 7},
  };
  for (const Case& c : cases) {
    auto trace = r.trace;
    c.mutate(trace);
    ASSERT_FALSE(ref::air::check_trace(trace).ok()) << c.what << ": the mutation must break the trace";
    const auto proof = ref::prove::prove_unchecked(r.image, trace, test_options());
    const auto v = ref::verify::verify(proof, {&r.image, c.exit_code, &r.result.output}, kAnyBits);
    EXPECT_FALSE(v.ok()) << c.what << " was accepted";
  }
}

// The decoder names the offset where the offending field starts.
TEST(Stark, DecoderErrorsNameTheField) {
  const auto golden = read_file(std::string(ZKRV_SOURCE_DIR) + "/conformance/golden/stark-v5-exit0.proof");
  ASSERT_GT(golden.size(), 100u);
  auto b = golden;
  b[8] = 9;  // version
  auto p = spec::decode_stark_proof(b);
  ASSERT_FALSE(p.proof);
  EXPECT_EQ(p.error->kind, spec::ParseError::Kind::kBadVersion);
  EXPECT_EQ(p.error->offset, 8u);
  b = golden;
  const size_t output_len_at = 8 + 4 + 5 + 32 + 4;  // magic, version, options, digest, exit code
  b[output_len_at + 7] = 0x7f;                       // an output length beyond the file
  p = spec::decode_stark_proof(b);
  ASSERT_FALSE(p.proof);
  EXPECT_EQ(p.error->kind, spec::ParseError::Kind::kTooLarge);
  EXPECT_EQ(p.error->offset, output_len_at);
  b = golden;
  b.push_back(0);
  p = spec::decode_stark_proof(b);
  ASSERT_FALSE(p.proof);
  EXPECT_EQ(p.error->kind, spec::ParseError::Kind::kTrailingBytes);
  EXPECT_EQ(p.error->offset, golden.size());
}

// Completeness: example guests (programs.txt) proved and verified with their exit code and
// output, and rejected with another exit code. The default run takes five small ones (the
// reference prover spends about 10 s on any program: and8 and range16 have 2^16 rows);
// ZKRV_STARK_GUESTS=all (the `long` run) takes every program that exits within 2^19 cycles,
// with the default (provable) options.
TEST(Stark, CompletenessOnExampleGuests) {
  const char* env = std::getenv("ZKRV_STARK_GUESTS");
  const bool all = env && std::string(env) == "all";
  const std::set<std::string> chosen = {"cxx_lifecycle", "zero_init", "random_seed", "fail_abort", "fail_assert"};
  std::ifstream list(std::string(ZKRV_SOURCE_DIR) + "/guest/programs/programs.txt");
  std::string line;
  size_t proved = 0;
  while (std::getline(list, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream in(line);
    std::string name, expect, field, input_file;
    in >> name >> expect;
    while (in >> field)
      if (field.rfind("input=", 0) == 0) input_file = field.substr(6);
    if (!all && !chosen.count(name)) continue;
    uint32_t exit_code = 0;
    if (expect.rfind("exit=", 0) == 0) exit_code = static_cast<uint32_t>(std::stoul(expect.substr(5)));
    else if (expect != "pass") continue;  // faults cannot be proven
    const std::vector<uint8_t> input =
        input_file.empty() ? std::vector<uint8_t>{} : read_file(std::string(ZKRV_SOURCE_DIR) + "/guest/programs/" + input_file);
    const GuestRun r = run_guest(name, input);
    if (r.result.status != spec::ExitStatus::kExited) {
      std::printf("not proved %s: it runs longer than the 2^19 cycles this suite proves\n", name.c_str());
      continue;
    }
    ASSERT_EQ(static_cast<uint32_t>(r.result.exit_code), exit_code) << name;
    const auto options = all ? spec::stark_preset("provable") : test_options();
    const auto proof = ref::prove::prove_unchecked(r.image, r.trace, options);
    EXPECT_EQ(verdict(ref::verify::verify(proof, {&r.image, exit_code, &r.result.output}, kAnyBits)), "accepted") << name;
    EXPECT_NE(verdict(ref::verify::verify(proof, {&r.image, exit_code + 1, &r.result.output}, kAnyBits)), "accepted") << name;
    std::printf("proved %s: %llu cycles, %zu proof bytes\n", name.c_str(), static_cast<unsigned long long>(r.result.cycles),
                spec::encode_stark_proof(proof).size());
    ++proved;
  }
  EXPECT_GE(proved, all ? 8u : 5u);
}

// Fiat–Shamir binds everything the prover sends: changing any absorbed item changes every
// challenge squeezed after it (and none before). Item by item: the statement, each root, each
// terminal sum, the opened values, each FRI layer root, the final polynomial, the nonce.
TEST(Stark, EveryAbsorbedItemChangesEveryLaterChallenge) {
  const auto image = fuzz::stark_statement_image();
  const auto golden = read_file(std::string(ZKRV_SOURCE_DIR) + "/conformance/golden/stark-v5-exit0.proof");
  const auto parsed = spec::decode_stark_proof(golden);
  ASSERT_TRUE(parsed.proof);
  const spec::StarkProof& proof = *parsed.proof;
  const auto base = ref::verify::transcript_log(proof);
  ASSERT_TRUE(base);
  auto bump = [](uint64_t& v) { v = (v + 1) % ref::Fp::P; };
  std::vector<std::pair<std::string, std::function<void(spec::StarkProof&)>>> items = {
      {"statement", [](spec::StarkProof& p) { p.statement.exit_code ^= 1; }},
      {"main-root", [](spec::StarkProof& p) { p.main_root[0] ^= 1; }},
      {"aux-root", [](spec::StarkProof& p) { p.aux_root[31] ^= 1; }},
      {"quotient-root", [](spec::StarkProof& p) { p.quotient_root[7] ^= 1; }},
      {"ood-values", [&](spec::StarkProof& p) { bump(p.ood.back()[2]); }},
      {"fri-final", [&](spec::StarkProof& p) { bump(p.final_poly[0][0]); }},
      {"fri-pow", [](spec::StarkProof& p) { p.pow_nonce ^= 1; }},
  };
  for (size_t t = 0; t < proof.terminal_sums.size(); ++t)
    items.push_back({"logup-sum", [&, t](spec::StarkProof& p) { bump(p.terminal_sums[t][1]); }});
  for (size_t l = 0; l < proof.fri_roots.size(); ++l)
    items.push_back({"fri-layer-root", [l](spec::StarkProof& p) { p.fri_roots[l][3] ^= 1; }});
  // which absorption each item is: the k-th absorb with its label
  std::map<std::string, size_t> seen;
  for (auto& [label, mutate] : items) {
    const size_t occurrence = seen[label]++;
    size_t before = SIZE_MAX, n = 0;
    for (const auto& [l, count] : base->absorbed)
      if (l == label && n++ == occurrence) before = count;
    ASSERT_NE(before, SIZE_MAX) << label << " #" << occurrence << " is not absorbed";
    auto p = proof;
    mutate(p);
    const auto changed = ref::verify::transcript_log(p);
    ASSERT_TRUE(changed) << label;
    ASSERT_EQ(changed->challenges.size(), base->challenges.size()) << label;
    for (size_t k = 0; k < base->challenges.size(); ++k) {
      const bool same = changed->challenges[k].second == base->challenges[k].second;
      if (k < before) EXPECT_TRUE(same) << label << " #" << occurrence << " changed the earlier challenge " << k;
      else  // a query index, from a range of 2^17, may repeat by chance: only the field challenges must
        EXPECT_FALSE(same && base->challenges[k].first != "fri-query")
          << label << " #" << occurrence << " left challenge " << k << " (" << base->challenges[k].first << ") unchanged";
    }
  }
  EXPECT_EQ(seen["logup-sum"], ref::stark::air_layout().tables.size());
}

// protocol:stark:key — a proof verifies with the program's key alone, as with its ELF; the key's
// bytes decode to themselves; a key of another program, with another root or other heights is
// rejected by the check it breaks; malformed key bytes are typed errors.
TEST(Stark, AKeyVerifiesWithoutTheElf) {
  const GuestRun& r = fibonacci_proved().run;
  const spec::StarkProof& proof = fibonacci_proved().proof;
  const spec::ProgramKey key = ref::verify::make_key(r.image);
  EXPECT_EQ(key.program_digest, ref::stark::program_digest(r.image));
  ASSERT_EQ(key.roots.size(), 2u);
  EXPECT_NE(key.roots[0].second, key.roots[1].second);  // one per blowup
  auto with = [&](const spec::ProgramKey& k) {
    return fired(ref::verify::verify(proof, {nullptr, 0, &r.result.output, &k}, kAnyBits), Detail::kCheck);
  };
  EXPECT_EQ(with(key), "accepted");
  const auto bytes = spec::encode_key(key);
  const auto back = spec::decode_key(bytes);
  ASSERT_TRUE(back.key);
  EXPECT_EQ(*back.key, key);
  EXPECT_EQ(spec::encode_key(*back.key), bytes);
  spec::ProgramKey k = key;
  k.roots[0].second[5] ^= 1;
  EXPECT_EQ(with(k), "merkle/merkle_program");
  k = key;
  k.program_digest[0] ^= 1;
  EXPECT_EQ(with(k), "statement/program_digest");
  k = key;
  k.log_heights.back() += 1;  // segments: the verifier's derived height is the key's
  EXPECT_EQ(with(k), "shape/height_derived");
  k = key;
  k.log_heights.pop_back();
  EXPECT_EQ(with(k), "statement/key");
  // a fixed table's height is the verifier's own, whatever a key says
  size_t regs = 0;
  for (const auto& t : ref::stark::air_layout().tables)
    if (t.name == "regs") break;
    else regs += !t.program.empty();
  k = key;
  k.log_heights[regs] += 1;
  EXPECT_EQ(with(k), "statement/key");
  k = key;
  k.entry += 4;  // the public entry the constraints read
  EXPECT_EQ(with(k), "constraints/constraints_at_zeta");
  // decoding: every truncation, a trailing byte, another magic or version
  for (size_t n = 0; n < bytes.size(); ++n) EXPECT_FALSE(spec::decode_key(std::span(bytes.data(), n)).key) << n;
  auto longer = bytes;
  longer.push_back(0);
  EXPECT_EQ(spec::decode_key(longer).error->kind, spec::ParseError::Kind::kTrailingBytes);
  auto other = bytes;
  other[8] += 1;
  EXPECT_EQ(spec::decode_key(other).error->kind, spec::ParseError::Kind::kBadVersion);
  other = bytes;
  other[0] ^= 1;
  EXPECT_EQ(spec::decode_key(other).error->kind, spec::ParseError::Kind::kBadMagic);
  other = bytes;
  other[8 + 4 + 32] += 2;  // the entry, no longer a multiple of 4
  EXPECT_EQ(spec::decode_key(other).error->offset, 8u + 4 + 32);
  // one key for both AIRs: their program tables and columns are the same, in the same order
  auto program_tables = [](spec::air::Mode m) {
    std::vector<std::string> out;
    for (const auto& t : ref::stark::air_layout(m).tables)
      for (size_t c : t.program) out.push_back(t.name + "." + t.column_names[c]);
    return out;
  };
  EXPECT_EQ(program_tables(spec::air::Mode::kWhole), program_tables(spec::air::Mode::kSegmented));
  // and8 3, byte 1, image 2, pow2 5, program 2, range16 1, regs' reg, segments 4
  EXPECT_EQ(program_tables(spec::air::Mode::kWhole).size(), 19u);
}

// The golden proof (conformance/golden/README.md): reproduced byte for byte, and verified.
TEST(Stark, GoldenProofIsReproducedAndVerifies) {
  const auto golden = read_file(std::string(ZKRV_SOURCE_DIR) + "/conformance/golden/stark-v5-exit0.proof");
  ASSERT_FALSE(golden.empty());
  const auto image = fuzz::stark_statement_image();
  spec::ExecOptions opt;
  opt.trace = true;
  const auto run = opt::execute(image, {}, opt);
  const auto trace = ref::air::build_trace(image, run);
  const auto bytes = spec::encode_stark_proof(ref::prove::prove_unchecked(image, trace, fuzz::kStarkSeedOptions));
  EXPECT_EQ(bytes, golden) << "the prover no longer reproduces the golden proof (" << bytes.size() << " vs "
                           << golden.size() << " bytes): a protocol change must bump kStarkProofVersion";
  const std::vector<uint8_t> none;
  EXPECT_EQ(verdict(ref::verify::verify_bytes(golden, {&image, 0, &none}, kAnyBits)), "accepted");
  EXPECT_NE(verdict(ref::verify::verify_bytes(golden, {&image, 1, &none}, kAnyBits)), "accepted");
}

}  // namespace
}  // namespace zkrv
