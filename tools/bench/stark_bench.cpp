// zkrv-stark-bench: Google Benchmark programs for the STARK core (issue 4). A program, not a
// test: run it on an idle machine and compare rows measured in the same run.
//   build/default/tools/bench/zkrv-stark-bench                      # everything (a few minutes)
//   build/default/tools/bench/zkrv-stark-bench --benchmark_filter=Ntt
// Arguments in names: threads (our own thread count), simd (0 scalar, 1 AVX-512 when present).
#include <benchmark/benchmark.h>
#include <openssl/evp.h>

#include <cstring>
#include <map>
#include <optional>
#include <random>
#include <vector>

#include "core/fri/alone.h"
#include "core/fri/fri.h"
#include "optimized/air/air_eval.h"
#include "optimized/fri/fri.h"
#include "optimized/hash/keccak.h"
#include "optimized/merkle/merkle.h"
#include "optimized/ntt/kernels.h"
#include "optimized/ntt/ntt.h"
#include "optimized/simd/simd.h"
#include "optimized/transcript/transcript.h"
#include "reference/fri/fri.h"
#include "reference/hash/keccak.h"
#include "reference/merkle/merkle.h"
#include "reference/transcript/transcript.h"
#include "reference/ntt/ntt.h"
#include "reference/stark/air.h"

namespace zkrv {
namespace {

std::vector<opt::Fp> random_fp(size_t n, uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<opt::Fp> v(n);
  for (auto& x : v) x = opt::Fp::from_u64(g());
  return v;
}

struct SimdScope {  // sets the SIMD level for one benchmark, restores it after
  explicit SimdScope(int64_t level) : saved(opt::simd_level()) {
    opt::set_simd_level(level ? opt::SimdLevel::kAvx512 : opt::SimdLevel::kScalar);
  }
  ~SimdScope() { opt::set_simd_level(saved); }
  opt::SimdLevel saved;
};

// The bandwidth ceiling: one large copy (reads + writes both counted).
void BM_MemcpyBandwidth(benchmark::State& state) {
  const size_t bytes = size_t{256} << 20;
  std::vector<uint8_t> a(bytes, 1), b(bytes);
  for (auto _ : state) {
    std::memcpy(b.data(), a.data(), bytes);
    benchmark::DoNotOptimize(b.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * 2 * bytes));
}
BENCHMARK(BM_MemcpyBandwidth)->Unit(benchmark::kMillisecond);

// Scalar multiply throughput: 8 independent chains.
void BM_FpMulScalar(benchmark::State& state) {
  auto v = random_fp(8, 1);
  const opt::Fp c = opt::Fp::from_u64(0x123456789abcdefull);
  for (auto _ : state) {
    for (int r = 0; r < 1000; ++r)
      for (auto& x : v) x = x * c;
    benchmark::DoNotOptimize(v.data());
  }
  state.SetItemsProcessed(state.iterations() * 8000);
}
BENCHMARK(BM_FpMulScalar);

// Vector multiply throughput: scale an L1-resident buffer (loads, multiply, stores).
void BM_FpMulKernel(benchmark::State& state) {
  SimdScope simd(state.range(0));
  auto v = random_fp(2048, 2);
  for (auto _ : state) {
    if (opt::simd_level() == opt::SimdLevel::kAvx512)
      opt::ntt_kernels::scale_avx512(reinterpret_cast<uint64_t*>(v.data()), v.size(), 0x123456789abcdefull);
    else
      opt::ntt_kernels::scale_scalar(reinterpret_cast<uint64_t*>(v.data()), v.size(), 0x123456789abcdefull);
    benchmark::DoNotOptimize(v.data());
  }
  state.SetItemsProcessed(state.iterations() * 2048);
}
BENCHMARK(BM_FpMulKernel)->ArgName("simd")->Arg(0)->Arg(1);

void BM_Fp3Mul(benchmark::State& state) {
  std::vector<opt::Fp3> v(8);
  auto raw = random_fp(24, 3);
  for (size_t i = 0; i < 8; ++i) v[i] = {{raw[3 * i], raw[3 * i + 1], raw[3 * i + 2]}};
  const opt::Fp3 c{{raw[0], raw[5], raw[7]}};
  for (auto _ : state) {
    for (int r = 0; r < 1000; ++r)
      for (auto& x : v) x = x * c;
    benchmark::DoNotOptimize(v.data());
  }
  state.SetItemsProcessed(state.iterations() * 8000);
}
BENCHMARK(BM_Fp3Mul);

void BM_Ntt(benchmark::State& state) {
  SimdScope simd(state.range(2));
  const size_t n = size_t{1} << state.range(0);
  auto v = random_fp(n, 4);
  for (auto _ : state) {
    opt::ntt(v, static_cast<unsigned>(state.range(1)));
    benchmark::DoNotOptimize(v.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * n));
}
BENCHMARK(BM_Ntt)->ArgNames({"log_n", "threads", "simd"})->ArgsProduct({{16, 18, 20, 22}, {1, 2}, {1}})
    ->Args({20, 1, 0})->Args({20, 2, 0})->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_NttReference(benchmark::State& state) {
  const size_t n = size_t{1} << state.range(0);
  std::vector<ref::Fp> v(n);
  std::mt19937_64 g(5);
  for (auto& x : v) x = ref::Fp::from_u64(g());
  for (auto _ : state) benchmark::DoNotOptimize(ref::ntt(v));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * n));
}
BENCHMARK(BM_NttReference)->ArgName("log_n")->Arg(16)->Arg(20)->Unit(benchmark::kMillisecond);

