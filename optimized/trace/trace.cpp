#include "optimized/trace/trace.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "optimized/trace/parts.h"
#include "core/air/layout.h"
#include "core/air/witness.h"
#include "core/assert.h"
#include "optimized/common/parallel.h"
#include "optimized/exec/fast_executor.h"
#include "spec/air/embedded.h"

namespace zkrv::opt::trace {
namespace detail {

// The groups of columns the code below indexes as base + k: the spec declares them in a row.
static_assert(C::cpu::i31 == C::cpu::i8 + 23 && C::cpu::a_v3 == C::cpu::a_v0 + 3 && C::cpu::b_v3 == C::cpu::b_v0 + 3);
static_assert(C::cpu::d_old3 == C::cpu::d_old0 + 3 && C::cpu::d_v3 == C::cpu::d_v0 + 3 && C::cpu::c3 == C::cpu::c0 + 3);
static_assert(C::cpu::s3 == C::cpu::s0 + 3 && C::cpu::opb3 == C::cpu::opb0 + 3 && C::cpu::res3 == C::cpu::res0 + 3);
static_assert(C::cpu::mo7 == C::cpu::mo0 + 7 && C::cpu::mv7 == C::cpu::mv0 + 7 && C::cpu::mn7 == C::cpu::mn0 + 7);
static_assert(C::cpu::mw7 == C::cpu::mw0 + 7 && C::cpu::mt7 == C::cpu::mt0 + 7 && C::cpu::mda7 == C::cpu::mda0 + 7);
static_assert(C::cpu::mdb7 == C::cpu::mdb0 + 7 && C::cpu::sb7 == C::cpu::sb0 + 7 && C::cpu::lv7 == C::cpu::lv0 + 7);
static_assert(C::alu::a3 == C::alu::a0 + 3 && C::alu::b3 == C::alu::b0 + 3 && C::alu::r3 == C::alu::r0 + 3);
static_assert(C::alu::t3 == C::alu::t0 + 3 && C::alu::c3 == C::alu::c0 + 3 && C::alu::ab7 == C::alu::ab0 + 7);
static_assert(C::alu::bb7 == C::alu::bb0 + 7 && C::alu::nb7 == C::alu::nb0 + 7);
static_assert(C::mul::a3 == C::mul::a0 + 3 && C::mul::b3 == C::mul::b0 + 3 && C::mul::r3 == C::mul::r0 + 3);
static_assert(C::mul::p7 == C::mul::p0 + 7 && C::mul::kl6 == C::mul::kl0 + 6 && C::mul::kh6 == C::mul::kh0 + 6);
static_assert(C::mul::h3 == C::mul::h0 + 3 && C::mul::bw3 == C::mul::bw0 + 3);
static_assert(C::shift::a3 == C::shift::a0 + 3 && C::shift::b3 == C::shift::b0 + 3 && C::shift::r3 == C::shift::r0 + 3);
static_assert(C::shift::q3 == C::shift::q0 + 3 && C::shift::x3 == C::shift::x0 + 3 && C::shift::y3 == C::shift::y0 + 3);
static_assert(C::div::a3 == C::div::a0 + 3 && C::div::b3 == C::div::b0 + 3 && C::div::r3 == C::div::r0 + 3);
static_assert(C::div::x3 == C::div::x0 + 3 && C::div::y3 == C::div::y0 + 3 && C::div::q3 == C::div::q0 + 3);
static_assert(C::div::m3 == C::div::m0 + 3 && C::div::l3 == C::div::l0 + 3 && C::div::h3 == C::div::h0 + 3);
static_assert(C::div::c3 == C::div::c0 + 3 && C::div::ay3 == C::div::ay0 + 3 && C::div::cy2 == C::div::cy0 + 2);
static_assert(C::div::am3 == C::div::am0 + 3 && C::div::cm2 == C::div::cm0 + 2 && C::div::t3 == C::div::t0 + 3);
static_assert(C::div::e2 == C::div::e0 + 2 && C::regs::final_v3 == C::regs::final_v0 + 3);
static_assert(C::pow2::q3 == C::pow2::q0 + 3);

using spec::sext32;

// 1/v for the small values the witnesses invert (sums of four limbs, shift amounts, register
// numbers): a table by the recurrence 1/i = −⌊p/i⌋ · 1/(p mod i); larger values by exponentiation.
Fp inverse(uint64_t v) {
  constexpr size_t kN = size_t{1} << 18;
  static const std::vector<Fp> table = [] {
    std::vector<Fp> inv(kN);
    inv[1] = Fp::from_u64(1);
    for (uint64_t i = 2; i < kN; ++i) inv[i] = Fp::from_u64(Fp::P - Fp::P / i) * inv[Fp::P % i];
    return inv;
  }();
  return v < kN ? table[v] : Fp::from_u64(v).inverse();
}
Fp inverse(Fp v) { return inverse(v.value()); }

ImageTables image_tables(const spec::ProgramImage& image) {
  ImageTables it;
  for (const auto& s : image.segments) it.sorted.push_back(&s);
  std::sort(it.sorted.begin(), it.sorted.end(), [](auto* a, auto* b) { return a->vaddr < b->vaddr; });
  for (const auto* s : it.sorted) {
    if ((s->flags & spec::kFlagR) && s->memsz > 0) {
      it.segs.push_back({s->vaddr, s->vaddr + s->data.size(), s->vaddr + s->memsz, (s->flags & spec::kFlagW) ? 1u : 0u, s});
      it.image_bytes += s->data.size();
    }
    if (!(s->flags & spec::kFlagX)) continue;
    const uint64_t lo = (s->vaddr + 3) / 4 * 4;
    Rom::Range r{lo, lo, it.rom.pc.size()};
    for (uint64_t a = lo; a + 4 <= s->vaddr + s->memsz; a += 4) {
      uint32_t w = 0;
      for (uint64_t k = 0; k < 4; ++k) {
        const uint64_t off = a + k - s->vaddr;
        w |= uint32_t{off < s->data.size() ? s->data[off] : uint8_t{0}} << (8 * k);
      }
      it.rom.pc.push_back(a), it.rom.insn.push_back(w);
      r.hi = a + 4;
    }
    if (r.hi > r.lo) it.rom.ranges.push_back(r);
  }
  return it;
}

// ---- the cpu table ----

// opcode -> the cpu table's class flag column (0: none)
size_t opcode_flag(uint32_t opcode) {
  switch (opcode) {
    case 0x37: return C::cpu::f_lui;
    case 0x17: return C::cpu::f_auipc;
    case 0x6f: return C::cpu::f_jal;
    case 0x67: return C::cpu::f_jalr;
    case 0x63: return C::cpu::f_branch;
    case 0x03: return C::cpu::f_load;
    case 0x23: return C::cpu::f_store;
    case 0x13: return C::cpu::f_opimm;
    case 0x33: return C::cpu::f_op;
    case 0x1b: return C::cpu::f_opimm32;
    case 0x3b: return C::cpu::f_op32;
    case 0x73: return C::cpu::f_system;
    case 0x0f: return C::cpu::f_fence;
    default: return 0;
  }
}
static_assert(C::cpu::f_lui != 0);

// The rest of a real cpu row, from its own columns (rows are independent: run in parallel).
void cpu_row(Table& c, size_t i, uint64_t exit_row, const Rom& rom, Failure& fail) {
  const uint32_t insn = static_cast<uint32_t>(c.get(C::cpu::insn, i));
  const uint64_t pc = c.get(C::cpu::pc, i), next_pc = c.get(C::cpu::next_pc, i);
  const uint64_t a_val = c.value(C::cpu::a_v0, i), b_val = c.value(C::cpu::b_v0, i), now = c.value(C::cpu::d_v0, i);
  const uint64_t wr = c.get(C::cpu::wr, i);
  c.set(C::cpu::b0, i, insn & 0xff), c.set(C::cpu::rd0, i, (insn >> 7) & 1);
  for (size_t k = 8; k < 32; ++k) c.set(C::cpu::i8 + k - 8, i, (insn >> k) & 1);
  c.set(C::cpu::rd, i, (insn >> 7) & 31), c.set(C::cpu::funct3, i, (insn >> 12) & 7);
  c.set(C::cpu::rs1, i, (insn >> 15) & 31), c.set(C::cpu::rs2, i, (insn >> 20) & 31), c.set(C::cpu::funct7, i, insn >> 25);
  const uint32_t opcode = insn & 0x7f;
  const size_t flag = opcode_flag(opcode);
  if (!flag) return fail.set(i, false, "trace holds an instruction with an unknown opcode");
  c.set(flag, i, 1);
  if (!rom.contains(pc)) return fail.set(i, false, "trace fetched outside the executable segments");
  const bool ecall = opcode == 0x73, last = i == exit_row;
  c.set(C::cpu::wr_zero, i, wr == 0);
  c.set(C::cpu::wr_inv, i, wr ? inverse(wr) : Fp());
  c.set(C::cpu::link, i, (opcode == 0x6f || opcode == 0x67) && wr != 0);
  c.set(C::cpu::pc0, i, pc & 0xffff), c.set(C::cpu::pc1, i, pc >> 16);
  auto add64 = [&](uint64_t x, uint64_t y, bool out) {
    uint64_t carry = 0;
    for (size_t k = 0; k < 4; ++k) {
      const uint64_t limb = ((x >> (16 * k)) & 0xffff) + ((y >> (16 * k)) & 0xffff) + carry;
      if (out) c.set(C::cpu::s0 + k, i, limb & 0xffff);
      carry = limb >> 16;
      c.set(C::cpu::c0 + k, i, carry);
    }
  };
  const uint64_t imm_u = sext32(insn & 0xfffff000u);
  const uint64_t imm_i = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(insn)) >> 20);
  if (opcode == 0x17 && wr != 0) add64(pc, imm_u, false);  // the sum itself is d_v
  if (opcode == 0x67) {
    add64(a_val, imm_i, true);
    const uint64_t s0 = c.get(C::cpu::s0, i);
    c.set(C::cpu::half, i, s0 >> 1), c.set(C::cpu::lowbit, i, s0 & 1);
  }
  if (opcode == 0x03 || opcode == 0x23) {  // the address, the active bytes, a store's bytes
    const uint64_t imm_s = static_cast<uint64_t>(
        static_cast<int64_t>(static_cast<int32_t>(((insn >> 25) << 5) | ((insn >> 7) & 31)) << 20) >> 20);
    add64(a_val, opcode == 0x03 ? imm_i : imm_s, true);
    const size_t size = size_t{1} << ((insn >> 12) & 3);
    for (size_t j = 0; j < size; ++j) c.set(C::cpu::mo0 + j, i, 1);
    if (opcode == 0x23)
      for (size_t j = 0; j < 8; ++j) {
        c.set(C::cpu::sb0 + j, i, (b_val >> (8 * j)) & 0xff);
        if (j < size) c.set(C::cpu::mn0 + j, i, (b_val >> (8 * j)) & 0xff);
      }
  }
  {  // the exit ecall (a7 = 93 or 94) and, on the other ecalls, the inverse that proves a7 is not
    const Fp e = (Fp::from_u64(a_val & 0xffff) - Fp::from_u64(93)) * (Fp::from_u64(a_val & 0xffff) - Fp::from_u64(94));
    const Fp z = e + Fp::from_u64(4294967296) * Fp::from_u64(((a_val >> 16) & 0xffff) + ((a_val >> 32) & 0xffff) + (a_val >> 48));
    const bool exit = ecall && (a_val == spec::kSysExit || a_val == spec::kSysExitGroup);
    if (exit != (ecall && last)) return fail.set(i, true, "trace builder: the exit ecall is not the last cycle");
    c.set(C::cpu::sys_exit, i, exit);
    c.set(C::cpu::exit_e, i, ecall ? e : Fp());
    c.set(C::cpu::exit_inv, i, ecall && !exit ? z.inverse() : Fp());
  }
  // spec: cpu:c:sh, cpu:c:sr, cpu:c:alt, cpu:c:aop, cpu:c:opb0..3 (ref::air::derive_alu_operands;
  // the flags and bits of a built row are 0 or 1, so the field formulas are these integers)
  auto bit = [&](unsigned k) -> uint64_t { return (insn >> k) & 1; };
  const uint64_t f_op = opcode == 0x33, f_op32 = opcode == 0x3b, f_opimm = opcode == 0x13, f_opimm32 = opcode == 0x1b,
                 f_branch = opcode == 0x63;
  const uint64_t reg = f_op + f_op32, imm = f_opimm + f_opimm32;
  const uint64_t sh = bit(12) * (1 - bit(13)), sr = bit(12) * bit(14) * (1 - bit(13));
  const uint64_t alt = reg * bit(30) + imm * sr * bit(30);
  const uint64_t aop = ((insn >> 12) & 7) + 8 * alt + 16 * (f_op32 + f_opimm32) + 32 * reg * bit(25) + 64 * f_branch;
  c.set(C::cpu::sh, i, sh), c.set(C::cpu::sr, i, sr), c.set(C::cpu::alt, i, alt), c.set(C::cpu::aop, i, aop);
  const uint64_t rbsel = reg + f_branch;
  uint64_t opb = 0;
  for (size_t k = 0; k < 4; ++k) {
    const uint64_t limb = k == 0 ? ((insn >> 20) & 0xfff) + 61440 * bit(31) : 65535 * bit(31);
    const uint64_t v = rbsel * ((b_val >> (16 * k)) & 0xffff) + imm * limb;
    c.set(C::cpu::opb0 + k, i, v);
    opb |= (v & 0xffff) << (16 * k);
  }
  // the ALU: operation, second operand, result (checked against the executor's)
  if (opcode == 0x33 || opcode == 0x13 || opcode == 0x3b || opcode == 0x1b || opcode == 0x63) {
    const auto res = core::alu_result(aop, a_val, opb);
    if (!res) return fail.set(i, false, "trace holds a reserved ALU or branch encoding");
    const uint64_t imm_b = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(
                               ((insn >> 31) << 12) | (((insn >> 7) & 1) << 11) | (((insn >> 25) & 63) << 5) |
                               (((insn >> 8) & 15) << 1)) << 19) >> 19);
    const bool taken_ok = opcode != 0x63 || next_pc == (*res ? pc + imm_b : pc + 4);
    if ((opcode != 0x63 && wr != 0 && *res != now) || !taken_ok)
      return fail.set(i, true, "trace builder: the ALU result differs from the trace record");
    c.limbs(C::cpu::res0, i, *res);
  }
}

