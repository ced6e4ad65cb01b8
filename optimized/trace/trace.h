#pragma once
// The optimized trace builder: the fast executor's steps streamed straight into column-major
// table traces (spec/tables), with no record of the whole run kept and no table kept row by row.
// The result equals ref::air::build_trace's, column for column, for every run
// (tests/trace/fast_trace_test.cpp). trace.cpp is laid out in parts: the cpu table, then the
// memory argument, the alu tables and the lookup multiplicities, each naming the reference step
// it mirrors (ref::air::replay_memory, fill_alu_tables, count_lookups).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string_view>
#include <vector>

#include "optimized/air/check.h"
#include "spec/isa.h"

namespace zkrv::opt::trace {

struct BuiltTrace {
  spec::ExecResult run;                   // the run: status, exit code, output, syscalls (no step records)
  std::vector<air::TableColumns> tables;  // spec order; empty unless the run exited
  std::vector<Fp> publics;                // spec order (entry, exit_code)
  size_t bytes() const;                   // what the tables hold
};

// Executes `image` on `input` (the fast executor; options.trace and the sinks are set here) and,
// if the run exits, builds its tables. threads = 0: every core; the tables do not depend on it.
// Throws std::invalid_argument or std::logic_error where ref::air::build_trace throws (a
// trace the tables cannot express); a run that faults is returned without tables.
// progress: called with "execute" after the first (untraced) run, which sizes the tables, and
// with "trace" when the tables are built, and their seconds.
using Progress = std::function<void(std::string_view stage, double seconds)>;
BuiltTrace build_trace(const spec::ProgramImage& image, std::span<const uint8_t> input,
                       const spec::ExecOptions& options, unsigned threads = 0, const Progress& progress = {});

}  // namespace zkrv::opt::trace
