// RapidCheck properties: every RV64IM register-register operation, run as a real instruction
// on both executors, equals an independent formula (__int128 for 64-bit arithmetic,
// Boost.Multiprecision for the high multiply halves). Seeds: RC_PARAMS="seed=N" replays.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <boost/multiprecision/cpp_int.hpp>
#include <functional>
#include <map>

#include "optimized/exec/fast_executor.h"
#include "reference/elf/elf_loader.h"
#include "reference/exec/executor.h"
#include "tests/support/elf_builder.h"

namespace zkrv {
namespace {

using boost::multiprecision::cpp_int;
using namespace testing::rv;

struct OpDef {
  uint32_t f7, f3, opc;
  std::function<uint64_t(uint64_t, uint64_t)> formula;
};

uint64_t sx32(uint64_t v) { return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(v))); }
cpp_int as_signed(uint64_t v) { return v >> 63 ? cpp_int(v) - (cpp_int(1) << 64) : cpp_int(v); }
uint64_t high64(const cpp_int& product) {
  cpp_int p = product;
  if (p < 0) p += cpp_int(1) << 128;  // two's complement in 128 bits
  return static_cast<uint64_t>((p >> 64) & cpp_int(~uint64_t{0}));
}

const std::map<std::string, OpDef>& ops() {
  using I = __int128;
  static const std::map<std::string, OpDef> m = {
      {"add", {0, 0, 0x33, [](uint64_t a, uint64_t b) { return static_cast<uint64_t>(I(a) + I(b)); }}},
      {"sub", {0x20, 0, 0x33, [](uint64_t a, uint64_t b) { return static_cast<uint64_t>(I(a) - I(b)); }}},
      {"sll", {0, 1, 0x33, [](uint64_t a, uint64_t b) { return static_cast<uint64_t>(static_cast<unsigned __int128>(a) << (b % 64)); }}},
      {"slt", {0, 2, 0x33, [](uint64_t a, uint64_t b) { return uint64_t{as_signed(a) < as_signed(b)}; }}},
      {"sltu", {0, 3, 0x33, [](uint64_t a, uint64_t b) { return uint64_t{cpp_int(a) < cpp_int(b)}; }}},
      {"xor", {0, 4, 0x33, [](uint64_t a, uint64_t b) { return (a | b) & ~(a & b); }}},
      {"srl", {0, 5, 0x33, [](uint64_t a, uint64_t b) { return static_cast<uint64_t>(cpp_int(a) >> static_cast<int>(b % 64)); }}},
      {"sra", {0x20, 5, 0x33, [](uint64_t a, uint64_t b) {
         cpp_int q = as_signed(a);
         for (uint64_t k = 0; k < b % 64; ++k) q = (q - (q < 0 && (q % 2 != 0) ? 1 : 0)) / 2;  // floor division by 2
         return static_cast<uint64_t>(static_cast<int64_t>(q));
       }}},
      {"or", {0, 6, 0x33, [](uint64_t a, uint64_t b) { return ~(~a & ~b); }}},
      {"and", {0, 7, 0x33, [](uint64_t a, uint64_t b) { return ~(~a | ~b); }}},
      {"mul", {1, 0, 0x33, [](uint64_t a, uint64_t b) { return static_cast<uint64_t>(cpp_int(a) * cpp_int(b) & cpp_int(~uint64_t{0})); }}},
      {"mulh", {1, 1, 0x33, [](uint64_t a, uint64_t b) { return high64(as_signed(a) * as_signed(b)); }}},
      {"mulhsu", {1, 2, 0x33, [](uint64_t a, uint64_t b) { return high64(as_signed(a) * cpp_int(b)); }}},
      {"mulhu", {1, 3, 0x33, [](uint64_t a, uint64_t b) { return high64(cpp_int(a) * cpp_int(b)); }}},
      {"div", {1, 4, 0x33, [](uint64_t a, uint64_t b) {
         if (b == 0) return ~uint64_t{0};
         return static_cast<uint64_t>(static_cast<I>(static_cast<int64_t>(a)) / static_cast<I>(static_cast<int64_t>(b)));
       }}},
      {"divu", {1, 5, 0x33, [](uint64_t a, uint64_t b) { return b == 0 ? ~uint64_t{0} : static_cast<uint64_t>(I(a) / I(b)); }}},
      {"rem", {1, 6, 0x33, [](uint64_t a, uint64_t b) {
         if (b == 0) return a;
         return static_cast<uint64_t>(static_cast<I>(static_cast<int64_t>(a)) % static_cast<I>(static_cast<int64_t>(b)));
       }}},
      {"remu", {1, 7, 0x33, [](uint64_t a, uint64_t b) { return b == 0 ? a : static_cast<uint64_t>(I(a) % I(b)); }}},
      {"addw", {0, 0, 0x3b, [](uint64_t a, uint64_t b) { return sx32(static_cast<uint64_t>(I(a) + I(b))); }}},
      {"subw", {0x20, 0, 0x3b, [](uint64_t a, uint64_t b) { return sx32(static_cast<uint64_t>(I(a) - I(b))); }}},
      {"sllw", {0, 1, 0x3b, [](uint64_t a, uint64_t b) { return sx32(static_cast<uint64_t>(I(a & 0xffffffff) << (b % 32))); }}},
      {"srlw", {0, 5, 0x3b, [](uint64_t a, uint64_t b) { return sx32((a & 0xffffffff) >> (b % 32)); }}},
      {"sraw", {0x20, 5, 0x3b, [](uint64_t a, uint64_t b) {
         I v = static_cast<int32_t>(a);
         for (uint64_t k = 0; k < b % 32; ++k) v = v >= 0 ? v / 2 : (v - 1) / 2;
         return static_cast<uint64_t>(v);
       }}},
      {"mulw", {1, 0, 0x3b, [](uint64_t a, uint64_t b) {
         return sx32(static_cast<uint64_t>(static_cast<unsigned __int128>(a) * b));  // unsigned: no overflow
       }}},
      {"divw", {1, 4, 0x3b, [](uint64_t a, uint64_t b) {
         const I x = static_cast<int32_t>(a), y = static_cast<int32_t>(b);
         return y == 0 ? ~uint64_t{0} : sx32(static_cast<uint64_t>(x / y));
       }}},
      {"divuw", {1, 5, 0x3b, [](uint64_t a, uint64_t b) {
         const I x = a & 0xffffffff, y = b & 0xffffffff;
         return y == 0 ? ~uint64_t{0} : sx32(static_cast<uint64_t>(x / y));
       }}},
      {"remw", {1, 6, 0x3b, [](uint64_t a, uint64_t b) {
         const I x = static_cast<int32_t>(a), y = static_cast<int32_t>(b);
         return y == 0 ? sx32(a) : sx32(static_cast<uint64_t>(x % y));
       }}},
      {"remuw", {1, 7, 0x3b, [](uint64_t a, uint64_t b) {
         const I x = a & 0xffffffff, y = b & 0xffffffff;
         return y == 0 ? sx32(a) : sx32(static_cast<uint64_t>(x % y));
       }}},
  };
  return m;
}

