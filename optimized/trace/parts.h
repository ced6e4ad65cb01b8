#pragma once
// The optimized trace builder's parts (optimized/trace/trace.cpp), shared by the whole run's
// builder and the run segments' (optimized/trace/segments.cpp). Internal to optimized/trace.

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "air_columns.h"
#include "core/air/witness.h"
#include "core/assert.h"
#include "optimized/air/check.h"
#include "spec/air/spec.h"
#include "spec/isa.h"

namespace zkrv::opt::trace::detail {

namespace C = air::cols;
using opt::Column;
using air::TableColumns;
using spec::air::padded_height;

// A table being filled: its columns and plain setters (values as the reference computes them,
// reduced mod p as the reference's rows are when they become columns).
struct Table {
  TableColumns t;
  Table(size_t width, size_t height) {
    t.height = height;
    t.columns.assign(width, Column(height));
  }
  void set(size_t c, size_t r, uint64_t v) { t.columns[c][r] = Fp::from_u64(v); }
  void set(size_t c, size_t r, Fp v) { t.columns[c][r] = v; }
  uint64_t get(size_t c, size_t r) const { return t.columns[c][r].value(); }
  // Four 16-bit limbs of v into columns c .. c + 3.
  void limbs(size_t c, size_t r, uint64_t v) {
    for (size_t k = 0; k < 4; ++k) set(c + k, r, (v >> (16 * k)) & 0xffff);
  }
  uint64_t value(size_t c, size_t r) const {  // the 64-bit value of limbs c .. c + 3
    uint64_t v = 0;
    for (size_t k = 0; k < 4; ++k) v |= (get(c + k, r) & 0xffff) << (16 * k);
    return v;
  }
};

Fp inverse(uint64_t v);

// The first failure of a parallel pass (the lowest row), thrown after it as the reference would.
class Failure {
 public:
  void set(size_t row, bool logic, const char* what) {
    std::lock_guard<std::mutex> lock(m_);
    if (row < row_) row_ = row, logic_ = logic, what_ = what;
  }
  void raise() const {
    if (row_ == SIZE_MAX) return;
    if (logic_) throw std::logic_error(what_);
    throw std::invalid_argument(what_);
  }

 private:
  std::mutex m_;
  size_t row_ = SIZE_MAX;
  bool logic_ = false;
  std::string what_;
};

// The program ROM: every aligned word of every executable segment, in address order.
struct Rom {
  struct Range {
    uint64_t lo, hi;  // [lo, hi): aligned words
    size_t row;       // the program table's row of lo
  };
  std::vector<Range> ranges;  // by address
  std::vector<uint64_t> pc, insn;
  bool contains(uint64_t a) const {
    for (const Range& r : ranges)
      if (a >= r.lo && a < r.hi) return (a - r.lo) % 4 == 0;
    return false;
  }
};

struct Seg {
  uint64_t start, file_end, end, w;
  const spec::Segment* s;
};

// The preprocessed tables of the image: segments, image, program.
struct ImageTables {
  std::vector<Seg> segs;  // readable, memsz > 0, by address
  Rom rom;
  size_t image_bytes = 0;
  std::vector<const spec::Segment*> sorted;
};

ImageTables image_tables(const spec::ProgramImage& image);

// The memory of a run before a segment: each touched byte's value and the segment time of its
// newest gmem token (protocol:segments:memory; 0: its initial one), page by page.
class Prior {
 public:
  static constexpr size_t kPage = 4096;
  bool touched(uint64_t a) const {
    const auto it = pages_.find(a / kPage);
    return it != pages_.end() && it->second->touched[a % kPage];
  }
  uint8_t value(uint64_t a) const { return pages_.at(a / kPage)->value[a % kPage]; }
  uint64_t time(uint64_t a) const {
    const auto it = pages_.find(a / kPage);
    return it == pages_.end() ? 0 : it->second->time[a % kPage];
  }
  void set(uint64_t a, uint8_t value, uint64_t time) {
    auto& p = pages_[a / kPage];
    if (!p) p = std::make_unique<Page>();
    p->touched[a % kPage] = true, p->value[a % kPage] = value, p->time[a % kPage] = static_cast<uint32_t>(time);
  }

