// Counting a receive's tuples (solve.h, once_implied): each tuple is sent at most once and
// received by at most one row, so the receive's multiplicity is a bit, and C holds where it is.
#include <z3++.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "spec/stark.h"
#include "tools/air_solve/internal.h"
#include "tools/air_solve/solve.h"

namespace zkrv::air_solve {
namespace internal {
namespace {

Expr column(const std::string& name) {
  Expr e;
  e.op = Expr::Op::kColumn, e.name = name;
  return e;
}

z3::expr value(const Encoder& enc, const Expr& e, const std::vector<z3::expr>& r) { return enc.reduced(enc.term(e, r, nullptr)); }

bool names_next(const spec::air::BusInteraction& b) {
  bool next = false;
  auto look = [&](const Expr& e) { spec::air::names(e, [&](const std::string&, bool n) { next = next || n; }); };
  if (b.mult) look(*b.mult);
  for (const auto& el : b.tuple) look(*el);
  return next;
}

// The candidate token pairs of table u on a bus: each receive with each send of the same
// multiplicity (as written), both with a key and a timestamp, in order.
std::vector<std::pair<size_t, size_t>> pairs_of(const Table& u, const std::string& bus) {
  std::vector<std::pair<size_t, size_t>> out;
  auto str = [](const Expr* e) { return e ? spec::air::to_string(*e) : std::string("1"); };
  for (size_t ri = 0; ri < u.buses.size(); ++ri) {
    if (u.buses[ri].bus != bus || u.buses[ri].send || u.buses[ri].tuple.size() < 2) continue;
    for (size_t si = 0; si < u.buses.size(); ++si)
      if (u.buses[si].bus == bus && u.buses[si].send && u.buses[si].tuple.size() >= 2 &&
          str(u.buses[si].mult.get()) == str(u.buses[ri].mult.get()))
        out.emplace_back(ri, si);
  }
  return out;
}

// A bound on a non-negative multiplicity per row: a constant, or a sum of constants and bits.
double most_per_row(const Expr& e) {
  if (e.op == Expr::Op::kConst) return static_cast<double>(e.value);
  if (e.op == Expr::Op::kAdd) return most_per_row(*e.args[0]) + most_per_row(*e.args[1]);
  return 1;  // a bit column
}

// The questions of the count (solve.h, once_implied), in its order: the sends, the receives,
// the chain bus, F. Each step says why it has no proof, or nothing.
class Once {
 public:
  Once(const spec::air::Spec& spec, const std::string& table, const std::string& id, const Options& options);
  Answer prove();

 private:
  bool ask(const Table& u, const std::string& what, Shape shape, const Claim& claim,
           std::vector<const spec::air::BusInteraction*> near = {}, bool bounds = true);
  std::string ordered(const Table& u, const spec::air::BusInteraction& b, size_t fields);
  std::string sends();
  std::string receives();
  std::string chain();
  std::string chain_table(const Table& u);
  std::string holds_where_bit();
  Answer fail(const std::string& why);

