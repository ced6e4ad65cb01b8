// The optimized prover: reference/prove/prove.cpp's steps, in the same order, on the fast parts.
// Field arithmetic is exact, so every value equals the reference's whatever the evaluation order
// or thread count. The transcript is opt::Transcript (the reference's bytes, threaded grinding).
#include "optimized/prove/prove.h"
#include "tools/span/span.h"

#include <map>
#include <set>
#include <stdexcept>

#include "optimized/air/air_eval.h"
#include "optimized/common/parallel.h"
#include "optimized/fri/fold.h"
#include "optimized/hash/keccak.h"
#include "optimized/merkle/merkle.h"
#include "optimized/ntt/ntt.h"
#include "reference/prove/stopwatch.h"
#include "reference/stark/air.h"
#include "optimized/transcript/transcript.h"
#include "spec/air/embedded.h"

namespace zkrv::opt::prove {
namespace {

namespace rs = ref::stark;
using ref::prove::Stopwatch;
using Column = std::vector<Fp>;

const Fp kOne = Fp::from_u64(1);

Fp to_opt(ref::Fp x) { return Fp::from_u64(x.value()); }
Fp3 to_opt(const ref::Fp3& x) { return {{to_opt(x.c[0]), to_opt(x.c[1]), to_opt(x.c[2])}}; }
ref::Fp3 to_ref(const Fp3& x) {
  return {{ref::Fp::from_u64(x.c[0].value()), ref::Fp::from_u64(x.c[1].value()), ref::Fp::from_u64(x.c[2].value())}};
}
spec::Fp3Raw raw(const Fp3& x) { return {x.c[0].value(), x.c[1].value(), x.c[2].value()}; }
Fp3 embed(Fp x) { return {{x, Fp(), Fp()}}; }

void put_fp(std::vector<uint8_t>& b, Fp x) {
  const uint64_t v = x.value();
  uint8_t bytes[8];
  for (int k = 0; k < 8; ++k) bytes[k] = static_cast<uint8_t>(v >> (8 * k));
  b.insert(b.end(), bytes, bytes + 8);
}

// protocol:merkle:mixed, threaded: the same root and openings as ref::MixedMerkleTree.
class MixedTree {
 public:
  MixedTree(std::vector<std::vector<const Column*>> matrices, unsigned threads) {
    size_t n = 0;
    for (auto& m : matrices) {
      if (m.empty()) continue;
      n = std::max(n, m.front()->size());
      m_.push_back(std::move(m));
    }
    if (n < 2) throw std::invalid_argument("mixed Merkle: the tallest matrix needs at least 2 rows");
    std::vector<Digest> level(n / 2);
    // Leaves eight at a time (keccak256_x8: they all have the same length), in blocks of eight
    // so that every thread's range is whole groups.
    const size_t leaves = n / 2, groups = (leaves + 7) / 8;
    parallel_for(groups, threads, [&](size_t gb, size_t ge) {
      std::vector<uint8_t> buf[8];
      for (size_t g = gb; g < ge; ++g) {
        const size_t first = 8 * g, count = std::min<size_t>(8, leaves - first);
        for (size_t k = 0; k < count; ++k) {
          const size_t i = first + k;
          auto& b = buf[k];
          b.assign(1, 0x00);
          for (const auto& m : m_) {
            const size_t h = m.front()->size();
            if (h == n)
              for (size_t r : {i, i + n / 2})
                for (const Column* c : m) put_fp(b, (*c)[r]);
            else if (h == n / 2)
              for (const Column* c : m) put_fp(b, (*c)[i]);
          }
        }
        if (count == 8) {
          const uint8_t* msgs[8];
          for (size_t k = 0; k < 8; ++k) msgs[k] = buf[k].data();
          keccak256_x8(msgs, buf[0].size(), &level[first]);
        } else {
          for (size_t k = 0; k < count; ++k) level[first + k] = keccak256(buf[k]);
        }
      }
    }, 8);
    levels_.push_back(std::move(level));
    for (size_t w = n / 4; w >= 1; w /= 2) {
      const auto& below = levels_.back();
      std::vector<Digest> up(w);
      bool inject = false;  // matrices of this height enter here
      for (const auto& m : m_) inject |= m.front()->size() == w;
      // Nodes eight at a time, like the leaves (every node of a level hashes the same length).
      const size_t groups = (w + 7) / 8;
      parallel_for(groups, threads, [&](size_t gb, size_t ge) {
        std::vector<uint8_t> buf[8];
        auto hash = [&](size_t first, size_t count) {
          if (count == 8) {
            const uint8_t* msgs[8];
            for (size_t k = 0; k < 8; ++k) msgs[k] = buf[k].data();
            keccak256_x8(msgs, buf[0].size(), &up[first]);
          } else {
            for (size_t k = 0; k < count; ++k) up[first + k] = keccak256(buf[k]);
          }
        };
        for (size_t g = gb; g < ge; ++g) {
          const size_t first = 8 * g, count = std::min<size_t>(8, w - first);
          for (size_t k = 0; k < count; ++k) {
            const size_t j = first + k;
            buf[k].assign(1, 0x01);
            buf[k].insert(buf[k].end(), below[j].begin(), below[j].end());
            buf[k].insert(buf[k].end(), below[j + w].begin(), below[j + w].end());
          }
          hash(first, count);
          if (!inject) continue;
          for (size_t k = 0; k < count; ++k) {
            const size_t j = first + k;
            buf[k].assign(1, 0x02);
            buf[k].insert(buf[k].end(), up[j].begin(), up[j].end());
            for (const auto& m : m_)
              if (m.front()->size() == w)
                for (const Column* c : m) put_fp(buf[k], (*c)[j]);
          }
          hash(first, count);
        }
      }, 32);
      levels_.push_back(std::move(up));
      if (w == 1) break;
    }
  }
  const Digest& root() const { return levels_.back()[0]; }
  size_t bytes() const {
    size_t b = 0;
    for (const auto& l : levels_) b += l.size() * sizeof(Digest);
    return b;
  }
  spec::MixedOpening open(size_t i) const {
    const size_t half = levels_.front().size(), n = 2 * half;
    spec::MixedOpening o;
    for (const auto& m : m_) {
      const size_t h = m.front()->size();
      if (h == n)
        for (size_t r : {i, i + half})
          for (const Column* c : m) o.values.push_back((*c)[r].value());
      else if (h == half)
        for (const Column* c : m) o.values.push_back((*c)[i].value());
    }
    for (size_t w = n / 4; w >= 1; w /= 2) {
      for (const auto& m : m_)
        if (m.front()->size() == w)
          for (const Column* c : m) o.values.push_back((*c)[i % w].value());
      if (w == 1) break;
    }
    for (size_t l = 0; l + 1 < levels_.size(); ++l) {
      const size_t width = levels_[l].size();
      o.siblings.push_back(levels_[l][(i % width) ^ (width / 2)]);
    }
    return o;
  }

