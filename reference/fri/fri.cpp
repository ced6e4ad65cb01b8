#include "reference/fri/fri.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "reference/merkle/merkle.h"
#include "reference/ntt/ntt.h"

namespace zkrv::ref {
namespace {

Fp3 scale(const Fp3& a, Fp s) { return {{a.c[0] * s, a.c[1] * s, a.c[2] * s}}; }
Fp3 from_raw(const spec::Fp3Raw& r) { return {{Fp::from_u64(r[0]), Fp::from_u64(r[1]), Fp::from_u64(r[2])}}; }
const Fp kShift = Fp::from_u64(spec::GoldilocksTraits::kGenerator);

std::vector<uint8_t> final_bytes(const std::vector<spec::Fp3Raw>& poly) {
  std::vector<uint8_t> b;
  for (const auto& c : poly)
    for (uint64_t v : c)
      for (int k = 0; k < 8; ++k) b.push_back(static_cast<uint8_t>(v >> (8 * k)));
  return b;
}

// protocol:fri:final — evaluate the final polynomial at y (Horner).
Fp3 eval_poly(const std::vector<spec::Fp3Raw>& poly, Fp y) {
  Fp3 acc;
  for (size_t k = poly.size(); k-- > 0;) acc = scale(acc, y) + from_raw(poly[k]);
  return acc;
}

// protocol:fri:queries — grinding, then num_queries leaf indices of layer 0.
std::vector<size_t> sample_queries(const spec::FriOptions& o, const spec::FriSchedule& s, Transcript& t) {
  const size_t leaves0 = size_t{1} << (s.layers[0].log_size - s.layers[0].log_arity);
  std::vector<size_t> q;
  for (unsigned i = 0; i < o.num_queries; ++i) q.push_back(t.squeeze_index("fri-query", leaves0));
  return q;
}

void absorb_nonce(Transcript& t, uint64_t nonce) {
  std::vector<uint8_t> b;
  for (int k = 0; k < 8; ++k) b.push_back(static_cast<uint8_t>(nonce >> (8 * k)));
  t.absorb("fri-pow", b);
}

}  // namespace

// spec: protocol:fri:fold — g_k = a^-1 Σ_j v_j ζ^(-jk), result Σ_k (β / x)^k g_k.
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

spec::FriProof fri_prove(const spec::FriOptions& o, unsigned log_degree, const std::vector<Fp3>& evals,
                         Transcript& t) {
  std::string why;
  const auto sched = spec::fri_schedule(o, log_degree, &why);
  if (!sched) throw std::invalid_argument("FRI options: " + why);
  if (evals.size() != size_t{1} << sched->layers[0].log_size)
    throw std::invalid_argument("FRI needs 2^(log_degree + log_blowup) evaluations");
  spec::FriProof proof;
  std::vector<MerkleTree> trees;
  std::vector<std::vector<Row>> layer_rows;
  std::vector<Fp3> cur = evals;
  Fp shift = kShift;
  // spec: protocol:fri:commit — commit each layer in rows of `arity` values x ζ^j, then fold.
  for (const spec::FriLayer& layer : sched->layers) {
    const size_t a = size_t{1} << layer.log_arity, n = cur.size(), m = n / a;
    std::vector<Row> rows(m);
    for (size_t i = 0; i < m; ++i)
      for (size_t j = 0; j < a; ++j)
        for (const Fp& c : cur[i + j * m].c) rows[i].push_back(c);
    trees.emplace_back(rows);
    layer_rows.push_back(rows);
    proof.layer_roots.push_back(trees.back().root());
    t.absorb_digest("fri-layer-root", trees.back().root());
    const Fp3 beta = t.squeeze_ext("fri-fold");
    const Fp w = root_of_unity(layer.log_size);
    std::vector<Fp3> next(m);
    for (size_t i = 0; i < m; ++i) {
      std::vector<Fp3> v;
      for (size_t j = 0; j < a; ++j) v.push_back(cur[i + j * m]);
      next[i] = fri_fold(v, shift * w.pow(i), beta);
    }
    cur = std::move(next);
    shift = shift.pow(a);
  }
  // spec: protocol:fri:final — the coefficients of the last layer's interpolant, lowest first.
  std::vector<std::vector<Fp>> comp(3, std::vector<Fp>(cur.size()));
  for (size_t i = 0; i < cur.size(); ++i)
    for (size_t c = 0; c < 3; ++c) comp[c][i] = cur[i].c[c];
  for (auto& col : comp) col = intt(col);  // coefficients of P(shift X)
  const Fp shift_inv = shift.inverse();
  Fp s = Fp::from_u64(1);
  for (size_t k = 0; k < (size_t{1} << sched->log_final_degree); ++k, s = s * shift_inv)
    proof.final_poly.push_back({(comp[0][k] * s).value(), (comp[1][k] * s).value(), (comp[2][k] * s).value()});
  t.absorb("fri-final", final_bytes(proof.final_poly));
  // spec: protocol:fri:queries
  proof.pow_nonce = t.grind(o.pow_bits);
  absorb_nonce(t, proof.pow_nonce);
  std::vector<size_t> pos = sample_queries(o, *sched, t);
  for (size_t l = 0; l < sched->layers.size(); ++l) {
    const size_t m = size_t{1} << (sched->layers[l].log_size - sched->layers[l].log_arity);
    std::set<size_t> leaves;
    for (size_t& p : pos) leaves.insert(p %= m);  // the folded position is the leaf index
    spec::FriLayerOpening op;
    for (size_t i : leaves) {
      std::vector<uint64_t> raw;
      for (const Fp& x : layer_rows[l][i]) raw.push_back(x.value());
      op.rows.push_back(raw);
    }
    op.merkle_proof = trees[l].open_batch({leaves.begin(), leaves.end()});
    proof.openings.push_back(std::move(op));
  }
  return proof;
}

std::optional<FriError> fri_verify(const spec::FriOptions& o, unsigned log_degree, const spec::FriProof& proof,
                                   Transcript& t) {
  using K = FriError::Kind;
  std::string why;
  const auto sched = spec::fri_schedule(o, log_degree, &why);
  if (!sched) return FriError{K::kOptions, 0, 0, why};
  const size_t num_layers = sched->layers.size();
  // Shape before any cryptography.
  if (proof.layer_roots.size() != num_layers) return FriError{K::kShape, 0, 0, "wrong number of layer roots"};
  if (proof.openings.size() != num_layers) return FriError{K::kShape, 0, 0, "wrong number of layer openings"};
  if (proof.final_poly.size() != size_t{1} << sched->log_final_degree)
    return FriError{K::kShape, 0, 0, "final polynomial has the wrong length"};
  for (const auto& c : proof.final_poly)
    for (uint64_t v : c)
      if (v >= Fp::P) return FriError{K::kShape, 0, 0, "final polynomial coefficient not canonical"};
  for (size_t l = 0; l < num_layers; ++l)
    for (const auto& row : proof.openings[l].rows) {
      if (row.size() != 3 * (size_t{1} << sched->layers[l].log_arity))
        return FriError{K::kShape, static_cast<unsigned>(l), 0, "opened row has the wrong width"};
      for (uint64_t v : row)
        if (v >= Fp::P) return FriError{K::kShape, static_cast<unsigned>(l), 0, "opened value not canonical"};
    }
  // Replay the transcript.
  std::vector<Fp3> betas;
  for (const Digest& root : proof.layer_roots) {
    t.absorb_digest("fri-layer-root", root);
    betas.push_back(t.squeeze_ext("fri-fold"));
  }
  t.absorb("fri-final", final_bytes(proof.final_poly));
  if (!t.check_pow(o.pow_bits, proof.pow_nonce)) return FriError{K::kPow, 0, 0, "proof-of-work nonce invalid"};
  absorb_nonce(t, proof.pow_nonce);
  const std::vector<size_t> queries = sample_queries(o, *sched, t);
  // Per layer: the opened rows, keyed by leaf index, after a batched Merkle check.
  std::vector<std::vector<size_t>> leaf_index(num_layers);
  std::vector<size_t> pos = queries;
  for (size_t l = 0; l < num_layers; ++l) {
    const auto& layer = sched->layers[l];
    const size_t m = size_t{1} << (layer.log_size - layer.log_arity);
    std::set<size_t> leaves;
    for (size_t& p : pos) leaves.insert(p %= m);
    const auto& op = proof.openings[l];
    if (op.rows.size() != leaves.size())
      return FriError{K::kShape, static_cast<unsigned>(l), 0, "wrong number of opened rows"};
    leaf_index[l].assign(leaves.begin(), leaves.end());
    std::vector<Row> rows;
    for (const auto& raw : op.rows) {
      Row r;
      for (uint64_t v : raw) r.push_back(Fp::from_u64(v));
      rows.push_back(r);
    }
    if (auto e = merkle_verify_batch(proof.layer_roots[l], layer.log_size - layer.log_arity, leaf_index[l], rows,
                                     op.merkle_proof))
      return FriError{K::kMerkle, static_cast<unsigned>(l), 0, "Merkle opening: " + e->what};
  }
  // Walk every query down the layers.
  for (size_t q = 0; q < queries.size(); ++q) {
    size_t p = queries[q];  // position in the current layer's domain
    Fp shift = kShift;
    std::optional<Fp3> expected;  // the value folded from the layer above
    for (size_t l = 0; l < num_layers; ++l) {
      const auto& layer = sched->layers[l];
      const size_t a = size_t{1} << layer.log_arity, m = size_t{1} << (layer.log_size - layer.log_arity);
      const size_t leaf = p % m, slot = p / m;
      const size_t k = static_cast<size_t>(std::lower_bound(leaf_index[l].begin(), leaf_index[l].end(), leaf) -
                                           leaf_index[l].begin());
      const auto& raw = proof.openings[l].rows[k];
      std::vector<Fp3> v(a);
      for (size_t j = 0; j < a; ++j) v[j] = from_raw({raw[3 * j], raw[3 * j + 1], raw[3 * j + 2]});
      if (expected && v[slot] != *expected)
        return FriError{K::kFold, static_cast<unsigned>(l), q, "folded value does not match the next layer"};
      expected = fri_fold(v, shift * root_of_unity(layer.log_size).pow(leaf), betas[l]);
      shift = shift.pow(a);
      p = leaf;
    }
    const Fp y = shift * root_of_unity(sched->log_final_domain).pow(p);
    if (eval_poly(proof.final_poly, y) != *expected)
      return FriError{K::kFinal, static_cast<unsigned>(num_layers), q, "final polynomial does not match the last fold"};
  }
  return std::nullopt;
}

}  // namespace zkrv::ref
