#pragma once
// The prover's large blocks (trace columns, LDEs, trees, quotient and FRI buffers) come from one
// region of address space that the prover owns, with address-ordered first fit. Why: glibc
// places the same sequence of large blocks a little differently in every segment of a bundle,
// and its heap's top only moves up, so a bundle's peak crept up with the run's length (about
// 2 MB per 2^20-cycle segment). Here, every segment frees all its blocks, the region's free
// space coalesces back into one range, and first fit places the next segment's blocks from
// that same state: a segment's peak depends on that segment alone, never on the run before it.
//
// The region is address space reserved with PROT_NONE (it takes no memory and counts against no
// overcommit limit) and opened for reading and writing as its high-water mark rises. Blocks
// below kLargeBlock, and any block that does not fit (the region full, its reservation refused
// by RLIMIT_AS, or an mprotect refused), come from std::aligned_alloc instead: the region
// changes where memory is placed, never whether an allocation succeeds. Freed pages stay
// resident for the next segment; trim() returns them.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <type_traits>
#include <unordered_map>

namespace zkrv::opt::memory {

inline constexpr size_t kLargeBlock = size_t{64} << 10;  // blocks of at least this many bytes go to the region
inline constexpr size_t kPage = 4096;                    // the region's granularity and alignment

struct RegionStats {
  size_t reserved = 0;    // address space reserved (0: no region)
  size_t in_use = 0;      // bytes of live blocks (page-rounded)
  size_t high_water = 0;  // the highest end of a live block (from the region's start) since restart_high_water()
  size_t blocks = 0;      // live blocks
  size_t free_ranges = 0; // free ranges below the reservation's end (1 when nothing is live)
  size_t outside = 0;     // large blocks that did not fit and came from the system allocator
};

// An address-ordered first-fit allocator over `reserve_bytes` of address space (reserved on the
// first allocation). Thread-safe. allocate returns null (and counts it in stats().outside) when
// the block does not fit.
class Region {
 public:
  explicit Region(size_t reserve_bytes) : reserve_(reserve_bytes / kPage * kPage) {}
  ~Region();
  Region(const Region&) = delete;
  Region& operator=(const Region&) = delete;
  bool enabled();  // whether the region has its address space (reserving it now if not yet tried)
  void* allocate(size_t bytes);
  bool owns(const void* p) const;
  void release(void* p);   // p from allocate
  void trim();             // MADV_DONTNEED over every free range: its pages go back to the system
  RegionStats stats();
  // The high-water mark since the last call (or since the region was made), and a new one from the
  // live blocks' highest end: a stage's own peak, whatever came before it.
  size_t restart_high_water();

 private:
  bool reserve_locked();
  uint8_t* base() const { return base_.load(std::memory_order_relaxed); }  // under mu_, once reserved
  std::mutex mu_;
  size_t reserve_;
  bool tried_ = false;
  std::atomic<uint8_t*> base_{nullptr};
  size_t size_ = 0, opened_ = 0;  // reserved bytes; bytes from base_ open for reading and writing
  std::map<size_t, size_t> free_; // offset → bytes, address-ordered, adjacent ranges merged
  std::unordered_map<size_t, size_t> live_;
  size_t in_use_ = 0, high_water_ = 0, outside_ = 0;
};

// The process's region: twice the physical memory, or under ulimit -v (RLIMIT_AS) half of what
// the limit leaves past what is mapped and the executor's 4 GiB guest map. None (every block from
// the system allocator) with the environment variable ZKRV_REGION=off, or in an AddressSanitizer
// build, whose checks see only the system allocator's blocks.
Region& region();

// A block of `bytes` (64-byte aligned; any content): from region() when it is large and fits,
// else from std::aligned_alloc. Throws std::bad_alloc when neither has room.
void* allocate(size_t bytes);
// Frees a block from allocate (null: nothing).
void release(void* p) noexcept;

// std::unique_ptr to a T whose storage comes from allocate: make_unique<T>() value-initializes it.
struct Delete {
  template <typename T>
  void operator()(T* p) const noexcept {
    p->~T();
    release(p);
  }
};
template <typename T>
using Unique = std::unique_ptr<T, Delete>;
template <typename T>
Unique<T> make_unique() {
  static_assert(alignof(T) <= 64 && std::is_nothrow_default_constructible_v<T>);
  return Unique<T>(new (allocate(sizeof(T))) T());
}

// std::vector<T, Allocator<T>>: a vector whose buffer comes from allocate.
template <typename T>
struct Allocator {
  using value_type = T;
  static_assert(alignof(T) <= 64);
  Allocator() noexcept = default;
  template <typename U>
  Allocator(const Allocator<U>&) noexcept {}  // NOLINT: converting, as std::allocator is
  T* allocate(size_t n) {
    if (n > SIZE_MAX / sizeof(T)) throw std::bad_array_new_length();
    return static_cast<T*>(memory::allocate(n * sizeof(T)));
  }
  void deallocate(T* p, size_t) noexcept { memory::release(p); }
  template <typename U>
  bool operator==(const Allocator<U>&) const noexcept { return true; }
};

}  // namespace zkrv::opt::memory
