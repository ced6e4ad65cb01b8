#pragma once
// A bundle proven by several processes (zkrv::Peers; spec/protocol.md, protocol:segments:peers):
// which segments each proves, the check that every process proves the same run, and the two
// exchanges of phase 1 (every segment's commitment, every segment's terminal sums) and the global
// bus's sum, as bytes over Peers::all_gather.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "optimized/field/goldilocks.h"
#include "optimized/prove/prove.h"
#include "zkrv/prover.h"

namespace zkrv::api {

// spec: protocol:segments:peers — rank r of p proves segments [first, last) of n, ⌊r·n/p⌋ to
// ⌊(r+1)·n/p⌋: blocks in segment order, whose sizes differ by at most one.
struct Block {
  size_t first = 0, last = 0;
  size_t size() const { return last - first; }
};
Block block_of(size_t n, unsigned rank, unsigned size);

// Every process states what it proves (the digests of the program, the input, the options that
// shape the bytes and the run's output; its cycles and exit code); a process whose statement
// differs from rank 0's throws Error(kInvalidArgument) naming the first thing that differs; the
// others go on (and are brought down with it). Collective.
struct RunIdentity {
  spec::Digest program{}, input{}, options{}, output{};  // options: of those that shape the bytes
  uint64_t cycles = 0;
  uint32_t exit_code = 0;
};
void agree(Peers& peers, const RunIdentity& mine);

// The optimized prover's exchanges over `peers` for a bundle of n segments of `tables` tables
// each: this process owns block_of(n, rank, size). A malformed or missing share (a bug: the
// processes run the same code) throws Error(kInternal).
opt::prove::Peers prover_peers(Peers& peers, size_t n, size_t tables);

// The sum over every process of each one's `mine` (the global bus over their segments). Collective.
opt::Fp3 sum_over(Peers& peers, const opt::Fp3& mine);

// The bytes of the exchanges, as the model in README.md counts them. Per rank, to every other: its
// RunIdentity (4 digests, u64 cycles, u64 exit code) and its part of the global bus's sum (an
// extension element, 24 bytes). Per segment, from its owner to every other rank: its commitment
// (u64 segment, its T log heights, its 32-byte main root) and its sums (u64 segment, T extension
// elements); and its proof's body to rank 0 (spec::encode_segment_body).
inline constexpr size_t kRankBytes = 4 * 32 + 8 + 8 + 24;
inline constexpr size_t commitment_bytes(size_t tables) { return 8 + tables + 32; }
inline constexpr size_t sums_bytes(size_t tables) { return 8 + 24 * tables; }

}  // namespace zkrv::api
