#pragma once
// Fiat-Shamir transcript (spec: protocol:transcript:*): a Keccak-256 hash chain with labelled,
// length-prefixed absorption, ratcheting squeezes, unbiased field elements and indices by
// rejection sampling, and proof-of-work grinding.

#include <cstdint>
#include <span>
#include <string_view>

#include "reference/field/goldilocks.h"
#include "reference/hash/keccak.h"

namespace zkrv::ref {

class Transcript {
 public:
  explicit Transcript(std::string_view domain);
  void absorb(std::string_view label, std::span<const uint8_t> data);
  void absorb_field(std::string_view label, Fp x);
  void absorb_ext(std::string_view label, const Fp3& x);
  void absorb_digest(std::string_view label, const Digest& d);

  Digest squeeze_digest(std::string_view label);
  Fp squeeze_field(std::string_view label);   // uniform in [0, p)
  Fp3 squeeze_ext(std::string_view label);
  uint64_t squeeze_index(std::string_view label, uint64_t bound);  // uniform in [0, bound), bound >= 1

  // Proof of work: the smallest nonce with `bits` leading zero bits in
  // Keccak-256(0x03 || state || nonce_le); check_pow verifies one. Neither changes the state;
  // the caller absorbs the nonce afterwards.
  uint64_t grind(unsigned bits) const;
  bool check_pow(unsigned bits, uint64_t nonce) const;

  const Digest& state() const { return state_; }

 private:
  Digest state_;
};

}  // namespace zkrv::ref
