// zkrv prove: execute a guest, check its trace against the spec, prove it with the reference
// or the optimized prover, write the proof atomically, and print a summary.

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "optimized/exec/fast_executor.h"
#include "optimized/trace/trace.h"
#include "reference/air/check.h"
#include "optimized/prove/prove.h"
#include "reference/prove/prove.h"
#include "reference/stark/air.h"
#include "tools/common/files.h"
#include "core/span/span.h"
#include "tools/zkrv/commands.h"
#include "tools/zkrv/exit_codes.h"

namespace zkrv::cli {

int write_spans(const std::string& dir) {
  const std::string trace = core::span::chrome_trace_json(), summary = core::span::summary_json();
  for (const auto& [name, text] : {std::pair{std::string("trace.json"), trace}, std::pair{std::string("summary.json"), summary}}) {
    const std::vector<uint8_t> bytes(text.begin(), text.end());
    if (auto err = tools::write_file_atomic(dir + "/" + name, bytes); !err.empty()) return fail(kIoError, err);
  }
  std::cerr << "zkrv: wrote " << dir << "/trace.json and " << dir << "/summary.json\n";
  return 0;
}

namespace {

double peak_rss_mb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}
std::string default_proof_path(const std::string& program) {
  std::string base = program.substr(program.find_last_of('/') + 1);
  if (base.size() > 4 && base.compare(base.size() - 4, 4, ".elf") == 0) base.resize(base.size() - 4);
  return base + ".proof";
}

// The reference prover keeps, per table row, every column on the trace domain and on the LDE
// coset (b + 1 copies of 8 bytes: main, auxiliary and quotient columns) and three Merkle trees
// of 32-byte digests; 5/4 for transients. Checked against quicksort (9.3 GB measured, 2^19 rows).
double estimated_prove_bytes(const std::vector<size_t>& heights, unsigned log_blowup) {
  const auto& layout = ref::stark::air_layout();
  const double b = std::ldexp(1.0, static_cast<int>(log_blowup));
  double bytes = 0;
  for (size_t t = 0; t < layout.tables.size(); ++t) {
    const auto& tl = layout.tables[t];
    const double h = static_cast<double>(heights.at(t));
    bytes += h * (8.0 * static_cast<double>(tl.columns + tl.aux_width() + tl.quotient_width()) * (b + 1) + 3 * 32.0 * b);
  }
  return bytes * 1.25;
}

// The optimized prover with --lde stream holds no LDE (optimized/prove): each table's main and auxiliary columns
// as coefficients, the main trace until LogUp, and, while a table's quotient or DEEP sum is
// computed, one coset part of its columns, its quotient values on the LDE domain (3 values of
// 8 bytes per LDE row; the estimate still counts the 13 the prover held before the backend seam),
// the quotient chunks (counted at LDE size: they are held as coefficients now), and three Merkle trees
// of the tallest LDE (32 bytes per row each). 5/4 for transients; checked against quicksort
// (3.3 GB measured at 2^19 cpu rows; the estimate says 4.2 GB).
double estimated_optimized_prove_bytes(const std::vector<size_t>& heights, unsigned log_blowup) {
  const auto& layout = ref::stark::air_layout();
  const double b = std::ldexp(1.0, static_cast<int>(log_blowup));
  double coeffs = 0, trace = 0, part = 0, q = 0, n_max = 0;
  for (size_t t = 0; t < layout.tables.size(); ++t) {
    const auto& tl = layout.tables[t];
    const double h = static_cast<double>(heights.at(t)), cols = static_cast<double>(tl.columns),
                 aux = static_cast<double>(tl.aux_width());
    coeffs += 8 * h * (cols + aux);
    trace += 8 * h * cols;
    part = std::max(part, 8 * h * (cols + aux) + 13 * 8 * h * b);
    q += 8 * h * b * static_cast<double>(tl.quotient_width());
    n_max = std::max(n_max, h * b);
  }
  return 1.25 * std::max(coeffs + trace, coeffs + part + q + 3 * 32 * n_max);
}

}  // namespace