 private:
  std::vector<std::vector<const Column*>> m_;
  std::vector<std::vector<Digest>> levels_;
};

struct TableData {
  unsigned log_h = 0;
  size_t h = 0, n = 0;
  Fp shift;
  std::vector<Column> trace, lde;  // spec columns, on the trace domain and the LDE coset
  std::vector<Column> aux, aux_lde;
  std::vector<Column> q_coeffs, q_lde;
  Fp3 terminal;
};

// Evaluations on shift·<ω_n> of the polynomial with these coefficients.
Column coset_evals(Column coeffs, size_t n, Fp shift, unsigned threads) {
  coeffs.resize(n, Fp());
  Fp s = kOne;
  for (Fp& c : coeffs) c = c * s, s = s * shift;
  ntt(coeffs, threads);
  return coeffs;
}
// Coefficients of the polynomial whose evaluations on shift·<ω_n> are `evals`.
Column coset_coeffs(Column evals, Fp shift, unsigned threads) {
  intt(evals, threads);
  const Fp inv = shift.inverse();
  Fp s = kOne;
  for (Fp& x : evals) x = x * s, s = s * inv;
  return evals;
}
// Σ_i e_i L_i(z) over <ω_h>, with weights[i] = L_i(z).
Fp3 at(const Column& col, const std::vector<Fp3>& weights) {
  Fp3 s{};
  for (size_t i = 0; i < col.size(); ++i) s = s + weights[i] * col[i];
  return s;
}

}  // namespace

namespace {
spec::StarkProof prove_impl(const spec::ProgramImage& image, std::vector<air::TableColumns>&& tables,
                            const std::vector<Fp>& publics, const spec::StarkOptions& options, unsigned threads,
                            const Progress& progress, const BufferReport& buffers = {});

// A table the reference builder keeps row by row, column-major in spec column order.
air::TableColumns table_columns(const ref::air::TraceTable& tt, const spec::air::Table& st) {
  air::TableColumns t;
  t.height = tt.height();
  t.columns.assign(st.columns.size(), Column(t.height));
  for (size_t c = 0; c < st.columns.size(); ++c) {
    const size_t k = tt.col(st.columns[c].name);
    for (size_t r = 0; r < t.height; ++r) t.columns[c][r] = Fp::from_u64(tt.rows[r][k]);
  }
  return t;
}
spec::StarkProof prove_rows(const spec::ProgramImage& image, const ref::air::AirTrace& trace, ref::air::AirTrace* consume,
                            const spec::StarkOptions& options, unsigned threads, const Progress& progress) {
  const spec::air::Spec& sp = spec::air::embedded_spec();
  std::vector<air::TableColumns> tables;
  for (const auto& st : sp.tables) {
    tables.push_back(table_columns(trace.table(st.name), st));
    if (consume) std::vector<std::vector<uint64_t>>().swap(consume->table(st.name).rows);
  }
  std::vector<Fp> publics;
  for (const std::string& name : rs::air_layout().publics) publics.push_back(Fp::from_u64(trace.publics.at(name)));
  return prove_impl(image, std::move(tables), publics, options, threads, progress);
}
}  // namespace

spec::StarkProof prove_unchecked(const spec::ProgramImage& image, const ref::air::AirTrace& trace,
                                 const spec::StarkOptions& options, unsigned threads, const Progress& progress) {
  return prove_rows(image, trace, nullptr, options, threads, progress);
}
spec::StarkProof prove_unchecked_consuming(const spec::ProgramImage& image, ref::air::AirTrace&& trace,
                                           const spec::StarkOptions& options, unsigned threads,
                                           const Progress& progress) {
  return prove_rows(image, trace, &trace, options, threads, progress);
}
spec::StarkProof prove_unchecked(const spec::ProgramImage& image, std::vector<air::TableColumns>&& tables,
                                 const std::vector<Fp>& publics, const spec::StarkOptions& options, unsigned threads,
                                 const Progress& progress, const BufferReport& buffers) {
  return prove_impl(image, std::move(tables), publics, options, threads, progress, buffers);
}

namespace {
spec::StarkProof prove_impl(const spec::ProgramImage& image, std::vector<air::TableColumns>&& tables,
                            const std::vector<Fp>& publics, const spec::StarkOptions& options, unsigned threads,
                            const Progress& progress, const BufferReport& buffers) {
  if (auto why = spec::check_options(options)) throw std::invalid_argument("proof options: " + *why);
  threads = resolve_threads(threads);
  const rs::AirLayout& layout = rs::air_layout();
  const auto& code = air::generated_tables();
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
    auto sz = [](const std::vector<Column>& v) {
      size_t b = 0;
      for (const auto& c : v) b += c.capacity() * sizeof(Fp);
      return b;
    };
    size_t mt = 0, ml = 0, at = 0, al = 0, q = 0, tb = 0;
    for (const TableData& d : *tdp) mt += sz(d.trace), ml += sz(d.lde), at += sz(d.aux), al += sz(d.aux_lde), q += sz(d.q_coeffs) + sz(d.q_lde);
    for (const MixedTree* t : trees) tb += t->bytes();
    std::vector<std::pair<std::string, size_t>> live = {{"main trace", mt}, {"main LDE", ml}, {"aux trace", at},
                                                         {"aux LDE", al}, {"quotient", q}, {"Merkle trees", tb}};
    for (auto& m : more) live.push_back(std::move(m));
    buffers(stage, live);
  };

