// The CPU backend: host memory, the optimized NTT, eight-lane Keccak and threads.
#include <cstdlib>
#include <cstring>

#include "optimized/backend/backend.h"
#include "optimized/common/parallel.h"
#include "optimized/fri/fold.h"
#include "optimized/ntt/ntt.h"

namespace zkrv::opt {
namespace {

class HostStorage final : public Storage {
 public:
  explicit HostStorage(size_t bytes) : bytes_(bytes), data_(static_cast<uint8_t*>(std::aligned_alloc(64, round(bytes)))) {
    if (!data_) throw std::bad_alloc();
  }
  ~HostStorage() override { std::free(data_); }
  size_t bytes() const override { return bytes_; }
  uint8_t* data() const { return data_; }

 private:
  static size_t round(size_t b) { return (b + 63) / 64 * 64 + 64; }
  size_t bytes_;
  uint8_t* data_;
};

template <typename T>
T* ptr(const Buffer<T>& b) { return reinterpret_cast<T*>(static_cast<HostStorage&>(b.storage()).data()); }

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
