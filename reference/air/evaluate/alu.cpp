// The alu table (spec/tables/alu.md): its constraints and bus interactions, block by
// block in the document's order, each under its `// spec: <id>` comment.
#include <string>
#include <utility>

#include "reference/air/evaluate/tables.h"

namespace zkrv::ref::air::eval {

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

template void eval_alu<Fp>(const Point<Fp>&, Values<Fp>&);
template void eval_alu<Fp3>(const Point<Fp3>&, Values<Fp3>&);

}  // namespace zkrv::ref::air::eval
