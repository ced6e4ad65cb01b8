// The reference prover, step by step in the order of spec/protocol.md §8 (protocol:stark:*).
#include "reference/prove/prove.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>

#include "core/fri/fri.h"
#include "core/stark/bundle_transcript.h"
#include "core/stark/transcript.h"
#include "reference/fri/fri.h"
#include "reference/merkle/merkle.h"
#include "reference/merkle/mixed.h"
#include "reference/ntt/ntt.h"
#include "reference/prove/hand_values.h"
#include "core/stark/stopwatch.h"
#include "reference/stark/air.h"
#include "reference/transcript/transcript.h"
#include "spec/air/embedded.h"

namespace zkrv::ref::prove {
namespace {

using namespace stark;
using core::Stopwatch;

const Fp kOne = Fp::from_u64(1);


struct TableData {
  unsigned log_h = 0;
  size_t h = 0, n = 0;  // trace height, LDE size
  Fp shift;
  std::vector<std::vector<Fp>> trace;  // spec columns
  std::vector<std::vector<Fp>> lde;    // spec columns on the LDE coset
  std::vector<std::vector<Fp>> aux;    // aux base columns on the trace domain
  Columns aux_lde;
  std::vector<std::vector<Fp>> q_coeffs;  // quotient chunk components: 3 per chunk, h coefficients each
  Columns q_lde;
  Fp3 terminal;
};


// value(z) = Σ_i e_i W_i for the interpolant of e on <ω_h> (protocol:ntt:ood_eval's formula).
std::vector<Fp3> barycentric_weights(unsigned log_h, const Fp3& z) {
  const size_t h = size_t{1} << log_h;
  const Fp w = root_of_unity(log_h);
  std::vector<Fp3> d(h);
  Fp x = kOne;
  for (size_t i = 0; i < h; ++i, x = x * w) d[i] = z - embed(x);
  batch_inverse(d);
  const Fp3 factor = scale(z.pow(h) - embed(kOne), Fp::from_u64(h).inverse());
  x = kOne;
  for (size_t i = 0; i < h; ++i, x = x * w) d[i] = scale(d[i], x) * factor;
  return d;
}
Fp3 at(const std::vector<Fp>& col, const std::vector<Fp3>& weights) {
  Fp3 s;
  for (size_t i = 0; i < col.size(); ++i) s = s + scale(weights[i], col[i]);
  return s;
}

// Evaluations of a polynomial given by its coefficients on shift·<ω_n>.
std::vector<Fp> coset_evals(std::vector<Fp> coeffs, size_t n, Fp shift) {
  coeffs.resize(n, Fp());
  Fp s = kOne;
  for (Fp& c : coeffs) c = c * s, s = s * shift;
  return ntt(coeffs);
}
}  // namespace

namespace {

// One AIR instance's proof, step by step: a whole run's (protocol:stark:*) or one segment's of a
// bundle (protocol:segments:*, whose main root, LogUp challenges and terminal sums pass through the
// bundle's phase 1 between commit_main and finish). The trees keep pointers into `td`, so a
// Prover never moves.
class Prover {
 public:
  Prover(const AirLayout& layout, const air::AirTrace& trace, air::AirTrace* consume, const spec::StarkOptions& options)
      : layout_(layout), options_(options), lb_(options.log_blowup), blowup_(size_t{1} << lb_), td_(layout.tables.size()) {
    const spec::air::Spec& sp = spec::air::embedded_spec(layout.mode);
    // spec: protocol:stark:statement — the tables' heights.
    for (size_t t = 0; t < layout.tables.size(); ++t) {
      const TableLayout& tl = layout.tables[t];
      const air::TraceTable& tt = trace.table(tl.name);
      TableData& d = td_[t];
      d.h = tt.height();
      d.log_h = spec::ntt_log2(d.h);
      if (d.log_h > spec::kMaxLogHeight) throw std::invalid_argument("table " + tl.name + " is taller than 2^24 rows");
      d.trace.assign(tl.columns, std::vector<Fp>(d.h));
      for (size_t c = 0; c < tl.columns; ++c) {
        const size_t k = tt.col(sp.tables[t].columns[c].name);
        for (size_t r = 0; r < d.h; ++r) d.trace[c][r] = Fp::from_u64(tt.rows[r][k]);
      }
      log_heights_.push_back(static_cast<uint8_t>(d.log_h));
      if (consume && tl.name != "output") std::vector<std::vector<uint64_t>>().swap(consume->table(tl.name).rows);
      if (tl.chunks > blowup_) throw std::invalid_argument("table " + tl.name + " needs a larger blowup");
    }
    for (const std::string& name : layout.publics) publics_.push_back(Fp::from_u64(trace.publics.at(name)));
  }
  Prover(const Prover&) = delete;
  Prover& operator=(const Prover&) = delete;
  const std::vector<uint8_t>& log_heights() const { return log_heights_; }
  const std::vector<Fp>& publics() const { return publics_; }