// ---- the memory argument (ref::air::replay_memory) ----

void replay_accesses(Table& cpu, uint64_t rows, uint64_t c0, Table& io, size_t io_rows, Memory& mem, Failure& fail) {
  size_t next_io = 0;
  auto io_access = [&](size_t r) {
    Memory::Token& st = mem.token(io.get(C::io::addr, r));
    const uint64_t ts = io.get(C::io::ts, r), gap = ts - st.ts - 1;
    io.set(C::io::prev_ts, r, st.ts), io.set(C::io::old, r, st.value), io.set(C::io::w, r, st.w);
    io.set(C::io::dt0, r, gap & 0xffff), io.set(C::io::dt1, r, (gap >> 16) & 0xffff);
    st.ts = ts, st.value = static_cast<uint8_t>(io.get(C::io::new_, r));
  };
  for (size_t r = 0; r < rows; ++r) {
    const uint64_t ts = 4 * (c0 + r) + 3;
    for (; next_io < io_rows && io.get(C::io::ts, next_io) <= ts; ++next_io) io_access(next_io);
    const bool load = cpu.get(C::cpu::f_load, r) == 1;
    if (!load && cpu.get(C::cpu::f_store, r) != 1) continue;
    const uint64_t addr = cpu.get(C::cpu::s0, r) + 65536 * cpu.get(C::cpu::s1, r);
    size_t size = 0;
    for (size_t j = 0; j < 8; ++j) {
      if (cpu.get(C::cpu::mo0 + j, r) != 1) continue;
      size = j + 1;
      Memory::Token& st = mem.token(addr + j);
      const uint64_t gap = ts - st.ts - 1;
      cpu.set(C::cpu::mt0 + j, r, st.ts), cpu.set(C::cpu::mv0 + j, r, st.value), cpu.set(C::cpu::mw0 + j, r, st.w);
      cpu.set(C::cpu::mda0 + j, r, gap & 0xffff), cpu.set(C::cpu::mdb0 + j, r, (gap >> 16) & 0xffff);
      if (load) cpu.set(C::cpu::mn0 + j, r, st.value);
      st.ts = ts, st.value = static_cast<uint8_t>(cpu.get(C::cpu::mn0 + j, r));
    }
    if (!load) continue;
    // a load's value: bytes read, then the extension (checked against the executor's)
    const uint64_t top = size ? cpu.get(C::cpu::mv0 + size - 1, r) : 0, sign = top >> 7;
    const uint64_t ext = cpu.get(C::cpu::i14, r) ? 0 : sign;
    cpu.set(C::cpu::mtop, r, top), cpu.set(C::cpu::msgn, r, sign), cpu.set(C::cpu::mh, r, 2 * (top - 128 * sign));
    cpu.set(C::cpu::mext, r, ext);
    uint64_t v = 0;
    for (size_t j = 0; j < 8; ++j) {
      const uint64_t b = j < size ? cpu.get(C::cpu::mv0 + j, r) : 255 * ext;
      cpu.set(C::cpu::lv0 + j, r, b);
      v |= b << (8 * j);
    }
    if (cpu.get(C::cpu::rd, r) != 0 && v != cpu.value(C::cpu::d_v0, r))
      fail.set(r, true, "trace builder: the replayed memory gives a load another value than the trace record");
  }
  for (; next_io < io_rows; ++next_io) io_access(next_io);
}

