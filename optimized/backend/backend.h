#pragma once
// The backend seam (spec: protocol:ntt:*, protocol:merkle:*, protocol:fri:fold): the generic
// steps of a STARK prover (memory, NTT and LDE, hashing and Merkle levels, FRI folding, DEEP,
// grinding) as operations on typed buffers that live where the backend computes (host memory
// for the CPU backend, device memory for CUDA). The AIR-specific steps (the LogUp columns, the constraint
// quotient) are not here: they are optimized/circuit's, on top of this seam, as RISC Zero keeps
// CircuitHal apart from Hal. The CPU backend always exists; without CUDA, or without a device,
// the "GPU" backend is the CPU one, so everything builds and runs anywhere. DualBackend runs two
// backends in lockstep and compares every output buffer byte for byte.
//
// Layouts, one convention throughout: a matrix is a list of column buffers (a table's columns,
// one buffer each, all of one height); a Merkle tree is a list of level buffers, the leaves
// first and the root last (a level of one digest), each level hashed from the one below with
// hash_level; where the leaves' values are read row-wise from one buffer, hash_leaves says so
// with a slot's width.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "optimized/field/goldilocks.h"
#include "optimized/hash/keccak.h"
#include "optimized/memory/column.h"

namespace zkrv::opt {

// Untyped memory owned by one backend.
class Storage {
 public:
  virtual ~Storage() = default;
  virtual size_t bytes() const = 0;
};

// A typed handle: n elements of T in a backend's memory. Copies share the storage.
template <typename T>
class Buffer {
 public:
  Buffer() = default;
  Buffer(std::shared_ptr<Storage> s, size_t n) : storage_(std::move(s)), size_(n) {}
  size_t size() const { return size_; }
  Storage& storage() const { return *storage_; }
  const std::shared_ptr<Storage>& shared() const { return storage_; }
  explicit operator bool() const { return storage_ != nullptr; }
  // The same storage as elements of U (a codeword of Fp3 as 3n base elements, in order).
  template <typename U>
  Buffer<U> as() const {
    static_assert(sizeof(T) % sizeof(U) == 0);
    return Buffer<U>(storage_, size_ * (sizeof(T) / sizeof(U)));
  }

 private:
  std::shared_ptr<Storage> storage_;
  size_t size_ = 0;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;

  // Memory. Offsets and sizes in bytes.
  virtual std::shared_ptr<Storage> allocate(size_t bytes) = 0;
  virtual void write(Storage& dst, size_t offset, const void* src, size_t bytes) = 0;
  virtual void read(const Storage& src, size_t offset, void* dst, size_t bytes) = 0;
  // dst[0, bytes) = src[0, bytes), both in this backend's memory.
  virtual void copy(Storage& dst, const Storage& src, size_t bytes) = 0;
  // Copies elem_bytes-sized elements at the given element indices into dst, in order.
  virtual void gather(const Storage& src, size_t elem_bytes, std::span<const size_t> indices, void* dst) = 0;
  // The storage's bytes as the host addresses them, or null where they are not in host memory
  // (a device's, or a pair of backends'): the AIR-specific steps run in place where they can.
  virtual void* host_address(const Storage&) const { return nullptr; }

  // spec: protocol:ntt:batch_lde — each column of n evaluations on <ω_n> -> the n·2^log_blowup
  // evaluations on shift·<ω>, natural order, into the output column of the same index.
  virtual void batch_coset_lde(std::span<const Buffer<Fp>> in, unsigned log_blowup, Fp shift, std::span<Buffer<Fp>> out) = 0;
  // spec: protocol:fri:fold — out[i] = fold(in[i + j*m], j < 2^log_arity) at x = shift·ω_N^i.
  virtual void fri_fold(const Buffer<Fp3>& in, unsigned log_arity, Fp shift, const Fp3& beta, Buffer<Fp3>& out) = 0;
  // Every nonzero value replaced by its inverse; zeros stay 0.
  virtual void batch_inverse(Buffer<Fp>& values) = 0;
  // spec: protocol:ntt:ood_eval — each column (evaluations on <ω_n>) evaluated at z.
  virtual std::vector<Fp3> evaluate_ood(std::span<const Buffer<Fp>> columns, const Fp3& z) = 0;

