#pragma once
// run_on_threads: work(t) for t in [0, count), t = 0 on the calling thread and each other t on a
// thread of its own. It returns only after every thread has been joined. An exception thrown by any
// work(t) (std::bad_alloc under a memory limit, say) is carried back and rethrown on the calling
// thread, the lowest t's first, instead of ending the process through std::terminate. A thread that
// cannot be started (std::system_error once the address space is full) has its work(t) run on the
// calling thread instead: every t runs exactly once, so results never depend on how many threads
// started. The work items must not wait for one another.
//
// parallel_for: body(begin, end) over [0, n) in contiguous chunks, one per thread. Each index is
// handled by exactly one chunk, so results never depend on the thread count.

#include <algorithm>
#include <cstddef>
#include <exception>
#include <memory>
#include <thread>
#include <vector>

namespace zkrv::opt {

inline unsigned resolve_threads(unsigned threads) {
  return threads ? threads : std::max(1u, std::thread::hardware_concurrency());
}

template <typename F>
void run_on_threads(unsigned count, F&& work) {
  if (count <= 1) {
    if (count == 1) work(0u);
    return;
  }
  // Everything the error path needs is allocated before the first thread starts.
  const auto errors = std::make_unique<std::exception_ptr[]>(count);
  const auto started = std::make_unique<bool[]>(count);
  std::vector<std::thread> pool;
  pool.reserve(count - 1);
  auto guarded = [&work, &errors](unsigned t) noexcept {
    try {
      work(t);
    } catch (...) {
      errors[t] = std::current_exception();
    }
  };
  for (unsigned t = 1; t < count; ++t) {
    try {
      pool.emplace_back(guarded, t);
      started[t] = true;
    } catch (...) {
      started[t] = false;  // run below, on this thread
    }
  }
  guarded(0);
  for (unsigned t = 1; t < count; ++t)
    if (!started[t]) guarded(t);
  for (auto& th : pool) th.join();
  for (unsigned t = 0; t < count; ++t)
    if (errors[t]) std::rethrow_exception(errors[t]);
}

template <typename F>
void parallel_for(size_t n, unsigned threads, F&& body, size_t min_chunk = 64) {
  threads = resolve_threads(threads);
  if (threads <= 1 || n < 2 * min_chunk) {
    body(size_t{0}, n);
    return;
  }
  const size_t chunk = (n + threads - 1) / threads;
  const unsigned chunks = static_cast<unsigned>((n + chunk - 1) / chunk);
  run_on_threads(chunks, [&body, chunk, n](unsigned t) {
    const size_t b = t * chunk;
    body(b, std::min(n, b + chunk));
  });
}

}  // namespace zkrv::opt
