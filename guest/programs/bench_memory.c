/* Benchmark workload: memory-heavy. Random read-modify-write over a 4 MiB table (misses the
 * host caches of a naive executor), N updates from the input. */
#include "guest/programs/common/input_number.h"

#define WORDS (1u << 19)
static uint64_t table[WORDS];

int main(void) {
  uint64_t n = input_number();
  uint64_t x = 88172645463325252ull;
  for (uint64_t i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    uint32_t a = (uint32_t)x & (WORDS - 1), b = (uint32_t)(x >> 32) & (WORDS - 1);
    table[a] += table[b] + i;
  }
  uint64_t sum = 0;
  for (uint32_t i = 0; i < WORDS; i += 64) sum ^= table[i];
  write_output((const uint8_t*)&sum, sizeof sum);
  return 0;
}
