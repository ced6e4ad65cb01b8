#pragma once
// The reference AIR evaluator: hand-written, one block per spec ID in spec order, with the ID in
// a comment. One body per table (evaluate/<table>.cpp), generic over the value type: it
// evaluates the table's constraints and bus interactions at one point (a row and the next),
// whatever the values are — base-field trace rows for the checker, base-field points of the LDE
// coset for the reference prover, F_{p^3} points for the test that shows it is the spec's
// polynomials (tests/air/evaluator_poly_test.cpp). It reports every constraint with the rows it
// covers and leaves the row selection to its caller.
//
// `evaluate` applies it to a whole trace and reports to a Sink what holds on each row; check.h
// turns that into failures and LogUp sums, and tests compare it with the spec interpreter
// (interpret.h), which evaluates the Markdown's expressions on the same rows.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "reference/air/trace.h"
#include "reference/field/goldilocks.h"
#include "spec/air/spec.h"

namespace zkrv::ref::air {

// ---- one point ----
// Names to indices, for one table's columns (spec order) or for the public values.
class Names {
 public:
  explicit Names(std::span<const std::string> names);
  Names(const Names&) = delete;  // the index points into names_
  Names& operator=(const Names&) = delete;
  size_t at(std::string_view name) const;  // throws std::out_of_range naming it
  size_t size() const { return names_.size(); }

 private:
  std::vector<std::string> names_;
  std::unordered_map<std::string_view, size_t> index_;
};

// A table's columns on a row (`row`) and the next row (`next_row`), in spec order, and the
// public values, read by name; the AIR they belong to (a whole run's or a bundle segment's, whose
// tables evaluate their `segmented` forms).
template <class V>
struct Point {
  const Names& columns;
  const V* row;
  const V* next_row;
  const Names& public_names;
  const V* publics;
  spec::air::Mode mode = spec::air::Mode::kWhole;
  bool segmented() const { return mode == spec::air::Mode::kSegmented; }
  const V& operator()(std::string_view column) const { return row[columns.at(column)]; }
  const V& next(std::string_view column) const { return next_row[columns.at(column)]; }
  const V& pub(std::string_view name) const { return publics[public_names.at(name)]; }
};

// What a table's evaluator reports at one point, in spec order.
template <class V>
class Values {
 public:
  virtual ~Values() = default;
  // A constraint's value (0 = holds) and the rows it covers.
  virtual void constraint(std::string_view id, spec::air::Rows rows, const V& value) = 0;
  // A bus interaction: its tuple and multiplicity.
  virtual void bus(std::string_view id, std::string_view bus, bool send, std::span<const V> tuple, const V& mult) = 0;
};

// One table's evaluator (nullptr for a name that is not a table of the spec), for V = Fp or Fp3.
template <class V>
using TableEvaluator = void (*)(const Point<V>&, Values<V>&);
template <class V>
TableEvaluator<V> table_evaluator(std::string_view table);

// ---- a whole trace ----
class Sink {
 public:
  virtual ~Sink() = default;
  // A constraint's value on one row (0 = holds). Called only on the rows the constraint covers.
  virtual void constraint(std::string_view table, std::string_view id, size_t row, uint64_t value) = 0;
  // A bus interaction on one row (every row, multiplicity possibly 0).
  virtual void bus(std::string_view table, std::string_view id, std::string_view bus, bool send, size_t row,
                   const std::vector<uint64_t>& tuple, uint64_t mult) = 0;
};

// Every table of the trace, every row, in spec order (tables as spec/tables lists them). The
// next row of the last one is the first; constraints are reported only on the rows they cover.
// `mode`: the AIR the trace is of (a bundle segment's trace, spec::air::Mode::kSegmented).
void evaluate(const AirTrace& trace, Sink& sink, spec::air::Mode mode = spec::air::Mode::kWhole);

// The buses in declaration order (spec/tables/air.md): a bus's index is its fingerprint tag.
const std::vector<std::string>& bus_names();

}  // namespace zkrv::ref::air