  // spec: protocol:stark:statement
  spec::StarkProof proof;
  proof.options = options;
  std::vector<TableData> td(T);
  tdp = &td;
  unsigned log_max = 0, log_min = 64;
  for (size_t t = 0; t < T; ++t) {
    const rs::TableLayout& tl = layout.tables[t];
    TableData& d = td[t];
    d.h = tables[t].height;
    if (tables[t].columns.size() != tl.columns) throw std::invalid_argument("table " + tl.name + " has the wrong width");
    for (const auto& c : tables[t].columns)
      if (c.size() != d.h) throw std::invalid_argument("table " + tl.name + " has columns of different heights");
    if (d.h == 0 || (d.h & (d.h - 1))) throw std::invalid_argument("table " + tl.name + "'s height is not a power of two");
    d.log_h = spec::ntt_log2(d.h);
    if (d.log_h > spec::kMaxLogHeight) throw std::invalid_argument("table " + tl.name + " is taller than 2^24 rows");
    d.trace = std::move(tables[t].columns);
    proof.statement.log_heights.push_back(static_cast<uint8_t>(d.log_h));
    log_max = std::max(log_max, d.log_h);
    log_min = std::min(log_min, d.log_h);
    if (tl.chunks > blowup) throw std::invalid_argument("table " + tl.name + " needs a larger blowup");
  }
  proof.statement.program_digest = rs::program_digest(image);
  size_t exit_at = SIZE_MAX;
  for (size_t i = 0; i < layout.publics.size(); ++i)
    if (layout.publics[i] == "exit_code") exit_at = i;
  proof.statement.exit_code = static_cast<uint32_t>(publics.at(exit_at).value());
  {
    const auto& sp = spec::air::embedded_spec();
    const size_t ot = layout.table_index("output");
    const auto& out = td[ot].trace;
    const size_t is_real = static_cast<size_t>(sp.tables[ot].column_index("is_real")),
                 value = static_cast<size_t>(sp.tables[ot].column_index("value"));
    for (size_t r = 0; r < td[ot].h; ++r)
      if (out[is_real][r].value()) proof.statement.output.push_back(static_cast<uint8_t>(out[value][r].value()));
  }
  Transcript tr("zkrv-stark-v1");
  tr.absorb("statement", spec::encode_statement(options, proof.statement));

