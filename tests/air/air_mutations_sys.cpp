// The syscall mutations (base sys_prog; log_prog, big_read_prog and far_prog for what it cannot
// show): the syscall table, the io groups, the public output.
#include <algorithm>
#include <functional>
#include <map>
#include <string>

#include "reference/field/goldilocks.h"
#include "tests/air/air_fixture.h"

namespace zkrv::ref::air::fixture {
namespace {

// The syscall table row of sys_prog's k-th ecall (its rows are in ecall order), and its cpu row.
size_t sys_cpu_row(const AirTrace& t, size_t k) {
  for (size_t r = 0; r < real_rows(t); ++r)
    if (get(t, "cpu", r, "f_system") == 1 && get(t, "cpu", r, "sys_exit") == 0 && k-- == 0) return r;
  throw std::logic_error("sys_prog has no such ecall");
}
uint64_t& sys_cell(AirTrace& t, size_t k, const std::string& col) { return cell(t, "syscall", k, col); }
// The k-th ecall claims `result` (written to a0; everything downstream rebuilt, the syscall table
// with its witnesses decided by a7). `tweak` then edits that syscall row; with keep_kinds the
// rows' witnesses are recomputed from the kinds the tweak leaves (an ecall claimed as another
// kind), and `after` edits the result of that. Lookups are recounted last.
using SysTweak = std::function<void(AirTrace&, size_t)>;
void sys_moves(AirTrace& t, const std::set<std::string>& keep = {});
void sys_claim(AirTrace& t, size_t k, uint64_t result, const SysTweak& tweak = {}, bool keep_kinds = false,
               const SysTweak& after = {}) {
  set_limbs(t, sys_cpu_row(t, k), "d_v", result);
  rebalance(t);
  if (tweak) tweak(t, k);
  if (keep_kinds) fill_syscall_witness(t.table("syscall"), true);
  if (after) after(t, k);
  if (tweak || keep_kinds || after) sys_moves(t);
  count_lookups(t);
}
// eof recomputed along the rows from their short flags (eof_first, eof_next), after a tweak.
void sys_rechain(AirTrace& t) {
  auto& st = t.table("syscall");
  uint64_t eof = 0;
  for (size_t j = 0; j < st.height() && st.rows[j][st.col("is_real")]; ++j) {
    st.rows[j][st.col("eof")] = eof;
    eof |= st.rows[j][st.col("short")];
  }
}
// The bytes-moved witnesses (out1, mv, mvz, mvinv, opos, ostart) recomputed from the rows' gates
// and arguments as the spec defines them, after a tweak; then the io groups and the public output
// rebuilt from them.
void sys_moves(AirTrace& t, const std::set<std::string>& keep) {
  auto& st = t.table("syscall");
  const Fp k16 = Fp::from_u64(65536);
  Fp opos;
  for (size_t j = 0; j < st.height() && st.rows[j][st.col("is_real")]; ++j) {
    auto v = [&](const char* c) { return Fp::from_u64(st.rows[j][st.col(c)]); };
    auto put = [&](const char* c, Fp x) {
      if (!keep.count(c)) st.rows[j][st.col(c)] = x.value();
    };
    put("out1", v("g_out") * (Fp::from_u64(2) - v("f0")));
    put("mv", v("g_in") * (v("r0") + k16 * v("r1")) + v("g_out") * (v("c0") + k16 * v("c1")));
    const Fp out1 = v("out1"), mv = v("mv");
    put("mvz", Fp::from_u64(mv.value() != 0)), put("mvinv", mv.value() ? mv.inverse() : Fp());
    put("opos", opos), put("ostart", out1 * opos);
    opos = opos + out1 * mv;
  }
  rebuild_io(t);
}
// The k-th ecall claimed as another kind (its k_* columns: `kind` = 1, the others 0).
SysTweak as_kind(const char* kind) {
  return [kind](AirTrace& t, size_t k) {
    for (const char* c : {"k_read", "k_write", "k_random", "k_scope", "k_cycle", "k_other"}) sys_cell(t, k, c) = std::string(c) == kind;
  };
}
constexpr uint64_t kEbadf = ~uint64_t{8}, kEnosys = ~uint64_t{37};
namespace sk {  // sys_prog's ecalls, in order
constexpr size_t kReadFull = 0, kReadShort = 1, kReadEof = 2, kReadZero = 3, kReadBad = 4, kWriteOut = 5, kWriteLog = 6,
                 kWriteBad = 7, kRandom = 8, kScope1 = 9, kScope2 = 10, kCycle = 11, kN1 = 12, kBig = 13, kLowHigh = 14, kNear = 15, kLast = 15;
}

}  // namespace

void sys_mutations(std::vector<Mutation>& m) {
  using B = Mutation::Base;
  auto add = [&](const std::string& id, const std::string& what, std::function<bool(AirTrace&)> f) {
    m.push_back({id, what, std::move(f), B::kSys});
  };
  auto padding = [](AirTrace& t) {
    auto& st = t.table("syscall");
    st.rows.push_back(std::vector<uint64_t>(st.columns.size(), 0));
    return st.height() - 1;
  };
  add("syscall:c:real_bit", "is_real = 2 on a padding row", [padding](AirTrace& t) {
    sys_cell(t, padding(t), "is_real") = 2;
    return true;
  });
  add("syscall:c:real_prefix", "a padding row between the first two real rows (its order gap bridging them)", [](AirTrace& t) {
    auto& st = t.table("syscall");
    std::vector<uint64_t> pad(st.columns.size(), 0);
    const uint64_t gap = st.rows[1][st.col("ts")] - 1;
    pad[st.col("tg0")] = gap & 0xffff, pad[st.col("tg1")] = gap >> 16;
    st.rows.insert(st.rows.begin() + 1, pad);
    st.rows.pop_back();
    return true;
  });
  add("syscall:c:real_prefix", "a real row after a padding row (the first ecall's row moved to the end)", [padding](AirTrace& t) {
    auto& st = t.table("syscall");
    const size_t p = padding(t);
    std::swap(st.rows[0], st.rows[p]);
    return true;
  });
  add("cpu:b:sys", "an ecall whose syscall row is missing (it claims 7 from read(3, ...), which nothing then checks)", [](AirTrace& t) {
    sys_claim(t, sk::kReadBad, 7);
    auto& st = t.table("syscall");
    st.rows.erase(st.rows.begin() + sk::kReadBad);
    st.rows.push_back(std::vector<uint64_t>(st.columns.size(), 0));
    fill_syscall_witness(st);
    count_lookups(t);
    return true;
  });
  add("syscall:b:ecall", "a syscall row received twice (a copy in a padding row)", [padding](AirTrace& t) {
    auto& st = t.table("syscall");
    const size_t p = padding(t);
    st.rows[p] = st.rows[sk::kWriteOut];
    count_lookups(t);
    return true;
  });
  for (const char* v : {"b", "c"}) {
    const std::string n(v), prev = n == "b" ? "bp" : "cp", gap = n == "b" ? "bd" : "cd";
    add("syscall:b:" + n + "_in", "a" + std::string(n == "b" ? "1" : "2") + " read from a token that was never sent (prev + 1, gap - 1)",
        [prev, gap](AirTrace& t) {
          sys_cell(t, sk::kWriteOut, prev) += 1, sys_cell(t, sk::kWriteOut, gap + "0") -= 1;
          count_lookups(t);
          return true;
        });
    add("syscall:b:" + n + "_out", "fault class 'register value changed': the argument read as another value", [n](AirTrace& t) {
      sys_cell(t, sk::kWriteOut, n + "0") ^= 1;
      return true;
    });
    add("syscall:c:" + n + "_order", "the argument's access gap off by one", [gap](AirTrace& t) {
      sys_cell(t, sk::kWriteOut, gap + "0") += 1;
      count_lookups(t);
      return true;
    });
    add("syscall:c:" + n + "_order", "the argument read before its previous access (prev = ts)", [prev](AirTrace& t) {
      sys_cell(t, sk::kWriteOut, prev) = sys_cell(t, sk::kWriteOut, "ts");
      return true;
    });
    for (const char* l : {"0", "1"})
      add("syscall:b:" + gap + l, gap + l + " + 65536", [gap, l](AirTrace& t) {
        sys_cell(t, sk::kWriteOut, gap + l) += 65536;
        return true;
      });
  }
  for (const char* kind : {"k_read", "k_write", "k_random", "k_scope", "k_cycle", "k_other"})
    add(std::string("syscall:c:") + kind + "_bit", std::string(kind) + " = 2 on a padding row", [kind, padding](AirTrace& t) {
      sys_cell(t, padding(t), kind) = 2;
      return true;
    });
  add("syscall:c:one_kind", "2^32 + 0x1003F with no kind at all: its result is then free (claimed 7)", [](AirTrace& t) {
    sys_claim(t, sk::kLowHigh, 7, [](AirTrace& t, size_t k) { sys_cell(t, k, "k_other") = 0; }, true);
    return true;
  });
  add("syscall:c:read_number", "write(1, buf, 3) claimed -EBADF by calling it a read of fd 1", [](AirTrace& t) {
    sys_claim(t, sk::kWriteOut, kEbadf, as_kind("k_read"), true);
    return true;
  });
  add("syscall:c:write_number", "read(0, buf, 4) claimed -EBADF by calling it a write to fd 0", [](AirTrace& t) {
    sys_claim(t, sk::kReadFull, kEbadf, as_kind("k_write"), true);
    return true;
  });
  add("syscall:c:low_high", "2^32 + 0x1003F (-ENOSYS) claimed as a read of fd 7 (-EBADF): its low limb is 63", [](AirTrace& t) {
    sys_claim(t, sk::kLowHigh, kEbadf, as_kind("k_read"), true);
    return true;
  });
  add("syscall:c:random_number", "0x5A004 (-ENOSYS) claimed as random_u64, returning 12345", [](AirTrace& t) {
    sys_claim(t, sk::kNear, 12345, as_kind("k_random"), true);
    return true;
  });
  add("syscall:c:scope_number", "0x5A004 (-ENOSYS) claimed as a cost scope, returning 0", [](AirTrace& t) {
    sys_claim(t, sk::kNear, 0, as_kind("k_scope"), true);
    return true;
  });
  add("syscall:c:cycle_number", "0x5A004 (-ENOSYS) claimed as cycle_count, returning its cycle", [](AirTrace& t) {
    sys_claim(t, sk::kNear, (sys_cell(t, sk::kNear, "ts") - 1) / 4, as_kind("k_cycle"), true);
    return true;
  });
  add("syscall:c:cycle_low", "cycle_count answering the cycle before its own", [](AirTrace& t) {
    sys_claim(t, sk::kCycle, (sys_cell(t, sk::kCycle, "ts") - 1) / 4 - 1);
    return true;
  });
  add("syscall:c:cycle_high", "cycle_count answering its cycle + 2^32 (the low limbs still match)", [](AirTrace& t) {
    sys_claim(t, sk::kCycle, (sys_cell(t, sk::kCycle, "ts") - 1) / 4 + (uint64_t{1} << 32));
    return true;
  });
  add("syscall:c:zkrv_n1", "0x4A001 (-ENOSYS) claimed as a cost scope, returning 0", [](AirTrace& t) {
    sys_claim(t, sk::kN1, 0, as_kind("k_scope"), true);
    return true;
  });
  add("syscall:c:zkrv_high", "2^32 + 0x5A000 (-ENOSYS) claimed as random_u64, returning 12345", [](AirTrace& t) {
    sys_claim(t, sk::kBig, 12345, as_kind("k_random"), true);
    return true;
  });
  add("syscall:c:big_bit", "big = 2 on a padding row", [padding](AirTrace& t) {
    sys_cell(t, padding(t), "big") = 2;
    return true;
  });
  // a handled number claimed -ENOSYS (k_other), its proof of being unhandled forged
  add("syscall:c:big_inv", "read(0, buf, 4) claimed -ENOSYS with big = 1 (a7 has no high bits)", [](AirTrace& t) {
    sys_claim(t, sk::kReadFull, kEnosys, as_kind("k_other"), true, [](AirTrace& t, size_t k) {
      sys_cell(t, k, "big") = 1, sys_cell(t, k, "ob") = 0, sys_cell(t, k, "pinv") = 0;
    });
    return true;
  });
  // big is [n2 + n3 != 0]: without big_def a high unhandled number could take big = 0 and the
  // other proof (pinv, the inverse of p5), the same result: a second witness, not a forgery
  add("syscall:c:big_def", "2^32 + 0x1003F (-ENOSYS) with big = 0 and p5's inverse instead", [](AirTrace& t) {
    const size_t k = sk::kLowHigh;
    sys_cell(t, k, "big") = 0, sys_cell(t, k, "biginv") = 0, sys_cell(t, k, "ob") = 1;
    sys_cell(t, k, "pinv") = Fp::from_u64(sys_cell(t, k, "p5")).inverse().value();
    return true;
  });
  const std::vector<std::pair<const char*, size_t>> chain = {
      {"p1", sk::kReadFull}, {"p2", sk::kRandom}, {"p3", sk::kScope1}, {"p4", sk::kScope2}, {"p5", sk::kCycle}};
  for (size_t i = 0; i < chain.size(); ++i) {
    const auto [p, k0] = chain[i];
    add(std::string("syscall:c:") + p, std::string("a handled number claimed -ENOSYS with ") + p + " forged nonzero (the rest of the product follows)",
        [p = std::string(p), k0 = k0, i](AirTrace& t) {
          sys_claim(t, k0, kEnosys, as_kind("k_other"), true, [p, i](AirTrace& t, size_t k) {
            const Fp nl = Fp::from_u64(sys_cell(t, k, "n0")) + Fp::from_u64(65536) * Fp::from_u64(sys_cell(t, k, "n1"));
            const uint64_t roots[] = {0, 0x5A000, 0x5A001, 0x5A002, 0x5A003};
            Fp v = Fp::from_u64(1);
            sys_cell(t, k, p) = v.value();
            for (size_t j = i + 1; j < 5; ++j) {
              v = v * (nl - Fp::from_u64(roots[j]));
              sys_cell(t, k, "p" + std::to_string(j + 1)) = v.value();
            }
            sys_cell(t, k, "pinv") = v.inverse().value();
          });
          return true;
        });
  }
  add("syscall:c:ob", "read(0, buf, 4) claimed -ENOSYS with ob = 0 (no proof that 63 is unhandled)", [](AirTrace& t) {
    sys_claim(t, sk::kReadFull, kEnosys, as_kind("k_other"), true, [](AirTrace& t, size_t k) { sys_cell(t, k, "ob") = 0; });
    return true;
  });
  add("syscall:c:other_number", "read(0, buf, 4) claimed -ENOSYS (63 is a handled number: p5 = 0 has no inverse)", [](AirTrace& t) {
    sys_claim(t, sk::kReadFull, kEnosys, as_kind("k_other"), true);
    return true;
  });
  // the fd
  add("syscall:c:fz_zero", "read(3, buf, 4) claimed a read of the (exhausted) input: 0 instead of -EBADF (fz = 1)", [](AirTrace& t) {
    sys_claim(t, sk::kReadBad, 0, {}, false, [](AirTrace& t, size_t k) {
      sys_cell(t, k, "fz") = 1, sys_cell(t, k, "fzinv") = 0, sys_cell(t, k, "g_in") = 1, sys_cell(t, k, "g_bad") = 0;
      sys_cell(t, k, "d0") = 4, sys_cell(t, k, "short") = 1, sys_cell(t, k, "shinv") = Fp::from_u64(4).inverse().value();
    });
    return true;
  });
  add("syscall:c:fz_def", "read(0, buf, 4) claimed -EBADF (fz = 0 although a0 = 0)", [](AirTrace& t) {
    sys_claim(t, sk::kReadFull, kEbadf, {}, false, [](AirTrace& t, size_t k) {
      sys_cell(t, k, "fz") = 0, sys_cell(t, k, "g_in") = 0, sys_cell(t, k, "g_bad") = 1;
      for (const char* c : {"d0", "d1", "d2", "d3", "e0", "e1", "e2", "short", "shinv"}) sys_cell(t, k, c) = 0;
      sys_rechain(t);
    });
    return true;
  });
  add("syscall:c:fw", "write(0x10001, buf, 2) claimed 2 instead of -EBADF: fw forged 0", [](AirTrace& t) {
    sys_claim(t, sk::kWriteBad, 2, {}, false, [](AirTrace& t, size_t k) {
      sys_cell(t, k, "fw") = 0, sys_cell(t, k, "fo") = 1, sys_cell(t, k, "foinv") = 0, sys_cell(t, k, "g_out") = 1, sys_cell(t, k, "g_bad") = 0;
    });
    return true;
  });
  add("syscall:c:fo_zero", "write(0x10001, buf, 2) claimed 2 instead of -EBADF: fo = 1", [](AirTrace& t) {
    sys_claim(t, sk::kWriteBad, 2, {}, false, [](AirTrace& t, size_t k) {
      sys_cell(t, k, "fo") = 1, sys_cell(t, k, "foinv") = 0, sys_cell(t, k, "g_out") = 1, sys_cell(t, k, "g_bad") = 0;
    });
    return true;
  });
  add("syscall:c:fo_def", "write(1, buf, 3) claimed -EBADF (fo = 0 although a0 = 1)", [](AirTrace& t) {
    sys_claim(t, sk::kWriteOut, kEbadf, {}, false, [](AirTrace& t, size_t k) {
      sys_cell(t, k, "fo") = 0, sys_cell(t, k, "g_out") = 0, sys_cell(t, k, "g_bad") = 1;
    });
    return true;
  });
  add("syscall:c:g_in", "read(0, buf, 4) claimed 100 bytes (g_in = 0: no count rule)", [](AirTrace& t) {
    sys_claim(t, sk::kReadFull, 100, {}, false, [](AirTrace& t, size_t k) {
      sys_cell(t, k, "g_in") = 0;
      for (const char* c : {"d0", "d1", "d2", "d3", "e0", "e1", "e2", "short", "shinv"}) sys_cell(t, k, c) = 0;
      sys_rechain(t);
    });
    return true;
  });
  add("syscall:c:g_bad", "read(3, buf, 4) claimed 4 (g_bad = 0: no -EBADF rule)", [](AirTrace& t) {
    sys_claim(t, sk::kReadBad, 4, {}, false, [](AirTrace& t, size_t k) { sys_cell(t, k, "g_bad") = 0; });
    return true;
  });
  add("syscall:c:g_out", "write(1, buf, 3) claimed 1000 (g_out = 0: no count rule)", [](AirTrace& t) {
    sys_claim(t, sk::kWriteOut, 1000, {}, false, [](AirTrace& t, size_t k) { sys_cell(t, k, "g_out") = 0; });
    return true;
  });
  // results: a limb changed
  struct Res {
    const char* id;
    size_t k;
    const char* what;
  };
  for (const Res& rs : std::vector<Res>{{"bad", sk::kReadBad, "read(3, buf, 4)"},
                                        {"wrote", sk::kWriteOut, "write(1, buf, 3)"},
                                        {"scope", sk::kScope1, "a cost scope"},
                                        {"nosys", sk::kNear, "0x5A004"}})
    for (int l = 0; l < 4; ++l)
      add(std::string("syscall:c:") + rs.id + std::to_string(l),
          std::string("fault class 'syscall result changed': ") + rs.what + "'s result with limb " + std::to_string(l) + "'s low bit flipped",
          [rs, l](AirTrace& t) {
            const uint64_t truth = limbs_value(t, sys_cpu_row(t, rs.k), "d_v");
            sys_claim(t, rs.k, truth ^ (uint64_t{1} << (16 * l)));
            return true;
          });
  // reads from the input
  for (const char* e : {"e0", "e1", "e2"})
    add(std::string("syscall:c:") + e + "_bit", std::string(e) + " = 2 on the first read's row", [e](AirTrace& t) {
      sys_cell(t, sk::kReadFull, e) = 2;
      return true;
    });
  for (int l = 0; l < 4; ++l)
    add("syscall:c:count" + std::to_string(l), "read(0, buf, 4) claimed 4 + 2^" + std::to_string(16 * l) + " bytes (d kept 0)", [l](AirTrace& t) {
      sys_claim(t, sk::kReadFull, 4 + (uint64_t{1} << (16 * l)), {}, false, [](AirTrace& t, size_t k) {
        for (const char* c : {"d0", "d1", "d2", "d3", "e0", "e1", "e2", "short", "shinv"}) sys_cell(t, k, c) = 0;
        for (size_t j = k + 1; j < sk::kReadEof; ++j) sys_cell(t, j, "eof") = 0;
      });
      return true;
    });
  for (const char* d : {"d0", "d1", "d2", "d3"})
    add(std::string("syscall:b:") + d, std::string(d) + " + 65536 on the short read's row", [d](AirTrace& t) {
      sys_cell(t, sk::kReadShort, d) += 65536;
      return true;
    });
  add("syscall:c:d_unused", "d0 = 1 on a write's row (after the end of the input, so short = 1 changes nothing)", [](AirTrace& t) {
    sys_cell(t, sk::kWriteOut, "d0") = 1, sys_cell(t, sk::kWriteOut, "short") = 1, sys_cell(t, sk::kWriteOut, "shinv") = 1;
    count_lookups(t);
    return true;
  });
  add("syscall:c:short_bit", "short = 2 on the short read's row", [](AirTrace& t) {
    sys_cell(t, sk::kReadShort, "short") = 2;
    return true;
  });
  add("syscall:c:short_set", "the short read claimed not short (short = 0), so the next read returns 4 more bytes", [](AirTrace& t) {
    sys_claim(t, sk::kReadEof, 4, {}, false, [](AirTrace& t, size_t k) {
      sys_cell(t, sk::kReadShort, "short") = 0, sys_cell(t, sk::kReadShort, "shinv") = 0;
      for (const char* c : {"d0", "d1", "d2", "d3", "e0", "e1", "e2", "short", "shinv"}) sys_cell(t, k, c) = 0;
      for (size_t j = sk::kReadEof; j <= sk::kLast; ++j) sys_cell(t, j, "eof") = 0;
    });
    return true;
  });
  add("syscall:c:short_inv", "read(0, buf, 0) claimed short (short = 1, d = 0)", [](AirTrace& t) {
    sys_cell(t, sk::kReadZero, "short") = 1;
    return true;
  });
  add("syscall:c:eof_bit", "eof = 2 on the last syscall row", [](AirTrace& t) {
    sys_cell(t, sk::kLast, "eof") = 2;
    return true;
  });
  add("syscall:c:eof_first", "the input claimed exhausted from the start", [](AirTrace& t) {
    sys_cell(t, 0, "eof") = 1;
    return true;
  });
  // log_prog: its first ecall reads from an empty input, and nothing goes to the public output
  auto real_syscall_rows = [](AirTrace& t) {
    auto& st = t.table("syscall");
    size_t n = 0;
    while (n < st.height() && st.rows[n][st.col("is_real")] == 1) ++n;
    return n;
  };
  m.push_back({"syscall:c:eof_first", "the empty input claimed exhausted before the first read (eof = 1 on every real row)",
               [real_syscall_rows](AirTrace& t) {
                 const size_t n = real_syscall_rows(t);
                 if (n != 2 || sys_cell(t, 0, "eof") != 0 || sys_cell(t, 1, "eof") != 1) return false;
                 sys_cell(t, 0, "eof") = 1;
                 return true;
               }, B::kLog});
  m.push_back({"syscall:c:opos_first", "the output position started at 5 (no ecall writes to fd 1)",
               [real_syscall_rows](AirTrace& t) {
                 const size_t n = real_syscall_rows(t);
                 if (n != 2) return false;
                 for (size_t j = 0; j < n; ++j) {
                   if (sys_cell(t, j, "out1") != 0) return false;
                   sys_cell(t, j, "opos") += 5;
                 }
                 return true;
               }, B::kLog});
  add("syscall:c:eof_next", "the read after the short one claimed 4 bytes, with eof reset to 0 there", [](AirTrace& t) {
    sys_claim(t, sk::kReadEof, 4, {}, false, [](AirTrace& t, size_t k) {
      for (const char* c : {"d0", "d1", "d2", "d3", "e0", "e1", "e2", "short", "shinv"}) sys_cell(t, k, c) = 0;
      for (size_t j = sk::kReadEof; j <= sk::kLast; ++j) sys_cell(t, j, "eof") = 0;
    });
    return true;
  });
  add("syscall:c:eof_empty", "the read after the short one returns 4 bytes (eof = 1 kept)", [](AirTrace& t) {
    sys_claim(t, sk::kReadEof, 4, {}, false, [](AirTrace& t, size_t k) {
      for (const char* c : {"d0", "d1", "d2", "d3", "e0", "e1", "e2", "short", "shinv"}) sys_cell(t, k, c) = 0;
    });
    return true;
  });
  add("syscall:c:order", "an order gap off by one", [](AirTrace& t) {
    sys_cell(t, sk::kWriteOut, "tg0") += 1;
    count_lookups(t);
    return true;
  });
  add("syscall:c:order", "two syscall rows swapped (the cost scopes)", [](AirTrace& t) {
    auto& st = t.table("syscall");
    std::swap(st.rows[sk::kScope1], st.rows[sk::kScope2]);
    fill_syscall_witness(st);
    count_lookups(t);
    return true;
  });
  for (const char* g : {"tg0", "tg1"})
    add(std::string("syscall:b:") + g, std::string(g) + " + 65536", [g](AirTrace& t) {
      sys_cell(t, sk::kWriteOut, g) += 65536;
      return true;
    });
  // the bytes moved (syscall side)
  add("syscall:c:out1", "write(2, buf, 2)'s bytes claimed as public output (out1 = 1)", [](AirTrace& t) {
    sys_cell(t, sk::kWriteLog, "out1") = 1;
    sys_moves(t, {"out1"});
    count_lookups(t);
    return true;
  });
  add("syscall:c:mv", "write(1, buf, 3) outputs only 2 bytes (mv = 2)", [](AirTrace& t) {
    sys_cell(t, sk::kWriteOut, "mv") = 2;
    sys_moves(t, {"mv"});
    count_lookups(t);
    return true;
  });
  add("syscall:c:r_small", "read(0, buf, 4) claimed 4 + 2^32 bytes", [](AirTrace& t) {
    sys_claim(t, sk::kReadFull, 4 + (uint64_t{1} << 32));
    return true;
  });
  m.push_back({"syscall:c:r_small", "read(0, buf, 2^32 + 4) of a 4-byte input claimed 2^32 + 4 bytes (the shortfall d = 2^32 dropped, so not short): a forged count, 4 bytes moved",
               [](AirTrace& t) {
                 if (sys_cell(t, 0, "g_in") != 1 || sys_cell(t, 0, "c2") != 1 || sys_cell(t, 0, "r0") != 4 ||
                     sys_cell(t, 0, "d2") != 1)
                   return false;
                 sys_claim(t, 0, 4 + (uint64_t{1} << 32), [](AirTrace& t, size_t k) {
                   for (const char* c : {"d0", "d1", "d2", "d3", "e0", "e1", "e2", "short", "shinv"}) sys_cell(t, k, c) = 0;
                   sys_rechain(t);
                 });
                 return true;
               },
               B::kBigRead});
  m.push_back({"syscall:c:buf_small",
               "fault class 'fault hidden': far_prog's read and write with the buffer at 2^32 + 0x20000 (R's bit 32 set), "
               "where the executor faults, proven as if at 0x20000 (the iogroup tuple takes the low 32 bits)",
               [](AirTrace& t) {
                 t = far_run(32);
                 return true;
               },
               B::kFar});
  m.push_back({"syscall:c:c_small",
               "fault class 'fault hidden': far_prog's write(1, buf, 2^33 + 3) (R's bit 33 set), where the executor faults, "
               "proven as returning 2^33 + 3 with 3 bytes moved (mv takes the low 32 bits)",
               [](AirTrace& t) {
                 t = far_run(33);
                 return true;
               },
               B::kFar});
  m.push_back({"cpu:c:c3_bit",
               "fault class 'fault hidden': far_prog's ld at 2^48 + 0x20000 (R's bit 35 set, shifted), where the executor "
               "faults, reading 0x20000: s3 = 0 (adder_high) and c3 = 1/2^16, which adder_s3 accepts",
               [](AirTrace& t) {
                 t = far_run(35);
                 auto& cpu = t.table("cpu");
                 for (auto& row : cpu.rows)
                   if (row[cpu.col("f_load")] == 1 && row[cpu.col("s3")] == 1) {
                     row[cpu.col("s3")] = 0, row[cpu.col("c3")] = Fp::from_u64(65536).inverse().value();
                     count_lookups(t);
                     return true;
                   }
                 return false;
               },
               B::kFar});
  add("syscall:c:c_small", "write(1, buf, 3) with a2 read as 3 + 2^32", [](AirTrace& t) {
    sys_cell(t, sk::kWriteOut, "c2") = 1;
    return true;
  });
  add("syscall:c:mv", "write(1, buf, 3) asks for 4 bytes (mv = 4)", [](AirTrace& t) {
    sys_cell(t, sk::kWriteOut, "mv") = 4, sys_cell(t, sk::kWriteOut, "mvinv") = Fp::from_u64(4).inverse().value();
    return true;
  });
  add("syscall:c:mvz_set", "write(1, buf, 3) returns 3 but moves nothing (mvz = 0): the output suppressed", [](AirTrace& t) {
    sys_cell(t, sk::kWriteOut, "mvz") = 0, sys_cell(t, sk::kWriteOut, "mvinv") = 0;
    auto& io = t.table("io");
    for (size_t i = io.height(); i-- > 0;)
      if (io.rows[i][io.col("out")]) io.rows.erase(io.rows.begin() + static_cast<std::ptrdiff_t>(i));
    io.rows.resize(io.height() + 3, std::vector<uint64_t>(io.columns.size(), 0));
    auto& out = t.table("output");
    for (auto& row : out.rows) std::fill(row.begin(), row.end(), 0);
    replay_memory(t);
    count_lookups(t);
    return true;
  });
  add("syscall:c:mvz_inv", "read(0, buf, 0) asks for a group of bytes (mvz = 1)", [](AirTrace& t) {
    sys_cell(t, sk::kReadZero, "mvz") = 1;
    return true;
  });
  add("syscall:c:buf_small", "read(0, buf, 4) with a1 read as 2^32 + 0x20000", [](AirTrace& t) {
    sys_cell(t, sk::kReadFull, "b2") = 1;
    return true;
  });
  add("syscall:c:ostart", "write(1, buf, 3) starts at output position 1", [](AirTrace& t) {
    sys_cell(t, sk::kWriteOut, "ostart") = 1;
    return true;
  });
  add("syscall:b:io", "read(0, buf, 4) asks for its bytes at buf + 1", [](AirTrace& t) {
    sys_cell(t, sk::kReadFull, "b0") += 1;
    return true;
  });
  add("syscall:c:opos_first", "the output claimed to start at position 1", [](AirTrace& t) {
    for (size_t k = 0; k <= sk::kLast; ++k) sys_cell(t, k, "opos") += 1;
    sys_cell(t, sk::kWriteOut, "ostart") += 1;
    return true;
  });
  add("syscall:c:opos_next", "the output position skips one after the first read", [](AirTrace& t) {
    for (size_t k = 1; k <= sk::kLast; ++k) sys_cell(t, k, "opos") += 1;
    sys_cell(t, sk::kWriteOut, "ostart") += 1;
    return true;
  });
  // the io groups
  auto io_row = [](const AirTrace& t, size_t k, size_t idx) {  // row idx of the group of sys_prog's k-th ecall
    const auto& io = t.table("io");
    const uint64_t ts = get(t, "syscall", k, "ts") + 2;
    for (size_t i = 0; i < io.height(); ++i)
      if (io.rows[i][io.col("is_real")] && io.rows[i][io.col("ts")] == ts && io.rows[i][io.col("idx")] == idx) return i;
    throw std::logic_error("no such io row");
  };
  auto io_add = [&](const std::string& id, const std::string& what, size_t k, size_t idx, const char* col, uint64_t value, bool replay) {
    add(id, what, [io_row, k, idx, col, value, replay](AirTrace& t) {
      cell(t, "io", io_row(t, k, idx), col) = value;
      if (replay) replay_memory(t);
      count_lookups(t);
      return true;
    });
  };
  add("io:c:real_prefix", "a padding row between the fd 1 and fd 2 writes' groups (bridging them)", [io_row](AirTrace& t) {
    auto& io = t.table("io");
    const size_t d = io_row(t, sk::kWriteLog, 0);
    std::vector<uint64_t> pad(io.columns.size(), 0);
    const Fp minus = Fp() - Fp::from_u64(1);
    pad[io.col("idx")] = minus.value(), pad[io.col("opos")] = minus.value();
    pad[io.col("ts")] = io.rows[d][io.col("ts")], pad[io.col("addr")] = io.rows[d][io.col("addr")] - 1;
    io.rows.insert(io.rows.begin() + static_cast<std::ptrdiff_t>(d), pad);
    if (io.rows.back()[io.col("is_real")] == 0) io.rows.pop_back();
    return true;
  });
  io_add("io:c:last_bit", "last = 2 on the first read's last byte", sk::kReadFull, 3, "last", 2, false);
  add("io:c:last_real",
      "write(2, buf, 2) moves no byte: its group's rows dropped but for the last, kept as a padding row (is_real = 0) that "
      "still receives the syscall's tuple (memory replayed without the two reads)",
      [io_row](AirTrace& t) {
        auto& io = t.table("io");
        const size_t first = io_row(t, sk::kWriteLog, 0), last = io_row(t, sk::kWriteLog, 1);
        if (last != first + 1 || !io.rows[last][io.col("last")] || (last + 1 < io.height() && io.rows[last + 1][io.col("is_real")]))
          return false;  // the group must be the table's last
        io.rows[last][io.col("is_real")] = 0;
        io.rows.erase(io.rows.begin() + static_cast<std::ptrdiff_t>(first));
        io.rows.push_back(std::vector<uint64_t>(io.columns.size(), 0));
        replay_memory(t);
        count_lookups(t);
        return true;
      });
  add("io:c:last_real", "last = 1 on a padding row of io", [](AirTrace& t) {
    auto& io = t.table("io");
    io.rows.push_back(std::vector<uint64_t>(io.columns.size(), 0));
    io.rows.back()[io.col("last")] = 1;
    return true;
  });
  io_add("io:c:idx_first", "the first io row's index is 1", sk::kReadFull, 0, "idx", 1, false);
  m.push_back({"io:c:idx_first", "log_prog's first group (the write to fd 2) without its first byte's row (memory replayed)",
               [](AirTrace& t) {
                 auto& io = t.table("io");
                 auto at = [&](size_t r, const char* c) { return io.rows[r][io.col(c)]; };
                 if (io.height() < 2 || !at(0, "is_real") || at(0, "idx") || at(0, "rd") || at(0, "out") || at(0, "last") ||
                     !at(1, "last"))
                   return false;
                 // the group's tuple is on its last row, (ts, addr - idx, idx + 1, ...): the same
                 // without the first row, whose byte the log then shows without a memory access
                 io.rows.erase(io.rows.begin());
                 io.rows.push_back(std::vector<uint64_t>(io.columns.size(), 0));
                 replay_memory(t);
                 count_lookups(t);
                 return true;
               },
               Mutation::Base::kLog});
  m.push_back({"io:c:next_out", "fault class 'public output forged': the first byte of log_prog's write to fd 2 sent to the public output (out = 1 on its row only; the group's tuple, on its last row, keeps out = 0)",
               [](AirTrace& t) {
                 auto& io = t.table("io");
                 auto at = [&](size_t r, const char* c) { return io.rows[r][io.col(c)]; };
                 if (io.height() < 2 || !at(0, "is_real") || at(0, "idx") || at(0, "out") || at(0, "opos") || at(0, "last"))
                   return false;
                 io.rows[0][io.col("out")] = 1;
                 rebuild_output(t);
                 return true;
               },
               Mutation::Base::kLog});
  io_add("io:c:next_idx", "an index in the middle of a group off by one", sk::kReadFull, 1, "idx", 2, false);
  io_add("io:c:next_ts", "a byte of the first read moved to another timestamp", sk::kReadFull, 1, "ts", 4, true);
  io_add("io:c:next_addr", "fault class 'memory value changed': a byte of the first read written 5 bytes further", sk::kReadFull, 1,
         "addr", 0x20006, true);
  io_add("io:c:next_rd", "a byte of the first read flagged as a write", sk::kReadFull, 1, "rd", 0, false);
  add("io:c:next_rd", "write(2, buf, 2) changes its first byte (flagged as a read byte)", [io_row](AirTrace& t) {
    const size_t i = io_row(t, sk::kWriteLog, 0);
    cell(t, "io", i, "rd") = 1, cell(t, "io", i, "new") = (cell(t, "io", i, "old") + 1) & 0xff;
    replay_memory(t);
    count_lookups(t);
    return true;
  });
  add("io:c:group_end", "a byte written at no syscall's request (an unclosed group after the last one)", [](AirTrace& t) {
    auto& io = t.table("io");
    size_t n = 0;
    while (io.rows[n][io.col("is_real")]) ++n;
    auto& row = io.rows[n];
    row[io.col("is_real")] = 1, row[io.col("ts")] = io.rows[n - 1][io.col("ts")], row[io.col("addr")] = 0x20010;
    row[io.col("new")] = 0x55, row[io.col("rd")] = 1;
    replay_memory(t);
    count_lookups(t);
    return true;
  });
  add("io:c:group_end_last", "a byte written at no syscall's request, in the io table's last row", [](AirTrace& t) {
    auto& io = t.table("io");
    while (!io.rows.back()[io.col("is_real")]) io.rows.pop_back();
    std::vector<uint64_t> row(io.columns.size(), 0);
    row[io.col("is_real")] = 1, row[io.col("ts")] = io.rows.back()[io.col("ts")], row[io.col("addr")] = 0x20010;
    row[io.col("new")] = 0x55, row[io.col("rd")] = 1;
    io.rows.push_back(row);
    replay_memory(t);
    count_lookups(t);
    return true;
  });
  add("io:c:rd_writable", "the reads go into the code segment (a program whose first instruction is lui a1, 0x10)", [](AirTrace& t) {
    set_rom_word(t, 0, 0x000105b7);
    set_limbs(t, 0, "d_v", 0x10000);
    rebalance(t);
    return true;
  });
  io_add("io:c:next_out", "a byte of the fd 1 write flagged as not output", sk::kWriteOut, 1, "out", 0, false);
  io_add("io:c:next_opos", "a byte of the fd 1 write sent to output position 2 twice", sk::kWriteOut, 1, "opos", 2, false);
  io_add("io:c:group_end", "the last io row not flagged last", sk::kWriteLog, 1, "last", 0, false);
  add("io:c:group_end_last", "an io table without padding whose last row is not flagged last", [](AirTrace& t) {
    auto& io = t.table("io");
    while (io.height() && !io.rows.back()[io.col("is_real")]) io.rows.pop_back();
    io.rows.back()[io.col("last")] = 0;
    return true;
  });
  io_add("io:b:group", "the first read's bytes claimed at 0x20001.. (all four moved by one)", sk::kReadFull, 3, "addr", 0x20004, true);
  add("io:b:group", "the first read's bytes at a timestamp that is no ecall's", [io_row](AirTrace& t) {
    for (size_t idx = 0; idx < 4; ++idx) cell(t, "io", io_row(t, sk::kReadFull, idx), "ts") += 4;
    replay_memory(t);
    count_lookups(t);
    return true;
  });
  io_add("io:c:rd_bit", "rd = 2 on a read byte", sk::kReadFull, 0, "rd", 2, false);
  io_add("io:c:out_bit", "out = 2 on an output byte", sk::kWriteOut, 0, "out", 2, false);
  add("io:c:out_bit",
      "fault class 'public output forged': two padding rows of io send output byte 0 again, once with out = -1 (taking the "
      "written byte back) and once with out = 1 (another byte in its place)",
      [](AirTrace& t) {
        auto& io = t.table("io");
        auto& ot = t.table("output");
        size_t n = 0;  // the first padding row
        while (n < io.height() && io.rows[n][io.col("is_real")]) ++n;
        if (n + 2 > io.height()) io.rows.resize(2 * io.height(), std::vector<uint64_t>(io.columns.size(), 0));
        const uint64_t written = ot.rows[0][ot.col("value")], forged = written ^ 0x20;
        // a padding row's output multiplicity is out, which nothing but out_bit holds to {0, 1}
        auto set = [&](size_t row, uint64_t out, uint64_t value) {
          io.rows[row][io.col("out")] = out, io.rows[row][io.col("opos")] = 0, io.rows[row][io.col("new")] = value;
        };
        set(n, (Fp() - Fp::from_u64(1)).value(), written);
        set(n + 1, 1, forged);
        ot.rows[0][ot.col("value")] = forged;
        return true;
      });
  add("io:c:out_bit",
      "fault class 'public output forged': a padding row of io sends a byte that no syscall wrote, appended to the claimed "
      "output (out = 1 with is_real = 0)",
      [](AirTrace& t) {
        auto& io = t.table("io");
        auto& ot = t.table("output");
        size_t n = 0;  // the first padding row of io
        while (n < io.height() && io.rows[n][io.col("is_real")]) ++n;
        if (n == io.height()) io.rows.resize(2 * io.height(), std::vector<uint64_t>(io.columns.size(), 0));
        size_t k = 0;  // the output's length
        while (k < ot.height() && ot.rows[k][ot.col("is_real")]) ++k;
        if (k == ot.height()) ot.rows.resize(2 * ot.height(), std::vector<uint64_t>(ot.columns.size(), 0));
        ot.rows[k][ot.col("is_real")] = 1, ot.rows[k][ot.col("pos")] = k, ot.rows[k][ot.col("value")] = 0x58;
        io.rows[n][io.col("out")] = 1, io.rows[n][io.col("opos")] = k, io.rows[n][io.col("new")] = 0x58;
        return true;
      });
  io_add("io:c:rd_writable", "a read byte in a segment claimed read-only (w = 0)", sk::kReadFull, 0, "w", 0, false);
  add("io:c:write_keeps", "fault class 'memory value changed': write(2, buf, 2) changes the byte it reads", [io_row](AirTrace& t) {
    const size_t i = io_row(t, sk::kWriteLog, 0);
    cell(t, "io", i, "new") = (cell(t, "io", i, "new") + 1) & 0xff;
    replay_memory(t);
    count_lookups(t);
    return true;
  });
  io_add("io:b:output", "fault class 'public output changed': a byte written to fd 1 sent to position 7", sk::kWriteOut, 2, "opos", 7,
         false);
  add("output:b:bytes", "fault class 'public output changed': the claimed output's first byte differs", [](AirTrace& t) {
    auto& out = t.table("output");
    out.rows[0][out.col("value")] ^= 1;
    return true;
  });
}
}  // namespace zkrv::ref::air::fixture
