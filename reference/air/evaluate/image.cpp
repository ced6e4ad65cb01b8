// The image table (spec/tables/image.md): its constraints and bus interactions, block by
// block in the document's order, each under its `// spec: <id>` comment.
#include "reference/air/evaluate/tables.h"

namespace zkrv::ref::air::eval {

template <class V>
void eval_image(const Point<V>& x, Values<V>& s) {
  const Emit<V> c{s};
  // spec: image:b:table
  c.bus("image:b:table", "image", false, {x("addr"), x("value")}, x("mult"));
}

template void eval_image<Fp>(const Point<Fp>&, Values<Fp>&);
template void eval_image<Fp3>(const Point<Fp3>&, Values<Fp3>&);

}  // namespace zkrv::ref::air::eval
