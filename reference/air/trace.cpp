#include "reference/air/trace.h"

#include <algorithm>
#include <array>
#include <functional>
#include <stdexcept>

#include "core/assert.h"
#include "reference/field/goldilocks.h"
#include "spec/air/spec.h"

namespace zkrv::ref::air {

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

using spec::air::padded_height;

// opcode -> the cpu table's class flag column
const std::map<uint32_t, std::string> kOpcodeFlags = {
    {0x37, "f_lui"},   {0x17, "f_auipc"}, {0x6f, "f_jal"}, {0x67, "f_jalr"},     {0x63, "f_branch"},
    {0x03, "f_load"},  {0x23, "f_store"}, {0x13, "f_opimm"}, {0x33, "f_op"},     {0x1b, "f_opimm32"},
    {0x3b, "f_op32"},  {0x73, "f_system"}, {0x0f, "f_fence"}};


using spec::sext32;

TraceTable alu_table_shape(const std::string& name) {
  TraceTable t{name, {"op"}, {}};
  for (const char* v : {"a", "b", "r"})
    for (int k = 0; k < 4; ++k) t.columns.push_back(v + std::to_string(k));
  for (const AluOp& o : alu_ops())
    if (o.table == name) t.columns.push_back(o.sel);
  auto add = [&](const char* v, int n) {
    for (int k = 0; k < n; ++k) t.columns.push_back(v + std::to_string(k));
  };
  if (name == "alu") {
    add("t", 4), add("c", 4), add("ab", 8), add("bb", 8), add("nb", 8);
    for (const char* c : {"sa", "sb", "ah", "bh", "sx", "lt", "nz", "nzinv", "w", "wh"}) t.columns.push_back(c);
  }
  if (name == "shift") {
    for (const char* c : {"sl", "s5", "m", "sl8", "sh", "z", "zinv", "e"}) t.columns.push_back(c);
    add("q", 4);
    t.columns.push_back("sa31"), t.columns.push_back("ah");
    add("x", 4);
    t.columns.push_back("rop");
    add("y", 4);
    t.columns.push_back("w"), t.columns.push_back("wh");
  }
  if (name == "div") {
    for (const char* c : {"sa31", "ah", "sb31", "bh"}) t.columns.push_back(c);
    add("x", 4), add("y", 4), add("q", 4), add("m", 4);
    for (const char* c : {"xs", "xh", "sx", "ys", "yh", "sy", "ms", "mh", "sm", "hop"}) t.columns.push_back(c);
    add("l", 4), add("h", 4), add("c", 4);
    for (const char* c : {"g", "ov", "ovinv", "dz", "dzinv"}) t.columns.push_back(c);
    add("ay", 4), add("cy", 3), add("am", 4), add("cm", 3), add("t", 4), add("e", 3);
    t.columns.push_back("w"), t.columns.push_back("wh");
  }
  if (name == "mul") {
    add("p", 8), add("kl", 7), add("kh", 7);
    for (const char* c : {"sa", "ah", "sb", "bh", "ga", "gb"}) t.columns.push_back(c);
    add("h", 4), add("bw", 4);
    t.columns.push_back("w"), t.columns.push_back("wh");
  }
  return t;
}

// The mul table's witnesses (core::mul_witness) for a row with operation code, operands and
// (claimed) result set.
void fill_mul_row(const TraceTable& t, std::vector<uint64_t>& row, uint64_t code, uint64_t a, uint64_t b) {
  auto set = [&](const std::string& c, uint64_t v) { row[t.col(c)] = v; };
  const core::MulWitness m = core::mul_witness(code, a, b);
  for (int i = 0; i < 8; ++i) set("p" + std::to_string(i), m.p[i]);
  for (int i = 0; i < 7; ++i) set("kl" + std::to_string(i), m.kl[i]), set("kh" + std::to_string(i), m.kh[i]);
  set("sa", m.sa), set("sb", m.sb), set("ah", m.ah), set("bh", m.bh), set("ga", m.ga), set("gb", m.gb);
  for (int k = 0; k < 4; ++k) set("h" + std::to_string(k), m.h[k]), set("bw" + std::to_string(k), m.bw[k]);
  set("w", m.w), set("wh", m.wh);
}

}  // namespace


