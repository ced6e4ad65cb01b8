// The reference evaluator: the whole-trace driver and the table registry. The table bodies are in
// reference/air/evaluate/<table>.cpp, one per spec/tables/<table>.md, block by block in the
// document's order (lint: every ID once, in its table's file, in spec order;
// AirLint.EvaluatorMirrorsTheSpec in tests/air/air_test.cpp).
#include "reference/air/evaluate.h"

#include <stdexcept>
#include <string_view>

#include "spec/air/embedded.h"

#include "reference/air/evaluate/tables.h"

namespace zkrv::ref::air {

Names::Names(std::span<const std::string> names) : names_(names.begin(), names.end()) {
  for (size_t i = 0; i < names_.size(); ++i) index_.emplace(names_[i], i);
}
size_t Names::at(std::string_view name) const {
  const auto it = index_.find(name);
  if (it == index_.end()) throw std::out_of_range("no column or public value named " + std::string(name));
  return it->second;
}

const std::vector<std::string>& bus_names() {
  static const std::vector<std::string> names = {"byte",  "program", "range16", "reg",   "alu",
                                                       "pow2",  "and8",    "mem",     "segment", "image", "sys",   "iogroup", "output", "gmem"};
  return names;
}

namespace {

using spec::air::Rows;

// The Sink's view: a table's rows one after another, each constraint on the rows it covers.
class RowValues final : public Values<Fp> {
 public:
  RowValues(const TraceTable& t, Sink& sink) : t_(t), sink_(sink) {}
  size_t row = 0;
  void constraint(std::string_view id, Rows rows, const Fp& value) override {
    const size_t h = t_.height();
    const bool covered = rows == Rows::kEvery || (rows == Rows::kFirst && row == 0) ||
                         (rows == Rows::kLast && row + 1 == h) || (rows == Rows::kTransition && row + 1 < h);
    if (covered) sink_.constraint(t_.name, id, row, value.value());
  }
  void bus(std::string_view id, std::string_view bus, bool send, std::span<const Fp> tuple, const Fp& mult) override {
    std::vector<uint64_t> raw;
    for (const Fp& v : tuple) raw.push_back(v.value());
    sink_.bus(t_.name, id, bus, send, row, raw, mult.value());
  }

 private:
  const TraceTable& t_;
  Sink& sink_;
};

}  // namespace

template <class V>
TableEvaluator<V> table_evaluator(std::string_view table) {
  static const std::pair<std::string_view, TableEvaluator<V>> kTables[] = {
      {"alu", eval::eval_alu<V>},         {"and8", eval::eval_and8<V>},         {"byte", eval::eval_byte<V>},
      {"cpu", eval::eval_cpu<V>},         {"div", eval::eval_div<V>},           {"image", eval::eval_image<V>},
      {"io", eval::eval_io<V>},           {"mem", eval::eval_mem<V>},           {"memb", eval::eval_memb<V>},
      {"mul", eval::eval_mul<V>},
      {"output", eval::eval_output<V>},   {"pow2", eval::eval_pow2<V>},         {"program", eval::eval_program<V>},
      {"range16", eval::eval_range16<V>}, {"regs", eval::eval_regs<V>},         {"segments", eval::eval_segments<V>},
      {"shift", eval::eval_shift<V>},     {"syscall", eval::eval_syscall<V>}};
  for (const auto& [name, fn] : kTables)
    if (name == table) return fn;
  return nullptr;
}
template TableEvaluator<Fp> table_evaluator<Fp>(std::string_view);
template TableEvaluator<Fp3> table_evaluator<Fp3>(std::string_view);

void evaluate(const AirTrace& trace, Sink& sink, spec::air::Mode mode) {
  std::vector<std::string> public_names;
  std::vector<Fp> publics;
  for (const auto& [name, value] : trace.publics) public_names.push_back(name), publics.push_back(Fp::from_u64(value));
  const Names pub(public_names);
  for (const spec::air::Table& table : spec::air::embedded_spec(mode).tables) {
    const std::string& name = table.name;
    const TraceTable& t = trace.table(name);
    const TableEvaluator<Fp> body = table_evaluator<Fp>(name);
    const Names columns(t.columns);
    const size_t h = t.height(), w = t.columns.size();
    std::vector<Fp> row(w), next(w);
    RowValues out(t, sink);
    for (size_t r = 0; r < h; ++r) {
      for (size_t c = 0; c < w; ++c) row[c] = Fp::from_u64(t.rows[r][c]), next[c] = Fp::from_u64(t.rows[(r + 1) % h][c]);
      out.row = r;
      body(Point<Fp>{columns, row.data(), next.data(), pub, publics.data(), mode}, out);
    }
  }
}

}  // namespace zkrv::ref::air
