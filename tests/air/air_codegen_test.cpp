// The constraint evaluator generated from the spec (optimized/air) against the reference's
// combination (ref::stark::combine): the same value, bit for bit, for every table, at random
// points (every column, auxiliary value, selector, public value and challenge random) and on
// the rows of real traces (fibonacci, cxx_lifecycle and cost_scopes, with random auxiliary columns and challenges).
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "optimized/air/air_eval.h"
#include "optimized/exec/fast_executor.h"
#include "optimized/simd/simd.h"
#include "optimized/air/check.h"
#include "reference/air/check.h"
#include "reference/air/trace.h"
#include "reference/elf/elf_loader.h"
#include "reference/stark/air.h"
#include "tools/common/files.h"

namespace zkrv {
namespace {

namespace rs = ref::stark;

opt::Fp to_opt(ref::Fp x) { return opt::Fp::from_u64(x.value()); }
opt::Fp3 to_opt(const ref::Fp3& x) { return {{to_opt(x.c[0]), to_opt(x.c[1]), to_opt(x.c[2])}}; }

struct Rng {
  std::mt19937_64 g;
  ref::Fp fp() { return ref::Fp::from_u64(g()); }
  ref::Fp3 fp3() { return {{fp(), fp(), fp()}}; }
};

// Evaluates table t over `columns` (spec order, n rows each) both ways and compares every row.
void compare(size_t t, const std::vector<std::vector<ref::Fp>>& columns, size_t n, size_t next, Rng& rng,
             const std::string& what) {
  const rs::TableLayout& tl = rs::air_layout().tables[t];
  const opt::air::TableCode& code = opt::air::generated_tables()[t];
  ASSERT_EQ(std::string(code.name), tl.name);
  ASSERT_EQ(code.columns, tl.columns);
  ASSERT_EQ(code.aux_width, tl.aux_width());
  ASSERT_EQ(code.combined_constraints, tl.combined_constraints());
  std::vector<std::vector<ref::Fp>> aux(tl.aux_width(), std::vector<ref::Fp>(n));
  for (auto& c : aux)
    for (auto& v : c) v = rng.fp();
  std::vector<ref::Fp> publics(rs::air_layout().publics.size()), sf(n), sl(n), st(n);
  for (auto& v : publics) v = rng.fp();
  for (size_t i = 0; i < n; ++i) sf[i] = rng.fp(), sl[i] = rng.fp(), st[i] = rng.fp();
  const rs::LogupChallenges ch{rng.fp3(), rng.fp3()};
  const ref::Fp3 terminal = rng.fp3();
  const std::vector<ref::Fp3> powers = rs::combination_powers(rng.fp3(), tl.combined_constraints());

  // the generated code, on opt:: column arrays
  auto convert = [](const std::vector<std::vector<ref::Fp>>& m) {
    std::vector<std::vector<opt::Fp>> o(m.size());
    for (size_t c = 0; c < m.size(); ++c)
      for (ref::Fp v : m[c]) o[c].push_back(to_opt(v));
    return o;
  };
  auto ocols = convert(columns), oaux = convert(aux);
  auto ptrs = [](const std::vector<std::vector<opt::Fp>>& m) {
    std::vector<const opt::Fp*> p;
    for (const auto& c : m) p.push_back(c.data());
    return p;
  };
  const auto col_ptrs = ptrs(ocols), aux_ptrs = ptrs(oaux);
  const auto opub = convert({publics})[0], osf = convert({sf})[0], osl = convert({sl})[0], ost = convert({st})[0];
  std::vector<opt::Fp3> opowers;
  for (const auto& p : powers) opowers.push_back(to_opt(p));
  opt::air::CombineArgs a;
  a.columns = col_ptrs.data();
  a.aux = aux_ptrs.data();
  a.n = n;
  a.next = next;
  a.publics = opub.data();
  a.lu_alpha = to_opt(ch.alpha);
  a.lu_beta = to_opt(ch.beta);
  a.terminal = to_opt(terminal);
  a.powers = opowers.data();
  a.sel_first = osf.data();
  a.sel_last = osl.data();
  a.sel_transition = ost.data();
  std::vector<opt::Fp3> got(n);
  code.combine(a, 0, n / 2, got.data());  // two calls: ranges must compose
  code.combine(a, n / 2, n, got.data() + n / 2);

  // the reference, row by row
  std::vector<ref::Fp> local(tl.columns), nxt(tl.columns), scratch;
  const size_t k_aux = tl.aux_width() / 3;
  std::vector<ref::Fp3> aux_local(k_aux), aux_next(k_aux);
  for (size_t i = 0; i < n; ++i) {
    const size_t j = (i + next) % n;
    for (size_t c = 0; c < tl.columns; ++c) local[c] = columns[c][i], nxt[c] = columns[c][j];
    for (size_t k = 0; k < k_aux; ++k) {
      aux_local[k] = {{aux[3 * k][i], aux[3 * k + 1][i], aux[3 * k + 2][i]}};
      aux_next[k] = {{aux[3 * k][j], aux[3 * k + 1][j], aux[3 * k + 2][j]}};
    }
    const ref::Fp3 want = rs::combine(tl, local.data(), nxt.data(), aux_local.data(), aux_next.data(), publics.data(), ch,
                                      terminal, powers, sf[i], sl[i], st[i], scratch);
    ASSERT_EQ(got[i], to_opt(want)) << tl.name << " row " << i << " (" << what << ")";
  }
}

// Every SIMD level the machine has: the one-row code, and eight rows at a time with AVX-512
// (with the rows whose next row wraps around done one at a time).
std::vector<opt::SimdLevel> levels() {
  std::vector<opt::SimdLevel> v{opt::SimdLevel::kScalar};
  if (opt::cpu_simd_level() == opt::SimdLevel::kAvx512) v.push_back(opt::SimdLevel::kAvx512);
  return v;
}
struct SimdScope {
  explicit SimdScope(opt::SimdLevel l) : saved(opt::simd_level()) { opt::set_simd_level(l); }
  ~SimdScope() { opt::set_simd_level(saved); }
  opt::SimdLevel saved;
};

TEST(AirCodegen, EqualsTheReferenceAtRandomPoints) {
  Rng rng{std::mt19937_64(2026)};
  const auto& tables = rs::air_layout().tables;
  ASSERT_EQ(opt::air::generated_tables().size(), tables.size());
  for (const auto level : levels()) {
    SimdScope scope(level);
    for (size_t t = 0; t < tables.size(); ++t)
      for (const size_t n : {16u, 64u}) {
        std::vector<std::vector<ref::Fp>> columns(tables[t].columns, std::vector<ref::Fp>(n));
        for (auto& c : columns)
          for (auto& v : c) v = rng.fp();
        compare(t, columns, n, 4, rng, std::string("random, ") + opt::simd_level_name(level));
      }
  }
}

// Honest rows: bits, zeros and small values, where a wrong sign or a dropped term hides less
// easily than at random points. Auxiliary columns and challenges stay random.
TEST(AirCodegen, EqualsTheReferenceOnRealTraces) {
  Rng rng{std::mt19937_64(7)};
  for (const std::string name : {"fibonacci", "cxx_lifecycle", "cost_scopes"}) {
    const auto elf = tools::read_file(std::string(ZKRV_GUEST_PROGRAMS_DIR) + "/" + name + ".elf", 1 << 30, "guest");
    ASSERT_TRUE(elf.bytes) << elf.error;
    const auto input = tools::read_file(std::string(ZKRV_SOURCE_DIR) + "/guest/programs/" + name + ".input", 1 << 24, "input");
    const auto image = *ref::load_elf(*elf.bytes).image;
    spec::ExecOptions opt;
    opt.trace = true;
    const auto run = opt::execute(image, input.bytes ? *input.bytes : std::vector<uint8_t>{}, opt);
    ASSERT_EQ(run.status, spec::ExitStatus::kExited) << name;
    const auto trace = ref::air::build_trace(image, run);
    const auto& tables = rs::air_layout().tables;
    for (size_t t = 0; t < tables.size(); ++t) {
      const auto& tt = trace.table(tables[t].name);
      const size_t n = std::min<size_t>(tt.height(), 1024);  // a power of two: every height is one
      std::vector<std::vector<ref::Fp>> columns(tables[t].columns, std::vector<ref::Fp>(n));
      for (size_t r = 0; r < n; ++r)
        for (size_t c = 0; c < tables[t].columns; ++c) columns[c][r] = ref::Fp::from_u64(tt.rows[r][c]);
      for (const auto level : levels()) {
        SimdScope scope(level);
        compare(t, columns, n, 1, rng, name + ", " + opt::simd_level_name(level));
      }
    }
  }
}

}  // namespace
}  // namespace zkrv

