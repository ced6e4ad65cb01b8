// The CPU backend: host memory, the optimized NTT, eight-lane Keccak and threads.
#include <cstdlib>
#include <cstring>

#include "optimized/air/air_eval.h"
#include "optimized/backend/backend.h"
#include "optimized/common/parallel.h"
#include "optimized/fri/fold.h"
#include "optimized/ntt/ntt.h"
#include "spec/air/embedded.h"
#include "spec/field.h"

namespace zkrv::opt {
namespace {

// Host memory: allocated here (64-byte aligned, not initialized), or a vector that was adopted.
class HostStorage final : public Storage {
 public:
  explicit HostStorage(size_t bytes) : bytes_(bytes), data_(static_cast<uint8_t*>(std::aligned_alloc(64, round(bytes)))) {
    if (!data_) throw std::bad_alloc();
  }
  explicit HostStorage(std::vector<Fp>&& v)
      : bytes_(v.size() * sizeof(Fp)), adopted_(std::move(v)), data_(reinterpret_cast<uint8_t*>(adopted_.data())),
        owned_(false) {}
  ~HostStorage() override {
    if (owned_) std::free(data_);
  }
  size_t bytes() const override { return bytes_; }
  uint8_t* data() const { return data_; }

 private:
  static size_t round(size_t b) { return (b + 63) / 64 * 64 + 64; }
  size_t bytes_;
  std::vector<Fp> adopted_;
  uint8_t* data_;
  bool owned_ = true;  // allocated here (else the adopted vector owns the memory)
};

template <typename T>
T* ptr(const Buffer<T>& b) { return reinterpret_cast<T*>(static_cast<HostStorage&>(b.storage()).data()); }
template <typename T>
std::span<T> view(const Buffer<T>& b) { return {ptr(b), b.size()}; }
// The shape checks run before any thread starts (an exception inside parallel_for would end
// the process).
void require(bool ok, const char* what) {
  if (!ok) throw std::invalid_argument(what);
}
template <typename T>
void require_heights(std::span<const Buffer<T>> cols, size_t n, const char* what) {
  for (const auto& c : cols) require(c.size() == n, what);
}
template <typename T>
void require_heights(std::span<Buffer<T>> cols, size_t n, const char* what) {
  for (const auto& c : cols) require(c.size() == n, what);
}
bool pow2(size_t n) { return n && !(n & (n - 1)); }
size_t generated_publics() {
  static const size_t n = spec::air::embedded_spec().publics.size();
  return n;
}
const Fp kOne = Fp::from_u64(1);
// x's 8 bytes, little-endian, at b; returns b + 8.
uint8_t* put_fp(uint8_t* b, Fp x) {
  const uint64_t v = x.value();
  std::memcpy(b, &v, 8);
  return b + 8;
}

// Hashes `count` messages of `len` bytes, eight at a time; fill(slot, i, dst) writes message i.
template <typename Fill>
void hash_messages(size_t count, size_t len, unsigned threads, Digest* out, Fill fill) {
  parallel_for(count, threads, [&](size_t b, size_t e) {
    std::vector<uint8_t> buf(8 * len);
    const uint8_t* msgs[8];
    for (int m = 0; m < 8; ++m) msgs[m] = buf.data() + m * len;
    size_t i = b;
    for (; i + 8 <= e; i += 8) {
      for (size_t m = 0; m < 8; ++m) fill(i + m, buf.data() + m * len);
      keccak256_x8(msgs, len, out + i);
    }
    for (; i < e; ++i) {
      fill(i, buf.data());
      out[i] = keccak256(std::span<const uint8_t>(buf.data(), len));
    }
  }, 256);
}

// Keccak-256 of cnt ≤ 8 messages of len bytes: eight at once (keccak256_x8), else one by one.
void hash_group(const uint8_t* const* msgs, size_t cnt, size_t len, Digest out[8]) {
  if (cnt == 8) {
    keccak256_x8(msgs, len, out);
  } else {
    for (size_t q = 0; q < cnt; ++q) out[q] = keccak256(std::span<const uint8_t>(msgs[q], len));
  }
}

class CpuBackend final : public Backend {
 public:
  explicit CpuBackend(unsigned threads) : threads_(resolve_threads(threads)) {}
  std::string name() const override { return "cpu(" + std::to_string(threads_) + " threads)"; }

