// The and8 table (spec/tables/and8.md): its constraints and bus interactions, block by
// block in the document's order, each under its `// spec: <id>` comment.
#include "reference/air/evaluate/tables.h"

namespace zkrv::ref::air::eval {

template <class V>
void eval_and8(const Point<V>& x, Values<V>& s) {
  const Emit<V> c{s};
  // spec: and8:b:table
  c.bus("and8:b:table", "and8", false, {x("x"), x("y"), x("z")}, x("mult"));
}

template void eval_and8<Fp>(const Point<Fp>&, Values<Fp>&);
template void eval_and8<Fp3>(const Point<Fp3>&, Values<Fp3>&);

}  // namespace zkrv::ref::air::eval
