// Writes the stark_proof seed corpus: an honest proof of statement.h's program, and copies of it
// with one byte changed in each part of the proof (statement, roots, sums, openings, FRI).
// Regenerate: cmake --build build/default --target stark_proof_make_corpus &&
//             build/default/fuzz/stark_proof_make_corpus fuzz/stark_proof/corpus
#include <cstdio>
#include <fstream>
#include <string>

#include "fuzz/stark_proof/statement.h"
#include "optimized/exec/fast_executor.h"
#include "reference/air/trace.h"
#include "reference/prove/prove.h"
#include "reference/verify/verify.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: stark_proof_make_corpus DIR\n");
    return 64;
  }
  const auto image = zkrv::fuzz::stark_statement_image();
  zkrv::spec::ExecOptions opt;
  opt.trace = true;
  const auto run = zkrv::opt::execute(image, {}, opt);
  const auto trace = zkrv::ref::air::build_trace(image, run);
  const auto proof = zkrv::ref::prove::prove_unchecked(image, trace, zkrv::fuzz::kStarkSeedOptions);
  const std::vector<uint8_t> no_output;
  if (!zkrv::ref::verify::verify(proof, {&image, 0, &no_output}, zkrv::fuzz::kSeedPolicy).ok()) {
    std::fprintf(stderr, "the seed proof does not verify\n");
    return 1;
  }
  const auto bytes = zkrv::spec::encode_stark_proof(proof);
  auto write = [&](const std::string& name, const std::vector<uint8_t>& b) {
    std::ofstream(std::string(argv[1]) + "/" + name, std::ios::binary)
        .write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
  };
  write("honest", bytes);
  for (size_t at : {size_t{9}, size_t{40}, size_t{120}, bytes.size() / 4, bytes.size() / 2, bytes.size() - 9}) {
    auto b = bytes;
    b[at] ^= 0x10;
    write("flip_" + std::to_string(at), b);
  }
  write("truncated", std::vector<uint8_t>(bytes.begin(), bytes.begin() + static_cast<long>(bytes.size() / 3)));
  std::printf("wrote %zu-byte seed proof and 7 variants to %s\n", bytes.size(), argv[1]);
  return 0;
}
