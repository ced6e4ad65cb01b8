// zkrv-prove-mpi under Open MPI's mpirun (spec/protocol.md, protocol:segments:peers), run here as
// root and off the network: the bundle of 2 and 4 ranks is `zkrv prove`'s, byte for byte; the
// ranks exchange the bytes the README's model counts; and a rank that is killed, given a bad ELF,
// another input or too little memory, or a wrong option or a missing program, fails the whole
// job within seconds, names the rank, and leaves no bundle. Without MPI (not installed, or
// -DZKRV_MPI=OFF) every test skips, saying so.
//
// By default two guests; ZKRV_MPI_GUESTS=all proves every example guest that exits, the long
// ones on shorter inputs (mpi.guests.long, label long).
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "api/peers.h"
#include "core/air/layout.h"
#include "spec/air/embedded.h"
#include "spec/bundle.h"
#include "tests/support/guest_list.h"
#include "tools/common/files.h"

namespace zkrv {
namespace {

namespace fs = std::filesystem;

const std::string kMpirun = ZKRV_MPIRUN, kProveMpi = ZKRV_PROVE_MPI, kZkrv = ZKRV_ZKRV;
const std::string kGuests = ZKRV_GUEST_PROGRAMS_DIR, kSources = std::string(ZKRV_SOURCE_DIR) + "/guest/programs/";

#define SKIP_WITHOUT_MPI()                                                                                         \
  if (kMpirun.empty() || kProveMpi.empty())                                                                        \
  GTEST_SKIP() << "MPI is not in this build (Debian's libopenmpi-dev and openmpi-bin, found by CMake's FindMPI; " \
                  "-DZKRV_MPI=OFF, the sanitizer builds): zkrv-prove-mpi is not built"

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// mpirun as root, on this machine only: shared memory between the ranks (self, vader), the
// launcher on the loopback interface, more ranks than cores allowed.
std::string mpirun(unsigned ranks) {
  return "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader "
         "OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_oob_tcp_if_include=lo " +
         quote(kMpirun) + " --oversubscribe -np " + std::to_string(ranks) + " ";
}

struct Ran {
  int code = -1;  // the exit status, or -1 when it did not exit
  std::string out, err;
  double seconds = 0;
};

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

class Dir {
 public:
  Dir() {
    char tmpl[] = "/tmp/zkrv-mpi-test-XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~Dir() { fs::remove_all(path); }
  fs::path path;
};

// Runs a shell command, its stdout and stderr to files in `dir`.
Ran run(const std::string& cmd, const Dir& dir) {
  const auto t0 = std::chrono::steady_clock::now();
  const int st = std::system((cmd + " >" + quote((dir.path / "out").string()) + " 2>" + quote((dir.path / "err").string())).c_str());
  Ran r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r.out = slurp(dir.path / "out"), r.err = slurp(dir.path / "err");
  return r;
}

// A guest and its run (tests/support/guest_list.h): the input file it is given, the segment size,
// and whether the run is long enough to be a bundle (under 1,024 cycles it is one proof, which
// rank 0 proves alone).
struct Guest : test::GuestRun {
  std::string elf() const { return kGuests + "/" + name + ".elf"; }
  std::string input_args() const { return input.empty() ? "" : " --input " + quote(input); }
};

#ifdef ZKRV_TEST_STDCXX_GUESTS
constexpr bool kStdcxx = true;
#else
constexpr bool kStdcxx = false;
#endif

// By default two guests; ZKRV_MPI_GUESTS=all: every example guest that exits.
bool every_guest() {
  const char* all = std::getenv("ZKRV_MPI_GUESTS");
  return all && std::string(all) == "all";
}
std::vector<Guest> guests(const fs::path& dir) {
  std::vector<Guest> out;
  if (every_guest()) {
    if (!kStdcxx) std::printf("the C++ standard library's guests are not built here (scripts/setup.sh builds it)\n");
    for (const test::GuestRun& g : test::exiting_guests(kSources, dir, kStdcxx)) out.push_back({g});
    return out;
  }
  for (auto [name, log, input] : {std::tuple{"fibonacci", 10u, kSources + "fibonacci.input"}, {"zero_init", 12u, ""}}) {
    Guest g;
    g.name = name, g.log_segment = log, g.input = input;
    out.push_back(g);
  }
  return out;
}

std::string prove_args(const std::string& elf, const std::string& input_args, unsigned log_segment, const fs::path& out) {
  return quote(elf) + input_args + " --segment-cycles " + std::to_string(1u << log_segment) + " --threads 1 -q -o " +
         quote(out.string());
}

// spec: protocol:segments:peers — 2 and 4 ranks write the bundle of one process.
TEST(Mpi, TwoAndFourRanksWriteTheBundleOfOneProcess) {
  SKIP_WITHOUT_MPI();
  const Dir inputs;
  const std::vector<Guest> list = guests(inputs.path);
  ASSERT_GE(list.size(), every_guest() ? (kStdcxx ? 27u : 20u) : 2u) << "the example guests' lists were not read";
  for (const Guest& g : list) {
    SCOPED_TRACE(g.name);
    Dir d;
    const Ran alone = run(quote(kZkrv) + " prove " + prove_args(g.elf(), g.input_args(), g.log_segment, d.path / "alone"), d);
    ASSERT_EQ(alone.code, 0) << alone.err;
    const std::string expected = slurp(d.path / "alone");
    ASSERT_EQ(spec::is_bundle(std::vector<uint8_t>(expected.begin(), expected.end())), g.bundle)
        << (g.bundle ? "one proof, not several segments" : "a bundle, not the one proof of a short run");
    for (unsigned ranks : {2u, 4u}) {
      const fs::path out = d.path / ("ranks" + std::to_string(ranks));
      const Ran r = run(mpirun(ranks) + quote(kProveMpi) + " " + prove_args(g.elf(), g.input_args(), g.log_segment, out), d);
      ASSERT_EQ(r.code, 0) << ranks << " ranks: " << r.err;
      EXPECT_TRUE(slurp(out) == expected) << ranks << " ranks: the bundle differs from one process's";
      std::printf("%s: %u ranks, %.1f s\n", g.name.c_str(), ranks, r.seconds);
    }
  }
}

// The bytes each of 4 ranks sent and received (zkrv-prove-mpi --exchange-json, counted by its
// MPI exchange) are the model's (api/peers.h, README.md "Proving across machines").
TEST(Mpi, FourRanksExchangeTheModelsBytes) {
  SKIP_WITHOUT_MPI();
  const unsigned ranks = 4;
  Dir d2;
  std::ofstream(d2.path / "in") << "3000";  // about 30,000 cycles: 8 segments of 2^12
  const Ran ran = run(mpirun(ranks) + quote(kProveMpi) + " " +
                          prove_args(kGuests + "/bench_loop.elf", " --input " + quote((d2.path / "in").string()), 12,
                                     d2.path / "b") + " --exchange-json",
                      d2);
  ASSERT_EQ(ran.code, 0) << ran.err;
  const std::string bytes = slurp(d2.path / "b");
  const auto bundle = spec::decode_bundle(std::vector<uint8_t>(bytes.begin(), bytes.end()));
  ASSERT_TRUE(bundle.proof);
  const size_t n = bundle.proof->segments.size(), T = core::air_layout(spec::air::Mode::kSegmented).tables.size();
  ASSERT_EQ(n, 8u);
  const uint64_t per_segment = api::commitment_bytes(T) + api::sums_bytes(T);
  std::vector<uint64_t> sent(ranks, UINT64_MAX), received(ranks, UINT64_MAX);
  std::istringstream lines(ran.out);
  for (std::string line; std::getline(lines, line);) {
    unsigned rank = 0, of = 0;
    unsigned long long s = 0, rcv = 0;
    if (std::sscanf(line.c_str(), "{\"rank\":%u,\"ranks\":%u,\"sent_bytes\":%llu,\"received_bytes\":%llu", &rank, &of, &s, &rcv) == 4 &&
        rank < ranks)
      sent[rank] = s, received[rank] = rcv;
  }
  uint64_t to_root = 0;
  for (unsigned k = 0; k < ranks; ++k) {
    const api::Block b = api::block_of(n, k, ranks);
    uint64_t bodies = 0;
    for (size_t s = b.first; s < b.last; ++s) bodies += spec::encode_segment_body(bundle.proof->segments[s]).size();
    EXPECT_EQ(sent[k], (api::kRankBytes + b.size() * per_segment) * (ranks - 1) + (k > 0 ? bodies : 0)) << "rank " << k;
    if (k > 0) {
      EXPECT_EQ(received[k], api::kRankBytes * (ranks - 1) + (n - b.size()) * per_segment) << "rank " << k;
      to_root += bodies;
    }
  }
  EXPECT_EQ(received[0], api::kRankBytes * (ranks - 1) + (n - api::block_of(n, 0, ranks).size()) * per_segment + to_root);
}

// The pid of the zkrv-prove-mpi process that is MPI rank `rank` of the job whose command line
// holds `marker` (this test's own folder: ctest runs other MPI jobs beside it), or 0.
pid_t rank_pid(unsigned rank, const std::string& marker) {
  for (const auto& e : fs::directory_iterator("/proc")) {
    const std::string name = e.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string cmd = slurp(e.path() / "cmdline"), env = slurp(e.path() / "environ");
    if (cmd.find("zkrv-prove-mpi") == std::string::npos || cmd.find(marker) == std::string::npos) continue;
    if (env.find(std::string("OMPI_COMM_WORLD_RANK=") + std::to_string(rank) + '\0') != std::string::npos)
      return static_cast<pid_t>(std::stol(name));
  }
  return 0;
}

// A rank killed in the middle of its segments: mpirun ends the job within seconds, naming the
// rank; the bundle is never written.
TEST(Mpi, ARankKilledFailsTheJobAndWritesNothing) {
  SKIP_WITHOUT_MPI();
  Dir d;
  std::ofstream(d.path / "in") << "40000";  // about 400,000 cycles: 98 segments of 2^12, well over a minute
  const fs::path out = d.path / "b";
  const std::string cmd = mpirun(2) + quote(kProveMpi) + " " +
                          prove_args(kGuests + "/bench_loop.elf", " --input " + quote((d.path / "in").string()), 12, out) +
                          " >" + quote((d.path / "out").string()) + " 2>" + quote((d.path / "err").string());
  const pid_t job = ::fork();
  ASSERT_GE(job, 0);
  if (job == 0) {
    ::setpgid(0, 0);  // a group of its own, so that a failed test can end all of it
    ::execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  pid_t victim = 0;
  for (int i = 0; i < 600 && !victim; ++i) {  // until rank 1 runs (at most a minute)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    victim = rank_pid(1, d.path.string());
  }
  if (victim == 0) {
    ::kill(-job, SIGKILL), ::waitpid(job, nullptr, 0);
    FAIL() << "rank 1 never started: " << slurp(d.path / "err");
  }
  std::this_thread::sleep_for(std::chrono::seconds(2));  // into its work
  if (::kill(victim, SIGKILL) != 0) {
    ::kill(-job, SIGKILL), ::waitpid(job, nullptr, 0);
    FAIL() << "rank 1 (pid " << victim << ") could not be killed";
  }
  const auto killed = std::chrono::steady_clock::now();
  int st = 0;
  pid_t done = 0;
  while ((done = ::waitpid(job, &st, WNOHANG)) == 0 && std::chrono::steady_clock::now() - killed < std::chrono::seconds(30))
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  if (done == 0) {
    ::kill(-job, SIGKILL), ::waitpid(job, &st, 0);
    FAIL() << "the job was still running 30 s after rank 1 was killed";
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - killed).count();
  std::printf("the job ended %.1f s after rank 1 was killed\n", seconds);
  EXPECT_LT(seconds, 10.0);
  EXPECT_FALSE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << "the job succeeded";
  EXPECT_NE(slurp(d.path / "err").find("rank 1"), std::string::npos) << slurp(d.path / "err");
  EXPECT_FALSE(fs::exists(out));
  for (const auto& e : fs::directory_iterator(d.path))  // nor a temporary file beside it
    EXPECT_TRUE(e.path().filename() == "in" || e.path().filename() == "out" || e.path().filename() == "err") << e.path();
}

// One rank's command line differs from rank 0's (mpirun's MPMD form "A : B"): the job fails with
// that rank's one error line and its exit code, and writes nothing.
struct OddRank {
  std::string rank1_args, error, why;
  int code;
};

TEST(Mpi, ARankThatRejectsItsInputFailsTheJob) {
  SKIP_WITHOUT_MPI();
  Dir d;
  std::ofstream(d.path / "in") << "3000";
  std::ofstream(d.path / "other") << "3001";
  std::ofstream(d.path / "bad.elf") << "this is not an ELF file";
  const std::string in = " --input " + quote((d.path / "in").string());
  const std::string loop = kGuests + "/bench_loop.elf";
  const std::vector<OddRank> cases = {
      {prove_args((d.path / "bad.elf").string(), in, 12, d.path / "b"), "[rank 1]: error: ", "a bad ELF", 65},
      {prove_args(loop, " --input " + quote((d.path / "other").string()), 12, d.path / "b"), "the input differs from rank 0's",
       "another input", 64},
      {prove_args(loop, in, 12, d.path / "b") + " --max-memory 1M", "[rank 1]: error: proving segments 4 to 7 (of 0 to 7): ", "too little memory",
       71},
  };
  for (const OddRank& c : cases) {
    SCOPED_TRACE(c.why);
    const Ran r = run(mpirun(1) + quote(kProveMpi) + " " + prove_args(loop, in, 12, d.path / "b") + " : -np 1 " +
                          quote(kProveMpi) + " " + c.rank1_args,
                      d);
    std::printf("%s: exit %d after %.1f s\n", c.why.c_str(), r.code, r.seconds);
    EXPECT_EQ(r.code, c.code) << r.err;
    EXPECT_NE(r.err.find(c.error), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("zkrv-prove-mpi [rank 1]"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(d.path / "b"));
  }
}

TEST(Mpi, AWrongOptionOrAMissingProgramIsReported) {
  SKIP_WITHOUT_MPI();
  Dir d;
  const Ran bad = run(mpirun(2) + quote(kProveMpi) + " " + quote(kGuests + "/bench_loop.elf") + " --no-such-option", d);
  EXPECT_EQ(bad.code, 64) << bad.err;
  EXPECT_NE(bad.err.find("--no-such-option"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("see zkrv-prove-mpi --help"), std::string::npos) << bad.err;
  // a wrong option on one rank only (mpirun's "A : B"): that rank says so, and the job ends
  const std::string loop = quote(kGuests + "/bench_loop.elf");
  const Ran one = run(mpirun(1) + quote(kProveMpi) + " " + loop + " : -np 1 " + quote(kProveMpi) + " " + loop + " --bogus", d);
  EXPECT_EQ(one.code, 64) << one.err;
  EXPECT_NE(one.err.find("zkrv-prove-mpi [rank 1]: error: "), std::string::npos) << one.err;
  EXPECT_NE(one.err.find("--bogus"), std::string::npos) << one.err;
  // stdin cannot be every rank's input
  const Ran in = run("echo 3000 | " + mpirun(2) + quote(kProveMpi) + " " + loop + " --input -", d);
  EXPECT_EQ(in.code, 64) << in.err;
  EXPECT_NE(in.err.find("must be a regular file"), std::string::npos) << in.err;
  const Ran missing = run(mpirun(2) + quote((d.path / "no-such-program").string()), d);
  EXPECT_NE(missing.code, 0);
  EXPECT_NE(missing.err.find("no-such-program"), std::string::npos) << missing.err;
  const Ran bad_mpirun = run(mpirun(2) + "--no-such-mpirun-option " + quote(kProveMpi), d);
  EXPECT_NE(bad_mpirun.code, 0);
  EXPECT_NE(bad_mpirun.err.find("no-such-mpirun-option"), std::string::npos) << bad_mpirun.err;
}

}  // namespace
}  // namespace zkrv
