#pragma once
// The STARK's Fiat–Shamir schedule (spec/protocol.md, protocol:stark:transcript), written once
// for the reference prover, the optimized prover and the verifier. One operation per protocol
// step, each with its label and its byte encoding; the steps must come in protocol order (a
// call out of order is a bug and throws InvariantError), so a caller cannot absorb or draw
// anything the others do not. Tr is a protocol:transcript:* implementation (ref::Transcript,
// opt::Transcript, or the verifier's logging wrapper) constructed from the domain and `extra`.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/assert.h"
#include "core/fri/fri.h"
#include "core/stark/domains.h"
#include "spec/stark.h"

namespace zkrv::core {

template <class E>
struct LogupDraw {
  E alpha, beta;
};

// spec: protocol:stark:logup, protocol:segments:transcript — α, β of the buses' denominators,
// drawn the same way by a proof of one run and by a bundle's phase 1.
template <class E, class Tr>
LogupDraw<E> draw_logup(Tr& tr) {
  LogupDraw<E> d;
  d.alpha = tr.squeeze_ext("logup-alpha");
  d.beta = tr.squeeze_ext("logup-beta");
  return d;
}

template <class Tr>
class StarkTranscript {
 public:
  using Ext = std::remove_cvref_t<decltype(std::declval<Tr&>().squeeze_ext(std::string_view{}))>;
  static constexpr std::string_view kDomain = "zkrv-stark-v1";

  template <class... A>
  explicit StarkTranscript(A&&... extra) : tr_(kDomain, std::forward<A>(extra)...) {}

  // FRI alone, from its commit phase on (tests, benchmarks, device checks), under a domain of its
  // own so that such a transcript can never be taken for a proof's.
  struct FriOnly {};
  static constexpr std::string_view kFriOnlyDomain = "zkrv-fri-only-v1";
  template <class... A>
  explicit StarkTranscript(FriOnly, A&&... extra) : tr_(kFriOnlyDomain, std::forward<A>(extra)...), next_(Step::kFri) {}

  // spec: protocol:segments:transcript — phase 2 of a bundle: a transcript carried over from
  // phase 1 (core/stark/bundle_transcript.h), which has absorbed the statement, every main root
  // and every terminal sum and drawn α, β; it goes on at the aux root (observe_aux_root).
  struct Forked {};
  StarkTranscript(Forked, Tr state) : tr_(std::move(state)), next_(Step::kLogupCommit), forked_(true) {}

