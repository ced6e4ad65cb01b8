// zkrv-air-codegen OUT.cpp: turns every table's constraints and bus interactions, as the proof
// protocol combines them (protocol:stark:quotient, the reference's ref::stark::combine), into
// straight-line C++ over column arrays, run at build time from the spec built into the binary.
//
// The input is the reference's compiled layout (ref::stark::air_layout(), index-resolved
// programs made from the spec's own expressions), so the generated code cannot drift from the
// spec. Field arithmetic is exact, so the code is free to reorder and share work and still give
// the reference's values bit for bit: common subexpressions are shared across all of a table's
// constraints and interactions (hash-consing), powers become square-and-multiply chains, and
// each column is loaded once per row. tests/air/air_codegen_test.cpp checks the result against
// the reference at random points and on real traces.
#include <cctype>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "reference/stark/air.h"

namespace {

using zkrv::ref::stark::AirLayout;
using zkrv::ref::stark::Node;
using zkrv::ref::stark::Program;
using zkrv::ref::stark::TableLayout;

// One table's base-field expression DAG, shared by all of its programs.
class Dag {
 public:
  explicit Dag(std::ostringstream& body) : body_(body) {}

  // Emits the program's nodes that are new and returns the variable holding its value.
  std::string emit(const Program& p) {
    std::vector<std::string> var(p.nodes.size());
    for (size_t i = 0; i < p.nodes.size(); ++i) {
      const Node& n = p.nodes[i];
      std::string key;
      switch (n.op) {
        case Node::Op::kConst: key = "k" + std::to_string(n.value); break;
        case Node::Op::kCol: key = "c" + std::to_string(n.a); break;
        case Node::Op::kNext: key = "n" + std::to_string(n.a); break;
        case Node::Op::kPublic: key = "p" + std::to_string(n.a); break;
        case Node::Op::kAdd: key = "+" + commutative(var[n.a], var[n.b]); break;
        case Node::Op::kSub: key = "-" + var[n.a] + "," + var[n.b]; break;
        case Node::Op::kMul: key = "*" + commutative(var[n.a], var[n.b]); break;
        case Node::Op::kNeg: key = "~" + var[n.a]; break;
        case Node::Op::kPow: key = "^" + var[n.a] + "," + std::to_string(n.value); break;
      }
      auto it = known_.find(key);
      if (it != known_.end()) {
        var[i] = it->second;
        continue;
      }
      std::string v, expr;
      switch (n.op) {
        case Node::Op::kConst: v = "Fp::from_u64(" + std::to_string(n.value) + "ull)"; break;
        case Node::Op::kCol: v = "c" + std::to_string(n.a); load("c" + std::to_string(n.a), "col[" + std::to_string(n.a) + "][i]"); break;
        case Node::Op::kNext: v = "n" + std::to_string(n.a); load("n" + std::to_string(n.a), "col[" + std::to_string(n.a) + "][j]"); break;
        case Node::Op::kPublic: v = "pub[" + std::to_string(n.a) + "]"; break;
        case Node::Op::kAdd: expr = var[n.a] + " + " + var[n.b]; break;
        case Node::Op::kSub: expr = var[n.a] + " - " + var[n.b]; break;
        case Node::Op::kMul: expr = var[n.a] + " * " + var[n.b]; break;
        case Node::Op::kNeg: expr = "-" + var[n.a]; break;
        case Node::Op::kPow: expr = power(var[n.a], n.value); break;
      }
      if (!expr.empty()) {
        v = "t" + std::to_string(temps_++);
        body_ << "    const Fp " << v << " = " << expr << ";\n";
      }
      known_.emplace(key, v);
      var[i] = v;
    }
    return var.back();
  }
  size_t temps() const { return temps_; }

