#pragma once
// parallel_for: body(begin, end) over [0, n) in contiguous chunks, one per thread. Each index is
// handled by exactly one thread, so results never depend on the thread count.

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace zkrv::opt {

inline unsigned resolve_threads(unsigned threads) {
  return threads ? threads : std::max(1u, std::thread::hardware_concurrency());
}

template <typename F>
void parallel_for(size_t n, unsigned threads, F&& body, size_t min_chunk = 64) {
  threads = resolve_threads(threads);
  if (threads <= 1 || n < 2 * min_chunk) {
    body(size_t{0}, n);
    return;
  }
  const size_t chunk = (n + threads - 1) / threads;
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) {
    const size_t b = t * chunk, e = std::min(n, b + chunk);
    if (b < e) pool.emplace_back([&body, b, e] { body(b, e); });
  }
  body(size_t{0}, std::min(n, chunk));
  for (auto& th : pool) th.join();
}

}  // namespace zkrv::opt
