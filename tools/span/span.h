#pragma once
// Prover span tracing: named spans (stage, step, kernel) recorded with negligible overhead when
// off (one relaxed atomic load), written as a Chrome/Perfetto trace (JSON trace-event format,
// "X" complete events) and as a summary: per label the call count, inclusive and self time;
// the root's wall time; the fraction of root time that no stage covers ("dark time"); peak RSS.
//
//   zkrv::span::set_enabled(true);
//   { zkrv::span::Span root("prove", zkrv::span::Level::kStage); ... }
//   write chrome_trace_json() and summary_json().

#include <cstdint>
#include <string>
#include <vector>

namespace zkrv::span {

enum class Level : uint8_t { kStage, kStep, kKernel };
const char* level_name(Level level);

struct Event {
  std::string label;
  Level level;
  uint64_t begin_ns, end_ns;
  uint32_t depth;   // nesting depth on its thread (0 = a root)
  uint32_t thread;  // small thread number, in order of first use
};

void set_enabled(bool on);
bool enabled();
// Replaces the clock (nanoseconds, monotonic); nullptr restores steady_clock. For tests.
void set_clock(uint64_t (*now_ns)());
// Forgets every recorded event.
void reset();

class Span {
 public:
  explicit Span(const char* label, Level level = Level::kStep);
  ~Span();
  Span(const Span&) = delete;
  Span& operator=(const Span&) = delete;

 private:
  bool active_;
};

// Finished spans, ordered by (thread, begin).
std::vector<Event> events();

struct LabelSummary {
  std::string label;
  Level level;
  uint64_t count = 0, inclusive_ns = 0, self_ns = 0;
};
struct Summary {
  std::vector<LabelSummary> labels;  // sorted by inclusive time, descending
  uint64_t root_wall_ns = 0;         // the depth-0 spans of thread 0, added up
  double dark_fraction = 0;          // share of root time outside every depth-1 stage span
  uint64_t peak_rss_bytes = 0;
};
Summary summarize();

std::string chrome_trace_json();
std::string summary_json();

}  // namespace zkrv::span
