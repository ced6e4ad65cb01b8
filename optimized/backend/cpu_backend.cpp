// The CPU backend: host memory, the optimized NTT, eight-lane Keccak and threads.
#include <cstdlib>
#include <cstring>

#include "optimized/backend/backend.h"
#include "optimized/backend/shapes.h"
#include "optimized/common/parallel.h"
#include "optimized/fri/fold.h"
#include "optimized/hash/pow.h"
#include "optimized/ntt/ntt.h"
#include "spec/field.h"

namespace zkrv::opt {
namespace {

// Host memory: allocated here (from the prover's region, optimized/memory; 64-byte aligned, not
// initialized), or a column that was adopted.
class HostStorage final : public Storage {
 public:
  explicit HostStorage(size_t bytes) : bytes_(bytes), data_(static_cast<uint8_t*>(memory::allocate(round(bytes)))) {}
  explicit HostStorage(Column&& v)
      : bytes_(v.size() * sizeof(Fp)), adopted_(std::move(v)), data_(reinterpret_cast<uint8_t*>(adopted_.data())),
        owned_(false) {}
  ~HostStorage() override {
    if (owned_) memory::release(data_);
  }
  size_t bytes() const override { return bytes_; }
  uint8_t* data() const { return data_; }

 private:
  static size_t round(size_t b) { return (b + 63) / 64 * 64 + 64; }
  size_t bytes_;
  Column adopted_;
  uint8_t* data_;
  bool owned_ = true;  // allocated here (else the adopted vector owns the memory)
};

template <typename T>
T* ptr(const Buffer<T>& b) { return reinterpret_cast<T*>(static_cast<HostStorage&>(b.storage()).data()); }
template <typename T>
std::span<T> view(const Buffer<T>& b) { return {ptr(b), b.size()}; }
using shapes::pow2;
using shapes::require;
using shapes::require_heights;
// x's 8 bytes, little-endian, at b; returns b + 8.
uint8_t* put_fp(uint8_t* b, Fp x) {
  const uint64_t v = x.value();
  std::memcpy(b, &v, 8);
  return b + 8;
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

  void* host_address(const Storage& s) const override { return static_cast<const HostStorage&>(s).data(); }

  void batch_coset_lde(std::span<const Buffer<Fp>> in, unsigned log_blowup, Fp shift, std::span<Buffer<Fp>> out) override {
    require(in.size() == out.size(), "batch_coset_lde: as many outputs as columns");
    const size_t n = in.empty() ? 0 : in[0].size();
    require(in.empty() || pow2(n), "batch_coset_lde: the height is not a power of two");
    require_heights(in, n, "batch_coset_lde: columns of different heights");
    require_heights(out, n << log_blowup, "batch_coset_lde: an output of the wrong size");
    const size_t width = in.size(), big = n << log_blowup;
    if (width >= threads_) {
      parallel_for(width, threads_, [&](size_t b, size_t e) {
        for (size_t c = b; c < e; ++c) coset_lde_into({ptr(in[c]), n}, 1u << log_blowup, shift, {ptr(out[c]), big}, 1);
      }, 1);
    } else {
      for (size_t c = 0; c < width; ++c) coset_lde_into({ptr(in[c]), n}, 1u << log_blowup, shift, {ptr(out[c]), big}, threads_);
    }
  }

  void fri_fold(const Buffer<Fp3>& in, unsigned log_arity, Fp shift, const Fp3& beta, Buffer<Fp3>& out) override {
    fri_fold_layer({ptr(in), in.size()}, log_arity, shift, beta, {ptr(out), out.size()}, threads_);
  }

  void batch_inverse(Buffer<Fp>& values) override {
    Fp* v = ptr(values);
    parallel_for(values.size(), threads_, [&](size_t b, size_t e) { opt::batch_inverse(std::span(v + b, e - b)); }, 4096);
  }

  Buffer<Fp> adopt(Column&& host) override {
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
        LazySum3 s;
        for (size_t p = 0; p < coeffs[c].size(); ++p) s.add(z[p], v[p]);
        out[c] = s.value();
      }
    }, 1);
    return out;
  }

  void hash_leaves(std::span<const Slot> slots, size_t count, size_t stride, size_t first, Buffer<Digest>& out) override {
    size_t words = 0;
    for (const auto& sl : slots) {
      if (sl.offset > sl.values.size() || sl.width * count > sl.values.size() - sl.offset)
        throw std::out_of_range("hash_leaves: a slot is too short");
      words += sl.width;
    }
    if (count && stride * (count - 1) + first >= out.size()) throw std::out_of_range("hash_leaves: the level is too short");
    const size_t len = 1 + 8 * words, groups = (count + 7) / 8;
    Digest* level = ptr(out);
    // Columns (slots of width 1) go through a tile; wider slots are rows already and are copied
    // straight into the messages.
    std::vector<size_t> narrow;
    for (size_t sl = 0; sl < slots.size(); ++sl)
      if (slots[sl].width == 1) narrow.push_back(sl);
    parallel_for(groups, threads_, [&](size_t gb, size_t ge) {
      // A tile of 256 leaves: every column's values copied first (one short stream per column),
      // then the messages written from it. Read in place, each leaf would touch a cache line
      // and a page in every column: at 2^20 rows that took more time than the hashing.
      constexpr size_t kTile = 256;
      std::vector<Fp> tile(narrow.size() * kTile);
      std::vector<size_t> tile_of(slots.size());
      for (size_t i = 0; i < narrow.size(); ++i) tile_of[narrow[i]] = i * kTile;
      std::vector<uint8_t> buf(8 * len);
      const uint8_t* msgs[8];
      for (int m = 0; m < 8; ++m) msgs[m] = buf.data() + m * len;
      for (size_t g0 = gb; g0 < ge; g0 += kTile / 8) {
        const size_t first0 = 8 * g0, L = std::min(count, first0 + kTile) - first0;
        for (size_t sl : narrow) {
          const Fp* src = ptr(slots[sl].values) + slots[sl].offset + first0;
          std::copy(src, src + L, tile.data() + tile_of[sl]);
        }
        for (size_t g = g0; g < std::min(ge, g0 + kTile / 8); ++g) {
          const size_t at = 8 * g, cnt = std::min<size_t>(8, count - at);
          for (size_t q = 0; q < cnt; ++q) {
            uint8_t* b = buf.data() + q * len;
            *b++ = 0x00;  // protocol:merkle:leaf
            const size_t i = at + q - first0;
            for (size_t sl = 0; sl < slots.size(); ++sl) {
              const size_t w = slots[sl].width;
              if (w == 1) {
                b = put_fp(b, tile[tile_of[sl] + i]);
              } else if (w) {  // canonical words, little-endian host, as put_fp writes them
                std::memcpy(b, ptr(slots[sl].values) + slots[sl].offset + w * (at + q), 8 * w);
                b += 8 * w;
              }
            }
          }
          Digest d[8];
          hash_group(msgs, cnt, len, d);
          for (size_t q = 0; q < cnt; ++q) level[stride * (at + q) + first] = d[q];
        }
      }
    }, 8);
  }
  void hash_level(const Buffer<Digest>& below, Children children, std::span<const Buffer<Fp>> inject, size_t count,
                  size_t stride, size_t first, Buffer<Digest>& up) override {
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
          const bool pairs = children == Children::kPairs;
          std::memcpy(b + 1, lo[pairs ? 2 * j : j].data(), 32);
          std::memcpy(b + 33, lo[pairs ? 2 * j + 1 : j + w].data(), 32);
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
      std::vector<LazySum3> s0(kBlock), s1(kBlock);
      for (size_t i0 = b; i0 < e; i0 += kBlock) {
        const size_t m = std::min(e, i0 + kBlock) - i0;
        std::fill(s0.begin(), s0.begin() + static_cast<ptrdiff_t>(m), LazySum3{});
        std::fill(s1.begin(), s1.begin() + static_cast<ptrdiff_t>(m), LazySum3{});
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
  uint64_t grind(const Digest& state, unsigned bits) override { return grind_pow(state, bits, threads_); }

  std::vector<Fp3> evaluate_ood(std::span<const Buffer<Fp>> columns, const Fp3& z) override {
    const size_t n = columns.empty() ? 0 : columns[0].size();
    require(columns.empty() || pow2(n), "evaluate_ood: the height is not a power of two");
    require_heights(columns, n, "evaluate_ood: columns of different heights");
    std::vector<Fp3> out(columns.size());
    if (columns.empty()) return out;
    // The same barycentric weights as the row-major version, summed per column.
    const auto weights = barycentric_weights(n, z, threads_);
    if (!weights) {  // z = ω^i: the evaluations themselves
      const size_t i = index_on_subgroup(n, z);
      for (size_t c = 0; c < columns.size(); ++c) out[c] = {{ptr(columns[c])[i], Fp(), Fp()}};
      return out;
    }
    parallel_for(columns.size(), threads_, [&](size_t b, size_t e) {
      for (size_t c = b; c < e; ++c) {
        const Fp* m = ptr(columns[c]);
        Fp3 acc;
        for (size_t i = 0; i < n; ++i) acc = acc + (*weights)[i] * m[i];
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
