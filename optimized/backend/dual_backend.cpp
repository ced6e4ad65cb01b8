// DualBackend: every buffer exists on both backends; every operation runs on both and its
// outputs are read back and compared byte for byte, so a divergence names the step that caused it.
#include <cstring>
#include <string>

#include "optimized/backend/backend.h"

namespace zkrv::opt {
namespace {

class DualStorage final : public Storage {
 public:
  DualStorage(std::shared_ptr<Storage> a, std::shared_ptr<Storage> b) : a(std::move(a)), b(std::move(b)) {}
  size_t bytes() const override { return a->bytes(); }
  std::shared_ptr<Storage> a, b;
};

const DualStorage& dual(const Storage& s) { return static_cast<const DualStorage&>(s); }
template <typename T>
Buffer<T> side_a(const Buffer<T>& x) { return Buffer<T>(dual(x.storage()).a, x.size()); }
template <typename T>
Buffer<T> side_b(const Buffer<T>& x) { return Buffer<T>(dual(x.storage()).b, x.size()); }

template <typename T>
std::vector<Buffer<T>> side_a(std::span<const Buffer<T>> xs) {
  std::vector<Buffer<T>> out;
  for (const auto& x : xs) out.push_back(side_a(x));
  return out;
}
template <typename T>
std::vector<Buffer<T>> side_b(std::span<const Buffer<T>> xs) {
  std::vector<Buffer<T>> out;
  for (const auto& x : xs) out.push_back(side_b(x));
  return out;
}
template <typename T>
std::vector<Buffer<T>> side_a(std::span<Buffer<T>> xs) { return side_a(std::span<const Buffer<T>>(xs.data(), xs.size())); }
template <typename T>
std::vector<Buffer<T>> side_b(std::span<Buffer<T>> xs) { return side_b(std::span<const Buffer<T>>(xs.data(), xs.size())); }

class DualBackend final : public Backend {
 public:
  DualBackend(std::unique_ptr<Backend> a, std::unique_ptr<Backend> b) : a_(std::move(a)), b_(std::move(b)) {}
  std::string name() const override { return "dual(" + a_->name() + ", " + b_->name() + ")"; }

  std::shared_ptr<Storage> allocate(size_t bytes) override {
    return std::make_shared<DualStorage>(a_->allocate(bytes), b_->allocate(bytes));
  }
  void write(Storage& dst, size_t offset, const void* src, size_t bytes) override {
    a_->write(*dual(dst).a, offset, src, bytes);
    b_->write(*dual(dst).b, offset, src, bytes);
  }
  void read(const Storage& src, size_t offset, void* dst, size_t bytes) override {
    std::vector<uint8_t> other(bytes);
    a_->read(*dual(src).a, offset, dst, bytes);
    b_->read(*dual(src).b, offset, other.data(), bytes);
    if (bytes && std::memcmp(dst, other.data(), bytes) != 0) throw BackendMismatch("read: the two backends' buffers differ");
  }
  void copy(Storage& dst, const Storage& src, size_t bytes) override {
    a_->copy(*dual(dst).a, *dual(src).a, bytes);
    b_->copy(*dual(dst).b, *dual(src).b, bytes);
  }
  void gather(const Storage& src, size_t elem_bytes, std::span<const size_t> idx, void* dst) override {
    std::vector<uint8_t> other(elem_bytes * idx.size());
    a_->gather(*dual(src).a, elem_bytes, idx, dst);
    b_->gather(*dual(src).b, elem_bytes, idx, other.data());
    if (!other.empty() && std::memcmp(dst, other.data(), other.size()) != 0)
      throw BackendMismatch("gather: the two backends' buffers differ");
  }

  void batch_coset_lde(std::span<const Buffer<Fp>> in, unsigned log_blowup, Fp shift, std::span<Buffer<Fp>> out) override {
    auto oa = side_a(out), ob = side_b(out);
    a_->batch_coset_lde(side_a(in), log_blowup, shift, oa);
    b_->batch_coset_lde(side_b(in), log_blowup, shift, ob);
    compare_all("batch_coset_lde", out);
  }
  void fri_fold(const Buffer<Fp3>& in, unsigned log_arity, Fp shift, const Fp3& beta, Buffer<Fp3>& out) override {
    auto oa = side_a(out), ob = side_b(out);
    a_->fri_fold(side_a(in), log_arity, shift, beta, oa);
    b_->fri_fold(side_b(in), log_arity, shift, beta, ob);
    compare("fri_fold", out);
  }
  void batch_inverse(Buffer<Fp>& values) override {
    auto va = side_a(values), vb = side_b(values);
    a_->batch_inverse(va);
    b_->batch_inverse(vb);
    compare("batch_inverse", values);
  }
  std::vector<Fp3> evaluate_ood(std::span<const Buffer<Fp>> columns, const Fp3& z) override {
    auto ra = a_->evaluate_ood(side_a(columns), z);
    const auto rb = b_->evaluate_ood(side_b(columns), z);
    if (!(ra == rb)) throw BackendMismatch("evaluate_ood: the two backends differ");
    return ra;
  }

