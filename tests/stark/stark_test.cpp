// The proof system end to end (spec/protocol.md §8): the reference prover's proofs verify, and
// the verifier rejects every change to the statement, to the proof's bytes and to the trace.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "reference/air/check.h"
#include "reference/air/trace.h"
#include "reference/elf/elf_loader.h"
#include "reference/prove/prove.h"
#include "reference/stark/air.h"
#include "reference/verify/verify.h"
#include "optimized/exec/fast_executor.h"

namespace zkrv {
namespace {

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), {}};
}

struct GuestRun {
  spec::ProgramImage image;
  spec::ExecResult result;
  ref::air::AirTrace trace;
};
GuestRun run_guest(const std::string& name, const std::vector<uint8_t>& input) {
  const auto elf = read_file(std::string(ZKRV_GUEST_PROGRAMS_DIR) + "/" + name + ".elf");
  auto loaded = ref::load_elf(elf);
  EXPECT_TRUE(loaded.ok()) << name << ": " << loaded.message;
  GuestRun r{*loaded.image, {}, {}};
  spec::ExecOptions opt;
  opt.trace = true;
  r.result = opt::execute(r.image, input, opt);
  r.trace = ref::air::build_trace(r.image, r.result);
  return r;
}

// Small, fast options for the tests (the verifier reports their low security honestly).
spec::StarkOptions test_options() { return spec::StarkOptions{2, 8, 2, 3}; }

TEST(Stark, PreprocessedColumnsAreTheTraceBuilders) {
  const GuestRun r = run_guest("fibonacci", {'9', '0'});
  const auto& layout = ref::stark::air_layout();
  const auto pre = ref::stark::preprocessed(r.image, r.result.output);
  for (size_t t = 0; t < layout.tables.size(); ++t) {
    const auto& tt = r.trace.table(layout.tables[t].name);
    if (pre.log_heights[t]) { EXPECT_EQ(size_t{1} << *pre.log_heights[t], tt.height()) << layout.tables[t].name; }
    for (size_t k = 0; k < layout.tables[t].pre.size(); ++k)
      for (size_t row = 0; row < tt.height(); ++row)
        ASSERT_EQ(pre.columns[t][k][row].value(), tt.rows[row][layout.tables[t].pre[k]])
            << layout.tables[t].name << " column " << k << " row " << row;
  }
}

TEST(Stark, HonestProofVerifies) {
  const GuestRun r = run_guest("fibonacci", {'9', '0'});
  ASSERT_TRUE(ref::air::check_trace(r.trace).ok());
  const auto proof = ref::prove::prove_unchecked(r.image, r.trace, test_options());
  const ref::verify::Expected e{&r.image, 0, &r.result.output};
  const auto v = ref::verify::verify(proof, e);
  ASSERT_TRUE(v.ok()) << ref::verify::stage_name(v.rejection->stage) << ": " << v.rejection->what;
  const auto bytes = spec::encode_stark_proof(proof);
  EXPECT_TRUE(ref::verify::verify_bytes(bytes, e).ok());
}

}  // namespace
}  // namespace zkrv
