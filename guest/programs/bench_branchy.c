/* Benchmark workload: branch-heavy (Collatz trajectories and a small state machine),
 * trajectories for 1..N from the input. */
#include "guest/include/zkrv_guest.h"

int main(void) {
  uint8_t buf[32];
  uint64_t n = zkrv_parse_u64(buf, zkrv_read(buf, sizeof buf));
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
  zkrv_write(1, &steps, sizeof steps);
  zkrv_write(1, &state, sizeof state);
  return 0;
}
