#pragma once
// The multi-height FRI on its own, for tests: low-degree DEEP-like codewords of several heights
// on their LDE cosets, a proof through either prover and the verifier's verdict (core/fri/alone.h,
// with the reference Merkle checks), given the codewords as the verifier's own DEEP values.

#include <map>
#include <optional>
#include <random>
#include <vector>

#include "core/fri/alone.h"
#include "core/fri/fri.h"
#include "core/stark/domains.h"
#include "core/stark/transcript.h"
#include "reference/fri/fri.h"
#include "reference/merkle/merkle.h"
#include "reference/ntt/ntt.h"
#include "reference/transcript/transcript.h"

namespace zkrv::fri_harness {

using ref::Fp;
using ref::Fp3;

// The codeword of each height: 2^(log h + log_blowup) values on lde_shift()·<ω>,
// of a random polynomial of degree < 2^(log h + extra_log_degree) (extra 0: what FRI accepts).
inline std::map<unsigned, std::vector<Fp3>> codewords(const std::vector<unsigned>& log_heights, unsigned log_blowup,
                                                       uint64_t seed, unsigned extra_log_degree = 0) {
  std::mt19937_64 rng(seed);
  std::map<unsigned, std::vector<Fp3>> out;
  for (unsigned lh : log_heights) {
    const size_t n = size_t{1} << (lh + log_blowup);
    const Fp shift = core::lde_shift<Fp>();
    std::vector<Fp3> w(n);
    for (size_t c = 0; c < 3; ++c) {
      std::vector<Fp> coeffs(n);
      Fp s = Fp::from_u64(1);
      for (size_t k = 0; k < std::min(n, size_t{1} << (lh + extra_log_degree)); ++k, s = s * shift)
        coeffs[k] = Fp::from_u64(rng()) * s;  // p(shift·X)
      const std::vector<Fp> e = ref::ntt(coeffs);
      for (size_t i = 0; i < n; ++i) w[i].c[c] = e[i];
    }
    out[lh] = std::move(w);
  }
  return out;
}

inline spec::StarkOptions options(unsigned log_blowup, unsigned queries, unsigned pow_bits, unsigned log_final) {
  spec::StarkOptions o;
  o.log_blowup = log_blowup, o.num_queries = queries, o.pow_bits = pow_bits, o.log_final_size = log_final;
  return o;
}
inline core::FriShape shape_of(const std::map<unsigned, std::vector<Fp3>>& deep, const spec::StarkOptions& o) {
  std::vector<uint8_t> heights;
  for (const auto& [lh, w] : deep) heights.push_back(static_cast<uint8_t>(lh));
  return core::fri_shape(o, heights);
}

using Proof = core::FriAloneProof;

// A proof by `prover` (ref::FriProver or opt::FriProver) under a FRI-only transcript of type Tr;
// `grind` passes the transcript's grinding options (threads for opt::Transcript).
template <class Tr, class Prover, class... G>
Proof prove(Prover& prover, const core::FriShape& shape, const spec::StarkOptions& o, G... grind) {
  return core::fri_prove_alone<Tr>(prover, shape, o, grind...);
}
inline Proof prove_ref(const std::map<unsigned, std::vector<Fp3>>& deep, const spec::StarkOptions& o) {
  ref::FriProver prover(deep, o.log_blowup);
  return prove<ref::Transcript>(prover, shape_of(deep, o), o);
}

// The verifier's verdict on `p`, with `deep` as its own DEEP values; nullopt: accepted.
inline std::optional<core::FriRejection> verify(const std::map<unsigned, std::vector<Fp3>>& deep,
                                                 const spec::StarkOptions& o, const Proof& p) {
  return core::fri_verify_alone<ref::Transcript>(
      shape_of(deep, o), o, p,
      [&](unsigned l, unsigned log_leaves, const std::vector<size_t>& leaves, const std::vector<ref::Row>& rows,
          const std::vector<spec::Digest>& path) -> std::optional<std::string> {
        if (auto m = ref::merkle_verify_batch(p.roots[l - 1], log_leaves, leaves, rows, path)) return m->what;
        return std::nullopt;
      },
      [&](unsigned log_h, size_t pos) { return deep.at(log_h).at(pos); });
}

}  // namespace zkrv::fri_harness
