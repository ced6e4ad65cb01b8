#pragma once
// The AIR as the proof protocol sees it (spec/protocol.md, protocol:stark:*), shared by the
// reference prover and the verifier: every table's columns, constraints and bus interactions
// compiled from the spec's own expressions into index-resolved programs that evaluate over any
// value type (F_p on the LDE domain, F_{p^3} at ζ); the LogUp layout (fraction columns holding
// one or two interactions, a running sum); the quotient chunk count; the preprocessed columns
// and the heights the verifier derives itself from the ELF and the claimed output; the program
// digest; and the field helpers both sides need.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reference/field/goldilocks.h"
#include "spec/air/spec.h"
#include "spec/isa.h"
#include "spec/stark.h"

namespace zkrv::ref::stark {

// ---- field helpers ----
inline Fp3 scale(const Fp3& a, Fp s) { return {{a.c[0] * s, a.c[1] * s, a.c[2] * s}}; }
inline Fp3 from_raw(const spec::Fp3Raw& r) { return {{Fp::from_u64(r[0]), Fp::from_u64(r[1]), Fp::from_u64(r[2])}}; }
inline spec::Fp3Raw to_raw(const Fp3& a) { return {a.c[0].value(), a.c[1].value(), a.c[2].value()}; }
// a0 + a1 w + a2 w^2 from the three base components (each a value in F_{p^3} at ζ).
inline Fp3 recombine(const Fp3& a0, const Fp3& a1, const Fp3& a2) {
  const Fp3 w{{Fp(), Fp::from_u64(1), Fp()}};
  return a0 + w * (a1 + w * a2);
}
// In-place Montgomery batch inversion; every element must be nonzero (throws otherwise).
void batch_inverse(std::vector<Fp>& v);
void batch_inverse(std::vector<Fp3>& v);

template <class V> V constant(uint64_t v);
template <> inline Fp constant<Fp>(uint64_t v) { return Fp::from_u64(v); }
template <> inline Fp3 constant<Fp3>(uint64_t v) { return embed(Fp::from_u64(v)); }

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

// Evaluates p with the table's columns (spec order) on this row and the next, and the public
// values (spec order). `scratch` is reused between calls.
template <class V>
V eval(const Program& p, const V* local, const V* next, const V* publics, std::vector<V>& scratch) {
  scratch.resize(p.nodes.size());
  for (size_t i = 0; i < p.nodes.size(); ++i) {
    const Node& n = p.nodes[i];
    V& out = scratch[i];
    switch (n.op) {
      case Node::Op::kConst: out = constant<V>(n.value); break;
      case Node::Op::kCol: out = local[n.a]; break;
      case Node::Op::kNext: out = next[n.a]; break;
      case Node::Op::kPublic: out = publics[n.a]; break;
      case Node::Op::kAdd: out = scratch[n.a] + scratch[n.b]; break;
      case Node::Op::kSub: out = scratch[n.a] - scratch[n.b]; break;
      case Node::Op::kMul: out = scratch[n.a] * scratch[n.b]; break;
      case Node::Op::kNeg: out = constant<V>(0) - scratch[n.a]; break;
      case Node::Op::kPow: {
        V r = constant<V>(1);
        for (uint64_t k = 0; k < n.value; ++k) r = r * scratch[n.a];
        out = r;
        break;
      }
    }
  }
  return scratch.back();
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
  std::vector<Program> tuple;
  Program mult;
  unsigned degree;     // of the denominator α − h(tuple)
  double mult_bound;   // |multiplicity| per row; infinity for a free (field) multiplicity
};

// protocol:stark:layout — one table as the protocol commits it.
struct TableLayout {
  std::string name;
  size_t columns = 0;               // spec columns (preprocessed and main, declaration order)
  std::vector<std::string> column_names;  // in that order
  std::vector<size_t> pre, main;    // spec column indices of each kind, in order
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
  std::vector<TableLayout> tables;  // spec order
  std::vector<std::string> publics;  // spec order (entry, exit_code)
  size_t max_arity = 0;
  size_t constraint_count() const;
  size_t table_index(const std::string& name) const;  // throws std::out_of_range
};
// Built once from the embedded spec.
const AirLayout& air_layout();

// ---- what the verifier derives ----
// protocol:stark:digest — Keccak-256 of the canonical encoding of the loadable image and entry.
spec::Digest program_digest(const spec::ProgramImage& image);

// protocol:stark:preprocessed — every table's preprocessed columns (spec order among the
// table's preprocessed columns), from the ELF and the claimed output alone, padded as the
// tables' documents say; and each table's log height where the verifier knows it (fixed tables
// and those built from the ELF or the output), nullopt where the prover chooses it.
struct Preprocessed {
  std::vector<std::vector<std::vector<Fp>>> columns;  // [table][preprocessed column][row]
  std::vector<std::optional<unsigned>> log_heights;
};
Preprocessed preprocessed(const spec::ProgramImage& image, const std::vector<uint8_t>& output);

}  // namespace zkrv::ref::stark

