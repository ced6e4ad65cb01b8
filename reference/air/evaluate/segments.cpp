// The segments table (spec/tables/segments.md): its constraints and bus interactions, block by
// block in the document's order, each under its `// spec: <id>` comment.
#include "reference/air/evaluate/tables.h"

namespace zkrv::ref::air::eval {

template <class V>
void eval_segments(const Point<V>& x, Values<V>& s) {
  const Emit<V> c{s};
  // spec: segments:b:table
  c.bus("segments:b:table", "segment", false,
        {x("start"), x("file_end"), x("end"), x("w")}, x("mult"));
}

template void eval_segments<Fp>(const Point<Fp>&, Values<Fp>&);
template void eval_segments<Fp3>(const Point<Fp3>&, Values<Fp3>&);

}  // namespace zkrv::ref::air::eval
