// The optimized prover against the reference prover: byte-identical proofs for every guest and
// option set tried, at 1, 2 and 3 threads, every SIMD level and both ways of having the LDE; a difference names the first
// round and item that differs (protocol:stark:transcript order).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fuzz/stark_proof/statement.h"
#include "optimized/backend/backend.h"
#include "optimized/exec/fast_executor.h"
#include "optimized/prove/prove.h"
#include "tests/support/opt_from_rows.h"
#include "optimized/simd/simd.h"
#include "reference/air/trace.h"
#include "reference/elf/elf_loader.h"
#include "reference/prove/prove.h"
#include "reference/verify/verify.h"
#include "tools/common/files.h"

namespace zkrv {
namespace {

// These proofs use weak options on purpose (the protocol is the same, the run shorter).
const spec::SecurityPolicy kAnyBits = spec::SecurityPolicy::at_least(spec::SecurityPolicy::Measure::kProvable, 0);

// The first item, in transcript order, where two proofs differ; empty when they are equal.
std::string first_difference(const spec::StarkProof& a, const spec::StarkProof& b) {
  if (!(a.statement == b.statement)) return "statement";
  if (a.main_root != b.main_root) return "main-root";
  for (size_t i = 0; i < std::max(a.terminal_sums.size(), b.terminal_sums.size()); ++i)
    if (i >= a.terminal_sums.size() || i >= b.terminal_sums.size() || a.terminal_sums[i] != b.terminal_sums[i])
      return "logup-sum of table " + std::to_string(i);
  if (a.aux_root != b.aux_root) return "aux-root";
  if (a.quotient_root != b.quotient_root) return "quotient-root";
  for (size_t i = 0; i < std::max(a.ood.size(), b.ood.size()); ++i)
    if (i >= a.ood.size() || i >= b.ood.size() || a.ood[i] != b.ood[i]) return "ood-values item " + std::to_string(i);
  if (a.fri_roots != b.fri_roots) return "fri-layer-root";
  if (a.final_poly != b.final_poly) return "fri-final";
  if (a.pow_nonce != b.pow_nonce) return "fri-pow";
  for (size_t i = 0; i < std::max(a.queries.size(), b.queries.size()); ++i) {
    if (i >= a.queries.size() || i >= b.queries.size()) return "query count";
    if (!(a.queries[i].main == b.queries[i].main)) return "query " + std::to_string(i) + " main opening";
    if (!(a.queries[i].aux == b.queries[i].aux)) return "query " + std::to_string(i) + " aux opening";
    if (!(a.queries[i].quotient == b.queries[i].quotient)) return "query " + std::to_string(i) + " quotient opening";
    if (!(a.queries[i].program == b.queries[i].program)) return "query " + std::to_string(i) + " program opening";
  }
  if (spec::encode_stark_proof(a) != spec::encode_stark_proof(b)) return "fri layer openings";
  return "";
}

struct Case {
  spec::ProgramImage image;
  ref::air::AirTrace trace;
};

Case run_guest(const std::string& name) {
  const auto elf = tools::read_file(std::string(ZKRV_GUEST_PROGRAMS_DIR) + "/" + name + ".elf", 1 << 30, "guest");
  if (!elf.bytes) throw std::runtime_error(elf.error);
  const auto input = tools::read_file(std::string(ZKRV_SOURCE_DIR) + "/guest/programs/" + name + ".input", 1 << 24, "in");
  Case c{*ref::load_elf(*elf.bytes).image, {}};
  spec::ExecOptions opt;
  opt.trace = true;
  const auto run = opt::execute(c.image, input.bytes ? *input.bytes : std::vector<uint8_t>{}, opt);
  if (run.status != spec::ExitStatus::kExited) throw std::runtime_error(name + " did not exit");
  c.trace = ref::air::build_trace(c.image, run);
  return c;
}

void expect_same(const Case& c, const spec::StarkOptions& o, const std::string& what) {
  const auto want = ref::prove::prove_unchecked(c.image, c.trace, o);
  std::vector<opt::SimdLevel> levels{opt::SimdLevel::kScalar};
  if (opt::cpu_simd_level() != opt::SimdLevel::kScalar) levels.push_back(opt::cpu_simd_level());
  for (const auto level : levels) {
    opt::set_simd_level(level);
    for (unsigned threads : {1u, 2u, 3u}) {
      const auto got = test::prove_optimized(c.image, c.trace, o, threads);
      EXPECT_EQ(first_difference(got, want), "") << what << ", " << threads << " thread(s), " << opt::simd_level_name(level);
    }
    // the LDE held instead of computed a part at a time in each pass
    const auto held = test::prove_optimized(c.image, c.trace, o, 2, opt::prove::Lde::kHold);
    EXPECT_EQ(first_difference(held, want), "") << what << ", LDE held, " << opt::simd_level_name(level);
  }
  opt::set_simd_level(opt::cpu_simd_level());
  const ref::verify::Expected e{&c.image, want.statement.exit_code, nullptr};
  EXPECT_TRUE(ref::verify::verify(want, e, kAnyBits).ok()) << what;
}

TEST(ProveDiff, ExampleGuestsGiveTheReferenceBytes) {
  const spec::StarkOptions fast{2, 4, 0, 3};  // few queries: the protocol is the same, the run shorter
  for (const std::string name : {"fibonacci", "cxx_lifecycle"}) expect_same(run_guest(name), fast, name);
}

TEST(ProveDiff, ThePresetsGiveTheReferenceBytes) {
  const Case c = run_guest("cxx_lifecycle");
  expect_same(c, spec::stark_preset("conjectured"), "cxx_lifecycle, conjectured");
  expect_same(c, spec::StarkOptions{3, 8, 4, 0}, "cxx_lifecycle, blowup 8, final size 1");
}

// A backend with only the seam's base operations (memory, LDE, folds, inverses), forwarded to a
// CPU backend: every other step takes Backend's default path (host copies in, the CPU step,
// outputs written back), which is the path a backend without that step runs; and its memory is
// not host-addressable, so the circuit's steps run on host copies of its buffers.
class BaseOpsOnly : public opt::Backend {
 public:
  explicit BaseOpsOnly(unsigned threads) : in_(opt::make_cpu_backend(threads)) {}
  std::string name() const override { return "base-ops-only(" + in_->name() + ")"; }
  std::shared_ptr<opt::Storage> allocate(size_t bytes) override { return in_->allocate(bytes); }
  void write(opt::Storage& d, size_t o, const void* s, size_t b) override { in_->write(d, o, s, b); }
  void read(const opt::Storage& s, size_t o, void* d, size_t b) override { in_->read(s, o, d, b); }
  void copy(opt::Storage& d, const opt::Storage& s, size_t b) override { in_->copy(d, s, b); }
  void gather(const opt::Storage& s, size_t e, std::span<const size_t> i, void* d) override { in_->gather(s, e, i, d); }
  void batch_coset_lde(std::span<const opt::Buffer<opt::Fp>> in, unsigned lb, opt::Fp shift,
                       std::span<opt::Buffer<opt::Fp>> out) override {
    in_->batch_coset_lde(in, lb, shift, out);
  }
  void fri_fold(const opt::Buffer<opt::Fp3>& in, unsigned a, opt::Fp s, const opt::Fp3& b, opt::Buffer<opt::Fp3>& out) override {
    in_->fri_fold(in, a, s, b, out);
  }
  void batch_inverse(opt::Buffer<opt::Fp>& v) override { in_->batch_inverse(v); }
  std::vector<opt::Fp3> evaluate_ood(std::span<const opt::Buffer<opt::Fp>> m, const opt::Fp3& z) override {
    return in_->evaluate_ood(m, z);
  }

