#include "optimized/fri/fri.h"

#include <set>
#include <stdexcept>
#include <vector>

#include "optimized/common/parallel.h"
#include "optimized/merkle/merkle.h"
#include "optimized/ntt/ntt.h"

namespace zkrv::opt {

void fri_fold_layer(std::span<const Fp3> in, unsigned log_arity, Fp shift, const Fp3& beta, std::span<Fp3> out,
                    unsigned threads) {
  const size_t a = size_t{1} << log_arity, m = in.size() >> log_arity;
  if (out.size() != m) throw std::invalid_argument("fold output must be 2^-log_arity of the input");
  const Fp w_inv = root_of_unity(spec::ntt_log2(in.size())).inverse();
  const Fp a_inv = Fp::from_u64(a).inverse();
  std::vector<Fp> zeta_inv(a);  // ζ^-t, pre-multiplied by a^-1
  const Fp z = root_of_unity(log_arity).inverse();
  zeta_inv[0] = a_inv;
  for (size_t t = 1; t < a; ++t) zeta_inv[t] = zeta_inv[t - 1] * z;
  parallel_for(m, threads, [&](size_t b, size_t e) {
    Fp x_inv = shift.inverse() * w_inv.pow(b);
    std::vector<Fp3> g(a);
    for (size_t i = b; i < e; ++i, x_inv = x_inv * w_inv) {
      const Fp3 s = beta * x_inv;
      if (a == 2) {
        const Fp3 v0 = in[i], v1 = in[i + m];
        out[i] = (v0 + v1) * a_inv + s * ((v0 - v1) * a_inv);
        continue;
      }
      for (size_t k = 0; k < a; ++k) {
        Fp3 acc;
        for (size_t j = 0; j < a; ++j) acc = acc + in[i + j * m] * zeta_inv[(j * k) & (a - 1)];
        g[k] = acc;
      }
      Fp3 r = g[a - 1];  // Horner in s = β / x
      for (size_t k = a - 1; k-- > 0;) r = r * s + g[k];
      out[i] = r;
    }
  }, 1024);
}

spec::FriProof fri_prove(const spec::FriOptions& o, unsigned log_degree, std::span<const Fp3> evals, Transcript& t,
                         unsigned threads) {
  std::string why;
  const auto sched = spec::fri_schedule(o, log_degree, &why);
  if (!sched) throw std::invalid_argument("FRI options: " + why);
  if (evals.size() != size_t{1} << sched->layers[0].log_size)
    throw std::invalid_argument("FRI needs 2^(log_degree + log_blowup) evaluations");
  threads = resolve_threads(threads);
  spec::FriProof proof;
  std::vector<MerkleTree> trees;
  std::vector<std::vector<Fp>> matrices;  // per layer, the committed rows (3 * arity values each)
  std::vector<Fp3> cur(evals.begin(), evals.end()), next;
  Fp shift = Fp::from_u64(spec::GoldilocksTraits::kGenerator);
  for (const spec::FriLayer& layer : sched->layers) {
    const size_t a = size_t{1} << layer.log_arity, m = cur.size() / a, width = 3 * a;
    std::vector<Fp> matrix(m * width);
    parallel_for(m, threads, [&](size_t b, size_t e) {
      for (size_t i = b; i < e; ++i)
        for (size_t j = 0; j < a; ++j)
          for (size_t c = 0; c < 3; ++c) matrix[i * width + 3 * j + c] = cur[i + j * m].c[c];
    });
    trees.emplace_back(matrix, m, width, threads);
    matrices.push_back(std::move(matrix));
    proof.layer_roots.push_back(trees.back().root());
    t.absorb_digest("fri-layer-root", trees.back().root());
    const Fp3 beta = t.squeeze_ext("fri-fold");
    next.resize(m);
    fri_fold_layer(cur, layer.log_arity, shift, beta, next, threads);
    std::swap(cur, next);
    shift = shift.pow(a);
  }
  // protocol:fri:final
  std::vector<std::vector<Fp>> comp(3, std::vector<Fp>(cur.size()));
  for (size_t i = 0; i < cur.size(); ++i)
    for (size_t c = 0; c < 3; ++c) comp[c][i] = cur[i].c[c];
  for (auto& col : comp) intt(col);
  const Fp shift_inv = shift.inverse();
  Fp s = Fp::from_u64(1);
  std::vector<uint8_t> final_bytes;
  for (size_t k = 0; k < (size_t{1} << sched->log_final_degree); ++k, s = s * shift_inv) {
    proof.final_poly.push_back({(comp[0][k] * s).value(), (comp[1][k] * s).value(), (comp[2][k] * s).value()});
    for (uint64_t v : proof.final_poly.back())
      for (int b = 0; b < 8; ++b) final_bytes.push_back(static_cast<uint8_t>(v >> (8 * b)));
  }
  t.absorb("fri-final", final_bytes);
  // protocol:fri:queries
  proof.pow_nonce = t.grind(o.pow_bits, threads);
  uint8_t nonce[8];
  for (int b = 0; b < 8; ++b) nonce[b] = static_cast<uint8_t>(proof.pow_nonce >> (8 * b));
  t.absorb("fri-pow", nonce);
  const size_t leaves0 = size_t{1} << (sched->layers[0].log_size - sched->layers[0].log_arity);
  std::vector<size_t> pos;
  for (unsigned i = 0; i < o.num_queries; ++i) pos.push_back(t.squeeze_index("fri-query", leaves0));
  for (size_t l = 0; l < sched->layers.size(); ++l) {
    const size_t m = size_t{1} << (sched->layers[l].log_size - sched->layers[l].log_arity);
    const size_t width = 3 * (size_t{1} << sched->layers[l].log_arity);
    std::set<size_t> leaves;
    for (size_t& p : pos) leaves.insert(p %= m);
    spec::FriLayerOpening op;
    for (size_t i : leaves) {
      std::vector<uint64_t> raw(width);
      for (size_t c = 0; c < width; ++c) raw[c] = matrices[l][i * width + c].value();
      op.rows.push_back(std::move(raw));
    }
    op.merkle_proof = trees[l].open_batch({leaves.begin(), leaves.end()});
    proof.openings.push_back(std::move(op));
  }
  return proof;
}

}  // namespace zkrv::opt