  // spec: protocol:stark:main — every column's LDE on its table's coset; the main columns in
  // one mixed-height tree.
  spec::Digest commit_main() {
    for (size_t t = 0; t < layout_.tables.size(); ++t) {
      TableData& d = td_[t];
      d.n = d.h * blowup_;
      d.shift = core::lde_shift<Fp>();
      for (const auto& col : d.trace) d.lde.push_back(coset_lde(col, static_cast<unsigned>(blowup_), d.shift));
    }
    std::vector<ColumnRefs> mats;
    for (size_t t = 0; t < td_.size(); ++t) {
      mats.emplace_back();
      for (size_t c : layout_.tables[t].main) mats.back().push_back(&td_[t].lde[c]);
    }
    main_tree_.emplace(mats);
    // spec: protocol:stark:program — the program's columns in their own tree, opened at the
    // queries; its root is the verifier's own (from the ELF or the key), never sent.
    mats.clear();
    for (size_t t = 0; t < td_.size(); ++t) {
      mats.emplace_back();
      for (size_t c : layout_.tables[t].program) mats.back().push_back(&td_[t].lde[c]);
    }
    program_tree_.emplace(mats);
    return main_tree_->root();
  }

  // spec: protocol:stark:logup — fraction columns and the running sum per table, committed;
  // returns every table's terminal sum.
  std::vector<spec::Fp3Raw> commit_aux(const LogupChallenges& ch) {
    ch_ = ch;
    for (size_t t = 0; t < layout_.tables.size(); ++t) build_aux(t);
    std::vector<spec::Fp3Raw> sums;
    for (const TableData& d : td_) sums.push_back(to_raw(d.terminal));
    std::vector<ColumnRefs> mats;
    for (const TableData& d : td_) mats.push_back(refs(d.aux_lde));
    aux_tree_.emplace(mats);
    return sums;
  }
  const spec::Digest& aux_root() const { return aux_tree_->root(); }

