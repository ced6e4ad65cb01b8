#include "optimized/exec/fast_executor.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <stdexcept>
#include <vector>

namespace zkrv::opt {
namespace {

using spec::FaultKind;
using spec::InsnClass;

enum Op : uint8_t {
  kFetchFault = 0,  // zero-filled decode slots are fetch faults
  kIllegal, kEbreak, kEcall, kFence,
  kLui, kAuipc, kJal, kJalr,
  kBeq, kBne, kBlt, kBge, kBltu, kBgeu,
  kLb, kLh, kLw, kLd, kLbu, kLhu, kLwu, kSb, kSh, kSw, kSd,
  kAddi, kSlti, kSltiu, kXori, kOri, kAndi, kSlli, kSrli, kSrai,
  kAddiw, kSlliw, kSrliw, kSraiw,
  kAdd, kSub, kSll, kSlt, kSltu, kXor, kSrl, kSra, kOr, kAnd,
  kMul, kMulh, kMulhsu, kMulhu, kDiv, kDivu, kRem, kRemu,
  kAddw, kSubw, kSllw, kSrlw, kSraw, kMulw, kDivw, kDivuw, kRemw, kRemuw,
  kCycleTrap,  // never decoded: run mode patches it in where the cycle limit falls
  kOpCount
};

constexpr uint8_t kUsesRs1 = 1, kUsesRs2 = 2, kHasRd = 4;
// JAL or branch whose target is 4-aligned and inside the code span: `imm` then holds the
// distance in decode slots, so a taken jump is `d += imm` with no address arithmetic.
constexpr uint8_t kDirect = 8;
constexpr unsigned kSink = 32;  // writes to x0 go to x[32], so x[0] stays 0 for free

// 16 bytes. Decoding fills `op`; run() then replaces it by the handler's address (threaded
// code), so dispatch is one load and one indirect jump.
struct Decoded {
  union {
    uint64_t op;
    const void* handler;
  };
  int32_t imm;
  uint8_t rd;   // kSink when the architectural rd is x0
  uint8_t rs1;
  uint8_t rs2;
  uint8_t cls : 4;
  uint8_t flags : 4;
};
static_assert(sizeof(Decoded) == 16);

int32_t sx(uint32_t v, unsigned bits) { return static_cast<int32_t>(v << (32 - bits)) >> (32 - bits); }

Decoded decode(uint32_t w) {
  Decoded d{};
  d.op = kIllegal;
  const unsigned opc = w & 0x7f, rd = (w >> 7) & 31, f3 = (w >> 12) & 7, f7 = w >> 25;
  d.rd = rd == 0 ? kSink : static_cast<uint8_t>(rd);
  d.rs1 = (w >> 15) & 31;
  d.rs2 = (w >> 20) & 31;
  auto set = [&](Op op, InsnClass c, uint8_t flags, int32_t imm) {
    d.op = op; d.cls = static_cast<uint8_t>(c) & 15; d.flags = flags & 15; d.imm = imm;
  };
  const int32_t ii = sx(w >> 20, 12);
  switch (opc) {
    case 0x37: set(kLui, InsnClass::kUpper, kHasRd, static_cast<int32_t>(w & 0xfffff000u)); break;
    case 0x17: set(kAuipc, InsnClass::kUpper, kHasRd, static_cast<int32_t>(w & 0xfffff000u)); break;
    case 0x6f:
      set(kJal, InsnClass::kJump, kHasRd,
          sx(((w >> 31) << 20) | (w & 0xff000) | (((w >> 20) & 1) << 11) | (((w >> 21) & 0x3ff) << 1), 21));
      break;
    case 0x67: if (f3 == 0) set(kJalr, InsnClass::kJump, kUsesRs1 | kHasRd, ii); break;
    case 0x63: {
      static constexpr Op ops[8] = {kBeq, kBne, kIllegal, kIllegal, kBlt, kBge, kBltu, kBgeu};
      if (ops[f3] != kIllegal)
        set(ops[f3], InsnClass::kBranch, kUsesRs1 | kUsesRs2,
            sx(((w >> 31) << 12) | (((w >> 7) & 1) << 11) | (((w >> 25) & 63) << 5) | (((w >> 8) & 15) << 1), 13));
      break;
    }
    case 0x03: {
      static constexpr Op ops[8] = {kLb, kLh, kLw, kLd, kLbu, kLhu, kLwu, kIllegal};
      if (ops[f3] != kIllegal) set(ops[f3], InsnClass::kLoad, kUsesRs1 | kHasRd, ii);
      break;
    }
    case 0x23: {
      static constexpr Op ops[4] = {kSb, kSh, kSw, kSd};
      if (f3 < 4) set(ops[f3], InsnClass::kStore, kUsesRs1 | kUsesRs2, sx(((w >> 25) << 5) | ((w >> 7) & 31), 12));
      break;
    }
    case 0x13: {
      const unsigned top = w >> 26;
      const int32_t sh = (w >> 20) & 63;
      switch (f3) {
        case 0: set(kAddi, InsnClass::kAlu, kUsesRs1 | kHasRd, ii); break;
        case 2: set(kSlti, InsnClass::kCompare, kUsesRs1 | kHasRd, ii); break;
        case 3: set(kSltiu, InsnClass::kCompare, kUsesRs1 | kHasRd, ii); break;
        case 4: set(kXori, InsnClass::kAlu, kUsesRs1 | kHasRd, ii); break;
        case 6: set(kOri, InsnClass::kAlu, kUsesRs1 | kHasRd, ii); break;
        case 7: set(kAndi, InsnClass::kAlu, kUsesRs1 | kHasRd, ii); break;
        case 1: if (top == 0) set(kSlli, InsnClass::kShift, kUsesRs1 | kHasRd, sh); break;
        case 5:
          if (top == 0) set(kSrli, InsnClass::kShift, kUsesRs1 | kHasRd, sh);
          else if (top == 0x10) set(kSrai, InsnClass::kShift, kUsesRs1 | kHasRd, sh);
          break;
      }
      break;
    }
    case 0x1b: {
      const int32_t sh = (w >> 20) & 31;
      if (f3 == 0) set(kAddiw, InsnClass::kAlu, kUsesRs1 | kHasRd, ii);
      else if (f3 == 1 && f7 == 0) set(kSlliw, InsnClass::kShift, kUsesRs1 | kHasRd, sh);
      else if (f3 == 5 && f7 == 0) set(kSrliw, InsnClass::kShift, kUsesRs1 | kHasRd, sh);
      else if (f3 == 5 && f7 == 0x20) set(kSraiw, InsnClass::kShift, kUsesRs1 | kHasRd, sh);
      break;
    }
    case 0x33: {
      static constexpr Op base[8] = {kAdd, kSll, kSlt, kSltu, kXor, kSrl, kOr, kAnd};
      static constexpr InsnClass bc[8] = {InsnClass::kAlu, InsnClass::kShift, InsnClass::kCompare,
                                          InsnClass::kCompare, InsnClass::kAlu, InsnClass::kShift,
                                          InsnClass::kAlu, InsnClass::kAlu};
      static constexpr Op m[8] = {kMul, kMulh, kMulhsu, kMulhu, kDiv, kDivu, kRem, kRemu};
      const uint8_t fl = kUsesRs1 | kUsesRs2 | kHasRd;
      if (f7 == 0) set(base[f3], bc[f3], fl, 0);
      else if (f7 == 0x20 && f3 == 0) set(kSub, InsnClass::kAlu, fl, 0);
      else if (f7 == 0x20 && f3 == 5) set(kSra, InsnClass::kShift, fl, 0);
      else if (f7 == 1) set(m[f3], f3 < 4 ? InsnClass::kMul : InsnClass::kDiv, fl, 0);
      break;
    }
    case 0x3b: {
      const uint8_t fl = kUsesRs1 | kUsesRs2 | kHasRd;
      if (f7 == 0 && f3 == 0) set(kAddw, InsnClass::kAlu, fl, 0);
      else if (f7 == 0x20 && f3 == 0) set(kSubw, InsnClass::kAlu, fl, 0);
      else if (f7 == 0 && f3 == 1) set(kSllw, InsnClass::kShift, fl, 0);
      else if (f7 == 0 && f3 == 5) set(kSrlw, InsnClass::kShift, fl, 0);
      else if (f7 == 0x20 && f3 == 5) set(kSraw, InsnClass::kShift, fl, 0);
      else if (f7 == 1 && f3 == 0) set(kMulw, InsnClass::kMul, fl, 0);
      else if (f7 == 1 && f3 == 4) set(kDivw, InsnClass::kDiv, fl, 0);
      else if (f7 == 1 && f3 == 5) set(kDivuw, InsnClass::kDiv, fl, 0);
      else if (f7 == 1 && f3 == 6) set(kRemw, InsnClass::kDiv, fl, 0);
      else if (f7 == 1 && f3 == 7) set(kRemuw, InsnClass::kDiv, fl, 0);
      break;
    }
    case 0x0f: if (f3 == 0) set(kFence, InsnClass::kSystem, 0, 0); break;
    case 0x73:
      if (w == 0x00000073) {
        set(kEcall, InsnClass::kSystem, kUsesRs1 | kUsesRs2 | kHasRd, 0);
        d.rs1 = 17; d.rs2 = 10; d.rd = 10;
      } else if (w == 0x00100073) {
        d.op = kEbreak;
      }
      break;
  }
  return d;
}

constexpr uint8_t kPermMixed = 0x80;  // page only partly covered, or by segments with different flags

template <typename T>
T* map_zeroed(uint64_t count) {
  void* p = mmap(nullptr, count * sizeof(T), PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  return static_cast<T*>(p);
}

template <typename T>
inline T ld(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <typename T>
inline void st(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

class Machine {
 public:
  Machine(const spec::ProgramImage& image, std::span<const uint8_t> input, const spec::ExecOptions& opt)
      : image_(image), input_(input), opt_(opt), rng_{opt.random_seed} {
    mem_ = map_zeroed<uint8_t>(spec::kAddressLimit + 16);
    perm_ = map_zeroed<uint8_t>(kPages);
    uint64_t lo = UINT64_MAX, hi = 0;
    for (const auto& s : image.segments) {
      if (!s.data.empty()) std::memcpy(mem_ + s.vaddr, s.data.data(), s.data.size());
      if (s.flags & spec::kFlagX) { lo = std::min(lo, s.vaddr); hi = std::max(hi, s.vaddr + s.memsz); }
    }
    build_permissions();
    if (lo == UINT64_MAX) lo = hi = 0;
    code_lo_ = lo & ~uint64_t{3};
    code_words_ = (hi - code_lo_) / 4;
    decoded_ = map_zeroed<Decoded>(code_words_ + 1);  // +1: falling off the end is a fetch fault
    for (const auto& s : image.segments) {
      if (!(s.flags & spec::kFlagX)) continue;
      for (uint64_t a = s.vaddr; a + 4 <= s.vaddr + s.memsz; a += 4) {
        uint32_t w;
        std::memcpy(&w, mem_ + a, 4);
        decoded_[(a - code_lo_) / 4] = decode(w);
      }
    }
    for (uint64_t i = 0; i < code_words_; ++i) {
      Decoded& e = decoded_[i];
      if (e.op != kJal && !(e.op >= kBeq && e.op <= kBgeu)) continue;
      const int64_t target = static_cast<int64_t>(i) * 4 + e.imm;  // bytes from code_lo_
      if (e.imm % 4 == 0 && target >= 0 && static_cast<uint64_t>(target) < code_words_ * 4) {
        e.imm /= 4;
        e.flags |= kDirect;
      }
    }
    if (opt.collect_stats) touched_ = map_zeroed<uint64_t>(kPages / 64);
    if (opt.trace) chunk_.resize(4096);
  }
  ~Machine() {
    munmap(mem_, spec::kAddressLimit + 16);
    munmap(perm_, kPages);
    if (touched_) munmap(touched_, kPages / 8);
    munmap(decoded_, (code_words_ + 1) * sizeof(Decoded));
  }
  Machine(const Machine&) = delete;
  Machine& operator=(const Machine&) = delete;

  template <bool kTrace, bool kStats, bool kEvents>
  void run(spec::ExecResult& res);

 private:
  template <bool kTrace, bool kStats, bool kEvents>
  bool syscall(uint64_t* x, uint64_t cycle, spec::ExecResult& res, FaultKind& fault_kind, uint64_t& fault_addr);

 private:
  void build_permissions() {
    // Walk the pages each segment covers; a page fully covered by segments of one flag set gets
    // those flags (fast path), any other page that a segment touches is checked byte-exactly.
    std::vector<uint64_t> pages;
    for (const auto& s : image_.segments)
      for (uint64_t p = s.vaddr / spec::kPageSize; p <= (s.vaddr + s.memsz - 1) / spec::kPageSize; ++p) pages.push_back(p);
    std::sort(pages.begin(), pages.end());
    pages.erase(std::unique(pages.begin(), pages.end()), pages.end());
    for (uint64_t p : pages) {
      const uint64_t b = p * spec::kPageSize, e = b + spec::kPageSize;
      uint64_t covered = 0;
      uint32_t flags = 0;
      bool mixed = false, first = true;
      for (const auto& s : image_.segments) {
        const uint64_t lo = std::max(b, s.vaddr), hi = std::min(e, s.vaddr + s.memsz);
        if (lo >= hi) continue;
        covered += hi - lo;
        if (first) flags = s.flags; else if (flags != s.flags) mixed = true;
        first = false;
      }
      perm_[p] = (mixed || covered != spec::kPageSize) ? kPermMixed : static_cast<uint8_t>(flags);
    }
  }
  // Page by page; only pages marked mixed are checked byte by byte against the segments.
  bool slow_ok(uint64_t a, uint64_t size, uint32_t flag) const {
    const uint64_t end = a + size;
    while (a < end) {
      const uint64_t page_end = std::min(end, (a / spec::kPageSize + 1) * spec::kPageSize);
      const uint8_t p = perm_[a >> 12];
      if (p & flag) { a = page_end; continue; }
      if (!(p & kPermMixed)) return false;
      for (; a < page_end; ++a) {
        bool ok = false;
        for (const auto& s : image_.segments)
          if (a >= s.vaddr && a < s.vaddr + s.memsz && (s.flags & flag)) { ok = true; break; }
        if (!ok) return false;
      }
    }
    return true;
  }
  bool mem_ok(uint64_t a, uint64_t size, uint32_t flag) const {
    if (a >= spec::kAddressLimit || size > spec::kAddressLimit - a) return false;
    if (size == 0) return true;
    const uint8_t p0 = perm_[a >> 12], p1 = perm_[(a + size - 1) >> 12];
    if (__builtin_expect((a >> 12) + 1 >= ((a + size - 1) >> 12), 1)) {
      if (p0 & p1 & flag) return true;
      if (!((p0 | p1) & kPermMixed)) return false;
    }
    return slow_ok(a, size, flag);
  }
  void touch(uint64_t a, uint64_t size) {
    if (size == 0) return;
    for (uint64_t p = a >> 12; p <= (a + size - 1) >> 12; ++p) touched_[p >> 6] |= uint64_t{1} << (p & 63);
  }
  uint64_t pc_of(const Decoded* d) const { return code_lo_ + 4 * static_cast<uint64_t>(d - decoded_); }
  uint32_t insn_at(uint64_t pc) const { return ld<uint32_t>(mem_ + pc); }
  // Trace records are written in place into a small reused chunk (no page faults on the hot
  // path), then handed to the sink or appended to ExecResult::trace.
  void commit(spec::ExecResult& res) {
    if (++chunk_used_ == chunk_.size()) flush(res);
  }
  void flush(spec::ExecResult& res) {
    if (chunk_used_ == 0) return;
    if (opt_.trace_sink) opt_.trace_sink(std::span<const spec::StepRecord>(chunk_.data(), chunk_used_));
    else res.trace.insert(res.trace.end(), chunk_.begin(), chunk_.begin() + static_cast<ptrdiff_t>(chunk_used_));
    chunk_used_ = 0;
  }

  const spec::ProgramImage& image_;
  std::span<const uint8_t> input_;
  const spec::ExecOptions& opt_;
  spec::RandomStream rng_;
  size_t input_pos_ = 0;
  uint8_t* mem_ = nullptr;
  static constexpr uint64_t kPages = spec::kAddressLimit / spec::kPageSize;
  // Both tables are lazily-zeroed mappings, so that setting up a short run costs no memset.
  uint8_t* perm_ = nullptr;        // per page: R/W/X flags, or kPermMixed
  uint64_t* touched_ = nullptr;    // pages touched as data (statistics mode)
  uint64_t code_lo_ = 0, code_words_ = 0;
  Decoded* decoded_ = nullptr;
  std::vector<spec::StepRecord> chunk_;
  // Run mode: instructions from each decode slot to the end of its straight-line run, inclusive.
  // A member, not a local of run(): clang mishandles objects with destructors in a function with
  // computed gotos ("undefined temporary symbol").
  std::vector<uint32_t> run_len_;
  std::vector<spec::FlowEvent> events_;  // run mode with flow_sink: a reused chunk
  void event(const spec::FlowEvent& e) {
    events_.push_back(e);
    if (events_.size() == 4096) flush_events();
  }
  void flush_events() {
    if (!events_.empty()) opt_.flow_sink(events_);
    events_.clear();
  }
  size_t chunk_used_ = 0;
};


// Every syscall but exit (isa:sys:*). Returns false with the fault filled in when a buffer is
// not accessible. Kept out of run() so that no object with a destructor lives in the scope of
// the computed gotos.
template <bool kTrace, bool kStats, bool kEvents>
bool Machine::syscall(uint64_t* x, uint64_t cycle, spec::ExecResult& res, FaultKind& fault_kind, uint64_t& fault_addr) {
  const uint64_t num = x[17], a0 = x[10], a1 = x[11], a2 = x[12];
  spec::SyscallEvent ev;
  if constexpr (kTrace) ev = {cycle, num, {a0, a1, a2}, 0, {}};
  uint64_t ret;
  if (num == spec::kSysRead) {
    if (a0 != spec::kFdInput) {
      ret = static_cast<uint64_t>(-spec::kEbadf);
    } else {
      const uint64_t n = std::min<uint64_t>(a2, input_.size() - input_pos_);
      if (n > 0 && !mem_ok(a1, n, spec::kFlagW)) { fault_kind = FaultKind::kStore; fault_addr = a1; return false; }
      if (n > 0) std::memcpy(mem_ + a1, input_.data() + input_pos_, n);
      if constexpr (kTrace) ev.bytes.assign(input_.begin() + static_cast<ptrdiff_t>(input_pos_), input_.begin() + static_cast<ptrdiff_t>(input_pos_ + n));
      if constexpr (kStats) touch(a1, n);
      input_pos_ += n;
      res.stats.input_bytes_read += n;
      ret = n;
    }
  } else if (num == spec::kSysWrite) {
    if (a0 != spec::kFdOutput && a0 != spec::kFdLog) {
      ret = static_cast<uint64_t>(-spec::kEbadf);
    } else {
      if (a2 > 0 && !mem_ok(a1, a2, spec::kFlagR)) { fault_kind = FaultKind::kLoad; fault_addr = a1; return false; }
      auto& sink = a0 == spec::kFdOutput ? res.output : res.log;
      if (a2 > 0) sink.insert(sink.end(), mem_ + a1, mem_ + a1 + a2);
      if constexpr (kTrace) { if (a2 > 0) ev.bytes.assign(mem_ + a1, mem_ + a1 + a2); }
      if constexpr (kStats) touch(a1, a2);
      if (a0 == spec::kFdOutput) res.stats.output_bytes += a2;
      ret = a2;
    }
  } else if (num == spec::kSysRandomU64) {
    ret = rng_.next();
  } else if (num == spec::kSysCostScopeStart || num == spec::kSysCostScopeEnd) {
    ret = 0;
  } else if (num == spec::kSysCycleCount) {
    ret = cycle;
  } else {
    ret = static_cast<uint64_t>(-spec::kEnosys);
  }
  x[10] = ret;
  if constexpr (kTrace) {
    ev.result = ret;
    if (opt_.syscall_sink) opt_.syscall_sink(ev);
    res.syscalls.push_back(std::move(ev));
  }
  return true;
}

// L_CycleLimit is unreachable in run mode; taking its address to silence the warning makes
// clang emit a reference to a deleted block, so the warning is silenced here instead.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-label"
template <bool kTrace, bool kStats, bool kEvents>
void Machine::run(spec::ExecResult& res) {
  static void* const labels[kOpCount] = {
      &&L_FetchFault, &&L_Illegal, &&L_Ebreak, &&L_Ecall, &&L_Fence,
      &&L_Lui, &&L_Auipc, &&L_Jal, &&L_Jalr,
      &&L_Beq, &&L_Bne, &&L_Blt, &&L_Bge, &&L_Bltu, &&L_Bgeu,
      &&L_Lb, &&L_Lh, &&L_Lw, &&L_Ld, &&L_Lbu, &&L_Lhu, &&L_Lwu, &&L_Sb, &&L_Sh, &&L_Sw, &&L_Sd,
      &&L_Addi, &&L_Slti, &&L_Sltiu, &&L_Xori, &&L_Ori, &&L_Andi, &&L_Slli, &&L_Srli, &&L_Srai,
      &&L_Addiw, &&L_Slliw, &&L_Srliw, &&L_Sraiw,
      &&L_Add, &&L_Sub, &&L_Sll, &&L_Slt, &&L_Sltu, &&L_Xor, &&L_Srl, &&L_Sra, &&L_Or, &&L_And,
      &&L_Mul, &&L_Mulh, &&L_Mulhsu, &&L_Mulhu, &&L_Div, &&L_Divu, &&L_Rem, &&L_Remu,
      &&L_Addw, &&L_Subw, &&L_Sllw, &&L_Srlw, &&L_Sraw, &&L_Mulw, &&L_Divw, &&L_Divuw, &&L_Remw, &&L_Remuw,
      &&L_CycleTrap};

  // Run mode counts cycles per straight-line run instead of per instruction. A run starts where
  // control arrives (entry, a jump, a taken branch) and goes straight on, through not-taken
  // branches, to the next JAL/JALR (or an instruction that always faults). A transfer adds
  // the length of the path it leaves; entering a run that would cross the cycle limit arms a
  // trap on the instruction where the limit falls. A trap reached by another path later (a
  // branch left the run first) is stale: it checks the real count, restores the instruction
  // and goes on. Trace and statistics modes count every instruction.
  constexpr bool kBlocks = !kTrace && !kStats;
  // Read from the table through a volatile load: clang 14 folds a plain read (or a separate
  // &&label) into a block address whose block it later drops ("undefined temporary symbol").
  void* const cycle_trap = *static_cast<void* const volatile*>(&labels[kCycleTrap]);
  uint64_t x[33] = {};
  uint8_t* const mem = mem_;
  const uint64_t max_cycles = opt_.max_cycles;
  uint64_t cycles = 0;
  Decoded* const base = decoded_;
  const uint64_t lo = code_lo_, words = code_words_;
  Decoded* d;
  Decoded* entry = nullptr;         // first instruction of the current run (run mode)
  Decoded* trap_at = nullptr;       // the armed cycle-limit trap, if any, and the handler it hides
  const void* trap_saved = nullptr;
  const Decoded* cur = nullptr;  // the instruction being executed (trace/stats modes)
  spec::StepRecord* rp = nullptr;  // the record being filled, in place in the chunk (trace mode)
  uint64_t fault_pc = 0, fault_addr = 0;
  FaultKind fault_kind = FaultKind::kNone;

  auto arm_trap = [&](Decoded* at) {
    if (trap_at) trap_at->handler = trap_saved;
    trap_at = at;
    trap_saved = at->handler;
    at->handler = cycle_trap;
  };
  auto locate = [&](uint64_t pc) -> Decoded* {
    const uint64_t off = pc - lo;
    return off / 4 < words ? base + off / 4 : nullptr;
  };

  // Begin a step: record the operands (trace) and remember which instruction runs.
  auto begin = [&]() {
    cur = d;
    if constexpr (kTrace) {
      rp = &chunk_[chunk_used_];
      *rp = {};
      rp->cycle = cycles;
      rp->pc = pc_of(d);
      rp->insn = insn_at(rp->pc);
      if (d->flags & kUsesRs1) { rp->rs1 = d->rs1; rp->rs1_value = x[d->rs1]; }
      if (d->flags & kUsesRs2) { rp->rs2 = d->rs2; rp->rs2_value = x[d->rs2]; }
    }
  };
  // Retire the step that `cur` began; d already points at the next instruction.
  auto retire = [&]() {
    if constexpr (kStats) ++res.stats.per_class[cur->cls];
    if constexpr (kTrace) {
      if ((cur->flags & kHasRd) && cur->rd != kSink) { rp->rd = cur->rd; rp->rd_value = x[cur->rd]; }
      rp->next_pc = pc_of(d);
      commit(res);
    }
  };

#define ZKRV_DISPATCH()                                                   \
  do {                                                                    \
    if constexpr (kTrace || kStats) retire();                             \
    if (__builtin_expect(++cycles >= max_cycles, 0)) goto L_CycleLimit;   \
    if constexpr (kTrace || kStats) begin();                              \
    goto* d->handler;                                                     \
  } while (0)
#define ZKRV_NEXT()                                   \
  do {                                                \
    ++d;                                              \
    if constexpr (kBlocks) goto* d->handler;          \
    else ZKRV_DISPATCH();                             \
  } while (0)
// Control moves to `target` after the instruction at d completed.
#define ZKRV_ENTER(target)                                                          \
  do {                                                                              \
    if constexpr (kBlocks) {                                                        \
      if constexpr (kEvents) {                                                      \
        Decoded* const t_ = (target);                                               \
        event({spec::FlowEvent::kJump, insn_at(pc_of(d)), cycles + static_cast<uint64_t>(d - entry), \
               pc_of(d), pc_of(t_), 0, 0});                                         \
      }                                                                             \
      cycles += static_cast<uint64_t>(d - entry) + 1;                               \
      d = entry = (target);                                                         \
      const uint64_t left_ = max_cycles - cycles;                                   \
      if (__builtin_expect(left_ < run_len_[static_cast<size_t>(d - base)], 0))      \
        arm_trap(d + left_);                                                        \
      goto* d->handler;                                                             \
    } else {                                                                        \
      d = (target);                                                                 \
      ZKRV_DISPATCH();                                                              \
    }                                                                               \
  } while (0)
#define RS1 x[d->rs1]
#define RS2 x[d->rs2]
#define RD x[d->rd]
#define IMM static_cast<uint64_t>(static_cast<int64_t>(d->imm))
#define LOAD(T, size)                                                                  \
  do {                                                                                 \
    const uint64_t a_ = RS1 + IMM;                                                     \
    if (__builtin_expect(!mem_ok(a_, size, spec::kFlagR), 0)) {                        \
      fault_kind = FaultKind::kLoad; fault_pc = pc_of(d); fault_addr = a_; goto L_FaultHere; } \
    const T v_ = ld<T>(mem + a_);                                                      \
    if constexpr (kStats) { if (a_ % size) ++res.stats.misaligned_accesses; touch(a_, size); } \
    if constexpr (kTrace) {                                                            \
      uint64_t raw_ = 0; std::memcpy(&raw_, mem + a_, size);                           \
      rp->mem = {spec::MemKind::kLoad, size, a_, raw_, raw_}; }                        \
    RD = static_cast<uint64_t>(v_);                                                    \
    ZKRV_NEXT();                                                                       \
  } while (0)
#define STORE(T, size)                                                                 \
  do {                                                                                 \
    const uint64_t a_ = RS1 + IMM;                                                     \
    if (__builtin_expect(!mem_ok(a_, size, spec::kFlagW), 0)) {                        \
      fault_kind = FaultKind::kStore; fault_pc = pc_of(d); fault_addr = a_; goto L_FaultHere; } \
    if constexpr (kStats) { if (a_ % size) ++res.stats.misaligned_accesses; touch(a_, size); } \
    if constexpr (kTrace) {                                                            \
      uint64_t old_ = 0; std::memcpy(&old_, mem + a_, size);                           \
      uint64_t new_ = 0; const T nv_ = static_cast<T>(RS2); std::memcpy(&new_, &nv_, size); \
      rp->mem = {spec::MemKind::kStore, size, a_, old_, new_}; }                       \
    st<T>(mem + a_, static_cast<T>(RS2));                                              \
    ZKRV_NEXT();                                                                       \
  } while (0)

  if constexpr (kBlocks) {
    run_len_.resize(words + 1);
    for (uint64_t i = words + 1; i-- > 0;) {
      const uint64_t op = base[i].op;
      const bool ends_run = op == kJal || op == kJalr || op == kFetchFault || op == kIllegal || op == kEbreak ||
                            i == words;
      run_len_[i] = ends_run ? 1 : run_len_[i + 1] + 1;
    }
  }
  for (uint64_t i = 0; i <= words; ++i) base[i].handler = labels[base[i].op];
  d = locate(image_.entry);
  if (max_cycles == 0) {
    fault_kind = FaultKind::kCycleLimit; fault_pc = image_.entry; fault_addr = image_.entry;
    goto L_Fault;
  }
  if (d == nullptr) {
    fault_kind = FaultKind::kFetch; fault_pc = image_.entry; fault_addr = image_.entry;
    goto L_Fault;
  }
  if constexpr (kBlocks) {
    entry = d;
    if (max_cycles < run_len_[static_cast<size_t>(d - base)]) arm_trap(d + max_cycles);
  }
  if constexpr (kTrace || kStats) begin();
  goto* d->handler;

L_FetchFault:
  fault_kind = FaultKind::kFetch; fault_pc = pc_of(d); fault_addr = fault_pc;
  goto L_FaultHere;
L_Illegal:
  fault_kind = FaultKind::kIllegalInstruction; fault_pc = pc_of(d); fault_addr = fault_pc;
  goto L_FaultHere;
L_Ebreak:
  fault_kind = FaultKind::kBreakpoint; fault_pc = pc_of(d); fault_addr = fault_pc;
  goto L_FaultHere;
L_Fence:
  ZKRV_NEXT();
L_Lui: RD = IMM; ZKRV_NEXT();
L_Auipc: RD = pc_of(d) + IMM; ZKRV_NEXT();
L_Jal: {
  if (__builtin_expect(d->flags & kDirect, 1)) {
    RD = pc_of(d) + 4;
    ZKRV_ENTER(d + d->imm);
  }
  const uint64_t pc = pc_of(d), t = pc + IMM;
  if (t & 3) { fault_kind = FaultKind::kMisalignedJump; fault_pc = pc; fault_addr = t; goto L_FaultHere; }
  RD = pc + 4;
  Decoded* n = locate(t);
  if (!n) { fault_addr = t; goto L_JumpOut; }
  ZKRV_ENTER(n);
}
L_Jalr: {
  const uint64_t pc = pc_of(d), t = (RS1 + IMM) & ~uint64_t{1};
  if (t & 3) { fault_kind = FaultKind::kMisalignedJump; fault_pc = pc; fault_addr = t; goto L_FaultHere; }
  RD = pc + 4;
  Decoded* n = locate(t);
  if (!n) { fault_addr = t; goto L_JumpOut; }
  ZKRV_ENTER(n);
}
#define BR(cond)                                                                          \
  do {                                                                                    \
    if (cond) {                                                                           \
      if (__builtin_expect(d->flags & kDirect, 1)) ZKRV_ENTER(d + d->imm);                \
      const uint64_t pc = pc_of(d), t = pc + IMM;                                         \
      if (t & 3) { fault_kind = FaultKind::kMisalignedJump; fault_pc = pc; fault_addr = t; goto L_FaultHere; } \
      Decoded* n = locate(t);                                                             \
      if (!n) { fault_addr = t; goto L_JumpOut; }                                         \
      ZKRV_ENTER(n);                                                                      \
    }                                                                                     \
    ZKRV_NEXT();                                                                          \
  } while (0)
L_Beq: BR(RS1 == RS2);
L_Bne: BR(RS1 != RS2);
L_Blt: BR(static_cast<int64_t>(RS1) < static_cast<int64_t>(RS2));
L_Bge: BR(static_cast<int64_t>(RS1) >= static_cast<int64_t>(RS2));
L_Bltu: BR(RS1 < RS2);
L_Bgeu: BR(RS1 >= RS2);
L_Lb: LOAD(int8_t, 1);
L_Lh: LOAD(int16_t, 2);
L_Lw: LOAD(int32_t, 4);
L_Ld: LOAD(uint64_t, 8);
L_Lbu: LOAD(uint8_t, 1);
L_Lhu: LOAD(uint16_t, 2);
L_Lwu: LOAD(uint32_t, 4);
L_Sb: STORE(uint8_t, 1);
L_Sh: STORE(uint16_t, 2);
L_Sw: STORE(uint32_t, 4);
L_Sd: STORE(uint64_t, 8);
L_Addi: RD = RS1 + IMM; ZKRV_NEXT();
L_Slti: RD = static_cast<int64_t>(RS1) < static_cast<int64_t>(IMM); ZKRV_NEXT();
L_Sltiu: RD = RS1 < IMM; ZKRV_NEXT();
L_Xori: RD = RS1 ^ IMM; ZKRV_NEXT();
L_Ori: RD = RS1 | IMM; ZKRV_NEXT();
L_Andi: RD = RS1 & IMM; ZKRV_NEXT();
L_Slli: RD = RS1 << d->imm; ZKRV_NEXT();
L_Srli: RD = RS1 >> d->imm; ZKRV_NEXT();
L_Srai: RD = static_cast<uint64_t>(static_cast<int64_t>(RS1) >> d->imm); ZKRV_NEXT();
L_Addiw: RD = static_cast<uint64_t>(int64_t{static_cast<int32_t>(RS1 + IMM)}); ZKRV_NEXT();
L_Slliw: RD = static_cast<uint64_t>(int64_t{static_cast<int32_t>(static_cast<uint32_t>(RS1) << d->imm)}); ZKRV_NEXT();
L_Srliw: RD = static_cast<uint64_t>(int64_t{static_cast<int32_t>(static_cast<uint32_t>(RS1) >> d->imm)}); ZKRV_NEXT();
L_Sraiw: RD = static_cast<uint64_t>(int64_t{static_cast<int32_t>(RS1) >> d->imm}); ZKRV_NEXT();
L_Add: RD = RS1 + RS2; ZKRV_NEXT();
L_Sub: RD = RS1 - RS2; ZKRV_NEXT();
L_Sll: RD = RS1 << (RS2 & 63); ZKRV_NEXT();
L_Slt: RD = static_cast<int64_t>(RS1) < static_cast<int64_t>(RS2); ZKRV_NEXT();
L_Sltu: RD = RS1 < RS2; ZKRV_NEXT();
L_Xor: RD = RS1 ^ RS2; ZKRV_NEXT();
L_Srl: RD = RS1 >> (RS2 & 63); ZKRV_NEXT();
L_Sra: RD = static_cast<uint64_t>(static_cast<int64_t>(RS1) >> (RS2 & 63)); ZKRV_NEXT();
L_Or: RD = RS1 | RS2; ZKRV_NEXT();
L_And: RD = RS1 & RS2; ZKRV_NEXT();
L_Mul: RD = RS1 * RS2; ZKRV_NEXT();
L_Mulh: RD = static_cast<uint64_t>((static_cast<__int128>(static_cast<int64_t>(RS1)) * static_cast<int64_t>(RS2)) >> 64); ZKRV_NEXT();
L_Mulhsu: RD = static_cast<uint64_t>((static_cast<__int128>(static_cast<int64_t>(RS1)) * static_cast<__int128>(RS2)) >> 64); ZKRV_NEXT();
L_Mulhu: RD = static_cast<uint64_t>((static_cast<unsigned __int128>(RS1) * RS2) >> 64); ZKRV_NEXT();
L_Div: {
  const int64_t a = static_cast<int64_t>(RS1), b = static_cast<int64_t>(RS2);
  RD = b == 0 ? ~uint64_t{0} : (b == -1 ? 0 - static_cast<uint64_t>(a) : static_cast<uint64_t>(a / b));
  ZKRV_NEXT();
}
L_Divu: RD = RS2 == 0 ? ~uint64_t{0} : RS1 / RS2; ZKRV_NEXT();
L_Rem: {
  const int64_t a = static_cast<int64_t>(RS1), b = static_cast<int64_t>(RS2);
  RD = b == 0 ? static_cast<uint64_t>(a) : (b == -1 ? 0 : static_cast<uint64_t>(a % b));
  ZKRV_NEXT();
}
L_Remu: RD = RS2 == 0 ? RS1 : RS1 % RS2; ZKRV_NEXT();
L_Addw: RD = static_cast<uint64_t>(int64_t{static_cast<int32_t>(RS1 + RS2)}); ZKRV_NEXT();
L_Subw: RD = static_cast<uint64_t>(int64_t{static_cast<int32_t>(RS1 - RS2)}); ZKRV_NEXT();
L_Sllw: RD = static_cast<uint64_t>(int64_t{static_cast<int32_t>(static_cast<uint32_t>(RS1) << (RS2 & 31))}); ZKRV_NEXT();
L_Srlw: RD = static_cast<uint64_t>(int64_t{static_cast<int32_t>(static_cast<uint32_t>(RS1) >> (RS2 & 31))}); ZKRV_NEXT();
L_Sraw: RD = static_cast<uint64_t>(int64_t{static_cast<int32_t>(RS1) >> (RS2 & 31)}); ZKRV_NEXT();
L_Mulw: RD = static_cast<uint64_t>(int64_t{static_cast<int32_t>(static_cast<uint32_t>(RS1) * static_cast<uint32_t>(RS2))}); ZKRV_NEXT();
L_Divw: {
  const int32_t a = static_cast<int32_t>(RS1), b = static_cast<int32_t>(RS2);
  const int32_t q = b == 0 ? -1 : (b == -1 ? static_cast<int32_t>(0u - static_cast<uint32_t>(a)) : a / b);
  RD = static_cast<uint64_t>(int64_t{q});
  ZKRV_NEXT();
}
L_Divuw: {
  const uint32_t a = static_cast<uint32_t>(RS1), b = static_cast<uint32_t>(RS2);
  RD = static_cast<uint64_t>(int64_t{static_cast<int32_t>(b == 0 ? ~0u : a / b)});
  ZKRV_NEXT();
}
L_Remw: {
  const int32_t a = static_cast<int32_t>(RS1), b = static_cast<int32_t>(RS2);
  RD = static_cast<uint64_t>(int64_t{b == 0 ? a : (b == -1 ? 0 : a % b)});
  ZKRV_NEXT();
}
L_Remuw: {
  const uint32_t a = static_cast<uint32_t>(RS1), b = static_cast<uint32_t>(RS2);
  RD = static_cast<uint64_t>(int64_t{static_cast<int32_t>(b == 0 ? a : a % b)});
  ZKRV_NEXT();
}
L_Ecall: {
  const uint64_t num = x[17];
  if constexpr (kEvents)
    event({spec::FlowEvent::kEcall, 0x73, cycles + static_cast<uint64_t>(d - entry), pc_of(d), 0, num, x[10]});
  if (num == spec::kSysExit || num == spec::kSysExitGroup) {
    res.status = spec::ExitStatus::kExited;
    res.exit_code = static_cast<int32_t>(static_cast<uint32_t>(x[10]));
    if constexpr (kStats) ++res.stats.per_class[cur->cls];
    if constexpr (kTrace) {
      rp->next_pc = pc_of(d);
      commit(res);
      res.syscalls.push_back({cycles, num, {x[10], x[11], x[12]}, 0, {}});
      if (opt_.syscall_sink) opt_.syscall_sink(res.syscalls.back());
    }
    res.pc = pc_of(d);
    if constexpr (kBlocks) cycles += static_cast<uint64_t>(d - entry) + 1;
    else ++cycles;
    goto L_Done;
  }
  uint64_t now = cycles;  // this ecall's cycle (isa:sys:cycle_count): run mode counts at a run's end
  if constexpr (kBlocks) now += static_cast<uint64_t>(d - entry);
  if (!syscall<kTrace, kStats, kEvents>(x, now, res, fault_kind, fault_addr)) {
    fault_pc = pc_of(d);
    goto L_FaultHere;
  }
  ZKRV_NEXT();
}

L_JumpOut:
  // The jump completed; the next fetch (at fault_addr) is outside every executable segment.
  if constexpr (kEvents)
    event({spec::FlowEvent::kJump, insn_at(pc_of(d)), cycles + static_cast<uint64_t>(d - entry), pc_of(d), fault_addr, 0, 0});
  if constexpr (kTrace || kStats) {
    if constexpr (kStats) ++res.stats.per_class[cur->cls];
    if constexpr (kTrace) {
      if ((cur->flags & kHasRd) && cur->rd != kSink) { rp->rd = cur->rd; rp->rd_value = x[cur->rd]; }
      rp->next_pc = fault_addr;
      commit(res);
    }
  }
  if constexpr (kBlocks) cycles += static_cast<uint64_t>(d - entry) + 1;
  else ++cycles;
  if (cycles >= max_cycles) { fault_kind = FaultKind::kCycleLimit; fault_pc = fault_addr; goto L_Fault; }
  fault_kind = FaultKind::kFetch; fault_pc = fault_addr;
  goto L_Fault;

L_CycleLimit:  // trace and statistics modes
  fault_kind = FaultKind::kCycleLimit; fault_pc = pc_of(d); fault_addr = fault_pc;
  goto L_Fault;

L_CycleTrap:  // run mode: the armed instruction where the cycle limit may fall
  if (cycles + static_cast<uint64_t>(d - entry) < max_cycles) {  // stale: budget left
    d->handler = trap_saved;
    trap_at = nullptr;
    goto* d->handler;
  }
  fault_kind = FaultKind::kCycleLimit; fault_pc = pc_of(d); fault_addr = fault_pc;
  goto L_FaultHere;

L_FaultHere:  // a fault at d: in run mode, count the instructions of this run that completed
  if constexpr (kBlocks) cycles += static_cast<uint64_t>(d - entry);
  goto L_Fault;

L_Fault:
  res.status = spec::ExitStatus::kFaulted;
  res.fault.kind = fault_kind;
  res.fault.pc = fault_pc;
  res.fault.address = fault_kind == FaultKind::kFetch || fault_kind == FaultKind::kCycleLimit ? fault_pc : fault_addr;
  {
    // The faulting instruction word (for the cycle limit, the one that did not run); 0 when
    // the fetch itself failed or pc is not executable.
    Decoded* f = locate(fault_pc);
    const bool executable = f && (f == trap_at ? trap_saved : f->handler) != labels[kFetchFault];
    res.fault.insn = fault_kind == FaultKind::kFetch || !executable ? 0 : insn_at(fault_pc);
  }
  res.pc = fault_pc;

L_Done:
  if constexpr (kTrace) flush(res);
  if constexpr (kEvents) {
    event({spec::FlowEvent::kEnd, 0, cycles, res.pc, 0, 0, 0});
    flush_events();
  }
  res.cycles = cycles;
  for (int i = 0; i < 32; ++i) res.regs[i] = x[i];
  if constexpr (kStats) {
    uint64_t n = 0;
    for (uint64_t i = 0; i < kPages / 64; ++i) n += static_cast<uint64_t>(__builtin_popcountll(touched_[i]));
    res.stats.pages_touched = n;
  }
#undef ZKRV_DISPATCH
#undef ZKRV_NEXT
#undef ZKRV_ENTER
#undef RS1
#undef RS2
#undef RD
#undef IMM
#undef LOAD
#undef STORE
#undef BR
}

#pragma GCC diagnostic pop

}  // namespace

spec::ExecResult execute(const spec::ProgramImage& image, std::span<const uint8_t> input,
                         const spec::ExecOptions& options) {
  spec::ExecResult res;
  Machine m(image, input, options);
  if (options.trace) {
    if (options.collect_stats) m.run<true, true, false>(res); else m.run<true, false, false>(res);
  } else {
    if (options.collect_stats) m.run<false, true, false>(res);
    else if (options.flow_sink) m.run<false, false, true>(res);
    else m.run<false, false, false>(res);
  }
  if (!options.collect_stats) res.stats = {};
  return res;
}

}  // namespace zkrv::opt