void derive_alu_operands(TraceTable& cpu, size_t r) {
  auto& row = cpu.rows[r];
  auto x = [&](const char* c) { return Fp::from_u64(row[cpu.col(c)]); };
  auto i = [&](int k) { return x(("i" + std::to_string(k)).c_str()); };
  const Fp one = Fp::from_u64(1);
  const Fp reg = x("f_op") + x("f_op32"), imm = x("f_opimm") + x("f_opimm32");
  // spec: cpu:c:sh, cpu:c:sr, cpu:c:alt, cpu:c:aop
  const Fp sh = i(12) * (one - i(13)), sr = i(12) * i(14) * (one - i(13));
  const Fp alt = reg * i(30) + imm * sr * i(30);
  const Fp aop = x("funct3") + Fp::from_u64(8) * alt + Fp::from_u64(16) * (x("f_op32") + x("f_opimm32")) +
                 Fp::from_u64(32) * reg * i(25) + Fp::from_u64(64) * x("f_branch");
  row[cpu.col("sh")] = sh.value(), row[cpu.col("sr")] = sr.value(), row[cpu.col("alt")] = alt.value();
  row[cpu.col("aop")] = aop.value();
  // spec: cpu:c:opb0..3 (the I-immediate sign-extended, limb by limb)
  Fp imm0;
  for (int k = 20; k < 32; ++k) imm0 = imm0 + Fp::from_u64(uint64_t{1} << (k - 20)) * i(k);
  imm0 = imm0 + Fp::from_u64(61440) * i(31);
  const Fp rb = reg + x("f_branch");
  for (int k = 0; k < 4; ++k) {
    const Fp limb = k == 0 ? imm0 : Fp::from_u64(65535) * i(31);
    row[cpu.col("opb" + std::to_string(k))] = (rb * x(("b_v" + std::to_string(k)).c_str()) + imm * limb).value();
  }
}


void fill_div_witness(const TraceTable& t, std::vector<uint64_t>& row, uint64_t code, const DivCore& core,
                      const std::function<uint64_t(uint64_t, uint64_t, uint64_t)>& ask) {
  auto set = [&](const std::string& c, uint64_t v) { row[t.col(c)] = v; };
  auto get = [&](const std::string& c) { return Fp::from_u64(row[t.col(c)]); };
  auto limbs = [&](const char* prefix, uint64_t v) {
    for (int k = 0; k < 4; ++k) set(prefix + std::to_string(k), (v >> (16 * k)) & 0xffff);
  };
  auto limb_sum = [](uint64_t v) { return (v & 0xffff) + ((v >> 16) & 0xffff) + ((v >> 32) & 0xffff) + (v >> 48); };
  const bool sg = code == 36 || code == 38 || code == 52 || code == 54;
  const Fp k16 = Fp::from_u64(65536);
  set("sa31", core.sa31), set("ah", (Fp::from_u64(2) * get("a1") - k16 * Fp::from_u64(core.sa31)).value());
  set("sb31", core.sb31), set("bh", (Fp::from_u64(2) * get("b1") - k16 * Fp::from_u64(core.sb31)).value());
  const uint64_t x = core.x, y = core.y, q = core.q, m = core.m;
  limbs("x", x), limbs("y", y), limbs("q", q), limbs("m", m);
  const uint64_t xs = x >> 63, ys = y >> 63, ms = m >> 63;
  set("xs", xs), set("xh", 2 * (x >> 48) - 65536 * xs), set("sx", sg ? xs : 0);
  set("ys", ys), set("yh", 2 * (y >> 48) - 65536 * ys), set("sy", sg ? ys : 0);
  set("ms", ms), set("mh", 2 * (m >> 48) - 65536 * ms), set("sm", sg ? ms : 0);
  const uint64_t hop = sg ? 33 : 35;
  set("hop", hop);
  const uint64_t l = ask(32, q, y), h = ask(hop, q, y);
  limbs("l", l), limbs("h", h);
  uint64_t carry = 0;
  for (int k = 0; k < 4; ++k) {
    const uint64_t sum = ((l >> (16 * k)) & 0xffff) + ((m >> (16 * k)) & 0xffff) + carry;
    carry = sum >> 16;
    set("c" + std::to_string(k), carry);
  }
  set("g", h >> 63);
  const Fp sx = Fp::from_u64(sg ? xs : 0);
  const Fp ovsum = Fp::from_u64(1) - sx + Fp::from_u64(limb_sum(x)) - Fp::from_u64(32768) * sx + Fp::from_u64(262140) -
                   Fp::from_u64(limb_sum(y));
  set("ov", ovsum.value() == 0), set("ovinv", ovsum.value() == 0 ? 0 : ovsum.inverse().value());
  set("dz", y == 0), set("dzinv", y ? Fp::from_u64(limb_sum(y)).inverse().value() : 0);
  // |y| and |m| (negated where the operation reads them as negative), with the negation's carries
  auto absolute = [&](const char* out, const char* carries, uint64_t v, bool neg) {
    uint64_t c = neg;
    for (int k = 0; k < 4; ++k) {
      const uint64_t limb = (v >> (16 * k)) & 0xffff, sum = (neg ? 65535 - limb : limb) + c;
      set(out + std::to_string(k), sum & 0xffff);
      c = sum >> 16;
      if (k < 3) set(carries + std::to_string(k), c);
    }
  };
  absolute("ay", "cy", y, sg && ys), absolute("am", "cm", m, sg && ms);
  if (y != 0) fill_div_bound(t, row);
  const uint64_t r1 = row[t.col("r1")], w = r1 >> 15;
  set("w", w), set("wh", 2 * r1 - 65536 * w);
}

