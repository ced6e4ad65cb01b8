// The memory mutations (base mem_prog): the mem table, the cpu's loads and stores, the io table's
// side of memory, the image and segments lookups.
#include <algorithm>
#include <string>

#include "reference/field/goldilocks.h"
#include "tests/air/air_fixture.h"

namespace zkrv::ref::air::fixture {
namespace {

namespace mw {  // instruction words of mem_prog
constexpr uint32_t kSd0 = 0x0072b023, kSw9 = 0x0072a4a3, kLd8 = 0x0002b403, kLw9 = 0x0092a483, kLh = 0x00e29583,
                   kLb = 0x01128683, kLdRo = 0x00033783, kSdCross = 0xfe7a3ea3, kLdBack = 0xffda3903,
                   kLui20 = 0x00031a37, kLui5 = 0x000302b7;
}  // namespace mw

// Every load that writes rd takes the value its bytes give (an attacker who changed memory
// keeps the loads consistent with it); registers replayed again.
void follow_loads(AirTrace& t) {
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t r = 0; r < real_rows(t); ++r) {
      if (get(t, "cpu", r, "f_load") != 1 || get(t, "cpu", r, "wr") == 0) continue;
      uint64_t v = 0;
      for (int j = 0; j < 8; ++j) v |= get(t, "cpu", r, ("lv" + std::to_string(j)).c_str()) << (8 * j);
      set_limbs(t, r, "d_v", v);
    }
    rebalance(t);
  }
}
// The program word at cpu row r's pc replaced (another ELF), the row decoded from it.
uint32_t store_word(int32_t imm, uint32_t rs2, uint32_t rs1, uint32_t funct3) {
  const uint32_t u = static_cast<uint32_t>(imm) & 0xfff;
  return ((u >> 5) << 25) | (rs2 << 20) | (rs1 << 15) | (funct3 << 12) | ((u & 31) << 7) | 0x23;
}
size_t mem_row(const AirTrace& t, uint64_t addr) {
  const auto& m = t.table("mem");
  for (size_t i = 0; i < m.height(); ++i)
    if (m.rows[i][m.col("is_real")] && m.rows[i][m.col("addr")] == addr) return i;
  throw std::logic_error("address not in the mem table");
}
size_t first_io_row(const AirTrace& t) {
  const auto& io = t.table("io");
  for (size_t i = 0; i < io.height(); ++i)
    if (io.rows[i][io.col("is_real")]) return i;
  throw std::logic_error("no io row");
}

}  // namespace

