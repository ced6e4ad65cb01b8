/* Ordinary C I/O on zkrv (guest/sdk/posix.c): reads the private input through stdin, prints to
 * the public output with printf, puts, fputs and write(1, ...), logs to stderr, and meets files,
 * the clock and the environment as a ported library would. The same ELF prints the same under
 * qemu-riscv64 (guest.programs compares them). Output: posix_io.expected. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

int main(void) {
  char buf[64];
  const size_t n = fread(buf, 1, sizeof buf - 1, stdin);
  buf[n] = 0;
  printf("read %zu bytes from stdin: %s", n, buf);
  FILE* f = fopen("/etc/passwd", "r");
  printf("fopen: %s\n", f ? "opened" : errno == ENOENT ? "ENOENT" : "another error");
  const time_t t0 = time(NULL);
  const clock_t c0 = clock();
  struct timeval tv;
  gettimeofday(&tv, NULL);
  const time_t t1 = time(NULL);
  printf("clock: %s\n", t0 >= 1735689600 && t1 >= t0 && tv.tv_sec >= t0 && clock() > c0 ? "from 2025-01-01, advancing" : "wrong");
  printf("getenv(\"HOME\"): %s\n", getenv("HOME") ? "set" : "unset");
  printf("isatty(1): %d\n", isatty(1));
  fprintf(stderr, "posix_io: a line on the debug log\n");
  fputs("fputs to stdout\n", stdout);
  puts("puts");
  fflush(stdout);
  if (write(1, "write(1, ...)\n", 14) != 14) return 1;
  return 0;
}
