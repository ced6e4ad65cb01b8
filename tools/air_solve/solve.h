#pragma once
// Questions about the constraint system (spec/tables), answered by Z3 (issue: every constraint
// earns its place).
//
// Implied? For a constraint C of a table: is there a row (and the next row) that satisfies every
// other constraint of the table that applies there, with every lookup on the byte and range16
// buses in range, but violates C? Unsatisfiable: C is implied by the rest, and the solver's
// answer is the proof. Satisfiable: the model is a candidate attack (values for the columns).
//
// Unique? With the rest of the trace fixed (the previous and next rows) and every multiplicity
// of the row fixed, with the tuples of its nonzero-multiplicity interactions, is every column of
// the row determined? Asked for an interior row, the first, the last and the only row.
//
// Encoding: integers. Every column value is an integer in [0, p); an expression is evaluated
// exactly over the integers (no overflow, any degree) and "holds" means e mod p = 0, which Z3
// treats as linear in e (mod by a constant). Integers rather than bit-vectors: products of three
// 64-bit values stay exact without a 192-bit multiplier circuit, and small ranges (bits, bytes)
// need no special encoding. The implied question also states field facts in forms the solver
// case-splits on (a product is 0 when a factor is; a compound factor reduced mod p; an inverse
// witness as "its factor is not 0"): README.md, "Encoding".
//
// What the questions leave out, so that an "implied" or "unique" answer is sound (it holds for
// every trace) while "attack" and "second witness" are candidates that a trace must confirm:
// rows further away, the first- and last-row constraints where the row may be interior, the
// value ranges that other tables' bus signatures imply (only the byte, range16 and and8
// lookups bound a value, and only where their multiplicity is a sum of bits that C does not
// make bits: a negative multiplicity could cancel an out-of-range send), and the and8 and pow2
// relations. "Implied" asks about the first row where C fails: C is assumed on the rows
// before it, never after.

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <optional>
#include <string>
#include <vector>

#include "spec/air/spec.h"

