#include "reference/stark/air.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "reference/hash/keccak.h"
#include "spec/air/embedded.h"

namespace zkrv::ref::stark {
namespace {

using spec::air::Expr;

struct Compiler {
  const spec::air::Table& table;
  const spec::air::Spec& spec;
  Program out;
  uint32_t add(Node n) {
    out.nodes.push_back(n);
    return static_cast<uint32_t>(out.nodes.size() - 1);
  }
  uint32_t compile(const Expr& e) {
    Node n;
    switch (e.op) {
      case Expr::Op::kConst: n.op = Node::Op::kConst; n.value = e.value; return add(n);
      case Expr::Op::kColumn:
      case Expr::Op::kNext: {
        const int c = table.column_index(e.name);
        if (c < 0) throw std::logic_error("unknown column " + e.name);
        n.op = e.op == Expr::Op::kColumn ? Node::Op::kCol : Node::Op::kNext;
        n.a = static_cast<uint32_t>(c);
        return add(n);
      }
      case Expr::Op::kPublic: {
        n.op = Node::Op::kPublic;
        for (size_t i = 0; i < spec.publics.size(); ++i)
          if (spec.publics[i].name == e.name) n.a = static_cast<uint32_t>(i);
        return add(n);
      }
      case Expr::Op::kNeg:
      case Expr::Op::kPow:
        n.a = compile(*e.args[0]);
        n.op = e.op == Expr::Op::kNeg ? Node::Op::kNeg : Node::Op::kPow;
        n.value = e.value;
        return add(n);
      case Expr::Op::kAdd:
      case Expr::Op::kSub:
      case Expr::Op::kMul:
        n.a = compile(*e.args[0]);
        n.b = compile(*e.args[1]);
        n.op = e.op == Expr::Op::kAdd ? Node::Op::kAdd : e.op == Expr::Op::kSub ? Node::Op::kSub : Node::Op::kMul;
        return add(n);
    }
    throw std::logic_error("unknown expression node");
  }
};

Program compile(const spec::air::Spec& spec, const spec::air::Table& t, const Expr& e) {
  Compiler c{t, spec, {}};
  c.compile(e);
  c.out.degree = spec::air::degree(e);
  return c.out;
}

// |value| bound of an expression from its columns' types (infinity for a field column).
double bound(const spec::air::Table& t, const Expr& e) {
  const double inf = std::numeric_limits<double>::infinity();
  switch (e.op) {
    case Expr::Op::kConst: return static_cast<double>(e.value);
    case Expr::Op::kColumn:
    case Expr::Op::kNext: {
      const auto& col = t.columns[static_cast<size_t>(t.column_index(e.name))];
      return col.type == spec::air::ColumnType::kField ? inf : static_cast<double>(spec::air::type_bound(col.type) - 1);
    }
    case Expr::Op::kPublic: return inf;
    case Expr::Op::kNeg: return bound(t, *e.args[0]);
    case Expr::Op::kPow: return std::pow(bound(t, *e.args[0]), static_cast<double>(e.value));
    case Expr::Op::kAdd:
    case Expr::Op::kSub: return bound(t, *e.args[0]) + bound(t, *e.args[1]);
    case Expr::Op::kMul: return bound(t, *e.args[0]) * bound(t, *e.args[1]);
  }
  return inf;
}

template <class F> void batch_inverse_impl(std::vector<F>& v, const F& one) {
  if (v.empty()) return;
  std::vector<F> prefix(v.size());
  F acc = one;
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] == F{}) throw std::invalid_argument("batch_inverse: zero element");
    prefix[i] = acc;
    acc = acc * v[i];
  }
  F inv = acc.inverse();
  for (size_t i = v.size(); i-- > 0;) {
    const F x = v[i];
    v[i] = inv * prefix[i];
    inv = inv * x;
  }
}

}  // namespace

void batch_inverse(std::vector<Fp>& v) { batch_inverse_impl(v, Fp::from_u64(1)); }
void batch_inverse(std::vector<Fp3>& v) { batch_inverse_impl(v, embed(Fp::from_u64(1))); }

