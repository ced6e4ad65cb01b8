/* Benchmark workload: an integer ALU loop (xorshift + add), N iterations from the input. */
#include "guest/programs/common/input_number.h"

int main(void) {
  uint64_t n = input_number();
  uint64_t x = 0x9E3779B97F4A7C15ull, acc = 0;
  for (uint64_t i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    acc += x + i;
  }
  write_output((const uint8_t*)&acc, sizeof acc);
  return 0;
}
