// The CUDA backend: device buffers and one kernel (or a few) per whole step. Kernels are thin
// loops over the host/device bodies in kernels_hd.h (checked on the CPU by kernels_hd_test).
// Every CUDA call is checked and turned into an exception naming the call, file and line;
// device code never throws. Every operation synchronizes before returning, so an error surfaces
// at the step that caused it.
#include <cuda_runtime.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "optimized/cuda/cuda_backend.h"
#include "optimized/cuda/kernels_hd.h"
#include "optimized/ntt/ntt.h"

namespace zkrv::opt::cuda {
namespace {

void check(cudaError_t e, const char* call, const char* file, int line) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + call + ": " + cudaGetErrorString(e));
}
#define ZKRV_CUDA_CHECK(call) check((call), #call, __FILE__, __LINE__)
#define ZKRV_CUDA_LAUNCHED() \
  do {                        \
    ZKRV_CUDA_CHECK(cudaGetLastError());      \
    ZKRV_CUDA_CHECK(cudaDeviceSynchronize()); \
  } while (0)

constexpr unsigned kThreads = 256;
unsigned blocks_for(size_t n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }

class DeviceStorage final : public Storage {
 public:
  explicit DeviceStorage(size_t bytes) : bytes_(bytes) { ZKRV_CUDA_CHECK(cudaMalloc(&ptr_, bytes ? bytes : 1)); }
  ~DeviceStorage() override { cudaFree(ptr_); }
  size_t bytes() const override { return bytes_; }
  void* ptr() const { return ptr_; }

 private:
  size_t bytes_;
  void* ptr_ = nullptr;
};

template <typename T>
T* dev(const Buffer<T>& b) { return static_cast<T*>(static_cast<const DeviceStorage&>(b.storage()).ptr()); }

// ---- kernels ----------------------------------------------------------------------------------

// One pass of a batched transform: block (blockIdx.x, column blockIdx.y) loads its elements
// from src (or, with spread, builds them from bit-reversed coefficients and their factors), runs
// the pass's stages in shared memory and stores to dst (src == dst except on first passes).
struct PassIo {
  const Fp* src;
  Fp* dst;
  size_t src_stride, dst_stride;
  const Fp* factors;    // spread only
  unsigned log_blowup;  // spread only
  bool spread;
};
__global__ void ntt_pass_kernel(PassIo io, NttPass p, bool dif, const Fp* tw) {
  extern __shared__ uint64_t smem_words[];
  Fp* smem = reinterpret_cast<Fp*>(smem_words);
  const Fp* src = io.src + blockIdx.y * io.src_stride;
  Fp* dst = io.dst + blockIdx.y * io.dst_stride;
  const size_t b = blockIdx.x, count = pass_elements(p);
  for (size_t e = threadIdx.x; e < count; e += blockDim.x) {
    const size_t q = pass_index(p, b, e);
    smem[e] = io.spread ? lde_spread_value(src, io.factors, q, io.log_blowup) : src[q];
  }
  __syncthreads();
  for (unsigned s = 0; s < p.s1 - p.s0; ++s) {
    const unsigned t = dif ? p.s1 - 1 - s : p.s0 + s;
    for (size_t k = threadIdx.x; k < count / 2; k += blockDim.x) {
      const Butterfly bf = pass_butterfly(p, t, b, k);
      if (dif) dif_butterfly(smem, bf, tw);
      else dit_butterfly(smem, bf, tw);
    }
    __syncthreads();
  }
  for (size_t e = threadIdx.x; e < count; e += blockDim.x) dst[pass_index(p, b, e)] = smem[e];
}

__global__ void lde_factors_kernel(Fp* factors, size_t n, unsigned log_n, Fp shift, Fp n_inv) {
  const size_t p = blockIdx.x * size_t{blockDim.x} + threadIdx.x;
  if (p < n) factors[p] = lde_scaled_coefficient(Fp::from_u64(1), p, log_n, shift, n_inv);
}

__global__ void hash_leaves_kernel(const LeafSlot* slots, size_t words, size_t count, size_t stride, size_t first,
                                   uint64_t* out) {
  const size_t q = blockIdx.x * size_t{blockDim.x} + threadIdx.x;
  if (q >= count) return;
  hash_leaf(slots, words, q, out + 4 * (stride * q + first));
}

