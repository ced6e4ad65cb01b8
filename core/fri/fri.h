#pragma once
// The multi-height FRI of the STARK (spec/protocol.md, protocol:stark:fri and
// protocol:stark:verify_fri), written once for both provers and the verifier: its shape (how many
// binary folds, where each smaller DEEP codeword enters), the fold, the leaves each committed
// layer opens, and the verifier's side (the layers' shapes and Merkle openings, then each query
// folded down to the final polynomial). The commit phase's transcript order is
// core::StarkTranscript::fri_commit. E is a cubic extension type with components c[3] (ref::Fp3,
// opt::Fp3), F its base field.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "spec/field.h"
#include "spec/stark.h"

namespace zkrv::core {

// The folds of one proof: the tallest DEEP codeword (2^(log_max + log_blowup) values) is folded
// `rounds` times in two; after fold l (0-based) the codeword of log height log_max − l − 1, if a
// table has that height, enters times a fresh challenge λ. Layers 1 .. rounds − 1 are committed;
// the last fold's result is sent as the final polynomial's 2^log_final coefficients.
struct FriShape {
  unsigned log_blowup = 0, log_max = 0, log_min = 64, log_final = 0, rounds = 0;
  std::set<unsigned> heights;  // the tables' log heights
  // Whether a codeword joins after fold l.
  bool enters_after(unsigned l) const { return heights.count(log_max - l - 1) != 0; }
  // Half the size of the codeword that fold l reads (layer l's leaves): layer 0 is the tallest DEEP
  // codeword, so the queries are drawn below half(0).
  size_t half(unsigned l) const { return size_t{1} << (log_max + log_blowup - l - 1); }
};
// log_heights must be nonempty; the verifier bounds each height before asking.
inline FriShape fri_shape(const spec::StarkOptions& o, const std::vector<uint8_t>& log_heights) {
  FriShape s;
  s.log_blowup = o.log_blowup;
  for (uint8_t h : log_heights) {
    s.log_max = std::max<unsigned>(s.log_max, h), s.log_min = std::min<unsigned>(s.log_min, h);
    s.heights.insert(h);
  }
  s.log_final = std::min(o.log_final_size, s.log_min);
  s.rounds = s.log_max - s.log_final;
  return s;
}

// The transcript's challenges of the commit phase: betas[l] folds layer l; lambdas[l], for a layer
// l ≥ 1 that a codeword enters, scales that codeword (zero elsewhere).
template <class E>
struct FriChallenges {
  std::vector<E> betas, lambdas;
};

// The leaves of a committed layer that the queries open: each query's position modulo the
// layer's half, sorted and distinct (protocol:merkle:batch opens them together).
inline std::vector<size_t> fri_layer_leaves(const std::vector<size_t>& queries, size_t half) {
  std::set<size_t> leaves;
  for (size_t q : queries) leaves.insert(q % half);
  return {leaves.begin(), leaves.end()};
}

template <class E, class F>
E fri_scale(const E& a, F s) {
  return E{{a.c[0] * s, a.c[1] * s, a.c[2] * s}};
}
// The binary fold of f(x) = v0 and f(−x) = v1 with challenge β: (v0 + v1)/2 + β (v0 − v1)/(2x),
// the even part plus β times the odd part.
template <class E, class F>
E fri_fold2(const E& v0, const E& v1, F x, const E& beta) {
  const F half = F::from_u64(2).inverse();
  return fri_scale(v0 + v1, half) + beta * fri_scale(v0 - v1, half * x.inverse());
}
// The final polynomial (coefficients, lowest first) at y.
template <class E, class F>
E fri_final_at(const std::vector<spec::Fp3Raw>& poly, F y) {
  E acc{};
  for (size_t k = poly.size(); k-- > 0;)
    acc = fri_scale(acc, y) + E{{F::from_u64(poly[k][0]), F::from_u64(poly[k][1]), F::from_u64(poly[k][2])}};
  return acc;
}
// x_0 · ω^pos, the point of position pos on the coset 7·<ω> of size 2^log_n after `folds`
// squarings of the shift.
template <class F>
F fri_point(unsigned log_n, size_t pos, unsigned folds) {
  F s = F::from_u64(spec::GoldilocksTraits::kGenerator);
  for (unsigned k = 0; k < folds; ++k) s = s * s;
  const F w = F::from_u64(spec::GoldilocksTraits::kTwoAdicRoot).pow(uint64_t{1} << (spec::GoldilocksTraits::kTwoAdicity - log_n));
  return s * w.pow(pos);
}

// A typed FRI rejection: which check, which layer (1-based for committed layers; 0 for the layer
// count) and query (for kFold and kFinal), and the values compared where they say more than `what`.
struct FriRejection {
  // kPow only outside a proof (core/fri/alone.h): in a proof the nonce is the verifier's pow stage.
  enum class Kind { kLayerCount, kRowCount, kRowWidth, kNonCanonical, kMerkle, kFold, kFinal, kPow };
  Kind kind;
  unsigned layer = 0;
  size_t query = 0;
  std::string what;
  std::string expected{}, found{};
};
template <class E>
std::string fri_value_str(const E& e) {
  return "(" + std::to_string(e.c[0].value()) + ", " + std::to_string(e.c[1].value()) + ", " +
         std::to_string(e.c[2].value()) + ")";
}

// The verifier's side, in two steps so that the verifier can run every Merkle check before any
// costly work of its own: check_layers (the committed layers' openings: row counts, widths,
// canonical values, Merkle batch openings), then check_query for each query once the DEEP values
// at its positions are known.
template <class E>
class FriVerifier {
 public:
  using F = std::remove_cvref_t<decltype(std::declval<E>().c[0])>;
  FriVerifier(const FriShape& shape, FriChallenges<E> challenges, std::vector<size_t> queries)
      : s_(shape), ch_(std::move(challenges)), queries_(std::move(queries)) {}

