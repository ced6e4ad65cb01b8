// `zkrv run` as a user meets it: outputs, exit codes, and one clear error line for bad input.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>

#include <nlohmann/json.hpp>

#include "spec/stark.h"
#include "tests/support/elf_builder.h"
#include "tools/zkrv/exit_codes.h"

namespace zkrv {
namespace {

namespace fs = std::filesystem;

struct CliRun {
  int code;
  std::string out, err;
};

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("zkrv-cli-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string file(const std::string& name, const std::vector<uint8_t>& bytes) {
    const auto p = dir_ / name;
    std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    return p.string();
  }
  CliRun zkrv(const std::string& args) {
    const auto out = dir_ / "stdout", err = dir_ / "stderr";
    const std::string cmd = std::string(ZKRV_BIN) + " " + args + " >" + out.string() + " 2>" + err.string() + " </dev/null";
    const int status = std::system(cmd.c_str());
    auto slurp = [](const fs::path& p) { std::stringstream ss; ss << std::ifstream(p).rdbuf(); return ss.str(); };
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
  }
  // A bash script (pipes, <(cmd), redirections) with $Z the zkrv binary, run in the test's folder.
  CliRun bash(const std::string& script) {
    const auto sh = dir_ / "script.sh", out = dir_ / "stdout", err = dir_ / "stderr";
    std::ofstream(sh) << "cd '" << dir_.string() << "' && Z='" << ZKRV_BIN << "'\n" << script << "\n";
    const std::string cmd = "bash " + sh.string() + " >" + out.string() + " 2>" + err.string() + " </dev/null";
    const int status = std::system(cmd.c_str());
    auto slurp = [](const fs::path& p) { std::stringstream ss; ss << std::ifstream(p, std::ios::binary).rdbuf(); return ss.str(); };
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
  }
  fs::path dir_;
};

int lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

TEST_F(Cli, RunsAProgramAndReturnsItsExitCode) {
  using namespace testing::rv;
  // write(1, "hi", 2) from data; exit(42)
  auto elf = file("p.elf", testing::simple_elf({lui(11, 0x20), addi(10, 0, 1), addi(12, 0, 2), addi(17, 0, 64), ecall(),
                                                addi(10, 0, 42), addi(17, 0, 93), ecall()}, {'h', 'i'}));
  auto r = zkrv("run " + elf);
  EXPECT_EQ(r.code, 42);
  EXPECT_EQ(r.out, "hi");
  auto s = zkrv("run " + elf + " --stats");
  EXPECT_NE(s.err.find("cycles:              8"), std::string::npos) << s.err;
  EXPECT_NE(s.err.find("cost C"), std::string::npos);
  auto j = zkrv("run " + elf + " --json");
  EXPECT_NE(j.out.find("\"status\":\"exited\",\"exit_code\":42,\"cycles\":8"), std::string::npos) << j.out;
  EXPECT_NE(j.out.find("\"output_hex\":\"6869\""), std::string::npos) << j.out;
  auto o = zkrv("run " + elf + " --output " + (dir_ / "out.bin").string());
  EXPECT_EQ(o.out, "");
  std::stringstream ss;
  ss << std::ifstream(dir_ / "out.bin").rdbuf();
  EXPECT_EQ(ss.str(), "hi");
}

TEST_F(Cli, FaultsHaveDistinctCodesAndOneLine) {
  using namespace testing::rv;
  auto elf = file("f.elf", testing::simple_elf({ld(10, 0, 8)}));
  auto r = zkrv("run " + elf);
  EXPECT_EQ(r.code, cli::fault_exit_code(spec::FaultKind::kLoad));
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("load fault at pc 0x10000 (ld a0, 8(zero))"), std::string::npos) << r.err;
  auto c = zkrv("run " + file("loop.elf", testing::simple_elf({b(0, 0, 0, 0)})) + " --max-cycles 1000");
  EXPECT_EQ(c.code, cli::fault_exit_code(spec::FaultKind::kCycleLimit));
  EXPECT_NE(c.err.find("after 1000 cycles"), std::string::npos) << c.err;
}

