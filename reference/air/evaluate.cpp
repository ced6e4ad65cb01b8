// The reference evaluator, block by block in the order of spec/tables/*.md (lint: every ID once,
// in order; tests/air/spec_lint_test.cpp).
#include "reference/air/evaluate.h"

#include <initializer_list>
#include <stdexcept>
#include <type_traits>
#include <string_view>

namespace zkrv::ref::air {

Names::Names(std::span<const std::string> names) : names_(names.begin(), names.end()) {
  for (size_t i = 0; i < names_.size(); ++i) index_.emplace(names_[i], i);
}
size_t Names::at(std::string_view name) const {
  const auto it = index_.find(name);
  if (it == index_.end()) throw std::out_of_range("no column or public value named " + std::string(name));
  return it->second;
}

namespace {

using spec::air::Rows;

template <class V>
V f(uint64_t v) {
  if constexpr (std::is_same_v<V, Fp>) return Fp::from_u64(v);
  else return V{{Fp::from_u64(v), Fp(), Fp()}};
}

// The table bodies' way of reporting: c(id, v) for a constraint on every row, c.first, c.last
// and c.transition for the others, c.bus for an interaction.
template <class V>
struct Emit {
  Values<V>& out;
  void operator()(std::string_view id, const V& v) const { out.constraint(id, Rows::kEvery, v); }
  void first(std::string_view id, const V& v) const { out.constraint(id, Rows::kFirst, v); }
  void last(std::string_view id, const V& v) const { out.constraint(id, Rows::kLast, v); }
  void transition(std::string_view id, const V& v) const { out.constraint(id, Rows::kTransition, v); }
  void bus(std::string_view id, std::string_view bus, bool send, std::initializer_list<V> tuple, const V& mult) const {
    out.bus(id, bus, send, std::span<const V>(tuple.begin(), tuple.size()), mult);
  }
  void bus(std::string_view id, std::string_view bus, bool send, const std::vector<V>& tuple, const V& mult) const {
    out.bus(id, bus, send, tuple, mult);
  }
};

// ---- alu (spec/tables/alu.md) ----
template <class V>
void eval_alu(const Point<V>& x, Values<V>& s) {
  const Emit<V> c{s};
  static const std::pair<const char*, uint64_t> kOps[] = {{"s_add", 0}, {"s_sub", 8}, {"s_addw", 16}, {"s_subw", 24}, {"s_slt", 2}, {"s_sltu", 3}, {"s_xor", 4}, {"s_or", 6}, {"s_and", 7}, {"s_beq", 64}, {"s_bne", 65}, {"s_blt", 68}, {"s_bge", 69}, {"s_bltu", 70}, {"s_bgeu", 71}};
  V any, code;
  for (const auto& [sel, value] : kOps) any = any + x(sel), code = code + f<V>(value) * x(sel);
  const V one = f<V>(1);
  // spec: alu:c:s_add_bit
  c("alu:c:s_add_bit", x("s_add") * (x("s_add") - one));
  // spec: alu:c:s_sub_bit
  c("alu:c:s_sub_bit", x("s_sub") * (x("s_sub") - one));
  // spec: alu:c:s_addw_bit
  c("alu:c:s_addw_bit", x("s_addw") * (x("s_addw") - one));
  // spec: alu:c:s_subw_bit
  c("alu:c:s_subw_bit", x("s_subw") * (x("s_subw") - one));
  // spec: alu:c:s_slt_bit
  c("alu:c:s_slt_bit", x("s_slt") * (x("s_slt") - one));
  // spec: alu:c:s_sltu_bit
  c("alu:c:s_sltu_bit", x("s_sltu") * (x("s_sltu") - one));
  // spec: alu:c:s_xor_bit
  c("alu:c:s_xor_bit", x("s_xor") * (x("s_xor") - one));
  // spec: alu:c:s_or_bit
  c("alu:c:s_or_bit", x("s_or") * (x("s_or") - one));
  // spec: alu:c:s_and_bit
  c("alu:c:s_and_bit", x("s_and") * (x("s_and") - one));
  // spec: alu:c:s_beq_bit
  c("alu:c:s_beq_bit", x("s_beq") * (x("s_beq") - one));
  // spec: alu:c:s_bne_bit
  c("alu:c:s_bne_bit", x("s_bne") * (x("s_bne") - one));
  // spec: alu:c:s_blt_bit
  c("alu:c:s_blt_bit", x("s_blt") * (x("s_blt") - one));
  // spec: alu:c:s_bge_bit
  c("alu:c:s_bge_bit", x("s_bge") * (x("s_bge") - one));
  // spec: alu:c:s_bltu_bit
  c("alu:c:s_bltu_bit", x("s_bltu") * (x("s_bltu") - one));
  // spec: alu:c:s_bgeu_bit
  c("alu:c:s_bgeu_bit", x("s_bgeu") * (x("s_bgeu") - one));
  // spec: alu:c:one_op
  c("alu:c:one_op", any * (any - one));
  // spec: alu:c:op
  c("alu:c:op", x("op") - code);
  // spec: alu:b:ops
  c.bus("alu:b:ops", "alu", false, {x("op"), x("a0"), x("a1"), x("a2"), x("a3"), x("b0"), x("b1"), x("b2"), x("b3"), x("r0"), x("r1"), x("r2"), x("r3")}, any);
  // spec: alu:c:a_bytes0
  c("alu:c:a_bytes0", x("a0") - x("ab0") - f<V>(256) * x("ab1"));
  // spec: alu:c:a_bytes1
  c("alu:c:a_bytes1", x("a1") - x("ab2") - f<V>(256) * x("ab3"));
  // spec: alu:c:a_bytes2
  c("alu:c:a_bytes2", x("a2") - x("ab4") - f<V>(256) * x("ab5"));
  // spec: alu:c:a_bytes3
  c("alu:c:a_bytes3", x("a3") - x("ab6") - f<V>(256) * x("ab7"));
  // spec: alu:c:b_bytes0
  c("alu:c:b_bytes0", x("b0") - x("bb0") - f<V>(256) * x("bb1"));
  // spec: alu:c:b_bytes1
  c("alu:c:b_bytes1", x("b1") - x("bb2") - f<V>(256) * x("bb3"));
  // spec: alu:c:b_bytes2
  c("alu:c:b_bytes2", x("b2") - x("bb4") - f<V>(256) * x("bb5"));
  // spec: alu:c:b_bytes3
  c("alu:c:b_bytes3", x("b3") - x("bb6") - f<V>(256) * x("bb7"));
  // spec: alu:b:and0
  c.bus("alu:b:and0", "and8", true, {x("ab0"), x("bb0"), x("nb0")}, any);
  // spec: alu:b:and1
  c.bus("alu:b:and1", "and8", true, {x("ab1"), x("bb1"), x("nb1")}, any);
  // spec: alu:b:and2
  c.bus("alu:b:and2", "and8", true, {x("ab2"), x("bb2"), x("nb2")}, any);
  // spec: alu:b:and3
  c.bus("alu:b:and3", "and8", true, {x("ab3"), x("bb3"), x("nb3")}, any);
  // spec: alu:b:and4
  c.bus("alu:b:and4", "and8", true, {x("ab4"), x("bb4"), x("nb4")}, any);
  // spec: alu:b:and5
  c.bus("alu:b:and5", "and8", true, {x("ab5"), x("bb5"), x("nb5")}, any);
  // spec: alu:b:and6
  c.bus("alu:b:and6", "and8", true, {x("ab6"), x("bb6"), x("nb6")}, any);
  // spec: alu:b:and7
  c.bus("alu:b:and7", "and8", true, {x("ab7"), x("bb7"), x("nb7")}, any);
  // spec: alu:c:sa_bit
  c("alu:c:sa_bit", x("sa") * (x("sa") - one));
  // spec: alu:c:sb_bit
  c("alu:c:sb_bit", x("sb") * (x("sb") - one));
  // spec: alu:c:sa
  c("alu:c:sa", f<V>(2) * x("ab7") - f<V>(256) * x("sa") - x("ah"));
  // spec: alu:c:sb
  c("alu:c:sb", f<V>(2) * x("bb7") - f<V>(256) * x("sb") - x("bh"));
  // spec: alu:b:ah
  c.bus("alu:b:ah", "byte", true, {x("ah")}, any);
  // spec: alu:b:bh
  c.bus("alu:b:bh", "byte", true, {x("bh")}, any);
  const V add = x("s_add") + x("s_addw");
  const V sub = x("s_sub") + x("s_subw") + x("s_slt") + x("s_sltu") + x("s_beq") + x("s_bne") + x("s_blt") + x("s_bge") + x("s_bltu") + x("s_bgeu");
  // spec: alu:c:add0
  c("alu:c:add0", add * (x("a0") + x("b0") - x("t0") - f<V>(65536) * x("c0")) + sub * (x("t0") + x("b0") - x("a0") - f<V>(65536) * x("c0")));
  // spec: alu:c:add1
  c("alu:c:add1", add * (x("a1") + x("b1") + x("c0") - x("t1") - f<V>(65536) * x("c1")) + sub * (x("t1") + x("b1") + x("c0") - x("a1") - f<V>(65536) * x("c1")));
  // spec: alu:c:add2
  c("alu:c:add2", add * (x("a2") + x("b2") + x("c1") - x("t2") - f<V>(65536) * x("c2")) + sub * (x("t2") + x("b2") + x("c1") - x("a2") - f<V>(65536) * x("c2")));
  // spec: alu:c:add3
  c("alu:c:add3", add * (x("a3") + x("b3") + x("c2") - x("t3") - f<V>(65536) * x("c3")) + sub * (x("t3") + x("b3") + x("c2") - x("a3") - f<V>(65536) * x("c3")));
  // spec: alu:c:c0_bit
  c("alu:c:c0_bit", x("c0") * (x("c0") - one));
  // spec: alu:c:c1_bit
  c("alu:c:c1_bit", x("c1") * (x("c1") - one));
  // spec: alu:c:c2_bit
  c("alu:c:c2_bit", x("c2") * (x("c2") - one));
  // spec: alu:c:c3_bit
  c("alu:c:c3_bit", x("c3") * (x("c3") - one));
  const V bitwise = x("s_xor") + x("s_or") + x("s_and");
  // spec: alu:c:t0_unused
  c("alu:c:t0_unused", bitwise * x("t0"));
  // spec: alu:c:t1_unused
  c("alu:c:t1_unused", bitwise * x("t1"));
  // spec: alu:c:t2_unused
  c("alu:c:t2_unused", bitwise * x("t2"));
  // spec: alu:c:t3_unused
  c("alu:c:t3_unused", bitwise * x("t3"));
  // spec: alu:c:c0_unused
  c("alu:c:c0_unused", bitwise * x("c0"));
  // spec: alu:c:c1_unused
  c("alu:c:c1_unused", bitwise * x("c1"));
  // spec: alu:c:c2_unused
  c("alu:c:c2_unused", bitwise * x("c2"));
  // spec: alu:c:c3_unused
  c("alu:c:c3_unused", bitwise * x("c3"));
  // spec: alu:b:t0
  c.bus("alu:b:t0", "range16", true, {x("t0")}, any);
  // spec: alu:b:t1
  c.bus("alu:b:t1", "range16", true, {x("t1")}, any);
  // spec: alu:b:t2
  c.bus("alu:b:t2", "range16", true, {x("t2")}, any);
  // spec: alu:b:t3
  c.bus("alu:b:t3", "range16", true, {x("t3")}, any);
  // spec: alu:c:sx
  c("alu:c:sx", x("sx") - x("sa") - x("sb") + f<V>(2) * x("sa") * x("sb"));
  // spec: alu:c:lt
  c("alu:c:lt", x("lt") - x("c3") - x("sx") + f<V>(2) * x("c3") * x("sx"));
  const V tsum = x("t0") + x("t1") + x("t2") + x("t3");
  // spec: alu:c:nz_def
  c("alu:c:nz_def", x("nz") - tsum * x("nzinv"));
  // spec: alu:c:nz_zero
  c("alu:c:nz_zero", tsum * (one - x("nz")));
  // spec: alu:c:w_bit
  c("alu:c:w_bit", x("w") * (x("w") - one));
  // spec: alu:c:w
  c("alu:c:w", f<V>(2) * x("t1") - f<V>(65536) * x("w") - x("wh"));
  // spec: alu:b:wh
  c.bus("alu:b:wh", "range16", true, {x("wh")}, any);
  // the result, limb by limb: arithmetic, comparison and bitwise parts
  auto bitwise_limb = [&](int k) {
    const V a = x(("a" + std::to_string(k)).c_str()), b = x(("b" + std::to_string(k)).c_str());
    const V n = x(("nb" + std::to_string(2 * k)).c_str()) + f<V>(256) * x(("nb" + std::to_string(2 * k + 1)).c_str());
    return x("s_and") * n + x("s_or") * (a + b - n) + x("s_xor") * (a + b - f<V>(2) * n);
  };
  const V arith = x("s_add") + x("s_sub") + x("s_addw") + x("s_subw");
  // spec: alu:c:r0
  c("alu:c:r0", x("r0") - arith * x("t0") - (x("s_sltu") + x("s_bltu")) * x("c3") - (x("s_slt") + x("s_blt")) * x("lt") -
                    x("s_bgeu") * (one - x("c3")) - x("s_bge") * (one - x("lt")) - x("s_beq") * (one - x("nz")) -
                    x("s_bne") * x("nz") - bitwise_limb(0));
  // spec: alu:c:r1
  c("alu:c:r1", x("r1") - arith * x("t1") - bitwise_limb(1));
  // spec: alu:c:r2
  c("alu:c:r2", x("r2") - (x("s_add") + x("s_sub")) * x("t2") - (x("s_addw") + x("s_subw")) * f<V>(65535) * x("w") - bitwise_limb(2));
  // spec: alu:c:r3
  c("alu:c:r3", x("r3") - (x("s_add") + x("s_sub")) * x("t3") - (x("s_addw") + x("s_subw")) * f<V>(65535) * x("w") - bitwise_limb(3));
}

// ---- and8 (spec/tables/and8.md) ----
template <class V>
void eval_and8(const Point<V>& x, Values<V>& s) {
  const Emit<V> c{s};
  // spec: and8:b:table
  c.bus("and8:b:table", "and8", false, {x("x"), x("y"), x("z")}, x("mult"));
}

// ---- byte (spec/tables/byte.md) ----
template <class V>
void eval_byte(const Point<V>& x, Values<V>& s) {
  const Emit<V> c{s};
  // spec: byte:c:value_first
  c.first("byte:c:value_first", x("value"));
  // spec: byte:c:value_step
  c.transition("byte:c:value_step", (x.next("value") - x("value") - f<V>(1)));
  // spec: byte:b:table
  c.bus("byte:b:table", "byte", false, {x("value")}, x("mult"));
}

// ---- cpu (spec/tables/cpu.md) ----
template <class V>
void eval_cpu(const Point<V>& x, Values<V>& s) {
  const Emit<V> c{s};
  static const char* const kFlags[] = {"f_lui", "f_auipc", "f_jal", "f_jalr", "f_branch", "f_load",
                                     "f_store", "f_opimm", "f_op", "f_opimm32", "f_op32", "f_system", "f_fence"};
  static const char* const kBits[] = {"i8",  "i9",  "i10", "i11", "i12", "i13", "i14", "i15",
                                    "i16", "i17", "i18", "i19", "i20", "i21", "i22", "i23",
                                    "i24", "i25", "i26", "i27", "i28", "i29", "i30", "i31"};
  static const uint64_t kOpcodes[] = {0x37, 0x17, 0x6f, 0x67, 0x63, 0x03, 0x23, 0x13, 0x33, 0x1b, 0x3b, 0x73, 0x0f};
  const V entry = x.pub("entry"), exit_code = x.pub("exit_code");
  const V one = f<V>(1), is_real = x("is_real");
  // spec: cpu:c:real_bit
  c("cpu:c:real_bit", is_real * (is_real - one));
  // spec: cpu:c:real_first
  c.first("cpu:c:real_first", is_real - one);
  // spec: cpu:c:real_prefix
  c.transition("cpu:c:real_prefix", (one - is_real) * x.next("is_real"));
  // spec: cpu:c:clk_first
  c.first("cpu:c:clk_first", x("clk"));
  // spec: cpu:c:clk_step
  c.transition("cpu:c:clk_step", x.next("clk") - x("clk") - one);
  // spec: cpu:c:pc_first
  c.first("cpu:c:pc_first", x("pc") - entry);
  // spec: cpu:c:pc_flow
  c.transition("cpu:c:pc_flow", x.next("is_real") * (x.next("pc") - x("next_pc")));
  // spec: cpu:b:fetch
  c.bus("cpu:b:fetch", "program", true, {x("pc"), x("insn")}, is_real);
  // spec: cpu:c:insn_bits
  {
    V high;
    for (int k = 8; k < 32; ++k) high = high + f<V>(uint64_t{1} << k) * x(kBits[k - 8]);
    c("cpu:c:insn_bits", x("insn") - x("b0") - high);
  }
  // spec: cpu:b:byte0
  c.bus("cpu:b:byte0", "byte", true, {x("b0")}, is_real);
  // spec: cpu:c:rd0_bit
  c("cpu:c:rd0_bit", x("rd0") * (x("rd0") - one));
  // spec: cpu:c:f_lui_bit
  c("cpu:c:f_lui_bit", x("f_lui") * (x("f_lui") - one));
  // spec: cpu:c:f_auipc_bit
  c("cpu:c:f_auipc_bit", x("f_auipc") * (x("f_auipc") - one));
  // spec: cpu:c:f_jal_bit
  c("cpu:c:f_jal_bit", x("f_jal") * (x("f_jal") - one));
  // spec: cpu:c:f_jalr_bit
  c("cpu:c:f_jalr_bit", x("f_jalr") * (x("f_jalr") - one));
  // spec: cpu:c:f_branch_bit
  c("cpu:c:f_branch_bit", x("f_branch") * (x("f_branch") - one));
  // spec: cpu:c:f_load_bit
  c("cpu:c:f_load_bit", x("f_load") * (x("f_load") - one));
  // spec: cpu:c:f_store_bit
  c("cpu:c:f_store_bit", x("f_store") * (x("f_store") - one));
  // spec: cpu:c:f_opimm_bit
  c("cpu:c:f_opimm_bit", x("f_opimm") * (x("f_opimm") - one));
  // spec: cpu:c:f_op_bit
  c("cpu:c:f_op_bit", x("f_op") * (x("f_op") - one));
  // spec: cpu:c:f_opimm32_bit
  c("cpu:c:f_opimm32_bit", x("f_opimm32") * (x("f_opimm32") - one));
  // spec: cpu:c:f_op32_bit
  c("cpu:c:f_op32_bit", x("f_op32") * (x("f_op32") - one));
  // spec: cpu:c:f_system_bit
  c("cpu:c:f_system_bit", x("f_system") * (x("f_system") - one));
  // spec: cpu:c:f_fence_bit
  c("cpu:c:f_fence_bit", x("f_fence") * (x("f_fence") - one));
  // spec: cpu:c:one_class
  {
    V sum;
    for (const char* flag : kFlags) sum = sum + x(flag);
    c("cpu:c:one_class", sum - is_real);
  }
  // spec: cpu:c:opcode
  {
    V code;
    for (size_t k = 0; k < 13; ++k) code = code + f<V>(kOpcodes[k]) * x(kFlags[k]);
    c("cpu:c:opcode", x("b0") - f<V>(128) * x("rd0") - code);
  }
  // spec: cpu:c:ecall_only
  c("cpu:c:ecall_only", x("f_system") * (x("insn") - f<V>(0x73)));
  // spec: cpu:c:fence_only
  c("cpu:c:fence_only", x("f_fence") * x("funct3"));
  // spec: cpu:c:i8_bit
  c("cpu:c:i8_bit", x("i8") * (x("i8") - one));
  // spec: cpu:c:i9_bit
  c("cpu:c:i9_bit", x("i9") * (x("i9") - one));
  // spec: cpu:c:i10_bit
  c("cpu:c:i10_bit", x("i10") * (x("i10") - one));
  // spec: cpu:c:i11_bit
  c("cpu:c:i11_bit", x("i11") * (x("i11") - one));
  // spec: cpu:c:i12_bit
  c("cpu:c:i12_bit", x("i12") * (x("i12") - one));
  // spec: cpu:c:i13_bit
  c("cpu:c:i13_bit", x("i13") * (x("i13") - one));
  // spec: cpu:c:i14_bit
  c("cpu:c:i14_bit", x("i14") * (x("i14") - one));
  // spec: cpu:c:i15_bit
  c("cpu:c:i15_bit", x("i15") * (x("i15") - one));
  // spec: cpu:c:i16_bit
  c("cpu:c:i16_bit", x("i16") * (x("i16") - one));
  // spec: cpu:c:i17_bit
  c("cpu:c:i17_bit", x("i17") * (x("i17") - one));
  // spec: cpu:c:i18_bit
  c("cpu:c:i18_bit", x("i18") * (x("i18") - one));
  // spec: cpu:c:i19_bit
  c("cpu:c:i19_bit", x("i19") * (x("i19") - one));
  // spec: cpu:c:i20_bit
  c("cpu:c:i20_bit", x("i20") * (x("i20") - one));
  // spec: cpu:c:i21_bit
  c("cpu:c:i21_bit", x("i21") * (x("i21") - one));
  // spec: cpu:c:i22_bit
  c("cpu:c:i22_bit", x("i22") * (x("i22") - one));
  // spec: cpu:c:i23_bit
  c("cpu:c:i23_bit", x("i23") * (x("i23") - one));
  // spec: cpu:c:i24_bit
  c("cpu:c:i24_bit", x("i24") * (x("i24") - one));
  // spec: cpu:c:i25_bit
  c("cpu:c:i25_bit", x("i25") * (x("i25") - one));
  // spec: cpu:c:i26_bit
  c("cpu:c:i26_bit", x("i26") * (x("i26") - one));
  // spec: cpu:c:i27_bit
  c("cpu:c:i27_bit", x("i27") * (x("i27") - one));
  // spec: cpu:c:i28_bit
  c("cpu:c:i28_bit", x("i28") * (x("i28") - one));
  // spec: cpu:c:i29_bit
  c("cpu:c:i29_bit", x("i29") * (x("i29") - one));
  // spec: cpu:c:i30_bit
  c("cpu:c:i30_bit", x("i30") * (x("i30") - one));
  // spec: cpu:c:i31_bit
  c("cpu:c:i31_bit", x("i31") * (x("i31") - one));
  // spec: cpu:c:rd
  c("cpu:c:rd", x("rd") - x("rd0") - f<V>(2) * x("i8") - f<V>(4) * x("i9") - f<V>(8) * x("i10") - f<V>(16) * x("i11"));
  // spec: cpu:c:funct3
  c("cpu:c:funct3", x("funct3") - x("i12") - f<V>(2) * x("i13") - f<V>(4) * x("i14"));
  // spec: cpu:c:rs1
  c("cpu:c:rs1", x("rs1") - x("i15") - f<V>(2) * x("i16") - f<V>(4) * x("i17") - f<V>(8) * x("i18") - f<V>(16) * x("i19"));
  // spec: cpu:c:rs2
  c("cpu:c:rs2", x("rs2") - x("i20") - f<V>(2) * x("i21") - f<V>(4) * x("i22") - f<V>(8) * x("i23") - f<V>(16) * x("i24"));
  // spec: cpu:c:funct7
  c("cpu:c:funct7", x("funct7") - x("i25") - f<V>(2) * x("i26") - f<V>(4) * x("i27") - f<V>(8) * x("i28") - f<V>(16) * x("i29") -
                        f<V>(32) * x("i30") - f<V>(64) * x("i31"));
  // spec: cpu:c:ra
  c("cpu:c:ra", x("ra") - x("rs1") - x("f_system") * (f<V>(17) - x("rs1")));
  // spec: cpu:c:rb
  c("cpu:c:rb", x("rb") - x("rs2") - x("f_system") * (f<V>(10) - x("rs2")));
  // spec: cpu:c:wr
  c("cpu:c:wr", x("wr") - x("rd") - x("f_system") * (f<V>(10) - x("rd")));
  // spec: cpu:b:ra_in
  c.bus("cpu:b:ra_in", "reg", false, {x("ra"), x("a_prev_ts"), x("a_v0"), x("a_v1"), x("a_v2"), x("a_v3")}, is_real);
  // spec: cpu:b:ra_out
  c.bus("cpu:b:ra_out", "reg", true, {x("ra"), (f<V>(4) * x("clk") + f<V>(1)), x("a_v0"), x("a_v1"), x("a_v2"), x("a_v3")}, is_real);
  // spec: cpu:b:rb_in
  c.bus("cpu:b:rb_in", "reg", false, {x("rb"), x("b_prev_ts"), x("b_v0"), x("b_v1"), x("b_v2"), x("b_v3")}, is_real);
  // spec: cpu:b:rb_out
  c.bus("cpu:b:rb_out", "reg", true, {x("rb"), (f<V>(4) * x("clk") + f<V>(2)), x("b_v0"), x("b_v1"), x("b_v2"), x("b_v3")}, is_real);
  // spec: cpu:b:wr_in
  c.bus("cpu:b:wr_in", "reg", false, {x("wr"), x("d_prev_ts"), x("d_old0"), x("d_old1"), x("d_old2"), x("d_old3")}, is_real);
  // spec: cpu:b:wr_out
  c.bus("cpu:b:wr_out", "reg", true, {x("wr"), (f<V>(4) * x("clk") + f<V>(3)), x("d_v0"), x("d_v1"), x("d_v2"), x("d_v3")}, is_real);
  // spec: cpu:c:ra_order
  c("cpu:c:ra_order", is_real * (f<V>(4) * x("clk") + f<V>(1) - x("a_prev_ts") - one - x("a_dt0") - f<V>(65536) * x("a_dt1")));
  // spec: cpu:c:rb_order
  c("cpu:c:rb_order", is_real * (f<V>(4) * x("clk") + f<V>(2) - x("b_prev_ts") - one - x("b_dt0") - f<V>(65536) * x("b_dt1")));
  // spec: cpu:c:wr_order
  c("cpu:c:wr_order", is_real * (f<V>(4) * x("clk") + f<V>(3) - x("d_prev_ts") - one - x("d_dt0") - f<V>(65536) * x("d_dt1")));
  // spec: cpu:b:a_dt0
  c.bus("cpu:b:a_dt0", "range16", true, {x("a_dt0")}, is_real);
  // spec: cpu:b:a_dt1
  c.bus("cpu:b:a_dt1", "range16", true, {x("a_dt1")}, is_real);
  // spec: cpu:b:b_dt0
  c.bus("cpu:b:b_dt0", "range16", true, {x("b_dt0")}, is_real);
  // spec: cpu:b:b_dt1
  c.bus("cpu:b:b_dt1", "range16", true, {x("b_dt1")}, is_real);
  // spec: cpu:b:d_dt0
  c.bus("cpu:b:d_dt0", "range16", true, {x("d_dt0")}, is_real);
  // spec: cpu:b:d_dt1
  c.bus("cpu:b:d_dt1", "range16", true, {x("d_dt1")}, is_real);
  // spec: cpu:b:d_v0
  c.bus("cpu:b:d_v0", "range16", true, {x("d_v0")}, is_real);
  // spec: cpu:b:d_v1
  c.bus("cpu:b:d_v1", "range16", true, {x("d_v1")}, is_real);
  // spec: cpu:b:d_v2
  c.bus("cpu:b:d_v2", "range16", true, {x("d_v2")}, is_real);
  // spec: cpu:b:d_v3
  c.bus("cpu:b:d_v3", "range16", true, {x("d_v3")}, is_real);
  // spec: cpu:c:wr_zero_bit
  c("cpu:c:wr_zero_bit", x("wr_zero") * (x("wr_zero") - one));
  // spec: cpu:c:wr_zero_inv
  c("cpu:c:wr_zero_inv", x("wr") * x("wr_inv") - one + x("wr_zero"));
  // spec: cpu:c:wr_zero_def
  c("cpu:c:wr_zero_def", x("wr") * x("wr_zero"));
  // spec: cpu:c:x0_stays
  c("cpu:c:x0_stays", x("wr_zero") * (x("d_v0") + x("d_v1") + x("d_v2") + x("d_v3")));
  // spec: cpu:c:keep0
  c.transition("cpu:c:keep0", (x("f_store") + x("f_branch") + x("f_fence") + x("f_system") * (is_real - x.next("is_real"))) * (x("d_v0") - x("d_old0")));
  // spec: cpu:c:keep1
  c.transition("cpu:c:keep1", (x("f_store") + x("f_branch") + x("f_fence") + x("f_system") * (is_real - x.next("is_real"))) * (x("d_v1") - x("d_old1")));
  // spec: cpu:c:keep2
  c.transition("cpu:c:keep2", (x("f_store") + x("f_branch") + x("f_fence") + x("f_system") * (is_real - x.next("is_real"))) * (x("d_v2") - x("d_old2")));
  // spec: cpu:c:keep3
  c.transition("cpu:c:keep3", (x("f_store") + x("f_branch") + x("f_fence") + x("f_system") * (is_real - x.next("is_real"))) * (x("d_v3") - x("d_old3")));
  // spec: cpu:c:keep0_last
  c.last("cpu:c:keep0_last", (x("f_store") + x("f_branch") + x("f_fence") + x("f_system") * is_real) * (x("d_v0") - x("d_old0")));
  // spec: cpu:c:keep1_last
  c.last("cpu:c:keep1_last", (x("f_store") + x("f_branch") + x("f_fence") + x("f_system") * is_real) * (x("d_v1") - x("d_old1")));
  // spec: cpu:c:keep2_last
  c.last("cpu:c:keep2_last", (x("f_store") + x("f_branch") + x("f_fence") + x("f_system") * is_real) * (x("d_v2") - x("d_old2")));
  // spec: cpu:c:keep3_last
  c.last("cpu:c:keep3_last", (x("f_store") + x("f_branch") + x("f_fence") + x("f_system") * is_real) * (x("d_v3") - x("d_old3")));
  // LUI's upper immediate as four limbs (U-type: insn[31:12] << 12, sign-extended)
  V u1;
  for (int k = 16; k < 32; ++k) u1 = u1 + f<V>(uint64_t{1} << (k - 16)) * x(kBits[k - 8]);
  // spec: cpu:c:lui0
  c("cpu:c:lui0", x("f_lui") * (one - x("wr_zero")) * (x("d_v0") - f<V>(4096) * (x("i12") + f<V>(2) * x("i13") + f<V>(4) * x("i14") + f<V>(8) * x("i15"))));
  // spec: cpu:c:lui1
  c("cpu:c:lui1", x("f_lui") * (one - x("wr_zero")) * (x("d_v1") - u1));
  // spec: cpu:c:lui2
  c("cpu:c:lui2", x("f_lui") * (one - x("wr_zero")) * (x("d_v2") - f<V>(65535) * x("i31")));
  // spec: cpu:c:lui3
  c("cpu:c:lui3", x("f_lui") * (one - x("wr_zero")) * (x("d_v3") - f<V>(65535) * x("i31")));
  // spec: cpu:c:jal_target
  {
    V imm_j = f<V>(2048) * x("i20") - f<V>(1048576) * x("i31");  // J-type: imm[11] = bit 20, sign = bit 31
    for (int k = 1; k <= 10; ++k) imm_j = imm_j + f<V>(uint64_t{1} << k) * x(kBits[20 + k - 8]);
    for (int k = 12; k <= 19; ++k) imm_j = imm_j + f<V>(uint64_t{1} << k) * x(kBits[k - 8]);
    c("cpu:c:jal_target", x("f_jal") * (x("next_pc") - x("pc") - imm_j));
  }
  // spec: cpu:c:link_def
  c("cpu:c:link_def", x("link") - (x("f_jal") + x("f_jalr")) * (one - x("wr_zero")));
  // spec: cpu:c:link_lo
  c("cpu:c:link_lo", x("link") * (x("d_v0") + f<V>(65536) * x("d_v1") + f<V>(4294967296) * x("d_v2") - x("pc") - f<V>(4)));
  // spec: cpu:c:link_d3
  c("cpu:c:link_d3", x("link") * x("d_v3"));
  // spec: cpu:c:pc_limbs
  c("cpu:c:pc_limbs", x("pc") - x("pc0") - f<V>(65536) * x("pc1"));
  // spec: cpu:b:pc0
  c.bus("cpu:b:pc0", "range16", true, {x("pc0")}, is_real);
  // spec: cpu:b:pc1
  c.bus("cpu:b:pc1", "range16", true, {x("pc1")}, is_real);
  // spec: cpu:c:c3_bit
  c("cpu:c:c3_bit", x("c3") * (x("c3") - one));
  // spec: cpu:c:c0_bit
  c("cpu:c:c0_bit", x("c0") * (x("c0") - one));
  const V adder = x("f_jalr") + x("f_load") + x("f_store") + x("f_auipc") * (one - x("wr_zero"));
  // spec: cpu:c:carry0_unused
  c("cpu:c:carry0_unused", (one - adder) * x("c0"));
  // spec: cpu:c:carry1_unused
  c("cpu:c:carry1_unused", (one - adder) * x("c1"));
  // spec: cpu:c:carry2_unused
  c("cpu:c:carry2_unused", (one - adder) * x("c2"));
  // spec: cpu:c:carry3_unused
  c("cpu:c:carry3_unused", (one - adder) * x("c3"));
  // AUIPC: pc + sext(insn[31:12] << 12), limb by limb (u1 is the upper immediate's limb 1)
  {
    const V u0 = f<V>(4096) * (x("i12") + f<V>(2) * x("i13") + f<V>(4) * x("i14") + f<V>(8) * x("i15")), sign = f<V>(65535) * x("i31");
    const V on = x("f_auipc") * (one - x("wr_zero"));
    // spec: cpu:c:auipc0
    c("cpu:c:auipc0", on * (x("pc0") + u0 - x("d_v0") - f<V>(65536) * x("c0")));
    // spec: cpu:c:auipc1
    c("cpu:c:auipc1", on * (x("pc1") + u1 + x("c0") - x("d_v1") - f<V>(65536) * x("c1")));
    // spec: cpu:c:auipc2
    c("cpu:c:auipc2", on * (sign + x("c1") - x("d_v2") - f<V>(65536) * x("c2")));
    // spec: cpu:c:auipc3
    c("cpu:c:auipc3", on * (sign + x("c2") - x("d_v3") - f<V>(65536) * x("c3")));
  }
  // the address adder: JALR and loads rs1 + sext(imm_i), stores rs1 + sext(imm_s); below 2^32
  {
    V i0 = f<V>(61440) * x("i31");  // imm_i's limb 0: bits 20..31 of insn, sign-extended through bit 15
    for (int k = 0; k < 12; ++k) i0 = i0 + f<V>(uint64_t{1} << k) * x(kBits[20 + k - 8]);
    V s0 = x("rd0") + f<V>(61440) * x("i31");  // imm_s's limb 0: bits 7..11 and 25..31
    for (int k = 1; k <= 4; ++k) s0 = s0 + f<V>(uint64_t{1} << k) * x(kBits[k + 7 - 8]);
    for (int k = 5; k <= 11; ++k) s0 = s0 + f<V>(uint64_t{1} << k) * x(kBits[k + 20 - 8]);
    const V sign = f<V>(65535) * x("i31"), on = x("f_jalr") + x("f_load") + x("f_store"), st = x("f_store");
    // spec: cpu:c:adder_s0
    c("cpu:c:adder_s0", on * (x("a_v0") + (one - st) * i0 + st * s0 - x("s0") - f<V>(65536) * x("c0")));
    // spec: cpu:c:adder_s1
    c("cpu:c:adder_s1", on * (x("a_v1") + sign + x("c0") - x("s1") - f<V>(65536) * x("c1")));
    // spec: cpu:c:adder_s2
    c("cpu:c:adder_s2", on * (x("a_v2") + sign + x("c1") - x("s2") - f<V>(65536) * x("c2")));
    // spec: cpu:c:adder_s3
    c("cpu:c:adder_s3", on * (x("a_v3") + sign + x("c2") - x("s3") - f<V>(65536) * x("c3")));
    // spec: cpu:c:adder_high
    c("cpu:c:adder_high", on * (x("s2") + x("s3")));
    // spec: cpu:c:adder_unused
    c("cpu:c:adder_unused", (one - on) * (x("s0") + x("s1") + x("s2") + x("s3")));
  }
  // JALR: the target is the sum with bit 0 cleared
  {
    const V jalr = x("f_jalr");
    // spec: cpu:c:jalr_even
    c("cpu:c:jalr_even", jalr * (x("s0") - f<V>(2) * x("half") - x("lowbit")));
    // spec: cpu:c:lowbit_bit
    c("cpu:c:lowbit_bit", x("lowbit") * (x("lowbit") - one));
    // spec: cpu:c:jalr_target
    c("cpu:c:jalr_target", jalr * (x("next_pc") - f<V>(2) * x("half") - f<V>(65536) * x("s1")));
    // spec: cpu:c:jalr_unused
    c("cpu:c:jalr_unused", (one - jalr) * (x("half") + x("lowbit")));
  }
  // spec: cpu:b:s0
  c.bus("cpu:b:s0", "range16", true, {x("s0")}, is_real);
  // spec: cpu:b:s1
  c.bus("cpu:b:s1", "range16", true, {x("s1")}, is_real);
  // spec: cpu:b:s2
  c.bus("cpu:b:s2", "range16", true, {x("s2")}, is_real);
  // spec: cpu:b:s3
  c.bus("cpu:b:s3", "range16", true, {x("s3")}, is_real);
  // spec: cpu:b:half
  c.bus("cpu:b:half", "range16", true, {x("half")}, is_real);
  // the ALU: operation code, second operand, result
  {
    const V reg = x("f_op") + x("f_op32"), imm = x("f_opimm") + x("f_opimm32"), i30 = x("i30");
    const V alu = reg + imm + x("f_branch"), writes = reg + imm;
    // spec: cpu:c:sh
    c("cpu:c:sh", x("sh") - x("i12") * (one - x("i13")));
    // spec: cpu:c:sr
    c("cpu:c:sr", x("sr") - x("i12") * x("i14") * (one - x("i13")));
    // spec: cpu:c:alt
    c("cpu:c:alt", x("alt") - reg * i30 - imm * x("sr") * i30);
    // spec: cpu:c:aop
    c("cpu:c:aop", x("aop") - x("funct3") - f<V>(8) * x("alt") - f<V>(16) * (x("f_op32") + x("f_opimm32")) -
                       f<V>(32) * reg * x("i25") - f<V>(64) * x("f_branch"));
    // spec: cpu:c:op_funct7
    c("cpu:c:op_funct7", reg * (x("funct7") - f<V>(32) * x("alt") - x("i25")));
    // spec: cpu:c:shift_imm
    c("cpu:c:shift_imm", imm * x("sh") * (x("i26") + x("i27") + x("i28") + x("i29") + x("i31")));
    // spec: cpu:c:shift_imm_w
    c("cpu:c:shift_imm_w", x("f_opimm32") * x("sh") * x("i25"));
    // spec: cpu:c:shift_imm_left
    c("cpu:c:shift_imm_left", imm * x("sh") * (i30 - x("alt")));
    V i0 = f<V>(61440) * x("i31");  // sext(imm_i), limb 0
    for (int k = 0; k < 12; ++k) i0 = i0 + f<V>(uint64_t{1} << k) * x(kBits[20 + k - 8]);
    const V sign = f<V>(65535) * x("i31"), rb = reg + x("f_branch");
    // spec: cpu:c:opb0
    c("cpu:c:opb0", x("opb0") - rb * x("b_v0") - imm * i0);
    // spec: cpu:c:opb1
    c("cpu:c:opb1", x("opb1") - rb * x("b_v1") - imm * sign);
    // spec: cpu:c:opb2
    c("cpu:c:opb2", x("opb2") - rb * x("b_v2") - imm * sign);
    // spec: cpu:c:opb3
    c("cpu:c:opb3", x("opb3") - rb * x("b_v3") - imm * sign);
    // spec: cpu:b:alu
    c.bus("cpu:b:alu", "alu", true,
          {x("aop"), x("a_v0"), x("a_v1"), x("a_v2"), x("a_v3"),
           x("opb0"), x("opb1"), x("opb2"), x("opb3"), x("res0"),
           x("res1"), x("res2"), x("res3")},
          alu);
    // spec: cpu:c:res_unused0
    c("cpu:c:res_unused0", (one - alu) * x("res0"));
    // spec: cpu:c:res_unused1
    c("cpu:c:res_unused1", (one - alu) * x("res1"));
    // spec: cpu:c:res_unused2
    c("cpu:c:res_unused2", (one - alu) * x("res2"));
    // spec: cpu:c:res_unused3
    c("cpu:c:res_unused3", (one - alu) * x("res3"));
    const V on = writes * (one - x("wr_zero"));
    // spec: cpu:c:alu_write0
    c("cpu:c:alu_write0", on * (x("d_v0") - x("res0")));
    // spec: cpu:c:alu_write1
    c("cpu:c:alu_write1", on * (x("d_v1") - x("res1")));
    // spec: cpu:c:alu_write2
    c("cpu:c:alu_write2", on * (x("d_v2") - x("res2")));
    // spec: cpu:c:alu_write3
    c("cpu:c:alu_write3", on * (x("d_v3") - x("res3")));
    // spec: cpu:c:branch_target
    {
      // B-type: imm[12] = bit 31 (sign), imm[11] = bit 7, imm[10:5] = bits 25..30, imm[4:1] = bits 8..11
      V imm_b = f<V>(2048) * x("rd0") - f<V>(4096) * x("i31");
      for (int k = 1; k <= 4; ++k) imm_b = imm_b + f<V>(uint64_t{1} << k) * x(kBits[k + 7 - 8]);
      for (int k = 5; k <= 10; ++k) imm_b = imm_b + f<V>(uint64_t{1} << k) * x(kBits[k + 20 - 8]);
      c("cpu:c:branch_target", x("f_branch") * (x("next_pc") - x("pc") - f<V>(4) - x("res0") * (imm_b - f<V>(4))));
    }
  }
  // loads and stores
  {
    const V ls = x("f_load") + x("f_store"), i12 = x("i12"), i13 = x("i13"), i14 = x("i14");
    auto col = [&](const char* v, int j) { return x(v + std::to_string(j)); };
    // spec: cpu:c:mo0
    c("cpu:c:mo0", x("mo0") - ls);
    // spec: cpu:c:mo1
    c("cpu:c:mo1", x("mo1") - ls * (i12 + i13 - i12 * i13));
    // spec: cpu:c:mo2
    c("cpu:c:mo2", x("mo2") - ls * i13);
    // spec: cpu:c:mo3
    c("cpu:c:mo3", x("mo3") - x("mo2"));
    // spec: cpu:c:mo4
    c("cpu:c:mo4", x("mo4") - ls * i12 * i13);
    // spec: cpu:c:mo5
    c("cpu:c:mo5", x("mo5") - x("mo4"));
    // spec: cpu:c:mo6
    c("cpu:c:mo6", x("mo6") - x("mo4"));
    // spec: cpu:c:mo7
    c("cpu:c:mo7", x("mo7") - x("mo4"));
    // spec: cpu:c:load_funct3
    c("cpu:c:load_funct3", x("mo4") * i14);
    // spec: cpu:c:store_funct3
    c("cpu:c:store_funct3", x("f_store") * i14);
    const V addr = x("s0") + f<V>(65536) * x("s1"), ts = f<V>(4) * x("clk") + f<V>(3);
    // spec: cpu:b:m0_in
    c.bus("cpu:b:m0_in", "mem", false, {(addr + f<V>(0)), x("mt0"), x("mv0"), x("mw0")}, x("mo0"));
    // spec: cpu:b:m0_out
    c.bus("cpu:b:m0_out", "mem", true, {(addr + f<V>(0)), ts, x("mn0"), x("mw0")}, x("mo0"));
    // spec: cpu:c:m0_order
    c("cpu:c:m0_order", x("mo0") * (ts - x("mt0") - one - x("mda0") - f<V>(65536) * x("mdb0")));
    // spec: cpu:b:mda0
    c.bus("cpu:b:mda0", "range16", true, {x("mda0")}, x("mo0"));
    // spec: cpu:b:mdb0
    c.bus("cpu:b:mdb0", "range16", true, {x("mdb0")}, x("mo0"));
    // spec: cpu:b:m1_in
    c.bus("cpu:b:m1_in", "mem", false, {(addr + f<V>(1)), x("mt1"), x("mv1"), x("mw1")}, x("mo1"));
    // spec: cpu:b:m1_out
    c.bus("cpu:b:m1_out", "mem", true, {(addr + f<V>(1)), ts, x("mn1"), x("mw1")}, x("mo1"));
    // spec: cpu:c:m1_order
    c("cpu:c:m1_order", x("mo1") * (ts - x("mt1") - one - x("mda1") - f<V>(65536) * x("mdb1")));
    // spec: cpu:b:mda1
    c.bus("cpu:b:mda1", "range16", true, {x("mda1")}, x("mo1"));
    // spec: cpu:b:mdb1
    c.bus("cpu:b:mdb1", "range16", true, {x("mdb1")}, x("mo1"));
    // spec: cpu:b:m2_in
    c.bus("cpu:b:m2_in", "mem", false, {(addr + f<V>(2)), x("mt2"), x("mv2"), x("mw2")}, x("mo2"));
    // spec: cpu:b:m2_out
    c.bus("cpu:b:m2_out", "mem", true, {(addr + f<V>(2)), ts, x("mn2"), x("mw2")}, x("mo2"));
    // spec: cpu:c:m2_order
    c("cpu:c:m2_order", x("mo2") * (ts - x("mt2") - one - x("mda2") - f<V>(65536) * x("mdb2")));
    // spec: cpu:b:mda2
    c.bus("cpu:b:mda2", "range16", true, {x("mda2")}, x("mo2"));
    // spec: cpu:b:mdb2
    c.bus("cpu:b:mdb2", "range16", true, {x("mdb2")}, x("mo2"));
    // spec: cpu:b:m3_in
    c.bus("cpu:b:m3_in", "mem", false, {(addr + f<V>(3)), x("mt3"), x("mv3"), x("mw3")}, x("mo3"));
    // spec: cpu:b:m3_out
    c.bus("cpu:b:m3_out", "mem", true, {(addr + f<V>(3)), ts, x("mn3"), x("mw3")}, x("mo3"));
    // spec: cpu:c:m3_order
    c("cpu:c:m3_order", x("mo3") * (ts - x("mt3") - one - x("mda3") - f<V>(65536) * x("mdb3")));
    // spec: cpu:b:mda3
    c.bus("cpu:b:mda3", "range16", true, {x("mda3")}, x("mo3"));
    // spec: cpu:b:mdb3
    c.bus("cpu:b:mdb3", "range16", true, {x("mdb3")}, x("mo3"));
    // spec: cpu:b:m4_in
    c.bus("cpu:b:m4_in", "mem", false, {(addr + f<V>(4)), x("mt4"), x("mv4"), x("mw4")}, x("mo4"));
    // spec: cpu:b:m4_out
    c.bus("cpu:b:m4_out", "mem", true, {(addr + f<V>(4)), ts, x("mn4"), x("mw4")}, x("mo4"));
    // spec: cpu:c:m4_order
    c("cpu:c:m4_order", x("mo4") * (ts - x("mt4") - one - x("mda4") - f<V>(65536) * x("mdb4")));
    // spec: cpu:b:mda4
    c.bus("cpu:b:mda4", "range16", true, {x("mda4")}, x("mo4"));
    // spec: cpu:b:mdb4
    c.bus("cpu:b:mdb4", "range16", true, {x("mdb4")}, x("mo4"));
    // spec: cpu:b:m5_in
    c.bus("cpu:b:m5_in", "mem", false, {(addr + f<V>(5)), x("mt5"), x("mv5"), x("mw5")}, x("mo5"));
    // spec: cpu:b:m5_out
    c.bus("cpu:b:m5_out", "mem", true, {(addr + f<V>(5)), ts, x("mn5"), x("mw5")}, x("mo5"));
    // spec: cpu:c:m5_order
    c("cpu:c:m5_order", x("mo5") * (ts - x("mt5") - one - x("mda5") - f<V>(65536) * x("mdb5")));
    // spec: cpu:b:mda5
    c.bus("cpu:b:mda5", "range16", true, {x("mda5")}, x("mo5"));
    // spec: cpu:b:mdb5
    c.bus("cpu:b:mdb5", "range16", true, {x("mdb5")}, x("mo5"));
    // spec: cpu:b:m6_in
    c.bus("cpu:b:m6_in", "mem", false, {(addr + f<V>(6)), x("mt6"), x("mv6"), x("mw6")}, x("mo6"));
    // spec: cpu:b:m6_out
    c.bus("cpu:b:m6_out", "mem", true, {(addr + f<V>(6)), ts, x("mn6"), x("mw6")}, x("mo6"));
    // spec: cpu:c:m6_order
    c("cpu:c:m6_order", x("mo6") * (ts - x("mt6") - one - x("mda6") - f<V>(65536) * x("mdb6")));
    // spec: cpu:b:mda6
    c.bus("cpu:b:mda6", "range16", true, {x("mda6")}, x("mo6"));
    // spec: cpu:b:mdb6
    c.bus("cpu:b:mdb6", "range16", true, {x("mdb6")}, x("mo6"));
    // spec: cpu:b:m7_in
    c.bus("cpu:b:m7_in", "mem", false, {(addr + f<V>(7)), x("mt7"), x("mv7"), x("mw7")}, x("mo7"));
    // spec: cpu:b:m7_out
    c.bus("cpu:b:m7_out", "mem", true, {(addr + f<V>(7)), ts, x("mn7"), x("mw7")}, x("mo7"));
    // spec: cpu:c:m7_order
    c("cpu:c:m7_order", x("mo7") * (ts - x("mt7") - one - x("mda7") - f<V>(65536) * x("mdb7")));
    // spec: cpu:b:mda7
    c.bus("cpu:b:mda7", "range16", true, {x("mda7")}, x("mo7"));
    // spec: cpu:b:mdb7
    c.bus("cpu:b:mdb7", "range16", true, {x("mdb7")}, x("mo7"));
    // spec: cpu:c:m0_load
    c("cpu:c:m0_load", x("f_load") * (x("mn0") - x("mv0")));
    // spec: cpu:c:m0_store
    c("cpu:c:m0_store", x("f_store") * x("mo0") * (x("mn0") - x("sb0")));
    // spec: cpu:c:m0_writable
    c("cpu:c:m0_writable", x("f_store") * x("mo0") * (one - x("mw0")));
    // spec: cpu:c:m1_load
    c("cpu:c:m1_load", x("f_load") * (x("mn1") - x("mv1")));
    // spec: cpu:c:m1_store
    c("cpu:c:m1_store", x("f_store") * x("mo1") * (x("mn1") - x("sb1")));
    // spec: cpu:c:m1_writable
    c("cpu:c:m1_writable", x("f_store") * x("mo1") * (one - x("mw1")));
    // spec: cpu:c:m2_load
    c("cpu:c:m2_load", x("f_load") * (x("mn2") - x("mv2")));
    // spec: cpu:c:m2_store
    c("cpu:c:m2_store", x("f_store") * x("mo2") * (x("mn2") - x("sb2")));
    // spec: cpu:c:m2_writable
    c("cpu:c:m2_writable", x("f_store") * x("mo2") * (one - x("mw2")));
    // spec: cpu:c:m3_load
    c("cpu:c:m3_load", x("f_load") * (x("mn3") - x("mv3")));
    // spec: cpu:c:m3_store
    c("cpu:c:m3_store", x("f_store") * x("mo3") * (x("mn3") - x("sb3")));
    // spec: cpu:c:m3_writable
    c("cpu:c:m3_writable", x("f_store") * x("mo3") * (one - x("mw3")));
    // spec: cpu:c:m4_load
    c("cpu:c:m4_load", x("f_load") * (x("mn4") - x("mv4")));
    // spec: cpu:c:m4_store
    c("cpu:c:m4_store", x("f_store") * x("mo4") * (x("mn4") - x("sb4")));
    // spec: cpu:c:m4_writable
    c("cpu:c:m4_writable", x("f_store") * x("mo4") * (one - x("mw4")));
    // spec: cpu:c:m5_load
    c("cpu:c:m5_load", x("f_load") * (x("mn5") - x("mv5")));
    // spec: cpu:c:m5_store
    c("cpu:c:m5_store", x("f_store") * x("mo5") * (x("mn5") - x("sb5")));
    // spec: cpu:c:m5_writable
    c("cpu:c:m5_writable", x("f_store") * x("mo5") * (one - x("mw5")));
    // spec: cpu:c:m6_load
    c("cpu:c:m6_load", x("f_load") * (x("mn6") - x("mv6")));
    // spec: cpu:c:m6_store
    c("cpu:c:m6_store", x("f_store") * x("mo6") * (x("mn6") - x("sb6")));
    // spec: cpu:c:m6_writable
    c("cpu:c:m6_writable", x("f_store") * x("mo6") * (one - x("mw6")));
    // spec: cpu:c:m7_load
    c("cpu:c:m7_load", x("f_load") * (x("mn7") - x("mv7")));
    // spec: cpu:c:m7_store
    c("cpu:c:m7_store", x("f_store") * x("mo7") * (x("mn7") - x("sb7")));
    // spec: cpu:c:m7_writable
    c("cpu:c:m7_writable", x("f_store") * x("mo7") * (one - x("mw7")));
    // spec: cpu:c:sb_limb0
    c("cpu:c:sb_limb0", x("f_store") * (x("b_v0") - x("sb0") - f<V>(256) * x("sb1")));
    // spec: cpu:c:sb_limb1
    c("cpu:c:sb_limb1", x("f_store") * (x("b_v1") - x("sb2") - f<V>(256) * x("sb3")));
    // spec: cpu:c:sb_limb2
    c("cpu:c:sb_limb2", x("f_store") * (x("b_v2") - x("sb4") - f<V>(256) * x("sb5")));
    // spec: cpu:c:sb_limb3
    c("cpu:c:sb_limb3", x("f_store") * (x("b_v3") - x("sb6") - f<V>(256) * x("sb7")));
    // spec: cpu:b:sb0
    c.bus("cpu:b:sb0", "byte", true, {x("sb0")}, x("f_store"));
    // spec: cpu:b:sb1
    c.bus("cpu:b:sb1", "byte", true, {x("sb1")}, x("f_store"));
    // spec: cpu:b:sb2
    c.bus("cpu:b:sb2", "byte", true, {x("sb2")}, x("f_store"));
    // spec: cpu:b:sb3
    c.bus("cpu:b:sb3", "byte", true, {x("sb3")}, x("f_store"));
    // spec: cpu:b:sb4
    c.bus("cpu:b:sb4", "byte", true, {x("sb4")}, x("f_store"));
    // spec: cpu:b:sb5
    c.bus("cpu:b:sb5", "byte", true, {x("sb5")}, x("f_store"));
    // spec: cpu:b:sb6
    c.bus("cpu:b:sb6", "byte", true, {x("sb6")}, x("f_store"));
    // spec: cpu:b:sb7
    c.bus("cpu:b:sb7", "byte", true, {x("sb7")}, x("f_store"));
    // spec: cpu:c:mtop
    c("cpu:c:mtop", x("mtop") - x("f_load") * ((x("mo0") - x("mo1")) * x("mv0") + (x("mo1") - x("mo2")) * x("mv1") + (x("mo2") - x("mo4")) * x("mv3") + x("mo4") * x("mv7")));
    // spec: cpu:c:msgn_bit
    c("cpu:c:msgn_bit", x("msgn") * (x("msgn") - one));
    // spec: cpu:c:mh
    c("cpu:c:mh", f<V>(2) * x("mtop") - f<V>(256) * x("msgn") - x("mh"));
    // spec: cpu:b:mh
    c.bus("cpu:b:mh", "byte", true, {x("mh")}, x("f_load"));
    // spec: cpu:c:mext
    c("cpu:c:mext", x("mext") - (one - i14) * x("msgn"));
    // spec: cpu:c:lv0
    c("cpu:c:lv0", x("lv0") - x("f_load") * (x("mo0") * x("mv0") + (one - x("mo0")) * f<V>(255) * x("mext")));
    // spec: cpu:c:lv1
    c("cpu:c:lv1", x("lv1") - x("f_load") * (x("mo1") * x("mv1") + (one - x("mo1")) * f<V>(255) * x("mext")));
    // spec: cpu:c:lv2
    c("cpu:c:lv2", x("lv2") - x("f_load") * (x("mo2") * x("mv2") + (one - x("mo2")) * f<V>(255) * x("mext")));
    // spec: cpu:c:lv3
    c("cpu:c:lv3", x("lv3") - x("f_load") * (x("mo3") * x("mv3") + (one - x("mo3")) * f<V>(255) * x("mext")));
    // spec: cpu:c:lv4
    c("cpu:c:lv4", x("lv4") - x("f_load") * (x("mo4") * x("mv4") + (one - x("mo4")) * f<V>(255) * x("mext")));
    // spec: cpu:c:lv5
    c("cpu:c:lv5", x("lv5") - x("f_load") * (x("mo5") * x("mv5") + (one - x("mo5")) * f<V>(255) * x("mext")));
    // spec: cpu:c:lv6
    c("cpu:c:lv6", x("lv6") - x("f_load") * (x("mo6") * x("mv6") + (one - x("mo6")) * f<V>(255) * x("mext")));
    // spec: cpu:c:lv7
    c("cpu:c:lv7", x("lv7") - x("f_load") * (x("mo7") * x("mv7") + (one - x("mo7")) * f<V>(255) * x("mext")));
    // spec: cpu:c:load_write0
    c("cpu:c:load_write0", x("f_load") * (one - x("wr_zero")) * (x("d_v0") - x("lv0") - f<V>(256) * x("lv1")));
    // spec: cpu:c:load_write1
    c("cpu:c:load_write1", x("f_load") * (one - x("wr_zero")) * (x("d_v1") - x("lv2") - f<V>(256) * x("lv3")));
    // spec: cpu:c:load_write2
    c("cpu:c:load_write2", x("f_load") * (one - x("wr_zero")) * (x("d_v2") - x("lv4") - f<V>(256) * x("lv5")));
    // spec: cpu:c:load_write3
    c("cpu:c:load_write3", x("f_load") * (one - x("wr_zero")) * (x("d_v3") - x("lv6") - f<V>(256) * x("lv7")));
    // spec: cpu:b:sys
    c.bus("cpu:b:sys", "sys", true,
          {(f<V>(4) * x("clk") + one), x("a_v0"), x("a_v1"), x("a_v2"), x("a_v3"), x("b_v0"),
           x("b_v1"), x("b_v2"), x("b_v3"), x("d_v0"), x("d_v1"), x("d_v2"),
           x("d_v3")},
          (x("f_system") - x("sys_exit")));
    (void)col;
  }
  // spec: cpu:c:pc_sequential
  c("cpu:c:pc_sequential", (x("f_lui") + x("f_auipc") + x("f_load") + x("f_store") + x("f_opimm") + x("f_op") +
                            x("f_opimm32") + x("f_op32") + x("f_fence")) * (x("next_pc") - x("pc") - f<V>(4)));
  // spec: cpu:c:pc_ecall
  c.transition("cpu:c:pc_ecall", x.next("is_real") * x("f_system") * (x("next_pc") - x("pc") - f<V>(4)));
  // spec: cpu:c:halt_system
  c.transition("cpu:c:halt_system", (is_real - x.next("is_real")) * (one - x("sys_exit")));
  // spec: cpu:c:halt_stays
  c.transition("cpu:c:halt_stays", (is_real - x.next("is_real")) * (x("next_pc") - x("pc")));
  // spec: cpu:c:halt_system_last
  c.last("cpu:c:halt_system_last", is_real * (one - x("sys_exit")));
  // spec: cpu:c:halt_stays_last
  c.last("cpu:c:halt_stays_last", is_real * (x("next_pc") - x("pc")));
  // the exit ecall: a7 in {93, 94}, the last real row, a0's low 32 bits the exit code
  {
    const V sys_exit = x("sys_exit"), high = x("a_v1") + x("a_v2") + x("a_v3");
    // spec: cpu:c:sys_exit_bit
    c("cpu:c:sys_exit_bit", sys_exit * (sys_exit - one));
    // spec: cpu:c:sys_exit_ecall
    c("cpu:c:sys_exit_ecall", sys_exit * (one - x("f_system")));
    // spec: cpu:c:exit_e
    c("cpu:c:exit_e", x("exit_e") - x("f_system") * (x("a_v0") - f<V>(93)) * (x("a_v0") - f<V>(94)));
    // spec: cpu:c:exit_number
    c("cpu:c:exit_number", sys_exit * x("exit_e"));
    // spec: cpu:c:exit_number_hi
    c("cpu:c:exit_number_hi", sys_exit * high);
    // spec: cpu:c:not_exit
    c("cpu:c:not_exit", (x("f_system") - sys_exit) * ((x("exit_e") + f<V>(4294967296) * high) * x("exit_inv") - one));
    // spec: cpu:c:exit_last
    c.transition("cpu:c:exit_last", sys_exit * x.next("is_real"));
    // spec: cpu:c:exit_code
    c("cpu:c:exit_code", sys_exit * (x("b_v0") + f<V>(65536) * x("b_v1") - exit_code));
  }
}

// ---- div (spec/tables/div.md) ----
template <class V>
void eval_div(const Point<V>& x, Values<V>& s) {
  const Emit<V> c{s};
  static const std::pair<const char*, uint64_t> kOps[] = {{"s_div", 36},  {"s_divu", 37},  {"s_rem", 38},  {"s_remu", 39},
                                                        {"s_divw", 52}, {"s_divuw", 53}, {"s_remw", 54}, {"s_remuw", 55}};
  V any, code;
  for (const auto& [sel, value] : kOps) any = any + x(sel), code = code + f<V>(value) * x(sel);
  const V one = f<V>(1), k16 = f<V>(65536), ones = f<V>(65535);
  // signed rows, W rows, signed W rows, remainder rows
  const V sg = x("s_div") + x("s_rem") + x("s_divw") + x("s_remw");
  const V wf = x("s_divw") + x("s_divuw") + x("s_remw") + x("s_remuw");
  const V sw = x("s_divw") + x("s_remw");
  const V rm = x("s_rem") + x("s_remu") + x("s_remw") + x("s_remuw");
  auto col = [&](const char* v, int k) { return x(v + std::to_string(k)); };
  auto rc = [&](std::string_view id, const std::string& cname) { c.bus(id, "range16", true, {x(cname)}, any); };
  auto bit = [&](std::string_view id, const char* cname) { c(id, x(cname) * (x(cname) - one)); };
  // spec: div:c:s_div_bit
  bit("div:c:s_div_bit", "s_div");
  // spec: div:c:s_divu_bit
  bit("div:c:s_divu_bit", "s_divu");
  // spec: div:c:s_rem_bit
  bit("div:c:s_rem_bit", "s_rem");
  // spec: div:c:s_remu_bit
  bit("div:c:s_remu_bit", "s_remu");
  // spec: div:c:s_divw_bit
  bit("div:c:s_divw_bit", "s_divw");
  // spec: div:c:s_divuw_bit
  bit("div:c:s_divuw_bit", "s_divuw");
  // spec: div:c:s_remw_bit
  bit("div:c:s_remw_bit", "s_remw");
  // spec: div:c:s_remuw_bit
  bit("div:c:s_remuw_bit", "s_remuw");
  // spec: div:c:one_op
  c("div:c:one_op", any * (any - one));
  // spec: div:c:op
  c("div:c:op", x("op") - code);
  // spec: div:b:ops
  c.bus("div:b:ops", "alu", false, {x("op"), x("a0"), x("a1"), x("a2"), x("a3"), x("b0"), x("b1"), x("b2"), x("b3"), x("r0"), x("r1"), x("r2"), x("r3")}, any);
  // spec: div:c:sa31_bit
  bit("div:c:sa31_bit", "sa31");
  // spec: div:c:sa31
  c("div:c:sa31", f<V>(2) * x("a1") - k16 * x("sa31") - x("ah"));
  // spec: div:b:ah
  rc("div:b:ah", "ah");
  // spec: div:c:sb31_bit
  bit("div:c:sb31_bit", "sb31");
  // spec: div:c:sb31
  c("div:c:sb31", f<V>(2) * x("b1") - k16 * x("sb31") - x("bh"));
  // spec: div:b:bh
  rc("div:b:bh", "bh");
  // the high limbs of an operand: the limb (64-bit forms), ones times the sign (DIVW, REMW), 0 (DIVUW, REMUW)
  auto extended = [&](const char* v, int k, const char* sign) { return (one - wf) * col(v, k) + sw * ones * x(sign); };
  // spec: div:c:x0
  c("div:c:x0", x("x0") - x("a0"));
  // spec: div:c:x1
  c("div:c:x1", x("x1") - x("a1"));
  // spec: div:c:x2
  c("div:c:x2", x("x2") - extended("a", 2, "sa31"));
  // spec: div:c:x3
  c("div:c:x3", x("x3") - extended("a", 3, "sa31"));
  // spec: div:c:y0
  c("div:c:y0", x("y0") - x("b0"));
  // spec: div:c:y1
  c("div:c:y1", x("y1") - x("b1"));
  // spec: div:c:y2
  c("div:c:y2", x("y2") - extended("b", 2, "sb31"));
  // spec: div:c:y3
  c("div:c:y3", x("y3") - extended("b", 3, "sb31"));
  // spec: div:b:q0
  rc("div:b:q0", "q0");
  // spec: div:b:q1
  rc("div:b:q1", "q1");
  // spec: div:b:q2
  rc("div:b:q2", "q2");
  // spec: div:b:q3
  rc("div:b:q3", "q3");
  // spec: div:b:m0
  rc("div:b:m0", "m0");
  // spec: div:b:m1
  rc("div:b:m1", "m1");
  // spec: div:b:m2
  rc("div:b:m2", "m2");
  // spec: div:b:m3
  rc("div:b:m3", "m3");
  // spec: div:c:xs_bit
  bit("div:c:xs_bit", "xs");
  // spec: div:c:xs
  c("div:c:xs", f<V>(2) * x("x3") - k16 * x("xs") - x("xh"));
  // spec: div:b:xh
  rc("div:b:xh", "xh");
  // spec: div:c:sx
  c("div:c:sx", x("sx") - sg * x("xs"));
  // spec: div:c:ys_bit
  bit("div:c:ys_bit", "ys");
  // spec: div:c:ys
  c("div:c:ys", f<V>(2) * x("y3") - k16 * x("ys") - x("yh"));
  // spec: div:b:yh
  rc("div:b:yh", "yh");
  // spec: div:c:sy
  c("div:c:sy", x("sy") - sg * x("ys"));
  // spec: div:c:ms_bit
  bit("div:c:ms_bit", "ms");
  // spec: div:c:ms
  c("div:c:ms", f<V>(2) * x("m3") - k16 * x("ms") - x("mh"));
  // spec: div:b:mh
  rc("div:b:mh", "mh");
  // spec: div:c:sm
  c("div:c:sm", x("sm") - sg * x("ms"));
  // spec: div:c:hop
  c("div:c:hop", x("hop") - f<V>(35) * any + f<V>(2) * sg);
  // spec: div:b:lo
  c.bus("div:b:lo", "alu", true, {f<V>(32), x("q0"), x("q1"), x("q2"), x("q3"), x("y0"), x("y1"), x("y2"), x("y3"), x("l0"), x("l1"), x("l2"), x("l3")}, any);
  // spec: div:b:hi
  c.bus("div:b:hi", "alu", true, {x("hop"), x("q0"), x("q1"), x("q2"), x("q3"), x("y0"), x("y1"), x("y2"), x("y3"), x("h0"), x("h1"), x("h2"), x("h3")}, any);
  // spec: div:c:c0_bit
  bit("div:c:c0_bit", "c0");
  // spec: div:c:c1_bit
  bit("div:c:c1_bit", "c1");
  // spec: div:c:c2_bit
  bit("div:c:c2_bit", "c2");
  // spec: div:c:c3_bit
  bit("div:c:c3_bit", "c3");
  // l + m = x + 2^64 c3, limb by limb
  auto low = [&](int k) { return col("l", k) + col("m", k) + (k ? col("c", k - 1) : V()) - col("x", k) - k16 * col("c", k); };
  // spec: div:c:lo0
  c("div:c:lo0", low(0));
  // spec: div:c:lo1
  c("div:c:lo1", low(1));
  // spec: div:c:lo2
  c("div:c:lo2", low(2));
  // spec: div:c:lo3
  c("div:c:lo3", low(3));
  // spec: div:c:g_bit
  bit("div:c:g_bit", "g");
  // spec: div:c:hi0
  c("div:c:hi0", x("h0") - (x("sm") - x("sx") - x("c3") + x("ov")) - k16 * x("g"));
  // spec: div:c:hi1
  c("div:c:hi1", x("h1") - ones * x("g"));
  // spec: div:c:hi2
  c("div:c:hi2", x("h2") - ones * x("g"));
  // spec: div:c:hi3
  c("div:c:hi3", x("h3") - ones * x("g"));
  // (1 - sx) + x0 + x1 + x2 + (x3 - 32768 sx) + sum of (65535 - y_k)
  const V ovsum = one - x("sx") + x("x0") + x("x1") + x("x2") + x("x3") - f<V>(32768) * x("sx") + f<V>(262140) - x("y0") - x("y1") - x("y2") - x("y3");
  // spec: div:c:ov_def
  c("div:c:ov_def", any * (ovsum * x("ovinv") - one + x("ov")));
  // spec: div:c:ov_zero
  c("div:c:ov_zero", ovsum * x("ov"));
  const V ysum = x("y0") + x("y1") + x("y2") + x("y3");
  // spec: div:c:dz_def
  c("div:c:dz_def", any * (ysum * x("dzinv") - one + x("dz")));
  // spec: div:c:dz_zero
  c("div:c:dz_zero", ysum * x("dz"));
  // spec: div:c:qdz0
  c("div:c:qdz0", x("dz") * (x("q0") - ones));
  // spec: div:c:qdz1
  c("div:c:qdz1", x("dz") * (x("q1") - ones));
  // spec: div:c:qdz2
  c("div:c:qdz2", x("dz") * (x("q2") - ones));
  // spec: div:c:qdz3
  c("div:c:qdz3", x("dz") * (x("q3") - ones));
  // spec: div:c:msign
  c("div:c:msign", (x("sm") - x("sx")) * (x("m0") + x("m1") + x("m2") + x("m3")));
  // |v| limb k: the limb, or (65535 - limb) with the carry in (the sign itself at limb 0)
  auto absolute = [&](const char* a, const char* v, const char* sign, const char* carry, int k) {
    const V cin = k == 0 ? x(sign) : col(carry, k - 1), cout = k < 3 ? k16 * col(carry, k) : V();
    return col(a, k) + cout - col(v, k) - x(sign) * (ones - f<V>(2) * col(v, k)) - cin;
  };
  // spec: div:c:cy0_bit
  bit("div:c:cy0_bit", "cy0");
  // spec: div:c:cy1_bit
  bit("div:c:cy1_bit", "cy1");
  // spec: div:c:cy2_bit
  bit("div:c:cy2_bit", "cy2");
  // spec: div:c:ay0
  c("div:c:ay0", absolute("ay", "y", "sy", "cy", 0));
  // spec: div:c:ay1
  c("div:c:ay1", absolute("ay", "y", "sy", "cy", 1));
  // spec: div:c:ay2
  c("div:c:ay2", absolute("ay", "y", "sy", "cy", 2));
  // spec: div:c:ay3
  c("div:c:ay3", absolute("ay", "y", "sy", "cy", 3));
  // spec: div:b:ay0
  rc("div:b:ay0", "ay0");
  // spec: div:b:ay1
  rc("div:b:ay1", "ay1");
  // spec: div:b:ay2
  rc("div:b:ay2", "ay2");
  // spec: div:b:ay3
  rc("div:b:ay3", "ay3");
  // spec: div:c:cm0_bit
  bit("div:c:cm0_bit", "cm0");
  // spec: div:c:cm1_bit
  bit("div:c:cm1_bit", "cm1");
  // spec: div:c:cm2_bit
  bit("div:c:cm2_bit", "cm2");
  // spec: div:c:am0
  c("div:c:am0", absolute("am", "m", "sm", "cm", 0));
  // spec: div:c:am1
  c("div:c:am1", absolute("am", "m", "sm", "cm", 1));
  // spec: div:c:am2
  c("div:c:am2", absolute("am", "m", "sm", "cm", 2));
  // spec: div:c:am3
  c("div:c:am3", absolute("am", "m", "sm", "cm", 3));
  // spec: div:b:am0
  rc("div:b:am0", "am0");
  // spec: div:b:am1
  rc("div:b:am1", "am1");
  // spec: div:b:am2
  rc("div:b:am2", "am2");
  // spec: div:b:am3
  rc("div:b:am3", "am3");
  // spec: div:c:e0_bit
  bit("div:c:e0_bit", "e0");
  // spec: div:c:e1_bit
  bit("div:c:e1_bit", "e1");
  // spec: div:c:e2_bit
  bit("div:c:e2_bit", "e2");
  // |m| + t + 1 = |y| limb by limb, except on rows that divide by zero
  auto bound = [&](int k) {
    const V cin = k == 0 ? one : col("e", k - 1), cout = k < 3 ? k16 * col("e", k) : V();
    return (any - x("dz")) * (col("am", k) + col("t", k) + cin - col("ay", k) - cout);
  };
  // spec: div:c:lt0
  c("div:c:lt0", bound(0));
  // spec: div:c:lt1
  c("div:c:lt1", bound(1));
  // spec: div:c:lt2
  c("div:c:lt2", bound(2));
  // spec: div:c:lt3
  c("div:c:lt3", bound(3));
  // spec: div:b:t0
  rc("div:b:t0", "t0");
  // spec: div:b:t1
  rc("div:b:t1", "t1");
  // spec: div:b:t2
  rc("div:b:t2", "t2");
  // spec: div:b:t3
  rc("div:b:t3", "t3");
  // spec: div:c:w_bit
  bit("div:c:w_bit", "w");
  // spec: div:c:w
  c("div:c:w", f<V>(2) * x("r1") - k16 * x("w") - x("wh"));
  // spec: div:b:wh
  rc("div:b:wh", "wh");
  // q on division rows, m on remainder rows
  auto picked = [&](int k) { return col("q", k) + rm * (col("m", k) - col("q", k)); };
  // spec: div:c:r0
  c("div:c:r0", x("r0") - picked(0));
  // spec: div:c:r1
  c("div:c:r1", x("r1") - picked(1));
  // spec: div:c:r2
  c("div:c:r2", x("r2") - (one - wf) * picked(2) - wf * ones * x("w"));
  // spec: div:c:r3
  c("div:c:r3", x("r3") - (one - wf) * picked(3) - wf * ones * x("w"));
}

// ---- image (spec/tables/image.md) ----
template <class V>
void eval_image(const Point<V>& x, Values<V>& s) {
  const Emit<V> c{s};
  // spec: image:b:table
  c.bus("image:b:table", "image", false, {x("addr"), x("value")}, x("mult"));
}

// ---- io (spec/tables/io.md) ----
template <class V>
void eval_io(const Point<V>& x, Values<V>& s) {
  const Emit<V> c{s};
  const V one = f<V>(1), real = x("is_real");
  // spec: io:c:real_bit
  c("io:c:real_bit", real * (real - one));
  // spec: io:c:real_prefix
  c.transition("io:c:real_prefix", x.next("is_real") * (one - real));
  // spec: io:b:in
  c.bus("io:b:in", "mem", false, {x("addr"), x("prev_ts"), x("old"), x("w")}, real);
  // spec: io:b:out
  c.bus("io:b:out", "mem", true, {x("addr"), x("ts"), x("new"), x("w")}, real);
  // spec: io:c:order
  c("io:c:order", real * (x("ts") - x("prev_ts") - one - x("dt0") - f<V>(65536) * x("dt1")));
  // spec: io:b:dt0
  c.bus("io:b:dt0", "range16", true, {x("dt0")}, real);
  // spec: io:b:dt1
  c.bus("io:b:dt1", "range16", true, {x("dt1")}, real);
  // spec: io:b:new
  c.bus("io:b:new", "byte", true, {x("new")}, real);
  const V last = x("last"), more = one - last;
  // spec: io:c:last_bit
  c("io:c:last_bit", last * (last - one));
  // spec: io:c:last_real
  c("io:c:last_real", last * (one - real));
  // spec: io:c:idx_first
  c.first("io:c:idx_first", x("idx"));
  {
    const V next_real = x.next("is_real");
    // spec: io:c:next_idx
    c.transition("io:c:next_idx", next_real * (x.next("idx") - more * (x("idx") + one)));
    // spec: io:c:next_ts
    c.transition("io:c:next_ts", next_real * more * (x.next("ts") - x("ts")));
    // spec: io:c:next_addr
    c.transition("io:c:next_addr", next_real * more * (x.next("addr") - x("addr") - one));
    // spec: io:c:next_rd
    c.transition("io:c:next_rd", next_real * more * (x.next("rd") - x("rd")));
    // spec: io:c:next_out
    c.transition("io:c:next_out", next_real * more * (x.next("out") - x("out")));
    // spec: io:c:next_opos
    c.transition("io:c:next_opos", next_real * more * (x.next("opos") - x("opos") - one));
    // spec: io:c:group_end
    c.transition("io:c:group_end", real * (one - next_real) * more);
  }
  // spec: io:c:group_end_last
  c.last("io:c:group_end_last", real * more);
  // spec: io:b:group
  c.bus("io:b:group", "iogroup", false,
        {x("ts"), (x("addr") - x("idx")), (x("idx") + one), x("rd"), x("out"),
         (x("opos") - x("idx"))},
        last);
  // spec: io:c:rd_bit
  c("io:c:rd_bit", x("rd") * (x("rd") - one));
  // spec: io:c:out_bit
  c("io:c:out_bit", x("out") * (x("out") - real));
  // spec: io:c:rd_writable
  c("io:c:rd_writable", x("rd") * (one - x("w")));
  // spec: io:c:write_keeps
  c("io:c:write_keeps", (real - x("rd")) * (x("new") - x("old")));
  // spec: io:b:output
  c.bus("io:b:output", "output", true, {x("opos"), x("new")}, x("out"));
}

// ---- mem (spec/tables/mem.md) ----
template <class V>
void eval_mem(const Point<V>& x, Values<V>& s) {
  const Emit<V> c{s};
  const V one = f<V>(1), real = x("is_real"), ff = x("from_file");
  auto rc = [&](std::string_view id, const char* col) { c.bus(id, "range16", true, {x(col)}, real); };
  // spec: mem:c:real_bit
  c("mem:c:real_bit", real * (real - one));
  // spec: mem:c:real_prefix
  c.transition("mem:c:real_prefix", (one - real) * x.next("is_real"));
  // spec: mem:c:order
  c.transition("mem:c:order", x.next("is_real") * (x.next("addr") - x("addr") - one - x("gap0") - f<V>(65536) * x("gap1")));
  // spec: mem:b:gap0
  rc("mem:b:gap0", "gap0");
  // spec: mem:b:gap1
  rc("mem:b:gap1", "gap1");
  // spec: mem:b:init
  c.bus("mem:b:init", "mem", true, {x("addr"), f<V>(0), x("init"), x("w")}, real);
  // spec: mem:b:final
  c.bus("mem:b:final", "mem", false, {x("addr"), x("fin_ts"), x("fin_v"), x("w")}, real);
  // spec: mem:b:segment
  c.bus("mem:b:segment", "segment", true, {x("start"), x("file_end"), x("end"), x("w")}, real);
  // spec: mem:c:lo
  c("mem:c:lo", real * (x("addr") - x("start") - x("lo0") - f<V>(65536) * x("lo1")));
  // spec: mem:c:hi
  c("mem:c:hi", real * (x("end") - one - x("addr") - x("hi0") - f<V>(65536) * x("hi1")));
  // spec: mem:b:lo0
  rc("mem:b:lo0", "lo0");
  // spec: mem:b:lo1
  rc("mem:b:lo1", "lo1");
  // spec: mem:b:hi0
  rc("mem:b:hi0", "hi0");
  // spec: mem:b:hi1
  rc("mem:b:hi1", "hi1");
  // spec: mem:c:from_file_bit
  c("mem:c:from_file_bit", ff * (ff - one));
  // spec: mem:c:file_real
  c("mem:c:file_real", ff * (one - real));
  // spec: mem:c:fd
  c("mem:c:fd", real * (ff * (x("file_end") - one - x("addr")) + (one - ff) * (x("addr") - x("file_end")) - x("fd0") - f<V>(65536) * x("fd1")));
  // spec: mem:b:fd0
  rc("mem:b:fd0", "fd0");
  // spec: mem:b:fd1
  rc("mem:b:fd1", "fd1");
  // spec: mem:b:image
  c.bus("mem:b:image", "image", true, {x("addr"), x("init")}, ff);
  // spec: mem:c:zero_fill
  c("mem:c:zero_fill", (one - ff) * x("init"));
}

// ---- mul (spec/tables/mul.md) ----
template <class V>
void eval_mul(const Point<V>& x, Values<V>& s) {
  const Emit<V> c{s};
  static const std::pair<const char*, uint64_t> kOps[] = {{"s_mul", 32}, {"s_mulh", 33}, {"s_mulhsu", 34}, {"s_mulhu", 35}, {"s_mulw", 48}};
  V any, code;
  for (const auto& [sel, value] : kOps) any = any + x(sel), code = code + f<V>(value) * x(sel);
  const V one = f<V>(1);
  auto col = [&](const char* v, int k) { return x(v + std::to_string(k)); };
  auto rc = [&](std::string_view id, const std::string& cname, const char* bus) { c.bus(id, bus, true, {x(cname)}, any); };
  // spec: mul:c:s_mul_bit
  c("mul:c:s_mul_bit", x("s_mul") * (x("s_mul") - one));
  // spec: mul:c:s_mulh_bit
  c("mul:c:s_mulh_bit", x("s_mulh") * (x("s_mulh") - one));
  // spec: mul:c:s_mulhsu_bit
  c("mul:c:s_mulhsu_bit", x("s_mulhsu") * (x("s_mulhsu") - one));
  // spec: mul:c:s_mulhu_bit
  c("mul:c:s_mulhu_bit", x("s_mulhu") * (x("s_mulhu") - one));
  // spec: mul:c:s_mulw_bit
  c("mul:c:s_mulw_bit", x("s_mulw") * (x("s_mulw") - one));
  // spec: mul:c:one_op
  c("mul:c:one_op", any * (any - one));
  // spec: mul:c:op
  c("mul:c:op", x("op") - code);
  // spec: mul:b:ops
  c.bus("mul:b:ops", "alu", false, {x("op"), x("a0"), x("a1"), x("a2"), x("a3"), x("b0"), x("b1"), x("b2"), x("b3"), x("r0"), x("r1"), x("r2"), x("r3")}, any);
  auto carry = [&](int i) { return col("kl", i) + f<V>(65536) * col("kh", i); };
  // spec: mul:c:prod0
  {
    V sum = V();
    for (int k = 0; k < 4; ++k)
      if (0 - k >= 0 && 0 - k < 4) sum = sum + col("a", k) * col("b", 0 - k);
    c("mul:c:prod0", sum - col("p", 0) - f<V>(65536) * carry(0));
  }
  // spec: mul:c:prod1
  {
    V sum = carry(0);
    for (int k = 0; k < 4; ++k)
      if (1 - k >= 0 && 1 - k < 4) sum = sum + col("a", k) * col("b", 1 - k);
    c("mul:c:prod1", sum - col("p", 1) - f<V>(65536) * carry(1));
  }
  // spec: mul:c:prod2
  {
    V sum = carry(1);
    for (int k = 0; k < 4; ++k)
      if (2 - k >= 0 && 2 - k < 4) sum = sum + col("a", k) * col("b", 2 - k);
    c("mul:c:prod2", sum - col("p", 2) - f<V>(65536) * carry(2));
  }
  // spec: mul:c:prod3
  {
    V sum = carry(2);
    for (int k = 0; k < 4; ++k)
      if (3 - k >= 0 && 3 - k < 4) sum = sum + col("a", k) * col("b", 3 - k);
    c("mul:c:prod3", sum - col("p", 3) - f<V>(65536) * carry(3));
  }
  // spec: mul:c:prod4
  {
    V sum = carry(3);
    for (int k = 0; k < 4; ++k)
      if (4 - k >= 0 && 4 - k < 4) sum = sum + col("a", k) * col("b", 4 - k);
    c("mul:c:prod4", sum - col("p", 4) - f<V>(65536) * carry(4));
  }
  // spec: mul:c:prod5
  {
    V sum = carry(4);
    for (int k = 0; k < 4; ++k)
      if (5 - k >= 0 && 5 - k < 4) sum = sum + col("a", k) * col("b", 5 - k);
    c("mul:c:prod5", sum - col("p", 5) - f<V>(65536) * carry(5));
  }
  // spec: mul:c:prod6
  {
    V sum = carry(5);
    for (int k = 0; k < 4; ++k)
      if (6 - k >= 0 && 6 - k < 4) sum = sum + col("a", k) * col("b", 6 - k);
    c("mul:c:prod6", sum - col("p", 6) - f<V>(65536) * carry(6));
  }
  // spec: mul:c:prod7
  {
    V sum = carry(6);
    for (int k = 0; k < 4; ++k)
      if (7 - k >= 0 && 7 - k < 4) sum = sum + col("a", k) * col("b", 7 - k);
    c("mul:c:prod7", sum - col("p", 7));
  }
  // spec: mul:b:p0
  rc("mul:b:p0", "p0", "range16");
  // spec: mul:b:p1
  rc("mul:b:p1", "p1", "range16");
  // spec: mul:b:p2
  rc("mul:b:p2", "p2", "range16");
  // spec: mul:b:p3
  rc("mul:b:p3", "p3", "range16");
  // spec: mul:b:p4
  rc("mul:b:p4", "p4", "range16");
  // spec: mul:b:p5
  rc("mul:b:p5", "p5", "range16");
  // spec: mul:b:p6
  rc("mul:b:p6", "p6", "range16");
  // spec: mul:b:p7
  rc("mul:b:p7", "p7", "range16");
  // spec: mul:b:kl0
  rc("mul:b:kl0", "kl0", "range16");
  // spec: mul:b:kl1
  rc("mul:b:kl1", "kl1", "range16");
  // spec: mul:b:kl2
  rc("mul:b:kl2", "kl2", "range16");
  // spec: mul:b:kl3
  rc("mul:b:kl3", "kl3", "range16");
  // spec: mul:b:kl4
  rc("mul:b:kl4", "kl4", "range16");
  // spec: mul:b:kl5
  rc("mul:b:kl5", "kl5", "range16");
  // spec: mul:b:kl6
  rc("mul:b:kl6", "kl6", "range16");
  // spec: mul:b:kh0
  rc("mul:b:kh0", "kh0", "byte");
  // spec: mul:b:kh1
  rc("mul:b:kh1", "kh1", "byte");
  // spec: mul:b:kh2
  rc("mul:b:kh2", "kh2", "byte");
  // spec: mul:b:kh3
  rc("mul:b:kh3", "kh3", "byte");
  // spec: mul:b:kh4
  rc("mul:b:kh4", "kh4", "byte");
  // spec: mul:b:kh5
  rc("mul:b:kh5", "kh5", "byte");
  // spec: mul:b:kh6
  rc("mul:b:kh6", "kh6", "byte");
  // spec: mul:c:sa_bit
  c("mul:c:sa_bit", x("sa") * (x("sa") - one));
  // spec: mul:c:sa
  c("mul:c:sa", f<V>(2) * x("a3") - f<V>(65536) * x("sa") - x("ah"));
  // spec: mul:b:ah
  rc("mul:b:ah", "ah", "range16");
  // spec: mul:c:sb_bit
  c("mul:c:sb_bit", x("sb") * (x("sb") - one));
  // spec: mul:c:sb
  c("mul:c:sb", f<V>(2) * x("b3") - f<V>(65536) * x("sb") - x("bh"));
  // spec: mul:b:bh
  rc("mul:b:bh", "bh", "range16");
  // spec: mul:c:ga
  c("mul:c:ga", x("ga") - x("sa") * (x("s_mulh") + x("s_mulhsu")));
  // spec: mul:c:gb
  c("mul:c:gb", x("gb") - x("sb") * x("s_mulh"));
  // spec: mul:c:high0
  c("mul:c:high0", col("p", 4) - x("ga") * col("b", 0) - x("gb") * col("a", 0) - col("h", 0) + f<V>(65536) * col("bw", 0));
  // spec: mul:c:high1
  c("mul:c:high1", col("p", 5) - x("ga") * col("b", 1) - x("gb") * col("a", 1) - col("bw", 0) - col("h", 1) + f<V>(65536) * col("bw", 1));
  // spec: mul:c:high2
  c("mul:c:high2", col("p", 6) - x("ga") * col("b", 2) - x("gb") * col("a", 2) - col("bw", 1) - col("h", 2) + f<V>(65536) * col("bw", 2));
  // spec: mul:c:high3
  c("mul:c:high3", col("p", 7) - x("ga") * col("b", 3) - x("gb") * col("a", 3) - col("bw", 2) - col("h", 3) + f<V>(65536) * col("bw", 3));
  // spec: mul:c:bw0_small
  c("mul:c:bw0_small", col("bw", 0) * (col("bw", 0) - one) * (col("bw", 0) - f<V>(2)));
  // spec: mul:c:bw1_small
  c("mul:c:bw1_small", col("bw", 1) * (col("bw", 1) - one) * (col("bw", 1) - f<V>(2)));
  // spec: mul:c:bw2_small
  c("mul:c:bw2_small", col("bw", 2) * (col("bw", 2) - one) * (col("bw", 2) - f<V>(2)));
  // spec: mul:c:bw3_small
  c("mul:c:bw3_small", col("bw", 3) * (col("bw", 3) - one) * (col("bw", 3) - f<V>(2)));
  // spec: mul:b:h0
  rc("mul:b:h0", "h0", "range16");
  // spec: mul:b:h1
  rc("mul:b:h1", "h1", "range16");
  // spec: mul:b:h2
  rc("mul:b:h2", "h2", "range16");
  // spec: mul:b:h3
  rc("mul:b:h3", "h3", "range16");
  // spec: mul:c:w_bit
  c("mul:c:w_bit", x("w") * (x("w") - one));
  // spec: mul:c:w
  c("mul:c:w", f<V>(2) * x("p1") - f<V>(65536) * x("w") - x("wh"));
  // spec: mul:b:wh
  rc("mul:b:wh", "wh", "range16");
  const V high = x("s_mulh") + x("s_mulhsu") + x("s_mulhu");
  // spec: mul:c:r0
  c("mul:c:r0", col("r", 0) - x("s_mul") * col("p", 0) - high * col("h", 0) - x("s_mulw") * col("p", 0));
  // spec: mul:c:r1
  c("mul:c:r1", col("r", 1) - x("s_mul") * col("p", 1) - high * col("h", 1) - x("s_mulw") * col("p", 1));
  // spec: mul:c:r2
  c("mul:c:r2", col("r", 2) - x("s_mul") * col("p", 2) - high * col("h", 2) - x("s_mulw") * f<V>(65535) * x("w"));
  // spec: mul:c:r3
  c("mul:c:r3", col("r", 3) - x("s_mul") * col("p", 3) - high * col("h", 3) - x("s_mulw") * f<V>(65535) * x("w"));
}

// ---- output (spec/tables/output.md) ----
template <class V>
void eval_output(const Point<V>& x, Values<V>& s) {
  const Emit<V> c{s};
  // spec: output:b:bytes
  c.bus("output:b:bytes", "output", false, {x("pos"), x("value")}, x("is_real"));
}

// ---- pow2 (spec/tables/pow2.md) ----
template <class V>
void eval_pow2(const Point<V>& x, Values<V>& s) {
  const Emit<V> c{s};
  // spec: pow2:b:table
  c.bus("pow2:b:table", "pow2", false, {x("k"), x("q0"), x("q1"), x("q2"), x("q3")}, x("mult"));
}

// ---- program (spec/tables/program.md) ----
template <class V>
void eval_program(const Point<V>& x, Values<V>& s) {
  const Emit<V> c{s};
  // spec: program:b:rom
  c.bus("program:b:rom", "program", false, {x("pc"), x("insn")}, x("mult"));
}

// ---- range16 (spec/tables/range16.md) ----
template <class V>
void eval_range16(const Point<V>& x, Values<V>& s) {
  const Emit<V> c{s};
  // spec: range16:c:value_first
  c.first("range16:c:value_first", x("value"));
  // spec: range16:c:value_step
  c.transition("range16:c:value_step", (x.next("value") - x("value") - f<V>(1)));
  // spec: range16:b:table
  c.bus("range16:b:table", "range16", false, {x("value")}, x("mult"));
}

// ---- regs (spec/tables/regs.md) ----
template <class V>
void eval_regs(const Point<V>& x, Values<V>& s) {
  const Emit<V> c{s};
  // spec: regs:c:reg_first
  c.first("regs:c:reg_first", x("reg"));
  // spec: regs:c:reg_step
  c.transition("regs:c:reg_step", (x.next("reg") - x("reg") - f<V>(1)));
  // spec: regs:b:init
  c.bus("regs:b:init", "reg", true, {x("reg"), f<V>(0), f<V>(0), f<V>(0), f<V>(0), f<V>(0)}, f<V>(1));
  // spec: regs:b:final
  c.bus("regs:b:final", "reg", false,
        {x("reg"), x("final_ts"), x("final_v0"), x("final_v1"), x("final_v2"),
         x("final_v3")},
        f<V>(1));
}

// ---- segments (spec/tables/segments.md) ----
template <class V>
void eval_segments(const Point<V>& x, Values<V>& s) {
  const Emit<V> c{s};
  // spec: segments:b:table
  c.bus("segments:b:table", "segment", false,
        {x("start"), x("file_end"), x("end"), x("w")}, x("mult"));
}

// ---- shift (spec/tables/shift.md) ----
template <class V>
void eval_shift(const Point<V>& x, Values<V>& s) {
  const Emit<V> c{s};
  static const std::pair<const char*, uint64_t> kOps[] = {{"s_sll", 1}, {"s_srl", 5}, {"s_sra", 13}, {"s_sllw", 17}, {"s_srlw", 21}, {"s_sraw", 29}};
  V any, code;
  for (const auto& [sel, value] : kOps) any = any + x(sel), code = code + f<V>(value) * x(sel);
  const V one = f<V>(1);
  auto col = [&](const char* v, int k) { return x(v + std::to_string(k)); };
  // spec: shift:c:s_sll_bit
  c("shift:c:s_sll_bit", x("s_sll") * (x("s_sll") - one));
  // spec: shift:c:s_srl_bit
  c("shift:c:s_srl_bit", x("s_srl") * (x("s_srl") - one));
  // spec: shift:c:s_sra_bit
  c("shift:c:s_sra_bit", x("s_sra") * (x("s_sra") - one));
  // spec: shift:c:s_sllw_bit
  c("shift:c:s_sllw_bit", x("s_sllw") * (x("s_sllw") - one));
  // spec: shift:c:s_srlw_bit
  c("shift:c:s_srlw_bit", x("s_srlw") * (x("s_srlw") - one));
  // spec: shift:c:s_sraw_bit
  c("shift:c:s_sraw_bit", x("s_sraw") * (x("s_sraw") - one));
  // spec: shift:c:one_op
  c("shift:c:one_op", any * (any - one));
  // spec: shift:c:op
  c("shift:c:op", x("op") - code);
  // spec: shift:b:ops
  c.bus("shift:b:ops", "alu", false, {x("op"), x("a0"), x("a1"), x("a2"), x("a3"), x("b0"), x("b1"), x("b2"), x("b3"), x("r0"), x("r1"), x("r2"), x("r3")}, any);
  // spec: shift:c:amount_bits
  c("shift:c:amount_bits", x("b0") - x("sl") - f<V>(32) * x("s5") - f<V>(64) * x("m"));
  // spec: shift:c:s5_bit
  c("shift:c:s5_bit", x("s5") * (x("s5") - one));
  // spec: shift:c:sl8
  c("shift:c:sl8", x("sl8") - f<V>(8) * x("sl"));
  // spec: shift:b:sl
  c.bus("shift:b:sl", "byte", true, {x("sl8")}, any);
  // spec: shift:b:m
  c.bus("shift:b:m", "range16", true, {x("m")}, any);
  const V full = x("s_sll") + x("s_srl") + x("s_sra"), left = x("s_sll") + x("s_sllw");
  const V right = x("s_srl") + x("s_sra") + x("s_srlw") + x("s_sraw");
  // spec: shift:c:sh
  c("shift:c:sh", x("sh") - x("sl") - f<V>(32) * x("s5") * full);
  // spec: shift:c:z_def
  c("shift:c:z_def", any * (x("sh") * x("zinv") - one + x("z")));
  // spec: shift:c:z_zero
  c("shift:c:z_zero", x("sh") * x("z"));
  // spec: shift:c:e
  c("shift:c:e", x("e") - left * x("sh") - right * (one - x("z")) * (f<V>(64) - x("sh")));
  // spec: shift:b:pow2
  c.bus("shift:b:pow2", "pow2", true, {x("e"), x("q0"), x("q1"), x("q2"), x("q3")}, any);
  // spec: shift:c:sa31_bit
  c("shift:c:sa31_bit", x("sa31") * (x("sa31") - one));
  // spec: shift:c:sa31
  c("shift:c:sa31", f<V>(2) * x("a1") - f<V>(65536) * x("sa31") - x("ah"));
  // spec: shift:b:ah
  c.bus("shift:b:ah", "range16", true, {x("ah")}, any);
  // spec: shift:c:x0
  c("shift:c:x0", x("x0") - x("a0"));
  // spec: shift:c:x1
  c("shift:c:x1", x("x1") - x("a1"));
  const V narrow = one - x("s_srlw") - x("s_sraw"), ext = x("s_sraw") * f<V>(65535) * x("sa31");
  // spec: shift:c:x2
  c("shift:c:x2", x("x2") - narrow * x("a2") - ext);
  // spec: shift:c:x3
  c("shift:c:x3", x("x3") - narrow * x("a3") - ext);
  // spec: shift:c:rop
  c("shift:c:rop", x("rop") - f<V>(32) * x("s_sll") - f<V>(48) * x("s_sllw") - f<V>(35) * (x("s_srl") + x("s_srlw")) - f<V>(34) * (x("s_sra") + x("s_sraw")));
  // spec: shift:b:mul
  c.bus("shift:b:mul", "alu", true, {x("rop"), x("x0"), x("x1"), x("x2"), x("x3"), x("q0"), x("q1"), x("q2"), x("q3"), x("y0"), x("y1"), x("y2"), x("y3")}, any);
  // spec: shift:c:w_bit
  c("shift:c:w_bit", x("w") * (x("w") - one));
  // spec: shift:c:w
  c("shift:c:w", f<V>(2) * x("r1") - f<V>(65536) * x("w") - x("wh"));
  // spec: shift:b:wh
  c.bus("shift:b:wh", "range16", true, {x("wh")}, any);
  const V z = x("z"), same = x("s_srl") + x("s_sra") + x("s_sraw");
  auto result = [&](int k) {
    const V shifted = z * col("x", k) + (one - z) * col("y", k);
    const V srlw = k < 2 ? shifted : f<V>(65535) * x("w");
    return col("r", k) - left * col("y", k) - same * shifted - x("s_srlw") * srlw;
  };
  // spec: shift:c:r0
  c("shift:c:r0", result(0));
  // spec: shift:c:r1
  c("shift:c:r1", result(1));
  // spec: shift:c:r2
  c("shift:c:r2", result(2));
  // spec: shift:c:r3
  c("shift:c:r3", result(3));
}

// ---- syscall (spec/tables/syscall.md) ----
template <class V>
void eval_syscall(const Point<V>& x, Values<V>& s) {
  const Emit<V> c{s};
  const V one = f<V>(1), k16 = f<V>(65536), real = x("is_real");
  auto col = [&](const char* v, int k) { return x(v + std::to_string(k)); };
  auto limbs = [&](const char* v) { return std::vector<V>{col(v, 0), col(v, 1), col(v, 2), col(v, 3)}; };
  auto rc = [&](std::string_view id, const char* cname) { c.bus(id, "range16", true, {x(cname)}, real); };
  auto bit = [&](std::string_view id, const char* cname) { c(id, x(cname) * (x(cname) - one)); };
  // spec: syscall:c:real_bit
  bit("syscall:c:real_bit", "is_real");
  // spec: syscall:c:real_prefix
  c.transition("syscall:c:real_prefix", x.next("is_real") * (one - real));
  // spec: syscall:b:ecall
  {
    std::vector<V> tuple = {x("ts")};
    for (const char* v : {"n", "f", "r"})
      for (const V& l : limbs(v)) tuple.push_back(l);
    c.bus("syscall:b:ecall", "sys", false, tuple, real);
  }
  // a register read at ts: the token (reg, prev, v) consumed, (reg, ts, v) sent
  auto reg_in = [&](std::string_view id, uint64_t reg, const char* prev, const char* v) {
    std::vector<V> tuple = {f<V>(reg), x(prev)};
    for (const V& l : limbs(v)) tuple.push_back(l);
    c.bus(id, "reg", false, tuple, real);
  };
  auto reg_out = [&](std::string_view id, uint64_t reg, const char* v) {
    std::vector<V> tuple = {f<V>(reg), x("ts")};
    for (const V& l : limbs(v)) tuple.push_back(l);
    c.bus(id, "reg", true, tuple, real);
  };
  // spec: syscall:b:b_in
  reg_in("syscall:b:b_in", 11, "bp", "b");
  // spec: syscall:b:b_out
  reg_out("syscall:b:b_out", 11, "b");
  // spec: syscall:c:b_order
  c("syscall:c:b_order", real * (x("ts") - x("bp") - one - x("bd0") - k16 * x("bd1")));
  // spec: syscall:b:bd0
  rc("syscall:b:bd0", "bd0");
  // spec: syscall:b:bd1
  rc("syscall:b:bd1", "bd1");
  // spec: syscall:b:c_in
  reg_in("syscall:b:c_in", 12, "cp", "c");
  // spec: syscall:b:c_out
  reg_out("syscall:b:c_out", 12, "c");
  // spec: syscall:c:c_order
  c("syscall:c:c_order", real * (x("ts") - x("cp") - one - x("cd0") - k16 * x("cd1")));
  // spec: syscall:b:cd0
  rc("syscall:b:cd0", "cd0");
  // spec: syscall:b:cd1
  rc("syscall:b:cd1", "cd1");
  // spec: syscall:c:k_read_bit
  bit("syscall:c:k_read_bit", "k_read");
  // spec: syscall:c:k_write_bit
  bit("syscall:c:k_write_bit", "k_write");
  // spec: syscall:c:k_random_bit
  bit("syscall:c:k_random_bit", "k_random");
  // spec: syscall:c:k_scope_bit
  bit("syscall:c:k_scope_bit", "k_scope");
  // spec: syscall:c:k_other_bit
  bit("syscall:c:k_other_bit", "k_other");
  // spec: syscall:c:one_kind
  c("syscall:c:one_kind", real - x("k_read") - x("k_write") - x("k_random") - x("k_scope") - x("k_other"));
  // spec: syscall:c:read_number
  c("syscall:c:read_number", x("k_read") * (x("n0") - f<V>(63)));
  // spec: syscall:c:write_number
  c("syscall:c:write_number", x("k_write") * (x("n0") - f<V>(64)));
  // spec: syscall:c:low_high
  c("syscall:c:low_high", (x("k_read") + x("k_write")) * (x("n1") + x("n2") + x("n3")));
  // spec: syscall:c:random_number
  c("syscall:c:random_number", x("k_random") * (x("n0") - f<V>(40960)));
  // spec: syscall:c:scope_number
  c("syscall:c:scope_number", x("k_scope") * (x("n0") - f<V>(40961)) * (x("n0") - f<V>(40962)));
  // spec: syscall:c:zkrv_n1
  c("syscall:c:zkrv_n1", (x("k_random") + x("k_scope")) * (x("n1") - f<V>(5)));
  // spec: syscall:c:zkrv_high
  c("syscall:c:zkrv_high", (x("k_random") + x("k_scope")) * (x("n2") + x("n3")));
  const V high = x("n2") + x("n3"), nl = x("n0") + k16 * x("n1");
  // spec: syscall:c:big_bit
  bit("syscall:c:big_bit", "big");
  // spec: syscall:c:big_inv
  c("syscall:c:big_inv", x("big") * (high * x("biginv") - one));
  // spec: syscall:c:big_def
  c("syscall:c:big_def", high * (one - x("big")));
  // spec: syscall:c:p1
  c("syscall:c:p1", x("p1") - real * (nl - f<V>(63)) * (nl - f<V>(64)));
  // spec: syscall:c:p2
  c("syscall:c:p2", x("p2") - x("p1") * (nl - f<V>(0x5A000)));
  // spec: syscall:c:p3
  c("syscall:c:p3", x("p3") - x("p2") * (nl - f<V>(0x5A001)));
  // spec: syscall:c:p4
  c("syscall:c:p4", x("p4") - x("p3") * (nl - f<V>(0x5A002)));
  // spec: syscall:c:ob
  c("syscall:c:ob", x("ob") - x("k_other") * (one - x("big")));
  // spec: syscall:c:other_number
  c("syscall:c:other_number", x("ob") * (x("p4") * x("pinv") - one));
  const V fsum = x("f0") + x("f1") + x("f2") + x("f3");
  // spec: syscall:c:fz_zero
  c("syscall:c:fz_zero", fsum * x("fz"));
  // spec: syscall:c:fz_def
  c("syscall:c:fz_def", real * (fsum * x("fzinv") - one + x("fz")));
  // spec: syscall:c:fw
  c("syscall:c:fw", x("fw") - real * (x("f0") - one) * (x("f0") - f<V>(2)) - f<V>(4294967296) * (x("f1") + x("f2") + x("f3")));
  // spec: syscall:c:fo_zero
  c("syscall:c:fo_zero", x("fw") * x("fo"));
  // spec: syscall:c:fo_def
  c("syscall:c:fo_def", real * (x("fw") * x("foinv") - one + x("fo")));
  // spec: syscall:c:g_in
  c("syscall:c:g_in", x("g_in") - x("k_read") * x("fz"));
  // spec: syscall:c:g_bad
  c("syscall:c:g_bad", x("g_bad") - x("k_read") * (one - x("fz")) - x("k_write") * (one - x("fo")));
  // spec: syscall:c:g_out
  c("syscall:c:g_out", x("g_out") - x("k_write") * x("fo"));
  // spec: syscall:c:bad0
  c("syscall:c:bad0", x("g_bad") * (x("r0") - f<V>(65527)));
  // spec: syscall:c:bad1
  c("syscall:c:bad1", x("g_bad") * (x("r1") - f<V>(65535)));
  // spec: syscall:c:bad2
  c("syscall:c:bad2", x("g_bad") * (x("r2") - f<V>(65535)));
  // spec: syscall:c:bad3
  c("syscall:c:bad3", x("g_bad") * (x("r3") - f<V>(65535)));
  // spec: syscall:c:wrote0
  c("syscall:c:wrote0", x("g_out") * (x("r0") - x("c0")));
  // spec: syscall:c:wrote1
  c("syscall:c:wrote1", x("g_out") * (x("r1") - x("c1")));
  // spec: syscall:c:wrote2
  c("syscall:c:wrote2", x("g_out") * (x("r2") - x("c2")));
  // spec: syscall:c:wrote3
  c("syscall:c:wrote3", x("g_out") * (x("r3") - x("c3")));
  // spec: syscall:c:scope0
  c("syscall:c:scope0", x("k_scope") * x("r0"));
  // spec: syscall:c:scope1
  c("syscall:c:scope1", x("k_scope") * x("r1"));
  // spec: syscall:c:scope2
  c("syscall:c:scope2", x("k_scope") * x("r2"));
  // spec: syscall:c:scope3
  c("syscall:c:scope3", x("k_scope") * x("r3"));
  // spec: syscall:c:nosys0
  c("syscall:c:nosys0", x("k_other") * (x("r0") - f<V>(65498)));
  // spec: syscall:c:nosys1
  c("syscall:c:nosys1", x("k_other") * (x("r1") - f<V>(65535)));
  // spec: syscall:c:nosys2
  c("syscall:c:nosys2", x("k_other") * (x("r2") - f<V>(65535)));
  // spec: syscall:c:nosys3
  c("syscall:c:nosys3", x("k_other") * (x("r3") - f<V>(65535)));
  // spec: syscall:c:e0_bit
  bit("syscall:c:e0_bit", "e0");
  // spec: syscall:c:e1_bit
  bit("syscall:c:e1_bit", "e1");
  // spec: syscall:c:e2_bit
  bit("syscall:c:e2_bit", "e2");
  // r + d = a2 limb by limb on reads from the input
  auto count = [&](int k) {
    const V cin = k ? col("e", k - 1) : V(), cout = k < 3 ? k16 * col("e", k) : V();
    return x("g_in") * (col("r", k) + col("d", k) + cin - col("c", k) - cout);
  };
  // spec: syscall:c:count0
  c("syscall:c:count0", count(0));
  // spec: syscall:c:count1
  c("syscall:c:count1", count(1));
  // spec: syscall:c:count2
  c("syscall:c:count2", count(2));
  // spec: syscall:c:count3
  c("syscall:c:count3", count(3));
  // spec: syscall:b:d0
  rc("syscall:b:d0", "d0");
  // spec: syscall:b:d1
  rc("syscall:b:d1", "d1");
  // spec: syscall:b:d2
  rc("syscall:b:d2", "d2");
  // spec: syscall:b:d3
  rc("syscall:b:d3", "d3");
  const V dsum = x("d0") + x("d1") + x("d2") + x("d3");
  // spec: syscall:c:d_unused
  c("syscall:c:d_unused", (real - x("g_in")) * dsum);
  // spec: syscall:c:short_bit
  bit("syscall:c:short_bit", "short");
  // spec: syscall:c:short_set
  c("syscall:c:short_set", dsum * (one - x("short")));
  // spec: syscall:c:short_inv
  c("syscall:c:short_inv", x("short") * (dsum * x("shinv") - one));
  // spec: syscall:c:eof_bit
  bit("syscall:c:eof_bit", "eof");
  // spec: syscall:c:eof_first
  c.first("syscall:c:eof_first", x("eof"));
  // spec: syscall:c:eof_next
  c.transition("syscall:c:eof_next", x.next("is_real") * (x.next("eof") - x("eof") - x("short") + x("eof") * x("short")));
  // spec: syscall:c:eof_empty
  c("syscall:c:eof_empty", x("g_in") * x("eof") * (x("r0") + x("r1") + x("r2") + x("r3")));
  // spec: syscall:c:out1
  c("syscall:c:out1", x("out1") - x("g_out") * (f<V>(2) - x("f0")));
  // spec: syscall:c:r_small
  c("syscall:c:r_small", x("g_in") * (x("r2") + x("r3")));
  // spec: syscall:c:c_small
  c("syscall:c:c_small", x("g_out") * (x("c2") + x("c3")));
  // spec: syscall:c:mv
  c("syscall:c:mv", x("mv") - x("g_in") * (x("r0") + k16 * x("r1")) - x("g_out") * (x("c0") + k16 * x("c1")));
  // spec: syscall:c:mvz_set
  c("syscall:c:mvz_set", x("mv") * (one - x("mvz")));
  // spec: syscall:c:mvz_inv
  c("syscall:c:mvz_inv", x("mvz") * (x("mv") * x("mvinv") - one));
  // spec: syscall:c:buf_small
  c("syscall:c:buf_small", x("mvz") * (x("b2") + x("b3")));
  // spec: syscall:c:ostart
  c("syscall:c:ostart", x("ostart") - x("out1") * x("opos"));
  // spec: syscall:b:io
  c.bus("syscall:b:io", "iogroup", true,
        {(x("ts") + f<V>(2)), (x("b0") + k16 * x("b1")), x("mv"), x("g_in"), x("out1"),
         x("ostart")},
        x("mvz"));
  // spec: syscall:c:opos_first
  c.first("syscall:c:opos_first", x("opos"));
  // spec: syscall:c:opos_next
  c.transition("syscall:c:opos_next", x.next("is_real") * (x.next("opos") - x("opos") - x("out1") * x("mv")));
  // spec: syscall:c:order
  c.transition("syscall:c:order", x.next("is_real") * (x.next("ts") - x("ts") - one - x("tg0") - k16 * x("tg1")));
  // spec: syscall:b:tg0
  rc("syscall:b:tg0", "tg0");
  // spec: syscall:b:tg1
  rc("syscall:b:tg1", "tg1");
}

}  // namespace

const std::vector<std::string>& bus_names() {
  static const std::vector<std::string> names = {"byte",  "program", "range16", "reg",   "alu",
                                                       "pow2",  "and8",    "mem",     "segment", "image", "sys",   "iogroup", "output"};
  return names;
}

namespace {

// The Sink's view: a table's rows one after another, each constraint on the rows it covers.
class RowValues final : public Values<Fp> {
 public:
  RowValues(const TraceTable& t, Sink& sink) : t_(t), sink_(sink) {}
  size_t row = 0;
  void constraint(std::string_view id, Rows rows, const Fp& value) override {
    const size_t h = t_.height();
    const bool covered = rows == Rows::kEvery || (rows == Rows::kFirst && row == 0) ||
                         (rows == Rows::kLast && row + 1 == h) || (rows == Rows::kTransition && row + 1 < h);
    if (covered) sink_.constraint(t_.name, id, row, value.value());
  }
  void bus(std::string_view id, std::string_view bus, bool send, std::span<const Fp> tuple, const Fp& mult) override {
    std::vector<uint64_t> raw;
    for (const Fp& v : tuple) raw.push_back(v.value());
    sink_.bus(t_.name, id, bus, send, row, raw, mult.value());
  }

