// fuzz/stark_proof: arbitrary bytes into the proof decoder and the verifier. The decoder returns
// a typed error or a proof whose re-encoding is the input (the encoding is canonical); the
// verifier returns a typed verdict, the same one twice, for the seeds' statement; nothing
// crashes, reads out of bounds or throws.
#include <cstdint>
#include <cstdlib>
#include <span>

#include "fuzz/stark_proof/statement.h"
#include "reference/verify/verify.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const zkrv::spec::ProgramImage image = zkrv::fuzz::stark_statement_image();
  static const std::vector<uint8_t> no_output;
  static zkrv::ref::verify::Cache cache;
  const auto parsed = zkrv::spec::decode_stark_proof(std::span<const uint8_t>(data, size));
  if (!parsed.proof) {
    if (!parsed.error || parsed.error->what.empty() || parsed.error->offset > size) std::abort();
    return 0;
  }
  const auto again = zkrv::spec::encode_stark_proof(*parsed.proof);
  if (again.size() != size || !std::equal(again.begin(), again.end(), data)) std::abort();
  const zkrv::ref::verify::Expected e{&image, 0, &no_output};
  const auto v1 = zkrv::ref::verify::verify(*parsed.proof, e, zkrv::fuzz::kSeedPolicy, &cache);
  const auto v2 = zkrv::ref::verify::verify(*parsed.proof, e, zkrv::fuzz::kSeedPolicy);
  if (v1.ok() != v2.ok()) std::abort();
  if (!v1.ok() && (v1.rejection->stage != v2.rejection->stage || v1.rejection->check != v2.rejection->check ||
                   v1.rejection->what != v2.rejection->what || v1.rejection->what.empty()))
    std::abort();
  return 0;
}
