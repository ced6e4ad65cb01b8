// zkrv security: a preset's security figures and every term (spec/protocol.md,
// protocol:stark:security), for the largest shape of a proof at a tallest height; and the JSON
// members that zkrv verify --json shares.
#include <cstdio>
#include <string>

#include "reference/stark/air.h"
#include "tools/zkrv/commands.h"

namespace zkrv::cli {

// The options, the shape and every term of both figures (log2 of each error), as JSON members:
// what an outside script needs to recompute the figures from the spec's formulas.
std::string security_json(const spec::StarkOptions& o, const spec::SecurityShape& sh, const spec::StarkSecurity& s) {
  char buf[2048];
  std::snprintf(buf, sizeof buf,
                "\"options\":{\"log_blowup\":%u,\"num_queries\":%u,\"pow_bits\":%u,\"log_final_size\":%u},"
                "\"shape\":{\"log_max_height\":%u,\"log_min_height\":%u,\"heights\":%u,\"constraints\":%zu,"
                "\"log_interactions\":%.17g,\"max_arity\":%zu,\"opened_columns\":%zu,\"opened_values\":%zu},"
                "\"security\":{\"provable_bits\":%.17g,\"conjectured_bits\":%.17g,\"hash_cap_bits\":%.17g,"
                "\"log_ali\":%.17g,\"log_logup\":%.17g,\"log_deep\":%.17g,\"log_list\":%.17g,"
                "\"johnson_log_height\":%u,\"johnson_holds\":%s,"
                "\"fri\":{\"provable_bits\":%.17g,\"conjectured_bits\":%.17g,\"johnson_m\":%u,\"commit_weight\":%.17g,"
                "\"log_commit\":%.17g,\"log_query\":%.17g}}",
                o.log_blowup, o.num_queries, o.pow_bits, o.log_final_size, sh.log_max_height, sh.log_min_height,
                sh.heights, sh.constraints, sh.log_interactions, sh.max_arity, sh.opened_columns, sh.opened_values,
                s.provable_bits, s.conjectured_bits, spec::kHashCollisionBits, s.log_ali, s.log_logup, s.log_deep,
                s.log_list, s.johnson_log_height, s.johnson_holds ? "true" : "false", s.fri.provable_bits,
                s.fri.conjectured_bits, s.fri.johnson_m, s.fri.commit_weight, s.fri.log_commit, s.fri.log_query);
  return buf;
}

CLI::App* add_security(CLI::App& app, SecurityArgs& a) {
  auto* c = app.add_subcommand("security", "Print the security figures of a preset's options for the largest proof "
                                           "whose tallest table has 2^N rows");
  c->add_option("--security", a.security, "the preset: provable or conjectured")
      ->capture_default_str()->check(CLI::IsMember({"provable", "conjectured"}));
  c->add_option("--log-max", a.log_max, "the tallest table's log2 height (the fixed and8 and range16 tables make it at "
                                        "least 16)")
      ->capture_default_str()->check(uint_range(16, spec::kMaxLogHeight));
  c->add_flag("--json", a.json, "print every term as zkrv verify --json does");
  c->footer("The shape is the largest such a proof can have (every table 2^N rows, every height from 2^5 up\n"
            "occurring); a proof's own figures are at least these. The terms are spec/protocol.md's\n"
            "protocol:stark:security and protocol:fri:security.");
  return c;
}

int cmd_security(const SecurityArgs& a) {
  const spec::StarkOptions o = spec::stark_preset(a.security);
  const spec::SecurityShape sh = ref::stark::air_layout().largest_security_shape(a.log_max);
  const spec::StarkSecurity s = spec::stark_security(o, sh);
  if (a.json) {
    std::printf("{\"preset\":\"%s\",%s}\n", a.security.c_str(), security_json(o, sh, s).c_str());
    return 0;
  }
  std::printf("%s preset (blowup %u, %u queries, %u grinding bits) at 2^%u: %.1f provable bits, %.1f conjectured "
              "bits (at most %.0f, the hash's)\n",
              a.security.c_str(), 1u << o.log_blowup, o.num_queries, o.pow_bits, a.log_max, s.provable_bits,
              s.conjectured_bits, spec::kHashCollisionBits);
  std::printf("terms (log2 of each error): FRI commit %.1f, FRI query %.1f (m = %u), ALI %.1f, LogUp %.1f, DEEP "
              "%.1f, list size 2^%.1f\n",
              s.fri.log_commit, s.fri.log_query, s.fri.johnson_m, s.log_ali, s.log_logup, s.log_deep, s.log_list);
  std::printf("Johnson-regime rate condition: holds for tables of at least 2^%u rows\n", s.johnson_log_height);
  return 0;
}

}  // namespace zkrv::cli