  Buffer<Fp> adopt(Column&& host) override {  // each side adopts its own copy; the caller's is released
    const size_t n = host.size();
    Column copy = host;
    auto x = a_->adopt(std::move(copy));
    auto y = b_->adopt(std::move(host));
    return Buffer<Fp>(std::make_shared<DualStorage>(x.shared(), y.shared()), n);
  }
  void copy_range(Storage& dst, size_t dst_offset, const Storage& src, size_t src_offset, size_t bytes) override {
    a_->copy_range(*dual(dst).a, dst_offset, *dual(src).a, src_offset, bytes);
    b_->copy_range(*dual(dst).b, dst_offset, *dual(src).b, src_offset, bytes);
    std::vector<uint8_t> x(bytes), y(bytes);
    if (!bytes) return;
    a_->read(*dual(dst).a, dst_offset, x.data(), bytes);
    b_->read(*dual(dst).b, dst_offset, y.data(), bytes);
    if (x != y) throw BackendMismatch("copy_range: " + a_->name() + " and " + b_->name() + " differ");
  }
  void dif_coefficients(std::span<Buffer<Fp>> columns) override {
    auto xa = side_a(columns), xb = side_b(columns);
    a_->dif_coefficients(xa);
    b_->dif_coefficients(xb);
    compare_all("dif_coefficients", columns);
  }
  void dif_from_coefficients(std::span<Buffer<Fp>> columns) override {
    auto xa = side_a(columns), xb = side_b(columns);
    a_->dif_from_coefficients(xa);
    b_->dif_from_coefficients(xb);
    compare_all("dif_from_coefficients", columns);
  }
  void coset_interpolate(std::span<Buffer<Fp>> columns, Fp shift) override {
    auto xa = side_a(columns), xb = side_b(columns);
    a_->coset_interpolate(xa, shift);
    b_->coset_interpolate(xb, shift);
    compare_all("coset_interpolate", columns);
  }
  void coset_part(std::span<const Buffer<Fp>> coeffs, const Buffer<Fp>& factors, std::span<Buffer<Fp>> out) override {
    auto oa = side_a(out), ob = side_b(out);
    a_->coset_part(side_a(coeffs), side_a(factors), oa);
    b_->coset_part(side_b(coeffs), side_b(factors), ob);
    compare_all("coset_part", out);
  }
  std::vector<std::vector<Fp>> coset_rows(std::span<const Buffer<Fp>> coeffs, const Buffer<Fp>& factors,
                                          std::span<const size_t> rows) override {
    auto ra = a_->coset_rows(side_a(coeffs), side_a(factors), rows);
    if (ra != b_->coset_rows(side_b(coeffs), side_b(factors), rows)) throw BackendMismatch("coset_rows: the two backends differ");
    return ra;
  }
  std::vector<Fp3> evaluate_dif(std::span<const Buffer<Fp>> coeffs, const Buffer<Fp3>& zpow) override {
    auto ra = a_->evaluate_dif(side_a(coeffs), side_a(zpow));
    if (!(ra == b_->evaluate_dif(side_b(coeffs), side_b(zpow)))) throw BackendMismatch("evaluate_dif: the two backends differ");
    return ra;
  }
  void hash_leaves(std::span<const Slot> slots, size_t count, size_t stride, size_t first, Buffer<Digest>& out) override {
    std::vector<Slot> sa, sb;
    for (const Slot& sl : slots) sa.push_back({side_a(sl.values), sl.offset, sl.width}), sb.push_back({side_b(sl.values), sl.offset, sl.width});
    auto oa = side_a(out), ob = side_b(out);
    a_->hash_leaves(sa, count, stride, first, oa);
    b_->hash_leaves(sb, count, stride, first, ob);
    compare_strided("hash_leaves", out, count, stride, first);
  }
  void hash_level(const Buffer<Digest>& below, Children children, std::span<const Buffer<Fp>> inject, size_t count,
                  size_t stride, size_t first, Buffer<Digest>& up) override {
    auto ua = side_a(up), ub = side_b(up);
    a_->hash_level(side_a(below), children, side_a(inject), count, stride, first, ua);
    b_->hash_level(side_b(below), children, side_b(inject), count, stride, first, ub);
    compare_strided("hash_level", up, count, stride, first);
  }
  void linear_combination(std::span<const Buffer<Fp>> columns, std::span<const Fp3> w0, std::span<const Fp3> w1,
                          std::span<Buffer<Fp>> out) override {
    auto oa = side_a(out), ob = side_b(out);
    a_->linear_combination(side_a(columns), w0, w1, oa);
    b_->linear_combination(side_b(columns), w0, w1, ob);
    compare_all("linear_combination", out);
  }
  void deep_accumulate(const DeepPart& part, std::span<const Buffer<Fp>> values, Buffer<Fp3>& acc) override {
    auto xa = side_a(acc), xb = side_b(acc);
    a_->deep_accumulate(part, side_a(values), xa);
    b_->deep_accumulate(part, side_b(values), xb);
    compare_strided("deep_accumulate", acc, acc.size() / part.blowup, part.blowup, part.k);
  }
  void add_scaled(Buffer<Fp3>& acc, const Fp3& lambda, const Buffer<Fp3>& x) override {
    auto xa = side_a(acc), xb = side_b(acc);
    a_->add_scaled(xa, lambda, side_a(x));
    b_->add_scaled(xb, lambda, side_b(x));
    compare("add_scaled", acc);
  }
  uint64_t grind(const Digest& state, unsigned bits) override {
    const uint64_t a = a_->grind(state, bits), b = b_->grind(state, bits);
    if (a != b)
      throw BackendMismatch("grind: the two backends found different nonces (" + std::to_string(a) + ", " +
                            std::to_string(b) + ")");
    return a;
  }