  // spec: protocol:stark:main
  for (size_t t = 0; t < T; ++t) {
    const std::string label = "commit " + layout.tables[t].name;
    const span::Span per_table(label.c_str());
    TableData& d = td[t];
    d.n = d.h * blowup;
    d.shift = to_opt(rs::lde_shift(log_max, d.log_h));
    d.lde.resize(d.trace.size());
    parallel_for(d.trace.size(), threads, [&](size_t b, size_t e) {
      for (size_t c = b; c < e; ++c) d.lde[c] = coset_lde(d.trace[c], static_cast<unsigned>(blowup), d.shift);
    }, 1);
  }
  std::vector<std::vector<const Column*>> mats(T);
  for (size_t t = 0; t < T; ++t)
    for (size_t c : layout.tables[t].main) mats[t].push_back(&td[t].lde[c]);
  const MixedTree main_tree(mats, threads);
  proof.main_root = main_tree.root();
  tr.absorb_digest("main-root", proof.main_root);
  trees.push_back(&main_tree);
  lap("commit");

  // spec: protocol:stark:logup
  const Fp3 alpha_lu = tr.squeeze_ext("logup-alpha"), beta_lu = tr.squeeze_ext("logup-beta");
  for (size_t t = 0; t < T; ++t) {
    const rs::TableLayout& tl = layout.tables[t];
    TableData& d = td[t];
    if (tl.interactions.empty()) continue;
    const std::string label = "logup " + tl.name;
    const span::Span per_table(label.c_str());
    const size_t I = tl.interactions.size(), F = tl.fractions.size();
    std::vector<const Fp*> cols;
    for (const auto& c : d.trace) cols.push_back(c.data());
    air::CheckArgs args;
    args.columns = cols.data();
    args.n = d.h;
    args.publics = publics.data();
    args.lu_alpha = alpha_lu;
    args.lu_beta = beta_lu;
    // Each fraction column's value m0/d0 (+ m1/d1) straight into its three base columns, a block
    // of rows at a time with one batch inversion: a term with multiplicity 0 adds nothing and is
    // not inverted; a pair with both terms is one fraction (d1 m0 + d0 m1) / (d0 d1). A zero
    // denominator gives 0, as the reference's batch inversion does.
    d.aux.assign(3 * (F + 1), Column(d.h));
    parallel_for(d.h, threads, [&](size_t b, size_t e) {
      constexpr size_t kBlock = 256;
      std::vector<Fp3> dd(kBlock * I), nums(kBlock * F), dens(kBlock * F);
      std::vector<Fp> mm(kBlock * I);
      std::vector<uint32_t> cell(kBlock * F);  // (row in block) * F + f of each kept fraction
      for (size_t r0 = b; r0 < e; r0 += kBlock) {
        const size_t r1 = std::min(e, r0 + kBlock);
        code[t].logup(args, r0, r1, dd.data(), mm.data());
        size_t kept = 0;
        for (size_t r = r0; r < r1; ++r)
          for (size_t f = 0; f < F; ++f) {
            for (size_t c = 0; c < 3; ++c) d.aux[3 * f + c][r] = Fp();
            const auto& g = tl.fractions[f];
            const size_t at0 = (r - r0) * I + g[0];
            const Fp3 d0 = dd[at0];
            const Fp m0 = mm[at0];
            if (d0 == Fp3{}) continue;
            Fp3 n, q;
            if (g.size() == 2) {
              const size_t at1 = (r - r0) * I + g[1];
              const Fp3 d1 = dd[at1];
              const Fp m1 = mm[at1];
              if (d1 == Fp3{}) continue;
              if (m0.value() == 0 && m1.value() == 0) continue;
              if (m1.value() == 0) n = embed(m0), q = d0;
              else if (m0.value() == 0) n = embed(m1), q = d1;
              else n = d1 * m0 + d0 * m1, q = d0 * d1;
            } else {
              if (m0.value() == 0) continue;
              n = embed(m0), q = d0;
            }
            nums[kept] = n, dens[kept] = q, cell[kept++] = static_cast<uint32_t>((r - r0) * F + f);
          }
        batch_inverse(std::span<Fp3>(dens.data(), kept));
        for (size_t k = 0; k < kept; ++k) {
          const Fp3 v = nums[k] * dens[k];
          const size_t r = r0 + cell[k] / F, f = cell[k] % F;
          for (size_t c = 0; c < 3; ++c) d.aux[3 * f + c][r] = v.c[c];
        }
      }
    }, 256);
    Fp3 s{};
    for (size_t r = 0; r < d.h; ++r) {
      for (size_t f = 0; f < F; ++f) s = s + Fp3{{d.aux[3 * f][r], d.aux[3 * f + 1][r], d.aux[3 * f + 2][r]}};
      for (size_t c = 0; c < 3; ++c) d.aux[3 * F + c][r] = s.c[c];
    }
    d.terminal = s;
    d.aux_lde.resize(d.aux.size());
    parallel_for(d.aux.size(), threads, [&](size_t b, size_t e) {
      for (size_t c = b; c < e; ++c) d.aux_lde[c] = coset_lde(d.aux[c], static_cast<unsigned>(blowup), d.shift);
    }, 1);
  }
  for (const TableData& d : td) {
    proof.terminal_sums.push_back(raw(d.terminal));
    tr.absorb_ext("logup-sum", d.terminal);
  }
  // One mixed tree over a set of every table's columns (aux, quotient).
  auto tree_of = [&](std::vector<Column> TableData::*set) {
    for (size_t t = 0; t < T; ++t) {
      mats[t].clear();
      for (const auto& c : td[t].*set) mats[t].push_back(&c);
    }
    return MixedTree(mats, threads);
  };
  const MixedTree aux_tree = tree_of(&TableData::aux_lde);
  proof.aux_root = aux_tree.root();
  tr.absorb_digest("aux-root", proof.aux_root);
  trees.push_back(&aux_tree);
  lap("logup");

