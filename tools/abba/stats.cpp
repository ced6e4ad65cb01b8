#include "tools/abba/stats.h"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <stdexcept>

namespace zkrv::tools::abba {

namespace {

double mean(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size()); }

double stddev(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  const double m = mean(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return std::sqrt(s / static_cast<double>(v.size() - 1));
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Ranks of |d| (1-based, ties averaged) for the non-zero differences, doubled so that they
// are integers; signs alongside.
void doubled_ranks(const std::vector<double>& d, std::vector<int64_t>& ranks2, std::vector<bool>& positive) {
  std::vector<double> nz;
  for (double x : d)
    if (x != 0) nz.push_back(x);
  std::vector<size_t> order(nz.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t i, size_t j) { return std::fabs(nz[i]) < std::fabs(nz[j]); });
  ranks2.assign(nz.size(), 0);
  positive.assign(nz.size(), false);
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    while (j + 1 < order.size() && std::fabs(nz[order[j + 1]]) == std::fabs(nz[order[i]])) ++j;
    const int64_t sum_doubled = static_cast<int64_t>((i + 1) + (j + 1));  // 2 x average rank
    for (size_t k = i; k <= j; ++k) ranks2[order[k]] = sum_doubled;
    i = j + 1;
  }
  for (size_t i = 0; i < nz.size(); ++i) positive[i] = nz[i] > 0;
}

}  // namespace

double wilcoxon_w_plus(const std::vector<double>& d) {
  std::vector<int64_t> r2;
  std::vector<bool> pos;
  doubled_ranks(d, r2, pos);
  int64_t w2 = 0;
  for (size_t i = 0; i < r2.size(); ++i)
    if (pos[i]) w2 += r2[i];
  return static_cast<double>(w2) / 2;
}

double wilcoxon_signed_rank_p(const std::vector<double>& d) {
  std::vector<int64_t> r2;
  std::vector<bool> pos;
  doubled_ranks(d, r2, pos);
  const size_t n = r2.size();
  if (n == 0) return 1;
  if (n > 60) throw std::invalid_argument("exact Wilcoxon distribution limited to 60 non-zero pairs");
  const int64_t total = std::accumulate(r2.begin(), r2.end(), int64_t{0});
  // counts[s] = number of sign assignments with doubled W+ = s (as double: 2^60 fits exactly enough).
  std::vector<double> counts(static_cast<size_t>(total) + 1, 0);
  counts[0] = 1;
  int64_t reach = 0;
  for (int64_t r : r2) {
    for (int64_t s = reach; s >= 0; --s)
      if (counts[static_cast<size_t>(s)] != 0) counts[static_cast<size_t>(s + r)] += counts[static_cast<size_t>(s)];
    reach += r;
  }
  int64_t w2 = 0;
  for (size_t i = 0; i < n; ++i)
    if (pos[i]) w2 += r2[i];
  // Two-sided: P(|W+ - E| >= |w - E|), E = total / 2 (in doubled units, E2 = total / 2 ... keep doubled).
  const int64_t dev = std::llabs(2 * w2 - total);  // |2 W2 - total| in doubled units
  double extreme = 0, all = 0;
  for (int64_t s = 0; s <= total; ++s) {
    const double c = counts[static_cast<size_t>(s)];
    all += c;
    if (std::llabs(2 * s - total) >= dev) extreme += c;
  }
  return std::min(1.0, extreme / all);
}

Interval paired_t_interval(const std::vector<double>& d, double level) {
  if (d.size() < 2) throw std::invalid_argument("a paired-t interval needs at least 2 pairs");
  const double m = mean(d), se = stddev(d) / std::sqrt(static_cast<double>(d.size()));
  boost::math::students_t dist(static_cast<double>(d.size() - 1));
  const double t = boost::math::quantile(boost::math::complement(dist, (1 - level) / 2));
  return {m - t * se, m + t * se};
}

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kImprovement: return "real improvement (B faster)";
    case Verdict::kRegression: return "real regression (B slower)";
    default: return "inconclusive";
  }
}

Report analyze(const std::vector<double>& a, const std::vector<double>& b, double alpha) {
  if (a.size() != b.size() || a.size() < 2) throw std::invalid_argument("need at least 2 pairs of equal count");
  Report r;
  r.pairs = a.size();
  std::vector<double> d(a.size());
  for (size_t i = 0; i < a.size(); ++i) d[i] = (b[i] - a[i]) / a[i];
  r.mean_rel_diff = mean(d);
  r.median_rel_diff = median(d);
  r.ci95 = paired_t_interval(d, 1 - alpha);
  r.wilcoxon_p = wilcoxon_signed_rank_p(d);
  r.cv_a = stddev(a) / mean(a);
  r.cv_b = stddev(b) / mean(b);
  // Drift: least-squares slope of all times (A and B normalised by their means) against the
  // session's run order (ABBA: pair i is runs 2i, 2i+1), relative per run.
  std::vector<double> x, y;
  const double ma = mean(a), mb = mean(b);
  for (size_t i = 0; i < a.size(); ++i) {
    const bool a_first = i % 2 == 0;
    x.push_back(static_cast<double>(2 * i + (a_first ? 0 : 1)));
    y.push_back(a[i] / ma);
    x.push_back(static_cast<double>(2 * i + (a_first ? 1 : 0)));
    y.push_back(b[i] / mb);
  }
  const double mx = mean(x), my = mean(y);
  double sxy = 0, sxx = 0;
  for (size_t i = 0; i < x.size(); ++i) { sxy += (x[i] - mx) * (y[i] - my); sxx += (x[i] - mx) * (x[i] - mx); }
  r.drift = sxx > 0 ? sxy / sxx : 0;
  const bool t_faster = r.ci95.high < 0, t_slower = r.ci95.low > 0;
  const bool w_sig = r.wilcoxon_p < alpha;
  if (t_faster && w_sig && r.median_rel_diff < 0) r.verdict = Verdict::kImprovement;
  else if (t_slower && w_sig && r.median_rel_diff > 0) r.verdict = Verdict::kRegression;
  return r;
}

std::string to_json(const Report& r) {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "{\"pairs\":%zu,\"mean_rel_diff\":%.6g,\"median_rel_diff\":%.6g,\"ci95\":[%.6g,%.6g],"
                "\"wilcoxon_p\":%.6g,\"cv_a\":%.6g,\"cv_b\":%.6g,\"drift_per_run\":%.6g,\"verdict\":\"%s\"}",
                r.pairs, r.mean_rel_diff, r.median_rel_diff, r.ci95.low, r.ci95.high, r.wilcoxon_p, r.cv_a, r.cv_b,
                r.drift, r.verdict == Verdict::kImprovement ? "improvement"
                         : r.verdict == Verdict::kRegression ? "regression" : "inconclusive");
  return buf;
}

}  // namespace zkrv::tools::abba