// zkrv run --segment-cycles: how a proof would cut the run (protocol:segments:cut).
TEST_F(Cli, RunPrintsHowARunIsCut) {
  using namespace testing::rv;
  std::vector<uint32_t> code = {addi(5, 0, 1500), addi(5, 5, -1), b(-4, 0, 5, 1)};  // 3,001 cycles
  for (uint32_t w : exit_with(7)) code.push_back(w);
  const auto elf = file("spin.elf", testing::simple_elf(code));
  auto r = zkrv("run " + elf + " --segment-cycles 1024");
  EXPECT_EQ(r.code, 7);
  EXPECT_NE(r.err.find("segments:            3 of 2^10 cycles (the last has 956)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("        2         2048      956"), std::string::npos) << r.err;
  auto j = zkrv("run " + elf + " --segment-cycles 0x800 --json");
  EXPECT_NE(j.out.find("\"segments\":{\"log_cycles\":11,\"count\":2,"), std::string::npos) << j.out;
  EXPECT_NE(j.out.find("\"per_segment\":[{\"first_cycle\":0,\"cycles\":2048,"), std::string::npos) << j.out;
  for (const std::string bad : {"1000", "512", "4194304", "-1024", "2k"}) {
    auto u = zkrv("run " + elf + " --segment-cycles " + bad);
    EXPECT_EQ(u.code, cli::kUsage) << bad;
    EXPECT_NE(u.err.find("is not a power of two from 1024 to 2097152"), std::string::npos) << u.err;
  }
  // zkrv check against the segment AIR: every segment holds, every bus balances across them
  auto c = zkrv("check -q " + elf + " --segment-cycles 1024");
  EXPECT_EQ(c.code, 0) << c.err;
  EXPECT_EQ(c.out, "3 segments of 2^10 cycles: every segment's constraints hold and every bus balances\n") << c.err;
  EXPECT_EQ(zkrv("check " + elf + " --segment-cycles 1024 --spec " + dir_.string()).code, cli::kUsage);
  // a run that faults is not cut: the one fault line, nothing else
  auto f = zkrv("run " + elf + " --segment-cycles 1024 --max-cycles 2000");
  EXPECT_EQ(f.code, cli::fault_exit_code(spec::FaultKind::kCycleLimit));
  EXPECT_EQ(lines(f.err), 1) << f.err;
}

TEST_F(Cli, BadInputIsOneClearLine) {
  auto missing = zkrv("run " + (dir_ / "nope.elf").string());
  EXPECT_EQ(missing.code, cli::kIoError);
  EXPECT_EQ(lines(missing.err), 1);
  EXPECT_NE(missing.err.find("no such file"), std::string::npos) << missing.err;

  auto garbage = zkrv("run " + file("g.elf", {1, 2, 3}));
  EXPECT_EQ(garbage.code, cli::kBadInput);
  EXPECT_EQ(lines(garbage.err), 1);
  EXPECT_NE(garbage.err.find("isa:elf:magic"), std::string::npos) << garbage.err;

  auto dir = zkrv("run " + dir_.string());
  EXPECT_EQ(dir.code, cli::kIoError);
  EXPECT_EQ(lines(dir.err), 1) << dir.err;
  EXPECT_EQ(dir.err.rfind("zkrv: error: ", 0), 0u) << dir.err;
  EXPECT_NE(dir.err.find(dir_.string()), std::string::npos) << dir.err;

  using namespace testing::rv;
  auto elf = file("p.elf", testing::simple_elf(exit_with(0)));
  auto big = zkrv("run " + elf + " --input " + file("in", std::vector<uint8_t>(100)) + " --max-input-bytes 10");
  EXPECT_EQ(big.code, cli::kBadInput);
  EXPECT_NE(big.err.find("limit is 10"), std::string::npos) << big.err;

  auto unwritable = zkrv("run " + elf + " --output /nonexistent-dir/out");
  EXPECT_EQ(unwritable.code, cli::kIoError);
  EXPECT_FALSE(fs::exists("/nonexistent-dir/out"));
}

// --input reads any stream to its end: stdin (-), a pipe, <(cmd), a FIFO, /dev/null; each gives
// what the same bytes in a file give. -o - writes stdout. Past the limit, one line as for a file.
TEST_F(Cli, InputAndOutputAreAnyStream) {
  using namespace testing::rv;
  // read(0, data, 4096) -> n; write(1, data, n); exit(n)
  const auto elf = file("echo.elf", testing::simple_elf({lui(11, 0x20), addi(10, 0, 0), lui(12, 1), addi(17, 0, 63), ecall(),
                                                         addi(12, 10, 0), addi(8, 10, 0), addi(10, 0, 1), addi(17, 0, 64),
                                                         ecall(), addi(10, 8, 0), addi(17, 0, 93), ecall()}));
  const std::string text = "any stream will do\n";
  const auto in = file("in.txt", std::vector<uint8_t>(text.begin(), text.end()));
  const auto ref = zkrv("run " + elf + " --input " + in);
  ASSERT_EQ(ref.code, static_cast<int>(text.size())) << ref.err;
  ASSERT_EQ(ref.out, text);
  ::mkfifo((dir_ / "fifo").c_str(), 0600);
  for (const std::string form : {"$Z run echo.elf --input - < in.txt", "cat in.txt | $Z run echo.elf --input -",
                                 "$Z run echo.elf --input <(cat in.txt)", "cat in.txt > fifo & $Z run echo.elf --input fifo",
                                 "$Z run echo.elf --input in.txt -o -", "$Z run echo.elf --input - -o out.txt < in.txt; c=$?; cat out.txt; exit $c"}) {
    const auto r = bash(form);
    EXPECT_EQ(r.code, ref.code) << form << ": " << r.err;
    EXPECT_EQ(r.out, ref.out) << form;
  }
  const auto null = zkrv("run " + elf + " --input /dev/null");
  EXPECT_EQ(null.code, 0) << null.err;
  EXPECT_EQ(null.out, "");
  for (const std::string big : {"head -c 100 /dev/zero | $Z run echo.elf --input - --max-input-bytes 10",
                                "$Z run echo.elf --input <(head -c 100 /dev/zero) --max-input-bytes 10"}) {
    const auto r = bash(big);
    EXPECT_EQ(r.code, cli::kBadInput) << big;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("has more than 10 bytes; the limit is 10"), std::string::npos) << r.err;
  }
  const auto both = bash("$Z run - --input - < echo.elf");
  EXPECT_EQ(both.code, cli::kUsage);
  EXPECT_NE(both.err.find("cannot both be stdin"), std::string::npos) << both.err;
  const auto folder = zkrv("run " + elf + " --input " + dir_.string());
  EXPECT_EQ(folder.code, cli::kIoError);
  EXPECT_NE(folder.err.find("it is a folder"), std::string::npos) << folder.err;
  EXPECT_EQ(bash("$Z run echo.elf --input in.txt -o - --json").code, cli::kUsage);
  // check and profile read stdin too; profile -o - is its stdout
  const auto chk = bash("$Z check -q echo.elf --input - < in.txt");
  EXPECT_EQ(chk.code, 0) << chk.err;
  const auto prof = bash("$Z profile echo.elf --input in.txt");
  ASSERT_EQ(prof.code, 0) << prof.err;
  EXPECT_EQ(bash("$Z profile echo.elf --input - -o - < in.txt").out, prof.out);
  // prove -o -: the proof's bytes on stdout, as a file gets them; the summary on stderr
  ASSERT_EQ(zkrv("prove -q " + elf + " --input " + in + " -o " + (dir_ / "file.proof").string()).code, 0);
  const auto pr = bash("$Z prove echo.elf --input - -o - < in.txt > stdout.proof");
  ASSERT_EQ(pr.code, 0) << pr.err;
  EXPECT_NE(pr.err.find("proved echo.elf"), std::string::npos) << pr.err;
  std::stringstream a, b;
  a << std::ifstream(dir_ / "file.proof", std::ios::binary).rdbuf();
  b << std::ifstream(dir_ / "stdout.proof", std::ios::binary).rdbuf();
  EXPECT_GT(a.str().size(), 1000u);
  EXPECT_EQ(a.str(), b.str());
  const auto v = bash("$Z verify <(cat stdout.proof) --program echo.elf --exit-code " + std::to_string(text.size()) +
                      " --output <(cat in.txt)");
  EXPECT_EQ(v.code, 0) << v.out << v.err;
}

// A run that stops says where and what to do: the function its pc is in, the option that raises
// the cycle limit, and a stack overflow as one, with the stack's size and STACK_SIZE.
TEST_F(Cli, AStoppedRunSaysWhereAndWhatToDo) {
  const std::string elf = std::string(ZKRV_TEST_GUESTS) + "/stack_overflow.elf";
  const auto over = zkrv("run " + elf);
  EXPECT_EQ(over.code, cli::fault_exit_code(spec::FaultKind::kStore)) << over.err;
  EXPECT_EQ(lines(over.err), 1) << over.err;
  EXPECT_NE(over.err.find("guest stack overflow: store fault at pc"), std::string::npos) << over.err;
  EXPECT_NE(over.err.find(" in descend after "), std::string::npos) << over.err;
  EXPECT_NE(over.err.find(" of 64 KiB (give the guest more: zkrv_add_guest's STACK_SIZE"), std::string::npos) << over.err;
  for (const std::string& cmd : std::vector<std::string>{"run", "check -q", "prove -q -o " + (dir_ / "x").string()}) {
    const auto r = zkrv(cmd + " " + elf + " --max-cycles 300");
    EXPECT_EQ(r.code, cli::fault_exit_code(spec::FaultKind::kCycleLimit)) << cmd << ": " << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("after 300 cycles (the limit: --max-cycles 300; raise it to run longer)"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("reached in descend after"), std::string::npos) << r.err;  // the function the pc is in
  }
  // without symbols: the fault alone, as before
  using namespace testing::rv;
  const auto bare = zkrv("run " + file("loop.elf", testing::simple_elf({b(0, 0, 0, 0)})) + " --max-cycles 50");
  EXPECT_EQ(bare.err, "zkrv: error: guest cycle limit at pc 0x10000 (beq zero, zero, 0x10000): cycle limit reached after 50 cycles "
                      "(the limit: --max-cycles 50; raise it to run longer)\n");
}

// check and prove say in --help what this machine takes (here: ZKRV_MEMORY_BYTES, 1 GB), and
// check refuses a run longer than it can hold, at that length (exit 71), instead of running out of
// memory; a lower --max-cycles is the cycle limit as before.
TEST_F(Cli, CheckAndProveSayWhatThisMachineTakes) {
  const std::string takes = "Here (ZKRV_MEMORY_BYTES is 1.0 GB): check takes runs of up to 2^18 cycles (it holds the whole "
                            "trace, about 3.5 KB a\ncycle; 2^16 with --reference, --spec or --segment-cycles); prove takes "
                            "runs of any length up to\n--max-cycles, one segment at a time, in segments of up to 2^16 "
                            "cycles (--segment-cycles).";
  for (const std::string sub : {"check", "prove"}) {
    const auto h = bash("ZKRV_MEMORY_BYTES=1e9 $Z " + sub + " --help");
    EXPECT_EQ(h.code, 0);
    EXPECT_NE(h.out.find(takes), std::string::npos) << sub << ": " << h.out;
    EXPECT_NE(zkrv(sub + " --help").out.find("check takes runs of up to 2^"), std::string::npos) << sub;
  }
  using namespace testing::rv;
  const std::string loop = file("forever.elf", testing::simple_elf({b(0, 0, 0, 0)}));
  const auto r = bash("ZKRV_MEMORY_BYTES=1e8 $Z check -q " + loop);
  EXPECT_EQ(r.code, cli::kOutOfMemory) << r.err;
  EXPECT_EQ(r.err, "zkrv: error: the run goes on past 16384 cycles, and check holds its whole trace (about 3.5 KB a cycle): "
                   "ZKRV_MEMORY_BYTES is 0.1 GB, room for 2^14 cycles; zkrv prove takes runs of any length\n");
  const auto ref = bash("ZKRV_MEMORY_BYTES=1e8 $Z check -q --reference " + loop);
  EXPECT_EQ(ref.code, cli::kOutOfMemory) << ref.err;
  EXPECT_NE(ref.err.find("the run goes on past 4096 cycles"), std::string::npos) << ref.err;
  const auto lower = bash("ZKRV_MEMORY_BYTES=1e8 $Z check -q --max-cycles 1000 " + loop);
  EXPECT_EQ(lower.code, cli::fault_exit_code(spec::FaultKind::kCycleLimit)) << lower.err;
}

// profile reads the DWARF: inlined frames in folded stacks; --no-dwarf and an ELF without DWARF
// (stripped with llvm-objcopy --strip-debug: one warning line) give the profile by symbols.
TEST_F(Cli, ProfileShowsInlinedFramesFromDwarf) {
  const std::string elf = std::string(ZKRV_TEST_GUESTS) + "/profile_inline.elf";
  const auto dwarf = zkrv("profile " + elf + " --format folded");
  ASSERT_EQ(dwarf.code, 0) << dwarf.err;
  EXPECT_NE(dwarf.out.find(";main;checksum;step_[i];mix_[i] "), std::string::npos) << dwarf.out;
  EXPECT_EQ(dwarf.err.find("warning"), std::string::npos) << dwarf.err;
  const auto plain = zkrv("profile " + elf + " --format folded --no-dwarf");
  ASSERT_EQ(plain.code, 0) << plain.err;
  EXPECT_EQ(plain.out.find("_[i]"), std::string::npos) << plain.out;
  EXPECT_NE(plain.out.find(";main;checksum "), std::string::npos) << plain.out;
  const auto stripped = bash(std::string(ZKRV_LLVM_OBJCOPY) + " --strip-debug " + elf + " nodebug.elf && $Z profile nodebug.elf --format folded");
  ASSERT_EQ(stripped.code, 0) << stripped.err;
  EXPECT_EQ(stripped.out, plain.out);
  EXPECT_NE(stripped.err.find("warning: nodebug.elf: no DWARF"), std::string::npos) << stripped.err;
}

TEST_F(Cli, BadOptionsAreUsageErrors) {
  auto r = zkrv("run");
  EXPECT_EQ(r.code, cli::kUsage);
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_EQ(zkrv("run x.elf --max-cycles 0").code, cli::kUsage);
  EXPECT_EQ(zkrv("run x.elf --executor turbo").code, cli::kUsage);
  EXPECT_EQ(zkrv("frobnicate").code, cli::kUsage);
  EXPECT_EQ(zkrv("--help").code, 0);
  EXPECT_EQ(zkrv("run --help").code, 0);
  auto v = zkrv("--version");
  EXPECT_EQ(v.code, 0);
  EXPECT_NE(v.out.find("zkrv "), std::string::npos);
}

// Integer options are whole numbers in a stated range: no silent wrap-around of -1, no
// overflow past 2^64 - 1, and the range in the message in plain numbers.
TEST_F(Cli, IntegerOptionsAreParsedStrictly) {
  using namespace testing::rv;
  auto elf = file("p.elf", testing::simple_elf(exit_with(3)));
  auto zero = zkrv("run " + elf + " --max-cycles 0");
  EXPECT_EQ(zero.code, cli::kUsage);
  EXPECT_EQ(lines(zero.err), 1) << zero.err;
  EXPECT_NE(zero.err.find("--max-cycles: '0' is not a whole number from 1 to 18446744073709551615"), std::string::npos)
      << zero.err;
  EXPECT_EQ(zero.err.find(".000000"), std::string::npos) << zero.err;
  for (const std::string bad : {"--max-cycles 18446744073709551616", "--max-cycles -5", "--max-cycles 1e6",
                                "--max-cycles 12abc", "--max-cycles 0x", "--random-seed -1", "--max-input-bytes -1",
                                "--max-input-bytes 99999999999999999999"}) {
    auto r = zkrv("run " + elf + " " + bad);
    EXPECT_EQ(r.code, cli::kUsage) << bad;
    EXPECT_EQ(lines(r.err), 1) << bad << ": " << r.err;
  }
  EXPECT_EQ(zkrv("run " + elf + " --max-cycles 18446744073709551615").code, 3);
  EXPECT_EQ(zkrv("run " + elf + " --max-cycles 0x10").code, 3);
  // a leading zero is decimal, not octal: 010 cycles are 10, enough for the 3 instructions
  EXPECT_EQ(zkrv("run " + elf + " --max-cycles 010").code, 3);
  EXPECT_EQ(zkrv("run " + elf + " --max-cycles 2").code, cli::fault_exit_code(spec::FaultKind::kCycleLimit));
  // the same options on every subcommand that runs a guest, and --output for every output file
  EXPECT_EQ(zkrv("profile --random-seed 1 " + elf).code, 0);
  EXPECT_EQ(zkrv("profile " + elf + " --random-seed -1").code, cli::kUsage);
  EXPECT_EQ(zkrv("profile " + elf + " --sample-rate 0 --format firefox").code, cli::kUsage);
  EXPECT_EQ(zkrv("check " + elf + " --random-seed 18446744073709551616").code, cli::kUsage);
  EXPECT_EQ(zkrv("verify x.proof --program " + elf + " --exit-code 4294967296").code, cli::kUsage);
  EXPECT_EQ(zkrv("verify x.proof --program " + elf + " --min-provable-bits -3").code, cli::kUsage);
  EXPECT_EQ(zkrv("verify x.proof --program " + elf + " --min-provable-bits 129").code, cli::kUsage);
  EXPECT_EQ(zkrv("verify x.proof --program " + elf + " --security none").code, cli::kUsage);
  EXPECT_EQ(zkrv("security --log-max 15").code, cli::kUsage);
  EXPECT_EQ(zkrv("security --log-max 25").code, cli::kUsage);
  EXPECT_EQ(zkrv("security --log-max 16").code, 0);
  EXPECT_EQ(zkrv("verify x.proof --program " + elf + " --security conjectured --min-provable-bits 90").code,
            cli::kUsage);
  EXPECT_EQ(zkrv("profile " + elf + " --output " + (dir_ / "prof.txt").string()).code, 0);
  EXPECT_TRUE(fs::exists(dir_ / "prof.txt"));
  EXPECT_EQ(zkrv("profile " + elf + " --out " + (dir_ / "prof2.txt").string()).code, 0);
  EXPECT_TRUE(fs::exists(dir_ / "prof2.txt"));
}

// One table of exit codes, in `zkrv --help`, made from the constants the subcommands return.
TEST_F(Cli, TopLevelHelpListsEveryExitCode) {
  auto h = zkrv("--help");
  ASSERT_EQ(h.code, 0);
  EXPECT_NE(h.out.find("Exit codes (every subcommand):"), std::string::npos) << h.out;
  for (int code : {cli::kFailed, cli::kUsage, cli::kBadInput, cli::kIoError, cli::kInternal, cli::kOutOfMemory})
    EXPECT_NE(h.out.find("\n  " + std::to_string(code) + " "), std::string::npos) << code << "\n" << h.out;
  for (int k = 1; k <= static_cast<int>(spec::FaultKind::kCycleLimit); ++k) {
    const auto kind = static_cast<spec::FaultKind>(k);
    EXPECT_NE(h.out.find(std::to_string(cli::fault_exit_code(kind)) + " " + std::string(spec::fault_name(kind))),
              std::string::npos) << k;
  }
  for (const std::string sub : {"run", "profile", "check", "prove", "verify"}) {
    auto s = zkrv(sub + " --help");
    EXPECT_EQ(s.code, 0) << sub;
    EXPECT_NE(s.out.find("the table: zkrv --help"), std::string::npos) << sub << ":\n" << s.out;
  }
}

// Running out of memory is its own exit code (not 66, "file missing"), one error line. The
// executors reserve the guest's address space, so a 300 MB address-space limit is always short.
TEST_F(Cli, OutOfMemoryIsItsOwnExitCode) {
  using namespace testing::rv;
  auto elf = file("p.elf", testing::simple_elf(exit_with(0)));
  const std::string cmd = "sh -c \"ulimit -v 300000; " + std::string(ZKRV_BIN) + " check " + elf + "\"";
  const auto out = dir_ / "oom.err";
  const int status = std::system((cmd + " 2>" + out.string() + " >/dev/null").c_str());
  std::stringstream err;
  err << std::ifstream(out).rdbuf();
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), cli::kOutOfMemory) << err.str();
  const std::string e = err.str();
  EXPECT_EQ(e.substr(e.rfind("zkrv: ", e.size() - 2)), "zkrv: error: out of memory\n") << e;
}

