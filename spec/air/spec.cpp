#include "spec/air/spec.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "spec/field.h"

namespace zkrv::spec::air {

const char* type_name(ColumnType t) {
  switch (t) {
    case ColumnType::kBit: return "bit";
    case ColumnType::kByte: return "byte";
    case ColumnType::kU16: return "u16";
    case ColumnType::kU32: return "u32";
    default: return "field";
  }
}
uint64_t type_bound(ColumnType t) {
  switch (t) {
    case ColumnType::kBit: return 2;
    case ColumnType::kByte: return 256;
    case ColumnType::kU16: return 65536;
    case ColumnType::kU32: return uint64_t{1} << 32;
    default: return GoldilocksTraits::kModulus;
  }
}
const char* rows_name(Rows r) {
  switch (r) {
    case Rows::kFirst: return "first";
    case Rows::kLast: return "last";
    case Rows::kTransition: return "transition";
    default: return "every";
  }
}

const char* mode_name(Mode m) { return m == Mode::kSegmented ? "segmented" : "whole"; }

int Table::column_index(const std::string& n) const {
  for (size_t i = 0; i < columns.size(); ++i)
    if (columns[i].name == n) return static_cast<int>(i);
  return -1;
}
const Table* Spec::table(const std::string& n) const {
  for (const auto& t : tables)
    if (t.name == n) return &t;
  return nullptr;
}
const BusDecl* Spec::bus(const std::string& n) const {
  for (const auto& b : buses)
    if (b.name == n) return &b;
  return nullptr;
}
size_t Spec::bus_index(const std::string& n) const {
  for (size_t i = 0; i < buses.size(); ++i)
    if (buses[i].name == n) return i;
  return buses.size();
}
std::vector<std::string> Spec::ids() const {
  std::vector<std::string> out;
  for (const auto& t : tables) out.insert(out.end(), t.ids.begin(), t.ids.end());
  return out;
}

namespace {

// A tiny tokenizer for one statement line: words, quoted strings, and the rest as text.
struct Line {
  std::string text;
  size_t pos = 0;
  void skip() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t')) ++pos;
  }
  std::string word() {
    skip();
    const size_t s = pos;
    while (pos < text.size() && text[pos] != ' ' && text[pos] != '\t' && text[pos] != '"' && text[pos] != '(' &&
           text[pos] != ':')
      ++pos;
    return text.substr(s, pos - s);
  }
  // Up to the next blank (IDs contain ':').
  std::string token() {
    skip();
    const size_t s = pos;
    while (pos < text.size() && text[pos] != ' ' && text[pos] != '\t') ++pos;
    return text.substr(s, pos - s);
  }
  std::optional<std::string> quoted() {
    skip();
    if (pos >= text.size() || text[pos] != '"') return std::nullopt;
    const size_t e = text.find('"', pos + 1);
    if (e == std::string::npos) return std::nullopt;
    std::string q = text.substr(pos + 1, e - pos - 1);
    pos = e + 1;
    return q;
  }
  bool eat(char c) {
    skip();
    if (pos < text.size() && text[pos] == c) return ++pos, true;
    return false;
  }
  bool done() {
    skip();
    return pos >= text.size();
  }
  std::string rest() {
    skip();
    return text.substr(pos);
  }
};

std::optional<ColumnType> parse_type(const std::string& w) {
  if (w == "bit") return ColumnType::kBit;
  if (w == "byte") return ColumnType::kByte;
  if (w == "u16") return ColumnType::kU16;
  if (w == "u32") return ColumnType::kU32;
  if (w == "field") return ColumnType::kField;
  return std::nullopt;
}

// Splits "a, (b + c), d" at top-level commas.
std::vector<std::string> split_top(const std::string& s) {
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (char c : s) {
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty() || !out.empty()) out.push_back(cur);
  return out;
}

class Loader {
 public:
  explicit Loader(Mode mode) { spec_.mode = mode; }
  LoadResult run(const std::vector<SourceFile>& files) {
    for (const auto& f : files) parse_file(f);
    if (errors_.empty()) check();
    LoadResult r;
    r.errors = std::move(errors_);
    if (r.errors.empty()) r.spec = std::move(spec_);
    return r;
  }