namespace zkrv::ref::stark {

inline Fp3 to3(Fp x) { return embed(x); }
inline const Fp3& to3(const Fp3& x) { return x; }
inline Fp3 mul3(const Fp3& a, Fp x) { return scale(a, x); }
inline Fp3 mul3(const Fp3& a, const Fp3& x) { return a * x; }

// The LogUp challenges and a table's terminal sum, as the combination needs them.
struct LogupChallenges {
  Fp3 alpha, beta;
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

// α − h(tuple) for one interaction: h = tag + Σ_i β^(i+1) t_i (protocol:stark:logup).
template <class V>
Fp3 denominator(const CompiledInteraction& in, const std::vector<V>& tuple, const LogupChallenges& ch) {
  Fp3 h = embed(Fp::from_u64(in.tag)), power = ch.beta;
  for (const V& t : tuple) {
    h = h + power * to3(t);
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
template <class V>
Fp3 combine(const TableLayout& t, const TableValues<V>& values, const Fp3* aux_local, const Fp3* aux_next,
            const LogupChallenges& ch, const Fp3& terminal, const std::vector<Fp3>& powers, const V& sel_first,
            const V& sel_last, const V& sel_transition) {
  Fp3 acc;
  size_t k = 0;
  for (size_t i = 0; i < t.constraints.size(); ++i) {
    V v = values.constraints[i];
    switch (t.constraints[i].rows) {
      case spec::air::Rows::kFirst: v = v * sel_first; break;
      case spec::air::Rows::kLast: v = v * sel_last; break;
      case spec::air::Rows::kTransition: v = v * sel_transition; break;
      case spec::air::Rows::kEvery: break;
    }
    acc = acc + mul3(powers[k++], v);
  }
  if (t.interactions.empty()) return acc;
  Fp3 sum_local, sum_next;
  for (size_t f = 0; f < t.fractions.size(); ++f) {
    const auto& group = t.fractions[f];
    Fp3 d[2], m[2];
    for (size_t j = 0; j < group.size(); ++j) {
      const CompiledInteraction& in = t.interactions[group[j]];
      d[j] = denominator(in, values.tuples[group[j]], ch);
      const Fp3 mult = to3(values.mults[group[j]]);
      m[j] = in.send ? mult : Fp3{} - mult;
    }
    const Fp3 v = group.size() == 2 ? aux_local[f] * d[0] * d[1] - m[0] * d[1] - m[1] * d[0] : aux_local[f] * d[0] - m[0];
    acc = acc + powers[k++] * v;
    sum_local = sum_local + aux_local[f];
    sum_next = sum_next + aux_next[f];
  }
  const size_t s = t.fractions.size();
  acc = acc + powers[k++] * mul3(aux_local[s] - sum_local, sel_first);
  acc = acc + powers[k++] * mul3(aux_next[s] - aux_local[s] - sum_next, sel_transition);
  acc = acc + powers[k++] * mul3(aux_local[s] - terminal, sel_last);
  return acc;
}
// The same from the compiled spec at a point (the verifier's way).
template <class V>
Fp3 combine(const TableLayout& t, const V* local, const V* next, const Fp3* aux_local, const Fp3* aux_next,
            const V* publics, const LogupChallenges& ch, const Fp3& terminal, const std::vector<Fp3>& powers,
            const V& sel_first, const V& sel_last, const V& sel_transition, std::vector<V>& scratch) {
  TableValues<V> values;
  spec_values(t, local, next, publics, values, scratch);
  return combine(t, values, aux_local, aux_next, ch, terminal, powers, sel_first, sel_last, sel_transition);
}
// powers[k] = α^(K−1−k) for combine.
std::vector<Fp3> combination_powers(const Fp3& alpha, size_t count);

}  // namespace zkrv::ref::stark
