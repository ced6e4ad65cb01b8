#pragma once
// The optimized prover's side of the STARK's multi-height FRI (spec/protocol.md,
// protocol:stark:fri), written once against the backend seam: the codewords and the committed
// layers' Merkle trees stay in the backend's memory, only roots, the final codeword and the opened
// values come back. The same bytes as ref::FriProver for every backend and thread count
// (tests/fri). The shape, the transcript order and the verifier's checks are core/fri.

#include <map>
#include <optional>
#include <vector>

#include "optimized/backend/backend.h"
#include "optimized/field/goldilocks.h"
#include "optimized/merkle/merkle.h"
#include "spec/stark.h"

namespace zkrv::opt {

class FriProver {
 public:
  // deep: the DEEP codeword of each table height (by log height), of 2^(log h + log_blowup)
  // values on that height's LDE coset; the tallest is layer 0.
  FriProver(Backend& backend, std::map<unsigned, Buffer<Fp3>> deep, unsigned log_blowup);

  // For core::StarkTranscript::fri_commit.
  spec::Digest commit(unsigned layer);
  void fold(unsigned layer, const Fp3& beta, const std::optional<Fp3>& lambda);
  std::vector<spec::Fp3Raw> final_poly();

  const std::vector<spec::Digest>& roots() const { return roots_; }
  // Bytes the committed layers hold (codewords and trees).
  size_t bytes() const;
  // The committed layers' openings for these queries, one batched opening per layer.
  std::vector<spec::FriLayerOpening> open(const std::vector<size_t>& queries) const;

 private:
  Backend& be_;
  std::map<unsigned, Buffer<Fp3>> deep_;  // the codewords not yet folded in
  unsigned log_max_, log_blowup_;
  Buffer<Fp3> g_;                          // the current codeword, on s_·<ω>
  Fp s_;
  std::vector<Buffer<Fp3>> codewords_;     // per committed layer: leaf i = values i, i + half
  std::vector<MerkleTree> trees_;          // and its Merkle tree
  std::vector<spec::Digest> roots_;
};

}  // namespace zkrv::opt