  std::shared_ptr<Storage> allocate(size_t bytes) override { return std::make_shared<HostStorage>(bytes); }
  void write(Storage& dst, size_t offset, const void* src, size_t bytes) override {
    check(dst, offset, bytes);
    std::memcpy(static_cast<HostStorage&>(dst).data() + offset, src, bytes);
  }
  void read(const Storage& src, size_t offset, void* dst, size_t bytes) override {
    check(src, offset, bytes);
    std::memcpy(dst, static_cast<const HostStorage&>(src).data() + offset, bytes);
  }
  void copy(Storage& dst, const Storage& src, size_t bytes) override {
    check(dst, 0, bytes);
    check(src, 0, bytes);
    uint8_t* d = static_cast<HostStorage&>(dst).data();
    const uint8_t* s = static_cast<const HostStorage&>(src).data();
    parallel_for(bytes, threads_, [&](size_t b, size_t e) { std::memcpy(d + b, s + b, e - b); }, size_t{1} << 20);
  }
  void gather(const Storage& src, size_t elem_bytes, std::span<const size_t> indices, void* dst) override {
    const auto& s = static_cast<const HostStorage&>(src);
    for (size_t k = 0; k < indices.size(); ++k) {
      check(src, indices[k] * elem_bytes, elem_bytes);
      std::memcpy(static_cast<uint8_t*>(dst) + k * elem_bytes, s.data() + indices[k] * elem_bytes, elem_bytes);
    }
  }

  void batch_coset_lde(const Buffer<Fp>& in, size_t width, unsigned log_blowup, Fp shift, Buffer<Fp>& out) override {
    if (width == 0 || in.size() % width || out.size() != in.size() << log_blowup)
      throw std::invalid_argument("batch_coset_lde: shapes do not match");
    const size_t n = in.size() / width, big = n << log_blowup;
    const Fp* src = ptr(in);
    Fp* dst = ptr(out);
    if (width >= threads_) {
      parallel_for(width, threads_, [&](size_t b, size_t e) {
        for (size_t c = b; c < e; ++c)
          coset_lde_into({src + c * n, n}, 1u << log_blowup, shift, {dst + c * big, big}, 1);
      }, 1);
    } else {
      for (size_t c = 0; c < width; ++c)
        coset_lde_into({src + c * n, n}, 1u << log_blowup, shift, {dst + c * big, big}, threads_);
    }
  }

  void hash_rows(const Buffer<Fp>& matrix, size_t width, Buffer<Digest>& nodes) override {
    if (width == 0 || matrix.size() % width || nodes.size() != 2 * (matrix.size() / width))
      throw std::invalid_argument("hash_rows: the heap must hold 2 * rows digests");
    const size_t n = matrix.size() / width;
    const uint64_t* m = reinterpret_cast<const uint64_t*>(ptr(matrix));
    hash_messages(n, 1 + 8 * width, threads_, ptr(nodes) + n, [&](size_t r, uint8_t* dst) {
      dst[0] = 0x00;  // protocol:merkle:leaf
      for (size_t c = 0; c < width; ++c) std::memcpy(dst + 1 + 8 * c, m + c * n + r, 8);
    });
  }

  void hash_fri_rows(const Buffer<Fp3>& layer, unsigned log_arity, Buffer<Digest>& nodes) override {
    const size_t a = size_t{1} << log_arity, m = layer.size() >> log_arity;
    if (m == 0 || nodes.size() != 2 * m) throw std::invalid_argument("hash_fri_rows: the heap must hold 2 * rows digests");
    const Fp3* v = ptr(layer);
    hash_messages(m, 1 + 24 * a, threads_, ptr(nodes) + m, [&](size_t i, uint8_t* dst) {
      dst[0] = 0x00;
      for (size_t j = 0; j < a; ++j)
        for (size_t c = 0; c < 3; ++c) {
          const uint64_t w = v[i + j * m].c[c].value();
          std::memcpy(dst + 1 + 24 * j + 8 * c, &w, 8);
        }
    });
  }

