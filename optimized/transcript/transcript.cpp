#include "optimized/transcript/transcript.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "optimized/hash/pow.h"

namespace zkrv::opt {
namespace {

void put_u64(std::vector<uint8_t>& b, uint64_t v) {
  const size_t at = b.size();
  b.resize(at + 8);
  std::memcpy(b.data() + at, &v, 8);  // little-endian host
}
void put_bytes(std::vector<uint8_t>& b, std::span<const uint8_t> d) { b.insert(b.end(), d.begin(), d.end()); }
void put_label(std::vector<uint8_t>& b, std::string_view label) {
  put_u64(b, label.size());
  b.insert(b.end(), label.begin(), label.end());
}
uint64_t first_u64(const Digest& d) {
  uint64_t v;
  std::memcpy(&v, d.data(), 8);
  return v;
}
}  // namespace

Transcript::Transcript(std::string_view domain) {
  const std::string_view tag = "zkrv-transcript-v1";
  buf_.assign(tag.begin(), tag.end());
  put_label(buf_, domain);
  state_ = keccak256(buf_);
}

void Transcript::absorb(std::string_view label, std::span<const uint8_t> data) {
  buf_.assign(1, 0x00);
  put_bytes(buf_, state_);
  put_label(buf_, label);
  put_u64(buf_, data.size());
  put_bytes(buf_, data);
  state_ = keccak256(buf_);
}

void Transcript::absorb_field(std::string_view label, Fp x) {
  const uint64_t v = x.value();
  absorb(label, std::span(reinterpret_cast<const uint8_t*>(&v), 8));
}

void Transcript::absorb_ext(std::string_view label, const Fp3& x) {
  const uint64_t v[3] = {x.c[0].value(), x.c[1].value(), x.c[2].value()};
  absorb(label, std::span(reinterpret_cast<const uint8_t*>(v), 24));
}

Digest Transcript::squeeze_digest(std::string_view label) {
  buf_.assign(1, 0x01);
  put_bytes(buf_, state_);
  put_label(buf_, label);
  const Digest out = keccak256(buf_);
  buf_.assign(1, 0x02);
  put_bytes(buf_, state_);
  state_ = keccak256(buf_);
  return out;
}

Fp Transcript::squeeze_field(std::string_view label) {
  for (;;)
    if (const uint64_t v = first_u64(squeeze_digest(label)); v < Fp::P) return Fp::from_u64(v);
}

Fp3 Transcript::squeeze_ext(std::string_view label) {
  Fp3 x;
  for (auto& c : x.c) c = squeeze_field(label);
  return x;
}

uint64_t Transcript::squeeze_index(std::string_view label, uint64_t bound) {
  if (bound == 0) throw std::invalid_argument("index bound must be at least 1");
  const uint64_t limit = UINT64_MAX - (UINT64_MAX % bound + 1) % bound;
  for (;;)
    if (const uint64_t v = first_u64(squeeze_digest(label)); v <= limit) return v % bound;
}

bool Transcript::check_pow(unsigned bits, uint64_t nonce) const { return pow_zero_bits(state_, nonce) >= bits; }

uint64_t Transcript::grind(unsigned bits, unsigned threads) const { return grind_pow(state_, bits, threads); }

}  // namespace zkrv::opt
