// zkrv-air-codegen OUT.cpp: turns every table's constraints and bus interactions, as the proof
// protocol combines them (protocol:stark:quotient, core::combine), into
// straight-line C++ over column arrays, run at build time from the spec built into the binary.
//
// The input is the compiled layout (core::air_layout(), index-resolved
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

#include "core/air/layout.h"
#include "core/assert.h"
#include "optimized/air/air_eval.h"
#include "spec/air/embedded.h"

namespace {

using zkrv::core::AirLayout;
using zkrv::core::Program;
using zkrv::core::TableLayout;

// One table's base-field expression DAG, shared by all of its programs.
class Dag {
 public:
  // generic: code for the row templates of air_generated.inc (value types from a policy T);
  // otherwise plain opt::Fp code.
  explicit Dag(std::ostringstream& body, bool generic = false) : body_(body), generic_(generic) {}

  // Emits the program's nodes that are new and returns the variable holding its value.
  std::string emit(const Program& p) {
    std::vector<std::string> vars;  // per node, the variable (or literal) holding its value
    return zkrv::core::fold(p, Emitter{*this}, vars);
  }
  size_t temps() const { return temps_; }

 private:
  static std::string commutative(const std::string& a, const std::string& b) { return a < b ? a + "," + b : b + "," + a; }
  const char* type() const { return generic_ ? "F" : "Fp"; }
  std::string column(uint32_t c, const char* row) const {
    return generic_ ? "T::ld(x.col[" + std::to_string(c) + "], " + row + ")" : "col[" + std::to_string(c) + "][" + row + "]";
  }
  void load(const std::string& name, const std::string& from) { body_ << "    const " << type() << " " << name << " = " << from << ";\n"; }
  // A new temporary holding `expr`.
  std::string temp(const std::string& expr) {
    const std::string t = "t" + std::to_string(temps_++);
    load(t, expr);
    return t;
  }
  // x^e by square-and-multiply, as temporaries; returns the expression of the result.
  std::string power(const std::string& x, uint64_t e) {
    if (e == 0) return generic_ ? "T::K(1)" : "Fp::from_u64(1)";
    std::string result, base = x;
    for (; e; e >>= 1) {
      if (e & 1) result = result.empty() ? base : temp(result + " * " + base);
      if (e > 1) base = temp(base + " * " + base);
    }
    return result;
  }

  // The node visitor of emit (core::fold): a node is known by a key made of its operation and
  // its operands' variables (commutative ones in a fixed order); each method returns the
  // variable that already holds the key's value, or else emits the node's code.
  struct Emitter {
    Dag& dag;
    // The variable of `key`; make() emits what the node needs and returns its variable.
    template <class Make>
    std::string share(const std::string& key, Make make) {
      if (auto it = dag.known_.find(key); it != dag.known_.end()) return it->second;
      const std::string v = make();
      dag.known_.emplace(key, v);
      return v;
    }
    std::string constant(uint64_t c) {
      return share("k" + std::to_string(c), [&] { return (dag.generic_ ? "T::K(" : "Fp::from_u64(") + std::to_string(c) + "ull)"; });
    }
    std::string column(uint32_t c, bool next) {
      const std::string v = (next ? "n" : "c") + std::to_string(c);
      return share(v, [&] {
        dag.load(v, dag.column(c, next ? "j" : "i"));
        return v;
      });
    }
    std::string public_value(uint32_t i) {
      return share("p" + std::to_string(i), [&] {
        return dag.generic_ ? "T::bc(x.pub[" + std::to_string(i) + "])" : "pub[" + std::to_string(i) + "]";
      });
    }
    std::string add(const std::string& a, const std::string& b) {
      return share("+" + commutative(a, b), [&] { return dag.temp(a + " + " + b); });
    }
    std::string sub(const std::string& a, const std::string& b) {
      return share("-" + a + "," + b, [&] { return dag.temp(a + " - " + b); });
    }
    std::string mul(const std::string& a, const std::string& b) {
      return share("*" + commutative(a, b), [&] { return dag.temp(a + " * " + b); });
    }
    std::string neg(const std::string& a) { return share("~" + a, [&] { return dag.temp("-" + a); }); }
    std::string pow(const std::string& a, uint64_t e) {
      return share("^" + a + "," + std::to_string(e), [&] { return dag.temp(dag.power(a, e)); });
    }
  };