CLI::App* add_prove(CLI::App& app, ProveArgs& a) {
  auto* p = app.add_subcommand("prove", "Execute a guest, check its trace against the constraint spec, and prove it");
  p->add_option("PROGRAM", a.program, "guest ELF (RV64IM, static, ET_EXEC)")->required();
  p->add_option("--input", a.input, "private input: a file, - for stdin, a pipe, a FIFO or a device (read to its end)");
  p->add_option("-o,--output,--out", a.out, "proof file (default: PROGRAM's name with .proof, in the current folder; - is stdout, "
                                          "the summary then on stderr)");
  p->add_option("--security", a.security, "provable: at least 100 provable bits; conjectured: at least 100 bits under "
                                          "the ethSTARK conjecture, a smaller proof")
      ->capture_default_str()->check(CLI::IsMember({"provable", "conjectured"}));
  p->add_option("--max-cycles", a.max_cycles, "refuse runs longer than N cycles")->capture_default_str()
      ->check(uint_range(1, kMaxU64));
  p->add_option("--random-seed", a.seed, "seed of zkvm_random_u64")->capture_default_str()->check(uint_range(0, kMaxU64));
  p->add_option("--prover", a.prover, "optimized (threaded, the generated evaluator) or reference (plain, "
                                      "single-threaded): the same proof bytes")
      ->capture_default_str()->check(CLI::IsMember({"optimized", "reference"}));
  p->add_option("--lde", a.lde, "optimized prover: hold the LDE, or compute it a part at a time in each pass that "
                              "needs it (stream: about 2.5x less memory, as fast from 2^18 rows up); auto holds it "
                              "when no table is taller than 2^17 rows and it needs at most half the memory")
      ->capture_default_str()->check(CLI::IsMember({"auto", "hold", "stream"}));
  p->add_option("--threads", a.threads, "optimized prover: threads (0: every core)")->capture_default_str()
      ->check(uint_range(0, 1024));
  p->add_option("--backend", a.backend, "optimized prover: where its steps run. cpu; gpu: the CUDA backend (needs a "
                                        "CUDA build and a device; the steps it lacks run on the host); dual: the CPU "
                                        "and the CUDA backend in lockstep, every step's output compared (slow: for "
                                        "checking a backend). The proof is the same")
      ->capture_default_str()->check(CLI::IsMember({"cpu", "gpu", "dual"}));
  p->add_option("--segment-cycles", a.segment_cycles,
                "a run longer than N cycles (a power of two, 1024 to 2097152) is proven as a bundle of segments of N "
                "cycles (spec/protocol.md §9); a shorter one as one proof")
      ->capture_default_str()->check(segment_cycles());
  p->add_flag("--json", a.json, "print the summary as JSON on stdout");
  p->add_option("--spans", a.spans_dir, "write DIR/trace.json (Perfetto: a span per stage and per table, an RSS "
                                        "counter, the bytes of the live buffers at each stage's end) and "
                                        "DIR/summary.json (time and peak RSS per stage, dark time)");
  p->add_flag("-q,--quiet", a.quiet, "no stage lines on stderr");
  p->footer("Prints one line per stage on stderr (execute, trace, check, commit, logup, quotient, ood, deep, fri,\n"
            "queries) and a summary: cycles, each table's height, proof bytes, provable and conjectured bits, wall\n"
            "time, peak memory. A run longer than --segment-cycles is a bundle, proven one segment at a time in\n"
            "three passes: the stage lines are then commit i/N, logup i/N and prove i/N, each prove line followed\n"
            "by the estimated time left, and the summary gives the number of segments instead of the heights.\n"
            "The proof is written atomically: nothing is left behind on failure. Exit code: 0\n"
            "proved, 1 the run does not satisfy the constraint spec (first failing spec ID), 101-107 the guest\n"
            "faulted or hit the cycle limit, 64-66 usage and file errors, 70 internal error, 71 out of memory or the run\n"
            "needs more memory to prove than this machine (or ulimit -v) gives, checked before proving\n"
            "(the table: zkrv --help).\n" + capacity_text());
  return p;
}

namespace {
int cmd_prove_body(const ProveArgs& a);
}  // namespace

int cmd_prove(const ProveArgs& a) {
  if (a.spans_dir.empty()) return cmd_prove_body(a);
  if (::access(a.spans_dir.c_str(), W_OK) != 0) return fail(kIoError, a.spans_dir + ": cannot write there (not a writable folder)");
  core::span::set_enabled(true);
  int rc;
  {
    const core::span::Span root("zkrv prove", core::span::Level::kStage);
    const core::span::RssSampler rss(10);
    rc = cmd_prove_body(a);
  }
  if (int err = write_spans(a.spans_dir); err != 0) return err;
  return rc;
}

