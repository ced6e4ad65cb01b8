// verify_host GUEST PROOF: verifies PROOF of GUEST (exit code 0) with the verifier library alone,
// through the program's verifying key (made, turned into bytes and read back, as an application
// that ships the key instead of the ELF would), and prints the proven output; exit 1 and the
// rejection's stage and line otherwise.
#include <zkrv/verifier.h>

#include <fstream>
#include <iostream>
#include <iterator>

int main(int argc, char** argv) {
  if (argc != 3) return 64;
  std::ifstream f(argv[2], std::ios::binary);
  const std::vector<uint8_t> proof{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
  try {
    const zkrv::Key key = zkrv::Key::from_bytes(zkrv::Key::of(zkrv::Program::from_file(argv[1])).bytes());
    const zkrv::Verdict v = zkrv::verify(key, proof);
    if (!v.ok()) {
      std::cout << "rejected: " << zkrv::stage_name(v.rejection->stage) << ": " << v.rejection->what << "\n";
      return 1;
    }
    std::cout.write(reinterpret_cast<const char*>(v.statement->output.data()),
                    static_cast<std::streamsize>(v.statement->output.size()));
  } catch (const zkrv::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