  std::ostringstream& body_;
  bool generic_;
  std::map<std::string, std::string> known_;
  size_t temps_ = 0;
};

std::string ident(const std::string& name) {
  std::string s;
  for (char c : name) s += (std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  return s;
}

// The AIR being generated (a whole run's, or a bundle segment's: its functions named seg_*).
zkrv::spec::air::Mode g_mode = zkrv::spec::air::Mode::kWhole;
bool segmented() { return g_mode == zkrv::spec::air::Mode::kSegmented; }
// A table's name in the generated functions' names.
std::string fname(const TableLayout& t) { return (segmented() ? "seg_" : "") + ident(t.name); }
// An interaction's fingerprint tag: its bus's index, plus the segment's offset B·s on a local bus
// of a segment (protocol:segments:scope), read from `offset` at run time.
std::string tag_expr(const zkrv::core::CompiledInteraction& in, const char* offset) {
  const std::string tag = std::to_string(in.tag) + "ull";
  return segmented() && !in.global ? "(" + tag + " + " + offset + ")" : tag;
}

// The quotient's combination at one row unit (one row, or eight with AVX-512): a template over
// the value-type policy T (scalar_policy.h, avx512_policy.h), written to air_generated.inc.
void row_template(std::ostream& out, const TableLayout& t) {
  std::ostringstream body;
  Dag dag(body, true);
  size_t k = 0;
  auto aux3 = [](size_t e, const char* row) {
    return "T::mk3(T::ld(x.aux[" + std::to_string(3 * e) + "], " + row + "), T::ld(x.aux[" + std::to_string(3 * e + 1) +
           "], " + row + "), T::ld(x.aux[" + std::to_string(3 * e + 2) + "], " + row + "))";
  };
  for (const auto& c : t.constraints) {
    const std::string v = dag.emit(c.expr);
    std::string sel;
    switch (c.rows) {
      case zkrv::spec::air::Rows::kFirst: sel = " * sf"; break;
      case zkrv::spec::air::Rows::kLast: sel = " * sl"; break;
      case zkrv::spec::air::Rows::kTransition: sel = " * st"; break;
      case zkrv::spec::air::Rows::kEvery: break;
    }
    body << "    lazy.add(x.pw[" << k++ << "], " << (sel.empty() ? v : v + sel) << ");  // " << c.id << "\n";
  }
  if (!t.interactions.empty()) {
    body << "    F3 sum_local = T::z3(), sum_next = T::z3();\n";
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
        body << "    typename T::Lazy3 h" << dn << ";\n";
        for (size_t i = 0; i < tuple.size(); ++i) body << "    h" << dn << ".add(x.bp[" << i << "], " << tuple[i] << ");\n";
        body << "    const F3 " << dn << " = x.alpha - (T::mk3(T::K(" << tag_expr(in, "x.local_offset") << "), T::Z(), T::Z()) + h" << dn
             << ".value());  // " << in.id << "\n";
        d.push_back(dn);
        m.push_back(in.send ? mult : "(-" + mult + ")");
      }
      body << "    {\n      const F3 f = " << aux3(f, "i") << ";\n";
      // f d0 d1 − m0 d1 − m1 d0 (or f d0 − m0), times its power, into the lazy sum
      if (group.size() == 2)
        body << "      lazy3.add(x.pw[" << k++ << "], T::mul3(T::mul3(f, " << d[0] << "), " << d[1] << ") - " << d[1]
             << " * " << m[0] << " - " << d[0] << " * " << m[1] << ");\n";
      else
        body << "      lazy3.add(x.pw[" << k++ << "], T::mul3(f, " << d[0] << ") - T::mk3(" << m[0] << ", T::Z(), T::Z()));\n";
      body << "      sum_local = sum_local + f;\n      sum_next = sum_next + " << aux3(f, "j") << ";\n    }\n";
    }
    const size_t s = t.fractions.size();
    body << "    const F3 s_local = " << aux3(s, "i") << ";\n";
    body << "    const F3 s_next = " << aux3(s, "j") << ";\n";
    body << "    acc = acc + x.pw[" << k++ << "] * ((s_local - sum_local) * sf);\n";
    body << "    acc = acc + x.pw[" << k++ << "] * ((s_next - s_local - sum_next) * st);\n";
    body << "    acc = acc + x.pw[" << k++ << "] * ((s_local - x.terminal) * sl);\n";
  }
  ZKRV_ASSERT(k == t.combined_constraints(), "codegen: combined constraint count of " + t.name);
  out << "// table " << t.name << ": " << t.constraints.size() << " constraints, " << t.interactions.size()
      << " interactions in " << t.fractions.size() << " fraction columns, " << dag.temps() << " temporaries\n";
  out << "template <class T>\ninline typename T::F3 row_" << fname(t) << "(const RowContext<T>& x, size_t i, size_t j) {\n";
  out << "  using F = typename T::F;\n  using F3 = typename T::F3;\n  (void)j;\n";
  out << "  const F sf = T::ld(x.sel_first, i), sl = T::ld(x.sel_last, i), st = T::ld(x.sel_transition, i);\n";
  out << "  (void)sf; (void)sl; (void)st;\n";
  out << "  F3 acc = T::z3();\n  typename T::Lazy3 lazy, lazy3;  // base-field and extension-field constraints\n";
  out << body.str();
  out << "  return lazy.value() + lazy3.value() + acc;\n}\n\n";
}

