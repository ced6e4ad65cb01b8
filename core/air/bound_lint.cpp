#include "core/air/bound_lint.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "core/air/layout.h"

namespace zkrv::core {
namespace {

using spec::air::ColumnKind;
using spec::air::ColumnType;
using spec::air::Expr;
using spec::air::Table;

// The columns of a definition are enumerated over {0, 1}: at most 2^16 assignments.
constexpr size_t kMaxDefinitionColumns = 16;

// What an expression reads: its columns (distinct, in order of first mention), whether any is a
// next-row reference, whether it reads a public value.
struct Reads {
  std::vector<std::string> columns;
  bool next = false, publics = false;
  bool only(std::initializer_list<std::string> names) const {
    if (next || publics || columns.size() != names.size()) return false;
    return std::all_of(names.begin(), names.end(), [&](const std::string& n) {
      return std::find(columns.begin(), columns.end(), n) != columns.end();
    });
  }
  bool local() const { return !next && !publics; }
  bool mentions(const std::string& c) const {
    return std::find(columns.begin(), columns.end(), c) != columns.end();
  }
};
Reads reads(const Expr& e) {
  struct Collect {
    Reads& r;
    int constant(uint64_t) { return 0; }
    int column(const std::string& name, bool next) {
      r.next = r.next || next;
      if (!r.mentions(name)) r.columns.push_back(name);
      return 0;
    }
    int public_value(const std::string&) {
      r.publics = true;
      return 0;
    }
    int add(int, int) { return 0; }
    int sub(int, int) { return 0; }
    int mul(int, int) { return 0; }
    int neg(int) { return 0; }
    int pow(int, uint64_t) { return 0; }
  };
  Reads r;
  spec::air::fold<int>(e, Collect{r});
  return r;
}

// The degree of e in the one column c (the others count as constants).
unsigned degree_in(const Expr& e, const std::string& c) {
  struct Degree {
    const std::string& c;
    unsigned constant(uint64_t) const { return 0; }
    unsigned column(const std::string& name, bool) const { return name == c ? 1 : 0; }
    unsigned public_value(const std::string&) const { return 0; }
    unsigned add(unsigned a, unsigned b) const { return std::max(a, b); }
    unsigned sub(unsigned a, unsigned b) const { return std::max(a, b); }
    unsigned mul(unsigned a, unsigned b) const { return a + b; }
    unsigned neg(unsigned a) const { return a; }
    unsigned pow(unsigned a, uint64_t k) const { return a * static_cast<unsigned>(k); }
  };
  return spec::air::fold<unsigned>(e, Degree{c});
}

using Assignment = std::vector<std::pair<std::string, uint64_t>>;
// e at a point (a local expression; a column the point does not name is 0).
uint64_t at(const Expr& e, const Assignment& point) {
  return spec::air::eval(e, [&](const std::string& name, bool) {
    for (const auto& [n, v] : point)
      if (n == name) return v;
    return uint64_t{0};
  });
}
std::string show(const Assignment& point) {
  std::string s;
  for (const auto& [n, v] : point) s += (s.empty() ? "" : " ") + n + "=" + std::to_string(v);
  return s.empty() ? "always" : "where " + s;
}

// Whether e equals form on every point of {0..n-1}^k, the k columns in `names`. When e's degree
// in each column is below n, this is equality of polynomials (tensor-product interpolation).
bool equal_on_grid(const Expr& e, const std::vector<std::string>& names, uint64_t n,
                   const std::function<uint64_t(const std::vector<uint64_t>&)>& form) {
  std::vector<uint64_t> x(names.size(), 0);
  for (;;) {
    Assignment point;
    for (size_t i = 0; i < names.size(); ++i) point.emplace_back(names[i], x[i]);
    if (at(e, point) != form(x)) return false;
    size_t i = 0;
    while (i < x.size() && ++x[i] == n) x[i++] = 0;
    if (i == x.size()) return true;
  }
}

// Σ members = b (or = 1 without b): with every column an enforced bit, at most one member is 1.
struct OneHot {
  std::string id;
  std::vector<std::string> members;
  std::string b;  // empty: the sum is the constant 1
};
std::vector<OneHot> one_hot_groups(const Table& t) {
  std::vector<OneHot> groups;
  const uint64_t one = 1, minus_one = spec::air::fp_sub(0, 1);
  for (const auto& c : t.constraints) {
    const Reads r = reads(*c.expr);
    if (c.rows != spec::air::Rows::kEvery || !r.local() || spec::air::degree(*c.expr) != 1)
      continue;
    // affine: a constant and one coefficient per column determine it
    const uint64_t k0 = at(*c.expr, {});
    std::vector<std::string> plus, minus;
    bool unit = true;
    for (const auto& v : r.columns) {
      const uint64_t coefficient = spec::air::fp_sub(at(*c.expr, {{v, 1}}), k0);
      if (coefficient == one)
        plus.push_back(v);
      else if (coefficient == minus_one)
        minus.push_back(v);
      else
        unit = false;
    }
    if (!unit) continue;
    if (k0 == 0 && minus.size() == 1 && plus.size() >= 2)
      groups.push_back({c.id, plus, minus[0]});
    else if (k0 == 0 && plus.size() == 1 && minus.size() >= 2)
      groups.push_back({c.id, minus, plus[0]});
    else if ((k0 == minus_one && minus.empty()) || (k0 == one && plus.empty()))
      groups.push_back({c.id, r.columns, ""});
  }
  return groups;
}

struct Enforcement {
  std::vector<std::string> by, given;
  std::string failure;
};

class TableLint {
 public:
  TableLint(const spec::air::Spec& spec, const Table& t) : spec_(spec), t_(t), groups_(one_hot_groups(t)) {
    for (const auto& c : t.constraints) reads_.push_back(reads(*c.expr));
  }

