#include "reference/air/interpret.h"

#include <map>
#include <stdexcept>

namespace zkrv::ref::air {

void interpret(const spec::air::Spec& spec, const AirTrace& trace, Sink& sink) {
  using spec::air::Rows;
  for (const auto& st : spec.tables) {
    const TraceTable& t = trace.table(st.name);
    std::vector<size_t> index(st.columns.size());
    for (size_t c = 0; c < st.columns.size(); ++c) index[c] = t.col(st.columns[c].name);
    const size_t h = t.height();
    for (size_t r = 0; r < h; ++r) {
      auto lookup = [&](const std::string& name, bool next) -> uint64_t {
        const int c = st.column_index(name);
        if (c < 0) return trace.publics.at(name);
        return t.rows[next ? r + 1 : r][index[static_cast<size_t>(c)]];
      };
      for (const auto& c : st.constraints) {
        const bool covers = c.rows == Rows::kEvery || (c.rows == Rows::kFirst && r == 0) ||
                            (c.rows == Rows::kLast && r + 1 == h) || (c.rows == Rows::kTransition && r + 1 < h);
        if (covers) sink.constraint(st.name, c.id, r, spec::air::eval(*c.expr, lookup));
      }
      for (const auto& b : st.buses) {
        std::vector<uint64_t> tuple;
        for (const auto& e : b.tuple) tuple.push_back(spec::air::eval(*e, lookup));
        sink.bus(st.name, b.id, b.bus, b.send, r, tuple, spec::air::eval(*b.mult, lookup));
      }
    }
  }
}

namespace {

class RecordingSink final : public Sink {
 public:
  void constraint(const std::string&, const std::string& id, size_t row, uint64_t value) override {
    values[{id, row}] = {value};
  }
  void bus(const std::string&, const std::string& id, const std::string& bus, bool send, size_t row,
           const std::vector<uint64_t>& tuple, uint64_t mult) override {
    std::vector<uint64_t> v = tuple;
    v.push_back(mult);
    v.push_back(send);
    v.push_back(std::hash<std::string>{}(bus));
    values[{id, row}] = v;
  }
  std::map<std::pair<std::string, size_t>, std::vector<uint64_t>> values;
};

}  // namespace

std::optional<std::string> spec_disagreement(const spec::air::Spec& spec, const AirTrace& trace) {
  RecordingSink ref, interp;
  evaluate(trace, ref);
  interpret(spec, trace, interp);
  for (const auto& [key, v] : ref.values) {
    const auto it = interp.values.find(key);
    if (it == interp.values.end())
      return key.first + " row " + std::to_string(key.second) + ": evaluated by the reference, not covered by the spec";
    if (it->second != v)
      return key.first + " row " + std::to_string(key.second) + ": the reference and the spec interpreter give different values";
  }
  for (const auto& [key, v] : interp.values)
    if (!ref.values.count(key))
      return key.first + " row " + std::to_string(key.second) + ": in the spec, not evaluated by the reference";
  return std::nullopt;
}

}  // namespace zkrv::ref::air
