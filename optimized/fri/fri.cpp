#include "optimized/fri/fri.h"

#include <set>
#include <stdexcept>
#include <vector>

#include "optimized/common/parallel.h"
#include "optimized/ntt/ntt.h"

namespace zkrv::opt {

std::vector<size_t> batch_opening_heap_indices(std::vector<size_t> leaves, size_t n) {
  std::vector<size_t> out;
  for (size_t width = n; width > 1; width /= 2) {
    size_t kept = 0;
    for (size_t k = 0; k < leaves.size(); ++k) {
      const size_t i = leaves[k];
      if ((i & 1) == 0 && k + 1 < leaves.size() && leaves[k + 1] == (i | 1))
        ++k;  // both children known
      else
        out.push_back(width + (i ^ 1));
      leaves[kept++] = i / 2;
    }
    leaves.resize(kept);
  }
  return out;
}

spec::FriProof fri_prove(const spec::FriOptions& o, unsigned log_degree, std::span<const Fp3> evals, Transcript& t,
                         unsigned threads) {
  auto be = make_cpu_backend(threads);
  return fri_prove(*be, o, log_degree, be->upload(evals), t);
}

spec::FriProof fri_prove(Backend& be, const spec::FriOptions& o, unsigned log_degree, const Buffer<Fp3>& evals,
                         Transcript& t) {
  std::string why;
  const auto sched = spec::fri_schedule(o, log_degree, &why);
  if (!sched) throw std::invalid_argument("FRI options: " + why);
  if (evals.size() != size_t{1} << sched->layers[0].log_size)
    throw std::invalid_argument("FRI needs 2^(log_degree + log_blowup) evaluations");
  spec::FriProof proof;
  std::vector<Buffer<Fp3>> layers;
  std::vector<Buffer<Digest>> trees;
  Buffer<Fp3> cur = evals;
  Fp shift = Fp::from_u64(spec::GoldilocksTraits::kGenerator);
  // spec: protocol:fri:commit
  for (const spec::FriLayer& layer : sched->layers) {
    const size_t m = cur.size() >> layer.log_arity;
    Buffer<Digest> nodes = be.alloc<Digest>(2 * m);
    be.hash_fri_rows(cur, layer.log_arity, nodes);
    be.merkle_tree(nodes);
    const size_t root_index = 1;
    const Digest root = be.gather(nodes, std::span(&root_index, 1))[0];
    proof.layer_roots.push_back(root);
    t.absorb_digest("fri-layer-root", root);
    const Fp3 beta = t.squeeze_ext("fri-fold");
    Buffer<Fp3> next = be.alloc<Fp3>(m);
    be.fri_fold(cur, layer.log_arity, shift, beta, next);
    layers.push_back(cur);
    trees.push_back(nodes);
    cur = next;
    shift = shift.pow(size_t{1} << layer.log_arity);
  }
  // spec: protocol:fri:final
  const auto last = be.download(cur);
  std::vector<std::vector<Fp>> comp(3, std::vector<Fp>(last.size()));
  for (size_t i = 0; i < last.size(); ++i)
    for (size_t c = 0; c < 3; ++c) comp[c][i] = last[i].c[c];
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
  // spec: protocol:fri:queries
  proof.pow_nonce = t.grind(o.pow_bits);
  uint8_t nonce[8];
  for (int b = 0; b < 8; ++b) nonce[b] = static_cast<uint8_t>(proof.pow_nonce >> (8 * b));
  t.absorb("fri-pow", nonce);
  const size_t leaves0 = size_t{1} << (sched->layers[0].log_size - sched->layers[0].log_arity);
  std::vector<size_t> pos;
  for (unsigned i = 0; i < o.num_queries; ++i) pos.push_back(t.squeeze_index("fri-query", leaves0));
  // spec: protocol:fri:openings — rows and sibling digests gathered from the backend.
  for (size_t l = 0; l < sched->layers.size(); ++l) {
    const size_t a = size_t{1} << sched->layers[l].log_arity;
    const size_t m = size_t{1} << (sched->layers[l].log_size - sched->layers[l].log_arity);
    std::set<size_t> leaf_set;
    for (size_t& p : pos) leaf_set.insert(p %= m);
    const std::vector<size_t> leaves(leaf_set.begin(), leaf_set.end());
    std::vector<size_t> value_index;
    for (size_t i : leaves)
      for (size_t j = 0; j < a; ++j) value_index.push_back(i + j * m);
    const auto values = be.gather(layers[l], value_index);
    spec::FriLayerOpening op;
    for (size_t k = 0; k < leaves.size(); ++k) {
      std::vector<uint64_t> raw;
      for (size_t j = 0; j < a; ++j)
        for (const Fp& c : values[k * a + j].c) raw.push_back(c.value());
      op.rows.push_back(std::move(raw));
    }
    op.merkle_proof = be.gather(trees[l], batch_opening_heap_indices(leaves, m));
    proof.openings.push_back(std::move(op));
  }
  return proof;
}

}  // namespace zkrv::opt