// zkrv prove --spans: every stage as a span in the Perfetto trace with per-table spans inside,
// an RSS counter and the live buffers at each stage's end; the summary's stages with their
// peaks, and little dark time. The proof is the same as without --spans.
TEST_F(Cli, ProveSpansShowEveryStageAndItsMemory) {
  using namespace testing::rv;
  auto elf = file("p.elf", testing::simple_elf({lui(11, 0x20), addi(10, 0, 1), addi(12, 0, 2), addi(17, 0, 64), ecall(),
                                                addi(10, 0, 0), addi(17, 0, 93), ecall()}, {'h', 'i'}));
  auto read = [](const fs::path& p) { std::stringstream ss; ss << std::ifstream(p, std::ios::binary).rdbuf(); return ss.str(); };
  const auto spans = dir_ / "spans";
  fs::create_directories(spans);
  const auto with = zkrv("prove -q " + elf + " -o " + (dir_ / "a.proof").string() + " --spans " + spans.string());
  ASSERT_EQ(with.code, 0) << with.err;
  const auto without = zkrv("prove -q " + elf + " -o " + (dir_ / "b.proof").string());
  ASSERT_EQ(without.code, 0) << without.err;
  EXPECT_EQ(read(dir_ / "a.proof"), read(dir_ / "b.proof"));
  const auto summary = nlohmann::json::parse(read(spans / "summary.json"));
  std::vector<std::string> stages;
  for (const auto& st : summary["stages"]) {
    stages.push_back(st["label"]);
    EXPECT_GT(st["peak_rss_bytes"].get<uint64_t>(), 0u) << st["label"];
  }
  EXPECT_EQ(stages, (std::vector<std::string>{"execute", "trace", "check", "commit", "logup", "quotient", "ood", "deep",
                                               "fri", "queries"}));
  EXPECT_LT(summary["dark_fraction"].get<double>(), 0.05);
  const auto trace = nlohmann::json::parse(read(spans / "trace.json"));
  bool rss = false, live = false, per_table = false;
  for (const auto& e : trace["traceEvents"]) {
    rss |= e["ph"] == "C" && e["name"] == "rss";
    live |= e["ph"] == "C" && e["name"] == "live buffers (bytes)" && e["args"].contains("unattributed") &&
            e["args"].contains("main coefficients");
    per_table |= e["ph"] == "X" && e["name"] == "logup cpu";
  }
  EXPECT_TRUE(rss && live && per_table) << rss << live << per_table;
}

