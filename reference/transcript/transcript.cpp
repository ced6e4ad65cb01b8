#include "reference/transcript/transcript.h"

#include <stdexcept>
#include <vector>

namespace zkrv::ref {
namespace {

void put_u64(std::vector<uint8_t>& b, uint64_t v) {
  for (int k = 0; k < 8; ++k) b.push_back(static_cast<uint8_t>(v >> (8 * k)));
}
void put_label(std::vector<uint8_t>& b, std::string_view label) {
  put_u64(b, label.size());
  b.insert(b.end(), label.begin(), label.end());
}
unsigned leading_zero_bits(const Digest& d) {
  unsigned n = 0;
  for (uint8_t byte : d) {
    if (byte == 0) { n += 8; continue; }
    for (int bit = 7; bit >= 0 && !(byte >> bit & 1); --bit) ++n;
    break;
  }
  return n;
}

}  // namespace

// spec: protocol:transcript:init — state = Keccak-256("zkrv-transcript-v1" || len || domain).
Transcript::Transcript(std::string_view domain) {
  std::vector<uint8_t> b;
  const std::string_view tag = "zkrv-transcript-v1";
  b.insert(b.end(), tag.begin(), tag.end());
  put_label(b, domain);
  state_ = keccak256(b);
}

// spec: protocol:transcript:absorb — state = Keccak-256(0x00 || state || label || data), with
// label and data each prefixed by their 8-byte length.
void Transcript::absorb(std::string_view label, std::span<const uint8_t> data) {
  std::vector<uint8_t> b{0x00};
  b.insert(b.end(), state_.begin(), state_.end());
  put_label(b, label);
  put_u64(b, data.size());
  b.insert(b.end(), data.begin(), data.end());
  state_ = keccak256(b);
}

void Transcript::absorb_field(std::string_view label, Fp x) {
  std::vector<uint8_t> b;
  put_u64(b, x.value());
  absorb(label, b);
}

void Transcript::absorb_ext(std::string_view label, const Fp3& x) {
  std::vector<uint8_t> b;
  for (const Fp& c : x.c) put_u64(b, c.value());
  absorb(label, b);
}

void Transcript::absorb_digest(std::string_view label, const Digest& d) { absorb(label, d); }

// spec: protocol:transcript:squeeze — out = Keccak-256(0x01 || state || label), then the state
// ratchets: state = Keccak-256(0x02 || state).
Digest Transcript::squeeze_digest(std::string_view label) {
  std::vector<uint8_t> b{0x01};
  b.insert(b.end(), state_.begin(), state_.end());
  put_label(b, label);
  const Digest out = keccak256(b);
  std::vector<uint8_t> r{0x02};
  r.insert(r.end(), state_.begin(), state_.end());
  state_ = keccak256(r);
  return out;
}

// spec: protocol:transcript:field — the first 8 bytes of a squeeze, little-endian, rejected and
// squeezed again when >= p (no modulo bias).
Fp Transcript::squeeze_field(std::string_view label) {
  for (;;) {
    const Digest d = squeeze_digest(label);
    uint64_t v = 0;
    for (int k = 0; k < 8; ++k) v |= uint64_t{d[static_cast<size_t>(k)]} << (8 * k);
    if (v < Fp::P) return Fp::from_u64(v);
  }
}

Fp3 Transcript::squeeze_ext(std::string_view label) {
  Fp3 x;
  for (auto& c : x.c) c = squeeze_field(label);
  return x;
}

// spec: protocol:transcript:index — 64-bit draws, rejected above the largest multiple of bound.
uint64_t Transcript::squeeze_index(std::string_view label, uint64_t bound) {
  if (bound == 0) throw std::invalid_argument("index bound must be at least 1");
  const uint64_t limit = UINT64_MAX - (UINT64_MAX % bound + 1) % bound;  // accept v <= limit
  for (;;) {
    const Digest d = squeeze_digest(label);
    uint64_t v = 0;
    for (int k = 0; k < 8; ++k) v |= uint64_t{d[static_cast<size_t>(k)]} << (8 * k);
    if (v <= limit) return v % bound;
  }
}

// spec: protocol:transcript:pow
bool Transcript::check_pow(unsigned bits, uint64_t nonce) const {
  std::vector<uint8_t> b{0x03};
  b.insert(b.end(), state_.begin(), state_.end());
  put_u64(b, nonce);
  return leading_zero_bits(keccak256(b)) >= bits;
}

uint64_t Transcript::grind(unsigned bits) const {
  for (uint64_t nonce = 0;; ++nonce)
    if (check_pow(bits, nonce)) return nonce;
}

}  // namespace zkrv::ref
