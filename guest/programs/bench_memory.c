/* Benchmark workload: memory-heavy. Random read-modify-write over a 4 MiB table (misses the
 * host caches of a naive executor), N updates from the input. */
#include "guest/include/zkrv_guest.h"

#define WORDS (1u << 19)
static uint64_t table[WORDS];

int main(void) {
  uint8_t buf[32];
  uint64_t n = zkrv_parse_u64(buf, zkrv_read(buf, sizeof buf));
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
  zkrv_write(1, &sum, sizeof sum);
  return 0;
}