 private:
  void error(const Location& at, const std::string& what) { errors_.push_back({at, what}); }

  void parse_file(const SourceFile& f) {
    std::istringstream in(f.text);
    std::string raw;
    size_t line_no = 0;
    bool in_block = false;
    Table* table = nullptr;
    bool left_out = false;  // in a table of the other mode: its statements are not this AIR's
    while (std::getline(in, raw)) {
      ++line_no;
      const Location at{f.name, line_no};
      if (raw.rfind("```", 0) == 0) {
        if (!in_block && raw.substr(3) == "zkrv") in_block = true;
        else if (in_block) in_block = false;
        continue;
      }
      if (!in_block) continue;
      Line l{raw};
      if (l.done() || l.rest()[0] == '#') continue;
      std::string kw = l.word();
      if (kw == "whole" || kw == "segmented") {  // a statement of one AIR only
        const Mode only = kw == "whole" ? Mode::kWhole : Mode::kSegmented;
        kw = l.word();
        if (kw.empty() || kw == "whole" || kw == "segmented" || kw == "max_degree") {
          error(at, "'whole' and 'segmented' mark a public, busdef, table, column, constraint, bus, assume, padding, "
                    "adequacy or free statement");
          continue;
        }
        if (only != spec_.mode) {
          if (kw == "table") left_out = true, table = nullptr;
          continue;
        }
      }
      if (kw == "table") left_out = false;
      else if (left_out) continue;
      if (kw == "max_degree") {
        const std::string v = l.word();
        if (v.empty() || v.size() > 2 || v.find_first_not_of("0123456789") != std::string::npos || !l.done())
          error(at, "max_degree needs one integer in 2..16");
        else if (const unsigned d = static_cast<unsigned>(std::stoul(v)); d < 2 || d > 16)
          error(at, "max_degree needs one integer in 2..16");
        else
          spec_.max_degree = d;
      } else if (kw == "public") {
        PublicDecl p{l.word(), "", at};
        auto doc = l.quoted();
        if (p.name.empty() || !doc || !l.done()) error(at, "expected: public <name> \"<doc>\"");
        else p.doc = *doc, spec_.publics.push_back(p);
      } else if (kw == "busdef") {
        parse_busdef(l, at);
      } else if (kw == "table") {
        const std::string name = l.word();
        if (name.empty() || !l.done()) {
          error(at, "expected: table <name>");
          continue;
        }
        if (table) error(at, "a second table in one file");
        spec_.tables.push_back(Table{name, f.name, {}, {}, {}, {}, {}, std::nullopt, {}, {}});
        table = &spec_.tables.back();
      } else if (kw == "column" || kw == "constraint" || kw == "bus" || kw == "assume" || kw == "padding" ||
                 kw == "adequacy" || kw == "free") {
        if (!table) {
          error(at, "'" + kw + "' before any 'table'");
          continue;
        }
        if (kw == "column") parse_column(*table, l, at);
        else if (kw == "constraint") parse_constraint(*table, l, at);
        else if (kw == "bus") parse_bus(*table, l, at);
        else if (kw == "padding") parse_padding(*table, l, at);
        else if (kw == "adequacy") parse_adequacy(*table, l, at);
        else if (kw == "free") parse_free(*table, l, at);
        else parse_assume(*table, l, at);
      } else {
        error(at, "unknown statement '" + kw + "' (expected max_degree, public, busdef, table, column, constraint, bus, assume, padding, adequacy, free, optionally after whole or segmented)");
      }
    }
    if (in_block) error({f.name, line_no}, "unterminated ```zkrv block");
  }

  void parse_busdef(Line& l, const Location& at) {
    BusDecl b{l.word(), {}, at};
    if (b.name.empty() || !l.eat('(')) return error(at, "expected: busdef <name> (<field>: <type>, ...)");
    const std::string rest = l.rest();
    if (rest.empty() || rest.back() != ')') return error(at, "busdef: missing ')'");
    for (const auto& part : split_top(rest.substr(0, rest.size() - 1))) {
      Line p{part};
      const std::string fname = p.word();
      if (fname.empty() || !p.eat(':')) return error(at, "busdef field '" + part + "': expected <name>: <type>");
      const auto t = parse_type(p.word());
      if (!t || !p.done()) return error(at, "busdef field '" + fname + "': unknown type (bit, byte, u16, u32, field)");
      b.fields.push_back({fname, *t});
    }
    spec_.buses.push_back(std::move(b));
  }