 private:
  template <typename T>
  void compare_all(const char* op, std::span<Buffer<T>> out) {
    for (const auto& b : out) compare(op, b);
  }
  // Only the elements an operation wrote: stride·q + first for q < count.
  template <typename T>
  void compare_strided(const char* op, const Buffer<T>& out, size_t count, size_t stride, size_t first) {
    if (stride == 1) return compare_range(op, out, first, first + count);
    std::vector<size_t> idx(count);
    for (size_t q = 0; q < count; ++q) idx[q] = stride * q + first;
    std::vector<T> x(count), y(count);
    if (!count) return;
    a_->gather(*dual(out.storage()).a, sizeof(T), idx, x.data());
    b_->gather(*dual(out.storage()).b, sizeof(T), idx, y.data());
    if (std::memcmp(x.data(), y.data(), count * sizeof(T)) != 0) {
      size_t q = 0;
      while (std::memcmp(&x[q], &y[q], sizeof(T)) == 0) ++q;
      throw BackendMismatch(std::string(op) + ": " + a_->name() + " and " + b_->name() + " differ at element " +
                            std::to_string(idx[q]));
    }
  }
  template <typename T>
  void compare(const char* op, const Buffer<T>& out) { compare_range(op, out, 0, out.size()); }
  template <typename T>
  void compare_range(const char* op, const Buffer<T>& out, size_t begin, size_t end) {
    const size_t bytes = (end - begin) * sizeof(T);
    std::vector<uint8_t> x(bytes), y(bytes);
    if (!bytes) return;
    a_->read(*dual(out.storage()).a, begin * sizeof(T), x.data(), bytes);
    b_->read(*dual(out.storage()).b, begin * sizeof(T), y.data(), bytes);
    if (x != y) {
      size_t i = 0;
      while (x[i] == y[i]) ++i;
      throw BackendMismatch(std::string(op) + ": " + a_->name() + " and " + b_->name() + " differ at element " +
                            std::to_string(begin + i / sizeof(T)));
    }
  }
  std::unique_ptr<Backend> a_, b_;
};

}  // namespace

std::unique_ptr<Backend> make_dual_backend(std::unique_ptr<Backend> a, std::unique_ptr<Backend> b) {
  return std::make_unique<DualBackend>(std::move(a), std::move(b));
}

}  // namespace zkrv::opt
