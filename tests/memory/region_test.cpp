// The prover's region (optimized/memory/region.h): large blocks page-aligned, writable and never
// overlapping; free space coalesced so that once every block is freed the region is one free
// range again, and the same sequence of allocations then gets the same addresses (what makes a
// bundle's peak the same in every segment); a full or refused region falls back to the system
// allocator; trim() returns the free pages; the column type's buffers come from the region.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <vector>

#include "optimized/memory/column.h"
#include "optimized/memory/region.h"

namespace zkrv::opt::memory {
namespace {

constexpr size_t kMiB = size_t{1} << 20;

bool resident(const void* p, size_t bytes) {  // every page of [p, p + bytes) in memory
  std::vector<unsigned char> v((bytes + kPage - 1) / kPage);
  if (mincore(const_cast<void*>(p), bytes, v.data()) != 0) return false;
  return std::all_of(v.begin(), v.end(), [](unsigned char c) { return (c & 1) != 0; });
}

TEST(Region, ABlockIsPageAlignedWritableAndCountedUntilFreed) {
  Region r(64 * kMiB);
  void* p = r.allocate(100'000);
  ASSERT_NE(p, nullptr);
  EXPECT_TRUE(r.owns(p));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % kPage, 0u);
  std::memset(p, 0xab, 100'000);
  RegionStats s = r.stats();
  EXPECT_EQ(s.in_use, 25 * kPage);  // 100,000 bytes rounded up to pages
  EXPECT_EQ(s.blocks, 1u);
  EXPECT_EQ(s.high_water, 25 * kPage);
  r.release(p);
  s = r.stats();
  EXPECT_EQ(s.in_use, 0u);
  EXPECT_EQ(s.blocks, 0u);
  EXPECT_EQ(s.free_ranges, 1u);
  EXPECT_EQ(s.high_water, 25 * kPage);  // the high-water mark stays
  int on_stack = 0;
  EXPECT_FALSE(r.owns(&on_stack));
}

TEST(Region, FreedNeighboursMergeInEitherOrder) {
  Region r(64 * kMiB);
  void* a = r.allocate(kMiB);
  void* b = r.allocate(kMiB);
  void* c = r.allocate(kMiB);
  EXPECT_EQ(static_cast<uint8_t*>(b), static_cast<uint8_t*>(a) + kMiB);  // first fit: address order
  EXPECT_EQ(static_cast<uint8_t*>(c), static_cast<uint8_t*>(b) + kMiB);
  r.release(b);
  EXPECT_EQ(r.stats().free_ranges, 2u);  // b's range and the tail
  r.release(a);                          // merges with b's range on its right
  EXPECT_EQ(r.stats().free_ranges, 2u);
  EXPECT_EQ(r.allocate(2 * kMiB), a);    // the merged range takes a block of both sizes
  r.release(a);
  r.release(c);                          // merges left and right: one range again
  EXPECT_EQ(r.stats().free_ranges, 1u);
  EXPECT_EQ(r.stats().in_use, 0u);
}

TEST(Region, ABlockThatDoesNotFitIsRefusedAndCounted) {
  Region r(kMiB);
  void* a = r.allocate(768 << 10);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(r.allocate(512 << 10), nullptr);
  EXPECT_EQ(r.stats().outside, 1u);
  r.release(a);
  EXPECT_NE(r.allocate(kMiB), nullptr);  // the whole region once it is empty
}

TEST(Region, AReservationTheSystemRefusesLeavesNoRegion) {
  Region r(size_t{1} << 62);  // more address space than any machine has
  EXPECT_EQ(r.allocate(kMiB), nullptr);
  EXPECT_EQ(r.stats().reserved, 0u);
  EXPECT_EQ(r.stats().outside, 1u);
}

TEST(Region, TrimGivesTheFreePagesBack) {
  Region r(64 * kMiB);
  auto* p = static_cast<uint8_t*>(r.allocate(4 * kMiB));
  std::memset(p, 1, 4 * kMiB);
  auto* q = static_cast<uint8_t*>(r.allocate(kMiB));
  std::memset(q, 2, kMiB);
  r.release(p);
  EXPECT_TRUE(resident(p, 4 * kMiB));  // freed pages stay for the next segment
  r.trim();
  EXPECT_FALSE(resident(p, kPage));
  EXPECT_TRUE(resident(q, kMiB));      // a live block keeps its pages and bytes
  EXPECT_EQ(q[kMiB - 1], 2);
  auto* again = static_cast<uint8_t*>(r.allocate(4 * kMiB));
  EXPECT_EQ(again, p);
  again[0] = 3;  // a trimmed page is writable again
  EXPECT_EQ(again[0], 3);
}

// Any sequence of allocations and frees: blocks never overlap; once all are freed the region is
// one range with nothing in use; and the same sequence run again gets the same addresses.
RC_GTEST_PROP(Region, AnEmptiedRegionPlacesTheSameSequenceTheSameWay, ()) {
  const auto ops = *rc::gen::container<std::vector<std::pair<bool, size_t>>>(
      rc::gen::pair(rc::gen::arbitrary<bool>(), rc::gen::inRange<size_t>(1, 3 * kMiB)));
  Region r(256 * kMiB);
  r.release(r.allocate(1));  // reserved: one free range
  auto run = [&] {
    std::vector<uintptr_t> addresses;
    std::map<uintptr_t, size_t> live;  // address → bytes asked for
    for (const auto& [free_one, bytes] : ops) {
      if (free_one && !live.empty()) {
        auto it = std::next(live.begin(), static_cast<long>(bytes % live.size()));
        r.release(reinterpret_cast<void*>(it->first));
        live.erase(it);
        continue;
      }
      auto* p = static_cast<uint8_t*>(r.allocate(bytes));
      RC_ASSERT(p != nullptr);
      const auto a = reinterpret_cast<uintptr_t>(p);
      const auto next = live.lower_bound(a);
      const bool below_next = next == live.end() || a + bytes <= next->first;
      const bool above_previous = next == live.begin() || std::prev(next)->first + std::prev(next)->second <= a;
      RC_ASSERT(below_next);
      RC_ASSERT(above_previous);
      p[0] = p[bytes - 1] = 1;
      live.emplace(a, bytes);
      addresses.push_back(a);
    }
    for (const auto& [a, bytes] : live) r.release(reinterpret_cast<void*>(a));
    RC_ASSERT(r.stats().in_use == 0u);
    RC_ASSERT(r.stats().free_ranges == 1u);
    return addresses;
  };
  const auto first = run();
  const size_t high_water = r.stats().high_water;
  RC_ASSERT(run() == first);
  RC_ASSERT(r.stats().high_water == high_water);
}

TEST(Region, SmallBlocksComeFromTheSystemAndLargeOnesFromTheRegion) {
  if (!region().enabled()) GTEST_SKIP() << "no region in this process (ZKRV_REGION=off, ulimit -v or AddressSanitizer)";
  void* small = allocate(1000);
  void* large = allocate(kLargeBlock);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(small) % 64, 0u);
  EXPECT_FALSE(region().owns(small));
  EXPECT_TRUE(region().owns(large));
  release(small);
  release(large);
  release(nullptr);
}

TEST(Region, AColumnsBufferComesFromTheRegionAndGrows) {
  if (!region().enabled()) GTEST_SKIP() << "no region in this process (ZKRV_REGION=off, ulimit -v or AddressSanitizer)";
  Column c(size_t{1} << 16);  // 512 KiB
  EXPECT_TRUE(region().owns(c.data()));
  const size_t before = region().stats().in_use;
  for (size_t i = 0; i < c.size(); ++i) c[i] = Fp::from_u64(i);
  c.push_back(Fp::from_u64(7));  // a reallocation: the old buffer freed, the values kept
  EXPECT_TRUE(region().owns(c.data()));
  EXPECT_EQ(c[12345].value(), 12345u);
  EXPECT_EQ(c.back().value(), 7u);
  EXPECT_GT(region().stats().in_use, before);
  Column small(8);
  EXPECT_FALSE(region().owns(small.data()));
}

}  // namespace
}  // namespace zkrv::opt::memory