// Nodes j = stride·q + first of a level of width w: children 2j, 2j + 1 (pairs) or j, j + w.
__global__ void hash_level_kernel(const uint64_t* below, size_t w, bool pairs, const uint64_t* const* inject,
                                  size_t ninject, size_t count, size_t stride, size_t first, uint64_t* up) {
  const size_t q = blockIdx.x * size_t{blockDim.x} + threadIdx.x;
  if (q >= count) return;
  const size_t j = stride * q + first, l = pairs ? 2 * j : j, r = pairs ? 2 * j + 1 : j + w;
  hash_node(below + 4 * l, below + 4 * r, inject, ninject, q, up + 4 * j);
}

struct FoldParams {
  Fp zeta[16];
};
__global__ void fri_fold_kernel(const Fp3* in, size_t m, unsigned log_arity, Fp shift_inv, Fp w_inv, Fp3 beta,
                                FoldParams params, Fp3* out) {
  const size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x;
  if (i >= m) return;
  out[i] = fri_fold_one(in, m, log_arity, i, shift_inv * w_inv.pow(i), beta, params.zeta);
}

struct PowState {
  uint64_t words[4];
};
__global__ void grind_kernel(PowState state, unsigned bits, uint64_t base, unsigned long long* best) {
  const uint64_t nonce = base + blockIdx.x * uint64_t{blockDim.x} + threadIdx.x;
  if (pow_zero_bits(state.words, nonce) >= bits) atomicMin(best, static_cast<unsigned long long>(nonce));
}

// Montgomery's trick per chunk of kChunk elements; zeros stay 0.
constexpr size_t kInverseChunk = 32;
__global__ void batch_inverse_kernel(Fp* v, Fp* prefix, size_t n) {
  const size_t begin = (blockIdx.x * size_t{blockDim.x} + threadIdx.x) * kInverseChunk;
  if (begin >= n) return;
  const size_t end = begin + kInverseChunk < n ? begin + kInverseChunk : n;
  Fp acc = Fp::from_u64(1);
  for (size_t i = begin; i < end; ++i) {
    prefix[i] = acc;
    if (!(v[i] == Fp())) acc = acc * v[i];
  }
  Fp inv = acc.inverse();
  for (size_t i = end; i-- > begin;) {
    if (v[i] == Fp()) continue;
    const Fp x = v[i];
    v[i] = inv * prefix[i];
    inv = inv * x;
  }
}

__global__ void ood_weights_kernel(Fp3* weights, size_t n, Fp w, Fp3 z) {
  const size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x;
  if (i < n) weights[i] = ood_weight(w, i, z);
}

// partial[c * gridDim.x + blockIdx.x] = Σ weights[i] m[c n + i] over this block's rows (c =
// blockIdx.y: columns of one buffer, or one column a launch).
__global__ void ood_dot_kernel(const Fp3* weights, const Fp* m, size_t n, Fp3* partial) {
  __shared__ uint64_t sums[kThreads * 3];
  const size_t c = blockIdx.y;
  Fp3 acc;
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n; i += size_t{gridDim.x} * blockDim.x)
    acc = acc + weights[i] * m[c * n + i];
  Fp3* s = reinterpret_cast<Fp3*>(sums);
  s[threadIdx.x] = acc;
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) s[threadIdx.x] = s[threadIdx.x] + s[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[c * gridDim.x + blockIdx.x] = s[0];
}

__global__ void gather_kernel(const uint64_t* src, const size_t* idx, size_t count, size_t words, uint64_t* dst) {
  const size_t t = blockIdx.x * size_t{blockDim.x} + threadIdx.x;
  if (t >= count * words) return;
  const size_t k = t / words, w = t % words;
  dst[t] = src[idx[k] * words + w];
}

// ---- the backend ------------------------------------------------------------------------------

class CudaBackend final : public Backend {
 public:
  explicit CudaBackend(std::string device) : device_(std::move(device)) {}
  std::string name() const override { return "cuda(" + device_ + ")"; }