void fill_div_bound(const TraceTable& t, std::vector<uint64_t>& row) {
  uint64_t ay = 0, am = 0;
  for (int k = 0; k < 4; ++k)
    ay |= (row[t.col("ay" + std::to_string(k))] & 0xffff) << (16 * k), am |= (row[t.col("am" + std::to_string(k))] & 0xffff) << (16 * k);
  const uint64_t tv = ay - am - 1;  // |m| + t + 1 = |y|
  uint64_t c = 1;
  for (int k = 0; k < 4; ++k) {
    row[t.col("t" + std::to_string(k))] = (tv >> (16 * k)) & 0xffff;
    const uint64_t sum = ((am >> (16 * k)) & 0xffff) + ((tv >> (16 * k)) & 0xffff) + c;
    c = sum >> 16;
    if (k < 3) row[t.col("e" + std::to_string(k))] = c;
  }
}



void fill_syscall_witness(TraceTable& syscall, bool keep_kinds) { core::fill_syscall_witness<Fp>(syscall, keep_kinds); }

std::vector<uint64_t> make_mul_row(const TraceTable& mul, uint64_t code, uint64_t a, uint64_t b) {
  std::vector<uint64_t> row(mul.columns.size(), 0);
  const uint64_t r = alu_result(code, a, b).value();
  row[mul.col("op")] = code;
  for (int k = 0; k < 4; ++k) {
    row[mul.col("a" + std::to_string(k))] = (a >> (16 * k)) & 0xffff;
    row[mul.col("b" + std::to_string(k))] = (b >> (16 * k)) & 0xffff;
    row[mul.col("r" + std::to_string(k))] = (r >> (16 * k)) & 0xffff;
  }
  row[mul.col(find_op(code)->sel)] = 1;
  fill_mul_row(mul, row, code, a, b);
  return row;
}

void fill_alu_tables(AirTrace& trace) {
  const TraceTable& cpu = trace.table("cpu");
  TraceTable alu = alu_table_shape("alu"), mul = alu_table_shape("mul"), shift = alu_table_shape("shift"),
             div = alu_table_shape("div");
  // a mul row for (code, a, b) with the result the multiplication gives
  auto add_mul = [&](uint64_t code, uint64_t a, uint64_t b) {
    mul.rows.push_back(make_mul_row(mul, code, a, b));
    return alu_result(code, a, b).value();
  };
  auto limbs = [&](size_t r, const std::string& prefix) {
    uint64_t v = 0;
    for (int k = 0; k < 4; ++k) v |= (cpu.rows[r][cpu.col(prefix + std::to_string(k))] & 0xffff) << (16 * k);
    return v;
  };
  for (size_t r = 0; r < cpu.height(); ++r) {
    const Fp mult = Fp::from_u64(cpu.rows[r][cpu.col("f_op")]) + Fp::from_u64(cpu.rows[r][cpu.col("f_opimm")]) +
                    Fp::from_u64(cpu.rows[r][cpu.col("f_op32")]) + Fp::from_u64(cpu.rows[r][cpu.col("f_opimm32")]) +
                    Fp::from_u64(cpu.rows[r][cpu.col("f_branch")]);
    if (mult.value() == 0) continue;
    const uint64_t code = cpu.rows[r][cpu.col("aop")];
    const AluOp* op = find_op(code);
    const std::string where = op ? op->table : "alu";
    TraceTable& t = where == "mul" ? mul : where == "shift" ? shift : where == "div" ? div : alu;
    std::vector<uint64_t> row(t.columns.size(), 0);
    auto set = [&](const std::string& c, uint64_t v) { row[t.col(c)] = v; };
    set("op", code);
    for (const char* v : {"a", "b", "r"}) {
      const std::string src = v[0] == 'a' ? "a_v" : v[0] == 'b' ? "opb" : "res";
      for (int k = 0; k < 4; ++k) set(v + std::to_string(k), cpu.rows[r][cpu.col(src + std::to_string(k))]);
    }
    if (op) set(op->sel, 1);
    if (&t == &mul) fill_mul_row(mul, row, code, limbs(r, "a_v"), limbs(r, "opb"));
    if (&t == &div) fill_div_witness(div, row, code, div_core(code, limbs(r, "a_v"), limbs(r, "opb")), add_mul);
    if (&t == &shift) {  // the amount, the power of two, and the multiplication asked of the mul table
      const uint64_t a = limbs(r, "a_v"), b = limbs(r, "opb");
      const bool word = code == 17 || code == 21 || code == 29, left = code == 1 || code == 17;
      const uint64_t b0 = b & 0xffff, sl = b0 & 31, s5 = (b0 >> 5) & 1, sh = word ? sl : sl + 32 * s5;
      auto set = [&](const std::string& c, uint64_t v) { row[t.col(c)] = v; };
      set("sl", sl), set("s5", s5), set("m", b0 >> 6), set("sl8", 8 * sl), set("sh", sh), set("z", sh == 0);
      set("zinv", sh ? Fp::from_u64(sh).inverse().value() : 0);
      const uint64_t e = left ? sh : sh ? 64 - sh : 0, q = uint64_t{1} << e;
      set("e", e);
      const uint64_t sa31 = (a >> 31) & 1;
      set("sa31", sa31), set("ah", 2 * ((a >> 16) & 0xffff) - 65536 * sa31);
      const uint64_t x = code == 21 ? (a & 0xffffffffull) : code == 29 ? sext32(a) : a;
      const uint64_t rop = code == 1 ? 32 : code == 17 ? 48 : (code == 5 || code == 21) ? 35 : 34;
      set("rop", rop);
      for (int k = 0; k < 4; ++k) set("q" + std::to_string(k), (q >> (16 * k)) & 0xffff), set("x" + std::to_string(k), (x >> (16 * k)) & 0xffff);
      const uint64_t y = add_mul(rop, x, q);
      for (int k = 0; k < 4; ++k) set("y" + std::to_string(k), (y >> (16 * k)) & 0xffff);
      const uint64_t r1 = row[t.col("r1")], w = r1 >> 15;
      set("w", w), set("wh", 2 * r1 - 65536 * w);
    }
    if (&t == &alu) {
      const uint64_t a = limbs(r, "a_v"), b = limbs(r, "opb");
      const bool add = code == 0 || code == 16, bitwise = code == 4 || code == 6 || code == 7;
      // the adder: add rows a + b = t; the others t + b = a (t = a - b)
      uint64_t tv = 0;
      if (!bitwise) {
        tv = add ? a + b : a - b;
        uint64_t carry = 0;
        for (int k = 0; k < 4; ++k) {
          const uint64_t x = ((add ? a : tv) >> (16 * k)) & 0xffff, y = (b >> (16 * k)) & 0xffff;
          const uint64_t limb = x + y + carry;
          carry = limb >> 16;
          set("t" + std::to_string(k), (tv >> (16 * k)) & 0xffff);
          set("c" + std::to_string(k), carry);
        }
      }
      for (int k = 0; k < 8; ++k) {
        const uint64_t x = (a >> (8 * k)) & 0xff, y = (b >> (8 * k)) & 0xff;
        set("ab" + std::to_string(k), x), set("bb" + std::to_string(k), y), set("nb" + std::to_string(k), x & y);
      }
      const uint64_t sa = a >> 63, sb = b >> 63, c3 = row[t.col("c3")];
      set("sa", sa), set("sb", sb);
      set("ah", 2 * (((a >> 56) & 0xff) - 128 * sa)), set("bh", 2 * (((b >> 56) & 0xff) - 128 * sb));
      set("sx", sa ^ sb), set("lt", c3 ^ sa ^ sb);
      const uint64_t sum = (tv & 0xffff) + ((tv >> 16) & 0xffff) + ((tv >> 32) & 0xffff) + (tv >> 48);
      set("nz", sum != 0), set("nzinv", sum ? Fp::from_u64(sum).inverse().value() : 0);
      const uint64_t w = (tv >> 31) & 1;
      set("w", w), set("wh", 2 * (((tv >> 16) & 0xffff) - 32768 * w));
    }
    t.rows.push_back(std::move(row));
  }
  for (TraceTable* t : {&alu, &div, &mul, &shift})
    t->rows.resize(padded_height(t->rows.size(), 2), std::vector<uint64_t>(t->columns.size(), 0));
  trace.table("alu") = std::move(alu);
  trace.table("mul") = std::move(mul);
  trace.table("shift") = std::move(shift);
  trace.table("div") = std::move(div);
}

