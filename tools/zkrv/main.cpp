// zkrv — command-line front end: `zkrv run` executes a guest ELF, `zkrv profile` attributes its
// cycles, `zkrv check` checks its trace against the constraint spec, `zkrv prove` and `zkrv verify`
// (prove.cpp, verify.cpp) make and check a proof.

#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>
#include <random>
#include <set>
#include <string>

#include "optimized/exec/fast_executor.h"
#include "optimized/trace/trace.h"
#include "reference/air/check.h"
#include "optimized/air/check.h"
#include "reference/air/interpret.h"
#include "reference/stark/air.h"
#include "spec/air/embedded.h"
#include "reference/elf/elf_loader.h"
#include "reference/exec/executor.h"
#include "spec/isa.h"
#include "tools/common/files.h"
#include "tools/profile/profiler.h"
#include "tools/span/span.h"
#include "tools/zkrv/commands.h"
#include "tools/zkrv/exit_codes.h"

namespace {

using zkrv::cli::fail;
using zkrv::cli::Guest;
using zkrv::cli::load_guest;

std::string hex_bytes(const std::vector<uint8_t>& v) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  s.reserve(v.size() * 2);
  for (uint8_t b : v) { s += digits[b >> 4]; s += digits[b & 15]; }
  return s;
}

std::string json_escape(const std::string& in) {
  std::string s;
  for (char c : in) {
    if (c == '"' || c == '\\') { s += '\\'; s += c; }
    else if (static_cast<unsigned char>(c) < 0x20) { char b[8]; std::snprintf(b, sizeof b, "\\u%04x", c); s += b; }
    else s += c;
  }
  return s;
}

struct RunArgs {
  std::string program, input, output, executor = "fast", spans_dir;
  uint64_t max_cycles = zkrv::spec::kDefaultMaxCycles;
  uint64_t max_input = zkrv::spec::kDefaultMaxInputBytes;
  std::optional<uint64_t> seed;
  bool stats = false, json = false;
};

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

using zkrv::cli::write_spans;

int cmd_run_spanned(const RunArgs& a);

int cmd_run(const RunArgs& a) {
  if (a.spans_dir.empty()) return cmd_run_spanned(a);
  zkrv::span::set_enabled(true);
  int rc;
  {
    zkrv::span::Span root("zkrv run", zkrv::span::Level::kStage);
    rc = cmd_run_spanned(a);
  }
  if (int err = write_spans(a.spans_dir); err != 0) return err;
  return rc;
}

int cmd_run_spanned(const RunArgs& a) {
  using namespace zkrv;
  std::optional<span::Span> load_span(std::in_place, "load", span::Level::kStage);
  Guest g;
  if (int err = load_guest(a.program, a.input, a.max_input, g); err != 0) return err;
  const std::vector<uint8_t>& input = g.input;
  load_span.reset();
  spec::ExecOptions opt;
  opt.max_cycles = a.max_cycles;
  opt.collect_stats = a.stats || a.json;
  opt.random_seed = a.seed ? *a.seed : std::random_device{}() * uint64_t{0x100000001} ^ std::random_device{}();
  const auto t0 = std::chrono::steady_clock::now();
  std::optional<span::Span> exec_span(std::in_place, "execute", span::Level::kStage);
  spec::ExecResult r = a.executor == "reference" ? ref::execute(g.image, input, opt) : opt::execute(g.image, input, opt);
  exec_span.reset();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  span::Span output_span("output", span::Level::kStage);

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
              << ",\"value\":" << spec::cost_estimate(r.stats, r.cycles) << "}}\n";
  }
  if (a.stats) print_stats(std::cerr, r, secs);
  if (!exited)
    return fail(cli::fault_exit_code(r.fault.kind), "guest " + spec::describe(r.fault) + " after " + std::to_string(r.cycles) + " cycles");
  if (a.stats && !a.json) std::cerr << "exit code:           " << r.exit_code << "\n";
  return r.exit_code & 0xff;
}

struct ProfileArgs {
  std::string program, input, out, format = "text", sample_rate = "auto";
  uint64_t max_cycles = zkrv::spec::kDefaultMaxCycles, seed = 0;
  size_t top = 20;
  bool quiet = false;
};

// The Firefox format's default: at most about a million samples, whatever the run's length.
constexpr size_t kMaxFirefoxSamples = size_t{1} << 20;