  // ---- Merkle trees (protocol:merkle:*), a level at a time, a part of a level at a time. ----
  // A leaf's values, one slot after another: slot s gives `width` consecutive values of its
  // buffer, from values[offset + width·q] for leaf q. A column is a slot of width 1; rows of a
  // row-major block (a FRI layer's codeword, three coefficients a value) a slot of their width.
  struct Slot {
    Buffer<Fp> values;
    size_t offset = 0, width = 1;
  };
  // protocol:merkle:leaf: for q < count, out[stride·q + first] = H(0x00 ‖ the slots' values for
  // leaf q, 8 bytes each, little-endian).
  virtual void hash_leaves(std::span<const Slot> slots, size_t count, size_t stride, size_t first, Buffer<Digest>& out);
  // Which nodes of the level below are node j's children at a level of width w (the level below
  // holds 2w): kPairs, 2j and 2j + 1 (protocol:merkle:node, the plain tree the FRI layers
  // commit with); kHalves, j and j + w (protocol:merkle:mixed).
  enum class Children { kPairs, kHalves };
  // protocol:merkle:node for q < count, j = stride·q + first: node = H(0x01 ‖ left ‖ right);
  // when inject is not empty the matrices of this height enter (protocol:merkle:mixed):
  // H(0x02 ‖ node ‖ inject[c][q] for every column c). up[j] = it.
  virtual void hash_level(const Buffer<Digest>& below, Children children, std::span<const Buffer<Fp>> inject,
                          size_t count, size_t stride, size_t first, Buffer<Digest>& up);

  // ---- The prover's generic steps (optimized/prove). ----
  // Each has a default that runs the CPU backend on host copies of its inputs and writes the
  // outputs back (what a backend that lacks the step does); the CPU backend overrides each one
  // in place.

  // A host vector as a buffer: the CPU backend keeps the vector's memory, the others upload it.
  virtual Buffer<Fp> adopt(Column&& host);
  // dst[dst_offset, + bytes) = src[src_offset, + bytes), both in this backend's memory.
  virtual void copy_range(Storage& dst, size_t dst_offset, const Storage& src, size_t src_offset, size_t bytes);
  // protocol:ntt (the LDE by parts): each column, evaluations on <ω_n>, replaced in place by n
  // times its coefficients in bit-reversed order (opt::dif_coefficients).
  virtual void dif_coefficients(std::span<Buffer<Fp>> columns);
  // The same form from natural-order coefficients: c[rev(p)]·n at p, in place.
  virtual void dif_from_coefficients(std::span<Buffer<Fp>> columns);
  // Natural-order coefficients of the polynomial whose evaluations on shift·<ω_n> each column
  // holds, in place.
  virtual void coset_interpolate(std::span<Buffer<Fp>> columns, Fp shift);
  // out[c] = the evaluations on the coset c·<ω_n> of the polynomial whose dif form is coeffs[c]
  // (factors = bitrev_coset_factors(log n, c)); natural order.
  virtual void coset_part(std::span<const Buffer<Fp>> coeffs, const Buffer<Fp>& factors, std::span<Buffer<Fp>> out);
  // Rows of those evaluations only: result[j][c] = coset_part's out[c][rows[j]].
  virtual std::vector<std::vector<Fp>> coset_rows(std::span<const Buffer<Fp>> coeffs, const Buffer<Fp>& factors,
                                                  std::span<const size_t> rows);
  // result[c] = Σ_p coeffs[c][p]·zpow[p]: with zpow[p] = z^rev(p)/n, each column's polynomial at z.
  virtual std::vector<Fp3> evaluate_dif(std::span<const Buffer<Fp>> coeffs, const Buffer<Fp3>& zpow);

