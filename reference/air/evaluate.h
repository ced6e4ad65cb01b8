#pragma once
// The reference AIR evaluator: hand-written, one block per spec ID in spec order, with the ID in
// a comment. It reports every constraint value and every bus interaction to a Sink; check.h
// turns that into failures and LogUp sums, and tests compare it with the spec interpreter
// (interpret.h), which evaluates the Markdown's expressions on the same rows.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "reference/air/trace.h"

namespace zkrv::ref::air {

class Sink {
 public:
  virtual ~Sink() = default;
  // A constraint's value on one row (0 = holds). Called only on the rows the constraint covers.
  virtual void constraint(std::string_view table, std::string_view id, size_t row, uint64_t value) = 0;
  // A bus interaction on one row (every row, multiplicity possibly 0).
  virtual void bus(std::string_view table, std::string_view id, std::string_view bus, bool send, size_t row,
                   const std::vector<uint64_t>& tuple, uint64_t mult) = 0;
};

// Every table of the trace, every row, in spec order (tables as spec/tables lists them).
void evaluate(const AirTrace& trace, Sink& sink);

// The buses in declaration order (spec/tables/air.md): a bus's index is its fingerprint tag.
const std::vector<std::string>& bus_names();

}  // namespace zkrv::ref::air
