// Reads the cycle count and the clock, with work between, and commits what it read (typed, in
// order): cycle_count, clock_gettime(REALTIME) s and ns, cycle_count, gettimeofday s and us,
// time(), clock(). tests/guest/guest_runtime_test.cpp checks each against the ecall's cycle.
#include <stdint.h>
#include <sys/time.h>
#include <time.h>

#include "zkvm.h"
#include "zkvm_typed.h"

int main(void) {
  const uint64_t c0 = zkvm_cycle_count();
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  volatile uint64_t sum = 0;
  for (uint64_t i = 0; i < 2000; ++i) sum += i * i;
  const uint64_t c1 = zkvm_cycle_count();
  struct timeval tv;
  gettimeofday(&tv, 0);
  const time_t t = time(0);
  const clock_t c = clock();
  const uint64_t values[] = {c0, (uint64_t)ts.tv_sec, (uint64_t)ts.tv_nsec, c1, (uint64_t)tv.tv_sec, (uint64_t)tv.tv_usec,
                             (uint64_t)t, (uint64_t)c};
  for (unsigned i = 0; i < sizeof values / sizeof values[0]; ++i) zkvm_commit_u64(values[i]);
  return sum == 1999ull * 2000 * 3999 / 6 ? 0 : 1;
}
