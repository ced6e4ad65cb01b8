// prove_host GUEST INPUT PROOF: proves GUEST on the bytes of INPUT in this process, verifies the
// proof in this process too, writes it to PROOF and prints the proven output.
#include <zkrv/prover.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>

int main(int argc, char** argv) {
  if (argc != 4) return 64;
  std::ifstream in(argv[2], std::ios::binary);
  const std::vector<uint8_t> input{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  try {
    const zkrv::Program program = zkrv::Program::from_file(argv[1]);
    zkrv::ProveOptions options;
    size_t stages = 0;
    options.progress = [&](const zkrv::Progress& p) { stages += p.kind == zkrv::Progress::Kind::kStage; };
    const zkrv::Proof proof = zkrv::prove(program, input, options);
    const zkrv::Verdict v = zkrv::verify(program, proof.bytes, zkrv::Expected(proof.report.statement.exit_code));
    if (!v.ok()) {
      std::cerr << "rejected: " << v.rejection->what << "\n";
      return 1;
    }
    std::ofstream(argv[3], std::ios::binary).write(reinterpret_cast<const char*>(proof.bytes.data()),
                                                   static_cast<std::streamsize>(proof.bytes.size()));
    std::cout << "proved " << proof.report.cycles << " cycles in " << stages << " stages, " << proof.bytes.size()
              << " bytes, program " << zkrv::to_hex(program.digest()) << "\n";
    std::cout.write(reinterpret_cast<const char*>(v.statement->output.data()),
                    static_cast<std::streamsize>(v.statement->output.size()));
  } catch (const zkrv::Error& e) {
    std::cerr << "error (" << zkrv::error_code_name(e.code()) << "): " << e.what() << "\n";
    return 2;
  }
  return 0;
}
