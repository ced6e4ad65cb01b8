// The host API (api/include/zkrv), through the shared library zkrv::prover as an outside program
// links it: programs, execute, prove and verify, the errors it throws and the verdicts it returns.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <stop_token>

#include "zkrv/prover.h"

namespace {

const std::string kPrograms = ZKRV_GUEST_PROGRAMS_DIR;
const std::string kSources = ZKRV_GUEST_SOURCES_DIR;

std::vector<uint8_t> read(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

const zkrv::Program& fibonacci() {
  static const zkrv::Program p = zkrv::Program::from_file(kPrograms + "/fibonacci.elf");
  return p;
}
const std::vector<uint8_t>& fibonacci_input() {
  static const std::vector<uint8_t> in = read(kSources + "/fibonacci.input");
  return in;
}
// One proof and one bundle (segments of 2^10 cycles) of fibonacci, made once.
const zkrv::Proof& proof() {
  static const zkrv::Proof p = zkrv::prove(fibonacci(), fibonacci_input());
  return p;
}
const zkrv::Proof& bundle() {
  static const zkrv::Proof p = [] {
    zkrv::ProveOptions o;
    o.segment_cycles = 1024;
    return zkrv::prove(fibonacci(), fibonacci_input(), o);
  }();
  return p;
}

template <class F>
zkrv::ErrorCode code_of(F&& f) {
  try {
    f();
  } catch (const zkrv::Error& e) {
    EXPECT_NE(std::string(e.what()), "");
    return e.code();
  }
  ADD_FAILURE() << "no zkrv::Error thrown";
  return zkrv::ErrorCode::kInternal;
}

TEST(Api, ProgramsLoadOrSayWhyNot) {
  const auto elf = read(kPrograms + "/fibonacci.elf");
  const zkrv::Program a = zkrv::Program::from_elf(elf);
  EXPECT_EQ(a.digest(), fibonacci().digest());
  EXPECT_EQ(std::vector<uint8_t>(a.elf().begin(), a.elf().end()), elf);
  EXPECT_NE(a.digest(), zkrv::Program::from_file(kPrograms + "/quicksort.elf").digest());
  EXPECT_EQ(zkrv::to_hex(a.digest()).size(), 64u);
  std::vector<uint8_t> bad = elf;
  bad[4] = 1;  // ELFCLASS32
  EXPECT_EQ(code_of([&] { zkrv::Program::from_elf(bad); }), zkrv::ErrorCode::kBadProgram);
  EXPECT_EQ(code_of([&] { zkrv::Program::from_elf({}); }), zkrv::ErrorCode::kBadProgram);
  EXPECT_EQ(code_of([&] { zkrv::Program::from_file(kPrograms + "/no such file.elf"); }), zkrv::ErrorCode::kIo);
  EXPECT_STREQ(zkrv::version(), "0.1.0");
}

TEST(Api, ExecuteGivesTheRunOrItsFault) {
  const zkrv::Execution e = zkrv::execute(fibonacci(), fibonacci_input());
  ASSERT_TRUE(e.exited);
  EXPECT_EQ(e.exit_code, 0u);
  EXPECT_EQ(e.output, read(kSources + "/fibonacci.expected"));
  EXPECT_GT(e.cycles, 1000u);
  EXPECT_FALSE(e.fault);

  const zkrv::Execution f = zkrv::execute(zkrv::Program::from_file(kPrograms + "/fail_misaligned_jump.elf"), {});
  ASSERT_FALSE(f.exited);
  ASSERT_TRUE(f.fault);
  EXPECT_EQ(f.fault->kind, zkrv::FaultKind::kMisalignedJump);
  EXPECT_NE(f.fault->description.find("misaligned"), std::string::npos) << f.fault->description;

  zkrv::ExecuteOptions short_run;
  short_run.max_cycles = 100;
  const zkrv::Execution limited = zkrv::execute(fibonacci(), fibonacci_input(), short_run);
  ASSERT_TRUE(limited.fault);
  EXPECT_EQ(limited.fault->kind, zkrv::FaultKind::kCycleLimit);
  EXPECT_EQ(limited.cycles, 100u);
}

TEST(Api, ProvesAndVerifiesInProcess) {
  const zkrv::Proof& p = proof();
  const zkrv::Execution e = zkrv::execute(fibonacci(), fibonacci_input());
  EXPECT_EQ(p.report.cycles, e.cycles);
  EXPECT_EQ(p.report.proof_bytes, p.bytes.size());
  EXPECT_FALSE(p.report.statement.bundle);
  EXPECT_EQ(p.report.statement.output, e.output);
  EXPECT_GE(p.report.provable_bits, 100);
  EXPECT_EQ(p.report.table_heights.size(), p.report.statement.log_heights.size());

  const zkrv::Verdict v = zkrv::verify(fibonacci(), p.bytes);
  ASSERT_TRUE(v.ok()) << v.rejection->what;
  ASSERT_TRUE(v.statement);
  EXPECT_EQ(v.statement->program, fibonacci().digest());
  EXPECT_EQ(v.statement->output, e.output);  // the proven output, read from the verdict
  EXPECT_EQ(v.provable_bits, p.report.provable_bits);
  EXPECT_TRUE(zkrv::verify(fibonacci(), p.bytes, zkrv::Expected(0, e.output)).ok());
}

// A verifying key: made from the program, written and read back as bytes, it verifies the proof
// and the bundle without the ELF, with the verdict the ELF gives; bytes that are not a key throw.
TEST(Api, AKeyVerifiesWithoutTheElf) {
  const zkrv::Key key = zkrv::Key::of(fibonacci());
  EXPECT_EQ(key.digest(), fibonacci().digest());
  const zkrv::Key back = zkrv::Key::from_bytes(key.bytes());
  EXPECT_EQ(back.bytes(), key.bytes());
  for (const zkrv::Proof* p : {&proof(), &bundle()}) {
    const zkrv::Verdict with_key = zkrv::verify(back, p->bytes), with_elf = zkrv::verify(fibonacci(), p->bytes);
    ASSERT_TRUE(with_key.ok()) << with_key.rejection->what;
    EXPECT_EQ(with_key.statement->output, with_elf.statement->output);
    EXPECT_EQ(with_key.provable_bits, with_elf.provable_bits);
    const zkrv::Verdict other = zkrv::verify(zkrv::Key::of(zkrv::Program::from_file(kPrograms + "/quicksort.elf")), p->bytes);
    ASSERT_FALSE(other.ok());
    EXPECT_EQ(other.rejection->check, "program_digest");
  }
  std::vector<uint8_t> cut = key.bytes();
  cut.pop_back();
  EXPECT_EQ(code_of([&] { zkrv::Key::from_bytes(cut); }), zkrv::ErrorCode::kBadKey);
  EXPECT_EQ(code_of([&] { zkrv::Key::from_bytes(proof().bytes); }), zkrv::ErrorCode::kBadKey);
  EXPECT_EQ(code_of([&] { zkrv::Key::from_file(kPrograms + "/no such file.vk"); }), zkrv::ErrorCode::kIo);
}

TEST(Api, TheSameBytesWhicheverWayTheyAreTaken) {
  std::vector<uint8_t> streamed;
  size_t pieces = 0;
  zkrv::ProveOptions o;
  o.threads = 1;
  const zkrv::ProveReport r = zkrv::prove_to(fibonacci(), fibonacci_input(), o, [&](std::span<const uint8_t> b) {
    streamed.insert(streamed.end(), b.begin(), b.end());
    ++pieces;
  });
  EXPECT_EQ(streamed, proof().bytes);  // another thread count, the same proof
  EXPECT_EQ(r.proof_bytes, streamed.size());
  o.prover = zkrv::ProveOptions::Prover::kReference;
  EXPECT_EQ(zkrv::prove(fibonacci(), fibonacci_input(), o).bytes, proof().bytes);
}

TEST(Api, VerdictsNameWhatFailed) {
  const auto& bytes = proof().bytes;
  using Stage = zkrv::Rejection::Stage;
  const zkrv::Verdict code = zkrv::verify(fibonacci(), bytes, zkrv::Expected(1));
  ASSERT_FALSE(code.ok());
  EXPECT_EQ(code.rejection->stage, Stage::kStatement);
  EXPECT_EQ(code.rejection->check, "exit_code");

  const zkrv::Verdict output = zkrv::verify(fibonacci(), bytes, zkrv::Expected(0, std::vector<uint8_t>{'x'}));
  ASSERT_FALSE(output.ok());
  EXPECT_EQ(output.rejection->stage, Stage::kStatement);

  const zkrv::Verdict other = zkrv::verify(zkrv::Program::from_file(kPrograms + "/quicksort.elf"), bytes);
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.rejection->check, "program_digest");

  std::vector<uint8_t> flipped = bytes;
  flipped[flipped.size() / 2] ^= 1;
  EXPECT_FALSE(zkrv::verify(fibonacci(), flipped).ok());

  for (size_t n : {size_t{0}, size_t{3}, bytes.size() / 3, bytes.size() - 1}) {
    const zkrv::Verdict cut = zkrv::verify(fibonacci(), std::span(bytes).first(n));
    ASSERT_FALSE(cut.ok());
    EXPECT_EQ(cut.rejection->stage, Stage::kMalformed);
    EXPECT_FALSE(cut.statement);
  }
  std::vector<uint8_t> longer = bytes;
  longer.push_back(0);
  EXPECT_EQ(zkrv::verify(fibonacci(), longer).rejection->stage, Stage::kMalformed);

  // The caller's policy: more bits than the proof has is a security rejection with the figures.
  const zkrv::Verdict strict = zkrv::verify(fibonacci(), bytes, {}, {zkrv::Policy::Measure::kProvable, 110});
  ASSERT_FALSE(strict.ok());
  EXPECT_EQ(strict.rejection->stage, Stage::kSecurity);
  EXPECT_TRUE(strict.security_computed);
  EXPECT_EQ(strict.provable_bits, proof().report.provable_bits);
  EXPECT_EQ(code_of([&] { zkrv::verify(fibonacci(), bytes, {}, {zkrv::Policy::Measure::kProvable, 200}); }),
            zkrv::ErrorCode::kInvalidArgument);
  EXPECT_EQ(code_of([&] { zkrv::verify(fibonacci(), bytes, {}, {zkrv::Policy::Measure::kProvable, -1}); }),
            zkrv::ErrorCode::kInvalidArgument);
}

TEST(Api, BundlesOfSegments) {
  const zkrv::Proof& b = bundle();
  EXPECT_TRUE(b.report.statement.bundle);
  EXPECT_EQ(b.report.statement.segments, (b.report.cycles + 1023) / 1024);
  EXPECT_EQ(b.report.statement.log_segment_cycles, 10u);
  const zkrv::Verdict v = zkrv::verify(fibonacci(), b.bytes);
  ASSERT_TRUE(v.ok()) << v.rejection->what;
  EXPECT_TRUE(v.statement->bundle);
  EXPECT_EQ(v.statement->output, proof().report.statement.output);
  std::vector<uint8_t> flipped = b.bytes;
  flipped[flipped.size() - 100] ^= 1;
  EXPECT_FALSE(zkrv::verify(fibonacci(), flipped).ok());
  const zkrv::Verdict capped = zkrv::verify(fibonacci(), b.bytes, zkrv::Expected(0, std::nullopt, 1024));
  ASSERT_FALSE(capped.ok());
}

TEST(Api, ProveThrowsWhenItHasNoProofToGive) {
  size_t written = 0;
  const auto count = [&](std::span<const uint8_t> b) { written += b.size(); };
  {
    zkrv::ProveOptions o;
    try {
      zkrv::prove_to(zkrv::Program::from_file(kPrograms + "/fail_misaligned_jump.elf"), {}, o, count);
      ADD_FAILURE() << "proved a faulting run";
    } catch (const zkrv::Error& e) {
      EXPECT_EQ(e.code(), zkrv::ErrorCode::kGuestFault);
      ASSERT_TRUE(e.fault());
      EXPECT_EQ(e.fault()->kind, zkrv::FaultKind::kMisalignedJump);
    }
  }
  zkrv::ProveOptions small;
  small.max_memory = 1e6;  // refused before the work
  EXPECT_EQ(code_of([&] { zkrv::prove_to(fibonacci(), fibonacci_input(), small, count); }), zkrv::ErrorCode::kOutOfMemory);
  small.segment_cycles = 1024;
  EXPECT_EQ(code_of([&] { zkrv::prove_to(fibonacci(), fibonacci_input(), small, count); }), zkrv::ErrorCode::kOutOfMemory);
  zkrv::ProveOptions odd;
  odd.segment_cycles = 1000;
  EXPECT_EQ(code_of([&] { zkrv::prove_to(fibonacci(), fibonacci_input(), odd, count); }), zkrv::ErrorCode::kInvalidArgument);
  odd.segment_cycles = 1 << 20;
  odd.backend = zkrv::ProveOptions::Backend::kGpu;
  odd.prover = zkrv::ProveOptions::Prover::kReference;
  EXPECT_EQ(code_of([&] { zkrv::prove_to(fibonacci(), fibonacci_input(), odd, count); }), zkrv::ErrorCode::kInvalidArgument);
  EXPECT_EQ(written, 0u);
}

TEST(Api, CancelledAtAStageEndWritingNothing) {
  for (const std::string at : {"", "execute", "commit", "quotient", "queries", "commit 2/3", "prove 1/3"}) {
    std::stop_source stop;
    zkrv::ProveOptions o;
    if (at.find('/') != std::string::npos) o.segment_cycles = 1024;
    o.stop = stop.get_token();
    if (at.empty()) stop.request_stop();
    o.progress = [&](const zkrv::Progress& p) {
      if (p.kind == zkrv::Progress::Kind::kStage && p.text == at) stop.request_stop();
    };
    size_t written = 0;
    EXPECT_EQ(code_of([&] {
                zkrv::prove_to(fibonacci(), fibonacci_input(), o, [&](std::span<const uint8_t> b) { written += b.size(); });
              }),
              zkrv::ErrorCode::kCancelled)
        << at;
    // A bundle's head is written once the main roots are committed; a single proof only at the end.
    if (o.segment_cycles != 1024) {
      EXPECT_EQ(written, 0u) << at;
    }
  }
}

TEST(Api, ProgressNamesTheStages) {
  std::vector<std::string> stages, notes;
  zkrv::ProveOptions o;
  o.progress = [&](const zkrv::Progress& p) {
    if (p.kind == zkrv::Progress::Kind::kStage) {
      stages.push_back(p.text);
      EXPECT_GE(p.seconds, 0);
    }
    if (p.kind == zkrv::Progress::Kind::kNote) notes.push_back(p.text);
  };
  const zkrv::Proof p = zkrv::prove(fibonacci(), fibonacci_input(), o);
  EXPECT_EQ(p.bytes, proof().bytes);
  for (const char* s : {"execute", "check", "commit", "logup", "quotient", "fri", "queries"})
    EXPECT_NE(std::find(stages.begin(), stages.end(), s), stages.end()) << s;
  ASSERT_FALSE(notes.empty());
  EXPECT_NE(notes[0].find("proving needs about"), std::string::npos) << notes[0];
  EXPECT_GT(p.report.estimated_bytes, 0);
}

}  // namespace