namespace {
int cmd_prove_body(const ProveArgs& a) {
  std::unique_ptr<opt::Backend> backend;
  if (a.backend != "cpu") {
    if (a.prover != "optimized") return fail(kUsage, "--backend " + a.backend + " is for the optimized prover");
    std::string why;
    auto gpu = opt::make_cuda_backend(&why);
    if (!gpu) return fail(kUsage, "--backend " + a.backend + ": " + why);
    backend = a.backend == "gpu" ? std::move(gpu) : opt::make_dual_backend(opt::make_cpu_backend(a.threads), std::move(gpu));
  }
  const auto t0 = std::chrono::steady_clock::now();
  auto lap = t0;
  uint64_t lap_ns = core::span::now_ns();
  auto stage = [&](std::string_view name) {
    const auto now = std::chrono::steady_clock::now();
    char line[64];
    std::snprintf(line, sizeof line, "%-9s %8.2f s", std::string(name).c_str(), std::chrono::duration<double>(now - lap).count());
    progress(line);
    lap = now;
    if (core::span::enabled()) core::span::counter("rss", {{"bytes", static_cast<double>(core::span::rss_bytes())}});  // at its end too
    const uint64_t ns = core::span::now_ns();
    core::span::complete(std::string(name), core::span::Level::kStage, lap_ns, ns);  // nothing unless --spans
    lap_ns = ns;
  };
  // --spans: the bytes each live buffer of the prover holds at each stage's end, and the rest
  const auto buffers = [&](std::string_view, const std::vector<std::pair<std::string, size_t>>& live) {
    if (!core::span::enabled()) return;
    std::vector<std::pair<std::string, double>> v;
    double sum = 0;
    for (const auto& [name, bytes] : live) v.emplace_back(name, static_cast<double>(bytes)), sum += static_cast<double>(bytes);
    v.emplace_back("unattributed", std::max(0.0, static_cast<double>(core::span::rss_bytes()) - sum));
    core::span::counter("live buffers (bytes)", std::move(v));
  };
  Guest g;
  if (int err = load_guest(a.program, a.input, spec::kDefaultMaxInputBytes, g); err != 0) return err;
  const std::string out = a.out.empty() ? default_proof_path(a.program) : a.out;
  {  // fail before the work, not after it, when the proof cannot be written
    const auto slash = out.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : out.substr(0, slash));
    if (::access(dir.c_str(), W_OK) != 0) return fail(kIoError, out + ": cannot write there (" + dir + " is not a writable folder)");
    if (std::filesystem::is_directory(out)) return fail(kIoError, out + ": cannot write there (it is a folder)");
  }
  const spec::StarkOptions options = spec::stark_preset(a.security);
  spec::ExecOptions opt;
  opt.max_cycles = a.max_cycles;
  opt.random_seed = a.seed;
  {  // spec: protocol:segments:single — one proof up to --segment-cycles, a bundle beyond
    const spec::ExecResult first = opt::execute(g.image, g.input, opt);
    if (first.status == spec::ExitStatus::kExited && first.cycles > a.segment_cycles)
      return prove_bundle(a, g, options, opt, out, stage, backend.get());
  }
  const bool optimized = a.prover != "reference";
  // The optimized prover's tables come from the fast trace builder (optimized/trace), the
  // reference prover's from the reference builder; they are equal (tests/trace).
  opt::trace::BuiltTrace built;
  ref::air::AirTrace trace;
  uint64_t cycles = 0;
  std::vector<size_t> table_heights;
  auto refuse = [&](const spec::ExecResult& run) {
    return fail(fault_exit_code(run.fault.kind), "only runs that exit can be proven: " + stopped_line(g, run, a.max_cycles));
  };
  // The reference checker's report of a trace that does not hold (the run is replayed).
  auto explain = [&]() {
    spec::ExecOptions traced = opt;
    traced.trace = true;
    const auto run = opt::execute(g.image, g.input, traced);
    const auto report = ref::air::check_trace(ref::air::build_trace(g.image, run));
    if (report.ok()) return fail(kInternal, "internal error: the generated evaluator rejects a trace the reference accepts");
    return fail(kFailed, "refused: the run does not satisfy the constraint spec: " + report.summary());
  };
  if (optimized) {
    built = opt::trace::build_trace(g.image, g.input, opt, a.threads, [&](std::string_view s, double) { stage(s); });
    if (built.run.status != spec::ExitStatus::kExited) return refuse(built.run);
    cycles = built.run.cycles;
    for (const auto& t : built.tables) table_heights.push_back(t.height);
    if (!fast_tables_check(built.tables, built.publics, nullptr)) return explain();
  } else {
    opt.trace = true;
    auto run = opt::execute(g.image, g.input, opt);
    if (run.status != spec::ExitStatus::kExited) return refuse(run);
    stage("execute");
    cycles = run.cycles;
    trace = ref::air::build_trace(g.image, run);
    std::vector<spec::StepRecord>().swap(run.trace);  // the tables hold everything from here on
    stage("trace");
    for (const auto& tl : ref::stark::air_layout().tables) table_heights.push_back(trace.table(tl.name).height());
    if (!fast_trace_check(trace, false, nullptr)) return explain();
  }
  stage("check");
  bool hold = false;
  {
    // The optimized prover holds the LDE when that needs at most half of what there is (--lde auto)
    const double full = estimated_prove_bytes(table_heights, options.log_blowup),
                 lean = estimated_optimized_prove_bytes(table_heights, options.log_blowup);
    const auto [have, what] = memory_here();
    // Holding pays only for short runs: since the DEEP codeword and the openings stopped reading
    // the LDE, streaming was as fast from 2^18 rows up (sha256 at 2^19: 34.8 s streamed, 35.1 s
    // held, 2.5x the memory), while at 2^16 holding was 15% faster.
    const size_t tallest = table_heights.empty() ? 0 : *std::max_element(table_heights.begin(), table_heights.end());
    if (optimized) hold = a.lde == "hold" || (a.lde == "auto" && tallest <= (size_t{1} << 17) && full <= have / 2);
    const double need = !optimized || hold ? full : lean;
    char buf[200];
    if (need > have) {
      std::snprintf(buf, sizeof buf, "this run needs about %.1f GB to prove; %s %.1f GB",
                    need / 1e9, what.c_str(), have / 1e9);
      return fail(kOutOfMemory, buf);
    }
    std::snprintf(buf, sizeof buf, "proving needs about %.1f GB%s", need / 1e9,
                  !optimized ? "" : hold ? " (the LDE held)" : " (the LDE computed a part at a time in each pass)");
    progress(buf);
  }
  const auto progress = [&](std::string_view s, double) { stage(s); };
  const auto proof = optimized ? opt::prove::prove_unchecked(g.image, std::move(built.tables), built.publics, options,
                                                             a.threads, progress, buffers,
                                                             hold ? opt::prove::Lde::kHold : opt::prove::Lde::kStream,
                                                             backend.get())
                               : ref::prove::prove_unchecked_consuming(g.image, std::move(trace), options, progress);
  const auto bytes = spec::encode_stark_proof(proof);
  if (auto err = tools::write_file_atomic(out, bytes); !err.empty()) return fail(kIoError, err);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  FILE* const report = out == "-" ? stderr : stdout;  // -o -: the proof is on stdout
  const auto& layout = ref::stark::air_layout();
  const auto sec = spec::stark_security(options, layout.security_shape(proof.statement.log_heights));
  std::ostringstream heights, heights_json;
  for (size_t t = 0; t < layout.tables.size(); ++t) {
    heights << (t ? " " : "") << layout.tables[t].name << "=2^" << unsigned{proof.statement.log_heights[t]};
    heights_json << (t ? "," : "") << "\"" << layout.tables[t].name << "\":" << (uint64_t{1} << proof.statement.log_heights[t]);
  }
  if (a.json) {
    std::fprintf(report, "{\"proof\":\"%s\",\"cycles\":%llu,\"exit_code\":%u,\"output_bytes\":%zu,\"heights\":{%s},"
                         "\"proof_bytes\":%zu,\"provable_bits\":%.1f,\"conjectured_bits\":%.1f,\"security\":\"%s\","
                         "\"wall_s\":%.3f,\"cycles_per_s\":%.1f,\"peak_rss_mb\":%.1f,\"prover\":\"%s\",\"lde\":\"%s\"}\n",
                         out.c_str(), static_cast<unsigned long long>(cycles), proof.statement.exit_code,
                         proof.statement.output.size(), heights_json.str().c_str(), bytes.size(), sec.provable_bits,
                         sec.conjectured_bits, a.security.c_str(), wall, static_cast<double>(cycles) / wall, peak_rss_mb(),
                         a.prover.c_str(), !optimized ? "" : hold ? "hold" : "stream");
  } else {
    std::fprintf(report, "proved %s: %llu cycles, exit code %u, %zu output bytes\n", a.program.c_str(),
                         static_cast<unsigned long long>(cycles), proof.statement.exit_code, proof.statement.output.size());
    std::fprintf(report, "tables: %s\n", heights.str().c_str());
    std::fprintf(report, "proof: %s, %zu bytes; %s security: %.1f provable bits, %.1f conjectured bits\n", out.c_str(),
                         bytes.size(), a.security.c_str(), sec.provable_bits, sec.conjectured_bits);
    std::fprintf(report, "time: %.2f s (%.0f cycles/s); peak memory %.0f MB\n", wall, static_cast<double>(cycles) / wall,
                         peak_rss_mb());
  }
  return 0;
}
}  // namespace

}  // namespace zkrv::cli
