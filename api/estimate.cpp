#include "api/estimate.h"

#include <algorithm>
#include <cmath>

#include "optimized/exec/fast_executor.h"
#include "reference/stark/air.h"
#include "spec/air/spec.h"

namespace zkrv::api {

double estimated_segment_bytes(unsigned log_segment, size_t touched_bytes) {
  return kSegmentBytesPerCycle * static_cast<double>(uint64_t{1} << log_segment) + 6.0 * static_cast<double>(touched_bytes) +
         kSegmentBaseBytes;
}

FirstRun execute_first(const spec::ProgramImage& image, std::span<const uint8_t> in, const spec::ExecOptions& exec,
                       unsigned log_segment) {
  spec::RunPlanner planner(image, log_segment);
  spec::ExecOptions o = exec;
  o.collect_stats = true;
  FirstRun f;
  auto& classes = f.counts.segment_classes;
  spec::attach(planner, o, [&](std::span<const spec::StepRecord> steps) {
    for (const spec::StepRecord& st : steps) {
      const size_t s = static_cast<size_t>(st.cycle >> log_segment);
      if (classes.size() <= s) classes.resize(s + 1);
      ++classes[s][static_cast<size_t>(spec::insn_class(st.insn))];
    }
  });
  const auto planner_sink = o.syscall_sink;
  o.syscall_sink = [&](const spec::SyscallEvent& ev) {
    planner_sink(ev);
    // the syscall table has a row for every ecall but the one that ends the run (optimized/trace/parts.h)
    const bool counted = ev.number != spec::kSysExit && ev.number != spec::kSysExitGroup;
    const bool read = ev.number == spec::kSysRead && ev.args[0] == 0,
               write = ev.number == spec::kSysWrite && (ev.args[0] == 1 || ev.args[0] == 2);
    f.counts.syscalls += counted;
    if (read || write) f.counts.io_bytes += ev.bytes.size();
  };
  f.run = opt::execute(image, in, o);
  f.counts.cycles = f.run.cycles;
  f.counts.stats = f.run.stats;
  if (f.run.status == spec::ExitStatus::kExited) {
    f.plan = planner.finish(f.run);
    f.counts.touched_bytes = f.plan->memory->count();
  }
  return f;
}

namespace {
// The rows a table of the execution gets from these counts (0 for the others).
using PerClass = std::array<uint64_t, static_cast<size_t>(spec::InsnClass::kCount)>;
uint64_t execution_rows(const std::string& name, const PerClass& per_class, uint64_t cycles, uint64_t io_bytes,
                        uint64_t syscalls) {
  using spec::InsnClass;
  const auto n = [&](InsnClass c) { return per_class[static_cast<size_t>(c)]; };
  return name == "cpu"       ? cycles
         : name == "alu"     ? n(InsnClass::kAlu) + n(InsnClass::kCompare) + n(InsnClass::kBranch)
         : name == "shift"   ? n(InsnClass::kShift)
         : name == "div"     ? n(InsnClass::kDiv)
         : name == "mul"     ? n(InsnClass::kMul) + n(InsnClass::kShift) + 2 * n(InsnClass::kDiv)
         : name == "io"      ? io_bytes
         : name == "syscall" ? syscalls
                             : 0;
}
}  // namespace

std::vector<size_t> predicted_heights(const spec::ProgramImage& image, const std::vector<uint8_t>& output, const RunCounts& run) {
  const auto& layout = ref::stark::air_layout();
  const auto derived = ref::stark::preprocessed(image, output).log_heights;
  std::vector<size_t> h(layout.tables.size());
  for (size_t t = 0; t < h.size(); ++t) {
    const std::string& name = layout.tables[t].name;
    if (derived.at(t)) {
      h[t] = size_t{1} << *derived[t];
      continue;
    }
    const uint64_t rows = name == "mem" ? run.touched_bytes
                                        : execution_rows(name, run.stats.per_class, run.cycles, run.io_bytes, run.syscalls);
    h[t] = spec::air::padded_height(rows, 2);
  }
  return h;
}

std::vector<std::vector<size_t>> predicted_segment_heights(const spec::ProgramImage& image, const spec::RunPlan& plan,
                                                           const RunCounts& run) {
  const auto& layout = ref::stark::air_layout(spec::air::Mode::kSegmented);
  const auto& whole = ref::stark::air_layout();
  const auto derived = ref::stark::preprocessed(image, {}).log_heights;  // the whole AIR's tables
  std::vector<std::vector<size_t>> out;
  for (size_t s = 0; s < plan.count(); ++s) {
    const spec::RunSegment& seg = plan.segments[s];
    const PerClass classes = s < run.segment_classes.size() ? run.segment_classes[s] : PerClass{};
    std::vector<size_t> h(layout.tables.size());
    for (size_t t = 0; t < h.size(); ++t) {
      const std::string& name = layout.tables[t].name;
      uint64_t rows = 0;
      if (name == "output") {
        rows = plan.boundaries[s + 1].opos - plan.boundaries[s].opos;
      } else if (name == "mem") {
        rows = seg.chunk;
      } else if (name == "memb") {
        rows = seg.touched;
      } else if (const auto w = std::find_if(whole.tables.begin(), whole.tables.end(), [&](const auto& x) { return x.name == name; });
                 w != whole.tables.end() && derived.at(static_cast<size_t>(w - whole.tables.begin()))) {
        h[t] = size_t{1} << *derived[static_cast<size_t>(w - whole.tables.begin())];
        continue;
      } else {
        rows = execution_rows(name, classes, seg.cycles, seg.io_bytes, seg.syscalls);
      }
      h[t] = spec::air::padded_height(rows, 2);
    }
    out.push_back(std::move(h));
  }
  return out;
}

// The process before the prover's buffers: the program, its libraries, the fixed tables' builders
// and the executor's pages. Fitted with the two figures below to the example guests proven as one
// proof (api/README.md has the table): the estimate was 1.04 to 1.23 times the measured peak.
constexpr double kProcessBytes = 24 << 20;

// The reference prover, or the optimized one holding the LDE, keeps per table row every column on
// the trace domain and on the LDE coset (b + 1 copies of 8 bytes: main, auxiliary and quotient
// columns) and three Merkle trees of 32-byte digests, and the program tree: one mixed tree over
// the tables that have program columns (protocol:stark:program), a leaf digest per row of the
// tallest one's LDE and about as many above the leaves.
double estimated_prove_bytes(const std::vector<size_t>& heights, unsigned log_blowup) {
  const auto& layout = ref::stark::air_layout();
  const double b = std::ldexp(1.0, static_cast<int>(log_blowup));
  double bytes = 0, program_max = 0;
  for (size_t t = 0; t < layout.tables.size(); ++t) {
    const auto& tl = layout.tables[t];
    const double h = static_cast<double>(heights.at(t));
    bytes += h * (8.0 * static_cast<double>(tl.columns + tl.aux_width() + tl.quotient_width()) * (b + 1) + 3 * 32.0 * b);
    if (!tl.program.empty()) program_max = std::max(program_max, h * b);
  }
  return bytes + 2 * 32 * program_max + kProcessBytes;
}

// The optimized prover with Lde::kStream holds no LDE (optimized/prove): each table's main and
// auxiliary columns as coefficients, the main trace until LogUp, and, while a table's quotient or
// DEEP sum is computed, one coset part of its columns, its quotient values on the LDE domain (3
// values of 8 bytes per LDE row; the estimate counts 13), the quotient chunks (counted at LDE
// size: they are held as coefficients), and three Merkle trees of the tallest LDE (32 bytes per
// row each), and at the queries the program tree of the tallest table with program columns.
double estimated_optimized_prove_bytes(const std::vector<size_t>& heights, unsigned log_blowup, bool segmented) {
  const auto& layout = ref::stark::air_layout(segmented ? spec::air::Mode::kSegmented : spec::air::Mode::kWhole);
  const double b = std::ldexp(1.0, static_cast<int>(log_blowup));
  double coeffs = 0, trace = 0, part = 0, q = 0, n_max = 0, program_max = 0;
  for (size_t t = 0; t < layout.tables.size(); ++t) {
    const auto& tl = layout.tables[t];
    const double h = static_cast<double>(heights.at(t)), cols = static_cast<double>(tl.columns),
                 aux = static_cast<double>(tl.aux_width());
    coeffs += 8 * h * (cols + aux);
    trace += 8 * h * cols;
    part = std::max(part, 8 * h * (cols + aux) + 13 * 8 * h * b);
    q += 8 * h * b * static_cast<double>(tl.quotient_width());
    n_max = std::max(n_max, h * b);
    if (!tl.program.empty()) program_max = std::max(program_max, h * b);
  }
  return std::max(coeffs + trace, coeffs + part + q + 3 * 32 * n_max + 32 * program_max) + kProcessBytes;
}

double estimated_bundle_bytes(const std::vector<std::vector<size_t>>& segment_heights, unsigned log_blowup,
                              uint64_t touched_pages) {
  double largest = 0;
  for (const auto& h : segment_heights) largest = std::max(largest, estimated_optimized_prove_bytes(h, log_blowup, true));
  return largest + kBundleBytesPerPageByte * 4096 * static_cast<double>(touched_pages) + kBundleBaseBytes;
}

}  // namespace zkrv::api
