// The optimized prover against the reference prover: byte-identical proofs for every guest and
// option set tried, at 1, 2 and 3 threads, every SIMD level and both ways of having the LDE; a difference names the first
// round and item that differs (protocol:stark:transcript order).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fuzz/stark_proof/statement.h"
#include "optimized/exec/fast_executor.h"
#include "optimized/prove/prove.h"
#include "optimized/simd/simd.h"
#include "reference/air/trace.h"
#include "reference/elf/elf_loader.h"
#include "reference/prove/prove.h"
#include "reference/verify/verify.h"
#include "tools/common/files.h"

namespace zkrv {
namespace {

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
      const auto got = opt::prove::prove_unchecked(c.image, c.trace, o, threads);
      EXPECT_EQ(first_difference(got, want), "") << what << ", " << threads << " thread(s), " << opt::simd_level_name(level);
    }
    // the LDE held instead of computed a part at a time in each pass
    const auto held = opt::prove::prove_unchecked(c.image, c.trace, o, 2, {}, opt::prove::Lde::kHold);
    EXPECT_EQ(first_difference(held, want), "") << what << ", LDE held, " << opt::simd_level_name(level);
  }
  opt::set_simd_level(opt::cpu_simd_level());
  const ref::verify::Expected e{&c.image, want.statement.exit_code, nullptr};
  EXPECT_TRUE(ref::verify::verify(want, e).ok()) << what;
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

}  // namespace
}  // namespace zkrv
