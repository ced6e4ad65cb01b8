#pragma once
// The AIR trace: one matrix of canonical field values per table of spec/tables, columns named
// and ordered as the spec declares them, plus the public values. build_trace turns an executed
// run (ExecResult with its StepRecords) into it, padding rules included.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "spec/isa.h"

namespace zkrv::ref::air {

struct TraceTable {
  std::string name;
  std::vector<std::string> columns;
  std::vector<std::vector<uint64_t>> rows;
  size_t col(const std::string& column) const;  // throws std::out_of_range for an unknown name
  size_t height() const { return rows.size(); }
};

struct AirTrace {
  std::vector<TraceTable> tables;  // in spec order: byte, cpu, program, range16, regs
  std::map<std::string, uint64_t> publics;
  TraceTable& table(const std::string& name);
  const TraceTable& table(const std::string& name) const;
};

// Throws std::invalid_argument unless the run exited (faulted runs are not proven) and carries
// its trace (ExecOptions::trace).
AirTrace build_trace(const spec::ProgramImage& image, const spec::ExecResult& run);

}  // namespace zkrv::ref::air
