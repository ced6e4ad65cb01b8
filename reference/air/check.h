#pragma once
// check_trace: the reference evaluator's constraint values and bus interactions turned into a
// verdict. Constraints with an ID in `disabled` are skipped (the adequacy run switches them off
// one at a time).

#include <set>
#include <string>
#include <vector>

#include "reference/air/bus.h"
#include "reference/air/trace.h"

namespace zkrv::ref::air {

struct Failure {
  std::string id, table;
  size_t row;
  std::string values;  // the row's columns (and the next row's, for transition constraints)
};
struct CheckReport {
  size_t constraints = 0;  // distinct constraint IDs evaluated
  size_t evaluations = 0;  // constraint values computed
  size_t rows = 0, tables = 0;
  std::vector<Failure> failures;   // at most 100 kept; failure_count has them all
  size_t failure_count = 0;
  std::set<std::string> failing_ids;  // every constraint ID that failed somewhere
  std::vector<BusResult> buses;
  bool ok() const;
  std::string summary() const;  // "N constraints on M rows in K tables hold; B buses balance" or the first failure
};
CheckReport check_trace(const AirTrace& trace, const std::set<std::string>& disabled = {});

}  // namespace zkrv::ref::air
