#pragma once
// The reference prover's source of constraint values: the hand-written evaluator
// (reference/air/evaluate.h) of one table at one point, collected in the form the combination
// takes (ref::stark::TableValues). The verifier takes the same values from the compiled spec;
// tests/air/evaluator_poly_test.cpp shows the two are the same polynomials.

#include <stdexcept>
#include <string>
#include <string_view>

#include "core/assert.h"
#include "reference/air/evaluate.h"
#include "reference/stark/air.h"

namespace zkrv::ref::prove {

using stark::CompiledInteraction;
using stark::TableLayout;
using stark::TableValues;

// The hand-written evaluator (reference/air/evaluate.h) of one table at one point, in the form
// the combination takes. Its report must follow the layout, which is the spec's document order:
// the first point checks every ID, row kind, bus and arity against it.
template <class V>
class HandValues final : public air::Values<V> {
 public:
  // `mode`: the AIR the table is of (its layout's, stark::air_layout(mode)).
  explicit HandValues(const TableLayout& t, spec::air::Mode mode = spec::air::Mode::kWhole)
      : t_(t), mode_(mode), columns_(t.column_names), publics_(stark::air_layout(mode).publics),
        fn_(air::table_evaluator<V>(t.name)) {
    ZKRV_ASSERT(fn_, "the reference evaluator has no table " + t.name);
    values_.constraints.resize(t.constraints.size());
    values_.mults.resize(t.interactions.size());
    values_.tuples.resize(t.interactions.size());
  }
  const TableValues<V>& at(const V* local, const V* next, const V* publics) {
    nc_ = ni_ = 0;
    fn_(air::Point<V>{columns_, local, next, publics_, publics, mode_}, *this);
    if (nc_ != t_.constraints.size() || ni_ != t_.interactions.size())
      fail("reports " + std::to_string(nc_) + " constraints and " + std::to_string(ni_) + " interactions");
    checked_ = true;
    return values_;
  }
  void constraint(std::string_view id, spec::air::Rows rows, const V& value) override {
    if (nc_ >= t_.constraints.size()) fail("reports too many constraints");
    if (!checked_ && (id != t_.constraints[nc_].id || rows != t_.constraints[nc_].rows)) fail("reports " + std::string(id) + " out of place");
    values_.constraints[nc_++] = value;
  }
  void bus(std::string_view id, std::string_view bus, bool send, std::span<const V> tuple, const V& mult) override {
    if (ni_ >= t_.interactions.size()) fail("reports too many interactions");
    const CompiledInteraction& in = t_.interactions[ni_];
    if (!checked_ && (id != in.id || send != in.send || bus != air::bus_names().at(in.tag) || tuple.size() != in.tuple.size()))
      fail("reports " + std::string(id) + " unlike the spec");
    values_.tuples[ni_].assign(tuple.begin(), tuple.end());
    values_.mults[ni_++] = mult;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    ZKRV_ASSERT(false, "reference evaluator, table " + t_.name + ": " + what);
  }
  const TableLayout& t_;
  const spec::air::Mode mode_;
  const air::Names columns_, publics_;
  const air::TableEvaluator<V> fn_;
  TableValues<V> values_;
  size_t nc_ = 0, ni_ = 0;
  bool checked_ = false;
};

}  // namespace zkrv::ref::prove
