// The run segments' builder (optimized/trace/segments.h): optimized/trace/trace.cpp's parts on one
// segment's cycles at a time, laid out as ref::air::build_segment_traces lays them out: every
// token that crosses the segment's start re-timed at 4 clk_start, the chunk of the mem table,
// memb, regs' start and end values, the syscall chains continued from the start state, the
// output's slice.
#include "optimized/trace/segments.h"

#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <string>

#include "optimized/common/parallel.h"
#include "optimized/exec/fast_executor.h"
#include "optimized/trace/parts.h"
#include "spec/air/embedded.h"
#include "spec/bundle.h"

namespace zkrv::opt::trace {
namespace {

using namespace detail;

bool moves_bytes(const spec::SyscallEvent& ev) {
  return (ev.number == spec::kSysRead && ev.args[0] == 0) || (ev.number == spec::kSysWrite && (ev.args[0] == 1 || ev.args[0] == 2));
}

// The segment being streamed: its cpu rows as the steps arrive, its syscall rows.
struct Current {
  size_t s = 0;
  uint64_t c0 = 0, rows = 0;
  std::unique_ptr<Table> cpu;
  core::TraceTable sys;
  std::unique_ptr<CpuStream> stream;
};

class Builder {
 public:
  Builder(const spec::ProgramImage& image, const spec::RunPlan& plan, const spec::ExecResult& planned, unsigned threads,
          const std::function<bool(size_t)>& wanted, const std::function<void(size_t, SegmentTrace&&)>& emit)
      : image_(image), plan_(plan), planned_(planned), threads_(threads), wanted_(wanted), emit_(emit),
        it_(image_tables(image)), lookup_(it_) {}

  void start(size_t s) {
    cur_ = Current{};
    cur_.s = s;
    cur_.c0 = uint64_t{s} << plan_.log_cycles;
    cur_.rows = plan_.segments[s].cycles;
    steps_ = 0;
    if (wanted_ && !wanted_(s)) return;  // skipped: only the memory it leaves is kept (skip_step)
    cur_.cpu = std::make_unique<Table>(C::cpu::width, padded_height(cur_.rows, 2));
    for (size_t i = 0; i < cur_.cpu->t.height; ++i) cur_.cpu->set(C::cpu::clk, i, cur_.c0 + i), cur_.cpu->set(C::cpu::wr_zero, i, 1);
    cur_.sys = core::syscall_table_shape();
    cur_.stream = std::make_unique<CpuStream>(*cur_.cpu, cur_.sys, planned_.cycles, cur_.c0, cur_.rows,
                                              plan_.boundaries[s].regs);
  }
  void step(const spec::StepRecord& st) {
    if (steps_ == cur_.rows) finish(), start(cur_.s + 1);
    if (cur_.stream)
      cur_.stream->step(st);
    else
      skip_step(st);
    ++steps_;
  }
  void syscall(const spec::SyscallEvent& ev) {
    if (moves_bytes(ev)) events_.push_back(ev);
  }
  // spec: protocol:segments:* — segment cur_.s's tables, then the memory it leaves; a skipped
  // segment's memory only.
  void finish();
  size_t segment() const { return cur_.s; }
  uint64_t steps() const { return steps_; }

 private:
  const spec::ProgramImage& image_;
  const spec::RunPlan& plan_;
  const spec::ExecResult& planned_;
  // A segment that is not wanted leaves in prior_ what the built one would: every byte it touches,
  // at time s + 1, with its value at the segment's end (the same bytes as the planner's touch).
  void skip_step(const spec::StepRecord& st) {
    const uint64_t t = cur_.s + 1;
    if (st.mem.kind != spec::MemKind::kNone)
      for (unsigned i = 0; i < st.mem.size; ++i) prior_.set(st.mem.address + i, static_cast<uint8_t>(st.mem.after >> (8 * i)), t);
    while (!events_.empty() && events_.front().cycle == st.cycle) {
      const spec::SyscallEvent& ev = events_.front();
      for (size_t i = 0; i < ev.bytes.size(); ++i) prior_.set(ev.args[1] + i, ev.bytes[i], t);
      events_.pop_front();
    }
  }