void replay_memory(AirTrace& trace, bool keep_load_bytes) {
  TraceTable& cpu = trace.table("cpu");
  TraceTable& io = trace.table("io");
  const TraceTable& segs = trace.table("segments");
  const TraceTable& img = trace.table("image");
  struct Seg {
    uint64_t start, file_end, end, w;
  };
  std::vector<Seg> segments;
  for (const auto& row : segs.rows)
    if (row[segs.col("end")] > row[segs.col("start")])
      segments.push_back({row[segs.col("start")], row[segs.col("file_end")], row[segs.col("end")], row[segs.col("w")]});
  std::map<uint64_t, uint8_t> file;
  for (const auto& row : img.rows)
    if (row[img.col("addr")] != 0) file[row[img.col("addr")]] = static_cast<uint8_t>(row[img.col("value")]);
  auto segment_of = [&](uint64_t a) -> const Seg* {
    for (const Seg& g : segments)
      if (a >= g.start && a < g.end) return &g;
    return nullptr;
  };
  struct State {
    uint64_t ts, value, w;
  };
  std::map<uint64_t, State> mem;  // address -> last token
  auto token = [&](uint64_t a) -> State& {
    auto it = mem.find(a);
    if (it != mem.end()) return it->second;
    const Seg* g = segment_of(a);
    const auto f = file.find(a);
    return mem[a] = State{0, f != file.end() ? f->second : uint64_t{0}, g ? g->w : 0};
  };
  // io rows by timestamp (they sit at ecall rows, which make no cpu access)
  std::multimap<uint64_t, size_t> io_at;
  for (size_t i = 0; i < io.height(); ++i)
    if (io.rows[i][io.col("is_real")]) io_at.emplace(io.rows[i][io.col("ts")], i);
  auto io_access = [&](size_t i) {
    auto& row = io.rows[i];
    State& st = token(row[io.col("addr")]);
    const uint64_t ts = row[io.col("ts")], gap = ts - st.ts - 1;
    row[io.col("prev_ts")] = st.ts, row[io.col("old")] = st.value, row[io.col("w")] = st.w;
    row[io.col("dt0")] = gap & 0xffff, row[io.col("dt1")] = (gap >> 16) & 0xffff;
    st = State{ts, row[io.col("new")], st.w};
  };
  auto io_it = io_at.begin();
  for (size_t r = 0; r < cpu.height(); ++r) {
    auto& row = cpu.rows[r];
    const uint64_t ts = 4 * row[cpu.col("clk")] + 3;
    for (; io_it != io_at.end() && io_it->first <= ts; ++io_it) io_access(io_it->second);
    const uint64_t addr = row[cpu.col("s0")] + 65536 * row[cpu.col("s1")];
    const bool load = row[cpu.col("f_load")] == 1;
    for (int j = 0; j < 8; ++j) {
      const std::string n = std::to_string(j);
      if (row[cpu.col("mo" + n)] != 1) continue;
      State& st = token(addr + j);
      const uint64_t gap = ts - st.ts - 1;
      row[cpu.col("mt" + n)] = st.ts, row[cpu.col("mv" + n)] = st.value, row[cpu.col("mw" + n)] = st.w;
      row[cpu.col("mda" + n)] = gap & 0xffff, row[cpu.col("mdb" + n)] = (gap >> 16) & 0xffff;
      if (load && !keep_load_bytes) row[cpu.col("mn" + n)] = st.value;
      st = State{ts, row[cpu.col("mn" + n)], st.w};
    }
    // a load's value: bytes read, then the extension
    for (const char* c : {"mtop", "msgn", "mh", "mext", "lv0", "lv1", "lv2", "lv3", "lv4", "lv5", "lv6", "lv7"})
      row[cpu.col(c)] = 0;
    if (load) {
      const int size = row[cpu.col("mo4")] ? 8 : row[cpu.col("mo2")] ? 4 : row[cpu.col("mo1")] ? 2 : row[cpu.col("mo0")] ? 1 : 0;
      const uint64_t top = size ? row[cpu.col("mv" + std::to_string(size - 1))] : 0, sign = top >> 7;
      const uint64_t ext = row[cpu.col("i14")] ? 0 : sign;
      row[cpu.col("mtop")] = top, row[cpu.col("msgn")] = sign, row[cpu.col("mh")] = 2 * (top - 128 * sign);
      row[cpu.col("mext")] = ext;
      for (int j = 0; j < 8; ++j)
        row[cpu.col("lv" + std::to_string(j))] = j < size ? row[cpu.col("mv" + std::to_string(j))] : 255 * ext;
    }
  }
  for (; io_it != io_at.end(); ++io_it) io_access(io_it->second);
  // the mem table: every touched address once, in order
  TraceTable m{"mem", trace.table("mem").columns, {}};
  for (const auto& [a, st] : mem) {
    std::vector<uint64_t> row(m.columns.size(), 0);
    auto set = [&](const char* c, uint64_t v) { row[m.col(c)] = v; };
    const Seg* g = segment_of(a);
    const Seg none{0, 0, 0, 0};
    const Seg& sg = g ? *g : none;
    const bool from_file = a < sg.file_end;
    set("is_real", 1), set("addr", a), set("fin_ts", st.ts), set("fin_v", st.value), set("w", sg.w);
    set("init", from_file ? file[a] : 0), set("from_file", from_file);
    set("start", sg.start), set("file_end", sg.file_end), set("end", sg.end);
    const uint64_t lo = a - sg.start, hi = sg.end - 1 - a, fd = from_file ? sg.file_end - 1 - a : a - sg.file_end;
    set("lo0", lo & 0xffff), set("lo1", (lo >> 16) & 0xffff), set("hi0", hi & 0xffff), set("hi1", (hi >> 16) & 0xffff);
    set("fd0", fd & 0xffff), set("fd1", (fd >> 16) & 0xffff);
    m.rows.push_back(std::move(row));
  }
  for (size_t i = 0; i + 1 < m.rows.size(); ++i) {
    const uint64_t gap = m.rows[i + 1][m.col("addr")] - m.rows[i][m.col("addr")] - 1;
    m.rows[i][m.col("gap0")] = gap & 0xffff, m.rows[i][m.col("gap1")] = (gap >> 16) & 0xffff;
  }
  m.rows.resize(padded_height(m.rows.size(), 2), std::vector<uint64_t>(m.columns.size(), 0));
  trace.table("mem") = std::move(m);
}