void mem_row(Table& m, size_t r, uint64_t a, uint64_t prev, uint64_t fin_ts, uint8_t fin_v, const Memory& lookup) {
  const Seg* g = lookup.segment_of(a);
  const Seg sg = g ? *g : Seg{0, 0, 0, 0, nullptr};
  const bool from_file = a < sg.file_end;
  m.set(C::mem::is_real, r, 1), m.set(C::mem::addr, r, a), m.set(C::mem::fin_ts, r, fin_ts);
  m.set(C::mem::fin_v, r, fin_v), m.set(C::mem::w, r, sg.w);
  m.set(C::mem::init, r, from_file ? lookup.file_byte(a) : 0), m.set(C::mem::from_file, r, from_file);
  m.set(C::mem::start, r, sg.start), m.set(C::mem::file_end, r, sg.file_end), m.set(C::mem::end, r, sg.end);
  const uint64_t lo = a - sg.start, hi = sg.end - 1 - a, fd = from_file ? sg.file_end - 1 - a : a - sg.file_end;
  m.set(C::mem::lo0, r, lo & 0xffff), m.set(C::mem::lo1, r, (lo >> 16) & 0xffff);
  m.set(C::mem::hi0, r, hi & 0xffff), m.set(C::mem::hi1, r, (hi >> 16) & 0xffff);
  m.set(C::mem::fd0, r, fd & 0xffff), m.set(C::mem::fd1, r, (fd >> 16) & 0xffff);
  if (r > 0) {
    const uint64_t gap = a - prev - 1;
    m.set(C::mem::gap0, r - 1, gap & 0xffff), m.set(C::mem::gap1, r - 1, (gap >> 16) & 0xffff);
  }
}

