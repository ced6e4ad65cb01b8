// zkrv-gpu-check: the device script's program (tools/gpu-check.sh). First correctness: the CUDA
// backend runs in lockstep with the CPU backend (every output buffer compared byte for byte) on
// awkward shapes, the largest column size, and whole FRI proofs, which must also equal the
// CPU proof and pass the verifier's FRI checks (core/fri). Then timings, each beside its floor (bytes that
// must move / measured device-to-device bandwidth) and beside the CPU backend on the same
// machine. No external libraries, so it builds on the bare GPU machine.
//   zkrv-gpu-check [--quick] [--require-gpu] [--skip-timing]
// Exit status: 0 when every check passed; 1 on a mismatch or a rejected proof; 2 on bad usage
// or, with --require-gpu, when no CUDA device is usable.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <string>

#include "core/fri/alone.h"
#include "core/fri/fri.h"
#include "optimized/backend/backend.h"
#include "optimized/fri/fri.h"
#include "optimized/merkle/merkle.h"
#include "optimized/ntt/ntt.h"
#include "optimized/transcript/transcript.h"
#include "reference/merkle/merkle.h"
#include "reference/transcript/transcript.h"

namespace zkrv {
namespace {

using opt::Backend;
using opt::Buffer;
using opt::Digest;
using opt::Fp;
using opt::Fp3;

std::vector<Fp> random_fp(size_t n, uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<Fp> v(n);
  for (auto& x : v) x = Fp::from_u64(g());
  return v;
}
std::vector<Fp3> random_fp3(size_t n, uint64_t seed) {
  const auto f = random_fp(3 * n, seed);
  std::vector<Fp3> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = {{f[3 * i], f[3 * i + 1], f[3 * i + 2]}};
  return v;
}

int failures = 0;
void check(bool ok, const std::string& what) {
  std::printf("  %-4s %s\n", ok ? "ok" : "FAIL", what.c_str());
  if (!ok) ++failures;
}
// Runs one step on the dual backend; a BackendMismatch is a failure naming the step.
void step(const std::string& what, const std::function<void()>& f) {
  try {
    f();
    check(true, what);
  } catch (const opt::BackendMismatch& e) {
    check(false, what + ": " + e.what());
  } catch (const std::exception& e) {
    check(false, what + ": error: " + e.what());
  }
}

// Evaluations of a random polynomial of degree < 2^log_degree on 7·<ω>, blowup 2^log_blowup.
// Two DEEP-like codewords for the STARK's multi-height FRI: degree < 2^log_degree on 7·<ω> and
// degree < 2^(log_degree − 2) on its height's LDE coset, each 2^log_blowup times longer.
std::map<unsigned, std::vector<Fp3>> fri_input(unsigned log_degree, unsigned log_blowup, uint64_t seed) {
  std::map<unsigned, std::vector<Fp3>> out;
  for (unsigned lh : {log_degree, log_degree - 2}) {
    const size_t n = size_t{1} << lh, big = n << log_blowup;
    std::vector<Fp3> e(big);
    for (size_t c = 0; c < 3; ++c) {
      const auto ext = opt::coset_lde(random_fp(n, seed + c + lh), 1u << log_blowup, core::lde_shift<Fp>(), 0);
      for (size_t i = 0; i < big; ++i) e[i].c[c] = ext[i];
    }
    out[lh] = std::move(e);
  }
  return out;
}
spec::StarkOptions fri_options(unsigned log_blowup, unsigned queries, unsigned pow_bits, unsigned log_final) {
  spec::StarkOptions o;
  o.log_blowup = log_blowup, o.num_queries = queries, o.pow_bits = pow_bits, o.log_final_size = log_final;
  return o;
}
core::FriShape fri_shape(const std::map<unsigned, std::vector<Fp3>>& in, const spec::StarkOptions& o) {
  std::vector<uint8_t> heights;
  for (const auto& [lh, e] : in) heights.push_back(static_cast<uint8_t>(lh));
  return core::fri_shape(o, heights);
}
using FriRun = core::FriAloneProof;
std::map<unsigned, Buffer<Fp3>> upload(Backend& be, const std::map<unsigned, std::vector<Fp3>>& in) {
  std::map<unsigned, Buffer<Fp3>> deep;
  for (const auto& [lh, e] : in) deep[lh] = be.upload<Fp3>(e);
  return deep;
}
// The multi-height FRI through `be` (opt::FriProver, which leaves its input buffers as they are).
FriRun fri_prove(Backend& be, const std::map<unsigned, Buffer<Fp3>>& deep, const core::FriShape& shape,
                 const spec::StarkOptions& o) {
  opt::FriProver prover(be, deep, o.log_blowup);
  return core::fri_prove_alone<opt::Transcript>(prover, shape, o);
}
// The verifier's FRI checks (reference Merkle), with the input as its own DEEP values; the reason
// on rejection.
std::optional<std::string> fri_verify(const std::map<unsigned, std::vector<Fp3>>& in, const spec::StarkOptions& o,
                                      const FriRun& run) {
  auto e = core::fri_verify_alone<ref::Transcript>(
      fri_shape(in, o), o, run,
      [&](unsigned l, unsigned log_leaves, const std::vector<size_t>& leaves, const std::vector<ref::Row>& rows,
          const std::vector<spec::Digest>& path) -> std::optional<std::string> {
        if (auto m = ref::merkle_verify_batch(run.roots[l - 1], log_leaves, leaves, rows, path)) return m->what;
        return std::nullopt;
      },
      [&](unsigned lh, size_t pos) {
        const Fp3& x = in.at(lh).at(pos);
        return ref::Fp3{{ref::Fp::from_u64(x.c[0].value()), ref::Fp::from_u64(x.c[1].value()),
                         ref::Fp::from_u64(x.c[2].value())}};
      });
  if (e) return e->what;
  return std::nullopt;
}

// width columns of n random values, and as many outputs of n << log_blowup.
std::vector<Buffer<Fp>> columns(Backend& be, size_t width, size_t n, uint64_t seed) {
  std::vector<Buffer<Fp>> v;
  for (size_t c = 0; c < width; ++c) v.push_back(be.upload<Fp>(random_fp(n, seed + c)));
  return v;
}
std::vector<Buffer<Fp>> outputs(Backend& be, size_t width, size_t n) {
  std::vector<Buffer<Fp>> v;
  for (size_t c = 0; c < width; ++c) v.push_back(be.alloc<Fp>(n));
  return v;
}
// The plain tree over the columns' rows (Backend::hash_leaves, then hash_level by pairs).
opt::MerkleTree commit(Backend& be, const std::vector<Buffer<Fp>>& cols) {
  std::vector<Backend::Slot> slots;
  for (const auto& c : cols) slots.push_back({c, 0, 1});
  return opt::MerkleTree(be, slots, cols[0].size());
}

void correctness(Backend& dual, bool quick) {
  std::printf("correctness: %s\n", dual.name().c_str());
  for (unsigned log_n : {0u, 1u, 5u, 12u, 13u, 17u})
    for (size_t width : {1u, 3u, 13u})
      for (unsigned log_blowup : {1u, 3u}) {
        const size_t n = size_t{1} << log_n;
        step("LDE + leaves + tree, 2^" + std::to_string(log_n) + " rows x " + std::to_string(width) + ", blowup 2^" +
                 std::to_string(log_blowup),
             [&] {
               const auto in = columns(dual, width, n, log_n * 100 + width);
               auto out = outputs(dual, width, n << log_blowup);
               dual.batch_coset_lde(in, log_blowup, Fp::from_u64(7), out);
               commit(dual, out);
               if (n >= 2) dual.evaluate_ood(in, {{Fp::from_u64(5), Fp::from_u64(6), Fp::from_u64(7)}});
             });
      }
  step("OOD at a point of the subgroup", [&] {
    dual.evaluate_ood(columns(dual, 3, 64, 1), {{opt::root_of_unity(6).pow(5), Fp(), Fp()}});
  });
  for (unsigned log_arity : {1u, 2u, 3u, 4u})
    step("FRI leaves + fold, arity 2^" + std::to_string(log_arity) + ", 2^13 values", [&] {
      const auto layer = dual.upload<Fp3>(random_fp3(size_t{1} << 13, log_arity));
      const size_t m = layer.size() >> log_arity;
      std::vector<Backend::Slot> slots;  // a leaf: values i + j·m, three coefficients each
      for (size_t j = 0; j < (size_t{1} << log_arity); ++j) slots.push_back({layer.as<Fp>(), 3 * j * m, 3});
      opt::MerkleTree(dual, slots, m);
      auto out = dual.alloc<Fp3>(m);
      dual.fri_fold(layer, log_arity, Fp::from_u64(7), {{Fp::from_u64(11), Fp::from_u64(12), Fp::from_u64(13)}}, out);
      dual.download(out);
    });
  step("batch inverse with zeros, 100003 values", [&] {
    auto v = random_fp(100003, 9);
    v[0] = v[77777] = v[100002] = Fp();
    auto b = dual.upload<Fp>(v);
    dual.batch_inverse(b);
  });
  if (!quick)
    step("largest column: 2 columns 2^23 -> 2^24, leaves and tree", [&] {
      const auto in = columns(dual, 2, size_t{1} << 23, 3);
      auto out = outputs(dual, 2, size_t{1} << 24);
      dual.batch_coset_lde(in, 1, Fp::from_u64(7), out);
      commit(dual, out);
    });
  for (unsigned log_degree : quick ? std::vector<unsigned>{8, 12} : std::vector<unsigned>{8, 12, 18}) {
    const spec::StarkOptions o = fri_options(2, 32, 8, 3);
    step("FRI proof, degree < 2^" + std::to_string(log_degree) + ": same bytes, the verifier's FRI checks accept", [&] {
      const auto e = fri_input(log_degree, o.log_blowup, log_degree);
      const FriRun proof = fri_prove(dual, upload(dual, e), fri_shape(e, o), o);
      auto cpu = opt::make_cpu_backend(0);
      if (!(proof == fri_prove(*cpu, upload(*cpu, e), fri_shape(e, o), o))) throw std::runtime_error("proof bytes differ");
      if (auto err = fri_verify(e, o, proof)) throw std::runtime_error("rejected: " + *err);
    });
  }
}

double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
// Best of `reps` runs, in ms (every backend operation synchronizes before returning).
double best_ms(int reps, const std::function<void()>& f) {
  f();  // warm-up: twiddle trees, allocation
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    const double t0 = now_ms();
    f();
    best = std::min(best, now_ms() - t0);
  }
  return best;
}

struct Row {
  std::string what;
  double bytes;  // that must move
  double gpu_ms = 0, cpu_ms = 0;
};

void timing(Backend* gpu, Backend& cpu, bool quick) {
  const unsigned log_rows = quick ? 14 : 20, width = 64, log_fri = quick ? 14 : 22;
  const size_t rows = size_t{1} << log_rows;
  auto measure = [&](Backend& be, std::vector<Row>& table, bool fill) {
    // bandwidth: a 1 GiB copy, bytes read and written
    const size_t copy_bytes = quick ? (size_t{64} << 20) : (size_t{1} << 30);
    auto a = be.allocate(copy_bytes), b = be.allocate(copy_bytes);
    const double copy_ms = best_ms(5, [&] { be.copy(*b, *a, copy_bytes); });
    const auto m = columns(be, width, rows, 1);
    auto lde = outputs(be, width, 2 * rows);
    const double lde_ms = best_ms(3, [&] { be.batch_coset_lde(m, 1, Fp::from_u64(7), lde); });
    const double merkle_ms = best_ms(3, [&] { commit(be, lde); });
    const spec::StarkOptions o = fri_options(1, 40, 16, 5);
    const auto e = fri_input(log_fri, o.log_blowup, 5);
    const auto deep = upload(be, e);
    const double fri_ms = best_ms(2, [&] { fri_prove(be, deep, fri_shape(e, o), o); });
    if (fill) {
      const double in_bytes = double(rows) * width * 8;
      // FRI: each layer read twice (leaves, fold) and the next written, 24 bytes per value; the
      // smaller codeword read once where it enters.
      double fri_bytes = 24.0 * 0.25 * (size_t{2} << log_fri);
      for (size_t n = size_t{2} << log_fri; n > 64; n /= 2) fri_bytes += 24.0 * (2 * n + n / 2.0);
      table = {{"device copy (read + write)", 2.0 * copy_bytes},
               {"LDE 64 x 2^" + std::to_string(log_rows) + " -> 2^" + std::to_string(log_rows + 1), in_bytes * 3},
               {"Merkle commit of that LDE", in_bytes * 2 + 4.0 * rows * 32},
               {"FRI prove, degrees < 2^" + std::to_string(log_fri) + " and 2^" + std::to_string(log_fri - 2) + ", blowup 2", fri_bytes}};
    }
    return std::vector<double>{copy_ms, lde_ms, merkle_ms, fri_ms};
  };
  std::vector<Row> table;
  const auto c = measure(cpu, table, true);
  std::vector<double> g;
  if (gpu) g = measure(*gpu, table, false);
  Backend& floor_be = gpu ? *gpu : cpu;
  const double bw = table[0].bytes / ((gpu ? g[0] : c[0]) / 1e3);  // bytes per second
  std::printf("\ntiming (best of several runs; floor = bytes / %s copy bandwidth %.1f GB/s)\n", floor_be.name().c_str(),
              bw / 1e9);
  std::printf("%-44s %12s %12s %10s %12s %10s\n", "step", "gpu ms", "floor ms", "gpu/floor", "cpu ms", "cpu/gpu");
  for (size_t i = 0; i < table.size(); ++i) {
    const double floor_ms = table[i].bytes / bw * 1e3;
    if (gpu)
      std::printf("%-44s %12.3f %12.3f %10.2f %12.2f %10.1f\n", table[i].what.c_str(), g[i], floor_ms, g[i] / floor_ms,
                  c[i], c[i] / g[i]);
    else
      std::printf("%-44s %12s %12.3f %10s %12.2f %10s\n", table[i].what.c_str(), "-", floor_ms, "-", c[i], "-");
  }
}

}  // namespace
}  // namespace zkrv

int main(int argc, char** argv) {
  bool quick = false, require_gpu = false, skip_timing = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick") quick = true;
    else if (a == "--require-gpu") require_gpu = true;
    else if (a == "--skip-timing") skip_timing = true;
    else {
      std::fprintf(stderr, "zkrv-gpu-check: unknown option '%s' (options: --quick --require-gpu --skip-timing)\n", a.c_str());
      return 2;
    }
  }
  using namespace zkrv;
  std::string why;
  auto cuda = opt::make_cuda_backend(&why);
  if (!cuda) {
    std::printf("no CUDA backend (%s): checking the CPU backend against itself\n", why.c_str());
    if (require_gpu) return 2;
  }
  auto cpu = opt::make_cpu_backend(0);
  {
    auto dual = opt::make_dual_backend(opt::make_cpu_backend(0), cuda ? opt::make_cuda_backend(nullptr) : opt::make_cpu_backend(1));
    correctness(*dual, quick);
  }
  std::printf("%s: %d failure(s)\n", failures ? "FAILED" : "all checks passed", failures);
  if (!skip_timing) timing(cuda.get(), *cpu, quick);
  return failures ? 1 : 0;
}