 private:
  static std::string commutative(const std::string& a, const std::string& b) { return a < b ? a + "," + b : b + "," + a; }
  void load(const std::string& name, const std::string& from) { body_ << "    const Fp " << name << " = " << from << ";\n"; }
  // x^e by square-and-multiply, as temporaries; returns the expression of the result.
  std::string power(const std::string& x, uint64_t e) {
    if (e == 0) return "Fp::from_u64(1)";
    std::string result, base = x;
    for (; e; e >>= 1) {
      if (e & 1) {
        if (result.empty()) {
          result = base;
        } else {
          const std::string t = "t" + std::to_string(temps_++);
          body_ << "    const Fp " << t << " = " << result << " * " << base << ";\n";
          result = t;
        }
      }
      if (e > 1) {
        const std::string t = "t" + std::to_string(temps_++);
        body_ << "    const Fp " << t << " = " << base << " * " << base << ";\n";
        base = t;
      }
    }
    return result;
  }

  std::ostringstream& body_;
  std::map<std::string, std::string> known_;
  size_t temps_ = 0;
};

std::string ident(const std::string& name) {
  std::string s;
  for (char c : name) s += (std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  return s;
}

void table_function(std::ostream& out, const TableLayout& t) {
  std::ostringstream body;
  Dag dag(body);
  size_t k = 0;
  body << "    Fp3 acc{};\n    LazySum3 lazy;  // the base-field constraints, reduced once\n"
          "    LazySum3 lazy3;  // the extension-field ones\n";
  for (const auto& c : t.constraints) {
    const std::string v = dag.emit(c.expr);
    std::string sel;
    switch (c.rows) {
      case zkrv::spec::air::Rows::kFirst: sel = " * sf"; break;
      case zkrv::spec::air::Rows::kLast: sel = " * sl"; break;
      case zkrv::spec::air::Rows::kTransition: sel = " * st"; break;
      case zkrv::spec::air::Rows::kEvery: break;
    }
    body << "    lazy.add(pw[" << k++ << "], " << (sel.empty() ? v : v + sel) << ");  // " << c.id << "\n";
  }
  if (!t.interactions.empty()) {
    body << "    Fp3 sum_local{}, sum_next{};\n";
    for (size_t f = 0; f < t.fractions.size(); ++f) {
      const auto& group = t.fractions[f];
      std::vector<std::string> d, m;
      for (size_t g = 0; g < group.size(); ++g) {
        const auto& in = t.interactions[group[g]];
        std::vector<std::string> tuple;
        for (const Program& e : in.tuple) tuple.push_back(dag.emit(e));
        const std::string mult = dag.emit(in.mult);
        const std::string dn = "d" + std::to_string(f) + "_" + std::to_string(g);
        // α − (tag + Σ β^(i+1) t_i), the sum reduced once
        body << "    LazySum3 h" << dn << ";\n";
        for (size_t i = 0; i < tuple.size(); ++i) body << "    h" << dn << ".add(bp[" << i << "], " << tuple[i] << ");\n";
        body << "    const Fp3 " << dn << " = lu_alpha - (Fp3{{Fp::from_u64(" << in.tag << "ull), Fp(), Fp()}} + h" << dn
             << ".value());  // " << in.id << "\n";
        d.push_back(dn);
        m.push_back(in.send ? mult : "(-" + mult + ")");
      }
      const std::string fr = "Fp3{{aux[" + std::to_string(3 * f) + "][i], aux[" + std::to_string(3 * f + 1) + "][i], aux[" +
                             std::to_string(3 * f + 2) + "][i]}}";
      const std::string fn = "Fp3{{aux[" + std::to_string(3 * f) + "][j], aux[" + std::to_string(3 * f + 1) + "][j], aux[" +
                             std::to_string(3 * f + 2) + "][j]}}";
      body << "    {\n      const Fp3 f = " << fr << ";\n";
      // f d0 d1 − m0 d1 − m1 d0 (or f d0 − m0), times its power, into the lazy sum
      if (group.size() == 2)
        body << "      lazy3.add(pw[" << k++ << "], mul_lazy(mul_lazy(f, " << d[0] << "), " << d[1] << ") - " << d[1]
             << " * " << m[0] << " - " << d[0] << " * " << m[1] << ");\n";
      else
        body << "      lazy3.add(pw[" << k++ << "], mul_lazy(f, " << d[0] << ") - Fp3{{" << m[0] << ", Fp(), Fp()}});\n";
      body << "      sum_local = sum_local + f;\n      sum_next = sum_next + " << fn << ";\n    }\n";
    }
    const size_t s = t.fractions.size();
    body << "    const Fp3 s_local{{aux[" << 3 * s << "][i], aux[" << 3 * s + 1 << "][i], aux[" << 3 * s + 2 << "][i]}};\n";
    body << "    const Fp3 s_next{{aux[" << 3 * s << "][j], aux[" << 3 * s + 1 << "][j], aux[" << 3 * s + 2 << "][j]}};\n";
    body << "    acc = acc + pw[" << k++ << "] * ((s_local - sum_local) * sf);\n";
    body << "    acc = acc + pw[" << k++ << "] * ((s_next - s_local - sum_next) * st);\n";
    body << "    acc = acc + pw[" << k++ << "] * ((s_local - a.terminal) * sl);\n";
  }
  if (k != t.combined_constraints()) throw std::logic_error("codegen: combined constraint count of " + t.name);

  out << "// table " << t.name << ": " << t.constraints.size() << " constraints, " << t.interactions.size()
      << " interactions in " << t.fractions.size() << " fraction columns, " << dag.temps() << " temporaries\n";
  out << "void combine_" << ident(t.name) << "(const CombineArgs& a, size_t begin, size_t end, Fp3* out) {\n";
  out << "  const Fp* const* col = a.columns;\n  const Fp* const* aux = a.aux;\n  const Fp* pub = a.publics;\n";
  out << "  const Fp3* pw = a.powers;\n  const Fp3 lu_alpha = a.lu_alpha;\n";
  size_t arity = 1;
  for (const auto& in : t.interactions) arity = std::max(arity, in.tuple.size());
  out << "  Fp3 bp[" << arity << "];  // β^(i+1)\n";
  out << "  bp[0] = a.lu_beta;\n  for (size_t i = 1; i < " << arity << "; ++i) bp[i] = bp[i - 1] * a.lu_beta;\n";
  out << "  (void)col; (void)aux; (void)pub; (void)lu_alpha; (void)bp;\n";
  out << "  const size_t mask = a.n - 1;\n";
  out << "  for (size_t i = begin; i < end; ++i) {\n";
  out << "    const size_t j = (i + a.next) & mask;\n    (void)j;\n";
  out << "    const Fp sf = a.sel_first[i], sl = a.sel_last[i], st = a.sel_transition[i];\n";
  out << "    (void)sf; (void)sl; (void)st;\n";
  out << body.str();
  out << "    out[i - begin] = lazy.value() + lazy3.value() + acc;\n  }\n}\n\n";
}

// On the trace domain (zkrv check): every constraint of the table on rows [begin, end), exactly,
// with the rows each one covers; returns the first row and constraint (document order) that is
// not zero, or {end, 0}.
void check_function(std::ostream& out, const TableLayout& t) {
  std::ostringstream body;
  Dag dag(body);
  for (size_t k = 0; k < t.constraints.size(); ++k) {
    const auto& c = t.constraints[k];
    std::string cover;
    switch (c.rows) {
      case zkrv::spec::air::Rows::kFirst: cover = "i == 0"; break;
      case zkrv::spec::air::Rows::kLast: cover = "i == last"; break;
      case zkrv::spec::air::Rows::kTransition: cover = "i != last"; break;
      case zkrv::spec::air::Rows::kEvery: cover = "true"; break;
    }
    // A constraint's value is computed on every row (the subexpressions are shared), but only
    // the rows it covers count.
    const std::string v = dag.emit(c.expr);
    body << "    if ((" << cover << ") && !(" << v << " == Fp())) return {i, " << k << "};  // " << c.id << "\n";
  }
  out << "RowFailure check_" << ident(t.name) << "(const CheckArgs& a, size_t begin, size_t end) {\n";
  out << "  const Fp* const* col = a.columns;\n  const Fp* pub = a.publics;\n  (void)col; (void)pub;\n";
  out << "  const size_t last = a.n - 1, mask = a.n - 1;\n  (void)last;\n";
  out << "  for (size_t i = begin; i < end; ++i) {\n    const size_t j = (i + 1) & mask;\n    (void)j;\n";
  out << body.str();
  out << "  }\n  return {end, 0};\n}\n\n";
}

// On the trace domain: each interaction's denominator α − h(tuple) and signed multiplicity
// (negative for a receive) on rows [begin, end), interaction-major within a row:
// den[(i − begin) · I + k], mult[(i − begin) · I + k].
void logup_function(std::ostream& out, const TableLayout& t) {
  std::ostringstream body;
  Dag dag(body);
  for (size_t k = 0; k < t.interactions.size(); ++k) {
    const auto& in = t.interactions[k];
    std::vector<std::string> tuple;
    for (const Program& e : in.tuple) tuple.push_back(dag.emit(e));
    const std::string mult = dag.emit(in.mult);
    body << "    {\n      LazySum3 h;\n";
    for (size_t i = 0; i < tuple.size(); ++i) body << "      h.add(bp[" << i << "], " << tuple[i] << ");\n";
    body << "      den[r * " << t.interactions.size() << " + " << k << "] = lu_alpha - (Fp3{{Fp::from_u64(" << in.tag
         << "ull), Fp(), Fp()}} + h.value());  // " << in.id << "\n";
    body << "      mult[r * " << t.interactions.size() << " + " << k << "] = " << (in.send ? mult : "-" + mult) << ";\n    }\n";
  }
  size_t arity = 1;
  for (const auto& in : t.interactions) arity = std::max(arity, in.tuple.size());
  out << "void logup_" << ident(t.name) << "(const CheckArgs& a, size_t begin, size_t end, Fp3* den, Fp* mult) {\n";
  out << "  const Fp* const* col = a.columns;\n  const Fp* pub = a.publics;\n  (void)col; (void)pub;\n";
  out << "  const Fp3 lu_alpha = a.lu_alpha;\n  Fp3 bp[" << arity << "];\n  bp[0] = a.lu_beta;\n";
  out << "  for (size_t i = 1; i < " << arity << "; ++i) bp[i] = bp[i - 1] * a.lu_beta;\n";
  out << "  const size_t mask = a.n - 1;\n";
  out << "  for (size_t i = begin; i < end; ++i) {\n    const size_t j = (i + 1) & mask, r = i - begin;\n    (void)j;\n";
  out << body.str();
  out << "  }\n}\n\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: zkrv-air-codegen OUT.cpp\n";
    return 64;
  }
  const AirLayout& layout = zkrv::ref::stark::air_layout();
  std::ostringstream out;
  out << "// Generated by zkrv-air-codegen (optimized/air/codegen.cpp) from the spec built into it.\n"
         "// Do not edit: change spec/tables/*.md.\n"
         "#include \"optimized/air/air_eval.h\"\n\nnamespace zkrv::opt::air {\nnamespace {\n\n";
  for (const auto& t : layout.tables) {
    table_function(out, t);
    check_function(out, t);
    logup_function(out, t);
    out << "const uint64_t tags_" << ident(t.name) << "[] = {";
    for (size_t k = 0; k < t.interactions.size(); ++k) out << (k ? ", " : "") << t.interactions[k].tag;
    out << "};\n\n";
  }
  out << "}  // namespace\n\nconst std::vector<TableCode>& generated_tables() {\n  static const std::vector<TableCode> tables = {\n";
  for (const auto& t : layout.tables)
    out << "      {\"" << t.name << "\", " << t.columns << ", " << t.aux_width() << ", " << t.combined_constraints()
        << ", &combine_" << ident(t.name) << ", " << t.constraints.size() << ", &check_" << ident(t.name) << ", "
        << t.interactions.size() << ", tags_" << ident(t.name) << ", &logup_" << ident(t.name) << "},\n";
  out << "  };\n  return tables;\n}\n\n}  // namespace zkrv::opt::air\n";
  const std::string text = out.str();
  // Write only when the text changed, so that an unchanged spec rebuilds nothing downstream.
  {
    std::ifstream old(argv[1], std::ios::binary);
    std::stringstream ss;
    ss << old.rdbuf();
    if (old && ss.str() == text) return 0;
  }
  std::ofstream f(argv[1], std::ios::binary | std::ios::trunc);
  f << text;
  if (!f) {
    std::cerr << "zkrv-air-codegen: cannot write " << argv[1] << "\n";
    return 66;
  }
  return 0;
}
