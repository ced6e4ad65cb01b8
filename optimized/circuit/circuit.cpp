// The CPU circuit: the generated LogUp and quotient code (optimized/air) over host columns,
// in place where the backend's memory is the host's.
#include "optimized/circuit/circuit.h"

#include <algorithm>
#include <stdexcept>

#include "optimized/air/air_eval.h"
#include "optimized/backend/shapes.h"
#include "optimized/common/parallel.h"
#include "optimized/ntt/ntt.h"
#include "spec/air/embedded.h"

namespace zkrv::opt {
namespace {

using shapes::pow2;
using shapes::require;
using shapes::require_heights;
size_t generated_publics(spec::air::Mode mode) { return spec::air::embedded_spec(mode).publics.size(); }
const Fp kOne = Fp::from_u64(1);

// Buffers' values where the host can address them: in place when the backend's memory is the
// host's, else copies (read from the backend when `load`), which write_back returns to it.
template <typename T>
class OnHost {
 public:
  OnHost(Backend& be, std::span<const Buffer<T>> bufs, bool load) : be_(be), bufs_(bufs.begin(), bufs.end()) {
    copies_.resize(bufs_.size());
    for (size_t i = 0; i < bufs_.size(); ++i) {
      if (void* at = be.host_address(bufs_[i].storage())) {
        ptrs_.push_back(static_cast<T*>(at));
        continue;
      }
      copies_[i] = load ? be.download(bufs_[i]) : std::vector<T>(bufs_[i].size());
      ptrs_.push_back(copies_[i].data());
    }
  }
  OnHost(Backend& be, std::span<Buffer<T>> bufs, bool load)
      : OnHost(be, std::span<const Buffer<T>>(bufs.data(), bufs.size()), load) {}
  std::vector<T*> ptrs() const { return ptrs_; }
  std::vector<const T*> cptrs() const { return {ptrs_.begin(), ptrs_.end()}; }
  void write_back() {
    for (size_t i = 0; i < bufs_.size(); ++i)
      if (ptrs_[i] == copies_[i].data() && !copies_[i].empty())
        be_.write(bufs_[i].storage(), 0, copies_[i].data(), copies_[i].size() * sizeof(T));
  }

 private:
  Backend& be_;
  std::vector<Buffer<T>> bufs_;
  std::vector<std::vector<T>> copies_;
  std::vector<T*> ptrs_;
};

class CpuCircuit final : public Circuit {
 public:
  explicit CpuCircuit(unsigned threads) : threads_(resolve_threads(threads)) {}
  std::string name() const override { return "cpu-circuit(" + std::to_string(threads_) + " threads)"; }

