// The program table (spec/tables/program.md): its constraints and bus interactions, block by
// block in the document's order, each under its `// spec: <id>` comment.
#include "reference/air/evaluate/tables.h"

namespace zkrv::ref::air::eval {

template <class V>
void eval_program(const Point<V>& x, Values<V>& s) {
  const Emit<V> c{s};
  // spec: program:b:rom
  c.bus("program:b:rom", "program", false, {x("pc"), x("insn")}, x("mult"));
}

template void eval_program<Fp>(const Point<Fp>&, Values<Fp>&);
template void eval_program<Fp3>(const Point<Fp3>&, Values<Fp3>&);

}  // namespace zkrv::ref::air::eval