std::vector<Fp3> combination_powers(const Fp3& alpha, size_t count) {
  std::vector<Fp3> p(count);
  Fp3 x = embed(Fp::from_u64(1));
  for (size_t k = count; k-- > 0;) p[k] = x, x = x * alpha;
  return p;
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

// spec: protocol:stark:layout
const AirLayout& air_layout() {
  static const AirLayout layout = [] {
    const spec::air::Spec& spec = spec::air::embedded_spec();
    AirLayout l;
    for (const auto& p : spec.publics) l.publics.push_back(p.name);
    for (const spec::air::Table& t : spec.tables) {
      TableLayout tl;
      tl.name = t.name;
      tl.columns = t.columns.size();
      for (const auto& c : t.columns) tl.column_names.push_back(c.name);
      for (size_t c = 0; c < t.columns.size(); ++c) {
        const bool pre = t.columns[c].kind == spec::air::ColumnKind::kPreprocessed;
        if (t.columns[c].kind == spec::air::ColumnKind::kAuxiliary)
          throw std::logic_error("spec columns of kind auxiliary are not supported by the protocol");
        tl.is_pre.push_back(pre);
        (pre ? tl.pre : tl.main).push_back(c);
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
        unsigned deg = 0;
        for (const auto& e : b.tuple) {
          ci.tuple.push_back(compile(spec, t, *e));
          deg = std::max(deg, ci.tuple.back().degree);
        }
        ci.degree = deg;
        if (b.mult) {
          ci.mult = compile(spec, t, *b.mult);
          ci.mult_bound = bound(t, *b.mult);
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
  }();
  return layout;
}

// spec: protocol:stark:digest
spec::Digest program_digest(const spec::ProgramImage& image) {
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
  return keccak256(b);
}


// spec: protocol:stark:preprocessed
Preprocessed preprocessed(const spec::ProgramImage& image, const std::vector<uint8_t>& output) {
  const AirLayout& l = air_layout();
  Preprocessed p;
  p.columns.resize(l.tables.size());
  p.log_heights.resize(l.tables.size());
  auto fp = [](uint64_t v) { return Fp::from_u64(v); };
  // rows: the table's preprocessed values row by row, padded with zero rows to 2^log_h
  auto set = [&](const std::string& name, const std::vector<std::vector<uint64_t>>& rows, size_t min_rows) {
    const size_t t = l.table_index(name);
    const unsigned log_h = spec::ntt_log2(spec::air::padded_height(rows.size(), min_rows));
    const size_t h = size_t{1} << log_h, width = l.tables[t].pre.size();
    p.log_heights[t] = log_h;
    p.columns[t].assign(width, std::vector<Fp>(h));
    for (const auto& row : rows)
      if (row.size() != width) throw std::logic_error("preprocessed " + name + ": the spec's preprocessed columns changed");
    for (size_t r = 0; r < rows.size(); ++r)
      for (size_t c = 0; c < width; ++c) p.columns[t][c][r] = fp(rows[r][c]);
  };
  std::vector<std::vector<uint64_t>> rows;
  for (uint64_t x = 0; x < 256; ++x)  // and8: (x, y, x AND y), row 256 x + y
    for (uint64_t y = 0; y < 256; ++y) rows.push_back({x, y, x & y});
  set("and8", rows, 1);
  rows.clear();
  for (uint64_t v = 0; v < 256; ++v) rows.push_back({v});
  set("byte", rows, 1);
  rows.clear();
  for (uint64_t v = 0; v < 65536; ++v) rows.push_back({v});
  set("range16", rows, 1);
  rows.clear();
  for (uint64_t k = 0; k < 64; ++k) {
    const uint64_t q = uint64_t{1} << k;
    rows.push_back({k, q & 0xffff, (q >> 16) & 0xffff, (q >> 32) & 0xffff, q >> 48});
  }
  set("pow2", rows, 1);
  rows.clear();
  for (uint64_t r = 0; r < 32; ++r) rows.push_back({r});
  set("regs", rows, 1);
  rows.clear();
  for (size_t j = 0; j < output.size(); ++j) rows.push_back({1, j, output[j]});
  set("output", rows, 2);
  // segments, image and program from the ELF's segments in address order
  std::vector<const spec::Segment*> segs;
  for (const auto& s : image.segments) segs.push_back(&s);
  std::sort(segs.begin(), segs.end(), [](auto* a, auto* c) { return a->vaddr < c->vaddr; });
  std::vector<std::vector<uint64_t>> seg_rows, img_rows, rom_rows;
  for (const auto* s : segs) {
    if ((s->flags & spec::kFlagR) && s->memsz > 0) {
      seg_rows.push_back({s->vaddr, s->vaddr + s->data.size(), s->vaddr + s->memsz, (s->flags & spec::kFlagW) ? 1u : 0u});
      for (size_t k = 0; k < s->data.size(); ++k) img_rows.push_back({s->vaddr + k, s->data[k]});
    }
    if (!(s->flags & spec::kFlagX)) continue;
    for (uint64_t a = (s->vaddr + 3) / 4 * 4; a + 4 <= s->vaddr + s->memsz; a += 4) {
      uint32_t w = 0;
      for (uint64_t k = 0; k < 4; ++k) {
        const uint64_t off = a + k - s->vaddr;
        w |= uint32_t{off < s->data.size() ? s->data[off] : uint8_t{0}} << (8 * k);
      }
      rom_rows.push_back({a, w});
    }
  }
  set("segments", seg_rows, 1);
  set("image", img_rows, 1);
  set("program", rom_rows, 1);
  for (size_t t = 0; t < l.tables.size(); ++t)
    if (p.columns[t].size() != l.tables[t].pre.size())
      throw std::logic_error("preprocessed: table " + l.tables[t].name + "'s preprocessed columns are not derived");
  return p;
}

}  // namespace zkrv::ref::stark
