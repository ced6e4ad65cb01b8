#pragma once
// What both trace builders compute alike (the reference's reference/air/trace and the optimized
// optimized/trace): a table as rows of named columns, the ALU operation codes of
// spec/tables/alu.md and their results, a mul row's witnesses, the core values of a division,
// and the syscall table's rows and witnesses. Integer arithmetic, or templated over the field
// where a witness is a field value (an inverse), so that each side uses its own arithmetic.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace zkrv::core {

// A table's rows: one vector of canonical field values per row, columns named and ordered as
// the spec declares them.
struct TraceTable {
  std::string name;
  std::vector<std::string> columns;
  std::vector<std::vector<uint64_t>> rows;
  size_t col(const std::string& column) const;  // throws std::out_of_range for an unknown name
  size_t height() const { return rows.size(); }
};

// The operation codes of spec/tables/alu.md, with their selector columns and receiving tables.
struct AluOp {
  uint64_t code;
  const char* sel;
  const char* table;  // the table that receives it: alu, mul, shift or div
};
std::span<const AluOp> alu_ops();
const AluOp* find_op(uint64_t code);  // nullptr for a code no table receives

// The result of ALU operation `op` (spec/tables/alu.md codes) on a and b; a branch's condition
// as 0 or 1. nullopt for a code no table receives.
std::optional<uint64_t> alu_result(uint64_t op, uint64_t a, uint64_t b);

// The core values of a div row (spec/tables/div.md): bit 31 of a and of b, the operands x and y
// as the operation extends them, the quotient q and the remainder m.
struct DivCore {
  uint64_t sa31 = 0, sb31 = 0, x = 0, y = 0, q = 0, m = 0;
};
// The true core of operation `code` (36..39, 52..55) on a and b.
DivCore div_core(uint64_t code, uint64_t a, uint64_t b);

// The witnesses of a mul row (spec/tables/mul.md) beside its operation, operands and result:
// the 16-bit limbs p of the unsigned 128-bit product a b, the carry out of each limb split into
// its low 16 bits kl and the rest kh, the sign bits sa, sb and the high-limb checks ah, bh, the
// corrections ga, gb of the signed high half, that high half's limbs h with their borrows bw,
// and MULW's bit 31 w with its check wh.
struct MulWitness {
  uint64_t p[8] = {}, kl[7] = {}, kh[7] = {};
  uint64_t sa = 0, ah = 0, sb = 0, bh = 0, ga = 0, gb = 0;
  uint64_t h[4] = {}, bw[4] = {};
  uint64_t w = 0, wh = 0;
};
// The witnesses of operation `code` (32..35, 48) on a and b.
MulWitness mul_witness(uint64_t code, uint64_t a, uint64_t b);

// The syscall table's columns (spec/tables/syscall.md).
TraceTable syscall_table_shape();
// Appends a real syscall row (is_real, ts, n*, f*, r*, b*, c*, bp, cp); the rest is zero until
// fill_syscall_witness. Both trace builders call it at an ecall that is not the exit.
void push_syscall_row(TraceTable& syscall, uint64_t ts, uint64_t n, uint64_t f, uint64_t r, uint64_t b, uint64_t c,
                      uint64_t bp, uint64_t cp);