namespace zkrv {
namespace {

struct Traced {
  ref::air::AirTrace trace;
};

Traced trace_of(const std::string& name) {
  const auto elf = tools::read_file(std::string(ZKRV_GUEST_PROGRAMS_DIR) + "/" + name + ".elf", 1 << 30, "guest");
  if (!elf.bytes) throw std::runtime_error(elf.error);
  const auto image = *ref::load_elf(*elf.bytes).image;
  spec::ExecOptions opt;
  opt.trace = true;
  const auto run = opt::execute(image, {}, opt);
  if (run.status != spec::ExitStatus::kExited) throw std::runtime_error(name + " did not exit");
  return {ref::air::build_trace(image, run)};
}

opt::air::FastCheck fast(const ref::air::AirTrace& trace, uint64_t seed) {
  const auto& code = opt::air::generated_tables();
  std::vector<opt::air::TableColumns> tables;
  for (const auto& tc : code) tables.push_back(opt::air::columns_from_rows(trace.table(tc.name).rows, tc.columns));
  std::vector<opt::Fp> publics;
  for (const auto& name : rs::air_layout().publics) publics.push_back(opt::Fp::from_u64(trace.publics.at(name)));
  return opt::air::fast_check(tables, publics, seed, 2);
}

// zkrv check's fast path against the reference checker: the same verdict on an honest trace and
// on single-cell mutations all over it, and a failing constraint the reference also names.
TEST(FastCheck, AgreesWithTheReferenceChecker) {
  const Traced honest = trace_of("cxx_lifecycle");
  ASSERT_TRUE(ref::air::check_trace(honest.trace).ok());
  ASSERT_TRUE(fast(honest.trace, 1).ok());
  ASSERT_TRUE(fast(honest.trace, 2).ok());  // any challenges
  std::mt19937_64 g(11);
  const auto& tables = rs::air_layout().tables;
  int rejected = 0, tried = 0;
  for (; tried < 40; ++tried) {
    ref::air::AirTrace t = honest.trace;
    const auto& tl = tables[g() % tables.size()];
    auto& tt = t.table(tl.name);
    const size_t r = g() % tt.height(), c = g() % tl.columns;
    tt.rows[r][c] = (tt.rows[r][c] + 1 + g() % 3) % ref::Fp::P;
    const auto want = ref::air::check_trace(t);
    const auto got = fast(t, g());
    ASSERT_EQ(got.ok(), want.ok()) << tl.name << " row " << r << " column " << c << ": " << want.summary();
    if (got.failed_table != SIZE_MAX) {
      const auto& id = tables[got.failed_table].constraints[got.failed_constraint].id;
      EXPECT_TRUE(want.failing_ids.count(id)) << id << " (" << tl.name << " row " << r << " column " << c << ")";
    }
    rejected += !got.ok();
  }
  EXPECT_GE(rejected, tried / 4) << "most cells are constrained: too few mutations were rejected";
}

// A change that only a bus sees: one more use of a 16-bit value in the range16 table's
// multiplicity (range16's constraints do not read it).
TEST(FastCheck, FindsABusThatDoesNotBalance) {
  Traced m = trace_of("cxx_lifecycle");
  auto& range = m.trace.table("range16");
  range.rows[5][range.col("mult")] += 1;
  const auto want = ref::air::check_trace(m.trace);
  ASSERT_FALSE(want.ok());
  ASSERT_TRUE(want.failures.empty()) << want.summary();  // a bus failure, not a constraint's
  const auto got = fast(m.trace, 3);
  EXPECT_EQ(got.failed_table, SIZE_MAX);
  ASSERT_EQ(got.unbalanced_buses.size(), 1u);
  EXPECT_EQ(got.unbalanced_buses[0], rs::air_layout().tables[rs::air_layout().table_index("range16")].interactions[0].tag);
}

}  // namespace
}  // namespace zkrv
