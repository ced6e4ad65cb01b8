// The pow2 table (spec/tables/pow2.md): its constraints and bus interactions, block by
// block in the document's order, each under its `// spec: <id>` comment.
#include "reference/air/evaluate/tables.h"

namespace zkrv::ref::air::eval {

template <class V>
void eval_pow2(const Point<V>& x, Values<V>& s) {
  const Emit<V> c{s};
  // spec: pow2:b:table
  c.bus("pow2:b:table", "pow2", false, {x("k"), x("q0"), x("q1"), x("q2"), x("q3")}, x("mult"));
}

template void eval_pow2<Fp>(const Point<Fp>&, Values<Fp>&);
template void eval_pow2<Fp3>(const Point<Fp3>&, Values<Fp3>&);

}  // namespace zkrv::ref::air::eval
