// zkrv prove: the host API's prove (api/prover.cpp: execute, check the trace against the spec,
// prove it as one proof or a bundle of segments, with the reference or the optimized prover),
// the proof written atomically as it is made, and a summary.

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <stdexcept>

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

}  // namespace

CLI::App* add_prove(CLI::App& app, ProveArgs& a) {
  auto* p = app.add_subcommand("prove", "Execute a guest, check its trace against the constraint spec, and prove it");
  add_prove_options(*p, a);
  return p;
}

void add_prove_options(CLI::App& app, ProveArgs& a) {
  CLI::App* const p = &app;
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
  p->add_option("--max-memory", a.max_memory, "the memory the prover may use, in bytes (K, M, G, T: powers of 1024); "
                                              "a run estimated to need more is refused after one execution, before any "
                                              "table is built (default: the lowest of the machine's memory, MemAvailable, "
                                              "the cgroup's limit, ZKRV_MEMORY_BYTES and ulimit -v)")
      ->transform(byte_count());
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
            "needs more memory to prove than --max-memory (or this machine, its cgroup, or ulimit -v) gives, checked\n"
            "after one execution, before any table is built\n"
            "(the table: zkrv --help).\n" + capacity_text());
}

namespace {
int cmd_prove_body(const ProveArgs& a, zkrv::Peers* peers);
}  // namespace

int cmd_prove(const ProveArgs& a, zkrv::Peers* peers) {
  if (a.spans_dir.empty() || (peers && peers->rank() != 0)) return cmd_prove_body(a, peers);  // rank 0's spans alone
  if (::access(a.spans_dir.c_str(), W_OK) != 0) return fail(kIoError, a.spans_dir + ": cannot write there (not a writable folder)");
  core::span::set_enabled(true);
  int rc;
  {
    const core::span::Span root("zkrv prove", core::span::Level::kStage);
    const core::span::RssSampler rss(10);
    rc = cmd_prove_body(a, peers);
  }
  if (int err = write_spans(a.spans_dir); err != 0) return err;
  return rc;
}

