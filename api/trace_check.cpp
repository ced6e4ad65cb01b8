// The generated evaluator's check of a built trace (optimized/air/check.h), for the prover of the
// host API and zkrv check.
#include <random>
#include <set>

#include "optimized/air/check.h"
#include "reference/stark/air.h"
#include "api/trace_check.h"

namespace zkrv::api {

bool fast_trace_check(ref::air::AirTrace& trace, bool consume_rows, std::string* summary) {
  const auto& code = opt::air::generated_tables();
  std::vector<opt::air::TableColumns> tables(code.size());
  for (size_t t = 0; t < code.size(); ++t) {
    auto& rows = trace.table(code[t].name).rows;
    tables[t] = opt::air::columns_from_rows(rows, code[t].columns);
    if (consume_rows) std::vector<std::vector<uint64_t>>().swap(rows);
  }
  std::vector<opt::Fp> publics;
  for (const auto& name : ref::stark::air_layout().publics) publics.push_back(opt::Fp::from_u64(trace.publics.at(name)));
  return fast_tables_check(tables, publics, summary);
}

bool fast_tables_check(const std::vector<opt::air::TableColumns>& tables, const std::vector<opt::Fp>& publics,
                       std::string* summary) {
  const auto& code = opt::air::generated_tables();
  const uint64_t seed = std::random_device{}() * uint64_t{0x100000001} ^ std::random_device{}();
  const auto r = opt::air::fast_check(tables, publics, seed);
  if (!r.ok()) return false;
  size_t constraints = 0;
  std::set<uint64_t> buses;
  for (const auto& tc : code) {
    constraints += tc.constraints;
    buses.insert(tc.tags, tc.tags + tc.interactions);
  }
  if (summary)
    *summary = std::to_string(constraints) + " constraints on " + std::to_string(r.rows) + " rows in " +
               std::to_string(code.size()) + " tables hold; " + std::to_string(buses.size()) + " buses balance";
  return true;
}

}  // namespace zkrv::api
