// Writes the fri_proof seed corpus: an honest proof for each statement in statements.h.
// Regenerate: cmake --build build/default --target fri_proof_make_corpus &&
//             build/default/fuzz/fri_proof_make_corpus fuzz/fri_proof/corpus
#include <cstdio>
#include <fstream>
#include <random>
#include <string>

#include "fuzz/fri_proof/statements.h"
#include "reference/fri/fri.h"
#include "reference/ntt/ntt.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fri_proof_make_corpus DIR\n");
    return 64;
  }
  using zkrv::ref::Fp;
  std::mt19937_64 rng(2026);
  int n = 0;
  for (const auto& s : zkrv::fuzz::kFriStatements) {
    const size_t size = size_t{1} << (s.log_degree + s.options.log_blowup);
    std::vector<zkrv::ref::Fp3> e(size);
    for (size_t c = 0; c < 3; ++c) {
      std::vector<Fp> col(size);
      Fp shift = Fp::from_u64(1);  // coefficients of P(7X), then evaluations on <ω_N>
      for (size_t k = 0; k < (size_t{1} << s.log_degree); ++k, shift = shift * Fp::from_u64(7))
        col[k] = Fp::from_u64(rng()) * shift;
      col = zkrv::ref::ntt(col);
      for (size_t i = 0; i < size; ++i) e[i].c[c] = col[i];
    }
    zkrv::ref::Transcript t(s.domain);
    const auto proof = zkrv::ref::fri_prove(s.options, s.log_degree, e, t);
    zkrv::ref::Transcript vt(s.domain);
    if (auto err = zkrv::ref::fri_verify(s.options, s.log_degree, proof, vt)) {
      std::fprintf(stderr, "seed %d does not verify: %s\n", n, err->what.c_str());
      return 1;
    }
    const auto bytes = zkrv::spec::encode_fri_proof(proof);
    std::ofstream(std::string(argv[1]) + "/honest_" + std::to_string(n++), std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  }
  std::printf("wrote %d seeds\n", n);
  return 0;
}