 private:
  struct Page {
    std::array<bool, kPage> touched{};
    std::array<uint8_t, kPage> value{};
    std::array<uint32_t, kPage> time{};
  };
  std::unordered_map<uint64_t, std::unique_ptr<Page>> pages_;
};

// The memory argument's state: the last token of every byte touched, page by page.
class Memory {
 public:
  struct Token {
    uint64_t ts = 0;
    uint8_t value = 0, w = 0;
    bool touched = false;
    uint8_t v_in = 0;  // the value when first touched here (a segment's start value)
  };
  static constexpr size_t kPage = 4096;
  using Page = std::array<Token, kPage>;

  // A whole run's memory (every byte starts at its ELF value, timestamp 0), or a run segment's: a
  // byte starts at its value in `prior` (the run before the segment) and at timestamp t0.
  explicit Memory(const ImageTables& it, const Prior* prior = nullptr, uint64_t t0 = 0) : it_(it), prior_(prior), t0_(t0) {}
  Token& token(uint64_t a) {
    const uint64_t p = a / kPage;
    if (p != last_) {
      auto& slot = pages_[p];
      if (!slot) slot = memory::make_unique<Page>();  // 64 KiB: in the prover's region, with the columns
      last_ = p, page_ = slot.get();
    }
    Token& t = (*page_)[a % kPage];
    if (!t.touched) {
      ++touched_;
      t.touched = true;
      const Seg* g = segment_of(a);
      t.w = g ? static_cast<uint8_t>(g->w) : 0;
      t.value = prior_ && prior_->touched(a) ? prior_->value(a) : file_byte(a);
      t.v_in = t.value;
      t.ts = t0_;
    }
    return t;
  }
  // As ref::air::replay_memory: the first segment holding a; the image table's byte at a (the
  // last readable segment's, in address order; none at address 0).
  const Seg* segment_of(uint64_t a) const {
    for (const Seg& g : it_.segs)
      if (a >= g.start && a < g.end) return &g;
    return nullptr;
  }
  uint8_t file_byte(uint64_t a) const {
    if (a == 0) return 0;
    for (auto g = it_.segs.rbegin(); g != it_.segs.rend(); ++g)
      if (a >= g->start && a < g->file_end) return g->s->data[a - g->start];
    return 0;
  }
  size_t touched() const { return touched_; }
  const std::map<uint64_t, memory::Unique<Page>>& pages() const { return pages_; }

