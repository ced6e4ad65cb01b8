// Reading and editing the AIR tests' traces (air_fixture.h): cells by name, the decoded
// instruction columns, and rebalance, which rebuilds everything downstream of a change on the
// cpu table as a cheating prover would, so that a mutation breaks only what it targets.
#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <stdexcept>
#include <string>

#include "reference/field/goldilocks.h"
#include "tests/air/air_fixture.h"

namespace zkrv::ref::air::fixture {

thread_local bool g_keep_mo = false, g_keep_store_bytes = false, g_keep_load_bytes = false;

// The public output claimed: the bytes that io rows with out = 1 send, in position order, as the
// verifier builds the output table from it (output.md).
void rebuild_output(AirTrace& t) {
  const auto& io = t.table("io");
  std::map<uint64_t, uint64_t> out;
  for (const auto& row : io.rows)
    if (row[io.col("out")]) out[row[io.col("opos")]] = row[io.col("new")];
  auto& ot = t.table("output");
  ot.rows.clear();
  for (const auto& [pos, v] : out) ot.rows.push_back({1, ot.rows.size(), v});
  ot.rows.resize(spec::air::padded_height(ot.rows.size(), 2), {0, 0, 0});
}

// The io rows rebuilt from the syscall rows, as a prover would: one group per syscall that moves
// bytes (mv rows each, in order); a read's bytes stay as the trace's group in the same place has
// them (0 where it had none),
// a write's are memory's; then the memory argument replayed and the public output taken to be
// what the fd 1 groups send.
void rebuild_io(AirTrace& t) {
  // the io rows: one group per syscall that moves bytes (mv rows each, in order), as the syscall
  // rows say; a read's bytes stay as the trace has them (0 where it had none), a write's are
  // memory's; the public output is what the fd 1 groups then send
  {
    auto& io = t.table("io");
    const auto& st = t.table("syscall");
    std::vector<std::vector<uint64_t>> groups(1);  // the trace's groups' bytes, in order
    for (const auto& row : io.rows) {
      if (!row[io.col("is_real")]) continue;
      groups.back().push_back(row[io.col("new")]);
      if (row[io.col("last")]) groups.emplace_back();
    }
    size_t g = 0;
    std::vector<std::vector<uint64_t>> rows;
    for (const auto& srow : st.rows) {
      if (!srow[st.col("mvz")]) continue;
      const std::vector<uint64_t> none, &had = g < groups.size() ? groups[g] : none;
      ++g;
      const uint64_t mv = srow[st.col("mv")], buf = srow[st.col("b0")] + 65536 * srow[st.col("b1")], ts = srow[st.col("ts")] + 2;
      for (uint64_t k = 0; k < mv && rows.size() < (uint64_t{1} << 20); ++k) {
        std::vector<uint64_t> row(io.columns.size(), 0);
        row[io.col("is_real")] = 1, row[io.col("ts")] = ts, row[io.col("addr")] = buf + k, row[io.col("idx")] = k;
        row[io.col("last")] = k + 1 == mv, row[io.col("rd")] = srow[st.col("g_in")], row[io.col("out")] = srow[st.col("out1")];
        row[io.col("opos")] = srow[st.col("ostart")] + k;
        row[io.col("new")] = k < had.size() ? had[k] : 0;
        rows.push_back(std::move(row));
      }
    }
    rows.resize(spec::air::padded_height(rows.size(), 2), std::vector<uint64_t>(io.columns.size(), 0));
    io.rows = std::move(rows);
  }
  replay_memory(t, g_keep_load_bytes);
  {  // a write's bytes are memory's; the public output is the fd 1 bytes in position order
    auto& io = t.table("io");
    for (bool changed = true; changed;) {  // until every write leaves what it found (each pass fixes one more)
      changed = false;
      for (auto& row : io.rows)
        if (row[io.col("is_real")] && !row[io.col("rd")] && row[io.col("new")] != row[io.col("old")])
          row[io.col("new")] = row[io.col("old")], changed = true;
      if (changed) replay_memory(t, g_keep_load_bytes);
    }
  }
  rebuild_output(t);
}

uint64_t& at(AirTrace& t, const char* table, size_t row, const char* col) {
  auto& tab = t.table(table);
  return tab.rows[row][tab.col(col)];
}
uint64_t get(const AirTrace& t, const char* table, size_t row, const char* col) {
  const auto& tab = t.table(table);
  return tab.rows[row][tab.col(col)];
}
size_t real_rows(const AirTrace& t) {
  size_t n = 0;
  while (n < t.table("cpu").height() && get(t, "cpu", n, "is_real") == 1) ++n;
  return n;
}
int flag_of(const AirTrace& t, size_t r) {
  for (int k = 0; k < 12; ++k)
    if (get(t, "cpu", r, kFlags[k]) == 1) return k;
  return -1;
}
std::string bit(int k) { return "i" + std::to_string(k); }
// rd, funct3, rs1, rs2 and funct7 recomputed from the bit columns (mod p: bits may be non-bits).
void set_fields_from_bits(AirTrace& t, size_t r) {
  auto sum = [&](int lo, int hi) {  // Σ 2^(k - lo) i_k
    unsigned __int128 v = 0;
    for (int k = lo; k <= hi; ++k) v += static_cast<unsigned __int128>(get(t, "cpu", r, bit(k).c_str())) << (k - lo);
    return static_cast<uint64_t>(v % P);
  };
  // rd = rd0 + 2 i8 + ... + 16 i11
  unsigned __int128 rd = get(t, "cpu", r, "rd0");
  for (int k = 8; k <= 11; ++k) rd += static_cast<unsigned __int128>(get(t, "cpu", r, bit(k).c_str())) << (k - 7);
  at(t, "cpu", r, "rd") = static_cast<uint64_t>(rd % P);
  at(t, "cpu", r, "funct3") = sum(12, 14);
  at(t, "cpu", r, "rs1") = sum(15, 19);
  at(t, "cpu", r, "rs2") = sum(20, 24);
  at(t, "cpu", r, "funct7") = sum(25, 31);
}
// Sets insn and the columns derived from it (b0, bits, fields, class flag) on a cpu row.
void set_insn(AirTrace& t, size_t r, uint32_t insn) {
  at(t, "cpu", r, "insn") = insn;
  at(t, "cpu", r, "b0") = insn & 0xff;
  at(t, "cpu", r, "rd0") = (insn >> 7) & 1;
  for (int k = 8; k < 32; ++k) at(t, "cpu", r, bit(k).c_str()) = (insn >> k) & 1;
  set_fields_from_bits(t, r);
  for (int k = 0; k < 12; ++k) at(t, "cpu", r, kFlags[k]) = (insn & 0x7f) == kCodes[k];
  at(t, "cpu", r, "f_fence") = (insn & 0x7f) == 0x0f;
  const bool ecall = (insn & 0x7f) == 0x73;
  at(t, "cpu", r, "ra") = ecall ? 17 : (insn >> 15) & 31;
  at(t, "cpu", r, "rb") = ecall ? 10 : (insn >> 20) & 31;
  at(t, "cpu", r, "wr") = ecall ? 10 : (insn >> 7) & 31;
}
uint64_t limbs_value(const AirTrace& t, size_t r, const std::string& prefix) {
  uint64_t v = 0;
  for (int k = 0; k < 4; ++k) v |= get(t, "cpu", r, (prefix + std::to_string(k)).c_str()) << (16 * k);
  return v;
}
void set_limbs(AirTrace& t, size_t r, const std::string& prefix, uint64_t v) {
  for (int k = 0; k < 4; ++k) at(t, "cpu", r, (prefix + std::to_string(k)).c_str()) = (v >> (16 * k)) & 0xffff;
}
// Replays the register file over the cpu table as the trace builder does: the values read, the
// old values, the previous timestamps and gaps follow from each row's registers and the values
// it claims to write; stores, branches and the exit keep the old value unless keep_claimed. The
// regs table's final tokens and every multiplicity column (byte, program, range16) are
// recomputed, so that a mutation keeps all buses balanced whenever its tuples can exist.
void rebalance(AirTrace& t, bool keep_claimed, bool recompute_adders, bool recompute_res, bool derive_ops) {
  auto& cpu = t.table("cpu");
  const size_t n = real_rows(t);
  std::array<uint64_t, 32> val{}, ts{};
  TraceTable sys = syscall_table_shape();  // rebuilt from the ecall rows
  std::map<uint64_t, uint64_t> r16;
  for (size_t r = 0; r < n; ++r) {
    auto access = [&](const char* reg, uint64_t stamp, const char* prev, const std::string& dt) {
      const uint64_t g = get(t, "cpu", r, reg) % 32, gap = stamp - ts[g] - 1;
      at(t, "cpu", r, prev) = ts[g];
      at(t, "cpu", r, (dt + "0").c_str()) = gap & 0xffff;
      at(t, "cpu", r, (dt + "1").c_str()) = gap >> 16;
      r16[gap & 0xffff]++, r16[gap >> 16]++;
      ts[g] = stamp;
      return g;
    };
    const uint64_t clk = get(t, "cpu", r, "clk");
    set_limbs(t, r, "a_v", val[get(t, "cpu", r, "ra") % 32]);
    access("ra", 4 * clk + 1, "a_prev_ts", "a_dt");
    set_limbs(t, r, "b_v", val[get(t, "cpu", r, "rb") % 32]);
    access("rb", 4 * clk + 2, "b_prev_ts", "b_dt");
    const uint64_t wr = get(t, "cpu", r, "wr") % 32;
    set_limbs(t, r, "d_old", val[wr]);
    const bool keeps = get(t, "cpu", r, "f_store") || get(t, "cpu", r, "f_branch") || get(t, "cpu", r, "f_fence") ||
                       (get(t, "cpu", r, "f_system") && r + 1 == n);
    if (keeps && !keep_claimed) set_limbs(t, r, "d_v", val[wr]);
    for (int k = 0; k < 4; ++k) r16[get(t, "cpu", r, ("d_v" + std::to_string(k)).c_str())]++;
    access("wr", 4 * clk + 3, "d_prev_ts", "d_dt");
    val[wr] = limbs_value(t, r, "d_v");
    if (get(t, "cpu", r, "f_system") == 1 && get(t, "cpu", r, "sys_exit") == 0) {  // a syscall row: a1, a2 at 4 clk + 1
      std::vector<uint64_t> row(sys.columns.size(), 0);
      auto put = [&](const char* v, uint64_t x) {
        for (int k = 0; k < 4; ++k) row[sys.col(v + std::to_string(k))] = (x >> (16 * k)) & 0xffff;
      };
      row[sys.col("is_real")] = 1, row[sys.col("ts")] = 4 * clk + 1;
      put("n", limbs_value(t, r, "a_v")), put("f", limbs_value(t, r, "b_v")), put("r", limbs_value(t, r, "d_v"));
      put("b", val[11]), put("c", val[12]);
      row[sys.col("bp")] = ts[11], row[sys.col("cp")] = ts[12];
      ts[11] = ts[12] = 4 * clk + 1;
      sys.rows.push_back(std::move(row));
    }
    at(t, "cpu", r, "wr_zero") = get(t, "cpu", r, "wr") == 0;
    at(t, "cpu", r, "wr_inv") = get(t, "cpu", r, "wr") ? Fp::from_u64(get(t, "cpu", r, "wr")).inverse().value() : 0;
    at(t, "cpu", r, "link") = (get(t, "cpu", r, "f_jal") + get(t, "cpu", r, "f_jalr")) % P * (1 - get(t, "cpu", r, "wr_zero")) % P;
    const uint64_t pc = get(t, "cpu", r, "pc"), insn = get(t, "cpu", r, "insn");
    at(t, "cpu", r, "pc0") = pc & 0xffff, at(t, "cpu", r, "pc1") = (pc >> 16) % P;
    // the ALU's operands from the (possibly changed) decode; its result: the value claimed for rd,
    // or where nothing sticks (x0, branches) the true one
    if (derive_ops) derive_alu_operands(cpu, r);
    // loads and stores: the active bytes from funct3 (field arithmetic), a store's bytes from rs2
    {
      const Fp ls = Fp::from_u64(get(t, "cpu", r, "f_load")) + Fp::from_u64(get(t, "cpu", r, "f_store"));
      const Fp i12 = Fp::from_u64(get(t, "cpu", r, "i12")), i13 = Fp::from_u64(get(t, "cpu", r, "i13"));
      if (!g_keep_mo) {
        const Fp mo[8] = {ls, ls * (i12 + i13 - i12 * i13), ls * i13, ls * i13, ls * i12 * i13, ls * i12 * i13, ls * i12 * i13, ls * i12 * i13};
        for (int j = 0; j < 8; ++j) at(t, "cpu", r, ("mo" + std::to_string(j)).c_str()) = mo[j].value();
      }
      const bool store = get(t, "cpu", r, "f_store") == 1;
      const uint64_t bv = limbs_value(t, r, "b_v");
      for (int j = 0; j < 8; ++j) {
        const std::string n = std::to_string(j);
        at(t, "cpu", r, ("sb" + n).c_str()) = store ? (bv >> (8 * j)) & 0xff : 0;
        if (store && !g_keep_store_bytes && get(t, "cpu", r, ("mo" + n).c_str()) == 1)
          at(t, "cpu", r, ("mn" + n).c_str()) = (bv >> (8 * j)) & 0xff;
      }
    }
    const bool alu_row = get(t, "cpu", r, "f_op") || get(t, "cpu", r, "f_opimm") || get(t, "cpu", r, "f_op32") ||
                         get(t, "cpu", r, "f_opimm32") || get(t, "cpu", r, "f_branch");
    {  // the exit columns: exit_e and exit_inv follow a7; sys_exit is the claim
      const Fp a0 = Fp::from_u64(get(t, "cpu", r, "a_v0")), sys = Fp::from_u64(get(t, "cpu", r, "f_system"));
      const Fp e = sys * (a0 - Fp::from_u64(93)) * (a0 - Fp::from_u64(94));
      const Fp z = e + Fp::from_u64(4294967296) * Fp::from_u64(get(t, "cpu", r, "a_v1") + get(t, "cpu", r, "a_v2") + get(t, "cpu", r, "a_v3"));
      at(t, "cpu", r, "exit_e") = e.value();
      const bool other_ecall = get(t, "cpu", r, "f_system") == 1 && get(t, "cpu", r, "sys_exit") == 0;
      at(t, "cpu", r, "exit_inv") = other_ecall && z.value() ? z.inverse().value() : 0;
    }
    if (recompute_res && alu_row) {
      const auto truth = alu_result(get(t, "cpu", r, "aop"), limbs_value(t, r, "a_v"), limbs_value(t, r, "opb"));
      const bool sticks = !get(t, "cpu", r, "f_branch") && get(t, "cpu", r, "wr") != 0;
      set_limbs(t, r, "res", sticks ? limbs_value(t, r, "d_v") : truth.value_or(0));
    }
    if (recompute_adders) {  // as the trace builder: AUIPC pc + imm_u, JALR rs1 + imm_i
      for (const char* c : {"c0", "c1", "c2", "c3", "s0", "s1", "s2", "s3", "half", "lowbit"}) at(t, "cpu", r, c) = 0;
      auto add64 = [&](uint64_t x, uint64_t y, bool sum) {
        uint64_t carry = 0;
        for (int k = 0; k < 4; ++k) {
          const uint64_t limb = ((x >> (16 * k)) & 0xffff) + ((y >> (16 * k)) & 0xffff) + carry;
          if (sum) at(t, "cpu", r, ("s" + std::to_string(k)).c_str()) = limb & 0xffff;
          carry = limb >> 16;
          at(t, "cpu", r, ("c" + std::to_string(k)).c_str()) = carry;
        }
      };
      const uint32_t w = static_cast<uint32_t>(insn);
      if (get(t, "cpu", r, "f_auipc") == 1 && get(t, "cpu", r, "wr") != 0)
        add64(pc, static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(w & 0xfffff000u))), false);
      if (get(t, "cpu", r, "f_jalr") == 1) {
        add64(limbs_value(t, r, "a_v"), static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(w)) >> 20), true);
        at(t, "cpu", r, "half") = get(t, "cpu", r, "s0") >> 1, at(t, "cpu", r, "lowbit") = get(t, "cpu", r, "s0") & 1;
      }
      if (get(t, "cpu", r, "f_load") == 1)
        add64(limbs_value(t, r, "a_v"), static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(w)) >> 20), true);
      if (get(t, "cpu", r, "f_store") == 1)
        add64(limbs_value(t, r, "a_v"),
              static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(((w >> 25) << 5) | ((w >> 7) & 31)) << 20) >> 20),
              true);
    }
  }
  sys.rows.resize(spec::air::padded_height(sys.rows.size(), 2), std::vector<uint64_t>(sys.columns.size(), 0));
  fill_syscall_witness(sys);
  t.table("syscall") = std::move(sys);
  auto& regs = t.table("regs");
  for (auto& row : regs.rows) {
    const uint64_t g = row[regs.col("reg")];
    const uint64_t v = g < 32 ? val[g] : 0;
    row[regs.col("final_ts")] = g < 32 ? ts[g] : 0;
    for (int k = 0; k < 4; ++k) row[regs.col("final_v" + std::to_string(k))] = (v >> (16 * k)) & 0xffff;
  }
  (void)r16;
  fill_alu_tables(t);
  rebuild_io(t);
  count_lookups(t);
}
// Every lookup multiplicity (byte, range16, and8, program) recounted from the trace's sends.
void recount_range16(AirTrace& t) { count_lookups(t); }

