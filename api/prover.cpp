// The host API's proving side (zkrv/prover.h): execute, and prove a run as one proof or, longer
// than a segment, as a bundle of segments (spec/protocol.md §9, protocol:segments:*), with the
// memory it needs estimated and checked against the budget first.
//
// A bundle from the optimized prover: the segments come from the streaming builder
// (opt::trace::build_segment_traces) three times, one segment held at a time, and each segment's
// proof goes to `write` as it is made, so that its memory is one segment's plus the run's touched
// bytes, whatever the run's length. The reference prover (small runs) takes them from the
// reference segment builder, cut from the whole run's trace, all at once.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <optional>
#include <string>

#include "api/estimate.h"
#include "api/peers.h"
#include "api/program_impl.h"
#include "api/trace_check.h"
#include "core/air/layout.h"
#include "optimized/backend/backend.h"
#include "optimized/exec/fast_executor.h"
#include "optimized/hash/keccak.h"
#include "optimized/memory/region.h"
#include "optimized/prove/prove.h"
#include "optimized/trace/segments.h"
#include "optimized/trace/trace.h"
#include "reference/air/check.h"
#include "reference/air/segment_trace.h"
#include "reference/prove/prove.h"
#include "reference/stark/air.h"
#include "reference/verify/verify.h"
#include "spec/air/embedded.h"
#include "spec/bundle.h"
#include "spec/run_segments.h"
#include "zkrv/prover.h"

