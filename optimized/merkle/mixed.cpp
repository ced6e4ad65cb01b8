#include "optimized/merkle/mixed.h"

#include <algorithm>
#include <stdexcept>

#include "core/assert.h"

namespace zkrv::opt {
namespace {
using Columns = std::vector<Buffer<Fp>>;
}  // namespace

MixedTree::MixedTree(Backend& be, std::vector<Matrix> matrices) : be_(be) {
  size_t n = 0;
  for (auto& m : matrices) {
    if (m.width == 0) continue;
    n = std::max(n, m.rows);
    m_.push_back(std::move(m));
  }
  if (n < 2) throw std::invalid_argument("mixed Merkle: the tallest matrix needs at least 2 rows");
  std::vector<Columns> scratch(m_.size()), cols(m_.size());
  // Leaves: leaf i hashes rows i and i + n/2 of the tallest matrices and row i of those of
  // height n/2, all in part i mod P.
  {
    Buffer<Digest> level = be.alloc<Digest>(n / 2);
    size_t P = 1;
    const std::vector<size_t> at = select(n, n / 2, P, "leaf");  // the matrices the leaves read
    if (n / 2 < P) throw std::invalid_argument("mixed Merkle: the tallest matrix has fewer than two rows per part");
    for (size_t k = 0; k < P; ++k) {
      for (size_t m : at) m_[m].part(k, scratch[m], cols[m]);
      const size_t count = n / 2 / P;  // leaves i = P s + k
      // The leaves' values in message order, a slot per (matrix, row of the leaf, column): each
      // reads its column from row (its offset) + (the leaf's index in the part).
      std::vector<Backend::Slot> slots;
      for (size_t m : at)
        for (size_t v = 0; v < (m_[m].rows == n ? 2u : 1u); ++v)
          for (const auto& c : cols[m]) slots.push_back({c, v * count, 1});
      be.hash_leaves(slots, count, P, k, level);
    }
    for (size_t m : at) scratch[m].clear(), cols[m].clear();  // a level's parts live only while it is hashed
    levels_.push_back(std::move(level));
  }
  for (size_t w = n / 4; w >= 1; w /= 2) {
    Buffer<Digest> up = be.alloc<Digest>(w);
    size_t P = 1;
    const std::vector<size_t> inject = select(w, w, P, "injected");  // matrices of this height enter here
    for (size_t k = 0; k < P; ++k) {  // nodes j = P s + k
      Columns in;
      for (size_t m : inject) {
        m_[m].part(k, scratch[m], cols[m]);
        in.insert(in.end(), cols[m].begin(), cols[m].end());
      }
      be.hash_level(levels_.back(), Backend::Children::kHalves, in, w / P, P, k, up);
    }
    for (size_t m : inject) scratch[m].clear(), cols[m].clear();
    levels_.push_back(std::move(up));
    if (w == 1) break;
  }
  root_ = be.gather(levels_.back(), std::vector<size_t>{0})[0];
}

size_t MixedTree::bytes() const {
  size_t b = 0;
  for (const auto& l : levels_) b += l.size() * sizeof(Digest);
  return b;
}

std::vector<std::pair<size_t, size_t>> MixedTree::rows_opened(const std::vector<size_t>& leaves) const {
  const size_t half = levels_.front().size(), n = 2 * half;
  std::vector<std::pair<size_t, size_t>> out;
  for (size_t i : leaves)
    for (size_t m = 0; m < m_.size(); ++m) {
      if (m_[m].rows == n) out.emplace_back(m, i), out.emplace_back(m, i + half);
      else if (m_[m].rows == half) out.emplace_back(m, i);
      else out.emplace_back(m, i % m_[m].rows);
    }
  return out;
}

std::map<std::pair<size_t, size_t>, std::vector<Fp>> MixedTree::fetch(const std::vector<std::pair<size_t, size_t>>& rows) const {
  std::map<std::pair<size_t, size_t>, std::vector<Fp>> out;
  for (size_t m = 0; m < m_.size(); ++m)
    for (size_t k = 0; k < m_[m].parts; ++k) {
      std::vector<size_t> want;
      for (const auto& [mm, r] : rows)
        if (mm == m && r % m_[m].parts == k) want.push_back(r);
      if (want.empty()) continue;
      std::vector<size_t> idx;
      for (size_t r : want) idx.push_back(r / m_[m].parts);
      auto vals = m_[m].rows_at(k, idx);
      for (size_t j = 0; j < want.size(); ++j) out[{m, want[j]}] = std::move(vals[j]);
    }
  return out;
}

spec::MixedOpening MixedTree::open(size_t i, const std::map<std::pair<size_t, size_t>, std::vector<Fp>>& values) const {
  const size_t half = levels_.front().size(), n = 2 * half;
  spec::MixedOpening o;
  auto put = [&](size_t m, size_t r) {
    for (Fp v : values.at({m, r})) o.values.push_back(v.value());
  };
  for (size_t m = 0; m < m_.size(); ++m) {
    if (m_[m].rows == n) put(m, i), put(m, i + half);
    else if (m_[m].rows == half) put(m, i);
  }
  for (size_t w = n / 4; w >= 1; w /= 2) {
    for (size_t m = 0; m < m_.size(); ++m)
      if (m_[m].rows == w) put(m, i % w);
    if (w == 1) break;
  }
  for (size_t l = 0; l + 1 < levels_.size(); ++l) {
    const size_t width = levels_[l].size();
    o.siblings.push_back(be_.gather(levels_[l], std::vector<size_t>{(i % width) ^ (width / 2)})[0]);
  }
  return o;
}

std::vector<size_t> MixedTree::select(size_t h1, size_t h2, size_t& P, const char* what) const {
  std::vector<size_t> out;
  for (size_t m = 0; m < m_.size(); ++m)
    if (m_[m].rows == h1 || m_[m].rows == h2) out.push_back(m), P = std::max(P, m_[m].parts);
  for (size_t m : out)
    ZKRV_ASSERT(m_[m].parts == P, std::string("mixed Merkle: ") + what + " matrices in different parts");
  return out;
}

}  // namespace zkrv::opt
