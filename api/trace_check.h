#pragma once
// The generated evaluator's check of a built trace, before it is proven (api/prover.cpp) or
// reported on (zkrv check). Inside the host API: not installed.
#include <string>
#include <vector>

#include "optimized/air/check.h"
#include "reference/air/trace.h"

namespace zkrv::api {

// True when every constraint holds and every bus balances, with the reference checker's summary
// line. With consume_rows, each table's rows are freed once its columns exist. A false answer is
// then explained by ref::air::check_trace.
bool fast_trace_check(ref::air::AirTrace& trace, bool consume_rows, std::string* summary);
// The same check of column-major tables (spec order) and public values, as optimized/trace builds them.
bool fast_tables_check(const std::vector<opt::air::TableColumns>& tables, const std::vector<opt::Fp>& publics,
                       std::string* summary);

}  // namespace zkrv::api
