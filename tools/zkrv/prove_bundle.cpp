// zkrv prove, for a run longer than --segment-cycles: the run cut into segments by the run
// planner (spec/run_segments.h), their traces built and checked against the segment AIR, proven
// as one bundle (spec/protocol.md §9, protocol:segments:*), written atomically, and a summary.
//
// The optimized prover takes the segments from the streaming builder (opt::trace::
// build_segment_traces) three times, one segment held at a time, and writes each segment's proof
// to the output's temporary file as it is made: its memory is one segment's plus the run's touched
// bytes, whatever the run's length. The reference prover (small runs) takes
// them from the reference segment builder, cut from the whole run's trace, all at once.

#include <sys/resource.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <string>

#include "core/air/layout.h"
#include "optimized/exec/fast_executor.h"
#include "optimized/prove/prove.h"
#include "optimized/trace/segments.h"
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
    return fail(fault_exit_code(run.fault.kind), "only runs that exit can be proven: " + stopped_line(g, run, exec.max_cycles));
  if (auto why = spec::check_segmenting(run.cycles, k, exec.max_cycles)) return fail(kUsage, *why);
  const spec::RunPlan plan = planner.finish(run);
  stage("execute");
  progress(std::to_string(run.cycles) + " cycles: " + std::to_string(plan.count()) + " segments of 2^" + std::to_string(k) +
           " cycles");

  // spec: protocol:segments:queries — the bundle must meet the floor the verifier's policy of the
  // same name applies: the union bound over the segments may need more queries than one proof.
  const spec::SecurityPolicy floor = spec::SecurityPolicy::preset(a.security);
  const bool optimized = a.prover != "reference";
  {  // refuse before the work: one segment's proof at its largest, and the run's touched bytes.
     // 8 KB per cycle of a segment: sha256_chain's 2^20-cycle segments peaked at 6.7 GB (6.4 KB per
     // cycle; an ALU-heavy run fills the alu and mul tables), quicksort's 2^16 at 458 MB.
    const double need = kSegmentBytesPerCycle * static_cast<double>(uint64_t{1} << k) +
                        6.0 * static_cast<double>(plan.memory->count()) + kSegmentBaseBytes;
    const double have = memory_here().bytes;
    char buf[160];
    if (optimized && need > have) {
      std::snprintf(buf, sizeof buf, "a segment of 2^%u cycles needs about %.1f GB to prove; there is %.1f GB (try a "
                    "smaller --segment-cycles)", k, need / 1e9, have / 1e9);
      return fail(kOutOfMemory, buf);
    }
    if (optimized) {
      std::snprintf(buf, sizeof buf, "proving needs about %.1f GB (one segment at a time, built three times)", need / 1e9);
      progress(buf);
    }
  }
  // The bundle goes to a temporary file beside `out`, renamed onto it once whole.
  tools::AtomicFile file(out);
  if (!file.error().empty()) return fail(kIoError, file.error());
  // The stages; after each segment's proof, the time left at the pace of the segments so far.
  std::chrono::steady_clock::time_point proving_since{};
  const auto progress_fn = [&](std::string_view s, double) {
    stage(s);
    const auto now = std::chrono::steady_clock::now();
    unsigned done = 0, all = 0;
    if (s.rfind("logup ", 0) == 0 || s == "logup") proving_since = now;
    if (s.rfind("prove ", 0) == 0 && std::sscanf(std::string(s).c_str(), "prove %u/%u", &done, &all) == 2 && done < all &&
        done > 0) {
      const double spent = std::chrono::duration<double>(now - proving_since).count();
      char line[96];
      std::snprintf(line, sizeof line, "about %.0f s left (%u of %u segments proven)", spent / done * (all - done), done, all);
      progress(line);
    }
  };
  spec::BundleProof bundle;  // the optimized prover's has no segments: they went to the file
  if (optimized) {
    // Each pass builds every segment anew. The first also checks each one (the generated
    // evaluator: every constraint, every local bus) and, at its end, the global bus gmem over the
    // bundle, before anything but the main roots is computed; a failure is thrown as Refused.
    struct Refused {
      std::string why;
    };
    const auto& seg_spec = spec::air::embedded_spec(spec::air::Mode::kSegmented);
    int passes = 0;
    opt::Fp3 global{};
    const opt::prove::SegmentSource source = [&](const std::function<void(size_t, opt::prove::Segment&&)>& take) {
      const bool first = passes++ == 0;
      opt::trace::build_segment_traces(g.image, g.input, exec, plan, run, a.threads, [&](size_t s, opt::trace::SegmentTrace&& t) {
        if (first) {
          const auto c = opt::air::fast_check(t.tables, t.publics, 20261205, a.threads, spec::air::Mode::kSegmented);
          if (c.failed_table != SIZE_MAX) {
            const auto& tab = seg_spec.tables[c.failed_table];
            throw Refused{"segment " + std::to_string(s) + ": constraint " + tab.constraints[c.failed_constraint].id +
                          " fails in table " + tab.name + " at row " + std::to_string(c.failed_row)};
          }
          if (!c.unbalanced_buses.empty())
            throw Refused{"segment " + std::to_string(s) + ": bus " + seg_spec.buses[c.unbalanced_buses[0]].name +
                          " does not balance"};
          global = global + c.global_sum;
        }
        take(s, opt::prove::Segment{std::move(t.tables), std::move(t.publics)});
      });
      if (first && !(global == opt::Fp3{})) throw Refused{"the global memory bus gmem does not balance over the segments"};
      if (first) stage("check");
    };
    struct WriteFailed {};
    const opt::prove::BundleSink sink{
        [&](const spec::BundleProof& head) {
          if (!file.write(spec::encode_bundle_head(head))) throw WriteFailed{};
        },
        [&](size_t, spec::SegmentProof&& sp) {
          if (!file.write(spec::encode_segment_body(sp))) throw WriteFailed{};
        }};
    try {
      bundle = opt::prove::prove_bundle_streamed(g.image, plan, static_cast<uint32_t>(run.exit_code), run.output, source,
                                                 options, a.threads, progress_fn, backend, nullptr, floor, &sink);
    } catch (const Refused& r) {
      return fail(kFailed, "refused: the run does not satisfy the segment AIR: " + r.why);
    } catch (const WriteFailed&) {
      return fail(kIoError, file.error());
    }
  } else {
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
    // spec: protocol:segments:queries — as the optimized prover settles them after its pass 1
    std::vector<std::vector<uint8_t>> heights;
    for (const auto& seg : segments) {
      auto& h = heights.emplace_back();
      for (const auto& t : core::air_layout(spec::air::Mode::kSegmented).tables)
        h.push_back(static_cast<uint8_t>(std::countr_zero(seg.table(t.name).height())));
    }
    bundle = ref::prove::prove_bundle_unchecked(g.image, segments, plan, core::bundle_options(options, heights, floor),
                                                progress_fn);
    file.write(spec::encode_bundle(bundle));
  }
  if (auto err = file.commit(); !err.empty()) return fail(kIoError, err);
  FILE* const report = out == "-" ? stderr : stdout;  // -o -: the bundle is on stdout
  const uint64_t bytes = file.size();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const auto sec = core::bundle_security(bundle.options, bundle.statement.log_heights);
  const spec::BundleStatement& st = bundle.statement;
  if (a.json) {
    std::fprintf(report, "{\"proof\":\"%s\",\"cycles\":%llu,\"exit_code\":%u,\"output_bytes\":%zu,\"segments\":%zu,"
                         "\"segment_cycles\":%llu,\"proof_bytes\":%zu,\"provable_bits\":%.1f,\"conjectured_bits\":%.1f,"
                         "\"security\":\"%s\",\"queries\":%u,\"wall_s\":%.3f,\"cycles_per_s\":%.1f,\"peak_rss_mb\":%.1f,"
                         "\"prover\":\"%s\"}\n",
                         out.c_str(), static_cast<unsigned long long>(run.cycles), st.exit_code, st.output.size(), st.segments(),
                         static_cast<unsigned long long>(a.segment_cycles), static_cast<size_t>(bytes), sec.provable_bits, sec.conjectured_bits,
                         a.security.c_str(), bundle.options.num_queries, wall, static_cast<double>(run.cycles) / wall, peak_rss_mb(),
                         a.prover.c_str());
  } else {
    std::fprintf(report, "proved %s: %llu cycles, exit code %u, %zu output bytes\n", a.program.c_str(),
                         static_cast<unsigned long long>(run.cycles), st.exit_code, st.output.size());
    std::fprintf(report, "segments: %zu of 2^%u cycles\n", st.segments(), k);
    std::fprintf(report, "bundle: %s, %zu bytes; %s security: %.1f provable bits, %.1f conjectured bits\n", out.c_str(),
                         static_cast<size_t>(bytes), a.security.c_str(), sec.provable_bits, sec.conjectured_bits);
    if (bundle.options.num_queries != options.num_queries)
      std::fprintf(report, "queries: %u (the preset's %u raised for the union bound over %zu segments)\n", bundle.options.num_queries,
                           options.num_queries, st.segments());
    std::fprintf(report, "time: %.2f s (%.0f cycles/s); peak memory %.0f MB\n", wall, static_cast<double>(run.cycles) / wall,
                         peak_rss_mb());
  }
  return 0;
}

}  // namespace zkrv::cli
