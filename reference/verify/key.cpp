#include "reference/verify/key.h"

#include <stdexcept>
#include <string>

#include "core/assert.h"
#include "core/stark/domains.h"
#include "reference/merkle/mixed.h"
#include "reference/ntt/ntt.h"
#include "spec/stark.h"

namespace zkrv::ref::verify {

// spec: protocol:stark:program
spec::Digest program_root(const stark::AirLayout& layout, const stark::Preprocessed& pre, unsigned log_blowup) {
  Columns lde;  // owned here; the tree keeps pointers into it
  std::vector<std::pair<size_t, size_t>> spans;  // per table: first column in lde, count
  for (size_t t = 0; t < layout.tables.size(); ++t) {
    const stark::TableLayout& tl = layout.tables[t];
    spans.emplace_back(lde.size(), tl.program.size());
    for (size_t c : tl.program) {
      // the column's place among the table's preprocessed columns
      size_t k = 0;
      while (tl.pre[k] != c) ++k;
      ZKRV_ASSERT(k < pre.columns[t].size(), "program_root: table " + tl.name + "'s program columns are derived");
      lde.push_back(coset_lde(pre.columns[t][k], 1u << log_blowup, core::lde_shift<Fp>()));
    }
  }
  std::vector<ColumnRefs> mats;
  for (const auto& [first, count] : spans) {
    mats.emplace_back();
    for (size_t j = 0; j < count; ++j) mats.back().push_back(&lde[first + j]);
  }
  return MixedMerkleTree(mats).root();
}

std::vector<uint8_t> program_tree_heights(const stark::AirLayout& layout, const stark::Preprocessed& pre) {
  std::vector<uint8_t> h;
  for (size_t t = 0; t < layout.tables.size(); ++t)
    if (!layout.tables[t].program.empty()) {
      ZKRV_ASSERT(pre.log_heights[t].has_value(), "a program table's height is derived");
      h.push_back(static_cast<uint8_t>(*pre.log_heights[t]));
    }
  return h;
}

// spec: protocol:stark:key
spec::ProgramKey make_key(const spec::ProgramImage& image) {
  const stark::AirLayout& layout = stark::air_layout();
  const stark::Preprocessed pre = stark::preprocessed(image, {});
  for (const auto& h : pre.log_heights)
    if (h && *h > spec::kMaxLogHeight)
      throw std::invalid_argument("the program's image or code needs a table of 2^" + std::to_string(*h) +
                                  " rows, above 2^24: no proof of it can be verified");
  spec::ProgramKey k;
  k.program_digest = stark::program_digest(image);
  k.entry = image.entry;
  k.log_heights = program_tree_heights(layout, pre);
  for (unsigned lb = spec::kMinLogBlowup; lb <= spec::kMaxLogBlowup; ++lb)
    k.roots.emplace_back(static_cast<uint8_t>(lb), program_root(layout, pre, lb));
  return k;
}

}  // namespace zkrv::ref::verify
