// The div table's mutations (base div_prog).
#include <algorithm>
#include <functional>
#include <string>

#include "reference/field/goldilocks.h"
#include "tests/air/air_fixture.h"

namespace zkrv::ref::air::fixture {
namespace {

namespace dw {  // instruction words of div_prog
constexpr uint32_t kDivNeg = 0x02324533, kRemNeg = 0x023265b3, kDivOv = 0x0220c733, kRemOv = 0x0220e7b3,
                   kDivZero = 0x02524833, kRemZero = 0x025268b3, kDivwOv = 0x02234a3b, kDivw = 0x02324b3b,
                   kDivNegDivisor = 0x0241cf33, kRemSelf = 0x02426733, kDivuBig = 0x02745933, kRemuBig = 0x027479b3;
}  // namespace dw

uint64_t sext32(uint64_t v) { return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(v))); }

// The first mul row that proves (code, a, b) becomes an all-zero (padding) row.
void drop_mul_row(AirTrace& t, uint64_t code, uint64_t a, uint64_t b) {
  auto& mt = t.table("mul");
  for (auto& row : mt.rows) {
    bool same = row[mt.col("op")] == code;
    for (int k = 0; k < 4 && same; ++k)
      same = row[mt.col("a" + std::to_string(k))] == ((a >> (16 * k)) & 0xffff) &&
             row[mt.col("b" + std::to_string(k))] == ((b >> (16 * k)) & 0xffff);
    if (same) {
      std::fill(row.begin(), row.end(), 0);
      return;
    }
  }
  throw std::logic_error("no mul row proves that product");
}

// A cheating prover's division: cpu row r's div row is rebuilt from a forged core (quotient,
// remainder, extended operands), its result claimed as the cpu's (q or m; the W forms sign-extend
// the low 32 bits), the mul rows for q y replaced by ones for the forged q, and `tweak` then edits
// the div row (lookups recounted last).
using DivTweak = std::function<void(const TraceTable&, std::vector<uint64_t>&)>;
void div_claim(AirTrace& t, size_t r, const DivCore& core, const DivTweak& tweak = {}) {
  const uint64_t code = get(t, "cpu", r, "aop");
  const bool rem = code == 38 || code == 39 || code == 54 || code == 55, word = code >= 52;
  const uint64_t res = word ? sext32(rem ? core.m : core.q) : rem ? core.m : core.q;
  forge_result(t, r, res);
  const size_t i = received_row(t, "div", r);
  auto& dt = t.table("div");
  auto& row = dt.rows[i];
  const DivCore truth = div_core(code, limbs_value(t, r, "a_v"), limbs_value(t, r, "opb"));
  drop_mul_row(t, 32, truth.q, truth.y);
  drop_mul_row(t, row[dt.col("hop")], truth.q, truth.y);
  auto& mt = t.table("mul");
  fill_div_witness(dt, row, code, core, [&](uint64_t c, uint64_t a, uint64_t b) {
    mt.rows.push_back(make_mul_row(mt, c, a, b));
    return alu_result(c, a, b).value();
  });
  if (tweak) tweak(dt, row);
  count_lookups(t);
}
DivCore true_core(const AirTrace& t, size_t r) {
  return div_core(get(t, "cpu", r, "aop"), limbs_value(t, r, "a_v"), limbs_value(t, r, "opb"));
}
// The bound |m| + t + 1 = |y| computed limb by limb, but with the carry out of limb `drop` set to
// 0 (drop = 3: the honest wrap, whose missing carry out of limb 3 only lt3 sees).
void bound_dropping_carry(const TraceTable& dt, std::vector<uint64_t>& row, int drop) {
  uint64_t c = 1;
  for (int k = 0; k < 4; ++k) {
    const std::string n = std::to_string(k);
    const uint64_t am = row[dt.col("am" + n)], ay = row[dt.col("ay" + n)];
    const uint64_t tk = (ay + 2 * 65536 - am - c) & 0xffff;
    row[dt.col("t" + n)] = tk;
    uint64_t out = (am + tk + c) >> 16;
    if (k == drop) out = 0;
    if (k < 3) row[dt.col("e" + n)] = out;
    c = out;
  }
}

}  // namespace

