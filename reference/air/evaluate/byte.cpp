// The byte table (spec/tables/byte.md): its constraints and bus interactions, block by
// block in the document's order, each under its `// spec: <id>` comment.
#include "reference/air/evaluate/tables.h"

namespace zkrv::ref::air::eval {

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

template void eval_byte<Fp>(const Point<Fp>&, Values<Fp>&);
template void eval_byte<Fp3>(const Point<Fp3>&, Values<Fp3>&);

}  // namespace zkrv::ref::air::eval
