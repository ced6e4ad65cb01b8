#include "reference/air/interpret.h"

#include <map>
#include <unordered_map>
#include <stdexcept>

namespace zkrv::ref::air {

void interpret(const spec::air::Spec& spec, const AirTrace& trace, Sink& sink) {
  using spec::air::Rows;
  for (const auto& st : spec.tables) {
    const TraceTable& t = trace.table(st.name);
    std::unordered_map<std::string, size_t> index;  // spec column name -> trace column
    for (const auto& c : st.columns) index[c.name] = t.col(c.name);
    const size_t h = t.height();
    for (size_t r = 0; r < h; ++r) {
      auto lookup = [&](const std::string& name, bool next) -> uint64_t {
        const auto it = index.find(name);
        if (it == index.end()) return trace.publics.at(name);
        return t.rows[next ? r + 1 : r][it->second];
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

// Per ID, one value per row (kAbsent where the ID does not cover the row); a bus row's value is
// a hash of its bus, direction, tuple and multiplicity.
constexpr uint64_t kAbsent = ~uint64_t{0};
class RecordingSink final : public Sink {
 public:
  explicit RecordingSink(const AirTrace& t) : trace_(t) {}
  void constraint(std::string_view table, std::string_view id, size_t row, uint64_t value) override {
    slot(table, id)[row] = value;
  }
  void bus(std::string_view table, std::string_view id, std::string_view bus, bool send, size_t row,
           const std::vector<uint64_t>& tuple, uint64_t mult) override {
    uint64_t h = std::hash<std::string_view>{}(bus) ^ (send ? 0x9e3779b97f4a7c15ull : 0);
    for (uint64_t v : tuple) h = (h ^ v) * 0x100000001b3ull + 0x7f4a7c15;
    h = (h ^ mult) * 0x100000001b3ull;
    slot(table, id)[row] = h == kAbsent ? 0 : h;
  }
  std::map<std::string, std::vector<uint64_t>, std::less<>> values;

 private:
  std::vector<uint64_t>& slot(std::string_view table, std::string_view id) {
    if (id == last_id_ && last_) return *last_;
    auto it = values.find(id);
    if (it == values.end())
      it = values.emplace(std::string(id), std::vector<uint64_t>(trace_.table(std::string(table)).height(), kAbsent)).first;
    last_id_ = it->first;
    last_ = &it->second;
    return it->second;
  }
  std::string_view last_id_;
  std::vector<uint64_t>* last_ = nullptr;
  const AirTrace& trace_;
};

}  // namespace

std::optional<std::string> spec_disagreement(const spec::air::Spec& spec, const AirTrace& trace) {
  RecordingSink ref(trace), interp(trace);
  evaluate(trace, ref, spec.mode);
  interpret(spec, trace, interp);
  for (const auto& [id, v] : ref.values) {
    const auto it = interp.values.find(id);
    if (it == interp.values.end()) return id + ": evaluated by the reference, not in the spec";
    for (size_t row = 0; row < v.size(); ++row)
      if (it->second[row] != v[row]) {
        if (v[row] == kAbsent || it->second[row] == kAbsent)
          return id + " row " + std::to_string(row) + ": the reference and the spec cover different rows";
        return id + " row " + std::to_string(row) + ": the reference and the spec interpreter give different values";
      }
  }
  for (const auto& [id, v] : interp.values)
    if (!ref.values.count(id)) return id + ": in the spec, not evaluated by the reference";
  return std::nullopt;
}

}  // namespace zkrv::ref::air