// ROM addresses holding `word` other than `pc`.
std::vector<uint64_t> other_addresses(const AirTrace& t, uint64_t word, uint64_t pc) {
  std::vector<uint64_t> out;
  const auto& prog = t.table("program");
  for (const auto& row : prog.rows)
    if (row[prog.col("insn")] == word && row[prog.col("pc")] != pc && row[prog.col("pc")] != 0) out.push_back(row[prog.col("pc")]);
  return out;
}
// Pads the cpu table (from row `from` on) as the trace builder does.
void pad_from(AirTrace& t, size_t from) {
  auto& cpu = t.table("cpu");
  for (size_t r = from; r < cpu.height(); ++r)
    for (size_t c = 0; c < cpu.columns.size(); ++c)
      cpu.rows[r][c] = cpu.columns[c] == "clk" ? r : cpu.columns[c] == "wr_zero" ? 1 : 0;
}

// The first padding row of the cpu table; a table without one is first doubled in height with
// padding rows (an honest change: the height is any power of two).
size_t first_padding(AirTrace& t) {
  auto& cpu = t.table("cpu");
  const size_t n = real_rows(t);
  if (n == cpu.height()) {
    cpu.rows.resize(2 * n, std::vector<uint64_t>(cpu.columns.size(), 0));
    pad_from(t, n);
  }
  return n;
}

