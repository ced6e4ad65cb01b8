#include "spec/run_segments.h"

#include "core/assert.h"

#include <algorithm>
#include <stdexcept>

namespace zkrv::spec {

uint64_t segment_count(uint64_t cycles, unsigned log_cycles) {
  const uint64_t n = (cycles >> log_cycles) + ((cycles & ((uint64_t{1} << log_cycles) - 1)) != 0);
  return std::max<uint64_t>(n, 1);
}

// spec: protocol:segments:cut
std::optional<std::string> check_segmenting(uint64_t cycles, unsigned log_cycles, uint64_t max_cycles) {
  if (log_cycles < kMinSegmentLog || log_cycles > kMaxSegmentLog)
    return "a segment must be 2^" + std::to_string(kMinSegmentLog) + " to 2^" + std::to_string(kMaxSegmentLog) +
           " cycles, not 2^" + std::to_string(log_cycles);
  const uint64_t n = segment_count(cycles, log_cycles);
  if (n > (max_cycles >> log_cycles))
    return std::to_string(n) + " segments of 2^" + std::to_string(log_cycles) + " cycles exceed the cycle bound of " +
           std::to_string(max_cycles);
  return std::nullopt;
}

TouchedMemory::TouchedMemory(const ProgramImage& image) : image_(image), pages_(kAddressLimit / kPageSize) {}

TouchedMemory::Page& TouchedMemory::page(uint64_t addr) {
  if (addr >= kAddressLimit) throw std::invalid_argument("touched address above 2^32");
  auto& p = pages_[addr >> 12];
  if (!p) {
    // spec: isa:mem:zero_fill — a byte starts as the file's, or 0
    p = std::make_unique<Page>();
    ++allocated_;
    const uint64_t lo = addr & ~(kPageSize - 1), hi = lo + kPageSize;
    for (const Segment& s : image_.segments) {
      const uint64_t b = std::max(lo, s.vaddr), e = std::min(hi, s.vaddr + s.data.size());
      for (uint64_t a = b; a < e; ++a) p->value[a - lo] = s.data[a - s.vaddr];
    }
  }
  return *p;
}

bool TouchedMemory::touch(uint64_t addr, uint64_t seg) {
  uint32_t& last = page(addr).last[addr & (kPageSize - 1)];
  if (last == seg + 1) return false;
  if (last == 0) ++count_;
  last = static_cast<uint32_t>(seg + 1);
  return true;
}

void TouchedMemory::write(uint64_t addr, uint8_t value) { page(addr).value[addr & (kPageSize - 1)] = value; }

bool TouchedMemory::touched(uint64_t addr) const {
  return addr < kAddressLimit && pages_[addr >> 12] && pages_[addr >> 12]->last[addr & (kPageSize - 1)] != 0;
}

uint64_t TouchedMemory::final_time(uint64_t addr) const {
  if (!touched(addr)) throw std::invalid_argument("final_time of an untouched byte");
  return pages_[addr >> 12]->last[addr & (kPageSize - 1)];
}

uint8_t TouchedMemory::final_value(uint64_t addr) const {
  if (!touched(addr)) throw std::invalid_argument("final_value of an untouched byte");
  return pages_[addr >> 12]->value[addr & (kPageSize - 1)];
}

RunPlanner::RunPlanner(const ProgramImage& image, unsigned log_cycles)
    : memory_(std::make_shared<TouchedMemory>(image)) {
  if (log_cycles < kMinSegmentLog || log_cycles > kMaxSegmentLog)
    throw std::invalid_argument(*check_segmenting(0, log_cycles, 0));
  plan_.log_cycles = log_cycles;
  // spec: protocol:segments:boundary — Σ_0 is the ELF's entry, registers 0, nothing read or written
  now_.pc = image.entry;
  plan_.boundaries.push_back(now_);
}

void RunPlanner::add_syscall(const SyscallEvent& ev) {
  if (ev.number == kSysExit || ev.number == kSysExitGroup) return;
  ZKRV_ASSERT(ev.cycle >= next_cycle_, "run planner: a syscall arrived after its step");
  pending_.push_back(ev);
}

void RunPlanner::close_segment() {
  plan_.segments.push_back(seg_);
  seg_ = RunSegment{};
  seg_.first_cycle = next_cycle_;
}

void RunPlanner::add_steps(std::span<const StepRecord> steps) {
  const uint64_t mask = (uint64_t{1} << plan_.log_cycles) - 1;
  for (const StepRecord& st : steps) {
    ZKRV_ASSERT(st.cycle == next_cycle_, "run planner: steps out of order");
    if (st.cycle != 0 && (st.cycle & mask) == 0) {
      // spec: protocol:segments:boundary — Σ_s: the state before the segment's first cycle
      close_segment();
      now_.pc = st.pc;
      plan_.boundaries.push_back(now_);
    }
    const uint64_t seg = st.cycle >> plan_.log_cycles;
    ++seg_.cycles;
    auto touch = [&](uint64_t a) { seg_.touched += memory_->touch(a, seg); };
    if (st.mem.kind != MemKind::kNone) {
      for (unsigned i = 0; i < st.mem.size; ++i) {
        touch(st.mem.address + i);
        if (st.mem.kind == MemKind::kStore) memory_->write(st.mem.address + i, static_cast<uint8_t>(st.mem.after >> (8 * i)));
      }
    }
    while (!pending_.empty() && pending_.front().cycle == st.cycle) {
      const SyscallEvent& ev = pending_.front();
      ++seg_.syscalls;
      const uint64_t fd = ev.args[0], buf = ev.args[1];
      if (ev.number == kSysRead && fd == kFdInput) {
        // spec: isa:sys:read — the bytes copied land at buf; fewer than asked is the end of input
        for (size_t i = 0; i < ev.bytes.size(); ++i) touch(buf + i), memory_->write(buf + i, ev.bytes[i]);
        now_.ipos += ev.bytes.size();
        if (ev.bytes.size() < ev.args[2]) now_.eof = true;
        seg_.io_bytes += ev.bytes.size();
      } else if (ev.number == kSysWrite && (fd == kFdOutput || fd == kFdLog)) {
        for (size_t i = 0; i < ev.bytes.size(); ++i) touch(buf + i);
        if (fd == kFdOutput) now_.opos += ev.bytes.size();
        seg_.io_bytes += ev.bytes.size();
      }
      pending_.pop_front();
    }
    ZKRV_ASSERT(pending_.empty() || pending_.front().cycle > st.cycle, "run planner: a syscall without its step");
    if (st.rd != 0) now_.regs[st.rd] = st.rd_value;
    last_pc_ = st.pc;
    ++next_cycle_;
  }
}

RunPlan RunPlanner::finish(const ExecResult& run) {
  if (run.status != ExitStatus::kExited) throw std::invalid_argument("only a run that exits is cut into segments");
  if (run.cycles != next_cycle_ || run.cycles == 0 || !pending_.empty())
    throw std::invalid_argument("run planner: fed " + std::to_string(next_cycle_) + " steps of a run of " +
                                std::to_string(run.cycles) + " cycles");
  close_segment();
  // spec: protocol:segments:boundary — Σ_N: the exit's pc, registers 0, the totals
  BoundaryState last = now_;
  last.pc = last_pc_;
  last.regs = {};
  plan_.boundaries.push_back(last);
  plan_.cycles = run.cycles;

  // spec: protocol:segments:memory — the touched addresses, increasing, cut into N near-equal
  // chunks: segment s takes ranks [s·T/N, (s+1)·T/N); C_{s+1} is its last address (C_s if none)
  const uint64_t n = plan_.segments.size(), t = memory_->count();
  plan_.chunks.assign(n + 1, 0);
  std::vector<uint64_t> ends(n);  // rank one past segment s's chunk
  for (uint64_t s = 0; s < n; ++s) ends[s] = static_cast<uint64_t>((static_cast<unsigned __int128>(s + 1) * t) / n);
  size_t s = 0;
  memory_->for_each([&](uint64_t rank, uint64_t addr) {
    while (s < n && rank >= ends[s]) ++s;
    plan_.chunks[s + 1] = addr;
    ++plan_.segments[s].chunk;
  });
  for (size_t i = 1; i <= n; ++i) plan_.chunks[i] = std::max(plan_.chunks[i], plan_.chunks[i - 1]);
  plan_.memory = memory_;
  return std::move(plan_);
}

void attach(RunPlanner& planner, ExecOptions& options, std::function<void(std::span<const StepRecord>)> also) {
  options.trace = true;
  options.syscall_sink = [&planner](const SyscallEvent& ev) { planner.add_syscall(ev); };
  options.trace_sink = [&planner, also = std::move(also)](std::span<const StepRecord> steps) {
    planner.add_steps(steps);
    if (also) also(steps);
  };
}

}  // namespace zkrv::spec
