// The optimized prover: reference/prove/prove.cpp's steps, in the same order, each a whole-step
// operation of the backend seam (optimized/backend) or, for LogUp and the quotient, of the circuit
// (optimized/circuit) over its buffers: the tables' columns, their coefficients,
// the LDE parts, the Merkle levels, the DEEP codewords and the FRI layers are buffers the
// backend owns, and this file only orders the steps, runs the transcript and reads back the few
// values the proof carries (roots, out-of-domain values, opened rows). Field arithmetic is
// exact, so every value equals the reference's whatever the backend, evaluation order or thread
// count. The transcript is opt::Transcript (the reference's bytes); the backend grinds.
#include "optimized/prove/prove.h"


#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>

#include "core/air/layout.h"
#include "core/assert.h"
#include "core/fri/fri.h"
#include "core/stark/stopwatch.h"
#include "core/stark/bundle_transcript.h"
#include "core/stark/transcript.h"
#include "optimized/common/parallel.h"
#include "optimized/fri/fri.h"
#include "optimized/hash/keccak.h"
#include "optimized/merkle/mixed.h"
#include "optimized/ntt/ntt.h"
#include "optimized/transcript/transcript.h"
#include "spec/air/embedded.h"
#include "core/span/span.h"

namespace zkrv::opt::prove {
namespace {

using core::Stopwatch;
using Columns = std::vector<Buffer<Fp>>;  // a table's columns, one buffer each

const Fp kOne = Fp::from_u64(1);

spec::Fp3Raw raw(const Fp3& x) { return {x.c[0].value(), x.c[1].value(), x.c[2].value()}; }

template <typename T>
size_t bytes_of(const std::vector<Buffer<T>>& bs) {
  size_t b = 0;
  for (const auto& x : bs) b += x.size() * sizeof(T);
  return b;
}
// `count` columns of n values each, reusing `cols` when it already has that shape.
void ensure(Backend& be, Columns& cols, size_t count, size_t n) {
  if (cols.size() == count && (cols.empty() || cols[0].size() == n)) return;
  cols.clear();
  for (size_t c = 0; c < count; ++c) cols.push_back(be.alloc<Fp>(n));
}
Columns pick(const Columns& all, const std::vector<size_t>& which) {
  Columns out;
  for (size_t c : which) out.push_back(all[c]);
  return out;
}

struct TableData {
  unsigned log_h = 0;
  size_t h = 0, n = 0;
  Fp shift;
  // The spec columns on the trace domain (until LogUp has read them), and the dif form of the
  // main, aux and quotient-chunk polynomials; the LDE is never held (unless Lde::kHold): each
  // pass computes it a part (a coset of the trace domain's size) at a time.
  Columns trace;
  Columns coeffs[3];
  std::vector<Buffer<Fp>> factors;  // per LDE part k: bitrev_coset_factors(log_h, shift·ω_N^k)
  // Lde::kHold: every part of the LDE of each kind, [kind][k][column], kept from the first pass
  // that computes it
  std::vector<Columns> held[3];
  Fp3 terminal;
};
enum Kind { kMain = 0, kAux = 1, kQuotient = 2 };  // the three committed sets of each table

// z^rev(p) / n for p < n: the powers of z in bit-reversed order (as bitrev_coset_factors, in
// the extension), so that Σ_p dif[p]·zpow[p] is the polynomial at z.
std::vector<Fp3> bitrev_powers(size_t n, const Fp3& z) {
  std::vector<Fp3> t(n);
  t[0] = Fp3{{Fp::from_u64(n).inverse(), Fp(), Fp()}};
  const unsigned log_n = spec::ntt_log2(n);
  for (unsigned l = 0; l < log_n; ++l) {
    Fp3 c = z;
    for (unsigned q = 0; q < log_n - 1 - l; ++q) c = c * c;
    const size_t h = size_t{1} << l;
    for (size_t p = 0; p < h; ++p) t[h + p] = t[p] * c;
  }
  return t;
}

}  // namespace

namespace {

// One AIR instance's proof, step by step (reference/prove/prove.cpp's Prover, on the backend
// seam): a whole run's, or one segment's of a bundle, whose main root, LogUp challenges and
// terminal sums pass through the bundle's phase 1 between commit_main and finish. The trees'
// matrices read `td_` through `this`, so a Prover never moves.
class Prover {
 public:
  Prover(const core::AirLayout& layout, std::vector<air::TableColumns>&& tables, const std::vector<Fp>& publics,
         const spec::StarkOptions& options, unsigned threads, const Progress& progress, const BufferReport& buffers,
         Lde lde, Backend& be, Circuit& circuit, uint64_t local_offset = 0)
      : layout_(layout), publics_(publics), options_(options), threads_(threads), clock_(progress), buffers_(buffers),
        lde_(lde), be_(be), circuit_(circuit), lb_(options.log_blowup), blowup_(size_t{1} << lb_),
        T_(layout.tables.size()), td_(T_), air_{layout.mode, local_offset} {
    if (tables.size() != T_) throw std::invalid_argument("the trace has " + std::to_string(tables.size()) + " tables");
    if (publics.size() != layout.publics.size()) throw std::invalid_argument("the trace has the wrong public values");
    // spec: protocol:stark:statement — the tables' heights.
    for (size_t t = 0; t < T_; ++t) {
      const core::TableLayout& tl = layout.tables[t];
      TableData& d = td_[t];
      d.h = tables[t].height;
      if (tables[t].columns.size() != tl.columns) throw std::invalid_argument("table " + tl.name + " has the wrong width");
      for (const auto& c : tables[t].columns)
        if (c.size() != d.h) throw std::invalid_argument("table " + tl.name + " has columns of different heights");
      if (d.h == 0 || (d.h & (d.h - 1))) throw std::invalid_argument("table " + tl.name + "'s height is not a power of two");
      d.log_h = spec::ntt_log2(d.h);
      if (d.log_h > spec::kMaxLogHeight) throw std::invalid_argument("table " + tl.name + " is taller than 2^24 rows");
      if (tl.chunks > blowup_) throw std::invalid_argument("table " + tl.name + " needs a larger blowup");
      log_heights_.push_back(static_cast<uint8_t>(d.log_h));
    }
    for (size_t t = 0; t < T_; ++t)
      for (auto& c : tables[t].columns) td_[t].trace.push_back(be.adopt(std::move(c)));
  }
  Prover(const Prover&) = delete;
  Prover& operator=(const Prover&) = delete;
  const std::vector<uint8_t>& log_heights() const { return log_heights_; }
  Stopwatch& clock() { return clock_; }

