// How the uniqueness question takes an interaction of the two rows (internal.h): the lookups and
// their keys, and the question as a function (Options::outputs, Options::reads), where an
// interaction is the row's own or fixed but for its outputs.
#include <z3++.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "tools/air_solve/internal.h"

namespace zkrv::air_solve::internal {
namespace {

// The fields of an interaction that the uniqueness question leaves free (Options::outputs).
std::set<size_t> output_fields(const spec::air::Spec& spec, const Outputs& outputs, const spec::air::BusInteraction& b) {
  std::set<size_t> out;
  const auto it = outputs.find(b.bus);
  if (it == outputs.end()) return out;
  const auto* decl = spec.bus(b.bus);
  for (size_t i = 0; decl && i < decl->fields.size(); ++i)
    if (it->second.count(decl->fields[i].name)) out.insert(i);
  return out;
}

}  // namespace

bool is_lookup(const std::string& bus) {
  for (const char* b : {"byte", "range16", "and8", "program", "segment", "image", "pow2"})
    if (bus == b) return true;
  return false;
}

// How many leading fields of a lookup's tuple are its key (the rest are a function of it: the
// and8 relation, pow2, the verifier's program and image; segments are keyed by their range,
// keyed_by_range below); a range check (byte, range16) is all key. 0 for a bus that is not a lookup.
size_t lookup_key_fields(const std::string& bus) {
  if (!is_lookup(bus)) return 0;
  return bus == "and8" ? 2 : 1;
}

// The segment table's entries (start, file_end, end, w; spec/tables/air.md) are the ELF's
// segments, which do not overlap (isa:elf:overlap, checked when the image is loaded): two
// entries whose [start, end) meet are the same entry. So a segment lookup is keyed by its range
// rather than by a field.
bool keyed_by_range(const spec::air::BusInteraction& b) { return b.send && b.bus == "segment" && b.tuple.size() == 4; }

Role role_of(const spec::air::Spec& spec, const Options& options, const spec::air::BusInteraction& b) {
  const Outputs &outputs = options.outputs, &reads = options.reads;
  Role r;
  if (outputs.empty() && reads.empty()) return r;
  r.functional = true;
  if (const auto it = reads.find(b.bus); !b.send && it != reads.end()) {
    r.own = true;
    const auto* decl = spec.bus(b.bus);
    for (size_t i = 0; decl && i < decl->fields.size(); ++i)
      if (!it->second.count(decl->fields[i].name)) r.outputs.insert(i);
    return r;
  }
  r.own = b.send && !is_lookup(b.bus);
  r.outputs = output_fields(spec, outputs, b);
  return r;
}

void check_outputs(const spec::air::Spec& spec, const Outputs& outputs) {
  for (const auto& [bus, fields] : outputs) {
    const auto* decl = spec.bus(bus);
    if (!decl) throw std::invalid_argument("no bus '" + bus + "'");
    for (const auto& f : fields)
      if (std::none_of(decl->fields.begin(), decl->fields.end(), [&](const spec::air::BusField& d) { return d.name == f; }))
        throw std::invalid_argument("bus '" + bus + "' has no field '" + f + "'");
  }
}

// One interaction of rows x and y in the same place: the same multiplicity, and where it is not 0
// the same tuple; for a lookup send, the same values where the keys are the same (a range
// check's value is not fixed by it: another value in range balances as well, with the lookup
// table's multiplicities recounted), or for a segment lookup where the ranges meet.
// As a function (`role` from role_of): an interaction of the row's own fixes
// neither its multiplicity nor its fields, only its outputs where both rows are active with the
// same other fields; any other keeps its multiplicity and its fields but the outputs (a receive
// answers a request), and a lookup send's rest follows from its keys where both are active.
z3::expr same_interaction(const Encoder& enc, const spec::air::BusInteraction& b, Placed at_x, Placed at_y, const Role& role) {
  const std::vector<z3::expr>&x = at_x.row, &y = at_y.row;
  const std::vector<z3::expr>*nx_x = at_x.next, *nx_y = at_y.next;
  const bool functional = role.functional;
  const z3::expr mx = enc.mult(b, x, nx_x), my = enc.mult(b, y, nx_y);
  auto value = [&](size_t i, const std::vector<z3::expr>& r, const std::vector<z3::expr>* nr) {
    return enc.reduced(enc.term(*b.tuple[i], r, nr));
  };
  auto field = [&](size_t i) { return value(i, x, nx_x) == value(i, y, nx_y); };
  const bool by_range = keyed_by_range(b);
  size_t keys = by_range || !b.send ? 0 : lookup_key_fields(b.bus);
  const bool own = role.own;
  const std::set<size_t>& outputs = role.outputs;
  if (own && outputs.empty()) return mx.ctx().bool_val(true);  // the row's own: nothing fixed
  z3::expr when = mx != 0;
  const bool answered = own || (functional && b.send);  // fixed only where both rows are active
  if (answered) when = when && my != 0;
  if (by_range) when = when && value(0, x, nx_x) < value(2, y, nx_y) && value(0, y, nx_y) < value(2, x, nx_x);
  z3::expr same = mx.ctx().bool_val(true);
  for (size_t i = 0; i < b.tuple.size(); ++i) {
    const bool out = outputs.count(i) > 0;
    if (own ? !out : i < keys) when = when && field(i);        // a key (a request's other fields)
    else if (own || !out || !functional) same = same && field(i);  // fixed where the keys are
  }
  if (answered) return z3::implies(when, same);
  return mx == my && z3::implies(when, same);
}

}  // namespace zkrv::air_solve::internal
