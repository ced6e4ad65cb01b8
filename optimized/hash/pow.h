#pragma once
// Grinding (spec: protocol:transcript:pow): the work of a nonce is the number of leading zero
// bits of Keccak-256(0x03 ‖ state ‖ nonce) (the nonce as 8 bytes, little-endian; the digest's
// bytes in order, each from its top bit), and grinding finds the smallest nonce with at least
// `bits` of work. Threads search interleaved blocks of nonces and keep each block's smallest hit,
// so the answer never depends on the thread count (nor, for the CUDA backend's kernel, on the
// order its threads run).

#include <cstdint>

#include "optimized/hash/keccak.h"

namespace zkrv::opt {

unsigned pow_zero_bits(const Digest& state, uint64_t nonce);
uint64_t grind_pow(const Digest& state, unsigned bits, unsigned threads = 0);

}  // namespace zkrv::opt
