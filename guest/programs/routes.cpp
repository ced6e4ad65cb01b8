// Shortest road routes (C++20 with the standard library): reads a road map and route queries,
// answers each query with Dijkstra's algorithm, and prints a report.
//
// Input (text, one command per line; '#' starts a comment):
//   road A B KM     a two-way road of KM kilometres between towns A and B
//   route A B       the shortest route from A to B
// Output: per query "A -> B: KM km, N road(s): A, X, ..., B" (or "A -> B: no route", or
// "A -> B: unknown town T"), then the busiest towns (most roads, then name), the number of towns
// per road count, and the total length of the routes found. A line that is no command is
// counted and reported.
//
// Uses std::vector, std::string, std::string_view, std::map, std::unordered_map,
// std::priority_queue, std::sort, std::optional, std::variant, std::span, std::unique_ptr and
// std::ostringstream with <iomanip> formatting. The same source builds natively (host stubs).
#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iomanip>
#include <map>
#include <memory>
#include <optional>
#include <queue>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "zkvm_io.h"

namespace {

struct Road {
  std::string a, b;
  uint64_t km;
};
struct Query {
  std::string from, to;
};
struct Junk {
  size_t line;
};
using Command = std::variant<Road, Query, Junk>;

std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    const size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

std::optional<uint64_t> number(std::string_view s) {
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// Every command of the input; empty and comment lines are skipped.
std::vector<Command> parse(std::string_view text) {
  std::vector<Command> commands;
  size_t line_no = 0;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    ++line_no;
    if (const size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    const auto w = words(line);
    if (w.empty()) continue;
    if (w[0] == "road" && w.size() == 4) {
      if (const auto km = number(w[3])) {
        commands.emplace_back(Road{std::string(w[1]), std::string(w[2]), *km});
        continue;
      }
    } else if (w[0] == "route" && w.size() == 3) {
      commands.emplace_back(Query{std::string(w[1]), std::string(w[2])});
      continue;
    }
    commands.emplace_back(Junk{line_no});
  }
  return commands;
}

struct Path {
  uint64_t km = 0;
  std::vector<size_t> towns;  // from first to last
};

class RoadMap {
 public:
  void add(const Road& r) {
    const size_t a = town(r.a), b = town(r.b);
    edges_[a].push_back({b, r.km});
    edges_[b].push_back({a, r.km});
  }
  std::optional<size_t> find(const std::string& name) const {
    const auto it = index_.find(name);
    if (it == index_.end()) return std::nullopt;
    return it->second;
  }
  const std::string& name(size_t t) const { return names_[t]; }
  size_t towns() const { return names_.size(); }
  size_t roads(size_t t) const { return edges_[t].size(); }

  // Dijkstra from `from`; nullopt when `to` cannot be reached.
  std::optional<Path> shortest(size_t from, size_t to) const {
    constexpr uint64_t kFar = UINT64_MAX;
    std::vector<uint64_t> dist(towns(), kFar);
    std::vector<size_t> prev(towns(), SIZE_MAX);
    using Item = std::pair<uint64_t, size_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
    dist[from] = 0;
    queue.push({0, from});
    while (!queue.empty()) {
      const auto [d, t] = queue.top();
      queue.pop();
      if (d != dist[t]) continue;
      if (t == to) break;
      for (const Edge& e : edges_[t])
        if (d + e.km < dist[e.to]) {
          dist[e.to] = d + e.km;
          prev[e.to] = t;
          queue.push({dist[e.to], e.to});
        }
    }
    if (dist[to] == kFar) return std::nullopt;
    Path p{dist[to], {}};
    for (size_t t = to; t != SIZE_MAX; t = prev[t]) p.towns.push_back(t);
    std::reverse(p.towns.begin(), p.towns.end());
    return p;
  }

 private:
  struct Edge {
    size_t to;
    uint64_t km;
  };
  size_t town(const std::string& name) {
    const auto [it, added] = index_.try_emplace(name, names_.size());
    if (added) {
      names_.push_back(name);
      edges_.emplace_back();
    }
    return it->second;
  }
  std::unordered_map<std::string, size_t> index_;
  std::vector<std::string> names_;
  std::vector<std::vector<Edge>> edges_;
};

uint64_t total(std::span<const uint64_t> lengths) {
  uint64_t sum = 0;
  for (uint64_t l : lengths) sum += l;
  return sum;
}

// Overloaded lambdas for std::visit.
template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

}  // namespace

int main() {
  const uint8_t* buf = nullptr;
  size_t size = 0;
  read_input(&buf, &size);
  const std::vector<Command> commands = parse({reinterpret_cast<const char*>(buf), size});

  auto map = std::make_unique<RoadMap>();
  std::vector<const Query*> queries;
  size_t junk = 0;
  for (const Command& c : commands)
    std::visit(Overloaded{[&](const Road& r) { map->add(r); }, [&](const Query& q) { queries.push_back(&q); },
                          [&](const Junk&) { ++junk; }},
               c);

  std::ostringstream out;
  std::vector<uint64_t> found;
  for (const Query* q : queries) {
    out << q->from << " -> " << q->to << ": ";
    const auto from = map->find(q->from), to = map->find(q->to);
    if (!from || !to) {
      out << "unknown town " << (from ? q->to : q->from) << '\n';
      continue;
    }
    const std::optional<Path> p = map->shortest(*from, *to);
    if (!p) {
      out << "no route\n";
      continue;
    }
    const size_t roads = p->towns.size() - 1;
    out << p->km << " km, " << roads << (roads == 1 ? " road:" : " roads:");
    for (size_t i = 0; i < p->towns.size(); ++i) out << (i ? ", " : " ") << map->name(p->towns[i]);
    out << '\n';
    found.push_back(p->km);
  }

  std::vector<size_t> order(map->towns());
  for (size_t t = 0; t < order.size(); ++t) order[t] = t;
  std::sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    if (map->roads(x) != map->roads(y)) return map->roads(x) > map->roads(y);
    return map->name(x) < map->name(y);
  });
  out << "busiest towns:\n";
  for (size_t i = 0; i < std::min<size_t>(5, order.size()); ++i)
    out << "  " << std::left << std::setw(12) << map->name(order[i]) << std::right << std::setw(3) << map->roads(order[i])
        << " roads\n";
  std::map<size_t, size_t> by_roads;
  for (size_t t = 0; t < map->towns(); ++t) ++by_roads[map->roads(t)];
  out << "towns by road count:";
  for (const auto& [roads, n] : by_roads) out << ' ' << roads << 'x' << n;
  out << '\n';
  const uint64_t sum = total(found);
  out << found.size() << " routes, " << sum << " km in all, " << std::fixed << std::setprecision(1)
      << (found.empty() ? 0.0 : static_cast<double>(sum) / static_cast<double>(found.size())) << " km on average\n";
  if (junk) out << junk << " lines ignored\n";

  const std::string text = out.str();
  write_output(reinterpret_cast<const uint8_t*>(text.data()), text.size());
  return 0;
}