// The real rows, those whose decoded bits other constraints use least first: FENCE (only funct3),
// then LUI, AUIPC and JAL (bits used linearly), then the rest.
// For bit 15 JAL comes first: LUI and AUIPC split their immediate into 16-bit limbs between bits
// 15 and 16.
std::vector<size_t> free_rows_first(const AirTrace& t, int bit) {
  std::vector<size_t> rows;
  const std::vector<const char*> order = bit == 15 ? std::vector<const char*>{"f_fence", "f_jal", "f_lui", "f_auipc"}
                                                   : std::vector<const char*>{"f_fence", "f_lui", "f_auipc", "f_jal"};
  for (const char* flag : order)
    for (size_t r = 0; r < real_rows(t); ++r)
      if (get(t, "cpu", r, flag) == 1) rows.push_back(r);
  for (size_t r = 0; r < real_rows(t); ++r)
    if (std::find(rows.begin(), rows.end(), r) == rows.end()) rows.push_back(r);
  return rows;
}
// The value register g holds before cpu row r (the last write before it).
uint64_t reg_before(const AirTrace& t, size_t r, uint64_t g) {
  uint64_t v = 0;
  for (size_t q = 0; q < r; ++q)
    if (get(t, "cpu", q, "wr") == g) v = limbs_value(t, q, "d_v");
  return v;
}

