#include "core/air/layout.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/assert.h"
#include "spec/air/embedded.h"

namespace zkrv::core {
namespace {

using spec::air::Expr;

// Appends an expression's nodes to `out` bottom-up (spec::air::fold: operands first, so the
// program is in postorder); each method returns its node's index.
struct Compiler {
  const spec::air::Spec& spec;
  const spec::air::Table& table;
  Program& out;
  uint32_t node(Node::Op op, uint32_t a = 0, uint32_t b = 0, uint64_t value = 0) {
    out.nodes.push_back(Node{op, a, b, value});
    return static_cast<uint32_t>(out.nodes.size() - 1);
  }
  uint32_t constant(uint64_t v) { return node(Node::Op::kConst, 0, 0, v); }
  uint32_t column(const std::string& name, bool next) {
    const int c = table.column_index(name);
    ZKRV_ASSERT(c >= 0, "unknown column " + name);
    return node(next ? Node::Op::kNext : Node::Op::kCol, static_cast<uint32_t>(c));
  }
  uint32_t public_value(const std::string& name) {
    uint32_t index = 0;
    for (size_t i = 0; i < spec.publics.size(); ++i)
      if (spec.publics[i].name == name) index = static_cast<uint32_t>(i);
    return node(Node::Op::kPublic, index);
  }
  uint32_t add(uint32_t a, uint32_t b) { return node(Node::Op::kAdd, a, b); }
  uint32_t sub(uint32_t a, uint32_t b) { return node(Node::Op::kSub, a, b); }
  uint32_t mul(uint32_t a, uint32_t b) { return node(Node::Op::kMul, a, b); }
  uint32_t neg(uint32_t a) { return node(Node::Op::kNeg, a); }
  uint32_t pow(uint32_t base, uint64_t k) { return node(Node::Op::kPow, base, 0, k); }
};

Program compile(const spec::air::Spec& spec, const spec::air::Table& t, const Expr& e) {
  Program p;
  spec::air::fold<uint32_t>(e, Compiler{spec, t, p});
  p.degree = spec::air::degree(e);
  return p;
}

}  // namespace

// spec: protocol:stark:interaction_bound
double value_bound(const spec::air::Table& t, const Expr& e) {
  struct Bound {
    const spec::air::Table& t;
    double constant(uint64_t v) const { return static_cast<double>(v); }
    double column(const std::string& name, bool) const {
      const auto& col = t.columns[static_cast<size_t>(t.column_index(name))];
      if (col.type == spec::air::ColumnType::kField) return std::numeric_limits<double>::infinity();
      return static_cast<double>(spec::air::type_bound(col.type) - 1);
    }
    double public_value(const std::string&) const { return std::numeric_limits<double>::infinity(); }
    double add(double a, double b) const { return a + b; }
    double sub(double a, double b) const { return a + b; }
    double mul(double a, double b) const { return a * b; }
    double neg(double a) const { return a; }
    double pow(double a, uint64_t k) const { return std::pow(a, static_cast<double>(k)); }
  };
  return spec::air::fold<double>(e, Bound{t});
}

size_t AirLayout::constraint_count() const {
  size_t n = 0;
  for (const auto& t : tables) n += t.combined_constraints();
  return n;
}
size_t AirLayout::table_index(const std::string& name) const {
  for (size_t i = 0; i < tables.size(); ++i)
    if (tables[i].name == name) return i;
  throw std::out_of_range("no table " + name);
}

// spec: protocol:stark:security — the shape's counts; opened values in protocol:stark:ood order.
spec::SecurityShape AirLayout::security_shape(const std::vector<uint8_t>& log_heights) const {
  ZKRV_ASSERT(log_heights.size() == tables.size(), "one height per table");
  spec::SecurityShape s;
  s.log_max_height = 0;
  s.log_min_height = 64;
  double interactions = 0;
  std::vector<uint8_t> distinct;
  for (size_t t = 0; t < tables.size(); ++t) {
    const TableLayout& tl = tables[t];
    s.log_max_height = std::max<unsigned>(s.log_max_height, log_heights[t]);
    s.log_min_height = std::min<unsigned>(s.log_min_height, log_heights[t]);
    if (std::find(distinct.begin(), distinct.end(), log_heights[t]) == distinct.end()) distinct.push_back(log_heights[t]);
    interactions += static_cast<double>(tl.interactions.size()) * std::ldexp(1.0, log_heights[t]);
    s.opened_columns += tl.columns + tl.aux_width() + tl.quotient_width();
    s.opened_values += 2 * tl.columns + 2 * tl.aux_width() + tl.quotient_width();
  }
  s.heights = static_cast<unsigned>(distinct.size());
  s.constraints = constraint_count();
  s.log_interactions = std::log2(std::max(interactions, 1.0));
  s.max_arity = max_arity;
  return s;
}

spec::SecurityShape AirLayout::largest_security_shape(unsigned log_max) const {
  ZKRV_ASSERT(log_max >= spec::kMinLogHeight && log_max <= spec::kMaxLogHeight, "a tallest height the protocol allows");
  spec::SecurityShape s = security_shape(std::vector<uint8_t>(tables.size(), static_cast<uint8_t>(log_max)));
  s.log_min_height = spec::kMinLogHeight;
  s.heights = log_max + 1 - spec::kMinLogHeight;
  return s;
}

// spec: protocol:stark:layout
namespace {
AirLayout build_layout(spec::air::Mode mode) {
  const spec::air::Spec& spec = spec::air::embedded_spec(mode);
  AirLayout l;
  l.mode = mode;
  l.buses = spec.buses.size();
  for (const auto& p : spec.publics) l.publics.push_back(p.name);
  for (const spec::air::Table& t : spec.tables) {
    TableLayout tl;
    tl.name = t.name;
    tl.columns = t.columns.size();
    for (const auto& c : t.columns) tl.column_names.push_back(c.name);
    for (size_t c = 0; c < t.columns.size(); ++c) {
      const bool pre = t.columns[c].kind == spec::air::ColumnKind::kPreprocessed;
      ZKRV_ASSERT(t.columns[c].kind != spec::air::ColumnKind::kAuxiliary,
                  "spec columns of kind auxiliary are not supported by the protocol");
      tl.is_pre.push_back(pre);
      (pre ? tl.pre : tl.main).push_back(c);
      if (pre && is_program_column(t.name, t.columns[c].name)) tl.program.push_back(c);
    }
    unsigned chunks = 1;
    for (const auto& c : t.constraints) {
      tl.constraints.push_back({c.id, c.rows, compile(spec, t, *c.expr)});
      const unsigned d = tl.constraints.back().expr.degree;
      const bool boundary = c.rows == spec::air::Rows::kFirst || c.rows == spec::air::Rows::kLast;
      chunks = std::max(chunks, boundary ? d : (d > 0 ? d - 1 : 0));
    }
    for (const auto& b : t.buses) {
      CompiledInteraction ci;
      ci.id = b.id;
      ci.send = b.send;
      ci.tag = spec.bus_index(b.bus);
      ci.global = b.bus == kGlobalBus;
      unsigned deg = 0;
      for (const auto& e : b.tuple) {
        ci.tuple.push_back(compile(spec, t, *e));
        deg = std::max(deg, ci.tuple.back().degree);
      }
      ci.degree = deg;
      if (b.mult) {
        ci.mult = compile(spec, t, *b.mult);
        ci.mult_bound = value_bound(t, *b.mult);
      } else {
        ci.mult.nodes.push_back(Node{Node::Op::kConst, 0, 0, 1});
        ci.mult_bound = 1;
      }
      l.max_arity = std::max(l.max_arity, ci.tuple.size());
      tl.interactions.push_back(std::move(ci));
    }
    // protocol:stark:logup_layout — consecutive interactions share a fraction column when
    // f d1 d2 - s1 m1 d2 - s2 m2 d1 keeps degree <= 3; otherwise one per column.
    const auto& in = tl.interactions;
    for (size_t i = 0; i < in.size();) {
      if (i + 1 < in.size() && 1 + in[i].degree + in[i + 1].degree <= 3 &&
          in[i].mult.degree + in[i + 1].degree <= 3 && in[i + 1].mult.degree + in[i].degree <= 3) {
        tl.fractions.push_back({i, i + 1});
        // every row: degree - 1 of f d1 d2 (1 + D1 + D2), m1 d2 and m2 d1
        const unsigned d = std::max({1 + in[i].degree + in[i + 1].degree, in[i].mult.degree + in[i + 1].degree,
                                     in[i + 1].mult.degree + in[i].degree});
        chunks = std::max(chunks, d > 0 ? d - 1 : 0u);
        i += 2;
      } else {
        tl.fractions.push_back({i});
        chunks = std::max(chunks, std::max(in[i].degree, in[i].mult.degree > 0 ? in[i].mult.degree - 1 : 0u));
        i += 1;
      }
    }
    tl.chunks = chunks;
    l.tables.push_back(std::move(tl));
  }
  return l;
}
}  // namespace

const AirLayout& air_layout(spec::air::Mode mode) {
  if (mode == spec::air::Mode::kWhole) {
    static const AirLayout whole = build_layout(mode);
    return whole;
  }
  static const AirLayout segmented = build_layout(mode);
  return segmented;
}

// spec: protocol:stark:digest
std::vector<uint8_t> program_encoding(const spec::ProgramImage& image) {
  std::vector<uint8_t> b;
  auto put = [&](uint64_t v, int bytes) {
    for (int k = 0; k < bytes; ++k) b.push_back(static_cast<uint8_t>(v >> (8 * k)));
  };
  const char tag[] = "zkrv-program-v1";
  b.insert(b.end(), tag, tag + sizeof(tag) - 1);
  put(image.entry, 8);
  std::vector<const spec::Segment*> segs;
  for (const auto& s : image.segments) segs.push_back(&s);
  std::sort(segs.begin(), segs.end(), [](auto* a, auto* c) { return a->vaddr < c->vaddr; });
  put(segs.size(), 4);
  for (const auto* s : segs) {
    put(s->vaddr, 8);
    put(s->memsz, 8);
    put(s->flags, 4);
    put(s->data.size(), 8);
    b.insert(b.end(), s->data.begin(), s->data.end());
  }
  return b;
}

namespace {

// spec: protocol:segments:security — −log2 Σ_s 2^(−bits_s).
double union_bits(const std::vector<double>& bits) {
  double e = 0;
  for (double b : bits) e += std::exp2(-b);
  return -std::log2(e);
}

}  // namespace

spec::StarkSecurity bundle_security(const spec::StarkOptions& options, const std::vector<std::vector<uint8_t>>& log_heights) {
  const AirLayout& layout = air_layout(spec::air::Mode::kSegmented);
  double interactions = 0;
  for (const auto& h : log_heights) interactions += std::exp2(layout.security_shape(h).log_interactions);
  std::vector<double> provable, conjectured;
  spec::StarkSecurity security{};
  for (size_t s = 0; s < log_heights.size(); ++s) {
    spec::SecurityShape shape = layout.security_shape(log_heights[s]);
    shape.log_interactions = std::log2(std::max(interactions, 1.0));
    const spec::StarkSecurity sec = spec::stark_security(options, shape);
    provable.push_back(sec.provable_bits), conjectured.push_back(sec.conjectured_bits);
    if (s == 0 || sec.provable_bits < security.provable_bits) security = sec;
  }
  security.provable_bits = union_bits(provable);
  security.conjectured_bits = union_bits(conjectured);
  return security;
}

spec::StarkOptions bundle_options(const spec::StarkOptions& options, const std::vector<std::vector<uint8_t>>& log_heights,
                                  const spec::SecurityPolicy& floor) {
  for (spec::StarkOptions o = options; o.num_queries <= 1024; ++o.num_queries)
    if (!spec::check_policy(floor, bundle_security(o, log_heights))) return o;
  return options;
}

}  // namespace zkrv::core