  void merkle_tree(Buffer<Digest>& nodes) override {
    const size_t n = nodes.size() / 2;
    if (n == 0 || (n & (n - 1)) || nodes.size() != 2 * n) throw std::invalid_argument("merkle_tree: 2n digests, n a power of two");
    Digest* h = ptr(nodes);
    h[0] = Digest{};
    for (size_t level = n / 2; level >= 1; level /= 2)
      hash_messages(level, 65, threads_, h + level, [&](size_t k, uint8_t* dst) {
        dst[0] = 0x01;  // protocol:merkle:node
        std::memcpy(dst + 1, h[2 * (level + k)].data(), 32);
        std::memcpy(dst + 33, h[2 * (level + k) + 1].data(), 32);
      });
  }

  void fri_fold(const Buffer<Fp3>& in, unsigned log_arity, Fp shift, const Fp3& beta, Buffer<Fp3>& out) override {
    fri_fold_layer({ptr(in), in.size()}, log_arity, shift, beta, {ptr(out), out.size()}, threads_);
  }

  void batch_inverse(Buffer<Fp>& values) override {
    Fp* v = ptr(values);
    parallel_for(values.size(), threads_, [&](size_t b, size_t e) { opt::batch_inverse(std::span(v + b, e - b)); }, 4096);
  }

  Buffer<Fp> adopt(std::vector<Fp>&& host) override {
    const size_t n = host.size();
    return Buffer<Fp>(std::make_shared<HostStorage>(std::move(host)), n);
  }
  void copy_range(Storage& dst, size_t dst_offset, const Storage& src, size_t src_offset, size_t bytes) override {
    check(dst, dst_offset, bytes);
    check(src, src_offset, bytes);
    uint8_t* d = static_cast<HostStorage&>(dst).data() + dst_offset;
    const uint8_t* s = static_cast<const HostStorage&>(src).data() + src_offset;
    parallel_for(bytes, threads_, [&](size_t b, size_t e) { std::memcpy(d + b, s + b, e - b); }, size_t{1} << 20);
  }
  void dif_coefficients(std::span<Buffer<Fp>> columns) override {
    for (const auto& c : columns) require(c.size() <= 1 || pow2(c.size()), "dif_coefficients: a size not a power of two");
    parallel_for(columns.size(), threads_, [&](size_t b, size_t e) {
      for (size_t c = b; c < e; ++c) opt::dif_coefficients(view(columns[c]), 1);
    }, 1);
  }
  void dif_from_coefficients(std::span<Buffer<Fp>> columns) override {
    for (const auto& c : columns) require(pow2(c.size()), "dif_from_coefficients: a size not a power of two");
    for (const auto& col : columns) {
      const size_t n = col.size();
      const unsigned log_n = spec::ntt_log2(n);
      const std::vector<Fp> c(ptr(col), ptr(col) + n);
      const Fp scale = Fp::from_u64(n);
      Fp* out = ptr(col);
      parallel_for(n, threads_, [&](size_t b, size_t e) {
        for (size_t p = b; p < e; ++p) {
          size_t r = 0;
          for (unsigned bit = 0; bit < log_n; ++bit) r |= ((p >> bit) & 1) << (log_n - 1 - bit);
          out[p] = c[r] * scale;
        }
      }, 4096);
    }
  }
  void coset_interpolate(std::span<Buffer<Fp>> columns, Fp shift) override {
    for (const auto& c : columns) require(pow2(c.size()), "coset_interpolate: a size not a power of two");
    const Fp inv = shift.inverse();
    for (const auto& col : columns) {
      intt(view(col), threads_);
      Fp* v = ptr(col);
      parallel_for(col.size(), threads_, [&](size_t b, size_t e) {
        Fp s = inv.pow(b);
        for (size_t i = b; i < e; ++i) v[i] = v[i] * s, s = s * inv;
      }, 4096);
    }
  }
  void coset_part(std::span<const Buffer<Fp>> coeffs, const Buffer<Fp>& factors, std::span<Buffer<Fp>> out) override {
    require(out.size() == coeffs.size(), "coset_part: as many outputs as columns");
    require(pow2(factors.size()), "coset_part: the factors' size is not a power of two");
    require_heights(coeffs, factors.size(), "coset_part: a column of the wrong size");
    require_heights(out, factors.size(), "coset_part: an output of the wrong size");
    parallel_for(coeffs.size(), threads_, [&](size_t b, size_t e) {
      for (size_t c = b; c < e; ++c) coset_evals_from_dif(view(coeffs[c]), view(factors), view(out[c]), 1);
    }, 1);
  }
  std::vector<std::vector<Fp>> coset_rows(std::span<const Buffer<Fp>> coeffs, const Buffer<Fp>& factors,
                                          std::span<const size_t> rows) override {
    require(pow2(factors.size()), "coset_rows: the factors' size is not a power of two");
    require_heights(coeffs, factors.size(), "coset_rows: a column of the wrong size");
    for (size_t r : rows) require(r < factors.size(), "coset_rows: a row outside the coset");
    std::vector<std::vector<Fp>> out(rows.size(), std::vector<Fp>(coeffs.size()));
    parallel_for(coeffs.size(), threads_, [&](size_t b, size_t e) {
      std::vector<Fp> v(rows.size()), y;
      for (size_t c = b; c < e; ++c) {
        coset_rows_from_dif(view(coeffs[c]), view(factors), rows, v, &y);
        for (size_t j = 0; j < rows.size(); ++j) out[j][c] = v[j];
      }
    }, 1);
    return out;
  }
  std::vector<Fp3> evaluate_dif(std::span<const Buffer<Fp>> coeffs, const Buffer<Fp3>& zpow) override {
    require_heights(coeffs, zpow.size(), "evaluate_dif: sizes differ");
    std::vector<Fp3> out(coeffs.size());
    const Fp3* z = ptr(zpow);
    parallel_for(coeffs.size(), threads_, [&](size_t b, size_t e) {
      for (size_t c = b; c < e; ++c) {
        const Fp* v = ptr(coeffs[c]);
        air::LazySum3 s;
        for (size_t p = 0; p < coeffs[c].size(); ++p) s.add(z[p], v[p]);
        out[c] = s.value();
      }
    }, 1);
    return out;
  }