  // protocol:stark:quotient through protocol:stark:queries, on a transcript that has absorbed the
  // aux root; writes P's fields from the quotient root on (P: StarkProof or SegmentProof).
  template <class Tr, class P>
  void finish(core::StarkTranscript<Tr>& tr, P& proof, Stopwatch& clock) {
    // spec: protocol:stark:quotient — C / Z_H on the LDE coset, split into chunks of degree < h.
    const Fp3 alpha = tr.sample_constraint_alpha();
    for (size_t t = 0; t < layout_.tables.size(); ++t) build_quotient(t, alpha);
    std::vector<ColumnRefs> mats;
    for (const TableData& d : td_) mats.push_back(refs(d.q_lde));
    const MixedMerkleTree q_tree(mats);
    proof.quotient_root = q_tree.root();
    tr.observe_quotient_root(proof.quotient_root);
    clock.lap("quotient");

    // spec: protocol:stark:ood — ζ outside every trace domain and LDE coset; every column at ζ
    // and ζ·ω_h, the quotient chunks at ζ.
    const Fp3 zeta = tr.sample_ood_point(log_heights_, lb_);
    std::map<std::pair<unsigned, int>, std::vector<Fp3>> weights;
    auto weights_for = [&](unsigned log_h, int shifted) -> const std::vector<Fp3>& {
      auto key = std::make_pair(log_h, shifted);
      auto it = weights.find(key);
      if (it == weights.end())
        it = weights.emplace(key, barycentric_weights(log_h, shifted ? scale(zeta, root_of_unity(log_h)) : zeta)).first;
      return it->second;
    };
    for (const TableData& d : td_) {
      for (int s = 0; s < 2; ++s)
        for (const auto& col : d.trace) proof.ood.push_back(to_raw(at(col, weights_for(d.log_h, s))));
      for (int s = 0; s < 2; ++s)
        for (const auto& col : d.aux) proof.ood.push_back(to_raw(at(col, weights_for(d.log_h, s))));
      for (const auto& coeffs : d.q_coeffs) {
        Fp3 acc;
        for (size_t j = coeffs.size(); j-- > 0;) acc = acc * zeta + embed(coeffs[j]);
        proof.ood.push_back(to_raw(acc));
      }
    }
    tr.observe_ood_values(proof.ood);
    clock.lap("ood");

    // spec: protocol:stark:deep — per height, Σ γ^k (f(x) − v_k) / (x − z_k) over the opened
    // values in their order.
    const Fp3 gamma = tr.sample_deep_gamma();
    std::map<unsigned, std::vector<Fp3>> deep = deep_codewords(proof.ood, zeta, gamma);
    clock.lap("deep");

    // spec: protocol:stark:fri — binary folds from the tallest DEEP codeword; each smaller one
    // enters, times a fresh challenge, when the folded word reaches its size.
    const core::FriShape shape = core::fri_shape(options_, log_heights_);
    FriProver fri(std::move(deep), lb_);
    tr.fri_commit(shape, fri);
    proof.fri_roots = fri.roots();
    proof.final_poly = fri.final_poly();
    clock.lap("fri");

    // spec: protocol:stark:queries — grinding, positions, one opening per tree per query, and
    // each committed FRI layer's rows batched.
    proof.pow_nonce = tr.grind(options_.pow_bits);
    const std::vector<size_t> queries = tr.sample_queries(options_.num_queries, shape.half(0));
    for (size_t q : queries) {
      // the program tree's leaf for position q: its tallest matrix may be shorter than the main tree's
      const size_t pq = q % program_tree_->leaves();
      proof.queries.push_back({main_tree_->open(q), aux_tree_->open(q), q_tree.open(q), program_tree_->open(pq)});
    }
    proof.fri_openings = fri.open(queries);
    clock.lap("queries");
  }

 private:
  void build_aux(size_t t) {
    const TableLayout& tl = layout_.tables[t];
    TableData& d = td_[t];
    if (tl.interactions.empty()) return;
    std::vector<std::vector<Fp3>> cols(tl.fractions.size() + 1, std::vector<Fp3>(d.h));
    // Rows in blocks, so that only a block's numerators and denominators are held; each block's
    // denominators are inverted together.
    constexpr size_t kBlock = 4096;
    std::vector<std::vector<Fp3>> num(tl.fractions.size()), den(tl.fractions.size());
    std::vector<Fp> local(tl.columns), next(tl.columns);
    HandValues<Fp> hand(tl, layout_.mode);
    for (size_t r0 = 0; r0 < d.h; r0 += kBlock) {
      const size_t m = std::min(kBlock, d.h - r0);
      for (size_t k = 0; k < tl.fractions.size(); ++k) num[k].resize(m), den[k].resize(m);
      for (size_t i = 0; i < m; ++i) {
        const size_t r = r0 + i;
        for (size_t c = 0; c < tl.columns; ++c) local[c] = d.trace[c][r], next[c] = d.trace[c][(r + 1) % d.h];
        const TableValues<Fp>& v = hand.at(local.data(), next.data(), publics_.data());
        for (size_t k = 0; k < tl.fractions.size(); ++k) {
          Fp3 dd[2], mm[2];
          for (size_t j = 0; j < tl.fractions[k].size(); ++j) {
            const size_t in = tl.fractions[k][j];
            dd[j] = denominator(tl.interactions[in], v.tuples[in], ch_);
            mm[j] = embed(tl.interactions[in].send ? v.mults[in] : Fp() - v.mults[in]);
          }
          if (tl.fractions[k].size() == 2) num[k][i] = mm[0] * dd[1] + mm[1] * dd[0], den[k][i] = dd[0] * dd[1];
          else num[k][i] = mm[0], den[k][i] = dd[0];
        }
      }
      for (size_t k = 0; k < tl.fractions.size(); ++k) {
        batch_inverse(den[k]);
        for (size_t i = 0; i < m; ++i) cols[k][r0 + i] = num[k][i] * den[k][i];
      }
    }
    Fp3 s;
    for (size_t r = 0; r < d.h; ++r) {
      for (size_t k = 0; k < tl.fractions.size(); ++k) s = s + cols[k][r];
      cols.back()[r] = s;
    }
    d.terminal = s;
    for (const auto& col : cols)
      for (size_t c = 0; c < 3; ++c) {
        std::vector<Fp> base(d.h);
        for (size_t r = 0; r < d.h; ++r) base[r] = col[r].c[c];
        d.aux.push_back(base);
        d.aux_lde.push_back(coset_lde(base, static_cast<unsigned>(blowup_), d.shift));
      }
  }