  std::shared_ptr<Storage> allocate(size_t bytes) override { return std::make_shared<DeviceStorage>(bytes); }
  void write(Storage& dst, size_t offset, const void* src, size_t bytes) override {
    bounds(dst, offset, bytes);
    ZKRV_CUDA_CHECK(cudaMemcpy(static_cast<uint8_t*>(static_cast<DeviceStorage&>(dst).ptr()) + offset, src, bytes,
                               cudaMemcpyHostToDevice));
  }
  void read(const Storage& src, size_t offset, void* dst, size_t bytes) override {
    bounds(src, offset, bytes);
    ZKRV_CUDA_CHECK(cudaMemcpy(dst, static_cast<const uint8_t*>(static_cast<const DeviceStorage&>(src).ptr()) + offset,
                               bytes, cudaMemcpyDeviceToHost));
  }
  void copy(Storage& dst, const Storage& src, size_t bytes) override {
    bounds(dst, 0, bytes);
    bounds(src, 0, bytes);
    ZKRV_CUDA_CHECK(cudaMemcpy(static_cast<DeviceStorage&>(dst).ptr(), static_cast<const DeviceStorage&>(src).ptr(), bytes,
                               cudaMemcpyDeviceToDevice));
    ZKRV_CUDA_CHECK(cudaDeviceSynchronize());
  }
  void gather(const Storage& src, size_t elem_bytes, std::span<const size_t> indices, void* dst) override {
    if (indices.empty()) return;
    if (elem_bytes % 8) throw std::invalid_argument("gather: element size must be a multiple of 8 bytes");
    for (size_t i : indices) bounds(src, i * elem_bytes, elem_bytes);
    DeviceStorage idx(indices.size_bytes()), out(indices.size() * elem_bytes);
    ZKRV_CUDA_CHECK(cudaMemcpy(idx.ptr(), indices.data(), indices.size_bytes(), cudaMemcpyHostToDevice));
    const size_t words = elem_bytes / 8, total = indices.size() * words;
    gather_kernel<<<blocks_for(total), kThreads>>>(static_cast<const uint64_t*>(static_cast<const DeviceStorage&>(src).ptr()),
                                                   static_cast<const size_t*>(idx.ptr()), indices.size(), words,
                                                   static_cast<uint64_t*>(out.ptr()));
    ZKRV_CUDA_LAUNCHED();
    ZKRV_CUDA_CHECK(cudaMemcpy(dst, out.ptr(), indices.size() * elem_bytes, cudaMemcpyDeviceToHost));
  }

  void batch_coset_lde(std::span<const Buffer<Fp>> in, unsigned log_blowup, Fp shift, std::span<Buffer<Fp>> out) override {
    if (in.size() != out.size()) throw std::invalid_argument("batch_coset_lde: as many outputs as columns");
    if (in.empty()) return;
    const size_t n = in[0].size(), big = n << log_blowup;
    for (size_t c = 0; c < in.size(); ++c)
      if (in[c].size() != n || out[c].size() != big) throw std::invalid_argument("batch_coset_lde: shapes do not match");
    const unsigned log_n = spec::ntt_log2(n);
    spec::ntt_log2(big);
    // Per column: DIF inverse from the input into scratch (natural evaluations -> bit-reversed
    // coefficients), then DIT forward into the output, its first pass spreading the coefficients
    // scaled by the bit-reversed coset factors as it loads them: no bit-reversal pass, no
    // separate copy or spread.
    DeviceStorage scratch(n * sizeof(Fp)), factors(n * sizeof(Fp));
    Fp* coeffs = static_cast<Fp*>(scratch.ptr());
    lde_factors_kernel<<<blocks_for(n), kThreads>>>(static_cast<Fp*>(factors.ptr()), n, log_n, shift,
                                                    Fp::from_u64(n).inverse());
    ZKRV_CUDA_LAUNCHED();
    for (size_t c = 0; c < in.size(); ++c) {
      if (log_n == 0)
        ZKRV_CUDA_CHECK(cudaMemcpy(coeffs, dev(in[c]), sizeof(Fp), cudaMemcpyDeviceToDevice));
      else
        run_passes({dev(in[c]), coeffs, n, n, nullptr, 0, false}, {coeffs, coeffs, n, n, nullptr, 0, false}, 1, log_n,
                   true, twiddles(log_n, true));
      run_passes({coeffs, dev(out[c]), n, big, static_cast<const Fp*>(factors.ptr()), log_blowup, true},
                 {dev(out[c]), dev(out[c]), big, big, nullptr, 0, false}, 1, log_n + log_blowup, false,
                 twiddles(log_n + log_blowup, false));
    }
  }

  void hash_leaves(std::span<const Slot> slots, size_t count, size_t stride, size_t first, Buffer<Digest>& out) override {
    size_t words = 0;
    std::vector<LeafSlot> table;
    for (const Slot& sl : slots) {
      if (sl.offset > sl.values.size() || sl.width * count > sl.values.size() - sl.offset)
        throw std::out_of_range("hash_leaves: a slot is too short");
      table.push_back({reinterpret_cast<const uint64_t*>(dev(sl.values)) + sl.offset, sl.width});
      words += sl.width;
    }
    if (count && stride * (count - 1) + first >= out.size()) throw std::out_of_range("hash_leaves: the level is too short");
    if (count == 0) return;
    DeviceStorage on_device(table.size() * sizeof(LeafSlot));
    if (!table.empty())
      ZKRV_CUDA_CHECK(cudaMemcpy(on_device.ptr(), table.data(), table.size() * sizeof(LeafSlot), cudaMemcpyHostToDevice));
    hash_leaves_kernel<<<blocks_for(count), kThreads>>>(static_cast<const LeafSlot*>(on_device.ptr()), words, count,
                                                        stride, first, reinterpret_cast<uint64_t*>(dev(out)));
    ZKRV_CUDA_LAUNCHED();
  }

