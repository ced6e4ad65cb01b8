// zkrv-conformance: runs a suite of guest programs (the ISA suite, the SDK's example programs)
// on the reference executor, the fast executor (run and trace modes) and qemu-riscv64, and
// fails unless every program ends as the expectations file says on every executor, produces
// the expected public output, and the reference and fast traces agree step by step.
//
//   zkrv-conformance --dir DIR [--expect FILE] [--no-qemu] [--only NAME]
//
// Expectations, one program per line: NAME pass|exit=N|fault=KIND [input=FILE] [output=FILE]
// [max_cycles=N] [qemu=skip -- reason]; the build settings source=, allocator=, cflags= and
// exceptions= are skipped.

#include <CLI/CLI.hpp>
#include <chrono>

#include <cstdio>
#include <fstream>
#include <optional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "optimized/exec/fast_executor.h"
#include "reference/air/check.h"
#include "reference/air/trace.h"
#include "reference/prove/prove.h"
#include "reference/verify/verify.h"
#include "reference/elf/elf_loader.h"
#include "reference/exec/executor.h"
#include "tools/common/files.h"
#include "tools/qemu_oracle/qemu_oracle.h"

namespace {

using namespace zkrv;

struct Expectation {
  std::string name;
  enum { kExit, kFault } kind = kExit;
  int exit_code = 0;
  std::string fault;  // slug
  std::string input;
  std::string output;  // file with the expected public output (optional)
  uint64_t max_cycles = spec::kDefaultMaxCycles;
  bool qemu_skip = false;
  std::string qemu_reason;
};

std::string slug(spec::FaultKind k) {
  switch (k) {
    case spec::FaultKind::kIllegalInstruction: return "illegal";
    case spec::FaultKind::kMisalignedJump: return "misaligned_jump";
    case spec::FaultKind::kFetch: return "fetch";
    case spec::FaultKind::kLoad: return "load";
    case spec::FaultKind::kStore: return "store";
    case spec::FaultKind::kBreakpoint: return "ebreak";
    case spec::FaultKind::kCycleLimit: return "cycle_limit";
    default: return "none";
  }
}

std::vector<Expectation> parse(const std::string& path, std::string& err) {
  std::vector<Expectation> out;
  std::ifstream in(path);
  if (!in) { err = "cannot read " + path; return out; }
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    std::string reason;
    if (auto p = line.find(" -- "); p != std::string::npos) { reason = line.substr(p + 4); line.resize(p); }
    if (auto p = line.find('#'); p != std::string::npos) line.resize(p);
    std::istringstream ss(line);
    Expectation e;
    std::string expect;
    if (!(ss >> e.name)) continue;
    if (!(ss >> expect)) { err = path + ":" + std::to_string(lineno) + ": missing expectation"; return {}; }
    if (expect == "pass") e.exit_code = 0;
    else if (expect.rfind("exit=", 0) == 0) e.exit_code = std::stoi(expect.substr(5));
    else if (expect.rfind("fault=", 0) == 0) { e.kind = Expectation::kFault; e.fault = expect.substr(6); }
    else { err = path + ":" + std::to_string(lineno) + ": unknown expectation '" + expect + "'"; return {}; }
    std::string opt;
    while (ss >> opt) {
      if (opt.rfind("input=", 0) == 0) e.input = opt.substr(6);
      else if (opt.rfind("max_cycles=", 0) == 0) e.max_cycles = std::stoull(opt.substr(11));
      else if (opt.rfind("output=", 0) == 0) e.output = opt.substr(7);
      else if (opt == "qemu=skip") { e.qemu_skip = true; e.qemu_reason = reason; }
      else if (opt.rfind("source=", 0) == 0 || opt.rfind("allocator=", 0) == 0 || opt.rfind("cflags=", 0) == 0 ||
               opt.rfind("exceptions=", 0) == 0)
        continue;  // build settings (guest/CMakeLists.txt)
      else { err = path + ":" + std::to_string(lineno) + ": unknown option '" + opt + "'"; return {}; }
    }
    out.push_back(e);
  }
  return out;
}

// An order-sensitive digest of trace records (every field), for comparing long traces.
struct TraceDigest {
  uint64_t value = 0x6a09e667f3bcc908ull, records = 0;
  static uint64_t mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h *= 0xbf58476d1ce4e5b9ull;
    return h ^ (h >> 31);
  }
  void add(std::span<const spec::StepRecord> chunk) {
    for (const auto& s : chunk) {
      for (uint64_t v : {s.cycle, s.pc, uint64_t{s.insn}, uint64_t{s.rs1} | uint64_t{s.rs2} << 8 | uint64_t{s.rd} << 16,
                         s.rs1_value, s.rs2_value, s.rd_value, s.next_pc,
                         uint64_t(s.mem.kind) | uint64_t{s.mem.size} << 8, s.mem.address, s.mem.before, s.mem.after})
        value = mix(value, v);
      ++records;
    }
  }
};