  void build_quotient(size_t t, const Fp3& alpha) {
    const TableLayout& tl = layout_.tables[t];
    TableData& d = td_[t];
    const Fp w_n = root_of_unity(d.log_h + lb_), w_inv = root_of_unity(d.log_h).inverse();
    const Fp h_inv = Fp::from_u64(d.h).inverse();
    std::vector<Fp> xs(d.n), inv_x1(d.n), inv_xl(d.n), zh(d.n), inv_zh(d.n);
    Fp x = d.shift;
    for (size_t i = 0; i < d.n; ++i, x = x * w_n) {
      xs[i] = x;
      inv_x1[i] = x - kOne;
      inv_xl[i] = x - w_inv;
      zh[i] = x.pow(d.h) - kOne;
      inv_zh[i] = zh[i];
    }
    batch_inverse(inv_x1);
    batch_inverse(inv_xl);
    batch_inverse(inv_zh);
    const std::vector<Fp3> powers = combination_powers(alpha, tl.combined_constraints());
    std::vector<Fp> local(tl.columns), next(tl.columns);
    HandValues<Fp> hand(tl, layout_.mode);
    const size_t k_aux = tl.interactions.empty() ? 0 : tl.fractions.size() + 1;
    std::vector<Fp3> aux_local(k_aux), aux_next(k_aux);
    std::vector<std::vector<Fp>> q(3, std::vector<Fp>(d.n));
    for (size_t i = 0; i < d.n; ++i) {
      const size_t j = (i + blowup_) % d.n;
      for (size_t c = 0; c < tl.columns; ++c) local[c] = d.lde[c][i], next[c] = d.lde[c][j];
      for (size_t k = 0; k < k_aux; ++k) {
        aux_local[k] = {{d.aux_lde[3 * k][i], d.aux_lde[3 * k + 1][i], d.aux_lde[3 * k + 2][i]}};
        aux_next[k] = {{d.aux_lde[3 * k][j], d.aux_lde[3 * k + 1][j], d.aux_lde[3 * k + 2][j]}};
      }
      const Fp first = zh[i] * h_inv * inv_x1[i], last = w_inv * zh[i] * h_inv * inv_xl[i];
      const Fp transition = xs[i] - w_inv;
      const Fp3 v = combine(tl, hand.at(local.data(), next.data(), publics_.data()), aux_local.data(), aux_next.data(),
                            ch_, d.terminal, powers, first, last, transition);
      const Fp3 qv = scale(v, inv_zh[i]);
      for (size_t c = 0; c < 3; ++c) q[c][i] = qv.c[c];
    }
    // Coefficients beyond chunks * h are zero for a trace that satisfies the table; a dishonest
    // trace's are dropped here, and the verifier's check at ζ rejects the proof.
    d.q_coeffs.resize(3 * tl.chunks);
    for (size_t c = 0; c < 3; ++c) {
      const auto coeffs = coset_coeffs(q[c], d.shift);
      for (size_t k = 0; k < tl.chunks; ++k)
        d.q_coeffs[3 * k + c].assign(coeffs.begin() + static_cast<long>(k * d.h),
                                     coeffs.begin() + static_cast<long>((k + 1) * d.h));
    }
    for (const auto& coeffs : d.q_coeffs) d.q_lde.push_back(coset_evals(coeffs, d.n, d.shift));
  }

