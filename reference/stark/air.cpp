#include "reference/stark/air.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/assert.h"
#include "reference/hash/keccak.h"
#include "spec/air/embedded.h"

namespace zkrv::ref::stark {
namespace {

template <class F> void batch_inverse_impl(std::vector<F>& v, const F& one) {
  if (v.empty()) return;
  std::vector<F> prefix(v.size());
  F acc = one;
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] == F{}) throw std::invalid_argument("batch_inverse: zero element");
    prefix[i] = acc;
    acc = acc * v[i];
  }
  F inv = acc.inverse();
  for (size_t i = v.size(); i-- > 0;) {
    const F x = v[i];
    v[i] = inv * prefix[i];
    inv = inv * x;
  }
}

}  // namespace

void batch_inverse(std::vector<Fp>& v) { batch_inverse_impl(v, Fp::from_u64(1)); }
void batch_inverse(std::vector<Fp3>& v) { batch_inverse_impl(v, embed(Fp::from_u64(1))); }


// spec: protocol:stark:digest
spec::Digest program_digest(const spec::ProgramImage& image) { return keccak256(core::program_encoding(image)); }


namespace {
// The preprocessed columns of `l`'s AIR: the output table holds bytes opos … opos + size of the
// output, regs' rows are (r, then `regs`'s values for row r).
// Without an image (a key's verifier), the tables built from the ELF (segments, image, program)
// get their heights from the key and no columns: the program tree holds their columns
// (protocol:stark:key). The fixed tables are built as always.
Preprocessed build_preprocessed(const AirLayout& l, const spec::ProgramImage* image, const spec::ProgramKey* key,
                                std::span<const uint8_t> output, uint64_t opos,
                                const std::vector<std::vector<uint64_t>>& regs) {
  Preprocessed p;
  p.columns.resize(l.tables.size());
  p.log_heights.resize(l.tables.size());
  auto fp = [](uint64_t v) { return Fp::from_u64(v); };
  // rows: the table's preprocessed values row by row, padded with zero rows to 2^log_h
  auto set = [&](const std::string& name, const std::vector<std::vector<uint64_t>>& rows, size_t min_rows) {
    const size_t t = l.table_index(name);
    const unsigned log_h = spec::ntt_log2(spec::air::padded_height(rows.size(), min_rows));
    const size_t h = size_t{1} << log_h, width = l.tables[t].pre.size();
    p.log_heights[t] = log_h;
    p.columns[t].assign(width, std::vector<Fp>(h));
    for (const auto& row : rows)
      ZKRV_ASSERT(row.size() == width, "preprocessed " + name + ": the spec's preprocessed columns changed");
    for (size_t r = 0; r < rows.size(); ++r)
      for (size_t c = 0; c < width; ++c) p.columns[t][c][r] = fp(rows[r][c]);
  };
  std::vector<std::vector<uint64_t>> rows;
  for (uint64_t x = 0; x < 256; ++x)  // and8: (x, y, x AND y), row 256 x + y
    for (uint64_t y = 0; y < 256; ++y) rows.push_back({x, y, x & y});
  set("and8", rows, 1);
  rows.clear();
  for (uint64_t v = 0; v < 256; ++v) rows.push_back({v});
  set("byte", rows, 1);
  rows.clear();
  for (uint64_t v = 0; v < 65536; ++v) rows.push_back({v});
  set("range16", rows, 1);
  rows.clear();
  for (uint64_t k = 0; k < 64; ++k) {
    const uint64_t q = uint64_t{1} << k;
    rows.push_back({k, q & 0xffff, (q >> 16) & 0xffff, (q >> 32) & 0xffff, q >> 48});
  }
  set("pow2", rows, 1);
  rows.clear();
  for (uint64_t r = 0; r < 32; ++r) {
    rows.push_back({r});
    if (!regs.empty()) rows.back().insert(rows.back().end(), regs[r].begin(), regs[r].end());
  }
  set("regs", rows, 1);
  rows.clear();
  for (size_t j = 0; j < output.size(); ++j) rows.push_back({1, opos + j, output[j]});
  set("output", rows, 2);
  if (!image) {
    size_t k = 0;
    for (size_t t = 0; t < l.tables.size(); ++t) {
      if (l.tables[t].program.empty()) continue;
      ZKRV_ASSERT(k < key->log_heights.size(), "a checked key has a height per program table");
      if (!p.log_heights[t]) p.log_heights[t] = key->log_heights[k];
      ++k;
    }
    return p;
  }
  // segments, image and program from the ELF's segments in address order
  std::vector<const spec::Segment*> segs;
  for (const auto& s : image->segments) segs.push_back(&s);
  std::sort(segs.begin(), segs.end(), [](auto* a, auto* c) { return a->vaddr < c->vaddr; });
  std::vector<std::vector<uint64_t>> seg_rows, img_rows, rom_rows;
  for (const auto* s : segs) {
    if ((s->flags & spec::kFlagR) && s->memsz > 0) {
      seg_rows.push_back({s->vaddr, s->vaddr + s->data.size(), s->vaddr + s->memsz, (s->flags & spec::kFlagW) ? 1u : 0u});
      for (size_t k = 0; k < s->data.size(); ++k) img_rows.push_back({s->vaddr + k, s->data[k]});
    }
    if (!(s->flags & spec::kFlagX)) continue;
    for (uint64_t a = (s->vaddr + 3) / 4 * 4; a + 4 <= s->vaddr + s->memsz; a += 4) {
      uint32_t w = 0;
      for (uint64_t k = 0; k < 4; ++k) {
        const uint64_t off = a + k - s->vaddr;
        w |= uint32_t{off < s->data.size() ? s->data[off] : uint8_t{0}} << (8 * k);
      }
      rom_rows.push_back({a, w});
    }
  }
  set("segments", seg_rows, 1);
  set("image", img_rows, 1);
  set("program", rom_rows, 1);
  for (size_t t = 0; t < l.tables.size(); ++t)
    ZKRV_ASSERT(p.columns[t].size() == l.tables[t].pre.size(),
                "preprocessed: table " + l.tables[t].name + "'s preprocessed columns are not derived");
  return p;
}
}  // namespace