 private:
  const TraceTable& t_;
  Sink& sink_;
};

}  // namespace

template <class V>
TableEvaluator<V> table_evaluator(std::string_view table) {
  static const std::pair<std::string_view, TableEvaluator<V>> kTables[] = {
      {"alu", eval_alu<V>},         {"and8", eval_and8<V>},         {"byte", eval_byte<V>},   {"cpu", eval_cpu<V>},
      {"div", eval_div<V>},         {"image", eval_image<V>},       {"io", eval_io<V>},       {"mem", eval_mem<V>},
      {"mul", eval_mul<V>},         {"output", eval_output<V>},     {"pow2", eval_pow2<V>},   {"program", eval_program<V>},
      {"range16", eval_range16<V>}, {"regs", eval_regs<V>},         {"segments", eval_segments<V>},
      {"shift", eval_shift<V>},     {"syscall", eval_syscall<V>}};
  for (const auto& [name, fn] : kTables)
    if (name == table) return fn;
  return nullptr;
}
template TableEvaluator<Fp> table_evaluator<Fp>(std::string_view);
template TableEvaluator<Fp3> table_evaluator<Fp3>(std::string_view);

void evaluate(const AirTrace& trace, Sink& sink) {
  std::vector<std::string> public_names;
  std::vector<Fp> publics;
  for (const auto& [name, value] : trace.publics) public_names.push_back(name), publics.push_back(Fp::from_u64(value));
  const Names pub(public_names);
  static const char* const kOrder[] = {"alu", "and8",    "byte",    "cpu",  "div",      "image", "io",     "mem",    "mul",
                                       "output", "pow2", "program", "range16", "regs", "segments", "shift", "syscall"};
  for (const char* name : kOrder) {
    const TraceTable& t = trace.table(name);
    const TableEvaluator<Fp> eval = table_evaluator<Fp>(name);
    const Names columns(t.columns);
    const size_t h = t.height(), w = t.columns.size();
    std::vector<Fp> row(w), next(w);
    RowValues out(t, sink);
    for (size_t r = 0; r < h; ++r) {
      for (size_t c = 0; c < w; ++c) row[c] = Fp::from_u64(t.rows[r][c]), next[c] = Fp::from_u64(t.rows[(r + 1) % h][c]);
      out.row = r;
      eval(Point<Fp>{columns, row.data(), next.data(), pub, publics.data()}, out);
    }
  }
}

}  // namespace zkrv::ref::air
