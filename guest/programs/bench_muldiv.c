/* Benchmark workload: multiply/divide heavy (64- and 32-bit forms), N iterations. */
#include "guest/programs/common/input_number.h"

int main(void) {
  uint64_t n = input_number();
  uint64_t a = 1234567891011ull, acc = 7;
  int32_t w = 12345;
  for (uint64_t i = 1; i <= n; ++i) {
    a = a * 6364136223846793005ull + 1442695040888963407ull;
    acc += a / (i | 1) + a % 97;
    w = (int32_t)(w * 31 + (int32_t)i) / 3;
    acc ^= (uint64_t)(((unsigned __int128)a * acc) >> 64);
  }
  acc += (uint64_t)w;
  write_output((const uint8_t*)&acc, sizeof acc);
  return 0;
}