  void parse_column(Table& t, Line& l, const Location& at) {
    Column c;
    c.name = l.word();
    c.at = at;
    const std::string kind = l.word(), type = l.word();
    auto doc = l.quoted();
    if (kind == "main") c.kind = ColumnKind::kMain;
    else if (kind == "preprocessed") c.kind = ColumnKind::kPreprocessed;
    else if (kind == "auxiliary") c.kind = ColumnKind::kAuxiliary;
    else return error(at, "column " + c.name + ": kind must be main, preprocessed or auxiliary, not '" + kind + "'");
    const auto ty = parse_type(type);
    if (!ty) return error(at, "column " + c.name + ": unknown type '" + type + "' (bit, byte, u16, u32, field)");
    c.type = *ty;
    if (!doc || !l.done()) return error(at, "column " + c.name + ": expected a quoted description at the end");
    c.doc = *doc;
    if (t.column_index(c.name) >= 0) return error(at, "duplicate column '" + c.name + "'");
    t.columns.push_back(std::move(c));
  }

  bool check_id(const Table& t, const std::string& id, char kind, const Location& at) {
    const std::string prefix = t.name + ":" + kind + ":";
    if (id.rfind(prefix, 0) != 0 || id.size() == prefix.size() ||
        id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_", prefix.size()) != std::string::npos) {
      error(at, "ID '" + id + "' must look like " + prefix + "<name> (lower case, digits, _)");
      return false;
    }
    if (!ids_.insert(id).second) {
      error(at, "duplicate ID '" + id + "'");
      return false;
    }
    return true;
  }

  std::unique_ptr<Expr> expr(const std::string& text, const Location& at, const std::string& where) {
    ParseFailure f;
    auto e = parse_expr(text, &f);
    if (!e) error(at, where + ": " + f.what + " at column " + std::to_string(f.column + 1) + " of '" + text + "'");
    return e;
  }

  void parse_constraint(Table& t, Line& l, const Location& at) {
    Constraint c;
    c.id = l.token();
    c.at = at;
    const std::string rows = l.word();
    if (!l.eat(':')) return error(at, "expected: constraint <id> <first|last|transition|every>: <expression>");
    if (rows == "first") c.rows = Rows::kFirst;
    else if (rows == "last") c.rows = Rows::kLast;
    else if (rows == "transition") c.rows = Rows::kTransition;
    else if (rows == "every") c.rows = Rows::kEvery;
    else return error(at, "constraint " + c.id + ": rows must be first, last, transition or every, not '" + rows + "'");
    if (!check_id(t, c.id, 'c', at)) return;
    c.expr = expr(l.rest(), at, c.id);
    if (!c.expr) return;
    t.ids.push_back(c.id);
    t.constraints.push_back(std::move(c));
  }

  void parse_bus(Table& t, Line& l, const Location& at) {
    BusInteraction b;
    b.id = l.token();
    b.at = at;
    const std::string dir = l.word();
    b.bus = l.word();
    if (dir != "send" && dir != "receive")
      return error(at, "bus " + b.id + ": expected send or receive, not '" + dir + "'");
    b.send = dir == "send";
    if (!l.eat('(')) return error(at, "bus " + b.id + ": expected '(' and the tuple");
    // the tuple runs to the matching ')'
    std::string rest = l.rest();
    int depth = 1;
    size_t i = 0;
    for (; i < rest.size() && depth; ++i) depth += rest[i] == '(' ? 1 : rest[i] == ')' ? -1 : 0;
    if (depth) return error(at, "bus " + b.id + ": missing ')'");
    const std::string tuple = rest.substr(0, i - 1);
    Line after{rest.substr(i)};
    if (!check_id(t, b.id, 'b', at)) return;
    for (const auto& part : split_top(tuple)) {
      auto e = expr(part, at, b.id);
      if (!e) return;
      b.tuple.push_back(std::move(e));
    }
    if (!after.done()) {
      if (after.word() != "mult") return error(at, "bus " + b.id + ": expected 'mult <expression>' after the tuple");
      b.mult = expr(after.rest(), at, b.id);
      if (!b.mult) return;
    } else {
      b.mult = parse_expr("1", nullptr);
    }
    t.ids.push_back(b.id);
    t.buses.push_back(std::move(b));
  }

