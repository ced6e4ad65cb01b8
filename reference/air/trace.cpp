#include "reference/air/trace.h"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "reference/field/goldilocks.h"

namespace zkrv::ref::air {

size_t TraceTable::col(const std::string& column) const {
  for (size_t i = 0; i < columns.size(); ++i)
    if (columns[i] == column) return i;
  throw std::out_of_range("table " + name + " has no column " + column);
}
TraceTable& AirTrace::table(const std::string& n) {
  for (auto& t : tables)
    if (t.name == n) return t;
  throw std::out_of_range("no table " + n);
}
const TraceTable& AirTrace::table(const std::string& n) const {
  for (const auto& t : tables)
    if (t.name == n) return t;
  throw std::out_of_range("no table " + n);
}

namespace {

size_t pow2_at_least(size_t n, size_t min) {
  size_t h = min;
  while (h < n) h *= 2;
  return h;
}

// opcode -> the cpu table's class flag column
const std::map<uint32_t, std::string> kOpcodeFlags = {
    {0x37, "f_lui"},  {0x17, "f_auipc"}, {0x6f, "f_jal"},   {0x67, "f_jalr"},     {0x63, "f_branch"}, {0x03, "f_load"},
    {0x23, "f_store"}, {0x13, "f_opimm"}, {0x33, "f_op"},    {0x1b, "f_opimm32"}, {0x3b, "f_op32"},   {0x73, "f_system"}};

}  // namespace

AirTrace build_trace(const spec::ProgramImage& image, const spec::ExecResult& run) {
  if (run.status != spec::ExitStatus::kExited) throw std::invalid_argument("only runs that exited can be checked");
  if (run.trace.size() != run.cycles || run.trace.empty())
    throw std::invalid_argument("the run carries no execution trace (ExecOptions::trace)");
  AirTrace t;
  t.publics["entry"] = image.entry;

  // byte: 256 rows, value r, multiplicities counted below
  TraceTable byte{"byte", {"value", "mult"}, {}};
  for (uint64_t v = 0; v < 256; ++v) byte.rows.push_back({v, 0});

  // program: every aligned word of every executable segment, in address order
  TraceTable program{"program", {"pc", "insn", "mult"}, {}};
  std::map<uint64_t, size_t> rom_row;
  std::vector<const spec::Segment*> segs;
  for (const auto& s : image.segments) segs.push_back(&s);
  std::sort(segs.begin(), segs.end(), [](auto* a, auto* b) { return a->vaddr < b->vaddr; });
  for (const auto* s : segs) {
    if (!(s->flags & spec::kFlagX)) continue;
    for (uint64_t a = (s->vaddr + 3) / 4 * 4; a + 4 <= s->vaddr + s->memsz; a += 4) {
      uint32_t w = 0;
      for (uint64_t k = 0; k < 4; ++k) {
        const uint64_t off = a + k - s->vaddr;
        w |= uint32_t{off < s->data.size() ? s->data[off] : uint8_t{0}} << (8 * k);
      }
      rom_row[a] = program.rows.size();
      program.rows.push_back({a, w, 0});
    }
  }

  // cpu: one row per cycle
  TraceTable cpu{"cpu",
                 {"is_real", "clk", "pc", "next_pc", "insn", "b0", "rd0"},
                 {}};
  for (int k = 8; k < 32; ++k) cpu.columns.push_back("i" + std::to_string(k));
  for (const char* c : {"rd", "funct3", "rs1", "rs2", "funct7", "f_lui", "f_auipc", "f_jal", "f_jalr", "f_branch",
                        "f_load", "f_store", "f_opimm", "f_op", "f_opimm32", "f_op32", "f_system", "ra", "rb", "wr"})
    cpu.columns.push_back(c);
  for (const char* v : {"a_v", "b_v", "d_old", "d_v"})
    for (int k = 0; k < 4; ++k) cpu.columns.push_back(v + std::to_string(k));
  for (const char* c : {"a_prev_ts", "b_prev_ts", "d_prev_ts", "a_dt0", "a_dt1", "b_dt0", "b_dt1", "d_dt0", "d_dt1",
                        "wr_inv", "wr_zero", "link", "pc0", "pc1", "c0", "c1", "c2", "c3", "s0", "s1", "s2", "s3", "half",
                        "lowbit"})
    cpu.columns.push_back(c);
  TraceTable range16{"range16", {"value", "mult"}, {}};
  for (uint64_t v = 0; v < 65536; ++v) range16.rows.push_back({v, 0});
  // the register file, replayed: value and timestamp of the last access of each register
  std::array<uint64_t, 32> reg_val{}, reg_ts{};
  const size_t height = pow2_at_least(run.trace.size(), 2);
  for (size_t i = 0; i < height; ++i) {
    std::vector<uint64_t> row(cpu.columns.size(), 0);
    row[cpu.col("clk")] = i;
    row[cpu.col("wr_zero")] = 1;  // padding: wr = 0 (overwritten on real rows)
    if (i < run.trace.size()) {
      const spec::StepRecord& s = run.trace[i];
      row[cpu.col("is_real")] = 1;
      row[cpu.col("pc")] = s.pc;
      row[cpu.col("next_pc")] = s.next_pc;
      row[cpu.col("insn")] = s.insn;
      row[cpu.col("b0")] = s.insn & 0xff;
      byte.rows[s.insn & 0xff][1] += 1;
      row[cpu.col("rd0")] = (s.insn >> 7) & 1;
      for (int k = 8; k < 32; ++k) row[cpu.col("i" + std::to_string(k))] = (s.insn >> k) & 1;
      row[cpu.col("rd")] = (s.insn >> 7) & 31;
      row[cpu.col("funct3")] = (s.insn >> 12) & 7;
      row[cpu.col("rs1")] = (s.insn >> 15) & 31;
      row[cpu.col("rs2")] = (s.insn >> 20) & 31;
      row[cpu.col("funct7")] = s.insn >> 25;
      const auto flag = kOpcodeFlags.find(s.insn & 0x7f);
      if (flag == kOpcodeFlags.end()) throw std::invalid_argument("trace holds an instruction with an unknown opcode");
      row[cpu.col(flag->second)] = 1;
      const auto r = rom_row.find(s.pc);
      if (r == rom_row.end()) throw std::invalid_argument("trace fetched outside the executable segments");
      program.rows[r->second][2] += 1;
      // registers: three accesses at 4 clk + 1, 2, 3 (spec/tables/air.md)
      const bool ecall = (s.insn & 0x7f) == 0x73, last = i + 1 == run.trace.size();
      const uint64_t ra = ecall ? 17 : (s.insn >> 15) & 31, rb = ecall ? 10 : (s.insn >> 20) & 31,
                     wr = ecall ? 10 : (s.insn >> 7) & 31;
      row[cpu.col("ra")] = ra, row[cpu.col("rb")] = rb, row[cpu.col("wr")] = wr;
      auto limbs = [&](const char* name, uint64_t v) {
        for (int k = 0; k < 4; ++k) row[cpu.col(name + std::to_string(k))] = (v >> (16 * k)) & 0xffff;
      };
      auto access = [&](uint64_t reg, uint64_t ts, const char* prev_col, const char* dt) {
        const uint64_t prev = reg_ts[reg], gap = ts - prev - 1;
        row[cpu.col(prev_col)] = prev;
        row[cpu.col(std::string(dt) + "0")] = gap & 0xffff;
        row[cpu.col(std::string(dt) + "1")] = gap >> 16;
        range16.rows[gap & 0xffff][1] += 1;
        range16.rows[gap >> 16][1] += 1;
        reg_ts[reg] = ts;
      };
      const uint64_t reg_val_before_a = reg_val[ra];
      limbs("a_v", reg_val[ra]);
      access(ra, 4 * i + 1, "a_prev_ts", "a_dt");
      limbs("b_v", reg_val[rb]);
      access(rb, 4 * i + 2, "b_prev_ts", "b_dt");
      if ((s.rs1 && s.rs1 == ra && s.rs1_value != reg_val[ra]) || (s.rs2 && s.rs2 == rb && s.rs2_value != reg_val[rb]))
        throw std::logic_error("trace builder: replayed register value differs from the trace record");
      const uint32_t opcode = s.insn & 0x7f;
      const bool writes = !(opcode == 0x23 || opcode == 0x63 || (ecall && last));
      const uint64_t old = reg_val[wr], now = writes && s.rd == wr ? s.rd_value : old;
      limbs("d_old", old);
      limbs("d_v", now);
      for (int k = 0; k < 4; ++k) range16.rows[(now >> (16 * k)) & 0xffff][1] += 1;
      access(wr, 4 * i + 3, "d_prev_ts", "d_dt");
      reg_val[wr] = now;
      row[cpu.col("wr_zero")] = wr == 0;
      row[cpu.col("wr_inv")] = wr ? Fp::from_u64(wr).inverse().value() : 0;
      row[cpu.col("link")] = (opcode == 0x6f || opcode == 0x67) && wr != 0;
      // the pc's limbs, and the row's 64-bit addition (AUIPC: pc + imm_u; JALR: rs1 + imm_i)
      row[cpu.col("pc0")] = s.pc & 0xffff, row[cpu.col("pc1")] = s.pc >> 16;
      range16.rows[s.pc & 0xffff][1] += 1, range16.rows[s.pc >> 16][1] += 1;
      auto add64 = [&](uint64_t x, uint64_t y, const char* out) {
        uint64_t carry = 0;
        for (int k = 0; k < 4; ++k) {
          const uint64_t limb = ((x >> (16 * k)) & 0xffff) + ((y >> (16 * k)) & 0xffff) + carry;
          if (out) row[cpu.col(out + std::to_string(k))] = limb & 0xffff;
          carry = limb >> 16;
          row[cpu.col("c" + std::to_string(k))] = carry;
        }
      };
      const uint64_t imm_u = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(s.insn & 0xfffff000u)));
      const uint64_t imm_i = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(s.insn)) >> 20);
      if (opcode == 0x17 && wr != 0) add64(s.pc, imm_u, nullptr);  // the sum itself is d_v
      if (opcode == 0x67) {
        add64(reg_val_before_a, imm_i, "s");
        row[cpu.col("half")] = row[cpu.col("s0")] >> 1, row[cpu.col("lowbit")] = row[cpu.col("s0")] & 1;
      }
      for (const char* c : {"s0", "s1", "s2", "s3", "half"}) range16.rows[row[cpu.col(c)]][1] += 1;
    }
    cpu.rows.push_back(std::move(row));
  }
  program.rows.resize(pow2_at_least(program.rows.size(), 1), {0, 0, 0});

  TraceTable regs{"regs", {"reg", "final_ts", "final_v0", "final_v1", "final_v2", "final_v3"}, {}};
  for (uint64_t r = 0; r < 32; ++r)
    regs.rows.push_back({r, reg_ts[r], reg_val[r] & 0xffff, (reg_val[r] >> 16) & 0xffff, (reg_val[r] >> 32) & 0xffff,
                         reg_val[r] >> 48});
  t.tables = {std::move(byte), std::move(cpu), std::move(program), std::move(range16), std::move(regs)};
  return t;
}

}  // namespace zkrv::ref::air