namespace zkrv {

namespace {

// A number of bytes from a cgroup or /proc file's first line, or 0 ("max", absent, unreadable).
double read_bytes(const std::string& path, const char* key = nullptr) {
  std::FILE* f = std::fopen(path.c_str(), "r");
  if (!f) return 0;
  char line[256];
  double v = 0;
  while (std::fgets(line, sizeof line, f)) {
    if (key) {  // /proc/meminfo: "MemAvailable:   24116804 kB"
      const size_t n = std::strlen(key);
      if (std::strncmp(line, key, n) == 0 && line[n] == ':') {
        v = std::strtod(line + n + 1, nullptr) * 1024;
        break;
      }
      continue;
    }
    char* end = nullptr;
    v = std::strtod(line, &end);
    if (end == line) v = 0;
    break;
  }
  std::fclose(f);
  return v >= 0x1p60 ? 0 : v;  // cgroup v1 writes "no limit" as about 2^63
}

// The lowest memory limit of this process's cgroup and its ancestors (v2: memory.max; v1: the
// memory controller's memory.limit_in_bytes), or 0 when none is set.
double cgroup_limit() {
  std::FILE* f = std::fopen("/proc/self/cgroup", "r");
  if (!f) return 0;
  char line[4096];
  double limit = 0;
  const auto take = [&](const std::string& root, std::string path, const char* file) {
    for (;;) {
      const double v = read_bytes(root + path + "/" + file);
      if (v > 0 && (limit == 0 || v < limit)) limit = v;
      if (path.empty() || path == "/") return;
      path.resize(path.find_last_of('/'));
    }
  };
  while (std::fgets(line, sizeof line, f)) {
    std::string l(line);
    if (!l.empty() && l.back() == '\n') l.pop_back();
    const size_t c1 = l.find(':'), c2 = c1 == std::string::npos ? c1 : l.find(':', c1 + 1);
    if (c2 == std::string::npos) continue;
    const std::string controllers = l.substr(c1 + 1, c2 - c1 - 1), path = l.substr(c2 + 1);
    if (l.compare(0, c1, "0") == 0 && controllers.empty()) {  // v2, at /sys/fs/cgroup or, hybrid, its unified/
      take("/sys/fs/cgroup", path, "memory.max");
      take("/sys/fs/cgroup/unified", path, "memory.max");
    } else if (("," + controllers + ",").find(",memory,") != std::string::npos) {
      take("/sys/fs/cgroup/memory", path, "memory.limit_in_bytes");
    }
  }
  std::fclose(f);
  return limit;
}

}  // namespace

MemoryBudget memory_budget() {
  if (const char* e = std::getenv("ZKRV_MEMORY_BYTES")) {  // a share of a machine, set outright (and the tests')
    char* end = nullptr;
    const double v = std::strtod(e, &end);
    if (end != e && *end == 0 && v > 0) return {v, "ZKRV_MEMORY_BYTES is"};
  }
  MemoryBudget m{static_cast<double>(::sysconf(_SC_PHYS_PAGES)) * static_cast<double>(::sysconf(_SC_PAGESIZE)),
                 "this machine has"};
  const auto lower = [&](double v, const char* what) {
    if (v < m.bytes) m = {std::max(v, 0.0), what};
  };
  if (const double v = read_bytes("/proc/meminfo", "MemAvailable"); v > 0) lower(v, "this machine has available (MemAvailable)");
  if (const double v = cgroup_limit(); v > 0) lower(v, "the cgroup's memory limit is");
  // ulimit -v counts address space: the executor maps the guest's whole 4 GiB (spec::kAddressLimit)
  // while a run executes, which a bundle's does while it proves, and the process has its own.
  // The prover's region (optimized/memory) is mapped whole, but only its live blocks are taken.
  if (rlimit as{}; ::getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY) {
    const opt::memory::RegionStats region = opt::memory::region().stats();
    const double mapped = read_bytes("/proc/self/status", "VmSize") - static_cast<double>(region.reserved - region.in_use);
    lower(static_cast<double>(as.rlim_cur) - static_cast<double>(spec::kAddressLimit) - mapped,
          "the address-space limit (ulimit -v) leaves, past the executor's 4 GiB map and what is mapped now,");
  }
  return m;
}

namespace {

spec::ExecOptions exec_options(const ExecuteOptions& o) {
  spec::ExecOptions e;
  e.max_cycles = o.max_cycles;
  e.random_seed = o.random_seed;
  return e;
}

void check_input(std::span<const uint8_t> input) {
  if (input.size() > spec::kDefaultMaxInputBytes)
    throw Error(ErrorCode::kBadInput, "the input has " + std::to_string(input.size()) + " bytes; the limit is " +
                                          std::to_string(spec::kDefaultMaxInputBytes));
}

// The error of a run that does not exit.
[[noreturn]] void throw_fault(const spec::ExecResult& r) {
  std::string line = "only runs that exit can be proven: guest " + spec::describe(r.fault) + " after " +
                     std::to_string(r.cycles) + " cycles";
  throw Error(ErrorCode::kGuestFault, line, api::to_api(r.fault, r.cycles, r.regs));
}

// The prover's stage clock: each stage's time to the caller's progress, and the stop token checked.
class Reporter {
 public:
  explicit Reporter(const ProveOptions& o) : o_(o), lap_(std::chrono::steady_clock::now()) {}
  void stage(std::string_view name) {
    const auto now = std::chrono::steady_clock::now();
    if (o_.progress) o_.progress({Progress::Kind::kStage, std::string(name), std::chrono::duration<double>(now - lap_).count(), {}});
    lap_ = now;
    check_stop();
  }
  void note(const std::string& line) const {
    if (o_.progress) o_.progress({Progress::Kind::kNote, line, 0, {}});
  }
  void buffers(std::string_view stage, const std::vector<std::pair<std::string, size_t>>& live) const {
    if (!o_.progress) return;
    Progress p{Progress::Kind::kBuffers, std::string(stage), 0, {}};
    for (const auto& [name, bytes] : live) p.live_buffers.emplace_back(name, bytes);
    o_.progress(p);
  }
  void check_stop() const {
    if (o_.stop.stop_requested()) throw Error(ErrorCode::kCancelled, "cancelled");
  }
  std::chrono::steady_clock::time_point lap() const { return lap_; }