  // What enforces the column's declared type.
  Enforcement column(const std::string& name) {
    if (auto it = done_.find(name); it != done_.end()) return it->second;
    if (active_.count(name)) return {{}, {}, "its type is enforced only through itself"};
    active_.insert(name);
    Enforcement e = enforce(t_.columns[static_cast<size_t>(t_.column_index(name))]);
    active_.erase(name);
    // a failure met inside a cycle may be an artefact of the cycle: only top-level ones are final
    if (e.failure.empty() || active_.empty()) done_[name] = e;
    return e;
  }

 private:
  const spec::air::Spec& spec_;
  const Table& t_;
  std::vector<OneHot> groups_;
  std::vector<Reads> reads_;  // per constraint
  std::map<std::string, Enforcement> done_;
  std::set<std::string> active_;

  bool declared_bit(const std::string& name) const {
    const int i = t_.column_index(name);
    return i >= 0 && t_.columns[static_cast<size_t>(i)].type == ColumnType::kBit;
  }
  // A column declared bit and enforced.
  bool enforced_bit(const std::string& name) {
    return declared_bit(name) && column(name).failure.empty();
  }

  Enforcement enforce(const spec::air::Column& col) {
    if (col.kind == ColumnKind::kPreprocessed) return {{"preprocessed"}, {}, ""};
    switch (col.type) {
      case ColumnType::kBit:
        return bit(col.name);
      case ColumnType::kByte:
      case ColumnType::kU16:
        return lookup(col);
      case ColumnType::kU32:
        return {{}, {}, "no rule enforces a u32 column (none was needed)"};
      case ColumnType::kField:
        break;
    }
    return {{}, {}, "declared field"};
  }

  // byte / u16: a send of (c) on the byte (or range16) lookup, on every row.
  Enforcement lookup(const spec::air::Column& col) {
    std::string gated;
    for (const auto& b : t_.buses) {
      const bool bus_fits = b.bus == "byte" || (b.bus == "range16" && col.type == ColumnType::kU16);
      if (!b.send || !bus_fits || b.tuple.size() != 1 || b.tuple[0]->op != Expr::Op::kColumn ||
          b.tuple[0]->name != col.name)
        continue;
      const bool constant = !b.mult || (reads(*b.mult).only({}) && at(*b.mult, {}) != 0);
      if (constant) {
        if (auto why = loose_receiver(b.bus)) return {{}, {}, b.id + " sends on " + b.bus + ", but " + *why};
        return {{b.id}, {}, ""};
      }
      gated += " " + b.id + " (mult " + spec::air::to_string(*b.mult) + ")";
    }
    std::string why = "no send of (" + col.name + ") on the byte" +
                      (col.type == ColumnType::kU16 ? " or range16" : "") +
                      " lookup with a constant multiplicity";
    if (!gated.empty()) why += "; gated, so rows where the multiplicity is 0 go unchecked:" + gated;
    return {{}, {}, why};
  }

