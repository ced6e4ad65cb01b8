#include "reference/merkle/mixed.h"

#include <stdexcept>

namespace zkrv::ref {
namespace {

void put_fp(std::vector<uint8_t>& b, Fp x) {
  for (int k = 0; k < 8; ++k) b.push_back(static_cast<uint8_t>(x.value() >> (8 * k)));
}
Digest hash_node(const Digest& l, const Digest& r) {
  std::vector<uint8_t> b{0x01};
  b.insert(b.end(), l.begin(), l.end());
  b.insert(b.end(), r.begin(), r.end());
  return keccak256(b);
}
Digest inject(const Digest& node, const std::vector<uint8_t>& rows) {
  std::vector<uint8_t> b{0x02};
  b.insert(b.end(), node.begin(), node.end());
  b.insert(b.end(), rows.begin(), rows.end());
  return keccak256(b);
}
size_t height_of(const ColumnRefs& m) { return m.front()->size(); }
bool pow2(size_t n) { return n && !(n & (n - 1)); }

}  // namespace

// spec: protocol:merkle:mixed
ColumnRefs refs(const Columns& m) {
  ColumnRefs r;
  for (const auto& c : m) r.push_back(&c);
  return r;
}

MixedMerkleTree::MixedMerkleTree(std::vector<ColumnRefs> matrices) {
  size_t n = 0;
  for (ColumnRefs& m : matrices) {
    if (m.empty()) continue;
    for (const auto* c : m)
      if (c->size() != height_of(m)) throw std::invalid_argument("mixed Merkle: columns of unequal length");
    if (!pow2(height_of(m))) throw std::invalid_argument("mixed Merkle: height is not a power of two");
    n = std::max(n, height_of(m));
    m_.push_back(std::move(m));
  }
  if (n < 2) throw std::invalid_argument("mixed Merkle: the tallest matrix needs at least 2 rows");
  std::vector<Digest> level(n / 2);
  for (size_t i = 0; i < n / 2; ++i) {
    std::vector<uint8_t> b{0x00};
    for (const ColumnRefs& m : m_) {
      const size_t h = height_of(m);
      if (h == n)
        for (size_t r : {i, i + n / 2})
          for (const auto* c : m) put_fp(b, (*c)[r]);
      else if (h == n / 2)
        for (const auto* c : m) put_fp(b, (*c)[i]);
    }
    level[i] = keccak256(b);
  }
  levels_.push_back(std::move(level));
  for (size_t w = n / 4; w >= 1; w /= 2) {
    const auto& below = levels_.back();
    std::vector<Digest> up(w);
    for (size_t j = 0; j < w; ++j) {
      up[j] = hash_node(below[j], below[j + w]);
      std::vector<uint8_t> rows;
      for (const ColumnRefs& m : m_)
        if (height_of(m) == w)
          for (const auto* c : m) put_fp(rows, (*c)[j]);
      if (!rows.empty()) up[j] = inject(up[j], rows);
    }
    levels_.push_back(std::move(up));
    if (w == 1) break;
  }
}

spec::MixedOpening MixedMerkleTree::open(size_t i) const {
  const size_t half = levels_.front().size(), n = 2 * half;
  if (i >= half) throw std::out_of_range("mixed Merkle: leaf index out of range");
  spec::MixedOpening o;
  for (const ColumnRefs& m : m_) {
    const size_t h = height_of(m);
    if (h == n)
      for (size_t r : {i, i + half})
        for (const auto* c : m) o.values.push_back((*c)[r].value());
    else if (h == half)
      for (const auto* c : m) o.values.push_back((*c)[i].value());
  }
  for (size_t w = n / 4; w >= 1; w /= 2) {
    for (const ColumnRefs& m : m_)
      if (height_of(m) == w)
        for (const auto* c : m) o.values.push_back((*c)[i % w].value());
    if (w == 1) break;
  }
  for (size_t l = 0; l + 1 < levels_.size(); ++l) {
    const size_t width = levels_[l].size();
    o.siblings.push_back(levels_[l][(i % width) ^ (width / 2)]);
  }
  return o;
}

std::optional<std::string> mixed_verify(const Digest& root, const std::vector<MixedShape>& shapes, size_t i,
                                        const spec::MixedOpening& o, MixedRows* out) {
  unsigned log_n = 0;
  size_t total = 0;
  for (const auto& s : shapes)
    if (s.width) log_n = std::max(log_n, s.log_height);
  if (log_n < 1 || log_n > 40) return "tree shape out of range";
  const size_t n = size_t{1} << log_n, half = n / 2;
  if (i >= half) return "leaf index out of range";
  for (const auto& s : shapes) total += s.width * (s.log_height == log_n ? 2 : 1);
  if (o.values.size() != total) return "wrong number of opened values";
  if (o.siblings.size() != log_n - 1) return "wrong number of sibling digests";
  for (uint64_t v : o.values)
    if (v >= Fp::P) return "opened value not canonical";
  MixedRows rows;
  rows.rows.resize(shapes.size());
  size_t at = 0;
  auto take = [&](size_t k, size_t count, std::vector<uint8_t>& b) {
    for (size_t j = 0; j < count; ++j, ++at) {
      const Fp x = Fp::from_u64(o.values[at]);
      rows.rows[k].push_back(x);
      put_fp(b, x);
    }
  };
  std::vector<uint8_t> leaf{0x00};
  for (size_t k = 0; k < shapes.size(); ++k) {
    if (!shapes[k].width) continue;
    if (shapes[k].log_height == log_n) take(k, 2 * shapes[k].width, leaf);
    else if (shapes[k].log_height + 1 == log_n) take(k, shapes[k].width, leaf);
  }
  Digest node = keccak256(leaf);
  size_t pos = i, width = half, s = 0;
  for (size_t w = n / 4; w >= 1; w /= 2) {
    const Digest& sib = o.siblings[s++];
    const bool low = (pos % width) < w;
    node = low ? hash_node(node, sib) : hash_node(sib, node);
    width = w;
    std::vector<uint8_t> inj;
    for (size_t k = 0; k < shapes.size(); ++k)
      if (shapes[k].width && (size_t{1} << shapes[k].log_height) == w) take(k, shapes[k].width, inj);
    if (!inj.empty()) node = inject(node, inj);
    if (w == 1) break;
  }
  if (node != root) return "Merkle root mismatch";
  if (out) *out = std::move(rows);
  return std::nullopt;
}

}  // namespace zkrv::ref
