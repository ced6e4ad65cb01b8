// The failure paths of a C++ guest with the standard library, one per build (cflags=-DFAIL_...):
//   FAIL_NEW        std::vector asks operator new for more than the heap holds: exit 136
//   FAIL_TERMINATE  std::terminate(): exit 134 (it calls abort)
//   FAIL_ABORT      std::abort() from <cstdlib>: exit 134
//   FAIL_THROW      std::vector::at out of range: the library throws std::out_of_range, nothing
//                   catches it (guests build without exceptions), std::terminate: exit 134
//   FAIL_ASSERT     a failed assert from <cassert>: exit 135
#include <cassert>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "zkvm_io.h"

int main() {
  const uint8_t* in = nullptr;
  size_t n = 0;
  read_input(&in, &n);  // an empty input: the sizes below do not come from it
  std::vector<std::string> words = {"alpha", "beta"};
#if defined(FAIL_NEW)
  std::vector<uint64_t> huge(size_t{1} << 33);  // 64 GiB
  huge[n] = words.size();  // used, so the allocation cannot be left out
  return static_cast<int>(huge[n / 2]);
#elif defined(FAIL_TERMINATE)
  std::terminate();
#elif defined(FAIL_ABORT)
  std::abort();
#elif defined(FAIL_THROW)
  return static_cast<int>(words.at(2 + n).size());
#elif defined(FAIL_ASSERT)
  assert(words.size() == 3 + n);
  return 0;
#else
#error "build with one of -DFAIL_NEW, -DFAIL_TERMINATE, -DFAIL_ABORT, -DFAIL_THROW, -DFAIL_ASSERT"
#endif
}