int cmd_profile(const ProfileArgs& a) {
  using namespace zkrv;
  Guest g;
  if (int err = load_guest(a.program, a.input, spec::kDefaultMaxInputBytes, g); err != 0) return err;
  const auto symbols = tools::profile::SymbolTable::from_elf(g.elf);
  if (!symbols.warning().empty()) cli::progress("warning: " + a.program + ": " + symbols.warning());
  if (symbols.functions().empty()) cli::progress("warning: " + a.program + " has no function symbols; every cycle is [unknown]");
  const bool firefox = a.format == "firefox", auto_rate = a.sample_rate == "auto";
  tools::profile::Profiler profiler(symbols, firefox ? (auto_rate ? 1 : *cli::parse_uint(a.sample_rate)) : 0,
                                    firefox && auto_rate ? kMaxFirefoxSamples : 0);
  spec::ExecOptions opt;
  opt.max_cycles = a.max_cycles;
  opt.random_seed = a.seed;
  // Run mode with control-flow events: the profiler rebuilds every cycle from them.
  opt.flow_sink = [&](std::span<const spec::FlowEvent> chunk) { profiler.consume_flow(chunk); };
  cli::progress("profiling " + a.program + " ...");
  const auto r = opt::execute(g.image, g.input, opt);
  profiler.finish();
  if (firefox)
    cli::progress("firefox profile: one sample every " + std::to_string(profiler.sample_rate()) + " cycle(s), " +
                  std::to_string(profiler.samples().size()) + " samples" +
                  (auto_rate ? " (--sample-rate 1 keeps every cycle)" : ""));
  std::string report;
  if (a.format == "text") report = tools::profile::text_report(profiler, a.top);
  else if (a.format == "folded") report = tools::profile::folded_report(profiler);
  else report = tools::profile::firefox_profile(profiler, "zkrv " + a.program);
  if (!a.out.empty()) {
    const std::vector<uint8_t> bytes(report.begin(), report.end());
    if (auto err = tools::write_file_atomic(a.out, bytes); !err.empty()) return fail(cli::kIoError, err);
    cli::progress("wrote " + a.format + " profile of " + std::to_string(profiler.cycles()) + " cycles to " + a.out);
  } else {
    std::cout << report << std::flush;
  }
  if (!profiler.scope_error().empty()) return fail(cli::kBadInput, profiler.scope_error());
  if (r.status != spec::ExitStatus::kExited)
    return fail(cli::fault_exit_code(r.fault.kind), "guest " + spec::describe(r.fault) + " after " + std::to_string(r.cycles) +
                                                        " cycles (the profile above covers them)");
  return 0;
}

struct CheckArgs {
  std::string program, input, spec_dir;  // spec_dir empty: the spec built into zkrv
  uint64_t max_cycles = uint64_t{1} << 22;
  uint64_t seed = 0;
  bool quiet = false, reference = false;
};

// zkrv check: execute, build the AIR tables, check every constraint and bus with the reference
// evaluator, and check that the spec's own expressions agree with it on every row.
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
  opt.max_cycles = a.max_cycles;
  opt.random_seed = a.seed;
  const bool fast = !a.reference && a.spec_dir.empty();
  std::string summary;
  size_t out = 0;
  uint64_t exit_code = 0;
  if (fast) {  // the fast executor straight into column-major tables, and the generated evaluator
    cli::progress("executing " + a.program + " and building the tables ...");
    const auto built = opt::trace::build_trace(g.image, g.input, opt);
    if (built.run.status != spec::ExitStatus::kExited)
      return fail(cli::fault_exit_code(built.run.fault.kind),
                  "only runs that exit can be checked; this one stopped: " + spec::describe(built.run.fault));
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
  auto r = opt::execute(g.image, g.input, opt);
  if (r.status != spec::ExitStatus::kExited)
    return fail(cli::fault_exit_code(r.fault.kind),
                "only runs that exit can be checked; this one stopped: " + spec::describe(r.fault));
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

}  // namespace

