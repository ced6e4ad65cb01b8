#pragma once
// The constraint spec (spec/tables/*.md) embedded in the binary at build time, so that what the
// verifier checks is literally the spec's text and no file is read at run time. The files come
// in load_spec_dir's order: air.md first, then the others sorted by name.

#include <vector>

#include "spec/air/spec.h"

namespace zkrv::spec::air {

const std::vector<SourceFile>& embedded_spec_files();
// Parsed and checked once per mode; throws std::logic_error if the embedded text does not load (a
// build bug).
const Spec& embedded_spec(Mode mode = Mode::kWhole);

}  // namespace zkrv::spec::air