  const unsigned threads_;
  const std::function<bool(size_t)>& wanted_;
  const std::function<void(size_t, SegmentTrace&&)>& emit_;
  const ImageTables it_;
  const Memory lookup_;  // segment_of and file_byte only
  Prior prior_;
  Current cur_;
  uint64_t steps_ = 0;  // of the current segment
  std::deque<spec::SyscallEvent> events_;  // the byte-moving ecalls not yet in a segment's io table
};

void Builder::finish() {
  ZKRV_ASSERT(steps_ == cur_.rows, "segment builder: a segment's steps are missing");
  if (!cur_.stream) {
    ZKRV_ASSERT(events_.empty() || events_.front().cycle >= cur_.c0 + cur_.rows, "segment builder: a syscall without its step");
    return;
  }
  const size_t s = cur_.s, n = plan_.count();
  const bool more = s + 1 < n;
  const uint64_t c0 = cur_.c0, c1 = c0 + cur_.rows, t0 = 4 * c0;
  const spec::BoundaryState &in = plan_.boundaries[s], &end = plan_.boundaries[s + 1];
  Table& cpu = *cur_.cpu;
  Failure fail;
  const uint64_t exit_row = more ? UINT64_MAX : cur_.rows - 1;
  parallel_for(cur_.rows, threads_, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) cpu_row(cpu, i, exit_row, it_.rom, fail);
  }, 4096);
  fail.raise();

  // io: the bytes the segment's syscalls move, at their ecall's timestamp; fd 1's at their global
  // output position
  std::vector<spec::SyscallEvent> evs;
  while (!events_.empty() && events_.front().cycle < c1) evs.push_back(std::move(events_.front())), events_.pop_front();
  size_t io_rows = 0;
  for (const auto& ev : evs) io_rows += ev.bytes.size();
  Table io(C::io::width, padded_height(io_rows, 2));
  {
    size_t r = 0;
    uint64_t written = in.opos;
    for (const auto& ev : evs) {
      const bool read = ev.number == spec::kSysRead, to_out = !read && ev.args[0] == 1;
      for (size_t k = 0; k < ev.bytes.size(); ++k, ++r) {
        ZKRV_ASSERT(!to_out || (written + k < planned_.output.size() && planned_.output[written + k] == ev.bytes[k]),
                    "segment builder: the bytes written to fd 1 are not the run's output");
        io.set(C::io::is_real, r, 1), io.set(C::io::ts, r, 4 * ev.cycle + 3), io.set(C::io::addr, r, ev.args[1] + k);
        io.set(C::io::new_, r, ev.bytes[k]), io.set(C::io::idx, r, k), io.set(C::io::last, r, k + 1 == ev.bytes.size());
        io.set(C::io::rd, r, read), io.set(C::io::out, r, to_out), io.set(C::io::opos, r, to_out ? written + k : k);
      }
      if (to_out) written += ev.bytes.size();
    }
    ZKRV_ASSERT(written == end.opos, "segment builder: the segment's output differs from the plan's");
  }

  // the memory argument on the segment's accesses, each byte's first token at t0
  Memory mem(it_, &prior_, t0);
  replay_accesses(cpu, cur_.rows, c0, io, io_rows, mem, fail);
  fail.raise();

  // memb: every byte the segment touches, its gmem token in and out (the prior memory moves on)
  ZKRV_ASSERT(mem.touched() == plan_.segments[s].touched, "segment builder: the bytes touched differ from the plan's");
  std::vector<Column> mb(11, Column(padded_height(mem.touched(), 2)));
  {
    size_t r = 0;
    uint64_t prev = 0;
    for (const auto& [page, tokens] : mem.pages())
      for (size_t k = 0; k < Memory::kPage; ++k) {
        const Memory::Token& st = (*tokens)[k];
        if (!st.touched) continue;
        const uint64_t a = page * Memory::kPage + k, tin = prior_.time(a), td = s - tin;
        const uint64_t v[] = {1, a, tin, st.v_in, st.w, st.ts, st.value, td & 0xffff, td >> 16, 0, 0};
        for (size_t c = 0; c < 11; ++c) mb[c][r] = Fp::from_u64(v[c]);
        if (r > 0) {
          const uint64_t gap = a - prev - 1;
          mb[9][r - 1] = Fp::from_u64(gap & 0xffff), mb[10][r - 1] = Fp::from_u64(gap >> 16);
        }
        prior_.set(a, st.value, s + 1);
        prev = a, ++r;
      }
  }