// A guest that writes 1 MiB of public output in 9 cycles is checked in a few hundred MB: the
// tables are column-major and sized by what the run did (spec: issue 13's column-major traces).
TEST_F(Cli, AMebibyteOfOutputIsCheckedInLittleMemory) {
  using namespace testing::rv;
  std::vector<uint32_t> code = {lui(11, 0x20), lui(12, 0x100), addi(10, 0, 1), addi(17, 0, 64), ecall()};
  for (uint32_t w : exit_with(0)) code.push_back(w);
  std::vector<uint8_t> data(size_t{1} << 20);
  for (size_t k = 0; k < data.size(); ++k) data[k] = static_cast<uint8_t>(k * 131 + 7);
  auto elf = file("big_output.elf", testing::simple_elf(code, data, data.size()));
  const auto r = zkrv("check -q " + elf);
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("constraints on"), std::string::npos) << r.out;
  rusage u{};
  ASSERT_EQ(getrusage(RUSAGE_CHILDREN, &u), 0);
  EXPECT_LT(u.ru_maxrss, 800 * 1024) << "peak KB of zkrv check";  // the tables hold ~450 MB
  std::printf("zkrv check of 1 MiB output: peak %ld MB\n", u.ru_maxrss / 1024);
}

// Progress lines go to stderr and --quiet silences them; an error is one line beginning
// "zkrv: error:", and it is the last line.
TEST_F(Cli, ErrorsAreOneLastLine) {
  using namespace testing::rv;
  auto fault = file("f.elf", testing::simple_elf({ld(10, 0, 8)}));
  for (const std::string sub : {"check", "profile", "prove"}) {
    auto loud = zkrv(sub + " " + fault);
    EXPECT_EQ(loud.code, cli::fault_exit_code(spec::FaultKind::kLoad)) << sub;
    const size_t last = loud.err.rfind('\n', loud.err.size() - 2);
    EXPECT_EQ(loud.err.compare(last == std::string::npos ? 0 : last + 1, 13, "zkrv: error: "), 0) << sub << ":\n" << loud.err;
    auto quiet = zkrv(sub + " -q " + fault);
    EXPECT_EQ(quiet.code, loud.code) << sub;
    EXPECT_EQ(lines(quiet.err), 1) << sub << ":\n" << quiet.err;
    EXPECT_EQ(quiet.err.rfind("zkrv: error: ", 0), 0u) << sub << ":\n" << quiet.err;
    EXPECT_NE(quiet.err.find("load fault at pc 0x10000"), std::string::npos) << sub << ":\n" << quiet.err;
  }
  auto ok = zkrv("check -q " + file("p.elf", testing::simple_elf(exit_with(0))));
  EXPECT_EQ(ok.code, 0);
  EXPECT_EQ(ok.err, "");
}