size_t arity_of(const TableLayout& t) {
  size_t arity = 1;
  for (const auto& in : t.interactions) arity = std::max(arity, in.tuple.size());
  return arity;
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
  out << "RowFailure check_" << fname(t) << "(const CheckArgs& a, size_t begin, size_t end) {\n";
  out << "  const Fp* const* col = a.columns;\n  const Fp* pub = a.publics;\n  (void)col; (void)pub;\n";
  out << "  const size_t last = a.n - 1, mask = a.n - 1;\n  (void)last;\n";
  out << "  for (size_t i = begin; i < end; ++i) {\n    const size_t j = (i + 1) & mask;\n    (void)j;\n";
  out << body.str();
  out << "  }\n  return {end, 0};\n}\n\n";
}

// On the trace domain: the denominator α − h(tuple) and signed multiplicity (negative for a
// receive) of the interactions `which` (indices into t.interactions; S of them) on rows
// [begin, end), interaction-major within a row: den[(i − begin) · S + k], mult[(i − begin) · S + k].
void logup_function(std::ostream& out, const TableLayout& t, const std::string& name, const std::vector<size_t>& which) {
  std::ostringstream body;
  Dag dag(body);
  const size_t S = which.size();
  for (size_t k = 0; k < S; ++k) {
    const auto& in = t.interactions[which[k]];
    std::vector<std::string> tuple;
    for (const Program& e : in.tuple) tuple.push_back(dag.emit(e));
    const std::string mult = dag.emit(in.mult);
    body << "    {\n      LazySum3 h;\n";
    for (size_t i = 0; i < tuple.size(); ++i) body << "      h.add(bp[" << i << "], " << tuple[i] << ");\n";
    body << "      den[r * " << S << " + " << k << "] = lu_alpha - (Fp3{{Fp::from_u64(" << tag_expr(in, "a.local_offset")
         << "), Fp(), Fp()}} + h.value());  // " << in.id << "\n";
    body << "      mult[r * " << S << " + " << k << "] = " << (in.send ? mult : "-" + mult) << ";\n    }\n";
  }
  size_t arity = 1;
  for (const auto& in : t.interactions) arity = std::max(arity, in.tuple.size());
  out << "void " << name << "(const CheckArgs& a, size_t begin, size_t end, Fp3* den, Fp* mult) {\n";
  out << "  const Fp* const* col = a.columns;\n  const Fp* pub = a.publics;\n  (void)col; (void)pub; (void)den; (void)mult;\n";
  out << "  const Fp3 lu_alpha = a.lu_alpha;\n  Fp3 bp[" << arity << "];\n  bp[0] = a.lu_beta;\n";
  out << "  for (size_t i = 1; i < " << arity << "; ++i) bp[i] = bp[i - 1] * a.lu_beta;\n";
  out << "  (void)lu_alpha; (void)bp;\n  const size_t mask = a.n - 1;\n  (void)mask;\n";
  out << "  for (size_t i = begin; i < end; ++i) {\n    const size_t j = (i + 1) & mask, r = i - begin;\n    (void)j; (void)r;\n";
  out << body.str();
  out << "  }\n}\n";
  out << "const uint64_t " << name << "_tags[] = {";
  for (size_t k = 0; k < S; ++k) out << (k ? ", " : "") << t.interactions[which[k]].tag;
  out << (S ? "" : "0") << "};\n\n";
}

