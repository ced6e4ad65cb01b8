// zkrv-abba's statistics against independent computations: the exact Wilcoxon distribution by
// brute-force enumeration of every sign assignment, the paired-t interval from Boost.Math's
// Student-t quantile and a textbook table value, and verdicts on simulated pairs.
#include <gtest/gtest.h>

#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <random>

#include "tools/abba/stats.h"

namespace zkrv::tools::abba {
namespace {

// P(|W+ - E| >= |w - E|) by enumerating all 2^n sign assignments of the ranks.
double brute_force_p(const std::vector<double>& d) {
  std::vector<double> nz;
  for (double x : d) if (x != 0) nz.push_back(x);
  const size_t n = nz.size();
  std::vector<double> ranks(n);
  for (size_t i = 0; i < n; ++i) {  // average ranks of |x|, by counting
    double less = 0, equal = 0;
    for (size_t j = 0; j < n; ++j) {
      if (std::fabs(nz[j]) < std::fabs(nz[i])) ++less;
      else if (std::fabs(nz[j]) == std::fabs(nz[i])) ++equal;
    }
    ranks[i] = less + (equal + 1) / 2;
  }
  double w = 0, total = 0;
  for (size_t i = 0; i < n; ++i) { total += ranks[i]; if (nz[i] > 0) w += ranks[i]; }
  const double e = total / 2, dev = std::fabs(w - e);
  size_t extreme = 0;
  for (uint64_t mask = 0; mask < (uint64_t{1} << n); ++mask) {
    double s = 0;
    for (size_t i = 0; i < n; ++i) if (mask >> i & 1) s += ranks[i];
    if (std::fabs(s - e) >= dev - 1e-9) ++extreme;
  }
  return static_cast<double>(extreme) / static_cast<double>(uint64_t{1} << n);
}

TEST(AbbaStats, ExactWilcoxonMatchesBruteForce) {
  std::mt19937_64 g(3);
  for (int trial = 0; trial < 200; ++trial) {
    const size_t n = 1 + g() % 12;
    std::vector<double> d(n);
    for (auto& x : d) x = static_cast<double>(static_cast<int>(g() % 9) - 4);  // ties and zeros on purpose
    EXPECT_NEAR(wilcoxon_signed_rank_p(d), brute_force_p(d), 1e-12) << "trial " << trial;
  }
  // Known value: n = 6, all positive and distinct: p = 2 / 64.
  EXPECT_NEAR(wilcoxon_signed_rank_p({1, 2, 3, 4, 5, 6}), 2.0 / 64, 1e-15);
  EXPECT_DOUBLE_EQ(wilcoxon_w_plus({1, -2, 3}), 4);
}

TEST(AbbaStats, PairedTIntervalMatchesBoostAndTable) {
  const std::vector<double> d = {0.02, -0.01, 0.03, 0.00, 0.01};
  const double m = 0.01, s = std::sqrt((0.0001 + 0.0004 + 0.0004 + 0.0001 + 0) / 4);
  const double t = 2.776445105;  // t(0.975, 4) from tables
  const auto ci = paired_t_interval(d);
  EXPECT_NEAR(ci.low, m - t * s / std::sqrt(5.0), 1e-8);
  EXPECT_NEAR(ci.high, m + t * s / std::sqrt(5.0), 1e-8);
  boost::math::students_t dist(4);
  EXPECT_NEAR(boost::math::quantile(dist, 0.975), t, 1e-8);
}

TEST(AbbaStats, SimulatedShiftIsDetectedAndIdenticalIsInconclusive) {
  std::mt19937_64 g(5);
  std::normal_distribution<double> noise(0, 0.01);
  std::vector<double> a, faster, slower, same;
  for (int i = 0; i < 20; ++i) {
    const double base = 1.0 + noise(g);
    a.push_back(base);
    faster.push_back(base * 0.95 + noise(g) * 0.2);
    slower.push_back(base * 1.05 + noise(g) * 0.2);
    same.push_back(1.0 + noise(g));
  }
  EXPECT_EQ(analyze(a, faster).verdict, Verdict::kImprovement);
  EXPECT_EQ(analyze(a, slower).verdict, Verdict::kRegression);
  EXPECT_EQ(analyze(a, a).verdict, Verdict::kInconclusive);
  EXPECT_EQ(analyze(a, same).verdict, Verdict::kInconclusive);
  const auto r = analyze(a, faster);
  EXPECT_NEAR(r.mean_rel_diff, -0.05, 0.01);
  EXPECT_LT(r.ci95.high, 0);
  EXPECT_LT(r.wilcoxon_p, 1e-4);
}

TEST(AbbaStats, DriftIsMeasured) {
  std::vector<double> a, b;
  for (int i = 0; i < 10; ++i) {  // both get 1% slower every run
    const double ra = 2 * i + (i % 2), rb = 2 * i + 1 - (i % 2);
    a.push_back(1.0 + 0.01 * ra);
    b.push_back(1.0 + 0.01 * rb);
  }
  EXPECT_GT(analyze(a, b).drift, 0.005);
  EXPECT_EQ(analyze(a, b).verdict, Verdict::kInconclusive);  // ABBA cancels the drift
}

}  // namespace
}  // namespace zkrv::tools::abba