 private:
  const ImageTables& it_;
  const Prior* prior_;
  uint64_t t0_;
  std::map<uint64_t, memory::Unique<Page>> pages_;
  uint64_t last_ = ~uint64_t{0};
  Page* page_ = nullptr;
  size_t touched_ = 0;
};

// The sequential part of a cpu row, step by step as the executor hands them over: the register
// file's replay (values and timestamps), and the syscall table's rows.
class CpuStream {
 public:
  // The rows of cycles c0 .. c0 + rows − 1 of a run of run_cycles cycles (a whole run: c0 = 0 and
  // rows = run_cycles), starting from the registers `regs`, whose tokens start at timestamp 4 c0.
  CpuStream(Table& cpu, core::TraceTable& sys, uint64_t run_cycles, uint64_t c0 = 0, uint64_t rows = 0,
            const std::array<uint64_t, 32>& regs = {})
      : cpu_(cpu), sys_(sys), cycles_(run_cycles), c0_(c0), rows_(rows ? rows : run_cycles), reg_val_(regs) {
    reg_ts_.fill(4 * c0);
  }
  void step(const spec::StepRecord& s) {
    const size_t i = next_++;
    ZKRV_ASSERT(s.cycle == c0_ + i && i < rows_, "trace builder: the executor's steps are out of order");
    Table& c = cpu_;
    const uint64_t clk = s.cycle;
    c.set(C::cpu::is_real, i, 1);
    c.set(C::cpu::pc, i, s.pc), c.set(C::cpu::next_pc, i, s.next_pc), c.set(C::cpu::insn, i, s.insn);
    const uint32_t opcode = s.insn & 0x7f;
    const bool ecall = opcode == 0x73, last = clk + 1 == cycles_;
    const uint64_t ra = ecall ? 17 : (s.insn >> 15) & 31, rb = ecall ? 10 : (s.insn >> 20) & 31,
                   wr = ecall ? 10 : (s.insn >> 7) & 31;
    c.set(C::cpu::ra, i, ra), c.set(C::cpu::rb, i, rb), c.set(C::cpu::wr, i, wr);
    auto access = [&](uint64_t reg, uint64_t ts, size_t prev_col, size_t dt) {
      const uint64_t prev = reg_ts_[reg], gap = ts - prev - 1;
      c.set(prev_col, i, prev), c.set(dt, i, gap & 0xffff), c.set(dt + 1, i, gap >> 16);
      reg_ts_[reg] = ts;
    };
    const uint64_t a_val = reg_val_[ra], b_val = reg_val_[rb];
    c.limbs(C::cpu::a_v0, i, a_val);
    access(ra, 4 * clk + 1, C::cpu::a_prev_ts, C::cpu::a_dt0);
    c.limbs(C::cpu::b_v0, i, b_val);
    access(rb, 4 * clk + 2, C::cpu::b_prev_ts, C::cpu::b_dt0);
    ZKRV_ASSERT(!((s.rs1 && s.rs1 == ra && s.rs1_value != a_val) || (s.rs2 && s.rs2 == rb && s.rs2_value != b_val)),
                "trace builder: replayed register value differs from the trace record");
    const bool writes = !(opcode == 0x23 || opcode == 0x63 || opcode == 0x0f || (ecall && last));
    const uint64_t old = reg_val_[wr], now = writes && s.rd == wr ? s.rd_value : old;
    c.limbs(C::cpu::d_old0, i, old);
    c.limbs(C::cpu::d_v0, i, now);
    access(wr, 4 * clk + 3, C::cpu::d_prev_ts, C::cpu::d_dt0);
    reg_val_[wr] = now;
    if (ecall && !last) {  // the syscall table's row: a1 and a2 read at 4 clk + 1 (spec/tables/syscall.md)
      core::push_syscall_row(sys_, 4 * clk + 1, a_val, b_val, now, reg_val_[11], reg_val_[12], reg_ts_[11], reg_ts_[12]);
      reg_ts_[11] = reg_ts_[12] = 4 * clk + 1;
    }
  }
  size_t steps() const { return next_; }
  const std::array<uint64_t, 32>& reg_val() const { return reg_val_; }
  const std::array<uint64_t, 32>& reg_ts() const { return reg_ts_; }

 private:
  Table& cpu_;
  core::TraceTable& sys_;
  const uint64_t cycles_, c0_, rows_;
  size_t next_ = 0;
  std::array<uint64_t, 32> reg_val_{}, reg_ts_{};
};

// The rest of a real cpu row, from its own columns (rows are independent: run in parallel);
// exit_row: the row of the run's exit (its last cycle), if it is one of these rows.
void cpu_row(Table& c, size_t i, uint64_t exit_row, const Rom& rom, Failure& fail);

// The memory argument's replay (ref::air::replay_memory) of cpu rows 0 .. rows − 1 (cycles
// c0 + r) and the io rows, in timestamp order, on `mem`.
void replay_accesses(Table& cpu, uint64_t rows, uint64_t c0, Table& io, size_t io_rows, Memory& mem, Failure& fail);
// Row r of a mem table: address a (the previous row's prev; its gap set on row r − 1), its final
// token, and what the ELF says of it (lookup's segment_of and file_byte).
void mem_row(Table& m, size_t r, uint64_t a, uint64_t prev, uint64_t fin_ts, uint8_t fin_v, const Memory& lookup);
// A whole run's mem table: every address `mem` touched, in order.
Table mem_table(const Memory& mem);

struct AluTables {
  Table alu, mul, shift, div;
};
// The alu, mul, shift and div tables of cpu rows 0 .. rows − 1 (ref::air::fill_alu_tables).
AluTables alu_tables(const Table& cpu, uint64_t rows, unsigned threads);

// The fixed and preprocessed tables (and8, byte, range16, pow2, segments, image, program) into
// `tables` (the whole run's spec order).
void fixed_tables(const ImageTables& it, std::vector<TableColumns>& tables);

// Each lookup table's multiplicities from every send of `tables` (spec order of the AIR of `mode`).
void count_lookups(std::vector<TableColumns>& tables, const std::vector<Fp>& publics, unsigned threads,
                   spec::air::Mode mode = spec::air::Mode::kWhole);

// A table kept row by row (the small syscall table), column-major in the columns of `spec`.
TableColumns from_rows(const core::TraceTable& tt, const spec::air::Table& spec);

}  // namespace zkrv::opt::trace::detail