// The buses whose receiving table counts its tuples (air_eval.h, SendFn).
bool is_lookup_bus(uint64_t tag) {
  static const char* const kLookups[] = {"byte", "range16", "and8", "program", "segment", "image", "pow2"};
  const std::string& name = zkrv::spec::air::embedded_spec(g_mode).buses.at(tag).name;
  return std::find(std::begin(kLookups), std::end(kLookups), name) != std::end(kLookups);
}
// The interactions of t: the sends (or receives) on lookup buses, or those on the other buses.
enum class Pick { kLookupSends, kLookupReceives, kOtherBuses, kAll };
std::vector<size_t> pick(const TableLayout& t, Pick p) {
  std::vector<size_t> out;
  for (size_t k = 0; k < t.interactions.size(); ++k) {
    const auto& in = t.interactions[k];
    const bool lookup = is_lookup_bus(in.tag);
    if (p == Pick::kAll || (p == Pick::kOtherBuses && !lookup) || (p == Pick::kLookupSends && lookup && in.send) ||
        (p == Pick::kLookupReceives && lookup && !in.send))
      out.push_back(k);
  }
  return out;
}

// On the trace domain: the tuple and multiplicity of each of the interactions `sends` (lookup
// sends or receives; air_eval.h, SendFn).
void lookup_function(std::ostream& out, const TableLayout& t, const std::string& name, const std::vector<size_t>& sends) {
  std::ostringstream body;
  Dag dag(body);
  const size_t S = sends.size(), A = zkrv::opt::air::kLookupArity;
  for (size_t s = 0; s < S; ++s) {
    const auto& in = t.interactions[sends[s]];
    if (in.tuple.size() > A) {
      std::cerr << "zkrv-air-codegen: " << in.id << " has more than " << A << " tuple values\n";
      std::exit(65);
    }
    std::vector<std::string> values;  // emitted first: emit() writes the nodes it needs
    for (size_t v = 0; v < A; ++v) values.push_back(v < in.tuple.size() ? dag.emit(in.tuple[v]) : std::string("Fp()"));
    const std::string m = dag.emit(in.mult);
    for (size_t v = 0; v < A; ++v)
      body << "    tuple[(r * " << S << " + " << s << ") * " << A << " + " << v << "] = " << values[v] << ";\n";
    body << "    mult[r * " << S << " + " << s << "] = " << m << ";  // " << in.id << "\n";
  }
  out << "void " << name << "(const CheckArgs& a, size_t begin, size_t end, Fp* tuple, Fp* mult) {\n";
  out << "  const Fp* const* col = a.columns;\n  const Fp* pub = a.publics;\n  (void)col; (void)pub; (void)tuple; (void)mult;\n";
  out << "  const size_t mask = a.n - 1;\n  (void)mask;\n";
  out << "  for (size_t i = begin; i < end; ++i) {\n    const size_t j = (i + 1) & mask, r = i - begin;\n    (void)j; (void)r;\n";
  out << body.str();
  out << "  }\n}\n";
  out << "const uint64_t " << name << "_tags[] = {";
  for (size_t s = 0; s < S; ++s) out << (s ? ", " : "") << t.interactions[sends[s]].tag;
  out << (S ? "" : "0") << "};\n\n";
}

