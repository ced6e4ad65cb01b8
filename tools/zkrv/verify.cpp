// zkrv verify: the host API's verify (api/verifier.cpp) of a proof against the statement the user
// gives (the ELF, the expected exit code, optionally the expected public output) under the
// caller's security policy.
#include <chrono>
#include <cstdio>
#include <iostream>

#include "reference/stark/air.h"
#include "spec/bundle.h"
#include "tools/common/files.h"
#include "tools/zkrv/commands.h"
#include "tools/zkrv/exit_codes.h"

namespace zkrv::cli {


CLI::App* add_verify(CLI::App& app, VerifyArgs& a) {
  auto* v = app.add_subcommand("verify", "Verify a proof: the program, run on some private input, exited with the "
                                         "expected code and wrote the public output");
  v->add_option("PROOF", a.proof, "proof file written by zkrv prove: a proof of one run, or a bundle of a run in "
                                  "segments (told apart by their first bytes)")->required();
  auto* which = v->add_option_group("program", "the program the proof must be about");
  which->add_option("--program", a.program, "the guest ELF");
  which->add_option("--key", a.key, "its verifying key (zkrv key): verifying then takes the same time whatever the "
                                    "size of the program's image");
  which->require_option(1);
  v->add_option("--exit-code", a.exit_code, "the exit code the proof must show (a proof of any other code is "
                                            "rejected)")->capture_default_str()->check(uint_range(0, UINT32_MAX));
  v->add_option("--output", a.output, "file with the expected public output, compared byte for byte (without it, "
                                      "the output the proof claims is verified and its length printed)");
  auto* sec = v->add_option("--security", a.security,
                            "the security this verifier accepts: provable (at least 100 provable bits) or "
                            "conjectured (at least 100 bits under the ethSTARK conjecture; accepts weaker proofs)")
                  ->capture_default_str()->check(CLI::IsMember({"provable", "conjectured"}));
  v->add_option("--min-provable-bits", a.min_provable_bits,
                "accept proofs with at least B provable bits instead (below 100 only when asked for here)")
      ->check(real_range(0, spec::kHashCollisionBits))->excludes(sec);
  v->add_flag("--json", a.json, "print one JSON object: the verdict, the statement, the policy, and every term of "
                                "both security figures with the shape they were computed for");
  v->add_option("--write-output", a.write_output, "once the proof is verified, write the public output it proves to FILE "
                                                  "(atomically; - is stdout, and the verdict then goes to stderr); nothing "
                                                  "is written for a rejected proof");
  v->footer("Prints \"verified: ...\" (program digest, exit code, output length, provable and conjectured bits,\n"
            "the policy that held) or \"rejected: <stage>: <reason>\"; a proof whose options give less than the\n"
            "policy is rejected at the security stage. Exit code: 0 verified, 1 rejected (the proof does not\n"
            "prove this statement), 65 malformed proof file, ELF or key, 66 file missing or unreadable (or --write-output\n"
            "not written), 64 usage, 71 out of memory (the table: zkrv --help).");
  return v;
}

namespace {

// Where the verdict goes: stderr when the proven output takes stdout (--write-output -).
FILE* verdict_stream(const VerifyArgs& a) { return a.write_output == "-" ? stderr : stdout; }

// --write-output: the proven public output, after the verdict (called only for a verified proof).
int write_proven_output(const VerifyArgs& a, const std::vector<uint8_t>& output) {
  if (a.write_output.empty()) return 0;
  if (a.write_output == "-") {
    std::fwrite(output.data(), 1, output.size(), stdout);
    return std::fflush(stdout) == 0 ? 0 : fail(kIoError, "cannot write the proven output to stdout");
  }
  if (auto err = tools::write_file_atomic(a.write_output, output); !err.empty()) return fail(kIoError, err);
  return 0;
}

const char* rejection_stage(const zkrv::Verdict& v) { return zkrv::stage_name(v.rejection->stage); }

// The verdict as one JSON object (--json): the verdict, the statement the proof claims, the policy,
// and, once computed, the security (for one proof every term of both figures with the shape, from
// the proof's options; for a bundle the two figures).
void print_json(std::span<const uint8_t> bytes, const zkrv::Verdict& v, const spec::SecurityPolicy& policy, double secs) {
  const zkrv::Statement& st = *v.statement;
  const std::string where = v.rejection && v.rejection->segment ? "segment " + std::to_string(*v.rejection->segment) + ": " : "";
  std::printf("{\"verified\":%s", v.ok() ? "true" : "false");
  if (!v.ok())
    std::printf(",\"stage\":\"%s\",\"check\":\"%s\",\"what\":\"%s\"", rejection_stage(v), v.rejection->check.c_str(),
                json_escape(where + v.rejection->what).c_str());
  if (v.rejection && v.rejection->segment) std::printf(",\"segment\":%llu", static_cast<unsigned long long>(*v.rejection->segment));
  std::printf(",\"program\":\"%s\",\"exit_code\":%u,\"output_bytes\":%zu,\"output_hex\":\"%s\"",
              hex_bytes(st.program).c_str(), st.exit_code, st.output.size(), hex_bytes(st.output).c_str());
  if (st.bundle) {
    std::printf(",\"segments\":%llu,\"log_segment_cycles\":%u", static_cast<unsigned long long>(st.segments), st.log_segment_cycles);
  } else {
    std::printf(",\"log_heights\":[");
    for (size_t t = 0; t < st.log_heights.size(); ++t) std::printf("%s%u", t ? "," : "", unsigned{st.log_heights[t]});
    std::printf("]");
  }
  std::printf(",\"policy\":{\"measure\":\"%s\",\"min_bits\":%.17g}", spec::measure_name(policy.measure), policy.min_bits);
  if (v.security_computed && st.bundle) {
    std::printf(",\"provable_bits\":%.1f,\"conjectured_bits\":%.1f", v.provable_bits, v.conjectured_bits);
  } else if (v.security_computed) {  // every term, recomputed from the options the verifier accepted
    const auto p = spec::decode_stark_proof(bytes);
    const auto shape = ref::stark::air_layout().security_shape(st.log_heights);
    std::printf(",%s", security_json(p.proof->options, shape, spec::stark_security(p.proof->options, shape)).c_str());
  }
  std::printf(",\"seconds\":%.3f}\n", secs);
}

}  // namespace

int cmd_verify(const VerifyArgs& a) {
  const auto t0 = std::chrono::steady_clock::now();
  if (a.json && a.write_output == "-") return fail(kUsage, "--json and --write-output - both want stdout: write the output to a file");
  const spec::SecurityPolicy policy =
      a.min_provable_bits >= 0 ? spec::SecurityPolicy::at_least(spec::SecurityPolicy::Measure::kProvable, a.min_provable_bits)
                               : spec::SecurityPolicy::preset(a.security);
  if (a.program.empty() && a.key.empty()) return fail(kUsage, "--program and --key need a file name (see zkrv verify --help)");
  std::optional<zkrv::Program> program;
  std::optional<zkrv::Key> key;
  try {
    if (!a.key.empty()) key = zkrv::Key::from_file(a.key);
    else program = zkrv::Program::from_file(a.program);
  } catch (const zkrv::Error& e) {
    return fail_api(e, {}, 0);
  }
  auto proof = tools::read_file(a.proof, uint64_t{1} << 30, "proof");
  if (!proof.bytes) return fail(kIoError, proof.error);
  zkrv::Expected expected{a.exit_code, std::nullopt};
  if (!a.output.empty()) {
    auto out = tools::read_file(a.output, uint64_t{1} << 30, "output");
    if (!out.bytes) return fail(kIoError, out.error);
    expected.output = std::move(*out.bytes);
  }
  const zkrv::Policy api_policy{policy.measure == spec::SecurityPolicy::Measure::kProvable ? zkrv::Policy::Measure::kProvable
                                                                                          : zkrv::Policy::Measure::kConjectured,
                                policy.min_bits};
  const zkrv::Verdict v = key ? zkrv::verify(*key, *proof.bytes, expected, api_policy)
                              : zkrv::verify(*program, *proof.bytes, expected, api_policy);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!v.statement) {  // malformed: the verdict as JSON too; the exit code stays that of a malformed file
    if (a.json)
      std::printf("{\"verified\":false,\"stage\":\"malformed\",\"check\":\"malformed\",\"what\":\"%s\"}\n",
                  json_escape(v.rejection->what).c_str());
    return fail(kBadInput, a.proof + (spec::is_bundle(*proof.bytes) ? ": malformed bundle: " : ": malformed proof: ") +
                               v.rejection->what);
  }
  const zkrv::Statement& st = *v.statement;
  if (a.json) {
    print_json(*proof.bytes, v, policy, secs);
    return v.ok() ? write_proven_output(a, st.output) : kFailed;
  }
  if (!v.ok()) {
    const std::string where = v.rejection->segment ? "segment " + std::to_string(*v.rejection->segment) + ": " : "";
    std::fprintf(verdict_stream(a), "rejected: %s: %s%s\n", rejection_stage(v), where.c_str(), v.rejection->what.c_str());
    return kFailed;
  }
  const std::string shape = st.bundle ? "; " + std::to_string(st.segments) + " segments of 2^" + std::to_string(st.log_segment_cycles) + " cycles" : "";
  std::fprintf(verdict_stream(a), "verified: program %s, exit code %u, output %zu bytes%s%s; %.1f provable bits, "
               "%.1f conjectured bits; policy %s held (%.2f s)\n",
               hex_bytes(st.program).c_str(), st.exit_code, st.output.size(),
               a.output.empty() ? " (claimed by the proof; no --output given)" : "", shape.c_str(), v.provable_bits,
               v.conjectured_bits, policy.str().c_str(), secs);
  return write_proven_output(a, st.output);
}

}  // namespace zkrv::cli
