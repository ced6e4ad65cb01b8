// The mul table (spec/tables/mul.md): its constraints and bus interactions, block by
// block in the document's order, each under its `// spec: <id>` comment.
#include <string>
#include <string_view>
#include <utility>

#include "reference/air/evaluate/tables.h"

namespace zkrv::ref::air::eval {

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

template void eval_mul<Fp>(const Point<Fp>&, Values<Fp>&);
template void eval_mul<Fp3>(const Point<Fp3>&, Values<Fp3>&);

}  // namespace zkrv::ref::air::eval
