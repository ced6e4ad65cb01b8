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

// x's 8 bytes, little-endian, at b; returns b + 8.
uint8_t* put_fp(uint8_t* b, Fp x) {
  const uint64_t v = x.value();
  for (int k = 0; k < 8; ++k) b[k] = static_cast<uint8_t>(v >> (8 * k));
  return b + 8;
}
// The bytes of one row of each of these matrices' columns, sizes in values.
size_t values_of(const std::vector<std::vector<const Column*>>& cols, const std::vector<size_t>& at) {
  size_t v = 0;
  for (size_t m : at) v += cols[m].size();
  return v;
}

// Keccak-256 of cnt ≤ 8 messages of equal length: eight at once (keccak256_x8), else one by one.
void hash_group(const std::vector<uint8_t> (&buf)[8], size_t cnt, Digest out[8]) {
  if (cnt == 8) {
    const uint8_t* msgs[8];
    for (size_t q = 0; q < 8; ++q) msgs[q] = buf[q].data();
    keccak256_x8(msgs, buf[0].size(), out);
  } else {
    for (size_t q = 0; q < cnt; ++q) out[q] = keccak256(buf[q]);
  }
}

// A matrix of LDE rows that is never held whole: its `rows` rows (a power of two, at least
// `parts`) come in `parts` interleaved parts, part k holding rows k, k + parts, k + 2·parts, ...
// (on the LDE coset these are the cosets shift·ω^k·<ω^parts>, one NTT of rows/parts each).
struct Matrix {
  size_t rows = 0, width = 0, parts = 1;
  // part k: width columns of rows/parts values, in `out` (computed into `scratch`, or held elsewhere)
  std::function<void(size_t k, std::vector<Column>& scratch, std::vector<const Column*>& out)> part;
  // optional, for the openings: rows idx of part k only (out[j] = row idx[j]), cheaper than the part
  std::function<void(size_t k, const std::vector<size_t>& idx, std::vector<std::vector<Fp>>& out)> rows_at;
};

