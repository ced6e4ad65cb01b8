#pragma once
// The reference prover's side of the STARK's multi-height FRI (spec/protocol.md,
// protocol:stark:fri): the commit phase's layers for core::StarkTranscript::fri_commit, then the
// committed layers' openings. The shape, the transcript order and the verifier's checks are
// core/fri; this is the plain arithmetic behind them.

#include <map>
#include <optional>
#include <vector>

#include "reference/field/goldilocks.h"
#include "reference/merkle/merkle.h"
#include "spec/stark.h"

namespace zkrv::ref {

class FriProver {
 public:
  // deep: the DEEP codeword of each table height (by log height), of 2^(log h + log_blowup)
  // values on that height's LDE coset; the tallest is layer 0.
  FriProver(std::map<unsigned, std::vector<Fp3>> deep, unsigned log_blowup);

  // For core::StarkTranscript::fri_commit.
  spec::Digest commit(unsigned layer);
  void fold(unsigned layer, const Fp3& beta, const std::optional<Fp3>& lambda);
  std::vector<spec::Fp3Raw> final_poly();

  const std::vector<spec::Digest>& roots() const { return roots_; }
  // The committed layers' openings for these queries (positions below half of layer 0), one
  // batched Merkle opening per layer (protocol:merkle:batch).
  std::vector<spec::FriLayerOpening> open(const std::vector<size_t>& queries) const;

 private:
  std::map<unsigned, std::vector<Fp3>> deep_;  // the codewords not yet folded in
  unsigned log_max_, log_blowup_;
  std::vector<Fp3> g_;                          // the current codeword, on s_·<ω>
  Fp s_;
  std::vector<MerkleTree> trees_;
  std::vector<std::vector<Row>> rows_;          // per committed layer: leaf i = values i, i + half
  std::vector<spec::Digest> roots_;
};

// protocol:stark:fri's fold generalised to arity a = v.size() (the backends' fri_fold kernels
// take arities 2..16): g_k = a^-1 Σ_j v_j ζ^(-jk), result Σ_k (β / x)^k g_k. For a = 2 it is
// core::fri_fold2.
Fp3 fri_fold(const std::vector<Fp3>& v, Fp x, const Fp3& beta);

}  // namespace zkrv::ref
