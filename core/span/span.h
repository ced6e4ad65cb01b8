#pragma once
// Prover span tracing: named spans (stage, step, kernel) recorded with negligible overhead when
// off (one relaxed atomic load), written as a Chrome/Perfetto trace (JSON trace-event format,
// "X" complete events) and as a summary: per label the call count, inclusive and self time;
// the root's wall time; the fraction of root time that no stage covers ("dark time"); peak RSS.
//
//   zkrv::core::span::set_enabled(true);
//   { zkrv::core::span::Span root("prove", zkrv::core::span::Level::kStage); ... }
//   write chrome_trace_json() and summary_json().

#include <cstdint>
#include <string>
#include <vector>

namespace zkrv::core::span {

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

// Records a span that has already finished (begin and end from now_ns()), nested in the spans
// open on this thread: for stages known only at their end (a stage clock's laps).
void complete(const std::string& label, Level level, uint64_t begin_ns, uint64_t end_ns);
uint64_t now_ns();

// Counter tracks (Perfetto "C" events): a sample of one or more named values at now_ns(). A
// track with several values shows stacked (the bytes each live buffer holds, and the rest).
struct CounterSample {
  std::string track;
  uint64_t ts_ns;
  std::vector<std::pair<std::string, double>> values;
};
void counter(const std::string& track, std::vector<std::pair<std::string, double>> values);
std::vector<CounterSample> counters();
// The process's resident set size now, from /proc/self/statm (0 where it cannot be read).
uint64_t rss_bytes();
// A series of (time, value) samples in bounded memory that keeps every peak's height: once it
// holds `capacity` samples it merges each adjacent pair into the larger of the two (the earlier
// on a tie) and from then on merges every `stride()` incoming samples into their largest. Each
// kept sample is thus the largest of a run of `stride()` consecutive samples (the last one of
// fewer), and the series' largest value is never lost, however long it runs.
class PeakSeries {
 public:
  explicit PeakSeries(size_t capacity);  // at least 2; rounded down to an even number
  void add(uint64_t ts_ns, double value);
  // the kept samples in time order, the incomplete last run included
  std::vector<std::pair<uint64_t, double>> samples() const;
  uint64_t stride() const { return stride_; }

 private:
  size_t capacity_;
  uint64_t stride_ = 1, pending_count_ = 0;
  std::pair<uint64_t, double> pending_{0, 0};
  std::vector<std::pair<uint64_t, double>> kept_;
};

// While alive (and spans are enabled), samples the RSS every interval_ms into a PeakSeries of
// at most max_samples (at least 3), given to the track "rss" when it ends: memory bounded
// however long the run (a 2^25-cycle proof took 287,000 samples, about 1 MB per segment of 2^20
// cycles when each was kept). A kept sample keeps its own time, so a stage's peak in the summary
// is exact while the run has fewer samples than that (5.5 minutes at 10 ms and the default);
// beyond, a peak within one run of samples of a stage's end can go to the stage beside it when
// that one's is higher there. The process's own peak (ru_maxrss) is exact whatever the length.
class RssSampler {
 public:
  explicit RssSampler(unsigned interval_ms = 10, size_t max_samples = size_t{1} << 15);
  ~RssSampler();
  RssSampler(const RssSampler&) = delete;
  RssSampler& operator=(const RssSampler&) = delete;

 private:
  struct State;
  State* state_;
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
  // thread 0's depth-1 stage spans in time order, with the highest "rss" sample inside each
  // (0 when none was taken)
  struct Stage {
    std::string label;
    uint64_t ns = 0, peak_rss_bytes = 0;
  };
  std::vector<Stage> stages;
};
Summary summarize();

std::string chrome_trace_json();
std::string summary_json();

}  // namespace zkrv::core::span