  // A range lookup checks a value only if every receiver on its bus reads one preprocessed column
  // of this row (the verifier's own table): nullopt if so, else the receiver that does not.
  std::optional<std::string> loose_receiver(const std::string& bus) const {
    for (const Table& r : spec_.tables)
      for (const auto& in : r.buses) {
        if (in.send || in.bus != bus) continue;
        const bool fixed = in.tuple.size() == 1 && in.tuple[0]->op == Expr::Op::kColumn &&
                           r.column_index(in.tuple[0]->name) >= 0 &&
                           r.columns[static_cast<size_t>(r.column_index(in.tuple[0]->name))].kind ==
                               spec::air::ColumnKind::kPreprocessed;
        if (!fixed) return in.id + " receives something other than one preprocessed column";
      }
    return std::nullopt;
  }

  Enforcement bit(const std::string& c) {
    std::vector<std::string> notes;
    for (size_t i = 0; i < t_.constraints.size(); ++i) {
      const auto& k = t_.constraints[i];
      if (k.rows != spec::air::Rows::kEvery || !reads_[i].local() || !reads_[i].mentions(c))
        continue;
      if (auto e = square(c, i, notes)) return *e;
      if (auto e = definition(c, i, notes)) return *e;
    }
    if (auto e = indicator(c)) return *e;
    std::string why =
        "no every constraint makes it a bit (c(c-1), c(c-b) with b a bit, a definition with its "
        "root "
        "in {0,1}, or x(1-c) with c(xy-1))";
    for (const auto& n : notes) why += "; " + n;
    return {{}, {}, why};
  }

  // k·c·(c − 1), or k·c·(c − b) with b an enforced bit.
  std::optional<Enforcement> square(const std::string& c, size_t i,
                                    std::vector<std::string>& notes) {
    const Expr& e = *t_.constraints[i].expr;
    const std::string& id = t_.constraints[i].id;
    if (spec::air::degree(e) > 2) return std::nullopt;
    if (reads_[i].only({c})) {
      // degree <= 2 in c, 0 at 0 and 1, not at 2: k c (c - 1) with k = e(2) / 2
      if (at(e, {{c, 0}}) == 0 && at(e, {{c, 1}}) == 0 && at(e, {{c, 2}}) != 0)
        return Enforcement{{id}, {}, ""};
      return std::nullopt;
    }
    if (reads_[i].columns.size() != 2) return std::nullopt;
    const std::string& b = reads_[i].columns[0] == c ? reads_[i].columns[1] : reads_[i].columns[0];
    const uint64_t k = at(e, {{c, 1}, {b, 0}});
    const bool form =
        k != 0 && equal_on_grid(e, {c, b}, 3, [&](const std::vector<uint64_t>& x) {
          return spec::air::fp_mul(k, spec::air::fp_mul(x[0], spec::air::fp_sub(x[0], x[1])));
        });
    if (!form || !declared_bit(b)) return std::nullopt;
    if (!enforced_bit(b)) {
      notes.push_back(id + " needs " + b + ", which is not enforced");
      return std::nullopt;
    }
    return Enforcement{{id}, {b}, ""};
  }

  // Linear in c with its other columns enforced bits: c's value on every admissible assignment of
  // them (no two 1s in a one-hot group) is the root, which must exist and be 0 or 1.
  std::optional<Enforcement> definition(const std::string& c, size_t i,
                                        std::vector<std::string>& notes) {
    const Expr& e = *t_.constraints[i].expr;
    const std::string& id = t_.constraints[i].id;
    if (degree_in(e, c) != 1) return std::nullopt;
    std::vector<std::string> others;
    for (const auto& v : reads_[i].columns)
      if (v != c) others.push_back(v);
    if (others.size() > kMaxDefinitionColumns) {
      notes.push_back(id + " reads too many columns to enumerate");
      return std::nullopt;
    }
    for (const auto& v : others) {
      if (!declared_bit(v)) return std::nullopt;  // not a definition from bits: no note
      if (!enforced_bit(v)) {
        notes.push_back(id + " needs " + v + ", which is not enforced");
        return std::nullopt;
      }
    }
    std::map<size_t, bool> valid;  // group index: all its columns enforced bits
    std::vector<std::string> used;
    auto admissible = [&](const Assignment& point) {
      for (size_t g = 0; g < groups_.size(); ++g) {
        size_t ones = 0;
        for (const auto& [n, v] : point)
          if (v == 1 && std::find(groups_[g].members.begin(), groups_[g].members.end(), n) !=
                            groups_[g].members.end())
            ++ones;
        if (ones < 2) continue;
        if (!valid.count(g)) {
          bool ok = groups_[g].b.empty() || enforced_bit(groups_[g].b);
          for (const auto& m : groups_[g].members) ok = ok && enforced_bit(m);
          valid[g] = ok;
        }
        if (!valid[g]) continue;
        if (std::find(used.begin(), used.end(), groups_[g].id) == used.end())
          used.push_back(groups_[g].id);
        return false;
      }
      return true;
    };
    for (uint64_t mask = 0; mask < (uint64_t{1} << others.size()); ++mask) {
      Assignment point;
      for (size_t j = 0; j < others.size(); ++j) point.emplace_back(others[j], (mask >> j) & 1);
      if (!admissible(point)) continue;
      point.emplace_back(c, 0);
      const uint64_t at0 = at(e, point);
      point.back().second = 1;
      const uint64_t at1 = at(e, point);
      point.pop_back();
      if (at0 == at1) return std::nullopt;  // c is free there: a gate, not a definition
      if (at0 != 0 && at1 != 0) {
        notes.push_back(id + " gives " + c + " a value other than 0 or 1 " + show(point));
        return std::nullopt;
      }
    }
    Enforcement out{{id}, others, ""};
    out.by.insert(out.by.end(), used.begin(), used.end());
    return out;
  }

