#include "reference/air/segment_trace.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>

#include "core/assert.h"
#include "reference/air/interpret.h"
#include "reference/field/goldilocks.h"
#include "spec/air/embedded.h"
#include "spec/bundle.h"

namespace zkrv::ref::air {
namespace {

using spec::air::padded_height;

// A token consumed at `ts` whose previous access lies before the segment's start takes the
// segment's own first token, of timestamp t0 (protocol:segments:time): the previous timestamp
// and the two 16-bit limbs of the gap follow.
void retime(std::vector<uint64_t>& row, const TraceTable& t, const std::string& prev, const std::string& lo,
            const std::string& hi, uint64_t ts, uint64_t t0) {
  uint64_t& p = row[t.col(prev)];
  if (p < t0) p = t0;
  const uint64_t gap = ts - p - 1;
  row[t.col(lo)] = gap & 0xffff, row[t.col(hi)] = gap >> 16;
}

uint64_t limbs_value(const std::vector<uint64_t>& row, const TraceTable& t, const std::string& prefix) {
  uint64_t v = 0;
  for (int k = 0; k < 4; ++k) v |= (row[t.col(prefix + std::to_string(k))] & 0xffff) << (16 * k);
  return v;
}

struct Access {
  uint64_t ts, old, now, w;
};
struct Span {
  Access first, last;
};

}  // namespace

void count_segment_lookups(AirTrace& trace) {
  struct Counter final : Sink {
    void constraint(std::string_view, std::string_view, size_t, uint64_t) override {}
    void bus(std::string_view, std::string_view, std::string_view bus, bool send, size_t,
             const std::vector<uint64_t>& tuple, uint64_t mult) override {
      if (!send || mult == 0) return;
      auto& c = counts[std::string(bus)][tuple];
      c = (Fp::from_u64(c) + Fp::from_u64(mult)).value();
    }
    std::map<std::string, std::map<std::vector<uint64_t>, uint64_t>> counts;
  } counter;
  interpret(spec::air::embedded_spec(spec::air::Mode::kSegmented), trace, counter);
  const std::vector<std::pair<std::string, std::vector<std::string>>> lookups = {
      {"byte", {"value"}},         {"range16", {"value"}}, {"and8", {"x", "y", "z"}}, {"program", {"pc", "insn"}},
      {"segment", {"start", "file_end", "end", "w"}}, {"image", {"addr", "value"}}, {"pow2", {"k", "q0", "q1", "q2", "q3"}}};
  for (const auto& [bus, cols] : lookups) {
    TraceTable& t = trace.table(bus == "segment" ? "segments" : bus);
    auto c = counter.counts[bus];
    for (auto& row : t.rows) {
      std::vector<uint64_t> tuple;
      for (const auto& col : cols) tuple.push_back(row[t.col(col)]);
      const auto it = c.find(tuple);
      row[t.col("mult")] = it == c.end() ? 0 : it->second;
      if (it != c.end()) c.erase(it);
    }
  }
}

std::vector<AirTrace> build_segment_traces(const spec::ProgramImage& image, const spec::ExecResult& run,
                                           const spec::RunPlan& plan) {
  if (plan.cycles != run.cycles) throw std::invalid_argument("the plan is not this run's");
  const AirTrace whole = build_trace(image, run);
  const TraceTable& wcpu = whole.table("cpu");
  const TraceTable& wsys = whole.table("syscall");
  const TraceTable& wio = whole.table("io");
  const TraceTable& wmem = whole.table("mem");
  const size_t n = plan.count();
  const unsigned k = plan.log_cycles;
  std::map<uint64_t, uint64_t> gtime;  // address -> time of its newest gmem token (absent: 0)
  std::vector<AirTrace> out;
  for (size_t s = 0; s < n; ++s) {
    const uint64_t c0 = uint64_t{s} << k, c1 = c0 + plan.segments[s].cycles, t0 = 4 * c0;
    const bool more = s + 1 < n;
    const spec::BoundaryState &in = plan.boundaries[s], &end = plan.boundaries[s + 1];
    AirTrace t;
    for (const auto& [name, v] : spec::segment_publics(k, static_cast<uint32_t>(whole.publics.at("exit_code")),
                                                       plan.boundaries, plan.chunks, s))
      t.publics[name] = v;
    for (const char* name : {"and8", "byte", "range16", "segments", "image", "program", "pow2"})
      t.tables.push_back(whole.table(name));

    // cpu: the segment's cycles, every register and memory token re-timed at the segment's start
    TraceTable cpu{"cpu", wcpu.columns, {}};
    std::map<uint64_t, Span> bytes;  // address -> its first and last access in the segment
    auto touch = [&](uint64_t a, const Access& x) {  // cpu and io accesses come in two passes
      auto [it, fresh] = bytes.try_emplace(a, Span{x, x});
      if (x.ts < it->second.first.ts) it->second.first = x;
      if (x.ts > it->second.last.ts) it->second.last = x;
    };
    std::array<uint64_t, 32> reg_ts{}, reg_val = in.regs;
    reg_ts.fill(t0);
    for (uint64_t c = c0; c < c1; ++c) {
      std::vector<uint64_t> row = wcpu.rows[c];
      const uint64_t ts = 4 * c;
      retime(row, cpu, "a_prev_ts", "a_dt0", "a_dt1", ts + 1, t0);
      retime(row, cpu, "b_prev_ts", "b_dt0", "b_dt1", ts + 2, t0);
      retime(row, cpu, "d_prev_ts", "d_dt0", "d_dt1", ts + 3, t0);
      reg_ts[row[cpu.col("ra")]] = ts + 1;
      reg_ts[row[cpu.col("rb")]] = ts + 2;
      reg_ts[row[cpu.col("wr")]] = ts + 3;
      reg_val[row[cpu.col("wr")]] = limbs_value(row, cpu, "d_v");
      const uint64_t addr = row[cpu.col("s0")] + 65536 * row[cpu.col("s1")];
      for (int j = 0; j < 8; ++j) {
        const std::string b = std::to_string(j);
        if (row[cpu.col("mo" + b)] != 1) continue;
        retime(row, cpu, "mt" + b, "mda" + b, "mdb" + b, ts + 3, t0);
        touch(addr + j, {ts + 3, row[cpu.col("mv" + b)], row[cpu.col("mn" + b)], row[cpu.col("mw" + b)]});
      }
      cpu.rows.push_back(std::move(row));
    }
    const size_t cpu_h = padded_height(c1 - c0, 2);
    for (uint64_t i = c1 - c0; i < cpu_h; ++i) {  // the last segment's padding: clk counts on
      std::vector<uint64_t> row(cpu.columns.size(), 0);
      row[cpu.col("clk")] = c0 + i, row[cpu.col("wr_zero")] = 1;
      cpu.rows.push_back(std::move(row));
    }
    t.tables.push_back(std::move(cpu));

    // syscall: the segment's ecalls; the chains go on from the start state (protocol:segments:io)
    TraceTable sys{"syscall", wsys.columns, {}};
    for (const auto& row : wsys.rows) {
      const uint64_t ts = row[wsys.col("ts")];
      if (!row[wsys.col("is_real")] || ts < t0 || ts >= 4 * c1) continue;
      std::vector<uint64_t> r = row;
      if (r[sys.col("bp")] < t0) r[sys.col("bp")] = t0;
      if (r[sys.col("cp")] < t0) r[sys.col("cp")] = t0;
      reg_ts[11] = std::max(reg_ts[11], ts), reg_ts[12] = std::max(reg_ts[12], ts);
      sys.rows.push_back(std::move(r));
    }
    sys.rows.resize(padded_height(sys.rows.size(), 2), std::vector<uint64_t>(sys.columns.size(), 0));
    fill_syscall_witness(sys);  // eof and opos from 0: moved to the start state below
    for (const char* c : {"ipos", "iend", "eend", "oend"}) {
      sys.columns.push_back(c);
      for (auto& r : sys.rows) r.push_back(0);
    }
    uint64_t ipos = in.ipos;
    for (auto& r : sys.rows) {
      if (!r[sys.col("is_real")]) continue;
      const uint64_t mv = r[sys.col("mv")], out1 = r[sys.col("out1")];
      r[sys.col("eof")] = r[sys.col("eof")] | in.eof;
      r[sys.col("opos")] += in.opos;
      r[sys.col("ostart")] = out1 ? r[sys.col("opos")] : 0;
      r[sys.col("ipos")] = ipos;
      ipos += r[sys.col("g_in")] * mv;
      r[sys.col("iend")] = ipos;
      r[sys.col("eend")] = r[sys.col("eof")] | r[sys.col("short")];
      r[sys.col("oend")] = r[sys.col("opos")] + out1 * mv;
    }
    t.tables.push_back(std::move(sys));

    // io: the bytes the segment's syscalls move
    TraceTable io{"io", wio.columns, {}};
    for (const auto& row : wio.rows) {
      const uint64_t ts = row[wio.col("ts")];
      if (!row[wio.col("is_real")] || ts < t0 || ts >= 4 * c1) continue;
      std::vector<uint64_t> r = row;
      retime(r, io, "prev_ts", "dt0", "dt1", ts, t0);
      touch(r[io.col("addr")], {ts, r[io.col("old")], r[io.col("new")], r[io.col("w")]});
      io.rows.push_back(std::move(r));
    }
    io.rows.resize(padded_height(io.rows.size(), 2), std::vector<uint64_t>(io.columns.size(), 0));
    t.tables.push_back(std::move(io));

    // regs: the start state's values in, the end state's out (protocol:segments:registers)
    TraceTable regs{"regs", {"reg", "final_ts", "final_v0", "final_v1", "final_v2", "final_v3"}, {}};
    for (const char* v : {"iv", "ev"})
      for (int i = 0; i < 4; ++i) regs.columns.push_back(v + std::to_string(i));
    for (uint64_t r = 0; r < 32; ++r) {
      std::vector<uint64_t> row = {r, reg_ts[r]};
      for (int i = 0; i < 4; ++i) row.push_back((reg_val[r] >> (16 * i)) & 0xffff);
      for (int i = 0; i < 4; ++i) row.push_back((in.regs[r] >> (16 * i)) & 0xffff);
      for (int i = 0; i < 4; ++i) row.push_back(more ? (end.regs[r] >> (16 * i)) & 0xffff : 0);
      if (more) ZKRV_ASSERT(reg_val[r] == end.regs[r], "segment trace: the registers replayed differ from the plan's");
      regs.rows.push_back(std::move(row));
    }
    t.tables.push_back(std::move(regs));

    // mem: the chunk's addresses, with their final tokens on gmem (protocol:segments:memory)
    TraceTable mem{"mem", wmem.columns, {}};
    mem.columns.push_back("cb0"), mem.columns.push_back("cb1");
    for (const auto& row : wmem.rows) {
      const uint64_t a = row[wmem.col("addr")];
      if (!row[wmem.col("is_real")] || a <= plan.chunks[s] || a > plan.chunks[s + 1]) continue;
      std::vector<uint64_t> r = row;
      r[mem.col("fin_ts")] = plan.memory->final_time(a);
      r.push_back(0), r.push_back(0);
      mem.rows.push_back(std::move(r));
    }
    ZKRV_ASSERT(mem.rows.size() == plan.segments[s].chunk, "segment trace: the chunk differs from the plan's");
    for (size_t i = 0; i < mem.rows.size(); ++i) {
      const uint64_t gap = i + 1 < mem.rows.size() ? mem.rows[i + 1][mem.col("addr")] - mem.rows[i][mem.col("addr")] - 1 : 0;
      mem.rows[i][mem.col("gap0")] = gap & 0xffff, mem.rows[i][mem.col("gap1")] = gap >> 16;
    }
    if (!mem.rows.empty()) {
      const uint64_t cb = mem.rows[0][mem.col("addr")] - plan.chunks[s] - 1;
      mem.rows[0][mem.col("cb0")] = cb & 0xffff, mem.rows[0][mem.col("cb1")] = cb >> 16;
    }
    mem.rows.resize(padded_height(mem.rows.size(), 2), std::vector<uint64_t>(mem.columns.size(), 0));
    t.tables.push_back(std::move(mem));

    // memb: every byte the segment touches, its gmem token in and out
    TraceTable memb{"memb", {"is_real", "addr", "t_in", "v_in", "w", "fin_ts", "fin_v", "td0", "td1", "gap0", "gap1"}, {}};
    ZKRV_ASSERT(bytes.size() == plan.segments[s].touched, "segment trace: the bytes touched differ from the plan's");
    for (auto it = bytes.begin(); it != bytes.end(); ++it) {
      const auto [a, sp] = *it;
      const uint64_t tin = gtime.count(a) ? gtime[a] : 0, td = s - tin;
      const auto nx = std::next(it);
      const uint64_t gap = nx != bytes.end() ? nx->first - a - 1 : 0;
      memb.rows.push_back({1, a, tin, sp.first.old, sp.first.w, sp.last.ts, sp.last.now, td & 0xffff, td >> 16, gap & 0xffff,
                           gap >> 16});
      gtime[a] = s + 1;
    }
    memb.rows.resize(padded_height(memb.rows.size(), 2), std::vector<uint64_t>(memb.columns.size(), 0));
    t.tables.push_back(std::move(memb));

    // output: the slice the segment writes
    TraceTable output{"output", {"is_real", "pos", "value"}, {}};
    for (uint64_t p = in.opos; p < end.opos; ++p) output.rows.push_back({1, p, run.output.at(p)});
    output.rows.resize(padded_height(output.rows.size(), 2), {0, 0, 0});
    t.tables.push_back(std::move(output));

    for (const char* name : {"alu", "div", "mul", "shift"}) t.tables.push_back(TraceTable{name, {}, {}});
    fill_alu_tables(t);
    count_segment_lookups(t);
    out.push_back(std::move(t));
  }
  return out;
}

std::string BundleReport::summary() const {
  std::ostringstream os;
  if (!failures.empty()) os << failures.front() << " (" << failure_count << " failing evaluations in all)";
  else if (!unbalanced.empty()) os << unbalanced.front();
  else os << "every segment's constraints hold and every bus balances";
  return os.str();
}

BundleReport check_segment_traces(const std::vector<AirTrace>& segments) {
  BundleReport rep;
  // (bus, segment or -1 for gmem, tuple) -> sent − received, mod p
  std::map<std::tuple<std::string, int64_t, std::vector<uint64_t>>, uint64_t> balance;
  for (size_t s = 0; s < segments.size(); ++s) {
    struct S final : Sink {
      BundleReport& rep;
      decltype(balance)& bal;
      int64_t seg;
      S(BundleReport& r, decltype(balance)& b, int64_t g) : rep(r), bal(b), seg(g) {}
      void constraint(std::string_view table, std::string_view id, size_t row, uint64_t value) override {
        if (value == 0) return;
        rep.failing.insert("segment " + std::to_string(seg) + ": constraint " + std::string(id));
        if (rep.failures.size() < 20)
          rep.failures.push_back("segment " + std::to_string(seg) + ": constraint " + std::string(id) + " fails in table " +
                                 std::string(table) + " at row " + std::to_string(row));
        ++rep.failure_count;
      }
      void bus(std::string_view, std::string_view, std::string_view bus, bool send, size_t, const std::vector<uint64_t>& tuple,
               uint64_t mult) override {
        if (mult == 0) return;
        uint64_t& v = bal[{std::string(bus), bus == "gmem" ? -1 : seg, tuple}];
        v = send ? (Fp::from_u64(v) + Fp::from_u64(mult)).value() : (Fp::from_u64(v) - Fp::from_u64(mult)).value();
      }
    } sink(rep, balance, static_cast<int64_t>(s));
    interpret(spec::air::embedded_spec(spec::air::Mode::kSegmented), segments[s], sink);
  }
  for (const auto& [key, v] : balance) {
    if (v == 0) continue;
    const auto& [bus, seg, tuple] = key;
    rep.unbalanced_buses.insert("bus " + bus + (seg < 0 ? std::string(" of the bundle") : " of segment " + std::to_string(seg)));
    if (rep.unbalanced.size() >= 20) continue;
    std::string t = "(";
    for (size_t i = 0; i < tuple.size(); ++i) t += (i ? ", " : "") + std::to_string(tuple[i]);
    rep.unbalanced.push_back("bus " + bus + (seg < 0 ? std::string(" of the bundle") : " of segment " + std::to_string(seg)) +
                             ": " + t + ") sent - received = " + std::to_string(v));
  }
  return rep;
}

}  // namespace zkrv::ref::air
