// Span tracing on a synthetic workload with a fake clock, so that nesting, self time and dark
// time can be checked exactly; the two JSON outputs are parsed and their schemas checked.
#include "core/span/span.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <thread>
#include <vector>

namespace zkrv::core::span {
namespace {

uint64_t g_time = 0;
uint64_t fake_now() { return g_time; }

class SpanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    reset();
    set_clock(&fake_now);
    set_enabled(true);
    g_time = 0;
  }
  void TearDown() override {
    set_enabled(false);
    set_clock(nullptr);
    reset();
  }
};

// prove [0,100]: commit [10,40] { ntt [12,20], ntt [22,30], hash [30,38] }, fri [50,90] { fold [55,65] }
void workload() {
  g_time = 0;
  Span prove("prove", Level::kStage);
  g_time = 10;
  {
    Span commit("commit", Level::kStage);
    g_time = 12;
    { Span ntt("ntt", Level::kKernel); g_time = 20; }
    g_time = 22;
    { Span ntt("ntt", Level::kKernel); g_time = 30; }
    { Span hash("hash", Level::kStep); g_time = 38; }
    g_time = 40;
  }
  g_time = 50;
  {
    Span fri("fri", Level::kStage);
    g_time = 55;
    { Span fold("fold", Level::kKernel); g_time = 65; }
    g_time = 90;
  }
  g_time = 100;
}

const LabelSummary& find(const Summary& s, const std::string& label) {
  for (const auto& l : s.labels)
    if (l.label == label) return l;
  throw std::runtime_error("no label " + label);
}

TEST_F(SpanTest, NestingSelfTimeAndDarkTimeAreExact) {
  workload();
  const Summary s = summarize();
  EXPECT_EQ(s.root_wall_ns, 100u);
  EXPECT_DOUBLE_EQ(s.dark_fraction, 0.30);  // 100 - (30 + 40) not under a stage
  EXPECT_EQ(find(s, "prove").self_ns, 30u);
  EXPECT_EQ(find(s, "commit").inclusive_ns, 30u);
  EXPECT_EQ(find(s, "commit").self_ns, 30u - 8 - 8 - 8);
  EXPECT_EQ(find(s, "ntt").count, 2u);
  EXPECT_EQ(find(s, "ntt").inclusive_ns, 16u);
  EXPECT_EQ(find(s, "ntt").self_ns, 16u);
  EXPECT_EQ(find(s, "fri").self_ns, 30u);
  EXPECT_EQ(find(s, "fold").level, Level::kKernel);
  uint64_t self_total = 0;
  for (const auto& l : s.labels) self_total += l.self_ns;
  EXPECT_EQ(self_total, s.root_wall_ns);  // self times partition the root
  EXPECT_EQ(s.labels.front().label, "prove");  // sorted by inclusive time
  EXPECT_GT(s.peak_rss_bytes, 0u);
}

// Stages known only at their end (a stage clock's laps): complete() records them, and the spans
// that finished inside them become their children. Counters go to the trace as "C" events, and
// each stage's peak is the highest "rss" sample inside it.
TEST_F(SpanTest, CompletedStagesAdoptTheirChildrenAndCountersGiveStagePeaks) {
  g_time = 0;
  {
    Span root("prove", Level::kStage);
    g_time = 10;
    counter("rss", {{"bytes", 100}});
    { Span t("commit cpu"); g_time = 30; }
    counter("rss", {{"bytes", 300}});
    g_time = 40;
    complete("commit", Level::kStage, 5, 40);
    counter("rss", {{"bytes", 200}});
    g_time = 60;
    counter("live buffers (bytes)", {{"main LDE", 64}, {"unattributed", 8}});
    complete("fri", Level::kStage, 40, 60);
    g_time = 70;
  }
  const Summary s = summarize();
  EXPECT_EQ(find(s, "commit").self_ns, 35u - 20u);  // its child "commit cpu" [10, 30]
  EXPECT_EQ(find(s, "commit cpu").self_ns, 20u);
  EXPECT_EQ(find(s, "prove").self_ns, 70u - 35u - 20u);
  EXPECT_NEAR(s.dark_fraction, 15.0 / 70.0, 1e-12);  // [0, 5] and [60, 70]
  ASSERT_EQ(s.stages.size(), 2u);
  EXPECT_EQ(s.stages[0].label, "commit");
  EXPECT_EQ(s.stages[0].peak_rss_bytes, 300u);
  EXPECT_EQ(s.stages[1].label, "fri");
  EXPECT_EQ(s.stages[1].peak_rss_bytes, 200u);  // the sample at 40 is inside both
  const auto trace = nlohmann::json::parse(chrome_trace_json());
  size_t c = 0;
  for (const auto& e : trace["traceEvents"])
    if (e["ph"] == "C") {
      ++c;
      if (e["name"] == "live buffers (bytes)") {
        EXPECT_EQ(e["args"]["main LDE"], 64);
        EXPECT_EQ(e["args"]["unattributed"], 8);
        EXPECT_DOUBLE_EQ(e["ts"].get<double>(), 0.060);  // microseconds
      }
    }
  EXPECT_EQ(c, 4u);
  const auto sum = nlohmann::json::parse(summary_json());
  ASSERT_EQ(sum["stages"].size(), 2u);
  EXPECT_EQ(sum["stages"][0]["peak_rss_bytes"], 300);
}

TEST_F(SpanTest, TheRssSamplerSamplesWhileAlive) {
  set_clock(nullptr);
  { const RssSampler r(1); std::this_thread::sleep_for(std::chrono::milliseconds(30)); }
  const auto cs = counters();
  ASSERT_GE(cs.size(), 3u);
  for (const auto& c : cs) {
    EXPECT_EQ(c.track, "rss");
    EXPECT_GT(c.values.at(0).second, 1e5);  // a process holds more than 100 kB
  }
  EXPECT_GT(rss_bytes(), 0u);
}