  void hash_level(const Buffer<Digest>& below, Children children, std::span<const Buffer<Fp>> inject, size_t count,
                  size_t stride, size_t first, Buffer<Digest>& up) override {
    const size_t w = up.size();
    if (below.size() != 2 * w) throw std::invalid_argument("hash_level: the level below holds twice the nodes");
    if (count && stride * (count - 1) + first >= w) throw std::out_of_range("hash_level: the level is too short");
    std::vector<const uint64_t*> columns;
    for (const auto& c : inject) {
      if (c.size() < count) throw std::out_of_range("hash_level: an injected column is too short");
      columns.push_back(reinterpret_cast<const uint64_t*>(dev(c)));
    }
    if (count == 0) return;
    DeviceStorage on_device(columns.size() * sizeof(const uint64_t*));
    if (!columns.empty())
      ZKRV_CUDA_CHECK(cudaMemcpy(on_device.ptr(), columns.data(), columns.size() * sizeof(const uint64_t*),
                                 cudaMemcpyHostToDevice));
    hash_level_kernel<<<blocks_for(count), kThreads>>>(
        reinterpret_cast<const uint64_t*>(dev(below)), w, children == Children::kPairs,
        static_cast<const uint64_t* const*>(on_device.ptr()), columns.size(), count, stride, first,
        reinterpret_cast<uint64_t*>(dev(up)));
    ZKRV_CUDA_LAUNCHED();
  }

  void fri_fold(const Buffer<Fp3>& in, unsigned log_arity, Fp shift, const Fp3& beta, Buffer<Fp3>& out) override {
    const size_t a = size_t{1} << log_arity, m = in.size() >> log_arity;
    if (log_arity == 0 || log_arity > 4 || out.size() != m || m == 0) throw std::invalid_argument("fri_fold: bad shapes");
    FoldParams params{};
    const Fp z = root_of_unity(log_arity).inverse();
    params.zeta[0] = Fp::from_u64(a).inverse();
    for (size_t t = 1; t < a; ++t) params.zeta[t] = params.zeta[t - 1] * z;
    const Fp w_inv = root_of_unity(spec::ntt_log2(in.size())).inverse();
    fri_fold_kernel<<<blocks_for(m), kThreads>>>(dev(in), m, log_arity, shift.inverse(), w_inv, beta, params, dev(out));
    ZKRV_CUDA_LAUNCHED();
  }

  void batch_inverse(Buffer<Fp>& values) override {
    const size_t n = values.size();
    if (n == 0) return;
    DeviceStorage prefix(n * sizeof(Fp));
    batch_inverse_kernel<<<blocks_for((n + kInverseChunk - 1) / kInverseChunk), kThreads>>>(
        dev(values), static_cast<Fp*>(prefix.ptr()), n);
    ZKRV_CUDA_LAUNCHED();
  }

  uint64_t grind(const Digest& state, unsigned bits) override {
    if (bits == 0) return 0;
    PowState st;
    std::memcpy(st.words, state.data(), 32);
    DeviceStorage best(sizeof(unsigned long long));
    auto* d_best = static_cast<unsigned long long*>(best.ptr());
    const unsigned long long none = kNoNonce;
    ZKRV_CUDA_CHECK(cudaMemcpy(d_best, &none, sizeof none, cudaMemcpyHostToDevice));
    static_assert(kGrindWindow % kThreads == 0);
    return grind_windows(kGrindWindow, [&](uint64_t base) -> uint64_t {
      grind_kernel<<<static_cast<unsigned>(kGrindWindow / kThreads), kThreads>>>(st, bits, base, d_best);
      ZKRV_CUDA_LAUNCHED();
      unsigned long long found = none;  // stays kNoNonce until a window has a hit
      ZKRV_CUDA_CHECK(cudaMemcpy(&found, d_best, sizeof found, cudaMemcpyDeviceToHost));
      return found;
    });
  }

