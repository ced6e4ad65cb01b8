#include "spec/key.h"

#include <cstring>
#include <string>

#include "spec/codec.h"

namespace zkrv::spec {
namespace {
constexpr char kMagic[8] = {'Z', 'K', 'R', 'V', '-', 'K', 'E', 'Y'};
}

std::optional<Digest> ProgramKey::root(unsigned log_blowup) const {
  for (const auto& [lb, d] : roots)
    if (lb == log_blowup) return d;
  return std::nullopt;
}

// spec: protocol:stark:key
std::vector<uint8_t> encode_key(const ProgramKey& k) {
  using codec::put;
  std::vector<uint8_t> b(kMagic, kMagic + 8);
  put(b, kKeyVersion, 4);
  b.insert(b.end(), k.program_digest.begin(), k.program_digest.end());
  put(b, k.entry, 8);
  put(b, k.log_heights.size(), 1);
  b.insert(b.end(), k.log_heights.begin(), k.log_heights.end());
  put(b, k.roots.size(), 1);
  for (const auto& [lb, d] : k.roots) {
    put(b, lb, 1);
    b.insert(b.end(), d.begin(), d.end());
  }
  return b;
}

ParsedKey decode_key(std::span<const uint8_t> bytes) {
  codec::Reader r(bytes);
  auto failed = [&]() { return ParsedKey{std::nullopt, r.err}; };
  if (bytes.size() < 8 || std::memcmp(bytes.data(), kMagic, 8) != 0) {
    r.fail(ParseError::Kind::kBadMagic, "not a zkrv verifying key (bad magic)");
    return failed();
  }
  r.uint(8);
  if (const uint64_t v = r.uint(4); r.ok() && v != kKeyVersion)
    r.fail_at(8, ParseError::Kind::kBadVersion,
              "key version " + std::to_string(v) + ", this verifier reads " + std::to_string(kKeyVersion));
  ProgramKey k;
  k.program_digest = r.digest();
  {
    const size_t at = r.pos();
    k.entry = r.uint(8);
    // isa:elf:entry: a multiple of 4 inside the 4 GiB guest address space
    if (r.ok() && (k.entry >= (uint64_t{1} << 32) || k.entry % 4 != 0))
      r.fail_at(at, ParseError::Kind::kTooLarge, "the key's entry point is not a guest address (a multiple of 4 below 2^32)");
  }
  {
    const size_t at = r.pos();
    const uint64_t n = r.uint(1);
    if (r.ok() && n > r.left()) r.fail_at(at, ParseError::Kind::kTooLarge, "table count exceeds the remaining bytes");
    if (r.ok()) {
      k.log_heights.resize(static_cast<size_t>(n));
      for (uint8_t& h : k.log_heights) h = static_cast<uint8_t>(r.uint(1));
    }
  }
  {
    const size_t at = r.pos();
    const uint64_t n = r.uint(1);
    if (r.ok() && n * 33 > r.left()) r.fail_at(at, ParseError::Kind::kTooLarge, "root count exceeds the remaining bytes");
    if (r.ok()) {
      k.roots.resize(static_cast<size_t>(n));
      for (auto& [lb, d] : k.roots) lb = static_cast<uint8_t>(r.uint(1)), d = r.digest();
    }
  }
  if (r.ok() && r.left() != 0) r.fail(ParseError::Kind::kTrailingBytes, "trailing bytes after the key");
  if (!r.ok()) return failed();
  return {std::move(k), std::nullopt};
}

}  // namespace zkrv::spec