  // The public output the output table holds (its real rows' values).
  std::vector<uint8_t> output() {
    const auto& sp = spec::air::embedded_spec(layout_.mode);
    const size_t ot = layout_.table_index("output");
    const auto is_real = be_.download(td_[ot].trace[static_cast<size_t>(sp.tables[ot].column_index("is_real"))]);
    const auto value = be_.download(td_[ot].trace[static_cast<size_t>(sp.tables[ot].column_index("value"))]);
    std::vector<uint8_t> out;
    for (size_t r = 0; r < td_[ot].h; ++r)
      if (is_real[r].value()) out.push_back(static_cast<uint8_t>(value[r].value()));
    return out;
  }

  // spec: protocol:stark:main
  spec::Digest commit_main() {
    for (size_t t = 0; t < T_; ++t) {
      const std::string label = "commit " + layout_.tables[t].name;
      const core::span::Span per_table(label.c_str());
      TableData& d = td_[t];
      d.n = d.h * blowup_;
      d.shift = core::lde_shift<Fp>();
      for (const auto& col : d.trace) {
        d.coeffs[kMain].push_back(be_.alloc<Fp>(d.h));
        be_.copy(d.coeffs[kMain].back().storage(), col.storage(), d.h * sizeof(Fp));
      }
      be_.dif_coefficients(d.coeffs[kMain]);
      for (size_t k = 0; k < blowup_; ++k)
        d.factors.push_back(be_.upload<Fp>(bitrev_coset_factors(d.log_h, d.shift * root_of_unity(d.log_h + lb_).pow(k))));
    }
    main_tree_.emplace(be_, matrices(kMain));
    trees_.push_back(&*main_tree_);
    return main_tree_->root();
  }

