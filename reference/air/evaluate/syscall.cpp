// The syscall table (spec/tables/syscall.md): its constraints and bus interactions, block by
// block in the document's order, each under its `// spec: <id>` comment.
#include <string>
#include <string_view>
#include <vector>

#include "reference/air/evaluate/tables.h"

namespace zkrv::ref::air::eval {

template <class V>
void eval_syscall(const Point<V>& x, Values<V>& s) {
  const Emit<V> c{s};
  const V one = f<V>(1), k16 = f<V>(65536), real = x("is_real");
  auto col = [&](const char* v, int k) { return x(v + std::to_string(k)); };
  auto limbs = [&](const char* v) { return std::vector<V>{col(v, 0), col(v, 1), col(v, 2), col(v, 3)}; };
  auto rc = [&](std::string_view id, const char* cname) { c.bus(id, "range16", true, {x(cname)}, real); };
  auto bit = [&](std::string_view id, const char* cname) { c(id, x(cname) * (x(cname) - one)); };
  // spec: syscall:c:real_bit
  bit("syscall:c:real_bit", "is_real");
  // spec: syscall:c:real_prefix
  c.transition("syscall:c:real_prefix", x.next("is_real") * (one - real));
  // spec: syscall:b:ecall
  {
    std::vector<V> tuple = {x("ts")};
    for (const char* v : {"n", "f", "r"})
      for (const V& l : limbs(v)) tuple.push_back(l);
    c.bus("syscall:b:ecall", "sys", false, tuple, real);
  }
  // a register read at ts: the token (reg, prev, v) consumed, (reg, ts, v) sent
  auto reg_in = [&](std::string_view id, uint64_t reg, const char* prev, const char* v) {
    std::vector<V> tuple = {f<V>(reg), x(prev)};
    for (const V& l : limbs(v)) tuple.push_back(l);
    c.bus(id, "reg", false, tuple, real);
  };
  auto reg_out = [&](std::string_view id, uint64_t reg, const char* v) {
    std::vector<V> tuple = {f<V>(reg), x("ts")};
    for (const V& l : limbs(v)) tuple.push_back(l);
    c.bus(id, "reg", true, tuple, real);
  };
  // spec: syscall:b:b_in
  reg_in("syscall:b:b_in", 11, "bp", "b");
  // spec: syscall:b:b_out
  reg_out("syscall:b:b_out", 11, "b");
  // spec: syscall:c:b_order
  c("syscall:c:b_order", real * (x("ts") - x("bp") - one - x("bd0") - k16 * x("bd1")));
  // spec: syscall:b:bd0
  rc("syscall:b:bd0", "bd0");
  // spec: syscall:b:bd1
  rc("syscall:b:bd1", "bd1");
  // spec: syscall:b:c_in
  reg_in("syscall:b:c_in", 12, "cp", "c");
  // spec: syscall:b:c_out
  reg_out("syscall:b:c_out", 12, "c");
  // spec: syscall:c:c_order
  c("syscall:c:c_order", real * (x("ts") - x("cp") - one - x("cd0") - k16 * x("cd1")));
  // spec: syscall:b:cd0
  rc("syscall:b:cd0", "cd0");
  // spec: syscall:b:cd1
  rc("syscall:b:cd1", "cd1");
  // spec: syscall:c:k_read_bit
  bit("syscall:c:k_read_bit", "k_read");
  // spec: syscall:c:k_write_bit
  bit("syscall:c:k_write_bit", "k_write");
  // spec: syscall:c:k_random_bit
  bit("syscall:c:k_random_bit", "k_random");
  // spec: syscall:c:k_scope_bit
  bit("syscall:c:k_scope_bit", "k_scope");
  // spec: syscall:c:k_cycle_bit
  bit("syscall:c:k_cycle_bit", "k_cycle");
  // spec: syscall:c:k_other_bit
  bit("syscall:c:k_other_bit", "k_other");
  // spec: syscall:c:one_kind
  c("syscall:c:one_kind", real - x("k_read") - x("k_write") - x("k_random") - x("k_scope") - x("k_cycle") - x("k_other"));
  // spec: syscall:c:read_number
  c("syscall:c:read_number", x("k_read") * (x("n0") - f<V>(63)));
  // spec: syscall:c:write_number
  c("syscall:c:write_number", x("k_write") * (x("n0") - f<V>(64)));
  // spec: syscall:c:low_high
  c("syscall:c:low_high", (x("k_read") + x("k_write")) * (x("n1") + x("n2") + x("n3")));
  // spec: syscall:c:random_number
  c("syscall:c:random_number", x("k_random") * (x("n0") - f<V>(40960)));
  // spec: syscall:c:scope_number
  c("syscall:c:scope_number", x("k_scope") * (x("n0") - f<V>(40961)) * (x("n0") - f<V>(40962)));
  // spec: syscall:c:cycle_number
  c("syscall:c:cycle_number", x("k_cycle") * (x("n0") - f<V>(40963)));
  // spec: syscall:c:zkrv_n1
  c("syscall:c:zkrv_n1", (x("k_random") + x("k_scope") + x("k_cycle")) * (x("n1") - f<V>(5)));
  // spec: syscall:c:zkrv_high
  c("syscall:c:zkrv_high", (x("k_random") + x("k_scope") + x("k_cycle")) * (x("n2") + x("n3")));
  const V high = x("n2") + x("n3"), nl = x("n0") + k16 * x("n1");
  // spec: syscall:c:big_bit
  bit("syscall:c:big_bit", "big");
  // spec: syscall:c:big_inv
  c("syscall:c:big_inv", x("big") * (high * x("biginv") - one));
  // spec: syscall:c:big_def
  c("syscall:c:big_def", high * (one - x("big")));
  // spec: syscall:c:p1
  c("syscall:c:p1", x("p1") - real * (nl - f<V>(63)) * (nl - f<V>(64)));
  // spec: syscall:c:p2
  c("syscall:c:p2", x("p2") - x("p1") * (nl - f<V>(0x5A000)));
  // spec: syscall:c:p3
  c("syscall:c:p3", x("p3") - x("p2") * (nl - f<V>(0x5A001)));
  // spec: syscall:c:p4
  c("syscall:c:p4", x("p4") - x("p3") * (nl - f<V>(0x5A002)));
  // spec: syscall:c:p5
  c("syscall:c:p5", x("p5") - x("p4") * (nl - f<V>(0x5A003)));
  // spec: syscall:c:ob
  c("syscall:c:ob", x("ob") - x("k_other") * (one - x("big")));
  // spec: syscall:c:other_number
  c("syscall:c:other_number", x("ob") * (x("p5") * x("pinv") - one));
  const V fsum = x("f0") + x("f1") + x("f2") + x("f3");
  // spec: syscall:c:fz_zero
  c("syscall:c:fz_zero", fsum * x("fz"));
  // spec: syscall:c:fz_def
  c("syscall:c:fz_def", real * (fsum * x("fzinv") - one + x("fz")));
  // spec: syscall:c:fw
  c("syscall:c:fw", x("fw") - real * (x("f0") - one) * (x("f0") - f<V>(2)) - f<V>(4294967296) * (x("f1") + x("f2") + x("f3")));
  // spec: syscall:c:fo_zero
  c("syscall:c:fo_zero", x("fw") * x("fo"));
  // spec: syscall:c:fo_def
  c("syscall:c:fo_def", real * (x("fw") * x("foinv") - one + x("fo")));
  // spec: syscall:c:g_in
  c("syscall:c:g_in", x("g_in") - x("k_read") * x("fz"));
  // spec: syscall:c:g_bad
  c("syscall:c:g_bad", x("g_bad") - x("k_read") * (one - x("fz")) - x("k_write") * (one - x("fo")));
  // spec: syscall:c:g_out
  c("syscall:c:g_out", x("g_out") - x("k_write") * x("fo"));
  // spec: syscall:c:bad0
  c("syscall:c:bad0", x("g_bad") * (x("r0") - f<V>(65527)));
  // spec: syscall:c:bad1
  c("syscall:c:bad1", x("g_bad") * (x("r1") - f<V>(65535)));
  // spec: syscall:c:bad2
  c("syscall:c:bad2", x("g_bad") * (x("r2") - f<V>(65535)));
  // spec: syscall:c:bad3
  c("syscall:c:bad3", x("g_bad") * (x("r3") - f<V>(65535)));
  // spec: syscall:c:wrote0
  c("syscall:c:wrote0", x("g_out") * (x("r0") - x("c0")));
  // spec: syscall:c:wrote1
  c("syscall:c:wrote1", x("g_out") * (x("r1") - x("c1")));
  // spec: syscall:c:wrote2
  c("syscall:c:wrote2", x("g_out") * (x("r2") - x("c2")));
  // spec: syscall:c:wrote3
  c("syscall:c:wrote3", x("g_out") * (x("r3") - x("c3")));
  // spec: syscall:c:scope0
  c("syscall:c:scope0", x("k_scope") * x("r0"));
  // spec: syscall:c:scope1
  c("syscall:c:scope1", x("k_scope") * x("r1"));
  // spec: syscall:c:scope2
  c("syscall:c:scope2", x("k_scope") * x("r2"));
  // spec: syscall:c:scope3
  c("syscall:c:scope3", x("k_scope") * x("r3"));
  // spec: syscall:c:cycle_low
  c("syscall:c:cycle_low", x("k_cycle") * (x("ts") - one - f<V>(4) * x("r0") - f<V>(262144) * x("r1")));
  // spec: syscall:c:cycle_high
  c("syscall:c:cycle_high", x("k_cycle") * (x("r2") + x("r3")));
  // spec: syscall:c:nosys0
  c("syscall:c:nosys0", x("k_other") * (x("r0") - f<V>(65498)));
  // spec: syscall:c:nosys1
  c("syscall:c:nosys1", x("k_other") * (x("r1") - f<V>(65535)));
  // spec: syscall:c:nosys2
  c("syscall:c:nosys2", x("k_other") * (x("r2") - f<V>(65535)));
  // spec: syscall:c:nosys3
  c("syscall:c:nosys3", x("k_other") * (x("r3") - f<V>(65535)));
  // spec: syscall:c:e0_bit
  bit("syscall:c:e0_bit", "e0");
  // spec: syscall:c:e1_bit
  bit("syscall:c:e1_bit", "e1");
  // spec: syscall:c:e2_bit
  bit("syscall:c:e2_bit", "e2");
  // r + d = a2 limb by limb on reads from the input
  auto count = [&](int k) {
    const V cin = k ? col("e", k - 1) : V(), cout = k < 3 ? k16 * col("e", k) : V();
    return x("g_in") * (col("r", k) + col("d", k) + cin - col("c", k) - cout);
  };
  // spec: syscall:c:count0
  c("syscall:c:count0", count(0));
  // spec: syscall:c:count1
  c("syscall:c:count1", count(1));
  // spec: syscall:c:count2
  c("syscall:c:count2", count(2));
  // spec: syscall:c:count3
  c("syscall:c:count3", count(3));
  // spec: syscall:b:d0
  rc("syscall:b:d0", "d0");
  // spec: syscall:b:d1
  rc("syscall:b:d1", "d1");
  // spec: syscall:b:d2
  rc("syscall:b:d2", "d2");
  // spec: syscall:b:d3
  rc("syscall:b:d3", "d3");
  const V dsum = x("d0") + x("d1") + x("d2") + x("d3");
  // spec: syscall:c:d_unused
  c("syscall:c:d_unused", (real - x("g_in")) * dsum);
  // spec: syscall:c:short_bit
  bit("syscall:c:short_bit", "short");
  // spec: syscall:c:short_set
  c("syscall:c:short_set", dsum * (one - x("short")));
  // spec: syscall:c:short_inv
  c("syscall:c:short_inv", x("short") * (dsum * x("shinv") - one));
  // spec: syscall:c:eof_bit
  bit("syscall:c:eof_bit", "eof");
  if (!x.segmented()) {
    // spec whole: syscall:c:eof_first
    c.first("syscall:c:eof_first", x("eof"));
  } else {
    // spec segmented: syscall:c:eof_first
    c.first("syscall:c:eof_first", x("is_real") * (x("eof") - x.pub("eof_start")));
  }
  // spec: syscall:c:eof_next
  c.transition("syscall:c:eof_next", x.next("is_real") * (x.next("eof") - x("eof") - x("short") + x("eof") * x("short")));
  // spec: syscall:c:eof_empty
  c("syscall:c:eof_empty", x("g_in") * x("eof") * (x("r0") + x("r1") + x("r2") + x("r3")));
  // spec: syscall:c:out1
  c("syscall:c:out1", x("out1") - x("g_out") * (f<V>(2) - x("f0")));
  // spec: syscall:c:r_small
  c("syscall:c:r_small", x("g_in") * (x("r2") + x("r3")));
  // spec: syscall:c:c_small
  c("syscall:c:c_small", x("g_out") * (x("c2") + x("c3")));
  // spec: syscall:c:mv
  c("syscall:c:mv", x("mv") - x("g_in") * (x("r0") + k16 * x("r1")) - x("g_out") * (x("c0") + k16 * x("c1")));
  // spec: syscall:c:mvz_set
  c("syscall:c:mvz_set", x("mv") * (one - x("mvz")));
  // spec: syscall:c:mvz_inv
  c("syscall:c:mvz_inv", x("mvz") * (x("mv") * x("mvinv") - one));
  // spec: syscall:c:buf_small
  c("syscall:c:buf_small", x("mvz") * (x("b2") + x("b3")));
  // spec: syscall:c:ostart
  c("syscall:c:ostart", x("ostart") - x("out1") * x("opos"));
  // spec: syscall:b:io
  c.bus("syscall:b:io", "iogroup", true,
        {(x("ts") + f<V>(2)), (x("b0") + k16 * x("b1")), x("mv"), x("g_in"), x("out1"),
         x("ostart")},
        x("mvz"));
  if (!x.segmented()) {
    // spec whole: syscall:c:opos_first
    c.first("syscall:c:opos_first", x("opos"));
  } else {
    // spec segmented: syscall:c:opos_first
    c.first("syscall:c:opos_first", x("is_real") * (x("opos") - x.pub("opos_start")));
  }
  // spec: syscall:c:opos_next
  c.transition("syscall:c:opos_next", x.next("is_real") * (x.next("opos") - x("opos") - x("out1") * x("mv")));
  // spec: syscall:c:order
  c.transition("syscall:c:order", x.next("is_real") * (x.next("ts") - x("ts") - one - x("tg0") - k16 * x("tg1")));
  // spec: syscall:b:tg0
  rc("syscall:b:tg0", "tg0");
  // spec: syscall:b:tg1
  rc("syscall:b:tg1", "tg1");
  if (!x.segmented()) return;
  // a segment's input position, and each chain's value after its last real row
  const V next_real = x.next("is_real");
  // spec segmented: syscall:c:ipos_first
  c.first("syscall:c:ipos_first", real * (x("ipos") - x.pub("ipos_start")));
  // spec segmented: syscall:c:ipos_next
  c.transition("syscall:c:ipos_next", next_real * (x.next("ipos") - x("ipos") - x("g_in") * x("mv")));
  // spec segmented: syscall:c:iend
  c("syscall:c:iend", x("iend") - x("ipos") - x("g_in") * x("mv"));
  // spec segmented: syscall:c:eend
  c("syscall:c:eend", x("eend") - x("eof") - x("short") + x("eof") * x("short"));
  // spec segmented: syscall:c:oend
  c("syscall:c:oend", x("oend") - x("opos") - x("out1") * x("mv"));
  const V ends = real * (one - next_real);
  // spec segmented: syscall:c:ipos_end
  c.transition("syscall:c:ipos_end", ends * (x("iend") - x.pub("ipos_end")));
  // spec segmented: syscall:c:eof_end
  c.transition("syscall:c:eof_end", ends * (x("eend") - x.pub("eof_end")));
  // spec segmented: syscall:c:opos_end
  c.transition("syscall:c:opos_end", ends * (x("oend") - x.pub("opos_end")));
  // spec segmented: syscall:c:ipos_end_last
  c.last("syscall:c:ipos_end_last", real * (x("iend") - x.pub("ipos_end")));
  // spec segmented: syscall:c:eof_end_last
  c.last("syscall:c:eof_end_last", real * (x("eend") - x.pub("eof_end")));
  // spec segmented: syscall:c:opos_end_last
  c.last("syscall:c:opos_end_last", real * (x("oend") - x.pub("opos_end")));
  // spec segmented: syscall:c:ipos_none
  c.first("syscall:c:ipos_none", (one - real) * (x.pub("ipos_end") - x.pub("ipos_start")));
  // spec segmented: syscall:c:eof_none
  c.first("syscall:c:eof_none", (one - real) * (x.pub("eof_end") - x.pub("eof_start")));
  // spec segmented: syscall:c:opos_none
  c.first("syscall:c:opos_none", (one - real) * (x.pub("opos_end") - x.pub("opos_start")));
}

template void eval_syscall<Fp>(const Point<Fp>&, Values<Fp>&);
template void eval_syscall<Fp3>(const Point<Fp3>&, Values<Fp3>&);

}  // namespace zkrv::ref::air::eval
