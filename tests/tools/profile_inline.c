// A guest whose hot code is inlined two deep, built with -O2 -g: the profiler must show
// `mix` inlined into `step` inlined into `main`, with their source lines, and `checksum` as a
// real call (tests/tools/profile_dwarf_test.cpp checks it against llvm-addr2line -i).
#include <stdint.h>

static inline __attribute__((always_inline)) uint64_t mix(uint64_t x, uint64_t k) {
  x ^= x >> 29;
  x *= k;
  return x ^ (x >> 32);
}

static inline __attribute__((always_inline)) uint64_t step(uint64_t x, uint64_t i) {
  return mix(x + i, 0xbf58476d1ce4e5b9ull) + mix(x ^ i, 0x94d049bb133111ebull);
}

__attribute__((noinline)) static uint64_t checksum(const uint64_t* v, int n) {
  uint64_t s = 0;
  for (int i = 0; i < n; ++i) s = step(s, v[i]);
  return s;
}

int main(void) {
  uint64_t v[64];
  uint64_t x = 1;
  for (int round = 0; round < 200; ++round) {
    for (int i = 0; i < 64; ++i) {
      x = step(x, (uint64_t)i);
      v[i] = x;
    }
    x ^= checksum(v, 64);
  }
  return (int)(x & 1);
}