  void parse_assume(Table& t, Line& l, const Location& at) {
    Assumption a{l.token(), "", at};
    auto text = l.quoted();
    if (!text || !l.done()) return error(at, "expected: assume <id> \"<text>\"");
    if (!check_id(t, a.id, 'a', at)) return;
    a.text = *text;
    t.ids.push_back(a.id);
    t.assumptions.push_back(std::move(a));
  }

  void parse_padding(Table& t, Line& l, const Location& at) {
    if (t.padding) return error(at, "a second 'padding' in table " + t.name);
    Padding p;
    p.at = at;
    std::set<std::string> seen;
    while (!l.done()) {
      const std::string item = l.token();
      const size_t eq = item.find('=');
      const std::string col = item.substr(0, eq), v = eq == std::string::npos ? "" : item.substr(eq + 1);
      if (eq == std::string::npos || t.column_index(col) < 0 || v.empty())
        return error(at, "padding: '" + item + "' is not <column>=<value> or <column>=row for a column declared above");
      if (!seen.insert(col).second) return error(at, "padding: column '" + col + "' named twice");
      if (v == "row") {
        p.counting.push_back(col);
      } else if (v.size() <= 19 && v.find_first_not_of("0123456789") == std::string::npos) {
        p.fixed.emplace_back(col, std::stoull(v));
      } else {
        return error(at, "padding: the value of '" + col + "' must be a decimal number or 'row'");
      }
    }
    t.padding = std::move(p);
  }

