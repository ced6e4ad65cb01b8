#pragma once
// The machine-readable part of the constraint spec (spec/tables/*.md, format in spec/README.md):
// tables with their columns, constraints, bus interactions and assumptions; bus declarations,
// public values and the degree bound. load_spec parses the Markdown, then checks it: unknown
// names, next-row references outside transition constraints, the degree bound, bus arity and
// element ranges against the declarations, senders without receivers, duplicate IDs. Every
// error names file:line.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "spec/air/expr.h"
#include "spec/stark.h"

namespace zkrv::spec::air {

struct Location {
  std::string file;
  size_t line = 0;
};
// A table's padded height: the least power of two that is at least `rows`, `min_rows` (a power of
// two itself, as every table document pads) and the protocol's least height
// (protocol:stark:heights, 2^kMinLogHeight).
inline size_t padded_height(size_t rows, size_t min_rows) {
  size_t h = std::max(min_rows, size_t{1} << kMinLogHeight);
  while (h < rows) h *= 2;
  return h;
}

// Which AIR the documents describe (spec/README.md, "Constraint spec format"): a whole run's
// (protocol:stark:*, every statement but those marked `segmented`) or one segment's of a bundle
// (protocol:segments:*, every statement but those marked `whole`).
enum class Mode { kWhole, kSegmented };
const char* mode_name(Mode m);

struct SpecError {
  Location at;
  std::string what;
  std::string str() const { return at.file + ":" + std::to_string(at.line) + ": " + what; }
};

enum class ColumnKind { kMain, kPreprocessed, kAuxiliary };
enum class ColumnType { kBit, kByte, kU16, kU32, kField };  // ordered by range
const char* type_name(ColumnType t);
uint64_t type_bound(ColumnType t);  // values are < bound (kField: p)

struct Column {
  std::string name;
  ColumnKind kind = ColumnKind::kMain;
  ColumnType type = ColumnType::kField;
  std::string doc;
  Location at;
};
enum class Rows { kFirst, kLast, kTransition, kEvery };
const char* rows_name(Rows r);
struct Constraint {
  std::string id;
  Rows rows = Rows::kEvery;
  std::unique_ptr<Expr> expr;
  Location at;
};
struct BusInteraction {
  std::string id;
  bool send = true;  // senders add mult / (alpha - h(tuple)), receivers subtract it
  std::string bus;
  std::vector<std::unique_ptr<Expr>> tuple;
  std::unique_ptr<Expr> mult;
  Location at;
};
struct Assumption {
  std::string id;
  std::string text;
  Location at;
};
// `padding [<column>=<value>|<column>=row ...]`: the table is padded to its height with copies
// of one row, 0 in every column except those named (a constant, or `row`: the row's index).
struct Padding {
  std::vector<std::pair<std::string, uint64_t>> fixed;
  std::vector<std::string> counting;  // = row
  Location at;
};
// `adequacy <constraint ID> implied [using <ID> ...]|open "<text>"`: no negative test violates
// this constraint alone. implied: zkrv-air-solve proves that the rest of its table implies it
// (the text says why it stays; the test suite re-asks the solver), with `using`, from those
// constraints of the table alone (a certificate the solver checks in seconds where the whole
// table is beyond it); open: neither an attack nor a proof is known (the text says what was
// tried, with the solver's time bound).
// `implied descent <receive ID> <field> <L> [using ...]`: proved by a descent through the receive's bus
// (tools/air_solve/solve.h, descent_implied), with `using` IDs from any table.
struct Descent {
  std::string receive;  // a receive interaction of the constraint's table
  size_t field = 0;     // which field of its tuple
  uint64_t from = 0;    // L: a row that breaks the constraint receives at least this
};
// `implied once <receive ID> order <table> <guard> <key> ... [using ...]`: proved by counting
// the receive's tuples (tools/air_solve/solve.h, once_implied): each is sent at most once and
// received by at most one row, so the receive's multiplicity is a bit. Each `order` names a
// table whose rows with `guard` = 1 form a prefix along which column `key` strictly increases.
struct Order {
  std::string table, guard, key;
};
struct Once {
  std::string receive;        // a receive interaction of the constraint's table
  std::vector<Order> orders;  // the orders that the argument's sending tables need
};
struct AdequacyMark {
  enum class Kind { kImplied, kOpen };
  std::string id;
  Kind kind = Kind::kOpen;
  std::vector<std::string> using_ids;  // implied: the certificate's constraints (empty: the whole table)
  std::optional<Descent> descent;      // implied: by a descent (then `using` may name other tables' IDs)
  std::optional<Once> once;            // implied: by counting a receive's tuples (the same)
  std::string text;
  Location at;
};
// `free <column> unless <expression>`: the table's rows are determined by their interactions but
// for this column where the expression (of the row, or of the next row) is 0, where nothing reads
// it (an inverse witness where it is not used, say). zkrv-air-solve's uniqueness question asks
// the column only where the expression is not 0, and every other column without it.
struct FreeMark {
  std::string column;
  std::unique_ptr<Expr> unless;
  Location at;
};
struct Table {
  std::string name;
  std::string file;
  std::vector<Column> columns;
  std::vector<Constraint> constraints;
  std::vector<BusInteraction> buses;
  std::vector<Assumption> assumptions;
  std::vector<std::string> ids;  // every ID in document order
  std::optional<Padding> padding;
  std::vector<AdequacyMark> adequacy;
  std::vector<FreeMark> free;
  int column_index(const std::string& name) const;
};
struct BusField {
  std::string name;
  ColumnType type;
};
struct BusDecl {
  std::string name;
  std::vector<BusField> fields;
  Location at;
};
struct PublicDecl {
  std::string name;
  std::string doc;
  Location at;
};
struct Spec {
  Mode mode = Mode::kWhole;
  unsigned max_degree = 0;
  std::vector<BusDecl> buses;
  std::vector<PublicDecl> publics;
  std::vector<Table> tables;
  const Table* table(const std::string& name) const;
  const BusDecl* bus(const std::string& name) const;
  size_t bus_index(const std::string& name) const;  // its tag in the LogUp fingerprint
  std::vector<std::string> ids() const;             // all IDs, tables in file order
};

struct SourceFile {
  std::string name;  // for messages
  std::string text;
};
struct LoadResult {
  std::optional<Spec> spec;
  std::vector<SpecError> errors;
};
// Parses and checks the AIR of `mode`; spec is set only when there is no error.
LoadResult load_spec(const std::vector<SourceFile>& files, Mode mode = Mode::kWhole);
// Reads spec/tables/air.md then every other *.md in the folder, sorted by name.
LoadResult load_spec_dir(const std::string& dir, Mode mode = Mode::kWhole);

}  // namespace zkrv::spec::air
