#pragma once
// Source locations of a guest ELF from its DWARF (read with elfutils' libdw): for every
// executable address, the source file and line, and the chain of functions inlined at that
// address, innermost last. The profiler uses them to show inlined frames and lines.
//
// libdw rather than LLVM's DebugInfo: it is a small Debian package with a stable C API, it reads
// DWARF 4 and 5 of any architecture, and it keeps LLVM's libraries out of the host build.
//
// Reads defensively: an ELF without DWARF, or with DWARF libdw rejects, gives no locations
// (warning() says why), never a crash. Addresses are kept in sorted ranges, so a lookup is a
// binary search and the profiler stays linear in the run's length.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace zkrv::tools::profile {

// A function inlined into another: `parent` is the inlined frame it sits in (-1: directly in the
// code of the ELF symbol's function), and call_file:call_line is where, in that outer
// function's source, it was inlined.
struct InlineFrame {
  int parent = -1;
  std::string name;  // demangled
  int call_file = -1;
  uint32_t call_line = 0;
};

// Where an address is: the innermost inlined frame (-1: none) and its source file:line
// (file -1 and line 0 where DWARF gives no line).
struct Location {
  int inline_frame = -1;
  int file = -1;
  uint32_t line = 0;
};

// One frame of a location's expansion, outermost first.
struct SourceFrame {
  std::string name;
  int file = -1;
  uint32_t line = 0;
  bool inlined = false;
};

class DebugInfo {
 public:
  struct Range {
    uint64_t start, end;  // [start, end)
    int location;
  };
  // No locations when the ELF has no DWARF or libdw cannot read it.
  static DebugInfo from_elf(std::span<const uint8_t> elf);
  bool empty() const { return ranges_.empty(); }
  // Index into ranges() of the range holding pc, or -1.
  int find_range(uint64_t pc) const;
  const std::vector<Range>& ranges() const { return ranges_; }
  const std::vector<Location>& locations() const { return locations_; }
  const std::vector<InlineFrame>& inline_frames() const { return inline_frames_; }
  // The file's name as DWARF gives it (usually absolute); "??" for -1.
  const std::string& file(int id) const;
  // The frames of a location inside the function `outer` (the ELF symbol's name), outermost
  // first: `outer` at the line where the first inlined function was inlined (or the location's
  // line when nothing is inlined), then each inlined function, the innermost at the location's
  // line. `location` -1 gives `outer` alone with no line.
  std::vector<SourceFrame> expand(int location, const std::string& outer) const;
  // Empty, or why DWARF was not used or what in it was skipped: worth a warning, never fatal.
  const std::string& warning() const { return warning_; }

 private:
  std::vector<Range> ranges_;  // sorted, non-overlapping
  std::vector<Location> locations_;
  std::vector<InlineFrame> inline_frames_;
  std::vector<std::string> files_;
  std::string warning_;
  friend class DebugInfoBuilder;
};

}  // namespace zkrv::tools::profile