namespace zkrv::air_solve {

enum class Verdict { kImplied, kAttack, kUnknown };
const char* verdict_name(Verdict v);  // "implied", "attack", "unknown"

struct Assignment {
  std::string column;  // "x" for the row, "x'" for the next row, "x#2" for a second row, "$name" for a public value
  uint64_t value = 0;  // in [0, p)
  std::string shown;   // decimal; values just below p as "p-k"
};

struct Answer {
  std::string id;
  Verdict verdict = Verdict::kUnknown;
  double seconds = 0;
  std::string scenario;             // which row position the answer is about
  std::vector<Assignment> model;    // kAttack: the nonzero values of the counterexample (the rest are 0)
  bool violate_next = false;        // kAttack: the violating row is the next row r' (the last row)
  bool padding = false;             // an answer of padding_attack: kImplied there means "no such row"
};

struct Options {
  unsigned timeout_ms = 10000;  // per solver call
  // where given, one line per solver call of the implied question (which subset, what answer)
  std::function<void(const std::string&)> progress;
  // where given, the implied question asks only this subset of the table's constraints (with the
  // lookups whose columns they name): a certificate to check. Unsatisfiable: implied (a subset
  // implies what the whole table does); otherwise unknown, never an attack. Unknown IDs throw.
  std::vector<std::string> using_ids;
  // where given, the implied question is a descent through a bus instead (descent_implied).
  std::optional<spec::air::Descent> descent;
  // where given, the implied question counts a receive's tuples instead (once_implied).
  std::optional<spec::air::Once> once;
  // the uniqueness question only about rows that interact: some interaction other than a lookup
  // send (byte, range16, ...) has a nonzero multiplicity there (a row with none, such as a padding
  // row, is read by nothing, and its columns need not be determined)
  bool interacting = false;
  // the uniqueness question column by column at once (unique_columns.cpp), which it
  // otherwise asks only where the whole rows give no answer: each column from the constraints and
  // interactions that name it, given those shown equal; columns left are asked alone for a
  // second witness that differs only there
  bool by_columns = false;
  // the uniqueness question as a function: the fields named here (bus -> field names of its
  // busdef, e.g. alu -> r0..r3) are outputs, which it does not fix in the interactions of the
  // two rows (the multiplicity and the other fields it does): "unique" then says that the
  // table's outputs follow from its inputs, not only its witness from its tuples. Unknown names
  // throw std::invalid_argument.
  std::map<std::string, std::set<std::string>> outputs;
  // with the question as a function: the receives on these buses read a state (the memory, the
  // registers) keyed by the fields named (bus -> field names, e.g. mem -> addr). The key is the
  // row's own (an address it computes), so neither it nor the multiplicity is fixed; the rest of
  // the tuple follows from the key where both rows read (the state holds one value per key).
  // Without it a receive's tuple is fixed whole, and a row that reads the wrong address reads a
  // different tuple, which the question does not see. Unknown names throw std::invalid_argument.
  std::map<std::string, std::set<std::string>> reads;
};

// Is constraint `id` of `table` implied by the table's other constraints (see above)?
// Throws std::invalid_argument for an unknown table or constraint.
Answer implied(const spec::air::Spec& spec, const std::string& table, const std::string& id, const Options& options);

// A descent through a bus, for an every-row constraint C of `table` whose failure only a chain of
// rows rules out. With D = options.descent: a receive I of the table on bus B, a field f of it,
// and a threshold L. Four kinds of one-row questions, each unsatisfiable for implied:
//   Q0  every interaction on B, of every table, has a multiplicity known to be a non-negative
//       integer (a constant, a bit column, a sum of those; in this table without C);
//   Q1  a row of the table that breaks C receives I (multiplicity not 0) with field f >= L;
//   Q2  a row of the table whose send J on B is active with field f >= L breaks C and receives
//       I with a larger field f (for every send J of the table on B);
//   Q3  no row of another table sends on B (active) with field f >= L.
// Then no trace breaks C: among the rows that do, the one whose received field is the largest
// (M >= L by Q1) receives a tuple that must be sent (LogUp with non-negative multiplicities);
// not by another table (Q3: below L), and not by a row of this one (Q2: that row would receive
// more than M). The rows are asked with the constraints and interactions of options.using_ids
// that belong to each table (an ID names its table before its first ':'), or the whole table
// where none does. kImplied or kUnknown (the scenario says which question had no proof).
Answer descent_implied(const spec::air::Spec& spec, const std::string& table, const std::string& id, const Options& options);

// Counting a receive's tuples, for an every-row constraint C of `table` that holds wherever the
// multiplicity m of a receive I of the table (options.once->receive) is 0 or 1, on a bus B where
// I is the only receive. Then m is a bit where every tuple is sent at most once and received by
// at most one row, since LogUp makes a tuple's received multiplicities add up to its sends. The
// questions, each unsatisfiable for implied (one row unless said; "two rows": any two rows of the
// table, each with its every-row constraints; "a row and the next": with the transitions too):
//   Sends. B has at most one send J, of a table U with an order (guard g, key k) in
//   options.once->orders, and it is ordered (below): two active rows of J with equal tuples have
//   equal keys, so a tuple is sent at most once.
//   Receives. I's table has a token pair P (a receive and a send on a token bus M with one key,
//   field 0, and timestamps, field 1, that P orders: token_pairs) such that
//     R1  a row where m is not 0 has P's multiplicity 1;
//     R2  two rows where m is not 0 with equal tuples of I have equal keys and equal sent
//         timestamps of P;
//   and M is a chain bus: every multiplicity on it is a non-negative integer; its token pairs,
//   in all tables, number fewer than p / 2^56 per row; at most one of its sends is in no pair,
//   and that one is ordered with field 0 alone. Then the tokens of one key form one chain from
//   that send, with strictly increasing timestamps (once.cpp, before once_implied, has the
//   argument), so no two rows where m is not 0 receive one tuple.
//   F   a row where m is 0 or 1 satisfies C.
// An interaction J of table U is ordered, with equal fields F (all of J's, or field 0 alone), by
// (g, k) when: O1 J's multiplicity is 0 or 1; O2 it is 0 where g is not 1; O3 (a row and the
// next) g' != 0 only where g = g' = 1 and k' - k - 1 is below 2^32 (mod p); O4 (two rows) two
// rows where J is active with equal fields F have equal k. With at most 2^24 rows a table's g = 1
// rows are a prefix along which k increases by at most 2^56 < p, so its active rows' keys differ.
// The rows are asked with the constraints and interactions of options.using_ids of each table,
// or the whole table where none does; C is never assumed. kImplied or kUnknown (the scenario
// names the question without a proof).
Answer once_implied(const spec::air::Spec& spec, const std::string& table, const std::string& id, const Options& options);

// Padding rows interact with nothing: for each interaction of `table` with a multiplicity (a
// table with an is_real column; none otherwise), is there a row with is_real = 0 that satisfies
// the table's every-row constraints (with bits, lookups' bounds and definitions) where it is
// active? kImplied ("silent"): no such row; kAttack ("active"): the model is one (a candidate: a
// row that adds a tuple nothing real sends, as io's output byte did before out_bit was
// `out (out - is_real)`); kUnknown.
std::vector<Answer> padding_silent(const spec::air::Spec& spec, const std::string& table, const Options& options);

// A padding-row attack on constraint `id` (an every-row or transition constraint): one row r of
// small values (each an integer in [-2^20, 2^20], taken mod p) between two padding rows, with
// every interaction of r and of the row before it inactive (multiplicity 0: no bus changes),
// that satisfies every other every-row constraint and the transitions into and out of it, and
// breaks the constraint. A padding row is the table's `padding` statement (spec.h). kAttack: the
// model lists r's columns that differ from the template (a trace mutation: set them on an
// interior padding row); kImplied: no such row (not a proof that the constraint is implied:
// only that it has no attack of this shape); kUnknown: no answer in time. First the columns
// the constraint names are free, then those of the constraints that share a column with it,
// then all.
Answer padding_attack(const spec::air::Spec& spec, const std::string& table, const std::string& id,
                      const Options& options);


// The same question on a real row of a trace: the row (with the rows before and after it where
// there are such: absent, it is the first or last row, and the first- or last-row constraints
// apply) changed by small amounts so that every interaction of it and of the row before it
// stays as it was, every other constraint that applies there holds, and the constraint breaks.
// kAttack: the changed columns with their new values; kImplied ("none"): no such change of at
// most 2^20 per column. Throws std::invalid_argument for rows of the wrong width.
struct TraceRows {
  std::optional<std::vector<uint64_t>> prev, next;
  std::vector<uint64_t> row;
  std::vector<std::pair<std::string, uint64_t>> publics;
};
Answer row_attack(const spec::air::Spec& spec, const std::string& table, const std::string& id, const TraceRows& rows,
                  const Options& options);

struct Uniqueness {
  std::string table;
  Verdict verdict = Verdict::kUnknown;  // kImplied: unique; kAttack: a second witness
  double seconds = 0;
  std::string place;                      // kAttack, kUnknown: which place of a trace
  std::vector<Assignment> first, second;  // kAttack: two rows that differ
  std::string but;                        // the table's free marks ("COLUMN unless EXPR; ..."), asked only there
};
Uniqueness unique(const spec::air::Spec& spec, const std::string& table, const Options& options);

// The difference step's field elimination (unique_differences.cpp): given exact linear equations
// sum a_v d_v = 0 (mod p), each a map from a variable to its coefficient, with |d_v| < bound(v)
// (p or more: no bound), the consequences in which no unbounded variable is left, found by
// solving for each such variable in the equation that names it with the smallest coefficient
// and substituting it in the others, each scaled by the inverse of one of its coefficients so
// that sum |a_v| bound(v) is smallest. Only equations that the elimination changed are returned.
std::vector<std::map<int, uint64_t>> without_unbounded(std::vector<std::map<int, uint64_t>> equations,
                                                       const std::function<double(int)>& bound);

// One line for an answer: "ID  verdict (0.12 s)[: scenario; col=value ...]".
std::string format(const Answer& a);
std::string format(const Uniqueness& u);

}  // namespace zkrv::air_solve
