// The mul table's mutations (base alu_prog).
#include <string>

#include "reference/field/goldilocks.h"
#include "tests/air/air_fixture.h"

namespace zkrv::ref::air::fixture {
namespace {

const std::vector<std::pair<std::string, uint64_t>> kMulOps = {
    {"s_mul", 32}, {"s_mulh", 33}, {"s_mulhsu", 34}, {"s_mulhu", 35}, {"s_mulw", 48}};
// The mul row's high half recomputed from its selectors' ga, gb and the product (after a
// mutation changed ga, gb or the signs), and the claimed result set to what the row then gives.
void mul_rehigh(AirTrace& t, size_t r, size_t i) {
  auto g = [&](const std::string& c) { return cell(t, "mul", i, c); };
  int64_t borrow = 0;
  uint64_t res = 0;
  for (int k = 0; k < 4; ++k) {
    const std::string n = std::to_string(k);
    const int64_t v = static_cast<int64_t>(g("p" + std::to_string(4 + k))) - static_cast<int64_t>(g("ga") * g("b" + n)) -
                      static_cast<int64_t>(g("gb") * g("a" + n)) - borrow;
    borrow = v < 0 ? (-v + 65535) / 65536 : 0;
    cell(t, "mul", i, "h" + n) = static_cast<uint64_t>(v + 65536 * borrow);
    cell(t, "mul", i, "bw" + n) = static_cast<uint64_t>(borrow);
    res |= cell(t, "mul", i, "h" + n) << (16 * k);
  }
  const auto keep = t.table("mul").rows[i];
  forge_result(t, r, res);
  const size_t j = received_row(t, "mul", r);
  t.table("mul").rows[j] = keep;
  for (int k = 0; k < 4; ++k) cell(t, "mul", j, "r" + std::to_string(k)) = (res >> (16 * k)) & 0xffff;
  count_lookups(t);
}

}  // namespace

void mul_mutations(std::vector<Mutation>& m) {
  using B = Mutation::Base;
  flip_result_limbs(m, "mul", w::kMul, "MUL");
  for (int k = 0; k < 4; ++k) {
    const std::string n = std::to_string(k);
    m.push_back({"mul:c:high" + n, "mulhu's high limb " + n + " and result flipped together", [k, n](AirTrace& t) {
                   const size_t r = row_with_insn(t, w::kMulhu);
                   forge_result(t, r, cpu_result(t, r) ^ (uint64_t{1} << (16 * k)));
                   cell(t, "mul", received_row(t, "mul", r), "h" + n) ^= 1;
                   count_lookups(t);
                   return true;
                 }, B::kAlu});
    m.push_back({"mul:b:h" + n, "h" + n + " + 65536", [n](AirTrace& t) {
                   cell(t, "mul", received_row(t, "mul", row_with_insn(t, w::kMulhu)), "h" + n) += 65536;
                   return true;
                 }, B::kAlu});
    m.push_back({"mul:c:bw" + n + "_small", k == 3 ? "mulhu's top limb off by one, paid by a borrow of 1/65536" : "bw" + n + " = 3",
                 [k, n](AirTrace& t) {
                   const size_t r = row_with_insn(t, w::kMulhu);
                   if (k < 3) {
                     cell(t, "mul", received_row(t, "mul", r), "bw" + n) = 3;
                     return true;
                   }
                   const uint64_t res = cpu_result(t, r);
                   const bool down = (res >> 48) == 0xffff;  // h3 - 1, bw3 - 1/65536 at the top
                   forge_result(t, r, down ? res - (uint64_t{1} << 48) : res + (uint64_t{1} << 48));
                   const size_t i = received_row(t, "mul", r);
                   const Fp step = Fp::from_u64(65536).inverse();
                   cell(t, "mul", i, "h3") = down ? cell(t, "mul", i, "h3") - 1 : cell(t, "mul", i, "h3") + 1;
                   cell(t, "mul", i, "bw3") = (down ? Fp::from_u64(cell(t, "mul", i, "bw3")) - step
                                                    : Fp::from_u64(cell(t, "mul", i, "bw3")) + step).value();
                   count_lookups(t);
                   return true;
                 }, B::kAlu});
  }
  for (int i = 0; i < 8; ++i) {
    const std::string n = std::to_string(i);
    m.push_back({"mul:c:prod" + n, "product limb " + n + " and the result flipped together", [i, n](AirTrace& t) {
                   const size_t r = row_with_insn(t, i < 4 ? w::kMul : w::kMulhu);
                   const int k = i % 4;
                   forge_result(t, r, cpu_result(t, r) ^ (uint64_t{1} << (16 * k)));
                   const size_t row = received_row(t, "mul", r);
                   cell(t, "mul", row, "p" + n) ^= 1;
                   if (i >= 4) cell(t, "mul", row, "h" + std::to_string(k)) ^= 1;
                   if (i == 1) cell(t, "mul", row, "wh") = 2 * cell(t, "mul", row, "p1") - 65536 * cell(t, "mul", row, "w");
                   count_lookups(t);
                   return true;
                 }, B::kAlu});
    m.push_back({"mul:b:p" + n, "p" + n + " + 65536", [n](AirTrace& t) {
                   cell(t, "mul", received_row(t, "mul", row_with_insn(t, w::kMulhu)), "p" + n) += 65536;
                   return true;
                 }, B::kAlu});
    if (i < 7) {
      m.push_back({"mul:b:kl" + n, "kl" + n + " + 65536", [n](AirTrace& t) {
                     cell(t, "mul", received_row(t, "mul", row_with_insn(t, w::kMulhu)), "kl" + n) += 65536;
                     return true;
                   }, B::kAlu});
      m.push_back({"mul:b:kh" + n, "kh" + n + " + 256", [n](AirTrace& t) {
                     cell(t, "mul", received_row(t, "mul", row_with_insn(t, w::kMulhu)), "kh" + n) += 256;
                     return true;
                   }, B::kAlu});
    }
  }
  // signs: a signed operand read as unsigned, one link broken
  struct Sign {
    const char* id;
    uint32_t word;
    std::vector<std::pair<const char*, uint64_t>> set;
    const char* what;
  };
  const std::vector<Sign> signs = {
      {"mul:c:sa", w::kMulhsu, {{"sa", 0}, {"ga", 0}}, "mulhsu(-5, x) as if a were positive: sa = 0"},
      {"mul:b:ah", w::kMulhsu, {{"sa", 0}, {"ga", 0}, {"ah", 2 * 0xffff}}, "mulhsu(-5, x) as if a were positive: ah = 2 a3"},
      {"mul:c:ga", w::kMulhsu, {{"ga", 0}}, "mulhsu(-5, x) with ga = 0"},
      {"mul:c:sb", w::kMulhNeg, {{"sb", 0}, {"gb", 0}}, "mulh(x, -5) as if b were positive: sb = 0"},
      {"mul:b:bh", w::kMulhNeg, {{"sb", 0}, {"gb", 0}, {"bh", 2 * 0xffff}}, "mulh(x, -5) as if b were positive: bh = 2 b3"},
      {"mul:c:gb", w::kMulhNeg, {{"gb", 0}}, "mulh(x, -5) with gb = 0"},
  };
  for (const auto& sg : signs)
    m.push_back({sg.id, sg.what, [sg](AirTrace& t) {
                   const size_t r = row_with_insn(t, sg.word);
                   const size_t i = received_row(t, "mul", r);
                   for (const auto& [c, v] : sg.set) cell(t, "mul", i, c) = v;
                   mul_rehigh(t, r, i);
                   return true;
                 }, B::kAlu});
  for (const char* b : {"sa_bit", "sb_bit", "w_bit"})
    m.push_back({std::string("mul:c:") + b, std::string(b).substr(0, 2) + " = 2 on the mulh row", [b](AirTrace& t) {
                   cell(t, "mul", received_row(t, "mul", row_with_insn(t, w::kMulh)), std::string(b).substr(0, std::string(b).size() - 4)) = 2;
                   return true;
                 }, B::kAlu});
  m.push_back({"mul:c:w", "mulw's negative result claimed positive with w = 0", [](AirTrace& t) {
                 const size_t r = row_with_insn(t, w::kMulw);
                 forge_result(t, r, cpu_result(t, r) & 0xffffffffull);
                 cell(t, "mul", received_row(t, "mul", r), "w") = 0;
                 return true;
               }, B::kAlu});
  m.push_back({"mul:b:wh", "mulw's negative result claimed positive with w = 0 and wh = 2 p1", [](AirTrace& t) {
                 const size_t r = row_with_insn(t, w::kMulw);
                 forge_result(t, r, cpu_result(t, r) & 0xffffffffull);
                 const size_t i = received_row(t, "mul", r);
                 cell(t, "mul", i, "w") = 0, cell(t, "mul", i, "wh") = 2 * cell(t, "mul", i, "p1");
                 return true;
               }, B::kAlu});
  m.push_back({"mul:c:op", "a mul row that proves mulhu (selector s_mulhu, op still 32)", [](AirTrace& t) {
                 const size_t r = row_with_insn(t, w::kMul);
                 const uint64_t a = limbs_value(t, r, "a_v"), b = limbs_value(t, r, "opb");
                 at(t, "cpu", r, "aop") = 35;
                 forge_result(t, r, alu_result(35, a, b).value(), false);
                 const size_t i = received_row(t, "mul", r);
                 at(t, "cpu", r, "aop") = 32, cell(t, "mul", i, "op") = 32;
                 return true;
               }, B::kAlu});
  m.push_back({"mul:c:one_op", "two identical bge tuples claimed 12, received once by a mul row (s_mulhsu = s_mulhu = 1, op 69)",
               [](AirTrace& t) {
                 std::vector<size_t> rows;
                 for (size_t r = 0; r < real_rows(t); ++r)
                   if (get(t, "cpu", r, "insn") == w::kBge) rows.push_back(r);
                 if (rows.size() != 2) return false;
                 const size_t r1 = rows[0], r2 = rows[1];
                 auto& mt = t.table("mul");
                 // the mul row: a b's product, both high selectors (op 34 + 35 = 69), no sign read
                 std::vector<uint64_t> row(mt.columns.size(), 0);
                 row[mt.col("op")] = 69;
                 const uint64_t a = limbs_value(t, r1, "a_v"), b = limbs_value(t, r1, "opb");
                 for (int k = 0; k < 4; ++k)
                   row[mt.col("a" + std::to_string(k))] = (a >> (16 * k)) & 0xffff, row[mt.col("b" + std::to_string(k))] = (b >> (16 * k)) & 0xffff;
                 row[mt.col("s_mulhsu")] = 1, row[mt.col("s_mulhu")] = 1;
                 const uint64_t hi = static_cast<uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
                 const uint64_t forged = 2 * hi;
                 if (a >> 63 || (forged >> 16) != 0) return false;
                 for (size_t r : {r1, r2}) forge_result(t, r, forged);
                 for (size_t r : {r1, r2}) {  // out of the alu table
                   auto& alu = t.table("alu");
                   std::fill(alu.rows[received_row(t, "alu", r)].begin(), alu.rows[received_row(t, "alu", r)].end(), 0);
                 }
                 mt.rows.push_back(row);
                 const size_t i = mt.height() - 1;
                 // the product witnesses as the table computes them (selectors read no sign: a >= 0)
                 uint64_t al[4], bl[4];
                 for (int k = 0; k < 4; ++k) al[k] = (a >> (16 * k)) & 0xffff, bl[k] = (b >> (16 * k)) & 0xffff;
                 unsigned __int128 carry = 0;
                 for (int q = 0; q < 8; ++q) {
                   unsigned __int128 sum = carry;
                   for (int x = 0; x < 4; ++x)
                     if (q - x >= 0 && q - x < 4) sum += static_cast<unsigned __int128>(al[x]) * bl[q - x];
                   cell(t, "mul", i, "p" + std::to_string(q)) = static_cast<uint64_t>(sum & 0xffff);
                   carry = sum >> 16;
                   if (q < 7)
                     cell(t, "mul", i, "kl" + std::to_string(q)) = static_cast<uint64_t>(carry & 0xffff),
                                     cell(t, "mul", i, "kh" + std::to_string(q)) = static_cast<uint64_t>(carry >> 16);
                 }
                 cell(t, "mul", i, "sb") = b >> 63;
                 cell(t, "mul", i, "ah") = 2 * al[3], cell(t, "mul", i, "bh") = 2 * bl[3] - 65536 * (b >> 63);
                 for (int k = 0; k < 4; ++k) cell(t, "mul", i, "h" + std::to_string(k)) = (hi >> (16 * k)) & 0xffff;
                 const uint64_t p1 = cell(t, "mul", i, "p1");
                 cell(t, "mul", i, "w") = p1 >> 15, cell(t, "mul", i, "wh") = 2 * p1 - 65536 * (p1 >> 15);
                 for (int k = 0; k < 4; ++k) cell(t, "mul", i, "r" + std::to_string(k)) = (forged >> (16 * k)) & 0xffff;
                 count_lookups(t);
                 return true;
               }, B::kAlu});
  for (const auto& [sel, code] : kMulOps)
    m.push_back({"mul:c:" + sel + "_bit", sel + " = 2 on a padding row of the mul table", [sel = sel](AirTrace& t) {
                   auto& mt = t.table("mul");
                   if (mt.rows.back()[mt.col("op")] != 0) mt.rows.resize(2 * mt.height(), std::vector<uint64_t>(mt.columns.size(), 0));
                   mt.rows.back()[mt.col(sel)] = 2;
                   return true;
                 }, B::kAlu});
  m.push_back({"mul:b:ops", "a mul row received twice (a copy in a padding row)", [](AirTrace& t) {
                 auto& mt = t.table("mul");
                 const auto copy = mt.rows[received_row(t, "mul", row_with_insn(t, w::kMul))];
                 mt.rows.push_back(copy);
                 count_lookups(t);
                 return true;
               }, B::kAlu});
}
}  // namespace zkrv::ref::air::fixture