AirTrace build_trace(const spec::ProgramImage& image, const spec::ExecResult& run) {
  if (run.status != spec::ExitStatus::kExited) throw std::invalid_argument("only runs that exited can be checked");
  if (run.trace.size() != run.cycles || run.trace.empty())
    throw std::invalid_argument("the run carries no execution trace (ExecOptions::trace)");
  AirTrace t;
  t.publics["entry"] = image.entry;
  t.publics["exit_code"] = static_cast<uint32_t>(run.exit_code);

  // and8: row 256 x + y holds (x, y, x AND y); byte and range16: row r holds r. The
  // multiplicities are counted at the end (count_lookups).
  TraceTable and8{"and8", {"x", "y", "z", "mult"}, {}};
  for (uint64_t x = 0; x < 256; ++x)
    for (uint64_t y = 0; y < 256; ++y) and8.rows.push_back({x, y, x & y, 0});
  TraceTable byte{"byte", {"value", "mult"}, {}};
  for (uint64_t v = 0; v < 256; ++v) byte.rows.push_back({v, 0});
  TraceTable range16{"range16", {"value", "mult"}, {}};
  for (uint64_t v = 0; v < 65536; ++v) range16.rows.push_back({v, 0});

  // segments and image: the readable segments and their file bytes
  TraceTable segments{"segments", {"start", "file_end", "end", "w", "mult"}, {}};
  TraceTable img{"image", {"addr", "value", "mult"}, {}};
  // program: every aligned word of every executable segment, in address order
  TraceTable program{"program", {"pc", "insn", "mult"}, {}};
  std::map<uint64_t, size_t> rom_row;
  std::vector<const spec::Segment*> segs;
  for (const auto& s : image.segments) segs.push_back(&s);
  std::sort(segs.begin(), segs.end(), [](auto* a, auto* b) { return a->vaddr < b->vaddr; });
  for (const auto* s : segs) {
    if ((s->flags & spec::kFlagR) && s->memsz > 0) {
      segments.rows.push_back({s->vaddr, s->vaddr + s->data.size(), s->vaddr + s->memsz, (s->flags & spec::kFlagW) ? 1u : 0u, 0});
      for (size_t k = 0; k < s->data.size(); ++k) img.rows.push_back({s->vaddr + k, s->data[k], 0});
    }
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
  TraceTable cpu{"cpu", {"is_real", "clk", "pc", "next_pc", "insn", "b0", "rd0"}, {}};
  for (int k = 8; k < 32; ++k) cpu.columns.push_back("i" + std::to_string(k));
  for (const char* c : {"rd", "funct3", "rs1", "rs2", "funct7", "f_lui", "f_auipc", "f_jal", "f_jalr", "f_branch",
                        "f_load", "f_store", "f_opimm", "f_op", "f_opimm32", "f_op32", "f_system", "f_fence", "ra",
                        "rb", "wr"})
    cpu.columns.push_back(c);
  for (const char* v : {"a_v", "b_v", "d_old", "d_v"})
    for (int k = 0; k < 4; ++k) cpu.columns.push_back(v + std::to_string(k));
  for (const char* c : {"a_prev_ts", "b_prev_ts", "d_prev_ts", "a_dt0", "a_dt1", "b_dt0", "b_dt1", "d_dt0", "d_dt1",
                        "wr_inv", "wr_zero", "link", "pc0", "pc1", "c0", "c1", "c2", "c3", "s0", "s1", "s2", "s3", "half",
                        "lowbit", "sh", "sr", "alt", "aop"})
    cpu.columns.push_back(c);
  for (const char* v : {"opb", "res"})
    for (int k = 0; k < 4; ++k) cpu.columns.push_back(v + std::to_string(k));
  for (const char* c : {"sys_exit", "exit_e", "exit_inv"}) cpu.columns.push_back(c);
  for (const char* v : {"mo", "mv", "mn", "mw", "mt", "mda", "mdb", "sb"})
    for (int j = 0; j < 8; ++j) cpu.columns.push_back(v + std::to_string(j));
  for (const char* c : {"mtop", "msgn", "mh", "mext"}) cpu.columns.push_back(c);
  for (int j = 0; j < 8; ++j) cpu.columns.push_back("lv" + std::to_string(j));
  // the register file, replayed: value and timestamp of the last access of each register
  std::array<uint64_t, 32> reg_val{}, reg_ts{};
  TraceTable sys = syscall_table_shape();
  const size_t height = padded_height(run.trace.size(), 2);
  for (size_t i = 0; i < height; ++i) {
    cpu.rows.emplace_back(cpu.columns.size(), 0);
    std::vector<uint64_t>& row = cpu.rows.back();
    row[cpu.col("clk")] = i;
    row[cpu.col("wr_zero")] = 1;  // padding: wr = 0 (overwritten on real rows)
    if (i >= run.trace.size()) continue;
    const spec::StepRecord& s = run.trace[i];
    row[cpu.col("is_real")] = 1;
    row[cpu.col("pc")] = s.pc;
    row[cpu.col("next_pc")] = s.next_pc;
    row[cpu.col("insn")] = s.insn;
    row[cpu.col("b0")] = s.insn & 0xff;
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
    if (rom_row.find(s.pc) == rom_row.end()) throw std::invalid_argument("trace fetched outside the executable segments");
    // registers: three accesses at 4 clk + 1, 2, 3 (spec/tables/air.md)
    const uint32_t opcode = s.insn & 0x7f;
    const bool ecall = opcode == 0x73, last = i + 1 == run.trace.size();
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
      reg_ts[reg] = ts;
    };
    const uint64_t a_val = reg_val[ra], b_val = reg_val[rb];
    limbs("a_v", a_val);
    access(ra, 4 * i + 1, "a_prev_ts", "a_dt");
    limbs("b_v", b_val);
    access(rb, 4 * i + 2, "b_prev_ts", "b_dt");
    ZKRV_ASSERT(!((s.rs1 && s.rs1 == ra && s.rs1_value != a_val) || (s.rs2 && s.rs2 == rb && s.rs2_value != b_val)),
                "trace builder: replayed register value differs from the trace record");
    const bool writes = !(opcode == 0x23 || opcode == 0x63 || opcode == 0x0f || (ecall && last));
    const uint64_t old = reg_val[wr], now = writes && s.rd == wr ? s.rd_value : old;
    limbs("d_old", old);
    limbs("d_v", now);
    access(wr, 4 * i + 3, "d_prev_ts", "d_dt");
    reg_val[wr] = now;
    if (ecall && !last) {  // the syscall table's row: a1 and a2 read at 4 clk + 1 (spec/tables/syscall.md)
      push_syscall_row(sys, 4 * i + 1, a_val, b_val, now, reg_val[11], reg_val[12], reg_ts[11], reg_ts[12]);
      reg_ts[11] = reg_ts[12] = 4 * i + 1;
    }
    row[cpu.col("wr_zero")] = wr == 0;
    row[cpu.col("wr_inv")] = wr ? Fp::from_u64(wr).inverse().value() : 0;
    row[cpu.col("link")] = (opcode == 0x6f || opcode == 0x67) && wr != 0;
    // the pc's limbs, and the row's 64-bit addition (AUIPC: pc + imm_u; JALR: rs1 + imm_i)
    row[cpu.col("pc0")] = s.pc & 0xffff, row[cpu.col("pc1")] = s.pc >> 16;
    auto add64 = [&](uint64_t x, uint64_t y, const char* out) {
      uint64_t carry = 0;
      for (int k = 0; k < 4; ++k) {
        const uint64_t limb = ((x >> (16 * k)) & 0xffff) + ((y >> (16 * k)) & 0xffff) + carry;
        if (out) row[cpu.col(out + std::to_string(k))] = limb & 0xffff;
        carry = limb >> 16;
        row[cpu.col("c" + std::to_string(k))] = carry;
      }
    };
    const uint64_t imm_u = sext32(s.insn & 0xfffff000u);
    const uint64_t imm_i = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(s.insn)) >> 20);
    if (opcode == 0x17 && wr != 0) add64(s.pc, imm_u, nullptr);  // the sum itself is d_v
    if (opcode == 0x67) {
      add64(a_val, imm_i, "s");
      row[cpu.col("half")] = row[cpu.col("s0")] >> 1, row[cpu.col("lowbit")] = row[cpu.col("s0")] & 1;
    }
    // loads and stores: the address, the active bytes, a store's bytes
    if (opcode == 0x03 || opcode == 0x23) {
      const uint64_t imm_s = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(
                                 ((s.insn >> 25) << 5) | ((s.insn >> 7) & 31)) << 20) >> 20);
      add64(a_val, opcode == 0x03 ? imm_i : imm_s, "s");
      const int size = 1 << ((s.insn >> 12) & 3);
      for (int j = 0; j < size; ++j) row[cpu.col("mo" + std::to_string(j))] = 1;
      if (opcode == 0x23)
        for (int j = 0; j < 8; ++j) {
          row[cpu.col("sb" + std::to_string(j))] = (b_val >> (8 * j)) & 0xff;
          if (j < size) row[cpu.col("mn" + std::to_string(j))] = (b_val >> (8 * j)) & 0xff;
        }
    }
    // the exit ecall (a7 = 93 or 94) and, on the other ecalls, the inverse that proves a7 is not
    {
      const Fp e = (Fp::from_u64(a_val & 0xffff) - Fp::from_u64(93)) * (Fp::from_u64(a_val & 0xffff) - Fp::from_u64(94));
      const Fp z = e + Fp::from_u64(4294967296) * Fp::from_u64(((a_val >> 16) & 0xffff) + ((a_val >> 32) & 0xffff) + (a_val >> 48));
      const bool exit = ecall && (a_val == spec::kSysExit || a_val == spec::kSysExitGroup);
      ZKRV_ASSERT(exit == (ecall && last), "trace builder: the exit ecall is not the last cycle");
      row[cpu.col("sys_exit")] = exit;
      row[cpu.col("exit_e")] = ecall ? e.value() : 0;
      row[cpu.col("exit_inv")] = ecall && !exit ? z.inverse().value() : 0;
    }
    // the ALU: operation, second operand, result (checked against the executor's)
    derive_alu_operands(cpu, i);
    if (opcode == 0x33 || opcode == 0x13 || opcode == 0x3b || opcode == 0x1b || opcode == 0x63) {
      uint64_t b = 0;
      for (int k = 0; k < 4; ++k) b |= row[cpu.col("opb" + std::to_string(k))] << (16 * k);
      const auto res = alu_result(row[cpu.col("aop")], a_val, b);
      if (!res) throw std::invalid_argument("trace holds a reserved ALU or branch encoding");
      const uint64_t imm_b = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(
                                 ((s.insn >> 31) << 12) | (((s.insn >> 7) & 1) << 11) | (((s.insn >> 25) & 63) << 5) |
                                 (((s.insn >> 8) & 15) << 1)) << 19) >> 19);
      const bool taken_ok = opcode != 0x63 || s.next_pc == (*res ? s.pc + imm_b : s.pc + 4);
      ZKRV_ASSERT(!(opcode != 0x63 && wr != 0 && *res != now) && taken_ok,
                  "trace builder: the ALU result differs from the trace record");
      limbs("res", *res);
    }
  }
  program.rows.resize(padded_height(program.rows.size(), 1), {0, 0, 0});
  segments.rows.resize(padded_height(segments.rows.size(), 1), {0, 0, 0, 0, 0});
  img.rows.resize(padded_height(img.rows.size(), 1), {0, 0, 0});
  // io: the bytes read and write syscalls move, at their ecall's timestamp
  // (a group per syscall: idx, last, read, to the output, output position; spec/tables/io.md)
  TraceTable io{"io", {"is_real", "ts", "addr", "old", "new", "w", "prev_ts", "dt0", "dt1", "idx", "last", "rd", "out", "opos"}, {}};
  std::vector<uint8_t> written;  // the bytes written to fd 1, in order
  for (const auto& ev : run.syscalls) {
    const bool read = ev.number == spec::kSysRead && ev.args[0] == 0, write = ev.number == spec::kSysWrite && (ev.args[0] == 1 || ev.args[0] == 2);
    if (!read && !write) continue;
    const bool out = write && ev.args[0] == 1;
    for (size_t k = 0; k < ev.bytes.size(); ++k)
      io.rows.push_back({1, 4 * ev.cycle + 3, ev.args[1] + k, 0, ev.bytes[k], 0, 0, 0, 0, k, k + 1 == ev.bytes.size(), read, out,
                         out ? written.size() + k : k});
    if (out) written.insert(written.end(), ev.bytes.begin(), ev.bytes.end());
  }
  io.rows.resize(padded_height(io.rows.size(), 2), std::vector<uint64_t>(io.columns.size(), 0));
  ZKRV_ASSERT(written == run.output, "trace builder: the bytes written to fd 1 are not the run's output");
  TraceTable output{"output", {"is_real", "pos", "value"}, {}};
  for (size_t j = 0; j < run.output.size(); ++j) output.rows.push_back({1, j, run.output[j]});
  output.rows.resize(padded_height(output.rows.size(), 2), {0, 0, 0});

  TraceTable regs{"regs", {"reg", "final_ts", "final_v0", "final_v1", "final_v2", "final_v3"}, {}};
  for (uint64_t r = 0; r < 32; ++r)
    regs.rows.push_back({r, reg_ts[r], reg_val[r] & 0xffff, (reg_val[r] >> 16) & 0xffff, (reg_val[r] >> 32) & 0xffff,
                         reg_val[r] >> 48});
  t.tables.push_back(alu_table_shape("alu"));
  t.tables.push_back(std::move(and8));
  t.tables.push_back(std::move(byte));
  t.tables.push_back(std::move(cpu));
  t.tables.push_back(alu_table_shape("div"));
  t.tables.push_back(std::move(img));
  t.tables.push_back(std::move(io));
  t.tables.push_back(TraceTable{"mem",
                                {"is_real", "addr", "init", "fin_ts", "fin_v", "w", "from_file", "start", "file_end", "end",
                                 "lo0", "lo1", "hi0", "hi1", "fd0", "fd1", "gap0", "gap1"},
                                {}});
  t.tables.push_back(alu_table_shape("mul"));
  t.tables.push_back(std::move(output));
  {
    TraceTable pow2{"pow2", {"k", "q0", "q1", "q2", "q3", "mult"}, {}};
    for (uint64_t k = 0; k < 64; ++k) {
      const uint64_t q = uint64_t{1} << k;
      pow2.rows.push_back({k, q & 0xffff, (q >> 16) & 0xffff, (q >> 32) & 0xffff, q >> 48, 0});
    }
    t.tables.push_back(std::move(pow2));
  }
  t.tables.push_back(std::move(program));
  t.tables.push_back(std::move(range16));
  t.tables.push_back(std::move(regs));
  t.tables.push_back(std::move(segments));
  t.tables.push_back(alu_table_shape("shift"));
  sys.rows.resize(padded_height(sys.rows.size(), 2), std::vector<uint64_t>(sys.columns.size(), 0));
  fill_syscall_witness(sys);
  t.tables.push_back(std::move(sys));
  fill_alu_tables(t);
  replay_memory(t);
  // every load's value as the trace records it
  {
    const TraceTable& c = t.table("cpu");
    for (size_t i = 0; i < run.trace.size(); ++i) {
      const spec::StepRecord& s = run.trace[i];
      if ((s.insn & 0x7f) != 0x03 || s.rd == 0) continue;
      uint64_t v = 0;
      for (int j = 0; j < 8; ++j) v |= c.rows[i][c.col("lv" + std::to_string(j))] << (8 * j);
      ZKRV_ASSERT(v == s.rd_value, "trace builder: the replayed memory gives a load another value than the trace record");
    }
  }
  count_lookups(t);
  return t;
}

}  // namespace zkrv::ref::air