  // mem: the chunk's addresses C_s < a <= C_(s+1), with their final tokens (protocol:segments:memory)
  Table chunk(C::mem::width, padded_height(plan_.segments[s].chunk, 2));
  Column cb0(chunk.t.height), cb1(chunk.t.height);
  {
    size_t r = 0;
    uint64_t prev = 0;
    plan_.memory->for_each_in(plan_.chunks[s], plan_.chunks[s + 1], [&](uint64_t a) {
      mem_row(chunk, r, a, prev, plan_.memory->final_time(a), plan_.memory->final_value(a), lookup_);
      if (r == 0) {
        const uint64_t cb = a - plan_.chunks[s] - 1;
        cb0[0] = Fp::from_u64(cb & 0xffff), cb1[0] = Fp::from_u64(cb >> 16);
      }
      prev = a, ++r;
    });
    ZKRV_ASSERT(r == plan_.segments[s].chunk, "segment builder: the chunk differs from the plan's");
  }

  // the whole run's tables of the segment's rows, in the whole run's spec order
  std::vector<TableColumns> whole(C::table::count);
  {
    AluTables at = alu_tables(cpu, cur_.rows, threads_);
    whole[C::table::alu] = std::move(at.alu.t), whole[C::table::mul] = std::move(at.mul.t);
    whole[C::table::shift] = std::move(at.shift.t), whole[C::table::div] = std::move(at.div.t);
  }
  {
    Table output(C::output::width, padded_height(end.opos - in.opos, 2));
    for (uint64_t p = in.opos; p < end.opos; ++p)
      output.set(C::output::is_real, p - in.opos, 1), output.set(C::output::pos, p - in.opos, p),
          output.set(C::output::value, p - in.opos, planned_.output[p]);
    whole[C::table::output] = std::move(output.t);
  }
  std::map<std::string, Column> extra;  // the segment AIR's own columns, "table.column"
  {
    Table regs(C::regs::width, 32);
    for (uint64_t r = 0; r < 32; ++r) {
      regs.set(C::regs::reg, r, r), regs.set(C::regs::final_ts, r, cur_.stream->reg_ts()[r]);
      regs.limbs(C::regs::final_v0, r, cur_.stream->reg_val()[r]);
      if (more) ZKRV_ASSERT(cur_.stream->reg_val()[r] == end.regs[r], "segment builder: the registers differ from the plan's");
    }
    for (int k = 0; k < 4; ++k) {
      Column iv(32), ev(32);
      for (size_t r = 0; r < 32; ++r)
        iv[r] = Fp::from_u64((in.regs[r] >> (16 * k)) & 0xffff), ev[r] = Fp::from_u64(more ? (end.regs[r] >> (16 * k)) & 0xffff : 0);
      extra["regs.iv" + std::to_string(k)] = std::move(iv), extra["regs.ev" + std::to_string(k)] = std::move(ev);
    }
    whole[C::table::regs] = std::move(regs.t);
  }
  extra["mem.cb0"] = std::move(cb0), extra["mem.cb1"] = std::move(cb1);
  whole[C::table::mem] = std::move(chunk.t);
  whole[C::table::cpu] = std::move(cpu.t);
  cur_.cpu.reset();
  whole[C::table::io] = std::move(io.t);
  fixed_tables(it_, whole);

