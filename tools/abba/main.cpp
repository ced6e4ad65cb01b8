// zkrv-abba: is B faster than A? Runs two commands in A B B A order for N pairs after a
// warm-up, and reports the mean and median relative difference, a paired-t 95% interval, an
// exact Wilcoxon signed-rank p-value, run-to-run variation, drift, and a verdict that needs
// both tests to agree. Deterministic metrics (cycle counts, sizes) are extracted once from each
// command's output with --metric NAME=REGEX and compared exactly.
//
//   zkrv-abba --a 'zkrv run old.elf' --b 'zkrv run new.elf' [--pairs 10] [--warmup 1]
//             [--metric 'cycles=cycles:\s+(\d+)'] [--measure REGEX] [--json FILE]
//
// --measure takes each run's figure from the command's own output instead of the wall clock
// (a time the command reports about itself, or an instruction count), which also makes the
// tool's own test deterministic.

#include <CLI/CLI.hpp>

#include <chrono>
#include <cmath>
#include <optional>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <regex>
#include <string>
#include <sys/wait.h>
#include <vector>

#include "tools/abba/stats.h"

namespace {

double time_command(const std::string& cmd, bool& ok) {
  const std::string quiet = "( " + cmd + " ) >/dev/null 2>&1";
  const auto t0 = std::chrono::steady_clock::now();
  const int status = std::system(quiet.c_str());
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ok = status != -1 && WIFEXITED(status);
  return s;
}

std::string capture(const std::string& cmd);

// A run's figure: its wall time, or with --measure the number the regex captures in its output
// (NaN when the command printed none).
double measure_command(const std::string& cmd, const std::optional<std::regex>& measure, bool& ok) {
  if (!measure) return time_command(cmd, ok);
  std::smatch sm;
  const std::string out = capture(cmd);
  ok = std::regex_search(out, sm, *measure) && sm.size() > 1;
  if (!ok) return std::nan("");
  try {
    return std::stod(sm[1].str());
  } catch (const std::exception&) {
    ok = false;
    return std::nan("");
  }
}

std::string capture(const std::string& cmd) {
  std::string out;
  FILE* p = popen(("( " + cmd + " ) 2>&1").c_str(), "r");
  if (!p) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  pclose(p);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"zkrv-abba: paired A/B timing of two commands (A B B A order) with exact statistics"};
  std::string cmd_a, cmd_b, json_path, measure_re;
  int pairs = 10, warmup = 1;
  std::vector<std::string> metrics;
  app.add_option("--a", cmd_a, "command A (the baseline), run through /bin/sh")->required();
  app.add_option("--b", cmd_b, "command B (the candidate)")->required();
  app.add_option("--pairs", pairs, "number of A/B pairs (2..60)")->capture_default_str()->check(CLI::Range(2, 60));
  app.add_option("--warmup", warmup, "warm-up runs of each command, not counted")->capture_default_str()->check(CLI::NonNegativeNumber);
  app.add_option("--metric", metrics, "NAME=REGEX with one group capturing a number in the command's output; compared exactly");
  app.add_option("--measure", measure_re, "REGEX with one group capturing a number in each run's output: compare that "
                                         "(a time the command reports, an instruction count) instead of wall time");
  app.add_option("--json", json_path, "also write the report as JSON to FILE");
  CLI11_PARSE(app, argc, argv);
  std::optional<std::regex> measure;
  if (!measure_re.empty()) {
    try {
      measure = std::regex(measure_re);
    } catch (const std::regex_error& e) {
      std::cerr << "zkrv-abba: error: bad regex in --measure: " << e.what() << "\n";
      return 64;
    }
  }

