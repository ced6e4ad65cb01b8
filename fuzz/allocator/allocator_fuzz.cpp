// fuzz/allocator: fuzzer bytes become allocator operations (6 bytes each: kind, size, alignment,
// target, fill) run through the same model as the RapidCheck test, on bump (first byte even) or
// arena; any broken invariant aborts.
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "tests/support/allocator_model.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const bool arena = data[0] & 1;
  std::vector<zkrv::testing::AllocatorOp> ops;
  for (size_t i = 1; i + 6 <= size && ops.size() < 512; i += 6) {
    const uint8_t* b = data + i;
    size_t n = (size_t{b[1]} << 8 | b[2]) % 4000;
    if (b[1] == 0xff) n = SIZE_MAX - b[2];  // huge requests too
    ops.push_back({b[0] % 7, n, size_t{b[3]} % 13, b[4], b[5]});
  }
  if (!zkrv::testing::run_allocator_model(arena, ops).clean()) std::abort();
  return 0;
}