  std::vector<Fp3> evaluate_ood(std::span<const Buffer<Fp>> columns, const Fp3& z) override {
    std::vector<Fp3> out(columns.size());
    if (columns.empty()) return out;
    const size_t n = columns[0].size();
    for (const auto& c : columns)
      if (c.size() != n) throw std::invalid_argument("evaluate_ood: columns of different heights");
    spec::ntt_log2(n);
    if (const size_t i = index_on_subgroup(n, z); i < n) {  // z = ω^i: the evaluations themselves
      for (size_t c = 0; c < columns.size(); ++c) out[c] = {{Backend::gather(columns[c], std::vector<size_t>{i})[0], Fp(), Fp()}};
      return out;
    }
    DeviceStorage weights(n * sizeof(Fp3));
    ood_weights_kernel<<<blocks_for(n), kThreads>>>(static_cast<Fp3*>(weights.ptr()), n,
                                                    root_of_unity(spec::ntt_log2(n)), z);
    ZKRV_CUDA_LAUNCHED();
    const unsigned blocks = static_cast<unsigned>(std::min<size_t>(blocks_for(n), 256));
    DeviceStorage partial(columns.size() * blocks * sizeof(Fp3));
    for (size_t c = 0; c < columns.size(); ++c) {
      ood_dot_kernel<<<dim3(blocks, 1), kThreads>>>(static_cast<const Fp3*>(weights.ptr()), dev(columns[c]), n,
                                                    static_cast<Fp3*>(partial.ptr()) + c * blocks);
      ZKRV_CUDA_CHECK(cudaGetLastError());
    }
    ZKRV_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<Fp3> host(columns.size() * blocks);
    ZKRV_CUDA_CHECK(cudaMemcpy(host.data(), partial.ptr(), host.size() * sizeof(Fp3), cudaMemcpyDeviceToHost));
    const Fp3 factor = ood_factor(n, z);
    for (size_t c = 0; c < columns.size(); ++c) {
      for (unsigned b = 0; b < blocks; ++b) out[c] = out[c] + host[c * blocks + b];
      out[c] = out[c] * factor;
    }
    return out;
  }

 private:
  static void bounds(const Storage& s, size_t offset, size_t bytes) {
    if (offset > s.bytes() || bytes > s.bytes() - offset) throw std::out_of_range("buffer access out of range");
  }

  // The twiddle tree for sizes up to 2^log_n on the device, built once (on the host) per size.
  const Fp* twiddles(unsigned log_n, bool inverse) {
    auto& slot = trees_[inverse];
    if (!slot || slot_log_[inverse] < log_n) {
      const auto host = twiddle_tree(log_n, inverse);
      slot = std::make_unique<DeviceStorage>(host->size() * sizeof(Fp));
      ZKRV_CUDA_CHECK(cudaMemcpy(slot->ptr(), host->data(), host->size() * sizeof(Fp), cudaMemcpyHostToDevice));
      slot_log_[inverse] = log_n;
    }
    return static_cast<const Fp*>(slot->ptr());
  }

  // Every pass of a transform of 2^log_n on `columns` columns (DIT ascending, DIF descending):
  // the first pass with `first` (its own source, maybe spreading), the others with `rest`.
  void run_passes(const PassIo& first, const PassIo& rest, size_t columns, unsigned log_n, bool dif, const Fp* tw) {
    NttPass passes[kMaxPasses];
    const unsigned count = ntt_passes(log_n, passes);
    for (unsigned i = 0; i < count; ++i) {
      const NttPass& p = passes[dif ? count - 1 - i : i];
      const size_t elements = pass_elements(p);
      const unsigned threads = static_cast<unsigned>(std::min<size_t>(std::max<size_t>(elements / 2, 1), 512));
      ntt_pass_kernel<<<dim3(static_cast<unsigned>(pass_blocks(p)), static_cast<unsigned>(columns)), threads,
                        elements * sizeof(Fp)>>>(i == 0 ? first : rest, p, dif, tw);
      ZKRV_CUDA_CHECK(cudaGetLastError());
    }
    ZKRV_CUDA_CHECK(cudaDeviceSynchronize());
  }

  std::string device_;
  std::unique_ptr<DeviceStorage> trees_[2];
  unsigned slot_log_[2] = {0, 0};
};

}  // namespace

std::unique_ptr<Backend> make_cuda_backend(std::string* why) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    if (why) *why = e != cudaSuccess ? std::string("CUDA reports: ") + cudaGetErrorString(e) : "no CUDA device";
    return nullptr;
  }
  cudaDeviceProp prop{};
  ZKRV_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  return std::make_unique<CudaBackend>(prop.name);
}

}  // namespace zkrv::opt::cuda
