// The shift table's mutations (base alu_prog, merge_prog), and pow2's.
#include <algorithm>
#include <map>
#include <string>

#include "reference/field/goldilocks.h"
#include "tests/air/air_fixture.h"

namespace zkrv::ref::air::fixture {
namespace {

const std::vector<std::pair<std::string, uint64_t>> kShiftOps = {
    {"s_sll", 1}, {"s_srl", 5}, {"s_sra", 13}, {"s_sllw", 17}, {"s_srlw", 21}, {"s_sraw", 29}};
// The mul row that proves shift row i's multiplication request becomes an all-zero row.
void drop_mul_request(AirTrace& t, size_t i) {
  const auto& st = t.table("shift");
  auto& mt = t.table("mul");
  for (auto& row : mt.rows) {
    bool same = row[mt.col("op")] == st.rows[i][st.col("rop")];
    for (int k = 0; k < 4 && same; ++k) {
      const std::string n = std::to_string(k);
      same = row[mt.col("a" + n)] == st.rows[i][st.col("x" + n)] && row[mt.col("b" + n)] == st.rows[i][st.col("q" + n)] &&
             row[mt.col("r" + n)] == st.rows[i][st.col("y" + n)];
    }
    if (same) {
      std::fill(row.begin(), row.end(), 0);
      return;
    }
  }
}
// A shift row derived from (code, a, b) as the trace builder does, except for the columns in
// `ov`, which keep the given values and feed everything after them. Sets `result` to the result
// the row's constraints then give.
std::map<std::string, uint64_t> derive_shift(uint64_t code, uint64_t a, uint64_t b, const std::map<std::string, uint64_t>& ov,
                                             uint64_t& result) {
  std::map<std::string, uint64_t> v;
  auto put = [&](const std::string& c, uint64_t x) {
    const auto it = ov.find(c);
    return v[c] = it != ov.end() ? it->second : x;
  };
  const bool word = code == 17 || code == 21 || code == 29, left = code == 1 || code == 17;
  const uint64_t b0 = b & 0xffff;
  const uint64_t sl = put("sl", b0 & 31), s5 = put("s5", (b0 >> 5) & 1);
  put("m", b0 >> 6), put("sl8", 8 * sl);
  const uint64_t sh = put("sh", word ? sl : sl + 32 * s5);
  const uint64_t z = put("z", sh == 0);
  put("zinv", sh ? Fp::from_u64(sh).inverse().value() : 0);
  const uint64_t e = put("e", left ? sh : z ? 0 : (Fp::from_u64(64) - Fp::from_u64(sh)).value());
  const uint64_t q = e < 64 ? uint64_t{1} << e : 0;
  uint64_t qv = 0;
  for (int k = 0; k < 4; ++k) qv |= (put("q" + std::to_string(k), (q >> (16 * k)) & 0xffff) & 0xffff) << (16 * k);
  const uint64_t sa31 = put("sa31", (a >> 31) & 1);
  put("ah", (Fp::from_u64(2 * ((a >> 16) & 0xffff)) - Fp::from_u64(65536) * Fp::from_u64(sa31)).value());
  const bool narrow = code == 21 || code == 29;
  uint64_t xv = 0, xl[4];
  for (int k = 0; k < 4; ++k) {
    const uint64_t limb = (a >> (16 * k)) & 0xffff;
    const uint64_t honest = k < 2 ? limb : (narrow ? 0 : limb) + (code == 29 ? 65535 * sa31 : 0);
    xl[k] = put("x" + std::to_string(k), honest);
    xv |= (xl[k] & 0xffff) << (16 * k);
  }
  const uint64_t rop = put("rop", code == 1 ? 32 : code == 17 ? 48 : (code == 5 || code == 21) ? 35 : 34);
  const uint64_t y = alu_result(rop, xv, qv).value_or(0);
  uint64_t yl[4];
  for (int k = 0; k < 4; ++k) yl[k] = put("y" + std::to_string(k), (y >> (16 * k)) & 0xffff);
  uint64_t rl[4];
  for (int k = 0; k < 4; ++k) rl[k] = left ? yl[k] : (z ? xl[k] : yl[k]);
  const uint64_t w = put("w", code == 21 ? rl[1] >> 15 : (rl[1] >> 15));
  if (code == 21) rl[2] = rl[3] = 65535 * w;
  put("wh", (Fp::from_u64(2 * rl[1]) - Fp::from_u64(65536) * Fp::from_u64(w)).value());
  result = 0;
  for (int k = 0; k < 4; ++k) v["r" + std::to_string(k)] = rl[k], result |= (rl[k] & 0xffff) << (16 * k);
  return v;
}
// The shift at `word` proven with the columns in `ov` as given: the cpu claims the result the row
// then gives, and the mul table proves the multiplication the row then asks for.
bool shift_attack(AirTrace& t, uint32_t word, const std::map<std::string, uint64_t>& ov) {
  const size_t r = row_with_insn(t, word);
  uint64_t result = 0;
  const auto v = derive_shift(get(t, "cpu", r, "aop"), limbs_value(t, r, "a_v"), limbs_value(t, r, "opb"), ov, result);
  forge_result(t, r, result);
  const size_t i = received_row(t, "shift", r);
  auto& st = t.table("shift");
  auto& mt = t.table("mul");
  drop_mul_request(t, i);  // the honest request's mul row goes; the new request's comes
  for (const auto& [c, x] : v) st.rows[i][st.col(c)] = x;
  uint64_t xv = 0, qv = 0;
  for (int k = 0; k < 4; ++k)
    xv |= (v.at("x" + std::to_string(k)) & 0xffff) << (16 * k), qv |= (v.at("q" + std::to_string(k)) & 0xffff) << (16 * k);
  if (alu_result(v.at("rop"), xv, qv)) mt.rows.push_back(make_mul_row(mt, v.at("rop"), xv, qv));
  count_lookups(t);
  return true;
}

}  // namespace

void shift_mutations(std::vector<Mutation>& m) {
  using B = Mutation::Base;
  flip_result_limbs(m, "shift", w::kSrl, "shift (srl)");
  struct Attack {
    const char* id;
    uint32_t word;
    std::map<std::string, uint64_t> ov;
    const char* what;
  };
  const std::vector<Attack> attacks = {
      {"shift:c:amount_bits", w::kSrl, {{"sl", 8}, {"sl8", 64}}, "srl by 7 computed as by 8 (sl = 8)"},
      {"shift:c:sl8", w::kSrl, {{"sl8", 57}}, "sl8 not 8 sl"},
      {"shift:c:sh", w::kSrl, {{"sh", 8}}, "srl by 7 computed as by 8 (sh = 8)"},
      {"shift:c:z_def", w::kSlli0, {{"z", 0}}, "a left shift by 0 with z = 0"},
      {"shift:c:z_zero", w::kSrl, {{"z", 1}, {"zinv", 0}}, "srl by 7 claimed a shift by 0 (z = 1)"},
      {"shift:c:e", w::kSrl, {{"e", 56}}, "srl by 7 multiplied by 2^56 (a shift by 8)"},
      {"shift:b:pow2", w::kSrl, {{"q0", 1}}, "srl by 7 multiplied by 2^57 + 1"},
      {"shift:c:sa31", w::kSraw, {{"sa31", 0}, {"ah", 0}}, "sraw of a negative word as if positive (sa31 = 0, ah kept)"},
      {"shift:b:ah", w::kSraw, {{"sa31", 0}}, "sraw of a negative word as if positive (ah = 2 a1)"},
      {"shift:c:x0", w::kSraw, {{"x0", 1}}, "sraw's multiplicand limb 0 changed"},
      {"shift:c:x1", w::kSraw, {{"x1", 0x7fff}}, "sraw's multiplicand limb 1 changed"},
      {"shift:c:x2", w::kSraw, {{"x2", 0}}, "sraw's multiplicand limb 2 not the sign extension"},
      {"shift:c:x3", w::kSraw, {{"x3", 0}}, "sraw's multiplicand limb 3 not the sign extension"},
      {"shift:c:rop", w::kSrl, {{"rop", 34}}, "srl computed with MULHSU (an arithmetic shift)"},
      {"shift:c:w", w::kSrlw, {{"w", 1}, {"wh", 2 * 0x0100}}, "srlw's positive result claimed negative (w = 1, wh kept)"},
      {"shift:b:wh", w::kSrlw, {{"w", 1}}, "srlw's positive result claimed negative (w = 1, wh to match)"},
      {"shift:c:s5_bit", w::kSrl, {{"s5", 2}}, "s5 = 2"},
      {"shift:c:sa31_bit", w::kSraw, {{"sa31", 2}}, "sa31 = 2"},
      {"shift:c:w_bit", w::kSrlw, {{"w", 2}}, "w = 2"},
  };
  for (const auto& a : attacks)
    m.push_back({a.id, a.what, [a](AirTrace& t) { return shift_attack(t, a.word, a.ov); }, B::kAlu});
  m.push_back({"shift:b:sl", "sl8 + 256 (not a byte)", [](AirTrace& t) {
                 cell(t, "shift", received_row(t, "shift", row_with_insn(t, w::kSrl)), "sl8") += 256;
                 return true;
               }, B::kAlu});
  m.push_back({"shift:b:m", "m + 65536", [](AirTrace& t) {
                 cell(t, "shift", received_row(t, "shift", row_with_insn(t, w::kSrl)), "m") += 65536;
                 return true;
               }, B::kAlu});
  m.push_back({"shift:b:mul", "a shift's multiplication result changed in the shift row only", [](AirTrace& t) {
                 cell(t, "shift", received_row(t, "shift", row_with_insn(t, w::kSll)), "y0") ^= 1;
                 return true;
               }, B::kAlu});
  m.push_back({"shift:c:op", "a srl row that proves sra (selector s_sra, op still 5)", [](AirTrace& t) {
                 const size_t r = row_with_insn(t, w::kSrl);
                 const uint64_t a = limbs_value(t, r, "a_v"), b = limbs_value(t, r, "opb");
                 at(t, "cpu", r, "aop") = 13;
                 forge_result(t, r, alu_result(13, a, b).value(), false);
                 const size_t i = received_row(t, "shift", r);
                 at(t, "cpu", r, "aop") = 5, cell(t, "shift", i, "op") = 5;
                 return true;
               }, B::kAlu});
  m.push_back({"shift:c:one_op", "two selectors on a padding row of the shift table", [](AirTrace& t) {
                 auto& st = t.table("shift");
                 st.rows.push_back(std::vector<uint64_t>(st.columns.size(), 0));
                 st.rows.back()[st.col("s_sll")] = 1, st.rows.back()[st.col("s_srl")] = 1;
                 return true;
               }, B::kAlu});
  for (const auto& [sel, code] : kShiftOps)
    m.push_back({"shift:c:" + sel + "_bit", sel + " = 2 on a padding row of the shift table", [sel = sel](AirTrace& t) {
                   auto& st = t.table("shift");
                   st.rows.push_back(std::vector<uint64_t>(st.columns.size(), 0));
                   st.rows.back()[st.col(sel)] = 2;
                   return true;
                 }, B::kAlu});
  m.push_back({"shift:b:ops", "a shift row received twice", [](AirTrace& t) {
                 auto& st = t.table("shift");
                 st.rows.push_back(st.rows[received_row(t, "shift", row_with_insn(t, w::kSll))]);
                 count_lookups(t);
                 return true;
               }, B::kAlu});
  // One row with two selectors, received twice: SRL + SRAW has op 5 + 29 = 34 (MULHSU), and its
  // product goes out with rop 35 + 34 = 69 (BGE). merge_prog computes MULHSU(0, 0) and BGE(0, 1)
  // twice each; the shift row for 0 >> 0 (z = 1, q = 2^0, r = 2 (z x) = 0) takes the place of
  // both mul rows, and two more copies of the BGE row receive its two products.
  m.push_back({"shift:c:one_op", "one shift row with SRL and SRAW set, taking the place of two MULHSU(0, 0) rows",
               [](AirTrace& t) {
                 auto& mul = t.table("mul");
                 size_t removed = 0;
                 for (auto& row : mul.rows)
                   if (row[mul.col("op")] == 34 && row[mul.col("s_mulhsu")] == 1)
                     std::fill(row.begin(), row.end(), 0), ++removed;
                 auto& alu = t.table("alu");
                 std::vector<std::vector<uint64_t>> bge;
                 for (const auto& row : alu.rows)
                   if (row[alu.col("op")] == 69 && row[alu.col("s_bge")] == 1 && row[alu.col("b0")] == 1) bge.push_back(row);
                 if (removed != 2 || bge.size() != 2) return false;
                 alu.rows.insert(alu.rows.end(), bge.begin(), bge.end());
                 while (alu.height() & (alu.height() - 1)) alu.rows.push_back(std::vector<uint64_t>(alu.columns.size(), 0));
                 auto& st = t.table("shift");
                 auto& row = st.rows[0];
                 if (std::any_of(row.begin(), row.end(), [](uint64_t v) { return v != 0; })) return false;
                 for (const auto& [col, v] : std::vector<std::pair<const char*, uint64_t>>{
                          {"s_srl", 1}, {"s_sraw", 1}, {"op", 34}, {"z", 1}, {"q0", 1}, {"rop", 69}})
                   row[st.col(col)] = v;
                 count_lookups(t);
                 return true;
               }, B::kMerge});
  m.push_back({"pow2:b:table", "a pow2 multiplicity off by one", [](AirTrace& t) {
                 t.table("pow2").rows[3][5] += 1;
                 return true;
               }, B::kAlu});
}
}  // namespace zkrv::ref::air::fixture