// About 80 readings into at most 8 samples: a 64 MB buffer touched for 20 ms in the middle must
// still show in the samples kept.
TEST_F(SpanTest, TheRssSamplerKeepsAtMostItsSamplesAndTheirPeak) {
  set_clock(nullptr);
  const uint64_t begin = now_ns(), before = rss_bytes();
  {
    const RssSampler r(1, 8);
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    {
      std::vector<char> big(64u << 20);
      for (size_t i = 0; i < big.size(); i += 4096) big[i] = 1;  // resident
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      ASSERT_EQ(big[4096], 1);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
  }
  const auto cs = counters();
  ASSERT_GE(cs.size(), 2u);
  EXPECT_LE(cs.size(), 8u);
  double peak = 0;
  for (const auto& c : cs) peak = std::max(peak, c.values.at(0).second);
  EXPECT_GE(peak, static_cast<double>(before) + 48.0 * 1048576.0);
  for (size_t i = 0; i < cs.size(); ++i) {
    EXPECT_EQ(cs[i].track, "rss");
    EXPECT_GE(cs[i].ts_ns, begin);
    if (i) {
      EXPECT_GT(cs[i].ts_ns, cs[i - 1].ts_ns);  // in time order
    }
  }
}

// Each kept sample is the largest of its run of stride() samples, the series' peak is kept with
// its time, and the series never holds more than its capacity (random series, checked against
// the runs' maxima computed directly).
TEST(PeakSeries, KeepsTheLargestOfEachRunInBoundedMemory) {
  uint64_t state = 0x9e3779b97f4a7c15ull;
  const auto next = [&] { return state = state * 6364136223846793005ull + 1442695040888963407ull, state >> 33; };
  for (const size_t capacity : {2u, 6u, 16u, 64u}) {
    for (const size_t n : {1u, 5u, 64u, 1000u, 4097u}) {
      PeakSeries ps(capacity);
      std::vector<double> v(n);
      for (size_t i = 0; i < n; ++i) {
        v[i] = static_cast<double>(next() % 1000);
        ps.add(1000 + i, v[i]);
        ASSERT_LE(ps.samples().size(), capacity + 1);  // the kept ones and one incomplete run
      }
      const auto kept = ps.samples();
      const size_t stride = ps.stride();
      ASSERT_EQ(kept.size(), (n + stride - 1) / stride) << capacity << " " << n;
      ASSERT_LE(kept.size(), capacity + 1);
      for (size_t k = 0; k < kept.size(); ++k) {
        const size_t lo = k * stride, hi = std::min(n, lo + stride);
        const size_t at = static_cast<size_t>(std::max_element(v.begin() + lo, v.begin() + hi) - v.begin());  // the first largest
        EXPECT_EQ(kept[k].second, v[at]) << capacity << " " << n << " " << k;
        EXPECT_EQ(kept[k].first, 1000 + at);
      }
      EXPECT_EQ(std::max_element(kept.begin(), kept.end(), [](auto& a, auto& b) { return a.second < b.second; })->second,
                *std::max_element(v.begin(), v.end()));
    }
  }
}

TEST_F(SpanTest, ChromeTraceSchema) {
  workload();
  const auto j = nlohmann::json::parse(chrome_trace_json());
  ASSERT_TRUE(j.contains("traceEvents"));
  ASSERT_EQ(j["traceEvents"].size(), 7u);
  for (const auto& e : j["traceEvents"]) {
    EXPECT_TRUE(e["name"].is_string());
    EXPECT_TRUE(e["cat"].is_string());
    EXPECT_EQ(e["ph"], "X");
    EXPECT_TRUE(e["ts"].is_number());
    EXPECT_TRUE(e["dur"].is_number());
    EXPECT_TRUE(e["pid"].is_number_integer());
    EXPECT_TRUE(e["tid"].is_number_integer());
  }
  EXPECT_EQ(j["traceEvents"][0]["name"], "prove");
  EXPECT_DOUBLE_EQ(j["traceEvents"][0]["dur"].get<double>(), 0.1);  // microseconds
}

TEST_F(SpanTest, SummarySchema) {
  workload();
  const auto j = nlohmann::json::parse(summary_json());
  EXPECT_EQ(j["root_wall_ns"], 100);
  EXPECT_DOUBLE_EQ(j["dark_fraction"].get<double>(), 0.3);
  EXPECT_TRUE(j["peak_rss_bytes"].is_number_integer());
  ASSERT_EQ(j["spans"].size(), 6u);
  for (const auto& s : j["spans"]) {
    for (const char* k : {"label", "level"}) EXPECT_TRUE(s[k].is_string()) << k;
    for (const char* k : {"count", "inclusive_ns", "self_ns"}) EXPECT_TRUE(s[k].is_number_integer()) << k;
    EXPECT_LE(s["self_ns"].get<uint64_t>(), s["inclusive_ns"].get<uint64_t>());
  }
}

TEST_F(SpanTest, DisabledRecordsNothing) {
  set_enabled(false);
  workload();
  EXPECT_TRUE(events().empty());
  EXPECT_EQ(summarize().root_wall_ns, 0u);
}

TEST_F(SpanTest, OtherThreadsGetTheirOwnTrack) {
  g_time = 0;
  {
    Span root("prove", Level::kStage);
    std::thread worker([] { Span w("worker", Level::kKernel); });
    worker.join();
    g_time = 10;
  }
  const auto ev = events();
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_NE(ev[0].thread, ev[1].thread);
  EXPECT_EQ(ev[1].depth, 0u);  // a root on its own thread
}

}  // namespace
}  // namespace zkrv::core::span