namespace {

zkrv::ProveOptions api_options(const ProveArgs& a) {
  zkrv::ProveOptions o;
  o.execute.max_cycles = a.max_cycles;
  o.execute.random_seed = a.seed;
  o.security = a.security == "provable" ? zkrv::ProveOptions::Security::kProvable : zkrv::ProveOptions::Security::kConjectured;
  o.segment_cycles = a.segment_cycles;
  o.prover = a.prover == "reference" ? zkrv::ProveOptions::Prover::kReference : zkrv::ProveOptions::Prover::kOptimized;
  o.threads = a.threads;
  o.max_memory = static_cast<double>(a.max_memory);
  o.lde = a.lde == "hold" ? zkrv::ProveOptions::Lde::kHold : a.lde == "stream" ? zkrv::ProveOptions::Lde::kStream : zkrv::ProveOptions::Lde::kAuto;
  o.backend = a.backend == "gpu" ? zkrv::ProveOptions::Backend::kGpu : a.backend == "dual" ? zkrv::ProveOptions::Backend::kDual
                                                                                          : zkrv::ProveOptions::Backend::kCpu;
  return o;
}

void print_summary(const ProveArgs& a, const std::string& out, const zkrv::ProveReport& r, double wall) {
  FILE* const report = out == "-" ? stderr : stdout;  // -o -: the proof is on stdout
  const zkrv::Statement& st = r.statement;
  const auto cycles = static_cast<unsigned long long>(r.cycles);
  if (st.bundle) {
    if (a.json) {
      std::fprintf(report, "{\"proof\":\"%s\",\"cycles\":%llu,\"exit_code\":%u,\"output_bytes\":%zu,\"segments\":%llu,"
                           "\"segment_cycles\":%llu,\"proof_bytes\":%llu,\"provable_bits\":%.1f,\"conjectured_bits\":%.1f,"
                           "\"security\":\"%s\",\"queries\":%u,\"wall_s\":%.3f,\"cycles_per_s\":%.1f,\"peak_rss_mb\":%.1f,"
                           "\"estimated_mb\":%.1f,\"prover\":\"%s\"}\n",
                   out.c_str(), cycles, st.exit_code, st.output.size(), static_cast<unsigned long long>(st.segments),
                   static_cast<unsigned long long>(a.segment_cycles), static_cast<unsigned long long>(r.proof_bytes),
                   r.provable_bits, r.conjectured_bits, a.security.c_str(), r.queries, wall, static_cast<double>(r.cycles) / wall,
                   peak_rss_mb(), r.estimated_bytes / 1048576, a.prover.c_str());
      return;
    }
    std::fprintf(report, "proved %s: %llu cycles, exit code %u, %zu output bytes\n", a.program.c_str(), cycles, st.exit_code,
                 st.output.size());
    std::fprintf(report, "segments: %llu of 2^%u cycles\n", static_cast<unsigned long long>(st.segments), st.log_segment_cycles);
    std::fprintf(report, "bundle: %s, %llu bytes; %s security: %.1f provable bits, %.1f conjectured bits\n", out.c_str(),
                 static_cast<unsigned long long>(r.proof_bytes), a.security.c_str(), r.provable_bits, r.conjectured_bits);
    if (r.queries != r.preset_queries)
      std::fprintf(report, "queries: %u (the preset's %u raised for the union bound over %llu segments)\n", r.queries,
                   r.preset_queries, static_cast<unsigned long long>(st.segments));
  } else {
    std::ostringstream heights, heights_json;
    for (size_t t = 0; t < r.table_heights.size(); ++t) {
      heights << (t ? " " : "") << r.table_heights[t].first << "=2^" << unsigned{st.log_heights[t]};
      heights_json << (t ? "," : "") << "\"" << r.table_heights[t].first << "\":" << r.table_heights[t].second;
    }
    const bool optimized = a.prover != "reference";
    if (a.json) {
      std::fprintf(report, "{\"proof\":\"%s\",\"cycles\":%llu,\"exit_code\":%u,\"output_bytes\":%zu,\"heights\":{%s},"
                           "\"proof_bytes\":%llu,\"provable_bits\":%.1f,\"conjectured_bits\":%.1f,\"security\":\"%s\","
                           "\"wall_s\":%.3f,\"cycles_per_s\":%.1f,\"peak_rss_mb\":%.1f,\"estimated_mb\":%.1f,\"prover\":\"%s\","
                           "\"lde\":\"%s\"}\n",
                   out.c_str(), cycles, st.exit_code, st.output.size(), heights_json.str().c_str(),
                   static_cast<unsigned long long>(r.proof_bytes), r.provable_bits, r.conjectured_bits, a.security.c_str(), wall,
                   static_cast<double>(r.cycles) / wall, peak_rss_mb(), r.estimated_bytes / 1048576, a.prover.c_str(),
                   !optimized ? "" : r.lde == zkrv::ProveOptions::Lde::kHold ? "hold" : "stream");
      return;
    }
    std::fprintf(report, "proved %s: %llu cycles, exit code %u, %zu output bytes\n", a.program.c_str(), cycles, st.exit_code,
                 st.output.size());
    std::fprintf(report, "tables: %s\n", heights.str().c_str());
    std::fprintf(report, "proof: %s, %llu bytes; %s security: %.1f provable bits, %.1f conjectured bits\n", out.c_str(),
                 static_cast<unsigned long long>(r.proof_bytes), a.security.c_str(), r.provable_bits, r.conjectured_bits);
  }
  std::fprintf(report, "time: %.2f s (%.0f cycles/s); peak memory %.0f MB\n", wall, static_cast<double>(r.cycles) / wall,
               peak_rss_mb());
}

int cmd_prove_body(const ProveArgs& a, zkrv::Peers* peers) {
  const auto t0 = std::chrono::steady_clock::now();
  uint64_t lap_ns = core::span::now_ns();
  zkrv::ProveOptions o = api_options(a);
  o.peers = peers;
  o.progress = [&](const zkrv::Progress& p) {
    if (p.kind == zkrv::Progress::Kind::kNote) return progress(p.text);
    if (p.kind == zkrv::Progress::Kind::kBuffers) {  // --spans: the bytes each live buffer holds, and the rest
      if (!core::span::enabled()) return;
      std::vector<std::pair<std::string, double>> v;
      double sum = 0;
      for (const auto& [name, bytes] : p.live_buffers) v.emplace_back(name, static_cast<double>(bytes)), sum += static_cast<double>(bytes);
      v.emplace_back("unattributed", std::max(0.0, static_cast<double>(core::span::rss_bytes()) - sum));
      return core::span::counter("live buffers (bytes)", std::move(v));
    }
    char line[64];
    std::snprintf(line, sizeof line, "%-9s %8.2f s", p.text.c_str(), p.seconds);
    progress(line);
    if (core::span::enabled()) core::span::counter("rss", {{"bytes", static_cast<double>(core::span::rss_bytes())}});  // at its end too
    const uint64_t ns = core::span::now_ns();
    core::span::complete(p.text, core::span::Level::kStage, lap_ns, ns);  // nothing unless --spans
    lap_ns = ns;
  };
  std::vector<uint8_t> elf, input;
  std::optional<zkrv::Program> program;
  {
    Guest g;
    if (int err = load_guest(a.program, a.input, spec::kDefaultMaxInputBytes, g); err != 0) return err;
    program = zkrv::Program::from_elf(g.elf);
    elf = std::move(g.elf);
    input = std::move(g.input);
  }
  const std::string out = a.out.empty() ? default_proof_path(a.program) : a.out;
  if (peers && peers->rank() != 0) {  // rank 0 writes the proof
    try {
      zkrv::prove_to(*program, input, o, [](std::span<const uint8_t>) {
        throw std::logic_error("a rank other than 0 was handed proof bytes");
      });
    } catch (const zkrv::Error& e) {
      return fail_api(e, elf, a.max_cycles);
    }
    return 0;
  }
  {  // fail before the work, not after it, when the proof cannot be written
    const auto slash = out.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : out.substr(0, slash));
    if (::access(dir.c_str(), W_OK) != 0) return fail(kIoError, out + ": cannot write there (" + dir + " is not a writable folder)");
    if (std::filesystem::is_directory(out)) return fail(kIoError, out + ": cannot write there (it is a folder)");
  }
  // The proof goes to a temporary file beside `out` as it is made, renamed onto it once whole.
  tools::AtomicFile file(out);
  if (!file.error().empty()) return fail(kIoError, file.error());
  struct WriteFailed {};
  zkrv::ProveReport report;
  try {
    report = zkrv::prove_to(*program, input, o, [&](std::span<const uint8_t> bytes) {
      if (!file.write(bytes)) throw WriteFailed{};
    });
  } catch (const WriteFailed&) {
    return fail(kIoError, file.error());
  } catch (const zkrv::Error& e) {
    return fail_api(e, elf, a.max_cycles);
  }
  if (auto err = file.commit(); !err.empty()) return fail(kIoError, err);
  print_summary(a, out, report, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  return 0;
}
}  // namespace

}  // namespace zkrv::cli