// protocol:merkle:mixed, threaded: the same root and openings as ref::MixedMerkleTree, with the
// matrices computed one part at a time (the parts of every matrix that a level needs at once).
class MixedTree {
 public:
  MixedTree(std::vector<Matrix> matrices, unsigned threads) {
    size_t n = 0;
    for (auto& m : matrices) {
      if (m.width == 0) continue;
      n = std::max(n, m.rows);
      m_.push_back(std::move(m));
    }
    if (n < 2) throw std::invalid_argument("mixed Merkle: the tallest matrix needs at least 2 rows");
    // Leaves: leaf i hashes rows i and i + n/2 of the tallest matrices and row i of those of
    // height n/2, all in part i mod P; eight at a time (keccak256_x8: equal lengths).
    {
      std::vector<Digest> level(n / 2);
      size_t P = 1;
      const std::vector<size_t> at = select(n, n / 2, P, "leaf");  // the matrices the leaves read
      std::vector<std::vector<Column>> scratch(m_.size());
      std::vector<std::vector<const Column*>> cols(m_.size());
      for (size_t k = 0; k < P; ++k) {
        for (size_t m : at) m_[m].part(k, scratch[m], cols[m]);
        const size_t count = n / 2 / P, groups = (count + 7) / 8;  // leaves i = P s + k
        size_t len = 1;  // a leaf's message: 0x00, then its rows
        for (size_t m : at) len += 8 * cols[m].size() * (m_[m].rows == n ? 2 : 1);
        // The leaves' values in message order, a slot per (matrix, row of the leaf, column): slot
        // s reads column src[s] from row offset[s] + (the leaf's index in the part).
        std::vector<const Column*> src;
        std::vector<size_t> offset;
        for (size_t m : at)
          for (size_t v = 0; v < (m_[m].rows == n ? 2u : 1u); ++v)
            for (const Column* c : cols[m]) src.push_back(c), offset.push_back(v * (n / 2 / P));
        parallel_for(groups, threads, [&](size_t gb, size_t ge) {
          // A tile of 256 leaves: every slot's values copied first (one short stream per column),
          // then the messages written from it. Read in place, each leaf would touch a cache line
          // and a page in every column: at 2^20 rows that took more time than the hashing.
          constexpr size_t kTile = 256;
          std::vector<Fp> tile(src.size() * kTile);
          std::vector<uint8_t> buf[8];
          for (auto& b : buf) b.resize(len);
          for (size_t g0 = gb; g0 < ge; g0 += kTile / 8) {
            const size_t first0 = 8 * g0, L = std::min(count, first0 + kTile) - first0;
            for (size_t sl = 0; sl < src.size(); ++sl) {
              const auto from = src[sl]->begin() + static_cast<ptrdiff_t>(offset[sl] + first0);
              std::copy(from, from + static_cast<ptrdiff_t>(L), tile.begin() + static_cast<ptrdiff_t>(sl * kTile));
            }
            for (size_t g = g0; g < std::min(ge, g0 + kTile / 8); ++g) {
              const size_t first = 8 * g, cnt = std::min<size_t>(8, count - first);
              for (size_t q = 0; q < cnt; ++q) {
                const size_t at_tile = first + q - first0;
                uint8_t* b = buf[q].data();
                *b++ = 0x00;
                for (size_t sl = 0; sl < src.size(); ++sl) b = put_fp(b, tile[sl * kTile + at_tile]);
              }
              Digest out[8];
              hash_group(buf, cnt, out);
              for (size_t q = 0; q < cnt; ++q) level[P * (first + q) + k] = out[q];
            }
          }
        }, 8);
      }
      levels_.push_back(std::move(level));
    }
    for (size_t w = n / 4; w >= 1; w /= 2) {
      const auto& below = levels_.back();
      std::vector<Digest> up(w);
      size_t P = 1;
      const std::vector<size_t> inject = select(w, w, P, "injected");  // matrices of this height enter here
      // Nodes j = P s + k, part by part, eight at a time (every node of a level hashes the same length).
      std::vector<std::vector<Column>> scratch(m_.size());
      std::vector<std::vector<const Column*>> cols(m_.size());
      for (size_t k = 0; k < P; ++k) {
        for (size_t m : inject) m_[m].part(k, scratch[m], cols[m]);
        const size_t count = w / P, groups = (count + 7) / 8;
        const size_t inject_len = 1 + 32 + 8 * values_of(cols, inject);  // 0x02, the node, the rows
        parallel_for(groups, threads, [&](size_t gb, size_t ge) {
          std::vector<uint8_t> node[8], inj[8];
          Digest out[8];
          for (auto& b : node) b.resize(1 + 2 * 32);
          for (auto& b : inj) b.resize(inject_len);
          for (size_t g = gb; g < ge; ++g) {
            const size_t first = 8 * g, cnt = std::min<size_t>(8, count - first);
            for (size_t q = 0; q < cnt; ++q) {
              const size_t j = P * (first + q) + k;
              uint8_t* b = node[q].data();
              b[0] = 0x01;
              std::copy(below[j].begin(), below[j].end(), b + 1);
              std::copy(below[j + w].begin(), below[j + w].end(), b + 33);
            }
            hash_group(node, cnt, out);
            if (!inject.empty()) {
              for (size_t q = 0; q < cnt; ++q) {
                uint8_t* b = inj[q].data();
                *b++ = 0x02;
                b = std::copy(out[q].begin(), out[q].end(), b);
                for (size_t m : inject)
                  for (const Column* c : cols[m]) b = put_fp(b, (*c)[first + q]);
              }
              hash_group(inj, cnt, out);
            }
            for (size_t q = 0; q < cnt; ++q) up[P * (first + q) + k] = out[q];
          }
        }, 32);
      }
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
  // The rows of each matrix that the openings of leaves `leaves` read: (matrix, row) pairs.
  std::vector<std::pair<size_t, size_t>> rows_opened(const std::vector<size_t>& leaves) const {
    const size_t half = levels_.front().size(), n = 2 * half;
    std::vector<std::pair<size_t, size_t>> out;
    for (size_t i : leaves)
      for (size_t m = 0; m < m_.size(); ++m) {
        if (m_[m].rows == n) out.emplace_back(m, i), out.emplace_back(m, i + half);
        else if (m_[m].rows == half) out.emplace_back(m, i);
        else out.emplace_back(m, i % m_[m].rows);
      }
    return out;
  }
  // Those rows' values, one part of each matrix at a time: values[(m, row)] = the row.
  std::map<std::pair<size_t, size_t>, std::vector<Fp>> fetch(const std::vector<std::pair<size_t, size_t>>& rows) const {
    std::map<std::pair<size_t, size_t>, std::vector<Fp>> out;
    for (size_t m = 0; m < m_.size(); ++m)
      for (size_t k = 0; k < m_[m].parts; ++k) {
        std::vector<size_t> want;
        for (const auto& [mm, r] : rows)
          if (mm == m && r % m_[m].parts == k) want.push_back(r);
        if (want.empty()) continue;
        if (m_[m].rows_at) {
          std::vector<size_t> idx;
          for (size_t r : want) idx.push_back(r / m_[m].parts);
          std::vector<std::vector<Fp>> vals;
          m_[m].rows_at(k, idx, vals);
          for (size_t j = 0; j < want.size(); ++j) out[{m, want[j]}] = std::move(vals[j]);
          continue;
        }
        std::vector<Column> scratch;
        std::vector<const Column*> cols;
        m_[m].part(k, scratch, cols);
        for (size_t r : want) {
          std::vector<Fp> row;
          for (const Column* c : cols) row.push_back((*c)[r / m_[m].parts]);
          out[{m, r}] = std::move(row);
        }
      }
    return out;
  }
  spec::MixedOpening open(size_t i, const std::map<std::pair<size_t, size_t>, std::vector<Fp>>& values) const {
    const size_t half = levels_.front().size(), n = 2 * half;
    spec::MixedOpening o;
    auto put = [&](size_t m, size_t r) {
      for (Fp v : values.at({m, r})) o.values.push_back(v.value());
    };
    for (size_t m = 0; m < m_.size(); ++m) {
      if (m_[m].rows == n) put(m, i), put(m, i + half);
      else if (m_[m].rows == half) put(m, i);
    }
    for (size_t w = n / 4; w >= 1; w /= 2) {
      for (size_t m = 0; m < m_.size(); ++m)
        if (m_[m].rows == w) put(m, i % w);
      if (w == 1) break;
    }
    for (size_t l = 0; l + 1 < levels_.size(); ++l) {
      const size_t width = levels_[l].size();
      o.siblings.push_back(levels_[l][(i % width) ^ (width / 2)]);
    }
    return o;
  }

 private:
  // The matrices of height h1 or h2, and their common number of parts P (all must agree).
  std::vector<size_t> select(size_t h1, size_t h2, size_t& P, const char* what) const {
    std::vector<size_t> out;
    for (size_t m = 0; m < m_.size(); ++m)
      if (m_[m].rows == h1 || m_[m].rows == h2) out.push_back(m), P = std::max(P, m_[m].parts);
    for (size_t m : out)
      if (m_[m].parts != P) throw std::logic_error(std::string("mixed Merkle: ") + what + " matrices in different parts");
    return out;
  }
  std::vector<Matrix> m_;
  std::vector<std::vector<Digest>> levels_;
};

struct TableData {
  unsigned log_h = 0;
  size_t h = 0, n = 0;
  Fp shift;
  // Spec columns on the trace domain (until LogUp has read them), then their coefficients; the
  // LDE is never held: each pass computes it a part (a coset of the trace domain's size) at a time.
  std::vector<Column> trace, coeffs;
  std::vector<Column> aux, aux_coeffs;  // the same for the auxiliary columns
  std::vector<Column> q_coeffs, q_lde;
  std::vector<std::vector<Fp>> factors;  // per LDE part k: bitrev_coset_factors(log_h, shift·ω_N^k)
  // Lde::kHold: every part of the LDE of all main (spec) and aux columns, [k][column], kept
  // from the first pass that computes it
  std::vector<std::vector<Column>> main_parts, aux_parts;
  Fp3 terminal;
};

// The LDE by parts. A column's `coeffs` are n·(its coefficients) in bit-reversed order
// (dif_coefficients); part k of P of its LDE on shift·<ω_N> (N = P·n) is its values at rows k,
// k + P, k + 2P, ..., the coset shift·ω_N^k·<ω_n>: coset_evals_from_dif with that coset's
// factors (TableData::factors). Columns `which` of a set (all when null) into `out`, whose
// buffers are reused from part to part, in parallel over the columns.
void parts_of(const std::vector<Column>& coeffs, const std::vector<size_t>* which, const std::vector<Fp>& factors,
              std::vector<Column>& out, unsigned threads) {
  const size_t w = which ? which->size() : coeffs.size();
  out.resize(w);
  parallel_for(w, threads, [&](size_t b, size_t e) {
    for (size_t c = b; c < e; ++c) {
      const Column& src = coeffs[which ? (*which)[c] : c];
      out[c].resize(src.size());
      coset_evals_from_dif(src, factors, out[c], 1);
    }
  }, 1);
}
// f(z) for the columns whose dif coefficients are given, and z^rev(p) / n, the powers of z in
// bit-reversed order (as bitrev_coset_factors, in the extension): Σ_p coeffs[p] · zpow[p].
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
Fp3 evaluate_dif(const Column& coeffs, const std::vector<Fp3>& zpow) {
  air::LazySum3 s;
  for (size_t p = 0; p < coeffs.size(); ++p) s.add(zpow[p], coeffs[p]);
  return s.value();
}

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

}  // namespace

namespace {
spec::StarkProof prove_impl(const spec::ProgramImage& image, std::vector<air::TableColumns>&& tables,
                            const std::vector<Fp>& publics, const spec::StarkOptions& options, unsigned threads,
                            const Progress& progress, const BufferReport& buffers = {}, Lde lde = Lde::kStream);

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
                            const spec::StarkOptions& options, unsigned threads, const Progress& progress,
                            Lde lde = Lde::kStream) {
  const spec::air::Spec& sp = spec::air::embedded_spec();
  std::vector<air::TableColumns> tables;
  for (const auto& st : sp.tables) {
    tables.push_back(table_columns(trace.table(st.name), st));
    if (consume) std::vector<std::vector<uint64_t>>().swap(consume->table(st.name).rows);
  }
  std::vector<Fp> publics;
  for (const std::string& name : rs::air_layout().publics) publics.push_back(Fp::from_u64(trace.publics.at(name)));
  return prove_impl(image, std::move(tables), publics, options, threads, progress, {}, lde);
}
}  // namespace

