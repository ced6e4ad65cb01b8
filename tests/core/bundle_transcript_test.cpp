// core/stark/bundle_transcript.h: a bundle's two-phase schedule (protocol:segments:transcript).
// Its challenges are the known answers tests/transcript/kat.py computes from the spec's text with
// an independent Keccak; every main root and the segment index bind them; its order is enforced.
#include "core/stark/bundle_transcript.h"

#include <gtest/gtest.h>

#include "optimized/transcript/transcript.h"
#include "reference/transcript/transcript.h"
#include "tests/transcript/kat_vectors.h"

namespace zkrv {
namespace {

spec::Digest digest(uint8_t b) {
  spec::Digest d;
  d.fill(b);
  return d;
}

// The bundle kat.py describes: N = 2 segments of 2^10 cycles, T = 2 tables.
spec::BundleStatement bundle() {
  spec::BundleStatement st;
  st.program_digest.fill(7);
  st.exit_code = 3;
  st.output = {1, 2, 3};
  st.log_segment = 10;
  st.log_heights = {{5, 6}, {5, 5}};
  spec::BoundaryState mid;
  mid.pc = 0x10100, mid.regs[1] = 0x10080, mid.regs[2] = uint64_t(0) - 16, mid.regs[10] = 42, mid.regs[31] = 7;
  mid.ipos = 5, mid.eof = true, mid.opos = 2;
  spec::BoundaryState end;
  end.pc = 0x10200, end.ipos = 5, end.eof = true, end.opos = 3;
  st.boundaries = {spec::BoundaryState{.pc = 0x10000}, mid, end};
  st.chunks = {0, 0x11000, 0x12000};
  return st;
}

using Raw = spec::Fp3Raw;
template <class E>
Raw raw(const E& x) {
  return {x.c[0].value(), x.c[1].value(), x.c[2].value()};
}

struct Draws {
  Raw alpha, beta, seg0, seg1;
};

template <class Tr>
Draws run(const spec::BundleStatement& st, const spec::Digest& root0, const spec::Digest& root1) {
  core::BundleTranscript<Tr> tr;
  tr.observe_statement(spec::StarkOptions{}, st);
  tr.observe_main_root(root0);
  tr.observe_main_root(root1);
  const auto lu = tr.sample_logup();
  tr.observe_logup_sums({{{1, 0, 0}, {2, 0, 0}}, {{3, 4, 5}, {spec::GoldilocksTraits::kModulus - 6, 0, 0}}});
  Draws d{raw(lu.alpha), raw(lu.beta), {}, {}};
  // phase 2 in either order: each segment's transcript is its own
  auto t1 = tr.segment(1);
  t1.observe_aux_root(digest(9));
  d.seg1 = raw(t1.sample_constraint_alpha());
  auto t0 = tr.segment(0);
  t0.observe_aux_root(digest(9));
  d.seg0 = raw(t0.sample_constraint_alpha());
  t0.observe_quotient_root(digest(10));  // and the schedule goes on as a proof of one run's
  EXPECT_NO_THROW(t0.sample_ood_point({5, 6}, 2));
  return d;
}

Raw kat(const uint64_t (&v)[3]) { return {v[0], v[1], v[2]}; }

TEST(BundleTranscript, DrawsTheKnownAnswersInBothTranscripts) {
  for (const Draws& d : {run<ref::Transcript>(bundle(), digest(1), digest(2)),
                         run<opt::Transcript>(bundle(), digest(1), digest(2))}) {
    EXPECT_EQ(d.alpha, kat(kat::kBundleAlpha));
    EXPECT_EQ(d.beta, kat(kat::kBundleBeta));
    EXPECT_EQ(d.seg0, kat(kat::kBundleSegment0Alpha));
    EXPECT_EQ(d.seg1, kat(kat::kBundleSegment1Alpha));
  }
}

// A root changed after the challenges were drawn, a boundary or a chunk bound moved: every
// challenge of every segment moves with it.
TEST(BundleTranscript, EveryRootAndTheStatementBindEveryChallenge) {
  const Draws base = run<ref::Transcript>(bundle(), digest(1), digest(2));
  EXPECT_NE(base.seg0, base.seg1);
  auto moved_boundary = bundle();
  moved_boundary.boundaries[1].regs[5] = 1;
  auto moved_chunk = bundle();
  moved_chunk.chunks[1] = 0x11001;
  auto moved_eof = bundle();
  moved_eof.boundaries[1].eof = false;
  for (const Draws& d : {run<ref::Transcript>(bundle(), digest(3), digest(2)),
                         run<ref::Transcript>(bundle(), digest(1), digest(3)),
                         run<ref::Transcript>(bundle(), digest(2), digest(1)),
                         run<ref::Transcript>(moved_boundary, digest(1), digest(2)),
                         run<ref::Transcript>(moved_chunk, digest(1), digest(2)),
                         run<ref::Transcript>(moved_eof, digest(1), digest(2))}) {
    EXPECT_NE(d.alpha, base.alpha);
    EXPECT_NE(d.beta, base.beta);
    EXPECT_NE(d.seg0, base.seg0);
    EXPECT_NE(d.seg1, base.seg1);
  }
}

TEST(BundleTranscript, AStepOutOfOrderIsABug) {
  using T = core::BundleTranscript<ref::Transcript>;
  const spec::StarkOptions o{};
  {
    T tr;
    EXPECT_THROW(tr.observe_main_root(digest(1)), InvariantError);  // before the statement
  }
  {
    T tr;
    tr.observe_statement(o, bundle());
    tr.observe_main_root(digest(1));
    EXPECT_THROW(tr.sample_logup(), InvariantError);  // before segment 1's root
  }
  {
    T tr;
    tr.observe_statement(o, bundle());
    tr.observe_main_root(digest(1));
    tr.observe_main_root(digest(2));
    EXPECT_THROW(tr.observe_main_root(digest(3)), InvariantError);  // a third root for two segments
  }
  {
    T tr;
    tr.observe_statement(o, bundle());
    tr.observe_main_root(digest(1));
    tr.observe_main_root(digest(2));
    tr.sample_logup();
    EXPECT_THROW(tr.segment(0), InvariantError);  // before the terminal sums
    EXPECT_THROW(tr.observe_logup_sums({{{1, 0, 0}}}), InvariantError);  // one list for two segments
  }
  {
    T tr;
    tr.observe_statement(o, bundle());
    tr.observe_main_root(digest(1));
    tr.observe_main_root(digest(2));
    tr.sample_logup();
    tr.observe_logup_sums({{}, {}});
    EXPECT_THROW(tr.segment(2), InvariantError);  // no segment 2
    auto seg = tr.segment(0);
    EXPECT_THROW(seg.observe_logup({}, digest(9)), InvariantError);  // sums belong to phase 1
    EXPECT_THROW(seg.sample_constraint_alpha(), InvariantError);     // the aux root first
  }
  core::StarkTranscript<ref::Transcript> single;
  EXPECT_THROW(single.observe_aux_root(digest(9)), InvariantError);  // a proof of one run has no phase 1
}

// The statement's bytes (protocol:segments:proof): counts that disagree are refused.
TEST(BundleTranscript, StatementBytes) {
  const auto b = spec::encode_bundle_statement(spec::StarkOptions{}, bundle());
  EXPECT_EQ(b.size(), 4 + 5 + 32 + 4 + 8 + 3 + 4 + 1 + 1 + 4 + 3 * (8 + 31 * 8 + 8 + 1 + 8) + 3 * 8);
  auto bad = bundle();
  bad.chunks.pop_back();
  EXPECT_THROW(spec::encode_bundle_statement({}, bad), std::invalid_argument);
  bad = bundle();
  bad.log_heights[1].push_back(5);
  EXPECT_THROW(spec::encode_bundle_statement({}, bad), std::invalid_argument);
  bad = bundle();
  bad.log_heights.clear();
  bad.boundaries.resize(1), bad.chunks.resize(1);
  EXPECT_THROW(spec::encode_bundle_statement({}, bad), std::invalid_argument);
}

// protocol:segments:proof's statement decoded from exactly its bytes, with typed errors.
TEST(BundleStatement, DecodesItsOwnBytesAndRejectsEveryMalformedOne) {
  const spec::StarkOptions o{};
  const auto bytes = spec::encode_bundle_statement(o, bundle());
  const auto d = spec::decode_bundle_statement(bytes);
  ASSERT_TRUE(d.statement) << d.error->what;
  EXPECT_EQ(*d.options, o);
  EXPECT_EQ(spec::encode_bundle_statement(*d.options, *d.statement), bytes);
  EXPECT_EQ(d.statement->boundaries, bundle().boundaries);
  EXPECT_EQ(d.statement->chunks, bundle().chunks);
  EXPECT_EQ(d.statement->log_heights, bundle().log_heights);
  for (size_t cut = 0; cut < bytes.size(); ++cut) {  // every truncation: a typed error, never a crash
    const auto t = spec::decode_bundle_statement(std::span(bytes).first(cut));
    ASSERT_TRUE(t.error) << cut;
    EXPECT_TRUE(t.error->kind == spec::ParseError::Kind::kTruncated || t.error->kind == spec::ParseError::Kind::kTooLarge)
        << cut << ": " << t.error->what;
  }
  auto with = [&](size_t at, uint8_t v) {
    auto b = bytes;
    b[at] = v;
    return spec::decode_bundle_statement(b);
  };
  auto longer = bytes;
  longer.push_back(0);
  EXPECT_EQ(spec::decode_bundle_statement(longer).error->kind, spec::ParseError::Kind::kTrailingBytes);
  EXPECT_EQ(with(0, static_cast<uint8_t>(spec::kBundleVersion - 1)).error->kind, spec::ParseError::Kind::kBadVersion);  // the last one
  EXPECT_EQ(with(0, static_cast<uint8_t>(spec::kBundleVersion + 1)).error->kind, spec::ParseError::Kind::kBadVersion);
  const size_t n_at = 4 + 5 + 32 + 4 + 8 + 3;  // u32 N
  const auto big_n = with(n_at + 3, 0x40);
  EXPECT_EQ(big_n.error->kind, spec::ParseError::Kind::kTooLarge);
  EXPECT_EQ(big_n.error->offset, n_at);
  const auto big_out = with(4 + 5 + 32 + 4 + 7, 0x80);  // the output length's top byte
  EXPECT_EQ(big_out.error->kind, spec::ParseError::Kind::kTooLarge);
  const size_t eof_at = n_at + 4 + 1 + 1 + 4 + 8 + 31 * 8 + 8;  // Σ_0's eof
  const auto bad_eof = with(eof_at, 2);
  EXPECT_EQ(bad_eof.error->kind, spec::ParseError::Kind::kNonCanonical);
  EXPECT_EQ(bad_eof.error->offset, eof_at);
}

// protocol:segments:boundary: what the verifier checks of the cut before any segment.
TEST(BundleStatement, TheVerifierChecksTheCut) {
  const uint64_t entry = 0x10000, bound = spec::kDefaultMaxCycles;
  EXPECT_EQ(spec::check_bundle_statement(bundle(), entry, bound), std::nullopt);
  auto broken = [&](auto edit) {
    auto st = bundle();
    edit(st);
    const auto why = spec::check_bundle_statement(st, entry, bound);
    return why ? *why : std::string("accepted");
  };
  EXPECT_EQ(spec::check_bundle_statement(bundle(), 0x10004, bound),
            "the first segment must start at the ELF's entry with every register, position and the end of input 0");
  EXPECT_EQ(spec::check_bundle_statement(bundle(), entry, 2047), "2 segments of 2^10 cycles exceed the cycle bound of 2047");
  EXPECT_EQ(broken([](auto& s) { s.log_heights.pop_back(), s.boundaries.pop_back(), s.chunks.pop_back(); }),
            "a bundle has at least 2 segments (a run of one segment is a proof of the whole run)");
  EXPECT_EQ(broken([](auto& s) { s.log_segment = 9; }), "a segment must be 2^10 to 2^21 cycles, not 2^9");
  EXPECT_EQ(broken([](auto& s) { s.log_segment = 64; }), "a segment must be 2^10 to 2^21 cycles, not 2^64");
  EXPECT_EQ(broken([](auto& s) { s.boundaries[0].regs[2] = 1; }),
            "the first segment must start at the ELF's entry with every register, position and the end of input 0");
  EXPECT_EQ(broken([](auto& s) { s.boundaries[2].regs[1] = 1; }), "the last boundary's registers must be 0 (unused)");
  EXPECT_EQ(broken([](auto& s) { s.boundaries[1].regs[0] = 1; }), "x0 is 0 at every boundary");
  for (auto edit : {+[](spec::BundleStatement& s) { s.boundaries[2].ipos = 4; },
                    +[](spec::BundleStatement& s) { s.boundaries[2].eof = false; },
                    +[](spec::BundleStatement& s) { s.boundaries[1].opos = 4; }})
    EXPECT_NE(broken(edit).find("never fall"), std::string::npos) << broken(edit);
  EXPECT_EQ(broken([](auto& s) { s.output.push_back(9); }), "the last boundary's output position must be the output's length");
  EXPECT_EQ(broken([](auto& s) { s.chunks[0] = 1; }), "the first chunk bound must be 0");
  EXPECT_EQ(broken([](auto& s) { s.chunks[2] = 0x10000; }), "chunk bound 2 falls");
  EXPECT_EQ(broken([](auto& s) { s.chunks[2] = uint64_t{1} << 32; }), "the last chunk bound must be below 2^32");
  EXPECT_EQ(broken([](auto& s) { s.log_heights[1].pop_back(); }), "every segment of a bundle has the same tables");
}

TEST(BundleStatement, SegmentPublicsComeFromTheStatement) {
  const auto st = bundle();
  using P = std::vector<std::pair<std::string, uint64_t>>;
  EXPECT_EQ(spec::segment_publics(10, 3, st.boundaries, st.chunks, 0),
            (P{{"entry", 0x10000}, {"exit_code", 3}, {"clk_start", 0}, {"more", 1}, {"seg", 0}, {"pc_end", 0x10100},
               {"ipos_start", 0}, {"ipos_end", 5}, {"eof_start", 0}, {"eof_end", 1}, {"opos_start", 0}, {"opos_end", 2},
               {"init_prev", 0}, {"init_last", 0x11000}}));
  EXPECT_EQ(spec::segment_publics(10, 3, st.boundaries, st.chunks, 1),
            (P{{"entry", 0x10100}, {"exit_code", 3}, {"clk_start", 1024}, {"more", 0}, {"seg", 1}, {"pc_end", 0x10200},
               {"ipos_start", 5}, {"ipos_end", 5}, {"eof_start", 1}, {"eof_end", 1}, {"opos_start", 2}, {"opos_end", 3},
               {"init_prev", 0x11000}, {"init_last", 0x12000}}));
}

}  // namespace
}  // namespace zkrv