  void hash_leaves(std::span<const Buffer<Fp>> slots, std::span<const size_t> offsets, size_t count, size_t stride,
                   size_t first, Buffer<Digest>& out) override {
    if (offsets.size() != slots.size()) throw std::invalid_argument("hash_leaves: an offset per slot");
    for (size_t s = 0; s < slots.size(); ++s)
      if (offsets[s] + count > slots[s].size()) throw std::out_of_range("hash_leaves: a slot is too short");
    if (count && stride * (count - 1) + first >= out.size()) throw std::out_of_range("hash_leaves: the level is too short");
    std::vector<const Fp*> src;
    for (size_t s = 0; s < slots.size(); ++s) src.push_back(ptr(slots[s]) + offsets[s]);
    const size_t len = 1 + 8 * slots.size(), groups = (count + 7) / 8;
    Digest* level = ptr(out);
    parallel_for(groups, threads_, [&](size_t gb, size_t ge) {
      // A tile of 256 leaves: every slot's values copied first (one short stream per column),
      // then the messages written from it. Read in place, each leaf would touch a cache line
      // and a page in every column: at 2^20 rows that took more time than the hashing.
      constexpr size_t kTile = 256;
      std::vector<Fp> tile(src.size() * kTile);
      std::vector<uint8_t> buf(8 * len);
      const uint8_t* msgs[8];
      for (int m = 0; m < 8; ++m) msgs[m] = buf.data() + m * len;
      for (size_t g0 = gb; g0 < ge; g0 += kTile / 8) {
        const size_t first0 = 8 * g0, L = std::min(count, first0 + kTile) - first0;
        for (size_t sl = 0; sl < src.size(); ++sl) std::copy(src[sl] + first0, src[sl] + first0 + L, tile.data() + sl * kTile);
        for (size_t g = g0; g < std::min(ge, g0 + kTile / 8); ++g) {
          const size_t at = 8 * g, cnt = std::min<size_t>(8, count - at);
          for (size_t q = 0; q < cnt; ++q) {
            uint8_t* b = buf.data() + q * len;
            *b++ = 0x00;  // protocol:merkle:leaf
            for (size_t sl = 0; sl < src.size(); ++sl) b = put_fp(b, tile[sl * kTile + at + q - first0]);
          }
          Digest d[8];
          hash_group(msgs, cnt, len, d);
          for (size_t q = 0; q < cnt; ++q) level[stride * (at + q) + first] = d[q];
        }
      }
    }, 8);
  }
  void hash_level(const Buffer<Digest>& below, std::span<const Buffer<Fp>> inject, size_t count, size_t stride,
                  size_t first, Buffer<Digest>& up) override {
    const size_t w = up.size();
    if (below.size() != 2 * w) throw std::invalid_argument("hash_level: the level below holds twice the nodes");
    if (count && stride * (count - 1) + first >= w) throw std::out_of_range("hash_level: the level is too short");
    for (const auto& c : inject)
      if (c.size() < count) throw std::out_of_range("hash_level: an injected column is too short");
    const Digest* lo = ptr(below);
    Digest* hi = ptr(up);
    std::vector<const Fp*> cols;
    for (const auto& c : inject) cols.push_back(ptr(c));
    const size_t inject_len = 1 + 32 + 8 * cols.size(), groups = (count + 7) / 8;
    parallel_for(groups, threads_, [&](size_t gb, size_t ge) {
      std::vector<uint8_t> node(8 * 65), inj(8 * inject_len);
      const uint8_t *nm[8], *im[8];
      for (int m = 0; m < 8; ++m) nm[m] = node.data() + m * 65, im[m] = inj.data() + m * inject_len;
      Digest out[8];
      for (size_t g = gb; g < ge; ++g) {
        const size_t at = 8 * g, cnt = std::min<size_t>(8, count - at);
        for (size_t q = 0; q < cnt; ++q) {
          const size_t j = stride * (at + q) + first;
          uint8_t* b = node.data() + q * 65;
          b[0] = 0x01;  // protocol:merkle:node
          std::memcpy(b + 1, lo[j].data(), 32);
          std::memcpy(b + 33, lo[j + w].data(), 32);
        }
        hash_group(nm, cnt, 65, out);
        if (!cols.empty()) {
          for (size_t q = 0; q < cnt; ++q) {
            uint8_t* b = inj.data() + q * inject_len;
            *b++ = 0x02;  // protocol:merkle:mixed, the rows injected at this height
            std::memcpy(b, out[q].data(), 32);
            b += 32;
            for (const Fp* c : cols) b = put_fp(b, c[at + q]);
          }
          hash_group(im, cnt, inject_len, out);
        }
        for (size_t q = 0; q < cnt; ++q) hi[stride * (at + q) + first] = out[q];
      }
    }, 32);
  }

