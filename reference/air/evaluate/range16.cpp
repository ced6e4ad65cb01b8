// The range16 table (spec/tables/range16.md): its constraints and bus interactions, block by
// block in the document's order, each under its `// spec: <id>` comment.
#include "reference/air/evaluate/tables.h"

namespace zkrv::ref::air::eval {

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

template void eval_range16<Fp>(const Point<Fp>&, Values<Fp>&);
template void eval_range16<Fp3>(const Point<Fp3>&, Values<Fp3>&);

}  // namespace zkrv::ref::air::eval
