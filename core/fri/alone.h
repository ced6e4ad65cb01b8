#pragma once
// The multi-height FRI on its own, outside a proof (tests, benchmarks, device checks): a prover's
// commit and query phases under a FRI-only transcript (core::StarkTranscript::FriOnly), and the
// verifier's side of the same, with the DEEP values given. In a proof these steps are the
// provers' and the verifier's own (protocol:stark:fri, protocol:stark:queries,
// protocol:stark:verify_fri).

#include <optional>
#include <string>
#include <vector>

#include "core/fri/fri.h"
#include "core/stark/transcript.h"
#include "spec/stark.h"

namespace zkrv::core {

struct FriAloneProof {
  std::vector<spec::Digest> roots;
  std::vector<spec::Fp3Raw> final_poly;
  uint64_t nonce = 0;
  std::vector<spec::FriLayerOpening> openings;
  friend bool operator==(const FriAloneProof&, const FriAloneProof&) = default;
};

// A proof by `prover` (ref::FriProver or opt::FriProver) under a FRI-only transcript of type Tr;
// `grind` passes the transcript's grinding options (threads for opt::Transcript).
template <class Tr, class Prover, class... G>
FriAloneProof fri_prove_alone(Prover& prover, const FriShape& shape, const spec::StarkOptions& o, G... grind) {
  StarkTranscript<Tr> tr{typename StarkTranscript<Tr>::FriOnly{}};
  tr.fri_commit(shape, prover);
  FriAloneProof p;
  p.roots = prover.roots();
  p.final_poly = prover.final_poly();
  p.nonce = tr.grind(o.pow_bits, grind...);
  p.openings = prover.open(tr.sample_queries(o.num_queries, shape.half(0)));
  return p;
}

// The verifier's verdict on `p` (nullopt: accepted) under a FRI-only transcript of type Tr:
// merkle(layer, log_leaves, leaves, rows, path) → std::optional<std::string> checks a committed
// layer's batched opening against p.roots[layer − 1]; deep(log_h, pos) gives the DEEP value the
// verifier holds. A nonce without the work is a kPow rejection.
template <class Tr, class Merkle, class Deep>
std::optional<FriRejection> fri_verify_alone(const FriShape& shape, const spec::StarkOptions& o, const FriAloneProof& p,
                                             Merkle&& merkle, Deep&& deep) {
  using E = typename StarkTranscript<Tr>::Ext;
  if (p.roots.size() + 1 != shape.rounds || p.final_poly.size() != (size_t{1} << shape.log_final))
    return FriRejection{FriRejection::Kind::kLayerCount, 0, 0, "wrong number of layer roots or final coefficients"};
  StarkTranscript<Tr> tr{typename StarkTranscript<Tr>::FriOnly{}};
  struct {
    const FriAloneProof& p;
    spec::Digest commit(unsigned l) const { return p.roots[l - 1]; }
    void fold(unsigned, const E&, const std::optional<E>&) const {}
    const std::vector<spec::Fp3Raw>& final_poly() const { return p.final_poly; }
  } layers{p};
  const FriChallenges<E> ch = tr.fri_commit(shape, layers);
  if (!tr.check_pow(o.pow_bits, p.nonce)) return FriRejection{FriRejection::Kind::kPow, 0, 0, "proof-of-work nonce invalid"};
  FriVerifier<E> v(shape, ch, tr.sample_queries(o.num_queries, shape.half(0)));
  if (auto e = v.check_layers(p.openings, merkle)) return e;
  for (size_t qi = 0; qi < o.num_queries; ++qi)
    if (auto e = v.check_query(qi, p.final_poly, deep)) return e;
  return std::nullopt;
}

}  // namespace zkrv::core
