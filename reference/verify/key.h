#pragma once
// The program tree and the verifying key (spec/protocol.md, protocol:stark:program and
// protocol:stark:key): what the verifier derives from the ELF alone, once.

#include "reference/stark/air.h"
#include "spec/isa.h"
#include "spec/key.h"

namespace zkrv::ref::verify {

// protocol:stark:program — the root of the program tree at this blowup, from the program columns
// of `pre` (as stark::preprocessed or stark::segment_preprocessed derive them in `layout`'s AIR:
// both AIRs give the same tree).
spec::Digest program_root(const stark::AirLayout& layout, const stark::Preprocessed& pre, unsigned log_blowup);

// protocol:stark:key — the program's key: its digest, entry, the program tree's heights, and the
// program root for every blowup the options allow. Throws std::invalid_argument when a table
// built from the ELF would be taller than 2^24 rows (no proof of the program can be verified).
spec::ProgramKey make_key(const spec::ProgramImage& image);

// The heights of the program tree's tables (those with a program column), spec order, from
// every table's derived height.
std::vector<uint8_t> program_tree_heights(const stark::AirLayout& layout, const stark::Preprocessed& pre);

}  // namespace zkrv::ref::verify
