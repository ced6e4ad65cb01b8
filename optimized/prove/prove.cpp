// The optimized prover: reference/prove/prove.cpp's steps, in the same order, each a whole-step
// operation of the backend seam (optimized/backend) or, for LogUp and the quotient, of the circuit
// (optimized/circuit) over its buffers: the tables' columns, their coefficients,
// the LDE parts, the Merkle levels, the DEEP codewords and the FRI layers are buffers the
// backend owns, and this file only orders the steps, runs the transcript and reads back the few
// values the proof carries (roots, out-of-domain values, opened rows). Field arithmetic is
// exact, so every value equals the reference's whatever the backend, evaluation order or thread
// count. The transcript is opt::Transcript (the reference's bytes, threaded grinding).
#include "optimized/prove/prove.h"


#include <algorithm>
#include <map>
#include <stdexcept>

#include "core/air/layout.h"
#include "core/assert.h"
#include "core/fri/fri.h"
#include "core/stark/stopwatch.h"
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
using Column = std::vector<Fp>;
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
spec::StarkProof prove_impl(const spec::ProgramImage& image, std::vector<air::TableColumns>&& tables,
                            const std::vector<Fp>& publics, const spec::StarkOptions& options, unsigned threads,
                            const Progress& progress, const BufferReport& buffers, Lde lde, Backend* backend, Circuit* circuit);
}  // namespace

spec::StarkProof prove_unchecked(const spec::ProgramImage& image, std::vector<air::TableColumns>&& tables,
                                 const std::vector<Fp>& publics, const spec::StarkOptions& options, unsigned threads,
                                 const Progress& progress, const BufferReport& buffers, Lde lde, Backend* backend, Circuit* circuit) {
  return prove_impl(image, std::move(tables), publics, options, threads, progress, buffers, lde, backend, circuit);
}

