// What every answer of solve.h shares: the table and constraint asked about, a model's values as
// they are shown, and the one-line formats. The questions are in the files that internal.h lists.
#include "tools/air_solve/solve.h"

#include <z3++.h>

#include <ios>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "tools/air_solve/internal.h"

namespace zkrv::air_solve {
namespace internal {

const Table& find_table(const spec::air::Spec& spec, const std::string& name) {
  const Table* t = spec.table(name);
  if (!t) throw std::invalid_argument("no table " + name);
  return *t;
}

const spec::air::Constraint& find_constraint(const Table& t, const std::string& id) {
  for (const auto& c : t.constraints)
    if (c.id == id) return c;
  throw std::invalid_argument("no constraint " + id + " in table " + t.name);
}

std::string show(const std::string& decimal) {
  // values just below p read better as p-k
  const unsigned __int128 p = kPValue;
  unsigned __int128 v = 0;
  for (char ch : decimal) v = v * 10 + static_cast<unsigned>(ch - '0');
  if (v > p - (static_cast<unsigned __int128>(1) << 32) && v < p) return "p-" + std::to_string(static_cast<uint64_t>(p - v));
  return decimal;
}

void collect(const z3::model& m, const std::vector<z3::expr>& vars, std::vector<Assignment>& out) {
  for (const auto& v : vars) {
    const z3::expr val = m.eval(v, true);
    const std::string s = val.get_decimal_string(0);
    if (s != "0") out.push_back({v.decl().name().str(), std::stoull(s), show(s)});
  }
}

const char* check_name(z3::check_result r) {
  return r == z3::unsat ? "unsatisfiable" : r == z3::sat ? "satisfiable" : "unknown";
}

}  // namespace internal

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kImplied: return "implied";
    case Verdict::kAttack: return "attack";
    case Verdict::kUnknown: return "unknown";
  }
  return "?";
}

std::string format(const Answer& a) {
  std::ostringstream o;
  o << a.id << "  " << (a.padding && a.verdict == Verdict::kImplied ? "none" : verdict_name(a.verdict));
  o.setf(std::ios::fixed);
  o.precision(2);
  o << " (" << a.seconds << " s)";
  if (a.verdict == Verdict::kAttack) {
    o << ": " << a.scenario << ";";
    for (const auto& v : a.model) o << ' ' << v.column << '=' << v.shown;
  } else if (a.verdict == Verdict::kUnknown) {
    o << ": " << (a.scenario.find("padding row is") != std::string::npos || a.scenario.find("no repeated") != std::string::npos ||
                          a.scenario.find("the row is not") != std::string::npos || a.scenario.rfind("descent", 0) == 0 ||
                          a.scenario.rfind("once", 0) == 0
                      ? a.scenario
                      : "no answer within the time bound (" + a.scenario + ")");
  } else if (a.padding) {
    o << (a.scenario == "a padding row" ? ": no padding row breaks it alone" : ": no small change of the row breaks it alone");
  }
  return o.str();
}

std::string format(const Uniqueness& u) {
  std::ostringstream o;
  o << u.table << "  " << (u.verdict == Verdict::kImplied ? "unique" : u.verdict == Verdict::kAttack ? "second witness" : "unknown");
  o.setf(std::ios::fixed);
  o.precision(2);
  o << " (" << u.seconds << " s)";
  if (u.verdict != Verdict::kImplied) o << ": " << u.place;
  else if (!u.but.empty()) o << ": but for " << u.but;
  if (u.verdict == Verdict::kAttack) {
    o << "; row";
    for (const auto& v : u.first) o << ' ' << v.column << '=' << v.shown;
    o << "; other row";
    for (const auto& v : u.second) o << ' ' << v.column << '=' << v.shown;
  }
  return o.str();
}

}  // namespace zkrv::air_solve
