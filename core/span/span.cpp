#include "core/span/span.h"

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <condition_variable>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>
#include <unistd.h>

namespace zkrv::core::span {
namespace {

std::atomic<bool> g_enabled{false};
std::atomic<uint64_t (*)()> g_clock{nullptr};
std::mutex g_mutex;
std::vector<Event> g_events;
std::vector<CounterSample> g_counters;
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
  g_counters.clear();
}

uint64_t now_ns() { return now(); }

void complete(const std::string& label, Level level, uint64_t begin_ns, uint64_t end_ns) {
  if (!enabled()) return;
  const uint32_t depth = static_cast<uint32_t>(t_state.stack.size());
  Event e{label, level, begin_ns, end_ns, depth, t_state.id};
  std::lock_guard<std::mutex> lock(g_mutex);
  // the spans this thread finished inside it were recorded as its siblings: they are its children
  for (Event& o : g_events)
    if (o.thread == e.thread && o.depth >= depth && o.begin_ns >= begin_ns && o.end_ns <= end_ns) ++o.depth;
  g_events.push_back(std::move(e));
}

void counter(const std::string& track, std::vector<std::pair<std::string, double>> values) {
  if (!enabled()) return;
  CounterSample c{track, now(), std::move(values)};
  std::lock_guard<std::mutex> lock(g_mutex);
  g_counters.push_back(std::move(c));
}

std::vector<CounterSample> counters() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_counters;
}

uint64_t rss_bytes() {
  std::ifstream f("/proc/self/statm");
  uint64_t size = 0, resident = 0;
  if (!(f >> size >> resident)) return 0;
  return resident * static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
}

PeakSeries::PeakSeries(size_t capacity) : capacity_(std::max<size_t>(2, capacity & ~size_t{1})) {
  kept_.reserve(capacity_);
}

void PeakSeries::add(uint64_t ts_ns, double value) {
  if (pending_count_ == 0 || value > pending_.second) pending_ = {ts_ns, value};
  if (++pending_count_ < stride_) return;
  if (kept_.size() == capacity_) {  // halve: the larger of each pair, then runs twice as long
    for (size_t i = 0; i < capacity_ / 2; ++i)
      kept_[i] = kept_[2 * i + 1].second > kept_[2 * i].second ? kept_[2 * i + 1] : kept_[2 * i];
    kept_.resize(capacity_ / 2);
    stride_ *= 2;
    if (pending_count_ < stride_) return;  // this run goes on
  }
  kept_.push_back(pending_);
  pending_count_ = 0;
}

std::vector<std::pair<uint64_t, double>> PeakSeries::samples() const {
  auto out = kept_;
  if (pending_count_ > 0) out.push_back(pending_);
  return out;
}

struct RssSampler::State {
  std::mutex m;
  std::condition_variable cv;
  bool stop = false;
  std::thread th;
  PeakSeries series;
  explicit State(size_t max_samples) : series(max_samples) {}
};
RssSampler::RssSampler(unsigned interval_ms, size_t max_samples)
    : state_(new State(std::max<size_t>(4, max_samples) - 1)) {  // one left for an incomplete last run
  if (!enabled()) return;
  // Out of memory (no thread, or a sample that cannot be stored), the run goes on without the rest
  // of its RSS series: nothing here may end the process.
  try {
    state_->th = std::thread([this, interval_ms] {
      try {
        std::unique_lock<std::mutex> lock(state_->m);
        do state_->series.add(now(), static_cast<double>(rss_bytes()));
        while (!state_->cv.wait_for(lock, std::chrono::milliseconds(interval_ms), [this] { return state_->stop; }));
        state_->series.add(now(), static_cast<double>(rss_bytes()));
      } catch (...) {
      }
    });
  } catch (...) {
  }
}
RssSampler::~RssSampler() {
  {
    std::lock_guard<std::mutex> lock(state_->m);
    state_->stop = true;
  }
  state_->cv.notify_all();
  if (state_->th.joinable()) {
    state_->th.join();
    std::lock_guard<std::mutex> lock(g_mutex);
    try {  // a destructor, maybe unwinding from std::bad_alloc: the samples are dropped if they cannot be kept
      for (const auto& [ts, bytes] : state_->series.samples()) g_counters.push_back({"rss", ts, {{"bytes", bytes}}});
      std::stable_sort(g_counters.begin(), g_counters.end(),
                       [](const CounterSample& a, const CounterSample& b) { return a.ts_ns < b.ts_ns; });
    } catch (...) {
    }
  }
  delete state_;
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
  try {  // a destructor, maybe unwinding from std::bad_alloc: the event is dropped if it cannot be kept
    g_events.push_back(std::move(e));
  } catch (...) {
  }
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
  const auto cs = counters();
  for (const Event& e : ev) {
    if (e.thread != 0 || e.depth != 1 || e.level != Level::kStage) continue;
    Summary::Stage st{e.label, e.end_ns - e.begin_ns, 0};
    for (const auto& c : cs)
      if (c.track == "rss" && c.ts_ns >= e.begin_ns && c.ts_ns <= e.end_ns && !c.values.empty())
        st.peak_rss_bytes = std::max(st.peak_rss_bytes, static_cast<uint64_t>(c.values[0].second));
    s.stages.push_back(std::move(st));
  }
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
  for (const auto& c : counters()) {
    char ts[48];
    std::snprintf(ts, sizeof ts, "%.3f", static_cast<double>(c.ts_ns) / 1000.0);
    o += (first ? "" : ",") + std::string("{\"name\":\"") + escape(c.track) + "\",\"ph\":\"C\",\"ts\":" + ts +
         ",\"pid\":1,\"tid\":0,\"args\":{";
    for (size_t k = 0; k < c.values.size(); ++k) {
      char v[48];
      std::snprintf(v, sizeof v, "%.0f", c.values[k].second);
      o += (k ? ",\"" : "\"") + escape(c.values[k].first) + "\":" + v;
    }
    o += "}}";
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
  o += "],\"stages\":[";
  for (size_t i = 0; i < s.stages.size(); ++i)
    o += (i ? "," : "") + std::string("{\"label\":\"") + escape(s.stages[i].label) + "\",\"ns\":" +
         std::to_string(s.stages[i].ns) + ",\"peak_rss_bytes\":" + std::to_string(s.stages[i].peak_rss_bytes) + "}";
  o += "]}\n";
  return o;
}

}  // namespace zkrv::core::span
