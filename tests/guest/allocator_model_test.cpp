// The guest allocators' cores, compiled for the host and driven against a test heap by a
// RapidCheck model (tests/support/allocator_model): random alloc / calloc / realloc / free /
// aligned / init / mark / release sequences. The counts of double serves, dirty zeroed bytes,
// lost realloc bytes and cursor rewinds (and misaligned or out-of-heap blocks) must all be 0.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <ostream>
#include <vector>

#include "guest/include/zkvm_alloc_core.h"
#include "tests/support/allocator_model.h"

namespace zkrv::testing {
// How RapidCheck prints a failing operation sequence.
inline void showValue(const AllocatorOp& op, std::ostream& os) {
  static const char* names[] = {"alloc", "calloc", "realloc", "free", "aligned", "init/mark", "release"};
  os << names[op.kind % 7] << "(size " << op.size << ", align 2^" << op.align_log << ", pick " << op.pick << ")";
}
}  // namespace zkrv::testing

namespace {

using zkrv::testing::AllocatorOp;

rc::Gen<AllocatorOp> op_gen() {
  using zkrv::testing::kModelHeapBytes;
  return rc::gen::build<AllocatorOp>(
      rc::gen::set(&AllocatorOp::kind, rc::gen::inRange(0, 7)),
      rc::gen::set(&AllocatorOp::size, rc::gen::weightedOneOf<size_t>(
                                           {{8, rc::gen::inRange<size_t>(0, 3000)},
                                            {1, rc::gen::element<size_t>(SIZE_MAX, SIZE_MAX - 15, kModelHeapBytes,
                                                                         kModelHeapBytes * 4)}})),
      rc::gen::set(&AllocatorOp::align_log, rc::gen::inRange<size_t>(0, 13)),
      rc::gen::set(&AllocatorOp::pick, rc::gen::arbitrary<size_t>()),
      rc::gen::set(&AllocatorOp::fill, rc::gen::arbitrary<uint8_t>()));
}

void check(bool arena) {
  const auto c = zkrv::testing::run_allocator_model(arena, *rc::gen::container<std::vector<AllocatorOp>>(op_gen()));
  RC_ASSERT(c.double_serves == 0u);
  RC_ASSERT(c.dirty_zeroed == 0u);
  RC_ASSERT(c.lost_realloc == 0u);
  RC_ASSERT(c.rewinds == 0u);
  RC_ASSERT(c.misaligned == 0u);
  RC_ASSERT(c.wrapped == 0u);
}

RC_GTEST_PROP(AllocatorModel, BumpKeepsItsInvariants, ()) { check(false); }
RC_GTEST_PROP(AllocatorModel, ArenaKeepsItsInvariants, ()) { check(true); }

TEST(AllocatorModel, ExhaustionAndHugeSizesReturnNull) {
  std::vector<uint8_t> heap(1 << 16);
  zkrv_bump b{};
  zkrv_bump_init(&b, heap.data(), heap.data() + heap.size());
  EXPECT_EQ(zkrv_bump_alloc(&b, SIZE_MAX, 16), nullptr);
  EXPECT_EQ(zkrv_bump_alloc(&b, SIZE_MAX - 15, 16), nullptr);
  EXPECT_EQ(zkrv_bump_alloc(&b, 1 << 16, 16), nullptr);  // header does not fit
  EXPECT_EQ(zkrv_bump_alloc(&b, 16, 3), nullptr);        // not a power of two
  EXPECT_NE(zkrv_bump_alloc(&b, 1000, 4096), nullptr);
  const uintptr_t before = b.cursor;
  EXPECT_EQ(zkrv_bump_alloc(&b, 1 << 20, 16), nullptr);
  EXPECT_EQ(b.cursor, before);                           // a failed request changes nothing
}

}  // namespace