  Fp3 logup_columns(size_t table, const std::vector<std::vector<size_t>>& fractions, std::span<const Buffer<Fp>> trace,
                    std::span<const Fp> publics, const Fp3& alpha, const Fp3& beta, std::span<Buffer<Fp>> aux) override {
    const air::TableCode& code = air::generated_tables().at(table);
    const size_t F = fractions.size(), I = code.interactions;
    if (aux.size() != 3 * (F + 1) || trace.size() != code.columns) throw std::invalid_argument("logup_columns: shapes do not match");
    const size_t h = trace.empty() ? 0 : trace[0].size();
    require(pow2(h), "logup_columns: the height is not a power of two");
    require_heights(trace, h, "logup_columns: columns of different heights");
    require(publics.size() >= generated_publics(), "logup_columns: too few public values");
    for (const auto& g : fractions) {
      require(g.size() == 1 || g.size() == 2, "logup_columns: a fraction sums one or two interactions");
      for (size_t i : g) require(i < I, "logup_columns: a fraction names an interaction the table lacks");
    }
    std::vector<const Fp*> cols;
    for (const auto& c : trace) cols.push_back(ptr(c));
    std::vector<Fp*> a;
    for (const auto& c : aux) {
      if (c.size() != h) throw std::invalid_argument("logup_columns: an aux column of the wrong height");
      a.push_back(ptr(c));
    }
    air::CheckArgs args;
    args.columns = cols.data();
    args.n = h;
    args.publics = publics.data();
    args.lu_alpha = alpha;
    args.lu_beta = beta;
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
    return s;
  }