  // spec: protocol:stark:logup — every table's terminal sum; the aux columns committed.
  std::vector<spec::Fp3Raw> commit_aux(const Fp3& alpha, const Fp3& beta) {
    alpha_lu_ = alpha, beta_lu_ = beta;
    for (size_t t = 0; t < T_; ++t) {
      const core::TableLayout& tl = layout_.tables[t];
      TableData& d = td_[t];
      if (tl.interactions.empty()) continue;
      const std::string label = "logup " + tl.name;
      const core::span::Span per_table(label.c_str());
      ensure(be_, d.coeffs[kAux], tl.aux_width(), d.h);
      d.terminal = circuit_.logup_columns(be_, air_, t, tl.fractions, d.trace, publics_, alpha, beta, d.coeffs[kAux]);
      be_.dif_coefficients(d.coeffs[kAux]);
    }
    for (TableData& d : td_) d.trace.clear();  // LogUp was the last to read it
    std::vector<spec::Fp3Raw> sums;
    for (const TableData& d : td_) sums.push_back(raw(d.terminal));
    aux_tree_.emplace(be_, matrices(kAux));
    trees_.push_back(&*aux_tree_);
    return sums;
  }
  const spec::Digest& aux_root() const { return aux_tree_->root(); }
  // The terminal sums alone: the LogUp columns on the trace domain, neither extended nor committed
  // (a bundle's pass over its segments that only sums).
  std::vector<spec::Fp3Raw> terminal_sums(const Fp3& alpha, const Fp3& beta) {
    std::vector<spec::Fp3Raw> sums;
    for (size_t t = 0; t < T_; ++t) {
      const core::TableLayout& tl = layout_.tables[t];
      TableData& d = td_[t];
      if (tl.interactions.empty()) {
        sums.push_back(raw(Fp3{}));
        continue;
      }
      Columns aux;
      ensure(be_, aux, tl.aux_width(), d.h);
      sums.push_back(raw(circuit_.logup_columns(be_, air_, t, tl.fractions, d.trace, publics_, alpha, beta, aux)));
    }
    return sums;
  }
  void lap(const char* stage, std::vector<std::pair<std::string, size_t>> more = {}) {
    clock_.lap(stage);
    if (!buffers_) return;
    size_t mt = 0, ml = 0, al = 0, q = 0, tb = 0, held = 0;
    for (const TableData& d : td_) {
      mt += bytes_of(d.trace), ml += bytes_of(d.coeffs[kMain]), al += bytes_of(d.coeffs[kAux]);
      q += bytes_of(d.coeffs[kQuotient]);
      for (const auto& kind : d.held)
        for (const auto& p : kind) held += bytes_of(p);
    }
    for (const MixedTree* t : trees_) tb += t->bytes();
    std::vector<std::pair<std::string, size_t>> live = {{"main trace", mt}, {"main coefficients", ml},
                                                         {"aux coefficients", al}, {"LDE held", held},
                                                         {"quotient", q}, {"Merkle trees", tb}};
    for (auto& m : more) live.push_back(std::move(m));
    buffers_(stage, live);
  }

