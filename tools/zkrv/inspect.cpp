// zkrv inspect: a proof's header (what it claims, its options, tables and sizes) read without
// verifying; zkrv digest: the program digest that a proof of an ELF names; zkrv key: the ELF's
// verifying key.
#include <cstdio>
#include <string>

#include "reference/stark/air.h"
#include "spec/bundle.h"
#include "tools/common/files.h"
#include "tools/zkrv/commands.h"
#include "tools/zkrv/exit_codes.h"

namespace zkrv::cli {

CLI::App* add_inspect(CLI::App& app, InspectArgs& a) {
  auto* c = app.add_subcommand("inspect", "Print what a proof file claims and how it is made, without verifying it");
  c->add_option("PROOF", a.proof, "proof file written by zkrv prove (a proof of one run or a bundle of segments)")->required();
  c->footer("Prints the format and version, the statement (program digest, exit code, output length), the options,\n"
            "every table's height (per segment for a bundle) and the proof's size, then a line saying that none of it\n"
            "is verified: only zkrv verify checks a proof. Exit code: 0 read, 65 malformed proof file, 66 missing or\n"
            "unreadable, 64 usage, 71 out of memory (the table: zkrv --help).");
  return c;
}

CLI::App* add_digest(CLI::App& app, DigestArgs& a) {
  auto* c = app.add_subcommand("digest", "Print the program digest of a guest ELF: the one a proof of it names");
  c->add_option("PROGRAM", a.program, "guest ELF")->required();
  c->footer("One line: the digest in hex (spec/protocol.md protocol:stark:digest), the value zkrv verify and\n"
            "zkrv inspect print as the program. Exit code: 0; 65 an ELF zkrv does not run, 66 missing or unreadable.");
  return c;
}

CLI::App* add_key(CLI::App& app, KeyArgs& a) {
  auto* c = app.add_subcommand("key", "Write a program's verifying key, which zkrv verify --key takes instead of the ELF");
  c->add_option("PROGRAM", a.program, "guest ELF")->required();
  c->add_option("-o,--out", a.out, "the key file to write (atomically)")->required();
  c->footer("The key (spec/protocol.md protocol:stark:key) holds the program digest, the entry point and the\n"
            "program tree's heights and roots: what the verifier would otherwise derive from the ELF on every\n"
            "proof. With it, verifying takes the same time whatever the size of the program's image. A key is\n"
            "trusted input (nothing in it ties its roots to its digest): make it from the ELF you mean. Exit code:\n"
            "0 written; 65 an ELF zkrv does not run, 66 missing or unreadable ELF or the key not written, 64 usage,\n"
            "71 out of memory.");
  return c;
}

namespace {

std::string options_text(const spec::StarkOptions& o) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "blowup 2^%u, %u queries, %u grinding bits, final polynomial 2^%u", o.log_blowup,
                o.num_queries, o.pow_bits, o.log_final_size);
  return buf;
}

// "alu 2^5, ..., cpu 2^12, ..." in spec order (a bundle's segments have the segment AIR's tables);
// the names where the count matches this build's tables.
std::string heights_text(std::span<const uint8_t> log_heights, spec::air::Mode mode) {
  const auto& tables = ref::stark::air_layout(mode).tables;
  std::string s;
  for (size_t t = 0; t < log_heights.size(); ++t) {
    s += t ? ", " : "";
    s += (log_heights.size() == tables.size() ? tables[t].name : "table " + std::to_string(t)) + " 2^" +
         std::to_string(log_heights[t]);
  }
  return s;
}

}  // namespace

int cmd_inspect(const InspectArgs& a) {
  auto bytes = tools::read_file(a.proof, uint64_t{1} << 30, "proof");
  if (!bytes.bytes) return fail(kIoError, bytes.error);
  const auto& b = *bytes.bytes;
  if (spec::is_bundle(b)) {
    const auto parsed = spec::decode_bundle(b);
    if (!parsed.proof)
      return fail(kBadInput, a.proof + ": malformed bundle: " + parsed.error->what + " at byte " + std::to_string(parsed.error->offset));
    const auto& p = *parsed.proof;
    const auto& st = p.statement;
    std::printf("%s: a bundle of segments (ZKRV-SEG, version %u), %zu bytes\n", a.proof.c_str(), spec::kBundleVersion, b.size());
    std::printf("claims: program %s, exit code %u, output %zu bytes\n", hex_bytes(st.program_digest).c_str(), st.exit_code,
                st.output.size());
    std::printf("options: %s\n", options_text(p.options).c_str());
    std::printf("segments: %zu of 2^%u cycles (at most %llu cycles)\n", st.segments(), st.log_segment,
                static_cast<unsigned long long>(st.segments()) << st.log_segment);
    for (size_t s = 0; s < st.segments(); ++s)
      std::printf("segment %zu: %s; %zu queries opened\n", s, heights_text(st.log_heights[s], spec::air::Mode::kSegmented).c_str(),
                  s < p.segments.size() ? p.segments[s].queries.size() : size_t{0});
  } else {
    const auto parsed = spec::decode_stark_proof(b);
    if (!parsed.proof)
      return fail(kBadInput, a.proof + ": malformed proof: " + parsed.error->what + " at byte " + std::to_string(parsed.error->offset));
    const auto& p = *parsed.proof;
    const auto& st = p.statement;
    std::printf("%s: a proof of one run (ZKRV-PRF, version %u), %zu bytes\n", a.proof.c_str(), spec::kStarkProofVersion, b.size());
    std::printf("claims: program %s, exit code %u, output %zu bytes\n", hex_bytes(st.program_digest).c_str(), st.exit_code,
                st.output.size());
    std::printf("options: %s\n", options_text(p.options).c_str());
    std::printf("tables: %s\n", heights_text(st.log_heights, spec::air::Mode::kWhole).c_str());
    std::printf("body: %zu queries, %zu FRI layers committed, final polynomial of %zu coefficients, %zu opened values\n",
                p.queries.size(), p.fri_roots.size(), p.final_poly.size(), p.ood.size());
  }
  std::printf("not verified: this reads the file only (zkrv verify --program ELF %s checks it)\n", a.proof.c_str());
  return 0;
}

int cmd_key(const KeyArgs& a) {
  try {
    const zkrv::Key key = zkrv::Key::of(zkrv::Program::from_file(a.program));
    const std::vector<uint8_t> bytes = key.bytes();
    if (auto err = tools::write_file_atomic(a.out, bytes); !err.empty()) return fail(kIoError, err);
    std::printf("key of program %s written to %s (%zu bytes)\n", zkrv::to_hex(key.digest()).c_str(), a.out.c_str(),
                bytes.size());
  } catch (const zkrv::Error& e) {
    return fail_api(e, {}, 0);
  }
  return 0;
}

int cmd_digest(const DigestArgs& a) {
  try {
    std::printf("%s\n", zkrv::to_hex(zkrv::Program::from_file(a.program).digest()).c_str());
  } catch (const zkrv::Error& e) {
    return fail_api(e, {}, 0);
  }
  return 0;
}

}  // namespace zkrv::cli
