#include "tools/span/span.h"

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>

namespace zkrv::span {
namespace {

std::atomic<bool> g_enabled{false};
std::atomic<uint64_t (*)()> g_clock{nullptr};
std::mutex g_mutex;
std::vector<Event> g_events;
std::atomic<uint32_t> g_next_thread{0};

struct Open {
  const char* label;
  Level level;
  uint64_t begin;
};
struct ThreadState {
  uint32_t id = g_next_thread.fetch_add(1);
  std::vector<Open> stack;
};
thread_local ThreadState t_state;

uint64_t now() {
  if (auto f = g_clock.load(std::memory_order_relaxed)) return f();
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
}

std::string escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') { o += '\\'; o += c; }
    else if (static_cast<unsigned char>(c) < 0x20) { char b[8]; std::snprintf(b, sizeof b, "\\u%04x", c); o += b; }
    else o += c;
  }
  return o;
}

}  // namespace

const char* level_name(Level level) {
  switch (level) {
    case Level::kStage: return "stage";
    case Level::kStep: return "step";
    default: return "kernel";
  }
}

void set_enabled(bool on) { g_enabled.store(on, std::memory_order_relaxed); }
bool enabled() { return g_enabled.load(std::memory_order_relaxed); }
void set_clock(uint64_t (*now_ns)()) { g_clock.store(now_ns); }

void reset() {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_events.clear();
}

Span::Span(const char* label, Level level) : active_(g_enabled.load(std::memory_order_relaxed)) {
  if (active_) t_state.stack.push_back({label, level, now()});
}

Span::~Span() {
  if (!active_ || t_state.stack.empty()) return;
  const uint64_t end = now();
  const Open o = t_state.stack.back();
  t_state.stack.pop_back();
  Event e{o.label, o.level, o.begin, end, static_cast<uint32_t>(t_state.stack.size()), t_state.id};
  std::lock_guard<std::mutex> lock(g_mutex);
  g_events.push_back(std::move(e));
}

std::vector<Event> events() {
  std::vector<Event> out;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    out = g_events;
  }
  std::sort(out.begin(), out.end(), [](const Event& a, const Event& b) {
    return a.thread != b.thread ? a.thread < b.thread : a.begin_ns != b.begin_ns ? a.begin_ns < b.begin_ns : a.depth < b.depth;
  });
  return out;
}

Summary summarize() {
  const auto ev = events();
  Summary s;
  std::map<std::string, LabelSummary> by_label;
  // Self time = duration minus the durations of direct children (same thread, depth + 1,
  // inside the interval). Events are sorted by (thread, begin), so children follow parents.
  for (size_t i = 0; i < ev.size(); ++i) {
    const Event& e = ev[i];
    uint64_t children = 0;
    for (size_t j = i + 1; j < ev.size() && ev[j].thread == e.thread && ev[j].begin_ns < e.end_ns; ++j)
      if (ev[j].depth == e.depth + 1 && ev[j].end_ns <= e.end_ns) children += ev[j].end_ns - ev[j].begin_ns;
    auto& l = by_label[e.label];
    l.label = e.label;
    l.level = e.level;
    ++l.count;
    l.inclusive_ns += e.end_ns - e.begin_ns;
    l.self_ns += (e.end_ns - e.begin_ns) - children;
  }
  for (auto& [k, v] : by_label) s.labels.push_back(v);
  std::sort(s.labels.begin(), s.labels.end(), [](const LabelSummary& a, const LabelSummary& b) {
    return a.inclusive_ns != b.inclusive_ns ? a.inclusive_ns > b.inclusive_ns : a.label < b.label;
  });
  // Root wall time and dark time: thread 0's roots, and the union of their depth-1 stages.
  uint64_t covered = 0;
  for (size_t i = 0; i < ev.size(); ++i) {
    if (ev[i].thread != 0 || ev[i].depth != 0) continue;
    s.root_wall_ns += ev[i].end_ns - ev[i].begin_ns;
    uint64_t reach = ev[i].begin_ns;  // stages at depth 1 are disjoint on one thread; guard anyway
    for (size_t j = i + 1; j < ev.size() && ev[j].thread == 0 && ev[j].begin_ns < ev[i].end_ns; ++j) {
      if (ev[j].depth != 1 || ev[j].level != Level::kStage) continue;
      const uint64_t b = std::max(ev[j].begin_ns, reach), e = std::min(ev[j].end_ns, ev[i].end_ns);
      if (e > b) { covered += e - b; reach = e; }
    }
  }
  s.dark_fraction = s.root_wall_ns ? 1.0 - static_cast<double>(covered) / static_cast<double>(s.root_wall_ns) : 0.0;
  rusage ru{};
  if (getrusage(RUSAGE_SELF, &ru) == 0) s.peak_rss_bytes = static_cast<uint64_t>(ru.ru_maxrss) * 1024;
  return s;
}

std::string chrome_trace_json() {
  const auto ev = events();
  std::string o = "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[";
  bool first = true;
  for (const auto& e : ev) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "\",\"cat\":\"%s\",\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f,\"pid\":1,\"tid\":%u}",
                  level_name(e.level), static_cast<double>(e.begin_ns) / 1000.0,
                  static_cast<double>(e.end_ns - e.begin_ns) / 1000.0, e.thread);
    o += (first ? "" : ",") + std::string("{\"name\":\"") + escape(e.label) + buf;
    first = false;
  }
  o += "]}\n";
  return o;
}

std::string summary_json() {
  const Summary s = summarize();
  std::string o = "{\"root_wall_ns\":" + std::to_string(s.root_wall_ns);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6f", s.dark_fraction);
  o += ",\"dark_fraction\":" + std::string(buf) + ",\"peak_rss_bytes\":" + std::to_string(s.peak_rss_bytes) + ",\"spans\":[";
  for (size_t i = 0; i < s.labels.size(); ++i) {
    const auto& l = s.labels[i];
    o += (i ? "," : "") + std::string("{\"label\":\"") + escape(l.label) + "\",\"level\":\"" + level_name(l.level) +
         "\",\"count\":" + std::to_string(l.count) + ",\"inclusive_ns\":" + std::to_string(l.inclusive_ns) +
         ",\"self_ns\":" + std::to_string(l.self_ns) + "}";
  }
  o += "]}\n";
  return o;
}

}  // namespace zkrv::span