Table mem_table(const Memory& mem) {
  // every touched address once, in order
  Table m(C::mem::width, padded_height(mem.touched(), 2));
  size_t r = 0;
  uint64_t prev = 0;
  for (const auto& [page, tokens] : mem.pages())
    for (size_t k = 0; k < Memory::kPage; ++k) {
      const Memory::Token& st = (*tokens)[k];
      if (!st.touched) continue;
      const uint64_t a = page * Memory::kPage + k;
      mem_row(m, r, a, prev, st.ts, st.value, mem);
      prev = a, ++r;
    }
  return m;
}

// ---- the alu, mul, shift and div tables (ref::air::fill_alu_tables) ----

enum Dest : uint8_t { kNone, kAlu, kMul, kShift, kDiv };
struct OpInfo {
  Dest dest = kNone;
  size_t sel = 0;  // the selector column in its table
};
// code (0..127) -> where it goes; a code no table receives lands in alu with no selector.
const std::array<OpInfo, 128>& op_table() {
  static const std::array<OpInfo, 128> ops = [] {
    std::array<OpInfo, 128> o{};
    const auto& sp = spec::air::embedded_spec();
    for (const auto& op : core::alu_ops()) {
      const std::string t = op.table;
      const Dest d = t == "alu" ? kAlu : t == "mul" ? kMul : t == "shift" ? kShift : kDiv;
      const int sel = sp.table(t)->column_index(op.sel);
      ZKRV_ASSERT(sel >= 0, "trace builder: table " + t + " has no column " + op.sel);
      o.at(op.code) = {d, static_cast<size_t>(sel)};
    }
    return o;
  }();
  return ops;
}

// A mul row proving `code` on a and b (the true result): ref::air::make_mul_row.
void mul_row(Table& t, size_t r, uint64_t code, uint64_t a, uint64_t b) {
  const uint64_t res = core::alu_result(code, a, b).value();
  t.set(C::mul::op, r, code);
  t.limbs(C::mul::a0, r, a), t.limbs(C::mul::b0, r, b), t.limbs(C::mul::r0, r, res);
  t.set(op_table()[code].sel, r, 1);
  const core::MulWitness m = core::mul_witness(code, a, b);
  for (size_t i = 0; i < 8; ++i) t.set(C::mul::p0 + i, r, m.p[i]);
  for (size_t i = 0; i < 7; ++i) t.set(C::mul::kl0 + i, r, m.kl[i]), t.set(C::mul::kh0 + i, r, m.kh[i]);
  t.set(C::mul::sa, r, m.sa), t.set(C::mul::sb, r, m.sb), t.set(C::mul::ah, r, m.ah), t.set(C::mul::bh, r, m.bh);
  t.set(C::mul::ga, r, m.ga), t.set(C::mul::gb, r, m.gb);
  for (size_t k = 0; k < 4; ++k) t.set(C::mul::h0 + k, r, m.h[k]), t.set(C::mul::bw0 + k, r, m.bw[k]);
  t.set(C::mul::w, r, m.w), t.set(C::mul::wh, r, m.wh);
}

uint64_t limb_sum(uint64_t v) { return (v & 0xffff) + ((v >> 16) & 0xffff) + ((v >> 32) & 0xffff) + (v >> 48); }

// A div row (ref::air::fill_div_witness, fill_div_bound) and the two mul rows it asks for.
void div_row(Table& t, size_t r, uint64_t code, uint64_t a, uint64_t b, Table& mul, size_t mr) {
  const core::DivCore core = core::div_core(code, a, b);
  const bool sg = code == 36 || code == 38 || code == 52 || code == 54;
  const Fp k16 = Fp::from_u64(65536);
  t.set(C::div::sa31, r, core.sa31);
  t.set(C::div::ah, r, Fp::from_u64(2) * Fp::from_u64(t.get(C::div::a1, r)) - k16 * Fp::from_u64(core.sa31));
  t.set(C::div::sb31, r, core.sb31);
  t.set(C::div::bh, r, Fp::from_u64(2) * Fp::from_u64(t.get(C::div::b1, r)) - k16 * Fp::from_u64(core.sb31));
  const uint64_t x = core.x, y = core.y, q = core.q, m = core.m;
  t.limbs(C::div::x0, r, x), t.limbs(C::div::y0, r, y), t.limbs(C::div::q0, r, q), t.limbs(C::div::m0, r, m);
  const uint64_t xs = x >> 63, ys = y >> 63, ms = m >> 63;
  t.set(C::div::xs, r, xs), t.set(C::div::xh, r, 2 * (x >> 48) - 65536 * xs), t.set(C::div::sx, r, sg ? xs : 0);
  t.set(C::div::ys, r, ys), t.set(C::div::yh, r, 2 * (y >> 48) - 65536 * ys), t.set(C::div::sy, r, sg ? ys : 0);
  t.set(C::div::ms, r, ms), t.set(C::div::mh, r, 2 * (m >> 48) - 65536 * ms), t.set(C::div::sm, r, sg ? ms : 0);
  const uint64_t hop = sg ? 33 : 35;
  t.set(C::div::hop, r, hop);
  mul_row(mul, mr, 32, q, y), mul_row(mul, mr + 1, hop, q, y);
  const uint64_t l = core::alu_result(32, q, y).value(), h = core::alu_result(hop, q, y).value();
  t.limbs(C::div::l0, r, l), t.limbs(C::div::h0, r, h);
  uint64_t carry = 0;
  for (size_t k = 0; k < 4; ++k) {
    const uint64_t sum = ((l >> (16 * k)) & 0xffff) + ((m >> (16 * k)) & 0xffff) + carry;
    carry = sum >> 16;
    t.set(C::div::c0 + k, r, carry);
  }
  t.set(C::div::g, r, h >> 63);
  const Fp sx = Fp::from_u64(sg ? xs : 0);
  const Fp ovsum = Fp::from_u64(1) - sx + Fp::from_u64(limb_sum(x)) - Fp::from_u64(32768) * sx + Fp::from_u64(262140) -
                   Fp::from_u64(limb_sum(y));
  t.set(C::div::ov, r, ovsum.value() == 0), t.set(C::div::ovinv, r, ovsum.value() == 0 ? Fp() : inverse(ovsum));
  t.set(C::div::dz, r, y == 0), t.set(C::div::dzinv, r, y ? inverse(limb_sum(y)) : Fp());
  // |y| and |m| (negated where the operation reads them as negative), with the negation's carries
  auto absolute = [&](size_t out, size_t carries, uint64_t v, bool neg) {
    uint64_t cc = neg, abs = 0;
    for (size_t k = 0; k < 4; ++k) {
      const uint64_t limb = (v >> (16 * k)) & 0xffff, sum = (neg ? 65535 - limb : limb) + cc;
      t.set(out + k, r, sum & 0xffff);
      abs |= (sum & 0xffff) << (16 * k);
      cc = sum >> 16;
      if (k < 3) t.set(carries + k, r, cc);
    }
    return abs;
  };
  const uint64_t ay = absolute(C::div::ay0, C::div::cy0, y, sg && ys), am = absolute(C::div::am0, C::div::cm0, m, sg && ms);
  if (y != 0) {  // |m| + t + 1 = |y| mod 2^64
    const uint64_t tv = ay - am - 1;
    uint64_t cc = 1;
    for (size_t k = 0; k < 4; ++k) {
      t.set(C::div::t0 + k, r, (tv >> (16 * k)) & 0xffff);
      const uint64_t sum = ((am >> (16 * k)) & 0xffff) + ((tv >> (16 * k)) & 0xffff) + cc;
      cc = sum >> 16;
      if (k < 3) t.set(C::div::e0 + k, r, cc);
    }
  }
  const uint64_t r1 = t.get(C::div::r1, r), w = r1 >> 15;
  t.set(C::div::w, r, w), t.set(C::div::wh, r, 2 * r1 - 65536 * w);
}