  // protocol:stark:quotient through protocol:stark:queries, on a transcript that has absorbed the
  // aux root; writes P's fields from the quotient root on (P: StarkProof or SegmentProof).
  template <class Tr, class P>
  void finish(core::StarkTranscript<Tr>& tr, P& proof) {
    Backend& be = be_;
    const unsigned lb = lb_;
    const size_t blowup = blowup_;
    // spec: protocol:stark:quotient
    const Fp3 alpha = tr.sample_constraint_alpha();
    for (size_t t = 0; t < T_; ++t) {
      const std::string label = "quotient " + layout_.tables[t].name;
      const core::span::Span per_table(label.c_str());
      const core::TableLayout& tl = layout_.tables[t];
      TableData& d = td_[t];
      const Fp w_n = root_of_unity(d.log_h + lb);
      const Buffer<Fp3> powers = be.upload<Fp3>(core::combination_powers(alpha, tl.combined_constraints()));
      // The combination on each LDE part (a coset of h rows, whose next row is the part's next),
      // divided by Z_H, which is one value on the part: x^h = (shift·ω_N^k)^h.
      Columns q, main_scratch, aux_scratch;
      // Zeros, not allocate's undefined bytes: a circuit that works on host copies reads q whole
      // (each part writes only its rows), and a DualBackend compares what is read.
      for (size_t c = 0; c < 3; ++c) q.push_back(be.adopt(Column(d.n)));
      for (size_t k = 0; k < blowup; ++k) {
        const Columns& main_k = part(d, kMain, k, main_scratch);
        const Columns& aux_k = part(d, kAux, k, aux_scratch);
        Circuit::QuotientPart qp;
        qp.table = t;
        qp.log_h = d.log_h;
        qp.blowup = blowup;
        qp.k = k;
        qp.x0 = d.shift * w_n.pow(k);
        qp.scale = (qp.x0.pow(d.h) - kOne).inverse();
        qp.lu_alpha = alpha_lu_;
        qp.lu_beta = beta_lu_;
        qp.air = air_;
        qp.terminal = d.terminal;
        circuit_.quotient_part(be, qp, main_k, aux_k, publics_, powers, q);
      }
      main_scratch.clear(), aux_scratch.clear();
      be.coset_interpolate(q, d.shift);
      // chunk k, component c: coefficients [k·h, (k + 1)·h) of component c, in the dif form
      ensure(be, d.coeffs[kQuotient], 3 * tl.chunks, d.h);
      for (size_t k = 0; k < tl.chunks; ++k)
        for (size_t c = 0; c < 3; ++c)
          be.copy_range(d.coeffs[kQuotient][3 * k + c].storage(), 0, q[c].storage(), k * d.h * sizeof(Fp), d.h * sizeof(Fp));
      q.clear();
      be.dif_from_coefficients(d.coeffs[kQuotient]);
    }
    const MixedTree q_tree(be, matrices(kQuotient));
    proof.quotient_root = q_tree.root();
    tr.observe_quotient_root(proof.quotient_root);
    trees_.push_back(&q_tree);
    lap("quotient");

    // spec: protocol:stark:ood
    const Fp3 zeta = tr.sample_ood_point(log_heights_, lb);
    // Every column's polynomial at ζ (and main and aux at ζ·ω_h), from its dif form: main at ζ,
    // main at ζω, aux at ζ, aux at ζω, the quotient chunks at ζ.
    for (const TableData& d : td_) {
      const Buffer<Fp3> zpow[2] = {be.upload<Fp3>(bitrev_powers(d.h, zeta)),
                                   be.upload<Fp3>(bitrev_powers(d.h, zeta * root_of_unity(d.log_h)))};
      for (Kind kind : {kMain, kAux})
        for (int s = 0; s < 2; ++s)
          for (const Fp3& x : be.evaluate_dif(d.coeffs[kind], zpow[s])) proof.ood.push_back(raw(x));
      for (const Fp3& x : be.evaluate_dif(d.coeffs[kQuotient], zpow[0])) proof.ood.push_back(raw(x));
    }
    tr.observe_ood_values(proof.ood);
    lap("ood");

    // spec: protocol:stark:deep
    const Fp3 gamma = tr.sample_deep_gamma();
    std::map<unsigned, Buffer<Fp3>> deep;
    {
      Fp3 power = embed(kOne);
      size_t at = 0;
      for (TableData& d : td_) {
        const bool first = !deep.count(d.log_h);
        if (first) deep[d.log_h] = be.alloc<Fp3>(d.n);
        Buffer<Fp3>& acc = deep[d.log_h];
        const size_t M = d.coeffs[kMain].size(), A = d.coeffs[kAux].size(), Q = d.coeffs[kQuotient].size();
        // The opened columns in ood order, each with its power of γ; Σ_c γ^c·(f_c(x) − f_c(z))/(x − z)
        // splits into Σ γ^c f_c(x) − Σ γ^c f_c(z) at each point. Σ γ^c f_c is a linear combination
        // of the columns' polynomials, whose LDE is the LDE of the same combination of their
        // coefficients (exact field arithmetic, so the same values): it is built once on the dif
        // forms, and only its six base columns are extended, part by part.
        std::vector<Fp3> pw;
        Fp3 const_z{}, const_zn{};
        auto term = [&](int s) {
          const Fp3 v{{Fp::from_u64(proof.ood[at][0]), Fp::from_u64(proof.ood[at][1]), Fp::from_u64(proof.ood[at][2])}};
          ++at;
          (s ? const_zn : const_z) = (s ? const_zn : const_z) + power * v;
          pw.push_back(power);
          power = power * gamma;
        };
        for (int s = 0; s < 2; ++s)
          for (size_t c = 0; c < M; ++c) term(s);
        for (int s = 0; s < 2; ++s)
          for (size_t c = 0; c < A; ++c) term(s);
        for (size_t c = 0; c < Q; ++c) term(0);
        Columns all;
        std::vector<Fp3> w0, w1;
        for (size_t c = 0; c < M; ++c) all.push_back(d.coeffs[kMain][c]), w0.push_back(pw[c]), w1.push_back(pw[M + c]);
        for (size_t c = 0; c < A; ++c)
          all.push_back(d.coeffs[kAux][c]), w0.push_back(pw[2 * M + c]), w1.push_back(pw[2 * M + A + c]);
        for (size_t c = 0; c < Q; ++c) all.push_back(d.coeffs[kQuotient][c]), w0.push_back(pw[2 * M + 2 * A + c]), w1.push_back({});
        Columns comb, comb_k;  // [3·s + c]: the combination at ζ (s = 0), ζω (s = 1)
        ensure(be, comb, 6, d.h);
        ensure(be, comb_k, 6, d.h);
        be.linear_combination(all, w0, w1, comb);
        const Fp w_n = root_of_unity(d.log_h + lb);
        for (size_t p = 0; p < blowup; ++p) {
          be.coset_part(comb, d.factors[p], comb_k);
          Backend::DeepPart dp;
          dp.log_h = d.log_h;
          dp.blowup = blowup;
          dp.k = p;
          dp.x0 = d.shift * w_n.pow(p);
          dp.z0 = zeta;
          dp.z1 = zeta * root_of_unity(d.log_h);
          dp.c0 = const_z;
          dp.c1 = const_zn;
          dp.overwrite = first;
          be.deep_accumulate(dp, comb_k, acc);
        }
      }
    }
    {
      size_t b = 0;
      for (const auto& [h, v] : deep) b += v.size() * sizeof(Fp3);
      lap("deep", {{"DEEP codewords", b}});
    }

    // spec: protocol:stark:fri
    const core::FriShape shape = core::fri_shape(options_, log_heights_);
    FriProver fri(be, std::move(deep), lb);
    tr.fri_commit(shape, fri);
    proof.fri_roots = fri.roots();
    proof.final_poly = fri.final_poly();
    lap("fri", {{"FRI layers", fri.bytes()}});

    // spec: protocol:stark:queries
    proof.pow_nonce = tr.grind(options_.pow_bits, [&be](const Digest& state, unsigned bits) { return be.grind(state, bits); });
    const std::vector<size_t> queries = tr.sample_queries(options_.num_queries, shape.half(0));
    {  // the opened rows' values, from the coefficients (or the held parts)
      // spec: protocol:stark:program — the program's columns in their own tree; its root is the
      // verifier's own, never sent. Its leaf for position q is q mod its leaves.
      const MixedTree p_tree(be, matrices(kMain, true));
      std::vector<size_t> p_leaves;
      for (size_t q : queries) p_leaves.push_back(q % p_tree.leaves());
      const auto main_v = main_tree_->fetch(main_tree_->rows_opened(queries));
      const auto aux_v = aux_tree_->fetch(aux_tree_->rows_opened(queries));
      const auto q_v = q_tree.fetch(q_tree.rows_opened(queries));
      const auto p_v = p_tree.fetch(p_tree.rows_opened(p_leaves));
      for (size_t i = 0; i < queries.size(); ++i) {
        const size_t q = queries[i];
        proof.queries.push_back(
            {main_tree_->open(q, main_v), aux_tree_->open(q, aux_v), q_tree.open(q, q_v), p_tree.open(p_leaves[i], p_v)});
      }
    }
    proof.fri_openings = fri.open(queries);
    lap("queries");
    trees_.clear();
  }

