#pragma once
// The spec interpreter applied to a trace: every constraint and bus interaction of the parsed
// spec (spec/air) evaluated from its Markdown expression on every row it covers, reported to the
// same Sink as the reference evaluator, so tests can compare the two value for value.

#include <optional>
#include <string>

#include "reference/air/evaluate.h"
#include "spec/air/spec.h"

namespace zkrv::ref::air {

// Throws std::invalid_argument when a table or column of the spec is missing from the trace.
void interpret(const spec::air::Spec& spec, const AirTrace& trace, Sink& sink);

// Three-way agreement on one trace: every (ID, row) value and bus tuple of the reference
// evaluator equals the interpreter's, and both cover the same (ID, row) pairs. Returns the first
// difference, or nothing.
std::optional<std::string> spec_disagreement(const spec::air::Spec& spec, const AirTrace& trace);

}  // namespace zkrv::ref::air
