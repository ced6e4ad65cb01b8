// The output table (spec/tables/output.md): its constraints and bus interactions, block by
// block in the document's order, each under its `// spec: <id>` comment.
#include "reference/air/evaluate/tables.h"

namespace zkrv::ref::air::eval {

template <class V>
void eval_output(const Point<V>& x, Values<V>& s) {
  const Emit<V> c{s};
  // spec: output:b:bytes
  c.bus("output:b:bytes", "output", false, {x("pos"), x("value")}, x("is_real"));
}

template void eval_output<Fp>(const Point<Fp>&, Values<Fp>&);
template void eval_output<Fp3>(const Point<Fp3>&, Values<Fp3>&);

}  // namespace zkrv::ref::air::eval