 private:
  // Part k of a table's LDE (every column of one kind): held (Lde::kHold: computed once, kept),
  // or computed into scratch.
  const Columns& part(TableData& d, Kind kind, size_t k, Columns& scratch) {
    const Columns& coeffs = d.coeffs[kind];
    if (lde_ != Lde::kHold) {
      ensure(be_, scratch, coeffs.size(), d.h);
      be_.coset_part(coeffs, d.factors[k], scratch);
      return scratch;
    }
    auto& held = d.held[kind];
    if (held.empty()) held.resize(blowup_);
    if (held[k].empty() && !coeffs.empty()) {
      ensure(be_, held[k], coeffs.size(), d.h);
      be_.coset_part(coeffs, d.factors[k], held[k]);
    }
    return held[k];
  }
  // Every table's columns of one kind as tree matrices (main: the committed columns only; with
  // `program`, the program tree's preprocessed ones), a part at a time.
  std::vector<Matrix> matrices(Kind kind, bool program = false) {
    std::vector<Matrix> mats(T_);
    for (size_t t = 0; t < T_; ++t) {
      const std::vector<size_t>* which = program          ? &layout_.tables[t].program
                                         : kind == kMain ? &layout_.tables[t].main
                                                         : nullptr;
      mats[t].rows = td_[t].n;
      mats[t].width = which ? which->size() : td_[t].coeffs[kind].size();
      mats[t].parts = blowup_;
      mats[t].part = [this, t, which, kind](size_t k, Columns& scratch, Columns& out) {
        TableData& dt = td_[t];
        if (lde_ != Lde::kHold && which) {  // only the committed columns
          ensure(be_, scratch, which->size(), dt.h);
          be_.coset_part(pick(dt.coeffs[kind], *which), dt.factors[k], scratch);
          out = scratch;
          return;
        }
        const Columns& all = part(dt, kind, k, scratch);
        out = which ? pick(all, *which) : all;
      };
      mats[t].rows_at = [this, t, which, kind](size_t k, const std::vector<size_t>& idx) {
        TableData& dt = td_[t];
        if (lde_ != Lde::kHold)  // from the coefficients, without the whole part
          return be_.coset_rows(which ? pick(dt.coeffs[kind], *which) : dt.coeffs[kind], dt.factors[k], idx);
        Columns scratch;
        const Columns& all = part(dt, kind, k, scratch);
        const Columns cols = which ? pick(all, *which) : all;
        std::vector<std::vector<Fp>> out(idx.size(), std::vector<Fp>(cols.size()));
        for (size_t c = 0; c < cols.size(); ++c) {
          const auto v = be_.gather(cols[c], idx);
          for (size_t j = 0; j < idx.size(); ++j) out[j][c] = v[j];
        }
        return out;
      };
    }
    return mats;
  }