int main(int argc, char** argv) {
  using zkrv::cli::kMaxU64;
  using zkrv::cli::uint_range;
  CLI::App app{"zkrv: a zero-knowledge virtual machine for RISC-V (RV64IM)"};
  app.set_version_flag("--version", std::string("zkrv ") + ZKRV_VERSION);
  app.require_subcommand(1);
  app.footer(zkrv::cli::exit_code_table());

  RunArgs ra;
  auto* run = app.add_subcommand("run", "Execute a guest ELF (no proof): public output to stdout, debug log to stderr");
  run->add_option("PROGRAM", ra.program, "guest ELF (RV64IM, static, ET_EXEC)")->required();
  run->add_option("--input", ra.input, "private input file, read by the guest through read(0, ...)");
  run->add_option("-o,--output", ra.output, "write the public output to FILE instead of stdout (atomically)");
  run->add_option("--max-cycles", ra.max_cycles, "stop with a cycle-limit fault after N cycles")
      ->capture_default_str()->check(uint_range(1, kMaxU64));
  run->add_option("--max-input-bytes", ra.max_input, "refuse larger input files")->capture_default_str()
      ->check(uint_range(0, zkrv::cli::kMaxElfBytes));
  run->add_option("--random-seed", ra.seed, "seed of zkvm_random_u64 (default: drawn from the OS CSPRNG); replays a run")
      ->check(uint_range(0, kMaxU64));
  run->add_option("--executor", ra.executor, "fast or reference")->capture_default_str()
      ->check(CLI::IsMember({"fast", "reference"}));
  run->add_flag("--stats", ra.stats, "print cycles, instructions per class, misaligned accesses, pages touched and cost C to stderr");
  run->add_flag("--json", ra.json, "print the result as one JSON object on stdout (output as hex)");
  run->add_option("--spans", ra.spans_dir, "record host-side spans (load, execute, output) and write DIR/trace.json "
                                           "(Chrome/Perfetto) and DIR/summary.json")
      ->check(CLI::ExistingDirectory);
  run->footer("Exit code: the guest's exit code (low 8 bits) when it exits; 101-107 when it faults or hits the cycle\n"
              "limit; 64-66 usage and file errors, 71 out of memory (the table: zkrv --help).");

  ProfileArgs pa;
  auto* prof = app.add_subcommand("profile", "Attribute every cycle of a run to a call stack (functions from the ELF's symbols)");
  prof->add_option("PROGRAM", pa.program, "guest ELF with a symbol table")->required();
  prof->add_option("--input", pa.input, "private input file");
  prof->add_option("-o,--output,--out", pa.out, "write the profile to FILE (atomically) instead of stdout");
  prof->add_option("--format", pa.format, "text (tables), folded (flame-graph stacks) or firefox (Firefox Profiler JSON)")
      ->capture_default_str()->check(CLI::IsMember({"text", "folded", "firefox"}));
  prof->add_option("--sample-rate", pa.sample_rate, "firefox format: one sample every N cycles; auto: the smallest power "
                                                    "of two that keeps at most 2^20 samples (printed)")
      ->capture_default_str()
      ->check(CLI::Validator([](std::string& s) { return s == "auto" ? std::string() : uint_range(1, kMaxU64)(s); },
                             "auto or 1 to " + std::to_string(kMaxU64)));
  prof->add_option("--top", pa.top, "text format: rows per table")->capture_default_str()->check(uint_range(1, 1u << 20));
  prof->add_option("--max-cycles", pa.max_cycles, "stop with a cycle-limit fault after N cycles")
      ->capture_default_str()->check(uint_range(1, kMaxU64));
  prof->add_option("--random-seed", pa.seed, "seed of zkvm_random_u64")->capture_default_str()->check(uint_range(0, kMaxU64));
  prof->add_flag("-q,--quiet", pa.quiet, "no progress or warning lines on stderr");
  prof->footer("The guest's public output is discarded; cycle counts are those of `zkrv run`. Folded stacks deeper than\n"
               "128 frames keep their outer 16 and inner 112 frames, with [...] between. Exit code: 0; 101-107 if the\n"
               "guest faulted (the profile covers the cycles before the fault); 65 a cost-scope misuse (end without\n"
               "start); 64-66 usage and file errors, 71 out of memory (the table: zkrv --help).");

  CheckArgs ca;
  auto* chk = app.add_subcommand("check", "Execute a guest and check its trace against every constraint and bus of the "
                                          "constraint spec (no proof)");
  chk->add_option("PROGRAM", ca.program, "guest ELF (RV64IM, static, ET_EXEC)")->required();
  chk->add_option("--input", ca.input, "private input file");
  chk->add_option("--max-cycles", ca.max_cycles, "refuse runs longer than N cycles (the trace is kept in memory)")
      ->capture_default_str()->check(uint_range(1, kMaxU64));
  chk->add_option("--random-seed", ca.seed, "seed of zkvm_random_u64")->capture_default_str()->check(uint_range(0, kMaxU64));
  chk->add_option("--spec", ca.spec_dir, "check against the constraint spec in this folder (like spec/tables) instead "
                                         "of the one built into zkrv")
      ->check(CLI::ExistingDirectory);
  chk->add_flag("-q,--quiet", ca.quiet, "no progress lines on stderr");
  chk->add_flag("--reference", ca.reference, "check with the reference evaluator and the spec's expressions interpreted "
                                             "beside it (slow), instead of the evaluator generated from the spec");
  chk->footer("Prints \"N constraints on M rows in K tables hold; B buses balance\", or FAIL and the first failing\n"
              "constraint (spec ID, table, row, values) or unbalanced bus (its unmatched tuples). Exit code: 0 all hold,\n"
              "1 a constraint or bus fails, 101-107 the guest faulted, 64-66 usage and file errors, 70 internal error,\n"
              "71 out of memory (the table: zkrv --help).");

  zkrv::cli::ProveArgs pra;
  auto* prv = zkrv::cli::add_prove(app, pra);
  zkrv::cli::VerifyArgs va;
  auto* ver = zkrv::cli::add_verify(app, va);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return fail(zkrv::cli::kUsage, std::string(e.what()) + " (see zkrv --help)");
  }
  zkrv::cli::set_quiet(pa.quiet || ca.quiet || pra.quiet);
  try {
    if (*run) return cmd_run(ra);
    if (*prof) return cmd_profile(pa);
    if (*chk) return cmd_check(ca);
    if (*prv) return zkrv::cli::cmd_prove(pra);
    if (*ver) return zkrv::cli::cmd_verify(va);
  } catch (const std::bad_alloc&) {
    return fail(zkrv::cli::kOutOfMemory, "out of memory");
  } catch (const std::exception& e) {
    return fail(zkrv::cli::kInternal, std::string("internal error: ") + e.what());
  }
  return 0;
}