  // syscall: the chains go on from the start state (protocol:segments:io)
  core::TraceTable& sys = cur_.sys;
  sys.rows.resize(padded_height(sys.rows.size(), 2), std::vector<uint64_t>(sys.columns.size(), 0));
  core::fill_syscall_witness<Fp>(sys);  // eof and opos from 0: moved to the start state below
  for (const char* c : {"ipos", "iend", "eend", "oend"}) {
    sys.columns.push_back(c);
    for (auto& r : sys.rows) r.push_back(0);
  }
  {
    uint64_t ipos = in.ipos;
    const size_t real = sys.col("is_real"), mv_c = sys.col("mv"), out1_c = sys.col("out1"), eof_c = sys.col("eof"),
                 opos_c = sys.col("opos"), ostart_c = sys.col("ostart"), g_in_c = sys.col("g_in"), short_c = sys.col("short");
    const size_t ipos_c = sys.col("ipos"), iend_c = sys.col("iend"), eend_c = sys.col("eend"), oend_c = sys.col("oend");
    for (auto& r : sys.rows) {
      if (!r[real]) continue;
      const uint64_t mv = r[mv_c], out1 = r[out1_c];
      r[eof_c] = r[eof_c] | (in.eof ? 1 : 0);
      r[opos_c] += in.opos;
      r[ostart_c] = out1 ? r[opos_c] : 0;
      r[ipos_c] = ipos;
      ipos += r[g_in_c] * mv;
      r[iend_c] = ipos;
      r[eend_c] = r[eof_c] | r[short_c];
      r[oend_c] = r[opos_c] + out1 * mv;
    }
  }

  // the segment AIR's tables: the whole run's columns by name, its own columns, memb
  const spec::air::Spec& seg = spec::air::embedded_spec(spec::air::Mode::kSegmented);
  const spec::air::Spec& wsp = spec::air::embedded_spec();
  SegmentTrace out;
  for (const spec::air::Table& t : seg.tables) {
    if (t.name == "memb") {
      out.tables.push_back(TableColumns{mb[0].size(), std::move(mb)});
      continue;
    }
    if (t.name == "syscall") {
      out.tables.push_back(from_rows(sys, t));
      continue;
    }
    size_t wt = 0;
    while (wsp.tables[wt].name != t.name) ++wt;
    TableColumns& from = whole[wt];
    TableColumns tc;
    tc.height = from.height;
    for (const auto& c : t.columns) {
      const int k = wsp.tables[wt].column_index(c.name);
      if (k >= 0) {
        tc.columns.push_back(std::move(from.columns[static_cast<size_t>(k)]));
      } else {
        auto it = extra.find(t.name + "." + c.name);
        ZKRV_ASSERT(it != extra.end() && it->second.size() == tc.height, "segment builder: no column " + t.name + "." + c.name);
        tc.columns.push_back(std::move(it->second));
      }
    }
    out.tables.push_back(std::move(tc));
  }
  {
    const auto publics = spec::segment_publics(plan_.log_cycles, static_cast<uint32_t>(planned_.exit_code), plan_.boundaries,
                                               plan_.chunks, s);
    for (const auto& p : seg.publics) {
      const auto it = std::find_if(publics.begin(), publics.end(), [&](const auto& x) { return x.first == p.name; });
      ZKRV_ASSERT(it != publics.end(), "segment builder: no public " + p.name);
      out.publics.push_back(Fp::from_u64(it->second));
    }
  }
  count_lookups(out.tables, out.publics, threads_, spec::air::Mode::kSegmented);
  emit_(s, std::move(out));
}

}  // namespace

void build_segment_traces(const spec::ProgramImage& image, std::span<const uint8_t> input,
                          const spec::ExecOptions& options, const spec::RunPlan& plan, const spec::ExecResult& planned,
                          unsigned threads, const std::function<void(size_t, SegmentTrace&&)>& on_segment,
                          const std::function<bool(size_t)>& wanted) {
  if (planned.status != spec::ExitStatus::kExited || plan.cycles != planned.cycles || plan.count() == 0)
    throw std::invalid_argument("segment builder: the plan is not this run's");
  threads = resolve_threads(threads);
  Builder b(image, plan, planned, threads, wanted, on_segment);
  b.start(0);
  spec::ExecOptions o = options;
  o.trace = true, o.collect_stats = false, o.flow_sink = nullptr;
  o.trace_sink = [&](std::span<const spec::StepRecord> steps) {
    for (const auto& st : steps) b.step(st);
  };
  o.syscall_sink = [&](const spec::SyscallEvent& ev) { b.syscall(ev); };
  const spec::ExecResult run = opt::execute(image, input, o);
  if (run.status != planned.status || run.cycles != planned.cycles || run.exit_code != planned.exit_code ||
      run.output != planned.output || b.segment() + 1 != plan.count() || b.steps() != plan.segments.back().cycles)
    throw std::invalid_argument("segment builder: the traced run differs from the planned one");
  b.finish();
}

}  // namespace zkrv::opt::trace