// spec: protocol:stark:preprocessed
Preprocessed preprocessed(const spec::ProgramImage& image, const std::vector<uint8_t>& output) {
  return build_preprocessed(air_layout(), &image, nullptr, output, 0, {});
}
Preprocessed preprocessed(const spec::ProgramKey& key, const std::vector<uint8_t>& output) {
  return build_preprocessed(air_layout(), nullptr, &key, output, 0, {});
}

// spec: protocol:segments:vk, protocol:segments:registers, protocol:segments:io
Preprocessed segment_preprocessed(const spec::ProgramImage* image, const spec::ProgramKey* key,
                                  const spec::BundleStatement& st, size_t s) {
  ZKRV_ASSERT(s + 1 < st.boundaries.size(), "a segment of the statement");
  const spec::BoundaryState &in = st.boundaries[s], &end = st.boundaries[s + 1];
  ZKRV_ASSERT(in.opos <= end.opos && end.opos <= st.output.size(), "a checked statement's output positions");
  std::vector<std::vector<uint64_t>> regs(32);
  for (size_t r = 0; r < 32; ++r) {
    for (int k = 0; k < 4; ++k) regs[r].push_back((in.regs[r] >> (16 * k)) & 0xffff);
    for (int k = 0; k < 4; ++k) regs[r].push_back((end.regs[r] >> (16 * k)) & 0xffff);
  }
  const std::span<const uint8_t> slice(st.output.data() + in.opos, end.opos - in.opos);
  return build_preprocessed(air_layout(spec::air::Mode::kSegmented), image, key, slice, in.opos, regs);
}

}  // namespace zkrv::ref::stark
