// What a table states about itself (facts.h): which columns are bits, how far an interaction's
// fields are bounded, what a bus carries from one side to the other, the token pairs that order a
// bus's tuples, the columns that constraints define, and the items a certificate names.
#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "spec/air/expr.h"
#include "tools/air_solve/facts.h"

namespace zkrv::air_solve::internal {

std::string bit_column_name(const Expr& e) {
  if (e.op != Expr::Op::kMul) return {};
  auto is_col = [](const Expr& a) { return a.op == Expr::Op::kColumn ? a.name : std::string(); };
  auto is_shift = [&](const Expr& a) {  // x - 1 or 1 - x
    if (a.op != Expr::Op::kSub) return std::string();
    const Expr &l = *a.args[0], &r = *a.args[1];
    if (l.op == Expr::Op::kColumn && r.op == Expr::Op::kConst && r.value == 1) return l.name;
    if (r.op == Expr::Op::kColumn && l.op == Expr::Op::kConst && l.value == 1) return r.name;
    return std::string();
  };
  for (int k = 0; k < 2; ++k) {
    const std::string x = is_col(*e.args[k]), y = is_shift(*e.args[1 - k]);
    if (!x.empty() && x == y) return x;
  }
  return {};
}

bool TableFacts::is_bit(const std::string& col) const {
  for (const auto& c : t.constraints)
    if (c.rows == Rows::kEvery && (!skip || c.id != *skip) && bit_column_name(*c.expr) == col) return true;
  return false;
}

bool TableFacts::nonnegative(const Expr& e) const {
  if (e.op == Expr::Op::kConst) return e.value < (uint64_t{1} << 32);  // a small non-negative integer (p - 1 is -1)
  if (e.op == Expr::Op::kAdd) return nonnegative(*e.args[0]) && nonnegative(*e.args[1]);
  return e.op == Expr::Op::kColumn && is_bit(e.name);
}

uint64_t TableFacts::bound(const Expr& e, const Expr* mult) const {
  if (e.op == Expr::Op::kConst) return e.value == kNoBound ? kNoBound : e.value + 1;
  if (e.op != Expr::Op::kColumn) return kNoBound;
  if (is_bit(e.name)) return 2;
  uint64_t best = kNoBound;
  for (const auto& c : t.columns)  // the verifier fills a preprocessed column, within its type
    if (c.name == e.name && c.kind == spec::air::ColumnKind::kPreprocessed) best = spec::air::type_bound(c.type);
  const std::string m = mult ? spec::air::to_string(*mult) : "1";
  for (const auto& b : t.buses) {
    if (!b.send || b.tuple.size() != 1 || b.tuple[0]->op != Expr::Op::kColumn || b.tuple[0]->name != e.name) continue;
    const uint64_t k = b.bus == "byte" ? 256 : b.bus == "range16" ? 65536 : kNoBound;
    if (k == kNoBound || (b.mult && !nonnegative(*b.mult))) continue;
    const bool always = !b.mult || (b.mult->op == Expr::Op::kConst && b.mult->value != 0);
    if (always || spec::air::to_string(*b.mult) == m) best = std::min(best, k);
  }
  return best;
}

std::vector<const Expr*> factors_of(const Expr& e) {
  std::vector<const Expr*> factors;
  std::function<void(const Expr&)> flatten = [&](const Expr& x) {
    if (x.op == Expr::Op::kMul) flatten(*x.args[0]), flatten(*x.args[1]);
    else if (x.op == Expr::Op::kNeg) flatten(*x.args[0]);
    else factors.push_back(&x);
  };
  flatten(e);
  return factors;
}

// The token pairs of a table on a bus: a receive and a send with the same key (field 0) and the
// same multiplicity, whose timestamps (field 1) the table orders where that multiplicity is not
// zero: a constraint `mult * (ts_out - ts_in - 1 - d0 - 65536 d1)` (any arrangement of those
// terms) whose d0 and d1 it sends to range16 under the same multiplicity. Each pair is counted
// once; the interactions of the bus that are in no pair are its own. (receive, send) indices.
std::vector<std::pair<size_t, size_t>> token_pairs(const Table& t, const TableFacts& f, const std::string& bus) {
  std::vector<std::pair<size_t, size_t>> pairs;
  std::set<size_t> used;
  auto str = [](const Expr* e) { return e ? spec::air::to_string(*e) : std::string("1"); };
  // L == out - in - 1 - d0 - 65536 d1 for columns d0, d1 of L below 2^16 (checked at random points)
  auto orders = [&](const Expr& l, const Expr& out, const Expr& in, const Expr* mult) {
    std::vector<std::string> small;
    spec::air::names(l, [&](const std::string& n, bool next) {
      if (next) return;
      Expr col;
      col.op = Expr::Op::kColumn, col.name = n;
      if (f.bound(col, mult) <= 65536 && std::find(small.begin(), small.end(), n) == small.end()) small.push_back(n);
    });
    for (const auto& d0 : small)
      for (const auto& d1 : small) {
        if (d0 == d1) continue;
        bool same = true;
        for (uint64_t seed = 1; seed <= 4 && same; ++seed) {
          std::map<std::pair<std::string, bool>, uint64_t> env;
          auto look = [&](const std::string& n, bool next) {
            auto [it, fresh] = env.emplace(std::make_pair(n, next), 0);
            if (fresh) it->second = spec::air::fp_mul(0x9e3779b97f4a7c15ull % kPValue + seed, env.size() * 0x2545f4914f6cdd1dull % kPValue + seed);
            return it->second;
          };
          const uint64_t want = spec::air::fp_sub(
              spec::air::fp_sub(spec::air::fp_sub(spec::air::fp_sub(spec::air::eval(out, look), spec::air::eval(in, look)), 1),
                                look(d0, false)),
              spec::air::fp_mul(65536, look(d1, false)));
          same = spec::air::eval(l, look) == want;
        }
        if (same) return true;
      }
    return false;
  };
  for (size_t r = 0; r < t.buses.size(); ++r) {
    const auto& in = t.buses[r];
    if (in.bus != bus || in.send || in.tuple.size() < 2) continue;
    for (size_t s = 0; s < t.buses.size(); ++s) {
      const auto& out = t.buses[s];
      if (out.bus != bus || !out.send || used.count(s) || out.tuple.size() != in.tuple.size() ||
          str(out.tuple[0].get()) != str(in.tuple[0].get()) || str(out.mult.get()) != str(in.mult.get()))
        continue;
      bool ordered = false;
      for (const auto& c : t.constraints) {
        if (c.rows != Rows::kEvery || (f.skip && c.id == *f.skip)) continue;
        const auto factors = factors_of(*c.expr);
        if (factors.size() != 2) continue;
        for (int k = 0; k < 2 && !ordered; ++k)
          ordered = str(factors[k]) == str(in.mult.get()) && orders(*factors[1 - k], *out.tuple[1], *in.tuple[1], in.mult.get());
        if (ordered) break;
      }
      if (!ordered) continue;
      used.insert(s);
      pairs.emplace_back(r, s);
      break;
    }
  }
  return pairs;
}

// Bounds that a bus carries from one side to the other. Where every interaction of one side of a
// bus, in every table, has a non-negative integer multiplicity (without `skip` in `table`), a
// tuple that side puts on the bus with a nonzero multiplicity has a nonzero count there (the
// counts stay below p), and LogUp's balance asks the same count of it from the other side: some
// interaction of the other side has that tuple with a nonzero multiplicity, whatever the signs
// of that side's multiplicities. So the side may assume, on each field, the largest bound that
// the interactions of the other side enforce where their multiplicities are not zero (a lookup
// into a table of preprocessed columns: the sent tuple is one of the table's rows). (bus, side of
// the interaction that may assume it, field) -> bound; only finite ones.
Carried carried_bounds(const spec::air::Spec& spec, const std::string& table, const std::string* skip) {
  std::map<std::string, bool> usable;                 // bus -> every multiplicity on it is non-negative
  std::map<std::pair<std::string, bool>, bool> counts;  // (bus, send) -> every multiplicity of that side is
  std::map<std::tuple<std::string, bool, size_t>, uint64_t> side;  // (bus, send, field) -> max bound of that side
  for (const auto& t : spec.tables) {
    const TableFacts f{t, t.name == table ? skip : nullptr};
    for (const auto& b : t.buses) {
      auto [it, fresh] = usable.emplace(b.bus, true);
      auto [ct, cfresh] = counts.emplace(std::make_pair(b.bus, b.send), true);
      if (b.mult && !f.nonnegative(*b.mult)) it->second = false, ct->second = false;
      for (size_t i = 0; i < b.tuple.size(); ++i) {
        const uint64_t k = f.bound(*b.tuple[i], b.mult.get());
        auto [at, first] = side.emplace(std::make_tuple(b.bus, b.send, i), k);
        if (!first) at->second = std::max(at->second, k);
      }
    }
  }
  // Token buses (the memory and register arguments): where some table has token pairs on a bus,
  // a pair consumes a token (key, ts_in) and makes (key, ts_out) with ts_out - ts_in in
  // [1, 2^32]. With every multiplicity a non-negative integer, each consumed token is one that is
  // sent: by an interaction in no pair, or by a pair's send with the same key. Following the
  // latter back from a pair whose key no unpaired send has would give a cycle of pairs whose
  // timestamp steps, each in [1, 2^32], sum to 0 mod p, which needs more than 2^31 rows. So every
  // key on the bus is one that its unpaired sends have, and every interaction of it may assume
  // their bound on field 0.
  std::map<std::string, uint64_t> key_bound;  // bus -> the largest key bound of its unpaired sends
  std::set<std::string> token_bus;
  for (const auto& t : spec.tables) {
    const TableFacts f{t, t.name == table ? skip : nullptr};
    std::set<std::string> buses;
    for (const auto& b : t.buses) buses.insert(b.bus);
    for (const auto& bus : buses) {
      std::set<size_t> paired;
      for (const auto& [r, s] : token_pairs(t, f, bus)) paired.insert(r), paired.insert(s), token_bus.insert(bus);
      for (size_t i = 0; i < t.buses.size(); ++i) {
        const auto& b = t.buses[i];
        if (b.bus != bus || !b.send || paired.count(i) || b.tuple.empty()) continue;
        auto [it, fresh] = key_bound.emplace(bus, 0);
        it->second = std::max(it->second, f.bound(*b.tuple[0], b.mult.get()));
      }
    }
  }
  Carried out;
  for (const auto& bus : token_bus) {
    const auto it = key_bound.find(bus);
    if (!usable[bus] || it == key_bound.end() || it->second == kNoBound) continue;
    for (bool send : {false, true}) out[std::make_tuple(bus, send, size_t{0})] = it->second;
  }
  for (const auto& [key, k] : side) {
    const auto& [bus, send, field] = key;
    const auto assumer = counts.find(std::make_pair(bus, !send));
    if (assumer == counts.end() || !assumer->second || k == kNoBound) continue;
    // a bound the senders enforce is the receivers' to assume, and the other way round; a side
    // with no interactions at all carries nothing (the verifier adds those tuples)
    auto [at, fresh] = out.emplace(std::make_tuple(bus, !send, field), k);
    if (!fresh) at->second = std::min(at->second, k);
  }
  return out;
}

std::set<std::string> witness_columns(const Table& t, const spec::air::Constraint& target) {
  std::map<std::string, int> uses;
  auto count = [&](const Expr& x) { spec::air::names(x, [&](const std::string& n, bool) { ++uses[n]; }); };
  for (const auto& c : t.constraints) count(*c.expr);
  for (const auto& b : t.buses) {
    if (b.mult) count(*b.mult);
    for (const auto& el : b.tuple) count(*el);
  }
  std::set<std::string> keep, out;
  spec::air::names(*target.expr, [&](const std::string& n, bool) { keep.insert(n); });
  for (const auto& col : t.columns)
    if (uses[col.name] == 1 && !keep.count(col.name) && col.kind == spec::air::ColumnKind::kMain) out.insert(col.name);
  return out;
}

bool names_column(const Expr& e, const std::string& col, bool at_next) {
  bool has = false;
  spec::air::names(e, [&](const std::string& n, bool next) { has = has || (n == col && next == at_next); });
  return has;
}

bool is_atom(const Expr& e) {
  return e.op == Expr::Op::kConst || e.op == Expr::Op::kColumn || e.op == Expr::Op::kNext || e.op == Expr::Op::kPublic;
}

// Definitions: a column x that an every-row constraint D (other than `skip`; among `using_ids`
// where given) makes an affine form of bit columns, D = a x + (c0 + sum of c b) with a = ±1 and
// x the only column of D that is not a bit. The implied question then states x as that form on
// every row (the same field element, since D holds there), so that a product of x and another
// column is a sum of bit-gated copies of the other (linear) rather than a product of two
// full-range integers. `cpu:c:f_system_bit` needs it: one_class makes f_system is_real minus a
// sum of flags, and f_system multiplies the instruction word and the register indices.
std::map<std::string, Form> definitions(const Table& t, const std::string* skip, const TableFacts& facts,
                                        const std::set<std::string>& witnesses, const std::vector<std::string>& using_ids) {
  std::map<std::string, Form> out;
  const Leaf this_row = [](const std::string& col, bool next) -> std::optional<Form> {
    if (next) return std::nullopt;
    return Form{0, {{{col, false}, 1}}};
  };
  for (const auto& c : t.constraints) {
    if (c.rows != Rows::kEvery || (skip && c.id == *skip)) continue;
    if (!using_ids.empty() && std::find(using_ids.begin(), using_ids.end(), c.id) == using_ids.end()) continue;
    const auto a = affine_form(*c.expr, this_row);
    if (!a) continue;
    std::string x;
    bool ok = true;
    for (const auto& [key, k] : a->terms) {
      const std::string& n = key.first;
      if (k == 0 || facts.is_bit(n)) continue;
      if (!x.empty() || (k != 1 && k != -1) || witnesses.count(n) || out.count(n)) ok = false;  // the first definition of x
      x = n;
    }
    if (!ok || x.empty()) continue;
    // x = -(c0 + sum over the bits) / a, a = ±1
    const int64_t sign = -a->terms.at({x, false});
    Form def{sign * a->c0, {}};
    for (const auto& [key, k] : a->terms)
      if (key.first != x && k != 0) def.terms[key] = sign * k;
    out.emplace(x, std::move(def));  // its terms are bits, so no definition names another
  }
  return out;
}

std::pair<std::vector<bool>, std::vector<bool>> certificate(const Table& t, const std::vector<std::string>& ids,
                                                            const std::string* skip, std::set<std::string> cols) {
  std::vector<bool> c(t.constraints.size(), false), b(t.buses.size(), false);
  for (const auto& id : ids) {
    size_t i = 0, j = 0;
    while (i < t.constraints.size() && t.constraints[i].id != id) ++i;
    while (j < t.buses.size() && t.buses[j].id != id) ++j;
    if (j < t.buses.size()) {  // an interaction named: its bounds
      b[j] = true;
      continue;
    }
    if (i == t.constraints.size() || (skip && id == *skip))
      throw std::invalid_argument("'" + id + "' is not another constraint or an interaction of table " + t.name);
    c[i] = true;
    spec::air::names(*t.constraints[i].expr, [&](const std::string& n, bool) { cols.insert(n); });
  }
  for (size_t j = 0; j < t.buses.size(); ++j) {  // and the interactions on those columns alone
    bool inside = true;
    auto look = [&](const Expr& e) { spec::air::names(e, [&](const std::string& n, bool) { inside = inside && cols.count(n); }); };
    if (t.buses[j].mult) look(*t.buses[j].mult);
    for (const auto& el : t.buses[j].tuple) look(*el);
    b[j] = b[j] || inside;
  }
  return {std::move(c), std::move(b)};
}

std::map<std::string, std::vector<std::string>> ids_by_table(const spec::air::Spec& spec, const std::vector<std::string>& ids) {
  std::map<std::string, std::vector<std::string>> out;
  for (const auto& u : ids) {
    const std::string owner = u.substr(0, u.find(':'));
    if (!spec.table(owner)) throw std::invalid_argument("'" + u + "' names no table");
    out[owner].push_back(u);
  }
  return out;
}

}  // namespace zkrv::air_solve::internal