  // Deterministic metrics first: one run of each, outputs parsed.
  std::string metric_json;
  for (const auto& m : metrics) {
    const auto eq = m.find('=');
    if (eq == std::string::npos) { std::cerr << "zkrv-abba: error: --metric needs NAME=REGEX, got '" << m << "'\n"; return 64; }
    std::regex re;
    try {
      re = std::regex(m.substr(eq + 1));
    } catch (const std::regex_error& e) {
      std::cerr << "zkrv-abba: error: bad regex in --metric " << m.substr(0, eq) << ": " << e.what() << "\n";
      return 64;
    }
    auto value = [&](const std::string& cmd) -> std::string {
      std::smatch sm;
      const std::string out = capture(cmd);
      return std::regex_search(out, sm, re) && sm.size() > 1 ? sm[1].str() : std::string("(not found)");
    };
    const std::string va = value(cmd_a), vb = value(cmd_b);
    std::printf("metric %-12s A %-16s B %-16s %s\n", m.substr(0, eq).c_str(), va.c_str(), vb.c_str(),
                va == vb ? "identical" : "DIFFERENT");
    metric_json += (metric_json.empty() ? "" : ",") + std::string("\"") + m.substr(0, eq) + "\":{\"a\":\"" + va +
                   "\",\"b\":\"" + vb + "\",\"equal\":" + (va == vb ? "true" : "false") + "}";
  }

  bool ok = true, run_ok = true;
  for (int w = 0; w < warmup; ++w) {
    measure_command(cmd_a, measure, run_ok); ok &= run_ok;
    measure_command(cmd_b, measure, run_ok); ok &= run_ok;
  }
  std::vector<double> ta(static_cast<size_t>(pairs)), tb(static_cast<size_t>(pairs));
  for (int i = 0; i < pairs; ++i) {
    if (i % 2 == 0) {  // A B, then B A: cancels linear drift within each pair of pairs
      ta[static_cast<size_t>(i)] = measure_command(cmd_a, measure, run_ok); ok &= run_ok;
      tb[static_cast<size_t>(i)] = measure_command(cmd_b, measure, run_ok); ok &= run_ok;
    } else {
      tb[static_cast<size_t>(i)] = measure_command(cmd_b, measure, run_ok); ok &= run_ok;
      ta[static_cast<size_t>(i)] = measure_command(cmd_a, measure, run_ok); ok &= run_ok;
    }
    std::fprintf(stderr, measure ? "pair %d/%d: A %.6g, B %.6g\n" : "pair %d/%d: A %.4f s, B %.4f s\n", i + 1, pairs, ta[static_cast<size_t>(i)], tb[static_cast<size_t>(i)]);
  }
  if (!ok && measure) {
    std::fprintf(stderr, "zkrv-abba: error: a run printed nothing that --measure matches\n");
    return 1;
  }
  if (!ok) std::fprintf(stderr, "zkrv-abba: warning: a command could not be run or was killed by a signal\n");

  const auto r = zkrv::tools::abba::analyze(ta, tb);
  std::printf("%-28s %s\n", "pairs", std::to_string(r.pairs).c_str());
  std::printf("%-28s %+.2f%%\n", "mean (B-A)/A", 100 * r.mean_rel_diff);
  std::printf("%-28s %+.2f%%\n", "median (B-A)/A", 100 * r.median_rel_diff);
  std::printf("%-28s [%+.2f%%, %+.2f%%]\n", "paired-t 95% interval", 100 * r.ci95.low, 100 * r.ci95.high);
  std::printf("%-28s %.4g\n", "Wilcoxon exact p", r.wilcoxon_p);
  std::printf("%-28s A %.2f%%, B %.2f%%\n", "run-to-run CV", 100 * r.cv_a, 100 * r.cv_b);
  std::printf("%-28s %+.3f%% per run\n", "drift over the session", 100 * r.drift);
  std::printf("%-28s %s\n", "verdict", zkrv::tools::abba::verdict_name(r.verdict));
  if (!json_path.empty()) {
    std::string j = zkrv::tools::abba::to_json(r);
    j.pop_back();
    j += ",\"metrics\":{" + metric_json + "}}\n";
    std::ofstream(json_path) << j;
  }
  return ok ? 0 : 1;
}
