#include "optimized/backend/backend.h"

#ifdef ZKRV_HAVE_CUDA
#include "optimized/cuda/cuda_backend.h"
#endif

namespace zkrv::opt {

std::unique_ptr<Backend> make_cuda_backend(std::string* why) {
#ifdef ZKRV_HAVE_CUDA
  return cuda::make_cuda_backend(why);
#else
  if (why) *why = "this build has no CUDA (nvcc was not found or ZKRV_CUDA=OFF)";
  return nullptr;
#endif
}

// The default steps: inputs copied to the host's CPU backend, the step run there, outputs
// written back. A backend that lacks a step (the CUDA one, for the prover's steps) still runs
// the whole prover; only the transfers are extra.
namespace {
template <typename T>
Buffer<T> to_host(Backend& from, Backend& host, const Buffer<T>& b) {
  const std::vector<T> v = from.download(b);
  return host.upload<T>(v);
}
template <typename T>
std::vector<Buffer<T>> to_host(Backend& from, Backend& host, std::span<const Buffer<T>> bs) {
  std::vector<Buffer<T>> out;
  for (const auto& b : bs) out.push_back(to_host(from, host, b));
  return out;
}
template <typename T>
std::vector<Buffer<T>> to_host(Backend& from, Backend& host, std::span<Buffer<T>> bs) {
  return to_host(from, host, std::span<const Buffer<T>>(bs.data(), bs.size()));
}
template <typename T>
void back(Backend& to, Backend& host, const Buffer<T>& h, Buffer<T>& dst) {
  const std::vector<T> v = host.download(h);
  if (!v.empty()) to.write(dst.storage(), 0, v.data(), v.size() * sizeof(T));
}
template <typename T>
void back(Backend& to, Backend& host, const std::vector<Buffer<T>>& h, std::span<Buffer<T>> dst) {
  for (size_t i = 0; i < h.size(); ++i) back(to, host, h[i], dst[i]);
}
}  // namespace

Backend& Backend::host() {
  if (!host_) host_ = make_cpu_backend();
  return *host_;
}
Buffer<Fp> Backend::adopt(Column&& v) {
  const Column mine = std::move(v);
  return upload<Fp>(mine);
}
void Backend::copy_range(Storage& dst, size_t dst_offset, const Storage& src, size_t src_offset, size_t bytes) {
  std::vector<uint8_t> tmp(bytes);
  if (!bytes) return;
  read(src, src_offset, tmp.data(), bytes);
  write(dst, dst_offset, tmp.data(), bytes);
}
void Backend::dif_coefficients(std::span<Buffer<Fp>> columns) {
  auto h = to_host(*this, host(), columns);
  host().dif_coefficients(h);
  back(*this, host(), h, columns);
}
void Backend::dif_from_coefficients(std::span<Buffer<Fp>> columns) {
  auto h = to_host(*this, host(), columns);
  host().dif_from_coefficients(h);
  back(*this, host(), h, columns);
}
void Backend::coset_interpolate(std::span<Buffer<Fp>> columns, Fp shift) {
  auto h = to_host(*this, host(), columns);
  host().coset_interpolate(h, shift);
  back(*this, host(), h, columns);
}
void Backend::coset_part(std::span<const Buffer<Fp>> coeffs, const Buffer<Fp>& factors, std::span<Buffer<Fp>> out) {
  auto h = to_host(*this, host(), out);
  host().coset_part(to_host(*this, host(), coeffs), to_host(*this, host(), factors), h);
  back(*this, host(), h, out);
}
std::vector<std::vector<Fp>> Backend::coset_rows(std::span<const Buffer<Fp>> coeffs, const Buffer<Fp>& factors,
                                                 std::span<const size_t> rows) {
  return host().coset_rows(to_host(*this, host(), coeffs), to_host(*this, host(), factors), rows);
}
std::vector<Fp3> Backend::evaluate_dif(std::span<const Buffer<Fp>> coeffs, const Buffer<Fp3>& zpow) {
  return host().evaluate_dif(to_host(*this, host(), coeffs), to_host(*this, host(), zpow));
}
void Backend::hash_leaves(std::span<const Slot> slots, size_t count, size_t stride, size_t first, Buffer<Digest>& out) {
  std::vector<Slot> h;
  for (const Slot& sl : slots) h.push_back({to_host(*this, host(), sl.values), sl.offset, sl.width});
  auto o = to_host(*this, host(), out);
  host().hash_leaves(h, count, stride, first, o);
  back(*this, host(), o, out);
}
void Backend::hash_level(const Buffer<Digest>& below, Children children, std::span<const Buffer<Fp>> inject,
                         size_t count, size_t stride, size_t first, Buffer<Digest>& up) {
  auto h = to_host(*this, host(), up);
  host().hash_level(to_host(*this, host(), below), children, to_host(*this, host(), inject), count, stride, first, h);
  back(*this, host(), h, up);
}
void Backend::linear_combination(std::span<const Buffer<Fp>> columns, std::span<const Fp3> w0,
                                 std::span<const Fp3> w1, std::span<Buffer<Fp>> out) {
  auto h = to_host(*this, host(), out);
  host().linear_combination(to_host(*this, host(), columns), w0, w1, h);
  back(*this, host(), h, out);
}
void Backend::deep_accumulate(const DeepPart& part, std::span<const Buffer<Fp>> values, Buffer<Fp3>& acc) {
  auto h = to_host(*this, host(), acc);
  host().deep_accumulate(part, to_host(*this, host(), values), h);
  back(*this, host(), h, acc);
}
void Backend::add_scaled(Buffer<Fp3>& acc, const Fp3& lambda, const Buffer<Fp3>& x) {
  auto h = to_host(*this, host(), acc);
  host().add_scaled(h, lambda, to_host(*this, host(), x));
  back(*this, host(), h, acc);
}
uint64_t Backend::grind(const Digest& state, unsigned bits) { return host().grind(state, bits); }

std::unique_ptr<Backend> make_backend(BackendKind kind, unsigned threads) {
  if (kind == BackendKind::kGpu)
    if (auto gpu = make_cuda_backend()) return gpu;
  return make_cpu_backend(threads);
}

}  // namespace zkrv::opt