  std::map<unsigned, std::vector<Fp3>> deep_codewords(const std::vector<spec::Fp3Raw>& ood, const Fp3& zeta,
                                                      const Fp3& gamma) const {
    std::map<unsigned, std::vector<Fp3>> deep;  // by log height
    Fp3 power = embed(kOne);
    size_t k = 0;
    for (const TableData& d : td_) {
      auto& acc = deep[d.log_h];
      acc.resize(d.n);
      const Fp w_n = root_of_unity(d.log_h + lb_);
      const Fp3 zeta_next = scale(zeta, root_of_unity(d.log_h));
      std::vector<Fp3> inv_z(d.n), inv_zn(d.n);
      Fp x = d.shift;
      for (size_t i = 0; i < d.n; ++i, x = x * w_n) inv_z[i] = embed(x) - zeta, inv_zn[i] = embed(x) - zeta_next;
      batch_inverse(inv_z);
      batch_inverse(inv_zn);
      // Σ_k γ^k (f_k(x) − v_k) / (x − z) = (Σ_k γ^k f_k(x) − Σ_k γ^k v_k) / (x − z), per opening point.
      std::vector<Fp3> sum_z(d.n), sum_zn(d.n);
      Fp3 const_z, const_zn;
      auto term = [&](const std::vector<Fp>& f, bool shifted) {
        auto& sum = shifted ? sum_zn : sum_z;
        (shifted ? const_zn : const_z) = (shifted ? const_zn : const_z) + power * from_raw(ood[k++]);
        for (size_t i = 0; i < d.n; ++i) sum[i] = sum[i] + scale(power, f[i]);
        power = power * gamma;
      };
      for (int s = 0; s < 2; ++s)
        for (const auto& col : d.lde) term(col, s);
      for (int s = 0; s < 2; ++s)
        for (const auto& col : d.aux_lde) term(col, s);
      for (const auto& col : d.q_lde) term(col, false);
      for (size_t i = 0; i < d.n; ++i) acc[i] = acc[i] + (sum_z[i] - const_z) * inv_z[i] + (sum_zn[i] - const_zn) * inv_zn[i];
    }
    return deep;
  }

