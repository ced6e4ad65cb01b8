// The regs table (spec/tables/regs.md): its constraints and bus interactions, block by
// block in the document's order, each under its `// spec: <id>` comment.
#include "reference/air/evaluate/tables.h"

namespace zkrv::ref::air::eval {

template <class V>
void eval_regs(const Point<V>& x, Values<V>& s) {
  const Emit<V> c{s};
  // spec: regs:c:reg_first
  c.first("regs:c:reg_first", x("reg"));
  // spec: regs:c:reg_step
  c.transition("regs:c:reg_step", (x.next("reg") - x("reg") - f<V>(1)));
  if (!x.segmented()) {
    // spec whole: regs:b:init
    c.bus("regs:b:init", "reg", true, {x("reg"), f<V>(0), f<V>(0), f<V>(0), f<V>(0), f<V>(0)}, f<V>(1));
  } else {
    // spec segmented: regs:b:init
    c.bus("regs:b:init", "reg", true, {x("reg"), f<V>(4) * x.pub("clk_start"), x("iv0"), x("iv1"), x("iv2"), x("iv3")},
          f<V>(1));
  }
  // spec: regs:b:final
  c.bus("regs:b:final", "reg", false,
        {x("reg"), x("final_ts"), x("final_v0"), x("final_v1"), x("final_v2"),
         x("final_v3")},
        f<V>(1));
  if (!x.segmented()) return;
  const V more = x.pub("more");
  // spec segmented: regs:c:end0
  c("regs:c:end0", more * (x("final_v0") - x("ev0")));
  // spec segmented: regs:c:end1
  c("regs:c:end1", more * (x("final_v1") - x("ev1")));
  // spec segmented: regs:c:end2
  c("regs:c:end2", more * (x("final_v2") - x("ev2")));
  // spec segmented: regs:c:end3
  c("regs:c:end3", more * (x("final_v3") - x("ev3")));
}

template void eval_regs<Fp>(const Point<Fp>&, Values<Fp>&);
template void eval_regs<Fp3>(const Point<Fp3>&, Values<Fp3>&);

}  // namespace zkrv::ref::air::eval
