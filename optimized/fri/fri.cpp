#include "optimized/fri/fri.h"

#include "core/fri/fri.h"
#include "optimized/merkle/merkle.h"
#include "optimized/ntt/ntt.h"

namespace zkrv::opt {

FriProver::FriProver(Backend& backend, std::map<unsigned, Buffer<Fp3>> deep, unsigned log_blowup)
    : be_(backend), deep_(std::move(deep)), log_max_(deep_.rbegin()->first), log_blowup_(log_blowup),
      s_(Fp::from_u64(spec::GoldilocksTraits::kGenerator)) {
  g_ = deep_.at(log_max_);
  deep_.erase(log_max_);
}

// protocol:stark:fri: leaf i of a layer of 2·half values = its values i and i + half, three
// coefficients each: two slots of width 3 over the codeword's base elements.
spec::Digest FriProver::commit(unsigned) {
  const size_t half = g_.size() / 2;
  const Buffer<Fp> base = g_.as<Fp>();
  const Backend::Slot slots[2] = {{base, 0, 3}, {base, 3 * half, 3}};
  trees_.emplace_back(be_, slots, half);
  roots_.push_back(trees_.back().root());
  codewords_.push_back(g_);
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
  for (const auto& t : trees_) b += t.bytes();
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
    op.merkle_proof = trees_[l].open_batch(leaves);
    out.push_back(std::move(op));
  }
  return out;
}

}  // namespace zkrv::opt