  const spec::air::Spec& spec_;
  const std::string& table_;
  const std::string& id_;
  const Options& options_;
  const spec::air::Once& o_;
  const Table& t_;
  const spec::air::Constraint& target_;
  const spec::air::BusInteraction* in_ = nullptr;
  std::map<std::string, const spec::air::Order*> order_of_;
  std::map<std::string, std::vector<std::string>> ids_;
  Timer timer_;
  Answer answer_;
  std::string last_ = "no question asked";  // the last question's answer
  Carried carried_;
  std::set<std::string> asked_, ordered_tables_;
  std::map<std::string, std::set<std::string>> proved_bits_;  // table -> multiplicities N proved 0 or 1
  // the receives' token pair (R1, R2) and its bus
  std::string chain_bus_;
  std::pair<size_t, size_t> chosen_;  // the pair of the table that R1 and R2 are about
  // the chain bus, over the tables (chain_table)
  double nodes_ = 0;  // pairs per row, summed over the tables (each at most 2^24 rows)
  double total_ = 0;  // the bus's multiplicities per row: their sum stays below p (LogUp as integers)
  std::set<std::pair<size_t, size_t>> proved_pairs_;  // the table's pairs that P showed
  const spec::air::BusInteraction* source_ = nullptr;
  const Table* source_table_ = nullptr;
};

Once::Once(const spec::air::Spec& spec, const std::string& table, const std::string& id, const Options& options)
    : spec_(spec), table_(table), id_(id), options_(options), o_(*options.once), t_(find_table(spec, table)),
      target_(find_constraint(t_, id)), answer_{id, Verdict::kUnknown, 0, "", {}} {
  if (target_.rows != Rows::kEvery) throw std::invalid_argument("counting a receive's tuples is for an every-row constraint, not " + id);
  for (const auto& b : t_.buses)
    if (b.id == o_.receive) in_ = &b;
  if (!in_ || in_->send) throw std::invalid_argument("'" + o_.receive + "' is not a receive of table " + table);
  for (const auto& ord : o_.orders) {
    const Table* u = spec.table(ord.table);
    if (!u) throw std::invalid_argument("order: no table '" + ord.table + "'");
    for (const auto* col : {&ord.guard, &ord.key})
      if (u->column_index(*col) < 0) throw std::invalid_argument("order: no column '" + *col + "' in table " + ord.table);
    if (!order_of_.emplace(ord.table, &ord).second) throw std::invalid_argument("order: table " + ord.table + " ordered twice");
  }
  ids_ = ids_by_table(spec, options.using_ids);
}

Answer Once::fail(const std::string& why) {
  answer_.scenario = "once not proved: " + why + " (" + last_ + ")";
  answer_.seconds = timer_.seconds();
  return answer_;
}

// One question about rows of table u. Without a certificate for u, first the constraints that
// name a column of the interactions `near` (with them and the interactions on those columns
// alone) for a quarter of the time bound, at most 2 s: what a subset rules out, the table does.
bool Once::ask(const Table& u, const std::string& what, Shape shape, const Claim& claim,
               std::vector<const spec::air::BusInteraction*> near, bool bounds) {
  asked_.insert(u.name);
  const std::string* skip = u.name == table_ ? &id_ : nullptr;
  const auto it = ids_.find(u.name);
  if (it == ids_.end() && !near.empty()) {
    std::set<std::string> cols;
    std::vector<std::string> subset;
    for (const auto* b : near) {
      subset.push_back(b->id);
      if (b->mult) spec::air::names(*b->mult, [&](const std::string& n, bool) { cols.insert(n); });
      for (const auto& el : b->tuple) spec::air::names(*el, [&](const std::string& n, bool) { cols.insert(n); });
    }
    for (const auto& c : u.constraints) {
      bool touches = false;
      spec::air::names(*c.expr, [&](const std::string& n, bool) { touches = touches || cols.count(n); });
      if (touches && (!skip || c.id != *skip)) subset.push_back(c.id);
    }
    const z3::check_result res = rows_question(
        {spec_, u, skip, carried_, subset, std::min(options_.timeout_ms / 4 + 1, 2000u), proved_bits_[u.name], bounds}, shape, claim);
    if (options_.progress) options_.progress(what + " (the " + std::to_string(subset.size()) + " nearest items): " + check_name(res));
    if (res == z3::unsat) return last_ = check_name(res), true;
  }
  const z3::check_result res = rows_question({spec_, u, skip, carried_, it == ids_.end() ? std::vector<std::string>{} : it->second,
                                              options_.timeout_ms, proved_bits_[u.name], bounds},
                                             shape, claim);
  last_ = res == z3::sat ? "rows satisfy it" : check_name(res);
  if (options_.progress) options_.progress(what + ": " + check_name(res));
  return res == z3::unsat;
}

// Is interaction b of table u ordered, with equal fields [0, fields)? Empty: yes; else why not.
std::string Once::ordered(const Table& u, const spec::air::BusInteraction& b, size_t fields) {
  const auto it = order_of_.find(u.name);
  if (it == order_of_.end()) return "no order given for table " + u.name + ", which " + b.id + " is in";
  ordered_tables_.insert(u.name);
  const Expr g = column(it->second->guard), k = column(it->second->key);
  const std::string name = u.name + " by " + it->second->key;
  auto m = [&](const Encoder& enc, const std::vector<z3::expr>& r) { return enc.mult(b, r, nullptr); };
  if (!ask(u, "O1: " + b.id + "'s multiplicity is 0 or 1", Shape::kOne,
           [&](const Encoder& enc, const std::vector<z3::expr>& r, const std::vector<z3::expr>&) { return m(enc, r) != 0 && m(enc, r) != 1; }))
    return "O1: " + b.id + "'s multiplicity is not shown to be 0 or 1";
  if (!ask(u, "O2: " + b.id + " active only where " + it->second->guard + " = 1", Shape::kOne,
           [&](const Encoder& enc, const std::vector<z3::expr>& r, const std::vector<z3::expr>&) {
             return m(enc, r) != 0 && value(enc, g, r) != 1;
           }))
    return "O2: " + b.id + " is not shown to be inactive where " + it->second->guard + " is not 1";
  if (!ask(u, "O3: " + name + " increases along a prefix", Shape::kNext,
           [&](const Encoder& enc, const std::vector<z3::expr>& r, const std::vector<z3::expr>& n) {
             const z3::expr step = enc.reduced(enc.term(k, n, nullptr) - enc.term(k, r, nullptr) - 1);
             return value(enc, g, n) != 0 &&
                    !(value(enc, g, r) == 1 && value(enc, g, n) == 1 && step < r[0].ctx().int_val("4294967296"));
           }))
    return "O3: " + name + " is not shown to increase by 1 to 2^32 from row to row of a prefix";
  if (!ask(u, "O4: two rows of " + b.id + " with equal fields have equal " + it->second->key, Shape::kTwo,
           [&](const Encoder& enc, const std::vector<z3::expr>& r, const std::vector<z3::expr>& r2) {
             z3::expr same = m(enc, r) != 0 && m(enc, r2) != 0;
             for (size_t f = 0; f < fields; ++f) same = same && value(enc, *b.tuple[f], r) == value(enc, *b.tuple[f], r2);
             return same && value(enc, k, r) != value(enc, k, r2);
           }))
    return "O4: two active rows of " + b.id + " with equal fields are not shown to have equal " + it->second->key;
  return "";
}

// Sends: at most one interaction, ordered by all its fields
std::string Once::sends() {
  const spec::air::BusInteraction* send = nullptr;
  const Table* sender = nullptr;
  for (const auto& u : spec_.tables)
    for (const auto& b : u.buses) {
      if (b.bus != in_->bus || &b == in_) continue;
      if (!b.send) return "the " + b.bus + " bus has another receive, " + b.id;
      if (send) return "the " + b.bus + " bus has two sends, " + send->id + " and " + b.id;
      send = &b, sender = &u;
    }
  if (send && names_next(*send)) return "sends: " + send->id + " names the next row";
  if (send)
    if (const std::string why = ordered(*sender, *send, send->tuple.size()); !why.empty()) return "sends: " + why;
  return "";
}

// Receives: a token pair of the table that makes the receiving rows distinct. A pair is a
// receive and a send of one table on one bus with the same multiplicity (as written) that
// orders its tokens (P, asked below for every table of the chain bus). The candidates, each
// receive with each such send, in order (pairs_of).
std::string Once::receives() {
  std::set<std::string> buses;
  for (const auto& b : t_.buses) buses.insert(b.bus);
  bool paired = false;
  for (auto bus = buses.begin(); bus != buses.end() && !paired; ++bus)
    for (const auto& [ri, si] : pairs_of(t_, *bus)) {
      const auto& p_in = t_.buses[ri];
      const auto& p_out = t_.buses[si];
      if (names_next(p_in) || names_next(p_out)) continue;  // a one-row question cannot read it
      if (!ask(t_, "R1: " + o_.receive + " active only where " + p_in.id + " and " + p_out.id + " have multiplicity 1", Shape::kOne,
               [&](const Encoder& enc, const std::vector<z3::expr>& r, const std::vector<z3::expr>&) {
                 return enc.mult(*in_, r, nullptr) != 0 && enc.mult(p_in, r, nullptr) != 1;
               }))
        continue;
      if (!ask(t_, "R2: two rows that receive one tuple of " + o_.receive + " send one key and timestamp by " + p_out.id, Shape::kTwo,
               [&](const Encoder& enc, const std::vector<z3::expr>& r, const std::vector<z3::expr>& r2) {
                 z3::expr same = enc.mult(*in_, r, nullptr) != 0 && enc.mult(*in_, r2, nullptr) != 0;
                 for (const auto& f : in_->tuple) same = same && value(enc, *f, r) == value(enc, *f, r2);
                 return same && !(value(enc, *p_out.tuple[0], r) == value(enc, *p_out.tuple[0], r2) &&
                                  value(enc, *p_out.tuple[1], r) == value(enc, *p_out.tuple[1], r2));
               }))
        continue;
      paired = true, chain_bus_ = *bus, chosen_ = {ri, si};
      break;
    }
  if (!paired) return "receives: no token pair of table " + table_ + " is shown (R1, R2) to tell its receiving rows apart";
  return "";
}

// The chain bus, in every table: each multiplicity a non-negative integer (as written, or N: a
// bit); the pairs (candidates whose tokens P shows ordered, each interaction in one pair at
// most); few enough pairs; at most one send in no pair, ordered by its key. A receive in no
// pair asks nothing: it only ends a chain.
std::string Once::chain() {
  for (const auto& u : spec_.tables)
    if (const std::string why = chain_table(u); !why.empty()) return why;
  if (total_ * std::ldexp(1.0, static_cast<int>(spec::kMaxLogHeight)) >= kPDouble)
    return "the " + chain_bus_ + " bus's multiplicities may add up to p";
  if (nodes_ * std::ldexp(1.0, static_cast<int>(spec::kMaxLogHeight) + 32) >= kPDouble)
    return "the " + chain_bus_ + " bus has too many token pairs for its timestamps not to wrap around p";
  if (source_)
    if (const std::string why = ordered(*source_table_, *source_, 1); !why.empty()) return "the " + chain_bus_ + " bus's source: " + why;
  return "";
}

// The chain bus in table u: its multiplicities (N), its pairs (P), its send in no pair.
std::string Once::chain_table(const Table& u) {
  const TableFacts f{u, u.name == table_ ? &id_ : nullptr};
  std::map<size_t, double> bound;  // interaction -> a bound on its multiplicity
  for (size_t i = 0; i < u.buses.size(); ++i) {
    const auto& b = u.buses[i];
    if (b.bus != chain_bus_) continue;
    if (names_next(b)) return "the " + chain_bus_ + " bus: " + b.id + " names the next row";
    if (!b.mult || f.nonnegative(*b.mult)) {
      bound[i] = b.mult ? most_per_row(*b.mult) : 1;
      continue;
    }
    bound[i] = 1;
    if (proved_bits_[u.name].count(spec::air::to_string(*b.mult))) continue;  // the same multiplicity as one asked
    if (!ask(u, "N: " + b.id + "'s multiplicity is 0 or 1", Shape::kOne,
             [&](const Encoder& enc, const std::vector<z3::expr>& r, const std::vector<z3::expr>&) {
               const z3::expr m = enc.mult(b, r, nullptr);
               return m != 0 && m != 1;
             },
             {}, false))  // no lookup's bound: those rest on non-negative multiplicities, which N shows
      return "the " + chain_bus_ + " bus: the multiplicity of " + b.id + " is not shown to be a non-negative integer";
    proved_bits_[u.name].insert(spec::air::to_string(*b.mult));  // so the lookups under it bound their values
  }
  std::set<size_t> in_pair;
  for (const auto& [ri, si] : pairs_of(u, chain_bus_)) {
    if (in_pair.count(ri) || in_pair.count(si)) continue;
    const auto& p_in = u.buses[ri];
    const auto& p_out = u.buses[si];
    if (!ask(u, "P: " + p_in.id + " and " + p_out.id + " keep the key and step the timestamp by 1 to 2^32", Shape::kOne,
             [&](const Encoder& enc, const std::vector<z3::expr>& r, const std::vector<z3::expr>&) {
               const z3::expr step = enc.reduced(enc.term(*p_out.tuple[1], r, nullptr) - enc.term(*p_in.tuple[1], r, nullptr) - 1);
               return enc.mult(p_in, r, nullptr) != 0 && !(value(enc, *p_out.tuple[0], r) == value(enc, *p_in.tuple[0], r) &&
                                                           step < r[0].ctx().int_val("4294967296"));
             },
             {&p_in, &p_out}))
      continue;  // not a pair: a send in no pair is a source (asked below), a receive an end
    in_pair.insert(ri), in_pair.insert(si);
    if (u.name == table_) proved_pairs_.emplace(ri, si);
    nodes_ += bound[ri];
  }
  for (const auto& [i, k] : bound) total_ += k;
  if (u.name == table_ && !proved_pairs_.count(chosen_))
    return "the " + chain_bus_ + " bus: " + t_.buses[chosen_.first].id + " and " + t_.buses[chosen_.second].id +
           " are not shown to order their tokens (P)";
  for (size_t i = 0; i < u.buses.size(); ++i) {
    const auto& b = u.buses[i];
    if (b.bus != chain_bus_ || !b.send || in_pair.count(i)) continue;
    if (source_) return "the " + chain_bus_ + " bus has two sends in no token pair, " + source_->id + " and " + b.id;
    source_ = &b, source_table_ = &u;
  }
  return "";
}

// F: where the multiplicity is a bit, C holds
std::string Once::holds_where_bit() {
  if (!ask(t_, "F: " + id_ + " holds where " + o_.receive + "'s multiplicity is 0 or 1", Shape::kOne,
           [&](const Encoder& enc, const std::vector<z3::expr>& r, const std::vector<z3::expr>&) {
             const z3::expr m = enc.mult(*in_, r, nullptr);
             return (m == 0 || m == 1) && !enc.some_factor_zero(*target_.expr, r, nullptr);
           }))
    return "F: " + id_ + " is not shown to hold where the multiplicity is a bit";
  return "";
}

Answer Once::prove() {
  carried_ = carried_bounds(spec_, table_, &id_);
  if (names_next(*in_)) return fail(o_.receive + " names the next row");
  for (auto step : {&Once::sends, &Once::receives, &Once::chain, &Once::holds_where_bit})
    if (const std::string why = (this->*step)(); !why.empty()) return fail(why);
  for (const auto& [owner, ord] : order_of_)
    if (!ordered_tables_.count(owner)) throw std::invalid_argument("order: table " + owner + " is not a sender the count needs ordered");
  for (const auto& [owner, list] : ids_)  // a certificate names only the tables it is asked about
    if (!asked_.count(owner)) throw std::invalid_argument("'" + list.front() + "': table " + owner + " has no question in counting " + o_.receive);
  answer_.verdict = Verdict::kImplied;
  answer_.scenario = "each tuple of " + o_.receive + " is sent at most once and received by one row (chain bus " + chain_bus_ + ")";
  answer_.seconds = timer_.seconds();
  return answer_;
}

}  // namespace
}  // namespace internal

// Why the chain bus's rows are distinct (once_implied, "Receives"). Every multiplicity on M is a
// non-negative integer and the verifier keeps their total below p, so LogUp makes the tokens
// consumed on M, counted with multiplicity, the tokens made. Take a row's token pair with
// multiplicity n as n nodes, each consuming one token (key, t_in) and making one (key, t_out)
// with t_out - t_in in [1, 2^32] (mod p), and match every consumed token to a made one with the
// same tuple: each node has one predecessor (a node or an unpaired send, a source) and at most
// one successor. A cycle of nodes would have steps summing to 0 mod p, which needs at least
// p / 2^32 nodes; the table heights (at most 2^24 each) allow fewer. So following predecessors
// from any node ends at a source of its key, and with at most one source row per key (the
// unpaired send is ordered by its key) all nodes of a key lie on one path, whose timestamps
// increase strictly: the sum of fewer than p / 2^32 steps is not 0 mod p. Two nodes of one key
// never make the same timestamp, so two rows with one key and one sent timestamp are one row.
Answer once_implied(const spec::air::Spec& spec, const std::string& table, const std::string& id, const Options& options) {
  if (!options.once) throw std::invalid_argument("once_implied: no receive given");
  return internal::Once(spec, table, id, options).prove();
}

}  // namespace zkrv::air_solve
