#pragma once
// A model of the guest allocators' invariants (guest/include/zkvm_alloc_core.h), shared by the
// RapidCheck test and the allocator fuzzer: it runs an operation sequence against bump or arena
// on a test heap, with a served-byte map and a content shadow of every live block.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace zkrv::testing {

struct AllocatorOp {
  int kind;  // 0 alloc, 1 calloc, 2 realloc, 3 free, 4 aligned alloc, 5 init again / mark, 6 release
  size_t size;
  size_t align_log;
  size_t pick;
  uint8_t fill;
};

// Every count must be 0 for a correct allocator.
struct AllocatorCounts {
  size_t double_serves = 0, dirty_zeroed = 0, lost_realloc = 0, rewinds = 0, misaligned = 0, wrapped = 0;
  bool clean() const { return !double_serves && !dirty_zeroed && !lost_realloc && !rewinds && !misaligned && !wrapped; }
};

inline constexpr size_t kModelHeapBytes = 1 << 20;

AllocatorCounts run_allocator_model(bool arena, const std::vector<AllocatorOp>& ops);

}  // namespace zkrv::testing