  void quotient_part(const QuotientPart& p, std::span<const Buffer<Fp>> main, std::span<const Buffer<Fp>> aux,
                     std::span<const Fp> publics, const Buffer<Fp3>& powers, std::span<Buffer<Fp>> q) override {
    const air::TableCode& code = air::generated_tables().at(p.table);
    const size_t h = size_t{1} << p.log_h;
    if (main.size() != code.columns || aux.size() != code.aux_width || q.size() != 3 ||
        powers.size() != code.combined_constraints)
      throw std::invalid_argument("quotient_part: shapes do not match");
    require(p.blowup > 0 && p.k < p.blowup, "quotient_part: part k of blowup parts");
    require(publics.size() >= generated_publics(), "quotient_part: too few public values");
    for (const auto& c : main) if (c.size() != h) throw std::invalid_argument("quotient_part: a column of the wrong height");
    for (const auto& c : aux) if (c.size() != h) throw std::invalid_argument("quotient_part: a column of the wrong height");
    for (const auto& c : q) if (c.size() != h * p.blowup) throw std::invalid_argument("quotient_part: q holds the LDE");
    const Fp w_h = root_of_unity(p.log_h), w_inv = w_h.inverse();
    const Fp zh = p.x0.pow(h) - kOne, h_inv = Fp::from_u64(h).inverse();
    std::vector<const Fp*> mc, ac;
    for (const auto& c : main) mc.push_back(ptr(c));
    for (const auto& c : aux) ac.push_back(ptr(c));
    Fp* qo[3] = {ptr(q[0]), ptr(q[1]), ptr(q[2])};
    air::CombineArgs a;
    a.next = 1;
    a.publics = publics.data();
    a.lu_alpha = p.lu_alpha;
    a.lu_beta = p.lu_beta;
    a.terminal = p.terminal;
    a.powers = ptr(powers);
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
  }