void shift_row(Table& t, size_t r, uint64_t code, uint64_t a, uint64_t b, Table& mul, size_t mr) {
  const bool word = code == 17 || code == 21 || code == 29, left = code == 1 || code == 17;
  const uint64_t b0 = b & 0xffff, sl = b0 & 31, s5 = (b0 >> 5) & 1, sh = word ? sl : sl + 32 * s5;
  t.set(C::shift::sl, r, sl), t.set(C::shift::s5, r, s5), t.set(C::shift::m, r, b0 >> 6), t.set(C::shift::sl8, r, 8 * sl);
  t.set(C::shift::sh, r, sh), t.set(C::shift::z, r, sh == 0), t.set(C::shift::zinv, r, sh ? inverse(sh) : Fp());
  const uint64_t e = left ? sh : sh ? 64 - sh : 0, q = uint64_t{1} << e;
  t.set(C::shift::e, r, e);
  const uint64_t sa31 = (a >> 31) & 1;
  t.set(C::shift::sa31, r, sa31), t.set(C::shift::ah, r, 2 * ((a >> 16) & 0xffff) - 65536 * sa31);
  const uint64_t x = code == 21 ? (a & 0xffffffffull) : code == 29 ? sext32(a) : a;
  const uint64_t rop = code == 1 ? 32 : code == 17 ? 48 : (code == 5 || code == 21) ? 35 : 34;
  t.set(C::shift::rop, r, rop);
  t.limbs(C::shift::q0, r, q), t.limbs(C::shift::x0, r, x);
  mul_row(mul, mr, rop, x, q);
  t.limbs(C::shift::y0, r, core::alu_result(rop, x, q).value());
  const uint64_t r1 = t.get(C::shift::r1, r), w = r1 >> 15;
  t.set(C::shift::w, r, w), t.set(C::shift::wh, r, 2 * r1 - 65536 * w);
}

void alu_row(Table& t, size_t r, uint64_t code, uint64_t a, uint64_t b) {
  const bool add = code == 0 || code == 16, bitwise = code == 4 || code == 6 || code == 7;
  // the adder: add rows a + b = t; the others t + b = a (t = a - b)
  uint64_t tv = 0;
  if (!bitwise) {
    tv = add ? a + b : a - b;
    uint64_t carry = 0;
    for (size_t k = 0; k < 4; ++k) {
      const uint64_t x = ((add ? a : tv) >> (16 * k)) & 0xffff, y = (b >> (16 * k)) & 0xffff;
      carry = (x + y + carry) >> 16;
      t.set(C::alu::t0 + k, r, (tv >> (16 * k)) & 0xffff);
      t.set(C::alu::c0 + k, r, carry);
    }
  }
  for (size_t k = 0; k < 8; ++k) {
    const uint64_t x = (a >> (8 * k)) & 0xff, y = (b >> (8 * k)) & 0xff;
    t.set(C::alu::ab0 + k, r, x), t.set(C::alu::bb0 + k, r, y), t.set(C::alu::nb0 + k, r, x & y);
  }
  const uint64_t sa = a >> 63, sb = b >> 63, c3 = t.get(C::alu::c3, r);
  t.set(C::alu::sa, r, sa), t.set(C::alu::sb, r, sb);
  t.set(C::alu::ah, r, 2 * (((a >> 56) & 0xff) - 128 * sa)), t.set(C::alu::bh, r, 2 * (((b >> 56) & 0xff) - 128 * sb));
  t.set(C::alu::sx, r, sa ^ sb), t.set(C::alu::lt, r, c3 ^ sa ^ sb);
  const uint64_t sum = limb_sum(tv);
  t.set(C::alu::nz, r, sum != 0), t.set(C::alu::nzinv, r, sum ? inverse(sum) : Fp());
  const uint64_t w = (tv >> 31) & 1;
  t.set(C::alu::w, r, w), t.set(C::alu::wh, r, 2 * (((tv >> 16) & 0xffff) - 32768 * w));
}

