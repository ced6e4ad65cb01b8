// zkrv run: execute a guest ELF (no proof) with the fast or the reference executor; the public
// output goes to stdout or a file, the guest's debug log to stderr, --stats and --json describe
// the run.
#include <bit>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>
#include <random>

#include "optimized/exec/fast_executor.h"
#include "reference/exec/executor.h"
#include "spec/run_segments.h"
#include "tools/common/files.h"
#include "core/span/span.h"
#include "tools/zkrv/commands.h"
#include "tools/zkrv/exit_codes.h"

namespace zkrv::cli {

namespace {

void print_stats(std::ostream& os, const zkrv::spec::ExecResult& r, double seconds) {
  using namespace zkrv::spec;
  os << "cycles:              " << r.cycles << "\n";
  for (size_t c = 0; c < static_cast<size_t>(InsnClass::kCount); ++c)
    os << "  " << class_name(static_cast<InsnClass>(c)) << std::string(19 - class_name(static_cast<InsnClass>(c)).size(), ' ')
       << r.stats.per_class[c] << "\n";
  os << "misaligned accesses: " << r.stats.misaligned_accesses << "\n";
  os << "pages touched:       " << r.stats.pages_touched << "\n";
  os << "input bytes read:    " << r.stats.input_bytes_read << "\n";
  os << "output bytes:        " << r.stats.output_bytes << "\n";
  os << "cost C (model v" << kCostModelVersion << "):  " << cost_estimate(r.stats, r.cycles) << "\n";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f s (%.1f MIPS)", seconds, seconds > 0 ? r.cycles / seconds / 1e6 : 0.0);
  os << "host time:           " << buf << "\n";
}

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// spec: protocol:segments:cut — how `zkrv prove` would cut the run: one line per segment.
void print_plan(std::ostream& os, const spec::RunPlan& p) {
  os << "segments:            " << p.count() << " of 2^" << p.log_cycles << " cycles (the last has "
     << p.segments.back().cycles << ")\n";
  os << "bytes touched:       " << p.memory->count() << " in " << p.memory->pages() << " pages\n";
  os << "  segment  first cycle   cycles   touched    chunk  syscalls  io bytes  start pc\n";
  for (size_t s = 0; s < p.count(); ++s) {
    const auto& g = p.segments[s];
    char buf[160];
    std::snprintf(buf, sizeof buf, "  %7zu %12llu %8llu %9llu %8llu %9llu %9llu  %s\n", s,
                  static_cast<unsigned long long>(g.first_cycle), static_cast<unsigned long long>(g.cycles),
                  static_cast<unsigned long long>(g.touched), static_cast<unsigned long long>(g.chunk),
                  static_cast<unsigned long long>(g.syscalls), static_cast<unsigned long long>(g.io_bytes),
                  hex(p.boundaries[s].pc).c_str());
    os << buf;
  }
}

void print_plan_json(std::ostream& os, const spec::RunPlan& p) {
  os << ",\"segments\":{\"log_cycles\":" << p.log_cycles << ",\"count\":" << p.count()
     << ",\"bytes_touched\":" << p.memory->count() << ",\"chunks\":[";
  for (size_t i = 0; i < p.chunks.size(); ++i) os << (i ? "," : "") << p.chunks[i];
  os << "],\"boundaries\":[";
  for (size_t i = 0; i < p.boundaries.size(); ++i) {
    const auto& b = p.boundaries[i];
    os << (i ? "," : "") << "{\"pc\":" << b.pc << ",\"ipos\":" << b.ipos << ",\"eof\":" << (b.eof ? "true" : "false")
       << ",\"opos\":" << b.opos << ",\"regs\":[";
    for (size_t r = 0; r < 32; ++r) os << (r ? "," : "") << b.regs[r];
    os << "]}";
  }
  os << "],\"per_segment\":[";
  for (size_t s = 0; s < p.count(); ++s) {
    const auto& g = p.segments[s];
    os << (s ? "," : "") << "{\"first_cycle\":" << g.first_cycle << ",\"cycles\":" << g.cycles
       << ",\"touched\":" << g.touched << ",\"chunk\":" << g.chunk << ",\"syscalls\":" << g.syscalls
       << ",\"io_bytes\":" << g.io_bytes << "}";
  }
  os << "]}";
}

int cmd_run_spanned(const RunArgs& a) {
  using namespace zkrv;
  std::optional<core::span::Span> load_span(std::in_place, "load", core::span::Level::kStage);
  Guest g;
  if (a.json && a.output == "-") return fail(cli::kUsage, "--output - and --json would both write stdout: give --output a file");
  if (int err = load_guest(a.program, a.input, a.max_input, g); err != 0) return err;
  const std::vector<uint8_t>& input = g.input;
  load_span.reset();
  spec::ExecOptions opt;
  opt.max_cycles = a.max_cycles;
  opt.collect_stats = a.stats || a.json;
  opt.random_seed = a.seed ? *a.seed : std::random_device{}() * uint64_t{0x100000001} ^ std::random_device{}();
  const auto t0 = std::chrono::steady_clock::now();
  std::optional<core::span::Span> exec_span(std::in_place, "execute", core::span::Level::kStage);
  std::optional<spec::RunPlanner> planner;
  if (a.segment_cycles) {
    planner.emplace(g.image, static_cast<unsigned>(std::countr_zero(*a.segment_cycles)));
    spec::attach(*planner, opt);
  }
  spec::ExecResult r = a.executor == "reference" ? ref::execute(g.image, input, opt) : opt::execute(g.image, input, opt);
  exec_span.reset();
  std::optional<spec::RunPlan> plan;
  if (planner && r.status == spec::ExitStatus::kExited) plan = planner->finish(r);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  core::span::Span output_span("output", core::span::Level::kStage);

  if (!a.output.empty()) {
    if (auto err = tools::write_file_atomic(a.output, r.output); !err.empty()) return fail(cli::kIoError, err);
  } else if (!a.json) {
    if (!r.output.empty()) std::fwrite(r.output.data(), 1, r.output.size(), stdout);
    std::fflush(stdout);
  }
  if (!r.log.empty()) std::fwrite(r.log.data(), 1, r.log.size(), stderr);

  const bool exited = r.status == spec::ExitStatus::kExited;
  if (a.json) {
    std::cout << "{\"status\":\"" << (exited ? "exited" : "faulted") << "\",\"exit_code\":" << r.exit_code
              << ",\"cycles\":" << r.cycles << ",\"pc\":" << r.pc;
    if (!exited)
      std::cout << ",\"fault\":{\"kind\":\"" << spec::fault_name(r.fault.kind) << "\",\"pc\":" << r.fault.pc
                << ",\"insn\":" << r.fault.insn << ",\"address\":" << r.fault.address << ",\"message\":\""
                << json_escape(spec::describe(r.fault)) << "\"}";
    std::cout << ",\"output_hex\":\"" << hex_bytes(r.output) << "\",\"stats\":{";
    for (size_t c = 0; c < static_cast<size_t>(spec::InsnClass::kCount); ++c)
      std::cout << "\"" << spec::class_name(static_cast<spec::InsnClass>(c)) << "\":" << r.stats.per_class[c] << ",";
    std::cout << "\"misaligned_accesses\":" << r.stats.misaligned_accesses << ",\"pages_touched\":" << r.stats.pages_touched
              << ",\"input_bytes_read\":" << r.stats.input_bytes_read << ",\"output_bytes\":" << r.stats.output_bytes
              << "},\"cost\":{\"model_version\":" << spec::kCostModelVersion
              << ",\"value\":" << spec::cost_estimate(r.stats, r.cycles) << "}";
    if (plan) print_plan_json(std::cout, *plan);
    std::cout << "}\n";
  }
  if (a.stats) print_stats(std::cerr, r, secs);
  if (plan && !a.json) print_plan(std::cerr, *plan);
  if (!exited)
    return fail(cli::fault_exit_code(r.fault.kind), stopped_line(g, r, a.max_cycles));
  if (a.stats && !a.json) std::cerr << "exit code:           " << r.exit_code << "\n";
  return r.exit_code & 0xff;
}

}  // namespace

CLI::App* add_run(CLI::App& app, RunArgs& a) {
  auto* run = app.add_subcommand("run", "Execute a guest ELF (no proof): public output to stdout, debug log to stderr");
  run->add_option("PROGRAM", a.program, "guest ELF (RV64IM, static, ET_EXEC)")->required();
  run->add_option("--input", a.input, "private input: a file, - for stdin, a pipe, a FIFO or a device (read to its end)");
  run->add_option("-o,--output", a.output, "write the public output to FILE instead of stdout (atomically; - is stdout)");
  run->add_option("--max-cycles", a.max_cycles, "stop with a cycle-limit fault after N cycles")
      ->capture_default_str()->check(uint_range(1, kMaxU64));
  run->add_option("--max-input-bytes", a.max_input, "refuse a larger input (a stream: once it has read more)")->capture_default_str()
      ->check(uint_range(0, kMaxElfBytes));
  run->add_option("--random-seed", a.seed, "seed of zkvm_random_u64 (default: drawn from the OS CSPRNG); replays a run")
      ->check(uint_range(0, kMaxU64));
  run->add_option("--executor", a.executor, "fast or reference")->capture_default_str()
      ->check(CLI::IsMember({"fast", "reference"}));
  run->add_option("--segment-cycles", a.segment_cycles,
                  "also print how a proof would cut the run into segments of N cycles (a power of two, "
                  "1024 to 2097152): each segment's first cycle, length, bytes touched, memory chunk, "
                  "syscalls and start pc (to stderr; with --json, as \"segments\")")
      ->check(segment_cycles());
  run->add_flag("--stats", a.stats, "print cycles, instructions per class, misaligned accesses, pages touched and cost C to stderr");
  run->add_flag("--json", a.json, "print the result as one JSON object on stdout (output as hex)");
  run->add_option("--spans", a.spans_dir, "record host-side spans (load, execute, output) and write DIR/trace.json "
                                          "(Chrome/Perfetto) and DIR/summary.json")
      ->check(CLI::ExistingDirectory);
  run->footer("Exit code: the guest's exit code (low 8 bits) when it exits; 101-107 when it faults or hits the cycle\n"
              "limit; 64-66 usage and file errors, 71 out of memory (the table: zkrv --help).");
  return run;
}

int cmd_run(const RunArgs& a) {
  if (a.spans_dir.empty()) return cmd_run_spanned(a);
  zkrv::core::span::set_enabled(true);
  int rc;
  {
    zkrv::core::span::Span root("zkrv run", zkrv::core::span::Level::kStage);
    rc = cmd_run_spanned(a);
  }
  if (int err = write_spans(a.spans_dir); err != 0) return err;
  return rc;
}

}  // namespace zkrv::cli