// 64 columns x 2^18 rows, blowup 2: items = input elements (64 * 2^18).
void BM_BatchLde(benchmark::State& state) {
  SimdScope simd(state.range(1));
  const size_t rows = size_t{1} << 18, width = 64;
  const auto m = random_fp(rows * width, 6);
  std::vector<opt::Fp> out(2 * rows * width);
  for (auto _ : state) {
    opt::batch_coset_lde(m, width, 2, opt::Fp::from_u64(7), out, static_cast<unsigned>(state.range(0)));
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * rows * width));
}
BENCHMARK(BM_BatchLde)->ArgNames({"threads", "simd"})->Args({1, 1})->Args({2, 1})->Args({1, 0})
    ->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_KeccakF1600(benchmark::State& state) {
  uint64_t s[25] = {1};
  for (auto _ : state) {
    opt::keccak_f1600(s);
    benchmark::DoNotOptimize(s);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_KeccakF1600);

// Eight permutations at once (AVX-512 lanes, or eight scalar calls with simd 0); items = permutations.
void BM_KeccakF1600x8(benchmark::State& state) {
  SimdScope simd(state.range(0));
  uint64_t s[8][25] = {{1}};
  for (auto _ : state) {
    opt::keccak_f1600_x8(s);
    benchmark::DoNotOptimize(s);
  }
  state.SetItemsProcessed(state.iterations() * 8);
}
BENCHMARK(BM_KeccakF1600x8)->ArgName("simd")->Arg(0)->Arg(1);

void BM_Keccak256(benchmark::State& state) {
  std::vector<uint8_t> msg(static_cast<size_t>(state.range(0)), 0x5a);
  for (auto _ : state) benchmark::DoNotOptimize(opt::keccak256(msg));
  state.SetBytesProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_Keccak256)->ArgName("bytes")->Arg(32)->Arg(1 << 10)->Arg(1 << 16);

void BM_OpenSslSha3_256(benchmark::State& state) {
  std::vector<uint8_t> msg(static_cast<size_t>(state.range(0)), 0x5a);
  uint8_t out[32];
  unsigned len = 32;
  for (auto _ : state) {
    EVP_Digest(msg.data(), msg.size(), out, &len, EVP_sha3_256(), nullptr);
    benchmark::DoNotOptimize(out);
  }
  state.SetBytesProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_OpenSslSha3_256)->ArgName("bytes")->Arg(32)->Arg(1 << 10)->Arg(1 << 16);

// Merkle leaf hashing throughput in permutations: 2^16 rows of 16 elements (one permutation
// each: 1 + 128 bytes fit one 136-byte block).
void BM_MerkleLeaves(benchmark::State& state) {
  SimdScope simd(state.range(1));
  const size_t rows = size_t{1} << 16, width = 16;
  auto be = opt::make_cpu_backend(static_cast<unsigned>(state.range(0)));
  const opt::Backend::Slot row{be->upload<opt::Fp>(random_fp(rows * width, 7)), 0, width};  // row-major
  for (auto _ : state) benchmark::DoNotOptimize(opt::MerkleTree(*be, std::span(&row, 1), rows).root());
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * (2 * rows - 1)));  // leaves + nodes
}
BENCHMARK(BM_MerkleLeaves)->ArgNames({"threads", "simd"})->Args({1, 1})->Args({2, 1})->Args({1, 0})
    ->Unit(benchmark::kMillisecond)->UseRealTime();

// Merkle commitment of 2^20 rows x 64 columns (one row-major slot on the CPU backend, the matrix
// already in its memory); items = rows.
void BM_MerkleCommit(benchmark::State& state) {
  const size_t rows = size_t{1} << 20, width = 64;
  auto be = opt::make_cpu_backend(static_cast<unsigned>(state.range(0)));
  const opt::Backend::Slot row{be->upload<opt::Fp>(random_fp(rows * width, 8)), 0, width};  // row-major
  for (auto _ : state) benchmark::DoNotOptimize(opt::MerkleTree(*be, std::span(&row, 1), rows).root());
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * rows));
}
BENCHMARK(BM_MerkleCommit)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

