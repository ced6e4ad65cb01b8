#pragma once
// The verifying key (spec: protocol:stark:key): everything a verifier derives from a program's
// ELF alone, computed once, so that a proof can be verified without the ELF and in time that does
// not grow with the program's image. A key is trusted input: nothing in it ties its roots to its
// digest, so accepting a key is trusting whoever made it (remaking it from the ELF checks it).

#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "spec/fri.h"
#include "spec/isa.h"

namespace zkrv::spec {

inline constexpr uint32_t kKeyVersion = 1;

struct ProgramKey {
  Digest program_digest{};                  // protocol:stark:digest
  uint64_t entry = 0;                       // the ELF's entry point (the AIR's public `entry`)
  std::vector<uint8_t> log_heights;         // every table of the program tree, spec order (protocol:stark:program)
  std::vector<std::pair<uint8_t, Digest>> roots;  // (log_blowup, program root), for each log_blowup the options allow
  // The program root for this blowup; nullopt when the key has none.
  std::optional<Digest> root(unsigned log_blowup) const;
  friend bool operator==(const ProgramKey&, const ProgramKey&) = default;
};

// protocol:stark:key — encode never fails; decode never throws, and rejects with a typed error
// (ParseError's kinds) and the offset.
std::vector<uint8_t> encode_key(const ProgramKey& key);
struct ParsedKey {
  std::optional<ProgramKey> key;
  std::optional<ParseError> error;
};
ParsedKey decode_key(std::span<const uint8_t> bytes);

}  // namespace zkrv::spec
