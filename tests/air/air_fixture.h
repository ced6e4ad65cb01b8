#pragma once
// What the AIR checker's tests share (one executable, air_test, in several files):
//  - air_base_traces.cpp: the honest traces the negative tests start from (the fibonacci guest,
//    hand-made programs, executed programs that exercise every ALU, memory, division and
//    syscall form);
//  - air_trace_edit.cpp: reading and editing a trace, and rebalance, which rebuilds everything
//    downstream of a change as a cheating prover would;
//  - air_mutations.cpp: the Mutation, the list of every mutation in one order (all_mutations),
//    how a mutated trace is judged, and the tests that run the list (each mutation rejected by
//    its ID, adequacy);
//  - air_mutations_<table>.cpp: the mutations, one function per table or group of tables;
//  - air_prove_mutations.cpp: the verifier against proofs of mutated traces;
//  - air_test.cpp: completeness, agreement with the spec, edge cases, the lint.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "reference/air/check.h"
#include "reference/air/trace.h"
#include "spec/air/spec.h"
#include "spec/isa.h"

namespace zkrv::ref::air::fixture {

inline constexpr uint64_t P = 0xFFFFFFFF00000001ull;

// The spec, parsed once from spec/tables.
const spec::air::Spec& the_spec();

// ---- base traces (air_base_traces.cpp) ----

struct Run {
  spec::ProgramImage image;
  spec::ExecResult result;
};
// The ELF executed on `input` (empty when the file does not exist) with a trace; empty when the
// ELF does not load.
std::optional<Run> run_elf(const std::filesystem::path& elf, const std::filesystem::path& input, uint64_t max_cycles);

// A program built without an ELF: `words` at 0x10000, executed as the steps say (synthetic).
struct Step {
  uint64_t pc, next_pc;
};
struct Write {
  size_t step;
  uint8_t rd;
  uint64_t value;
};
AirTrace synthetic(const std::vector<uint32_t>& words, const std::vector<Step>& steps, const std::vector<Write>& writes);
// A program of instruction words at 0x10000 (and `data` segments above it), executed on `input`.
AirTrace executed(const std::vector<uint32_t>& words, const char* name, const std::vector<spec::Segment>& data = {},
                  const std::string& input = "");

// The base traces (each built once); what each program does is written at its definition.
const AirTrace& fib();
const AirTrace& mini();
const AirTrace& jumps();
const AirTrace& indirect();
const AirTrace& op_x0_prog();
const AirTrace& alu_prog();
const AirTrace& merge_prog();
const AirTrace& div_prog();
const AirTrace& sys_prog();
const AirTrace& log_prog();
const AirTrace& big_read_prog();
const AirTrace& far_prog();
// far_prog's run with bit 32, 33 or 35 of its random number set, as a prover records it.
AirTrace far_run(int bit);
const AirTrace& exit_prog();
const AirTrace& mem_prog();

namespace w {  // instruction words of alu_prog
inline constexpr uint32_t kAdd = 0x00208233, kSub = 0x403102b3, kAddw = 0x0020833b, kSlt = 0x003124b3, kSlti = 0xfff12593,
                          kXor = 0x0020c6b3, kOr = 0x00316733, kOr2 = 0x00316bb3, kBeqTaken = 0x00318263,
                          kBneTaken = 0x00219263, kSlli = 0x00311993, kSlliw = 0x00311a9b, kMul = 0x02310a33,
                          kFence = 0xcff0000f, kSltu0 = 0x00013c33, kSltu0b = 0x00013cb3, kBne8 = 0x00219463,
                          kLui = 0x800000b7, kXori = 0x05514813, kSubX0 = 0x40310033, kAddiNeg = 0xff810d13,
                          kMulh = 0x02111db3, kMulhsu = 0x02112e33, kMulhu = 0x0220beb3, kMulw = 0x02208f3b,
                          kMulhNeg = 0x02209fb3, kBge = 0x0021d263, kSll = 0x00309db3, kSrl = 0x0030de33,
                          kSra = 0x4030deb3, kSrai0 = 0x4000df13, kSrlw = 0x0030dfbb, kSraw = 0x4030ddbb,
                          kSrliw0 = 0x0000de1b, kSllw = 0x00311ebb, kSlli0 = 0x00009d13, kDiv = 0x02314c33,
                          kSltBig = 0x003c2cb3;
}  // namespace w

// ---- reading and editing traces (air_trace_edit.cpp) ----

// Switches for mutations that keep a claim rebalance would otherwise recompute; per thread, since
// the adequacy run applies two mutations at a time.
extern thread_local bool g_keep_mo, g_keep_store_bytes, g_keep_load_bytes;
struct Keep {  // sets a switch for one scope
  bool& flag;
  explicit Keep(bool& f) : flag(f) { flag = true; }
  ~Keep() { flag = false; }
};

uint64_t& at(AirTrace& t, const char* table, size_t row, const char* col);
uint64_t get(const AirTrace& t, const char* table, size_t row, const char* col);
uint64_t& cell(AirTrace& t, const char* table, size_t row, const std::string& col);
size_t real_rows(const AirTrace& t);

// The cpu table's class flags (f_fence aside), their opcodes, and whether the class steps to pc + 4.
inline constexpr const char* kFlags[] = {"f_lui", "f_auipc", "f_jal", "f_jalr", "f_branch", "f_load",
                                         "f_store", "f_opimm", "f_op", "f_opimm32", "f_op32", "f_system"};
inline constexpr uint64_t kCodes[] = {0x37, 0x17, 0x6f, 0x67, 0x63, 0x03, 0x23, 0x13, 0x33, 0x1b, 0x3b, 0x73};
inline constexpr bool kSequential[] = {true, true, false, false, false, true, true, true, true, true, true, false};
int flag_of(const AirTrace& t, size_t r);  // the class flag set on cpu row r, -1 if none
std::string bit(int k);                      // the column of instruction bit k

void set_fields_from_bits(AirTrace& t, size_t r);
void set_insn(AirTrace& t, size_t r, uint32_t insn);
uint64_t limbs_value(const AirTrace& t, size_t r, const std::string& prefix);
void set_limbs(AirTrace& t, size_t r, const std::string& prefix, uint64_t v);

// Everything downstream of a change on the cpu table rebuilt (registers replayed, the syscall,
// io, output and alu tables, every multiplicity); see the definition for what each switch keeps.
void rebalance(AirTrace& t, bool keep_claimed = false, bool recompute_adders = true, bool recompute_res = true,
               bool derive_ops = true);
void recount_range16(AirTrace& t);
void rebuild_io(AirTrace& t);
void rebuild_output(AirTrace& t);

std::vector<uint64_t> other_addresses(const AirTrace& t, uint64_t word, uint64_t pc);
void pad_from(AirTrace& t, size_t from);
size_t first_padding(AirTrace& t);
std::vector<size_t> free_rows_first(const AirTrace& t, int bit = 0);
uint64_t reg_before(const AirTrace& t, size_t r, uint64_t g);

size_t row_with_insn(const AirTrace& t, uint32_t insn);
size_t received_row(const AirTrace& t, const char* table, size_t r);
uint64_t cpu_result(const AirTrace& t, size_t r);
void forge_result(AirTrace& t, size_t r, uint64_t value, bool derive_ops = true);

void set_rom_word(AirTrace& t, size_t r, uint32_t word);
void rewrite_rom(AirTrace& t, size_t r, uint32_t word);
void indirect_x5(AirTrace& t, uint64_t v);

// ---- mutations (air_mutations.cpp, air_mutations_<table>.cpp) ----

struct Mutation {
  std::string expect;  // the constraint or bus ID that must reject it
  std::string what;
  std::function<bool(AirTrace&)> apply;  // false: not applicable to this base trace (a test bug)
  enum class Base { kFib, kMini, kJumps, kIndirect, kAlu, kExit, kMem, kDiv, kSys, kMerge, kLog, kBigRead, kFar, kOpX0 } base = Base::kFib;
  AirTrace start() const;  // a copy of the base trace
};

// Fault class "<what> output changed" on `table`'s result limbs (alu_prog's instruction `word`).
void flip_result_limbs(std::vector<Mutation>& m, const std::string& table, uint32_t word, const std::string& what,
                       Mutation::Base base = Mutation::Base::kAlu);

// The mutations, by file; all_mutations lists them in this order.
void cpu_mutations(std::vector<Mutation>& m);  // byte, cpu, program, range16, regs
void alu_mutations(std::vector<Mutation>& m);
void exit_mutations(std::vector<Mutation>& m);  // cpu's exit, in air_mutations_cpu.cpp
void mem_mutations(std::vector<Mutation>& m);   // mem, io, image, segments and cpu's loads and stores
void mul_mutations(std::vector<Mutation>& m);
void div_mutations(std::vector<Mutation>& m);
void sys_mutations(std::vector<Mutation>& m);  // syscall, io, output
void shift_mutations(std::vector<Mutation>& m);  // shift, pow2
void padding_mutations(std::vector<Mutation>& m);
void changed_row_mutations(std::vector<Mutation>& m);

std::vector<Mutation> all_mutations();
// all_mutations, or only those whose ID starts with ZKRV_AIR_MUTATIONS where it is set.
std::vector<Mutation> mutations();

// The one mutation of `id` whose description starts with `what`, checked as a forgery that only
// the constraints `only` catch.
std::optional<AirTrace> forgery_only_caught_by(const std::string& id, const std::string& what,
                                               const std::set<std::string>& only);

}  // namespace zkrv::ref::air::fixture