  // spec: protocol:stark:quotient
  const ref::Fp3 alpha = to_ref(tr.squeeze_ext("constraint-alpha"));
  for (size_t t = 0; t < T; ++t) {
    const std::string label = "quotient " + layout.tables[t].name;
    const span::Span per_table(label.c_str());
    const rs::TableLayout& tl = layout.tables[t];
    TableData& d = td[t];
    const Fp w_n = root_of_unity(d.log_h + lb), w_inv = root_of_unity(d.log_h).inverse();
    const Fp h_inv = Fp::from_u64(d.h).inverse();
    Column first(d.n), last(d.n), transition(d.n), inv_zh(d.n);
    {
      Column inv_x1(d.n), inv_xl(d.n), zh(d.n);
      parallel_for(d.n, threads, [&](size_t b, size_t e) {
        Fp x = d.shift * w_n.pow(b);
        for (size_t i = b; i < e; ++i, x = x * w_n) {
          inv_x1[i] = x - kOne;
          inv_xl[i] = x - w_inv;
          zh[i] = x.pow(d.h) - kOne;
          inv_zh[i] = zh[i];
          transition[i] = x - w_inv;
        }
      });
      batch_inverse(inv_x1);
      batch_inverse(inv_xl);
      batch_inverse(inv_zh);
      for (size_t i = 0; i < d.n; ++i) {
        first[i] = zh[i] * h_inv * inv_x1[i];
        last[i] = w_inv * zh[i] * h_inv * inv_xl[i];
      }
    }
    std::vector<Fp3> powers;
    for (const auto& p : rs::combination_powers(alpha, tl.combined_constraints())) powers.push_back(to_opt(p));
    std::vector<const Fp*> cols, aux;
    for (const auto& c : d.lde) cols.push_back(c.data());
    for (const auto& c : d.aux_lde) aux.push_back(c.data());
    air::CombineArgs a;
    a.columns = cols.data();
    a.aux = aux.data();
    a.n = d.n;
    a.next = blowup;
    a.publics = publics.data();
    a.lu_alpha = alpha_lu;
    a.lu_beta = beta_lu;
    a.terminal = d.terminal;
    a.powers = powers.data();
    a.sel_first = first.data();
    a.sel_last = last.data();
    a.sel_transition = transition.data();
    std::vector<Fp3> v(d.n);
    parallel_for(d.n, threads, [&](size_t b, size_t e) {
      constexpr size_t kBlock = 1024;
      for (size_t i = b; i < e; i += kBlock) code[t].combine(a, i, std::min(e, i + kBlock), v.data() + i);
    }, 1024);
    std::vector<Column> q(3, Column(d.n));
    for (size_t i = 0; i < d.n; ++i) {
      const Fp3 qv = v[i] * inv_zh[i];
      for (size_t c = 0; c < 3; ++c) q[c][i] = qv.c[c];
    }
    std::vector<Fp3>().swap(v);
    d.q_coeffs.assign(3 * tl.chunks, Column());
    for (size_t c = 0; c < 3; ++c) {
      const Column coeffs = coset_coeffs(std::move(q[c]), d.shift, threads);
      for (size_t k = 0; k < tl.chunks; ++k)
        d.q_coeffs[3 * k + c].assign(coeffs.begin() + static_cast<long>(k * d.h), coeffs.begin() + static_cast<long>((k + 1) * d.h));
    }
    d.q_lde.resize(d.q_coeffs.size());
    for (size_t k = 0; k < d.q_coeffs.size(); ++k) d.q_lde[k] = coset_evals(d.q_coeffs[k], d.n, d.shift, threads);
  }
  const MixedTree q_tree = tree_of(&TableData::q_lde);
  proof.quotient_root = q_tree.root();
  tr.absorb_digest("quotient-root", proof.quotient_root);
  trees.push_back(&q_tree);
  lap("quotient");

