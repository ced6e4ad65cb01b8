// core/stark/transcript.h: the schedule both provers and the verifier use. Its order is
// enforced, and over ref::Transcript and opt::Transcript it draws the same challenges.
#include "core/stark/transcript.h"

#include <gtest/gtest.h>

#include "optimized/transcript/transcript.h"
#include "reference/transcript/transcript.h"

namespace zkrv {
namespace {

spec::Statement statement() {
  spec::Statement st;
  st.program_digest.fill(7);
  st.exit_code = 3;
  st.output = {1, 2, 3};
  st.log_heights = {5, 3, 5, 4};
  return st;
}
spec::Digest digest(uint8_t b) {
  spec::Digest d;
  d.fill(b);
  return d;
}

// The commit phase's caller side, recording what the schedule asks of it.
template <class E>
struct Layers {
  std::vector<unsigned> committed, folded;
  std::vector<bool> injected;
  spec::Digest commit(unsigned l) {
    committed.push_back(l);
    return digest(static_cast<uint8_t>(40 + l));
  }
  void fold(unsigned l, const E&, const std::optional<E>& lambda) { folded.push_back(l), injected.push_back(lambda.has_value()); }
  std::vector<spec::Fp3Raw> final_poly() { return {{1, 2, 3}, {4, 5, 6}}; }
};

// Every challenge of one run of the schedule, as raw values.
template <class Tr>
std::vector<spec::Fp3Raw> run(Layers<typename core::StarkTranscript<Tr>::Ext>& layers, uint64_t* nonce) {
  using E = typename core::StarkTranscript<Tr>::Ext;
  auto raw = [](const E& x) { return spec::Fp3Raw{x.c[0].value(), x.c[1].value(), x.c[2].value()}; };
  const spec::StarkOptions o = spec::StarkOptions{};
  const spec::Statement st = statement();
  core::StarkTranscript<Tr> tr;
  std::vector<spec::Fp3Raw> out;
  tr.observe_statement(o, st);
  tr.observe_main_root(digest(1));
  const auto lu = tr.sample_logup();
  out.push_back(raw(lu.alpha)), out.push_back(raw(lu.beta));
  tr.observe_logup({{1, 0, 0}, {0, 0, 0}, {5, 6, 7}, {8, 9, 10}}, digest(2));
  out.push_back(raw(tr.sample_constraint_alpha()));
  tr.observe_quotient_root(digest(3));
  out.push_back(raw(tr.sample_ood_point(st.log_heights, o.log_blowup)));
  tr.observe_ood_values({{11, 12, 13}});
  out.push_back(raw(tr.sample_deep_gamma()));
  spec::StarkOptions fo = o;
  fo.log_final_size = 1;
  const auto ch = tr.fri_commit(core::fri_shape(fo, st.log_heights), layers);
  for (const E& b : ch.betas) out.push_back(raw(b));
  for (const E& l : ch.lambdas) out.push_back(raw(l));
  *nonce = tr.grind(6);
  for (size_t q : tr.sample_queries(5, 1u << 7)) out.push_back({q, 0, 0});
  return out;
}

TEST(StarkTranscript, BothTranscriptsDrawTheSameChallenges) {
  Layers<ref::Fp3> lr;
  Layers<opt::Fp3> lo;
  uint64_t nr = 0, no = 0;
  const auto r = run<ref::Transcript>(lr, &nr);
  const auto o = run<opt::Transcript>(lo, &no);
  EXPECT_EQ(r, o);
  EXPECT_EQ(nr, no);
  // Heights {3, 4, 5}, final size 2^1: folds 5 → 1, four rounds; layers 1..3 committed, and the
  // codewords of heights 4 and 3 enter after folds 0 and 1.
  EXPECT_EQ(lr.committed, (std::vector<unsigned>{1, 2, 3}));
  EXPECT_EQ(lr.folded, (std::vector<unsigned>{0, 1, 2, 3}));
  EXPECT_EQ(lr.injected, (std::vector<bool>{true, true, false, false}));
}

TEST(StarkTranscript, AStepOutOfOrderIsABug) {
  {
    core::StarkTranscript<ref::Transcript> tr;
    EXPECT_THROW(tr.observe_main_root(digest(1)), InvariantError);  // before the statement
  }
  {
    core::StarkTranscript<ref::Transcript> tr;
    tr.observe_statement(spec::StarkOptions{}, statement());
    tr.observe_main_root(digest(1));
    EXPECT_THROW(tr.sample_constraint_alpha(), InvariantError);  // LogUp skipped
  }
  {
    core::StarkTranscript<ref::Transcript> tr;
    tr.observe_statement(spec::StarkOptions{}, statement());
    EXPECT_THROW(tr.observe_statement(spec::StarkOptions{}, statement()), InvariantError);  // twice
  }
  try {
    core::StarkTranscript<ref::Transcript> tr;
    tr.sample_queries(1, 2);
    FAIL() << "no throw";
  } catch (const InvariantError& e) {
    EXPECT_NE(std::string(e.what()).find("core/stark/transcript.h:"), std::string::npos) << e.what();
  }
}

// The schedule's first steps are the spec's labels and encodings (protocol:stark:transcript),
// checked against the transcript driven by hand.
TEST(StarkTranscript, StepsAreTheSpecsLabelsAndEncodings) {
  const spec::StarkOptions o{};
  const spec::Statement st = statement();
  core::StarkTranscript<ref::Transcript> tr;
  tr.observe_statement(o, st);
  tr.observe_main_root(digest(1));
  const auto lu = tr.sample_logup();
  tr.observe_logup({{5, 6, 7}}, digest(2));
  const ref::Fp3 alpha = tr.sample_constraint_alpha();

  ref::Transcript hand("zkrv-stark-v1");
  hand.absorb("statement", spec::encode_statement(o, st));
  hand.absorb_digest("main-root", digest(1));
  EXPECT_EQ(lu.alpha, hand.squeeze_ext("logup-alpha"));
  EXPECT_EQ(lu.beta, hand.squeeze_ext("logup-beta"));
  hand.absorb_ext("logup-sum", {{ref::Fp::from_u64(5), ref::Fp::from_u64(6), ref::Fp::from_u64(7)}});
  hand.absorb_digest("aux-root", digest(2));
  EXPECT_EQ(alpha, hand.squeeze_ext("constraint-alpha"));
}

}  // namespace
}  // namespace zkrv