spec::StarkProof prove_unchecked(const spec::ProgramImage& image, const ref::air::AirTrace& trace,
                                 const spec::StarkOptions& options, unsigned threads, const Progress& progress, Lde lde) {
  return prove_rows(image, trace, nullptr, options, threads, progress, lde);
}
spec::StarkProof prove_unchecked_consuming(const spec::ProgramImage& image, ref::air::AirTrace&& trace,
                                           const spec::StarkOptions& options, unsigned threads,
                                           const Progress& progress) {
  return prove_rows(image, trace, &trace, options, threads, progress);
}
spec::StarkProof prove_unchecked(const spec::ProgramImage& image, std::vector<air::TableColumns>&& tables,
                                 const std::vector<Fp>& publics, const spec::StarkOptions& options, unsigned threads,
                                 const Progress& progress, const BufferReport& buffers, Lde lde) {
  return prove_impl(image, std::move(tables), publics, options, threads, progress, buffers, lde);
}

namespace {
spec::StarkProof prove_impl(const spec::ProgramImage& image, std::vector<air::TableColumns>&& tables,
                            const std::vector<Fp>& publics, const spec::StarkOptions& options, unsigned threads,
                            const Progress& progress, const BufferReport& buffers, Lde lde) {
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
    size_t mt = 0, ml = 0, at = 0, al = 0, q = 0, tb = 0, held = 0;
    for (const TableData& d : *tdp) {
      mt += sz(d.trace), ml += sz(d.coeffs), at += sz(d.aux), al += sz(d.aux_coeffs), q += sz(d.q_coeffs) + sz(d.q_lde);
      for (const auto& p : d.main_parts) held += sz(p);
      for (const auto& p : d.aux_parts) held += sz(p);
    }
    for (const MixedTree* t : trees) tb += t->bytes();
    std::vector<std::pair<std::string, size_t>> live = {{"main trace", mt},      {"main coefficients", ml},
                                                         {"aux trace", at},       {"aux coefficients", al},
                                                         {"LDE held", held},      {"quotient", q},
                                                         {"Merkle trees", tb}};
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
    d.coeffs = d.trace;
    parallel_for(d.coeffs.size(), threads, [&](size_t b, size_t e) {
      for (size_t c = b; c < e; ++c) dif_coefficients(d.coeffs[c], 1);
    }, 1);
    for (size_t k = 0; k < blowup; ++k)
      d.factors.push_back(bitrev_coset_factors(d.log_h, d.shift * root_of_unity(d.log_h + lb).pow(k)));
  }
  // Part k of a table's LDE (all spec columns, or the aux ones): held (Lde::kHold: computed
  // once, kept), or computed into scratch.
  auto part = [&](TableData& d, bool aux, size_t k, std::vector<Column>& scratch) -> const std::vector<Column>& {
    const std::vector<Column>& coeffs = aux ? d.aux_coeffs : d.coeffs;
    if (lde != Lde::kHold) {
      parts_of(coeffs, nullptr, d.factors[k], scratch, threads);
      return scratch;
    }
    auto& held = aux ? d.aux_parts : d.main_parts;
    if (held.empty()) held.resize(blowup);
    if (held[k].empty() && !coeffs.empty()) parts_of(coeffs, nullptr, d.factors[k], held[k], threads);
    return held[k];
  };
  // Every table's main (committed columns only) or aux columns as tree matrices, a part at a time.
  auto matrices = [&](bool aux) {
    std::vector<Matrix> mats(T);
    for (size_t t = 0; t < T; ++t) {
      const TableData& d = td[t];
      const std::vector<size_t>* which = aux ? nullptr : &layout.tables[t].main;
      mats[t] = {d.n, which ? which->size() : d.aux_coeffs.size(), blowup,
                 [&, t, which, aux](size_t k, std::vector<Column>& scratch, std::vector<const Column*>& out) {
                   TableData& dt = td[t];
                   out.clear();
                   if (lde != Lde::kHold && which) {  // only the committed columns
                     parts_of(dt.coeffs, which, dt.factors[k], scratch, threads);
                     for (const Column& c : scratch) out.push_back(&c);
                     return;
                   }
                   const std::vector<Column>& all = part(dt, aux, k, scratch);
                   if (which)
                     for (size_t c : *which) out.push_back(&all[c]);
                   else
                     for (const Column& c : all) out.push_back(&c);
                 }, {}};
      if (lde != Lde::kHold)  // the opened rows from the coefficients, without the whole part
        mats[t].rows_at = [&, t, which, aux](size_t k, const std::vector<size_t>& idx, std::vector<std::vector<Fp>>& out) {
          const TableData& dt = td[t];
          const std::vector<Column>& coeffs = aux ? dt.aux_coeffs : dt.coeffs;
          const size_t w = which ? which->size() : coeffs.size();
          out.assign(idx.size(), std::vector<Fp>(w));
          parallel_for(w, threads, [&](size_t b, size_t e) {
            std::vector<Fp> v(idx.size()), y;
            for (size_t c = b; c < e; ++c) {
              coset_rows_from_dif(coeffs[which ? (*which)[c] : c], dt.factors[k], idx, v, &y);
              for (size_t j = 0; j < idx.size(); ++j) out[j][c] = v[j];
            }
          }, 1);
        };
    }
    return mats;
  };
  const MixedTree main_tree(matrices(false), threads);
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
    air::CheckArgs args = air::table_args(d.trace, d.h, publics.data(), cols);
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
    d.aux_coeffs = std::move(d.aux);
    d.aux.clear();
    parallel_for(d.aux_coeffs.size(), threads, [&](size_t b, size_t e) {
      for (size_t c = b; c < e; ++c) dif_coefficients(d.aux_coeffs[c], 1);
    }, 1);
  }
  for (TableData& d : td) std::vector<Column>().swap(d.trace);  // LogUp was the last to read it
  for (const TableData& d : td) {
    proof.terminal_sums.push_back(raw(d.terminal));
    tr.absorb_ext("logup-sum", d.terminal);
  }
  const MixedTree aux_tree(matrices(true), threads);
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
      // Z_H(x) = x^h − 1 takes only blowup values on the coset: x^h = (shift·ω_N^k)^h for the
      // rows i ≡ k (mod blowup). Each thread inverts its own rows (a batch inversion per range).
      std::vector<Fp> zb(blowup), inv_zb(blowup);
      for (size_t k = 0; k < blowup; ++k) zb[k] = (d.shift * w_n.pow(k)).pow(d.h) - kOne;
      inv_zb = zb;
      batch_inverse(inv_zb);
      Column inv_x1(d.n), inv_xl(d.n);
      parallel_for(d.n, threads, [&](size_t b, size_t e) {
        Fp x = d.shift * w_n.pow(b);
        for (size_t i = b; i < e; ++i, x = x * w_n) {
          inv_x1[i] = x - kOne;
          inv_xl[i] = x - w_inv;
          transition[i] = x - w_inv;
        }
        batch_inverse(std::span<Fp>(inv_x1).subspan(b, e - b));
        batch_inverse(std::span<Fp>(inv_xl).subspan(b, e - b));
        for (size_t i = b; i < e; ++i) {
          const Fp zh = zb[i % blowup];
          inv_zh[i] = inv_zb[i % blowup];
          first[i] = zh * h_inv * inv_x1[i];
          last[i] = w_inv * zh * h_inv * inv_xl[i];
        }
      });
    }
    std::vector<Fp3> powers;
    for (const auto& p : rs::combination_powers(alpha, tl.combined_constraints())) powers.push_back(to_opt(p));
    // the combination on each LDE part: a coset of h rows, whose next row is the part's next
    std::vector<Fp3> v(d.n);
    std::vector<Column> main_scratch, aux_scratch;
    for (size_t k = 0; k < blowup; ++k) {
      const std::vector<Column>& cols_k = part(d, false, k, main_scratch);
      const std::vector<Column>& aux_k = part(d, true, k, aux_scratch);
      std::vector<const Fp*> cols, aux;
      for (const auto& c : cols_k) cols.push_back(c.data());
      for (const auto& c : aux_k) aux.push_back(c.data());
      Column f_k(d.h), l_k(d.h), t_k(d.h);
      for (size_t i = 0; i < d.h; ++i)
        f_k[i] = first[blowup * i + k], l_k[i] = last[blowup * i + k], t_k[i] = transition[blowup * i + k];
      air::CombineArgs a;
      a.columns = cols.data();
      a.aux = aux.data();
      a.n = d.h;
      a.next = 1;
      a.publics = publics.data();
      a.lu_alpha = alpha_lu;
      a.lu_beta = beta_lu;
      a.terminal = d.terminal;
      a.powers = powers.data();
      a.sel_first = f_k.data();
      a.sel_last = l_k.data();
      a.sel_transition = t_k.data();
      std::vector<Fp3> v_k(d.h);
      // A tile of rows (and the next row) of every column is copied into one cache-resident
      // buffer first: read in place, each row would touch a cache line in each of the hundreds of
      // columns (more streams than the prefetchers follow), and the combination ran at half speed.
      // In the tile, row m's next row is row m + 1, and n = 2·kTile keeps the mask from wrapping.
      parallel_for(d.h, threads, [&](size_t b, size_t e) {
        constexpr size_t kTile = 128, kStride = kTile + 1;
        const size_t W = cols_k.size(), WA = aux_k.size();
        std::vector<Fp> tile((W + WA) * kStride);
        std::vector<const Fp*> tc(W), ta(WA);
        for (size_t c = 0; c < W; ++c) tc[c] = tile.data() + c * kStride;
        for (size_t c = 0; c < WA; ++c) ta[c] = tile.data() + (W + c) * kStride;
        air::CombineArgs at = a;
        at.columns = tc.data();
        at.aux = ta.data();
        at.n = 2 * kTile;
        auto load = [&](const Column& src, Fp* dst, size_t i0, size_t m) {
          std::copy(src.begin() + static_cast<ptrdiff_t>(i0), src.begin() + static_cast<ptrdiff_t>(i0 + m), dst);
          dst[m] = src[(i0 + m) & (d.h - 1)];
        };
        for (size_t i0 = b; i0 < e; i0 += kTile) {
          const size_t m = std::min(kTile, e - i0);
          for (size_t c = 0; c < W; ++c) load(cols_k[c], tile.data() + c * kStride, i0, m);
          for (size_t c = 0; c < WA; ++c) load(aux_k[c], tile.data() + (W + c) * kStride, i0, m);
          at.sel_first = f_k.data() + i0;
          at.sel_last = l_k.data() + i0;
          at.sel_transition = t_k.data() + i0;
          code[t].combine(at, 0, m, v_k.data() + i0);
        }
      }, 128);
      for (size_t i = 0; i < d.h; ++i) v[blowup * i + k] = v_k[i];
    }
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
  std::vector<Matrix> qm(T);
  for (size_t t = 0; t < T; ++t)  // the quotient chunks' LDE is held (3 chunks columns): its parts are gathered
    qm[t] = {td[t].n, td[t].q_lde.size(), blowup, [&, t](size_t k, std::vector<Column>& scratch, std::vector<const Column*>& out) {
               scratch.resize(td[t].q_lde.size());
               out.clear();
               for (size_t c = 0; c < scratch.size(); ++c) {
                 const Column& src = td[t].q_lde[c];
                 scratch[c].resize(src.size() / blowup);
                 for (size_t i = 0; i < scratch[c].size(); ++i) scratch[c][i] = src[blowup * i + k];
                 out.push_back(&scratch[c]);
               }
             }, {}};
  const MixedTree q_tree(std::move(qm), threads);
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
  // Every column's polynomial at ζ and at ζ·ω_h, from its coefficients (Horner: the value the
  // barycentric formula gives on the trace domain).
  for (const TableData& d : td) {
    std::vector<const Column*> opened;
    std::vector<int> shifted;
    for (int s = 0; s < 2; ++s)
      for (const auto& col : d.coeffs) opened.push_back(&col), shifted.push_back(s);
    for (int s = 0; s < 2; ++s)
      for (const auto& col : d.aux_coeffs) opened.push_back(&col), shifted.push_back(s);
    const std::vector<Fp3> zpow[2] = {bitrev_powers(d.h, zeta), bitrev_powers(d.h, zeta * root_of_unity(d.log_h))};
    std::vector<Fp3> values(opened.size());
    parallel_for(opened.size(), threads, [&](size_t b, size_t e) {
      for (size_t k = b; k < e; ++k) values[k] = evaluate_dif(*opened[k], zpow[shifted[k]]);
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
    for (TableData& d : td) {
      auto& acc = deep[d.log_h];
      acc.resize(d.n);
      const Fp w_n = root_of_unity(d.log_h + lb);
      const Fp3 zeta_next = zeta * root_of_unity(d.log_h);
      std::vector<Fp3> inv_z(d.n), inv_zn(d.n);
      parallel_for(d.n, threads, [&](size_t b, size_t e) {  // each thread inverts its own rows
        Fp x = d.shift * w_n.pow(b);
        for (size_t i = b; i < e; ++i, x = x * w_n) inv_z[i] = embed(x) - zeta, inv_zn[i] = embed(x) - zeta_next;
        batch_inverse(std::span<Fp3>(inv_z).subspan(b, e - b));
        batch_inverse(std::span<Fp3>(inv_zn).subspan(b, e - b));
      });
      // the opened columns in ood order (main at ζ, at ζω; aux at ζ, at ζω; quotient chunks),
      // each with its power of γ
      std::vector<Fp3> pw;
      Fp3 const_z{}, const_zn{};
      auto term = [&](int s) {
        const Fp3 v = Fp3{{Fp::from_u64(proof.ood[k][0]), Fp::from_u64(proof.ood[k][1]), Fp::from_u64(proof.ood[k][2])}};
        ++k;
        (s ? const_zn : const_z) = (s ? const_zn : const_z) + power * v;
        pw.push_back(power);
        power = power * gamma;
      };
      for (int s = 0; s < 2; ++s)
        for (size_t c = 0; c < d.coeffs.size(); ++c) term(s);
      for (int s = 0; s < 2; ++s)
        for (size_t c = 0; c < d.aux_coeffs.size(); ++c) term(s);
      for (size_t c = 0; c < d.q_lde.size(); ++c) term(0);
      // The main and aux columns enter only through Σ_c γ^c·f_c(x), at ζ and at ζω: a linear
      // combination of their polynomials, whose LDE is the LDE of the same combination of their
      // coefficients (exact field arithmetic, so the same values). The combination is built once
      // on the coefficients (each column read once, for both points), and only its six base
      // columns are extended, part by part, instead of every column.
      const size_t M = d.coeffs.size(), A = d.aux_coeffs.size();
      std::vector<Column> comb(6, Column(d.h));  // [3·s + c]: the combination at ζ (s = 0), ζω (s = 1)
      parallel_for(d.h, threads, [&](size_t b, size_t e) {
        constexpr size_t kBlock = 256;
        std::vector<air::LazySum3> s0(kBlock), s1(kBlock);
        for (size_t i0 = b; i0 < e; i0 += kBlock) {
          const size_t m = std::min(e, i0 + kBlock) - i0;
          std::fill(s0.begin(), s0.begin() + static_cast<ptrdiff_t>(m), air::LazySum3{});
          std::fill(s1.begin(), s1.begin() + static_cast<ptrdiff_t>(m), air::LazySum3{});
          for (size_t c = 0; c < M + A; ++c) {  // ood order: main at ζ, main at ζω, aux at ζ, aux at ζω
            const bool is_aux = c >= M;
            const Fp* col = (is_aux ? d.aux_coeffs[c - M] : d.coeffs[c]).data() + i0;
            const Fp3 w0 = pw[is_aux ? 2 * M + (c - M) : c], w1 = pw[is_aux ? 2 * M + A + (c - M) : M + c];
            for (size_t i = 0; i < m; ++i) s0[i].add(w0, col[i]), s1[i].add(w1, col[i]);
          }
          for (size_t i = 0; i < m; ++i) {
            const Fp3 v0 = s0[i].value(), v1 = s1[i].value();
            for (size_t c = 0; c < 3; ++c) comb[c][i0 + i] = v0.c[c], comb[3 + c][i0 + i] = v1.c[c];
          }
        }
      });
      const size_t Q = d.q_lde.size();
      std::vector<Column> comb_k;
      for (size_t p = 0; p < blowup; ++p) {
        parts_of(comb, nullptr, d.factors[p], comb_k, threads);
        parallel_for(d.h, threads, [&](size_t b, size_t e) {
          for (size_t i = b; i < e; ++i) {
            const size_t j = blowup * i + p;
            air::LazySum3 qs;  // the quotient chunks (held LDE), at ζ
            for (size_t c = 0; c < Q; ++c) qs.add(pw[2 * M + 2 * A + c], d.q_lde[c][j]);
            const Fp3 sz = Fp3{{comb_k[0][i], comb_k[1][i], comb_k[2][i]}} + qs.value(),
                      szn = Fp3{{comb_k[3][i], comb_k[4][i], comb_k[5][i]}};
            acc[j] = acc[j] + (sz - const_z) * inv_z[j] + (szn - const_zn) * inv_zn[j];
          }
        });
      }
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
  {  // the opened rows' values, computed one LDE part at a time
    const auto main_v = main_tree.fetch(main_tree.rows_opened(queries));
    const auto aux_v = aux_tree.fetch(aux_tree.rows_opened(queries));
    const auto q_v = q_tree.fetch(q_tree.rows_opened(queries));
    for (size_t q : queries) proof.queries.push_back({main_tree.open(q, main_v), aux_tree.open(q, aux_v), q_tree.open(q, q_v)});
  }
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
