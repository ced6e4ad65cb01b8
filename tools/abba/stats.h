#pragma once
// Paired A/B statistics for zkrv-abba: relative differences of paired runs, a paired-t 95%
// confidence interval, an exact Wilcoxon signed-rank test, run-to-run variation, drift, and a
// verdict that needs both tests to agree.

#include <cstdint>
#include <string>
#include <vector>

namespace zkrv::tools::abba {

// Exact two-sided p-value of the Wilcoxon signed-rank test for paired differences `d`.
// Zeros are dropped; ties get average ranks. The null distribution of W+ is computed exactly
// by counting sign assignments (dynamic programming over doubled ranks), not approximated.
double wilcoxon_signed_rank_p(const std::vector<double>& d);

// W+ (sum of ranks of positive differences, ranks averaged over ties, zeros dropped).
double wilcoxon_w_plus(const std::vector<double>& d);

struct Interval {
  double low = 0, high = 0;
};

// Paired-t confidence interval (two-sided, level e.g. 0.95) for the mean of `d`; needs n >= 2.
Interval paired_t_interval(const std::vector<double>& d, double level = 0.95);

enum class Verdict { kImprovement, kRegression, kInconclusive };
const char* verdict_name(Verdict v);

struct Report {
  size_t pairs = 0;
  double mean_rel_diff = 0;    // mean of (b - a) / a: negative means B is faster
  double median_rel_diff = 0;
  Interval ci95;               // paired-t interval for the mean relative difference
  double wilcoxon_p = 1;       // exact, two-sided
  double cv_a = 0, cv_b = 0;   // coefficient of variation of A's and B's times
  double drift = 0;            // relative change per run over the session (slope / mean)
  Verdict verdict = Verdict::kInconclusive;
};

// `a[i]` and `b[i]` are the times of pair i. The verdict is an improvement (B faster) or a
// regression only when the paired-t interval excludes 0 and the Wilcoxon p-value is below
// alpha, in the same direction; otherwise inconclusive.
Report analyze(const std::vector<double>& a, const std::vector<double>& b, double alpha = 0.05);

std::string to_json(const Report& r);

}  // namespace zkrv::tools::abba
