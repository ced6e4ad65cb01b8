#include "reference/air/trace.h"

#include <algorithm>
#include <stdexcept>

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
                        "f_load", "f_store", "f_opimm", "f_op", "f_opimm32", "f_op32", "f_system"})
    cpu.columns.push_back(c);
  const size_t height = pow2_at_least(run.trace.size(), 2);
  for (size_t i = 0; i < height; ++i) {
    std::vector<uint64_t> row(cpu.columns.size(), 0);
    row[cpu.col("clk")] = i;
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
    }
    cpu.rows.push_back(std::move(row));
  }
  program.rows.resize(pow2_at_least(program.rows.size(), 1), {0, 0, 0});

  t.tables = {std::move(byte), std::move(cpu), std::move(program)};
  return t;
}

}  // namespace zkrv::ref::air
