#include "reference/exec/executor.h"

#include <algorithm>
#include <map>
#include <set>

namespace zkrv::ref {
namespace {

using spec::FaultKind;
using spec::InsnClass;

// spec: isa:mem:* — sparse pages; a byte that was never written reads 0.
class Memory {
 public:
  explicit Memory(const spec::ProgramImage& image) : image_(image) {
    for (const auto& seg : image.segments)
      for (size_t i = 0; i < seg.data.size(); ++i) write_byte(seg.vaddr + i, seg.data[i]);
  }
  // spec: isa:mem:permissions — a byte is accessible for `flag` when a segment holding it
  // carries that flag; everything else (null page, stack guard, gaps, >= 2^32) faults.
  bool allowed(uint64_t addr, uint64_t size, uint32_t flag) const {
    if (addr >= spec::kAddressLimit || size > spec::kAddressLimit - addr) return false;
    for (uint64_t a = addr; a < addr + size; ++a) {
      bool ok = false;
      for (const auto& seg : image_.segments)
        if (a >= seg.vaddr && a < seg.vaddr + seg.memsz && (seg.flags & flag)) ok = true;
      if (!ok) return false;
    }
    return true;
  }
  uint8_t read_byte(uint64_t a) const {
    auto it = pages_.find(a / spec::kPageSize);
    return it == pages_.end() ? 0 : it->second[a % spec::kPageSize];
  }
  void write_byte(uint64_t a, uint8_t v) { pages_[a / spec::kPageSize][a % spec::kPageSize] = v; }
  // spec: isa:mem:little_endian
  uint64_t read(uint64_t a, unsigned size) const {
    uint64_t v = 0;
    for (unsigned i = 0; i < size; ++i) v |= uint64_t{read_byte(a + i)} << (8 * i);
    return v;
  }
  void write(uint64_t a, unsigned size, uint64_t v) {
    for (unsigned i = 0; i < size; ++i) write_byte(a + i, static_cast<uint8_t>(v >> (8 * i)));
  }