size_t row_with_insn(const AirTrace& t, uint32_t insn) {
  for (size_t r = 0; r < real_rows(t); ++r)
    if (get(t, "cpu", r, "insn") == insn) return r;
  throw std::logic_error("alu_prog has no such instruction");
}
// The row of `table` (alu or unchecked) that receives cpu row r's tuple.
size_t received_row(const AirTrace& t, const char* table, size_t r) {
  const auto& tab = t.table(table);
  for (size_t i = 0; i < tab.height(); ++i) {
    bool same = tab.rows[i][tab.col("op")] == get(t, "cpu", r, "aop");
    for (int k = 0; k < 4 && same; ++k) {
      const std::string n = std::to_string(k);
      same = tab.rows[i][tab.col("a" + n)] == get(t, "cpu", r, ("a_v" + n).c_str()) &&
             tab.rows[i][tab.col("b" + n)] == get(t, "cpu", r, ("opb" + n).c_str()) &&
             tab.rows[i][tab.col("r" + n)] == get(t, "cpu", r, ("res" + n).c_str());
    }
    if (same) return i;
  }
  throw std::logic_error(std::string("no row of ") + table + " receives that tuple");
}
uint64_t& cell(AirTrace& t, const char* table, size_t row, const std::string& col) {
  auto& tab = t.table(table);
  return tab.rows[row][tab.col(col)];
}
uint64_t cpu_result(const AirTrace& t, size_t r) { return limbs_value(t, r, "res"); }
// Claims `value` as the result of cpu row r (written to rd where a write sticks, else only the
// ALU result column) and rebuilds everything downstream, the alu tables included.
void forge_result(AirTrace& t, size_t r, uint64_t value, bool derive_ops) {
  const bool sticks = !get(t, "cpu", r, "f_branch") && get(t, "cpu", r, "wr") != 0;
  if (sticks) {
    set_limbs(t, r, "d_v", value);
    rebalance(t, false, true, true, derive_ops);
  } else {
    set_limbs(t, r, "res", value);
    rebalance(t, false, true, false, derive_ops);
  }
}