  const core::AirLayout& layout_;
  const std::vector<Fp> publics_;
  const spec::StarkOptions options_;
  const unsigned threads_;
  Stopwatch clock_;
  const BufferReport buffers_;
  const Lde lde_;
  Backend& be_;
  Circuit& circuit_;
  const unsigned lb_;
  const size_t blowup_, T_;
  std::vector<TableData> td_;
  const Circuit::Air air_;
  std::vector<uint8_t> log_heights_;
  Fp3 alpha_lu_, beta_lu_;
  std::optional<MixedTree> main_tree_, aux_tree_;
  std::vector<const MixedTree*> trees_;
};

// Segment s's publics (the segment AIR's order) are the statement's (protocol:segments:publics).
void check_publics(const core::AirLayout& layout, const spec::BundleStatement& st, size_t s, const std::vector<Fp>& publics) {
  for (const auto& [name, value] : spec::segment_publics(st.log_segment, st.exit_code, st.boundaries, st.chunks, s)) {
    const size_t i = static_cast<size_t>(std::find(layout.publics.begin(), layout.publics.end(), name) - layout.publics.begin());
    if (i >= publics.size() || publics[i] != Fp::from_u64(value))
      throw std::invalid_argument("segment " + std::to_string(s) + "'s public " + name + " is not the plan's");
  }
}

struct Engines {
  std::unique_ptr<Backend> own;
  std::unique_ptr<Circuit> own_circuit;
  Backend* be;
  Circuit* circuit;
  Engines(unsigned threads, Backend* backend, Circuit* c) : be(backend), circuit(c) {
    if (!be) own = make_cpu_backend(threads), be = own.get();
    if (!circuit) own_circuit = make_cpu_circuit(threads), circuit = own_circuit.get();
  }
};

}  // namespace

spec::StarkProof prove_unchecked(const spec::ProgramImage& image, std::vector<air::TableColumns>&& tables,
                                 const std::vector<Fp>& publics, const spec::StarkOptions& options, unsigned threads,
                                 const Progress& progress, const BufferReport& buffers, Lde lde, Backend* backend, Circuit* circuit) {
  if (auto why = spec::check_options(options)) throw std::invalid_argument("proof options: " + *why);
  threads = resolve_threads(threads);
  Engines en(threads, backend, circuit);
  const core::AirLayout& layout = core::air_layout();
  Prover prover(layout, std::move(tables), publics, options, threads, progress, buffers, lde, *en.be, *en.circuit);
  // spec: protocol:stark:statement
  spec::StarkProof proof;
  proof.options = options;
  proof.statement.log_heights = prover.log_heights();
  proof.statement.program_digest = keccak256(core::program_encoding(image));
  size_t exit_at = SIZE_MAX;
  for (size_t i = 0; i < layout.publics.size(); ++i)
    if (layout.publics[i] == "exit_code") exit_at = i;
  proof.statement.exit_code = static_cast<uint32_t>(publics.at(exit_at).value());
  proof.statement.output = prover.output();
  core::StarkTranscript<Transcript> tr;
  tr.observe_statement(options, proof.statement);
  proof.main_root = prover.commit_main();
  tr.observe_main_root(proof.main_root);
  prover.lap("commit");
  const core::LogupDraw<Fp3> draw = tr.sample_logup();
  proof.terminal_sums = prover.commit_aux(draw.alpha, draw.beta);
  proof.aux_root = prover.aux_root();
  tr.observe_logup(proof.terminal_sums, proof.aux_root);
  prover.lap("logup");
  prover.finish(tr, proof);
  return proof;
}

// spec: protocol:segments:transcript — phase 1 over every segment, then each segment's phase 2.
spec::BundleProof prove_bundle_unchecked(const spec::ProgramImage& image, std::vector<Segment>&& segments,
                                         const spec::RunPlan& plan, const spec::StarkOptions& options, unsigned threads,
                                         const Progress& progress, Backend* backend, Circuit* circuit) {
  if (auto why = spec::check_options(options)) throw std::invalid_argument("proof options: " + *why);
  const size_t n = segments.size();
  if (n < 2 || plan.boundaries.size() != n + 1 || plan.chunks.size() != n + 1)
    throw std::invalid_argument("a bundle has at least 2 segments, each of the plan");
  threads = resolve_threads(threads);
  Engines en(threads, backend, circuit);
  const core::AirLayout& layout = core::air_layout(spec::air::Mode::kSegmented);
  size_t exit_at = SIZE_MAX;
  for (size_t i = 0; i < layout.publics.size(); ++i)
    if (layout.publics[i] == "exit_code") exit_at = i;
  spec::BundleProof proof;
  proof.options = options;
  spec::BundleStatement& st = proof.statement;
  st.program_digest = keccak256(core::program_encoding(image));
  st.exit_code = static_cast<uint32_t>(segments.back().publics.at(exit_at).value());
  st.log_segment = plan.log_cycles;
  st.boundaries = plan.boundaries;
  st.chunks = plan.chunks;
  const Progress quiet;  // the segments' own stages: the bundle reports one line per segment and phase
  Stopwatch clock(progress);
  std::vector<std::unique_ptr<Prover>> provers;
  for (size_t s = 0; s < n; ++s) {
    check_publics(layout, st, s, segments[s].publics);
    provers.push_back(std::make_unique<Prover>(layout, std::move(segments[s].tables), segments[s].publics, options, threads,
                                               quiet, BufferReport{}, Lde::kStream, *en.be, *en.circuit,
                                               layout.buses * s));
    st.log_heights.push_back(provers.back()->log_heights());
    const auto out = provers.back()->output();
    st.output.insert(st.output.end(), out.begin(), out.end());
  }
  // phase 1: the statement, every main root, α and β, every terminal sum
  core::BundleTranscript<Transcript> bt;
  bt.observe_statement(options, st);
  auto of = [n](const char* what, size_t s) { return std::string(what) + " " + std::to_string(s + 1) + "/" + std::to_string(n); };
  for (size_t s = 0; s < n; ++s) {
    proof.main_roots.push_back(provers[s]->commit_main());
    bt.observe_main_root(proof.main_roots.back());
    clock.lap(of("commit", s));
  }
  const core::LogupDraw<Fp3> draw = bt.sample_logup();
  for (auto& p : provers) proof.terminal_sums.push_back(p->commit_aux(draw.alpha, draw.beta));
  bt.observe_logup_sums(proof.terminal_sums);
  clock.lap("logup");
  // phase 2: each segment on its own transcript
  for (size_t s = 0; s < n; ++s) {
    auto tr = bt.segment(s);
    spec::SegmentProof& sp = proof.segments.emplace_back();
    sp.aux_root = provers[s]->aux_root();
    tr.observe_aux_root(sp.aux_root);
    provers[s]->finish(tr, sp);
    provers[s].reset();
    clock.lap(of("prove", s));
  }
  return proof;
}

// spec: protocol:segments:prover, protocol:segments:transcript, protocol:segments:peers — the same
// bundle from segments built on demand, one held at a time: pass 1 commits each segment's main
// trace (its root and heights kept), pass 2 sums each one's LogUp columns under the drawn α and β,
// pass 3 proves each on its own transcript. With a floor, the queries rise after pass 1 to the
// least number that gives the bundle its floor. With peers, each pass covers this process's own
// segments, and the roots, heights and sums of every segment come back from the exchanges.
spec::BundleProof prove_bundle_streamed(const spec::ProgramImage& image, const spec::RunPlan& plan, uint32_t exit_code,
                                        const std::vector<uint8_t>& output, const SegmentSource& source,
                                        const spec::StarkOptions& preset, unsigned threads, const Progress& progress,
                                        Backend* backend, Circuit* circuit, const std::optional<spec::SecurityPolicy>& floor,
                                        const BundleSink* sink, const Peers* peers) {
  if (auto why = spec::check_options(preset)) throw std::invalid_argument("proof options: " + *why);
  spec::StarkOptions options = preset;  // pass 1 needs only its blowup; the queries may rise after it
  const size_t n = plan.count();
  if (n < 2 || plan.boundaries.size() != n + 1 || plan.chunks.size() != n + 1)
    throw std::invalid_argument("a bundle has at least 2 segments, each of the plan");
  threads = resolve_threads(threads);
  Engines en(threads, backend, circuit);
  const core::AirLayout& layout = core::air_layout(spec::air::Mode::kSegmented);
  spec::BundleProof proof;
  proof.options = options;
  spec::BundleStatement& st = proof.statement;
  st.program_digest = keccak256(core::program_encoding(image));
  st.exit_code = exit_code;
  st.output = output;
  st.log_segment = plan.log_cycles;
  st.boundaries = plan.boundaries;
  st.chunks = plan.chunks;
  std::vector<size_t> mine;  // the segments this process proves, in order
  for (size_t s = 0; s < n; ++s)
    if (!peers || peers->owns(s)) mine.push_back(s);
  const Progress quiet;
  Stopwatch clock(progress);
  auto of = [n](const char* what, size_t s) { return std::string(what) + " " + std::to_string(s + 1) + "/" + std::to_string(n); };
  // Each segment as the source hands it over, checked against the plan's publics.
  size_t expect = 0;
  auto prover_of = [&](size_t s, Segment&& seg) {
    if (expect >= mine.size() || s != mine[expect]) throw std::invalid_argument("the segments came out of order");
    ++expect;
    check_publics(layout, st, s, seg.publics);
    return std::make_unique<Prover>(layout, std::move(seg.tables), seg.publics, options, threads, quiet, BufferReport{},
                                    Lde::kStream, *en.be, *en.circuit, layout.buses * s);
  };
  auto pass = [&](const std::function<void(size_t, Prover&)>& work) {
    expect = 0;
    source([&](size_t s, Segment&& seg) {
      auto p = prover_of(s, std::move(seg));
      work(s, *p);
    });
    if (expect != mine.size())
      throw std::invalid_argument("the source gave " + std::to_string(expect) + " segments of " + std::to_string(mine.size()));
  };
  // pass 1: every main root (and the heights the statement names)
  std::vector<Commitment> commits(n);
  pass([&](size_t s, Prover& p) {
    commits[s] = {p.log_heights(), p.commit_main()};
    clock.lap(of("commit", s));
  });
  if (peers) peers->share_commitments(commits);
  for (Commitment& c : commits) {
    st.log_heights.push_back(std::move(c.log_heights));
    proof.main_roots.push_back(c.main_root);
  }
  // spec: protocol:segments:queries
  if (floor) options = proof.options = core::bundle_options(preset, st.log_heights, *floor);
  core::BundleTranscript<Transcript> bt;
  bt.observe_statement(options, st);
  for (const spec::Digest& root : proof.main_roots) bt.observe_main_root(root);
  const core::LogupDraw<Fp3> draw = bt.sample_logup();
  // pass 2: every terminal sum
  proof.terminal_sums.assign(n, {});
  pass([&](size_t s, Prover& p) {
    proof.terminal_sums[s] = p.terminal_sums(draw.alpha, draw.beta);
    clock.lap(of("logup", s));
  });
  if (peers) peers->share_sums(proof.terminal_sums);
  bt.observe_logup_sums(proof.terminal_sums);
  if (sink) sink->head(proof);
  // pass 3: each segment on its own transcript; the same segment as in passes 1 and 2
  pass([&](size_t s, Prover& p) {
    if (p.log_heights() != st.log_heights[s] || p.commit_main() != proof.main_roots[s] ||
        p.commit_aux(draw.alpha, draw.beta) != proof.terminal_sums[s])
      throw std::logic_error("segment " + std::to_string(s) + " differs between the passes over it");
    auto tr = bt.segment(s);
    spec::SegmentProof sp;
    sp.aux_root = p.aux_root();
    tr.observe_aux_root(sp.aux_root);
    p.finish(tr, sp);
    if (sink)
      sink->segment(s, std::move(sp));
    else
      proof.segments.push_back(std::move(sp));
    clock.lap(of("prove", s));
  });
  return proof;
}

}  // namespace zkrv::opt::prove
