// The div table (spec/tables/div.md): its constraints and bus interactions, block by
// block in the document's order, each under its `// spec: <id>` comment.
#include <string>
#include <string_view>
#include <utility>

#include "reference/air/evaluate/tables.h"

namespace zkrv::ref::air::eval {

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

template void eval_div<Fp>(const Point<Fp>&, Values<Fp>&);
template void eval_div<Fp3>(const Point<Fp3>&, Values<Fp3>&);

}  // namespace zkrv::ref::air::eval