  const AirLayout& layout_;
  const spec::StarkOptions options_;
  const unsigned lb_;
  const size_t blowup_;
  std::vector<TableData> td_;
  std::vector<uint8_t> log_heights_;
  std::vector<Fp> publics_;
  LogupChallenges ch_{};
  std::optional<MixedMerkleTree> main_tree_, aux_tree_, program_tree_;
};

spec::StarkProof prove_impl(const spec::ProgramImage& image, const air::AirTrace& trace, air::AirTrace* consume,
                            const spec::StarkOptions& options, const Progress& progress) {
  if (auto why = spec::check_options(options)) throw std::invalid_argument("proof options: " + *why);
  Stopwatch clock(progress);
  // spec: protocol:stark:statement — the tables' heights, the exit code, the public output.
  spec::StarkProof proof;
  proof.options = options;
  {
    const air::TraceTable& out = trace.table("output");
    for (const auto& row : out.rows)
      if (row[out.col("is_real")]) proof.statement.output.push_back(static_cast<uint8_t>(row[out.col("value")]));
  }
  Prover prover(air_layout(), trace, consume, options);
  proof.statement.log_heights = prover.log_heights();
  proof.statement.program_digest = program_digest(image);
  proof.statement.exit_code = static_cast<uint32_t>(trace.publics.at("exit_code"));
  core::StarkTranscript<Transcript> tr;
  tr.observe_statement(options, proof.statement);
  proof.main_root = prover.commit_main();
  tr.observe_main_root(proof.main_root);
  clock.lap("commit");
  const core::LogupDraw<Fp3> draw = tr.sample_logup();
  proof.terminal_sums = prover.commit_aux({draw.alpha, draw.beta});
  proof.aux_root = prover.aux_root();
  tr.observe_logup(proof.terminal_sums, proof.aux_root);
  clock.lap("logup");
  prover.finish(tr, proof, clock);
  return proof;
}

}  // namespace

spec::StarkProof prove_unchecked(const spec::ProgramImage& image, const air::AirTrace& trace,
                                 const spec::StarkOptions& options, const Progress& progress) {
  return prove_impl(image, trace, nullptr, options, progress);
}
spec::StarkProof prove_unchecked_consuming(const spec::ProgramImage& image, air::AirTrace&& trace,
                                           const spec::StarkOptions& options, const Progress& progress) {
  return prove_impl(image, trace, &trace, options, progress);
}

// spec: protocol:segments:transcript — phase 1 over every segment, then each segment's phase 2.
spec::BundleProof prove_bundle_unchecked(const spec::ProgramImage& image, const std::vector<air::AirTrace>& segments,
                                         const spec::RunPlan& plan, const spec::StarkOptions& options,
                                         const Progress& progress) {
  if (auto why = spec::check_options(options)) throw std::invalid_argument("proof options: " + *why);
  const size_t n = segments.size();
  if (n < 2 || plan.boundaries.size() != n + 1 || plan.chunks.size() != n + 1)
    throw std::invalid_argument("a bundle has at least 2 segments, each of the plan");
  const AirLayout& layout = air_layout(spec::air::Mode::kSegmented);
  Stopwatch clock(progress);
  spec::BundleProof proof;
  proof.options = options;
  spec::BundleStatement& st = proof.statement;
  st.program_digest = program_digest(image);
  st.exit_code = static_cast<uint32_t>(segments.back().publics.at("exit_code"));
  st.log_segment = plan.log_cycles;
  st.boundaries = plan.boundaries;
  st.chunks = plan.chunks;
  for (const air::AirTrace& seg : segments) {
    const air::TraceTable& out = seg.table("output");
    for (const auto& row : out.rows)
      if (row[out.col("is_real")]) st.output.push_back(static_cast<uint8_t>(row[out.col("value")]));
  }
  std::vector<std::unique_ptr<Prover>> provers;
  for (size_t s = 0; s < n; ++s) {
    provers.push_back(std::make_unique<Prover>(layout, segments[s], nullptr, options));
    st.log_heights.push_back(provers.back()->log_heights());
    // the trace's publics are the statement's (protocol:segments:publics)
    const auto publics = spec::segment_publics(st.log_segment, st.exit_code, st.boundaries, st.chunks, s);
    for (const auto& [name, value] : publics)
      if (Fp::from_u64(value) != provers.back()->publics()[static_cast<size_t>(
              std::find(layout.publics.begin(), layout.publics.end(), name) - layout.publics.begin())])
        throw std::invalid_argument("segment " + std::to_string(s) + "'s public " + name + " is not the plan's");
  }
  // phase 1: the statement, every main root, α and β, every terminal sum
  core::BundleTranscript<Transcript> bt;
  bt.observe_statement(options, st);
  for (auto& p : provers) {
    proof.main_roots.push_back(p->commit_main());
    bt.observe_main_root(proof.main_roots.back());
  }
  clock.lap("commit");
  const core::LogupDraw<Fp3> draw = bt.sample_logup();
  for (size_t s = 0; s < n; ++s)
    proof.terminal_sums.push_back(provers[s]->commit_aux({draw.alpha, draw.beta, layout.buses * s}));
  bt.observe_logup_sums(proof.terminal_sums);
  clock.lap("logup");
  // phase 2: each segment on its own transcript
  for (size_t s = 0; s < n; ++s) {
    auto tr = bt.segment(s);
    spec::SegmentProof& sp = proof.segments.emplace_back();
    sp.aux_root = provers[s]->aux_root();
    tr.observe_aux_root(sp.aux_root);
    provers[s]->finish(tr, sp, clock);
    provers[s].reset();
  }
  return proof;
}

}  // namespace zkrv::ref::prove
