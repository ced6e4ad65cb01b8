// run_on_threads and parallel_for: every item runs exactly once, and an item that throws (the
// std::bad_alloc a memory limit gives) reaches the caller as an exception once every thread is
// joined, never std::terminate. A thread that cannot start has its item run on the caller.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "optimized/common/parallel.h"

namespace zkrv::opt {
namespace {

TEST(Parallel, ParallelForVisitsEveryIndexOnce) {
  for (size_t n : {0u, 1u, 127u, 128u, 1000u, 4099u})
    for (unsigned threads : {1u, 2u, 3u, 7u, 64u}) {
      std::vector<std::atomic<int>> seen(n);
      parallel_for(n, threads, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) seen[i].fetch_add(1);
      });
      for (size_t i = 0; i < n; ++i) ASSERT_EQ(seen[i].load(), 1) << "n " << n << " threads " << threads << " index " << i;
    }
}

TEST(Parallel, AWorkerThatThrowsReachesTheCallerAfterEveryItemRan) {
  std::atomic<int> done{0};
  auto work = [&](unsigned t) {
    if (t == 2) throw std::bad_alloc();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // still running when t = 2 throws
    done.fetch_add(1);
  };
  EXPECT_THROW(run_on_threads(4, work), std::bad_alloc);
  EXPECT_EQ(done.load(), 3);  // joined before the rethrow
}

TEST(Parallel, TheCallersOwnItemThrowingStillJoinsTheOthers) {
  std::atomic<int> done{0};
  auto work = [&](unsigned t) {
    if (t == 0) throw std::runtime_error("item 0");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    done.fetch_add(1);
  };
  EXPECT_THROW(run_on_threads(3, work), std::runtime_error);
  EXPECT_EQ(done.load(), 2);
}

TEST(Parallel, TheLowestItemsExceptionIsTheOneRethrown) {
  auto work = [](unsigned t) {
    if (t == 1 || t == 3) {
      if (t == 1) std::this_thread::sleep_for(std::chrono::milliseconds(5));  // item 3 throws first
      throw std::runtime_error("item " + std::to_string(t));
    }
  };
  for (int round = 0; round < 20; ++round) {
    try {
      run_on_threads(5, work);
      FAIL() << "no exception";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "item 1");
    }
  }
}

TEST(Parallel, ParallelForRethrowsABodysException) {
  EXPECT_THROW(parallel_for(
                   1 << 12, 4,
                   [](size_t b, size_t) {
                     if (b != 0) throw std::bad_alloc();
                   }),
               std::bad_alloc);
}

// With the address space capped just above what is mapped now, no thread stack (8 MB) can be
// mapped: std::thread throws, and every item still runs, on the caller. In a child process.
TEST(Parallel, ThreadsThatCannotStartRunTheirItemsOnTheCaller) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  auto child = [] {
    long pages = 0;
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
      if (std::fscanf(f, "%ld", &pages) != 1) pages = 0;
      std::fclose(f);
    }
    if (pages == 0) std::exit(2);
    const rlim_t cap = static_cast<rlim_t>(pages) * 4096 + (2u << 20);
    const rlimit lim{cap, cap};
    if (setrlimit(RLIMIT_AS, &lim) != 0) std::exit(3);
    bool refused = false;
    try {
      std::thread([] {}).join();
    } catch (const std::system_error&) {
      refused = true;
    }
    if (!refused) std::exit(4);  // the cap did not stop a thread: the case is not exercised
    std::atomic<int> ran[6] = {};
    run_on_threads(6, [&](unsigned t) { ran[t].fetch_add(1); });
    for (auto& r : ran)
      if (r.load() != 1) std::exit(5);
    std::exit(0);
  };
  EXPECT_EXIT(child(), testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace zkrv::opt
