// The guest SDK's word-at-a-time memory routines (guest/sdk/memory.c), run on the executor:
// a RapidCheck property against a byte-wise model over random lengths, offsets, overlaps and
// contents (tests/guest/memops_check.c), and their cost in cycles per byte against the targets
// (guest/programs/bench_memops.c; the figures in guest/README.md).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "optimized/exec/fast_executor.h"
#include "reference/elf/elf_loader.h"
#include "tools/common/files.h"

namespace zkrv {
namespace {

constexpr size_t kSize = 2048;  // memops_check.c's buffers

spec::ProgramImage load(const std::string& path) {
  auto bytes = tools::read_file(path, 1 << 30, "guest");
  if (!bytes.bytes) throw std::runtime_error(bytes.error);
  auto loaded = ref::load_elf(*bytes.bytes);
  if (!loaded.ok()) throw std::runtime_error(loaded.message);
  return *loaded.image;
}

struct Command {
  uint8_t op = 0, at_end = 0, c = 0;
  uint32_t n = 0, a = 0, b = 0;
  std::vector<uint8_t> x, y;
};

int sign(int v) { return (v > 0) - (v < 0); }

// The byte-wise model: the result, with x and y as the call leaves them.
int64_t model(Command& m) {
  uint8_t* x = m.x.data();
  const uint8_t* y = m.y.data();
  switch (m.op) {
    case 0:
      for (uint32_t i = 0; i < m.n; ++i) x[m.a + i] = y[m.b + i];
      return m.a;
    case 1: {
      const std::vector<uint8_t> from(x + m.b, x + m.b + m.n);
      for (uint32_t i = 0; i < m.n; ++i) x[m.a + i] = from[i];
      return m.a;
    }
    case 2:
      for (uint32_t i = 0; i < m.n; ++i) x[m.a + i] = m.c;
      return m.a;
    case 3:
      for (uint32_t i = 0; i < m.n; ++i)
        if (x[m.a + i] != y[m.b + i]) return sign(x[m.a + i] - y[m.b + i]);
      return 0;
    case 4: {
      int64_t l = 0;
      while (x[m.a + l]) ++l;
      return l;
    }
    default:
      for (uint32_t i = 0;; ++i)
        if (x[m.a + i] != y[m.b + i] || x[m.a + i] == 0) return sign(x[m.a + i] - y[m.b + i]);
  }
}

// A random command: lengths short and long, offsets of every alignment, memmove's ranges
// overlapping either way, memcmp's and strcmp's operands equal up to a random point, and
// strings of ASCII and of bytes above 0x80 (the quick zero test's false positives).
Command random_command() {
  Command m;
  m.op = *rc::gen::inRange<uint8_t>(0, 6);
  const bool small = *rc::gen::arbitrary<bool>();
  m.n = small ? *rc::gen::inRange<uint32_t>(0, 24) : *rc::gen::inRange<uint32_t>(0, 1200);
  m.a = *rc::gen::inRange<uint32_t>(0, 130);
  m.b = m.op == 1 && *rc::gen::arbitrary<bool>() ? std::min<uint32_t>(130, m.a + *rc::gen::inRange<uint32_t>(0, 20))
                                                 : *rc::gen::inRange<uint32_t>(0, 130);
  m.c = *rc::gen::arbitrary<uint8_t>();
  std::mt19937_64 rng(*rc::gen::arbitrary<uint64_t>());
  const bool ascii = *rc::gen::arbitrary<bool>();
  auto byte = [&] { return static_cast<uint8_t>(ascii ? 1 + rng() % 127 : 1 + rng() % 255); };
  m.x.resize(kSize);
  m.y.resize(kSize);
  for (auto& v : m.x) v = static_cast<uint8_t>(rng());
  for (auto& v : m.y) v = static_cast<uint8_t>(rng());
  if (m.op == 3 && *rc::gen::inRange(0, 3) != 0) {  // equal, then perhaps one byte differs
    for (uint32_t i = 0; i < m.n; ++i) m.y[m.b + i] = m.x[m.a + i];
    if (m.n && *rc::gen::arbitrary<bool>()) m.y[m.b + *rc::gen::inRange<uint32_t>(0, m.n)] ^= *rc::gen::inRange<uint8_t>(1, 255);
  }
  if (m.op >= 4) {  // strings of m.n bytes, their zeros after them
    for (uint32_t i = 0; i < m.n; ++i) m.x[m.a + i] = byte();
    m.x[m.a + m.n] = 0;
    const bool same = *rc::gen::inRange(0, 3) != 0;
    const uint32_t ny = same ? m.n : *rc::gen::inRange<uint32_t>(0, 1200);
    for (uint32_t i = 0; i < ny; ++i) m.y[m.b + i] = same ? m.x[m.a + i] : byte();
    m.y[m.b + ny] = 0;
    if (same && *rc::gen::arbitrary<bool>()) {  // one byte differs, or either string ends early
      const uint32_t k = *rc::gen::inRange<uint32_t>(0, ny + 1);
      m.y[m.b + k] = byte() & *rc::gen::element<uint8_t>(0, 0xff);
      m.y[m.b + k + 1] = m.y[m.b + k] && k == ny ? 0 : m.y[m.b + k + 1];
    }
    m.at_end = *rc::gen::inRange<uint8_t>(0, m.op == 5 ? 3 : 2);
  }
  return m;
}

RC_GTEST_PROP(GuestMemoryRoutines, MatchAByteWiseModelOnTheExecutor, ()) {
  static const spec::ProgramImage image = load(std::string(ZKRV_TEST_GUESTS) + "/memops_check.elf");
  const size_t count = *rc::gen::inRange<size_t>(1, 12);
  std::vector<Command> cmds;
  std::vector<uint8_t> input;
  auto u32 = [&](uint32_t v) {
    for (int i = 0; i < 4; ++i) input.push_back(static_cast<uint8_t>(v >> (8 * i)));
  };
  for (size_t k = 0; k < count; ++k) {
    cmds.push_back(random_command());
    const Command& m = cmds.back();
    input.insert(input.end(), {m.op, m.at_end, m.c, 0});
    u32(m.n);
    u32(m.a);
    u32(m.b);
    input.insert(input.end(), m.x.begin(), m.x.end());
    input.insert(input.end(), m.y.begin(), m.y.end());
  }
  const auto run = opt::execute(image, input, spec::ExecOptions{});
  RC_ASSERT(run.status == spec::ExitStatus::kExited);  // a read past a string's end faults
  RC_ASSERT(run.exit_code == 0);
  RC_ASSERT(run.output.size() == count * (8 + 2 * kSize));
  for (size_t k = 0; k < count; ++k) {
    Command& m = cmds[k];
    const int64_t want = model(m);
    const uint8_t* out = run.output.data() + k * (8 + 2 * kSize);
    int64_t got = 0;
    for (int i = 0; i < 8; ++i) got |= static_cast<int64_t>(out[i]) << (8 * i);
    RC_LOG() << "command " << k << ": op " << int(m.op) << " n " << m.n << " a " << m.a << " b " << m.b << " at_end "
             << int(m.at_end) << "\n";
    RC_ASSERT(got == want);
    RC_ASSERT(std::vector<uint8_t>(out + 8, out + 8 + kSize) == m.x);
    RC_ASSERT(std::vector<uint8_t>(out + 8 + kSize, out + 8 + 2 * kSize) == m.y);
  }
}

// What makes the at_end commands a check: the byte after the input region faults, so that a
// string routine that read past a string ending there would stop the run.
TEST(GuestMemoryRoutines, TheByteAfterTheInputRegionFaults) {
  const spec::ProgramImage image = load(std::string(ZKRV_TEST_GUESTS) + "/memops_check.elf");
  std::vector<uint8_t> input(16 + 2 * kSize);
  input[0] = 6;
  const auto run = opt::execute(image, input, spec::ExecOptions{});
  EXPECT_EQ(run.status, spec::ExitStatus::kFaulted);
  EXPECT_TRUE(run.output.empty());
}

// Cycles per byte over 4 KiB: two runs of bench_memops that differ only in the number of calls.
TEST(GuestMemoryRoutines, CyclesPerByteMeetTheTargets) {
  const spec::ProgramImage image = load(std::string(ZKRV_GUEST_PROGRAMS_DIR) + "/bench_memops.elf");
  auto cycles = [&](const std::string& line) {
    const std::vector<uint8_t> in(line.begin(), line.end());
    const auto r = opt::execute(image, in, spec::ExecOptions{});
    EXPECT_EQ(r.status, spec::ExitStatus::kExited) << line;
    EXPECT_EQ(r.exit_code, 0) << line;
    return r.cycles;
  };
  struct Case {
    const char* what;
    double target;
  };
  // memmove 8 0 / 0 8: overlapping, copied downward / upward; DST SRC offsets as in bench_memops.c
  const Case cases[] = {{"memcpy 4096 0 0", 0.4},  {"memcpy 4096 3 0", 0.6},  {"memcpy 4096 0 5", 0.6},
                        {"memmove 4096 8 0", 0.6}, {"memmove 4096 0 8", 0.6}, {"memmove 4096 5 0", 0.6},
                        {"memmove 4096 0 5", 0.6}, {"memset 4096 0 0", 0.4},  {"memset 4096 3 0", 0.6},
                        {"memcmp 4096 0 0", 0.5},  {"memcmp 4096 0 3", 0.5},  {"strlen 4096 0 0", 0.9},
                        {"strlen 4096 3 0", 0.9},  {"strcmp 4096 0 0", 0.9},  {"strcmp 4096 3 3", 0.9},
                        {"strcmp 4096 0 3", 1.5}};
  std::printf("%-18s %s\n", "routine size dst src", "cycles/byte (target)");
  for (const Case& c : cases) {
    const uint64_t one = cycles(std::string(c.what) + " 1"), three = cycles(std::string(c.what) + " 3");
    ASSERT_GT(three, one) << c.what;
    const double per_byte = static_cast<double>(three - one) / (2 * 4096);
    std::printf("%-20s %.3f (%.1f)\n", c.what, per_byte, c.target);
    EXPECT_LE(per_byte, c.target) << c.what;
  }
}

}  // namespace
}  // namespace zkrv
