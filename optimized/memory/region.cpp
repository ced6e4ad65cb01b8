#include "optimized/memory/region.h"

#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string_view>

#include "spec/isa.h"

namespace zkrv::opt::memory {
namespace {

constexpr size_t kOpenStep = size_t{64} << 20;  // the region opens for writing 64 MiB at a time
size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

}  // namespace

Region::~Region() {
  if (uint8_t* b = base_.load()) munmap(b, size_);
}

bool Region::reserve_locked() {
  if (!tried_) {
    tried_ = true;
    if (reserve_ >= kLargeBlock) {
      void* p = mmap(nullptr, reserve_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (p != MAP_FAILED) {
        size_ = reserve_;
        free_.emplace(0, size_);
        base_.store(static_cast<uint8_t*>(p), std::memory_order_release);
      }
    }
  }
  return base() != nullptr;
}

void* Region::allocate(size_t bytes) {
  const std::lock_guard<std::mutex> lock(mu_);
  if (bytes > size_t{1} << 62 || !reserve_locked()) return ++outside_, nullptr;
  const size_t n = round_up(std::max<size_t>(bytes, 1), kPage);
  auto it = std::find_if(free_.begin(), free_.end(), [n](const auto& r) { return r.second >= n; });
  if (it == free_.end()) return ++outside_, nullptr;
  const size_t off = it->first, have = it->second, end = off + n;
  if (end > opened_) {
    const size_t to = std::min(size_, round_up(end, kOpenStep));
    if (mprotect(base() + opened_, to - opened_, PROT_READ | PROT_WRITE) != 0) return ++outside_, nullptr;
    opened_ = to;
  }
  live_.emplace(off, n);  // may throw bad_alloc: before anything else changes
  auto node = free_.extract(it);  // the rest of the range, in the same node: nothing allocated
  if (have > n) {
    node.key() = end;
    node.mapped() = have - n;
    free_.insert(std::move(node));
  }
  in_use_ += n;
  high_water_ = std::max(high_water_, end);
  return base() + off;
}

bool Region::owns(const void* p) const {
  // base_ is published (release) after size_ and never changes again
  const uint8_t* base = base_.load(std::memory_order_acquire);
  const auto* b = static_cast<const uint8_t*>(p);
  return base && b >= base && b < base + size_;
}

void Region::release(void* p) {
  const std::lock_guard<std::mutex> lock(mu_);
  const size_t off = static_cast<size_t>(static_cast<uint8_t*>(p) - base());
  const auto live = live_.find(off);
  if (live == live_.end()) std::abort();  // not a block of this region: the heap is corrupt
  const size_t n = live->second;
  live_.erase(live);
  in_use_ -= n;
  // Merged with its free neighbours, reusing their nodes: only a range with none allocates one.
  auto next = free_.lower_bound(off);
  const bool left = next != free_.begin() && std::prev(next)->first + std::prev(next)->second == off;
  const bool right = next != free_.end() && next->first == off + n;
  if (left) {
    auto prev = std::prev(next);
    prev->second += n + (right ? next->second : 0);
    if (right) free_.erase(next);
  } else if (right) {
    auto node = free_.extract(next);
    node.key() = off;
    node.mapped() += n;
    free_.insert(std::move(node));
  } else {
    try {
      free_.emplace(off, n);
    } catch (const std::bad_alloc&) {  // out of memory for a node: the range stays unused, nothing breaks
    }
  }
}

void Region::trim() {
  const std::lock_guard<std::mutex> lock(mu_);
  for (const auto& [off, n] : free_) {
    const size_t end = std::min(off + n, opened_);
    if (end > off) madvise(base() + off, end - off, MADV_DONTNEED);
  }
}

RegionStats Region::stats() {
  const std::lock_guard<std::mutex> lock(mu_);
  return {size_, in_use_, high_water_, live_.size(), free_.size(), outside_};
}

size_t Region::restart_high_water() {
  const std::lock_guard<std::mutex> lock(mu_);
  const size_t was = high_water_;
  high_water_ = 0;
  for (const auto& [off, n] : live_) high_water_ = std::max(high_water_, off + n);
  return was;
}

bool Region::enabled() {
  const std::lock_guard<std::mutex> lock(mu_);
  return reserve_locked();
}

namespace {

// The bytes of a "Name:   N kB" line of /proc/self/status; 0 when absent.
double status_bytes(const char* name) {
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (!f) return 0;
  char line[256];
  double v = 0;
  const size_t len = std::strlen(name);
  while (std::fgets(line, sizeof line, f))
    if (std::strncmp(line, name, len) == 0 && line[len] == ':') v = std::strtod(line + len + 1, nullptr) * 1024;
  std::fclose(f);
  return v;
}

}  // namespace

Region& region() {
  // Never destroyed: blocks may be freed by other objects' destructors at exit.
  static Region* const r = [] {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    double bytes = pages > 0 && page > 0 ? 2.0 * static_cast<double>(pages) * static_cast<double>(page) : 0x1p36;
    // Under ulimit -v the reservation counts: half of what the limit leaves past what is mapped now
    // and the executor's guest map (spec::kAddressLimit), so that glibc keeps the other half.
    if (rlimit as{}; getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY)
      bytes = std::min(bytes, (static_cast<double>(as.rlim_cur) - status_bytes("VmSize") -
                               static_cast<double>(spec::kAddressLimit)) / 2);
    if (const char* e = std::getenv("ZKRV_REGION"); e && std::string_view(e) == "off") bytes = 0;
#if defined(__SANITIZE_ADDRESS__)
    bytes = 0;  // AddressSanitizer sees each block only when the system allocator makes it
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    bytes = 0;
#endif
#endif
    return new Region(bytes > 0 ? static_cast<size_t>(bytes) : 0);
  }();
  return *r;
}

void* allocate(size_t bytes) {
  if (bytes > SIZE_MAX / 2) throw std::bad_alloc();
  if (bytes >= kLargeBlock)
    if (void* p = region().allocate(bytes)) return p;
  void* p = std::aligned_alloc(64, round_up(std::max<size_t>(bytes, 1), 64));
  if (!p) throw std::bad_alloc();
  return p;
}

void release(void* p) noexcept {
  if (!p) return;
  Region& r = region();
  if (r.owns(p))
    r.release(p);
  else
    std::free(p);
}

}  // namespace zkrv::opt::memory
