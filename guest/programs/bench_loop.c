/* Benchmark workload: an integer ALU loop (xorshift + add), N iterations from the input. */
#include "guest/include/zkrv_guest.h"

int main(void) {
  uint8_t buf[32];
  uint64_t n = zkrv_parse_u64(buf, zkrv_read(buf, sizeof buf));
  uint64_t x = 0x9E3779B97F4A7C15ull, acc = 0;
  for (uint64_t i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    acc += x + i;
  }
  zkrv_write(1, &acc, sizeof acc);
  return 0;
}