AluTables alu_tables(const Table& cpu, uint64_t cycles, unsigned threads) {
  const auto& ops = op_table();
  auto dest = [&](size_t r) -> Dest {
    const uint64_t mult = cpu.get(C::cpu::f_op, r) + cpu.get(C::cpu::f_opimm, r) + cpu.get(C::cpu::f_op32, r) +
                          cpu.get(C::cpu::f_opimm32, r) + cpu.get(C::cpu::f_branch, r);
    if (mult == 0) return kNone;
    const uint64_t code = cpu.get(C::cpu::aop, r);
    const Dest d = code < ops.size() ? ops[code].dest : kNone;
    return d == kNone ? kAlu : d;
  };
  // rows per block of cpu rows, then each block's first row in each table (the reference's order)
  const size_t kBlock = 4096, blocks = (cycles + kBlock - 1) / kBlock;
  std::vector<std::array<size_t, 5>> count(blocks + 1);
  parallel_for(blocks, threads, [&](size_t b, size_t e) {
    for (size_t k = b; k < e; ++k) {
      std::array<size_t, 5> n{};
      for (size_t r = k * kBlock; r < std::min<size_t>(cycles, (k + 1) * kBlock); ++r) {
        const Dest d = dest(r);
        n[d] += 1;
        if (d == kShift) n[kMul] += 1;
        if (d == kDiv) n[kMul] += 2;
      }
      count[k + 1] = n;
    }
  }, 1);
  for (size_t k = 1; k <= blocks; ++k)
    for (size_t d = 0; d < 5; ++d) count[k][d] += count[k - 1][d];
  const auto& total = count[blocks];
  AluTables out{Table(C::alu::width, padded_height(total[kAlu], 2)), Table(C::mul::width, padded_height(total[kMul], 2)),
                Table(C::shift::width, padded_height(total[kShift], 2)), Table(C::div::width, padded_height(total[kDiv], 2))};
  parallel_for(blocks, threads, [&](size_t b, size_t e) {
    for (size_t k = b; k < e; ++k) {
      std::array<size_t, 5> at = count[k];
      for (size_t r = k * kBlock; r < std::min<size_t>(cycles, (k + 1) * kBlock); ++r) {
        const Dest d = dest(r);
        if (d == kNone) continue;
        const uint64_t code = cpu.get(C::cpu::aop, r);
        Table& t = d == kMul ? out.mul : d == kShift ? out.shift : d == kDiv ? out.div : out.alu;
        const size_t row = at[d]++;
        // op, a, b, r and the selector: the same columns in all four tables
        static_assert(C::alu::op == C::mul::op && C::alu::op == C::shift::op && C::alu::op == C::div::op);
        static_assert(C::alu::a0 == C::mul::a0 && C::alu::a0 == C::shift::a0 && C::alu::a0 == C::div::a0);
        static_assert(C::alu::b0 == C::mul::b0 && C::alu::b0 == C::shift::b0 && C::alu::b0 == C::div::b0);
        static_assert(C::alu::r0 == C::mul::r0 && C::alu::r0 == C::shift::r0 && C::alu::r0 == C::div::r0);
        t.set(C::alu::op, row, code);
        for (size_t q = 0; q < 4; ++q) {
          t.set(C::alu::a0 + q, row, cpu.t.columns[C::cpu::a_v0 + q][r]);
          t.set(C::alu::b0 + q, row, cpu.t.columns[C::cpu::opb0 + q][r]);
          t.set(C::alu::r0 + q, row, cpu.t.columns[C::cpu::res0 + q][r]);
        }
        const bool known = code < ops.size() && ops[code].dest != kNone;
        if (known) t.set(ops[code].sel, row, 1);
        const uint64_t a = cpu.value(C::cpu::a_v0, r), bv = cpu.value(C::cpu::opb0, r);
        if (d == kMul) mul_row(t, row, code, a, bv);
        if (d == kDiv) div_row(t, row, code, a, bv, out.mul, at[kMul]), at[kMul] += 2;
        if (d == kShift) shift_row(t, row, code, a, bv, out.mul, at[kMul]++);
        if (d == kAlu) alu_row(t, row, code, a, bv);
      }
    }
  }, 1);
  return out;
}

// ---- the lookup multiplicities (ref::air::count_lookups) ----

// Each lookup bus's receiving table and the columns that form its tuple (as count_lookups), in
// the spec order of the AIR of `mode`.
struct Receiver {
  const char* bus;
  size_t table;
  std::vector<size_t> cols;
  size_t mult;
};
std::vector<Receiver> receivers(spec::air::Mode mode) {
  const spec::air::Spec& sp = spec::air::embedded_spec(mode);
  auto table = [&](const char* name) {
    for (size_t t = 0; t < sp.tables.size(); ++t)
      if (sp.tables[t].name == name) return t;
    ZKRV_ASSERT(false, std::string("no table ") + name);
    return size_t{0};
  };
  auto col = [&](const char* t, const char* c) {
    const int k = sp.tables[table(t)].column_index(c);
    ZKRV_ASSERT(k >= 0, std::string("no column ") + c);
    return static_cast<size_t>(k);
  };
  std::vector<Receiver> r = {
      {"byte", table("byte"), {col("byte", "value")}, col("byte", "mult")},
      {"range16", table("range16"), {col("range16", "value")}, col("range16", "mult")},
      {"and8", table("and8"), {col("and8", "x"), col("and8", "y"), col("and8", "z")}, col("and8", "mult")},
      {"program", table("program"), {col("program", "pc"), col("program", "insn")}, col("program", "mult")},
      {"segment", table("segments"),
       {col("segments", "start"), col("segments", "file_end"), col("segments", "end"), col("segments", "w")},
       col("segments", "mult")},
      {"image", table("image"), {col("image", "addr"), col("image", "value")}, col("image", "mult")},
      {"pow2", table("pow2"),
       {col("pow2", "k"), col("pow2", "q0"), col("pow2", "q1"), col("pow2", "q2"), col("pow2", "q3")}, col("pow2", "mult")}};
  return r;
}

struct TupleHash {
  size_t operator()(const std::array<uint64_t, air::kLookupArity>& t) const {
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (uint64_t v : t) h = (h ^ v) * 0xff51afd7ed558ccdull, h ^= h >> 29;
    return h;
  }
};