void div_mutations(std::vector<Mutation>& m) {
  using B = Mutation::Base;
  const std::vector<std::pair<std::string, uint64_t>> ops = {{"s_div", 36},  {"s_divu", 37},  {"s_rem", 38},  {"s_remu", 39},
                                                             {"s_divw", 52}, {"s_divuw", 53}, {"s_remw", 54}, {"s_remuw", 55}};
  for (const auto& [sel, code] : ops)
    m.push_back({"div:c:" + sel + "_bit", sel + " = 2 on a padding row of the div table", [sel = sel](AirTrace& t) {
                   auto& dt = t.table("div");
                   dt.rows.push_back(std::vector<uint64_t>(dt.columns.size(), 0));
                   dt.rows.back()[dt.col(sel)] = 2;
                   return true;
                 }, B::kDiv});
  m.push_back({"div:c:one_op", "two selectors on a padding row of the div table (op 73: their codes' sum)", [](AirTrace& t) {
                 auto& dt = t.table("div");
                 dt.rows.push_back(std::vector<uint64_t>(dt.columns.size(), 0));
                 dt.rows.back()[dt.col("s_div")] = 1, dt.rows.back()[dt.col("s_divu")] = 1, dt.rows.back()[dt.col("op")] = 73;
                 return true;
               }, B::kDiv});
  m.push_back({"div:c:op", "a div row that proves divu (selector s_divu, op still 36): -20 / 7 read as unsigned", [](AirTrace& t) {
                 const size_t r = row_with_insn(t, dw::kDivNeg);
                 const uint64_t a = limbs_value(t, r, "a_v"), b = limbs_value(t, r, "opb");
                 at(t, "cpu", r, "aop") = 37;
                 forge_result(t, r, alu_result(37, a, b).value(), false);
                 const size_t i = received_row(t, "div", r);
                 at(t, "cpu", r, "aop") = 36, cell(t, "div", i, "op") = 36;
                 return true;
               }, B::kDiv});
  m.push_back({"div:b:ops", "a div row received twice (a copy in a padding row)", [](AirTrace& t) {
                 auto& dt = t.table("div");
                 dt.rows.push_back(dt.rows[received_row(t, "div", row_with_insn(t, dw::kDivNeg))]);
                 return true;
               }, B::kDiv});
  // bits set to 2 (most of these are implied by range checks: see div.md, "Adequacy")
  for (const char* c : {"sa31", "sb31", "xs", "ys", "ms", "c0", "c1", "c2", "c3", "g", "cy0", "cy1", "cy2", "cm0", "cm1", "cm2",
                        "e0", "e1", "e2", "w"})
    m.push_back({std::string("div:c:") + c + "_bit", std::string(c) + " = 2 on the row of -20 % 7", [c](AirTrace& t) {
                   cell(t, "div", received_row(t, "div", row_with_insn(t, dw::kRemNeg)), c) = 2;
                   return true;
                 }, B::kDiv});
  // the W forms' operands: bit 31 of a or b misread
  m.push_back({"div:c:sa31", "divw(-20, 7) with a read as zero-extended (sa31 = 0, ah kept)", [](AirTrace& t) {
                 const size_t r = row_with_insn(t, dw::kDivw);
                 DivCore c = true_core(t, r);
                 c.sa31 = 0, c.x &= 0xffffffffull, c.q = alu_result(36, c.x, c.y).value(), c.m = alu_result(38, c.x, c.y).value();
                 const uint64_t a1 = (limbs_value(t, r, "a_v") >> 16) & 0xffff;
                 div_claim(t, r, c, [a1](const TraceTable& dt, std::vector<uint64_t>& row) { row[dt.col("ah")] = 2 * a1 - 65536; });
                 return true;
               }, B::kDiv});
  m.push_back({"div:b:ah", "divw(-20, 7) with a read as zero-extended (sa31 = 0, ah = 2 a1)", [](AirTrace& t) {
                 const size_t r = row_with_insn(t, dw::kDivw);
                 DivCore c = true_core(t, r);
                 c.sa31 = 0, c.x &= 0xffffffffull, c.q = alu_result(36, c.x, c.y).value(), c.m = alu_result(38, c.x, c.y).value();
                 div_claim(t, r, c);
                 return true;
               }, B::kDiv});
  m.push_back({"div:c:sb31", "divw(-20, 7) with b read as negative (sb31 = 1, bh kept)", [](AirTrace& t) {
                 const size_t r = row_with_insn(t, dw::kDivw);
                 DivCore c = true_core(t, r);
                 c.sb31 = 1, c.y |= 0xffffffff00000000ull, c.q = alu_result(36, c.x, c.y).value(), c.m = alu_result(38, c.x, c.y).value();
                 const uint64_t b1 = (limbs_value(t, r, "opb") >> 16) & 0xffff;
                 div_claim(t, r, c, [b1](const TraceTable& dt, std::vector<uint64_t>& row) { row[dt.col("bh")] = 2 * b1; });
                 return true;
               }, B::kDiv});
  m.push_back({"div:b:bh", "divw(-20, 7) with b read as negative (sb31 = 1, bh = 2 b1 - 65536)", [](AirTrace& t) {
                 const size_t r = row_with_insn(t, dw::kDivw);
                 DivCore c = true_core(t, r);
                 c.sb31 = 1, c.y |= 0xffffffff00000000ull, c.q = alu_result(36, c.x, c.y).value(), c.m = alu_result(38, c.x, c.y).value();
                 div_claim(t, r, c);
                 return true;
               }, B::kDiv});
  // an operand limb that is not the instruction's: the division of another number
  for (const char* v : {"x", "y"})
    for (int k = 0; k < 4; ++k)
      m.push_back({std::string("div:c:") + v + std::to_string(k), std::string("-20 / 7 computed on another ") + v + " (limb " + std::to_string(k) + " changed)",
                   [v, k](AirTrace& t) {
                     const size_t r = row_with_insn(t, dw::kDivNeg);
                     DivCore c = true_core(t, r);
                     uint64_t& o = v[0] == 'x' ? c.x : c.y;
                     const uint64_t limb = (o >> (16 * k)) & 0xffff;
                     o = limb == 0xffff ? o - (uint64_t{1} << (16 * k)) : o + (uint64_t{1} << (16 * k));
                     c.q = alu_result(36, c.x, c.y).value(), c.m = alu_result(38, c.x, c.y).value();
                     div_claim(t, r, c);
                     return true;
                   }, B::kDiv});
  // range checks
  for (const char* c : {"q0", "q1", "q2", "q3", "m0", "m1", "m2", "m3", "xh", "yh", "mh", "ay0", "ay1", "ay2", "ay3", "am0", "am1",
                        "am2", "am3", "t0", "t1", "t2", "t3", "wh"})
    m.push_back({std::string("div:b:") + c, std::string(c) + " + 65536 on the row of -20 % 7", [c](AirTrace& t) {
                   cell(t, "div", received_row(t, "div", row_with_insn(t, dw::kRemNeg)), c) += 65536;
                   return true;
                 }, B::kDiv});
  // signs
  struct Sign {
    const char* id;
    uint32_t word;
    const char* col;
    uint64_t value;
  };
  for (const Sign& sg : std::vector<Sign>{{"div:c:ms", dw::kRemNeg, "ms", 0},
                                          {"div:c:sm", dw::kRemNeg, "sm", 0},
                                          {"div:c:hop", dw::kDivNeg, "hop", 35}})
    m.push_back({sg.id, std::string(sg.col) + " changed on a signed row", [sg](AirTrace& t) {
                   cell(t, "div", received_row(t, "div", row_with_insn(t, sg.word)), sg.col) = sg.value;
                   return true;
                 }, B::kDiv});
  // a signed row that reads an operand as unsigned (the bit kept, its signed reading dropped: sx,
  // sy; or the bit itself dropped, its range witness kept: xs, ys)
  for (const char* id : {"div:c:xs", "div:c:sx"})
    m.push_back({id, "-20 / 7 with the dividend read as unsigned: (2^64 - 20) / 7", [id](AirTrace& t) {
                   const size_t r = row_with_insn(t, dw::kDivNeg);
                   DivCore c = true_core(t, r);
                   c.q = c.x / c.y, c.m = c.x % c.y;
                   const bool bit = std::string(id) == "div:c:xs";
                   div_claim(t, r, c, [bit](const TraceTable& dt, std::vector<uint64_t>& row) {
                     row[dt.col("sx")] = 0;
                     if (bit) row[dt.col("xs")] = 0;
                     Fp ovsum = Fp::from_u64(1 + 262140);
                     for (int k = 0; k < 4; ++k)
                       ovsum = ovsum + Fp::from_u64(row[dt.col("x" + std::to_string(k))]) - Fp::from_u64(row[dt.col("y" + std::to_string(k))]);
                     row[dt.col("ovinv")] = ovsum.inverse().value();
                   });
                   return true;
                 }, B::kDiv});
  for (const char* id : {"div:c:ys", "div:c:sy"})
    m.push_back({id, "-20 % -20 claimed -20, with the divisor read as unsigned (2^64 - 20)", [id](AirTrace& t) {
                   const size_t r = row_with_insn(t, dw::kRemSelf);
                   DivCore c = true_core(t, r);
                   c.q = 0, c.m = c.x;
                   const bool bit = std::string(id) == "div:c:ys";
                   div_claim(t, r, c, [bit](const TraceTable& dt, std::vector<uint64_t>& row) {
                     row[dt.col("sy")] = 0;
                     if (bit) row[dt.col("ys")] = 0;
                     for (int k = 0; k < 4; ++k) {
                       row[dt.col("ay" + std::to_string(k))] = row[dt.col("y" + std::to_string(k))];
                       if (k < 3) row[dt.col("cy" + std::to_string(k))] = 0;
                     }
                     fill_div_bound(dt, row);
                   });
                   return true;
                 }, B::kDiv});
  for (const char* c : {"l0", "h0"})
    m.push_back({std::string("div:b:") + (c[0] == 'l' ? "lo" : "hi"), std::string(c) + " off by one: a product the mul table did not prove",
                 [c](AirTrace& t) {
                   cell(t, "div", received_row(t, "div", row_with_insn(t, dw::kDivNeg)), c) ^= 1;
                   return true;
                 }, B::kDiv});
  // the identity: low half, high half
  for (int k = 0; k < 4; ++k) {
    const std::string n = std::to_string(k);
    m.push_back({"div:c:lo" + n, "remu(3 y + 4, y) claimed 4 + 2^" + std::to_string(16 * k) + " (below y), q unchanged",
                 [k](AirTrace& t) {
                   const size_t r = row_with_insn(t, dw::kRemuBig);
                   DivCore c = true_core(t, r);
                   c.m += uint64_t{1} << (16 * k);
                   div_claim(t, r, c);
                   return true;
                 }, B::kDiv});
    m.push_back({"div:c:hi" + n, "divu(3 y + 4, y) claimed as the division of 3 y + 4 + 2^" + std::to_string(64 + 16 * k) +
                                     " (the high half of q y is 2^" + std::to_string(16 * k) + ", not 0)",
                 [k](AirTrace& t) {
                   const size_t r = row_with_insn(t, dw::kDivuBig);
                   DivCore c = true_core(t, r);
                   const unsigned __int128 big = static_cast<unsigned __int128>(c.x) + (static_cast<unsigned __int128>(1) << (64 + 16 * k));
                   const unsigned __int128 q = big / c.y;
                   if (q >> 64) return false;
                   c.q = static_cast<uint64_t>(q), c.m = static_cast<uint64_t>(big % c.y);
                   div_claim(t, r, c);
                   return true;
                 }, B::kDiv});
  }
  // the overflow
  m.push_back({"div:c:ov_def", "-2^63 / -1 with ov = 0", [](AirTrace& t) {
                 cell(t, "div", received_row(t, "div", row_with_insn(t, dw::kDivOv)), "ov") = 0;
                 return true;
               }, B::kDiv});
  m.push_back({"div:c:ov_zero", "-20 / 7 claimed (2^64 - 16) / 7 with remainder -4, excused as an overflow (ov = 1)", [](AirTrace& t) {
                 const size_t r = row_with_insn(t, dw::kDivNeg);
                 DivCore c = true_core(t, r);
                 c.q = (~uint64_t{0} - 15) / 7, c.m = ~uint64_t{0} - 3;
                 div_claim(t, r, c, [](const TraceTable& dt, std::vector<uint64_t>& row) { row[dt.col("ov")] = 1, row[dt.col("ovinv")] = 0; });
                 return true;
               }, B::kDiv});
  // division by zero
  m.push_back({"div:c:dz_def", "-20 / 0 with dz = 0", [](AirTrace& t) {
                 cell(t, "div", received_row(t, "div", row_with_insn(t, dw::kDivZero)), "dz") = 0;
                 return true;
               }, B::kDiv});
  m.push_back({"div:c:dz_zero", "-20 / 7 claimed as a division by zero: q = -1, m = x + y = -13, no bound", [](AirTrace& t) {
                 const size_t r = row_with_insn(t, dw::kDivNeg);
                 DivCore c = true_core(t, r);
                 c.q = ~uint64_t{0}, c.m = c.x + c.y;
                 div_claim(t, r, c, [](const TraceTable& dt, std::vector<uint64_t>& row) { row[dt.col("dz")] = 1, row[dt.col("dzinv")] = 0; });
                 return true;
               }, B::kDiv});
  for (int k = 0; k < 4; ++k)
    m.push_back({"div:c:qdz" + std::to_string(k), "fault class 'DIV output changed': -20 / 0 claimed another quotient (limb " + std::to_string(k) + ")",
                 [k](AirTrace& t) {
                   const size_t r = row_with_insn(t, dw::kDivZero);
                   DivCore c = true_core(t, r);
                   c.q ^= uint64_t{1} << (16 * k);
                   div_claim(t, r, c);
                   return true;
                 }, B::kDiv});
  m.push_back({"div:c:msign", "-20 / 7 claimed -3 remainder 1 (floor division: the remainder's sign differs)", [](AirTrace& t) {
                 const size_t r = row_with_insn(t, dw::kDivNeg);
                 DivCore c = true_core(t, r);
                 c.q = static_cast<uint64_t>(-3), c.m = 1;
                 div_claim(t, r, c);
                 return true;
               }, B::kDiv});
  // the bound: -20 / 7 claimed -1 remainder -13, with |y| claimed larger, |m| smaller, or the chain broken
  auto big_remainder = [](AirTrace& t, size_t r) {
    DivCore c = true_core(t, r);
    c.q += 1, c.m -= c.y;  // -20 = -1 * 7 - 13
    return c;
  };
  for (int k = 0; k < 4; ++k) {
    const std::string n = std::to_string(k);
    m.push_back({"div:c:ay" + n, "-20 / 7 claimed -1 remainder -13, with |y| claimed larger in limb " + n, [k, n, big_remainder](AirTrace& t) {
                   const size_t r = row_with_insn(t, dw::kDivNeg);
                   div_claim(t, r, big_remainder(t, r), [k, n](const TraceTable& dt, std::vector<uint64_t>& row) {
                     row[dt.col("ay" + n)] += k == 0 ? 7 : 1;
                     fill_div_bound(dt, row);
                   });
                   return true;
                 }, B::kDiv});
    m.push_back({"div:c:am" + n, "remu(3 y + 4, y) claimed y + 4 (q = 2), with |m| claimed smaller in limb " + n, [k, n](AirTrace& t) {
                   const size_t r = row_with_insn(t, dw::kRemuBig);
                   DivCore c = true_core(t, r);
                   c.q -= 1, c.m += c.y;
                   div_claim(t, r, c, [k, n](const TraceTable& dt, std::vector<uint64_t>& row) {
                     row[dt.col("am" + n)] -= k == 0 ? 5 : 1;
                     fill_div_bound(dt, row);
                   });
                   return true;
                 }, B::kDiv});
    m.push_back({"div:c:lt" + n, "-20 / 7 claimed -1 remainder -13, |m| < |y| 'proven' by dropping the carry out of limb " + n,
                 [k, big_remainder](AirTrace& t) {
                   const size_t r = row_with_insn(t, dw::kDivNeg);
                   div_claim(t, r, big_remainder(t, r), [k](const TraceTable& dt, std::vector<uint64_t>& row) { bound_dropping_carry(dt, row, k); });
                   return true;
                 }, B::kDiv});
  }
  // the result
  flip_result_limbs(m, "div", dw::kDivNeg, "DIV", B::kDiv);
  flip_result_limbs(m, "div", dw::kRemNeg, "REM", B::kDiv);
  m.push_back({"div:c:r2", "fault class 'DIV output changed': divw's result not sign-extended (limb 2 flipped)", [](AirTrace& t) {
                 const size_t r = row_with_insn(t, dw::kDivw);
                 forge_result(t, r, cpu_result(t, r) ^ (uint64_t{1} << 32));
                 return true;
               }, B::kDiv});
  m.push_back({"div:c:w", "divw's negative result claimed positive with w = 0", [](AirTrace& t) {
                 const size_t r = row_with_insn(t, dw::kDivw);
                 forge_result(t, r, cpu_result(t, r) & 0xffffffffull);
                 cell(t, "div", received_row(t, "div", r), "w") = 0;
                 return true;
               }, B::kDiv});
  m.push_back({"div:b:wh", "divw's negative result claimed positive with w = 0 and wh = 2 r1", [](AirTrace& t) {
                 const size_t r = row_with_insn(t, dw::kDivw);
                 forge_result(t, r, cpu_result(t, r) & 0xffffffffull);
                 const size_t i = received_row(t, "div", r);
                 cell(t, "div", i, "w") = 0, cell(t, "div", i, "wh") = 2 * cell(t, "div", i, "r1");
                 return true;
               }, B::kDiv});
}
}  // namespace zkrv::ref::air::fixture
