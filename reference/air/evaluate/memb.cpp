// The memb table (spec/tables/memb.md, a bundle segment's only): its constraints and bus
// interactions, block by block in the document's order, each under its `// spec: <id>` comment.
#include "reference/air/evaluate/tables.h"

namespace zkrv::ref::air::eval {

template <class V>
void eval_memb(const Point<V>& x, Values<V>& s) {
  const Emit<V> c{s};
  const V one = f<V>(1), k16 = f<V>(65536), real = x("is_real");
  auto rc = [&](std::string_view id, const char* col) { c.bus(id, "range16", true, {x(col)}, real); };
  // spec: memb:c:real_bit
  c("memb:c:real_bit", real * (real - one));
  // spec: memb:c:real_prefix
  c.transition("memb:c:real_prefix", (one - real) * x.next("is_real"));
  // spec: memb:c:order
  c.transition("memb:c:order", x.next("is_real") * (x.next("addr") - x("addr") - one - x("gap0") - k16 * x("gap1")));
  // spec: memb:b:gap0
  rc("memb:b:gap0", "gap0");
  // spec: memb:b:gap1
  rc("memb:b:gap1", "gap1");
  // spec: memb:c:t_in
  c("memb:c:t_in", real * (x.pub("seg") - x("t_in") - x("td0") - k16 * x("td1")));
  // spec: memb:b:td0
  rc("memb:b:td0", "td0");
  // spec: memb:b:td1
  rc("memb:b:td1", "td1");
  // spec: memb:b:take
  c.bus("memb:b:take", "gmem", false, {x("addr"), x("t_in"), x("v_in"), x("w")}, real);
  // spec: memb:b:start
  c.bus("memb:b:start", "mem", true, {x("addr"), f<V>(4) * x.pub("clk_start"), x("v_in"), x("w")}, real);
  // spec: memb:b:end
  c.bus("memb:b:end", "mem", false, {x("addr"), x("fin_ts"), x("fin_v"), x("w")}, real);
  // spec: memb:b:leave
  c.bus("memb:b:leave", "gmem", true, {x("addr"), x.pub("seg") + one, x("fin_v"), x("w")}, real);
}

template void eval_memb<Fp>(const Point<Fp>&, Values<Fp>&);
template void eval_memb<Fp3>(const Point<Fp3>&, Values<Fp3>&);

}  // namespace zkrv::ref::air::eval