// C++ keywords that a column may be named (an underscore is appended).
std::string member(const std::string& name) {
  static const char* const kKeywords[] = {"and", "or", "not", "xor", "new", "delete", "short", "long", "int", "char",
                                          "bool", "this", "case", "do", "for", "if", "else", "while", "return", "auto",
                                          "default", "double", "float", "signed", "unsigned", "const", "static", "union",
                                          "struct", "class", "enum", "switch", "goto", "register", "void", "true",
                                          "false", "try", "catch", "throw", "friend", "inline", "operator", "private",
                                          "public", "protected", "template", "typename", "virtual", "volatile",
                                          "bitand", "bitor", "compl", "break", "continue", "sizeof", "extern"};
  const std::string s = ident(name);
  return std::find(std::begin(kKeywords), std::end(kKeywords), s) != std::end(kKeywords) ? s + "_" : s;
}

// air_columns.h: each table's index in spec order and each column's index in its table, as
// constants, for code that fills traces (optimized/trace).
std::string columns_header() {
  const auto& sp = zkrv::spec::air::embedded_spec();
  std::ostringstream h;
  h << "#pragma once\n// Table and column indices (spec order) of spec/tables.\n#include <cstddef>\n\n"
    << "namespace zkrv::opt::air::cols {\n\n";
  h << "namespace table {\n";
  for (size_t t = 0; t < sp.tables.size(); ++t) h << "inline constexpr size_t " << member(sp.tables[t].name) << " = " << t << ";\n";
  h << "inline constexpr size_t count = " << sp.tables.size() << ";\n}  // namespace table\n\n";
  for (const auto& t : sp.tables) {
    h << "namespace " << member(t.name) << " {\n";
    for (size_t c = 0; c < t.columns.size(); ++c) h << "inline constexpr size_t " << member(t.columns[c].name) << " = " << c << ";\n";
    h << "inline constexpr size_t width = " << t.columns.size() << ";\n}  // namespace " << member(t.name) << "\n\n";
  }
  h << "}  // namespace zkrv::opt::air::cols\n";
  return h.str();
}

// Writes `text` to `path` unless it already holds exactly that (an unchanged spec rebuilds
// nothing downstream). False when it cannot be written.
bool write_if_changed(const std::string& path, const std::string& text) {
  {
    std::ifstream old(path, std::ios::binary);
    std::stringstream ss;
    ss << old.rdbuf();
    if (old && ss.str() == text) return true;
  }
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
  return static_cast<bool>(f);
}

const char* kHeader =
    "// Generated by zkrv-air-codegen (optimized/air/codegen.cpp) from the spec built into it.\n"
    "// Do not edit: change spec/tables/*.md.\n";

}  // namespace

