#include "core/air/witness.h"

#include <stdexcept>

#include "spec/isa.h"

namespace zkrv::core {
namespace {

using spec::sext32;

const AluOp kAluOps[] = {
    {0, "s_add", "alu"},        {8, "s_sub", "alu"},        {16, "s_addw", "alu"},      {24, "s_subw", "alu"},
    {2, "s_slt", "alu"},        {3, "s_sltu", "alu"},       {4, "s_xor", "alu"},        {6, "s_or", "alu"},
    {7, "s_and", "alu"},        {64, "s_beq", "alu"},       {65, "s_bne", "alu"},       {68, "s_blt", "alu"},
    {69, "s_bge", "alu"},       {70, "s_bltu", "alu"},      {71, "s_bgeu", "alu"},      {32, "s_mul", "mul"},
    {33, "s_mulh", "mul"},      {34, "s_mulhsu", "mul"},    {35, "s_mulhu", "mul"},     {48, "s_mulw", "mul"},
    {1, "s_sll", "shift"},  {5, "s_srl", "shift"},  {13, "s_sra", "shift"}, {17, "s_sllw", "shift"},
    {21, "s_srlw", "shift"}, {29, "s_sraw", "shift"}, {36, "s_div", "div"}, {37, "s_divu", "div"},
    {38, "s_rem", "div"}, {39, "s_remu", "div"}, {52, "s_divw", "div"}, {53, "s_divuw", "div"},
    {54, "s_remw", "div"}, {55, "s_remuw", "div"}};

}  // namespace

size_t TraceTable::col(const std::string& column) const {
  for (size_t i = 0; i < columns.size(); ++i)
    if (columns[i] == column) return i;
  throw std::out_of_range("table " + name + " has no column " + column);
}

std::span<const AluOp> alu_ops() { return kAluOps; }
const AluOp* find_op(uint64_t code) {
  for (const AluOp& o : kAluOps)
    if (o.code == code) return &o;
  return nullptr;
}

std::optional<uint64_t> alu_result(uint64_t op, uint64_t a, uint64_t b) {
  using i64 = int64_t;
  using u128 = unsigned __int128;
  using i128 = __int128;
  const i64 sa = static_cast<i64>(a), sb = static_cast<i64>(b);
  const int32_t wa = static_cast<int32_t>(a), wb = static_cast<int32_t>(b);
  const uint32_t ua = static_cast<uint32_t>(a), ub = static_cast<uint32_t>(b);
  switch (op) {
    case 0: return a + b;
    case 8: return a - b;
    case 16: return sext32(a + b);
    case 24: return sext32(a - b);
    case 2: return sa < sb ? 1 : 0;
    case 3: return a < b ? 1 : 0;
    case 4: return a ^ b;
    case 6: return a | b;
    case 7: return a & b;
    case 64: return a == b ? 1 : 0;
    case 65: return a != b ? 1 : 0;
    case 68: return sa < sb ? 1 : 0;
    case 69: return sa >= sb ? 1 : 0;
    case 70: return a < b ? 1 : 0;
    case 71: return a >= b ? 1 : 0;
    case 1: return a << (b & 63);
    case 5: return a >> (b & 63);
    case 13: return static_cast<uint64_t>(sa >> (b & 63));
    case 17: return sext32(ua << (b & 31));
    case 21: return sext32(ua >> (b & 31));
    case 29: return sext32(static_cast<uint32_t>(wa >> (b & 31)));
    case 32: return a * b;
    case 33: return static_cast<uint64_t>(static_cast<u128>(static_cast<i128>(sa) * static_cast<i128>(sb)) >> 64);
    case 34: return static_cast<uint64_t>(static_cast<u128>(static_cast<i128>(sa) * static_cast<i128>(static_cast<u128>(b))) >> 64);
    case 35: return static_cast<uint64_t>((static_cast<u128>(a) * b) >> 64);
    case 36: return b == 0 ? ~uint64_t{0} : (sa == INT64_MIN && sb == -1) ? a : static_cast<uint64_t>(sa / sb);
    case 37: return b == 0 ? ~uint64_t{0} : a / b;
    case 38: return b == 0 ? a : (sa == INT64_MIN && sb == -1) ? 0 : static_cast<uint64_t>(sa % sb);
    case 39: return b == 0 ? a : a % b;
    case 48: return sext32(a * b);
    case 52: return wb == 0 ? ~uint64_t{0} : (wa == INT32_MIN && wb == -1) ? sext32(ua) : sext32(static_cast<uint32_t>(wa / wb));
    case 53: return ub == 0 ? ~uint64_t{0} : sext32(ua / ub);
    case 54: return wb == 0 ? sext32(ua) : (wa == INT32_MIN && wb == -1) ? 0 : sext32(static_cast<uint32_t>(wa % wb));
    case 55: return ub == 0 ? sext32(ua) : sext32(ua % ub);
    default: return std::nullopt;
  }
}

DivCore div_core(uint64_t code, uint64_t a, uint64_t b) {
  const bool word = code >= 52, sg = code == 36 || code == 38 || code == 52 || code == 54;
  DivCore c;
  c.sa31 = (a >> 31) & 1, c.sb31 = (b >> 31) & 1;
  c.x = !word ? a : sg ? sext32(a) : (a & 0xffffffffull);
  c.y = !word ? b : sg ? sext32(b) : (b & 0xffffffffull);
  // the 64-bit division of x by y (the W forms' results are the low 32 bits of these)
  c.q = alu_result(sg ? 36 : 37, c.x, c.y).value();
  c.m = alu_result(sg ? 38 : 39, c.x, c.y).value();
  return c;
}

MulWitness mul_witness(uint64_t code, uint64_t a, uint64_t b) {
  MulWitness m;
  uint64_t al[4], bl[4];
  for (int k = 0; k < 4; ++k) al[k] = (a >> (16 * k)) & 0xffff, bl[k] = (b >> (16 * k)) & 0xffff;
  unsigned __int128 carry = 0;
  for (int i = 0; i < 8; ++i) {
    unsigned __int128 sum = carry;
    for (int x = 0; x < 4; ++x)
      if (i - x >= 0 && i - x < 4) sum += static_cast<unsigned __int128>(al[x]) * bl[i - x];
    m.p[i] = static_cast<uint64_t>(sum & 0xffff);
    carry = sum >> 16;
    if (i < 7) m.kl[i] = static_cast<uint64_t>(carry & 0xffff), m.kh[i] = static_cast<uint64_t>(carry >> 16);
  }
  m.sa = a >> 63, m.sb = b >> 63;
  m.ah = 2 * al[3] - 65536 * m.sa, m.bh = 2 * bl[3] - 65536 * m.sb;
  m.ga = (code == 33 || code == 34) ? m.sa : 0, m.gb = code == 33 ? m.sb : 0;
  int64_t borrow = 0;
  for (int k = 0; k < 4; ++k) {
    const int64_t v = static_cast<int64_t>(m.p[4 + k]) - static_cast<int64_t>(m.ga * bl[k]) - static_cast<int64_t>(m.gb * al[k]) - borrow;
    borrow = v < 0 ? (-v + 65535) / 65536 : 0;
    m.h[k] = static_cast<uint64_t>(v + 65536 * borrow);
    m.bw[k] = static_cast<uint64_t>(borrow);
  }
  m.w = m.p[1] >> 15, m.wh = 2 * m.p[1] - 65536 * m.w;
  return m;
}

TraceTable syscall_table_shape() {
  TraceTable t{"syscall", {"is_real", "ts"}, {}};
  for (const char* v : {"n", "f", "r", "b", "c"})
    for (int k = 0; k < 4; ++k) t.columns.push_back(v + std::to_string(k));
  for (const char* c : {"bp", "bd0", "bd1", "cp", "cd0", "cd1", "k_read", "k_write", "k_random", "k_scope", "k_cycle", "k_other",
                        "big", "biginv", "p1", "p2", "p3", "p4", "p5", "pinv", "ob", "fz", "fzinv", "fw", "fo", "foinv", "g_in", "g_bad",
                        "g_out", "d0", "d1", "d2", "d3", "e0", "e1", "e2", "short", "shinv", "eof", "out1", "mv", "mvz", "mvinv", "opos",
                        "ostart", "tg0", "tg1"})
    t.columns.push_back(c);
  return t;
}

void push_syscall_row(TraceTable& sys, uint64_t ts, uint64_t n, uint64_t f, uint64_t r, uint64_t b, uint64_t c,
                      uint64_t bp, uint64_t cp) {
  std::vector<uint64_t> srow(sys.columns.size(), 0);
  auto put = [&](const char* v, uint64_t x) {
    for (int k = 0; k < 4; ++k) srow[sys.col(v + std::to_string(k))] = (x >> (16 * k)) & 0xffff;
  };
  srow[sys.col("is_real")] = 1, srow[sys.col("ts")] = ts;
  put("n", n), put("f", f), put("r", r), put("b", b), put("c", c);
  srow[sys.col("bp")] = bp, srow[sys.col("cp")] = cp;
  sys.rows.push_back(std::move(srow));
}

}  // namespace zkrv::core
