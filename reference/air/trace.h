#pragma once
// The AIR trace: one matrix of canonical field values per table of spec/tables, columns named
// and ordered as the spec declares them, plus the public values. build_trace turns an executed
// run (ExecResult with its StepRecords) into it, padding rules included.

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/air/witness.h"
#include "spec/isa.h"

namespace zkrv::ref::air {

// What both trace builders compute alike (core/air/witness).
using core::alu_ops;
using core::alu_result;
using core::AluOp;
using core::div_core;
using core::DivCore;
using core::find_op;
using core::push_syscall_row;
using core::syscall_table_shape;
using core::TraceTable;

struct AirTrace {
  // in spec order: alu, and8, byte, cpu, div, image, io, mem, mul, pow2, program, range16, regs,
  // segments, shift, syscall
  std::vector<TraceTable> tables;
  std::map<std::string, uint64_t> publics;
  TraceTable& table(const std::string& name);
  const TraceTable& table(const std::string& name) const;
};

// Throws std::invalid_argument unless the run exited (faulted runs are not proven) and carries
// its trace (ExecOptions::trace).
AirTrace build_trace(const spec::ProgramImage& image, const spec::ExecResult& run);

// The steps of build_trace that derive columns from others; tests that tamper with a trace call
// them to rebuild everything downstream of their change, as a cheating prover would.
//
// The cpu row's sh, sr, alt, aop and opb0..3, from its bits, flags and b_v* by the spec's
// defining formulas (field arithmetic, so non-bit values propagate as the constraints see them).
void derive_alu_operands(TraceTable& cpu, size_t row);
// Rebuilds the alu, div, mul and shift tables from the cpu rows' alu sends (and the mul rows
// the shift and div rows ask for) (aop, a_v*, opb*, res*):
// one row per send, routed by code (a code neither table receives lands in alu with no selector),
// witnesses computed from the operands and the claimed result; padded to a power of two.
void fill_alu_tables(AirTrace& trace);
// A row of the mul table (its columns as `mul` has them) proving operation `code` (32..35, 48) on
// a and b with the true result.
std::vector<uint64_t> make_mul_row(const TraceTable& mul, uint64_t code, uint64_t a, uint64_t b);
// A div row's witnesses from a core, which may be forged (its op, a*, b*, r* and selector are
// already set): everything else follows from the core as the spec defines it. The products q y
// are asked of `ask(code, q, y)`, which returns their results (the trace builder adds mul rows).
void fill_div_witness(const TraceTable& div, std::vector<uint64_t>& row, uint64_t code, const DivCore& core,
                      const std::function<uint64_t(uint64_t, uint64_t, uint64_t)>& ask);
// A div row's bound witnesses (t*, e*) from its |m| and |y| columns: |m| + t + 1 = |y| mod 2^64.
void fill_div_bound(const TraceTable& div, std::vector<uint64_t>& row);
// The syscall table's witnesses (core::fill_syscall_witness over ref::Fp).
void fill_syscall_witness(TraceTable& syscall, bool keep_kinds = false);
// The memory argument replayed from the accesses the trace claims: the cpu rows' active bytes
// (mo*, the address s0 + 65536 s1, a store's new bytes mn*) and the io rows (ts, addr, new), in
// timestamp order, starting from the image and segments tables. Fills each access's previous
// token (mt*, mv*, mw*, gaps; io: prev_ts, old, w, gaps), a load's new bytes (= old) and value
// columns (mtop, msgn, mh, mext, lv*), and rebuilds the mem table.
// keep_load_bytes: a load's new bytes stay as the trace has them (tests: a load that writes).
void replay_memory(AirTrace& trace, bool keep_load_bytes = false);
// Sets the multiplicity column of every lookup table (byte, range16, and8, program) to the
// number of times each of its rows' tuples is sent anywhere in the trace (mod p); also segments
// and image.
void count_lookups(AirTrace& trace);

}  // namespace zkrv::ref::air