std::string outcome(const spec::ExecResult& r) {
  return r.status == spec::ExitStatus::kExited ? "exit=" + std::to_string(r.exit_code) : "fault=" + slug(r.fault.kind);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"zkrv conformance runner: reference, fast and qemu-riscv64 must agree with the expectations"};
  std::string dir, expect_path, only;
  bool no_qemu = false;
  std::string data_dir;
  app.add_option("--dir", dir, "folder with the built NAME.elf programs")->required();
  app.add_option("--expect", expect_path, "expectations file (default: DIR/expected.txt)");
  app.add_option("--data", data_dir, "folder of input= and output= files (default: the expectations file's folder)");
  app.add_option("--only", only, "run one program");
  app.add_flag("--no-qemu", no_qemu, "skip qemu-riscv64 (the run then proves less; say so)");
  bool prove = false;
  std::string security = "provable";
  uint64_t prove_max_cycles = uint64_t{1} << 19;
  app.add_flag("--prove", prove, "also prove every program that exits (the constraint check first) and verify the "
                                 "proof against the expected exit code and output; a program expected to fault must "
                                 "be refused (negative control)");
  app.add_option("--security", security, "proof options with --prove")->capture_default_str()
      ->check(CLI::IsMember({"provable", "conjectured"}));
  app.add_option("--prove-max-cycles", prove_max_cycles, "with --prove: programs longer than this are reported, "
                                                         "not proved")->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  if (expect_path.empty()) expect_path = dir + "/expected.txt";
  if (data_dir.empty()) {
    data_dir = expect_path.substr(0, expect_path.find_last_of('/') == std::string::npos ? 0 : expect_path.find_last_of('/'));
    if (data_dir.empty()) data_dir = ".";
  }

  std::string err;
  auto cases = parse(expect_path, err);
  if (!err.empty()) { std::cerr << "error: " << err << "\n"; return 2; }
  const bool have_qemu = !no_qemu && !tools::qemu_path().empty();
  if (!no_qemu && !have_qemu) {
    std::cerr << "error: qemu-riscv64 not found (install qemu-user, or pass --no-qemu)\n";
    return 2;
  }

  int passed = 0, failed = 0;
  std::printf("%-26s %-22s %-22s %-22s %-22s %10s %s\n", "program", "expected", "reference", "fast", "qemu-riscv64",
              "cycles", "verdict");
  for (const auto& c : cases) {
    if (!only.empty() && c.name != only) continue;
    std::vector<std::string> problems;
    const std::string elf_path = dir + "/" + c.name + ".elf";
    auto elf = tools::read_file(elf_path, 1 << 30, "program");
    std::vector<uint8_t> input;
    if (!c.input.empty()) {
      auto in = tools::read_file(data_dir + "/" + c.input, 1 << 30, "input");
      if (!in.bytes) problems.push_back(in.error); else input = *in.bytes;
    }
    std::optional<std::vector<uint8_t>> want_output;
    if (!c.output.empty()) {
      auto out = tools::read_file(data_dir + "/" + c.output, 1 << 30, "expected output");
      if (!out.bytes) problems.push_back(out.error); else want_output = *out.bytes;
    }
    std::string expected = c.kind == Expectation::kExit ? "exit=" + std::to_string(c.exit_code) : "fault=" + c.fault;
    std::string ref_out = "-", fast_out = "-", qemu_out = "-", proof_note;
    uint64_t cycles = 0;
    if (!elf.bytes) {
      problems.push_back(elf.error);
    } else if (auto loaded = ref::load_elf(*elf.bytes); !loaded.ok()) {
      problems.push_back(loaded.message);
    } else {
      spec::ExecOptions opt;
      opt.max_cycles = c.max_cycles;
      opt.collect_stats = true;
      // Traces are compared through a running digest of every record (constant memory, so
      // long programs fit); a mismatch is then located by a second, stored run if it is short.
      opt.trace = true;
      TraceDigest ref_digest, fast_digest;
      opt.trace_sink = [&](std::span<const spec::StepRecord> chunk) { ref_digest.add(chunk); };
      auto r = ref::execute(*loaded.image, input, opt);
      opt.trace_sink = [&](std::span<const spec::StepRecord> chunk) { fast_digest.add(chunk); };
      auto f = opt::execute(*loaded.image, input, opt);
      opt.trace_sink = nullptr;
      opt.trace = false;
      opt.collect_stats = false;
      auto fr = opt::execute(*loaded.image, input, opt);  // run mode, as `zkrv run` uses it
      ref_out = outcome(r);
      fast_out = outcome(f);
      cycles = r.cycles;
      if (want_output && r.output != *want_output) problems.push_back("public output differs from " + c.output);
      if (ref_out != expected) problems.push_back("reference: " + ref_out);
      if (fast_out != expected) problems.push_back("fast: " + fast_out);
      if (outcome(fr) != fast_out || fr.cycles != f.cycles || fr.output != f.output || fr.regs != f.regs)
        problems.push_back("fast run mode differs from fast trace mode");
      if (ref_digest.records != fast_digest.records) problems.push_back("trace lengths differ");
      if (ref_digest.value != fast_digest.value) {
        std::string where = "traces differ";
        if (ref_digest.records <= 2'000'000) {
          spec::ExecOptions stored;
          stored.max_cycles = c.max_cycles;
          stored.trace = true;
          const auto rt = ref::execute(*loaded.image, input, stored).trace;
          const auto ft = opt::execute(*loaded.image, input, stored).trace;
          for (size_t i = 0; i < std::min(rt.size(), ft.size()); ++i)
            if (!(rt[i] == ft[i])) {
              where += " first at cycle " + std::to_string(i) + " (pc " + std::to_string(rt[i].pc) + ")";
              break;
            }
        }
        problems.push_back(where);
      }
      if (r.syscalls != f.syscalls) problems.push_back("syscall records differ");
      if (r.regs != f.regs || r.output != f.output || r.log != f.log || r.cycles != f.cycles || !(r.fault == f.fault) ||
          !(r.stats == f.stats))
        problems.push_back("final state differs between reference and fast");
      if (have_qemu && !c.qemu_skip) {
        auto q = tools::run_qemu(elf_path, input, 30);
        if (!q.started) { problems.push_back("qemu: " + q.error); qemu_out = "error"; }
        else if (q.timed_out) { problems.push_back("qemu timed out"); qemu_out = "timeout"; }
        else if (q.exited && q.guest_faulted()) qemu_out = "cpu-exception";
        else if (q.exited) qemu_out = "exit=" + std::to_string(q.exit_code);
        else qemu_out = "signal=" + std::to_string(q.signal);
        if (q.started && !q.timed_out) {
          if (c.kind == Expectation::kExit) {
            if (!q.exited || q.exit_code != (c.exit_code & 0xff)) problems.push_back("qemu: " + qemu_out);
            if (q.stdout_bytes != r.output) problems.push_back("qemu's stdout differs from the public output");
          } else if (!q.guest_faulted()) {
            problems.push_back("qemu ran on (" + qemu_out + "); the guest must stop abnormally");
          }
        }
      } else if (c.qemu_skip) {
        qemu_out = "skipped";
      }
    }
    if (prove && elf.bytes && problems.empty()) {
      const auto loaded = ref::load_elf(*elf.bytes);
      spec::ExecOptions opt;
      opt.max_cycles = std::min(c.max_cycles, prove_max_cycles);
      opt.trace = true;
      const auto run = opt::execute(*loaded.image, input, opt);
      if (c.kind != Expectation::kExit) {
        // negative control: a run that faults has no trace to prove
        bool refused = false;
        try {
          (void)ref::air::build_trace(*loaded.image, run);
        } catch (const std::invalid_argument&) {
          refused = true;
        }
        if (!refused) problems.push_back("prove: a faulting run was not refused");
        proof_note = "refused (faults)";
      } else if (run.status != spec::ExitStatus::kExited) {
        proof_note = "not proved (over --prove-max-cycles)";
      } else {
        const auto t0 = std::chrono::steady_clock::now();
        const auto trace = ref::air::build_trace(*loaded.image, run);
        const auto report = ref::air::check_trace(trace);
        if (!report.ok()) {
          problems.push_back("prove: the trace fails the constraint check: " + report.summary());
        } else {
          const auto proof = ref::prove::prove_unchecked(*loaded.image, trace, spec::stark_preset(security));
          const double prove_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
          const auto bytes = spec::encode_stark_proof(proof);
          const auto t1 = std::chrono::steady_clock::now();
          const auto v = ref::verify::verify_bytes(bytes, {&*loaded.image, static_cast<uint32_t>(c.exit_code), &run.output}, spec::SecurityPolicy::preset(security));
          const double verify_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
          const auto wrong = ref::verify::verify(proof, {&*loaded.image, static_cast<uint32_t>(c.exit_code + 1), &run.output}, spec::SecurityPolicy::preset(security));
          if (!v.ok()) problems.push_back(std::string("verify: rejected: ") + ref::verify::stage_name(v.rejection->stage) + ": " + v.rejection->what);
          if (wrong.ok()) problems.push_back("verify: accepted another exit code");
          char buf[160];
          std::snprintf(buf, sizeof buf, "proved in %.1f s, %zu bytes, verified in %.2f s", prove_s, bytes.size(), verify_s);
          proof_note = buf;
        }
      }
    }
    const bool ok = problems.empty();
    (ok ? passed : failed)++;
    std::printf("%-26s %-22s %-22s %-22s %-22s %10llu %s\n", c.name.c_str(), expected.c_str(), ref_out.c_str(),
                fast_out.c_str(), qemu_out.c_str(), static_cast<unsigned long long>(cycles), ok ? "ok" : "FAIL");
    if (!proof_note.empty()) std::printf("    proof: %s\n", proof_note.c_str());
    for (const auto& p : problems) std::printf("    - %s\n", p.c_str());
    if (c.qemu_skip && !c.qemu_reason.empty()) std::printf("    (qemu skipped: %s)\n", c.qemu_reason.c_str());
  }
  if (passed + failed == 0) { std::cerr << "error: no program matched\n"; return 2; }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
