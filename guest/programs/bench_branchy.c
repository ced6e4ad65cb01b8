/* Benchmark workload: branch-heavy (Collatz trajectories and a small state machine),
 * trajectories for 1..N from the input. */
#include "guest/programs/common/input_number.h"

int main(void) {
  uint64_t n = input_number();
  uint64_t steps = 0, state = 0;
  for (uint64_t s = 1; s <= n; ++s) {
    uint64_t v = s;
    while (v != 1) {
      if (v & 1) v = 3 * v + 1; else v >>= 1;
      ++steps;
      switch (v & 3) {
        case 0: state += 1; break;
        case 1: state ^= v; break;
        case 2: if (state > v) state -= v; break;
        default: state = (state << 1) | 1; break;
      }
    }
  }
  write_output((const uint8_t*)&steps, sizeof steps);
  write_output((const uint8_t*)&state, sizeof state);
  return 0;
}