TEST_F(Cli, RandomSeedReplays) {
  using namespace testing::rv;
  // a0 = random; exit(a0 & 0xff)
  auto elf = file("r.elf", testing::simple_elf({lui(17, 0x5A), ecall(), addi(17, 0, 93), ecall()}));
  EXPECT_EQ(zkrv("run " + elf + " --random-seed 5").code, zkrv("run " + elf + " --random-seed 5").code);
  EXPECT_EQ(zkrv("run " + elf + " --random-seed 5").code, static_cast<int>(spec::RandomStream{5}.next() & 0xff));
}

// zkrv check: a program that exits passes with the summary line; a faulting one is refused
// with the fault; a broken spec folder is one error line naming file:line.
TEST_F(Cli, CheckReportsTheConstraintSummary) {
  using namespace testing::rv;
  auto elf = file("c.elf", testing::simple_elf({addi(10, 0, 7), addi(17, 0, 93), ecall()}));
  auto r = zkrv("check " + elf);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("constraints on"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("tables hold;"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("buses balance"), std::string::npos) << r.out;
  auto slow = zkrv("check --reference " + elf);  // the reference evaluator: the same summary
  EXPECT_EQ(slow.code, 0) << slow.err;
  EXPECT_EQ(slow.out, r.out);
  auto f = zkrv("check " + file("f.elf", testing::simple_elf({ld(10, 0, 8)})));
  EXPECT_EQ(f.code, cli::fault_exit_code(spec::FaultKind::kLoad));
  EXPECT_NE(f.err.find("only runs that exit can be checked: guest load fault"), std::string::npos) << f.err;
  fs::create_directories(dir_ / "spec");
  std::ofstream(dir_ / "spec" / "air.md") << "```zkrv\nmax_degree 3\nbogus\n```\n";
  auto s = zkrv("check " + elf + " --spec " + (dir_ / "spec").string());
  EXPECT_EQ(s.code, cli::kBadInput);
  EXPECT_EQ(lines(s.err), 1) << s.err;
  EXPECT_NE(s.err.find("air.md:3: unknown statement 'bogus'"), std::string::npos) << s.err;
}

// zkrv prove and zkrv verify as a user meets them: the statement is the one given, and every
// bad input is one line with its documented exit code, with nothing left behind.
TEST_F(Cli, ProveAndVerifyAcceptOnlyTheGivenStatement) {
  using namespace testing::rv;
  auto elf = file("p.elf", testing::simple_elf({lui(11, 0x20), addi(10, 0, 1), addi(12, 0, 2), addi(17, 0, 64), ecall(),
                                                addi(10, 0, 42), addi(17, 0, 93), ecall()}, {'h', 'i'}));
  const std::string proof = (dir_ / "p.proof").string();
  auto p = zkrv("prove " + elf + " -o " + proof + " --security conjectured");
  ASSERT_EQ(p.code, 0) << p.err;
  EXPECT_NE(p.out.find("proved"), std::string::npos) << p.out;
  EXPECT_NE(p.out.find("exit code 42, 2 output bytes"), std::string::npos) << p.out;
  EXPECT_NE(p.err.find("zkrv: quotient"), std::string::npos) << p.err;  // one line per stage
  ASSERT_TRUE(fs::exists(proof));
  // the reference prover writes the same bytes
  const std::string ref_proof = (dir_ / "p-ref.proof").string();
  auto pr = zkrv("prove " + elf + " -o " + ref_proof + " --security conjectured --prover reference --quiet");
  ASSERT_EQ(pr.code, 0) << pr.err;
  auto slurp = [](const std::string& f) { std::stringstream ss; ss << std::ifstream(f, std::ios::binary).rdbuf(); return ss.str(); };
  EXPECT_EQ(slurp(ref_proof), slurp(proof));
  EXPECT_EQ(zkrv("prove " + elf + " --prover fast").code, cli::kUsage);
  auto v = zkrv("verify " + proof + " --program " + elf);  // the exit code defaults to 0
  EXPECT_EQ(v.code, 1);
  EXPECT_NE(v.out.find("rejected: statement: the proof claims exit code 42, expected 0"), std::string::npos) << v.out;
  // the proof was made with the conjectured preset: the default policy (100 provable bits)
  // rejects it at the security stage, naming the figure and the floor
  const std::string hi = file("hi", {'h', 'i'});
  auto strict = zkrv("verify " + proof + " --program " + elf + " --exit-code 42 --output " + hi);
  EXPECT_EQ(strict.code, 1);
  EXPECT_NE(strict.out.find("rejected: security: the proof's options give "), std::string::npos) << strict.out;
  EXPECT_NE(strict.out.find(" provable bits, fewer than the policy's 100"), std::string::npos) << strict.out;
  auto ok = zkrv("verify " + proof + " --program " + elf + " --exit-code 42 --output " + hi + " --security conjectured");
  EXPECT_EQ(ok.code, 0) << ok.out << ok.err;
  EXPECT_EQ(ok.out.rfind("verified: program ", 0), 0u) << ok.out;
  EXPECT_NE(ok.out.find("exit code 42, output 2 bytes"), std::string::npos) << ok.out;
  EXPECT_NE(ok.out.find("policy conjectured bits >= 100 held"), std::string::npos) << ok.out;
  // an explicit lower floor accepts it too, and says so
  auto low = zkrv("verify " + proof + " --program " + elf + " --exit-code 42 --min-provable-bits 50");
  EXPECT_EQ(low.code, 0) << low.out << low.err;
  EXPECT_NE(low.out.find("policy provable bits >= 50 held"), std::string::npos) << low.out;
  auto json = zkrv("verify " + proof + " --program " + elf + " --exit-code 42 --json");
  EXPECT_EQ(json.code, 1);
  EXPECT_EQ(json.out.rfind("{\"verified\":false,\"stage\":\"security\",\"check\":\"security_policy\"", 0), 0u)
      << json.out;
  EXPECT_NE(json.out.find("\"log_ali\":"), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("\"exit_code\":42,\"output_bytes\":2,\"output_hex\":\"6869\",\"log_heights\":["),
            std::string::npos)
      << json.out;
  EXPECT_EQ(lines(json.out), 1) << json.out;
  auto other = zkrv("verify " + proof + " --program " + elf + " --exit-code 42 --output " + file("hx", {'h', 'x'}));
  EXPECT_EQ(other.code, 1);
  EXPECT_NE(other.out.find("rejected: statement"), std::string::npos) << other.out;
  // another program
  auto elf2 = file("q.elf", testing::simple_elf({addi(10, 0, 42), addi(17, 0, 93), ecall()}));
  EXPECT_EQ(zkrv("verify " + proof + " --program " + elf2 + " --exit-code 42").code, 1);
  // the security floor
  auto weak = zkrv("verify " + proof + " --program " + elf + " --exit-code 42 --min-provable-bits 100");
  EXPECT_EQ(weak.code, 1);
  EXPECT_NE(weak.out.find("rejected: security"), std::string::npos) << weak.out;
  // malformed, truncated and missing proofs
  auto bad = zkrv("verify " + file("junk", {'n', 'o', 'p', 'e'}) + " --program " + elf);
  EXPECT_EQ(bad.code, cli::kBadInput);
  EXPECT_EQ(lines(bad.err), 1) << bad.err;
  EXPECT_NE(bad.err.find("malformed proof"), std::string::npos) << bad.err;
  auto bad_json = zkrv("verify " + file("junk2", {'n', 'o', 'p', 'e'}) + " --program " + elf + " --json");
  EXPECT_EQ(bad_json.code, cli::kBadInput);
  EXPECT_EQ(bad_json.out.rfind("{\"verified\":false,\"stage\":\"malformed\"", 0), 0u) << bad_json.out;
  std::vector<uint8_t> bytes;
  {
    std::ifstream in(proof, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  bytes.resize(bytes.size() / 2);
  auto cut = zkrv("verify " + file("cut.proof", bytes) + " --program " + elf + " --exit-code 42");
  EXPECT_EQ(cut.code, cli::kBadInput);
  EXPECT_EQ(lines(cut.err), 1) << cut.err;
  EXPECT_EQ(zkrv("verify " + (dir_ / "none.proof").string() + " --program " + elf).code, cli::kIoError);
}

// What a proof proves, read back: verify --write-output writes the proven output (only once
// verified; - puts it on stdout and the verdict on stderr), inspect prints the header without
// verifying and says so, digest prints the program digest the proof names.
TEST_F(Cli, ProofsSayWhatTheyProve) {
  using namespace testing::rv;
  auto elf = file("p.elf", testing::simple_elf({lui(11, 0x20), addi(10, 0, 1), addi(12, 0, 2), addi(17, 0, 64), ecall(),
                                                addi(10, 0, 42), addi(17, 0, 93), ecall()}, {'h', 'i'}));
  const std::string proof = (dir_ / "p.proof").string(), out = (dir_ / "proven.out").string();
  ASSERT_EQ(zkrv("prove -q " + elf + " -o " + proof + " --security conjectured").code, 0);
  const std::string verify = "verify " + proof + " --program " + elf + " --exit-code 42 --security conjectured";
  auto w = zkrv(verify + " --write-output " + out);
  ASSERT_EQ(w.code, 0) << w.err;
  EXPECT_EQ(w.out.rfind("verified: ", 0), 0u) << w.out;
  std::stringstream got;
  got << std::ifstream(out, std::ios::binary).rdbuf();
  EXPECT_EQ(got.str(), "hi");
  auto dash = zkrv(verify + " --write-output -");
  ASSERT_EQ(dash.code, 0) << dash.err;
  EXPECT_EQ(dash.out, "hi");
  EXPECT_EQ(dash.err.rfind("verified: ", 0), 0u) << dash.err;
  // a rejected proof writes nothing
  const std::string none = (dir_ / "none.out").string();
  auto rej = zkrv("verify " + proof + " --program " + elf + " --exit-code 7 --security conjectured --write-output " + none);
  EXPECT_EQ(rej.code, 1);
  EXPECT_FALSE(fs::exists(none));
  EXPECT_EQ(zkrv(verify + " --json --write-output -").code, cli::kUsage);
  // inspect: the claims and the shape, and that nothing was verified
  auto ins = zkrv("inspect " + proof);
  ASSERT_EQ(ins.code, 0) << ins.err;
  const auto digest = zkrv("digest " + elf);
  ASSERT_EQ(digest.code, 0) << digest.err;
  ASSERT_EQ(digest.out.size(), 65u) << digest.out;  // 64 hex digits and a newline
  EXPECT_NE(ins.out.find("a proof of one run (ZKRV-PRF, version " + std::to_string(spec::kStarkProofVersion) + ")"), std::string::npos) << ins.out;
  EXPECT_NE(ins.out.find("claims: program " + digest.out.substr(0, 64) + ", exit code 42, output 2 bytes"), std::string::npos) << ins.out;
  EXPECT_NE(ins.out.find("tables: alu 2^"), std::string::npos) << ins.out;  // spec order
  EXPECT_NE(ins.out.find(", cpu 2^5, "), std::string::npos) << ins.out;
  EXPECT_NE(ins.out.find("not verified"), std::string::npos) << ins.out;
  EXPECT_NE(w.out.find("program " + digest.out.substr(0, 64)), std::string::npos) << w.out;  // verify names the same digest
  // a bundle
  auto loop = file("l.elf", testing::simple_elf({addi(5, 0, 1200), addi(5, 5, -1), b(-4, 0, 5, 1), addi(10, 0, 0), addi(17, 0, 93), ecall()}));
  const std::string bundle = (dir_ / "b.proof").string();
  ASSERT_EQ(zkrv("prove -q " + loop + " -o " + bundle + " --segment-cycles 1024 --security conjectured").code, 0);
  auto bins = zkrv("inspect " + bundle);
  ASSERT_EQ(bins.code, 0) << bins.err;
  EXPECT_NE(bins.out.find("a bundle of segments (ZKRV-SEG"), std::string::npos) << bins.out;
  EXPECT_NE(bins.out.find("segments: 3 of 2^10 cycles"), std::string::npos) << bins.out;
  EXPECT_NE(bins.out.find("segment 1: alu 2^10, "), std::string::npos) << bins.out;
  EXPECT_NE(bins.out.find(", cpu 2^9, "), std::string::npos) << bins.out;  // the last segment's 404 cycles
  // malformed and missing files, and an ELF zkrv does not run
  auto bad = zkrv("inspect " + file("junk", {'n', 'o', 'p', 'e'}));
  EXPECT_EQ(bad.code, cli::kBadInput);
  EXPECT_EQ(lines(bad.err), 1) << bad.err;
  EXPECT_EQ(zkrv("inspect " + (dir_ / "missing.proof").string()).code, cli::kIoError);
  EXPECT_EQ(zkrv("digest " + file("notelf", {'n', 'o'})).code, cli::kBadInput);
}

// zkrv key writes the program's verifying key (protocol:stark:key); verify --key checks a proof
// or a bundle with it instead of the ELF, gives the same verdict, and says which program. Exactly
// one of --program and --key; a file that is not a key is a malformed input, a missing one an I/O
// error, and a key of another program rejects the proof at the statement.
TEST_F(Cli, AKeyVerifiesWithoutTheElf) {
  using namespace testing::rv;
  auto elf = file("p.elf", testing::simple_elf({addi(5, 0, 1200), addi(5, 5, -1), b(-4, 0, 5, 1), addi(10, 0, 42),
                                                addi(17, 0, 93), ecall()}));
  const std::string key = (dir_ / "p.vk").string(), proof = (dir_ / "p.proof").string(), bundle = (dir_ / "p.bundle").string();
  auto k = zkrv("key " + elf + " -o " + key);
  ASSERT_EQ(k.code, 0) << k.err;
  const auto digest = zkrv("digest " + elf);
  EXPECT_NE(k.out.find("key of program " + digest.out.substr(0, 64) + " written to " + key), std::string::npos) << k.out;
  ASSERT_EQ(zkrv("prove -q " + elf + " -o " + proof + " --security conjectured").code, 0);
  ASSERT_EQ(zkrv("prove -q " + elf + " -o " + bundle + " --security conjectured --segment-cycles 1024").code, 0);
  for (const std::string& f : {proof, bundle}) {
    auto ok = zkrv("verify " + f + " --key " + key + " --exit-code 42 --security conjectured");
    EXPECT_EQ(ok.code, 0) << ok.out << ok.err;
    EXPECT_NE(ok.out.find("verified: program " + digest.out.substr(0, 64) + ", exit code 42"), std::string::npos) << ok.out;
    EXPECT_EQ(zkrv("verify " + f + " --key " + key + " --exit-code 1 --security conjectured").code, 1);
  }
  // a key of another program
  auto other = file("o.elf", testing::simple_elf({addi(10, 0, 42), addi(17, 0, 93), ecall()}));
  const std::string other_key = (dir_ / "o.vk").string();
  ASSERT_EQ(zkrv("key " + other + " -o " + other_key).code, 0);
  auto wrong = zkrv("verify " + proof + " --key " + other_key + " --exit-code 42 --security conjectured");
  EXPECT_EQ(wrong.code, 1);
  EXPECT_NE(wrong.out.find("rejected: statement: the proof is for another program"), std::string::npos) << wrong.out;
  // usage, malformed, missing
  EXPECT_EQ(zkrv("verify " + proof + " --key " + key + " --program " + elf + " --exit-code 42").code, cli::kUsage);
  EXPECT_EQ(zkrv("verify " + proof + " --exit-code 42").code, cli::kUsage);
  EXPECT_EQ(zkrv("verify " + proof + " --key '' --exit-code 42").code, cli::kUsage);
  auto junk = zkrv("verify " + proof + " --key " + file("junk.vk", {'n', 'o', 'p', 'e'}) + " --exit-code 42");
  EXPECT_EQ(junk.code, cli::kBadInput);
  EXPECT_EQ(lines(junk.err), 1) << junk.err;
  EXPECT_NE(junk.err.find("not a zkrv verifying key"), std::string::npos) << junk.err;
  EXPECT_EQ(zkrv("verify " + proof + " --key " + (dir_ / "missing.vk").string() + " --exit-code 42").code, cli::kIoError);
  EXPECT_EQ(zkrv("key " + file("notelf", {'n', 'o'}) + " -o " + (dir_ / "n.vk").string()).code, cli::kBadInput);
  EXPECT_FALSE(fs::exists(dir_ / "n.vk"));
  EXPECT_EQ(zkrv("key " + elf + " -o " + (dir_ / "no" / "such" / "dir.vk").string()).code, cli::kIoError);
}

// A run longer than --segment-cycles is proven as a bundle of segments (spec/protocol.md §9),
// which zkrv verify tells from a proof of one run and checks as the statement given.
TEST_F(Cli, ALongRunIsProvenAsABundleOfSegments) {
  using namespace testing::rv;
  // about 2,400 cycles: a countdown, then "hi" written and exit 42
  auto elf = file("p.elf", testing::simple_elf({addi(5, 0, 1200), addi(5, 5, -1), b(-4, 0, 5, 1), lui(11, 0x20),
                                                addi(10, 0, 1), addi(12, 0, 2), addi(17, 0, 64), ecall(), addi(10, 0, 42),
                                                addi(17, 0, 93), ecall()},
                                               {'h', 'i'}));
  const std::string bundle = (dir_ / "p.bundle").string(), hi = file("hi", {'h', 'i'});
  auto p = zkrv("prove " + elf + " -o " + bundle + " --security conjectured --segment-cycles 1024");
  ASSERT_EQ(p.code, 0) << p.err;
  EXPECT_NE(p.out.find("exit code 42, 2 output bytes"), std::string::npos) << p.out;
  EXPECT_NE(p.out.find("segments: 3 of 2^10 cycles"), std::string::npos) << p.out;
  EXPECT_NE(p.err.find("zkrv: prove 3/3"), std::string::npos) << p.err;  // a line per segment
  // the reference prover writes the same bytes
  const std::string ref_bundle = (dir_ / "r.bundle").string();
  ASSERT_EQ(zkrv("prove -q " + elf + " -o " + ref_bundle + " --security conjectured --segment-cycles 1024 --prover reference")
                .code,
            0);
  auto slurp = [](const std::string& f) { std::stringstream ss; ss << std::ifstream(f, std::ios::binary).rdbuf(); return ss.str(); };
  EXPECT_EQ(slurp(ref_bundle), slurp(bundle));
  auto ok = zkrv("verify " + bundle + " --program " + elf + " --exit-code 42 --output " + hi + " --security conjectured");
  EXPECT_EQ(ok.code, 0) << ok.out << ok.err;
  EXPECT_NE(ok.out.find("exit code 42, output 2 bytes; 3 segments of 2^10 cycles"), std::string::npos) << ok.out;
  auto json = zkrv("verify " + bundle + " --program " + elf + " --exit-code 42 --security conjectured --json");
  EXPECT_EQ(json.code, 0) << json.out;
  EXPECT_NE(json.out.find("\"segments\":3,\"log_segment_cycles\":10"), std::string::npos) << json.out;
  // another statement, the default policy, a cut bundle
  auto exit0 = zkrv("verify " + bundle + " --program " + elf + " --security conjectured");
  EXPECT_EQ(exit0.code, 1);
  EXPECT_NE(exit0.out.find("rejected: statement: the proof claims exit code 42, expected 0"), std::string::npos) << exit0.out;
  auto strict = zkrv("verify " + bundle + " --program " + elf + " --exit-code 42");
  EXPECT_EQ(strict.code, 1);
  EXPECT_NE(strict.out.find("rejected: security"), std::string::npos) << strict.out;
  std::string bytes = slurp(bundle);
  bytes.resize(bytes.size() / 2);
  auto cut = zkrv("verify " + file("cut.bundle", std::vector<uint8_t>(bytes.begin(), bytes.end())) + " --program " + elf +
                  " --exit-code 42");
  EXPECT_EQ(cut.code, cli::kBadInput);
  EXPECT_EQ(lines(cut.err), 1) << cut.err;
  EXPECT_NE(cut.err.find("malformed bundle"), std::string::npos) << cut.err;
  // a run that fits one segment is one proof, as before
  auto one = zkrv("prove -q " + elf + " -o " + (dir_ / "one.proof").string() + " --security conjectured");
  ASSERT_EQ(one.code, 0) << one.err;
  EXPECT_EQ(slurp((dir_ / "one.proof").string()).rfind("ZKRV-PRF", 0), 0u);
  EXPECT_EQ(slurp(bundle).rfind("ZKRV-SEG", 0), 0u);
  EXPECT_EQ(zkrv("prove " + elf + " --segment-cycles 1000").code, cli::kUsage);  // not a power of two
}

TEST_F(Cli, ProveRefusesWhatCannotBeProvenAndLeavesNothing) {
  using namespace testing::rv;
  auto fault = file("f.elf", testing::simple_elf({ld(10, 0, 8)}));
  const auto out = dir_ / "f.proof";
  auto r = zkrv("prove " + fault + " -o " + out.string());
  EXPECT_EQ(r.code, cli::fault_exit_code(spec::FaultKind::kLoad));
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("only runs that exit can be proven"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out));
  auto loop = zkrv("prove " + file("loop.elf", testing::simple_elf({b(0, 0, 0, 0)})) + " --max-cycles 100 -o " + out.string());
  EXPECT_EQ(loop.code, cli::fault_exit_code(spec::FaultKind::kCycleLimit));
  EXPECT_FALSE(fs::exists(out));
  auto elf = file("p.elf", testing::simple_elf({addi(10, 0, 0), addi(17, 0, 93), ecall()}));
  auto usage = zkrv("prove " + elf + " --security strong");
  EXPECT_EQ(usage.code, cli::kUsage);
  EXPECT_EQ(lines(usage.err), 1) << usage.err;
  auto nowhere = zkrv("prove " + elf + " -o " + (dir_ / "no" / "such" / "dir.proof").string());
  EXPECT_EQ(nowhere.code, cli::kIoError) << nowhere.err;
  EXPECT_FALSE(fs::exists(dir_ / "no"));
  EXPECT_EQ(zkrv("prove " + (dir_ / "missing.elf").string()).code, cli::kIoError);
  auto folder = zkrv("prove " + elf + " -o " + dir_.string());  // a folder as the output, before the work
  EXPECT_EQ(folder.code, cli::kIoError) << folder.err;
  EXPECT_NE(folder.err.find("it is a folder"), std::string::npos) << folder.err;
  for (const auto& e : fs::directory_iterator(dir_))  // no temporary file left by any of them
    EXPECT_EQ(e.path().filename().string().find("tmp-zkrv"), std::string::npos) << e.path();
}

// --backend gpu proves on the CUDA backend where there is one (the same bytes as the CPU's), and
// where there is none (this build has no CUDA, or no device) it is one usage line and no file.
TEST_F(Cli, TheGpuBackendGivesTheCpuBytesOrSaysWhyNot) {
  using namespace testing::rv;
  auto elf = file("p.elf", testing::simple_elf({addi(10, 0, 7), addi(17, 0, 93), ecall()}));
  const auto cpu = dir_ / "cpu.proof", gpu = dir_ / "gpu.proof";
  ASSERT_EQ(zkrv("prove -q " + elf + " --security conjectured -o " + cpu.string()).code, 0);
  for (const std::string kind : {"gpu", "dual"}) {
    auto r = zkrv("prove -q " + elf + " --security conjectured --backend " + kind + " -o " + gpu.string());
    if (r.code == 0) {
      std::stringstream a, b;
      a << std::ifstream(cpu, std::ios::binary).rdbuf();
      b << std::ifstream(gpu, std::ios::binary).rdbuf();
      EXPECT_EQ(a.str(), b.str()) << kind;
      fs::remove(gpu);
    } else {
      EXPECT_EQ(r.code, cli::kUsage) << r.err;
      EXPECT_EQ(lines(r.err), 1) << r.err;
      EXPECT_NE(r.err.find("--backend " + kind + ": "), std::string::npos) << r.err;
      EXPECT_FALSE(fs::exists(gpu));
    }
  }
  auto ref = zkrv("prove -q " + elf + " --prover reference --backend gpu -o " + gpu.string());
  EXPECT_EQ(ref.code, cli::kUsage) << ref.err;
  EXPECT_FALSE(fs::exists(gpu));
}

}  // namespace
}  // namespace zkrv