  void linear_combination(std::span<const Buffer<Fp>> columns, std::span<const Fp3> w0, std::span<const Fp3> w1,
                          std::span<Buffer<Fp>> out) override {
    if (w0.size() != columns.size() || w1.size() != columns.size() || out.size() != 6)
      throw std::invalid_argument("linear_combination: a weight per column and pair, six outputs");
    const size_t h = out[0].size();
    for (const auto& c : columns) if (c.size() != h) throw std::invalid_argument("linear_combination: heights differ");
    require_heights(out, h, "linear_combination: outputs of different heights");
    Fp* o[6];
    for (size_t c = 0; c < 6; ++c) o[c] = ptr(out[c]);
    std::vector<const Fp*> cols;
    for (const auto& c : columns) cols.push_back(ptr(c));
    const Fp3 zero{};
    parallel_for(h, threads_, [&](size_t b, size_t e) {
      constexpr size_t kBlock = 256;
      std::vector<air::LazySum3> s0(kBlock), s1(kBlock);
      for (size_t i0 = b; i0 < e; i0 += kBlock) {
        const size_t m = std::min(e, i0 + kBlock) - i0;
        std::fill(s0.begin(), s0.begin() + static_cast<ptrdiff_t>(m), air::LazySum3{});
        std::fill(s1.begin(), s1.begin() + static_cast<ptrdiff_t>(m), air::LazySum3{});
        for (size_t c = 0; c < cols.size(); ++c) {
          const Fp* col = cols[c] + i0;
          const Fp3 a = w0[c], b1 = w1[c];
          if (b1 == zero)
            for (size_t i = 0; i < m; ++i) s0[i].add(a, col[i]);
          else
            for (size_t i = 0; i < m; ++i) s0[i].add(a, col[i]), s1[i].add(b1, col[i]);
        }
        for (size_t i = 0; i < m; ++i) {
          const Fp3 v0 = s0[i].value(), v1 = s1[i].value();
          for (size_t c = 0; c < 3; ++c) o[c][i0 + i] = v0.c[c], o[3 + c][i0 + i] = v1.c[c];
        }
      }
    });
  }
  void deep_accumulate(const DeepPart& p, std::span<const Buffer<Fp>> values, Buffer<Fp3>& acc) override {
    const size_t h = size_t{1} << p.log_h;
    require(p.blowup > 0 && p.k < p.blowup, "deep_accumulate: part k of blowup parts");
    if (values.size() != 6 || acc.size() != h * p.blowup) throw std::invalid_argument("deep_accumulate: shapes do not match");
    for (const auto& c : values) if (c.size() != h) throw std::invalid_argument("deep_accumulate: a part of the wrong height");
    const Fp* v[6];
    for (size_t c = 0; c < 6; ++c) v[c] = ptr(values[c]);
    Fp3* out = ptr(acc);
    const Fp w_h = root_of_unity(p.log_h);
    parallel_for(h, threads_, [&](size_t b, size_t e) {
      constexpr size_t kBlock = 1024;
      std::vector<Fp3> i0(kBlock), i1(kBlock);  // 1/(x − z0), 1/(x − z1), a block of rows at a time
      Fp x = p.x0 * w_h.pow(b);
      for (size_t r0 = b; r0 < e; r0 += kBlock) {
        const size_t m = std::min(e, r0 + kBlock) - r0;
        for (size_t i = 0; i < m; ++i, x = x * w_h) i0[i] = embed(x) - p.z0, i1[i] = embed(x) - p.z1;
        opt::batch_inverse(std::span<Fp3>(i0.data(), m));
        opt::batch_inverse(std::span<Fp3>(i1.data(), m));
        for (size_t i = 0; i < m; ++i) {
          const size_t r = r0 + i, j = p.blowup * r + p.k;
          const Fp3 a{{v[0][r], v[1][r], v[2][r]}}, c{{v[3][r], v[4][r], v[5][r]}};
          const Fp3 t = (a - p.c0) * i0[i] + (c - p.c1) * i1[i];
          out[j] = p.overwrite ? t : out[j] + t;
        }
      }
    });
  }
  void add_scaled(Buffer<Fp3>& acc, const Fp3& lambda, const Buffer<Fp3>& x) override {
    if (acc.size() != x.size()) throw std::invalid_argument("add_scaled: sizes differ");
    Fp3* a = ptr(acc);
    const Fp3* v = ptr(x);
    parallel_for(acc.size(), threads_, [&](size_t b, size_t e) {
      for (size_t i = b; i < e; ++i) a[i] = a[i] + lambda * v[i];
    }, 4096);
  }

  std::vector<Fp3> evaluate_ood(const Buffer<Fp>& matrix, size_t width, const Fp3& z) override {
    if (width == 0 || matrix.size() % width) throw std::invalid_argument("evaluate_ood: shapes do not match");
    const size_t n = matrix.size() / width;
    const Fp* m = ptr(matrix);
    // The same barycentric weights as the row-major version, summed per column.
    std::vector<Fp> row(width);
    std::vector<Fp3> out(width);
    const auto weights = barycentric_weights(n, z, threads_);
    if (!weights) {  // z = ω^i: the evaluations themselves
      const size_t i = index_on_subgroup(n, z);
      for (size_t c = 0; c < width; ++c) out[c] = {{m[c * n + i], Fp(), Fp()}};
      return out;
    }
    parallel_for(width, threads_, [&](size_t b, size_t e) {
      for (size_t c = b; c < e; ++c) {
        Fp3 acc;
        for (size_t i = 0; i < n; ++i) acc = acc + (*weights)[i] * m[c * n + i];
        out[c] = acc;
      }
    }, 1);
    const Fp3 factor = ood_factor(n, z);
    for (auto& v : out) v = v * factor;
    return out;
  }

 private:
  static void check(const Storage& s, size_t offset, size_t bytes) {
    if (offset > s.bytes() || bytes > s.bytes() - offset) throw std::out_of_range("buffer access out of range");
  }
  unsigned threads_;
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend(unsigned threads) { return std::make_unique<CpuBackend>(threads); }

}  // namespace zkrv::opt
