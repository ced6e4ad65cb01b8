// The reference evaluator, block by block in the order of spec/tables/*.md (lint: every ID once,
// in order; tests/air/spec_lint_test.cpp).
#include "reference/air/evaluate.h"

#include <string_view>
#include <unordered_map>

#include "reference/field/goldilocks.h"

namespace zkrv::ref::air {
namespace {

Fp f(uint64_t v) { return Fp::from_u64(v); }

// Reads a row (and the next one, for transition constraints) by column name; the names are
// resolved to indices once per table.
struct RowView {
  const TraceTable& t;
  const std::unordered_map<std::string_view, size_t>& index;
  size_t r;
  Fp operator()(std::string_view column) const { return f(t.rows[r][index.at(column)]); }
  Fp next(std::string_view column) const { return f(t.rows[r + 1][index.at(column)]); }
};
std::unordered_map<std::string_view, size_t> column_index(const TraceTable& t) {
  std::unordered_map<std::string_view, size_t> m;
  for (size_t c = 0; c < t.columns.size(); ++c) m[t.columns[c]] = c;
  return m;
}

// ---- byte (spec/tables/byte.md) ----
void eval_byte(const TraceTable& t, Sink& s) {
  const size_t h = t.height();
  const auto index = column_index(t);
  for (size_t r = 0; r < h; ++r) {
    const RowView x{t, index, r};
    // spec: byte:c:value_first
    if (r == 0) s.constraint("byte", "byte:c:value_first", r, x("value").value());
    // spec: byte:c:value_step
    if (r + 1 < h) s.constraint("byte", "byte:c:value_step", r, (x.next("value") - x("value") - f(1)).value());
    // spec: byte:b:table
    s.bus("byte", "byte:b:table", "byte", false, r, {x("value").value()}, x("mult").value());
  }
}

// ---- cpu (spec/tables/cpu.md) ----
void eval_cpu(const TraceTable& t, const AirTrace& trace, Sink& s) {
  const size_t h = t.height();
  static const char* const kFlags[] = {"f_lui", "f_auipc", "f_jal", "f_jalr", "f_branch", "f_load",
                                       "f_store", "f_opimm", "f_op", "f_opimm32", "f_op32", "f_system"};
  static const uint64_t kOpcodes[] = {0x37, 0x17, 0x6f, 0x67, 0x63, 0x03, 0x23, 0x13, 0x33, 0x1b, 0x3b, 0x73};
  const Fp entry = f(trace.publics.at("entry"));
  const auto index = column_index(t);
  for (size_t r = 0; r < h; ++r) {
    const RowView x{t, index, r};
    const bool first = r == 0, last = r + 1 == h, trans = r + 1 < h;
    const Fp one = f(1), is_real = x("is_real");
    auto c = [&](const char* id, Fp v) { s.constraint("cpu", id, r, v.value()); };
    // spec: cpu:c:real_bit
    c("cpu:c:real_bit", is_real * (is_real - one));
    // spec: cpu:c:real_first
    if (first) c("cpu:c:real_first", is_real - one);
    // spec: cpu:c:real_prefix
    if (trans) c("cpu:c:real_prefix", (one - is_real) * x.next("is_real"));
    // spec: cpu:c:clk_first
    if (first) c("cpu:c:clk_first", x("clk"));
    // spec: cpu:c:clk_step
    if (trans) c("cpu:c:clk_step", x.next("clk") - x("clk") - one);
    // spec: cpu:c:pc_first
    if (first) c("cpu:c:pc_first", x("pc") - entry);
    // spec: cpu:c:pc_flow
    if (trans) c("cpu:c:pc_flow", x.next("is_real") * (x.next("pc") - x("next_pc")));
    // spec: cpu:b:fetch
    s.bus("cpu", "cpu:b:fetch", "program", true, r, {x("pc").value(), x("insn").value()}, is_real.value());
    // spec: cpu:c:insn_bytes
    c("cpu:c:insn_bytes", x("insn") - x("b0") - f(256) * x("b1") - f(65536) * x("b2") - f(16777216) * x("b3"));
    // spec: cpu:b:byte0
    s.bus("cpu", "cpu:b:byte0", "byte", true, r, {x("b0").value()}, is_real.value());
    // spec: cpu:b:byte1
    s.bus("cpu", "cpu:b:byte1", "byte", true, r, {x("b1").value()}, is_real.value());
    // spec: cpu:b:byte2
    s.bus("cpu", "cpu:b:byte2", "byte", true, r, {x("b2").value()}, is_real.value());
    // spec: cpu:b:byte3
    s.bus("cpu", "cpu:b:byte3", "byte", true, r, {x("b3").value()}, is_real.value());
    // spec: cpu:c:rd0_bit
    c("cpu:c:rd0_bit", x("rd0") * (x("rd0") - one));
    // spec: cpu:c:f_lui_bit
    c("cpu:c:f_lui_bit", x("f_lui") * (x("f_lui") - one));
    // spec: cpu:c:f_auipc_bit
    c("cpu:c:f_auipc_bit", x("f_auipc") * (x("f_auipc") - one));
    // spec: cpu:c:f_jal_bit
    c("cpu:c:f_jal_bit", x("f_jal") * (x("f_jal") - one));
    // spec: cpu:c:f_jalr_bit
    c("cpu:c:f_jalr_bit", x("f_jalr") * (x("f_jalr") - one));
    // spec: cpu:c:f_branch_bit
    c("cpu:c:f_branch_bit", x("f_branch") * (x("f_branch") - one));
    // spec: cpu:c:f_load_bit
    c("cpu:c:f_load_bit", x("f_load") * (x("f_load") - one));
    // spec: cpu:c:f_store_bit
    c("cpu:c:f_store_bit", x("f_store") * (x("f_store") - one));
    // spec: cpu:c:f_opimm_bit
    c("cpu:c:f_opimm_bit", x("f_opimm") * (x("f_opimm") - one));
    // spec: cpu:c:f_op_bit
    c("cpu:c:f_op_bit", x("f_op") * (x("f_op") - one));
    // spec: cpu:c:f_opimm32_bit
    c("cpu:c:f_opimm32_bit", x("f_opimm32") * (x("f_opimm32") - one));
    // spec: cpu:c:f_op32_bit
    c("cpu:c:f_op32_bit", x("f_op32") * (x("f_op32") - one));
    // spec: cpu:c:f_system_bit
    c("cpu:c:f_system_bit", x("f_system") * (x("f_system") - one));
    // spec: cpu:c:one_class
    {
      Fp sum;
      for (const char* flag : kFlags) sum = sum + x(flag);
      c("cpu:c:one_class", sum - is_real);
    }
    // spec: cpu:c:opcode
    {
      Fp code;
      for (size_t k = 0; k < 12; ++k) code = code + f(kOpcodes[k]) * x(kFlags[k]);
      c("cpu:c:opcode", x("b0") - f(128) * x("rd0") - code);
    }
    // spec: cpu:c:ecall_only
    c("cpu:c:ecall_only", x("f_system") * (x("insn") - f(0x73)));
    // spec: cpu:c:pc_sequential
    c("cpu:c:pc_sequential", (x("f_lui") + x("f_auipc") + x("f_load") + x("f_store") + x("f_opimm") + x("f_op") +
                              x("f_opimm32") + x("f_op32")) * (x("next_pc") - x("pc") - f(4)));
    // spec: cpu:c:pc_ecall
    if (trans) c("cpu:c:pc_ecall", x.next("is_real") * x("f_system") * (x("next_pc") - x("pc") - f(4)));
    // spec: cpu:c:halt_system
    if (trans) c("cpu:c:halt_system", (is_real - x.next("is_real")) * (one - x("f_system")));
    // spec: cpu:c:halt_stays
    if (trans) c("cpu:c:halt_stays", (is_real - x.next("is_real")) * (x("next_pc") - x("pc")));
    // spec: cpu:c:halt_system_last
    if (last) c("cpu:c:halt_system_last", is_real * (one - x("f_system")));
    // spec: cpu:c:halt_stays_last
    if (last) c("cpu:c:halt_stays_last", is_real * (x("next_pc") - x("pc")));
  }
}

// ---- program (spec/tables/program.md) ----
void eval_program(const TraceTable& t, Sink& s) {
  const auto index = column_index(t);
  for (size_t r = 0; r < t.height(); ++r) {
    const RowView x{t, index, r};
    // spec: program:b:rom
    s.bus("program", "program:b:rom", "program", false, r, {x("pc").value(), x("insn").value()}, x("mult").value());
  }
}

}  // namespace

const std::vector<std::string>& bus_names() {
  static const std::vector<std::string> names = {"byte", "program"};
  return names;
}

void evaluate(const AirTrace& trace, Sink& sink) {
  eval_byte(trace.table("byte"), sink);
  eval_cpu(trace.table("cpu"), trace, sink);
  eval_program(trace.table("program"), sink);
}

}  // namespace zkrv::ref::air