void mem_mutations(std::vector<Mutation>& m) {
  using B = Mutation::Base;
  // from_file = 2 on a real row of a file byte that is 0: zero_fill (1 − 2) init = 0 holds, the
  // image lookup of (addr, 0) is asked twice (the image row's multiplicity counts it), and fd's
  // bracket becomes 2 (file_end − 1 − addr) − (addr − file_end) = 3 (file_end − addr) − 2, which
  // still splits into two 16-bit digits. The initial value is right; only the bit fails.
  m.push_back({"mem:c:from_file_bit", "from_file = 2 on the row of a file byte that is 0", [](AirTrace& t) {
                 auto& mt = t.table("mem");
                 for (auto& row : mt.rows) {
                   if (row[mt.col("is_real")] != 1 || row[mt.col("from_file")] != 1 || row[mt.col("init")] != 0) continue;
                   const uint64_t fd = 3 * (row[mt.col("file_end")] - row[mt.col("addr")]) - 2;
                   if (fd >= (uint64_t{1} << 32)) continue;
                   row[mt.col("from_file")] = 2;
                   row[mt.col("fd0")] = fd & 0xffff, row[mt.col("fd1")] = fd >> 16;
                   count_lookups(t);
                   return true;
                 }
                 return false;
               }, B::kFib});  // fib loads a file byte that is 0
  m.push_back({"cpu:c:adder_unused", "s0 = 1 on a lui row", [](AirTrace& t) {
                 at(t, "cpu", row_with_insn(t, mw::kLui5), "s0") = 1;
                 count_lookups(t);
                 return true;
               }, B::kMem});
  // the active bytes: fewer than the size, where the missing bytes equal the extension
  struct Drop {
    int j;
    uint32_t word;
    std::vector<int> zero;
  };
  const std::vector<Drop> drops = {{0, mw::kLb, {0}},       {1, mw::kLh, {1}},       {2, mw::kLw9, {2, 3}}, {3, mw::kLw9, {3}},
                                   {4, mw::kLd8, {4, 5, 6, 7}}, {5, mw::kLd8, {5}},  {6, mw::kLd8, {6}},    {7, mw::kLd8, {7}}};
  for (const auto& d : drops)
    m.push_back({"cpu:c:mo" + std::to_string(d.j), "a load that skips byte " + std::to_string(d.j) + " of its access",
                 [d](AirTrace& t) {
                   Keep keep(g_keep_mo);
                   const size_t r = row_with_insn(t, d.word);
                   for (int j : d.zero) at(t, "cpu", r, ("mo" + std::to_string(j)).c_str()) = 0;
                   if (d.j == 0) set_limbs(t, r, "d_v", 0);  // no byte: the value is 0
                   rebalance(t);
                   return true;
                 }, B::kMem});
  m.push_back({"cpu:c:load_funct3", "LD with funct3 = 7 (reserved) executed", [](AirTrace& t) {
                 rewrite_rom(t, row_with_insn(t, mw::kLd8), mw::kLd8 | (4u << 12));
                 return true;
               }, B::kMem});
  m.push_back({"cpu:c:store_funct3", "SW with funct3 = 6 (reserved) executed", [](AirTrace& t) {
                 rewrite_rom(t, row_with_insn(t, mw::kSw9), mw::kSw9 | (4u << 12));
                 return true;
               }, B::kMem});
  for (int j = 0; j < 8; ++j) {
    const std::string n = std::to_string(j);
    m.push_back({"cpu:c:m" + n + "_order", "the gap of byte " + n + "'s previous access off by one",
                 [j, n](AirTrace& t) {
                   const size_t r = row_with_insn(t, mw::kLd8);
                   (void)j;
                   at(t, "cpu", r, ("mda" + n).c_str()) += 1;
                   count_lookups(t);
                   return true;
                 }, B::kMem});
    m.push_back({"cpu:b:mda" + n, "byte " + n + "'s gap limb + 2^16, the high limb - 1", [n](AirTrace& t) {
                   const size_t r = row_with_insn(t, mw::kLd8);
                   at(t, "cpu", r, ("mda" + n).c_str()) += 65536;
                   at(t, "cpu", r, ("mdb" + n).c_str()) = (get(t, "cpu", r, ("mdb" + n).c_str()) + P - 1) % P;
                   count_lookups(t);
                   return true;
                 }, B::kMem});
    m.push_back({"cpu:b:mdb" + n, "byte " + n + "'s high gap limb + 1, the low limb - 2^16", [n](AirTrace& t) {
                   const size_t r = row_with_insn(t, mw::kLd8);
                   at(t, "cpu", r, ("mdb" + n).c_str()) += 1;
                   at(t, "cpu", r, ("mda" + n).c_str()) = (get(t, "cpu", r, ("mda" + n).c_str()) + P - 65536) % P;
                   count_lookups(t);
                   return true;
                 }, B::kMem});
    m.push_back({"cpu:b:m" + n + "_in", "fault class 'memory value changed before a step': a load reads byte " + n + " flipped",
                 [j, n](AirTrace& t) {
                   const size_t r = row_with_insn(t, mw::kLd8);
                   for (const char* c : {"mv", "mn", "lv"}) at(t, "cpu", r, (c + n).c_str()) ^= 1;
                   set_limbs(t, r, "d_v", limbs_value(t, r, "d_v") ^ (uint64_t{1} << (8 * j)));
                   return true;
                 }, B::kMem});
    m.push_back({"cpu:b:m" + n + "_out", "fault class 'memory value changed after a step': byte " + n + " flipped by the last load",
                 [n](AirTrace& t) {
                   at(t, "cpu", row_with_insn(t, mw::kLdBack), ("mn" + n).c_str()) ^= 1;
                   return true;
                 }, B::kMem});
    m.push_back({"cpu:c:m" + n + "_load", "a load that changes byte " + n + " (the last access of it)", [n](AirTrace& t) {
                   Keep keep(g_keep_load_bytes);
                   at(t, "cpu", row_with_insn(t, mw::kLdBack), ("mn" + n).c_str()) ^= 1;
                   rebalance(t);
                   return true;
                 }, B::kMem});
    m.push_back({"cpu:c:m" + n + "_store", "fault class 'store value changed': a store writes byte " + n + " flipped, the load after it follows",
                 [n](AirTrace& t) {
                   Keep keep(g_keep_store_bytes);
                   at(t, "cpu", row_with_insn(t, mw::kSdCross), ("mn" + n).c_str()) ^= 1;
                   rebalance(t);
                   follow_loads(t);
                   return true;
                 }, B::kMem});
    m.push_back({"cpu:c:m" + n + "_writable", "a store whose byte " + n + " is the read-only byte at 0x30100", [j](AirTrace& t) {
                   rewrite_rom(t, row_with_insn(t, mw::kSd0), store_word(0x100 - j, 7, 5, 3));
                   follow_loads(t);
                   return true;
                 }, B::kMem});
    m.push_back({"cpu:b:sb" + n, "store byte " + n + " + 256 (its limb kept)", [j, n](AirTrace& t) {
                   const size_t r = row_with_insn(t, mw::kSd0);
                   at(t, "cpu", r, ("sb" + n).c_str()) += 256;
                   const std::string other = "sb" + std::to_string(j % 2 == 0 ? j + 1 : j - 1);
                   at(t, "cpu", r, other.c_str()) = (get(t, "cpu", r, other.c_str()) + P - (j % 2 == 0 ? 1 : 65536)) % P;
                   count_lookups(t);
                   return true;
                 }, B::kMem});
    m.push_back({"cpu:c:lv" + n, "a load's value byte " + n + " flipped with lv" + n, [j, n](AirTrace& t) {
                   const size_t r = row_with_insn(t, mw::kLd8);
                   set_limbs(t, r, "d_v", limbs_value(t, r, "d_v") ^ (uint64_t{1} << (8 * j)));
                   rebalance(t);
                   at(t, "cpu", r, ("lv" + n).c_str()) ^= 1;
                   return true;
                 }, B::kMem});
  }
  m.push_back({"cpu:c:m0_order", "fault class 'timestamps reordered': a byte's previous access claimed after the load", [](AirTrace& t) {
                 const size_t r = row_with_insn(t, mw::kLd8);
                 at(t, "cpu", r, "mt0") = 4 * get(t, "cpu", r, "clk") + 10;
                 return true;
               }, B::kMem});
  m.push_back({"cpu:c:m0_writable", "fault class 'store into the read-only region': sd into rodata", [](AirTrace& t) {
                 rewrite_rom(t, row_with_insn(t, mw::kSd0), store_word(0, 7, 6, 3));
                 follow_loads(t);
                 return true;
               }, B::kMem});
  for (int k = 0; k < 4; ++k) {
    const std::string n = std::to_string(k);
    m.push_back({"cpu:c:sb_limb" + n, "a store writes byte " + std::to_string(2 * k) + " of another rs2 (claimed in sb)", [k](AirTrace& t) {
                   Keep keep(g_keep_store_bytes);
                   const size_t r = row_with_insn(t, mw::kSdCross);
                   const std::string b = std::to_string(2 * k);
                   at(t, "cpu", r, ("mn" + b).c_str()) ^= 1;
                   rebalance(t);
                   follow_loads(t);
                   at(t, "cpu", r, ("sb" + b).c_str()) ^= 1;
                   count_lookups(t);
                   return true;
                 }, B::kMem});
    m.push_back({"cpu:c:load_write" + n, "fault class 'load value changed': a load writes limb " + n + " flipped", [k](AirTrace& t) {
                   const size_t r = row_with_insn(t, mw::kLd8);
                   set_limbs(t, r, "d_v", limbs_value(t, r, "d_v") ^ (uint64_t{1} << (16 * k)));
                   rebalance(t);
                   return true;
                 }, B::kMem});
  }
  // a signed byte load (lb of 0xfe) claimed zero-extended, one link of its extension broken
  auto unsigned_lb = [](AirTrace& t, const std::vector<std::pair<const char*, uint64_t>>& set) {
    const size_t r = row_with_insn(t, mw::kLb);
    set_limbs(t, r, "d_v", 0xfe);
    rebalance(t);
    for (int j = 1; j < 8; ++j) at(t, "cpu", r, ("lv" + std::to_string(j)).c_str()) = 0;
    at(t, "cpu", r, "mext") = 0;
    for (const auto& [c, v] : set) at(t, "cpu", r, c) = v;
    count_lookups(t);
  };
  m.push_back({"cpu:c:mext", "lb of 0xfe claimed 0xfe (mext = 0)", [unsigned_lb](AirTrace& t) {
                 unsigned_lb(t, {});
                 return true;
               }, B::kMem});
  m.push_back({"cpu:c:mh", "lb of 0xfe claimed 0xfe (msgn = 0, mh kept)", [unsigned_lb](AirTrace& t) {
                 unsigned_lb(t, {{"msgn", 0}});
                 return true;
               }, B::kMem});
  m.push_back({"cpu:b:mh", "lb of 0xfe claimed 0xfe (msgn = 0, mh = 2 mtop)", [unsigned_lb](AirTrace& t) {
                 unsigned_lb(t, {{"msgn", 0}, {"mh", 2 * 0xfe}});
                 return true;
               }, B::kMem});
  m.push_back({"cpu:c:mtop", "lb of 0xfe claimed 0xfe (mtop = 0x7e)", [unsigned_lb](AirTrace& t) {
                 unsigned_lb(t, {{"msgn", 0}, {"mtop", 0x7e}});
                 return true;
               }, B::kMem});
  m.push_back({"cpu:c:msgn_bit", "msgn = 2 on a load", [](AirTrace& t) {
                 at(t, "cpu", row_with_insn(t, mw::kLb), "msgn") = 2;
                 return true;
               }, B::kMem});
  // the mem table
  m.push_back({"mem:c:real_bit", "is_real = 2 on a padding row of mem", [](AirTrace& t) {
                 auto& mt = t.table("mem");
                 if (mt.rows.back()[mt.col("is_real")]) mt.rows.resize(2 * mt.height(), std::vector<uint64_t>(mt.columns.size(), 0));
                 mt.rows.back()[mt.col("is_real")] = 2;
                 return true;
               }, B::kMem});
  // An address nothing touches may have a row (its first token is its last: fin_ts = 0); with
  // is_real = 2 it sends that token twice and receives it twice, and its range and segment
  // lookups are asked twice (their tables count them): only real_bit rejects it. The row goes
  // after the last real one, where real_prefix (1 − is_real) is_real' reads no next real row.
  m.push_back({"mem:c:real_bit", "is_real = 2 on a new last row: an untouched zero-filled address (its first token its last, twice)",
               [](AirTrace& t) {
                 auto& mt = t.table("mem");
                 const auto& sg = t.table("segments");
                 size_t n = 0;  // the real rows
                 while (n < mt.height() && mt.rows[n][mt.col("is_real")]) ++n;
                 if (n == 0) return false;
                 const uint64_t after = mt.rows[n - 1][mt.col("addr")] + 1;
                 for (const auto& seg : sg.rows) {
                   const uint64_t start = seg[sg.col("start")], file_end = seg[sg.col("file_end")], end = seg[sg.col("end")];
                   const uint64_t a = std::max({after, start, file_end});
                   if (a >= end) continue;
                   std::vector<uint64_t> row(mt.columns.size(), 0);
                   auto set = [&](const char* c, uint64_t v) { row[mt.col(c)] = v; };
                   const uint64_t lo = a - start, hi = end - 1 - a, fd = a - file_end, gap = a - after;
                   set("is_real", 2), set("addr", a), set("w", seg[sg.col("w")]);
                   set("start", start), set("file_end", file_end), set("end", end);
                   set("lo0", lo & 0xffff), set("lo1", lo >> 16), set("hi0", hi & 0xffff), set("hi1", hi >> 16);
                   set("fd0", fd & 0xffff), set("fd1", fd >> 16);
                   mt.rows[n - 1][mt.col("gap0")] = gap & 0xffff, mt.rows[n - 1][mt.col("gap1")] = gap >> 16;
                   if (n == mt.height()) mt.rows.resize(2 * n, std::vector<uint64_t>(mt.columns.size(), 0));
                   mt.rows[n] = row;
                   count_lookups(t);
                   return true;
                 }
                 return false;
               }, B::kMem});
  m.push_back({"mem:c:real_prefix", "the last address's row after a padding row", [](AirTrace& t) {
                 auto& mt = t.table("mem");
                 size_t n = 0;
                 while (n < mt.height() && mt.rows[n][mt.col("is_real")]) ++n;
                 if (n + 2 > mt.height()) mt.rows.resize(2 * mt.height(), std::vector<uint64_t>(mt.columns.size(), 0));
                 std::swap(mt.rows[n - 1], mt.rows[n]);
                 const uint64_t gap = mt.rows[n][mt.col("addr")] - 1;
                 mt.rows[n - 1][mt.col("gap0")] = gap & 0xffff, mt.rows[n - 1][mt.col("gap1")] = gap >> 16;
                 return true;
               }, B::kMem});
  m.push_back({"mem:c:order", "fault class 'an extra memory token': a gap off by one", [](AirTrace& t) {
                 cell(t, "mem", 0, "gap0") += 1;
                 count_lookups(t);
                 return true;
               }, B::kMem});
  for (const char* g : {"gap", "lo", "hi", "fd"})
    for (int k = 0; k < 2; ++k) {
      const std::string col = g + std::to_string(k);
      m.push_back({"mem:b:" + col, col + " + 65536 (not a 16-bit value)", [col](AirTrace& t) {
                     cell(t, "mem", 0, col) += 65536;
                     return true;
                   }, B::kMem});
    }
  for (const char* c : {"lo", "hi", "fd"})
    m.push_back({std::string("mem:c:") + c, std::string(c) + "0 off by one", [c](AirTrace& t) {
                   cell(t, "mem", 0, std::string(c) + "0") += 1;
                   count_lookups(t);
                   return true;
                 }, B::kMem});
  m.push_back({"mem:b:init", "fault class 'a missing memory token': an address's first token claims another value", [](AirTrace& t) {
                 cell(t, "mem", mem_row(t, 0x31005), "init") = 9;
                 return true;
               }, B::kMem});
  m.push_back({"mem:b:final", "fault class 'an extra memory token': an address's last token at another timestamp", [](AirTrace& t) {
                 cell(t, "mem", mem_row(t, 0x30000), "fin_ts") += 1;
                 return true;
               }, B::kMem});
  m.push_back({"mem:b:segment", "an address placed in a segment that does not exist (start - 1)", [](AirTrace& t) {
                 const size_t i = mem_row(t, 0x30000);
                 cell(t, "mem", i, "start") -= 1, cell(t, "mem", i, "lo0") += 1;
                 count_lookups(t);
                 return true;
               }, B::kMem});
  m.push_back({"mem:c:from_file_bit", "from_file = 2 on a padding row", [](AirTrace& t) {
                 auto& mt = t.table("mem");
                 if (mt.rows.back()[mt.col("is_real")]) mt.rows.resize(2 * mt.height(), std::vector<uint64_t>(mt.columns.size(), 0));
                 mt.rows.back()[mt.col("from_file")] = 2;
                 return true;
               }, B::kMem});
  m.push_back({"mem:c:file_real", "from_file = 1 on a padding row (it looks up the image's padding row)", [](AirTrace& t) {
                 auto& mt = t.table("mem");
                 if (mt.rows.back()[mt.col("is_real")]) mt.rows.resize(2 * mt.height(), std::vector<uint64_t>(mt.columns.size(), 0));
                 mt.rows.back()[mt.col("from_file")] = 1;
                 count_lookups(t);
                 return true;
               }, B::kMem});
  m.push_back({"mem:b:image", "fault class 'a byte of the initial memory image changed': rodata's first byte claimed flipped",
               [](AirTrace& t) {
                 auto& img = t.table("image");
                 size_t k = 0;
                 while (img.rows[k][img.col("addr")] != 0x20000) ++k;
                 img.rows[k][img.col("value")] ^= 1;
                 rebalance(t);
                 follow_loads(t);
                 img.rows[k][img.col("value")] ^= 1;  // the verifier's image is the ELF's
                 count_lookups(t);
                 return true;
               }, B::kMem});
  m.push_back({"mem:c:zero_fill", "a never-written byte (0x30ffe) claimed to start as 0x41", [](AirTrace& t) {
                 cell(t, "mem", mem_row(t, 0x30ffe), "init") = 0x41;
                 const size_t r = row_with_insn(t, 0xffea3803);  // ld x16, -2(x20): byte 0 is 0x30ffe
                 for (const char* c : {"mv0", "mn0", "lv0"}) at(t, "cpu", r, c) = 0x41;
                 at(t, "cpu", row_with_insn(t, mw::kSdCross), "mv1") = 0x41;  // the next access of 0x30ffe
                 at(t, "cpu", r, "d_v0") = 0x41;
                 auto& regs = t.table("regs");
                 regs.rows[16][regs.col("final_v0")] = 0x41;
                 count_lookups(t);
                 return true;
               }, B::kMem});
  // the io table
  m.push_back({"io:c:real_bit", "is_real = 2 on a padding row of io", [](AirTrace& t) {
                 auto& io = t.table("io");
                 io.rows.back()[io.col("is_real")] = 2;
                 return true;
               }});
  m.push_back({"io:b:in", "an io byte's old value flipped", [](AirTrace& t) {
                 cell(t, "io", first_io_row(t), "old") ^= 1;
                 return true;
               }});
  m.push_back({"io:b:out", "an io byte's new value changed after the fact", [](AirTrace& t) {
                 cell(t, "io", first_io_row(t), "new") ^= 1;
                 return true;
               }});
  m.push_back({"io:c:order", "an io byte's gap off by one", [](AirTrace& t) {
                 cell(t, "io", first_io_row(t), "dt0") += 1;
                 count_lookups(t);
                 return true;
               }});
  for (const char* c : {"dt0", "dt1"})
    m.push_back({std::string("io:b:") + c, std::string(c) + " + 65536", [c](AirTrace& t) {
                   cell(t, "io", first_io_row(t), c) += 65536;
                   return true;
                 }});
  m.push_back({"io:b:new", "an io byte of 256 + its value", [](AirTrace& t) {
                 cell(t, "io", first_io_row(t), "new") += 256;
                 rebalance(t);
                 return true;
               }});
  m.push_back({"image:b:table", "an image multiplicity off by one", [](AirTrace& t) {
                 t.table("image").rows[0][2] += 1;
                 return true;
               }, B::kMem});
  m.push_back({"segments:b:table", "a segment multiplicity off by one", [](AirTrace& t) {
                 t.table("segments").rows[0][4] += 1;
                 return true;
               }, B::kMem});
}
}  // namespace zkrv::ref::air::fixture