// The program (the ELF) holds another word at cpu row r's pc, and the row decodes it.
void set_rom_word(AirTrace& t, size_t r, uint32_t word) {
  auto& prog = t.table("program");
  for (auto& row : prog.rows)
    if (row[prog.col("pc")] == get(t, "cpu", r, "pc")) row[prog.col("insn")] = word;
  set_insn(t, r, word);
}
void rewrite_rom(AirTrace& t, size_t r, uint32_t word) {
  set_rom_word(t, r, word);
  rebalance(t);
}

// The indirect base with x5 = v at the jalr, from a program that computes it in its first two
// instructions: lui x5, 0x10 then addi x5, x5, v - 0x10000 where that fits, else lui x5, L; slli
// x5, x5, s with v = sext32(L) << s; else (no such pair) the second instruction's result claimed
// v, which the div table rejects as well (its remu x5, x5, x0 gives x5). The cpu rows' results
// and instruction bits are set; the caller rebalances.
void indirect_x5(AirTrace& t, uint64_t v) {
  auto retarget_rom = [&](size_t r, uint32_t word, uint64_t value) {
    set_rom_word(t, r, word);
    set_limbs(t, r, "d_v", value);
  };
  const int64_t delta = static_cast<int64_t>(v) - 0x10000;
  if (delta >= -2048 && delta < 2048) {
    retarget_rom(1, (static_cast<uint32_t>(delta) << 20) | (5u << 15) | (5u << 7) | 0x13, v);  // addi x5, x5, delta
    return;
  }
  for (uint32_t sh = 0; sh < 32; ++sh) {
    const uint64_t low = v >> sh;
    if ((low << sh) != v || (low & 0xfff) || static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(low))) != low) continue;
    retarget_rom(0, static_cast<uint32_t>(low & 0xfffff000u) | (5u << 7) | 0x37, low);  // lui x5, low >> 12
    retarget_rom(1, (sh << 20) | (5u << 15) | (1u << 12) | (5u << 7) | 0x13, v);        // slli x5, x5, sh
    return;
  }
  set_limbs(t, 1, "d_v", v);
}
}  // namespace zkrv::ref::air::fixture
