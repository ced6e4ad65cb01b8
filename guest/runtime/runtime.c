/* Minimal freestanding guest runtime: syscalls, input/output, exit, and the memory
 * functions the compiler may call. */
#include "guest/include/zkrv_guest.h"

static long zkrv_syscall3(long n, long a0, long a1, long a2) {
  register long r_a0 __asm__("a0") = a0;
  register long r_a1 __asm__("a1") = a1;
  register long r_a2 __asm__("a2") = a2;
  register long r_a7 __asm__("a7") = n;
  __asm__ volatile("ecall" : "+r"(r_a0) : "r"(r_a1), "r"(r_a2), "r"(r_a7) : "memory");
  return r_a0;
}

size_t zkrv_read(void* buf, size_t n) {
  size_t got = 0;
  while (got < n) {
    long r = zkrv_syscall3(63, 0, (long)((char*)buf + got), (long)(n - got));
    if (r <= 0) break;
    got += (size_t)r;
  }
  return got;
}

void zkrv_write(int fd, const void* buf, size_t n) { zkrv_syscall3(64, fd, (long)buf, (long)n); }

void zkrv_exit(int code) {
  zkrv_syscall3(93, code, 0, 0);
  for (;;) {
  }
}

uint64_t zkrv_random_u64(void) { return (uint64_t)zkrv_syscall3(0x5A000, 0, 0, 0); }

void zkrv_print_u64(int fd, uint64_t v) {
  char buf[21];
  int i = 20;
  buf[i] = '\0';
  do {
    buf[--i] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  zkrv_write(fd, buf + i, (size_t)(20 - i));
}

void zkrv_print(int fd, const char* s) {
  size_t n = 0;
  while (s[n]) ++n;
  zkrv_write(fd, s, n);
}

uint64_t zkrv_parse_u64(const uint8_t* p, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n && p[i] >= '0' && p[i] <= '9'; ++i) v = v * 10 + (uint64_t)(p[i] - '0');
  return v;
}

void* memset(void* d, int c, size_t n) {
  unsigned char* p = d;
  while (n--) *p++ = (unsigned char)c;
  return d;
}
void* memcpy(void* d, const void* s, size_t n) {
  unsigned char* p = d;
  const unsigned char* q = s;
  while (n--) *p++ = *q++;
  return d;
}
void* memmove(void* d, const void* s, size_t n) {
  unsigned char* p = d;
  const unsigned char* q = s;
  if (p < q) {
    while (n--) *p++ = *q++;
  } else {
    while (n--) p[n] = q[n];
  }
  return d;
}
int memcmp(const void* a, const void* b, size_t n) {
  const unsigned char *p = a, *q = b;
  for (; n; --n, ++p, ++q)
    if (*p != *q) return *p - *q;
  return 0;
}

typedef void (*zkrv_init_fn)(void);
extern zkrv_init_fn __init_array_start[], __init_array_end[];
extern zkrv_init_fn __fini_array_start[], __fini_array_end[];
int main(void);

int __zkrv_run_main(void) {
  for (zkrv_init_fn* f = __init_array_start; f < __init_array_end; ++f) (*f)();
  int rc = main();
  for (zkrv_init_fn* f = __fini_array_end; f > __fini_array_start;) (*--f)();
  return rc;
}
