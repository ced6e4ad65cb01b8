// zkrv-air-solve: asks Z3 whether each constraint of the spec is implied by the rest of its
// table, and whether each table's rows are determined by their bus interactions
// (tools/air_solve/solve.h says what is asked and what is left out). One line per constraint:
//   ID  implied (s)            the others imply it: unsatisfiable without it
//   ID  attack (s): ...        a row that satisfies the others and breaks it (a candidate)
//   ID  unknown (s): ...       no answer within --timeout
// then one line per table: unique, second witness (two rows, same interactions), or unknown.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <string>

#include "spec/air/embedded.h"
#include "tools/air_solve/solve.h"

int main(int argc, char** argv) {
  CLI::App app{"Ask Z3 which constraints of the spec are implied by the others, and whether each table's rows are "
               "determined by their bus interactions"};
  std::string table, constraint;
  double timeout = 10;
  bool no_unique = false, only_unique = false, padding = false;
  app.add_option("--table", table, "only this table");
  app.add_option("--constraint", constraint, "only this constraint ID (implies its table)");
  app.add_option("--timeout", timeout, "seconds per solver call")->check(CLI::Range(0.01, 3600.0));
  app.add_flag("--no-unique", no_unique, "skip the per-table uniqueness question");
  app.add_flag("--only-unique", only_unique, "ask only the per-table uniqueness question");
  app.add_flag("--padding", padding,
               "instead of 'implied?', search a padding row that breaks each constraint alone (every interaction "
               "inactive, small values): attack, none, or unknown; no uniqueness question");
  CLI11_PARSE(app, argc, argv);
  const auto& spec = zkrv::spec::air::embedded_spec();
  if (!constraint.empty()) {
    const auto colon = constraint.find(':');
    if (colon == std::string::npos) {
      std::fprintf(stderr, "zkrv-air-solve: '%s' is not a constraint ID (TABLE:c:NAME)\n", constraint.c_str());
      return 64;
    }
    if (table.empty()) table = constraint.substr(0, colon);
  }
  if (!table.empty() && !spec.table(table)) {
    std::fprintf(stderr, "zkrv-air-solve: no table '%s'\n", table.c_str());
    return 64;
  }
  zkrv::air_solve::Options options;
  options.timeout_ms = static_cast<unsigned>(timeout * 1000);
  size_t counts[3] = {0, 0, 0};
  bool found = constraint.empty();
  for (const auto& t : spec.tables) {
    if (!table.empty() && t.name != table) continue;
    if (!only_unique)
      for (const auto& c : t.constraints) {
        if (!constraint.empty() && c.id != constraint) continue;
        found = true;
        const auto a = padding ? zkrv::air_solve::padding_attack(spec, t.name, c.id, options)
                               : zkrv::air_solve::implied(spec, t.name, c.id, options);
        ++counts[static_cast<int>(a.verdict)];
        std::printf("%s\n", zkrv::air_solve::format(a).c_str());
        std::fflush(stdout);
      }
    if (constraint.empty() && !no_unique && !padding) {
      std::printf("%s\n", zkrv::air_solve::format(zkrv::air_solve::unique(spec, t.name, options)).c_str());
      std::fflush(stdout);
    }
  }
  if (!found) {
    std::fprintf(stderr, "zkrv-air-solve: no constraint '%s' in table '%s'\n", constraint.c_str(), table.c_str());
    return 64;
  }
  if (!only_unique)
    std::printf("%zu %s, %zu attacks, %zu unknown (timeout %.2f s)\n", counts[0], padding ? "none" : "implied", counts[1],
                counts[2], timeout);
  return 0;
}
