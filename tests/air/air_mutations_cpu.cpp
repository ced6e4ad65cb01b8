// The cpu table's mutations (base fib, mostly), with the lookup tables it sends to (byte, program,
// range16, regs), and those of the exit (exit_mutations).
#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "reference/field/goldilocks.h"
#include "tests/air/air_fixture.h"

namespace zkrv::ref::air::fixture {
namespace {

// Finds a sequential row r (next_pc = pc + 4, not the last real row) whose following row is a
// control-flow instruction whose word also sits at another address.
std::optional<std::pair<size_t, uint64_t>> seq_then_duplicated_jump(const AirTrace& t, bool ecall_first) {
  const size_t n = real_rows(t);
  for (size_t r = 0; r + 2 < n; ++r) {
    const int k = flag_of(t, r), k2 = flag_of(t, r + 1);
    if (ecall_first ? k != 11 : !(k >= 0 && kSequential[k])) continue;
    if (!(k2 == 3 || k2 == 4) || get(t, "cpu", r + 1, "link") != 0) continue;  // jalr x0 or branch: target free
    const auto other = other_addresses(t, get(t, "cpu", r + 1, "insn"), get(t, "cpu", r + 1, "pc"));
    if (!other.empty()) return std::pair{r, other.front()};
  }
  return std::nullopt;
}

// A flag combination on a sequential row that keeps Σ flags = 1 and the opcode sum, with
// `target` the only non-bit flag (value 1 - |S|, S a set of 2 or 3 other flags set to 1). Flags
// whose value constraints would then fail are not used: jal and system never, lui and jalr only
// on a write to x0 (where their constraints vanish); jal as the target needs a row whose
// J-immediate is the step actually taken (mini's addi x0, x0, 4).
bool non_bit_flag(AirTrace& t, int target) {
  const size_t n = real_rows(t);
  for (size_t r = 0; r + 1 < n; ++r) {
    const int k = flag_of(t, r);
    if (k < 0 || !kSequential[k] || get(t, "cpu", r, "next_pc") != get(t, "cpu", r, "pc") + 4) continue;
    const bool x0 = get(t, "cpu", r, "wr_zero") == 1;
    // lui and auipc: value constraints that vanish on x0 writes; jal, jalr, system: never
    auto usable = [&](int f) { return f != 2 && f != 3 && f != 11 && ((f != 0 && f != 1) || x0); };
    if (target == 11 || (!usable(target) && !(target == 2 && x0))) continue;
    const int64_t code = static_cast<int64_t>(kCodes[k]);
    for (int a = 0; a < 11; ++a)
      for (int b = a + 1; b < 11; ++b)
        for (int c = b + 1; c <= 11; ++c) {  // c == 11: S = {a, b}
          const bool three = c < 11;
          if (a == target || b == target || (three && c == target) || !usable(a) || !usable(b) || (three && !usable(c)))
            continue;
          const int64_t weight = three ? -2 : -1;  // target = 1 - |S|
          const int64_t sum = static_cast<int64_t>(kCodes[a] + kCodes[b] + (three ? kCodes[c] : 0));
          if (sum + weight * static_cast<int64_t>(kCodes[target]) != code) continue;
          for (int j = 0; j < 12; ++j) at(t, "cpu", r, kFlags[j]) = 0;
          at(t, "cpu", r, kFlags[a]) = 1, at(t, "cpu", r, kFlags[b]) = 1;
          if (three) at(t, "cpu", r, kFlags[c]) = 1;
          at(t, "cpu", r, kFlags[target]) = static_cast<uint64_t>(static_cast<int64_t>(P) + weight);
          rebalance(t);  // stores and branches among the flags now keep the old value
          return true;
        }
  }
  return false;
}

// the byte table
void byte_table(std::vector<Mutation>& m) {
  m.push_back({"byte:c:value_first", "the byte table shifted to start at p - 100 (then -1 would pass as a byte)",
               [](AirTrace& t) {
                 auto& b = t.table("byte");
                 for (size_t r = 0; r < 256; ++r) b.rows[r][b.col("value")] = (r + P - 100) % P;
                 rebalance(t);
                 return true;
               }, Mutation::Base::kMini});
  m.push_back({"byte:c:value_step", "two byte rows swapped", [](AirTrace& t) {
                 auto& b = t.table("byte");
                 std::swap(b.rows[200], b.rows[201]);
                 return true;
               }});
  m.push_back({"byte:b:table", "a byte multiplicity off by one", [](AirTrace& t) {
                 at(t, "byte", 0x13, "mult") += 1;
                 return true;
               }});
}

// cpu: rows
void cpu_rows(std::vector<Mutation>& m) {
  m.push_back({"cpu:c:real_bit", "is_real = 2 on the first padding row", [](AirTrace& t) {
                 at(t, "cpu", first_padding(t), "is_real") = 2;
                 return true;
               }});
  m.push_back({"cpu:c:real_first", "no real row at all (an empty run)", [](AirTrace& t) {
                 const uint64_t entry = get(t, "cpu", 0, "pc");
                 pad_from(t, 0);
                 for (auto& row : t.table("io").rows) std::fill(row.begin(), row.end(), 0);
                 at(t, "cpu", 0, "pc") = entry;
                 at(t, "cpu", 0, "pc0") = entry & 0xffff, at(t, "cpu", 0, "pc1") = entry >> 16;
                 rebalance(t);
                 return true;
               }});
  m.push_back({"cpu:c:real_prefix", "a padding row inside the run", [](AirTrace& t) {
                 const size_t r = real_rows(t) / 2;
                 const uint64_t next = get(t, "cpu", r, "next_pc");
                 for (size_t c = 0; c < t.table("cpu").columns.size(); ++c)
                   if (t.table("cpu").columns[c] != "clk") t.table("cpu").rows[r][c] = 0;
                 at(t, "cpu", r, "next_pc") = next;
                 at(t, "cpu", r, "wr_zero") = 1;
                 rebalance(t);
                 return true;
               }});
  m.push_back({"cpu:c:clk_first", "every clk shifted by 5", [](AirTrace& t) {
                 for (size_t r = 0; r < t.table("cpu").height(); ++r) at(t, "cpu", r, "clk") += 5;
                 rebalance(t);
                 return true;
               }});
  m.push_back({"cpu:c:clk_step", "clk jumps by 2 once", [](AirTrace& t) {
                 for (size_t r = 10; r < t.table("cpu").height(); ++r) at(t, "cpu", r, "clk") += 1;
                 rebalance(t);
                 return true;
               }});
}

// cpu: pc, and the program ROM
void cpu_pc(std::vector<Mutation>& m) {
  m.push_back({"cpu:c:pc_first", "fault class 'pc changed before a step': the run starts at the second instruction",
               [](AirTrace& t) {
                 auto& cpu = t.table("cpu");
                 if (get(t, "cpu", 0, "next_pc") != get(t, "cpu", 0, "pc") + 4) return false;
                 cpu.rows.erase(cpu.rows.begin());
                 cpu.rows.push_back(std::vector<uint64_t>(cpu.columns.size(), 0));
                 pad_from(t, cpu.height() - 1);
                 for (size_t r = 0; r < cpu.height(); ++r) at(t, "cpu", r, "clk") = r;
                 rebalance(t);
                 return true;
               }, Mutation::Base::kMini});
  m.push_back({"cpu:c:pc_flow", "fault class 'pc changed after a step': a jump lands on another copy of its target word",
               [](AirTrace& t) {
                 const auto s = seq_then_duplicated_jump(t, false);
                 if (!s) return false;
                 at(t, "cpu", s->first + 1, "pc") = s->second;
                 rebalance(t);
                 return true;
               }});
  m.push_back({"cpu:b:fetch", "fault class 'instruction word changed': one bit of an executed word flipped",
               [](AirTrace& t) {
                 set_insn(t, 5, static_cast<uint32_t>(get(t, "cpu", 5, "insn") ^ (1u << 20)));
                 rebalance(t);
                 return true;
               }});
  m.push_back({"program:b:rom", "fault class 'a byte of the program image changed': a ROM word differs from what ran",
               [](AirTrace& t) {
                 auto& prog = t.table("program");
                 for (auto& row : prog.rows)
                   if (row[prog.col("mult")] > 0) {
                     row[prog.col("insn")] ^= 0x100;
                     return true;
                   }
                 return false;
               }});
  m.push_back({"cpu:c:insn_bits", "bit 8 flipped, the word unchanged (rd and the write follow the bits)", [](AirTrace& t) {
                 for (size_t r = 0; r + 1 < real_rows(t); ++r) {
                   if (get(t, "cpu", r, "f_system") || (get(t, "cpu", r, "rd") ^ 2) == 0) continue;
                   at(t, "cpu", r, "i8") ^= 1;
                   set_fields_from_bits(t, r);
                   at(t, "cpu", r, "wr") = get(t, "cpu", r, "rd");
                   rebalance(t);
                   return true;
                 }
                 return false;
               }, Mutation::Base::kMini});
  m.push_back({"cpu:b:byte0", "b0 = b0 + 256 with bit 8 cleared", [](AirTrace& t) {
                 for (size_t r = 0; r < real_rows(t); ++r)
                   if (get(t, "cpu", r, "i8") == 1) {
                     at(t, "cpu", r, "b0") += 256;
                     at(t, "cpu", r, "i8") = 0;
                     return true;  // no rebalance: the byte table has no row 256 + b0
                   }
                 return false;
               }});
}

// cpu: decode
void cpu_decode(std::vector<Mutation>& m) {
  // decode: a non-bit k-th bit, its weight made up by a neighbour in the same field (the bit
  // above: +2 / -1; at the top of a field the bit below: +1/2 / -1), so word and fields stay
  for (int k = 8; k < 32; ++k)
    m.push_back({"cpu:c:i" + std::to_string(k) + "_bit", "i" + std::to_string(k) + " not a bit, the word and fields kept",
                 [k](AirTrace& t) {
                   const bool top = k == 11 || k == 14 || k == 19 || k == 24 || k == 31;
                   const std::string nb = top ? (k == 8 ? "rd0" : bit(k - 1)) : bit(k + 1);
                   for (size_t r : free_rows_first(t, k)) {
                     if (get(t, "cpu", r, nb.c_str()) != 1) continue;
                     at(t, "cpu", r, bit(k).c_str()) = (get(t, "cpu", r, bit(k).c_str()) + (top ? (P + 1) / 2 : 2)) % P;
                     at(t, "cpu", r, nb.c_str()) = 0;
                     set_fields_from_bits(t, r);
                     derive_alu_operands(t.table("cpu"), r);  // sh, sr follow the bits
                     return true;
                   }
                   return false;
                 },
                 // bits 30 and 31 are a sign or beside one in every class but FENCE: alu_prog's
                 // fence has them set
                 k >= 30 ? Mutation::Base::kAlu : Mutation::Base::kFib});
  for (const auto& [field, reg] : std::vector<std::pair<std::string, std::string>>{
           {"rd", "wr"}, {"funct3", ""}, {"rs1", "ra"}, {"rs2", "rb"}, {"funct7", ""}})
    m.push_back({"cpu:c:" + field, field + " off by one (the register access follows it)", [field = field, reg = reg](AirTrace& t) {
                   std::vector<size_t> order = free_rows_first(t);
                   if (field == "funct3")  // loads read their size from the bits, not from funct3
                     std::stable_partition(order.begin(), order.end(), [&](size_t q) { return get(t, "cpu", q, "f_load") == 1; });
                   for (size_t r : order) {
                     if (r + 1 >= real_rows(t)) continue;
                     // the register read instead must hold the same value (or the result changes)
                     if (field == "rs1" && reg_before(t, r, get(t, "cpu", r, "rs1") + 1) != limbs_value(t, r, "a_v")) continue;
                     if (!(get(t, "cpu", r, "f_opimm") || get(t, "cpu", r, "f_op") || get(t, "cpu", r, "f_load")) ||
                         get(t, "cpu", r, field.c_str()) >= 30)
                       continue;
                     if (!reg.empty() && (get(t, "cpu", r, field.c_str()) == 0 || get(t, "cpu", r, "f_store") ||
                                          get(t, "cpu", r, "f_branch")))
                       continue;
                     at(t, "cpu", r, field.c_str()) += 1;
                     if (!reg.empty()) at(t, "cpu", r, reg.c_str()) += 1;
                     rebalance(t);
                     return true;
                   }
                   return false;
                 }});
}

// cpu: opcode class
void cpu_opcode_class(std::vector<Mutation>& m) {
  m.push_back({"cpu:c:rd0_bit", "an OP-IMM word taken for OP with rd0 = (0x13 - 0x33) / 128", [](AirTrace& t) {
                 for (size_t r = 0; r + 1 < real_rows(t); ++r)
                   if (get(t, "cpu", r, "f_opimm") == 1 && get(t, "cpu", r, "rd0") == 0) {
                     at(t, "cpu", r, "f_opimm") = 0, at(t, "cpu", r, "f_op") = 1;
                     // 128 * rd0 = 0x13 - 0x33 = -32, so rd0 = -1/4
                     const uint64_t quarter = static_cast<uint64_t>((3 * static_cast<unsigned __int128>(P) + 1) / 4);
                     at(t, "cpu", r, "rd0") = P - quarter;  // -(1/4) mod p
                     set_fields_from_bits(t, r);          // rd follows rd0
                     return true;
                   }
                 return false;
               }});
  for (int k = 0; k < 12; ++k)
    m.push_back({std::string("cpu:c:") + kFlags[k] + "_bit", std::string(kFlags[k]) + " = -1 balanced by two other flags",
                 [k](AirTrace& t) {
                   if (k == 11) {  // f_system: a non-bit value on the exit row, two flags carrying the rest
                     const size_t r = real_rows(t) - 1;
                     at(t, "cpu", r, "f_system") = 2;
                     at(t, "cpu", r, "f_jalr") = P - 1;  // 2 * 0x73 - 0x67 = 0x7f: not the opcode
                     return true;
                   }
                   if (k == 5) {  // f_load: add x0, x0, x0 read as 0x13 + 0x23 - 0x03 = 0x33 (op_x0_prog)
                     // f_load + f_store = 0, so no memory access (mo0..mo7 = 0) and no loaded value
                     // (lv = 0, mtop = mh = 0); the store's bytes are rs2's, 0; f_store keeps x0;
                     // opb is the immediate, 0, as b_v was; aop (funct3 = 0) and the ALU tuple stay.
                     // The eight byte sends of the store and the load's mh, at -1, are recounted.
                     const size_t r = row_with_insn(t, 0x00000033);
                     at(t, "cpu", r, "f_op") = 0, at(t, "cpu", r, "f_opimm") = 1;
                     at(t, "cpu", r, "f_store") = 1, at(t, "cpu", r, "f_load") = P - 1;
                     count_lookups(t);
                     return true;
                   }
                   if (non_bit_flag(t, k)) return true;
                   // no flag combination keeps every other constraint: a non-bit flag on padding
                   at(t, "cpu", first_padding(t), kFlags[k]) = 2;
                   return true;
                 },
                 // lui, jal and jalr carry value constraints that vanish only on a write to x0: the
                 // mini program's nop (addi x0, x0, 0) is such a row
                 (k == 0 || k == 2 || k == 3 || k == 4) ? Mutation::Base::kMini
                 : k == 5                               ? Mutation::Base::kOpX0
                                                        : Mutation::Base::kFib});
  m.push_back({"cpu:c:one_class", "a real row with no class flag executes the zero word and jumps anywhere",
               [](AirTrace& t) {
                 // jal x0, +12 to the zero word at 0x1000c, which (flagless, so no pc rule applies)
                 // continues at 0x10004: addi a7, x0, 93; ecall. Built with a nop in place of the
                 // zero word, which the trace builder would reject, then the word is put back.
                 t = synthetic({0x00c0006f, 0x05d00893, 0x00000073, 0x00000013},
                               {{0x10000, 0x1000c}, {0x1000c, 0x10004}, {0x10004, 0x10008}, {0x10008, 0x10008}},
                               {{2, 17, 93}});
                 auto& prog = t.table("program");
                 for (auto& row : prog.rows)
                   if (row[prog.col("pc")] == 0x1000c) row[prog.col("insn")] = 0;
                 set_insn(t, 1, 0);
                 rebalance(t);
                 return true;
               }});
  m.push_back({"cpu:c:opcode", "addi x0, x0, 4 flagged as OP (add x0, x0, x4; its result does not stick)", [](AirTrace& t) {
                 for (size_t r = 0; r + 1 < real_rows(t); ++r)
                   if (get(t, "cpu", r, "f_opimm") == 1 && get(t, "cpu", r, "wr") == 0 && get(t, "cpu", r, "funct7") == 0) {
                     at(t, "cpu", r, "f_opimm") = 0, at(t, "cpu", r, "f_op") = 1;
                     rebalance(t);
                     return true;
                   }
                 return false;
               }, Mutation::Base::kMini});
  m.push_back({"cpu:c:ecall_only", "the exit is a different SYSTEM word (ebreak) in the ROM", [](AirTrace& t) {
                 const size_t r = real_rows(t) - 1;
                 const uint64_t pc = get(t, "cpu", r, "pc");
                 set_insn(t, r, 0x00100073);
                 auto& prog = t.table("program");
                 for (auto& row : prog.rows)
                   if (row[prog.col("pc")] == pc) row[prog.col("insn")] = 0x00100073;
                 rebalance(t);
                 return true;
               }});
}

// cpu: pc update and halting
void cpu_pc_update_and_halting(std::vector<Mutation>& m) {
  m.push_back({"cpu:c:pc_sequential", "a sequential instruction jumps to another copy of the next word", [](AirTrace& t) {
                 const auto s = seq_then_duplicated_jump(t, false);
                 if (!s) return false;
                 at(t, "cpu", s->first, "next_pc") = s->second;
                 at(t, "cpu", s->first + 1, "pc") = s->second;
                 rebalance(t);
                 return true;
               }});
  m.push_back({"cpu:c:pc_ecall", "the read ecall skips the branch after it", [](AirTrace& t) {
                 auto& cpu = t.table("cpu");
                 at(t, "cpu", 0, "next_pc") = 0x10008;
                 cpu.rows.erase(cpu.rows.begin() + 1);
                 cpu.rows.push_back(std::vector<uint64_t>(cpu.columns.size(), 0));
                 pad_from(t, cpu.height() - 1);
                 for (size_t r = 0; r < cpu.height(); ++r) at(t, "cpu", r, "clk") = r;
                 rebalance(t);
                 return true;
               }, Mutation::Base::kJumps});
  m.push_back({"cpu:c:jal_target", "a jal skips the instruction it targets", [](AirTrace& t) {
                 auto& cpu = t.table("cpu");
                 at(t, "cpu", 2, "next_pc") = 0x10010;  // jal at 0x10008 claims to land on the exit
                 cpu.rows.erase(cpu.rows.begin() + 3);
                 cpu.rows.push_back(std::vector<uint64_t>(cpu.columns.size(), 0));
                 pad_from(t, cpu.height() - 1);
                 for (size_t r = 0; r < cpu.height(); ++r) at(t, "cpu", r, "clk") = r;
                 rebalance(t);
                 return true;
               }, Mutation::Base::kJumps});
  // a run that stops at a jump to itself (jal x0, 0 after addi a7, x0, 93): it never exits
  // Unpadded, the loop runs until the last row of the least height (protocol:stark:heights).
  auto self_loop = [](AirTrace& t, bool padded) {
    std::vector<Step> steps = {{0x10000, 0x10004}, {0x10004, 0x10004}};
    if (!padded) steps.resize(size_t{1} << spec::kMinLogHeight, Step{0x10004, 0x10004});
    t = synthetic({0x05d00893, 0x0000006f}, steps, {{0, 17, 93}});
    if (padded) first_padding(t);
    rebalance(t);
  };
  m.push_back({"cpu:c:halt_system", "fault class 'exit moved': the run stops at a jump to itself", [self_loop](AirTrace& t) {
                 self_loop(t, true);
                 return true;
               }});
  m.push_back({"cpu:c:halt_stays", "the exit ecall claims to continue", [](AirTrace& t) {
                 at(t, "cpu", real_rows(t) - 1, "next_pc") += 4;
                 return true;
               }});
  m.push_back({"cpu:c:halt_system_last", "no padding, and the run stops at a jump to itself", [self_loop](AirTrace& t) {
                 self_loop(t, false);
                 return true;
               }});
  m.push_back({"cpu:c:halt_stays_last", "no padding, and the exit (last row) claims to continue", [](AirTrace& t) {
                 const size_t n = real_rows(t);
                 t.table("cpu").rows.resize(n);
                 at(t, "cpu", n - 1, "next_pc") += 4;
                 return true;
               }});
}

// cpu: LUI and links
void cpu_lui_and_links(std::vector<Mutation>& m) {
  for (int k = 0; k < 4; ++k)
    m.push_back({"cpu:c:lui" + std::to_string(k), "a LUI result limb " + std::to_string(k) + " off by one", [k](AirTrace& t) {
                   for (size_t r = 0; r + 1 < real_rows(t); ++r)
                     if (get(t, "cpu", r, "f_lui") == 1 && get(t, "cpu", r, "wr") != 0 &&
                         get(t, "cpu", r, ("d_v" + std::to_string(k)).c_str()) < 65535) {
                       at(t, "cpu", r, ("d_v" + std::to_string(k)).c_str()) += 1;
                       rebalance(t);
                       return true;
                     }
                   return false;
                 }, Mutation::Base::kMini});
  auto call_row = [](const AirTrace& t) -> std::optional<size_t> {
    for (size_t r = 0; r + 1 < real_rows(t); ++r)
      if (get(t, "cpu", r, "link") == 1 && get(t, "cpu", r, "d_v0") < 65000) return r;
    return std::nullopt;
  };
  m.push_back({"cpu:c:link_def", "a call claims no link and returns elsewhere", [call_row](AirTrace& t) {
                 const auto r = call_row(t);
                 if (!r) return false;
                 at(t, "cpu", *r, "d_v0") += 4;
                 at(t, "cpu", *r, "link") = 0;
                 rebalance(t);
                 at(t, "cpu", *r, "link") = 0;
                 return true;
               }});
  m.push_back({"cpu:c:link_lo", "a call's return address off by 4", [call_row](AirTrace& t) {
                 const auto r = call_row(t);
                 if (!r) return false;
                 at(t, "cpu", *r, "d_v0") += 4;
                 rebalance(t);
                 return true;
               }});
  m.push_back({"cpu:c:link_d3", "a call's return address with bit 48 set", [call_row](AirTrace& t) {
                 const auto r = call_row(t);
                 if (!r) return false;
                 at(t, "cpu", *r, "d_v3") = 1;
                 rebalance(t);
                 return true;
               }});
}

// cpu: AUIPC and JALR (the 64-bit adder)
void cpu_adder(std::vector<Mutation>& m) {
  m.push_back({"cpu:c:pc_limbs", "pc0 off by one (range-checked)", [](AirTrace& t) {
                 at(t, "cpu", 5, "pc0") += 1;
                 recount_range16(t);
                 return true;
               }});
  for (const char* col : {"pc0", "pc1", "s0", "s1", "s2", "s3", "half"})
    m.push_back({std::string("cpu:b:") + col, std::string(col) + " + 65536 (not a 16-bit value)", [col](AirTrace& t) {
                   at(t, "cpu", 2, col) += 65536;
                   return true;
                 }, Mutation::Base::kIndirect});
  m.push_back({"cpu:c:c3_bit", "a jalr from 2^48 + 0x10000 wraps to 0x1000c with c3 = 1/65536", [](AirTrace& t) {
                 indirect_x5(t, (uint64_t{1} << 48) + 0x10000);  // no lui/slli pair gives it: the remu claims it
                 rebalance(t);
                 at(t, "cpu", 2, "s3") = 0;
                 at(t, "cpu", 2, "c3") = Fp::from_u64(65536).inverse().value();
                 recount_range16(t);
                 return true;
               }, Mutation::Base::kIndirect});
  // A carry chain whose bottom carry is not a bit (cpu.md, "Why c0 is a bit"): the four limb
  // equations of an addition hold mod p, so they fix only S + 2^64 c3 = pc + imm mod p, and
  // 2^64 = 2^32 - 1 mod p. With c3 = 1 instead of 0, exit_prog's auipc x5, 0x12345 (x5 =
  // 0x1235500c) claims x5 = 0x1235500c - 2^32 + 1 + p = 0xfffffffe1235500e: limb 3 makes c2 =
  // d_v3 + 2^16, limb 2 c1 = d_v2 + 2^16 c2, limb 1 c0 = d_v1 + 2^16 c1 - pc1 - imm_hi (about
  // 2^48), and limb 0 holds mod p. Every result limb is in range and c3 is a bit: only c0_bit
  // rejects it (c1 and c2 then follow as bits from the exact limb equations).
  m.push_back({"cpu:c:c0_bit", "auipc x5, 0x12345 claimed 0xfffffffe1235500e: c3 = 1 and c0, c1, c2 field values that the limbs reach mod p",
               [](AirTrace& t) {
                 for (size_t r = 0; r < real_rows(t); ++r) {
                   if (get(t, "cpu", r, "f_auipc") != 1 || get(t, "cpu", r, "wr") == 0) continue;
                   const uint64_t honest = limbs_value(t, r, "d_v");
                   if (honest >= (uint64_t{1} << 32) - 1 || get(t, "cpu", r, "c3") != 0) return false;
                   const uint64_t forged = honest - (uint64_t{1} << 32) + 1 + P;  // below 2^64: honest < 2^33 - 2
                   set_limbs(t, r, "d_v", forged);
                   rebalance(t);
                   const Fp k16 = Fp::from_u64(65536), i31 = Fp::from_u64(get(t, "cpu", r, "i31"));
                   const Fp ones = Fp::from_u64(65535) * i31;
                   uint64_t imm_hi = 0;
                   for (int b = 16; b < 32; ++b) imm_hi |= get(t, "cpu", r, ("i" + std::to_string(b)).c_str()) << (b - 16);
                   auto dv = [&](int k) { return Fp::from_u64(get(t, "cpu", r, ("d_v" + std::to_string(k)).c_str())); };
                   const Fp c3 = Fp::from_u64(1);
                   const Fp c2 = dv(3) + k16 * c3 - ones;
                   const Fp c1 = dv(2) + k16 * c2 - ones;
                   const Fp c0 = dv(1) + k16 * c1 - Fp::from_u64(get(t, "cpu", r, "pc1")) - Fp::from_u64(imm_hi);
                   at(t, "cpu", r, "c0") = c0.value(), at(t, "cpu", r, "c1") = c1.value();
                   at(t, "cpu", r, "c2") = c2.value(), at(t, "cpu", r, "c3") = c3.value();
                   recount_range16(t);
                   return true;
                 }
                 return false;
               }, Mutation::Base::kExit});
  for (int k = 0; k < 4; ++k)
    m.push_back({"cpu:c:carry" + std::to_string(k) + "_unused", "a carry set on a row without an addition", [k](AirTrace& t) {
                   at(t, "cpu", 1, ("c" + std::to_string(k)).c_str()) = 1;
                   return true;
                 }, Mutation::Base::kIndirect});
  for (int k = 0; k < 4; ++k)
    m.push_back({"cpu:c:auipc" + std::to_string(k), "an AUIPC result limb " + std::to_string(k) + " off by one", [k](AirTrace& t) {
                   const std::string col = "d_v" + std::to_string(k);
                   for (size_t r = 0; r + 1 < real_rows(t); ++r)
                     if (get(t, "cpu", r, "f_auipc") == 1 && get(t, "cpu", r, "wr") != 0) {
                       at(t, "cpu", r, col.c_str()) = get(t, "cpu", r, col.c_str()) ? get(t, "cpu", r, col.c_str()) - 1 : 1;
                       rebalance(t);
                       return true;
                     }
                   return false;
                 }, Mutation::Base::kExit});
  for (int k = 0; k < 4; ++k)
    m.push_back({"cpu:c:adder_s" + std::to_string(k), "the jalr's register input changes (limb " + std::to_string(k) + " + 2), its sum does not",
                 [k](AirTrace& t) {
                   indirect_x5(t, 0x10000 + (uint64_t{2} << (16 * k)));
                   rebalance(t, false, false);
                   return true;
                 }, Mutation::Base::kIndirect});
  m.push_back({"cpu:c:adder_high", "a jalr target at 2^32 + 0x1000c taken as 0x1000c", [](AirTrace& t) {
                 indirect_x5(t, (uint64_t{1} << 32) + 0x10000);
                 rebalance(t);  // the sum's limb 2 is now 1
                 return true;
               }, Mutation::Base::kIndirect});
  m.push_back({"cpu:c:jalr_even", "the low bit of the sum claimed 0 (the target unchanged)", [](AirTrace& t) {
                 at(t, "cpu", 2, "lowbit") = 0;
                 return true;
               }, Mutation::Base::kIndirect});
  m.push_back({"cpu:c:lowbit_bit", "lowbit = -7: the jalr lands on the twin exit", [](AirTrace& t) {
                 at(t, "cpu", 2, "lowbit") = P - 7;
                 at(t, "cpu", 2, "half") = 10;
                 at(t, "cpu", 2, "next_pc") = 0x10014;
                 at(t, "cpu", 3, "pc") = 0x10014, at(t, "cpu", 3, "next_pc") = 0x10018;
                 at(t, "cpu", 4, "pc") = 0x10018, at(t, "cpu", 4, "next_pc") = 0x10018;
                 rebalance(t, false, false);
                 return true;
               }, Mutation::Base::kIndirect});
  m.push_back({"cpu:c:jalr_target", "the jalr lands on the twin exit", [](AirTrace& t) {
                 at(t, "cpu", 2, "next_pc") = 0x10014;
                 at(t, "cpu", 3, "pc") = 0x10014, at(t, "cpu", 3, "next_pc") = 0x10018;
                 at(t, "cpu", 4, "pc") = 0x10018, at(t, "cpu", 4, "next_pc") = 0x10018;
                 rebalance(t, false, false);
                 return true;
               }, Mutation::Base::kIndirect});
  m.push_back({"cpu:c:jalr_unused", "half set on a row that is no jalr", [](AirTrace& t) {
                 at(t, "cpu", 1, "half") = 1;
                 recount_range16(t);
                 return true;
               }, Mutation::Base::kIndirect});
}

// cpu: registers, and the range16 and regs tables
void cpu_registers(std::vector<Mutation>& m) {
  auto retarget = [](const char* col) {
    return [col](AirTrace& t) {
      for (size_t r = 0; r + 1 < real_rows(t); ++r)
        if ((get(t, "cpu", r, "f_opimm") || get(t, "cpu", r, "f_op") || get(t, "cpu", r, "f_load")) &&
            get(t, "cpu", r, col) >= 1 && get(t, "cpu", r, col) <= 30) {
          at(t, "cpu", r, col) += 1;  // another register than the instruction names
          rebalance(t);
          return true;
        }
      return false;
    };
  };
  m.push_back({"cpu:c:ra", "the first read takes another register (rs1 + 1)", retarget("ra"), Mutation::Base::kExit});
  m.push_back({"cpu:c:rb", "the second read takes another register (rs2 + 1)", retarget("rb"), Mutation::Base::kExit});
  m.push_back({"cpu:c:wr", "the result goes to another register (rd + 1)", retarget("wr"), Mutation::Base::kExit});
  for (const auto& [id, col] : std::vector<std::pair<std::string, std::string>>{
           {"cpu:b:ra_in", "a_prev_ts"}, {"cpu:b:ra_out", "a_v0"}, {"cpu:b:rb_in", "b_prev_ts"},
           {"cpu:b:rb_out", "b_v1"}, {"cpu:b:wr_in", "d_old2"}, {"cpu:b:wr_out", "d_v0"}})
    m.push_back({id, "fault class 'register value changed': " + col + " altered in one cycle", [col = col](AirTrace& t) {
                   at(t, "cpu", 20, col.c_str()) += 1;  // no replay: the register's token chain breaks
                   return true;
                 }});
  for (const char* dt : {"a_dt", "b_dt", "d_dt"}) {
    const std::string id = std::string("cpu:c:") + (dt[0] == 'a' ? "ra" : dt[0] == 'b' ? "rb" : "wr") + "_order";
    m.push_back({id, std::string(dt) + "0 off by one (range-checked)", [dt](AirTrace& t) {
                   at(t, "cpu", 30, (std::string(dt) + "0").c_str()) += 1;
                   recount_range16(t);
                   return true;
                 }});
  }
  for (const char* col : {"a_dt0", "a_dt1", "b_dt0", "b_dt1", "d_dt0", "d_dt1", "d_v0", "d_v1", "d_v2", "d_v3"})
    m.push_back({std::string("cpu:b:") + col, std::string(col) + " + 65536 (not a 16-bit value)", [col](AirTrace& t) {
                   at(t, "cpu", 40, col) += 65536;
                   return true;
                 }});
  for (const auto& [id, value] : std::vector<std::pair<std::string, uint64_t>>{{"cpu:c:wr_zero_bit", 2}, {"cpu:c:wr_zero_inv", 0}})
    m.push_back({id, "wr_zero = " + std::to_string(value) + " on a write to x0", [value = value](AirTrace& t) {
                   for (size_t r = 0; r < real_rows(t); ++r)
                     if (get(t, "cpu", r, "wr") == 0) {
                       at(t, "cpu", r, "wr_zero") = value;
                       return true;
                     }
                   return false;
                 }});
  m.push_back({"cpu:c:wr_zero_def", "wr_zero = 1 on a write of 0 to a real register", [](AirTrace& t) {
                 for (size_t r = 0; r < real_rows(t); ++r)
                   if (get(t, "cpu", r, "wr") != 0 && limbs_value(t, r, "d_v") == 0) {
                     at(t, "cpu", r, "wr_zero") = 1, at(t, "cpu", r, "wr_inv") = 0;
                     return true;
                   }
                 return false;
               }});
  m.push_back({"cpu:c:x0_stays", "a write of 7 to x0 that later reads see", [](AirTrace& t) {
                 for (size_t r = 0; r + 1 < real_rows(t); ++r)
                   if (get(t, "cpu", r, "wr") == 0 && get(t, "cpu", r, "f_store") + get(t, "cpu", r, "f_branch") == 0) {
                     at(t, "cpu", r, "d_v0") = 7;
                     rebalance(t);
                     return true;
                   }
                 return false;
               }, Mutation::Base::kExit});
  for (int k = 0; k < 4; ++k) {
    m.push_back({"cpu:c:keep" + std::to_string(k), "a branch changes register limb " + std::to_string(k), [k](AirTrace& t) {
                   for (size_t r = 0; r + 1 < real_rows(t); ++r)
                     if (get(t, "cpu", r, "f_branch") == 1 && get(t, "cpu", r, "wr") != 0) {
                       at(t, "cpu", r, ("d_v" + std::to_string(k)).c_str()) ^= 1;
                       rebalance(t, true);
                       return true;
                     }
                   return false;
                 }});
    m.push_back({"cpu:c:keep" + std::to_string(k) + "_last", "no padding, and the exit changes a0's limb " + std::to_string(k),
                 [k](AirTrace& t) {
                   const size_t n = real_rows(t);
                   t.table("cpu").rows.resize(n);
                   at(t, "cpu", n - 1, ("d_v" + std::to_string(k)).c_str()) ^= 1;
                   rebalance(t, true);
                   return true;
                 }});
  }
  m.push_back({"range16:c:value_first", "the range table shifted to start at p - 100", [](AirTrace& t) {
                 auto& b = t.table("range16");
                 for (size_t r = 0; r < b.height(); ++r) b.rows[r][0] = (r + P - 100) % P;
                 rebalance(t);
                 return true;
               }, Mutation::Base::kMini});
  m.push_back({"range16:c:value_step", "two range rows swapped", [](AirTrace& t) {
                 std::swap(t.table("range16").rows[60000], t.table("range16").rows[60001]);
                 return true;
               }});
  m.push_back({"range16:b:table", "a range multiplicity off by one", [](AirTrace& t) {
                 t.table("range16").rows[0][1] += 1;
                 return true;
               }});
  m.push_back({"regs:c:reg_first", "the register table starts at x(-2)", [](AirTrace& t) {
                 auto& regs = t.table("regs");
                 for (size_t r = 0; r < 32; ++r) regs.rows[r][0] = (r + P - 2) % P;
                 rebalance(t);
                 return true;
               }, Mutation::Base::kMini});
  m.push_back({"regs:c:reg_step", "two register rows swapped", [](AirTrace& t) {
                 std::swap(t.table("regs").rows[3], t.table("regs").rows[4]);
                 return true;
               }});
  m.push_back({"regs:b:init", "register x5 starts at 1", [](AirTrace& t) {
                 // the initial token is fixed (0): claim instead a final value one off
                 t.table("regs").rows[5][2] ^= 1;
                 return true;
               }});
  m.push_back({"regs:b:final", "a final register token off by one timestamp", [](AirTrace& t) {
                 t.table("regs").rows[2][1] += 1;
                 return true;
               }});
}

}  // namespace

void cpu_mutations(std::vector<Mutation>& m) {
  byte_table(m);
  cpu_rows(m);
  cpu_pc(m);
  cpu_decode(m);
  cpu_opcode_class(m);
  cpu_pc_update_and_halting(m);
  cpu_lui_and_links(m);
  cpu_adder(m);
  cpu_registers(m);
}

void exit_mutations(std::vector<Mutation>& m) {
  using B = Mutation::Base;

  m.push_back({"cpu:c:exit_number", "fault class 'exit moved': the run claims to exit at an ecall with a7 = 0", [](AirTrace& t) {
                 at(t, "cpu", 0, "next_pc") = get(t, "cpu", 0, "pc");
                 at(t, "cpu", 0, "sys_exit") = 1;
                 pad_from(t, 1);
                 rebalance(t);
                 t.publics["exit_code"] = 0;  // a0 there
                 return true;
               }, B::kJumps});
  m.push_back({"cpu:c:exit_number_hi", "the exit ecall with a7 = 93 + 2^16 (a program that starts lui a7, 0x10; addi a7, a7, 93)",
               [](AirTrace& t) {
                 set_rom_word(t, 0, 0x000108b7);  // lui a7, 0x10
                 set_limbs(t, 0, "d_v", 65536), set_limbs(t, 0, "res", 0);  // no ALU send on a lui row
                 set_rom_word(t, 1, 0x05d88893);  // addi a7, a7, 93
                 set_limbs(t, 1, "d_v", 65536 + 93);
                 rebalance(t);
                 return true;
               }, B::kExit});
  m.push_back({"cpu:c:exit_e", "the exit ecall with a7 = 95 (a program whose second instruction is addi a7, a7, 2) and exit_e = 0",
               [](AirTrace& t) {
                 rewrite_rom(t, 1, 0x00288893);  // addi a7, a7, 2
                 set_limbs(t, 1, "d_v", 95);
                 rebalance(t);
                 at(t, "cpu", 4, "exit_e") = 0;
                 return true;
               }, B::kExit});
  auto continue_after_exit = [](AirTrace& t, bool flag) {  // the exit ecall goes on to its twin
    at(t, "cpu", 4, "next_pc") = 0x10014;
    at(t, "cpu", 4, "sys_exit") = flag;
    auto& cpu = t.table("cpu");
    cpu.rows[5] = cpu.rows[4];
    at(t, "cpu", 5, "clk") = 5, at(t, "cpu", 5, "pc") = 0x10014, at(t, "cpu", 5, "next_pc") = 0x10014;
    at(t, "cpu", 5, "sys_exit") = 1;
    rebalance(t);
  };
  m.push_back({"cpu:c:not_exit", "an ecall with a7 = 93 that does not stop the run (returning -ENOSYS, the exit code then)",
               [continue_after_exit](AirTrace& t) {
                 continue_after_exit(t, false);
                 set_limbs(t, 4, "d_v", ~uint64_t{37});
                 rebalance(t);
                 t.publics["exit_code"] = 0xffffffdaull;
                 return true;
               }, B::kExit});
  m.push_back({"cpu:c:exit_last", "an exit ecall (flagged) that does not stop the run", [continue_after_exit](AirTrace& t) {
                 continue_after_exit(t, true);
                 return true;
               }, B::kExit});
  m.push_back({"cpu:c:sys_exit_bit", "sys_exit = 2 on a padding row", [](AirTrace& t) {
                 at(t, "cpu", first_padding(t), "sys_exit") = 2;
                 return true;
               }});
  m.push_back({"cpu:c:sys_exit_ecall", "sys_exit = 1 on a padding row", [](AirTrace& t) {
                 at(t, "cpu", first_padding(t), "sys_exit") = 1;
                 return true;
               }});
  for (const auto base : {B::kFib, B::kExit})
    m.push_back({"cpu:c:exit_code", "fault class 'exit code changed': the public exit code + 1", [](AirTrace& t) {
                   t.publics["exit_code"] += 1;
                   return true;
                 }, base});
}
}  // namespace zkrv::ref::air::fixture
