// zkrv verify: check a proof against the statement the user gives (the ELF, the expected exit
// code, optionally the expected public output) under the caller's security policy.
#include <chrono>
#include <cstdio>
#include <iostream>

#include "reference/elf/elf_loader.h"
#include "reference/verify/verify.h"
#include "tools/common/files.h"
#include "tools/zkrv/commands.h"
#include "tools/zkrv/exit_codes.h"

namespace zkrv::cli {


CLI::App* add_verify(CLI::App& app, VerifyArgs& a) {
  auto* v = app.add_subcommand("verify", "Verify a proof: the program, run on some private input, exited with the "
                                         "expected code and wrote the public output");
  v->add_option("PROOF", a.proof, "proof file written by zkrv prove: a proof of one run, or a bundle of a run in "
                                  "segments (told apart by their first bytes)")->required();
  v->add_option("--program", a.program, "the guest ELF the proof must be about")->required();
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
            "prove this statement), 65 malformed proof file or ELF, 66 file missing or unreadable (or --write-output\n"
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

// The verdict as one JSON object (--json), with the security members when they were computed.
void print_json(const spec::StarkProof& p, const ref::verify::VerifyResult& r, const spec::SecurityPolicy& policy,
                double secs) {
  const spec::Statement& st = p.statement;
  std::printf("{\"verified\":%s", r.ok() ? "true" : "false");
  if (!r.ok())
    std::printf(",\"stage\":\"%s\",\"check\":\"%s\",\"what\":\"%s\"", ref::verify::stage_name(r.rejection->stage),
                ref::verify::check_name(r.rejection->check), json_escape(r.rejection->what).c_str());
  // the statement the proof claims: program digest, exit code, output and the table heights
  std::printf(",\"program\":\"%s\",\"exit_code\":%u,\"output_bytes\":%zu,\"output_hex\":\"%s\",\"log_heights\":[",
              hex_bytes(st.program_digest).c_str(), st.exit_code, st.output.size(), hex_bytes(st.output).c_str());
  for (size_t t = 0; t < st.log_heights.size(); ++t) std::printf("%s%u", t ? "," : "", unsigned{st.log_heights[t]});
  std::printf("]");
  std::printf(",\"policy\":{\"measure\":\"%s\",\"min_bits\":%.17g}", spec::measure_name(policy.measure),
              policy.min_bits);
  if (r.ok() || r.rejection->stage == ref::verify::Rejection::Stage::kSecurity)
    std::printf(",%s", security_json(p.options, r.shape, r.security).c_str());
  std::printf(",\"seconds\":%.3f}\n", secs);
}

// spec: protocol:segments:* — a bundle (magic ZKRV-SEG): every segment, the one LogUp sum, the
// bundle's security (the union over its segments).
int verify_bundle(const VerifyArgs& a, const std::vector<uint8_t>& bytes, const Guest& g, const std::vector<uint8_t>* output,
                  const spec::SecurityPolicy& policy, std::chrono::steady_clock::time_point t0) {
  const auto parsed = spec::decode_bundle(bytes);
  if (!parsed.proof) {
    const std::string why = parsed.error->what + " at byte " + std::to_string(parsed.error->offset);
    if (a.json)
      std::printf("{\"verified\":false,\"stage\":\"malformed\",\"check\":\"malformed\",\"what\":\"%s\"}\n",
                  json_escape(why).c_str());
    return fail(kBadInput, a.proof + ": malformed bundle: " + why);
  }
  const spec::BundleStatement& st = parsed.proof->statement;
  const auto r = ref::verify::verify_bundle(*parsed.proof, {&g.image, a.exit_code, output}, policy);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::string where = r.segment ? "segment " + std::to_string(*r.segment) + ": " : "";
  if (a.json) {
    std::printf("{\"verified\":%s", r.ok() ? "true" : "false");
    if (!r.ok())
      std::printf(",\"stage\":\"%s\",\"check\":\"%s\",\"what\":\"%s\"", ref::verify::stage_name(r.rejection->stage),
                  ref::verify::check_name(r.rejection->check), json_escape(where + r.rejection->what).c_str());
    if (r.segment) std::printf(",\"segment\":%zu", *r.segment);
    std::printf(",\"program\":\"%s\",\"exit_code\":%u,\"output_bytes\":%zu,\"output_hex\":\"%s\",\"segments\":%zu,"
                "\"log_segment_cycles\":%u,\"policy\":{\"measure\":\"%s\",\"min_bits\":%.17g}",
                hex_bytes(st.program_digest).c_str(), st.exit_code, st.output.size(), hex_bytes(st.output).c_str(),
                st.segments(), st.log_segment, spec::measure_name(policy.measure), policy.min_bits);
    if (r.ok() || r.rejection->stage == ref::verify::Rejection::Stage::kSecurity)
      std::printf(",\"provable_bits\":%.1f,\"conjectured_bits\":%.1f", r.security.provable_bits, r.security.conjectured_bits);
    std::printf(",\"seconds\":%.3f}\n", secs);
    return r.ok() ? write_proven_output(a, st.output) : kFailed;
  }
  if (!r.ok()) {
    std::fprintf(verdict_stream(a), "rejected: %s: %s%s\n", ref::verify::stage_name(r.rejection->stage), where.c_str(),
                 r.rejection->what.c_str());
    return kFailed;
  }
  std::fprintf(verdict_stream(a), "verified: program %s, exit code %u, output %zu bytes%s; %zu segments of 2^%u cycles; "
               "%.1f provable bits, %.1f conjectured bits; policy %s held (%.2f s)\n",
              hex_bytes(st.program_digest).c_str(), st.exit_code, st.output.size(),
              output ? "" : " (claimed by the proof; no --output given)", st.segments(), st.log_segment,
              r.security.provable_bits, r.security.conjectured_bits, policy.str().c_str(), secs);
  return write_proven_output(a, st.output);
}

}  // namespace

int cmd_verify(const VerifyArgs& a) {
  const auto t0 = std::chrono::steady_clock::now();
  if (a.json && a.write_output == "-") return fail(kUsage, "--json and --write-output - both want stdout: write the output to a file");
  const spec::SecurityPolicy policy =
      a.min_provable_bits >= 0 ? spec::SecurityPolicy::at_least(spec::SecurityPolicy::Measure::kProvable, a.min_provable_bits)
                               : spec::SecurityPolicy::preset(a.security);
  Guest g;
  if (int err = load_guest(a.program, "", 0, g); err != 0) return err;
  auto proof = tools::read_file(a.proof, uint64_t{1} << 30, "proof");
  if (!proof.bytes) return fail(kIoError, proof.error);
  std::vector<uint8_t> expected_output;
  if (!a.output.empty()) {
    auto out = tools::read_file(a.output, uint64_t{1} << 30, "output");
    if (!out.bytes) return fail(kIoError, out.error);
    expected_output = std::move(*out.bytes);
  }
  if (spec::is_bundle(*proof.bytes)) return verify_bundle(a, *proof.bytes, g, a.output.empty() ? nullptr : &expected_output, policy, t0);
  const auto parsed = spec::decode_stark_proof(*proof.bytes);
  if (!parsed.proof) {
    const std::string why = parsed.error->what + " at byte " + std::to_string(parsed.error->offset);
    if (a.json)  // the verdict as JSON too; the exit code stays that of a malformed file
      std::printf("{\"verified\":false,\"stage\":\"malformed\",\"check\":\"malformed\",\"what\":\"%s\"}\n",
                  json_escape(why).c_str());
    return fail(kBadInput, a.proof + ": malformed proof: " + why);
  }
  const ref::verify::Expected e{&g.image, a.exit_code, a.output.empty() ? nullptr : &expected_output};
  const auto r = ref::verify::verify(*parsed.proof, e, policy);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (a.json) {
    print_json(*parsed.proof, r, policy, secs);
    return r.ok() ? write_proven_output(a, parsed.proof->statement.output) : kFailed;
  }
  if (!r.ok()) {
    std::fprintf(verdict_stream(a), "rejected: %s: %s\n", ref::verify::stage_name(r.rejection->stage), r.rejection->what.c_str());
    return kFailed;
  }
  const auto& st = parsed.proof->statement;
  std::fprintf(verdict_stream(a), "verified: program %s, exit code %u, output %zu bytes%s; %.1f provable bits, "
               "%.1f conjectured bits; policy %s held (%.2f s)\n",
              hex_bytes(st.program_digest).c_str(), st.exit_code, st.output.size(),
              a.output.empty() ? " (claimed by the proof; no --output given)" : "", r.security.provable_bits,
              r.security.conjectured_bits, policy.str().c_str(), secs);
  return write_proven_output(a, st.output);
}

}  // namespace zkrv::cli
