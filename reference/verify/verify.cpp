// The verifier, step by step in the order of spec/protocol.md §8 (protocol:stark:verify).
#include "reference/verify/verify.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>

#include "core/fri/fri.h"
#include "core/stark/transcript.h"
#include "reference/merkle/merkle.h"
#include "reference/merkle/mixed.h"
#include "reference/ntt/ntt.h"
#include "reference/stark/air.h"
#include "reference/transcript/transcript.h"

namespace zkrv::ref::verify {
namespace {

using namespace stark;
using Stage = Rejection::Stage;
const Fp kOne = Fp::from_u64(1);

VerifyResult reject(Stage s, std::string what) { return VerifyResult{Rejection{s, std::move(what)}, {}}; }

// The challenges of one proof, as the transcript gives them.
struct Replay {
  LogupChallenges logup;
  Fp3 alpha, zeta, gamma;
  std::vector<Fp> shifts;  // each table's LDE shift
  core::FriChallenges<Fp3> fri;
  bool pow_ok = false;
  std::vector<size_t> queries;
};

bool canonical(const spec::Fp3Raw& c) { return c[0] < Fp::P && c[1] < Fp::P && c[2] < Fp::P; }

}  // namespace

const char* stage_name(Stage s) {
  switch (s) {
    case Stage::kMalformed: return "malformed";
    case Stage::kOptions: return "options";
    case Stage::kStatement: return "statement";
    case Stage::kShape: return "shape";
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

// spec: protocol:stark:transcript — every absorb and squeeze, in protocol order. The proof's
// shapes must have been checked (verify does so first; transcript_log checks them itself).
static Replay replay(const spec::StarkProof& proof, TranscriptLog* log) {
  const spec::StarkOptions& o = proof.options;
  const spec::Statement& st = proof.statement;
  const core::FriShape shape = core::fri_shape(o, st.log_heights);
  Replay r;
  core::StarkTranscript<LoggedTranscript> tr(log);
  tr.observe_statement(o, st);
  tr.observe_main_root(proof.main_root);
  const core::LogupDraw<Fp3> draw = tr.sample_logup();
  r.logup = {draw.alpha, draw.beta};
  tr.observe_logup(proof.terminal_sums, proof.aux_root);
  r.alpha = tr.sample_constraint_alpha();
  tr.observe_quotient_root(proof.quotient_root);
  for (uint8_t lh : st.log_heights) r.shifts.push_back(core::lde_shift<Fp>(shape.log_max, lh));
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

VerifyResult verify_bytes(std::span<const uint8_t> bytes, const Expected& expected, Cache* cache) {
  const auto parsed = spec::decode_stark_proof(bytes);
  if (!parsed.proof)
    return reject(Stage::kMalformed, parsed.error->what + " at byte " + std::to_string(parsed.error->offset));
  return verify(*parsed.proof, expected, cache);
}

VerifyResult verify(const spec::StarkProof& proof, const Expected& expected, Cache* cache) {
  Cache local_cache;
  if (!cache) cache = &local_cache;
  const AirLayout& layout = air_layout();
  const size_t T = layout.tables.size();
  const spec::StarkOptions& o = proof.options;
  // spec: protocol:stark:verify_options
  if (auto why = spec::check_options(o)) return reject(Stage::kOptions, *why);
  const unsigned lb = o.log_blowup;
  const size_t blowup = size_t{1} << lb;

  // spec: protocol:stark:verify_statement — the proof's statement is the one we were given.
  const spec::Statement& st = proof.statement;
  if (st.program_digest != program_digest(*expected.image))
    return reject(Stage::kStatement, "the proof is for another program (digest differs)");
  if (st.exit_code != expected.exit_code)
    return reject(Stage::kStatement, "the proof claims exit code " + std::to_string(st.exit_code) + ", expected " +
                                         std::to_string(expected.exit_code));
  if (expected.output && st.output != *expected.output)
    return reject(Stage::kStatement, "the proof claims another public output (" + std::to_string(st.output.size()) +
                                         " bytes, expected " + std::to_string(expected.output->size()) + ")");

  // spec: protocol:stark:verify_shapes — heights derived or bounded, then every count.
  if (st.log_heights.size() != T) return reject(Stage::kShape, "wrong number of table heights");
  if (st.output.size() > (size_t{1} << spec::kMaxLogHeight))
    return reject(Stage::kShape, "the claimed output is longer than the output table can be (2^24 bytes)");
  // spec: protocol:stark:preprocessed — the verifier's own columns (cached per output).
  std::optional<Preprocessed> pre;
  if (!cache->valid || cache->output != st.output || cache->digest != st.program_digest) {
    pre = preprocessed(*expected.image, st.output);
    cache->valid = false;
    cache->digest = st.program_digest;
    cache->output = st.output;
    cache->log_heights_derived = pre->log_heights;
    cache->log_heights.clear();
  }
  for (size_t t = 0; t < T; ++t) {
    const unsigned lh = st.log_heights[t];
    const auto& name = layout.tables[t].name;
    const auto& derived = cache->log_heights_derived[t];
    if (derived && *derived != lh)
      return reject(Stage::kShape, "table " + name + " has height 2^" + std::to_string(lh) + ", the verifier derives 2^" +
                                       std::to_string(*derived));
    if (lh > spec::kMaxLogHeight) return reject(Stage::kShape, "table " + name + " is taller than 2^24 rows");
    if (layout.tables[t].chunks > blowup) return reject(Stage::kOptions, "the blowup is too small for table " + name);
  }
  // spec: protocol:stark:interaction_bound — LogUp needs the bounded multiplicities' total below p.
  double total = 0, count = 0;
  for (size_t t = 0; t < T; ++t)
    for (const auto& in : layout.tables[t].interactions) {
      const double h = std::ldexp(1.0, st.log_heights[t]);
      count += h;
      if (std::isinf(in.mult_bound)) {
        if (in.send) return reject(Stage::kShape, "interaction " + in.id + " sends with an unbounded multiplicity");
        continue;
      }
      total += in.mult_bound * h;
    }
  if (total >= static_cast<double>(Fp::P)) return reject(Stage::kShape, "bus interactions could reach p");
  const core::FriShape fri_shape = core::fri_shape(o, st.log_heights);
  const unsigned log_max = fri_shape.log_max, rounds = fri_shape.rounds;
  if (rounds < 1) return reject(Stage::kShape, "nothing to fold");
  size_t ood_count = 0, opened_columns = 0;
  for (size_t t = 0; t < T; ++t) {
    const auto& tl = layout.tables[t];
    ood_count += 2 * tl.columns + 2 * tl.aux_width() + tl.quotient_width();
    opened_columns += tl.columns + tl.aux_width() + tl.quotient_width();
  }
  if (proof.terminal_sums.size() != T) return reject(Stage::kShape, "wrong number of terminal sums");
  if (proof.ood.size() != ood_count) return reject(Stage::kShape, "wrong number of opened values");
  if (proof.fri_roots.size() != rounds - 1) return reject(Stage::kShape, "wrong number of FRI layer roots");
  if (proof.fri_openings.size() != rounds - 1) return reject(Stage::kShape, "wrong number of FRI layer openings");
  if (proof.final_poly.size() != size_t{1} << fri_shape.log_final) return reject(Stage::kShape, "final polynomial has the wrong length");
  if (proof.queries.size() != o.num_queries) return reject(Stage::kShape, "wrong number of query openings");
  for (const auto& c : proof.terminal_sums)
    if (!canonical(c)) return reject(Stage::kShape, "terminal sum not canonical");
  for (const auto& c : proof.ood)
    if (!canonical(c)) return reject(Stage::kShape, "opened value not canonical");
  for (const auto& c : proof.final_poly)
    if (!canonical(c)) return reject(Stage::kShape, "final coefficient not canonical");
  VerifyResult accepted;
  accepted.security = spec::stark_security(o, log_max, fri_shape.log_min, layout.constraint_count(), std::log2(std::max(count, 1.0)),
                                           layout.max_arity, opened_columns);

  // Replay the transcript (protocol:stark:transcript); then the checks, in protocol order.
  const Replay rp = replay(proof, nullptr);
  const LogupChallenges& ch = rp.logup;
  const Fp3 &alpha = rp.alpha, &zeta = rp.zeta, &gamma = rp.gamma;
  const std::vector<Fp>& shifts = rp.shifts;
  Fp3 sum;
  for (size_t t = 0; t < T; ++t) {
    const Fp3 s = from_raw(proof.terminal_sums[t]);
    if (layout.tables[t].interactions.empty() && s != Fp3{})
      return reject(Stage::kLogup, "table " + layout.tables[t].name + " has no interactions but a nonzero sum");
    sum = sum + s;
  }
  // spec: protocol:stark:verify_logup
  if (sum != Fp3{}) return reject(Stage::kLogup, "the tables' terminal sums do not add up to zero (a bus is unbalanced)");

  // spec: protocol:stark:verify_ood — per table, the combined constraints at ζ equal Z_H(ζ)
  // times the quotient, from the spec's own expressions.
  std::vector<Fp3> publics3;
  for (const std::string& name : layout.publics)
    publics3.push_back(embed(Fp::from_u64(name == "exit_code" ? st.exit_code : name == "entry" ? expected.image->entry : 0)));
  std::vector<size_t> ood_start(T);
  {
    size_t k = 0;
    for (size_t t = 0; t < T; ++t) {
      const auto& tl = layout.tables[t];
      ood_start[t] = k;
      const uint64_t h = uint64_t{1} << st.log_heights[t];
      auto v = [&](size_t i) { return from_raw(proof.ood[i]); };
      const std::vector<Fp3> powers = combination_powers(alpha, tl.combined_constraints());
      std::vector<Fp3> local(tl.columns), next(tl.columns), scratch;
      for (size_t c = 0; c < tl.columns; ++c) local[c] = v(k + c), next[c] = v(k + tl.columns + c);
      k += 2 * tl.columns;
      const size_t na = tl.aux_width() / 3;
      std::vector<Fp3> aux_local(na), aux_next(na);
      for (size_t j = 0; j < na; ++j) {
        aux_local[j] = recombine(v(k + 3 * j), v(k + 3 * j + 1), v(k + 3 * j + 2));
        aux_next[j] = recombine(v(k + tl.aux_width() + 3 * j), v(k + tl.aux_width() + 3 * j + 1),
                                v(k + tl.aux_width() + 3 * j + 2));
      }
      k += 2 * tl.aux_width();
      Fp3 q;
      const Fp3 zeta_h = zeta.pow(h);
      Fp3 zk = embed(kOne);
      for (size_t j = 0; j < tl.chunks; ++j, zk = zk * zeta_h)
        q = q + zk * recombine(v(k + 3 * j), v(k + 3 * j + 1), v(k + 3 * j + 2));
      k += tl.quotient_width();
      const Fp w_inv = root_of_unity(st.log_heights[t]).inverse();
      const Fp3 zh = zeta_h - embed(kOne);
      const Fp h_inv = Fp::from_u64(h).inverse();
      const Fp3 first = scale(zh * (zeta - embed(kOne)).inverse(), h_inv);
      const Fp3 last = scale(zh * (zeta - embed(w_inv)).inverse(), h_inv * w_inv);
      const Fp3 transition = zeta - embed(w_inv);
      const Fp3 c = combine(tl, local.data(), next.data(), aux_local.data(), aux_next.data(), publics3.data(), ch,
                            from_raw(proof.terminal_sums[t]), powers, first, last, transition, scratch);
      if (c != zh * q)
        return reject(Stage::kConstraints, "table " + tl.name + ": the constraints at ζ do not match the quotient");
    }
  }

  // spec: protocol:stark:verify_queries
  if (!rp.pow_ok) return reject(Stage::kPow, "proof-of-work nonce invalid");
  const std::vector<size_t>& queries = rp.queries;
  const size_t half0 = size_t{1} << (log_max + lb - 1);

  // The committed FRI layers' batched openings.
  core::FriVerifier<Fp3> fri(fri_shape, rp.fri, queries);
  if (auto e = fri.check_layers(proof.fri_openings, [&](unsigned l, unsigned log_leaves, const std::vector<size_t>& leaves,
                                                      const std::vector<Row>& rows, const std::vector<Digest>& path)
                                    -> std::optional<std::string> {
        if (auto m = merkle_verify_batch(proof.fri_roots[l - 1], log_leaves, leaves, rows, path)) return m->what;
        return std::nullopt;
      }))
    return reject(e->kind == core::FriRejection::Kind::kMerkle ? Stage::kMerkle : Stage::kShape, e->what);

  std::vector<MixedShape> main_shapes, aux_shapes, q_shapes;
  for (size_t t = 0; t < T; ++t) {
    const unsigned ln = st.log_heights[t] + lb;
    main_shapes.push_back({ln, layout.tables[t].main.size()});
    aux_shapes.push_back({ln, layout.tables[t].aux_width()});
    q_shapes.push_back({ln, layout.tables[t].quotient_width()});
  }
  std::vector<Fp3> gamma_start(T);
  {
    Fp3 power = embed(kOne);
    for (size_t t = 0; t < T; ++t) {
      gamma_start[t] = power;
      const auto& tl = layout.tables[t];
      for (size_t k = 0; k < 2 * tl.columns + 2 * tl.aux_width() + tl.quotient_width(); ++k) power = power * gamma;
    }
  }
  std::vector<std::array<MixedRows, 3>> opened(queries.size());
  for (size_t qi = 0; qi < queries.size(); ++qi) {
    const size_t q = queries[qi];
    const auto& qo = proof.queries[qi];
    if (auto e = mixed_verify(proof.main_root, main_shapes, q, qo.main, &opened[qi][0]))
      return reject(Stage::kMerkle, "main trace, query " + std::to_string(qi) + ": " + *e);
    if (auto e = mixed_verify(proof.aux_root, aux_shapes, q, qo.aux, &opened[qi][1]))
      return reject(Stage::kMerkle, "auxiliary trace, query " + std::to_string(qi) + ": " + *e);
    if (auto e = mixed_verify(proof.quotient_root, q_shapes, q, qo.quotient, &opened[qi][2]))
      return reject(Stage::kMerkle, "quotient, query " + std::to_string(qi) + ": " + *e);
  }
  // The preprocessed columns' LDE, the verifier's own (after every Merkle check, so that a
  // forged opening costs no LDE).
  if (!cache->valid || cache->log_heights != st.log_heights || cache->log_blowup != lb) {
    if (!pre) pre = preprocessed(*expected.image, st.output);
    cache->pre_lde.assign(T, {});
    for (size_t t = 0; t < T; ++t)
      for (const auto& col : pre->columns[t]) {
        std::vector<uint64_t> v;
        for (Fp x : coset_lde(col, static_cast<unsigned>(blowup), shifts[t])) v.push_back(x.value());
        cache->pre_lde[t].push_back(std::move(v));
      }
    cache->log_heights = st.log_heights;
    cache->log_blowup = lb;
    cache->valid = true;
  }
  for (size_t qi = 0; qi < queries.size(); ++qi) {
    const size_t q = queries[qi];
    const MixedRows& main_rows = opened[qi][0];
    const MixedRows& aux_rows = opened[qi][1];
    const MixedRows& q_rows = opened[qi][2];
    // spec: protocol:stark:verify_deep — D_h at the positions this query reaches.
    std::map<std::pair<unsigned, size_t>, Fp3> deep;  // (log height, position) -> value
    for (size_t t = 0; t < T; ++t) {
      const auto& tl = layout.tables[t];
      const unsigned log_h = st.log_heights[t];
      const size_t n = size_t{1} << (log_h + lb);
      const bool tallest = log_h == log_max;
      const Fp3 zeta_next = scale(zeta, root_of_unity(log_h));
      for (size_t copy = 0; copy < (tallest ? 2u : 1u); ++copy) {
        const size_t pos = tallest ? q + copy * half0 : q % n;
        const Fp x = shifts[t] * root_of_unity(log_h + lb).pow(pos);
        const Fp3 inv_z = (embed(x) - zeta).inverse(), inv_zn = (embed(x) - zeta_next).inverse();
        std::vector<Fp> f(tl.columns);
        size_t pi = 0, mi = 0;
        for (size_t c = 0; c < tl.columns; ++c) {
          if (tl.is_pre[c]) f[c] = Fp::from_u64(cache->pre_lde[t][pi++][pos]);
          else f[c] = main_rows.rows[t][copy * tl.main.size() + mi++];
        }
        Fp3 acc, power = gamma_start[t];
        size_t k = ood_start[t];
        auto term = [&](Fp value, const Fp3& inv) {
          acc = acc + power * (embed(value) - from_raw(proof.ood[k++])) * inv;
          power = power * gamma;
        };
        for (int s = 0; s < 2; ++s)
          for (size_t c = 0; c < tl.columns; ++c) term(f[c], s ? inv_zn : inv_z);
        for (int s = 0; s < 2; ++s)
          for (size_t c = 0; c < tl.aux_width(); ++c) term(aux_rows.rows[t][copy * tl.aux_width() + c], s ? inv_zn : inv_z);
        for (size_t c = 0; c < tl.quotient_width(); ++c) term(q_rows.rows[t][copy * tl.quotient_width() + c], inv_z);
        deep[{log_h, pos}] = deep[{log_h, pos}] + acc;
      }
    }
    // spec: protocol:stark:verify_fri — fold down the layers.
    if (auto e = fri.check_query(qi, proof.final_poly, [&](unsigned log_h, size_t pos) { return deep.at({log_h, pos}); }))
      return reject(Stage::kFri, e->what);
  }
  return accepted;
}

}  // namespace zkrv::ref::verify