// The syscall table's witnesses recomputed from each row's is_real, ts, n*, f*, r*, b*, c*, bp
// and cp (register gaps, kind, fd tests, the count bound of reads from the input, eof, the order
// gaps), as the spec defines them, in F (ref::Fp or opt::Fp: the same values). keep_kinds: the
// rows' k_* columns stay as they are (tests: an ecall claimed as another kind) instead of being
// decided by a7.
template <class F>
void fill_syscall_witness(TraceTable& t, bool keep_kinds = false) {
  const F k16 = F::from_u64(65536);
  uint64_t eof = 0, opos = 0;
  for (size_t i = 0; i < t.height(); ++i) {
    auto& row = t.rows[i];
    auto set = [&](const char* c, uint64_t v) { row[t.col(c)] = v; };
    auto get = [&](const std::string& c) { return row[t.col(c)]; };
    auto value = [&](const char* v) {
      uint64_t x = 0;
      for (int k = 0; k < 4; ++k) x |= (get(v + std::to_string(k)) & 0xffff) << (16 * k);
      return x;
    };
    const std::array<uint64_t, 6> kinds = {get("k_read"), get("k_write"), get("k_random"), get("k_scope"), get("k_cycle"), get("k_other")};
    for (const char* c : {"bd0", "bd1", "cd0", "cd1", "k_read", "k_write", "k_random", "k_scope", "k_cycle", "k_other", "big", "biginv",
                          "p1", "p2", "p3", "p4", "p5", "pinv", "ob", "fz", "fzinv", "fw", "fo", "foinv", "g_in", "g_bad", "g_out", "d0",
                          "d1", "d2", "d3", "e0", "e1", "e2", "short", "shinv", "eof", "out1", "mv", "mvz", "mvinv", "opos",
                          "ostart", "tg0", "tg1"})
      set(c, 0);
    if (!get("is_real")) continue;
    const uint64_t ts = get("ts"), n = value("n"), fd = value("f"), res = value("r"), count = value("c");
    const uint64_t bgap = ts - get("bp") - 1, cgap = ts - get("cp") - 1;
    set("bd0", bgap & 0xffff), set("bd1", (bgap >> 16)), set("cd0", cgap & 0xffff), set("cd1", (cgap >> 16));
    bool k_read = n == 63, k_write = n == 64, k_random = n == 0x5A000, k_scope = n == 0x5A001 || n == 0x5A002, k_cycle = n == 0x5A003;
    bool k_other = !(k_read || k_write || k_random || k_scope || k_cycle);
    if (keep_kinds) k_read = kinds[0], k_write = kinds[1], k_random = kinds[2], k_scope = kinds[3], k_cycle = kinds[4], k_other = kinds[5];
    set("k_read", k_read), set("k_write", k_write), set("k_random", k_random), set("k_scope", k_scope), set("k_cycle", k_cycle),
        set("k_other", k_other);
    const uint64_t high = get("n2") + get("n3");
    set("big", high != 0), set("biginv", high ? F::from_u64(high).inverse().value() : 0);
    const F nl = F::from_u64(get("n0")) + k16 * F::from_u64(get("n1"));
    const F p1 = (nl - F::from_u64(63)) * (nl - F::from_u64(64)), p2 = p1 * (nl - F::from_u64(0x5A000)),
             p3 = p2 * (nl - F::from_u64(0x5A001)), p4 = p3 * (nl - F::from_u64(0x5A002)), p5 = p4 * (nl - F::from_u64(0x5A003));
    set("p1", p1.value()), set("p2", p2.value()), set("p3", p3.value()), set("p4", p4.value()), set("p5", p5.value());
    const bool ob = k_other && high == 0;
    set("ob", ob), set("pinv", ob ? p5.inverse().value() : 0);
    const uint64_t fsum = get("f0") + get("f1") + get("f2") + get("f3");
    set("fz", fsum == 0), set("fzinv", fsum ? F::from_u64(fsum).inverse().value() : 0);
    const F f0 = F::from_u64(get("f0"));
    const F fw = (f0 - F::from_u64(1)) * (f0 - F::from_u64(2)) + F::from_u64(4294967296) * F::from_u64(get("f1") + get("f2") + get("f3"));
    set("fw", fw.value()), set("fo", fw.value() == 0), set("foinv", fw.value() ? fw.inverse().value() : 0);
    const bool g_in = k_read && fd == 0, g_out = k_write && (fd == 1 || fd == 2);
    set("g_in", g_in), set("g_out", g_out), set("g_bad", (k_read && fd != 0) || (k_write && !(fd == 1 || fd == 2)));
    uint64_t dsum = 0;
    if (g_in) {  // r + d = a2 (d = a2 - r, which a read's count never exceeds)
      const uint64_t d = count - res;
      uint64_t carry = 0;
      for (int k = 0; k < 4; ++k) {
        const uint64_t dk = (d >> (16 * k)) & 0xffff, sum = ((res >> (16 * k)) & 0xffff) + dk + carry;
        row[t.col("d" + std::to_string(k))] = dk;
        dsum += dk;
        carry = sum >> 16;
        if (k < 3) row[t.col("e" + std::to_string(k))] = carry;
      }
    }
    set("short", dsum != 0), set("shinv", dsum ? F::from_u64(dsum).inverse().value() : 0);
    set("eof", eof);
    eof = eof | (dsum != 0);
    // the bytes moved (io groups) and the public output's length so far
    const bool out1 = g_out && fd == 1;
    const F mv = F::from_u64(g_in) * (F::from_u64(get("r0")) + k16 * F::from_u64(get("r1"))) +
                  F::from_u64(g_out) * (F::from_u64(get("c0")) + k16 * F::from_u64(get("c1")));
    set("out1", out1), set("mv", mv.value()), set("mvz", mv.value() != 0), set("mvinv", mv.value() ? mv.inverse().value() : 0);
    set("opos", opos), set("ostart", out1 ? opos : 0);
    if (out1) opos = (F::from_u64(opos) + mv).value();
    if (i + 1 < t.height() && t.rows[i + 1][t.col("is_real")]) {
      const uint64_t gap = t.rows[i + 1][t.col("ts")] - ts - 1;
      set("tg0", gap & 0xffff), set("tg1", (gap >> 16));
    }
  }
}

}  // namespace zkrv::core
