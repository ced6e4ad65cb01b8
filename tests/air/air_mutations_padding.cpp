// Mutations that break one constraint and nothing else, with values from zkrv-air-solve: on
// padding rows (padding_mutations) and on real rows (changed_row_mutations).
#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "tests/air/air_fixture.h"

namespace zkrv::ref::air::fixture {

void padding_mutations(std::vector<Mutation>& m) {
  // Padding rows: nothing reads them (every interaction's multiplicity is 0 and the constraints
  // that use their values are gated), so some constraints only keep padding canonical there. A
  // padding-row mutation changes one padding row whose neighbours are padding rows too (the
  // table extended with the padding rows its spec declares when it has no such row) to values that break one constraint and nothing
  // else, every interaction staying inactive. Most of the values come from
  // `zkrv-air-solve --padding` (tools/air_solve); the trace confirms each.
  auto padding_row = [](AirTrace& t, const std::string& table) -> size_t {
    auto& tt = t.table(table);
    const bool has_real = std::find(tt.columns.begin(), tt.columns.end(), "is_real") != tt.columns.end();
    auto is_padding = [&](size_t r) {  // no is_real (alu, div, mul, shift): a padding row is a zero row
      if (has_real) return tt.rows[r][tt.col("is_real")] == 0;
      return std::all_of(tt.rows[r].begin(), tt.rows[r].end(), [](uint64_t v) { return v == 0; });
    };
    for (size_t r = 1; r + 1 < tt.height(); ++r)
      if (is_padding(r - 1) && is_padding(r) && is_padding(r + 1)) return r;
    const auto& padding = the_spec().table(table)->padding;  // the row the spec pads with
    if (!padding) throw std::logic_error("table " + table + " has no padding row");
    const size_t h = tt.height();
    for (size_t r = h; r < 2 * h; ++r) {
      std::vector<uint64_t> row(tt.columns.size(), 0);
      for (const auto& [col, v] : padding->fixed) row[tt.col(col)] = v;
      for (const auto& col : padding->counting) row[tt.col(col)] = r;
      tt.rows.push_back(std::move(row));
    }
    return h + 1;
  };
  struct Padded {
    const char* id;
    const char* table;
    std::vector<std::pair<const char*, uint64_t>> set;
    const char* what = "";  // why the values, where they were chosen by hand
  };
  const uint64_t h2 = P - 131072;  // 2 x − 65536 s − h = 0 with x = 0, s = 2
  for (const Padded& c : std::vector<Padded>{
           {"alu:c:c0_bit", "alu", {{"c0", 2}}, ""},
           {"alu:c:c1_bit", "alu", {{"c1", 2}}, ""},
           {"alu:c:c2_bit", "alu", {{"c2", 2}}, ""},
           {"div:c:e0_bit", "div", {{"e0", 2}}, ""},
           {"div:c:e1_bit", "div", {{"e1", 2}}, ""},
           {"div:c:e2_bit", "div", {{"e2", 2}}, ""},
           {"syscall:c:e0_bit", "syscall", {{"e0", 2}}, ""},
           {"syscall:c:e1_bit", "syscall", {{"e1", 2}}, ""},
           {"syscall:c:e2_bit", "syscall", {{"e2", 2}}, ""},
           {"syscall:c:eof_bit", "syscall", {{"eof", 2}}, ""},
           {"io:c:rd_bit", "io", {{"rd", 2}, {"w", 1}}, ", w = 1: a read's segment is writable"},
           {"alu:c:c3_bit", "alu", {{"c3", 2}, {"lt", 2}}, ", lt = 2 with it, as alu:c:lt asks"},
           {"alu:c:w_bit", "alu", {{"w", 2}, {"wh", h2}}, ", wh = −131072, as alu:c:w asks"},
           {"mul:c:w_bit", "mul", {{"w", 2}, {"wh", h2}}, ", wh = −131072, as mul:c:w asks"},
           {"mul:c:sa_bit", "mul", {{"sa", 2}, {"ah", h2}}, ", ah = −131072, as mul:c:sa asks"},
           {"alu:c:sa_bit", "alu", {{"sa", 2}, {"ah", P - 512}, {"sx", 2}, {"lt", 2}}, ", ah = −512, sx = lt = 2, as alu:c:sa, sx, lt ask"},
           {"alu:c:sb_bit", "alu", {{"sb", 2}, {"bh", P - 512}, {"sx", 2}, {"lt", 2}}, ", bh = −512, sx = lt = 2, as alu:c:sb, sx, lt ask"},
           {"mul:c:sb_bit", "mul", {{"sb", 2}, {"bh", h2}}, ", bh = −131072, as mul:c:sb asks"},
           {"div:c:sa31_bit", "div", {{"sa31", 2}, {"ah", h2}}, ", ah = −131072, as div:c:sa31 asks"},
           {"div:c:sb31_bit", "div", {{"sb31", 2}, {"bh", h2}}, ", bh = −131072, as div:c:sb31 asks"},
           {"div:c:xs_bit", "div", {{"xs", 2}, {"xh", h2}}, ", xh = −131072, as div:c:xs asks"},
           {"div:c:ys_bit", "div", {{"ys", 2}, {"yh", h2}}, ", yh = −131072, as div:c:ys asks"},
           {"div:c:ms_bit", "div", {{"ms", 2}, {"mh", h2}}, ", mh = −131072, as div:c:ms asks"},
           {"div:c:w_bit", "div", {{"w", 2}, {"wh", h2}}, ", wh = −131072, as div:c:w asks"},
           {"shift:c:sa31_bit", "shift", {{"sa31", 2}, {"ah", h2}}, ", ah = −131072, as shift:c:sa31 asks"},
           {"shift:c:w_bit", "shift", {{"w", 2}, {"wh", h2}}, ", wh = −131072, as shift:c:w asks"},
           {"shift:c:s5_bit", "shift", {{"s5", 2}, {"m", P - 1}}, ", m = −1, as shift:c:amount_bits asks"},
           // found by zkrv-air-solve --padding
           {"alu:c:s_add_bit", "alu", {{"op", 3}, {"s_add", P - 1}, {"s_sltu", 1}, {"nzinv", 1}}},
           {"alu:c:s_addw_bit", "alu", {{"s_sub", 1}, {"s_addw", P - 2}, {"s_subw", 1}}},
           {"alu:c:s_slt_bit", "alu", {{"s_add", 1}, {"s_slt", P - 2}, {"s_xor", 1}}},
           {"alu:c:s_sltu_bit", "alu", {{"s_add", 1}, {"s_sltu", P - 2}, {"s_or", 1}}},
           {"alu:c:s_and_bit", "alu", {{"s_addw", 1}, {"s_slt", 1}, {"s_xor", 1}, {"s_or", 1}, {"s_and", P - 4}}},
           {"cpu:c:rd0_bit", "cpu", {{"b0", P - 2048}, {"rd0", P - 16}, {"i11", 1}}},
           {"cpu:c:f_jal_bit", "cpu", {{"insn", P - 8}, {"b0", P - 8}, {"f_jal", P - 1}, {"f_jalr", 1}, {"d_v2", 1048576}, {"d_v3", P - 1048576}, {"wr_inv", 1048576}}},
           {"cpu:c:f_jalr_bit", "cpu", {{"insn", 8}, {"b0", 8}, {"f_jal", 1}, {"f_jalr", P - 1}, {"d_v2", P - 1048576}, {"d_v3", 1048576}, {"wr_inv", P - 1048576}}},
           {"cpu:c:f_branch_bit", "cpu", {{"next_pc", 4}, {"insn", P - 48}, {"b0", P - 48}, {"f_branch", P - 1}, {"f_op", 1}, {"d_old0", P - 2}, {"d_old1", 1}, {"d_old2", 2}, {"d_old3", P - 1}, {"d_v0", P - 2}, {"d_v1", 1}, {"d_v2", 2}, {"d_v3", P - 1}, {"half", P - 1}, {"lowbit", 1}, {"aop", P - 64}, {"mn7", P - 1048576}}},
           {"cpu:c:f_opimm_bit", "cpu", {{"insn", 8}, {"b0", 8}, {"f_opimm", P - 1}, {"f_opimm32", 1}, {"aop", 16}}},
           {"cpu:c:f_op_bit", "cpu", {{"next_pc", 4}, {"f_branch", 1}, {"f_opimm", 1}, {"f_op", P - 4}, {"f_opimm32", 1}, {"f_op32", 1}, {"aop", 96}}},
           {"cpu:c:f_opimm32_bit", "cpu", {{"insn", 32}, {"b0", 32}, {"f_opimm32", P - 1}, {"f_op32", 1}}},
           {"cpu:c:f_op32_bit", "cpu", {{"next_pc", 4}, {"f_branch", 1}, {"f_opimm", 1}, {"f_op32", P - 2}, {"aop", 32}}},
           {"cpu:c:f_fence_bit", "cpu", {{"next_pc", 4}, {"insn", 88}, {"b0", 88}, {"f_jalr", 1}, {"f_fence", P - 1}, {"a_v0", 4}, {"a_v2", 4}, {"a_v3", P - 4}, {"d_old1", P - 1}, {"d_old2", 1}, {"d_v1", P - 1}, {"d_v2", 1}, {"s0", 4}, {"s2", 4}, {"s3", P - 4}, {"half", 2}}},
           {"cpu:c:ra", "cpu", {{"ra", P - 4}}},
           {"cpu:c:wr", "cpu", {{"wr", P - 1}, {"wr_inv", P - 1}, {"wr_zero", 0}}},
           {"cpu:c:msgn_bit", "cpu", {{"msgn", P - 971}, {"mh", 248576}, {"mext", P - 971}}},
           {"div:c:s_div_bit", "div", {{"op", 3}, {"s_div", P - 1}, {"s_remu", 1}, {"hop", 2}}},
           {"div:c:s_divu_bit", "div", {{"s_div", 1}, {"s_divu", P - 2}, {"s_rem", 1}, {"hop", P - 4}}},
           {"div:c:s_rem_bit", "div", {{"s_divu", 1}, {"s_rem", P - 2}, {"s_remu", 1}, {"hop", 4}}},
           {"div:c:s_remu_bit", "div", {{"op", P - 2}, {"s_divu", 1}, {"s_remu", P - 1}}},
           {"div:c:s_divw_bit", "div", {{"op", 2}, {"s_divw", P - 1}, {"s_remw", 1}}},
           {"div:c:s_divuw_bit", "div", {{"op", 1}, {"s_divuw", P - 1}, {"s_remw", 1}, {"hop", P - 2}}},
           {"div:c:s_remw_bit", "div", {{"op", 1}, {"s_remw", P - 1}, {"s_remuw", 1}, {"hop", 2}, {"e0", 1}}},
           {"div:c:s_remuw_bit", "div", {{"op", P - 2}, {"s_divuw", 1}, {"s_remuw", P - 1}}},
           {"div:c:ms", "div", {{"mh", P - 1}}},
           {"div:c:sm", "div", {{"a2", P - 65536}, {"r0", 1048576}, {"r2", P - 1048576}, {"r3", 1048576}, {"x2", P - 65536}, {"q0", 1048576}, {"q2", P - 1048576}, {"q3", 1048576}, {"m2", P - 65536}, {"m3", 65536}, {"mh", 131072}, {"sm", 1}, {"c3", 1}, {"am2", 65536}, {"cm0", 1}, {"cm1", 1}, {"cm2", 1}}},
           {"div:c:hop", "div", {{"hop", P - 4}}},
           {"div:c:c0_bit", "div", {{"l0", P - 983040}, {"l1", 15}, {"c0", P - 15}}},
           {"div:c:c1_bit", "div", {{"l1", P - 196608}, {"l2", 3}, {"c1", P - 3}}},
           {"div:c:c2_bit", "div", {{"l2", P - 196608}, {"l3", 3}, {"c2", P - 3}}},
           {"div:c:c3_bit", "div", {{"l3", P - 589824}, {"h0", 9}, {"c3", P - 9}}},
           {"div:c:g_bit", "div", {{"h0", P - 1048576}, {"h1", P - 1048560}, {"h2", P - 1048560}, {"h3", P - 1048560}, {"g", P - 16}}},
           {"div:c:cy0_bit", "div", {{"ay0", 589824}, {"ay1", P - 9}, {"cy0", P - 9}}},
           {"div:c:cy1_bit", "div", {{"ay1", P - 1048576}, {"ay2", 16}, {"cy1", 16}}},
           {"div:c:cy2_bit", "div", {{"ay2", 589824}, {"ay3", P - 9}, {"cy2", P - 9}}},
           {"div:c:cm0_bit", "div", {{"am0", 589824}, {"am1", P - 9}, {"cm0", P - 9}}},
           {"div:c:cm1_bit", "div", {{"am1", P - 1048576}, {"am2", 16}, {"cm1", 16}}},
           {"div:c:cm2_bit", "div", {{"am2", 589824}, {"am3", P - 9}, {"cm2", P - 9}}},
           {"mul:c:s_mul_bit", "mul", {{"op", 2}, {"s_mul", P - 1}, {"s_mulhsu", 1}}},
           {"mul:c:s_mulh_bit", "mul", {{"s_mul", 1}, {"s_mulh", P - 2}, {"s_mulhsu", 1}}},
           {"mul:c:s_mulhsu_bit", "mul", {{"op", P - 2}, {"s_mul", 1}, {"s_mulhsu", P - 1}}},
           {"mul:c:s_mulhu_bit", "mul", {{"op", P - 3}, {"s_mul", 1}, {"s_mulhu", P - 1}}},
           {"mul:c:s_mulw_bit", "mul", {{"op", P - 15}, {"s_mulh", 1}, {"s_mulw", P - 1}}},
           {"mul:c:bw0_small", "mul", {{"h0", P - 65536}, {"h1", 1}, {"bw0", P - 1}}},
           {"mul:c:bw1_small", "mul", {{"h1", P - 65536}, {"h2", 1}, {"bw1", P - 1}}},
           {"mul:c:bw2_small", "mul", {{"h2", P - 65536}, {"h3", 1}, {"bw2", P - 1}}},
           {"shift:c:s_sll_bit", "shift", {{"op", 4}, {"s_sll", P - 1}, {"s_srl", 1}, {"z", 1}, {"rop", 3}}},
           {"shift:c:s_srl_bit", "shift", {{"op", P - 4}, {"s_sll", 1}, {"s_srl", P - 1}, {"z", 1}, {"rop", P - 3}}},
           {"shift:c:s_sra_bit", "shift", {{"s_srl", 1}, {"s_sra", P - 2}, {"s_srlw", 1}, {"z", P - 4}, {"rop", 2}}},
           {"shift:c:s_sllw_bit", "shift", {{"s_sll", 1}, {"s_sllw", P - 3}, {"s_srlw", 1}, {"s_sraw", 1}, {"e", 128}, {"rop", P - 43}}},
           {"shift:c:s_srlw_bit", "shift", {{"s_sra", 1}, {"s_srlw", P - 2}, {"s_sraw", 1}, {"rop", P - 2}}},
           {"shift:c:s_sraw_bit", "shift", {{"op", P - 16}, {"s_sra", 1}, {"s_sraw", P - 1}}},
           {"syscall:c:ostart", "syscall", {{"ostart", P - 1}}},
       })
  {
    std::string what = std::string("a padding row of ") + c.table + " with";
    for (const auto& [col, v] : c.set)
      what += std::string(" ") + col + " = " + (v > P / 2 ? "-" + std::to_string(P - v) : std::to_string(v));
    m.push_back({c.id, what + c.what,
                 [padding_row, c](AirTrace& t) {
                   const size_t r = padding_row(t, c.table);
                   auto& tt = t.table(c.table);
                   for (const auto& [col, v] : c.set) tt.rows[r][tt.col(col)] = v;
                   return true;
                 }});
  }
}

void changed_row_mutations(std::vector<Mutation>& m) {
  // Real rows changed so that one constraint alone breaks, every interaction of the row and of
  // the row before it kept (a lookup's count recounted): values from `zkrv-air-solve --at` on
  // the rows of these programs. Each shows a column that only that constraint pins there.
  struct Changed {
    const char* id;
    Mutation::Base base;
    const char* table;
    size_t row;
    std::vector<std::pair<const char*, uint64_t>> set;
    const char* what;
  };
  using B = Mutation::Base;
  for (const Changed& c : std::vector<Changed>{
           {"syscall:c:mvz_inv", B::kSys, "syscall", 0, {{"mvinv", 13835058052060938242ull}}, "a read's mvinv one more"},
           {"syscall:c:opos_next", B::kSys, "syscall", 1, {{"opos", P - 4}}, "a read's output position −4 (a read moves no output)"},
           {"syscall:c:count1", B::kSys, "syscall", 3, {{"d1", 1}, {"short", 1}, {"shinv", 1}},
            "a read after the end with a shortfall of 2^16 in its limb 1 (short set to match)"},
           {"syscall:c:count2", B::kSys, "syscall", 3, {{"d2", 1}, {"short", 1}, {"shinv", 1}},
            "a read after the end with a shortfall of 2^32 in its limb 2 (short set to match)"},
           {"syscall:c:count3", B::kSys, "syscall", 3, {{"d3", 1}, {"short", 1}, {"shinv", 1}},
            "a read after the end with a shortfall of 2^48 in its limb 3 (short set to match)"},
           {"io:c:next_opos", B::kSys, "io", 0, {{"opos", P - 4}}, "a read group's first byte at output position −4 (a read moves no output)"},
           {"div:c:ov_def", B::kDiv, "div", 0, {{"ovinv", 4610241012517959080ull}}, "a division's ovinv changed"},
           {"div:c:dz_def", B::kDiv, "div", 0, {{"dzinv", 2635249152773512050ull}}, "a division's dzinv changed"},
           {"cpu:c:adder_s3", B::kMem, "cpu", 3, {{"c3", 1}}, "a store's address adder with a carry out of its top limb"},
           {"cpu:c:f_store_bit", B::kMem, "cpu", 24,
            {{"insn", P - 32}, {"b0", P - 32}, {"f_load", 1}, {"f_store", P - 1}, {"a_v0", P - 1048576}, {"a_v1", P - 1048575},
             {"a_v2", 1}, {"a_v3", 1048576}, {"b_v1", 65280}, {"s2", P - 1}, {"s3", 1}, {"sb3", 255}},
            "the padding row after the exit with f_load = 1, f_store = −1 (their interactions cancel)"},
           {"cpu:c:f_load_bit", B::kMem, "cpu", 24,
            {{"insn", 32}, {"b0", 32}, {"f_load", P - 1}, {"f_store", 1}, {"a_v0", 1048576}, {"a_v1", 1048575},
             {"a_v2", P - 1}, {"a_v3", P - 1048576}, {"b_v1", P - 65280}, {"s2", 1}, {"s3", P - 1}, {"sb3", P - 255}},
            "the padding row after the exit with f_load = −1, f_store = 1 (the f_store attack negated)"},
       })
    m.push_back({c.id, std::string(c.what) + " (row " + std::to_string(c.row) + " of " + c.table + ")",
                 [c](AirTrace& t) {
                   auto& tt = t.table(c.table);
                   if (c.row >= tt.height()) return false;
                   for (const auto& [col, v] : c.set) tt.rows[c.row][tt.col(col)] = v;
                   count_lookups(t);
                   return true;
                 },
                 c.base});
}

}  // namespace zkrv::ref::air::fixture
