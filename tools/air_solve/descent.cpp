// A descent through a bus (solve.h, descent_implied): four kinds of one-row questions, each
// unsatisfiable where no trace breaks C.
#include <z3++.h>

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "tools/air_solve/internal.h"
#include "tools/air_solve/solve.h"

namespace zkrv::air_solve {
namespace internal {
namespace {

// The descent's questions about C and the receive I (Options::descent), in the order solve.h
// gives them; each step says why it has no proof, or nothing.
class Descent {
 public:
  Descent(const spec::air::Spec& spec, const std::string& table, const std::string& id, const Options& options);
  Answer prove();

 private:
  std::string q0_nonnegative();
  std::string q1_receives();
  std::string q2_q3_sends();
  // One question about a row of table u; true where it is unsatisfiable.
  bool ask(const Table& u, const std::string& what, const RowClaim& claim);
  z3::expr value(const Encoder& enc, const std::vector<z3::expr>& r, const spec::air::BusInteraction& b) const {
    return enc.reduced(enc.term(*b.tuple[d_.field], r, nullptr));
  }
  z3::expr from(z3::context& ctx) const { return ctx.int_val(std::to_string(d_.from).c_str()); }
  Answer fail(const std::string& why);

  const spec::air::Spec& spec_;
  const std::string& table_;
  const std::string& id_;
  const Options& options_;
  const spec::air::Descent& d_;
  const Table& t_;
  const spec::air::Constraint& target_;
  const spec::air::BusInteraction* in_ = nullptr;
  std::map<std::string, std::vector<std::string>> ids_;  // table -> its IDs in the certificate
  Timer timer_;
  Answer answer_;
  std::string last_ = "unknown";  // the last question's answer
  Carried carried_;
  std::set<std::string> asked_;  // the tables with a question
};

Descent::Descent(const spec::air::Spec& spec, const std::string& table, const std::string& id, const Options& options)
    : spec_(spec), table_(table), id_(id), options_(options), d_(*options.descent), t_(find_table(spec, table)),
      target_(find_constraint(t_, id)), answer_{id, Verdict::kUnknown, 0, "", {}} {
  if (target_.rows != Rows::kEvery) throw std::invalid_argument("a descent is about an every-row constraint, not " + id);
  for (const auto& b : t_.buses)
    if (b.id == d_.receive) in_ = &b;
  if (!in_ || in_->send || d_.field >= in_->tuple.size())
    throw std::invalid_argument("'" + d_.receive + "' is not a receive of table " + table + " with a field " + std::to_string(d_.field));
  ids_ = ids_by_table(spec, options.using_ids);
}

Answer Descent::fail(const std::string& why) {
  answer_.scenario = "descent not proved: " + why + " (" + last_ + ")";
  answer_.seconds = timer_.seconds();
  return answer_;
}

bool Descent::ask(const Table& u, const std::string& what, const RowClaim& claim) {
  asked_.insert(u.name);
  const auto it = ids_.find(u.name);
  const z3::check_result res = row_question(
      {spec_, u, u.name == table_ ? &id_ : nullptr, carried_, it == ids_.end() ? std::vector<std::string>{} : it->second,
       options_.timeout_ms},
      claim);
  last_ = res == z3::sat ? "a row satisfies it" : check_name(res);
  if (options_.progress) options_.progress(what + ": " + check_name(res));
  return res == z3::unsat;
}

// Q0: every multiplicity on the bus is a non-negative integer (this table without C)
std::string Descent::q0_nonnegative() {
  for (const auto& u : spec_.tables) {
    const TableFacts f{u, u.name == table_ ? &id_ : nullptr};
    for (const auto& b : u.buses)
      if (b.bus == in_->bus && b.mult && !f.nonnegative(*b.mult)) {
        last_ = "Q0";
        return "the multiplicity of " + b.id + " is not known to be a non-negative integer";
      }
  }
  return "";
}

// Q1: a row that breaks C receives with field f at least L
std::string Descent::q1_receives() {
  if (!ask(t_, "Q1: a row that breaks " + id_ + " receives " + d_.receive + " with field " + std::to_string(d_.field) + " >= " +
                   std::to_string(d_.from),
           [&](const Encoder& enc, const std::vector<z3::expr>& r) {
             const z3::expr broken = !enc.some_factor_zero(*target_.expr, r, nullptr);
             return broken && (enc.mult(*in_, r, nullptr) == 0 || value(enc, r, *in_) < from(r[0].ctx()));
           }))
    return "Q1: not shown that a row that breaks it receives at least " + std::to_string(d_.from);
  return "";
}

std::string Descent::q2_q3_sends() {
  for (const auto& u : spec_.tables)
    for (const auto& b : u.buses) {
      if (b.bus != in_->bus || !b.send) continue;
      if (d_.field >= b.tuple.size()) return b.id + " has no field " + std::to_string(d_.field);
      if (u.name == table_) {  // Q2: a send of at least L comes from a row that breaks C and receives more
        if (!ask(u, "Q2: " + b.id + " active with field >= " + std::to_string(d_.from) + " only on a row that breaks " + id_ +
                        " and receives more",
                 [&](const Encoder& enc, const std::vector<z3::expr>& r) {
                   const z3::expr broken = !enc.some_factor_zero(*target_.expr, r, nullptr);
                   const z3::expr sent = value(enc, r, b);
                   return enc.mult(b, r, nullptr) != 0 && sent >= from(r[0].ctx()) &&
                          !(broken && enc.mult(*in_, r, nullptr) != 0 && value(enc, r, *in_) > sent);
                 }))
          return "Q2: not shown for " + b.id;
      } else if (!ask(u, "Q3: " + b.id + " never active with field >= " + std::to_string(d_.from),
                      [&](const Encoder& enc, const std::vector<z3::expr>& r) {
                        return enc.mult(b, r, nullptr) != 0 && value(enc, r, b) >= from(r[0].ctx());
                      })) {  // Q3: another table sends below L
        return "Q3: not shown for " + b.id;
      }
    }
  return "";
}

Answer Descent::prove() {
  if (const std::string why = q0_nonnegative(); !why.empty()) return fail(why);
  carried_ = carried_bounds(spec_, table_, &id_);
  if (const std::string why = q1_receives(); !why.empty()) return fail(why);
  if (const std::string why = q2_q3_sends(); !why.empty()) return fail(why);
  for (const auto& [owner, list] : ids_)  // a certificate names only the tables it is asked about
    if (!asked_.count(owner))
      throw std::invalid_argument("'" + list.front() + "': table " + owner + " has no question in a descent through " + d_.receive);
  answer_.verdict = Verdict::kImplied;
  answer_.scenario = "a descent through " + d_.receive;
  answer_.seconds = timer_.seconds();
  return answer_;
}

}  // namespace
}  // namespace internal

Answer descent_implied(const spec::air::Spec& spec, const std::string& table, const std::string& id, const Options& options) {
  if (!options.descent) throw std::invalid_argument("descent_implied: no descent given");
  return internal::Descent(spec, table, id, options).prove();
}

}  // namespace zkrv::air_solve
