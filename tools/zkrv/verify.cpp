// zkrv verify: check a proof against the statement the user gives (the ELF, the expected exit
// code, optionally the expected public output).
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
  v->add_option("PROOF", a.proof, "proof file written by zkrv prove")->required();
  v->add_option("--program", a.program, "the guest ELF the proof must be about")->required();
  v->add_option("--exit-code", a.exit_code, "the exit code the proof must show (a proof of any other code is "
                                            "rejected)")->capture_default_str()->check(uint_range(0, UINT32_MAX));
  v->add_option("--output", a.output, "file with the expected public output, compared byte for byte (without it, "
                                      "the output the proof claims is verified and its length printed)");
  v->add_option("--min-bits", a.min_bits, "reject proofs whose options give fewer conjectured security bits")
      ->capture_default_str()->check(real_range(0, 1000));
  v->footer("Prints \"verified: ...\" (program digest, exit code, output length, provable and conjectured bits) or\n"
            "\"rejected: <stage>: <reason>\". Exit code: 0 verified, 1 rejected (the proof does not prove this\n"
            "statement), 65 malformed proof file or ELF, 66 file missing or unreadable, 64 usage, 71 out of memory\n"
            "(the table: zkrv --help).");
  return v;
}

int cmd_verify(const VerifyArgs& a) {
  const auto t0 = std::chrono::steady_clock::now();
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
  const auto parsed = spec::decode_stark_proof(*proof.bytes);
  if (!parsed.proof)
    return fail(kBadInput, a.proof + ": malformed proof: " + parsed.error->what + " at byte " +
                               std::to_string(parsed.error->offset));
  const ref::verify::Expected e{&g.image, a.exit_code, a.output.empty() ? nullptr : &expected_output};
  const auto r = ref::verify::verify(*parsed.proof, e);
  if (!r.ok()) {
    std::printf("rejected: %s: %s\n", ref::verify::stage_name(r.rejection->stage), r.rejection->what.c_str());
    return kFailed;
  }
  if (r.security.conjectured_bits < a.min_bits) {
    std::printf("rejected: security: the proof's options give %.1f conjectured bits, fewer than --min-bits %.0f\n",
                r.security.conjectured_bits, a.min_bits);
    return kFailed;
  }
  const auto& st = parsed.proof->statement;
  std::string digest;
  for (uint8_t b : st.program_digest) {
    char h[3];
    std::snprintf(h, sizeof h, "%02x", b);
    digest += h;
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("verified: program %s, exit code %u, output %zu bytes%s; %.1f provable bits, %.1f conjectured bits "
              "(%.2f s)\n",
              digest.c_str(), st.exit_code, st.output.size(), a.output.empty() ? " (claimed by the proof; no --output given)" : "",
              r.security.provable_bits, r.security.conjectured_bits, secs);
  return 0;
}

}  // namespace zkrv::cli
