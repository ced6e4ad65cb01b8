// The alu table's mutations (base alu_prog), and the cpu's ALU request.
#include <map>
#include <set>
#include <string>

#include "reference/field/goldilocks.h"
#include "tests/air/air_fixture.h"

namespace zkrv::ref::air::fixture {
namespace {

// An alu row's derived columns (sx, lt, nz, nzinv, w, wh) recomputed from the others, except
// those in `keep`, and the lookup multiplicities recounted.
void alu_rederive(AirTrace& t, size_t i, const std::set<std::string>& keep = {}) {
  auto v = [&](const char* c) { return Fp::from_u64(cell(t, "alu", i, c)); };
  auto put = [&](const char* c, Fp x) {
    if (!keep.count(c)) cell(t, "alu", i, c) = x.value();
  };
  const Fp two = Fp::from_u64(2);
  put("sx", v("sa") + v("sb") - two * v("sa") * v("sb"));
  put("lt", v("c3") + v("sx") - two * v("c3") * v("sx"));
  const Fp sum = v("t0") + v("t1") + v("t2") + v("t3");
  put("nz", Fp::from_u64(sum.value() != 0));
  put("nzinv", sum.value() ? sum.inverse() : Fp());
  const uint64_t t1 = cell(t, "alu", i, "t1");
  put("w", Fp::from_u64(t1 < 65536 && t1 >= 32768));
  put("wh", two * v("t1") - Fp::from_u64(65536) * v("w"));
  count_lookups(t);
}
// Whether no later row reads cpu row r's destination before it is written again.
bool result_unread(const AirTrace& t, size_t r) {
  if (get(t, "cpu", r, "f_branch")) return get(t, "cpu", r, "next_pc") == get(t, "cpu", r, "pc") + 4;  // offset +4
  const uint64_t rd = get(t, "cpu", r, "wr");
  if (rd == 0) return false;
  for (size_t q = r + 1; q < real_rows(t); ++q) {
    if (get(t, "cpu", q, "ra") == rd || get(t, "cpu", q, "rb") == rd) return false;
    if (get(t, "cpu", q, "wr") == rd) return true;
  }
  return true;
}
const std::vector<std::pair<std::string, uint64_t>> kAluOps = {
    {"s_add", 0},  {"s_sub", 8},  {"s_addw", 16}, {"s_subw", 24}, {"s_slt", 2},   {"s_sltu", 3},  {"s_xor", 4},  {"s_or", 6},
    {"s_and", 7},  {"s_beq", 64}, {"s_bne", 65},  {"s_blt", 68},  {"s_bge", 69},  {"s_bltu", 70}, {"s_bgeu", 71}};
// The attack a non-bit selector of the alu table allows: selectors S = 1 and the target 1 - |S|
// keep one_op, make op the code the cpu sent, and turn the row's constraints into a different
// computation. For each such combination on a row whose result can be forged, the witnesses are
// chosen as the constraints then demand (bitwise selectors present: t = c = 0; else the adder in
// the direction the selectors leave), the result follows from the result constraints, and the
// first combination whose result differs from the truth and fits in 16-bit limbs is used.
bool forge_with_non_bit_alu_selector(AirTrace& t, const std::string& target) {
  const std::set<std::string> adds = {"s_add", "s_addw"}, bitwise = {"s_xor", "s_or", "s_and"};
  uint64_t tc = 0;
  for (const auto& [n, c] : kAluOps)
    if (n == target) tc = c;
  const size_t n_ops = kAluOps.size();
  for (size_t r = 0; r < real_rows(t); ++r) {
    const bool alu_row = get(t, "cpu", r, "f_op") || get(t, "cpu", r, "f_opimm") || get(t, "cpu", r, "f_op32") ||
                         get(t, "cpu", r, "f_opimm32") || get(t, "cpu", r, "f_branch");
    if (!alu_row || !result_unread(t, r)) continue;
    const uint64_t d = get(t, "cpu", r, "aop");
    const uint64_t a = limbs_value(t, r, "a_v"), b = limbs_value(t, r, "opb"), truth = cpu_result(t, r);
    for (size_t x = 0; x < n_ops; ++x)
      for (size_t y = x + 1; y < n_ops; ++y)
        for (size_t z = y + 1; z <= n_ops; ++z) {
          const bool three = z < n_ops;
          const auto& ops = kAluOps;
          if (ops[x].first == target || ops[y].first == target || (three && ops[z].first == target)) continue;
          const int64_t sum = static_cast<int64_t>(ops[x].second + ops[y].second + (three ? ops[z].second : 0));
          if (sum - (three ? 2 : 1) * static_cast<int64_t>(tc) != static_cast<int64_t>(d)) continue;
          std::map<std::string, Fp> sel;
          for (const auto& [n, c] : kAluOps) sel[n] = Fp();
          sel[ops[x].first] = sel[ops[y].first] = Fp::from_u64(1);
          if (three) sel[ops[z].first] = Fp::from_u64(1);
          sel[target] = Fp() - Fp::from_u64(three ? 2 : 1);
          Fp P, Bw, Q;
          for (const auto& [n, v] : sel) (adds.count(n) ? P : bitwise.count(n) ? Bw : Q) = (adds.count(n) ? P : bitwise.count(n) ? Bw : Q) + v;
          // the witnesses the constraints leave
          uint64_t tv = 0;
          if (Bw.value() == 0) {
            if (P.value() != 0 && Q.value() == 0) tv = a + b;
            else if (Q.value() != 0 && P.value() == 0) tv = a - b;
            else continue;
          }
          // a copy of the honest row with the new selectors and witnesses, its result computed
          AirTrace u = t;
          set_limbs(u, r, "res", 0);  // placeholder: the row is rebuilt below
          const size_t i = received_row(t, "alu", r);
          for (const auto& [n, v] : sel) cell(u, "alu", i, n) = v.value();
          uint64_t carry = 0;
          for (int k = 0; k < 4; ++k) {
            const std::string kn = std::to_string(k);
            const uint64_t lhs = ((Bw.value() == 0 && P.value() != 0 ? a : tv) >> (16 * k)) & 0xffff;
            const uint64_t limb = Bw.value() ? 0 : lhs + ((b >> (16 * k)) & 0xffff) + carry;
            carry = Bw.value() ? 0 : limb >> 16;
            cell(u, "alu", i, "t" + kn) = Bw.value() ? 0 : (tv >> (16 * k)) & 0xffff;
            cell(u, "alu", i, "c" + kn) = carry;
          }
          alu_rederive(u, i);
          auto v = [&](const std::string& c) { return Fp::from_u64(cell(u, "alu", i, c)); };
          auto bw = [&](int k) {
            const std::string kn = std::to_string(k);
            const Fp nn = v("nb" + std::to_string(2 * k)) + Fp::from_u64(256) * v("nb" + std::to_string(2 * k + 1));
            return sel["s_and"] * nn + sel["s_or"] * (v("a" + kn) + v("b" + kn) - nn) +
                   sel["s_xor"] * (v("a" + kn) + v("b" + kn) - Fp::from_u64(2) * nn);
          };
          const Fp one = Fp::from_u64(1), arith = sel["s_add"] + sel["s_sub"] + sel["s_addw"] + sel["s_subw"];
          const Fp full = sel["s_add"] + sel["s_sub"], word = sel["s_addw"] + sel["s_subw"];
          Fp res[4];
          res[0] = arith * v("t0") + (sel["s_sltu"] + sel["s_bltu"]) * v("c3") + (sel["s_slt"] + sel["s_blt"]) * v("lt") +
                   sel["s_bgeu"] * (one - v("c3")) + sel["s_bge"] * (one - v("lt")) + sel["s_beq"] * (one - v("nz")) +
                   sel["s_bne"] * v("nz") + bw(0);
          res[1] = arith * v("t1") + bw(1);
          for (int k = 2; k < 4; ++k)
            res[k] = full * v("t" + std::to_string(k)) + word * Fp::from_u64(65535) * v("w") + bw(k);
          uint64_t forged = 0;
          bool fits = true;
          for (int k = 0; k < 4; ++k) {
            fits = fits && res[k].value() < 65536;
            forged |= (res[k].value() & 0xffff) << (16 * k);
          }
          if (!fits || forged == truth) continue;
          // forge it in t, then put the prepared alu row in place of the rebuilt one
          const auto prepared = u.table("alu").rows[i];
          forge_result(t, r, forged);
          auto& row = t.table("alu").rows[received_row(t, "alu", r)];
          row = prepared;
          for (int k = 0; k < 4; ++k) row[t.table("alu").col("r" + std::to_string(k))] = (forged >> (16 * k)) & 0xffff;
          count_lookups(t);
          return true;
        }
  }
  return false;
}

}  // namespace

void alu_mutations(std::vector<Mutation>& m) {
  using B = Mutation::Base;
  flip_result_limbs(m, "alu", w::kAdd, "ALU (add)");
  m.push_back({"alu:c:r0", "fault class 'branch condition negated': a taken bne claimed not taken, falling through to a copy of its target",
               [](AirTrace& t) {
                 const size_t r = row_with_insn(t, w::kBne8);
                 at(t, "cpu", r, "next_pc") = get(t, "cpu", r, "pc") + 4;
                 at(t, "cpu", r + 1, "pc") = get(t, "cpu", r, "pc") + 4;
                 forge_result(t, r, 0);
                 return true;
               }, B::kAlu});
  for (int k = 0; k < 4; ++k) {
    const std::string n = std::to_string(k);
    m.push_back({"alu:c:add" + n, "add's result and sum limb " + n + " off by one together", [k, n](AirTrace& t) {
                   const size_t r = row_with_insn(t, w::kAdd);
                   forge_result(t, r, cpu_result(t, r) ^ (uint64_t{1} << (16 * k)));
                   const size_t i = received_row(t, "alu", r);
                   cell(t, "alu", i, "t" + n) ^= 1;
                   alu_rederive(t, i);
                   return true;
                 }, B::kAlu});
    m.push_back({"alu:c:c" + n + "_bit", "carry " + n + " = 2 on the add row", [n](AirTrace& t) {
                   const size_t i = received_row(t, "alu", row_with_insn(t, w::kAdd));
                   cell(t, "alu", i, "c" + n) += 2;
                   alu_rederive(t, i);
                   return true;
                 }, B::kAlu});
    m.push_back({"alu:c:t" + n + "_unused", "t" + n + " = 1 on a xor row", [n](AirTrace& t) {
                   const size_t i = received_row(t, "alu", row_with_insn(t, w::kXor));
                   cell(t, "alu", i, "t" + n) = 1;
                   alu_rederive(t, i);
                   return true;
                 }, B::kAlu});
    m.push_back({"alu:c:c" + n + "_unused", "c" + n + " = 1 on a xor row", [n](AirTrace& t) {
                   const size_t i = received_row(t, "alu", row_with_insn(t, w::kXor));
                   cell(t, "alu", i, "c" + n) = 1;
                   alu_rederive(t, i);
                   return true;
                 }, B::kAlu});
    m.push_back({"alu:b:t" + n, "difference limb " + n + " + 2^16 with its carry moved (not a 16-bit value)", [k, n](AirTrace& t) {
                   if (k < 3) {  // slt: t_k + 2^16, c_k = 1, t_(k+1) - 1
                     const size_t i = received_row(t, "alu", row_with_insn(t, w::kSlt));
                     const std::string up = std::to_string(k + 1);
                     if (cell(t, "alu", i, "c" + n) != 0 || cell(t, "alu", i, "t" + up) == 0) return false;
                     cell(t, "alu", i, "t" + n) += 65536, cell(t, "alu", i, "c" + n) = 1, cell(t, "alu", i, "t" + up) -= 1;
                     alu_rederive(t, i);
                     return true;
                   }
                   const size_t i = received_row(t, "alu", row_with_insn(t, w::kAddw));  // addw ignores t3
                   if (cell(t, "alu", i, "c3") != 1) return false;
                   cell(t, "alu", i, "t3") = (cell(t, "alu", i, "t3") + P - 65536) % P, cell(t, "alu", i, "c3") = 0;
                   alu_rederive(t, i);
                   return true;
                 }, B::kAlu});
  }
  // signed comparison: slt(-5, 7) = 1 claimed 0 with one link of the chain broken
  struct SignAttack {
    const char* id;
    uint32_t word;
    std::vector<std::pair<const char*, uint64_t>> set;  // columns set on the alu row
    const char* what;
  };
  const std::vector<SignAttack> sign = {
      {"alu:c:lt", w::kSlt, {{"lt", 0}}, "slt(-5, 7) claimed 0 with lt = 0"},
      {"alu:c:sx", w::kSlt, {{"sx", 0}, {"lt", 0}}, "slt(-5, 7) claimed 0 with sx = 0"},
      {"alu:c:sa", w::kSlt, {{"sa", 0}, {"sx", 0}, {"lt", 0}}, "slt(-5, 7) claimed 0 with a's sign bit 0"},
      {"alu:b:ah", w::kSlt, {{"sa", 0}, {"sx", 0}, {"lt", 0}, {"ah", 510}}, "slt(-5, 7) claimed 0 with a's sign bit 0 and ah = 2 ab7"},
      {"alu:c:sb", w::kSlti, {{"sb", 0}, {"sx", 1}, {"lt", 0}}, "slti(-5, -1) claimed 0 with b's sign bit 0"},
      {"alu:b:bh", w::kSlti, {{"sb", 0}, {"sx", 1}, {"lt", 0}, {"bh", 510}}, "slti(-5, -1) claimed 0 with b's sign bit 0 and bh = 2 bb7"},
  };
  for (const auto& a : sign)
    m.push_back({a.id, a.what, [a](AirTrace& t) {
                   const size_t r = row_with_insn(t, a.word);
                   if (cpu_result(t, r) != 1) return false;
                   forge_result(t, r, 0);
                   const size_t i = received_row(t, "alu", r);
                   for (const auto& [c, v] : a.set) cell(t, "alu", i, c) = v;
                   count_lookups(t);
                   return true;
                 }, B::kAlu});
  // Signs that are not bits (found by zkrv-air-solve's difference step; alu.md, "Why the sign
  // columns are bits"): with F = 128 - 2 (top byte) + h, 1 - 2 sx = F_a F_b / 2^14, and
  // F_a = -64, F_b = 256 make sx = 1 for two non-negative operands. slt(0x7FFFFFFFC0000000, 7)
  // is then claimed 1: ah = 62, bh = 128, sa = 3/4, sb = -1/2. Both bit constraints reject it;
  // each is also killed alone on a padding row.
  m.push_back({"alu:c:sa_bit", "slt(0x7FFFFFFFC0000000, 7) claimed 1 with fractional signs sa = 3/4, sb = -1/2 (sx = 1)",
               [](AirTrace& t) {
                 const size_t r = row_with_insn(t, w::kSltBig);
                 const size_t i = received_row(t, "alu", r);
                 if (cpu_result(t, r) != 0 || cell(t, "alu", i, "ab7") != 127 || cell(t, "alu", i, "bb7") != 0 ||
                     cell(t, "alu", i, "c3") != 0)
                   return false;
                 forge_result(t, r, 1);
                 const Fp quarter = Fp::from_u64(4).inverse(), half = Fp::from_u64(2).inverse();
                 cell(t, "alu", i, "ah") = 62, cell(t, "alu", i, "bh") = 128;
                 cell(t, "alu", i, "sa") = (Fp::from_u64(3) * quarter).value();
                 cell(t, "alu", i, "sb") = (Fp::from_u64(0) - half).value();
                 cell(t, "alu", i, "sx") = 1, cell(t, "alu", i, "lt") = 1;
                 count_lookups(t);
                 return true;
               }, B::kAlu});
  m.push_back({"alu:c:nz_def", "beq(x3, x3) claimed not taken with nz = 1", [](AirTrace& t) {
                 const size_t r = row_with_insn(t, w::kBeqTaken);
                 forge_result(t, r, 0);
                 cell(t, "alu", received_row(t, "alu", r), "nz") = 1;
                 return true;
               }, B::kAlu});
  m.push_back({"alu:c:nz_zero", "bne(7, -5) claimed not taken with nz = 0", [](AirTrace& t) {
                 const size_t r = row_with_insn(t, w::kBneTaken);
                 forge_result(t, r, 0);
                 const size_t i = received_row(t, "alu", r);
                 cell(t, "alu", i, "nz") = 0, cell(t, "alu", i, "nzinv") = 0;
                 return true;
               }, B::kAlu});
  m.push_back({"alu:c:w", "addw's positive result claimed negative with w = 1", [](AirTrace& t) {
                 const size_t r = row_with_insn(t, w::kAddw);
                 forge_result(t, r, cpu_result(t, r) | 0xffffffff00000000ull);
                 cell(t, "alu", received_row(t, "alu", r), "w") = 1;
                 return true;
               }, B::kAlu});
  m.push_back({"alu:b:wh", "addw's positive result claimed negative with w = 1 and wh to match", [](AirTrace& t) {
                 const size_t r = row_with_insn(t, w::kAddw);
                 forge_result(t, r, cpu_result(t, r) | 0xffffffff00000000ull);
                 const size_t i = received_row(t, "alu", r);
                 cell(t, "alu", i, "w") = 1;
                 alu_rederive(t, i, {"w"});
                 return true;
               }, B::kAlu});
  m.push_back({"alu:c:w_bit", "w = 2 on the addw row", [](AirTrace& t) {
                 const size_t i = received_row(t, "alu", row_with_insn(t, w::kAddw));
                 cell(t, "alu", i, "w") = 2;
                 alu_rederive(t, i, {"w"});
                 return true;
               }, B::kAlu});
  m.push_back({"alu:c:op", "an add row that proves a subtraction (selector s_sub, op still 0)", [](AirTrace& t) {
                 const size_t r = row_with_insn(t, w::kAdd);
                 const uint64_t a = limbs_value(t, r, "a_v"), b = limbs_value(t, r, "opb");
                 at(t, "cpu", r, "aop") = 8;
                 forge_result(t, r, a - b, false);
                 const size_t i = received_row(t, "alu", r);
                 at(t, "cpu", r, "aop") = 0, cell(t, "alu", i, "op") = 0;
                 return true;
               }, B::kAlu});
  m.push_back({"alu:c:one_op", "two identical sltu(x, 0) claimed 5, received once with multiplicity 2 (s_add = s_sltu = 1, op 3)",
               [](AirTrace& t) {
                 const size_t r1 = row_with_insn(t, w::kSltu0), r2 = row_with_insn(t, w::kSltu0b);
                 forge_result(t, r1, 5);
                 forge_result(t, r2, 5);
                 const size_t i = received_row(t, "alu", r1);
                 auto& alu = t.table("alu");
                 for (size_t j = 0; j < alu.height(); ++j)
                   if (j != i && alu.rows[j] == alu.rows[i]) {
                     std::fill(alu.rows[j].begin(), alu.rows[j].end(), 0);
                     break;
                   }
                 cell(t, "alu", i, "s_add") = 1;
                 for (int k = 0; k < 4; ++k) cell(t, "alu", i, "t" + std::to_string(k)) = k == 0 ? 5 : 0;
                 alu_rederive(t, i);
                 return true;
               }, B::kAlu});
  for (const auto& [sel, code] : kAluOps)
    m.push_back({"alu:c:" + sel + "_bit", sel + " non-bit, with two or three other selectors, proves a forged result",
                 [sel = sel](AirTrace& t) {
                   if (forge_with_non_bit_alu_selector(t, sel)) return true;
                   cell(t, "alu", t.table("alu").height() - 1, sel) = 2;  // none found: a padding row
                   return true;
                 }, B::kAlu});
  // the operands' bytes: a xor row whose bytes of a (or b) are another value's
  for (int k = 0; k < 4; ++k)
    for (const char* v : {"a", "b"}) {
      const std::string n = std::to_string(k), id = std::string("alu:c:") + v + "_bytes" + n;
      m.push_back({id, std::string("xor computed from bytes of another ") + v + " (limb " + n + "'s low byte flipped)",
                   [v, k](AirTrace& t) {
                     const size_t r = row_with_insn(t, w::kXor);
                     const size_t i = received_row(t, "alu", r);
                     const std::string byte = std::string(v) + "b" + std::to_string(2 * k), nb = "nb" + std::to_string(2 * k);
                     const std::string other = std::string(v[0] == 'a' ? "b" : "a") + "b" + std::to_string(2 * k);
                     cell(t, "alu", i, byte) ^= 1;
                     cell(t, "alu", i, nb) = cell(t, "alu", i, byte) & cell(t, "alu", i, other);
                     const std::string ln = std::to_string(k);
                     const uint64_t limb = cell(t, "alu", i, "a" + ln) + cell(t, "alu", i, "b" + ln) -
                                           2 * (cell(t, "alu", i, nb) + 256 * cell(t, "alu", i, "nb" + std::to_string(2 * k + 1)));
                     if (limb >= 65536) return false;
                     uint64_t value = cpu_result(t, r);
                     value = (value & ~(uint64_t{0xffff} << (16 * k))) | (limb << (16 * k));
                     const auto alu_row = t.table("alu").rows[i];
                     forge_result(t, r, value);  // the cpu claims it; the alu row keeps the mixed bytes
                     auto& row = t.table("alu").rows[received_row(t, "alu", r)];
                     for (const char* c : {"ab0", "ab1", "ab2", "ab3", "ab4", "ab5", "ab6", "ab7", "bb0", "bb1", "bb2", "bb3",
                                           "bb4", "bb5", "bb6", "bb7", "nb0", "nb1", "nb2", "nb3", "nb4", "nb5", "nb6", "nb7"})
                       row[t.table("alu").col(c)] = alu_row[t.table("alu").col(c)];
                     count_lookups(t);
                     return true;
                   }, B::kAlu});
    }
  for (int k = 0; k < 8; ++k) {
    const std::string n = std::to_string(k);
    m.push_back({"alu:b:and" + n, "bit 0 of and-byte " + n + " of the xor row flipped", [n](AirTrace& t) {
                   const size_t i = received_row(t, "alu", row_with_insn(t, w::kXor));
                   cell(t, "alu", i, "nb" + n) ^= 1;
                   return true;
                 }, B::kAlu});
  }
  m.push_back({"alu:b:ops", "an alu row received twice (a copy in a padding row)", [](AirTrace& t) {
                 auto& alu = t.table("alu");
                 alu.rows.back() = alu.rows[received_row(t, "alu", row_with_insn(t, w::kAdd))];
                 count_lookups(t);
                 return true;
               }, B::kAlu});
  m.push_back({"and8:b:table", "an and8 multiplicity off by one", [](AirTrace& t) {
                 cell(t, "and8", 0, "mult") += 1;
                 return true;
               }, B::kAlu});
  // cpu: which operation, operands, result, branch target, FENCE
  auto rewrite_word = [](AirTrace& t, size_t r, uint32_t word) {  // the ELF holds another word here
    auto& prog = t.table("program");
    for (auto& row : prog.rows)
      if (row[prog.col("pc")] == get(t, "cpu", r, "pc")) row[prog.col("insn")] = word;
    set_insn(t, r, word);
    rebalance(t);
  };
  m.push_back({"cpu:c:fence_only", "FENCE.I (funct3 = 1) executed as a FENCE", [rewrite_word](AirTrace& t) {
                 rewrite_word(t, row_with_insn(t, w::kFence), 0x0000100f);
                 return true;
               }, B::kAlu});
  m.push_back({"cpu:c:f_fence_bit", "f_fence = 2 on a padding row", [](AirTrace& t) {
                 at(t, "cpu", first_padding(t), "f_fence") = 2;
                 return true;
               }, B::kAlu});
  m.push_back({"cpu:c:shift_imm", "SLLI with imm[6] set (reserved) executed", [rewrite_word](AirTrace& t) {
                 rewrite_word(t, row_with_insn(t, w::kSlli), w::kSlli | (1u << 26));
                 return true;
               }, B::kAlu});
  m.push_back({"cpu:c:sh", "SLLI with imm[6] set (reserved) executed, sh = 0 to hide it", [rewrite_word](AirTrace& t) {
                 const size_t r = row_with_insn(t, w::kSlli);
                 rewrite_word(t, r, w::kSlli | (1u << 26));
                 at(t, "cpu", r, "sh") = 0;
                 return true;
               }, B::kAlu});
  m.push_back({"cpu:c:shift_imm_w", "SLLIW with imm[5] set (reserved) executed", [rewrite_word](AirTrace& t) {
                 rewrite_word(t, row_with_insn(t, w::kSlliw), w::kSlliw | (1u << 25));
                 return true;
               }, B::kAlu});
  m.push_back({"cpu:c:shift_imm_left", "SLLI with imm[10] set (reserved) executed", [rewrite_word](AirTrace& t) {
                 rewrite_word(t, row_with_insn(t, w::kSlli), w::kSlli | (1u << 30));
                 return true;
               }, B::kAlu});
  m.push_back({"cpu:c:op_funct7", "ADD with funct7 = 4 (reserved) executed as ADD", [rewrite_word](AirTrace& t) {
                 rewrite_word(t, row_with_insn(t, w::kAdd), w::kAdd | (1u << 27));
                 return true;
               }, B::kAlu});
  m.push_back({"cpu:c:sr", "sr = 1 on an xori row", [](AirTrace& t) {
                 at(t, "cpu", row_with_insn(t, w::kXori), "sr") = 1;
                 return true;
               }, B::kAlu});
  m.push_back({"cpu:c:alt", "addi x26, x2, -8 (imm bit 30 set) executed as a subtraction (alt = 1)", [](AirTrace& t) {
                 const size_t r = row_with_insn(t, w::kAddiNeg);
                 at(t, "cpu", r, "alt") = 1, at(t, "cpu", r, "aop") = 8;
                 forge_result(t, r, limbs_value(t, r, "a_v") - limbs_value(t, r, "opb"), false);
                 return true;
               }, B::kAlu});
  m.push_back({"cpu:c:aop", "add executed as sub (aop = 8)", [](AirTrace& t) {
                 const size_t r = row_with_insn(t, w::kAdd);
                 at(t, "cpu", r, "aop") = 8;
                 forge_result(t, r, limbs_value(t, r, "a_v") - limbs_value(t, r, "opb"), false);
                 return true;
               }, B::kAlu});
  for (int k = 0; k < 4; ++k) {
    const std::string n = std::to_string(k);
    m.push_back({"cpu:c:opb" + n, "add's second operand limb " + n + " off by one", [k, n](AirTrace& t) {
                   const size_t r = row_with_insn(t, w::kAdd);
                   at(t, "cpu", r, ("opb" + n).c_str()) ^= 1;
                   (void)k;
                   forge_result(t, r, limbs_value(t, r, "a_v") + limbs_value(t, r, "opb"), false);
                   return true;
                 }, B::kAlu});
    m.push_back({"cpu:c:res_unused" + n, "res" + n + " = 1 on a lui row", [n](AirTrace& t) {
                   at(t, "cpu", row_with_insn(t, w::kLui), ("res" + n).c_str()) = 1;
                   return true;
                 }, B::kAlu});
    m.push_back({"cpu:c:alu_write" + n, "add writes a value other than the ALU's result (limb " + n + ")", [k](AirTrace& t) {
                   const size_t r = row_with_insn(t, w::kAdd);
                   set_limbs(t, r, "d_v", limbs_value(t, r, "d_v") ^ (uint64_t{1} << (16 * k)));
                   rebalance(t, false, true, false);
                   return true;
                 }, B::kAlu});
  }
  m.push_back({"cpu:b:alu", "sub x0's ALU result changed in the cpu only", [](AirTrace& t) {
                 at(t, "cpu", row_with_insn(t, w::kSubX0), "res0") ^= 1;
                 return true;
               }, B::kAlu});
  m.push_back({"cpu:c:branch_target", "a taken bne that falls through (to a copy of its target)", [](AirTrace& t) {
                 const size_t r = row_with_insn(t, w::kBne8);
                 at(t, "cpu", r, "next_pc") = get(t, "cpu", r, "pc") + 4;
                 at(t, "cpu", r + 1, "pc") = get(t, "cpu", r, "pc") + 4;
                 rebalance(t, false, true, false);
                 return true;
               }, B::kAlu});
}
}  // namespace zkrv::ref::air::fixture