void count_lookups(std::vector<TableColumns>& tables, const std::vector<Fp>& publics, unsigned threads,
                   spec::air::Mode mode) {
  const auto& code = air::generated_tables(mode);
  const auto& sp = spec::air::embedded_spec(mode);
  const std::vector<Receiver> recv = receivers(mode);
  using Tuple = std::array<uint64_t, air::kLookupArity>;
  // per receiver: the first row of each tuple (the tables with computed rows find theirs directly)
  std::vector<std::unordered_map<Tuple, size_t, TupleHash>> first(recv.size());
  std::vector<int> by_tag(sp.buses.size(), -1);
  for (size_t k = 0; k < recv.size(); ++k) {
    by_tag.at(sp.bus_index(recv[k].bus)) = static_cast<int>(k);
    const TableColumns& t = tables[recv[k].table];
    const std::string bus = recv[k].bus;
    if (bus == "byte" || bus == "range16" || bus == "and8" || bus == "pow2") continue;
    for (size_t r = 0; r < t.height; ++r) {
      Tuple tu{};
      for (size_t v = 0; v < recv[k].cols.size(); ++v) tu[v] = t.columns[recv[k].cols[v]][r].value();
      first[k].emplace(tu, r);
    }
  }
  auto row_of = [&](size_t k, const Tuple& tu) -> size_t {
    const TableColumns& t = tables[recv[k].table];
    size_t r = SIZE_MAX;
    switch (k) {
      case 0: r = tu[0] < 256 ? tu[0] : SIZE_MAX; break;
      case 1: r = tu[0] < 65536 ? tu[0] : SIZE_MAX; break;
      case 2: r = tu[0] < 256 && tu[1] < 256 ? 256 * tu[0] + tu[1] : SIZE_MAX; break;
      case 6: r = tu[0] < 64 ? tu[0] : SIZE_MAX; break;
      default: {
        const auto it = first[k].find(tu);
        return it == first[k].end() ? SIZE_MAX : it->second;
      }
    }
    if (r >= t.height) return SIZE_MAX;
    for (size_t v = 0; v < recv[k].cols.size(); ++v)
      if (t.columns[recv[k].cols[v]][r].value() != tu[v]) return SIZE_MAX;
    return r;
  };
  threads = resolve_threads(threads);
  // per thread: the counts of every receiver, summed mod p, then added in thread order
  std::vector<std::vector<Column>> counts(threads);
  for (auto& c : counts)
    for (const Receiver& r : recv) c.emplace_back(tables[r.table].height);
  for (size_t t = 0; t < code.size(); ++t) {
    if (code[t].sends == 0) continue;
    const TableColumns& tc = tables[t];
    std::vector<const Fp*> cols;
    const air::CheckArgs args = air::table_args(tc.columns, tc.height, publics.data(), cols);
    const size_t S = code[t].sends;
    const size_t chunk = (tc.height + threads - 1) / threads;
    auto work = [&](unsigned th) {
      const size_t b = th * chunk, e = std::min(tc.height, b + chunk);
      constexpr size_t kBlock = 256;
      std::vector<Fp> tuple(kBlock * S * air::kLookupArity), mult(kBlock * S);
      for (size_t r0 = b; r0 < e; r0 += kBlock) {
        const size_t r1 = std::min(e, r0 + kBlock);
        code[t].send(args, r0, r1, tuple.data(), mult.data());
        for (size_t r = 0; r < r1 - r0; ++r)
          for (size_t s = 0; s < S; ++s) {
            const Fp m = mult[r * S + s];
            if (m.value() == 0) continue;
            const int k = by_tag[code[t].send_tags[s]];
            Tuple tu{};
            for (size_t v = 0; v < air::kLookupArity; ++v) tu[v] = tuple[(r * S + s) * air::kLookupArity + v].value();
            const size_t row = row_of(static_cast<size_t>(k), tu);
            if (row != SIZE_MAX) counts[th][static_cast<size_t>(k)][row] = counts[th][static_cast<size_t>(k)][row] + m;
          }
      }
    };
    run_on_threads(threads, work);
  }
  for (size_t k = 0; k < recv.size(); ++k) {
    Column& m = tables[recv[k].table].columns[recv[k].mult];
    for (size_t r = 0; r < m.size(); ++r) {
      Fp sum;
      for (unsigned th = 0; th < threads; ++th) sum = sum + counts[th][k][r];
      m[r] = sum;
    }
  }
}

void fixed_tables(const ImageTables& it, std::vector<TableColumns>& tables) {
  Table and8(C::and8::width, 65536);
  for (uint64_t x = 0; x < 256; ++x)
    for (uint64_t y = 0; y < 256; ++y)
      and8.set(C::and8::x, 256 * x + y, x), and8.set(C::and8::y, 256 * x + y, y), and8.set(C::and8::z, 256 * x + y, x & y);
  tables[C::table::and8] = std::move(and8.t);
  Table byte(C::byte::width, 256);
  for (uint64_t v = 0; v < 256; ++v) byte.set(C::byte::value, v, v);
  tables[C::table::byte] = std::move(byte.t);
  Table range16(C::range16::width, 65536);
  for (uint64_t v = 0; v < 65536; ++v) range16.set(C::range16::value, v, v);
  tables[C::table::range16] = std::move(range16.t);
  Table pow2(C::pow2::width, 64);
  for (uint64_t k = 0; k < 64; ++k) pow2.set(C::pow2::k, k, k), pow2.limbs(C::pow2::q0, k, uint64_t{1} << k);
  tables[C::table::pow2] = std::move(pow2.t);
  Table segments(C::segments::width, padded_height(it.segs.size(), 1));
  Table img(C::image::width, padded_height(it.image_bytes, 1));
  size_t r = 0;
  for (size_t s = 0; s < it.segs.size(); ++s) {
    const Seg& g = it.segs[s];
    segments.set(C::segments::start, s, g.start), segments.set(C::segments::file_end, s, g.file_end);
    segments.set(C::segments::end, s, g.end), segments.set(C::segments::w, s, g.w);
    for (size_t k = 0; k < g.s->data.size(); ++k, ++r) img.set(C::image::addr, r, g.start + k), img.set(C::image::value, r, g.s->data[k]);
  }
  tables[C::table::segments] = std::move(segments.t);
  tables[C::table::image] = std::move(img.t);
  Table program(C::program::width, padded_height(it.rom.pc.size(), 1));
  for (size_t k = 0; k < it.rom.pc.size(); ++k) program.set(C::program::pc, k, it.rom.pc[k]), program.set(C::program::insn, k, it.rom.insn[k]);
  tables[C::table::program] = std::move(program.t);
}

TableColumns from_rows(const core::TraceTable& tt, const spec::air::Table& spec) {
  const auto& cols = spec.columns;
  Table t(cols.size(), tt.height());
  for (size_t c = 0; c < cols.size(); ++c) {
    const size_t k = tt.col(cols[c].name);
    for (size_t r = 0; r < tt.height(); ++r) t.set(c, r, tt.rows[r][k]);
  }
  return std::move(t.t);
}

}  // namespace detail

