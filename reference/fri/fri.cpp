#include "reference/fri/fri.h"

#include "core/fri/fri.h"
#include "reference/ntt/ntt.h"

namespace zkrv::ref {
namespace {

Fp3 scale(const Fp3& a, Fp s) { return {{a.c[0] * s, a.c[1] * s, a.c[2] * s}}; }

}  // namespace

FriProver::FriProver(std::map<unsigned, std::vector<Fp3>> deep, unsigned log_blowup)
    : deep_(std::move(deep)), log_max_(deep_.rbegin()->first), log_blowup_(log_blowup),
      s_(Fp::from_u64(spec::GoldilocksTraits::kGenerator)) {
  g_ = std::move(deep_.at(log_max_));
  deep_.erase(log_max_);
}

// spec: protocol:stark:fri — layer l ≥ 1 as a Merkle tree of n/2 rows, row i holding g[i] and
// g[i + n/2].
spec::Digest FriProver::commit(unsigned) {
  const size_t half = g_.size() / 2;
  std::vector<Row> r(half);
  for (size_t i = 0; i < half; ++i)
    for (size_t j : {i, i + half})
      for (const Fp& c : g_[j].c) r[i].push_back(c);
  trees_.emplace_back(r);
  rows_.push_back(std::move(r));
  roots_.push_back(trees_.back().root());
  return roots_.back();
}

// The binary fold; then λ times the codeword of the height the folded word has reached.
void FriProver::fold(unsigned l, const Fp3& beta, const std::optional<Fp3>& lambda) {
  const size_t half = g_.size() / 2;
  const Fp w = root_of_unity(spec::ntt_log2(g_.size()));
  std::vector<Fp3> next(half);
  Fp x = s_;
  for (size_t i = 0; i < half; ++i, x = x * w) next[i] = core::fri_fold2(g_[i], g_[i + half], x, beta);
  s_ = s_ * s_;
  if (lambda) {
    const unsigned log_h = log_max_ - l - 1;
    const auto& in = deep_.at(log_h);
    for (size_t i = 0; i < half; ++i) next[i] = next[i] + *lambda * in[i];
    deep_.erase(log_h);
  }
  g_ = std::move(next);
}

// The 2^log_final lowest coefficients of the last codeword's interpolant on its coset.
std::vector<spec::Fp3Raw> FriProver::final_poly() {
  std::vector<std::vector<Fp>> comp(3, std::vector<Fp>(g_.size()));
  for (size_t i = 0; i < g_.size(); ++i)
    for (size_t c = 0; c < 3; ++c) comp[c][i] = g_[i].c[c];
  for (auto& col : comp) col = coset_coeffs(col, s_);
  std::vector<spec::Fp3Raw> out;
  for (size_t k = 0; k < g_.size() >> log_blowup_; ++k) out.push_back({comp[0][k].value(), comp[1][k].value(), comp[2][k].value()});
  return out;
}

// spec: protocol:stark:queries — each committed layer's rows that the queries reach, batched.
std::vector<spec::FriLayerOpening> FriProver::open(const std::vector<size_t>& queries) const {
  std::vector<spec::FriLayerOpening> out;
  for (size_t l = 0; l < trees_.size(); ++l) {
    const std::vector<size_t> leaves = core::fri_layer_leaves(queries, rows_[l].size());
    spec::FriLayerOpening op;
    for (size_t i : leaves) {
      std::vector<uint64_t> raw;
      for (const Fp& x : rows_[l][i]) raw.push_back(x.value());
      op.rows.push_back(std::move(raw));
    }
    op.merkle_proof = trees_[l].open_batch(leaves);
    out.push_back(std::move(op));
  }
  return out;
}

// g_k = a^-1 Σ_j v_j ζ^(-jk), result Σ_k (β / x)^k g_k.
Fp3 fri_fold(const std::vector<Fp3>& v, Fp x, const Fp3& beta) {
  const size_t a = v.size();
  unsigned log_a = 0;
  while ((size_t{1} << log_a) < a) ++log_a;
  const Fp zeta_inv = root_of_unity(log_a).inverse();
  const Fp a_inv = Fp::from_u64(a).inverse();
  const Fp3 step = scale(beta, x.inverse());
  Fp3 result, power = embed(Fp::from_u64(1));
  for (size_t k = 0; k < a; ++k) {
    Fp3 g;
    for (size_t j = 0; j < a; ++j) g = g + scale(v[j], zeta_inv.pow(j * k));
    result = result + power * scale(g, a_inv);
    power = power * step;
  }
  return result;
}

}  // namespace zkrv::ref