namespace {
spec::StarkProof prove_impl(const spec::ProgramImage& image, std::vector<air::TableColumns>&& tables,
                            const std::vector<Fp>& publics, const spec::StarkOptions& options, unsigned threads,
                            const Progress& progress, const BufferReport& buffers, Lde lde, Backend* backend, Circuit* circuit) {
  if (auto why = spec::check_options(options)) throw std::invalid_argument("proof options: " + *why);
  threads = resolve_threads(threads);
  std::unique_ptr<Backend> own;
  if (!backend) own = make_cpu_backend(threads), backend = own.get();
  Backend& be = *backend;
  std::unique_ptr<Circuit> own_circuit;
  if (!circuit) own_circuit = make_cpu_circuit(threads), circuit = own_circuit.get();
  const core::AirLayout& layout = core::air_layout();
  const unsigned lb = options.log_blowup;
  const size_t blowup = size_t{1} << lb;
  const size_t T = layout.tables.size();
  if (tables.size() != T) throw std::invalid_argument("the trace has " + std::to_string(tables.size()) + " tables");
  if (publics.size() != layout.publics.size()) throw std::invalid_argument("the trace has the wrong public values");
  Stopwatch clock(progress);
  std::vector<const MixedTree*> trees;
  std::vector<TableData>* tdp = nullptr;
  // The end of a stage: its time, and the bytes each live buffer holds.
  auto lap = [&](const char* stage, std::vector<std::pair<std::string, size_t>> more = {}) {
    clock.lap(stage);
    if (!buffers || !tdp) return;
    size_t mt = 0, ml = 0, al = 0, q = 0, tb = 0, held = 0;
    for (const TableData& d : *tdp) {
      mt += bytes_of(d.trace), ml += bytes_of(d.coeffs[kMain]), al += bytes_of(d.coeffs[kAux]);
      q += bytes_of(d.coeffs[kQuotient]);
      for (const auto& kind : d.held)
        for (const auto& p : kind) held += bytes_of(p);
    }
    for (const MixedTree* t : trees) tb += t->bytes();
    std::vector<std::pair<std::string, size_t>> live = {{"main trace", mt}, {"main coefficients", ml},
                                                         {"aux coefficients", al}, {"LDE held", held},
                                                         {"quotient", q}, {"Merkle trees", tb}};
    for (auto& m : more) live.push_back(std::move(m));
    buffers(stage, live);
  };

  // spec: protocol:stark:statement
  spec::StarkProof proof;
  proof.options = options;
  std::vector<TableData> td(T);
  tdp = &td;
  unsigned log_max = 0;
  for (size_t t = 0; t < T; ++t) {
    const core::TableLayout& tl = layout.tables[t];
    TableData& d = td[t];
    d.h = tables[t].height;
    if (tables[t].columns.size() != tl.columns) throw std::invalid_argument("table " + tl.name + " has the wrong width");
    for (const auto& c : tables[t].columns)
      if (c.size() != d.h) throw std::invalid_argument("table " + tl.name + " has columns of different heights");
    if (d.h == 0 || (d.h & (d.h - 1))) throw std::invalid_argument("table " + tl.name + "'s height is not a power of two");
    d.log_h = spec::ntt_log2(d.h);
    if (d.log_h > spec::kMaxLogHeight) throw std::invalid_argument("table " + tl.name + " is taller than 2^24 rows");
    if (tl.chunks > blowup) throw std::invalid_argument("table " + tl.name + " needs a larger blowup");
    proof.statement.log_heights.push_back(static_cast<uint8_t>(d.log_h));
    log_max = std::max(log_max, d.log_h);
  }
  for (size_t t = 0; t < T; ++t)
    for (auto& c : tables[t].columns) td[t].trace.push_back(be.adopt(std::move(c)));
  proof.statement.program_digest = keccak256(core::program_encoding(image));
  size_t exit_at = SIZE_MAX;
  for (size_t i = 0; i < layout.publics.size(); ++i)
    if (layout.publics[i] == "exit_code") exit_at = i;
  proof.statement.exit_code = static_cast<uint32_t>(publics.at(exit_at).value());
  {
    const auto& sp = spec::air::embedded_spec();
    const size_t ot = layout.table_index("output");
    const auto is_real = be.download(td[ot].trace[static_cast<size_t>(sp.tables[ot].column_index("is_real"))]);
    const auto value = be.download(td[ot].trace[static_cast<size_t>(sp.tables[ot].column_index("value"))]);
    for (size_t r = 0; r < td[ot].h; ++r)
      if (is_real[r].value()) proof.statement.output.push_back(static_cast<uint8_t>(value[r].value()));
  }
  core::StarkTranscript<Transcript> tr;
  tr.observe_statement(options, proof.statement);

  // spec: protocol:stark:main
  for (size_t t = 0; t < T; ++t) {
    const std::string label = "commit " + layout.tables[t].name;
    const core::span::Span per_table(label.c_str());
    TableData& d = td[t];
    d.n = d.h * blowup;
    d.shift = core::lde_shift<Fp>(log_max, d.log_h);
    for (const auto& col : d.trace) {
      d.coeffs[kMain].push_back(be.alloc<Fp>(d.h));
      be.copy(d.coeffs[kMain].back().storage(), col.storage(), d.h * sizeof(Fp));
    }
    be.dif_coefficients(d.coeffs[kMain]);
    for (size_t k = 0; k < blowup; ++k)
      d.factors.push_back(be.upload<Fp>(bitrev_coset_factors(d.log_h, d.shift * root_of_unity(d.log_h + lb).pow(k))));
  }
  // Part k of a table's LDE (every column of one kind): held (Lde::kHold: computed once, kept),
  // or computed into scratch.
  auto part = [&](TableData& d, Kind kind, size_t k, Columns& scratch) -> const Columns& {
    const Columns& coeffs = d.coeffs[kind];
    if (lde != Lde::kHold) {
      ensure(be, scratch, coeffs.size(), d.h);
      be.coset_part(coeffs, d.factors[k], scratch);
      return scratch;
    }
    auto& held = d.held[kind];
    if (held.empty()) held.resize(blowup);
    if (held[k].empty() && !coeffs.empty()) {
      ensure(be, held[k], coeffs.size(), d.h);
      be.coset_part(coeffs, d.factors[k], held[k]);
    }
    return held[k];
  };
  // Every table's columns of one kind as tree matrices (main: the committed columns only), a
  // part at a time.
  auto matrices = [&](Kind kind) {
    std::vector<Matrix> mats(T);
    for (size_t t = 0; t < T; ++t) {
      const std::vector<size_t>* which = kind == kMain ? &layout.tables[t].main : nullptr;
      mats[t].rows = td[t].n;
      mats[t].width = which ? which->size() : td[t].coeffs[kind].size();
      mats[t].parts = blowup;
      mats[t].part = [&, t, which, kind](size_t k, Columns& scratch, Columns& out) {
        TableData& dt = td[t];
        if (lde != Lde::kHold && which) {  // only the committed columns
          ensure(be, scratch, which->size(), dt.h);
          be.coset_part(pick(dt.coeffs[kind], *which), dt.factors[k], scratch);
          out = scratch;
          return;
        }
        const Columns& all = part(dt, kind, k, scratch);
        out = which ? pick(all, *which) : all;
      };
      mats[t].rows_at = [&, t, which, kind](size_t k, const std::vector<size_t>& idx) {
        TableData& dt = td[t];
        if (lde != Lde::kHold)  // from the coefficients, without the whole part
          return be.coset_rows(which ? pick(dt.coeffs[kind], *which) : dt.coeffs[kind], dt.factors[k], idx);
        Columns scratch;
        const Columns& all = part(dt, kind, k, scratch);
        const Columns cols = which ? pick(all, *which) : all;
        std::vector<std::vector<Fp>> out(idx.size(), std::vector<Fp>(cols.size()));
        for (size_t c = 0; c < cols.size(); ++c) {
          const auto v = be.gather(cols[c], idx);
          for (size_t j = 0; j < idx.size(); ++j) out[j][c] = v[j];
        }
        return out;
      };
    }
    return mats;
  };
  const MixedTree main_tree(be, matrices(kMain));
  proof.main_root = main_tree.root();
  tr.observe_main_root(proof.main_root);
  trees.push_back(&main_tree);
  lap("commit");

  // spec: protocol:stark:logup
  const core::LogupDraw<Fp3> draw = tr.sample_logup();
  const Fp3 alpha_lu = draw.alpha, beta_lu = draw.beta;
  for (size_t t = 0; t < T; ++t) {
    const core::TableLayout& tl = layout.tables[t];
    TableData& d = td[t];
    if (tl.interactions.empty()) continue;
    const std::string label = "logup " + tl.name;
    const core::span::Span per_table(label.c_str());
    ensure(be, d.coeffs[kAux], tl.aux_width(), d.h);
    d.terminal = circuit->logup_columns(be, t, tl.fractions, d.trace, publics, alpha_lu, beta_lu, d.coeffs[kAux]);
    be.dif_coefficients(d.coeffs[kAux]);
  }
  for (TableData& d : td) d.trace.clear();  // LogUp was the last to read it
  for (const TableData& d : td) proof.terminal_sums.push_back(raw(d.terminal));
  const MixedTree aux_tree(be, matrices(kAux));
  proof.aux_root = aux_tree.root();
  tr.observe_logup(proof.terminal_sums, proof.aux_root);
  trees.push_back(&aux_tree);
  lap("logup");

  // spec: protocol:stark:quotient
  const Fp3 alpha = tr.sample_constraint_alpha();
  for (size_t t = 0; t < T; ++t) {
    const std::string label = "quotient " + layout.tables[t].name;
    const core::span::Span per_table(label.c_str());
    const core::TableLayout& tl = layout.tables[t];
    TableData& d = td[t];
    const Fp w_n = root_of_unity(d.log_h + lb);
    const Buffer<Fp3> powers = be.upload<Fp3>(core::combination_powers(alpha, tl.combined_constraints()));
    // The combination on each LDE part (a coset of h rows, whose next row is the part's next),
    // divided by Z_H, which is one value on the part: x^h = (shift·ω_N^k)^h.
    Columns q, main_scratch, aux_scratch;
    // Zeros, not allocate's undefined bytes: a circuit that works on host copies reads q whole
    // (each part writes only its rows), and a DualBackend compares what is read.
    for (size_t c = 0; c < 3; ++c) q.push_back(be.upload<Fp>(std::vector<Fp>(d.n)));
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
      qp.lu_alpha = alpha_lu;
      qp.lu_beta = beta_lu;
      qp.terminal = d.terminal;
      circuit->quotient_part(be, qp, main_k, aux_k, publics, powers, q);
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
  trees.push_back(&q_tree);
  lap("quotient");

  // spec: protocol:stark:ood
  const Fp3 zeta = tr.sample_ood_point(proof.statement.log_heights, lb);
  // Every column's polynomial at ζ (and main and aux at ζ·ω_h), from its dif form: main at ζ,
  // main at ζω, aux at ζ, aux at ζω, the quotient chunks at ζ.
  for (const TableData& d : td) {
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
    for (TableData& d : td) {
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
  const core::FriShape shape = core::fri_shape(options, proof.statement.log_heights);
  FriProver fri(be, std::move(deep), lb);
  tr.fri_commit(shape, fri);
  proof.fri_roots = fri.roots();
  proof.final_poly = fri.final_poly();
  lap("fri", {{"FRI layers", fri.bytes()}});

  // spec: protocol:stark:queries
  proof.pow_nonce = tr.grind(options.pow_bits, threads);
  const std::vector<size_t> queries = tr.sample_queries(options.num_queries, shape.half(0));
  {  // the opened rows' values, from the coefficients (or the held parts)
    const auto main_v = main_tree.fetch(main_tree.rows_opened(queries));
    const auto aux_v = aux_tree.fetch(aux_tree.rows_opened(queries));
    const auto q_v = q_tree.fetch(q_tree.rows_opened(queries));
    for (size_t q : queries) proof.queries.push_back({main_tree.open(q, main_v), aux_tree.open(q, aux_v), q_tree.open(q, q_v)});
  }
  proof.fri_openings = fri.open(queries);
  lap("queries");
  return proof;
}
}  // namespace

}  // namespace zkrv::opt::prove
