// zkrv-air-solve: asks Z3 whether each constraint of the spec is implied by the rest of its
// table, and whether each table's rows are determined by their bus interactions
// (tools/air_solve/solve.h says what is asked and what is left out). One line per constraint:
//   ID  implied (s)            the others imply it: unsatisfiable without it
//   ID  attack (s): ...        a row that satisfies the others and breaks it (a candidate)
//   ID  unknown (s): ...       no answer within --timeout
// then one line per table: unique, second witness (two rows, same interactions), or unknown.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "spec/air/embedded.h"
#include "tools/air_solve/solve.h"

int main(int argc, char** argv) {
  CLI::App app{"Ask Z3 which constraints of the spec are implied by the others, and whether each table's rows are "
               "determined by their bus interactions"};
  std::string table, constraint;
  double timeout = 10;
  bool no_unique = false, only_unique = false, padding = false, verbose = false, segmented = false;
  std::string at;
  app.add_option("--table", table, "only this table");
  app.add_option("--constraint", constraint, "only this constraint ID (implies its table)");
  app.add_option("--timeout", timeout, "seconds per solver call")->check(CLI::Range(0.01, 3600.0));
  std::vector<std::string> using_ids;
  app.add_option("--using", using_ids,
                 "with --constraint: ask only whether these constraints and interactions of its table (with the "
                 "interactions on those constraints' columns alone) imply it: implied, or unknown (a certificate check)")
      ->delimiter(',');
  std::vector<std::string> descent;
  app.add_option("--descent", descent,
                 "with --constraint: prove it by a descent through a bus instead (RECEIVE,FIELD,L: a row that breaks it "
                 "receives RECEIVE with that field at least L; solve.h says what is asked); --using may then name IDs of "
                 "any table")
      ->delimiter(',')
      ->expected(3);
  std::string once;
  app.add_option("--once", once,
                 "with --constraint: prove it by counting the tuples of this receive of its table instead (each sent at "
                 "most once, received by at most one row, so the receive's multiplicity is a bit; solve.h says what is "
                 "asked); --using may then name IDs of any table");
  std::vector<std::string> orders;
  app.add_option("--order", orders,
                 "with --once: TABLE,GUARD,KEY: the rows of TABLE with GUARD = 1 form a prefix along which KEY "
                 "increases (asked, not assumed); one for the sending table, one for the chain bus's source")
      ->delimiter(',');
  app.add_flag("--segmented", segmented,
               "ask about the segment AIR of a bundle (the statements marked segmented, protocol:segments:*) instead of "
               "a whole run's");
  app.add_flag("--verbose", verbose, "print each solver call of the implied question to stderr (subset, answer)");
  app.add_flag("--no-unique", no_unique, "skip the per-table uniqueness question");
  bool interacting = false;
  app.add_flag("--interacting", interacting,
               "ask the uniqueness question only about rows with a nonzero multiplicity on some interaction that is "
               "not a lookup send (padding rows, which nothing reads, are left out)");
  app.add_flag("--only-unique", only_unique, "ask only the per-table uniqueness question");
  bool by_columns = false;
  app.add_flag("--by-columns", by_columns,
               "ask the uniqueness question column by column at once (otherwise only where the whole rows give no "
               "answer); a column left is asked alone for a second witness that differs only there");
  std::vector<std::string> outputs;
  app.add_option("--outputs", outputs,
                 "BUS:FIELD,FIELD...: the uniqueness question as a function: these fields of the bus's interactions are "
                 "outputs, not fixed in the two rows (e.g. alu:r0,r1,r2,r3: is the result determined by the operation "
                 "and the operands?); may be repeated");
  std::vector<std::string> reads;
  app.add_option("--reads", reads,
                 "BUS:FIELD,FIELD...: with the question as a function, the receives on this bus read a state keyed by "
                 "these fields (e.g. mem:addr: a memory read): the key is the row's own, not fixed, and the rest of the "
                 "tuple follows from it where both rows read; may be repeated");
  bool silent = false;
  app.add_flag("--silent-padding", silent,
               "instead of 'implied?', ask of each interaction (of the tables with an is_real column) whether a row "
               "with is_real = 0 can have it active: silent, active (a candidate row: values), or unknown");
  app.add_flag("--padding", padding,
               "instead of 'implied?', search a padding row that breaks each constraint alone (every interaction "
               "inactive, small values): attack, none, or unknown; no uniqueness question");
  app.add_option("--at", at,
                 "instead of 'implied?', change the real row in FILE (lines 'prev', 'row', 'next': the values in column "
                 "order; 'public NAME=V ...') so that it breaks --constraint alone with its interactions unchanged")
      ->check(CLI::ExistingFile);
  CLI11_PARSE(app, argc, argv);
  const auto& spec = zkrv::spec::air::embedded_spec(segmented ? zkrv::spec::air::Mode::kSegmented : zkrv::spec::air::Mode::kWhole);
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
  if (!using_ids.empty() && (constraint.empty() || padding || only_unique || !at.empty())) {
    std::fprintf(stderr, "zkrv-air-solve: --using needs --constraint, and none of --padding, --only-unique, --at\n");
    return 64;
  }
  if (!descent.empty() && (constraint.empty() || padding || only_unique || !at.empty())) {
    std::fprintf(stderr, "zkrv-air-solve: --descent needs --constraint, and none of --padding, --only-unique, --at\n");
    return 64;
  }
  if ((!once.empty() || !orders.empty()) && (constraint.empty() || padding || only_unique || !at.empty() || !descent.empty())) {
    std::fprintf(stderr, "zkrv-air-solve: --once needs --constraint, and none of --padding, --only-unique, --at, --descent\n");
    return 64;
  }
  if (!orders.empty() && (once.empty() || orders.size() % 3 != 0)) {
    std::fprintf(stderr, "zkrv-air-solve: --order takes TABLE,GUARD,KEY, with --once\n");
    return 64;
  }
  std::optional<zkrv::spec::air::Once> once_of;
  if (!once.empty()) {
    once_of.emplace();
    once_of->receive = once;
    for (size_t i = 0; i < orders.size(); i += 3) once_of->orders.push_back({orders[i], orders[i + 1], orders[i + 2]});
  }
  std::optional<zkrv::spec::air::Descent> descent_of;
  if (!descent.empty()) {
    auto number = [](const std::string& x, uint64_t& v) {
      if (x.empty() || x.size() > 19 || x.find_first_not_of("0123456789") != std::string::npos) return false;
      v = std::stoull(x);
      return true;
    };
    uint64_t field = 0, from = 0;
    if (descent.size() != 3 || !number(descent[1], field) || !number(descent[2], from)) {
      std::fprintf(stderr, "zkrv-air-solve: --descent takes RECEIVE,FIELD,L (FIELD and L decimal numbers)\n");
      return 64;
    }
    descent_of = zkrv::spec::air::Descent{descent[0], static_cast<size_t>(field), from};
  }
  if (silent && (!constraint.empty() || padding || only_unique || !at.empty() || !using_ids.empty())) {
    std::fprintf(stderr, "zkrv-air-solve: --silent-padding takes --table and --timeout alone\n");
    return 64;
  }
  if (silent) {
    zkrv::air_solve::Options options;
    options.timeout_ms = static_cast<unsigned>(timeout * 1000);
    size_t active = 0;
    for (const auto& t : spec.tables) {
      if (!table.empty() && t.name != table) continue;
      for (const auto& a : zkrv::air_solve::padding_silent(spec, t.name, options)) {
        const char* v = a.verdict == zkrv::air_solve::Verdict::kImplied  ? "silent"
                        : a.verdict == zkrv::air_solve::Verdict::kAttack ? "active"
                                                                          : "unknown";
        std::printf("%s  %s (%.2f s)", a.id.c_str(), v, a.seconds);
        if (a.verdict == zkrv::air_solve::Verdict::kAttack) {
          ++active;
          std::printf(":");
          for (const auto& x : a.model) std::printf(" %s=%s", x.column.c_str(), x.shown.c_str());
        }
        std::printf("\n");
        std::fflush(stdout);
      }
    }
    std::printf("%zu active on a padding row\n", active);
    return 0;
  }
  zkrv::air_solve::TraceRows rows;
  if (!at.empty()) {
    if (constraint.empty() || padding || only_unique) {
      std::fprintf(stderr, "zkrv-air-solve: --at needs --constraint, and neither --padding nor --only-unique\n");
      return 64;
    }
    std::ifstream in(at);
    std::string line;
    size_t n = 0;
    while (std::getline(in, line)) {
      ++n;
      std::istringstream ls(line);
      std::string kind;
      if (!(ls >> kind) || kind[0] == '#') continue;
      if (kind == "public") {
        for (std::string kv; ls >> kv;) {
          const auto eq = kv.find('=');
          if (eq == std::string::npos) {
            std::fprintf(stderr, "zkrv-air-solve: %s:%zu: expected NAME=VALUE, not '%s'\n", at.c_str(), n, kv.c_str());
            return 64;
          }
          const std::string v = kv.substr(eq + 1);
          if (v.empty() || v.size() > 20 || v.find_first_not_of("0123456789") != std::string::npos) {
            std::fprintf(stderr, "zkrv-air-solve: %s:%zu: '%s' is not a number\n", at.c_str(), n, v.c_str());
            return 64;
          }
          try {
            rows.publics.emplace_back(kv.substr(0, eq), std::stoull(v));
          } catch (const std::exception&) {
            std::fprintf(stderr, "zkrv-air-solve: %s:%zu: '%s' is out of range\n", at.c_str(), n, v.c_str());
            return 64;
          }
        }
        continue;
      }
      std::vector<uint64_t> values;
      for (std::string v; ls >> v;) {
        if (v.empty() || v.size() > 20 || v.find_first_not_of("0123456789") != std::string::npos) {
          std::fprintf(stderr, "zkrv-air-solve: %s:%zu: '%s' is not a number\n", at.c_str(), n, v.c_str());
          return 64;
        }
        try {
          values.push_back(std::stoull(v));
        } catch (const std::exception&) {
          std::fprintf(stderr, "zkrv-air-solve: %s:%zu: '%s' is out of range\n", at.c_str(), n, v.c_str());
          return 64;
        }
      }
      if ((kind == "prev" && rows.prev) || (kind == "row" && !rows.row.empty()) || (kind == "next" && rows.next)) {
        std::fprintf(stderr, "zkrv-air-solve: %s:%zu: a second '%s' line\n", at.c_str(), n, kind.c_str());
        return 64;
      }
      if (kind == "prev") rows.prev = values;
      else if (kind == "row") rows.row = values;
      else if (kind == "next") rows.next = values;
      else {
        std::fprintf(stderr, "zkrv-air-solve: %s:%zu: a line starts with prev, row, next or public, not '%s'\n", at.c_str(), n,
                     kind.c_str());
        return 64;
      }
    }
  }
  zkrv::air_solve::Options options;
  options.timeout_ms = static_cast<unsigned>(timeout * 1000);
  options.using_ids = using_ids;
  options.descent = descent_of;
  options.once = once_of;
  options.interacting = interacting;
  options.by_columns = by_columns;
  // BUS:FIELD,FIELD... into `into`; false (after one error line) on a malformed one
  auto bus_fields = [](const char* flag, const std::vector<std::string>& given, std::map<std::string, std::set<std::string>>& into) {
    for (const auto& o : given) {
      const size_t colon = o.find(':');
      if (colon == std::string::npos || colon == 0 || colon + 1 == o.size()) {
        std::fprintf(stderr, "zkrv-air-solve: %s takes BUS:FIELD,FIELD..., not '%s'\n", flag, o.c_str());
        return false;
      }
      auto& fields = into[o.substr(0, colon)];
      for (size_t at = colon + 1; at <= o.size();) {
        const size_t comma = std::min(o.find(',', at), o.size());
        if (comma == at) {
          std::fprintf(stderr, "zkrv-air-solve: %s '%s' has an empty field name\n", flag, o.c_str());
          return false;
        }
        fields.insert(o.substr(at, comma - at));
        at = comma + 1;
      }
    }
    return true;
  };
  if (!bus_fields("--outputs", outputs, options.outputs) || !bus_fields("--reads", reads, options.reads)) return 64;
  if (verbose) options.progress = [](const std::string& line) { std::fprintf(stderr, "  %s\n", line.c_str()); };
  size_t counts[3] = {0, 0, 0};
  bool found = constraint.empty();
  for (const auto& t : spec.tables) {
    if (!table.empty() && t.name != table) continue;
    if (!only_unique)
      for (const auto& c : t.constraints) {
        if (!constraint.empty() && c.id != constraint) continue;
        found = true;
        zkrv::air_solve::Answer a;
        try {
          a = !at.empty() ? zkrv::air_solve::row_attack(spec, t.name, c.id, rows, options)
              : padding   ? zkrv::air_solve::padding_attack(spec, t.name, c.id, options)
                          : zkrv::air_solve::implied(spec, t.name, c.id, options);
        } catch (const std::invalid_argument& e) {
          std::fprintf(stderr, "zkrv-air-solve: %s%s%s\n", at.c_str(), at.empty() ? "" : ": ", e.what());
          return 64;
        }
        ++counts[static_cast<int>(a.verdict)];
        std::printf("%s\n", zkrv::air_solve::format(a).c_str());
        std::fflush(stdout);
      }
    if (constraint.empty() && !no_unique && !padding && at.empty()) {
      try {
        std::printf("%s\n", zkrv::air_solve::format(zkrv::air_solve::unique(spec, t.name, options)).c_str());
      } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "zkrv-air-solve: %s\n", e.what());
        return 64;
      }
      std::fflush(stdout);
    }
  }
  if (!found) {
    std::fprintf(stderr, "zkrv-air-solve: no constraint '%s' in table '%s'\n", constraint.c_str(), table.c_str());
    return 64;
  }
  if (!only_unique)
    std::printf("%zu %s, %zu attacks, %zu unknown (timeout %.2f s)\n", counts[0], padding || !at.empty() ? "none" : "implied", counts[1],
                counts[2], timeout);
  return 0;
}