  // spec: protocol:stark:ood
  ref::Fp3 zeta_ref;
  do {
    zeta_ref = to_ref(tr.squeeze_ext("ood-point"));
  } while (!rs::ood_point_ok(zeta_ref, proof.statement.log_heights, lb));
  const Fp3 zeta = to_opt(zeta_ref);
  std::map<std::pair<unsigned, int>, std::vector<Fp3>> weights;
  auto weights_for = [&](unsigned log_h, int shifted) -> const std::vector<Fp3>& {
    auto key = std::make_pair(log_h, shifted);
    auto it = weights.find(key);
    if (it == weights.end()) {
      const size_t h = size_t{1} << log_h;
      const Fp3 z = shifted ? zeta * root_of_unity(log_h) : zeta;
      auto w = barycentric_weights(h, z, threads);
      if (!w) throw std::logic_error("ood point on a trace domain");  // ood_point_ok excludes it
      const Fp3 factor = ood_factor(h, z);
      for (Fp3& x : *w) x = x * factor;
      it = weights.emplace(key, std::move(*w)).first;
    }
    return it->second;
  };
  for (const TableData& d : td) {
    std::vector<const Column*> opened;
    std::vector<int> shifted;
    for (int s = 0; s < 2; ++s)
      for (const auto& col : d.trace) opened.push_back(&col), shifted.push_back(s);
    for (int s = 0; s < 2; ++s)
      for (const auto& col : d.aux) opened.push_back(&col), shifted.push_back(s);
    weights_for(d.log_h, 0);
    weights_for(d.log_h, 1);
    std::vector<Fp3> values(opened.size());
    parallel_for(opened.size(), threads, [&](size_t b, size_t e) {
      for (size_t k = b; k < e; ++k) values[k] = at(*opened[k], weights.at({d.log_h, shifted[k]}));
    }, 1);
    for (const Fp3& x : values) proof.ood.push_back(raw(x));
    for (const auto& coeffs : d.q_coeffs) {
      Fp3 acc{};
      for (size_t j = coeffs.size(); j-- > 0;) acc = acc * zeta + embed(coeffs[j]);
      proof.ood.push_back(raw(acc));
    }
  }
  tr.absorb("ood-values", rs::fp3_bytes(proof.ood));
  lap("ood");

