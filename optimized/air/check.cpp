#include "optimized/air/check.h"

#include <algorithm>
#include <array>
#include <map>
#include <mutex>
#include <random>
#include <stdexcept>
#include <unordered_map>

#include "optimized/common/parallel.h"
#include "spec/air/embedded.h"

namespace zkrv::opt::air {
namespace {

// The lookup buses balanced exactly: per bus, every tuple's net multiplicity (sends minus
// receives, mod p), which must be zero for each. The tuples of the fixed tables' rows are kept
// in arrays (byte and range16: the value; and8: 256 x + y, when z = x AND y), the rest by hash.
using Tuple = std::array<uint64_t, kLookupArity>;
struct TupleHash {
  size_t operator()(const Tuple& t) const {
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (uint64_t v : t) h = (h ^ v) * 0xff51afd7ed558ccdull, h ^= h >> 29;
    return h;
  }
};
enum class Dense : uint8_t { kNone, kValue, kAnd8 };
struct Balance {
  std::vector<Fp> dense;
  std::unordered_map<Tuple, Fp, TupleHash> sparse;
  void add(Dense kind, const Tuple& t, Fp m) {
    size_t at = SIZE_MAX;
    if (kind == Dense::kValue && t[0] < 65536 && t[1] == 0 && t[2] == 0 && t[3] == 0 && t[4] == 0) at = t[0];
    if (kind == Dense::kAnd8 && t[0] < 256 && t[1] < 256 && t[2] == (t[0] & t[1]) && t[3] == 0 && t[4] == 0)
      at = 256 * t[0] + t[1];
    if (at == SIZE_MAX) {
      auto& v = sparse[t];
      v = v + m;
      return;
    }
    if (dense.empty()) dense.resize(65536);
    dense[at] = dense[at] + m;
  }
  void merge(const Balance& o) {
    if (dense.empty()) dense.resize(65536);
    for (size_t i = 0; i < o.dense.size(); ++i) dense[i] = dense[i] + o.dense[i];
    for (const auto& [t, m] : o.sparse) sparse[t] = sparse[t] + m;
  }
  bool zero() const {
    for (Fp v : dense)
      if (v.value()) return false;
    for (const auto& [t, m] : sparse)
      if (m.value()) return false;
    return true;
  }
};
Dense dense_kind(const std::string& bus) {
  return bus == "byte" || bus == "range16" ? Dense::kValue : bus == "and8" ? Dense::kAnd8 : Dense::kNone;
}

}  // namespace

CheckArgs table_args(const std::vector<Column>& columns, size_t n, const Fp* publics,
                     std::vector<const Fp*>& pointers) {
  pointers.clear();
  for (const auto& c : columns) pointers.push_back(c.data());
  CheckArgs a;
  a.columns = pointers.data();
  a.n = n;
  a.publics = publics;
  return a;
}

TableColumns columns_from_rows(const std::vector<std::vector<uint64_t>>& rows, size_t width) {
  TableColumns t;
  t.height = rows.size();
  t.columns.assign(width, Column(rows.size()));
  for (size_t r = 0; r < rows.size(); ++r) {
    if (rows[r].size() < width) throw std::invalid_argument("columns_from_rows: a short row");
    for (size_t c = 0; c < width; ++c) t.columns[c][r] = Fp::from_u64(rows[r][c]);
  }
  return t;
}

FastCheck fast_check(const std::vector<TableColumns>& tables, const std::vector<Fp>& publics, uint64_t seed,
                     unsigned threads, spec::air::Mode mode) {
  const auto& code = generated_tables(mode);
  if (tables.size() != code.size()) throw std::invalid_argument("fast_check: wrong number of tables");
  std::mt19937_64 g(seed);
  auto fp3 = [&] { return Fp3{{Fp::from_u64(g()), Fp::from_u64(g()), Fp::from_u64(g())}}; };
  FastCheck r;
  std::map<uint64_t, Fp3> bus_sums;
  std::map<uint64_t, Balance> balances;  // the lookup buses, by tag
  const auto& sp = spec::air::embedded_spec(mode);
  const uint64_t global = mode == spec::air::Mode::kSegmented ? sp.bus_index("gmem") : UINT64_MAX;
  std::vector<Dense> kinds(sp.buses.size(), Dense::kNone);
  for (size_t b = 0; b < sp.buses.size(); ++b) kinds[b] = dense_kind(sp.buses[b].name);
  CheckArgs args;
  args.publics = publics.data();
  args.lu_alpha = fp3();
  args.lu_beta = fp3();
  for (size_t t = 0; t < tables.size(); ++t) {
    const TableCode& tc = code[t];
    const TableColumns& tab = tables[t];
    if (tab.columns.size() != tc.columns) throw std::invalid_argument(std::string("fast_check: columns of ") + tc.name);
    const size_t n = tab.height;
    if (n == 0 || (n & (n - 1)) != 0) throw std::invalid_argument(std::string("fast_check: height of ") + tc.name);
    std::vector<const Fp*> cols;
    for (const auto& c : tab.columns) {
      if (c.size() != n) throw std::invalid_argument(std::string("fast_check: a column of ") + tc.name);
      cols.push_back(c.data());
    }
    args.columns = cols.data();
    args.n = n;
    r.rows += n;
    r.evaluations += n * tc.constraints;

    // Constraints: each thread its own rows; the first failure is the one at the lowest row.
    std::mutex m;
    RowFailure first{n, 0};
    // LogUp (the buses that are not lookups): blocks of rows, the denominators of the cells with
    // a multiplicity batch-inverted, per-bus sums per thread. Lookup buses: exact balances.
    std::vector<std::map<uint64_t, Fp3>> partial;
    parallel_for(n, threads, [&](size_t begin, size_t end) {
      const RowFailure f = tc.check(args, begin, end);
      std::map<uint64_t, Fp3> sums;
      std::map<uint64_t, Balance> balance;
      constexpr size_t kBlock = 1024;
      const size_t width = tc.other_interactions;
      std::vector<Fp3> den(kBlock * width);
      std::vector<Fp> mult(kBlock * width);
      std::vector<uint32_t> which(kBlock * width);  // the interaction of each kept cell
      std::vector<Fp3> acc(width);
      const size_t lw = std::max(tc.sends, tc.receives);
      std::vector<Fp> ltuple(kBlock * lw * kLookupArity), lmult(kBlock * lw);
      auto lookups = [&](SendFn fn, size_t count, const uint64_t* tags, bool send, size_t b, size_t e) {
        if (count == 0) return;
        fn(args, b, e, ltuple.data(), lmult.data());
        for (size_t c = 0; c < (e - b) * count; ++c) {
          if (lmult[c].value() == 0) continue;
          Tuple t;
          for (size_t v = 0; v < kLookupArity; ++v) t[v] = ltuple[c * kLookupArity + v].value();
          const uint64_t tag = tags[c % count];
          balance[tag].add(kinds[tag], t, send ? lmult[c] : -lmult[c]);
        }
      };
      for (size_t b = begin; b < end; b += kBlock) {
        const size_t e = std::min(end, b + kBlock), cells = (e - b) * width;
        if (width) {
          tc.logup_other(args, b, e, den.data(), mult.data());
          // only the cells with a multiplicity add to a sum: the others are not inverted
          size_t kept = 0;
          for (size_t c = 0; c < cells; ++c)
            if (mult[c].value() != 0) den[kept] = den[c], mult[kept] = mult[c], which[kept++] = static_cast<uint32_t>(c % width);
          batch_inverse(std::span<Fp3>(den.data(), kept));
          for (size_t c = 0; c < kept; ++c) acc[which[c]] = acc[which[c]] + den[c] * mult[c];
        }
        lookups(tc.send, tc.sends, tc.send_tags, true, b, e);
        lookups(tc.receive, tc.receives, tc.receive_tags, false, b, e);
      }
      for (size_t k = 0; k < width; ++k) sums[tc.other_tags[k]] = sums[tc.other_tags[k]] + acc[k];
      std::lock_guard<std::mutex> lock(m);
      if (f.row < end && f.row < first.row) first = f;  // f.row == end: every row held
      partial.push_back(std::move(sums));
      for (auto& [tag, bal] : balance) balances[tag].merge(bal);
    }, 1024);
    for (const auto& p : partial)
      for (const auto& [tag, v] : p) bus_sums[tag] = bus_sums[tag] + v;
    if (first.row < n && r.failed_table == SIZE_MAX) {
      r.failed_table = t;
      r.failed_row = first.row;
      r.failed_constraint = first.constraint;
    }
  }
  for (const auto& [tag, v] : bus_sums) {
    if (tag == global) r.global_sum = v;
    else if (!(v == Fp3{})) r.unbalanced_buses.push_back(tag);
  }
  for (const auto& [tag, b] : balances)
    if (!b.zero()) r.unbalanced_buses.push_back(tag);
  std::sort(r.unbalanced_buses.begin(), r.unbalanced_buses.end());
  return r;
}

}  // namespace zkrv::opt::air
