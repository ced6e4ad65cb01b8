/* The POSIX calls that ordinary C code (and picolibc's stdio, time and file functions) make,
 * with fixed, documented meanings, so that a library links and behaves the same under zkrv and
 * qemu-riscv64 (the same ELF runs in both). Every one is weak: a guest's own definition wins.
 *
 * - fd 0 reads the private input (the cursor zkvm_typed.h and stdin share); fd 1 writes the
 *   public output (after what stdout buffered), fd 2 the debug log. Other fds: EBADF.
 * - There are no files: open, rename and unlink fail with ENOENT (open with O_CREAT: ENOSYS);
 *   lseek on fds 0-2 fails with ESPIPE; fstat says fds 0-2 are character devices; isatty is 0.
 * - The clock is deterministic: 2025-01-01T00:00:00Z (1735689600 s since the epoch) when the run
 *   starts, advanced by one microsecond per cycle (zkvm_cycle_count, which the proof binds: a
 *   nominal 1 MHz machine) for time, gettimeofday, clock_gettime, times and clock, so that runs
 *   stay reproducible, readings increase, and a loop waiting for time to pass ends. Where the
 *   cycle count does not exist (qemu-riscv64) it advances one microsecond per reading instead. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

#include "zkvm.h"
#include "zkvm_io.h"
#include "zkvm_typed.h"

#define WEAK __attribute__((weak))
#define ZKRV_EPOCH 1735689600ull

WEAK ssize_t read(int fd, void* buf, size_t n) {
  if (fd != 0) {
    errno = EBADF;
    return -1;
  }
  const size_t left = zkvm_input_left();
  if (n > left) n = left;
  zkvm_read_raw(buf, n);
  return (ssize_t)n;
}

WEAK ssize_t write(int fd, const void* buf, size_t n) {
  if (fd == 1) {
    write_output((const uint8_t*)buf, n);
  } else if (fd == 2) {
    write_log((const uint8_t*)buf, n);
  } else {
    errno = EBADF;
    return -1;
  }
  return (ssize_t)n;
}

WEAK int open(const char* path, int flags, ...) {
  (void)path;
  errno = (flags & O_CREAT) ? ENOSYS : ENOENT;
  return -1;
}

WEAK int close(int fd) {
  if (fd >= 0 && fd <= 2) return 0;
  errno = EBADF;
  return -1;
}

WEAK off_t lseek(int fd, off_t offset, int whence) {
  (void)offset, (void)whence;
  errno = fd >= 0 && fd <= 2 ? ESPIPE : EBADF;
  return -1;
}

WEAK int fstat(int fd, struct stat* st) {
  if (fd < 0 || fd > 2) {
    errno = EBADF;
    return -1;
  }
  memset(st, 0, sizeof *st);
  st->st_mode = S_IFCHR;
  return 0;
}

WEAK int isatty(int fd) {
  (void)fd;
  errno = ENOTTY;
  return 0;
}

WEAK int rename(const char* from, const char* to) {
  (void)from, (void)to;
  errno = ENOENT;
  return -1;
}

WEAK int unlink(const char* path) {
  (void)path;
  errno = ENOENT;
  return -1;
}

/* The deterministic clock: microseconds since the run started, one per cycle (one more per
 * reading where there is no cycle count). */
static unsigned long long readings;
static unsigned long long tick(void) {
  const uint64_t cycles = zkvm_cycle_count();
  return cycles != UINT64_MAX ? cycles : ++readings;
}

WEAK int gettimeofday(struct timeval* tv, void* tz) {
  (void)tz;
  const unsigned long long us = tick();
  if (tv) {
    tv->tv_sec = (time_t)(ZKRV_EPOCH + us / 1000000);
    tv->tv_usec = (suseconds_t)(us % 1000000);
  }
  return 0;
}

WEAK int clock_gettime(clockid_t id, struct timespec* ts) {
  const unsigned long long us = tick();
  const unsigned long long base = id == CLOCK_REALTIME ? ZKRV_EPOCH : 0;
  ts->tv_sec = (time_t)(base + us / 1000000);
  ts->tv_nsec = (long)(us % 1000000) * 1000;
  return 0;
}

WEAK clock_t times(struct tms* t) {
  const unsigned long long us = tick();
  const clock_t c = (clock_t)(us / 1000000 * CLOCKS_PER_SEC + us % 1000000 * CLOCKS_PER_SEC / 1000000);
  if (t) {
    t->tms_utime = c;
    t->tms_stime = t->tms_cutime = t->tms_cstime = 0;
  }
  return c;
}
