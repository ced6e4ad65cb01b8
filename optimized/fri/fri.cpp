#include "optimized/fri/fri.h"

#include "core/fri/fri.h"
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

FriProver::FriProver(Backend& backend, std::map<unsigned, Buffer<Fp3>> deep, unsigned log_blowup)
    : be_(backend), deep_(std::move(deep)), log_max_(deep_.rbegin()->first), log_blowup_(log_blowup),
      s_(Fp::from_u64(spec::GoldilocksTraits::kGenerator)) {
  g_ = deep_.at(log_max_);
  deep_.erase(log_max_);
}

spec::Digest FriProver::commit(unsigned) {
  Buffer<Digest> heap = be_.alloc<Digest>(g_.size());
  be_.hash_fri_rows(g_, 1, heap);
  be_.merkle_tree(heap);
  roots_.push_back(be_.gather(heap, std::vector<size_t>{1})[0]);
  codewords_.push_back(g_);
  heaps_.push_back(std::move(heap));
  return roots_.back();
}

void FriProver::fold(unsigned l, const Fp3& beta, const std::optional<Fp3>& lambda) {
  Buffer<Fp3> next = be_.alloc<Fp3>(g_.size() / 2);
  be_.fri_fold(g_, 1, s_, beta, next);
  s_ = s_ * s_;
  if (lambda) {
    const unsigned log_h = log_max_ - l - 1;
    be_.add_scaled(next, *lambda, deep_.at(log_h));
    deep_.erase(log_h);
  }
  g_ = std::move(next);
}

std::vector<spec::Fp3Raw> FriProver::final_poly() {
  const std::vector<Fp3> last = be_.download(g_);
  std::vector<std::vector<Fp>> comp(3, std::vector<Fp>(last.size()));
  for (size_t i = 0; i < last.size(); ++i)
    for (size_t c = 0; c < 3; ++c) comp[c][i] = last[i].c[c];
  for (auto& col : comp) col = coset_coeffs(std::move(col), s_);
  std::vector<spec::Fp3Raw> out;
  for (size_t k = 0; k < last.size() >> log_blowup_; ++k) out.push_back({comp[0][k].value(), comp[1][k].value(), comp[2][k].value()});
  return out;
}

size_t FriProver::bytes() const {
  size_t b = 0;
  for (const auto& x : codewords_) b += x.size() * sizeof(Fp3);
  for (const auto& x : heaps_) b += x.size() * sizeof(Digest);
  return b;
}

std::vector<spec::FriLayerOpening> FriProver::open(const std::vector<size_t>& queries) const {
  std::vector<spec::FriLayerOpening> out;
  for (size_t l = 0; l < codewords_.size(); ++l) {
    const size_t half = codewords_[l].size() / 2;
    const std::vector<size_t> leaves = core::fri_layer_leaves(queries, half);
    std::vector<size_t> at;
    for (size_t i : leaves) at.push_back(i), at.push_back(i + half);
    const std::vector<Fp3> v = be_.gather(codewords_[l], at);
    spec::FriLayerOpening op;
    for (size_t j = 0; j < leaves.size(); ++j) {
      std::vector<uint64_t> row;
      for (size_t u = 0; u < 2; ++u)
        for (size_t c = 0; c < 3; ++c) row.push_back(v[2 * j + u].c[c].value());
      op.rows.push_back(std::move(row));
    }
    op.merkle_proof = be_.gather(heaps_[l], batch_opening_heap_indices(leaves, half));
    out.push_back(std::move(op));
  }
  return out;
}

}  // namespace zkrv::opt
