// zkrv prove, for a run longer than --segment-cycles: the run cut into segments by the run
// planner (spec/run_segments.h), their traces built and checked against the segment AIR, proven
// as one bundle (spec/protocol.md §9, protocol:segments:*), written atomically, and a summary.
//
// The segments' traces come from the reference segment builder (ref::air::build_segment_traces,
// cut from the whole run's trace), so memory still grows with the run's length here; the
// optimized prover then proves every segment held at once. Both are the next steps of issue 39.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>

#include "optimized/exec/fast_executor.h"
#include "optimized/prove/prove.h"
#include "reference/air/segment_trace.h"
#include "reference/prove/prove.h"
#include "reference/verify/verify.h"
#include "spec/air/embedded.h"
#include "spec/bundle.h"
#include "tools/common/files.h"
#include "tools/zkrv/commands.h"
#include "tools/zkrv/exit_codes.h"

namespace zkrv::cli {
namespace {

double peak_rss_mb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

// A segment's trace as the optimized prover takes it: column-major tables and publics in the
// segment AIR's spec order.
opt::prove::Segment columns_of(const ref::air::AirTrace& t) {
  opt::prove::Segment seg;
  const spec::air::Spec& sp = spec::air::embedded_spec(spec::air::Mode::kSegmented);
  for (const auto& st : sp.tables) {
    const ref::air::TraceTable& tt = t.table(st.name);
    opt::air::TableColumns c;
    c.height = tt.height();
    c.columns.assign(st.columns.size(), std::vector<opt::Fp>(c.height));
    for (size_t k = 0; k < st.columns.size(); ++k) {
      const size_t j = tt.col(st.columns[k].name);
      for (size_t r = 0; r < c.height; ++r) c.columns[k][r] = opt::Fp::from_u64(tt.rows[r][j]);
    }
    seg.tables.push_back(std::move(c));
  }
  for (const auto& p : sp.publics) seg.publics.push_back(opt::Fp::from_u64(t.publics.at(p.name)));
  return seg;
}

}  // namespace

int prove_bundle(const ProveArgs& a, const Guest& g, const spec::StarkOptions& options, const spec::ExecOptions& exec,
                 const std::string& out, const std::function<void(std::string_view)>& stage, opt::Backend* backend) {
  const auto t0 = std::chrono::steady_clock::now();
  const unsigned k = static_cast<unsigned>(std::countr_zero(a.segment_cycles));
  // spec: protocol:segments:cut — the plan: boundaries, chunk bounds, each byte's final token
  spec::RunPlanner planner(g.image, k);
  spec::ExecOptions o = exec;
  spec::attach(planner, o);
  const spec::ExecResult run = opt::execute(g.image, g.input, o);
  if (run.status != spec::ExitStatus::kExited)
    return fail(fault_exit_code(run.fault.kind), "only runs that exit can be proven; this one stopped after " +
                                                     std::to_string(run.cycles) + " cycles: " + spec::describe(run.fault));
  if (auto why = spec::check_segmenting(run.cycles, k, exec.max_cycles)) return fail(kUsage, *why);
  const spec::RunPlan plan = planner.finish(run);
  stage("execute");
  progress(std::to_string(run.cycles) + " cycles: " + std::to_string(plan.count()) + " segments of 2^" + std::to_string(k) +
           " cycles");

  std::vector<ref::air::AirTrace> segments;
  {
    spec::ExecOptions traced = exec;
    traced.trace = true;
    const spec::ExecResult full = opt::execute(g.image, g.input, traced);
    segments = ref::air::build_segment_traces(g.image, full, plan);
  }
  stage("trace");
  const auto report = ref::air::check_segment_traces(segments);
  if (!report.ok()) return fail(kFailed, "refused: the run does not satisfy the segment AIR: " + report.summary());
  stage("check");

  // The optimized prover's segments, each one's estimate as a proof of its own, all held at once.
  const bool optimized = a.prover != "reference";
  const auto progress_fn = [&](std::string_view s, double) { stage(s); };
  spec::BundleProof bundle;
  if (optimized) {
    std::vector<opt::prove::Segment> cols;
    for (auto& t : segments) {
      cols.push_back(columns_of(t));
      t = ref::air::AirTrace{};
    }
    bundle = opt::prove::prove_bundle_unchecked(g.image, std::move(cols), plan, options, a.threads, progress_fn, backend);
  } else {
    bundle = ref::prove::prove_bundle_unchecked(g.image, segments, plan, options, progress_fn);
  }
  const auto bytes = spec::encode_bundle(bundle);
  if (auto err = tools::write_file_atomic(out, bytes); !err.empty()) return fail(kIoError, err);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const auto sec = ref::verify::bundle_security(options, bundle.statement);
  const spec::BundleStatement& st = bundle.statement;
  if (a.json) {
    std::printf("{\"proof\":\"%s\",\"cycles\":%llu,\"exit_code\":%u,\"output_bytes\":%zu,\"segments\":%zu,"
                "\"segment_cycles\":%llu,\"proof_bytes\":%zu,\"provable_bits\":%.1f,\"conjectured_bits\":%.1f,"
                "\"security\":\"%s\",\"wall_s\":%.3f,\"cycles_per_s\":%.1f,\"peak_rss_mb\":%.1f,\"prover\":\"%s\"}\n",
                out.c_str(), static_cast<unsigned long long>(run.cycles), st.exit_code, st.output.size(), st.segments(),
                static_cast<unsigned long long>(a.segment_cycles), bytes.size(), sec.provable_bits, sec.conjectured_bits,
                a.security.c_str(), wall, static_cast<double>(run.cycles) / wall, peak_rss_mb(), a.prover.c_str());
  } else {
    std::printf("proved %s: %llu cycles, exit code %u, %zu output bytes\n", a.program.c_str(),
                static_cast<unsigned long long>(run.cycles), st.exit_code, st.output.size());
    std::printf("segments: %zu of 2^%u cycles\n", st.segments(), k);
    std::printf("bundle: %s, %zu bytes; %s security: %.1f provable bits, %.1f conjectured bits\n", out.c_str(),
                bytes.size(), a.security.c_str(), sec.provable_bits, sec.conjectured_bits);
    std::printf("time: %.2f s (%.0f cycles/s); peak memory %.0f MB\n", wall, static_cast<double>(run.cycles) / wall,
                peak_rss_mb());
  }
  return 0;
}

}  // namespace zkrv::cli