  // spec: protocol:stark:statement — the options, the statement and every table height.
  void observe_statement(const spec::StarkOptions& o, const spec::Statement& st) {
    step(Step::kStatement);
    tr_.absorb("statement", spec::encode_statement(o, st));
  }
  // spec: protocol:stark:main
  void observe_main_root(const spec::Digest& root) {
    step(Step::kMainRoot);
    tr_.absorb_digest("main-root", root);
  }
  // spec: protocol:stark:logup — α, β of the buses' denominators.
  LogupDraw<Ext> sample_logup() {
    step(Step::kLogup);
    return draw_logup<Ext>(tr_);
  }
  // Every table's terminal sum, in table order, then the auxiliary columns' root.
  void observe_logup(const std::vector<spec::Fp3Raw>& terminal_sums, const spec::Digest& aux_root) {
    ZKRV_ASSERT(!forked_, "a bundle's segment absorbs its terminal sums in phase 1");
    step(Step::kLogupCommit);
    for (const spec::Fp3Raw& s : terminal_sums) tr_.absorb("logup-sum", bytes({&s, 1}));
    tr_.absorb_digest("aux-root", aux_root);
  }
  // A bundle's segment (Forked): its aux root, where a proof of one run absorbs observe_logup's.
  void observe_aux_root(const spec::Digest& aux_root) {
    ZKRV_ASSERT(forked_, "only a bundle's segment absorbs its aux root alone");
    step(Step::kLogupCommit);
    tr_.absorb_digest("aux-root", aux_root);
  }
  // spec: protocol:stark:quotient — the constraints' combination challenge.
  Ext sample_constraint_alpha() {
    step(Step::kConstraintAlpha);
    return tr_.squeeze_ext("constraint-alpha");
  }
  void observe_quotient_root(const spec::Digest& root) {
    step(Step::kQuotientRoot);
    tr_.absorb_digest("quotient-root", root);
  }
  // spec: protocol:stark:ood — ζ, redrawn until it lies outside F_p, every trace domain and every
  // LDE coset.
  Ext sample_ood_point(const std::vector<uint8_t>& log_heights, unsigned log_blowup) {
    step(Step::kOodPoint);
    Ext zeta;
    do {
      zeta = tr_.squeeze_ext("ood-point");
    } while (!ood_point_ok(zeta, log_heights, log_blowup));
    return zeta;
  }
  void observe_ood_values(const std::vector<spec::Fp3Raw>& values) {
    step(Step::kOodValues);
    tr_.absorb("ood-values", bytes(values));
  }
  // spec: protocol:stark:deep
  Ext sample_deep_gamma() {
    step(Step::kDeepGamma);
    return tr_.squeeze_ext("deep-gamma");
  }
  // spec: protocol:stark:fri — the commit phase. For l = 0 .. rounds − 1: layer l's root (l ≥ 1),
  // β_l, λ_(l+1) where a codeword enters; then the final polynomial. `layers` is the caller's
  // side of it:
  //   spec::Digest commit(unsigned l)                         layer l's root (a prover commits it)
  //   void fold(unsigned l, const Ext& beta, const std::optional<Ext>& lambda)
  //   std::vector<spec::Fp3Raw> final_poly()                  after the last fold
  // A prover computes in these calls; the verifier only reads the proof's roots and polynomial.
  template <class Layers>
  FriChallenges<Ext> fri_commit(const FriShape& shape, Layers& layers) {
    step(Step::kFri);
    FriChallenges<Ext> ch;
    ch.lambdas.resize(shape.rounds + 1);
    for (unsigned l = 0; l < shape.rounds; ++l) {
      if (l >= 1) tr_.absorb_digest("fri-layer-root", layers.commit(l));
      ch.betas.push_back(tr_.squeeze_ext("fri-fold"));
      std::optional<Ext> lambda;
      if (shape.enters_after(l)) lambda = ch.lambdas[l + 1] = tr_.squeeze_ext("fri-inject");
      layers.fold(l, ch.betas.back(), lambda);
    }
    tr_.absorb("fri-final", bytes(layers.final_poly()));
    return ch;
  }
  // spec: protocol:stark:queries — the prover's grinding (`extra`: the transcript's own options,
  // such as threads), then the nonce absorbed.
  template <class... A>
  uint64_t grind(unsigned bits, A&&... extra) {
    step(Step::kPow);
    const uint64_t nonce = tr_.grind(bits, std::forward<A>(extra)...);
    observe_nonce(nonce);
    return nonce;
  }
  // The verifier's side: whether the nonce has the work; absorbed either way.
  bool check_pow(unsigned bits, uint64_t nonce) {
    step(Step::kPow);
    const bool ok = tr_.check_pow(bits, nonce);
    observe_nonce(nonce);
    return ok;
  }
  // `count` positions of layer 0's leaves, each below `bound` (half the tallest codeword).
  std::vector<size_t> sample_queries(unsigned count, size_t bound) {
    step(Step::kQueries);
    std::vector<size_t> q;
    for (unsigned i = 0; i < count; ++i) q.push_back(tr_.squeeze_index("fri-query", bound));
    return q;
  }

 private:
  enum class Step : uint8_t {
    kStatement, kMainRoot, kLogup, kLogupCommit, kConstraintAlpha, kQuotientRoot, kOodPoint, kOodValues,
    kDeepGamma, kFri, kPow, kQueries, kDone
  };
  void step(Step s) {
    ZKRV_ASSERT(s == next_, "a STARK transcript step out of protocol order");
    next_ = static_cast<Step>(static_cast<uint8_t>(s) + 1);
  }
  // Extension elements as the transcript absorbs them: 3 × 8 bytes little-endian each.
  static std::vector<uint8_t> bytes(std::span<const spec::Fp3Raw> v) {
    std::vector<uint8_t> b;
    b.reserve(24 * v.size());
    for (const auto& c : v)
      for (uint64_t x : c)
        for (int k = 0; k < 8; ++k) b.push_back(static_cast<uint8_t>(x >> (8 * k)));
    return b;
  }
  void observe_nonce(uint64_t nonce) {
    std::vector<uint8_t> b;
    for (int k = 0; k < 8; ++k) b.push_back(static_cast<uint8_t>(nonce >> (8 * k)));
    tr_.absorb("fri-pow", b);
  }

  Tr tr_;
  Step next_ = Step::kStatement;
  bool forked_ = false;
};

}  // namespace zkrv::core