// The STARK's multi-height FRI (core/fri, optimized/fri's prover) on two DEEP-like codewords of
// degree < 2^20 and < 2^18 over F_{p^3}, blowup 8, 40 queries, 16 bits of grinding, final size
// 2^5 (the security line in the output gives the bits).
spec::StarkOptions fri_options() {
  spec::StarkOptions o;
  o.log_blowup = 3, o.num_queries = 40, o.pow_bits = 16, o.log_final_size = 5;
  return o;
}
constexpr unsigned kFriLogDegree = 20, kFriLogSmaller = 18;
std::map<unsigned, std::vector<opt::Fp3>> fri_input() {
  std::map<unsigned, std::vector<opt::Fp3>> out;
  for (unsigned lh : {kFriLogDegree, kFriLogSmaller}) {
    const size_t n = size_t{1} << lh, big = n << fri_options().log_blowup;
    std::vector<opt::Fp3> e(big);
    const opt::Fp shift = core::lde_shift<opt::Fp>();
    for (size_t c = 0; c < 3; ++c) {
      const auto ext = opt::coset_lde(random_fp(n, 9 + c + lh), 8, shift, 2);  // a degree < n polynomial
      for (size_t i = 0; i < big; ++i) e[i].c[c] = ext[i];
    }
    out[lh] = std::move(e);
  }
  return out;
}
core::FriShape fri_shape() {
  return core::fri_shape(fri_options(), {static_cast<uint8_t>(kFriLogDegree), static_cast<uint8_t>(kFriLogSmaller)});
}
core::FriAloneProof fri_prove(const std::map<unsigned, std::vector<opt::Fp3>>& in, unsigned threads) {
  auto be = opt::make_cpu_backend(threads);
  std::map<unsigned, opt::Buffer<opt::Fp3>> deep;
  for (const auto& [lh, e] : in) deep[lh] = be->upload<opt::Fp3>(e);
  opt::FriProver prover(*be, std::move(deep), fri_options().log_blowup);
  return core::fri_prove_alone<opt::Transcript>(prover, fri_shape(), fri_options(), threads);
}

void BM_FriProve(benchmark::State& state) {
  const auto in = fri_input();
  for (auto _ : state) benchmark::DoNotOptimize(fri_prove(in, static_cast<unsigned>(state.range(0))));
  const auto o = fri_options();
  const auto sec = spec::fri_security(o.log_blowup, o.num_queries, o.pow_bits, kFriLogDegree, fri_shape().rounds, 0, 512);
  state.counters["conjectured_bits"] = sec.conjectured_bits;
  state.counters["provable_bits"] = sec.provable_bits;
}
BENCHMARK(BM_FriProve)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

