#pragma once
// The AIR as the proof protocol sees it (spec/protocol.md, protocol:stark:layout), written once
// below the reference prover, the optimized prover and the verifier: every table's columns,
// constraints and bus interactions compiled from the spec's own expressions into index-resolved
// programs that evaluate over any value type (F_p on the LDE domain, F_{p^3} at ζ, of either
// side's arithmetic); the LogUp layout (fraction columns holding one or two interactions, a
// running sum); the quotient chunk count; the combination of a table's constraints
// (protocol:stark:quotient); and the program's canonical encoding (protocol:stark:digest). E is a
// cubic extension type with components c[3]; V is E or its base field.

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "spec/air/spec.h"
#include "spec/isa.h"
#include "spec/stark.h"

namespace zkrv::core {

// The constant v as a value of type V (a base field type with from_u64, or its extension).
template <class V>
V constant(uint64_t v) {
  if constexpr (requires { V::from_u64(v); }) {
    return V::from_u64(v);
  } else {
    using F = std::remove_cvref_t<decltype(std::declval<V>().c[0])>;
    return V{{F::from_u64(v), F(), F()}};
  }
}

// ---- compiled expressions ----
struct Node {
  enum class Op : uint8_t { kConst, kCol, kNext, kPublic, kAdd, kSub, kMul, kNeg, kPow };
  Op op = Op::kConst;
  uint32_t a = 0, b = 0;  // child nodes (kAdd, kSub, kMul: a, b; kNeg, kPow: a); kCol/kNext/kPublic: index
  uint64_t value = 0;     // kConst: the constant; kPow: the exponent
};
struct Program {
  std::vector<Node> nodes;  // postorder: the result is the last node
  unsigned degree = 0;
};

// Walks p bottom-up (its nodes are in postorder) with a visitor of spec::air::fold's methods
// (spec/air/expr.h), a column or public value given by its index (spec order) instead of its
// name: constant(uint64_t), column(uint32_t, bool next), public_value(uint32_t), and add, sub,
// mul, neg, pow(base, uint64_t exponent) on the operands' results (const R&). results[i] holds
// node i's result; returns the last node's. `results` is reused between calls.
template <class R, class V>
R fold(const Program& p, V&& v, std::vector<R>& results) {
  results.resize(p.nodes.size());
  for (size_t i = 0; i < p.nodes.size(); ++i) {
    const Node& n = p.nodes[i];
    R& out = results[i];
    switch (n.op) {
      case Node::Op::kConst: out = v.constant(n.value); break;
      case Node::Op::kCol: out = v.column(n.a, false); break;
      case Node::Op::kNext: out = v.column(n.a, true); break;
      case Node::Op::kPublic: out = v.public_value(n.a); break;
      case Node::Op::kAdd: out = v.add(results[n.a], results[n.b]); break;
      case Node::Op::kSub: out = v.sub(results[n.a], results[n.b]); break;
      case Node::Op::kMul: out = v.mul(results[n.a], results[n.b]); break;
      case Node::Op::kNeg: out = v.neg(results[n.a]); break;
      case Node::Op::kPow: out = v.pow(results[n.a], n.value); break;
    }
  }
  return results.back();
}

// Evaluates p with the table's columns (spec order) on this row and the next, and the public
// values (spec order). `scratch` is reused between calls.
template <class V>
V eval(const Program& p, const V* local, const V* next, const V* publics, std::vector<V>& scratch) {
  struct Value {
    const V *local, *next, *publics;
    V constant(uint64_t v) const { return core::constant<V>(v); }
    V column(uint32_t c, bool at_next) const { return at_next ? next[c] : local[c]; }
    V public_value(uint32_t i) const { return publics[i]; }
    V add(const V& a, const V& b) const { return a + b; }
    V sub(const V& a, const V& b) const { return a - b; }
    V mul(const V& a, const V& b) const { return a * b; }
    V neg(const V& a) const { return core::constant<V>(0) - a; }
    V pow(const V& base, uint64_t k) const {
      V r = core::constant<V>(1);
      for (uint64_t i = 0; i < k; ++i) r = r * base;
      return r;
    }
  };
  return fold(p, Value{local, next, publics}, scratch);
}

struct CompiledConstraint {
  std::string id;
  spec::air::Rows rows;
  Program expr;
};
struct CompiledInteraction {
  std::string id;
  bool send;
  uint64_t tag;  // the bus's index in air.md
  bool global = false;  // on the bundle's global bus (protocol:segments:scope): its tag has no segment offset
  std::vector<Program> tuple;
  Program mult;
  unsigned degree;     // of the denominator α − h(tuple)
  double mult_bound;   // |multiplicity| per row; infinity for a free (field) multiplicity
};

// protocol:stark:interaction_bound — a bound on |e| from the declared types of the table's
// columns (1, 255, 2^16 − 1, 2^32 − 1; infinity for a field column or a public): + and − add
// bounds, · multiplies them. It trusts the types; core/air/bound_lint.h finds what enforces them.
double value_bound(const spec::air::Table& t, const spec::air::Expr& e);

// protocol:stark:program — whether a preprocessed column depends on the program alone (and is
// committed in the program tree), rather than on the claimed output (the output table's) or on a
// bundle's boundary registers (regs' iv* and ev*).
inline bool is_program_column(const std::string& table, const std::string& column) {
  return table != "output" && (table != "regs" || column == "reg");
}

// protocol:stark:layout — one table as the protocol commits it.
struct TableLayout {
  std::string name;
  size_t columns = 0;               // spec columns (preprocessed and main, declaration order)
  std::vector<std::string> column_names;  // in that order
  std::vector<size_t> pre, main;    // spec column indices of each kind, in order
  std::vector<size_t> program;      // the preprocessed ones of the program tree (protocol:stark:program)
  std::vector<bool> is_pre;         // per spec column
  std::vector<CompiledConstraint> constraints;
  std::vector<CompiledInteraction> interactions;
  std::vector<std::vector<size_t>> fractions;  // interaction indices per fraction column (1 or 2)
  unsigned chunks = 1;              // quotient chunks (degree bound chunks * height)
  size_t aux_width() const { return interactions.empty() ? 0 : 3 * (fractions.size() + 1); }
  size_t quotient_width() const { return 3 * chunks; }
  // constraints the quotient combines: the spec's, then one per fraction column, then the
  // running sum's first, transition and last rows
  size_t combined_constraints() const { return constraints.size() + (interactions.empty() ? 0 : fractions.size() + 3); }
};
struct AirLayout {
  spec::air::Mode mode = spec::air::Mode::kWhole;
  std::vector<TableLayout> tables;  // spec order
  std::vector<std::string> publics;  // spec order (entry, exit_code)
  size_t max_arity = 0;
  size_t buses = 0;  // B: the buses the spec declares (protocol:segments:scope)
  size_t constraint_count() const;
  size_t table_index(const std::string& name) const;  // throws std::out_of_range
  // protocol:stark:security — the shape a proof with these table heights (spec order) has.
  spec::SecurityShape security_shape(const std::vector<uint8_t>& log_heights) const;
  // The largest shape a proof whose tallest height is 2^log_max can have: every table at that
  // height (the most interactions) and every height from 2^kMinLogHeight up occurring (the most
  // folds and injections). The presets' figures are stated for it.
  spec::SecurityShape largest_security_shape(unsigned log_max) const;
};
// Built once per mode from the embedded spec: a whole run's AIR (protocol:stark:*) or a bundle
// segment's (protocol:segments:*).
const AirLayout& air_layout(spec::air::Mode mode = spec::air::Mode::kWhole);
// The bus every segment of a bundle shares (protocol:segments:scope); every other bus is local.
inline constexpr const char* kGlobalBus = "gmem";

// protocol:stark:digest — the loadable image and entry as the digest hashes them (Keccak-256 of
// these bytes, each side with its own Keccak).
std::vector<uint8_t> program_encoding(const spec::ProgramImage& image);

// V (a base or extension value) as an extension value; a times V.
template <class E, class V>
E lift(const V& x) {
  if constexpr (std::is_same_v<E, V>) return x;
  else return E{{x, V(), V()}};
}
template <class E, class V>
E times(const E& a, const V& x) {
  if constexpr (std::is_same_v<E, V>) return a * x;
  else return E{{a.c[0] * x, a.c[1] * x, a.c[2] * x}};
}

// The LogUp challenges, as the combination needs them, and the offset B·s that segment s of a
// bundle adds to every local bus's tag (protocol:segments:scope; 0 in a proof of one run).
template <class E>
struct LogupChallenges {
  E alpha, beta;
  uint64_t local_offset = 0;
};
// One table's spec values at one point: every constraint (document order) and every
// interaction's tuple and multiplicity. The verifier gets them from the compiled spec
// (spec_values); the reference prover from the hand-written evaluator (reference/air).
template <class V>
struct TableValues {
  std::vector<V> constraints, mults;
  std::vector<std::vector<V>> tuples;
};
template <class V>
void spec_values(const TableLayout& t, const V* local, const V* next, const V* publics, TableValues<V>& out,
                 std::vector<V>& scratch) {
  out.constraints.resize(t.constraints.size());
  out.mults.resize(t.interactions.size());
  out.tuples.resize(t.interactions.size());
  for (size_t k = 0; k < t.constraints.size(); ++k) out.constraints[k] = eval(t.constraints[k].expr, local, next, publics, scratch);
  for (size_t i = 0; i < t.interactions.size(); ++i) {
    const CompiledInteraction& in = t.interactions[i];
    out.tuples[i].resize(in.tuple.size());
    for (size_t j = 0; j < in.tuple.size(); ++j) out.tuples[i][j] = eval(in.tuple[j], local, next, publics, scratch);
    out.mults[i] = eval(in.mult, local, next, publics, scratch);
  }
}

// α − h(tuple) for one interaction: h = tag + Σ_i β^(i+1) t_i (protocol:stark:logup), with
// tag + B·s for a local bus in segment s of a bundle (protocol:segments:scope).
template <class E, class V>
E denominator(const CompiledInteraction& in, const std::vector<V>& tuple, const LogupChallenges<E>& ch) {
  E h = constant<E>(in.tag + (in.global ? 0 : ch.local_offset)), power = ch.beta;
  for (const V& t : tuple) {
    h = h + power * lift<E>(t);
    power = power * ch.beta;
  }
  return ch.alpha - h;
}

// protocol:stark:quotient — the table's constraints combined at one point: Σ_k α^(K−1−k) c_k
// (Horner in α) over the spec's constraints (document order), each times its row selector,
// then the LogUp constraints: per fraction column f d1 d2 − s1 m1 d2 − s2 m2 d1 (or f d1 − s1 m1),
// then the running sum S − F on the first row, S' − S − F' on transitions, S − T on the last
// row, where F is the sum of the row's fraction columns and T the terminal sum. aux_local and
// aux_next are the fraction columns then S. powers[k] = α^(K−1−k), K = combined_constraints().
template <class E, class V>
E combine(const TableLayout& t, const TableValues<V>& values, const E* aux_local, const E* aux_next,
          const LogupChallenges<E>& ch, const E& terminal, const std::vector<E>& powers, const V& sel_first,
          const V& sel_last, const V& sel_transition) {
  E acc{};
  size_t k = 0;
  for (size_t i = 0; i < t.constraints.size(); ++i) {
    V v = values.constraints[i];
    switch (t.constraints[i].rows) {
      case spec::air::Rows::kFirst: v = v * sel_first; break;
      case spec::air::Rows::kLast: v = v * sel_last; break;
      case spec::air::Rows::kTransition: v = v * sel_transition; break;
      case spec::air::Rows::kEvery: break;
    }
    acc = acc + times(powers[k++], v);
  }
  if (t.interactions.empty()) return acc;
  E sum_local{}, sum_next{};
  for (size_t f = 0; f < t.fractions.size(); ++f) {
    const auto& group = t.fractions[f];
    E d[2], m[2];
    for (size_t j = 0; j < group.size(); ++j) {
      const CompiledInteraction& in = t.interactions[group[j]];
      d[j] = denominator(in, values.tuples[group[j]], ch);
      const E mult = lift<E>(values.mults[group[j]]);
      m[j] = in.send ? mult : E{} - mult;
    }
    const E v = group.size() == 2 ? aux_local[f] * d[0] * d[1] - m[0] * d[1] - m[1] * d[0] : aux_local[f] * d[0] - m[0];
    acc = acc + powers[k++] * v;
    sum_local = sum_local + aux_local[f];
    sum_next = sum_next + aux_next[f];
  }
  const size_t s = t.fractions.size();
  acc = acc + powers[k++] * times(aux_local[s] - sum_local, sel_first);
  acc = acc + powers[k++] * times(aux_next[s] - aux_local[s] - sum_next, sel_transition);
  acc = acc + powers[k++] * times(aux_local[s] - terminal, sel_last);
  return acc;
}
// The same from the compiled spec at a point (the verifier's way).
template <class E, class V>
E combine(const TableLayout& t, const V* local, const V* next, const E* aux_local, const E* aux_next,
          const V* publics, const LogupChallenges<E>& ch, const E& terminal, const std::vector<E>& powers,
          const V& sel_first, const V& sel_last, const V& sel_transition, std::vector<V>& scratch) {
  TableValues<V> values;
  spec_values(t, local, next, publics, values, scratch);
  return combine(t, values, aux_local, aux_next, ch, terminal, powers, sel_first, sel_last, sel_transition);
}
// powers[k] = α^(K−1−k) for combine.
template <class E>
std::vector<E> combination_powers(const E& alpha, size_t count) {
  std::vector<E> p(count);
  E x = constant<E>(1);
  for (size_t k = count; k-- > 0;) p[k] = x, x = x * alpha;
  return p;
}


// spec: protocol:segments:security — a bundle's figures: every segment's FRI, ALI and DEEP terms
// with LogUp over the bundle's interactions (the sum over its segments), then the union bound
// over the segments (the weakest segment's other figures). log_heights: per segment, every
// table's log height (each with the segment AIR's table count).
spec::StarkSecurity bundle_security(const spec::StarkOptions& options, const std::vector<std::vector<uint8_t>>& log_heights);
// spec: protocol:segments:queries — `options` with the least number of queries (at least its own,
// at most 1024) that gives a bundle of these heights the policy's floor; `options` itself when it
// already does or when no number of queries does.
spec::StarkOptions bundle_options(const spec::StarkOptions& options, const std::vector<std::vector<uint8_t>>& log_heights,
                                  const spec::SecurityPolicy& floor);

}  // namespace zkrv::core
