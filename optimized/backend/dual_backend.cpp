// DualBackend: every buffer exists on both backends; every operation runs on both and its
// outputs are read back and compared byte for byte, so a divergence names the step that caused it.
#include <cstring>

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

  void batch_coset_lde(const Buffer<Fp>& in, size_t width, unsigned log_blowup, Fp shift, Buffer<Fp>& out) override {
    auto oa = side_a(out), ob = side_b(out);
    a_->batch_coset_lde(side_a(in), width, log_blowup, shift, oa);
    b_->batch_coset_lde(side_b(in), width, log_blowup, shift, ob);
    compare("batch_coset_lde", out);
  }
  void hash_rows(const Buffer<Fp>& matrix, size_t width, Buffer<Digest>& nodes) override {
    auto na = side_a(nodes), nb = side_b(nodes);
    a_->hash_rows(side_a(matrix), width, na);
    b_->hash_rows(side_b(matrix), width, nb);
    compare_range("hash_rows", nodes, nodes.size() / 2, nodes.size());
  }
  void hash_fri_rows(const Buffer<Fp3>& layer, unsigned log_arity, Buffer<Digest>& nodes) override {
    auto na = side_a(nodes), nb = side_b(nodes);
    a_->hash_fri_rows(side_a(layer), log_arity, na);
    b_->hash_fri_rows(side_b(layer), log_arity, nb);
    compare_range("hash_fri_rows", nodes, nodes.size() / 2, nodes.size());
  }
  void merkle_tree(Buffer<Digest>& nodes) override {
    auto na = side_a(nodes), nb = side_b(nodes);
    a_->merkle_tree(na);
    b_->merkle_tree(nb);
    compare_range("merkle_tree", nodes, 1, nodes.size());
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
  std::vector<Fp3> evaluate_ood(const Buffer<Fp>& matrix, size_t width, const Fp3& z) override {
    auto ra = a_->evaluate_ood(side_a(matrix), width, z);
    const auto rb = b_->evaluate_ood(side_b(matrix), width, z);
    if (!(ra == rb)) throw BackendMismatch("evaluate_ood: the two backends differ");
    return ra;
  }

 private:
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
