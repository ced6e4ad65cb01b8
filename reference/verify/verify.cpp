// The verifier, step by step in the order of spec/protocol.md §8 (protocol:stark:verify).
#include "reference/verify/verify.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>

#include "core/fri/fri.h"
#include "core/stark/bundle_transcript.h"
#include "core/stark/transcript.h"
#include "reference/merkle/merkle.h"
#include "reference/merkle/mixed.h"
#include "reference/ntt/ntt.h"
#include "reference/stark/air.h"
#include "reference/transcript/transcript.h"
#include "reference/verify/key.h"

namespace zkrv::ref::verify {
namespace {

using namespace stark;
using Stage = Rejection::Stage;
using Check = Rejection::Check;
const Fp kOne = Fp::from_u64(1);

// Each check's name and the stage it belongs to.
struct CheckInfo {
  const char* name;
  Stage stage;
};
CheckInfo info(Check c) {
  switch (c) {
    case Check::kMalformed: return {"malformed", Stage::kMalformed};
    case Check::kOptionsInvalid: return {"options_invalid", Stage::kOptions};
    case Check::kProgramDigest: return {"program_digest", Stage::kStatement};
    case Check::kBundleStatement: return {"bundle_statement", Stage::kStatement};
    case Check::kSegmentCount: return {"segment_count", Stage::kShape};
    case Check::kSegmentHeight: return {"segment_height", Stage::kShape};
    case Check::kExitCode: return {"exit_code", Stage::kStatement};
    case Check::kOutput: return {"output", Stage::kStatement};
    case Check::kHeightCount: return {"height_count", Stage::kShape};
    case Check::kOutputTooLong: return {"output_too_long", Stage::kShape};
    case Check::kHeightDerived: return {"height_derived", Stage::kShape};
    case Check::kTooTall: return {"too_tall", Stage::kShape};
    case Check::kTooShort: return {"too_short", Stage::kShape};
    case Check::kBlowupTooSmall: return {"blowup_too_small", Stage::kOptions};
    case Check::kUnboundedSend: return {"unbounded_send", Stage::kShape};
    case Check::kInteractionBound: return {"interaction_bound", Stage::kShape};
    case Check::kNothingToFold: return {"nothing_to_fold", Stage::kShape};
    case Check::kTerminalSumCount: return {"terminal_sum_count", Stage::kShape};
    case Check::kOodCount: return {"ood_count", Stage::kShape};
    case Check::kFriRootCount: return {"fri_root_count", Stage::kShape};
    case Check::kFriOpeningCount: return {"fri_opening_count", Stage::kShape};
    case Check::kFinalLength: return {"final_length", Stage::kShape};
    case Check::kQueryCount: return {"query_count", Stage::kShape};
    case Check::kNonCanonicalTerminalSum: return {"non_canonical_terminal_sum", Stage::kShape};
    case Check::kNonCanonicalOod: return {"non_canonical_ood", Stage::kShape};
    case Check::kNonCanonicalFinal: return {"non_canonical_final", Stage::kShape};
    case Check::kSecurityPolicy: return {"security_policy", Stage::kSecurity};
    case Check::kNonzeroSumWithoutInteractions: return {"nonzero_sum_without_interactions", Stage::kLogup};
    case Check::kUnbalanced: return {"unbalanced", Stage::kLogup};
    case Check::kConstraintsAtZeta: return {"constraints_at_zeta", Stage::kConstraints};
    case Check::kPow: return {"pow", Stage::kPow};
    case Check::kFriRowCount: return {"fri_row_count", Stage::kShape};
    case Check::kFriRowWidth: return {"fri_row_width", Stage::kShape};
    case Check::kNonCanonicalFriRow: return {"non_canonical_fri_row", Stage::kShape};
    case Check::kFriLayerMerkle: return {"fri_layer_merkle", Stage::kMerkle};
    case Check::kMerkleMain: return {"merkle_main", Stage::kMerkle};
    case Check::kMerkleAux: return {"merkle_aux", Stage::kMerkle};
    case Check::kMerkleQuotient: return {"merkle_quotient", Stage::kMerkle};
    case Check::kKey: return {"key", Stage::kStatement};
    case Check::kMerkleProgram: return {"merkle_program", Stage::kMerkle};
    case Check::kFriFold: return {"fri_fold", Stage::kFri};
    case Check::kFriFinal: return {"fri_final", Stage::kFri};
  }
  return {"?", Stage::kMalformed};
}

// Where a check failed; each field only where it means something.
struct Where {
  std::optional<std::string> table{};
  std::optional<size_t> query{};
  std::optional<unsigned> layer{};
};
Rejection reject(Check c, std::string what, Where at = {}, std::string expected = {}, std::string found = {}) {
  return Rejection{info(c).stage, c, std::move(what), std::move(at.table), at.query, at.layer, std::move(expected),
                   std::move(found)};
}

std::string str(const spec::Fp3Raw& c) {
  return "(" + std::to_string(c[0]) + ", " + std::to_string(c[1]) + ", " + std::to_string(c[2]) + ")";
}
std::string str(const Fp3& x) { return str(to_raw(x)); }
std::string hex(std::span<const uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  for (uint8_t b : bytes) s += kDigits[b >> 4], s += kDigits[b & 15];
  return s;
}
std::string pow2(unsigned log) { return "2^" + std::to_string(log); }
// An output as a rejection shows it: its length and, where it first differs from `other`, that byte.
std::string output_str(const std::vector<uint8_t>& out, const std::vector<uint8_t>& other) {
  std::string s = std::to_string(out.size()) + " bytes";
  const auto differs = std::mismatch(out.begin(), out.end(), other.begin(), other.end()).first;
  const size_t k = static_cast<size_t>(differs - out.begin());
  if (k < out.size() && k < other.size()) s += ", byte " + std::to_string(k) + " = 0x" + hex(std::span(&out[k], 1));
  return s;
}

// The challenges of one proof, as the transcript gives them.
struct Replay {
  LogupChallenges logup;
  Fp3 alpha, zeta, gamma;
  core::FriChallenges<Fp3> fri;
  bool pow_ok = false;
  std::vector<size_t> queries;
};

bool canonical(const spec::Fp3Raw& c) { return c[0] < Fp::P && c[1] < Fp::P && c[2] < Fp::P; }

}  // namespace

const char* check_name(Check c) { return info(c).name; }

const char* stage_name(Stage s) {
  switch (s) {
    case Stage::kMalformed: return "malformed";
    case Stage::kOptions: return "options";
    case Stage::kStatement: return "statement";
    case Stage::kShape: return "shape";
    case Stage::kSecurity: return "security";
    case Stage::kLogup: return "logup";
    case Stage::kConstraints: return "constraints";
    case Stage::kMerkle: return "merkle";
    case Stage::kPow: return "pow";
    case Stage::kFri: return "fri";
  }
  return "?";
}

namespace {

// A transcript that logs what it absorbs and squeezes (for transcript_log).
class LoggedTranscript {
 public:
  LoggedTranscript(std::string_view domain, TranscriptLog* log) : t_(domain), log_(log) {}
  void absorbed(std::string_view label) {
    if (log_) log_->absorbed.push_back({std::string(label), log_->challenges.size()});
  }
  void absorb(std::string_view label, std::span<const uint8_t> b) { t_.absorb(label, b), absorbed(label); }
  void absorb_digest(std::string_view label, const Digest& d) { t_.absorb_digest(label, d), absorbed(label); }
  Fp3 squeeze_ext(std::string_view label) {
    const Fp3 x = t_.squeeze_ext(label);
    if (log_) log_->challenges.push_back({std::string(label), to_raw(x)});
    return x;
  }
  uint64_t squeeze_index(std::string_view label, uint64_t bound) {
    const uint64_t i = t_.squeeze_index(label, bound);
    if (log_) log_->challenges.push_back({std::string(label), {i, 0, 0}});
    return i;
  }
  bool check_pow(unsigned bits, uint64_t nonce) const { return t_.check_pow(bits, nonce); }