rc::Gen<uint64_t> operand() {
  return rc::gen::weightedOneOf<uint64_t>(
      {{1, rc::gen::element<uint64_t>(0, 1, 2, ~uint64_t{0}, ~uint64_t{0} - 1, uint64_t{1} << 63, (uint64_t{1} << 63) - 1,
                                      0x7fffffff, 0x80000000, 0xffffffff, 0x100000000, 0xffffffff80000000, 31, 32, 63, 64)},
       {2, rc::gen::arbitrary<uint64_t>()},
       {1, rc::gen::map(rc::gen::arbitrary<int32_t>(), [](int32_t v) { return static_cast<uint64_t>(int64_t{v}); })}});
}

// Runs `op a0, a1, a2` with a1 = a, a2 = b loaded from data, on both executors.
std::pair<uint64_t, uint64_t> execute_op(const OpDef& op, uint64_t a, uint64_t b) {
  std::vector<uint8_t> data(16);
  for (int k = 0; k < 8; ++k) { data[k] = static_cast<uint8_t>(a >> (8 * k)); data[8 + k] = static_cast<uint8_t>(b >> (8 * k)); }
  std::vector<uint32_t> code = {lui(5, 0x20), ld(11, 5, 0), ld(12, 5, 8), r(op.f7, 12, 11, op.f3, 10, op.opc),
                                addi(17, 0, 93), ecall()};
  auto loaded = ref::load_elf(testing::simple_elf(code, data));
  RC_ASSERT(loaded.ok());
  spec::ExecOptions opt;
  auto rr = ref::execute(*loaded.image, {}, opt);
  auto fr = opt::execute(*loaded.image, {}, opt);
  RC_ASSERT(rr.status == spec::ExitStatus::kExited);
  RC_ASSERT(fr.status == spec::ExitStatus::kExited);
  return {rr.regs[10], fr.regs[10]};
}

class AluProperty : public ::testing::TestWithParam<std::string> {};

TEST_P(AluProperty, MatchesIndependentFormula) {
  const OpDef& op = ops().at(GetParam());
  const bool ok = rc::check(GetParam() + " == formula", [&] {
    const uint64_t a = *operand(), b = *operand();
    const auto [ref_v, fast_v] = execute_op(op, a, b);
    const uint64_t want = op.formula(a, b);
    RC_ASSERT(ref_v == want);
    RC_ASSERT(fast_v == want);
  });
  EXPECT_TRUE(ok);
}

INSTANTIATE_TEST_SUITE_P(RV64IM, AluProperty,
                         ::testing::Values("add", "sub", "sll", "slt", "sltu", "xor", "srl", "sra", "or", "and", "mul",
                                           "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu", "addw", "subw", "sllw",
                                           "srlw", "sraw", "mulw", "divw", "divuw", "remw", "remuw"),
                         [](const auto& info) { return info.param; });

// The formulas themselves are pinned on the edge cases the spec calls out.
TEST(AluFormula, EdgeCases) {
  const uint64_t min64 = uint64_t{1} << 63, m1 = ~uint64_t{0};
  EXPECT_EQ(ops().at("div").formula(min64, m1), min64);
  EXPECT_EQ(ops().at("rem").formula(min64, m1), 0u);
  EXPECT_EQ(ops().at("div").formula(5, 0), m1);
  EXPECT_EQ(ops().at("remu").formula(5, 0), 5u);
  EXPECT_EQ(ops().at("divw").formula(0x80000000, m1), 0xffffffff80000000);
  EXPECT_EQ(ops().at("remw").formula(0x80000000, m1), 0u);
  EXPECT_EQ(ops().at("mulhsu").formula(m1, m1), m1);  // -1 * (2^64-1) = -(2^64-1): high half all ones
  EXPECT_EQ(ops().at("mulhu").formula(m1, m1), m1 - 1);
  EXPECT_EQ(ops().at("sra").formula(min64, 63), m1);
}

}  // namespace
}  // namespace zkrv