  // spec: protocol:stark:deep
  const Fp3 gamma = tr.squeeze_ext("deep-gamma");
  std::map<unsigned, std::vector<Fp3>> deep;
  {
    Fp3 power = embed(kOne);
    size_t k = 0;
    for (const TableData& d : td) {
      auto& acc = deep[d.log_h];
      acc.resize(d.n);
      const Fp w_n = root_of_unity(d.log_h + lb);
      const Fp3 zeta_next = zeta * root_of_unity(d.log_h);
      std::vector<Fp3> inv_z(d.n), inv_zn(d.n);
      parallel_for(d.n, threads, [&](size_t b, size_t e) {
        Fp x = d.shift * w_n.pow(b);
        for (size_t i = b; i < e; ++i, x = x * w_n) inv_z[i] = embed(x) - zeta, inv_zn[i] = embed(x) - zeta_next;
      });
      batch_inverse(std::span<Fp3>(inv_z));
      batch_inverse(std::span<Fp3>(inv_zn));
      // the opened columns in ood order, each with its power of γ and opening point
      std::vector<const Column*> f;
      std::vector<Fp3> pw;
      std::vector<int> sh;
      Fp3 const_z{}, const_zn{};
      auto term = [&](const Column& col, int s) {
        const Fp3 v = Fp3{{Fp::from_u64(proof.ood[k][0]), Fp::from_u64(proof.ood[k][1]), Fp::from_u64(proof.ood[k][2])}};
        ++k;
        (s ? const_zn : const_z) = (s ? const_zn : const_z) + power * v;
        f.push_back(&col), pw.push_back(power), sh.push_back(s);
        power = power * gamma;
      };
      for (int s = 0; s < 2; ++s)
        for (const auto& col : d.lde) term(col, s);
      for (int s = 0; s < 2; ++s)
        for (const auto& col : d.aux_lde) term(col, s);
      for (const auto& col : d.q_lde) term(col, 0);
      // Rows in blocks, columns outer within a block: each column is read as one stream (the
      // lazy sums are exact integers until value(), so the order of the terms does not matter).
      parallel_for(d.n, threads, [&](size_t b, size_t e) {
        constexpr size_t kBlock = 128;
        std::vector<air::LazySum3> sz(kBlock), szn(kBlock);
        for (size_t i0 = b; i0 < e; i0 += kBlock) {
          const size_t m = std::min(e, i0 + kBlock) - i0;
          std::fill(sz.begin(), sz.begin() + static_cast<ptrdiff_t>(m), air::LazySum3{});
          std::fill(szn.begin(), szn.begin() + static_cast<ptrdiff_t>(m), air::LazySum3{});
          for (size_t c = 0; c < f.size(); ++c) {
            const Fp* col = f[c]->data() + i0;
            auto& out = sh[c] ? szn : sz;
            for (size_t i = 0; i < m; ++i) out[i].add(pw[c], col[i]);
          }
          for (size_t i = 0; i < m; ++i)
            acc[i0 + i] = acc[i0 + i] + (sz[i].value() - const_z) * inv_z[i0 + i] + (szn[i].value() - const_zn) * inv_zn[i0 + i];
        }
      });
    }
  }
  {
    size_t b = 0;
    for (const auto& [h, v] : deep) b += v.capacity() * sizeof(Fp3);
    lap("deep", {{"DEEP codewords", b}});
  }