 private:
  Transcript t_;
  TranscriptLog* log_;
};

}  // namespace

// spec: protocol:stark:transcript — every absorb and squeeze from the constraint challenge on,
// in protocol order, on a transcript that has absorbed the aux root (a proof of one run's, or a
// bundle segment's forked one). The proof's shapes must have been checked.
template <class Tr>
static void replay_rest(core::StarkTranscript<Tr>& tr, const spec::StarkProof& proof, Replay& r) {
  const spec::StarkOptions& o = proof.options;
  const spec::Statement& st = proof.statement;
  const core::FriShape shape = core::fri_shape(o, st.log_heights);
  r.alpha = tr.sample_constraint_alpha();
  tr.observe_quotient_root(proof.quotient_root);
  r.zeta = tr.sample_ood_point(st.log_heights, o.log_blowup);
  tr.observe_ood_values(proof.ood);
  r.gamma = tr.sample_deep_gamma();
  struct {  // the verifier's side of the commit phase: the proof's roots and final polynomial
    const spec::StarkProof& p;
    spec::Digest commit(unsigned l) const { return p.fri_roots[l - 1]; }
    void fold(unsigned, const Fp3&, const std::optional<Fp3>&) const {}
    const std::vector<spec::Fp3Raw>& final_poly() const { return p.final_poly; }
  } layers{proof};
  r.fri = tr.fri_commit(shape, layers);
  r.pow_ok = tr.check_pow(o.pow_bits, proof.pow_nonce);
  r.queries = tr.sample_queries(o.num_queries, shape.half(0));
}

static Replay replay(const spec::StarkProof& proof, TranscriptLog* log) {
  Replay r;
  core::StarkTranscript<LoggedTranscript> tr(log);
  tr.observe_statement(proof.options, proof.statement);
  tr.observe_main_root(proof.main_root);
  const core::LogupDraw<Fp3> draw = tr.sample_logup();
  r.logup = {draw.alpha, draw.beta};
  tr.observe_logup(proof.terminal_sums, proof.aux_root);
  replay_rest(tr, proof, r);
  return r;
}

std::optional<TranscriptLog> transcript_log(const spec::StarkProof& proof) {
  const size_t T = air_layout().tables.size();
  if (spec::check_options(proof.options) || proof.statement.log_heights.size() != T || proof.terminal_sums.size() != T)
    return std::nullopt;
  for (uint8_t h : proof.statement.log_heights)
    if (h > spec::kMaxLogHeight) return std::nullopt;
  const unsigned rounds = core::fri_shape(proof.options, proof.statement.log_heights).rounds;
  if (rounds < 1 || proof.fri_roots.size() != rounds - 1) return std::nullopt;
  TranscriptLog log;
  replay(proof, &log);
  return log;
}

VerifyResult verify_bytes(std::span<const uint8_t> bytes, const Expected& expected, const spec::SecurityPolicy& policy,
                          Cache* cache) {
  const auto parsed = spec::decode_stark_proof(bytes);
  if (!parsed.proof)
    return {reject(Check::kMalformed, parsed.error->what + " at byte " + std::to_string(parsed.error->offset)), {}};
  return verify(*parsed.proof, expected, policy, cache);
}

namespace {

// What the stages share: the inputs, then what each stage derives for the later ones. A bundle's
// segment is checked by the same stages on a StarkProof that holds its parts (its heights, main
// root and terminal sums from the bundle's head, its body), with the segment AIR, its publics and
// its preprocessed columns.
struct Context {
  const spec::StarkProof& proof;
  const Expected& expected;
  const spec::SecurityPolicy& policy;
  Cache& cache;
  const AirLayout& layout;
  std::vector<Fp3> publics{};                 // the AIR's publics, spec order
  std::function<Preprocessed()> derive{};     // the verifier's own preprocessed columns
  bool segment = false;                       // a bundle's segment: the bundle checks the statement, sums and bound
  // A bundle's segments share one program root (protocol:segments:vk), found by the first that needs it.
  std::optional<spec::Digest>* shared_root = nullptr;
  std::optional<spec::Digest> program_root{};  // the program tree's (protocol:stark:program), once found
  const size_t T = layout.tables.size();
  const unsigned lb = proof.options.log_blowup;
  // check_shapes
  std::optional<Preprocessed> pre{};  // when the cache had to be rebuilt
  core::FriShape fri_shape{};
  std::vector<size_t> ood_start{};  // each table's first opened value
  spec::SecurityShape shape{};
  spec::StarkSecurity security{};
  // the transcript, replayed after check_shapes
  Replay rp{};
  // check_fri_layers, check_query_openings
  std::optional<core::FriVerifier<Fp3>> fri{};
  std::vector<std::array<MixedRows, 4>> opened{};  // per query: the main, aux, quotient and program rows
};
using Result = std::optional<Rejection>;

// spec: protocol:stark:verify_options
Result check_options(const Context& c) {
  if (auto why = spec::check_options(c.proof.options)) return reject(Check::kOptionsInvalid, *why);
  return std::nullopt;
}

// spec: protocol:stark:verify_statement — the proof's statement is the one we were given (a
// proof's or a bundle's: its digest, exit code and whole output).
template <class S>
Result check_claim(const S& st, const Expected& e) {
  const spec::Digest digest = e.key ? e.key->program_digest : program_digest(*e.image);
  if (st.program_digest != digest)
    return reject(Check::kProgramDigest, "the proof is for another program (digest differs)", {}, hex(digest),
                  hex(st.program_digest));
  if (st.exit_code != e.exit_code)
    return reject(Check::kExitCode,
                  "the proof claims exit code " + std::to_string(st.exit_code) + ", expected " + std::to_string(e.exit_code),
                  {}, std::to_string(e.exit_code), std::to_string(st.exit_code));
  if (e.output && st.output != *e.output)
    return reject(Check::kOutput,
                  "the proof claims another public output (" + std::to_string(st.output.size()) + " bytes, expected " +
                      std::to_string(e.output->size()) + ")",
                  {}, output_str(*e.output, st.output), output_str(st.output, *e.output));
  return std::nullopt;
}
Result check_statement(const Context& c) { return check_claim(c.proof.statement, c.expected); }

// spec: protocol:stark:key — a key fits this verifier: one height per program table, and a
// program root for the proof's blowup.
Result check_key(const Expected& e, const AirLayout& layout, unsigned log_blowup) {
  if (!e.key) return std::nullopt;
  size_t tables = 0;
  for (const auto& tl : layout.tables) tables += !tl.program.empty();
  if (e.key->log_heights.size() != tables)
    return reject(Check::kKey, "the key does not fit this verifier (another program tree)", {}, std::to_string(tables) + " tables",
                  std::to_string(e.key->log_heights.size()) + " tables");
  // the fixed tables' heights are the verifier's own, whatever the key says (the program tables
  // of both AIRs, by name: the same tables in the same order)
  const Preprocessed derived = preprocessed(*e.key, {});
  const AirLayout& whole = air_layout();
  for (size_t t = 0, k = 0; t < layout.tables.size(); ++t) {
    if (layout.tables[t].program.empty()) continue;
    const std::string& name = layout.tables[t].name;
    const unsigned want = *derived.log_heights[whole.table_index(name)], got = e.key->log_heights[k++];
    if (want != got)
      return reject(Check::kKey, "the key's table " + name + " has 2^" + std::to_string(got) +
                                     " rows, the verifier derives 2^" + std::to_string(want),
                    {.table = name}, pow2(want), pow2(got));
  }
  if (!e.key->root(log_blowup))
    return reject(Check::kKey, "the key has no program root for blowup 2^" + std::to_string(log_blowup));
  return std::nullopt;
}
uint64_t entry_of(const Expected& e) { return e.key ? e.key->entry : e.image->entry; }

// spec: protocol:stark:verify_shapes — heights derived or bounded, then every count.
Result check_shapes(Context& c) {
  const spec::StarkProof& proof = c.proof;
  const spec::Statement& st = proof.statement;
  const AirLayout& layout = c.layout;
  const size_t T = c.T;
  Cache& cache = c.cache;
  if (st.log_heights.size() != T)
    return reject(Check::kHeightCount, "wrong number of table heights", {}, std::to_string(T),
                  std::to_string(st.log_heights.size()));
  if (st.output.size() > (size_t{1} << spec::kMaxLogHeight))
    return reject(Check::kOutputTooLong, "the claimed output is longer than the output table can be (2^24 bytes)",
                  {.table = "output"}, "at most " + pow2(spec::kMaxLogHeight) + " bytes", std::to_string(st.output.size()));
  // spec: protocol:stark:preprocessed — the verifier's own columns (cached per output).
  // a key's heights and root are its own: the cache keeps which key (or the ELF) it was built from
  const std::optional<spec::ProgramKey> source = c.expected.key ? std::optional(*c.expected.key) : std::nullopt;
  if (!cache.valid || cache.output != st.output || cache.digest != st.program_digest || cache.key != source) {
    if (cache.digest != st.program_digest || cache.key != source) cache.program_roots.clear();
    cache.key = source;
    c.pre = c.derive();
    cache.valid = false;
    cache.digest = st.program_digest;
    cache.output = st.output;
    cache.log_heights_derived = c.pre->log_heights;
    cache.log_heights.clear();
  }
  for (size_t t = 0; t < T; ++t) {
    const unsigned lh = st.log_heights[t];
    const auto& name = layout.tables[t].name;
    const auto& derived = cache.log_heights_derived[t];
    if (derived && *derived != lh)
      return reject(Check::kHeightDerived,
                    "table " + name + " has height 2^" + std::to_string(lh) + ", the verifier derives 2^" +
                        std::to_string(*derived),
                    {.table = name}, pow2(*derived), pow2(lh));
    if (lh > spec::kMaxLogHeight)
      return reject(Check::kTooTall, "table " + name + " is taller than 2^24 rows", {.table = name},
                    "at most " + pow2(spec::kMaxLogHeight), pow2(lh));
    if (lh < spec::kMinLogHeight)
      return reject(Check::kTooShort, "table " + name + " is shorter than 2^5 rows", {.table = name},
                    "at least " + pow2(spec::kMinLogHeight), pow2(lh));
    if (layout.tables[t].chunks > (size_t{1} << c.lb))
      return reject(Check::kBlowupTooSmall, "the blowup is too small for table " + name, {.table = name},
                    "at least " + std::to_string(layout.tables[t].chunks), std::to_string(size_t{1} << c.lb));
  }
  // spec: protocol:stark:interaction_bound — LogUp needs the bounded multiplicities' total below p
  // (a bundle's: over every segment, checked by the bundle).
  double total = 0;
  for (size_t t = 0; t < T; ++t)
    for (const auto& in : layout.tables[t].interactions) {
      const double h = std::ldexp(1.0, st.log_heights[t]);
      if (std::isinf(in.mult_bound)) {
        if (in.send)
          return reject(Check::kUnboundedSend, "interaction " + in.id + " sends with an unbounded multiplicity",
                        {.table = layout.tables[t].name});
        continue;
      }
      total += in.mult_bound * h;
    }
  if (!c.segment && total >= static_cast<double>(Fp::P))
    return reject(Check::kInteractionBound, "bus interactions could reach p", {}, "below p (about 2^64)",
                  "about 2^" + std::to_string(std::log2(total)));
  c.fri_shape = core::fri_shape(proof.options, st.log_heights);
  const core::FriShape& fs = c.fri_shape;
  if (fs.rounds < 1) return reject(Check::kNothingToFold, "nothing to fold", {}, "at least 1 fold", "0");
  size_t ood_count = 0;
  for (size_t t = 0; t < T; ++t) {
    const auto& tl = layout.tables[t];
    c.ood_start.push_back(ood_count);
    ood_count += 2 * tl.columns + 2 * tl.aux_width() + tl.quotient_width();
  }
  auto count_check = [](Check check, const char* what, size_t expected, size_t found) -> Result {
    if (expected == found) return std::nullopt;
    return reject(check, what, {}, std::to_string(expected), std::to_string(found));
  };
  if (auto r = count_check(Check::kTerminalSumCount, "wrong number of terminal sums", T, proof.terminal_sums.size()))
    return r;
  if (auto r = count_check(Check::kOodCount, "wrong number of opened values", ood_count, proof.ood.size())) return r;
  if (auto r = count_check(Check::kFriRootCount, "wrong number of FRI layer roots", fs.rounds - 1, proof.fri_roots.size()))
    return r;
  if (auto r = count_check(Check::kFriOpeningCount, "wrong number of FRI layer openings", fs.rounds - 1,
                           proof.fri_openings.size()))
    return r;
  if (auto r = count_check(Check::kFinalLength, "final polynomial has the wrong length", size_t{1} << fs.log_final,
                           proof.final_poly.size()))
    return r;
  if (auto r = count_check(Check::kQueryCount, "wrong number of query openings", proof.options.num_queries,
                           proof.queries.size()))
    return r;
  for (size_t t = 0; t < T; ++t)
    if (!canonical(proof.terminal_sums[t]))
      return reject(Check::kNonCanonicalTerminalSum, "terminal sum not canonical", {.table = layout.tables[t].name}, {},
                    str(proof.terminal_sums[t]));
  for (size_t k = 0, t = 0; k < proof.ood.size(); ++k) {
    while (t + 1 < T && c.ood_start[t + 1] <= k) ++t;
    if (!canonical(proof.ood[k]))
      return reject(Check::kNonCanonicalOod, "opened value not canonical", {.table = layout.tables[t].name}, {},
                    str(proof.ood[k]));
  }
  for (const auto& coefficient : proof.final_poly)
    if (!canonical(coefficient))
      return reject(Check::kNonCanonicalFinal, "final coefficient not canonical", {}, {}, str(coefficient));
  c.shape = layout.security_shape(st.log_heights);
  c.security = spec::stark_security(proof.options, c.shape);
  return std::nullopt;
}

// spec: protocol:stark:policy — the caller's floor, before any hash.
Result check_security(const Context& c) {
  const auto why = spec::check_policy(c.policy, c.security);
  if (!why) return std::nullopt;
  const bool provable = c.policy.measure == spec::SecurityPolicy::Measure::kProvable;
  char found[48];
  std::snprintf(found, sizeof found, "%.1f %s bits", provable ? c.security.provable_bits : c.security.conjectured_bits,
                spec::measure_name(c.policy.measure));
  return reject(Check::kSecurityPolicy, *why, {}, c.policy.str(), found);
}

// spec: protocol:stark:verify_logup
Result check_logup(const Context& c) {
  Fp3 sum;
  for (size_t t = 0; t < c.T; ++t) {
    const Fp3 s = from_raw(c.proof.terminal_sums[t]);
    const std::string& name = c.layout.tables[t].name;
    if (c.layout.tables[t].interactions.empty() && s != Fp3{})
      return reject(Check::kNonzeroSumWithoutInteractions, "table " + name + " has no interactions but a nonzero sum",
                    {.table = name}, str(Fp3{}), str(s));
    sum = sum + s;
  }
  if (sum != Fp3{})
    return reject(Check::kUnbalanced, "the tables' terminal sums do not add up to zero (a bus is unbalanced)", {},
                  str(Fp3{}), str(sum));
  return std::nullopt;
}

// spec: protocol:stark:verify_ood — per table, the combined constraints at ζ equal Z_H(ζ)
// times the quotient, from the spec's own expressions.
Result check_ood_constraints(const Context& c) {
  const spec::Statement& st = c.proof.statement;
  const Fp3 &alpha = c.rp.alpha, &zeta = c.rp.zeta;
  const std::vector<Fp3>& publics3 = c.publics;
  for (size_t t = 0; t < c.T; ++t) {
    const auto& tl = c.layout.tables[t];
    size_t k = c.ood_start[t];
    const uint64_t h = uint64_t{1} << st.log_heights[t];
    auto v = [&](size_t i) { return from_raw(c.proof.ood[i]); };
    const std::vector<Fp3> powers = combination_powers(alpha, tl.combined_constraints());
    std::vector<Fp3> local(tl.columns), next(tl.columns), scratch;
    for (size_t col = 0; col < tl.columns; ++col) local[col] = v(k + col), next[col] = v(k + tl.columns + col);
    k += 2 * tl.columns;
    const size_t na = tl.aux_width() / 3;
    std::vector<Fp3> aux_local(na), aux_next(na);
    for (size_t j = 0; j < na; ++j) {
      aux_local[j] = recombine(v(k + 3 * j), v(k + 3 * j + 1), v(k + 3 * j + 2));
      aux_next[j] =
          recombine(v(k + tl.aux_width() + 3 * j), v(k + tl.aux_width() + 3 * j + 1), v(k + tl.aux_width() + 3 * j + 2));
    }
    k += 2 * tl.aux_width();
    Fp3 q;
    const Fp3 zeta_h = zeta.pow(h);
    Fp3 zk = embed(kOne);
    for (size_t j = 0; j < tl.chunks; ++j, zk = zk * zeta_h)
      q = q + zk * recombine(v(k + 3 * j), v(k + 3 * j + 1), v(k + 3 * j + 2));
    const Fp w_inv = root_of_unity(st.log_heights[t]).inverse();
    const Fp3 zh = zeta_h - embed(kOne);
    const Fp h_inv = Fp::from_u64(h).inverse();
    const Fp3 first = scale(zh * (zeta - embed(kOne)).inverse(), h_inv);
    const Fp3 last = scale(zh * (zeta - embed(w_inv)).inverse(), h_inv * w_inv);
    const Fp3 transition = zeta - embed(w_inv);
    const Fp3 combined = combine(tl, local.data(), next.data(), aux_local.data(), aux_next.data(), publics3.data(),
                                 c.rp.logup, from_raw(c.proof.terminal_sums[t]), powers, first, last, transition, scratch);
    if (combined != zh * q)
      return reject(Check::kConstraintsAtZeta, "table " + tl.name + ": the constraints at ζ do not match the quotient",
                    {.table = tl.name}, str(zh * q), str(combined));
  }
  return std::nullopt;
}

// spec: protocol:stark:verify_queries — the nonce, then each committed FRI layer's batched
// opening, then each query's mixed openings of the main, aux and quotient trees.
Result check_pow(const Context& c) {
  if (!c.rp.pow_ok)
    return reject(Check::kPow, "proof-of-work nonce invalid", {},
                  std::to_string(c.proof.options.pow_bits) + " leading zero bits", std::to_string(c.proof.pow_nonce));
  return std::nullopt;
}

Check fri_check(core::FriRejection::Kind k) {
  using K = core::FriRejection::Kind;
  switch (k) {
    case K::kLayerCount: return Check::kFriOpeningCount;
    case K::kRowCount: return Check::kFriRowCount;
    case K::kRowWidth: return Check::kFriRowWidth;
    case K::kNonCanonical: return Check::kNonCanonicalFriRow;
    case K::kMerkle: return Check::kFriLayerMerkle;
    case K::kFold: return Check::kFriFold;
    case K::kFinal: return Check::kFriFinal;
    case K::kPow: return Check::kPow;  // FriVerifier never gives it (the pow stage comes first)
  }
  return Check::kFriFold;
}
Rejection fri_reject(core::FriRejection e) {
  using K = core::FriRejection::Kind;
  Where at;
  if (e.kind != K::kLayerCount) at.layer = e.layer;
  if (e.kind == K::kFold || e.kind == K::kFinal) at.query = e.query;
  return reject(fri_check(e.kind), std::move(e.what), at, std::move(e.expected), std::move(e.found));
}

Result check_fri_layers(Context& c) {
  c.fri.emplace(c.fri_shape, c.rp.fri, c.rp.queries);
  auto merkle = [&](unsigned l, unsigned log_leaves, const std::vector<size_t>& leaves, const std::vector<Row>& rows,
                    const std::vector<Digest>& path) -> std::optional<std::string> {
    if (auto m = merkle_verify_batch(c.proof.fri_roots[l - 1], log_leaves, leaves, rows, path)) return m->what;
    return std::nullopt;
  };
  if (auto e = c.fri->check_layers(c.proof.fri_openings, merkle)) return fri_reject(std::move(*e));
  return std::nullopt;
}

// spec: protocol:stark:program — the program root: the key's, or the verifier's own from the
// ELF (kept in the cache per blowup, and shared by a bundle's segments).
const spec::Digest& program_root_of(Context& c) {
  if (c.program_root) return *c.program_root;
  if (c.shared_root && *c.shared_root) return *(c.program_root = **c.shared_root);
  if (c.expected.key) {
    c.program_root = *c.expected.key->root(c.lb);  // check_key found it
  } else {
    for (const auto& [lb, d] : c.cache.program_roots)
      if (lb == c.lb) c.program_root = d;
    if (!c.program_root) {
      if (!c.pre) c.pre = c.derive();
      c.program_root = program_root(c.layout, *c.pre, c.lb);
      c.cache.program_roots.emplace_back(c.lb, *c.program_root);
    }
  }
  if (c.shared_root) *c.shared_root = c.program_root;
  return *c.program_root;
}

Result check_query_openings(Context& c) {
  std::vector<MixedShape> main_shapes, aux_shapes, q_shapes;
  for (size_t t = 0; t < c.T; ++t) {
    const unsigned ln = c.proof.statement.log_heights[t] + c.lb;
    main_shapes.push_back({ln, c.layout.tables[t].main.size()});
    aux_shapes.push_back({ln, c.layout.tables[t].aux_width()});
    q_shapes.push_back({ln, c.layout.tables[t].quotient_width()});
  }
  const std::vector<size_t>& queries = c.rp.queries;
  c.opened.resize(queries.size());
  for (size_t qi = 0; qi < queries.size(); ++qi) {
    const size_t q = queries[qi];
    const auto& qo = c.proof.queries[qi];
    const std::string at = std::to_string(qi) + ": ";
    if (auto e = mixed_verify(c.proof.main_root, main_shapes, q, qo.main, &c.opened[qi][0]))
      return reject(Check::kMerkleMain, "main trace, query " + at + *e, {.query = qi});
    if (auto e = mixed_verify(c.proof.aux_root, aux_shapes, q, qo.aux, &c.opened[qi][1]))
      return reject(Check::kMerkleAux, "auxiliary trace, query " + at + *e, {.query = qi});
    if (auto e = mixed_verify(c.proof.quotient_root, q_shapes, q, qo.quotient, &c.opened[qi][2]))
      return reject(Check::kMerkleQuotient, "quotient, query " + at + *e, {.query = qi});
  }
  // spec: protocol:stark:program — the program tree last: its root may cost the verifier an LDE.
  std::vector<MixedShape> p_shapes;
  unsigned p_log = 0;
  for (size_t t = 0; t < c.T; ++t) {
    const auto& tl = c.layout.tables[t];
    p_shapes.push_back({c.proof.statement.log_heights[t] + c.lb, tl.program.size()});
    if (!tl.program.empty()) p_log = std::max(p_log, p_shapes.back().log_height);
  }
  const spec::Digest& root = program_root_of(c);
  for (size_t qi = 0; qi < queries.size(); ++qi) {
    const size_t leaf = queries[qi] % (size_t{1} << (p_log - 1));
    if (auto e = mixed_verify(root, p_shapes, leaf, c.proof.queries[qi].program, &c.opened[qi][3]))
      return reject(Check::kMerkleProgram, "program tree, query " + std::to_string(qi) + ": " + *e, {.query = qi});
  }
  return std::nullopt;
}

// The LDE of the preprocessed columns outside the program tree (the output table's, regs' iv and
// ev), the verifier's own (after every Merkle check, so that a forged opening costs no LDE).
void extend_preprocessed(Context& c) {
  const spec::Statement& st = c.proof.statement;
  Cache& cache = c.cache;
  if (cache.valid && cache.log_heights == st.log_heights && cache.log_blowup == c.lb) return;
  if (!c.pre) c.pre = c.derive();
  cache.pre_lde.assign(c.T, {});
  for (size_t t = 0; t < c.T; ++t) {
    const auto& tl = c.layout.tables[t];
    for (size_t k = 0; k < tl.pre.size(); ++k) {
      if (std::find(tl.program.begin(), tl.program.end(), tl.pre[k]) != tl.program.end()) continue;
      std::vector<uint64_t> v;
      for (Fp x : coset_lde(c.pre->columns[t][k], 1u << c.lb, core::lde_shift<Fp>())) v.push_back(x.value());
      cache.pre_lde[t].push_back(std::move(v));
    }
  }
  cache.log_heights = st.log_heights;
  cache.log_blowup = c.lb;
  cache.valid = true;
}

// spec: protocol:stark:verify_deep — D_h at the positions query qi reaches: (log height,
// position) → value.
std::map<std::pair<unsigned, size_t>, Fp3> deep_values(const Context& c, size_t qi, const std::vector<Fp3>& gamma_start) {
  const spec::StarkProof& proof = c.proof;
  const Fp3 &zeta = c.rp.zeta, &gamma = c.rp.gamma;
  const unsigned log_max = c.fri_shape.log_max;
  const size_t q = c.rp.queries[qi], half0 = c.fri_shape.half(0);
  const MixedRows &main_rows = c.opened[qi][0], &aux_rows = c.opened[qi][1], &q_rows = c.opened[qi][2],
                  &p_rows = c.opened[qi][3];
  unsigned p_log = 0;  // the program tree's tallest matrix
  for (size_t t = 0; t < c.T; ++t)
    if (!c.layout.tables[t].program.empty()) p_log = std::max(p_log, proof.statement.log_heights[t] + c.lb);
  std::map<std::pair<unsigned, size_t>, Fp3> deep;
  for (size_t t = 0; t < c.T; ++t) {
    const auto& tl = c.layout.tables[t];
    const unsigned log_h = proof.statement.log_heights[t];
    const size_t n = size_t{1} << (log_h + c.lb);
    const bool tallest = log_h == log_max;
    const Fp3 zeta_next = scale(zeta, root_of_unity(log_h));
    for (size_t copy = 0; copy < (tallest ? 2u : 1u); ++copy) {
      const size_t pos = tallest ? q + copy * half0 : q % n;
      const Fp x = core::lde_shift<Fp>() * root_of_unity(log_h + c.lb).pow(pos);
      const Fp3 inv_z = (embed(x) - zeta).inverse(), inv_zn = (embed(x) - zeta_next).inverse();
      // The program tree's opened row for pos: its tallest matrices give rows leaf and leaf + n/2
      // (the copy is pos's half), the others one row.
      const size_t p_copy = log_h + c.lb == p_log ? pos >> (p_log - 1) : 0;
      std::vector<Fp> f(tl.columns);
      size_t pi = 0, mi = 0, gi = 0;
      for (size_t col = 0; col < tl.columns; ++col) {
        if (gi < tl.program.size() && tl.program[gi] == col) f[col] = p_rows.rows[t][p_copy * tl.program.size() + gi++];
        else if (tl.is_pre[col]) f[col] = Fp::from_u64(c.cache.pre_lde[t][pi++][pos]);
        else f[col] = main_rows.rows[t][copy * tl.main.size() + mi++];
      }
      Fp3 acc, power = gamma_start[t];
      size_t k = c.ood_start[t];
      auto term = [&](Fp value, const Fp3& inv) {
        acc = acc + power * (embed(value) - from_raw(proof.ood[k++])) * inv;
        power = power * gamma;
      };
      for (int s = 0; s < 2; ++s)
        for (size_t col = 0; col < tl.columns; ++col) term(f[col], s ? inv_zn : inv_z);
      for (int s = 0; s < 2; ++s)
        for (size_t col = 0; col < tl.aux_width(); ++col)
          term(aux_rows.rows[t][copy * tl.aux_width() + col], s ? inv_zn : inv_z);
      for (size_t col = 0; col < tl.quotient_width(); ++col)
        term(q_rows.rows[t][copy * tl.quotient_width() + col], inv_z);
      deep[{log_h, pos}] = deep[{log_h, pos}] + acc;
    }
  }
  return deep;
}

// spec: protocol:stark:verify_fri — each query's DEEP values folded down the layers.
Result check_deep_and_fri(const Context& c) {
  std::vector<Fp3> gamma_start(c.T);  // the power of γ of each table's first opened value
  Fp3 power = embed(kOne);
  for (size_t t = 0; t < c.T; ++t) {
    gamma_start[t] = power;
    const auto& tl = c.layout.tables[t];
    for (size_t k = 0; k < 2 * tl.columns + 2 * tl.aux_width() + tl.quotient_width(); ++k) power = power * c.rp.gamma;
  }
  for (size_t qi = 0; qi < c.rp.queries.size(); ++qi) {
    const auto deep = deep_values(c, qi, gamma_start);
    if (auto e = c.fri->check_query(qi, c.proof.final_poly, [&](unsigned log_h, size_t pos) { return deep.at({log_h, pos}); }))
      return fri_reject(std::move(*e));
  }
  return std::nullopt;
}

}  // namespace

// The stages in protocol order (spec/protocol.md §8): every shape before any hash, every Merkle
// check before the verifier's own LDE.
VerifyResult verify(const spec::StarkProof& proof, const Expected& expected, const spec::SecurityPolicy& policy,
                    Cache* cache) {
  Cache local_cache;
  Context c{proof, expected, policy, cache ? *cache : local_cache, air_layout()};
  for (const std::string& name : c.layout.publics)
    c.publics.push_back(embed(Fp::from_u64(name == "exit_code" ? proof.statement.exit_code
                                           : name == "entry"   ? entry_of(expected)
                                                               : 0)));
  c.derive = [&] {
    return expected.key ? preprocessed(*expected.key, proof.statement.output)
                        : preprocessed(*expected.image, proof.statement.output);
  };
  Result r;
  if ((r = check_options(c)) || (r = check_statement(c)) || (r = check_key(expected, c.layout, c.lb)) ||
      (r = check_shapes(c)))
    return {r, {}};
  if ((r = check_security(c))) return {r, c.security, c.shape};
  c.rp = replay(proof, nullptr);  // protocol:stark:transcript
  if ((r = check_logup(c)) || (r = check_ood_constraints(c)) || (r = check_pow(c)) || (r = check_fri_layers(c)) ||
      (r = check_query_openings(c)))
    return {r, {}};
  extend_preprocessed(c);
  if ((r = check_deep_and_fri(c))) return {r, {}};
  return {std::nullopt, c.security, c.shape};
}

// spec: protocol:segments:verify — the bundle's statement and cut, every segment's shapes (§8's,
// on the segment AIR), the interaction bound and the security over the bundle, phase 1 replayed,
// the one LogUp sum, then each segment's phase 2 as §8 checks a proof from its aux root on.
BundleVerifyResult verify_bundle(const spec::BundleProof& bundle, const Expected& expected,
                                 const spec::SecurityPolicy& policy, uint64_t max_cycles) {
  using R = BundleVerifyResult;
  const spec::BundleStatement& st = bundle.statement;
  const AirLayout& layout = air_layout(spec::air::Mode::kSegmented);
  const size_t n = st.segments(), T = layout.tables.size();
  auto at = [](Rejection r, size_t s) { return R{std::move(r), s, {}}; };
  // spec: protocol:stark:verify_options, protocol:stark:verify_statement
  if (auto why = spec::check_options(bundle.options)) return {reject(Check::kOptionsInvalid, *why), {}, {}};
  if (auto r = check_claim(st, expected)) return {r, {}, {}};
  if (auto r = check_key(expected, layout, bundle.options.log_blowup)) return {r, {}, {}};
  // spec: protocol:segments:boundary, protocol:segments:cut
  if (auto why = spec::check_bundle_statement(st, entry_of(expected), max_cycles))
    return {reject(Check::kBundleStatement, *why), {}, {}};
  // spec: protocol:segments:shapes
  if (bundle.main_roots.size() != n || bundle.terminal_sums.size() != n || bundle.segments.size() != n)
    return {reject(Check::kSegmentCount, "the bundle's roots, sums and segment proofs are not one per segment", {},
                   std::to_string(n), std::to_string(bundle.segments.size())),
            {}, {}};
  const size_t cpu = layout.table_index("cpu");
  for (size_t s = 0; s < n; ++s) {
    if (st.log_heights[s].size() != T || bundle.terminal_sums[s].size() != T)
      return at(reject(Check::kHeightCount, "wrong number of table heights or terminal sums", {}, std::to_string(T),
                       std::to_string(st.log_heights[s].size())),
                s);
    const unsigned h = st.log_heights[s][cpu];
    if (s + 1 < n ? h != st.log_segment : h > st.log_segment)
      return at(reject(Check::kSegmentHeight,
                       "segment " + std::to_string(s) + "'s cpu table has 2^" + std::to_string(h) + " rows; segments have 2^" +
                           std::to_string(st.log_segment) + " cycles",
                       {.table = "cpu"}, pow2(st.log_segment), pow2(h)),
                s);
  }
  // Every segment as a proof of its own: its heights, root and sums from the head, its body.
  std::vector<spec::StarkProof> views(n);
  for (size_t s = 0; s < n; ++s) {
    spec::StarkProof& v = views[s];
    const spec::SegmentProof& b = bundle.segments[s];
    const spec::BoundaryState &in = st.boundaries[s], &end = st.boundaries[s + 1];
    v.options = bundle.options;
    v.statement = {st.program_digest, st.exit_code,
                   std::vector<uint8_t>(st.output.begin() + static_cast<long>(in.opos),
                                        st.output.begin() + static_cast<long>(end.opos)),
                   st.log_heights[s]};
    v.main_root = bundle.main_roots[s];
    v.terminal_sums = bundle.terminal_sums[s];
    v.aux_root = b.aux_root, v.quotient_root = b.quotient_root, v.ood = b.ood, v.fri_roots = b.fri_roots;
    v.final_poly = b.final_poly, v.pow_nonce = b.pow_nonce, v.queries = b.queries, v.fri_openings = b.fri_openings;
  }
  std::vector<Cache> caches(n);
  std::optional<spec::Digest> shared_root;  // protocol:segments:vk
  std::vector<std::unique_ptr<Context>> ctx;
  double bound = 0;
  for (size_t s = 0; s < n; ++s) {
    auto& c = *ctx.emplace_back(std::make_unique<Context>(Context{views[s], expected, policy, caches[s], layout}));
    c.segment = true;
    c.shared_root = &shared_root;
    const auto publics = spec::segment_publics(st.log_segment, st.exit_code, st.boundaries, st.chunks, s);
    for (const std::string& name : layout.publics) {
      const auto it = std::find_if(publics.begin(), publics.end(), [&](const auto& p) { return p.first == name; });
      ZKRV_ASSERT(it != publics.end(), "segment_publics gives every public of the segment AIR");
      c.publics.push_back(embed(Fp::from_u64(it->second)));
    }
    c.derive = [&, s] { return segment_preprocessed(expected.image, expected.key, st, s); };
    if (auto r = check_shapes(c)) return at(std::move(*r), s);
    for (size_t t = 0; t < T; ++t)
      for (const auto& in : layout.tables[t].interactions)
        if (!std::isinf(in.mult_bound)) bound += in.mult_bound * std::ldexp(1.0, st.log_heights[s][t]);
  }
  // spec: protocol:segments:logup — the interaction bound over the whole bundle.
  if (bound >= static_cast<double>(Fp::P))
    return {reject(Check::kInteractionBound, "the bundle's bus interactions could reach p", {}, "below p (about 2^64)",
                   "about 2^" + std::to_string(std::log2(bound))),
            {}, {}};
  const spec::StarkSecurity security = core::bundle_security(bundle.options, st.log_heights);
  if (auto why = spec::check_policy(policy, security)) {
    const bool p = policy.measure == spec::SecurityPolicy::Measure::kProvable;
    char found[48];
    std::snprintf(found, sizeof found, "%.1f %s bits", p ? security.provable_bits : security.conjectured_bits,
                  spec::measure_name(policy.measure));
    return {reject(Check::kSecurityPolicy, *why, {}, policy.str(), found), {}, security};
  }
  // spec: protocol:segments:transcript — phase 1.
  core::BundleTranscript<LoggedTranscript> bt(nullptr);
  bt.observe_statement(bundle.options, st);
  for (const spec::Digest& root : bundle.main_roots) bt.observe_main_root(root);
  const core::LogupDraw<Fp3> draw = bt.sample_logup();
  bt.observe_logup_sums(bundle.terminal_sums);
  // spec: protocol:segments:logup — one sum over every segment's tables.
  Fp3 sum;
  for (size_t s = 0; s < n; ++s)
    for (size_t t = 0; t < T; ++t) {
      const Fp3 x = from_raw(bundle.terminal_sums[s][t]);
      const std::string& name = layout.tables[t].name;
      if (layout.tables[t].interactions.empty() && x != Fp3{})
        return at(reject(Check::kNonzeroSumWithoutInteractions, "table " + name + " has no interactions but a nonzero sum",
                         {.table = name}, str(Fp3{}), str(x)),
                  s);
      sum = sum + x;
    }
  if (sum != Fp3{})
    return {reject(Check::kUnbalanced, "the segments' terminal sums do not add up to zero (a bus is unbalanced)", {},
                   str(Fp3{}), str(sum)),
            {}, security};
  // Phase 2, segment by segment.
  for (size_t s = 0; s < n; ++s) {
    Context& c = *ctx[s];
    auto tr = bt.segment(s);
    tr.observe_aux_root(views[s].aux_root);
    c.rp.logup = {draw.alpha, draw.beta, layout.buses * s};
    replay_rest(tr, views[s], c.rp);
    Result r;
    if ((r = check_ood_constraints(c)) || (r = check_pow(c)) || (r = check_fri_layers(c)) || (r = check_query_openings(c)))
      return at(std::move(*r), s);
    extend_preprocessed(c);
    if ((r = check_deep_and_fri(c))) return at(std::move(*r), s);
    ctx[s].reset();  // its LDE and openings
  }
  return {std::nullopt, {}, security};
}

BundleVerifyResult verify_bundle_bytes(std::span<const uint8_t> bytes, const Expected& expected,
                                       const spec::SecurityPolicy& policy, uint64_t max_cycles) {
  const auto parsed = spec::decode_bundle(bytes);
  if (!parsed.proof)
    return {reject(Check::kMalformed, parsed.error->what + " at byte " + std::to_string(parsed.error->offset)), {}, {}};
  return verify_bundle(*parsed.proof, expected, policy, max_cycles);
}

}  // namespace zkrv::ref::verify