  // merkle(layer, log_leaves, leaves, rows) → std::optional<std::string> (why the opening fails).
  template <class Merkle>
  std::optional<FriRejection> check_layers(const std::vector<spec::FriLayerOpening>& openings, Merkle&& merkle) {
    if (openings.size() + 1 != s_.rounds)
      return FriRejection{FriRejection::Kind::kLayerCount, 0, 0, "wrong number of FRI layer openings",
                          std::to_string(s_.rounds - 1), std::to_string(openings.size())};
    leaves_.assign(s_.rounds, {});
    rows_.assign(s_.rounds, {});
    for (unsigned l = 1; l < s_.rounds; ++l) {
      const auto& op = openings[l - 1];
      leaves_[l] = fri_layer_leaves(queries_, s_.half(l));
      const std::string at = "FRI layer " + std::to_string(l);
      if (op.rows.size() != leaves_[l].size())
        return FriRejection{FriRejection::Kind::kRowCount, l, 0, at + ": wrong number of rows", std::to_string(leaves_[l].size()),
                            std::to_string(op.rows.size())};
      for (const auto& raw : op.rows) {
        if (raw.size() != 6)
          return FriRejection{FriRejection::Kind::kRowWidth, l, 0, at + ": row of the wrong width", "6", std::to_string(raw.size())};
        std::vector<F> row;
        for (uint64_t x : raw) {
          if (x >= spec::GoldilocksTraits::kModulus)
            return FriRejection{FriRejection::Kind::kNonCanonical, l, 0, "FRI layer value not canonical", {}, std::to_string(x)};
          row.push_back(F::from_u64(x));
        }
        rows_[l].push_back(std::move(row));
      }
      const unsigned log_leaves = s_.log_max + s_.log_blowup - l - 1;
      if (std::optional<std::string> e = merkle(l, log_leaves, leaves_[l], rows_[l], op.merkle_proof))
        return FriRejection{FriRejection::Kind::kMerkle, l, 0, at + ": " + *e};
    }
    return std::nullopt;
  }

  // Query qi folded from layer 0 down to the final polynomial. deep(log_h, pos) is the DEEP
  // codeword of tables of log height log_h at position pos (the verifier's own, from the opened
  // rows): the tallest at both of layer 0's positions q and q + half(0), each smaller one where it
  // enters. check_layers must have passed.
  template <class Deep>
  std::optional<FriRejection> check_query(size_t qi, const std::vector<spec::Fp3Raw>& final_poly, Deep&& deep) const {
    const size_t q = queries_[qi];
    const size_t half0 = s_.half(0);
    const unsigned lb = s_.log_blowup;
    E expected = fri_fold2(deep(s_.log_max, q), deep(s_.log_max, q + half0), fri_point<F>(s_.log_max + lb, q, 0), ch_.betas[0]);
    if (s_.enters_after(0)) expected = expected + ch_.lambdas[1] * deep(s_.log_max - 1, q);
    for (unsigned l = 1; l < s_.rounds; ++l) {
      const size_t half = s_.half(l);
      const size_t pos = q % (2 * half), leaf = pos % half, slot = pos / half;
      const size_t k = static_cast<size_t>(std::lower_bound(leaves_[l].begin(), leaves_[l].end(), leaf) - leaves_[l].begin());
      const auto& r = rows_[l][k];
      const E v0{{r[0], r[1], r[2]}}, v1{{r[3], r[4], r[5]}};
      if (!((slot ? v1 : v0) == expected))
        return FriRejection{FriRejection::Kind::kFold, l, qi,
                            "layer " + std::to_string(l) + ", query " + std::to_string(qi) +
                                ": the folded value does not match the next layer",
                            fri_value_str(expected), fri_value_str(slot ? v1 : v0)};
      expected = fri_fold2(v0, v1, fri_point<F>(s_.log_max + lb - l, leaf, l), ch_.betas[l]);
      if (s_.enters_after(l)) expected = expected + ch_.lambdas[l + 1] * deep(s_.log_max - l - 1, leaf);
    }
    const unsigned log_final_n = s_.log_final + lb;
    const F y = fri_point<F>(log_final_n, q % (size_t{1} << log_final_n), s_.rounds);
    const E final_value = fri_final_at<E>(final_poly, y);
    if (!(final_value == expected))
      return FriRejection{FriRejection::Kind::kFinal, s_.rounds, qi,
                          "query " + std::to_string(qi) + ": the final polynomial does not match the last fold",
                          fri_value_str(expected), fri_value_str(final_value)};
    return std::nullopt;
  }

 private:
  FriShape s_;
  FriChallenges<E> ch_;
  std::vector<size_t> queries_;
  std::vector<std::vector<size_t>> leaves_;          // per committed layer: its opened leaves
  std::vector<std::vector<std::vector<F>>> rows_;    // and their rows, 6 values each
};

}  // namespace zkrv::core
