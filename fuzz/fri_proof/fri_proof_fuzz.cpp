// fuzz/fri_proof: arbitrary bytes into the FRI proof parser and verifier. The parser returns a
// typed error or a proof whose re-encoding is the input (the encoding is canonical); the verifier
// returns a typed verdict, the same one twice, for the two statements the seed proofs were made
// for; nothing crashes, reads out of bounds or throws.
#include <cstdint>
#include <cstdlib>
#include <span>

#include "fuzz/fri_proof/statements.h"
#include "reference/fri/fri.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto parsed = zkrv::spec::decode_fri_proof(std::span<const uint8_t>(data, size));
  if (!parsed.proof) {
    if (!parsed.error || parsed.error->what.empty() || parsed.error->offset > size) std::abort();
    return 0;
  }
  const auto again = zkrv::spec::encode_fri_proof(*parsed.proof);
  if (again.size() != size || !std::equal(again.begin(), again.end(), data)) std::abort();
  for (const auto& s : zkrv::fuzz::kFriStatements) {
    zkrv::ref::Transcript t1(s.domain), t2(s.domain);
    const auto v1 = zkrv::ref::fri_verify(s.options, s.log_degree, *parsed.proof, t1);
    const auto v2 = zkrv::ref::fri_verify(s.options, s.log_degree, *parsed.proof, t2);
    if (v1.has_value() != v2.has_value() || (v1 && (v1->kind != v2->kind || v1->what.empty()))) std::abort();
  }
  return 0;
}
