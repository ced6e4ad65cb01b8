#pragma once
// The Fiat–Shamir schedule of a bundle (spec/protocol.md §9, protocol:segments:transcript),
// written once for the provers and the verifier. Phase 1 absorbs the bundle's statement and every
// segment's main root, draws the LogUp challenges all segments share, and absorbs every segment's
// terminal sums; phase 2 forks one StarkTranscript per segment (segment(s)), which goes on at its
// aux root. Steps out of order, or a count of roots or sums other than the statement's N, are
// bugs and throw InvariantError.

#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "core/assert.h"
#include "core/stark/transcript.h"
#include "spec/bundle.h"

namespace zkrv::core {

template <class Tr>
class BundleTranscript {
 public:
  using Stark = StarkTranscript<Tr>;
  using Ext = typename Stark::Ext;
  static constexpr std::string_view kDomain = "zkrv-segments-v1";

  // `extra`: the Tr's own constructor arguments after the domain (the verifier's log).
  template <class... A>
  explicit BundleTranscript(A&&... extra) : tr_(kDomain, std::forward<A>(extra)...) {}

  // The statement's bytes (spec::encode_bundle_statement) and its number of segments.
  void observe_statement(const spec::StarkOptions& o, const spec::BundleStatement& st) {
    step(Step::kStatement);
    segments_ = st.segments();
    tr_.absorb("statement", spec::encode_bundle_statement(o, st));
  }
  // Segment s's main root, s = 0 … N − 1 in order.
  void observe_main_root(const spec::Digest& root) {
    ZKRV_ASSERT(next_ == Step::kMainRoots && roots_ < segments_, "a bundle's main root out of order");
    tr_.absorb_digest("main-root", root);
    if (++roots_ == segments_) next_ = Step::kLogup;
  }
  // α, β of every segment's buses: drawn after every main root.
  LogupDraw<Ext> sample_logup() {
    step(Step::kLogup);
    return draw_logup<Ext>(tr_);
  }
  // Every segment's terminal sums, segment by segment, each in table order.
  void observe_logup_sums(const std::vector<std::vector<spec::Fp3Raw>>& sums) {
    ZKRV_ASSERT(sums.size() == segments_, "a bundle's terminal sums: one list per segment");
    step(Step::kSums);
    for (const auto& seg : sums)
      for (const spec::Fp3Raw& s : seg) {
        uint8_t b[24];
        for (int c = 0; c < 3; ++c)
          for (int k = 0; k < 8; ++k) b[8 * c + k] = static_cast<uint8_t>(s[c] >> (8 * k));
        tr_.absorb("logup-sum", b);
      }
  }
  // Phase 2: segment s's own transcript, a copy of phase 1's end that has absorbed `segment` (u64
  // s); any number of them, in any order (segments are proven and checked independently).
  Stark segment(uint64_t s) const {
    ZKRV_ASSERT(next_ == Step::kDone && s < segments_, "a bundle's segment transcript before phase 1 ends");
    Tr t = tr_;
    uint8_t b[8];
    for (int k = 0; k < 8; ++k) b[k] = static_cast<uint8_t>(s >> (8 * k));
    t.absorb("segment", b);
    return Stark(typename Stark::Forked{}, std::move(t));
  }

 private:
  enum class Step : uint8_t { kStatement, kMainRoots, kLogup, kSums, kDone };
  void step(Step s) {
    ZKRV_ASSERT(s == next_, "a bundle transcript step out of protocol order");
    next_ = static_cast<Step>(static_cast<uint8_t>(s) + 1);
  }

  Tr tr_;
  Step next_ = Step::kStatement;
  size_t segments_ = 0, roots_ = 0;
};

}  // namespace zkrv::core
