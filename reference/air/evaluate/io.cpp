// The io table (spec/tables/io.md): its constraints and bus interactions, block by
// block in the document's order, each under its `// spec: <id>` comment.
#include "reference/air/evaluate/tables.h"

namespace zkrv::ref::air::eval {

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

template void eval_io<Fp>(const Point<Fp>&, Values<Fp>&);
template void eval_io<Fp3>(const Point<Fp3>&, Values<Fp3>&);

}  // namespace zkrv::ref::air::eval
