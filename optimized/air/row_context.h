#pragma once
// What the generated row templates (air_generated.inc) read, and the loop that runs one over a
// range of rows, for a value-type policy T (scalar_policy.h: one row per step; avx512_policy.h:
// eight consecutive rows). Included by the generated translation units only.

#include <cstddef>
#include <vector>

#include "optimized/air/air_eval.h"

namespace zkrv::opt::air {
namespace {

template <class T>
struct RowContext {
  const Fp* const* col;
  const Fp* const* aux;
  const Fp* pub;
  const Fp* sel_first;
  const Fp* sel_last;
  const Fp* sel_transition;
  std::vector<typename T::F3> pw, bp;  // the combination powers; β^(i+1)
  typename T::F3 alpha, terminal;
  uint64_t local_offset;  // a segment's offset of its local buses' tags
};

template <class T>
RowContext<T> make_context(const CombineArgs& a, size_t arity, size_t count) {
  RowContext<T> x{a.columns, a.aux, a.publics, a.sel_first, a.sel_last, a.sel_transition, {}, {},
                  T::b3(a.lu_alpha), T::b3(a.terminal), a.local_offset};
  for (size_t k = 0; k < count; ++k) x.pw.push_back(T::b3(a.powers[k]));
  x.bp.push_back(T::b3(a.lu_beta));
  for (size_t i = 1; i < arity; ++i) x.bp.push_back(T::mul3(x.bp[i - 1], x.bp[0]));
  return x;
}

// out[i - begin] = row(i) for i in [begin, end). T::kLanes rows at a time, while the next rows
// (i + next, ...) do not wrap around; the rest through `rest` (the one-row code).
template <class T, class Row>
void combine_rows(const CombineArgs& a, size_t arity, size_t count, Row row, size_t begin, size_t end, Fp3* out,
                  CombineFn rest) {
  const RowContext<T> x = make_context<T>(a, arity, count);
  const size_t mask = a.n - 1, lanes = T::kLanes;
  size_t i = begin;
  if (lanes == 1) {
    for (; i < end; ++i) T::put(row(x, i, (i + a.next) & mask), out + (i - begin));
  } else {
    for (; i + lanes <= end && i + a.next + lanes <= a.n; i += lanes) T::put(row(x, i, i + a.next), out + (i - begin));
  }
  if (i < end) rest(a, i, end, out + (i - begin));
}

}  // namespace
}  // namespace zkrv::opt::air
