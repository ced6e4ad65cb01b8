// zkrv check: execute a guest, build its AIR tables and check every constraint and bus of the
// constraint spec (no proof); with --reference or --spec, or to explain a failure, the reference
// evaluator checks them and the spec's own expressions are checked to agree with it.
#include <algorithm>
#include <bit>
#include <iostream>
#include <optional>

#include "optimized/exec/fast_executor.h"
#include "optimized/trace/trace.h"
#include "reference/air/check.h"
#include "reference/air/interpret.h"
#include "reference/air/segment_trace.h"
#include "spec/air/embedded.h"
#include "spec/air/spec.h"
#include "tools/zkrv/commands.h"
#include "tools/zkrv/exit_codes.h"

namespace zkrv::cli {

CLI::App* add_check(CLI::App& app, CheckArgs& a) {
  auto* chk = app.add_subcommand("check", "Execute a guest and check its trace against every constraint and bus of the "
                                          "constraint spec (no proof)");
  chk->add_option("PROGRAM", a.program, "guest ELF (RV64IM, static, ET_EXEC)")->required();
  chk->add_option("--input", a.input, "private input: a file, - for stdin, a pipe, a FIFO or a device (read to its end)");
  chk->add_option("--max-cycles", a.max_cycles, "refuse runs longer than N cycles (the trace is kept in memory: a run "
                                                 "longer than this machine holds is refused at that length, below)")
      ->capture_default_str()->check(uint_range(1, kMaxU64));
  chk->add_option("--random-seed", a.seed, "seed of zkvm_random_u64")->capture_default_str()->check(uint_range(0, kMaxU64));
  chk->add_option("--spec", a.spec_dir, "check against the constraint spec in this folder (like spec/tables) instead "
                                        "of the one built into zkrv")
      ->check(CLI::ExistingDirectory);
  chk->add_flag("-q,--quiet", a.quiet, "no progress lines on stderr");
  chk->add_option("--segment-cycles", a.segment_cycles,
                  "cut the run into segments of N cycles (a power of two, 1024 to 2097152) and check every segment "
                  "against the segment AIR and every bus across them (reference builder and the spec's expressions; slow)")
      ->check(segment_cycles())->excludes("--spec");
  chk->add_flag("--reference", a.reference, "check with the reference evaluator and the spec's expressions interpreted "
                                            "beside it (slow), instead of the evaluator generated from the spec");
  chk->footer("Prints \"N constraints on M rows in K tables hold; B buses balance\", or FAIL and the first failing\n"
              "constraint (spec ID, table, row, values) or unbalanced bus (its unmatched tuples). Exit code: 0 all hold,\n"
              "1 a constraint or bus fails, 101-107 the guest faulted, 64-66 usage and file errors, 70 internal error,\n"
              "71 out of memory or a run longer than this machine holds (the table: zkrv --help).\n" + capacity_text());
  return chk;
}

int cmd_check(const CheckArgs& a) {
  using namespace zkrv;
  std::optional<spec::air::Spec> from_dir;
  if (!a.spec_dir.empty()) {
    auto loaded = spec::air::load_spec_dir(a.spec_dir);
    if (!loaded.spec) return fail(cli::kBadInput, "constraint spec: " + loaded.errors.front().str());
    from_dir = std::move(*loaded.spec);
  }
  const spec::air::Spec& spec = from_dir ? *from_dir : spec::air::embedded_spec();
  Guest g;
  if (int err = load_guest(a.program, a.input, spec::kDefaultMaxInputBytes, g); err != 0) return err;
  spec::ExecOptions opt;
  opt.random_seed = a.seed;
  // Refuse before the work: check holds the whole trace, so a run stops at what this machine
  // holds (or --max-cycles, if lower) instead of running out of memory.
  const bool reference_path = a.reference || !a.spec_dir.empty() || a.segment_cycles;
  const auto cap = [&](double per_cycle) {
    opt.max_cycles = std::min(a.max_cycles, uint64_t{1} << check_capacity_log(per_cycle));
  };
  const auto too_long = [&](const spec::ExecResult& r, double per_cycle) {
    return r.status != spec::ExitStatus::kExited && r.fault.kind == spec::FaultKind::kCycleLimit &&
           opt.max_cycles < a.max_cycles && opt.max_cycles == uint64_t{1} << check_capacity_log(per_cycle);
  };
  const auto refuse = [&](double per_cycle) {
    const Memory m = memory_here();
    char buf[300];
    std::snprintf(buf, sizeof buf, "the run goes on past %llu cycles, and check holds its whole trace (about %.1f KB a cycle): "
                  "%s %.1f GB, room for 2^%u cycles; zkrv prove takes runs of any length",
                  static_cast<unsigned long long>(opt.max_cycles), per_cycle / 1024, m.what.c_str(), m.bytes / 1e9,
                  check_capacity_log(per_cycle));
    return fail(cli::kOutOfMemory, buf);
  };
  cap(reference_path ? kCheckReferenceBytesPerCycle : kCheckBytesPerCycle);
  if (a.segment_cycles) {  // spec: protocol:segments:* — the segment AIR on the run's segments
    const unsigned k = static_cast<unsigned>(std::countr_zero(*a.segment_cycles));
    cli::progress("executing " + a.program + " and cutting it into segments of 2^" + std::to_string(k) + " cycles ...");
    spec::RunPlanner planner(g.image, k);
    std::vector<spec::StepRecord> steps;
    spec::attach(planner, opt, [&](std::span<const spec::StepRecord> c) { steps.insert(steps.end(), c.begin(), c.end()); });
    auto r = opt::execute(g.image, g.input, opt);
    if (too_long(r, kCheckReferenceBytesPerCycle)) return refuse(kCheckReferenceBytesPerCycle);
    if (r.status != spec::ExitStatus::kExited)
      return fail(cli::fault_exit_code(r.fault.kind),
                  "only runs that exit can be checked: " + stopped_line(g, r, a.max_cycles));
    const spec::RunPlan plan = planner.finish(r);
    r.trace = std::move(steps);
    cli::progress(std::to_string(r.cycles) + " cycles in " + std::to_string(plan.count()) +
                  " segments; building and checking them ...");
    const auto report = ref::air::check_segment_traces(ref::air::build_segment_traces(g.image, r, plan));
    const std::string head = std::to_string(plan.count()) + " segments of 2^" + std::to_string(k) + " cycles: ";
    if (!report.ok()) {
      std::cout << "FAIL: " << head << report.summary() << "\n";
      return cli::kFailed;
    }
    std::cout << head << report.summary() << "\n";
    cli::progress("exit code " + std::to_string(static_cast<uint32_t>(r.exit_code)) + ", public output " +
                  std::to_string(r.output.size()) + " byte(s)");
    return 0;
  }
  const bool fast = !a.reference && a.spec_dir.empty();
  std::string summary;
  size_t out = 0;
  uint64_t exit_code = 0;
  if (fast) {  // the fast executor straight into column-major tables, and the generated evaluator
    cli::progress("executing " + a.program + " and building the tables ...");
    const auto built = opt::trace::build_trace(g.image, g.input, opt);
    if (too_long(built.run, kCheckBytesPerCycle)) return refuse(kCheckBytesPerCycle);
    if (built.run.status != spec::ExitStatus::kExited)
      return fail(cli::fault_exit_code(built.run.fault.kind),
                  "only runs that exit can be checked: " + stopped_line(g, built.run, a.max_cycles));
    cli::progress(std::to_string(built.run.cycles) + " cycles; checking the tables (" +
                  std::to_string(built.bytes() >> 20) + " MiB) ...");
    out = built.run.output.size();
    exit_code = static_cast<uint32_t>(built.run.exit_code);
    if (cli::fast_tables_check(built.tables, built.publics, &summary)) {
      std::cout << summary << "\n";
      cli::progress("exit code " + std::to_string(exit_code) + ", public output " + std::to_string(out) + " byte(s)");
      return 0;
    }
    cli::progress("the trace does not hold; building it again for the reference checker's report ...");
  }
  // The reference path: the reference trace builder and the hand-written evaluator, then the
  // spec's expressions interpreted beside it; and the detailed report of a failure the fast
  // check found.
  opt.trace = true;
  if (!fast) cli::progress("executing " + a.program + " ...");
  cap(kCheckReferenceBytesPerCycle);
  auto r = opt::execute(g.image, g.input, opt);
  if (too_long(r, kCheckReferenceBytesPerCycle)) {
    if (!fast) return refuse(kCheckReferenceBytesPerCycle);
    std::cout << "FAIL: a constraint or bus fails (the generated evaluator); the run is too long for the reference "
                 "checker to name it here (room for 2^"
              << check_capacity_log(kCheckReferenceBytesPerCycle) << " cycles)\n";
    return cli::kFailed;
  }
  if (r.status != spec::ExitStatus::kExited)
    return fail(cli::fault_exit_code(r.fault.kind),
                "only runs that exit can be checked: " + stopped_line(g, r, a.max_cycles));
  if (!fast) cli::progress(std::to_string(r.cycles) + " cycles; building and checking the tables ...");
  auto trace = ref::air::build_trace(g.image, r);
  std::vector<spec::StepRecord>().swap(r.trace);  // the tables hold everything from here on
  {  // the statement these tables prove: the exit code and the public output (spec/tables/output.md)
    const auto& output = trace.table("output");
    out = 0;
    for (const auto& row : output.rows) out += row[output.col("is_real")] != 0;
    exit_code = trace.publics.at("exit_code");
  }
  {
    const auto report = ref::air::check_trace(trace);
    if (!report.ok()) {
      std::cout << "FAIL: " << report.summary() << "\n";
      return cli::kFailed;
    }
    if (fast) return fail(cli::kInternal, "internal error: the generated evaluator rejects a trace the reference accepts");
    if (auto d = ref::air::spec_disagreement(spec, trace))
      return fail(cli::kInternal, "internal error: the reference evaluator and the spec disagree: " + *d);
    summary = report.summary();
  }
  std::cout << summary << "\n";
  cli::progress("exit code " + std::to_string(exit_code) + ", public output " + std::to_string(out) + " byte(s)");
  return 0;
}

}  // namespace zkrv::cli
