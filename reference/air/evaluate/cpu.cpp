// The cpu table (spec/tables/cpu.md): its constraints and bus interactions, block by block in
// the document's order, each under its `// spec: <id>` comment. The body is split by the
// document's sections (the comments in its constraint list), one helper per group, called in
// that order.
#include <cstddef>

#include "reference/air/evaluate/tables.h"

namespace zkrv::ref::air::eval {
namespace {

constexpr const char* kFlags[] = {"f_lui", "f_auipc", "f_jal", "f_jalr", "f_branch", "f_load", "f_store",
                                  "f_opimm", "f_op", "f_opimm32", "f_op32", "f_system", "f_fence"};
constexpr const char* kBits[] = {"i8",  "i9",  "i10", "i11", "i12", "i13", "i14", "i15",
                                 "i16", "i17", "i18", "i19", "i20", "i21", "i22", "i23",
                                 "i24", "i25", "i26", "i27", "i28", "i29", "i30", "i31"};
constexpr uint64_t kOpcodes[] = {0x37, 0x17, 0x6f, 0x67, 0x63, 0x03, 0x23, 0x13, 0x33, 0x1b, 0x3b, 0x73, 0x0f};

// LUI's and AUIPC's upper immediate, limb 1 (U-type: insn[31:12] << 12, sign-extended; limb 1 is
// bits 16..31)
template <class V>
V upper_immediate_limb1(const Point<V>& x) {
  V u1;
  for (int k = 16; k < 32; ++k) u1 = u1 + f<V>(uint64_t{1} << (k - 16)) * x(kBits[k - 8]);
  return u1;
}

// rows: real rows first, then padding; the cycle counter; where execution starts and how it
// continues; fetch: (pc, insn) is a word of the program ROM
template <class V>
void rows_and_fetch(const Point<V>& x, const Emit<V>& c) {
  const V one = f<V>(1), is_real = x("is_real");
  const V entry = x.pub("entry");
  // spec: cpu:c:real_bit
  c("cpu:c:real_bit", is_real * (is_real - one));
  // spec: cpu:c:real_first
  c.first("cpu:c:real_first", is_real - one);
  // spec: cpu:c:real_prefix
  c.transition("cpu:c:real_prefix", (one - is_real) * x.next("is_real"));
  if (!x.segmented()) {
    // spec whole: cpu:c:clk_first
    c.first("cpu:c:clk_first", x("clk"));
  } else {
    // spec segmented: cpu:c:clk_first
    c.first("cpu:c:clk_first", x("clk") - x.pub("clk_start"));
  }
  // spec: cpu:c:clk_step
  c.transition("cpu:c:clk_step", x.next("clk") - x("clk") - one);
  // spec: cpu:c:pc_first
  c.first("cpu:c:pc_first", x("pc") - entry);
  // spec: cpu:c:pc_flow
  c.transition("cpu:c:pc_flow", x.next("is_real") * (x.next("pc") - x("next_pc")));
  // spec: cpu:b:fetch
  c.bus("cpu:b:fetch", "program", true, {x("pc"), x("insn")}, is_real);
}

// the instruction word: its low byte (range-checked) and bits 8..31; the opcode class: b0 =
// opcode + 128 rd0, exactly one class flag on a real row; SYSTEM means ecall; MISC-MEM means FENCE
template <class V>
void opcode_class(const Point<V>& x, const Emit<V>& c) {
  const V one = f<V>(1), is_real = x("is_real");
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
}

// decode: every bit a bit, and the register and function fields
template <class V>
void decode_fields(const Point<V>& x, const Emit<V>& c) {
  const V one = f<V>(1);
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
}

// registers: which ones a cycle reads and writes; three accesses per cycle, each consuming the
// register's token and leaving a new one; each token was left earlier; new values are 16-bit
// limbs; x0 is hard-wired to zero; stores, branches, FENCE and the exit write nothing
template <class V>
void registers(const Point<V>& x, const Emit<V>& c) {
  const V one = f<V>(1), is_real = x("is_real");
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
  if (!x.segmented()) {
    // spec whole: cpu:c:keep0_last
    c.last("cpu:c:keep0_last", (x("f_store") + x("f_branch") + x("f_fence") + x("f_system") * is_real) * (x("d_v0") - x("d_old0")));
    // spec whole: cpu:c:keep1_last
    c.last("cpu:c:keep1_last", (x("f_store") + x("f_branch") + x("f_fence") + x("f_system") * is_real) * (x("d_v1") - x("d_old1")));
    // spec whole: cpu:c:keep2_last
    c.last("cpu:c:keep2_last", (x("f_store") + x("f_branch") + x("f_fence") + x("f_system") * is_real) * (x("d_v2") - x("d_old2")));
    // spec whole: cpu:c:keep3_last
    c.last("cpu:c:keep3_last", (x("f_store") + x("f_branch") + x("f_fence") + x("f_system") * is_real) * (x("d_v3") - x("d_old3")));
  } else {
    // a segment's last row goes on (more = 1) unless it is the exit
    const V gate = x("f_store") + x("f_branch") + x("f_fence") + x("f_system") * is_real * (f<V>(1) - x.pub("more"));
    // spec segmented: cpu:c:keep0_last
    c.last("cpu:c:keep0_last", gate * (x("d_v0") - x("d_old0")));
    // spec segmented: cpu:c:keep1_last
    c.last("cpu:c:keep1_last", gate * (x("d_v1") - x("d_old1")));
    // spec segmented: cpu:c:keep2_last
    c.last("cpu:c:keep2_last", gate * (x("d_v2") - x("d_old2")));
    // spec segmented: cpu:c:keep3_last
    c.last("cpu:c:keep3_last", gate * (x("d_v3") - x("d_old3")));
  }
}

// LUI: rd = sext(insn[31:12] << 12); JAL: the target is pc + sext(imm_j); JAL and JALR link:
// rd = pc + 4
template <class V>
void lui_jal_link(const Point<V>& x, const Emit<V>& c) {
  const V one = f<V>(1);
  const V u1 = upper_immediate_limb1(x);
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
}

// the pc as two 16-bit limbs; the row's 64-bit addition and its carries; AUIPC: rd = pc +
// sext(insn[31:12] << 12); the address adder (JALR, loads, stores); JALR: the target is the sum
// with bit 0 cleared
template <class V>
void adder_auipc_jalr(const Point<V>& x, const Emit<V>& c) {
  const V one = f<V>(1), is_real = x("is_real");
  const V u1 = upper_immediate_limb1(x);
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
}

// the ALU: which operation, the second operand (rs2's value or the sign-extended I-immediate),
// the result written to rd; BRANCH: the ALU's condition picks the target
template <class V>
void alu_request(const Point<V>& x, const Emit<V>& c) {
  const V one = f<V>(1);
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

// loads and stores: which bytes (sizes 1, 2, 4, 8 from funct3 bits 12 and 13)
template <class V>
void active_bytes(const Point<V>& x, const Emit<V>& c) {
  const V ls = x("f_load") + x("f_store"), i12 = x("i12"), i13 = x("i13"), i14 = x("i14");
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
}

// each active byte: consume the address's token, leave one at 4 clk + 3
template <class V>
void memory_tokens(const Point<V>& x, const Emit<V>& c) {
  const V one = f<V>(1);
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
}

// a load leaves every byte as it was; a store writes rs2's bytes, only where the segment is
// writable
template <class V>
void load_store_bytes(const Point<V>& x, const Emit<V>& c) {
  const V one = f<V>(1);
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
}

// a load's value: the bytes read, then the sign (LB, LH, LW) or zeros (LBU, LHU, LWU) above them
template <class V>
void load_value(const Point<V>& x, const Emit<V>& c) {
  const V one = f<V>(1);
  const V i14 = x("i14");
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
}

// the other ecalls go to the syscall table; the pc update of every instruction that is not a
// jump or branch; halting; the exit
template <class V>
void syscalls_and_halting(const Point<V>& x, const Emit<V>& c) {
  const V one = f<V>(1), is_real = x("is_real");
  const V exit_code = x.pub("exit_code");
  // spec: cpu:b:sys
  c.bus("cpu:b:sys", "sys", true,
        {(f<V>(4) * x("clk") + one), x("a_v0"), x("a_v1"), x("a_v2"), x("a_v3"), x("b_v0"),
         x("b_v1"), x("b_v2"), x("b_v3"), x("d_v0"), x("d_v1"), x("d_v2"),
         x("d_v3")},
        (x("f_system") - x("sys_exit")));
  // spec: cpu:c:pc_sequential
  c("cpu:c:pc_sequential", (x("f_lui") + x("f_auipc") + x("f_load") + x("f_store") + x("f_opimm") + x("f_op") +
                            x("f_opimm32") + x("f_op32") + x("f_fence")) * (x("next_pc") - x("pc") - f<V>(4)));
  // spec: cpu:c:pc_ecall
  c.transition("cpu:c:pc_ecall", x.next("is_real") * x("f_system") * (x("next_pc") - x("pc") - f<V>(4)));
  // spec: cpu:c:halt_system
  c.transition("cpu:c:halt_system", (is_real - x.next("is_real")) * (one - x("sys_exit")));
  // spec: cpu:c:halt_stays
  c.transition("cpu:c:halt_stays", (is_real - x.next("is_real")) * (x("next_pc") - x("pc")));
  if (!x.segmented()) {
    // spec whole: cpu:c:halt_system_last
    c.last("cpu:c:halt_system_last", is_real * (one - x("sys_exit")));
    // spec whole: cpu:c:halt_stays_last
    c.last("cpu:c:halt_stays_last", is_real * (x("next_pc") - x("pc")));
  } else {
    const V more = x.pub("more"), pc_end = x.pub("pc_end");
    // spec segmented: cpu:c:halt_system_last
    c.last("cpu:c:halt_system_last", is_real * (one - more - x("sys_exit")));
    // spec segmented: cpu:c:halt_stays_last
    c.last("cpu:c:halt_stays_last", is_real * (x("next_pc") - x("pc") - more * (pc_end - x("pc"))));
    // spec segmented: cpu:c:full_last
    c.last("cpu:c:full_last", more * (one - is_real));
    // spec segmented: cpu:c:pc_ecall_last
    c.last("cpu:c:pc_ecall_last", more * x("f_system") * (x("next_pc") - x("pc") - f<V>(4)));
    // spec segmented: cpu:c:exit_pc
    c("cpu:c:exit_pc", x("sys_exit") * (x("pc") - pc_end));
  }
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

}  // namespace

template <class V>
void eval_cpu(const Point<V>& x, Values<V>& s) {
  const Emit<V> c{s};
  rows_and_fetch(x, c);
  opcode_class(x, c);
  decode_fields(x, c);
  registers(x, c);
  lui_jal_link(x, c);
  adder_auipc_jalr(x, c);
  alu_request(x, c);
  active_bytes(x, c);
  memory_tokens(x, c);
  load_store_bytes(x, c);
  load_value(x, c);
  syscalls_and_halting(x, c);
}

template void eval_cpu<Fp>(const Point<Fp>&, Values<Fp>&);
template void eval_cpu<Fp3>(const Point<Fp3>&, Values<Fp3>&);

}  // namespace zkrv::ref::air::eval
