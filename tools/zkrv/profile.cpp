// zkrv profile: run a guest with control-flow events and attribute every cycle to a call stack
// (tools/profile), reported as text tables, folded stacks or a Firefox Profiler file.
#include <iostream>
#include <span>

#include "optimized/exec/fast_executor.h"
#include "tools/common/files.h"
#include "tools/profile/profiler.h"
#include "tools/zkrv/commands.h"
#include "tools/zkrv/exit_codes.h"

namespace zkrv::cli {

namespace {

// The Firefox format's default: at most about a million samples, whatever the run's length.
constexpr size_t kMaxFirefoxSamples = size_t{1} << 20;

}  // namespace

CLI::App* add_profile(CLI::App& app, ProfileArgs& a) {
  auto* prof = app.add_subcommand("profile", "Attribute every cycle of a run to a call stack (functions from the ELF's symbols, "
                                             "inlined functions and source lines from its DWARF)");
  prof->add_option("PROGRAM", a.program, "guest ELF with a symbol table")->required();
  prof->add_option("--input", a.input, "private input: a file, - for stdin, a pipe, a FIFO or a device (read to its end)");
  prof->add_option("-o,--output,--out", a.out, "write the profile to FILE (atomically) instead of stdout (- is stdout)");
  prof->add_option("--format", a.format, "text (tables), folded (flame-graph stacks) or firefox (Firefox Profiler JSON)")
      ->capture_default_str()->check(CLI::IsMember({"text", "folded", "firefox"}));
  prof->add_option("--sample-rate", a.sample_rate, "firefox format: one sample every N cycles; auto: the smallest power "
                                                   "of two that keeps at most 2^20 samples (printed)")
      ->capture_default_str()
      ->check(CLI::Validator([](std::string& s) { return s == "auto" ? std::string() : uint_range(1, kMaxU64)(s); },
                             "auto or 1 to " + std::to_string(kMaxU64)));
  prof->add_option("--top", a.top, "text format: rows per table")->capture_default_str()->check(uint_range(1, 1u << 20));
  prof->add_option("--max-cycles", a.max_cycles, "stop with a cycle-limit fault after N cycles")
      ->capture_default_str()->check(uint_range(1, kMaxU64));
  prof->add_option("--random-seed", a.seed, "seed of zkvm_random_u64")->capture_default_str()->check(uint_range(0, kMaxU64));
  prof->add_flag("--no-dwarf", a.no_dwarf, "ignore the ELF's DWARF: functions from the symbol table only, no lines");
  prof->add_flag("-q,--quiet", a.quiet, "no progress or warning lines on stderr");
  prof->footer("The guest's public output is discarded; cycle counts are those of `zkrv run`. With DWARF (guests are\n"
               "built with -g), text adds tables by inlined function and by source line, folded stacks show inlined\n"
               "functions as frames marked _[i], and firefox frames carry their source line, inlined functions as\n"
               "frames of their own. Folded stacks deeper than 128 calls keep their outer 16 and inner 112 calls,\n"
               "with [...] between. Exit code: 0; 101-107 if the guest faulted (the profile covers the cycles before\n"
               "the fault); 65 a cost-scope misuse (end without start); 64-66 usage and file errors, 71 out of memory\n"
               "(the table: zkrv --help).");
  return prof;
}

int cmd_profile(const ProfileArgs& a) {
  using namespace zkrv;
  Guest g;
  if (int err = load_guest(a.program, a.input, spec::kDefaultMaxInputBytes, g); err != 0) return err;
  const auto symbols = tools::profile::SymbolTable::from_elf(g.elf);
  if (!symbols.warning().empty()) cli::progress("warning: " + a.program + ": " + symbols.warning());
  if (symbols.functions().empty()) cli::progress("warning: " + a.program + " has no function symbols; every cycle is [unknown]");
  tools::profile::DebugInfo debug;
  if (!a.no_dwarf) {
    debug = tools::profile::DebugInfo::from_elf(g.elf);
    if (!debug.warning().empty()) cli::progress("warning: " + a.program + ": " + debug.warning());
  }
  const bool firefox = a.format == "firefox", auto_rate = a.sample_rate == "auto";
  tools::profile::Profiler profiler(symbols, firefox ? (auto_rate ? 1 : *cli::parse_uint(a.sample_rate)) : 0,
                                    firefox && auto_rate ? kMaxFirefoxSamples : 0, &debug);
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
    return fail(cli::fault_exit_code(r.fault.kind), stopped_line(g, r, a.max_cycles) + " (the profile above covers them)");
  return 0;
}

}  // namespace zkrv::cli