// The verifier's side: the transcript replay, the layers' Merkle openings and every query's folds
// (the DEEP values it would compute from the trace openings are read from the input here).
void BM_FriVerify(benchmark::State& state) {
  const auto in = fri_input();
  const core::FriAloneProof run = fri_prove(in, 0);
  const auto o = fri_options();
  size_t bytes = 0;
  for (const auto& op : run.openings) bytes += op.rows.size() * 48 + op.merkle_proof.size() * 32;
  for (auto _ : state) {
    const auto e = core::fri_verify_alone<ref::Transcript>(
        fri_shape(), o, run,
        [&](unsigned l, unsigned log_leaves, const std::vector<size_t>& leaves, const std::vector<ref::Row>& rows,
            const std::vector<spec::Digest>& path) -> std::optional<std::string> {
          if (auto m = ref::merkle_verify_batch(run.roots[l - 1], log_leaves, leaves, rows, path)) return m->what;
          return std::nullopt;
        },
        [&](unsigned lh, size_t pos) {
          const opt::Fp3& x = in.at(lh)[pos];
          return ref::Fp3{{ref::Fp::from_u64(x.c[0].value()), ref::Fp::from_u64(x.c[1].value()), ref::Fp::from_u64(x.c[2].value())}};
        });
    if (e) state.SkipWithError("rejected");
  }
  state.counters["fri_bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_FriVerify)->Unit(benchmark::kMillisecond);

// The quotient's constraint combination, per row of one table (arg: the table's index in spec
// order; 3 = cpu): the generated straight-line evaluator against the reference's interpreter of
// the spec's expressions, on random rows. Items = rows.
struct CombineSetup {
  explicit CombineSetup(size_t t) : tl(ref::stark::air_layout().tables[t]) {
    std::mt19937_64 g(5);
    auto fp = [&] { return ref::Fp::from_u64(g()); };
    auto fp3 = [&] { return ref::Fp3{{fp(), fp(), fp()}}; };
    cols.assign(tl.columns, std::vector<opt::Fp>(kRows));
    aux.assign(tl.aux_width(), std::vector<opt::Fp>(kRows));
    for (auto* m : {&cols, &aux})
      for (auto& c : *m)
        for (auto& v : c) v = opt::Fp::from_u64(g());
    for (auto& c : cols) col_ptrs.push_back(c.data());
    for (auto& c : aux) aux_ptrs.push_back(c.data());
    sel.assign(kRows, opt::Fp::from_u64(3));
    ch = {fp3(), fp3()};
    terminal = fp3();
    powers = ref::stark::combination_powers(fp3(), tl.combined_constraints());
    for (const auto& p : powers) opowers.push_back(to_opt(p));
    publics.assign(ref::stark::air_layout().publics.size(), opt::Fp::from_u64(1));
    rpublics.assign(publics.size(), ref::Fp::from_u64(1));
  }
  static opt::Fp3 to_opt(const ref::Fp3& x) {
    return {{opt::Fp::from_u64(x.c[0].value()), opt::Fp::from_u64(x.c[1].value()), opt::Fp::from_u64(x.c[2].value())}};
  }
  static constexpr size_t kRows = 1024;
  const ref::stark::TableLayout& tl;
  std::vector<std::vector<opt::Fp>> cols, aux;
  std::vector<const opt::Fp*> col_ptrs, aux_ptrs;
  std::vector<opt::Fp> sel, publics;
  std::vector<ref::Fp> rpublics;
  ref::stark::LogupChallenges ch;
  ref::Fp3 terminal;
  std::vector<ref::Fp3> powers;
  std::vector<opt::Fp3> opowers;
};

void BM_CombineGenerated(benchmark::State& state) {
  CombineSetup s(static_cast<size_t>(state.range(0)));
  opt::air::CombineArgs a;
  a.columns = s.col_ptrs.data();
  a.aux = s.aux_ptrs.data();
  a.n = CombineSetup::kRows;
  a.next = 4;
  a.publics = s.publics.data();
  a.lu_alpha = CombineSetup::to_opt(s.ch.alpha);
  a.lu_beta = CombineSetup::to_opt(s.ch.beta);
  a.terminal = CombineSetup::to_opt(s.terminal);
  a.powers = s.opowers.data();
  a.sel_first = a.sel_last = a.sel_transition = s.sel.data();
  std::vector<opt::Fp3> out(CombineSetup::kRows);
  const auto fn = opt::air::generated_tables()[static_cast<size_t>(state.range(0))].combine;
  for (auto _ : state) {
    fn(a, 0, CombineSetup::kRows, out.data());
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(CombineSetup::kRows));
  state.SetLabel(s.tl.name);
}
BENCHMARK(BM_CombineGenerated)->ArgName("table")->Arg(3)->Arg(0)->Arg(4);

void BM_CombineReference(benchmark::State& state) {
  CombineSetup s(static_cast<size_t>(state.range(0)));
  std::vector<ref::Fp> local(s.tl.columns), next(s.tl.columns), scratch;
  const size_t k_aux = s.tl.aux_width() / 3;
  std::vector<ref::Fp3> aux_local(k_aux), aux_next(k_aux);
  const ref::Fp sel = ref::Fp::from_u64(3);
  for (auto _ : state) {
    for (size_t i = 0; i < CombineSetup::kRows; ++i) {
      const size_t j = (i + 4) % CombineSetup::kRows;
      for (size_t c = 0; c < s.tl.columns; ++c)
        local[c] = ref::Fp::from_u64(s.cols[c][i].value()), next[c] = ref::Fp::from_u64(s.cols[c][j].value());
      for (size_t k = 0; k < k_aux; ++k)
        for (size_t c = 0; c < 3; ++c) {
          aux_local[k].c[c] = ref::Fp::from_u64(s.aux[3 * k + c][i].value());
          aux_next[k].c[c] = ref::Fp::from_u64(s.aux[3 * k + c][j].value());
        }
      benchmark::DoNotOptimize(ref::stark::combine(s.tl, local.data(), next.data(), aux_local.data(), aux_next.data(),
                                                   s.rpublics.data(), s.ch, s.terminal, s.powers, sel, sel, sel, scratch));
    }
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(CombineSetup::kRows));
  state.SetLabel(s.tl.name);
}
BENCHMARK(BM_CombineReference)->ArgName("table")->Arg(3)->Arg(0)->Arg(4);

}  // namespace
}  // namespace zkrv

BENCHMARK_MAIN();