  Fp3 logup_columns(Backend& be, const Air& air, size_t table, const std::vector<std::vector<size_t>>& fractions,
                    std::span<const Buffer<Fp>> trace, std::span<const Fp> publics, const Fp3& alpha, const Fp3& beta,
                    std::span<Buffer<Fp>> aux) override {
    const air::TableCode& code = air::generated_tables(air.mode).at(table);
    const size_t F = fractions.size(), I = code.interactions;
    if (aux.size() != 3 * (F + 1) || trace.size() != code.columns) throw std::invalid_argument("logup_columns: shapes do not match");
    const size_t h = trace.empty() ? 0 : trace[0].size();
    require(pow2(h), "logup_columns: the height is not a power of two");
    require_heights(trace, h, "logup_columns: columns of different heights");
    require(publics.size() >= generated_publics(air.mode), "logup_columns: too few public values");
    for (const auto& g : fractions) {
      require(g.size() == 1 || g.size() == 2, "logup_columns: a fraction sums one or two interactions");
      for (size_t i : g) require(i < I, "logup_columns: a fraction names an interaction the table lacks");
    }
    require_heights(aux, h, "logup_columns: an aux column of the wrong height");
    const OnHost<Fp> trace_h(be, trace, true);
    OnHost<Fp> aux_h(be, aux, false);  // every value is written
    const std::vector<const Fp*> cols = trace_h.cptrs();
    const std::vector<Fp*> a = aux_h.ptrs();
    air::CheckArgs args;
    args.columns = cols.data();
    args.n = h;
    args.publics = publics.data();
    args.lu_alpha = alpha;
    args.lu_beta = beta;
    args.local_offset = air.local_offset;
    // Each fraction column's value m0/d0 (+ m1/d1) straight into its three base columns, a block
    // of rows at a time with one batch inversion: a term with multiplicity 0 adds nothing and is
    // not inverted; a pair with both terms is one fraction (d1 m0 + d0 m1) / (d0 d1). A zero
    // denominator gives 0, as the reference's batch inversion does.
    parallel_for(h, threads_, [&](size_t b, size_t e) {
      constexpr size_t kBlock = 256;
      std::vector<Fp3> dd(kBlock * I), nums(kBlock * F), dens(kBlock * F);
      std::vector<Fp> mm(kBlock * I);
      std::vector<uint32_t> cell(kBlock * F);  // (row in block) * F + f of each kept fraction
      for (size_t r0 = b; r0 < e; r0 += kBlock) {
        const size_t r1 = std::min(e, r0 + kBlock);
        code.logup(args, r0, r1, dd.data(), mm.data());
        size_t kept = 0;
        for (size_t r = r0; r < r1; ++r)
          for (size_t f = 0; f < F; ++f) {
            for (size_t c = 0; c < 3; ++c) a[3 * f + c][r] = Fp();
            const auto& g = fractions[f];
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
        opt::batch_inverse(std::span<Fp3>(dens.data(), kept));
        for (size_t k = 0; k < kept; ++k) {
          const Fp3 v = nums[k] * dens[k];
          const size_t r = r0 + cell[k] / F, f = cell[k] % F;
          for (size_t c = 0; c < 3; ++c) a[3 * f + c][r] = v.c[c];
        }
      }
    }, 256);
    Fp3 s{};
    for (size_t r = 0; r < h; ++r) {
      for (size_t f = 0; f < F; ++f) s = s + Fp3{{a[3 * f][r], a[3 * f + 1][r], a[3 * f + 2][r]}};
      for (size_t c = 0; c < 3; ++c) a[3 * F + c][r] = s.c[c];
    }
    aux_h.write_back();
    return s;
  }

  void quotient_part(Backend& be, const QuotientPart& p, std::span<const Buffer<Fp>> main,
                     std::span<const Buffer<Fp>> aux, std::span<const Fp> publics, const Buffer<Fp3>& powers,
                     std::span<Buffer<Fp>> q) override {
    const air::TableCode& code = air::generated_tables(p.air.mode).at(p.table);
    const size_t h = size_t{1} << p.log_h;
    if (main.size() != code.columns || aux.size() != code.aux_width || q.size() != 3 ||
        powers.size() != code.combined_constraints)
      throw std::invalid_argument("quotient_part: shapes do not match");
    require(p.blowup > 0 && p.k < p.blowup, "quotient_part: part k of blowup parts");
    require(publics.size() >= generated_publics(p.air.mode), "quotient_part: too few public values");
    for (const auto& c : main) if (c.size() != h) throw std::invalid_argument("quotient_part: a column of the wrong height");
    for (const auto& c : aux) if (c.size() != h) throw std::invalid_argument("quotient_part: a column of the wrong height");
    for (const auto& c : q) if (c.size() != h * p.blowup) throw std::invalid_argument("quotient_part: q holds the LDE");
    const Fp w_h = root_of_unity(p.log_h), w_inv = w_h.inverse();
    const Fp zh = p.x0.pow(h) - kOne, h_inv = Fp::from_u64(h).inverse();
    const OnHost<Fp> main_h(be, main, true), aux_h(be, aux, true);
    const OnHost<Fp3> powers_h(be, std::span<const Buffer<Fp3>>(&powers, 1), true);
    OnHost<Fp> q_h(be, q, true);  // the other parts' values stay
    const std::vector<const Fp*> mc = main_h.cptrs(), ac = aux_h.cptrs();
    const std::vector<Fp*> q_ptrs = q_h.ptrs();
    Fp* qo[3] = {q_ptrs[0], q_ptrs[1], q_ptrs[2]};
    air::CombineArgs a;
    a.next = 1;
    a.publics = publics.data();
    a.lu_alpha = p.lu_alpha;
    a.lu_beta = p.lu_beta;
    a.local_offset = p.air.local_offset;
    a.terminal = p.terminal;
    a.powers = powers_h.cptrs()[0];
    // A tile of rows (and the next row) of every column is copied into one cache-resident
    // buffer first: read in place, each row would touch a cache line in each of the hundreds of
    // columns (more streams than the prefetchers follow), and the combination ran at half speed.
    // In the tile, row m's next row is row m + 1, and n = 2·kTile keeps the mask from wrapping.
    parallel_for(h, threads_, [&](size_t b, size_t e) {
      constexpr size_t kTile = 128, kStride = kTile + 1;
      const size_t W = mc.size(), WA = ac.size();
      std::vector<Fp> tile((W + WA) * kStride), sel(3 * kTile), inv(2 * kTile);
      std::vector<Fp3> v(kTile);
      std::vector<const Fp*> tc(W), ta(WA);
      for (size_t c = 0; c < W; ++c) tc[c] = tile.data() + c * kStride;
      for (size_t c = 0; c < WA; ++c) ta[c] = tile.data() + (W + c) * kStride;
      air::CombineArgs at = a;
      at.columns = tc.data();
      at.aux = ta.data();
      at.n = 2 * kTile;
      at.sel_first = sel.data();
      at.sel_last = sel.data() + kTile;
      at.sel_transition = sel.data() + 2 * kTile;
      auto load = [&](const Fp* src, Fp* dst, size_t i0, size_t m) {
        std::copy(src + i0, src + i0 + m, dst);
        dst[m] = src[(i0 + m) & (h - 1)];
      };
      Fp x = p.x0 * w_h.pow(b);
      for (size_t i0 = b; i0 < e; i0 += kTile) {
        const size_t m = std::min(kTile, e - i0);
        // The selectors on these rows: Z_H(x)/(h (x − 1)), ω^−1 Z_H(x)/(h (x − ω^−1)), x − ω^−1.
        for (size_t i = 0; i < m; ++i, x = x * w_h) {
          inv[i] = x - kOne;
          inv[kTile + i] = x - w_inv;
          sel[2 * kTile + i] = x - w_inv;
        }
        opt::batch_inverse(std::span<Fp>(inv.data(), m));
        opt::batch_inverse(std::span<Fp>(inv.data() + kTile, m));
        for (size_t i = 0; i < m; ++i) {
          sel[i] = zh * h_inv * inv[i];
          sel[kTile + i] = w_inv * zh * h_inv * inv[kTile + i];
        }
        for (size_t c = 0; c < W; ++c) load(mc[c], tile.data() + c * kStride, i0, m);
        for (size_t c = 0; c < WA; ++c) load(ac[c], tile.data() + (W + c) * kStride, i0, m);
        code.combine(at, 0, m, v.data());
        for (size_t i = 0; i < m; ++i) {
          const Fp3 qv = v[i] * p.scale;
          for (size_t c = 0; c < 3; ++c) qo[c][p.blowup * (i0 + i) + p.k] = qv.c[c];
        }
      }
    }, 128);
    q_h.write_back();
  }


 private:
  unsigned threads_;
};

}  // namespace

std::unique_ptr<Circuit> make_cpu_circuit(unsigned threads) { return std::make_unique<CpuCircuit>(threads); }

}  // namespace zkrv::opt