  void parse_adequacy(Table& t, Line& l, const Location& at) {
    AdequacyMark a;
    a.id = l.token();
    a.at = at;
    const std::string kind = l.word();
    if (kind == "implied") {  // [descent <receive ID> <field> <L>] [using <ID> ...]: the certificate
      size_t mark = l.pos;
      if (l.word() == "descent") {
        Descent d;
        d.receive = l.token();
        const std::string field = l.token(), from = l.token();
        auto number = [](const std::string& x, uint64_t& v) {
          if (x.empty() || x.size() > 19 || !std::all_of(x.begin(), x.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
            return false;
          v = std::stoull(x);
          return true;
        };
        uint64_t f = 0;
        if (d.receive.empty() || !number(field, f) || !number(from, d.from))
          return error(at, "expected: adequacy <constraint ID> implied descent <receive ID> <field> <L> [using <ID> ...] \"<text>\"");
        d.field = static_cast<size_t>(f);
        const auto r = std::find_if(t.buses.begin(), t.buses.end(), [&](const BusInteraction& b) { return b.id == d.receive; });
        if (r == t.buses.end() || r->send || d.field >= r->tuple.size())
          return error(at, "adequacy: descent through '" + d.receive + "', which is not a receive of table " + t.name +
                               " declared above with a field " + field);
        a.descent = std::move(d);
        mark = l.pos;
      } else if (l.pos = mark; l.word() == "once") {
        Once o;
        o.receive = l.token();
        const auto r = std::find_if(t.buses.begin(), t.buses.end(), [&](const BusInteraction& b) { return b.id == o.receive; });
        if (r == t.buses.end() || r->send)
          return error(at, "adequacy: once through '" + o.receive + "', which is not a receive of table " + t.name +
                               " declared above");
        for (mark = l.pos; l.word() == "order"; mark = l.pos) {
          Order ord;
          ord.table = l.token(), ord.guard = l.token(), ord.key = l.token();
          auto bad = [](const std::string& x) { return x.empty() || x[0] == '"'; };
          if (bad(ord.table) || bad(ord.guard) || bad(ord.key))
            return error(at, "expected: adequacy <constraint ID> implied once <receive ID> "
                             "[order <table> <guard> <key> ...] [using <ID> ...] \"<text>\"");
          o.orders.push_back(std::move(ord));
        }
        l.pos = mark;
        a.once = std::move(o);
      } else {
        l.pos = mark;
      }
      if (l.word() == "using") {
        for (l.skip(); l.pos < l.text.size() && l.text[l.pos] != '"'; l.skip()) a.using_ids.push_back(l.token());
        if (a.using_ids.empty()) return error(at, "adequacy: 'using' names no constraint");
      } else {
        l.pos = mark;
      }
    }
    auto text = l.quoted();
    if (a.id.empty() || (kind != "implied" && kind != "open") || !text || !l.done())
      return error(at, "expected: adequacy <constraint ID> implied [descent <receive ID> <field> <L>|once <receive ID> "
                       "[order <table> <guard> <key> ...]] [using <ID> ...]|open \"<text>\"");
    auto declared = [&](const std::string& id) {
      return std::any_of(t.constraints.begin(), t.constraints.end(), [&](const Constraint& c) { return c.id == id; }) ||
             std::any_of(t.buses.begin(), t.buses.end(), [&](const BusInteraction& b) { return b.id == id; });
    };
    for (const auto& u : a.using_ids)  // a descent's (or once's) IDs of other tables are the solver's to resolve
      if (u == a.id || (((!a.descent && !a.once) || u.rfind(t.name + ":", 0) == 0) && !declared(u)))
        return error(at, "adequacy: using '" + u + "', which is not another constraint or an interaction of table " + t.name +
                             " declared above");
    a.kind = kind == "implied" ? AdequacyMark::Kind::kImplied : AdequacyMark::Kind::kOpen;
    a.text = *text;
    if (std::none_of(t.constraints.begin(), t.constraints.end(), [&](const Constraint& c) { return c.id == a.id; }))
      return error(at, "adequacy: '" + a.id + "' is not a constraint of table " + t.name + " declared above");
    for (const auto& m : t.adequacy)
      if (m.id == a.id) return error(at, "adequacy: '" + a.id + "' marked twice");
    t.adequacy.push_back(std::move(a));
  }

  void parse_free(Table& t, Line& l, const Location& at) {
    FreeMark m;
    m.column = l.token();
    m.at = at;
    if (m.column.empty() || l.word() != "unless" || l.done())
      return error(at, "expected: free <column> unless <expression>");
    const int c = t.column_index(m.column);
    if (c < 0 || t.columns[static_cast<size_t>(c)].kind != ColumnKind::kMain)
      return error(at, "free: '" + m.column + "' is not a main column of table " + t.name + " declared above");
    for (const auto& f : t.free)
      if (f.column == m.column) return error(at, "free: '" + m.column + "' marked twice");
    m.unless = expr(l.rest(), at, "free " + m.column);
    if (!m.unless) return;
    t.free.push_back(std::move(m));
  }

  // Names resolve to this table's columns or to public values (turned into kPublic nodes).
  void resolve(Expr& e, const Table& t, bool allow_next, const std::string& id, const Location& at) {
    if (e.op == Expr::Op::kColumn || e.op == Expr::Op::kNext) {
      const bool is_col = t.column_index(e.name) >= 0;
      const bool is_pub = std::any_of(spec_.publics.begin(), spec_.publics.end(), [&](auto& p) { return p.name == e.name; });
      if (!is_col && !is_pub) error(at, id + ": unknown name '" + e.name + "' (not a column of " + t.name + " nor a public value)");
      if (e.op == Expr::Op::kNext && !allow_next) error(at, id + ": next-row reference " + e.name + "' outside a transition constraint");
      if (e.op == Expr::Op::kNext && !is_col && is_pub) error(at, id + ": a public value has no next row");
      if (!is_col && is_pub && e.op == Expr::Op::kColumn) e.op = Expr::Op::kPublic;
    }
    for (auto& a : e.args) resolve(*a, t, allow_next, id, at);
  }

  // The range an expression is known to lie in: a single column's type, or a constant's.
  std::optional<ColumnType> known_range(const Expr& e, const Table& t) {
    if (e.op == Expr::Op::kColumn) {
      const int i = t.column_index(e.name);
      return i >= 0 ? std::optional(t.columns[static_cast<size_t>(i)].type) : std::nullopt;
    }
    if (e.op == Expr::Op::kConst) {
      for (auto ty : {ColumnType::kBit, ColumnType::kByte, ColumnType::kU16, ColumnType::kU32})
        if (e.value < type_bound(ty)) return ty;
      return ColumnType::kField;
    }
    return std::nullopt;
  }

  void check() {
    if (spec_.max_degree < 2) error({"spec", 0}, "max_degree must be declared (at least 2)");
    std::set<std::string> bus_names;
    for (const auto& b : spec_.buses)
      if (!bus_names.insert(b.name).second) error(b.at, "duplicate busdef '" + b.name + "'");
    std::set<std::string> table_names;
    std::map<std::string, std::pair<int, int>> bus_use;  // sends, receives
    for (auto& t : spec_.tables) {
      if (!table_names.insert(t.name).second) error({t.file, 0}, "duplicate table '" + t.name + "'");
      for (auto& c : t.constraints) {
        resolve(*c.expr, t, c.rows == Rows::kTransition, c.id, c.at);
        if (degree(*c.expr) > spec_.max_degree)
          error(c.at, c.id + ": degree " + std::to_string(degree(*c.expr)) + " exceeds max_degree " + std::to_string(spec_.max_degree));
      }
      for (auto& m : t.free) resolve(*m.unless, t, true, "free " + m.column, m.at);
      for (auto& b : t.buses) {
        const BusDecl* d = spec_.bus(b.bus);
        if (!d) {
          error(b.at, b.id + ": unknown bus '" + b.bus + "'");
          continue;
        }
        auto& use = bus_use[b.bus];
        (b.send ? use.first : use.second)++;
        if (b.tuple.size() != d->fields.size())
          error(b.at, b.id + ": bus " + b.bus + " carries " + std::to_string(d->fields.size()) + " values, the tuple has " +
                          std::to_string(b.tuple.size()));
        unsigned tuple_degree = 0;
        for (size_t i = 0; i < b.tuple.size(); ++i) {
          resolve(*b.tuple[i], t, false, b.id, b.at);
          tuple_degree = std::max(tuple_degree, degree(*b.tuple[i]));
          if (i < d->fields.size() && d->fields[i].type != ColumnType::kField) {
            const auto r = known_range(*b.tuple[i], t);
            if (!r || *r > d->fields[i].type)
              error(b.at, b.id + ": bus " + b.bus + " field " + d->fields[i].name + " is " + type_name(d->fields[i].type) +
                              ", but '" + to_string(*b.tuple[i]) + "' is not known to be in that range");
          }
        }
        resolve(*b.mult, t, false, b.id, b.at);
        if (tuple_degree + degree(*b.mult) > spec_.max_degree)
          error(b.at, b.id + ": tuple degree + multiplicity degree exceeds max_degree");
      }
    }
    for (const auto& b : spec_.buses) {
      const auto u = bus_use[b.name];
      if (u.first == 0 || u.second == 0)
        error(b.at, "bus " + b.name + " has " + (u.first == 0 ? "no sender" : "no receiver"));
    }
  }

  Spec spec_;
  std::set<std::string> ids_;
  std::vector<SpecError> errors_;
};

}  // namespace

LoadResult load_spec(const std::vector<SourceFile>& files, Mode mode) { return Loader(mode).run(files); }

LoadResult load_spec_dir(const std::string& dir, Mode mode) {
  std::vector<SourceFile> files;
  std::vector<std::filesystem::path> paths;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    if (e.path().extension() == ".md" && e.path().filename() != "air.md" && e.path().filename() != "README.md")
      paths.push_back(e.path());
  if (ec) return {std::nullopt, {{{dir, 0}, "cannot read the spec folder: " + ec.message()}}};
  std::sort(paths.begin(), paths.end());
  paths.insert(paths.begin(), std::filesystem::path(dir) / "air.md");
  for (const auto& p : paths) {
    std::ifstream in(p);
    if (!in) return {std::nullopt, {{{p.string(), 0}, "cannot open"}}};
    std::stringstream ss;
    ss << in.rdbuf();
    files.push_back({p.string(), ss.str()});
  }
  return load_spec(files, mode);
}

}  // namespace zkrv::spec::air
