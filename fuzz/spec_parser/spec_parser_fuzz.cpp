// fuzz/spec_parser: arbitrary bytes as a table document (after the repository's air.md, and on
// their own as air.md) into the constraint spec loader: it returns errors that name a file and
// line, or a spec whose every expression evaluates; it never crashes, throws or reads out of
// bounds.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "spec/air/spec.h"

namespace {
const char* kAir =
    "```zkrv\nmax_degree 3\npublic entry \"e\"\nbusdef byte (value: byte)\nbusdef program (pc: u32, insn: u32)\n```\n";
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace zkrv::spec::air;
  const std::string doc(reinterpret_cast<const char*>(data), size);
  for (const auto& files : {std::vector<SourceFile>{{"air.md", kAir}, {"t.md", doc}}, std::vector<SourceFile>{{"air.md", doc}}}) {
    const auto r = load_spec(files);
    if (!r.spec) {
      if (r.errors.empty()) std::abort();
      for (const auto& e : r.errors)
        if (e.at.file.empty() || e.what.empty()) std::abort();
      continue;
    }
    for (const auto& t : r.spec->tables)
      for (const auto& c : t.constraints) {
        if (degree(*c.expr) > r.spec->max_degree) std::abort();
        eval(*c.expr, [](const std::string&, bool) { return uint64_t{3}; });
      }
  }
  return 0;
}