  // k1·x·(1 − c) and k2·c·(x·y − 1): c ≠ 0 forces x·y = 1, so x ≠ 0, so c = 1.
  std::optional<Enforcement> indicator(const std::string& c) {
    for (size_t i = 0; i < t_.constraints.size(); ++i) {
      const auto& set = t_.constraints[i];
      if (set.rows != spec::air::Rows::kEvery || reads_[i].columns.size() != 2 ||
          !reads_[i].mentions(c) || spec::air::degree(*set.expr) > 2)
        continue;
      const std::string& x =
          reads_[i].columns[0] == c ? reads_[i].columns[1] : reads_[i].columns[0];
      if (!reads_[i].only({c, x})) continue;
      const uint64_t k1 = at(*set.expr, {{x, 1}, {c, 0}});
      if (k1 == 0 || !equal_on_grid(*set.expr, {x, c}, 3, [&](const std::vector<uint64_t>& v) {
            return spec::air::fp_mul(k1, spec::air::fp_mul(v[0], spec::air::fp_sub(1, v[1])));
          }))
        continue;
      for (size_t j = 0; j < t_.constraints.size(); ++j) {
        const auto& inv = t_.constraints[j];
        if (inv.rows != spec::air::Rows::kEvery || reads_[j].columns.size() != 3 ||
            !reads_[j].local() || !reads_[j].mentions(c) || !reads_[j].mentions(x) ||
            spec::air::degree(*inv.expr) > 3)
          continue;
        std::string y;
        for (const auto& v : reads_[j].columns)
          if (v != c && v != x) y = v;
        const uint64_t k2 = spec::air::fp_sub(0, at(*inv.expr, {{c, 1}, {x, 0}, {y, 0}}));
        if (k2 != 0 && equal_on_grid(*inv.expr, {c, x, y}, 4, [&](const std::vector<uint64_t>& v) {
              const uint64_t xy1 = spec::air::fp_sub(spec::air::fp_mul(v[1], v[2]), 1);
              return spec::air::fp_mul(k2, spec::air::fp_mul(v[0], xy1));
            }))
          return Enforcement{{set.id, inv.id}, {}, ""};
      }
    }
    return std::nullopt;
  }
};

}  // namespace

std::vector<BoundReliance> lint_bounds(const spec::air::Spec& spec) {
  std::vector<BoundReliance> out;
  for (const Table& t : spec.tables) {
    TableLint lint(spec, t);
    for (const auto& b : t.buses) {
      if (!b.mult || std::isinf(value_bound(t, *b.mult))) continue;
      for (const auto& name : reads(*b.mult).columns) {
        const auto& col = t.columns[static_cast<size_t>(t.column_index(name))];
        if (col.type == ColumnType::kField) continue;  // not with a finite bound
        Enforcement e = lint.column(name);
        out.push_back({t.name, b.id, name, col.type, std::move(e.by), std::move(e.given),
                       std::move(e.failure)});
      }
    }
  }
  return out;
}

std::string to_string(const BoundReliance& r) {
  std::string s =
      r.table + " " + r.interaction + " " + r.column + " (" + spec::air::type_name(r.type) + "): ";
  if (!r.enforced()) return s + "NOT ENFORCED: " + r.failure;
  for (size_t i = 0; i < r.enforced_by.size(); ++i) s += (i ? " + " : "") + r.enforced_by[i];
  if (!r.given.empty()) {
    s += " [given";
    for (const auto& g : r.given) s += " " + g;
    s += "]";
  }
  return s;
}

}  // namespace zkrv::core