using namespace detail;

size_t BuiltTrace::bytes() const {
  size_t b = 0;
  for (const auto& t : tables) b += t.columns.size() * t.height * sizeof(Fp);
  return b;
}

BuiltTrace build_trace(const spec::ProgramImage& image, std::span<const uint8_t> input, const spec::ExecOptions& options,
                       unsigned threads, const Progress& progress) {
  threads = resolve_threads(threads);
  auto lap = std::chrono::steady_clock::now();
  auto stage = [&](std::string_view name) {
    const auto now = std::chrono::steady_clock::now();
    if (progress) progress(name, std::chrono::duration<double>(now - lap).count());
    lap = now;
  };
  BuiltTrace out;
  spec::ExecOptions o = options;
  o.trace = false, o.collect_stats = false, o.trace_sink = nullptr, o.flow_sink = nullptr;
  const spec::ExecResult first = opt::execute(image, input, o);  // the height of the cpu table
  if (first.status != spec::ExitStatus::kExited || first.cycles == 0) {
    out.run = first;
    return out;
  }
  stage("execute");
  const uint64_t cycles = first.cycles;
  const ImageTables it = image_tables(image);

  // cpu: one row per cycle; the register replay as the steps arrive, the rest in parallel
  Table cpu(C::cpu::width, padded_height(cycles, 2));
  for (size_t i = 0; i < cpu.t.height; ++i) cpu.set(C::cpu::clk, i, i), cpu.set(C::cpu::wr_zero, i, 1);
  core::TraceTable sys = core::syscall_table_shape();
  CpuStream stream(cpu, sys, cycles);
  o.trace = true;
  o.trace_sink = [&](std::span<const spec::StepRecord> steps) {
    for (const auto& s : steps) stream.step(s);
  };
  out.run = opt::execute(image, input, o);
  ZKRV_ASSERT(out.run.status == first.status && out.run.cycles == cycles && out.run.exit_code == first.exit_code &&
                  out.run.output == first.output && stream.steps() == cycles,
              "trace builder: the traced run differs from the first run");
  Failure fail;
  parallel_for(cycles, threads, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) cpu_row(cpu, i, cycles - 1, it.rom, fail);
  }, 4096);
  fail.raise();

  std::vector<TableColumns> tables(C::table::count);
  // io: the bytes read and write syscalls move, at their ecall's timestamp
  // (a group per syscall: idx, last, read, to the output, output position; spec/tables/io.md)
  size_t io_rows = 0;
  for (const auto& ev : out.run.syscalls) {
    const bool read = ev.number == spec::kSysRead && ev.args[0] == 0,
               write = ev.number == spec::kSysWrite && (ev.args[0] == 1 || ev.args[0] == 2);
    if (read || write) io_rows += ev.bytes.size();
  }
  Table io(C::io::width, padded_height(io_rows, 2));
  {
    size_t r = 0, written = 0;
    for (const auto& ev : out.run.syscalls) {
      const bool read = ev.number == spec::kSysRead && ev.args[0] == 0,
                 write = ev.number == spec::kSysWrite && (ev.args[0] == 1 || ev.args[0] == 2);
      if (!read && !write) continue;
      const bool to_out = write && ev.args[0] == 1;
      for (size_t k = 0; k < ev.bytes.size(); ++k, ++r) {
        ZKRV_ASSERT(!to_out || (written + k < out.run.output.size() && out.run.output[written + k] == ev.bytes[k]),
                    "trace builder: the bytes written to fd 1 are not the run's output");
        io.set(C::io::is_real, r, 1), io.set(C::io::ts, r, 4 * ev.cycle + 3), io.set(C::io::addr, r, ev.args[1] + k);
        io.set(C::io::new_, r, ev.bytes[k]), io.set(C::io::idx, r, k), io.set(C::io::last, r, k + 1 == ev.bytes.size());
        io.set(C::io::rd, r, read), io.set(C::io::out, r, to_out), io.set(C::io::opos, r, to_out ? written + k : k);
      }
      if (to_out) written += ev.bytes.size();
    }
    ZKRV_ASSERT(written == out.run.output.size(), "trace builder: the bytes written to fd 1 are not the run's output");
  }
  {
    Memory mem(it);
    replay_accesses(cpu, cycles, 0, io, io_rows, mem, fail);
    tables[C::table::mem] = std::move(mem_table(mem).t);
  }
  fail.raise();
  {
    AluTables at = alu_tables(cpu, cycles, threads);
    tables[C::table::alu] = std::move(at.alu.t), tables[C::table::mul] = std::move(at.mul.t);
    tables[C::table::shift] = std::move(at.shift.t), tables[C::table::div] = std::move(at.div.t);
  }
  {
    Table output(C::output::width, padded_height(out.run.output.size(), 2));
    for (size_t j = 0; j < out.run.output.size(); ++j)
      output.set(C::output::is_real, j, 1), output.set(C::output::pos, j, j), output.set(C::output::value, j, out.run.output[j]);
    tables[C::table::output] = std::move(output.t);
  }
  {
    Table regs(C::regs::width, 32);
    for (uint64_t r = 0; r < 32; ++r) {
      regs.set(C::regs::reg, r, r), regs.set(C::regs::final_ts, r, stream.reg_ts()[r]);
      regs.limbs(C::regs::final_v0, r, stream.reg_val()[r]);
    }
    tables[C::table::regs] = std::move(regs.t);
  }
  sys.rows.resize(padded_height(sys.rows.size(), 2), std::vector<uint64_t>(sys.columns.size(), 0));
  core::fill_syscall_witness<Fp>(sys);
  tables[C::table::syscall] = from_rows(sys, spec::air::embedded_spec().tables.at(C::table::syscall));
  tables[C::table::cpu] = std::move(cpu.t);
  tables[C::table::io] = std::move(io.t);

  fixed_tables(it, tables);  // their multiplicities are counted below
  for (const std::string& name : core::air_layout().publics) {
    ZKRV_ASSERT(name == "entry" || name == "exit_code", "trace builder: unknown public value " + name);
    out.publics.push_back(Fp::from_u64(name == "entry" ? image.entry : static_cast<uint32_t>(out.run.exit_code)));
  }
  count_lookups(tables, out.publics, threads);
  out.tables = std::move(tables);
  stage("trace");
  return out;
}

}  // namespace zkrv::opt::trace