  // spec: protocol:stark:fri
  const unsigned log_final = std::min(options.log_final_size, log_min);
  const unsigned rounds = log_max - log_final;
  std::vector<MerkleTree> fri_trees;
  std::vector<std::vector<Fp>> fri_rows;  // per committed layer: row-major, 6 values per leaf
  std::vector<Fp3> g = deep[log_max];
  Fp s = Fp::from_u64(spec::GoldilocksTraits::kGenerator);
  for (unsigned l = 0; l < rounds; ++l) {
    const size_t n = g.size(), half = n / 2;
    if (l >= 1) {
      std::vector<Fp> rows(half * 6);
      for (size_t i = 0; i < half; ++i)
        for (size_t c = 0; c < 3; ++c) rows[6 * i + c] = g[i].c[c], rows[6 * i + 3 + c] = g[i + half].c[c];
      fri_trees.emplace_back(rows, half, 6, threads);
      fri_rows.push_back(std::move(rows));
      proof.fri_roots.push_back(fri_trees.back().root());
      tr.absorb_digest("fri-layer-root", proof.fri_roots.back());
    }
    const Fp3 beta = tr.squeeze_ext("fri-fold");
    std::vector<Fp3> next(half);
    fri_fold_layer(g, 1, s, beta, next, threads);
    s = s * s;
    const unsigned log_h_next = log_max - l - 1;
    if (deep.count(log_h_next)) {
      const Fp3 lambda = tr.squeeze_ext("fri-inject");
      const auto& in = deep[log_h_next];
      for (size_t i = 0; i < half; ++i) next[i] = next[i] + lambda * in[i];
    }
    g = std::move(next);
  }
  {
    std::vector<Column> comp(3, Column(g.size()));
    for (size_t i = 0; i < g.size(); ++i)
      for (size_t c = 0; c < 3; ++c) comp[c][i] = g[i].c[c];
    for (auto& col : comp) col = coset_coeffs(std::move(col), s, threads);
    for (size_t k = 0; k < (size_t{1} << log_final); ++k)
      proof.final_poly.push_back({comp[0][k].value(), comp[1][k].value(), comp[2][k].value()});
    tr.absorb("fri-final", rs::fp3_bytes(proof.final_poly));
  }
  {
    size_t b = 0;
    for (const auto& t : fri_trees) b += t.bytes();
    for (const auto& r : fri_rows) b += r.capacity() * sizeof(Fp);
    lap("fri", {{"FRI layers", b}});
  }

  // spec: protocol:stark:queries
  proof.pow_nonce = tr.grind(options.pow_bits, threads);
  {
    std::vector<uint8_t> b;
    for (int k = 0; k < 8; ++k) b.push_back(static_cast<uint8_t>(proof.pow_nonce >> (8 * k)));
    tr.absorb("fri-pow", b);
  }
  const size_t half0 = size_t{1} << (log_max + lb - 1);
  std::vector<size_t> queries;
  for (unsigned i = 0; i < options.num_queries; ++i) queries.push_back(tr.squeeze_index("fri-query", half0));
  for (size_t q : queries) proof.queries.push_back({main_tree.open(q), aux_tree.open(q), q_tree.open(q)});
  for (size_t l = 0; l < fri_trees.size(); ++l) {
    const size_t half = fri_rows[l].size() / 6;
    std::set<size_t> leaves;
    for (size_t q : queries) leaves.insert(q % half);
    spec::FriLayerOpening op;
    for (size_t i : leaves) {
      std::vector<uint64_t> row;
      for (size_t c = 0; c < 6; ++c) row.push_back(fri_rows[l][6 * i + c].value());
      op.rows.push_back(row);
    }
    op.merkle_proof = fri_trees[l].open_batch({leaves.begin(), leaves.end()});
    proof.fri_openings.push_back(std::move(op));
  }
  lap("queries");
  return proof;
}
}  // namespace

}  // namespace zkrv::opt::prove
