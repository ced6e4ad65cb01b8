#pragma once
// Fiat-Shamir transcript for the optimized prover (spec: protocol:transcript:*): the same bytes
// as ref::Transcript, hashed with opt::keccak256 from one reused buffer; grinding tries nonces
// on several threads (optimized/hash/pow.h) or on a backend, and returns the smallest valid one.

#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "optimized/field/goldilocks.h"
#include "optimized/hash/keccak.h"

namespace zkrv::opt {

class Transcript {
 public:
  explicit Transcript(std::string_view domain);
  void absorb(std::string_view label, std::span<const uint8_t> data);
  void absorb_digest(std::string_view label, const Digest& d) { absorb(label, d); }
  void absorb_field(std::string_view label, Fp x);
  void absorb_ext(std::string_view label, const Fp3& x);

  Digest squeeze_digest(std::string_view label);
  Fp squeeze_field(std::string_view label);
  Fp3 squeeze_ext(std::string_view label);
  uint64_t squeeze_index(std::string_view label, uint64_t bound);

  uint64_t grind(unsigned bits, unsigned threads = 0) const;
  // Grinding done elsewhere (a backend's): grinder(state, bits) returns the smallest nonce.
  template <class Grinder>
    requires std::is_invocable_r_v<uint64_t, Grinder, const Digest&, unsigned>
  uint64_t grind(unsigned bits, Grinder&& grinder) const {
    return grinder(state_, bits);
  }
  bool check_pow(unsigned bits, uint64_t nonce) const;
  const Digest& state() const { return state_; }

 private:
  std::vector<uint8_t> buf_;
  Digest state_;
};

}  // namespace zkrv::opt