// zkrv-air-codegen DIR: writes DIR/air_generated.inc (the row templates), DIR/air_generated.cpp
// (scalar code, the trace-domain checks and the table list) and DIR/air_generated_avx512.cpp
// (the row templates on eight rows at a time).
int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: zkrv-air-codegen DIR\n";
    return 64;
  }
  const std::string dir = argv[1];
  using zkrv::spec::air::Mode;
  const Mode kModes[] = {Mode::kWhole, Mode::kSegmented};

  std::ostringstream inc;
  inc << kHeader << "// The quotient's combination, row by row, over the value types of a policy T.\n"
      << "// Included by air_generated.cpp and air_generated_avx512.cpp only.\n\n";
  for (Mode m : kModes) {
    g_mode = m;
    for (const auto& t : zkrv::core::air_layout(m).tables) row_template(inc, t);
  }

  std::ostringstream cpp;
  cpp << kHeader << "#include \"optimized/air/air_eval.h\"\n#include \"optimized/air/row_context.h\"\n"
      << "#include \"optimized/air/scalar_policy.h\"\n#include \"optimized/simd/simd.h\"\n\n"
      << "namespace zkrv::opt::air {\nnamespace {\n\n#include \"air_generated.inc\"\n\n";
  std::ostringstream avx;
  avx << kHeader << "#include \"optimized/air/avx512_policy.h\"\n#include \"optimized/air/row_context.h\"\n\n"
      << "namespace zkrv::opt::air {\nnamespace {\n\n#include \"air_generated.inc\"\n\n}  // namespace\n\n";
  std::ostringstream decl;
  for (Mode m : kModes) {
    g_mode = m;
    for (const auto& t : zkrv::core::air_layout(m).tables) {
      const std::string n = fname(t);
      cpp << "void combine_scalar_" << n << "(const CombineArgs& a, size_t begin, size_t end, Fp3* out) {\n"
          << "  combine_rows<ScalarPolicy>(a, " << arity_of(t) << ", " << t.combined_constraints() << ", &row_" << n
          << "<ScalarPolicy>, begin, end, out, nullptr);\n}\n"
          << "void combine_" << n << "(const CombineArgs& a, size_t begin, size_t end, Fp3* out) {\n"
          << "  if (simd_level() == SimdLevel::kAvx512) return combine_avx512_" << n << "(a, begin, end, out, &combine_scalar_" << n << ");\n"
          << "  combine_scalar_" << n << "(a, begin, end, out);\n}\n\n";
      avx << "void combine_avx512_" << n << "(const CombineArgs& a, size_t begin, size_t end, Fp3* out, CombineFn rest) {\n"
          << "  combine_rows<Avx512Policy>(a, " << arity_of(t) << ", " << t.combined_constraints() << ", &row_" << n
          << "<Avx512Policy>, begin, end, out, rest);\n}\n";
      decl << "void combine_avx512_" << n << "(const CombineArgs&, size_t, size_t, Fp3*, CombineFn);\n";
    }
  }
  avx << "\n}  // namespace zkrv::opt::air\n";
  std::string cpp_text = cpp.str();
  const std::string anchor = "namespace zkrv::opt::air {\nnamespace {\n";
  cpp_text.replace(cpp_text.find(anchor), anchor.size(), "namespace zkrv::opt::air {\n\n" + decl.str() + "\nnamespace {\n");
  std::ostringstream rest, lists;
  for (Mode m : kModes) {
    g_mode = m;
    const AirLayout& layout = zkrv::core::air_layout(m);
    for (const auto& t : layout.tables) {
      check_function(rest, t);
      const std::string n = fname(t);
      logup_function(rest, t, "logup_" + n, pick(t, Pick::kAll));
      logup_function(rest, t, "logup_other_" + n, pick(t, Pick::kOtherBuses));
      lookup_function(rest, t, "send_" + n, pick(t, Pick::kLookupSends));
      lookup_function(rest, t, "receive_" + n, pick(t, Pick::kLookupReceives));
    }
    lists << "  static const std::vector<TableCode> " << (segmented() ? "segmented" : "whole") << " = {\n";
    for (const auto& t : layout.tables) {
      const std::string n = fname(t);
      lists << "      {\"" << t.name << "\", " << t.columns << ", " << t.aux_width() << ", " << t.combined_constraints()
            << ", &combine_" << n << ", " << t.constraints.size() << ", &check_" << n << ", "
            << t.interactions.size() << ", logup_" << n << "_tags, &logup_" << n << ", "
            << pick(t, Pick::kOtherBuses).size() << ", logup_other_" << n << "_tags, &logup_other_" << n << ", "
            << pick(t, Pick::kLookupSends).size() << ", send_" << n << "_tags, &send_" << n << ", "
            << pick(t, Pick::kLookupReceives).size() << ", receive_" << n << "_tags, &receive_" << n << "},\n";
    }
    lists << "  };\n";
  }
  rest << "}  // namespace\n\nconst std::vector<TableCode>& generated_tables(spec::air::Mode mode) {\n" << lists.str()
       << "  return mode == spec::air::Mode::kWhole ? whole : segmented;\n}\n\n}  // namespace zkrv::opt::air\n";
  cpp_text += rest.str();

  for (const auto& [name, text] : {std::pair{std::string("air_generated.inc"), inc.str()},
                                   std::pair{std::string("air_generated.cpp"), cpp_text},
                                   std::pair{std::string("air_generated_avx512.cpp"), avx.str()},
                                   std::pair{std::string("air_columns.h"), kHeader + columns_header()}})
    if (!write_if_changed(dir + "/" + name, text)) {
      std::cerr << "zkrv-air-codegen: cannot write " << dir << "/" << name << "\n";
      return 66;
    }
  return 0;
}
