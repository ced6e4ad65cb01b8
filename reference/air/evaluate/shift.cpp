// The shift table (spec/tables/shift.md): its constraints and bus interactions, block by
// block in the document's order, each under its `// spec: <id>` comment.
#include <string>
#include <utility>

#include "reference/air/evaluate/tables.h"

namespace zkrv::ref::air::eval {

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

template void eval_shift<Fp>(const Point<Fp>&, Values<Fp>&);
template void eval_shift<Fp3>(const Point<Fp3>&, Values<Fp3>&);

}  // namespace zkrv::ref::air::eval
