// Typed input and output, host -> guest -> host: values written with zkvm::Writer (and with
// `zkrv input`), read by guests through zkvm_typed.h and zkvm_typed.hpp on the executor, their
// commitments read back with zkvm::Reader; input that ends early ends the guest with 138.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "guest/include/zkvm_typed.hpp"
#include "optimized/exec/fast_executor.h"
#include "reference/elf/elf_loader.h"
#include "tools/common/files.h"

namespace zkrv {
namespace {

spec::ProgramImage load(const std::string& name) {
  auto bytes = tools::read_file(std::string(ZKRV_TEST_GUESTS) + "/" + name + ".elf", 1 << 30, "guest");
  if (!bytes.bytes) throw std::runtime_error(bytes.error);
  auto loaded = ref::load_elf(*bytes.bytes);
  if (!loaded.ok()) throw std::runtime_error(loaded.message);
  return *loaded.image;
}

spec::ExecResult run(const spec::ProgramImage& image, const std::vector<uint8_t>& input) {
  return opt::execute(image, input, spec::ExecOptions{});
}

struct Point {
  int32_t x, y;
  int64_t z;
};

TEST(TypedIo, CRoundTripAndShortInput) {
  const auto image = load("typed_io_c");
  zkvm::Writer w;
  w.put(uint32_t{4000000000u}).put(uint64_t{1} << 40).put(std::string("abcdef")).put(uint32_t{77}).put(uint16_t{9});
  const auto r = run(image, w.data());
  ASSERT_EQ(r.status, spec::ExitStatus::kExited);
  ASSERT_EQ(r.exit_code, 0);
  zkvm::Reader out(r.output);
  uint64_t sum = 0, left = 0;
  std::string rev;
  uint32_t tail = 0;
  ASSERT_TRUE(out.get(sum) && out.get(rev) && out.get(tail) && out.get(left));
  EXPECT_EQ(sum, 4000000000ull + (uint64_t{1} << 40));
  EXPECT_EQ(rev, "fedcba");
  EXPECT_EQ(tail, 77u);
  EXPECT_EQ(left, 2u);  // the u16 nobody read
  EXPECT_EQ(out.left(), 0u);
  // Every shorter input: the C reads return -1 (exit 3) up to the string's end, then the
  // _or_exit read ends the guest with 138.
  const size_t first = 4 + 8 + 4 + 6;
  for (size_t n = 0; n < first + 4; ++n) {
    const std::vector<uint8_t> cut(w.data().begin(), w.data().begin() + static_cast<std::ptrdiff_t>(n));
    const auto c = run(image, cut);
    ASSERT_EQ(c.status, spec::ExitStatus::kExited) << n;
    EXPECT_EQ(c.exit_code, n < first ? 3 : 138) << n;
  }
}

TEST(TypedIo, ReaderConsumesNothingWhenTooShort) {
  zkvm::Writer w;
  w.put(std::vector<std::string>{"ab", "cde"});
  const auto& b = w.data();
  ASSERT_EQ(b.size(), 4u + 4 + 2 + 4 + 3);
  for (size_t n = 0; n < b.size(); ++n) {
    zkvm::Reader r(b.data(), n);
    std::vector<std::string> v;
    EXPECT_FALSE(r.get(v)) << n;
    EXPECT_EQ(r.left(), n) << n;
  }
  // a count past the bytes is refused before anything is allocated for it
  zkvm::Writer huge;
  huge.put(uint32_t{0xFFFFFFFF});
  zkvm::Reader r(huge.data());
  std::vector<uint64_t> v;
  EXPECT_FALSE(r.get(v));
}

#ifdef ZKRV_TEST_STDCXX_GUESTS
RC_GTEST_PROP(TypedIo, CxxRoundTripOfRandomValues, ()) {
  static const auto image = load("typed_io_guest");
  const auto n = *rc::gen::arbitrary<uint32_t>();
  const auto v = *rc::gen::arbitrary<int64_t>();
  const auto s = *rc::gen::container<std::string>(*rc::gen::inRange(0, 100), rc::gen::arbitrary<char>());
  const auto xs = *rc::gen::container<std::vector<uint32_t>>(*rc::gen::inRange(0, 60), rc::gen::arbitrary<uint32_t>());
  const auto ss = *rc::gen::container<std::vector<std::string>>(
      *rc::gen::inRange(0, 8), rc::gen::container<std::string>(*rc::gen::inRange(0, 20), rc::gen::arbitrary<char>()));
  const Point p{*rc::gen::arbitrary<int32_t>(), *rc::gen::arbitrary<int32_t>(), *rc::gen::arbitrary<int64_t>()};
  const auto extra = *rc::gen::inRange<uint32_t>(0, 5);
  zkvm::Writer w;
  w.put(n).put(v).put(s).put(xs).put(ss).put(p);
  for (uint32_t i = 0; i < extra; ++i) w.put(uint8_t{1});
  const auto r = run(image, w.data());
  RC_ASSERT(r.status == spec::ExitStatus::kExited);
  RC_ASSERT(r.exit_code == 0);
  zkvm::Reader out(r.output);
  uint32_t n1;
  int64_t neg;
  std::string rev;
  uint64_t sum, left;
  std::vector<uint32_t> xs2, lengths;
  std::vector<std::string> ss2;
  Point q;
  RC_ASSERT(out.get(n1) && out.get(neg) && out.get(rev) && out.get(sum) && out.get(xs2) && out.get(lengths) &&
            out.get(ss2) && out.get(q) && out.get(left));
  RC_ASSERT(out.left() == 0u);
  RC_ASSERT(n1 == n + 1);
  RC_ASSERT(static_cast<uint64_t>(neg) == 0 - static_cast<uint64_t>(v));
  RC_ASSERT(rev == std::string(s.rbegin(), s.rend()));
  uint64_t want = 0;
  for (const uint32_t x : xs) want += x;
  RC_ASSERT(sum == want);
  RC_ASSERT(xs2 == xs);
  RC_ASSERT(ss2 == ss);
  RC_ASSERT(lengths.size() == ss.size());
  for (size_t i = 0; i < ss.size(); ++i) RC_ASSERT(lengths[i] == ss[i].size());
  RC_ASSERT(q.x == p.y && q.y == p.x && q.z == p.z);
  RC_ASSERT(left == extra);
  // cut anywhere before the Point's end: the guest ends with 138
  const size_t cut = *rc::gen::inRange<size_t>(0, w.data().size() - extra);
  const auto c = run(image, std::vector<uint8_t>(w.data().begin(), w.data().begin() + static_cast<std::ptrdiff_t>(cut)));
  RC_ASSERT(c.status == spec::ExitStatus::kExited);
  RC_ASSERT(c.exit_code == 138);
}
#else
TEST(TypedIo, CxxRoundTripOfRandomValues) {
  GTEST_SKIP() << "no C++ standard library for guests here (guest/stdcxx/build.sh, run by scripts/setup.sh)";
}
#endif

// `zkrv input` writes what zkvm::Writer writes; a value that does not parse is a usage error.
TEST(TypedIo, ZkrvInputWritesTheEncoding) {
  const auto dir = std::filesystem::temp_directory_path() / ("zkrv-typed-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto file = (dir / "in.bin").string(), data = (dir / "data.bin").string();
  std::ofstream(data, std::ios::binary) << "xyz";
  const std::string cmd = std::string(ZKRV_BIN) + " input u8:255 u16:0x1234 u32:007 u64:18446744073709551615 i8:-1 "
                          "i16:-300 i32:-5 i64:-9000000000 str:hello hex:00ff raw:abcd file:" + data + " raw-file:" + data +
                          " -o " + file;
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  zkvm::Writer w;
  w.put(uint8_t{255}).put(uint16_t{0x1234}).put(uint32_t{7}).put(UINT64_MAX).put(int8_t{-1}).put(int16_t{-300});
  w.put(int32_t{-5}).put(int64_t{-9000000000}).put(std::string("hello")).put(std::vector<uint8_t>{0, 0xff});
  w.put(uint8_t{0xab}).put(uint8_t{0xcd}).put(std::string("xyz")).put(uint8_t{'x'}).put(uint8_t{'y'}).put(uint8_t{'z'});
  auto got = tools::read_file(file, 1 << 20, "input");
  ASSERT_TRUE(got.bytes);
  EXPECT_EQ(*got.bytes, w.data());
  for (const std::string bad : {"u8:256", "u32:-1", "i8:128", "u64:18446744073709551616", "u12:1", "hex:abc", "x:1",
                                "nocolon", "i32:1.5", "str", "u8: 5", "u32:0x", "u32:1e3", "i32:+5", "u08:1",
                                "i8:-129", "u16:0x10000"}) {
    const std::string c = std::string(ZKRV_BIN) + " input '" + bad + "' -o " + file + " 2>/dev/null";
    const int status = std::system(c.c_str());
    EXPECT_EQ(WEXITSTATUS(status), 64) << bad;
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace zkrv
