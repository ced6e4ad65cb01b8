#include "optimized/air/check.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <random>
#include <stdexcept>

#include "optimized/common/parallel.h"

namespace zkrv::opt::air {

TableColumns columns_from_rows(const std::vector<std::vector<uint64_t>>& rows, size_t width) {
  TableColumns t;
  t.height = rows.size();
  t.columns.assign(width, std::vector<Fp>(rows.size()));
  for (size_t r = 0; r < rows.size(); ++r) {
    if (rows[r].size() < width) throw std::invalid_argument("columns_from_rows: a short row");
    for (size_t c = 0; c < width; ++c) t.columns[c][r] = Fp::from_u64(rows[r][c]);
  }
  return t;
}

FastCheck fast_check(const std::vector<TableColumns>& tables, const std::vector<Fp>& publics, uint64_t seed,
                     unsigned threads) {
  const auto& code = generated_tables();
  if (tables.size() != code.size()) throw std::invalid_argument("fast_check: wrong number of tables");
  std::mt19937_64 g(seed);
  auto fp3 = [&] { return Fp3{{Fp::from_u64(g()), Fp::from_u64(g()), Fp::from_u64(g())}}; };
  FastCheck r;
  std::map<uint64_t, Fp3> bus_sums;
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
    // LogUp: blocks of rows, denominators batch-inverted, per-bus sums per thread.
    std::vector<std::map<uint64_t, Fp3>> partial;
    parallel_for(n, threads, [&](size_t begin, size_t end) {
      const RowFailure f = tc.check(args, begin, end);
      std::map<uint64_t, Fp3> sums;
      constexpr size_t kBlock = 1024;
      const size_t width = tc.interactions;
      std::vector<Fp3> den(kBlock * width);
      std::vector<Fp> mult(kBlock * width);
      for (size_t b = begin; b < end; b += kBlock) {
        const size_t e = std::min(end, b + kBlock), cells = (e - b) * width;
        tc.logup(args, b, e, den.data(), mult.data());
        batch_inverse(std::span<Fp3>(den.data(), cells));
        for (size_t k = 0; k < width; ++k) {
          Fp3 acc{};
          for (size_t i = 0; i < e - b; ++i) acc = acc + den[i * width + k] * mult[i * width + k];
          sums[tc.tags[k]] = sums[tc.tags[k]] + acc;
        }
      }
      std::lock_guard<std::mutex> lock(m);
      if (f.row < end && f.row < first.row) first = f;  // f.row == end: every row held
      partial.push_back(std::move(sums));
    }, 1024);
    for (const auto& p : partial)
      for (const auto& [tag, v] : p) bus_sums[tag] = bus_sums[tag] + v;
    if (first.row < n && r.failed_table == SIZE_MAX) {
      r.failed_table = t;
      r.failed_row = first.row;
      r.failed_constraint = first.constraint;
    }
  }
  for (const auto& [tag, v] : bus_sums)
    if (!(v == Fp3{})) r.unbalanced_buses.push_back(tag);
  return r;
}

}  // namespace zkrv::opt::air