 private:
  const ProveOptions& o_;
  std::chrono::steady_clock::time_point lap_;
};

// A size for a message: "2.4 GB", or "350 MB" below a gigabyte.
std::string size_text(double bytes) {
  char buf[32];
  if (bytes >= 1e9) std::snprintf(buf, sizeof buf, "%.1f GB", bytes / 1e9);
  else std::snprintf(buf, sizeof buf, "%.0f MB", bytes / 1e6);
  return buf;
}

const char* security_name(ProveOptions::Security s) {
  return s == ProveOptions::Security::kProvable ? "provable" : "conjectured";
}

std::unique_ptr<opt::Backend> make_backend(const ProveOptions& o) {
  if (o.backend == ProveOptions::Backend::kCpu) return nullptr;
  const char* name = o.backend == ProveOptions::Backend::kGpu ? "gpu" : "dual";
  if (o.prover != ProveOptions::Prover::kOptimized)
    throw Error(ErrorCode::kInvalidArgument, std::string("--backend ") + name + " is for the optimized prover");
  std::string why;
  auto gpu = opt::make_cuda_backend(&why);
  if (!gpu) throw Error(ErrorCode::kUnsupported, std::string("--backend ") + name + ": " + why);
  if (o.backend == ProveOptions::Backend::kGpu) return gpu;
  return opt::make_dual_backend(opt::make_cpu_backend(o.threads), std::move(gpu));
}

double budget(const ProveOptions& o, std::string* what) {
  if (o.max_memory > 0) {
    *what = "the budget (max_memory) is";
    return o.max_memory;
  }
  const MemoryBudget m = memory_budget();
  *what = m.source;
  return m.bytes;
}

// A refusal of the whole bundle (not of one rank's segments), thrown as it is.
struct BundleWide {
  Error error;
};

// spec: protocol:segments:* — a run longer than a segment, proven as a bundle.
ProveReport prove_bundle(const Program& program, std::span<const uint8_t> input, const ProveOptions& a,
                         const spec::StarkOptions& options, const std::function<void(std::span<const uint8_t>)>& write,
                         Reporter& rep, opt::Backend* backend, const api::FirstRun& first) {
  const spec::ProgramImage& image = program.impl().image;
  const std::span<const uint8_t> in = input;
  const spec::ExecOptions exec = exec_options(a.execute);
  const unsigned k = static_cast<unsigned>(std::countr_zero(a.segment_cycles));
  const spec::ExecResult& run = first.run;
  if (auto why = spec::check_segmenting(run.cycles, k, exec.max_cycles)) throw Error(ErrorCode::kInvalidArgument, *why);
  const spec::RunPlan& plan = *first.plan;
  rep.note(std::to_string(run.cycles) + " cycles: " + std::to_string(plan.count()) + " segments of 2^" + std::to_string(k) +
           " cycles");

  // spec: protocol:segments:queries — the bundle must meet the floor the verifier's policy of the
  // same name applies: the union bound over the segments may need more queries than one proof.
  const spec::SecurityPolicy floor = spec::SecurityPolicy::preset(security_name(a.security));
  const bool optimized = a.prover == ProveOptions::Prover::kOptimized;
  ProveReport report;
  report.cycles = run.cycles;
  // spec: protocol:segments:peers — with peers, this process proves its block of the segments
  const size_t n = plan.count();
  const api::Block mine = a.peers ? api::block_of(n, a.peers->rank(), a.peers->size()) : api::Block{0, n};
  if (a.peers) {
    char line[160];
    if (mine.size() == 0)
      std::snprintf(line, sizeof line, "rank %u of %u: no segment of %zu to prove (more ranks than segments)", a.peers->rank(),
                    a.peers->size(), n);
    else
      std::snprintf(line, sizeof line, "rank %u of %u proves segments %zu to %zu of %zu", a.peers->rank(), a.peers->size(),
                    mine.first + 1, mine.last, n);
    rep.note(line);
  }
  {  // refuse before the work: the largest segment's proof, from its predicted heights, and the run's touched bytes
    const double need = api::estimated_bundle_bytes(api::predicted_segment_heights(image, plan, first.counts),
                                                    options.log_blowup, plan.memory->pages());
    std::string what;
    double have = budget(a, &what);
    // The ranks on one machine share its memory and its cgroup's, not ZKRV_MEMORY_BYTES or ulimit -v
    // (each process's own).
    const bool shared = what.rfind("this machine has", 0) == 0 || what.rfind("the cgroup's", 0) == 0;
    if (a.peers && a.peers->local_size() > 1 && a.max_memory == 0 && shared) {
      what += " " + size_text(have) + ", shared by " + std::to_string(a.peers->local_size()) + " ranks here: each has";
      have /= a.peers->local_size();
    }
    char buf[300];
    if (optimized && need > have) {
      std::snprintf(buf, sizeof buf, "a segment of 2^%u cycles needs about %s to prove; %s %s (try a smaller "
                    "--segment-cycles)", k, size_text(need).c_str(), what.c_str(), size_text(have).c_str());
      throw Error(ErrorCode::kOutOfMemory, buf);
    }
    if (optimized) {
      report.estimated_bytes = need;
      std::snprintf(buf, sizeof buf, "proving needs about %.1f GB (one segment at a time, built three times)", need / 1e9);
      rep.note(buf);
    }
  }
  // After each segment's proof, the time left at the pace of the segments so far.
  std::chrono::steady_clock::time_point proving_since{};
  size_t done = 0;  // of this process's segments
  const auto progress_fn = [&](std::string_view s, double) {
    rep.stage(s);
    const auto now = rep.lap();
    if (s.rfind("logup ", 0) == 0 || s == "logup") proving_since = now;
    if (s.rfind("prove ", 0) == 0 && ++done < mine.size()) {
      const double spent = std::chrono::duration<double>(now - proving_since).count();
      char line[96];
      std::snprintf(line, sizeof line, "about %.0f s left (%zu of %zu segments proven)",
                    spent / static_cast<double>(done) * static_cast<double>(mine.size() - done), done, mine.size());
      rep.note(line);
    }
  };
  uint64_t written = 0;
  const auto put = [&](const std::vector<uint8_t>& bytes) {
    write(bytes);
    written += bytes.size();
  };
  spec::BundleProof bundle;  // the optimized prover's has no segments: they went to `write`
  if (optimized) {
    // Each pass builds every segment anew. The first also checks each one (the generated
    // evaluator: every constraint, every local bus) and, at its end, the global bus gmem over the
    // bundle, before anything but the main roots is computed.
    const auto& seg_spec = spec::air::embedded_spec(spec::air::Mode::kSegmented);
    int passes = 0;
    opt::Fp3 global{};
    const auto refused = [](const std::string& why) {
      return Error(ErrorCode::kUnsatisfied, "refused: the run does not satisfy the segment AIR: " + why);
    };
    const auto owned = [&](size_t s) { return s >= mine.first && s < mine.last; };
    const opt::prove::SegmentSource source = [&](const std::function<void(size_t, opt::prove::Segment&&)>& take) {
      const bool first = passes++ == 0;
      opt::trace::build_segment_traces(image, in, exec, plan, run, a.threads, [&](size_t s, opt::trace::SegmentTrace&& t) {
        if (first) {
          const auto c = opt::air::fast_check(t.tables, t.publics, 20261205, a.threads, spec::air::Mode::kSegmented);
          if (c.failed_table != SIZE_MAX) {
            const auto& tab = seg_spec.tables[c.failed_table];
            throw refused("segment " + std::to_string(s) + ": constraint " + tab.constraints[c.failed_constraint].id +
                          " fails in table " + tab.name + " at row " + std::to_string(c.failed_row));
          }
          if (!c.unbalanced_buses.empty())
            throw refused("segment " + std::to_string(s) + ": bus " + seg_spec.buses[c.unbalanced_buses[0]].name +
                          " does not balance");
          global = global + c.global_sum;
        }
        rep.check_stop();
        take(s, opt::prove::Segment{std::move(t.tables), std::move(t.publics)});
      }, a.peers ? std::function<bool(size_t)>(owned) : nullptr);
      if (first && a.peers) global = api::sum_over(*a.peers, global);
      // The whole bundle's refusal: rank 0 makes it (the others are brought down with it).
      if (first && !(global == opt::Fp3{}) && (!a.peers || a.peers->rank() == 0))
        throw BundleWide{refused("the global memory bus gmem does not balance over the segments")};
      if (first) rep.stage("check");
    };
    // Rank 0 (or the one process) writes the bundle: the head, its own segments as they are made,
    // then every other rank's in rank order, each sent as it was made.
    const bool root = !a.peers || a.peers->rank() == 0;
    const opt::prove::BundleSink sink{[&](const spec::BundleProof& head) {
                                        if (root) put(spec::encode_bundle_head(head));
                                      },
                                      [&](size_t, spec::SegmentProof&& sp) {
                                        if (root) put(spec::encode_segment_body(sp));
                                        else a.peers->send(spec::encode_segment_body(sp));
                                      }};
    std::optional<opt::prove::Peers> peers;
    if (a.peers) peers = api::prover_peers(*a.peers, n, core::air_layout(spec::air::Mode::kSegmented).tables.size());
    bundle = opt::prove::prove_bundle_streamed(image, plan, static_cast<uint32_t>(run.exit_code), run.output, source, options,
                                               a.threads, progress_fn, backend, nullptr, floor, &sink, peers ? &*peers : nullptr);
    if (a.peers && root && a.peers->size() > 1) {
      const auto t0 = std::chrono::steady_clock::now();
      const uint64_t before = written;
      for (unsigned r = 1; r < a.peers->size(); ++r)
        for (size_t s = api::block_of(n, r, a.peers->size()).size(); s > 0; --s) {
          rep.check_stop();
          put(a.peers->receive(r));
        }
      char line[160];
      std::snprintf(line, sizeof line, "wrote the other ranks' %zu segments (%.1f MB) in %.2f s after its own", n - mine.size(),
                    static_cast<double>(written - before) / 1e6,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      rep.note(line);
    }
  } else {
    std::vector<ref::air::AirTrace> segments;
    {
      spec::ExecOptions traced = exec;
      traced.trace = true;
      const spec::ExecResult full = opt::execute(image, in, traced);
      segments = ref::air::build_segment_traces(image, full, plan);
    }
    rep.stage("trace");
    const auto check = ref::air::check_segment_traces(segments);
    if (!check.ok()) throw Error(ErrorCode::kUnsatisfied, "refused: the run does not satisfy the segment AIR: " + check.summary());
    rep.stage("check");
    // spec: protocol:segments:queries — as the optimized prover settles them after its pass 1
    std::vector<std::vector<uint8_t>> heights;
    for (const auto& seg : segments) {
      auto& h = heights.emplace_back();
      for (const auto& t : core::air_layout(spec::air::Mode::kSegmented).tables)
        h.push_back(static_cast<uint8_t>(std::countr_zero(seg.table(t.name).height())));
    }
    bundle = ref::prove::prove_bundle_unchecked(image, segments, plan, core::bundle_options(options, heights, floor),
                                                progress_fn);
    put(spec::encode_bundle(bundle));
  }
  const spec::BundleStatement& st = bundle.statement;
  const auto sec = core::bundle_security(bundle.options, st.log_heights);
  report.statement = Statement{st.program_digest, st.exit_code, st.output, true, {}, st.segments(), st.log_segment};
  report.proof_bytes = written;
  report.provable_bits = sec.provable_bits;
  report.conjectured_bits = sec.conjectured_bits;
  report.queries = bundle.options.num_queries;
  report.preset_queries = options.num_queries;
  return report;
}

// One proof of a run of at most one segment.
ProveReport prove_single(const Program& program, std::span<const uint8_t> input, const ProveOptions& a,
                         const spec::StarkOptions& options, const std::function<void(std::span<const uint8_t>)>& write,
                         Reporter& rep, opt::Backend* backend, const api::FirstRun& first) {
  const spec::ProgramImage& image = program.impl().image;
  const std::span<const uint8_t> in = input;
  spec::ExecOptions opt = exec_options(a.execute);
  const bool optimized = a.prover == ProveOptions::Prover::kOptimized;
  ProveReport report;
  report.cycles = first.run.cycles;
  // Refuse before the work: the memory from the heights the tables will have.
  bool hold = false;
  {
    const std::vector<size_t> heights = api::predicted_heights(image, first.run.output, first.counts);
    // The optimized prover holds the LDE when that needs at most half of the budget (Lde::kAuto).
    // Holding pays only for short runs: since the DEEP codeword and the openings stopped reading
    // the LDE, streaming was as fast from 2^18 rows up (sha256 at 2^19: 34.8 s streamed, 35.1 s
    // held, 2.5x the memory), while at 2^16 holding was 15% faster.
    const double full = api::estimated_prove_bytes(heights, options.log_blowup),
                 lean = api::estimated_optimized_prove_bytes(heights, options.log_blowup);
    std::string what;
    const double have = budget(a, &what);
    const size_t tallest = *std::max_element(heights.begin(), heights.end());
    if (optimized)
      hold = a.lde == ProveOptions::Lde::kHold ||
             (a.lde == ProveOptions::Lde::kAuto && tallest <= (size_t{1} << 17) && full <= have / 2);
    const double need = !optimized || hold ? full : lean;
    char buf[300];
    if (need > have) {
      std::snprintf(buf, sizeof buf, "this run needs about %s to prove; %s %s", size_text(need).c_str(), what.c_str(),
                    size_text(have).c_str());
      throw Error(ErrorCode::kOutOfMemory, buf);
    }
    report.estimated_bytes = need;
    std::snprintf(buf, sizeof buf, "proving needs about %.1f GB%s", need / 1e9,
                  !optimized ? "" : hold ? " (the LDE held)" : " (the LDE computed a part at a time in each pass)");
    rep.note(buf);
  }
  // The optimized prover's tables come from the fast trace builder (optimized/trace), the
  // reference prover's from the reference builder; they are equal (tests/trace).
  opt::trace::BuiltTrace built;
  ref::air::AirTrace trace;
  // The reference checker's report of a trace that does not hold (the run is replayed).
  auto explain = [&]() {
    spec::ExecOptions traced = opt;
    traced.trace = true;
    const auto run = opt::execute(image, in, traced);
    const auto check = ref::air::check_trace(ref::air::build_trace(image, run));
    if (check.ok()) throw Error(ErrorCode::kInternal, "internal error: the generated evaluator rejects a trace the reference accepts");
    throw Error(ErrorCode::kUnsatisfied, "refused: the run does not satisfy the constraint spec: " + check.summary());
  };
  if (optimized) {
    built = opt::trace::build_trace(image, in, opt, a.threads, [&](std::string_view s, double) { rep.stage(s); });
    if (built.run.status != spec::ExitStatus::kExited) throw_fault(built.run);
    if (!api::fast_tables_check(built.tables, built.publics, nullptr)) explain();
  } else {
    opt.trace = true;
    auto run = opt::execute(image, in, opt);
    if (run.status != spec::ExitStatus::kExited) throw_fault(run);
    rep.stage("execute");
    trace = ref::air::build_trace(image, run);
    std::vector<spec::StepRecord>().swap(run.trace);  // the tables hold everything from here on
    rep.stage("trace");
    if (!api::fast_trace_check(trace, false, nullptr)) explain();
  }
  rep.stage("check");
  const auto progress = [&](std::string_view s, double) { rep.stage(s); };
  const auto buffers = [&](std::string_view s, const std::vector<std::pair<std::string, size_t>>& live) { rep.buffers(s, live); };
  const auto proof = optimized ? opt::prove::prove_unchecked(image, std::move(built.tables), built.publics, options, a.threads,
                                                             progress, buffers,
                                                             hold ? opt::prove::Lde::kHold : opt::prove::Lde::kStream, backend)
                               : ref::prove::prove_unchecked_consuming(image, std::move(trace), options, progress);
  const auto bytes = spec::encode_stark_proof(proof);
  write(bytes);
  const auto& layout = ref::stark::air_layout();
  const auto sec = spec::stark_security(options, layout.security_shape(proof.statement.log_heights));
  const spec::Statement& st = proof.statement;
  report.statement = Statement{st.program_digest, st.exit_code, st.output, false, st.log_heights, 1, 0};
  report.proof_bytes = bytes.size();
  report.provable_bits = sec.provable_bits;
  report.conjectured_bits = sec.conjectured_bits;
  report.queries = report.preset_queries = options.num_queries;
  for (size_t t = 0; t < layout.tables.size(); ++t)
    report.table_heights.emplace_back(layout.tables[t].name, uint64_t{1} << st.log_heights[t]);
  report.lde = hold ? ProveOptions::Lde::kHold : ProveOptions::Lde::kStream;
  return report;
}

}  // namespace

Execution execute(const Program& program, std::span<const uint8_t> input, const ExecuteOptions& options) {
  check_input(input);
  const std::span<const uint8_t> in = input;
  spec::ExecResult r = opt::execute(program.impl().image, in, exec_options(options));
  Execution e;
  e.exited = r.status == spec::ExitStatus::kExited;
  e.exit_code = static_cast<uint32_t>(r.exit_code);
  e.cycles = r.cycles;
  e.output = std::move(r.output);
  e.log = std::move(r.log);
  if (!e.exited) e.fault = api::to_api(r.fault, r.cycles, r.regs);
  return e;
}

namespace {

// spec: protocol:segments:peers — every process proves the same run with the options that shape
// the bytes (not the threads, the LDE, the backend or the memory budget, which do not).
void agree(Peers& peers, const Program& program, std::span<const uint8_t> input, const ProveOptions& a,
           const spec::ExecResult& run) {
  if (peers.size() == 0 || peers.rank() >= peers.size())
    throw Error(ErrorCode::kInvalidArgument, "peers: rank " + std::to_string(peers.rank()) + " of " + std::to_string(peers.size()));
  if (a.prover != ProveOptions::Prover::kOptimized)
    throw Error(ErrorCode::kInvalidArgument, "proving with peers takes the optimized prover");
  api::RunIdentity id;
  id.program = program.digest();
  id.input = opt::keccak256(input);
  std::vector<uint8_t> o;
  for (const uint64_t v : {uint64_t{a.security == ProveOptions::Security::kProvable}, a.segment_cycles, a.execute.max_cycles,
                           a.execute.random_seed})
    for (int k = 0; k < 8; ++k) o.push_back(static_cast<uint8_t>(v >> (8 * k)));
  id.options = opt::keccak256(o);
  id.output = opt::keccak256(run.output);
  id.cycles = run.cycles;
  id.exit_code = static_cast<uint32_t>(run.exit_code);
  api::agree(peers, id);
}

// An exception of the caller's own (from `write` or `progress`), carried through the prover
// unchanged.
struct CallerThrew {
  std::exception_ptr what;
};

ProveReport prove_unguarded(const Program& program, std::span<const uint8_t> input, const ProveOptions& a,
                            const std::function<void(std::span<const uint8_t>)>& write) {
  check_input(input);
  if (a.segment_cycles == 0 || !std::has_single_bit(a.segment_cycles) ||
      a.segment_cycles < (uint64_t{1} << spec::kMinSegmentLog) || a.segment_cycles > (uint64_t{1} << spec::kMaxSegmentLog))
    throw Error(ErrorCode::kInvalidArgument, "segment_cycles must be a power of two from 2^" + std::to_string(spec::kMinSegmentLog) +
                                                 " to 2^" + std::to_string(spec::kMaxSegmentLog));
  if (a.execute.max_cycles == 0) throw Error(ErrorCode::kInvalidArgument, "max_cycles must be at least 1");
  if (!(a.max_memory >= 0)) throw Error(ErrorCode::kInvalidArgument, "max_memory must not be negative");
  Reporter rep(a);
  rep.check_stop();
  const std::unique_ptr<opt::Backend> backend = make_backend(a);
  const spec::StarkOptions options = spec::stark_preset(security_name(a.security));
  const std::span<const uint8_t> in = input;
  const spec::ProgramImage& image = program.impl().image;
  {  // a plain run first: a fault is refused at the executor's full speed
    spec::ExecOptions o = exec_options(a.execute);
    const spec::ExecResult run = opt::execute(image, in, o);
    if (run.status != spec::ExitStatus::kExited) throw_fault(run);
  }
  api::FirstRun first = api::execute_first(image, in, exec_options(a.execute), static_cast<unsigned>(std::countr_zero(a.segment_cycles)));
  if (first.run.status != spec::ExitStatus::kExited) throw_fault(first.run);
  if (a.peers) agree(*a.peers, program, input, a, first.run);
  // spec: protocol:segments:single — one proof up to segment_cycles, a bundle beyond
  if (first.run.cycles > a.segment_cycles) {
    rep.stage("execute");
    if (!a.peers) {
      try {
        return prove_bundle(program, input, a, options, write, rep, backend.get(), first);
      } catch (const BundleWide& b) {
        throw b.error;
      }
    }
    // An error of this rank's work names its segments (counted from 0, as the errors inside do).
    const size_t n = first.plan->count();
    const api::Block mine = api::block_of(n, a.peers->rank(), a.peers->size());
    const std::string block = mine.size() == 0 ? "no segment (of 0 to " + std::to_string(n - 1) + "): "
                                               : "proving segments " + std::to_string(mine.first) + " to " +
                                                     std::to_string(mine.last - 1) + " (of 0 to " + std::to_string(n - 1) + "): ";
    try {
      return prove_bundle(program, input, a, options, write, rep, backend.get(), first);
    } catch (const BundleWide& b) {
      throw b.error;
    } catch (const CallerThrew&) {
      throw;
    } catch (const Error& e) {
      throw Error(e.code(), block + e.what(), e.fault());
    } catch (const std::bad_alloc&) {
      throw Error(ErrorCode::kOutOfMemory, block + "out of memory");
    } catch (const std::exception& e) {
      throw Error(ErrorCode::kInternal, block + "internal error: " + e.what());
    }
  }
  if (a.peers && a.peers->rank() != 0) {  // one proof: rank 0 makes it alone
    rep.note("the run is one segment: rank 0 proves it alone");
    ProveReport report;
    report.cycles = first.run.cycles;
    return report;
  }
  first.plan.reset();  // one proof needs the counts alone
  return prove_single(program, input, a, options, write, rep, backend.get(), first);
}

}  // namespace

ProveReport prove_to(const Program& program, std::span<const uint8_t> input, const ProveOptions& options,
                     const std::function<void(std::span<const uint8_t>)>& write) {
  ProveOptions o = options;
  if (options.progress)
    o.progress = [&](const Progress& p) {
      try {
        options.progress(p);
      } catch (...) {
        throw CallerThrew{std::current_exception()};
      }
    };
  const auto guarded = [&](std::span<const uint8_t> bytes) {
    try {
      write(bytes);
    } catch (...) {
      throw CallerThrew{std::current_exception()};
    }
  };
  struct GiveBack {  // the free pages of the prover's region, back to the system once prove() ends
    ~GiveBack() { opt::memory::region().trim(); }
  } give_back;
  try {
    return prove_unguarded(program, input, o, guarded);
  } catch (const CallerThrew& c) {
    std::rethrow_exception(c.what);
  } catch (const Error&) {
    throw;
  } catch (const std::bad_alloc&) {
    throw Error(ErrorCode::kOutOfMemory, "out of memory");
  } catch (const std::exception& e) {
    throw Error(ErrorCode::kInternal, std::string("internal error: ") + e.what());
  }
}

Proof prove(const Program& program, std::span<const uint8_t> input, const ProveOptions& options) {
  Proof p;
  p.report = prove_to(program, input, options, [&](std::span<const uint8_t> b) { p.bytes.insert(p.bytes.end(), b.begin(), b.end()); });
  return p;
}

}  // namespace zkrv