 private:
  std::unique_ptr<opt::Backend> in_;
};

// As BaseOpsOnly, but the first Merkle level where smaller matrices enter gets one wrong digest.
class WrongInjectedLevel final : public BaseOpsOnly {
 public:
  WrongInjectedLevel() : BaseOpsOnly(1) {}
  void hash_level(const opt::Buffer<opt::Digest>& below, Children children, std::span<const opt::Buffer<opt::Fp>> inject,
                  size_t count, size_t stride, size_t first, opt::Buffer<opt::Digest>& up) override {
    opt::Backend::hash_level(below, children, inject, count, stride, first, up);
    if (!inject.empty() && first == 0 && !done_) {
      opt::Digest d{};
      read(up.storage(), 0, d.data(), sizeof d);
      d[5] ^= 1;
      write(up.storage(), 0, d.data(), sizeof d);
      done_ = true;
    }
  }

 private:
  bool done_ = false;
};

spec::StarkProof prove_on(const Case& c, const spec::StarkOptions& o, opt::Backend& be, opt::prove::Lde lde) {
  auto cols = test::spec_columns(c.trace);
  return opt::prove::prove_unchecked(c.image, std::move(cols.tables), cols.publics, o, 1, {}, {}, lde, &be);
}

// Every step of the prover on two backends in lockstep (DualBackend compares each step's output):
// 1 against 3 threads, and the CPU steps against the default path. Both give the reference bytes.
TEST(ProveDiff, EveryStepAgreesOnTwoBackends) {
  const spec::StarkOptions fast{2, 4, 0, 3};
  const Case c = run_guest("fibonacci");
  const auto want = ref::prove::prove_unchecked(c.image, c.trace, fast);
  {
    auto be = opt::make_dual_backend(opt::make_cpu_backend(1), opt::make_cpu_backend(3));
    EXPECT_EQ(first_difference(prove_on(c, fast, *be, opt::prove::Lde::kStream), want), "") << be->name();
  }
  for (const auto lde : {opt::prove::Lde::kStream, opt::prove::Lde::kHold}) {
    auto be = opt::make_dual_backend(opt::make_cpu_backend(2), std::make_unique<BaseOpsOnly>(2));
    EXPECT_EQ(first_difference(prove_on(c, fast, *be, lde), want), "") << be->name();
  }
}

// A backend whose step is wrong is named by the step: the dual backend stops at the first
// operation whose outputs differ.
TEST(ProveDiff, AWrongStepIsNamed) {
  const spec::StarkOptions fast{2, 4, 0, 3};
  const Case c = run_guest("fibonacci");
  auto be = opt::make_dual_backend(opt::make_cpu_backend(1), std::make_unique<WrongInjectedLevel>());
  try {
    prove_on(c, fast, *be, opt::prove::Lde::kStream);
    ADD_FAILURE() << "the wrong digest was not noticed";
  } catch (const opt::BackendMismatch& e) {
    EXPECT_NE(std::string(e.what()).find("hash_level"), std::string::npos) << e.what();
  }
  // and alone, the wrong backend's proof differs from the reference's at the first root it touches
  WrongInjectedLevel alone;
  const auto got = prove_on(c, fast, alone, opt::prove::Lde::kStream);
  EXPECT_NE(first_difference(got, ref::prove::prove_unchecked(c.image, c.trace, fast)), "");
}

}  // namespace
}  // namespace zkrv
