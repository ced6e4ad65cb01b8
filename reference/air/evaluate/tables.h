#pragma once
// The reference evaluator's table bodies (reference/air/evaluate.h), one file per spec document:
// reference/air/evaluate/<table>.cpp implements spec/tables/<table>.md block by block in the
// document's order, each block under its `// spec: <id>` comment (AirLint.EvaluatorMirrorsTheSpec
// in tests/air/air_test.cpp checks every ID once, in its table's file, in spec order). Each body
// is a template over the value type, instantiated in its file for Fp (trace rows, the LDE coset)
// and Fp3 (the polynomial test).
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "reference/air/evaluate.h"
#include "reference/field/goldilocks.h"
#include "spec/air/spec.h"

namespace zkrv::ref::air::eval {

// The constant v as a value of type V.
template <class V>
V f(uint64_t v) {
  if constexpr (std::is_same_v<V, Fp>) return Fp::from_u64(v);
  else return V{{Fp::from_u64(v), Fp(), Fp()}};
}

// The table bodies' way of reporting: c(id, v) for a constraint on every row, c.first, c.last
// and c.transition for the others, c.bus for an interaction.
template <class V>
struct Emit {
  Values<V>& out;
  void operator()(std::string_view id, const V& v) const { out.constraint(id, spec::air::Rows::kEvery, v); }
  void first(std::string_view id, const V& v) const { out.constraint(id, spec::air::Rows::kFirst, v); }
  void last(std::string_view id, const V& v) const { out.constraint(id, spec::air::Rows::kLast, v); }
  void transition(std::string_view id, const V& v) const { out.constraint(id, spec::air::Rows::kTransition, v); }
  void bus(std::string_view id, std::string_view bus, bool send, std::initializer_list<V> tuple, const V& mult) const {
    out.bus(id, bus, send, std::span<const V>(tuple.begin(), tuple.size()), mult);
  }
  void bus(std::string_view id, std::string_view bus, bool send, const std::vector<V>& tuple, const V& mult) const {
    out.bus(id, bus, send, tuple, mult);
  }
};

// One body per table, in spec order (evaluate/<table>.cpp).
template <class V> void eval_alu(const Point<V>& x, Values<V>& s);
template <class V> void eval_and8(const Point<V>& x, Values<V>& s);
template <class V> void eval_byte(const Point<V>& x, Values<V>& s);
template <class V> void eval_cpu(const Point<V>& x, Values<V>& s);
template <class V> void eval_div(const Point<V>& x, Values<V>& s);
template <class V> void eval_image(const Point<V>& x, Values<V>& s);
template <class V> void eval_io(const Point<V>& x, Values<V>& s);
template <class V> void eval_mem(const Point<V>& x, Values<V>& s);
template <class V> void eval_memb(const Point<V>& x, Values<V>& s);
template <class V> void eval_mul(const Point<V>& x, Values<V>& s);
template <class V> void eval_output(const Point<V>& x, Values<V>& s);
template <class V> void eval_pow2(const Point<V>& x, Values<V>& s);
template <class V> void eval_program(const Point<V>& x, Values<V>& s);
template <class V> void eval_range16(const Point<V>& x, Values<V>& s);
template <class V> void eval_regs(const Point<V>& x, Values<V>& s);
template <class V> void eval_segments(const Point<V>& x, Values<V>& s);
template <class V> void eval_shift(const Point<V>& x, Values<V>& s);
template <class V> void eval_syscall(const Point<V>& x, Values<V>& s);

}  // namespace zkrv::ref::air::eval
