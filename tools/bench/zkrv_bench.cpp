// zkrv-bench: executor throughput, measured side by side in one run. For each guest workload it
// runs the reference executor, the fast executor in run and trace mode, and qemu-riscv64, checks
// that they produce the same output, and prints MIPS and the ratios. Beside them, the two
// executions a bundle's prover makes of segments it does not build (spec/protocol.md,
// protocol:segments:prover, protocol:segments:peers): the planner's (every segment's boundaries
// and the touched bytes, 2^20-cycle segments) and the segment builder's with no segment wanted
// (the memory each segment leaves). A program, not a test: the numbers depend on the machine
// (name it when you quote them).
//
//   zkrv-bench [--guest-dir DIR] [--workloads loop,memory,...] [--scale X] [--json]

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>
#include <string>
#include <vector>

#include "optimized/exec/fast_executor.h"
#include "optimized/trace/segments.h"
#include "spec/run_segments.h"
#include "tools/bench/common.h"
#include "reference/elf/elf_loader.h"
#include "reference/exec/executor.h"
#include "tools/common/files.h"
#include "tools/qemu_oracle/qemu_oracle.h"

namespace {

using namespace zkrv;
using Clock = std::chrono::steady_clock;
using bench::cpu_name;
using bench::number;

struct Timed {
  spec::ExecResult result;
  double seconds;
};

template <typename F>
Timed best_of(int reps, F&& f) {
  Timed best{{}, 1e300};
  for (int k = 0; k < reps; ++k) {
    const auto t0 = Clock::now();
    auto r = f();
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    if (s < best.seconds) best = {std::move(r), s};
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"zkrv-bench: reference vs fast (run, trace) vs qemu-riscv64 executor throughput"};
  std::string guest_dir = ZKRV_BENCH_GUEST_DIR;
  std::vector<std::string> workloads = {"loop", "memory", "muldiv", "branchy"};
  double scale = 1.0;
  bool json = false, no_qemu = false;
  app.add_option("--guest-dir", guest_dir, "folder with bench_*.elf")->capture_default_str();
  app.add_option("--workloads", workloads, "subset of loop, memory, muldiv, branchy")->delimiter(',');
  app.add_option("--scale", scale, "multiply every instruction budget (0.01 for a smoke run)")->capture_default_str();
  app.add_flag("--json", json, "one JSON object per workload instead of the table");
  app.add_flag("--no-qemu", no_qemu, "leave qemu-riscv64 out");
  CLI11_PARSE(app, argc, argv);

  // Instruction budgets per mode (before --scale).
  const double ref_target = 3e7, fast_target = 6e8, trace_target = 5e6, plan_target = 5e7;
  if (!json) {
    std::printf("machine: %s, %u hardware threads; single-threaded executors; best of 3 (reference: 1)\n",
                cpu_name().c_str(), std::thread::hardware_concurrency());
    std::printf("%-8s %12s %10s %10s %10s %10s %9s %9s %9s %10s %10s\n", "workload", "instructions", "ref MIPS", "fast MIPS",
                "trace MIPS", "qemu MIPS", "fast/ref", "trace/ref", "fast/qemu", "plan MIPS", "skip MIPS");
  }
  int failures = 0;
  for (const auto& w : workloads) {
    const std::string path = guest_dir + "/bench_" + w + ".elf";
    auto bytes = tools::read_file(path, 1 << 30, "workload");
    if (!bytes.bytes) { std::fprintf(stderr, "error: %s\n", bytes.error.c_str()); return 2; }
    auto loaded = ref::load_elf(*bytes.bytes);
    if (!loaded.ok()) { std::fprintf(stderr, "error: %s\n", loaded.message.c_str()); return 2; }
    const auto& image = *loaded.image;
    spec::ExecOptions run_opt;
    run_opt.max_cycles = uint64_t{1} << 40;

    // Calibrate instructions per unit of N on the fast executor.
    const uint64_t n0 = 2000;
    auto cal = opt::execute(image, number(n0), run_opt);
    const double per_n = static_cast<double>(cal.cycles) / n0;
    auto n_for = [&](double target) { return std::max<uint64_t>(1, static_cast<uint64_t>(target * scale / per_n)); };

    const uint64_t n_ref = n_for(ref_target), n_fast = n_for(fast_target), n_trace = n_for(trace_target);
    auto ref = best_of(1, [&] { return ref::execute(image, number(n_ref), run_opt); });
    auto fast_same = opt::execute(image, number(n_ref), run_opt);
    auto fast = best_of(3, [&] { return opt::execute(image, number(n_fast), run_opt); });
    // Trace mode as a prover uses it: records streamed to a consumer (here a checksum over
    // every record, so that each one is really produced and read).
    spec::ExecOptions trace_opt = run_opt;
    trace_opt.trace = true;
    uint64_t checksum = 0;
    trace_opt.trace_sink = [&](std::span<const spec::StepRecord> chunk) {
      for (const auto& r : chunk) checksum += r.pc ^ r.rd_value ^ r.mem.after;
    };
    auto trace = best_of(3, [&] { return opt::execute(image, number(n_trace), trace_opt); });

    // A bundle's executions of segments it does not build: the planner's, and the builder's
    // with none wanted (it keeps the memory they leave).
    const uint64_t n_plan = n_for(plan_target);
    spec::RunPlan plan;
    auto planned = best_of(3, [&] {
      spec::RunPlanner planner(image, 20);
      spec::ExecOptions o = run_opt;
      spec::attach(planner, o);
      auto r = opt::execute(image, number(n_plan), o);
      plan = planner.finish(r);
      return r;
    });
    auto skipped = best_of(3, [&] {
      opt::trace::build_segment_traces(image, number(n_plan), run_opt, plan, planned.result, 1,
                                       [&](size_t, opt::trace::SegmentTrace&&) { ++failures; },  // none is wanted
                                       [](size_t) { return false; });
      return planned.result;
    });

    if (checksum == 0) ++failures;  // the trace consumer saw nothing
    if (ref.result.output != fast_same.output || ref.result.cycles != fast_same.cycles ||
        ref.result.status != spec::ExitStatus::kExited) {
      std::fprintf(stderr, "error: %s: reference and fast executors disagree\n", w.c_str());
      ++failures;
    }
    const double ref_mips = ref.result.cycles / ref.seconds / 1e6;
    const double fast_mips = fast.result.cycles / fast.seconds / 1e6;
    const double trace_mips = trace.result.cycles / trace.seconds / 1e6;
    const double plan_mips = planned.result.cycles / planned.seconds / 1e6, skip_mips = skipped.result.cycles / skipped.seconds / 1e6;
    double qemu_mips = 0;
    if (!no_qemu && !tools::qemu_path().empty()) {
      double best = 1e300;
      for (int k = 0; k < 3; ++k) {
        const auto t0 = Clock::now();
        auto q = tools::run_qemu(path, number(n_fast), 600);
        best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count());
        if (!q.exited || q.stdout_bytes != fast.result.output) {
          std::fprintf(stderr, "error: %s: qemu-riscv64 output differs\n", w.c_str());
          ++failures;
          break;
        }
      }
      qemu_mips = fast.result.cycles / best / 1e6;
    }
    if (json) {
      std::printf("{\"workload\":\"%s\",\"instructions\":%llu,\"ref_mips\":%.1f,\"fast_mips\":%.1f,\"trace_mips\":%.1f,"
                  "\"qemu_mips\":%.1f,\"fast_over_ref\":%.2f,\"trace_over_ref\":%.2f,\"fast_over_qemu\":%.2f,"
                  "\"plan_mips\":%.1f,\"skip_mips\":%.1f}\n",
                  w.c_str(), static_cast<unsigned long long>(fast.result.cycles), ref_mips, fast_mips, trace_mips,
                  qemu_mips, fast_mips / ref_mips, trace_mips / ref_mips, qemu_mips > 0 ? fast_mips / qemu_mips : 0.0,
                  plan_mips, skip_mips);
    } else {
      std::printf("%-8s %12llu %10.1f %10.1f %10.1f %10.1f %8.1fx %8.1fx %8.2fx %10.1f %10.1f\n", w.c_str(),
                  static_cast<unsigned long long>(fast.result.cycles), ref_mips, fast_mips, trace_mips, qemu_mips,
                  fast_mips / ref_mips, trace_mips / ref_mips, qemu_mips > 0 ? fast_mips / qemu_mips : 0.0, plan_mips,
                  skip_mips);
    }
    std::fflush(stdout);
  }
  return failures == 0 ? 0 : 1;
}
