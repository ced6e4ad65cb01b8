// Bundles of the reference prover (spec/protocol.md §9, protocol:segments:*): a run cut into
// segments, proven and verified; its bytes decode to themselves and are deterministic; and the
// verifier rejects the bundles a cheating prover could send (protocol:segments:attacks): segments
// reordered, dropped or duplicated, a boundary changed in the statement, a root changed after the
// challenges were drawn, a segment from another run spliced in, the wrong program, a too-small
// security, and malformed bytes; and cheating traces proven as they are (an address initialised
// twice, a final token never consumed, the exit before the last segment, a boundary byte changed,
// a boundary pc, register, input or output position moved in the statement and the segments
// after it, a segment of another program).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "reference/air/segment_trace.h"
#include "reference/elf/elf_loader.h"
#include "reference/exec/executor.h"
#include "reference/prove/prove.h"
#include "reference/verify/key.h"
#include "reference/verify/verify.h"
#include "spec/bundle.h"
#include "spec/run_segments.h"
#include "tests/support/elf_builder.h"
#include "tests/support/opt_from_rows.h"
#include "tools/common/files.h"

namespace zkrv {
namespace {

namespace rv = ref::verify;
using Check = rv::Rejection::Check;

const spec::StarkOptions kOptions{2, 8, 2, 3};
const spec::SecurityPolicy kAnyBits = spec::SecurityPolicy::at_least(spec::SecurityPolicy::Measure::kProvable, 0);

spec::ProgramImage echo_program() { return *ref::load_elf(testing::echo_elf()).image; }

struct CutRun {
  spec::RunPlan plan;
  std::vector<ref::air::AirTrace> segments;
  std::vector<uint8_t> output;
  uint32_t exit_code = 0;
};
CutRun cut(const spec::ProgramImage& image, const std::vector<uint8_t>& input, unsigned k) {
  test::SegmentedRun s = test::segmented_run(image, input, k);
  return CutRun{std::move(s.plan), std::move(s.segments), s.run.output, static_cast<uint32_t>(s.run.exit_code)};
}

std::string verdict(const rv::BundleVerifyResult& v) {
  if (v.ok()) return "accepted";
  return std::string(rv::check_name(v.rejection->check)) + (v.segment ? " in segment " + std::to_string(*v.segment) : "");
}
std::string check(const rv::BundleVerifyResult& v) { return v.ok() ? "accepted" : rv::check_name(v.rejection->check); }

struct Proven {
  spec::ProgramImage image = echo_program();
  std::vector<uint8_t> input = testing::kEchoInput;
  CutRun run = cut(image, input, 10);
  spec::BundleProof bundle = ref::prove::prove_bundle_unchecked(image, run.segments, run.plan, kOptions);
  rv::Expected expected() const { return {&image, run.exit_code, &run.output}; }
};
const Proven& proven() {
  static const Proven p;
  return p;
}
TEST(Bundle, ARunOfSeveralSegmentsIsProvenAndVerified) {
  const Proven& p = proven();
  ASSERT_GE(p.bundle.statement.segments(), 3u);
  EXPECT_EQ(p.bundle.statement.output, p.run.output);
  const auto v = rv::verify_bundle(p.bundle, p.expected(), kAnyBits);
  EXPECT_EQ(verdict(v), "accepted") << (v.rejection ? v.rejection->what : "");
  EXPECT_GT(v.security.provable_bits, 0);
  // the claimed output alone, without an expected one
  EXPECT_EQ(verdict(rv::verify_bundle(p.bundle, {&p.image, p.run.exit_code, nullptr}, kAnyBits)), "accepted");
}

// protocol:segments:vk — the key of the whole AIR serves the segment AIR: every segment opens the
// same program tree, and a key whose root is not the program's rejects every segment's openings.
TEST(Bundle, ItVerifiesWithTheProgramsKeyAlone) {
  const Proven& p = proven();
  const spec::ProgramKey key = rv::make_key(p.image);
  EXPECT_EQ(verdict(rv::verify_bundle(p.bundle, {nullptr, p.run.exit_code, &p.run.output, &key}, kAnyBits)), "accepted");
  spec::ProgramKey wrong = key;
  for (auto& [lb, root] : wrong.roots) root[0] ^= 1;
  EXPECT_EQ(verdict(rv::verify_bundle(p.bundle, {nullptr, p.run.exit_code, &p.run.output, &wrong}, kAnyBits)),
            "merkle_program in segment 0");
  // a key that gives a fixed table (regs, whose iv/ev the verifier builds itself) another height
  wrong = key;
  for (auto& h : wrong.log_heights) h += 1;
  EXPECT_EQ(verdict(rv::verify_bundle(p.bundle, {nullptr, p.run.exit_code, &p.run.output, &wrong}, kAnyBits)), "key");
  // and a segment whose program opening was changed
  auto b = p.bundle;
  b.segments[1].queries[0].program.values[0] = (b.segments[1].queries[0].program.values[0] + 1) % ref::Fp::P;
  EXPECT_EQ(verdict(rv::verify_bundle(b, p.expected(), kAnyBits)), "merkle_program in segment 1");
}

TEST(Bundle, ItsBytesDecodeToItselfAndAreDeterministic) {
  const Proven& p = proven();
  const auto bytes = spec::encode_bundle(p.bundle);
  ASSERT_TRUE(spec::is_bundle(bytes));
  const auto back = spec::decode_bundle(bytes);
  ASSERT_TRUE(back.proof) << back.error->what;
  EXPECT_EQ(spec::encode_bundle(*back.proof), bytes);
  EXPECT_EQ(verdict(rv::verify_bundle_bytes(bytes, p.expected(), kAnyBits)), "accepted");
  // the optimized prover's bundle is the same bytes, at one, two and three threads (and so is each
  // prover's, run again)
  for (unsigned threads : {1u, 2u, 3u})
    EXPECT_EQ(spec::encode_bundle(test::prove_bundle_optimized(p.image, p.run.segments, p.run.plan, kOptions, threads)), bytes)
        << threads << " threads";
  // and so is the streamed prover's, written in pieces as zkrv prove writes it to its file
  EXPECT_EQ(test::prove_bundle_streamed_bytes(p.image, p.run.segments, p.run.plan, p.run.exit_code, p.run.output, kOptions),
            bytes);
  // every truncation and a trailing byte are malformed, never a crash
  for (size_t n : {size_t{0}, size_t{7}, size_t{8}, size_t{100}, bytes.size() / 2, bytes.size() - 1})
    EXPECT_EQ(check(rv::verify_bundle_bytes(std::span(bytes.data(), n), p.expected(), kAnyBits)), "malformed") << n;
  auto longer = bytes;
  longer.push_back(0);
  EXPECT_EQ(check(rv::verify_bundle_bytes(longer, p.expected(), kAnyBits)), "malformed");
  // a proof of one run is not a bundle
  EXPECT_FALSE(spec::decode_bundle(std::vector<uint8_t>{'Z', 'K', 'R', 'V', '-', 'P', 'R', 'F', 0}).proof);
}

// zkrv prove writes a bundle in pieces (its head, then each segment's body as it is made) to a
// file with no name in the output's folder (or, where the file system has no unnamed files, a
// temporary name), put in place once whole: a run that stops part way leaves nothing.
TEST(Bundle, ItsFileIsWrittenWholeOrNotAtAll) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("zkrv-atomic-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const auto entries = [&] {
    std::vector<std::string> v;
    for (const auto& e : fs::directory_iterator(dir)) v.push_back(e.path().filename().string());
    return v;
  };
  const std::string out = (dir / "b.zkb").string();
  const std::vector<uint8_t> head = {1, 2, 3}, body = {4, 5};
  {  // stopped part way (destroyed uncommitted): neither the output nor a temporary file
    tools::AtomicFile f(out);
    ASSERT_TRUE(f.write(head)) << f.error();
    if (f.unnamed()) {
      EXPECT_TRUE(entries().empty());  // nothing in the folder to be left behind, even by a kill
    } else {
      std::printf("this file system has no unnamed files: a named temporary file\n");
      ASSERT_EQ(entries().size(), 1u);
      EXPECT_EQ(entries()[0].rfind("b.zkb.tmp-zkrv.", 0), 0u) << entries()[0];
    }
  }
  EXPECT_TRUE(entries().empty());
  {  // whole: the pieces in order, under the output's name only
    tools::AtomicFile f(out);
    ASSERT_TRUE(f.write(head) && f.write(body) && f.write(body)) << f.error();
    EXPECT_FALSE(fs::exists(out));
    EXPECT_EQ(f.commit(), "");
    EXPECT_EQ(f.size(), 7u);
    EXPECT_FALSE(f.write(body));  // committed: nothing more goes in
  }
  const auto back = tools::read_file(out, 100, "bundle");
  ASSERT_TRUE(back.bytes) << back.error;
  EXPECT_EQ(*back.bytes, (std::vector<uint8_t>{1, 2, 3, 4, 5, 4, 5}));
  EXPECT_EQ(entries(), std::vector<std::string>{"b.zkb"});
  {  // written again: the old file stays whole until the new one replaces it
    tools::AtomicFile f(out);
    ASSERT_TRUE(f.write(body));
    EXPECT_EQ(tools::read_file(out, 100, "bundle").bytes->size(), 7u);
    EXPECT_EQ(f.commit(), "");
  }
  EXPECT_EQ(*tools::read_file(out, 100, "bundle").bytes, body);
  EXPECT_EQ(entries(), std::vector<std::string>{"b.zkb"});
  {  // a folder that does not exist, or a folder as the output: one line naming the output
    tools::AtomicFile f((dir / "no" / "b.zkb").string());
    EXPECT_NE(f.error().find("no/b.zkb"), std::string::npos) << f.error();
    EXPECT_FALSE(f.write(head));
    EXPECT_EQ(f.commit(), f.error());
    tools::AtomicFile d(dir.string());
    EXPECT_NE(d.error().find("it is a folder"), std::string::npos) << d.error();
  }
  EXPECT_EQ(entries(), std::vector<std::string>{"b.zkb"});
  {  // a device is written in place, not replaced by a file
    tools::AtomicFile f("/dev/null");
    EXPECT_TRUE(f.write(head) && f.commit().empty()) << f.error();
    EXPECT_TRUE(fs::is_character_file("/dev/null"));
  }
  fs::remove_all(dir);
}

// The statement, the heights and every segment's parts moved together, as a cheating prover
// would send them.
void swap_segments(spec::BundleProof& b, size_t i, size_t j) {
  std::swap(b.statement.log_heights[i], b.statement.log_heights[j]);
  std::swap(b.main_roots[i], b.main_roots[j]);
  std::swap(b.terminal_sums[i], b.terminal_sums[j]);
  std::swap(b.segments[i], b.segments[j]);
}

TEST(BundleAttacks, SegmentsReorderedAreRejected) {
  const Proven& p = proven();
  auto b = p.bundle;
  swap_segments(b, 0, 1);
  // segment 1's proof in position 0: its clk_start, tags and start state are position 0's
  EXPECT_EQ(verdict(rv::verify_bundle(b, p.expected(), kAnyBits)), "constraints_at_zeta in segment 0");
  // and with the boundaries moved along: the first no longer starts at the entry
  std::swap(b.statement.boundaries[0], b.statement.boundaries[1]);
  EXPECT_EQ(verdict(rv::verify_bundle(b, p.expected(), kAnyBits)), "bundle_statement");
}

TEST(BundleAttacks, ASegmentDroppedOrDuplicatedIsRejected) {
  const Proven& p = proven();
  const size_t n = p.bundle.statement.segments();
  {  // segment 1 dropped, with its boundary and chunk bound
    auto b = p.bundle;
    b.statement.log_heights.erase(b.statement.log_heights.begin() + 1);
    b.main_roots.erase(b.main_roots.begin() + 1);
    b.terminal_sums.erase(b.terminal_sums.begin() + 1);
    b.segments.erase(b.segments.begin() + 1);
    b.statement.boundaries.erase(b.statement.boundaries.begin() + 1);
    b.statement.chunks.erase(b.statement.chunks.begin() + 1);
    // its gmem tokens are missing
    EXPECT_EQ(verdict(rv::verify_bundle(b, p.expected(), kAnyBits)), "unbalanced");
  }
  {  // segment 1 twice: its parts and its boundary repeated
    auto b = p.bundle;
    b.statement.log_heights.insert(b.statement.log_heights.begin() + 1, b.statement.log_heights[1]);
    b.main_roots.insert(b.main_roots.begin() + 1, b.main_roots[1]);
    b.terminal_sums.insert(b.terminal_sums.begin() + 1, b.terminal_sums[1]);
    b.segments.insert(b.segments.begin() + 1, b.segments[1]);
    b.statement.boundaries.insert(b.statement.boundaries.begin() + 1, b.statement.boundaries[1]);
    b.statement.chunks.insert(b.statement.chunks.begin() + 1, b.statement.chunks[1]);
    ASSERT_EQ(b.statement.segments(), n + 1);
    // its gmem receives take tokens sent once
    EXPECT_EQ(verdict(rv::verify_bundle(b, p.expected(), kAnyBits)), "unbalanced");
  }
}

TEST(BundleAttacks, AChangedBoundaryIsRejected) {
  const Proven& p = proven();
  for (const char* what : {"pc", "register", "ipos", "opos", "chunk"}) {
    SCOPED_TRACE(what);
    auto b = p.bundle;
    spec::BoundaryState& x = b.statement.boundaries[1];
    if (std::string(what) == "pc") x.pc += 4;
    if (std::string(what) == "register") x.regs[5] ^= 1;
    if (std::string(what) == "ipos") x.ipos = 0;
    if (std::string(what) == "opos") x.opos = 0;
    if (std::string(what) == "chunk") b.statement.chunks[1] += 1;
    // one value read by two segments: the first that reads it fails its constraints
    EXPECT_EQ(verdict(rv::verify_bundle(b, p.expected(), kAnyBits)), "constraints_at_zeta in segment 0");
  }
}

TEST(BundleAttacks, ARootOrSumChangedAfterTheChallengesIsRejected) {
  const Proven& p = proven();
  {
    auto b = p.bundle;
    b.main_roots[1][0] ^= 1;
    // every challenge drawn after it changes: the first segment's quotient no longer matches
    EXPECT_EQ(verdict(rv::verify_bundle(b, p.expected(), kAnyBits)), "constraints_at_zeta in segment 0");
  }
  {
    auto b = p.bundle;
    b.terminal_sums[0][0][0] = (b.terminal_sums[0][0][0] + 1) % 0xffffffff00000001ull;
    EXPECT_EQ(check(rv::verify_bundle(b, p.expected(), kAnyBits)), "unbalanced");
  }
  {  // two sums moved between segments keep the total: the constraints at ζ catch it
    auto b = p.bundle;
    const size_t t = 0;
    auto& a = b.terminal_sums[0][t];
    auto& c = b.terminal_sums[1][t];
    constexpr uint64_t P = 0xffffffff00000001ull;
    a[0] = (a[0] + 5) % P, c[0] = c[0] >= 5 ? c[0] - 5 : c[0] + (P - 5);
    EXPECT_EQ(verdict(rv::verify_bundle(b, p.expected(), kAnyBits)), "constraints_at_zeta in segment 0");
  }
  {
    auto b = p.bundle;
    b.segments[2].aux_root[3] ^= 1;
    EXPECT_EQ(verdict(rv::verify_bundle(b, p.expected(), kAnyBits)), "constraints_at_zeta in segment 2");
  }
}

TEST(BundleAttacks, ASegmentOfAnotherRunIsRejected) {
  const Proven& p = proven();
  // the same program on another input: its segment 1 spliced into this bundle
  const CutRun other = cut(p.image, {'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'}, 10);
  const auto ob = test::prove_bundle_optimized(p.image, other.segments, other.plan, kOptions);
  auto b = p.bundle;
  b.main_roots[1] = ob.main_roots[1];
  b.terminal_sums[1] = ob.terminal_sums[1];
  b.segments[1] = ob.segments[1];
  // its terminal sums were drawn with other challenges, and its gmem tokens are the other run's
  EXPECT_EQ(verdict(rv::verify_bundle(b, p.expected(), kAnyBits)), "unbalanced");
  // and the other run's bundle proves its own statement, not this one's
  EXPECT_EQ(verdict(rv::verify_bundle(ob, {&p.image, other.exit_code, &other.output}, kAnyBits)), "accepted");
  EXPECT_EQ(check(rv::verify_bundle(ob, p.expected(), kAnyBits)), "output");
}

TEST(BundleAttacks, TheWrongProgramExitOrPolicyIsRejected) {
  const Proven& p = proven();
  auto other = p.image;
  other.segments[0].data[0] ^= 1;
  EXPECT_EQ(check(rv::verify_bundle(p.bundle, {&other, p.run.exit_code, &p.run.output}, kAnyBits)), "program_digest");
  EXPECT_EQ(check(rv::verify_bundle(p.bundle, {&p.image, p.run.exit_code + 1, &p.run.output}, kAnyBits)), "exit_code");
  EXPECT_EQ(check(rv::verify_bundle(p.bundle, p.expected(), spec::SecurityPolicy{})), "security_policy");
  // a cycle bound below N·2^k
  EXPECT_EQ(check(rv::verify_bundle(p.bundle, p.expected(), kAnyBits, 1024)), "bundle_statement");
  // a segment size the heights do not have
  auto b = p.bundle;
  b.statement.log_segment = 11;
  EXPECT_EQ(check(rv::verify_bundle(b, p.expected(), kAnyBits)), "segment_height");
  // a segment's body missing (the bytes cannot say so: a bundle built in memory can)
  auto c = p.bundle;
  c.segments.pop_back();
  EXPECT_EQ(check(rv::verify_bundle(c, p.expected(), kAnyBits)), "segment_count");
}

// ---- cheating traces, proven as they are: the verifier rejects each bundle ----

uint64_t& cell(ref::air::AirTrace& t, const char* table, size_t row, const char* column) {
  auto& tb = t.table(table);
  return tb.rows.at(row)[tb.col(column)];
}
// fibonacci cut into segments of 2^10 cycles, not proven: its later segments take bytes that the
// earlier ones left, for the cheating traces below.
struct Fibonacci {
  spec::ProgramImage image;
  CutRun run;
  rv::Expected expected() const { return {&image, run.exit_code, &run.output}; }
};
const Fibonacci& fibonacci() {
  static const Fibonacci f = [] {
    auto elf = tools::read_file(std::string(ZKRV_GUEST_PROGRAMS_DIR) + "/fibonacci.elf", 1 << 30, "guest");
    auto in = tools::read_file(std::string(ZKRV_SOURCE_DIR) + "/guest/programs/fibonacci.input", 1 << 20, "input");
    if (!elf.bytes || !in.bytes) throw std::runtime_error("the fibonacci guest or its input is missing");
    auto image = *ref::load_elf(*elf.bytes).image;
    auto run = cut(image, *in.bytes, 10);
    return Fibonacci{std::move(image), std::move(run)};
  }();
  return f;
}
// The edited segments' lookup multiplicities recounted, proven by the optimized prover with the
// plan (the statement) given, verified; what the trace check finds goes to trace_failures.
std::string prove_edited(const spec::ProgramImage& image, std::vector<ref::air::AirTrace> segs, const spec::RunPlan& plan,
                         const rv::Expected& expected, std::string* trace_failures) {
  for (auto& s : segs) ref::air::count_segment_lookups(s);
  const auto rep = ref::air::check_segment_traces(segs);
  for (const auto& f : rep.failing) *trace_failures += f + "; ";
  for (const auto& u : rep.unbalanced_buses) *trace_failures += u + "; ";
  const auto b = test::prove_bundle_optimized(image, segs, plan, kOptions);
  return verdict(rv::verify_bundle(b, expected, kAnyBits));
}
std::string prove_cheat(const Fibonacci& p, std::vector<ref::air::AirTrace> segs, std::string* trace_failures) {
  return prove_edited(p.image, std::move(segs), p.run.plan, p.expected(), trace_failures);
}

// A boundary moved in the statement and in the segments after it, as a cheating prover would (the
// edits of tests/air/segment_trace_test.cpp's SegmentAttack, proven): the plan's boundaries, the
// segments' publics and the regs rows agree, so the prover's own check that the publics are the
// statement's passes, and only the constraints of the segment that left the boundary stand in the
// way. On the echo program's 4 segments of 2^10 cycles.
struct BoundaryEdit {
  const char* what;
  std::function<void(spec::RunPlan&, std::vector<ref::air::AirTrace>&)> edit;
  const char* verdict;
  const char* failure;  // what the trace check finds (with `alone`: and nothing else)
  bool alone = false;
};
// A register that no row of segments 1 to 3 reads, writes or names, whose limb 0 can grow by one:
// its value from boundary 1 on, one more, carried through every later segment's start, final and
// end values (the regs table, the statement), so that its tokens balance on the reg bus.
void move_untouched_register(spec::RunPlan& plan, std::vector<ref::air::AirTrace>& segs) {
  for (uint64_t reg = 1; reg < 32; ++reg) {
    bool named = (plan.boundaries[1].regs[reg] & 0xffff) == 0xffff;
    for (size_t s = 1; s < segs.size() && !named; ++s) {
      const auto& cpu = segs[s].table("cpu");
      for (const auto& row : cpu.rows)
        named = named || (row[cpu.col("is_real")] &&
                          (row[cpu.col("ra")] == reg || row[cpu.col("rb")] == reg || row[cpu.col("wr")] == reg));
    }
    if (named) continue;
    for (size_t b = 1; b < segs.size(); ++b) plan.boundaries[b].regs[reg] += 1;
    cell(segs[0], "regs", reg, "ev0") += 1;  // segment 0 ends with the old value: regs:c:end0
    for (size_t s = 1; s < segs.size(); ++s) {
      cell(segs[s], "regs", reg, "iv0") += 1;
      cell(segs[s], "regs", reg, "final_v0") += 1;
      if (segs[s].publics.at("more")) cell(segs[s], "regs", reg, "ev0") += 1;
    }
    return;
  }
  throw std::logic_error("every register is named after segment 0");
}
TEST(BundleAttacks, ABoundaryMovedInTheSegmentsAfterItIsRejected) {
  const Proven& p = proven();
  const BoundaryEdit edits[] = {
      {"pc",
       [](spec::RunPlan& plan, std::vector<ref::air::AirTrace>& segs) {
         plan.boundaries[1].pc += 4;
         segs[0].publics["pc_end"] += 4;
         segs[1].publics["entry"] += 4;
       },
       "constraints_at_zeta in segment 0", "segment 0: constraint cpu:c:halt_stays_last"},
      {"register", move_untouched_register, "constraints_at_zeta in segment 0", "segment 0: constraint regs:c:end0", true},
      {"input position reset",  // the last two bytes read again
       [](spec::RunPlan& plan, std::vector<ref::air::AirTrace>& segs) {
         plan.boundaries[2].ipos = 8;
         segs[1].publics["ipos_end"] = 8;
         segs[2].publics["ipos_start"] = 8;
       },
       "constraints_at_zeta in segment 1", "segment 1: constraint syscall:c:ipos_end"},
      {"end of input forgotten",
       [](spec::RunPlan& plan, std::vector<ref::air::AirTrace>& segs) {
         plan.boundaries[2].eof = false;
         segs[1].publics["eof_end"] = 0;
         segs[2].publics["eof_start"] = 0;
       },
       "constraints_at_zeta in segment 1", "segment 1: constraint syscall:c:eof_end"},
      {"output position reset",  // segment 1's bytes over segment 0's
       [](spec::RunPlan& plan, std::vector<ref::air::AirTrace>& segs) {
         plan.boundaries[1].opos = 0;
         segs[0].publics["opos_end"] = 0;
         segs[1].publics["opos_start"] = 0;
       },
       "constraints_at_zeta in segment 0", "segment 0: constraint syscall:c:opos_end"},
  };
  for (const BoundaryEdit& e : edits) {
    SCOPED_TRACE(e.what);
    spec::RunPlan plan = p.run.plan;
    auto segs = p.run.segments;
    e.edit(plan, segs);
    ASSERT_NE(plan.boundaries, p.run.plan.boundaries);
    std::string failures;
    EXPECT_EQ(prove_edited(p.image, segs, plan, p.expected(), &failures), e.verdict);
    if (e.alone)
      EXPECT_EQ(failures, std::string(e.failure) + "; ");
    else
      EXPECT_NE(failures.find(e.failure), std::string::npos) << failures;
  }
}

// A segment proven with another program of the same shape (the echo program spinning once more
// between reads: the same tables' heights), its root, sums and proof in place of segment 1.
TEST(BundleAttacks, ASegmentOfAnotherProgramIsRejected) {
  const Proven& p = proven();
  const spec::ProgramImage other = *ref::load_elf(testing::echo_elf(451)).image;
  const CutRun run = cut(other, p.input, 10);
  ASSERT_EQ(run.plan.count(), p.run.plan.count());
  const auto ob = test::prove_bundle_optimized(other, run.segments, run.plan, kOptions);
  ASSERT_EQ(verdict(rv::verify_bundle(ob, {&other, run.exit_code, &run.output}, kAnyBits)), "accepted");
  ASSERT_EQ(ob.statement.log_heights[1], p.bundle.statement.log_heights[1]);
  auto b = p.bundle;
  b.main_roots[1] = ob.main_roots[1];
  b.terminal_sums[1] = ob.terminal_sums[1];
  b.segments[1] = ob.segments[1];
  // its sums were drawn with the other program's challenges, and its tokens are the other run's
  EXPECT_EQ(verdict(rv::verify_bundle(b, p.expected(), kAnyBits)), "unbalanced");
  // and the other program's bundle, whole, names its own program
  EXPECT_EQ(check(rv::verify_bundle(ob, p.expected(), kAnyBits)), "program_digest");
}

// A byte initialised twice: segment s takes the address's initial token again (a stale one, at
// time 0) instead of the token segment t_in - 1 left, and a second mem row of the address sends
// that initial token and consumes the orphaned one. gmem balances and every value read is the
// same; only the chunk's strict order of addresses (mem:c:order) stands in the way.
TEST(BundleAttacks, AnAddressInitialisedTwiceIsRejected) {
  auto segs = fibonacci().run.segments;
  // a byte that segment s takes from an earlier segment, whose value then is its initial one
  for (size_t s = 1; s < segs.size(); ++s) {
    auto& memb = segs[s].table("memb");
    for (size_t r = 0; r < memb.height(); ++r) {
      if (!memb.rows[r][memb.col("is_real")] || memb.rows[r][memb.col("t_in")] == 0) continue;
      const uint64_t a = memb.rows[r][memb.col("addr")], v = memb.rows[r][memb.col("v_in")];
      for (size_t c = 0; c < segs.size(); ++c) {
        auto& mem = segs[c].table("mem");
        const size_t last = mem.height() - 1;
        if (mem.rows[last][mem.col("is_real")]) continue;  // no padding row to take
        for (size_t m = 0; m < last; ++m) {
          if (!mem.rows[m][mem.col("is_real")] || mem.rows[m][mem.col("addr")] != a || mem.rows[m][mem.col("init")] != v)
            continue;
          auto second = mem.rows[m];  // the address's second first token, ending with the orphan
          second[mem.col("fin_ts")] = memb.rows[r][memb.col("t_in")];
          second[mem.col("fin_v")] = v;
          mem.rows[m][mem.col("gap0")] = mem.rows[m][mem.col("gap1")] = 0;
          mem.rows.pop_back();
          mem.rows.insert(mem.rows.begin() + static_cast<std::ptrdiff_t>(m) + 1, second);
          memb.rows[r][memb.col("t_in")] = 0;
          memb.rows[r][memb.col("td0")] = s, memb.rows[r][memb.col("td1")] = 0;
          std::string failures;
          EXPECT_EQ(prove_cheat(fibonacci(), segs, &failures), "constraints_at_zeta in segment " + std::to_string(c));
          EXPECT_EQ(failures, "segment " + std::to_string(c) + ": constraint mem:c:order; ");
          return;
        }
      }
    }
  }
  FAIL() << "no byte taken from an earlier segment with its initial value, in a chunk with padding";
}

// A final token never consumed: the mem row of a byte that a segment after the first touches
// receives, as its final token, one from time 1 instead of the last toucher's, which stays on gmem.
TEST(BundleAttacks, AFinalTokenNeverConsumedIsRejected) {
  auto segs = fibonacci().run.segments;
  for (auto& seg : segs) {
    auto& mem = seg.table("mem");
    for (size_t m = 0; m < mem.height(); ++m) {
      if (!mem.rows[m][mem.col("is_real")] || mem.rows[m][mem.col("fin_ts")] < 2) continue;
      mem.rows[m][mem.col("fin_ts")] = 1;
      std::string failures;
      EXPECT_EQ(prove_cheat(fibonacci(), segs, &failures), "unbalanced");
      EXPECT_EQ(failures, "bus gmem of the bundle; ");
      return;
    }
  }
  FAIL() << "no byte touched after segment 0";
}

// The exit in a segment other than the last: segment 0's last cycle claims the exit ecall.
TEST(BundleAttacks, AnExitBeforeTheLastSegmentIsRejected) {
  auto segs = fibonacci().run.segments;
  auto& cpu = segs[0].table("cpu");
  cell(segs[0], "cpu", cpu.height() - 1, "sys_exit") = 1;
  std::string failures;
  // its sys interaction changes too: the LogUp sum, checked first, no longer balances
  EXPECT_EQ(prove_cheat(fibonacci(), segs, &failures), "unbalanced");
  EXPECT_NE(failures.find("segment 0: constraint cpu:c:halt_system_last"), std::string::npos) << failures;
}

// A boundary byte changed: segment 1 starts from another value of a byte segment 0 left.
TEST(BundleAttacks, ABoundaryByteChangedIsRejected) {
  auto segs = fibonacci().run.segments;
  auto& memb = segs[1].table("memb");
  size_t r = 0;
  while (r < memb.height() && memb.rows[r][memb.col("t_in")] != 1) ++r;
  ASSERT_LT(r, memb.height()) << "segment 1 takes no byte segment 0 left";
  memb.rows[r][memb.col("v_in")] ^= 1;
  std::string failures;
  EXPECT_EQ(prove_cheat(fibonacci(), segs, &failures), "unbalanced");
  EXPECT_NE(failures.find("bus gmem of the bundle"), std::string::npos) << failures;
}

}  // namespace
}  // namespace zkrv
