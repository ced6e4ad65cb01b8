// The proof system end to end (spec/protocol.md §8): the reference prover's proofs verify, and
// the verifier rejects every change to the statement, to the proof's bytes and to the trace.
#include <gtest/gtest.h>

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

// The presets give what they promise (protocol:stark:presets) for every tallest height the
// protocol allows (the fixed tables make it at least 2^16), with the spec's real counts.
TEST(Stark, PresetsGiveTheirBits) {
  const auto& layout = ref::stark::air_layout();
  size_t opened = 0;
  for (const auto& t : layout.tables) opened += t.columns + t.aux_width() + t.quotient_width();
  for (unsigned log_max = 16; log_max <= spec::kMaxLogHeight; ++log_max) {
    const double log_interactions = log_max + 8.0;  // more than 200 interactions per row of the tallest height
    const auto p = spec::stark_security(spec::stark_preset("provable"), log_max, 2, layout.constraint_count(),
                                        log_interactions, layout.max_arity, opened);
    EXPECT_GE(p.provable_bits, 100.0) << "log_max " << log_max;
    const auto c = spec::stark_security(spec::stark_preset("conjectured"), log_max, 2, layout.constraint_count(),
                                        log_interactions, layout.max_arity, opened);
    EXPECT_GE(c.conjectured_bits, 100.0) << "log_max " << log_max;
    EXPECT_LT(c.provable_bits, p.provable_bits);
  }
  // and the test options below are honestly weak
  EXPECT_LT(spec::stark_security(spec::StarkOptions{2, 8, 2, 3}, 16, 2, 1000, 24, 13, 2000).conjectured_bits, 20.0);
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

// The verdict's stage, or "accepted".
std::string verdict(const ref::verify::VerifyResult& v) {
  return v.ok() ? "accepted" : std::string(ref::verify::stage_name(v.rejection->stage)) + ": " + v.rejection->what;
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
  const ref::Fp shift = core::lde_shift<ref::Fp>(16, 10);
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
  EXPECT_EQ(verdict(ref::verify::verify(proof, e)), "accepted");
  const auto bytes = spec::encode_stark_proof(proof);
  const auto parsed = spec::decode_stark_proof(bytes);
  ASSERT_TRUE(parsed.proof);
  EXPECT_EQ(spec::encode_stark_proof(*parsed.proof), bytes);  // every accepted input re-encodes to itself
  EXPECT_EQ(verdict(ref::verify::verify_bytes(bytes, e)), "accepted");
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
    const auto v = ref::verify::verify_bytes(b, e, &cache);
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
  const GuestRun r = run_guest("fibonacci", {'9', '0'});
  const auto proof = ref::prove::prove_unchecked(r.image, r.trace, test_options());
  const auto bytes = spec::encode_stark_proof(proof);
  const ref::verify::Expected e{&r.image, 0, &r.result.output};
  ref::verify::Cache cache;
  ASSERT_EQ(verdict(ref::verify::verify(proof, e, &cache)), "accepted");
  auto stage_of = [&](const spec::StarkProof& p, const ref::verify::Expected& ex) {
    const auto v = ref::verify::verify(p, ex, &cache);
    return v.ok() ? std::string("accepted") : std::string(ref::verify::stage_name(v.rejection->stage));
  };

  // Statement binding: another ELF (one code byte, one data byte), exit code or output.
  for (bool code : {true, false}) {  // a code byte, a data byte
    spec::ProgramImage other = r.image;
    bool changed = false;
    for (auto& s : other.segments)
      if (((s.flags & spec::kFlagX) != 0) == code && !s.data.empty() && !changed) s.data[s.data.size() / 2] ^= 1, changed = true;
    ASSERT_TRUE(changed);
    EXPECT_EQ(stage_of(proof, {&other, 0, &r.result.output}), "statement") << (code ? "code" : "data");
  }
  EXPECT_EQ(stage_of(proof, {&r.image, 42, &r.result.output}), "statement");
  std::vector<uint8_t> out = r.result.output;
  out[3] ^= 0x20;
  EXPECT_EQ(stage_of(proof, {&r.image, 0, &out}), "statement");
  out = r.result.output;
  out.pop_back();
  EXPECT_EQ(stage_of(proof, {&r.image, 0, &out}), "statement");
  out = r.result.output;
  out.push_back('x');
  EXPECT_EQ(stage_of(proof, {&r.image, 0, &out}), "statement");
  // The claimed output changed inside the proof: the statement is absorbed first, so every
  // challenge changes and the openings no longer match.
  {
    auto p = proof;
    p.statement.output[0] ^= 1;
    std::vector<uint8_t> claimed = p.statement.output;
    EXPECT_NE(stage_of(p, {&r.image, 0, &claimed}), "accepted");
  }

  // The verifier bugs others had.
  {
    auto p = proof;
    p.options.num_queries = 0;
    EXPECT_EQ(stage_of(p, e), "options");  // zero queries
    p = proof;
    p.queries.pop_back();
    EXPECT_EQ(stage_of(p, e), "shape");
    p = proof;
    p.final_poly.pop_back();
    EXPECT_EQ(stage_of(p, e), "shape");  // a final polynomial of the wrong length
    p = proof;
    p.final_poly.push_back({0, 0, 0});
    EXPECT_EQ(stage_of(p, e), "shape");
    const auto& layout = ref::stark::air_layout();
    const size_t cpu = layout.table_index("cpu"), and8 = layout.table_index("and8");
    p = proof;
    p.statement.log_heights[cpu] = 25;  // above the bound
    EXPECT_EQ(stage_of(p, e), "shape");
    p = proof;
    p.statement.log_heights[and8] -= 1;  // a height the verifier derives
    EXPECT_EQ(stage_of(p, e), "shape");
    p = proof;
    p.statement.log_heights.pop_back();
    EXPECT_EQ(stage_of(p, e), "shape");
    p = proof;
    p.statement.log_heights[cpu] += 1;  // a prover-chosen height off by one: every width check follows it
    EXPECT_NE(stage_of(p, e), "accepted");
    p = proof;
    p.ood.pop_back();  // a width that differs from the spec's
    EXPECT_EQ(stage_of(p, e), "shape");
    p = proof;
    p.queries[0].main.values.pop_back();
    EXPECT_EQ(stage_of(p, e), "merkle");
    // Terminal sums that still add up to zero but are not the tables' own: the last-row
    // constraint S = T fails at ζ.
    p = proof;
    p.terminal_sums[0][0] = (p.terminal_sums[0][0] + 1) % ref::Fp::P;
    p.terminal_sums[1][0] = (p.terminal_sums[1][0] + ref::Fp::P - 1) % ref::Fp::P;
    EXPECT_NE(stage_of(p, e), "accepted");
    p = proof;
    p.terminal_sums[2][1] = (p.terminal_sums[2][1] + 1) % ref::Fp::P;  // an unbalanced bus
    EXPECT_EQ(stage_of(p, e), "logup");
    p = proof;
    p.ood[5][0] = (p.ood[5][0] + 1) % ref::Fp::P;  // one opened value
    EXPECT_NE(stage_of(p, e), "accepted");
  }

  // Every byte bound: flips at every byte of the first 2 KiB and every 97th byte after (all of
  // them under the `long` label: StarkLong.EveryByteOfAProofIsBound).
  expect_every_flip_rejected(bytes, e, 2048, 97);
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
    const auto v = ref::verify::verify(proof, {&r.image, c.exit_code, &r.result.output});
    EXPECT_FALSE(v.ok()) << c.what << " was accepted";
  }
}

// The decoder names the offset where the offending field starts.
TEST(Stark, DecoderErrorsNameTheField) {
  const auto golden = read_file(std::string(ZKRV_SOURCE_DIR) + "/conformance/golden/stark-v2-exit0.proof");
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
    EXPECT_EQ(verdict(ref::verify::verify(proof, {&r.image, exit_code, &r.result.output})), "accepted") << name;
    EXPECT_NE(verdict(ref::verify::verify(proof, {&r.image, exit_code + 1, &r.result.output})), "accepted") << name;
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
  const auto golden = read_file(std::string(ZKRV_SOURCE_DIR) + "/conformance/golden/stark-v2-exit0.proof");
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

// The golden proof (conformance/golden/README.md): reproduced byte for byte, and verified.
TEST(Stark, GoldenProofIsReproducedAndVerifies) {
  const auto golden = read_file(std::string(ZKRV_SOURCE_DIR) + "/conformance/golden/stark-v2-exit0.proof");
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
  EXPECT_EQ(verdict(ref::verify::verify_bytes(golden, {&image, 0, &none})), "accepted");
  EXPECT_NE(verdict(ref::verify::verify_bytes(golden, {&image, 1, &none})), "accepted");
}

}  // namespace
}  // namespace zkrv