 private:
  const spec::ProgramImage& image_;
  std::map<uint64_t, std::array<uint8_t, spec::kPageSize>> pages_;
};

int64_t sext(uint64_t v, unsigned bits) {
  const unsigned s = 64 - bits;
  return static_cast<int64_t>(v << s) >> s;
}
using spec::sext32;

}  // namespace

spec::ExecResult execute(const spec::ProgramImage& image, std::span<const uint8_t> input,
                         const spec::ExecOptions& opt) {
  spec::ExecResult res;
  Memory mem(image);
  std::array<uint64_t, 32> x{};  // spec: isa:state:init — all registers start at 0
  uint64_t pc = image.entry;     // spec: isa:state:init — pc starts at the ELF entry
  size_t input_pos = 0;
  spec::RandomStream rng{opt.random_seed};
  std::set<uint64_t> pages;

  auto fault = [&](FaultKind kind, uint32_t insn, uint64_t address) {
    res.status = spec::ExitStatus::kFaulted;
    res.fault = {kind, pc, insn, address};
    res.pc = pc;
  };
  auto touch = [&](uint64_t addr, uint64_t size) {
    if (opt.collect_stats && size > 0)
      for (uint64_t p = addr / spec::kPageSize; p <= (addr + size - 1) / spec::kPageSize; ++p) pages.insert(p);
  };

  for (;;) {
    // spec: isa:fault:cycle_limit
    // The word reported is the instruction at pc that did not run (0 if pc is not executable).
    if (res.cycles >= opt.max_cycles) {
      fault(FaultKind::kCycleLimit, mem.allowed(pc, 4, spec::kFlagX) ? static_cast<uint32_t>(mem.read(pc, 4)) : 0, pc);
      break;
    }
    // spec: isa:fault:fetch — the 4 instruction bytes must lie in an executable segment.
    if (!mem.allowed(pc, 4, spec::kFlagX)) { fault(FaultKind::kFetch, 0, pc); break; }
    const uint32_t insn = static_cast<uint32_t>(mem.read(pc, 4));

    const unsigned opcode = insn & 0x7f, rd = (insn >> 7) & 31, f3 = (insn >> 12) & 7;
    const unsigned rs1 = (insn >> 15) & 31, rs2 = (insn >> 20) & 31, f7 = insn >> 25;
    const uint64_t imm_i = static_cast<uint64_t>(sext(insn >> 20, 12));
    const uint64_t imm_s = static_cast<uint64_t>(sext(((insn >> 25) << 5) | ((insn >> 7) & 31), 12));
    const uint64_t imm_b = static_cast<uint64_t>(sext((((insn >> 31) & 1) << 12) | (((insn >> 7) & 1) << 11) |
                                                     (((insn >> 25) & 63) << 5) | (((insn >> 8) & 15) << 1), 13));
    const uint64_t imm_u = static_cast<uint64_t>(sext(insn & 0xfffff000u, 32));
    const uint64_t imm_j = static_cast<uint64_t>(sext((((insn >> 31) & 1) << 20) | (insn & 0xff000) |
                                                     (((insn >> 20) & 1) << 11) | (((insn >> 21) & 0x3ff) << 1), 21));
    const uint64_t a = x[rs1], b = x[rs2];

    spec::StepRecord rec;
    rec.cycle = res.cycles;
    rec.pc = pc;
    rec.insn = insn;
    bool has_rd = false, uses_rs1 = false, uses_rs2 = false;
    uint64_t rd_val = 0, next_pc = pc + 4;
    InsnClass cls = InsnClass::kAlu;
    bool illegal = false, stop = false;

    auto jump_to = [&](uint64_t target) -> bool {
      if (target % 4 != 0) { fault(FaultKind::kMisalignedJump, insn, target); return false; }
      next_pc = target;
      return true;
    };

    switch (opcode) {
      case 0x37:  // spec: isa:rv64i:lui — rd = sext(imm[31:12] << 12)
        cls = InsnClass::kUpper; has_rd = true; rd_val = imm_u; break;
      case 0x17:  // spec: isa:rv64i:auipc — rd = pc + sext(imm[31:12] << 12)
        cls = InsnClass::kUpper; has_rd = true; rd_val = pc + imm_u; break;
      case 0x6f:  // spec: isa:rv64i:jal — rd = pc + 4; pc += imm (target must be 4-aligned)
        cls = InsnClass::kJump;
        if (!jump_to(pc + imm_j)) { stop = true; break; }
        has_rd = true; rd_val = pc + 4; break;
      case 0x67:  // spec: isa:rv64i:jalr — target = (rs1 + imm) & ~1, must be 4-aligned
        if (f3 != 0) { illegal = true; break; }
        cls = InsnClass::kJump; uses_rs1 = true;
        if (!jump_to((a + imm_i) & ~uint64_t{1})) { stop = true; break; }
        has_rd = true; rd_val = pc + 4; break;
      case 0x63: {  // spec: isa:rv64i:branch — beq bne blt bge bltu bgeu
        cls = InsnClass::kBranch; uses_rs1 = uses_rs2 = true;
        bool taken;
        switch (f3) {
          case 0: taken = a == b; break;
          case 1: taken = a != b; break;
          case 4: taken = static_cast<int64_t>(a) < static_cast<int64_t>(b); break;
          case 5: taken = static_cast<int64_t>(a) >= static_cast<int64_t>(b); break;
          case 6: taken = a < b; break;
          case 7: taken = a >= b; break;
          default: illegal = true; taken = false;
        }
        // spec: isa:fault:misaligned_jump — only a taken branch to a misaligned target faults.
        if (!illegal && taken && !jump_to(pc + imm_b)) stop = true;
        break;
      }
      case 0x03: {  // spec: isa:rv64i:load — lb lh lw ld lbu lhu lwu; misaligned allowed
        static constexpr int sizes[8] = {1, 2, 4, 8, 1, 2, 4, 0};
        if (f3 == 7) { illegal = true; break; }
        cls = InsnClass::kLoad; uses_rs1 = true;
        const unsigned size = sizes[f3];
        const uint64_t addr = a + imm_i;
        if (!mem.allowed(addr, size, spec::kFlagR)) { fault(FaultKind::kLoad, insn, addr); stop = true; break; }
        const uint64_t raw = mem.read(addr, size);
        rec.mem = {spec::MemKind::kLoad, static_cast<uint8_t>(size), addr, raw, raw};
        has_rd = true;
        rd_val = f3 >= 4 || size == 8 ? raw : static_cast<uint64_t>(sext(raw, 8 * size));
        if (addr % size != 0) ++res.stats.misaligned_accesses;
        touch(addr, size);
        break;
      }
      case 0x23: {  // spec: isa:rv64i:store — sb sh sw sd; misaligned allowed
        if (f3 > 3) { illegal = true; break; }
        cls = InsnClass::kStore; uses_rs1 = uses_rs2 = true;
        const unsigned size = 1u << f3;
        const uint64_t addr = a + imm_s;
        if (!mem.allowed(addr, size, spec::kFlagW)) { fault(FaultKind::kStore, insn, addr); stop = true; break; }
        const uint64_t before = mem.read(addr, size);
        const uint64_t value = size == 8 ? b : b & ((uint64_t{1} << (8 * size)) - 1);
        mem.write(addr, size, value);
        rec.mem = {spec::MemKind::kStore, static_cast<uint8_t>(size), addr, before, value};
        if (addr % size != 0) ++res.stats.misaligned_accesses;
        touch(addr, size);
        break;
      }
      case 0x13: {  // spec: isa:rv64i:op_imm — addi slti sltiu xori ori andi slli srli srai
        uses_rs1 = true; has_rd = true;
        const unsigned shamt = (insn >> 20) & 63, top = insn >> 26;
        switch (f3) {
          case 0: rd_val = a + imm_i; break;
          case 2: cls = InsnClass::kCompare; rd_val = static_cast<int64_t>(a) < static_cast<int64_t>(imm_i); break;
          case 3: cls = InsnClass::kCompare; rd_val = a < imm_i; break;
          case 4: rd_val = a ^ imm_i; break;
          case 6: rd_val = a | imm_i; break;
          case 7: rd_val = a & imm_i; break;
          case 1: cls = InsnClass::kShift; if (top != 0) illegal = true; rd_val = a << shamt; break;
          case 5:
            cls = InsnClass::kShift;
            if (top == 0) rd_val = a >> shamt;
            else if (top == 0x10) rd_val = static_cast<uint64_t>(static_cast<int64_t>(a) >> shamt);
            else illegal = true;
            break;
        }
        break;
      }
      case 0x1b: {  // spec: isa:rv64i:op_imm_32 — addiw slliw srliw sraiw (32-bit, sign-extended)
        uses_rs1 = true; has_rd = true;
        const unsigned shamt = (insn >> 20) & 31;
        const uint32_t lo = static_cast<uint32_t>(a);
        switch (f3) {
          case 0: rd_val = sext32(a + imm_i); break;
          case 1: cls = InsnClass::kShift; if (f7 != 0) illegal = true; rd_val = sext32(uint64_t{lo} << shamt); break;
          case 5:
            cls = InsnClass::kShift;
            if (f7 == 0) rd_val = sext32(lo >> shamt);
            else if (f7 == 0x20) rd_val = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(lo) >> shamt));
            else illegal = true;
            break;
          default: illegal = true;
        }
        break;
      }
      case 0x33: {  // spec: isa:rv64i:op and isa:rv64m:op — register-register, 64-bit
        uses_rs1 = uses_rs2 = true; has_rd = true;
        const unsigned sh = b & 63;
        const auto sa = static_cast<int64_t>(a), sb = static_cast<int64_t>(b);
        if (f7 == 0x00 || (f7 == 0x20 && (f3 == 0 || f3 == 5))) {
          switch (f3) {
            case 0: rd_val = f7 ? a - b : a + b; break;
            case 1: cls = InsnClass::kShift; rd_val = a << sh; break;
            case 2: cls = InsnClass::kCompare; rd_val = sa < sb; break;
            case 3: cls = InsnClass::kCompare; rd_val = a < b; break;
            case 4: rd_val = a ^ b; break;
            case 5: cls = InsnClass::kShift; rd_val = f7 ? static_cast<uint64_t>(sa >> sh) : a >> sh; break;
            case 6: rd_val = a | b; break;
            case 7: rd_val = a & b; break;
          }
        } else if (f7 == 0x01) {
          cls = f3 < 4 ? InsnClass::kMul : InsnClass::kDiv;
          switch (f3) {
            case 0: rd_val = a * b; break;  // spec: isa:rv64m:mul
            case 1: rd_val = static_cast<uint64_t>((__int128{sa} * __int128{sb}) >> 64); break;  // isa:rv64m:mulh
            case 2: rd_val = static_cast<uint64_t>((__int128{sa} * static_cast<__int128>(b)) >> 64); break;  // isa:rv64m:mulhsu
            case 3: rd_val = static_cast<uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64); break;  // isa:rv64m:mulhu
            // spec: isa:rv64m:div — x/0 = -1; INT64_MIN / -1 = INT64_MIN
            case 4: rd_val = b == 0 ? ~uint64_t{0} : (sa == INT64_MIN && sb == -1) ? a : static_cast<uint64_t>(sa / sb); break;
            // spec: isa:rv64m:divu — x/0 = 2^64 - 1
            case 5: rd_val = b == 0 ? ~uint64_t{0} : a / b; break;
            // spec: isa:rv64m:rem — x%0 = x; INT64_MIN % -1 = 0
            case 6: rd_val = b == 0 ? a : (sa == INT64_MIN && sb == -1) ? 0 : static_cast<uint64_t>(sa % sb); break;
            // spec: isa:rv64m:remu — x%0 = x
            case 7: rd_val = b == 0 ? a : a % b; break;
          }
        } else {
          illegal = true;
        }
        break;
      }
      case 0x3b: {  // spec: isa:rv64i:op_32 and isa:rv64m:op_32 — W forms, sign-extended
        uses_rs1 = uses_rs2 = true; has_rd = true;
        const uint32_t la = static_cast<uint32_t>(a), lb = static_cast<uint32_t>(b);
        const auto ia = static_cast<int32_t>(la), ib = static_cast<int32_t>(lb);
        const unsigned sh = lb & 31;
        if (f7 == 0x00 && f3 == 0) rd_val = sext32(uint64_t{la} + lb);
        else if (f7 == 0x20 && f3 == 0) rd_val = sext32(uint64_t{la} - lb);
        else if (f7 == 0x00 && f3 == 1) { cls = InsnClass::kShift; rd_val = sext32(uint64_t{la} << sh); }
        else if (f7 == 0x00 && f3 == 5) { cls = InsnClass::kShift; rd_val = sext32(la >> sh); }
        else if (f7 == 0x20 && f3 == 5) { cls = InsnClass::kShift; rd_val = static_cast<uint64_t>(int64_t{ia >> sh}); }
        else if (f7 == 0x01) {
          switch (f3) {
            case 0: cls = InsnClass::kMul; rd_val = sext32(uint64_t{la} * lb); break;  // isa:rv64m:mulw
            // spec: isa:rv64m:divw — 32-bit signed; x/0 = -1; INT32_MIN / -1 = INT32_MIN
            case 4: cls = InsnClass::kDiv; rd_val = lb == 0 ? ~uint64_t{0} : (ia == INT32_MIN && ib == -1) ? sext32(la) : static_cast<uint64_t>(int64_t{ia / ib}); break;
            // spec: isa:rv64m:divuw — 32-bit unsigned, result sign-extended; x/0 = -1
            case 5: cls = InsnClass::kDiv; rd_val = lb == 0 ? ~uint64_t{0} : sext32(la / lb); break;
            // spec: isa:rv64m:remw — x%0 = sext(x[31:0]); INT32_MIN % -1 = 0
            case 6: cls = InsnClass::kDiv; rd_val = lb == 0 ? sext32(la) : (ia == INT32_MIN && ib == -1) ? 0 : static_cast<uint64_t>(int64_t{ia % ib}); break;
            // spec: isa:rv64m:remuw — x%0 = sext(x[31:0])
            case 7: cls = InsnClass::kDiv; rd_val = lb == 0 ? sext32(la) : sext32(la % lb); break;
            default: illegal = true;
          }
        } else {
          illegal = true;
        }
        break;
      }
      case 0x0f:  // spec: isa:rv64i:fence — FENCE is a no-op; other MISC-MEM encodings are illegal
        cls = InsnClass::kSystem;
        if (f3 != 0) illegal = true;
        break;
      case 0x73:
        if (insn == 0x00100073) { fault(FaultKind::kBreakpoint, insn, pc); stop = true; break; }  // isa:fault:ebreak
        if (insn != 0x00000073) { illegal = true; break; }
        {  // spec: isa:sys:ecall — number in a7, arguments a0..a2, result in a0
          cls = InsnClass::kSystem;
          const uint64_t num = x[17], a0 = x[10], a1 = x[11], a2 = x[12];
          rec.rs1 = 17; rec.rs1_value = num; rec.rs2 = 10; rec.rs2_value = a0;
          spec::SyscallEvent ev{res.cycles, num, {a0, a1, a2}, 0, {}};
          if (num == spec::kSysExit || num == spec::kSysExitGroup) {  // spec: isa:sys:exit
            res.status = spec::ExitStatus::kExited;
            res.exit_code = static_cast<int32_t>(static_cast<uint32_t>(a0));
          } else {
            uint64_t ret;
            if (num == spec::kSysRead) {  // spec: isa:sys:read
              if (a0 != spec::kFdInput) {
                ret = static_cast<uint64_t>(-spec::kEbadf);
              } else {
                const uint64_t n = std::min<uint64_t>(a2, input.size() - input_pos);
                if (n > 0 && !mem.allowed(a1, n, spec::kFlagW)) { fault(FaultKind::kStore, insn, a1); stop = true; break; }
                for (uint64_t i = 0; i < n; ++i) mem.write_byte(a1 + i, input[input_pos + i]);
                ev.bytes.assign(input.begin() + static_cast<ptrdiff_t>(input_pos),
                                input.begin() + static_cast<ptrdiff_t>(input_pos + n));
                input_pos += n;
                res.stats.input_bytes_read += n;
                touch(a1, n);
                ret = n;
              }
            } else if (num == spec::kSysWrite) {  // spec: isa:sys:write
              if (a0 != spec::kFdOutput && a0 != spec::kFdLog) {
                ret = static_cast<uint64_t>(-spec::kEbadf);
              } else {
                if (a2 > 0 && !mem.allowed(a1, a2, spec::kFlagR)) { fault(FaultKind::kLoad, insn, a1); stop = true; break; }
                auto& sink = a0 == spec::kFdOutput ? res.output : res.log;
                for (uint64_t i = 0; i < a2; ++i) ev.bytes.push_back(mem.read_byte(a1 + i));
                sink.insert(sink.end(), ev.bytes.begin(), ev.bytes.end());
                if (a0 == spec::kFdOutput) res.stats.output_bytes += a2;
                touch(a1, a2);
                ret = a2;
              }
            } else if (num == spec::kSysRandomU64) {  // spec: isa:sys:random
              ret = rng.next();
            } else if (num == spec::kSysCostScopeStart || num == spec::kSysCostScopeEnd) {  // isa:sys:cost_scope
              ret = 0;
            } else if (num == spec::kSysCycleCount) {  // spec: isa:sys:cycle_count
              ret = res.cycles;
            } else {  // spec: isa:sys:unknown
              ret = static_cast<uint64_t>(-spec::kEnosys);
            }
            ev.result = ret;
            has_rd = true; rd_val = ret;
            rec.rd = 10;
          }
          if (opt.trace && opt.syscall_sink) opt.syscall_sink(ev);
          if (opt.trace) res.syscalls.push_back(std::move(ev));
        }
        if (!stop && res.status == spec::ExitStatus::kExited) stop = true;
        break;
      default:
        illegal = true;
    }

    if (illegal) { fault(FaultKind::kIllegalInstruction, insn, pc); break; }
    // A fault leaves no trace record and no state change; an exit is the last recorded cycle.
    if (res.fault.kind != FaultKind::kNone) break;

    if (opcode != 0x73) {
      rec.rs1 = uses_rs1 ? rs1 : 0; rec.rs1_value = uses_rs1 ? a : 0;
      rec.rs2 = uses_rs2 ? rs2 : 0; rec.rs2_value = uses_rs2 ? b : 0;
      rec.rd = has_rd ? rd : 0;
    }
    // spec: isa:state:x0 — writes to x0 do not stick.
    if (has_rd && rec.rd != 0) x[rec.rd] = rd_val;
    rec.rd_value = rec.rd != 0 ? rd_val : 0;
    rec.next_pc = stop ? pc : next_pc;
    if (stop) rec.next_pc = pc;  // exit: the machine halts at the ecall
    if (opt.collect_stats) ++res.stats.per_class[static_cast<size_t>(cls)];
    if (opt.trace) {
      if (opt.trace_sink) opt.trace_sink(std::span<const spec::StepRecord>(&rec, 1));
      else res.trace.push_back(rec);
    }
    ++res.cycles;
    if (stop) { res.pc = pc; break; }
    pc = next_pc;
  }
  res.regs = x;
  res.stats.pages_touched = pages.size();
  if (!opt.collect_stats) res.stats = {};
  return res;
}

}  // namespace zkrv::ref
