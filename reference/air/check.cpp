#include "reference/air/check.h"

#include <map>
#include <sstream>

#include "reference/field/goldilocks.h"

#include "reference/air/evaluate.h"

namespace zkrv::ref::air {
namespace {

std::string row_values(const TraceTable& t, size_t r) {
  std::ostringstream os;
  for (size_t c = 0; c < t.columns.size(); ++c) os << (c ? " " : "") << t.columns[c] << "=" << t.rows[r][c];
  return os.str();
}

class CheckSink final : public Sink {
 public:
  CheckSink(const AirTrace& t, const std::set<std::string>& disabled, CheckReport& r)
      : trace_(t), disabled_(disabled.begin(), disabled.end()), rep_(r) {}
  void constraint(std::string_view table, std::string_view id, size_t row, uint64_t value) override {
    if (!disabled_.empty() && disabled_.count(id)) return;
    if (id != last_id_) {  // consecutive evaluations of one ID need no set lookup
      if (ids_.find(id) == ids_.end()) ids_.emplace(id);
      last_id_.assign(id);
    }
    ++rep_.evaluations;
    if (value == 0) return;
    ++rep_.failure_count;
    rep_.failing_ids.emplace(id);
    if (rep_.failures.size() >= 100) return;
    const TraceTable& t = trace_.table(std::string(table));
    std::string v = "value " + std::to_string(value) + "; row " + std::to_string(row) + ": " + row_values(t, row);
    if (row + 1 < t.height()) v += "; next: " + row_values(t, row + 1);
    rep_.failures.push_back({std::string(id), std::string(table), row, v});
  }
  void bus(std::string_view, std::string_view id, std::string_view bus, bool send, size_t row,
           const std::vector<uint64_t>& tuple, uint64_t mult) override {
    if (mult == 0 || (!disabled_.empty() && disabled_.count(id))) return;  // a zero multiplicity adds nothing
    events.push_back({std::string(id), std::string(bus), send, row, tuple, mult});
  }
  std::vector<BusEvent> events;
  std::set<std::string, std::less<>> ids_;

 private:
  const AirTrace& trace_;
  const std::set<std::string, std::less<>> disabled_;
  std::string last_id_;
  CheckReport& rep_;
};

}  // namespace

bool CheckReport::ok() const {
  if (failure_count) return false;
  for (const auto& b : buses)
    if (!b.balanced) return false;
  return true;
}

std::string CheckReport::summary() const {
  std::ostringstream os;
  if (!failures.empty()) {
    const Failure& f = failures.front();
    os << "constraint " << f.id << " fails in table " << f.table << " at row " << f.row << " (" << failure_count
       << " failing evaluations in all): " << f.values;
    return os.str();
  }
  for (const auto& b : buses)
    if (!b.balanced) {
      os << "bus " << b.bus << " does not balance";
      if (!b.unmatched.empty()) os << "; unmatched: " << b.unmatched.front();
      for (size_t i = 1; i < b.unmatched.size() && i < 4; ++i) os << "; " << b.unmatched[i];
      return os.str();
    }
  os << constraints << " constraints on " << rows << " rows in " << tables << " tables hold; " << buses.size()
     << " buses balance";
  return os.str();
}

namespace {
// Counts every send on the lookup buses, per tuple, mod p.
class LookupCounter final : public Sink {
 public:
  void constraint(std::string_view, std::string_view, size_t, uint64_t) override {}
  void bus(std::string_view, std::string_view, std::string_view bus, bool send, size_t, const std::vector<uint64_t>& tuple,
           uint64_t mult) override {
    if (!send || mult == 0) return;
    if (bus == "byte" || bus == "range16" || bus == "and8" || bus == "program" || bus == "segment" || bus == "image" || bus == "pow2") {
      auto& c = counts[std::string(bus)][tuple];
      c = (Fp::from_u64(c) + Fp::from_u64(mult)).value();
    }
  }
  std::map<std::string, std::map<std::vector<uint64_t>, uint64_t>> counts;
};
}  // namespace

void count_lookups(AirTrace& trace) {
  LookupCounter counter;
  evaluate(trace, counter);
  // the receiving table of each lookup bus and the columns that form its tuple
  const std::vector<std::pair<std::string, std::vector<std::string>>> tables = {
      {"byte", {"value"}},           {"range16", {"value"}},
      {"and8", {"x", "y", "z"}},     {"program", {"pc", "insn"}},
      {"segment", {"start", "file_end", "end", "w"}}, {"image", {"addr", "value"}},
      {"pow2", {"k", "q0", "q1", "q2", "q3"}}};
  for (const auto& [name, cols] : tables) {
    TraceTable& t = trace.table(name == "segment" ? "segments" : name);
    auto c = counter.counts[name];  // a copy: each count goes to the first row with its tuple
    std::vector<size_t> idx;
    for (const auto& col : cols) idx.push_back(t.col(col));
    const size_t m = t.col("mult");
    for (auto& row : t.rows) {
      std::vector<uint64_t> tuple;
      for (size_t i : idx) tuple.push_back(row[i]);
      const auto it = c.find(tuple);
      row[m] = it == c.end() ? 0 : it->second;
      if (it != c.end()) c.erase(it);
    }
  }
}

CheckReport check_trace(const AirTrace& trace, const std::set<std::string>& disabled) {
  CheckReport rep;
  CheckSink sink(trace, disabled, rep);
  evaluate(trace, sink);
  rep.constraints = sink.ids_.size();
  rep.tables = trace.tables.size();
  for (const auto& t : trace.tables) rep.rows += t.height();
  rep.buses = check_buses(sink.events);
  return rep;
}

}  // namespace zkrv::ref::air