  // protocol:stark:deep. out[3s + c] = component c of Σ_col w_s[col]·columns[col] (s = 0, 1).
  virtual void linear_combination(std::span<const Buffer<Fp>> columns, std::span<const Fp3> w0,
                                  std::span<const Fp3> w1, std::span<Buffer<Fp>> out);
  // On part k of an LDE (x_i = x0·ω_h^i): acc[blowup·i + k] += (v0_i − c0)/(x_i − z0) +
  // (v1_i − c1)/(x_i − z1), v_s the extension value in part[3s, 3s + 3).
  struct DeepPart {
    unsigned log_h = 0;
    size_t blowup = 1, k = 0;
    Fp x0;
    Fp3 z0, z1, c0, c1;
    bool overwrite = false;  // acc[blowup·i + k] = the sum (the first to write that part)
  };
  virtual void deep_accumulate(const DeepPart& part, std::span<const Buffer<Fp>> values, Buffer<Fp3>& acc);
  // acc[i] += lambda·x[i] (the FRI injection of a shorter codeword).
  virtual void add_scaled(Buffer<Fp3>& acc, const Fp3& lambda, const Buffer<Fp3>& x);
  // protocol:transcript:pow — the smallest nonce with at least `bits` leading zero bits of
  // H(0x03 ‖ state ‖ nonce) (optimized/hash/pow.h).
  virtual uint64_t grind(const Digest& state, unsigned bits);

  // Typed helpers.
  template <typename T>
  Buffer<T> alloc(size_t n) { return Buffer<T>(allocate(n * sizeof(T)), n); }
  template <typename T>
  Buffer<T> upload(std::span<const T> host) {
    Buffer<T> b = alloc<T>(host.size());
    if (!host.empty()) write(b.storage(), 0, host.data(), host.size_bytes());
    return b;
  }
  template <typename T>
  std::vector<T> download(const Buffer<T>& b) {
    std::vector<T> out(b.size());
    if (!out.empty()) read(b.storage(), 0, out.data(), out.size() * sizeof(T));
    return out;
  }
  template <typename T>
  std::vector<T> gather(const Buffer<T>& b, std::span<const size_t> indices) {
    for (size_t i : indices)
      if (i >= b.size()) throw std::out_of_range("gather index out of range");
    std::vector<T> out(indices.size());
    if (!out.empty()) gather(b.storage(), sizeof(T), indices, out.data());
    return out;
  }

 protected:
  // The CPU backend that runs the default steps.
  Backend& host();

 private:
  std::unique_ptr<Backend> host_;
};

// RAII host view: the buffer's contents on the host while it lives; a mutable view writes its
// contents back when it goes out of scope.
template <typename T>
class HostView {
 public:
  HostView(Backend& be, Buffer<T>& b, bool writable) : be_(be), buf_(b), writable_(writable), data_(be.download(b)) {}
  HostView(const HostView&) = delete;
  HostView& operator=(const HostView&) = delete;
  ~HostView() {
    if (writable_ && !data_.empty()) be_.write(buf_.storage(), 0, data_.data(), data_.size() * sizeof(T));
  }
  std::span<T> span() { return data_; }
  T& operator[](size_t i) { return data_[i]; }
  size_t size() const { return data_.size(); }

 private:
  Backend& be_;
  Buffer<T>& buf_;
  bool writable_;
  std::vector<T> data_;
};

enum class BackendKind { kCpu, kGpu };
// kGpu: the CUDA backend when this build has CUDA and a device is present, else the CPU backend
// (its name() says which). threads: CPU threads, 0 = all cores.
std::unique_ptr<Backend> make_backend(BackendKind kind, unsigned threads = 0);
std::unique_ptr<Backend> make_cpu_backend(unsigned threads = 0);
// Null when this build has no CUDA or no device is present; *why says which.
std::unique_ptr<Backend> make_cuda_backend(std::string* why = nullptr);

// Runs `a` and `b` in lockstep; after every operation the outputs are read back from both and
// compared byte for byte. A difference throws BackendMismatch naming the operation.
struct BackendMismatch : std::runtime_error {
  using std::runtime_error::runtime_error;
};
std::unique_ptr<Backend> make_dual_backend(std::unique_ptr<Backend> a, std::unique_ptr<Backend> b);

}  // namespace zkrv::opt
