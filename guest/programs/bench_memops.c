/* Benchmark workload: one memory routine of the C library, repeated. Input, one line:
 *   ROUTINE SIZE DST SRC REPS
 * ROUTINE is memcpy, memmove, memset, memcmp, strlen or strcmp; SIZE bytes (at most 65536);
 * DST and SRC are byte offsets (0-63) into two 64-byte-aligned buffers. memmove moves within
 * one buffer (from SRC to DST: they overlap when SIZE exceeds their distance); memcmp compares
 * equal ranges, strcmp equal strings, strlen a string of SIZE bytes (printable ASCII), so each
 * reads all SIZE bytes. Output: 8 bytes, a checksum of what the calls returned, so that none can
 * be left out. Cycles per byte: the difference of two runs that differ only in REPS, over SIZE
 * times the difference in REPS (tests/guest/memops_test.cpp does this; the README's table). */
#include <stdint.h>
#include <string.h>

#include "zkvm_io.h"

#define MAX_SIZE 65536
static unsigned char a_buf[MAX_SIZE + 128] __attribute__((aligned(64)));
static unsigned char b_buf[MAX_SIZE + 128] __attribute__((aligned(64)));

static const uint8_t* in;
static size_t in_len, at;

static void skip_spaces(void) {
  while (at < in_len && (in[at] == ' ' || in[at] == '\n')) ++at;
}
static const char* word(size_t* len) {
  skip_spaces();
  const size_t start = at;
  while (at < in_len && in[at] != ' ' && in[at] != '\n') ++at;
  *len = at - start;
  return (const char*)in + start;
}
static uint64_t number(void) {
  size_t len;
  const char* w = word(&len);
  uint64_t v = 0;
  for (size_t i = 0; i < len && w[i] >= '0' && w[i] <= '9'; ++i) v = v * 10 + (uint64_t)(w[i] - '0');
  return v;
}
/* The pointers as the compiler must assume anything of, so that no call is merged or hoisted. */
#define OPAQUE(d, s) __asm__ volatile("" : "+r"(d), "+r"(s) : : "memory")

static int is(const char* w, size_t len, const char* name) { return len == strlen(name) && memcmp(w, name, len) == 0; }

int main(void) {
  read_input(&in, &in_len);
  size_t len;
  const char* routine = word(&len);
  const uint64_t size = number(), dst = number(), src = number(), reps = number();
  if (size > MAX_SIZE || dst > 63 || src > 63) return 2;
  unsigned char* d = a_buf + dst;
  unsigned char* s = b_buf + src;
  for (uint64_t i = 0; i < size + 64; ++i) a_buf[i] = b_buf[i] = (unsigned char)(' ' + i % 95);
  uint64_t sum = 0;
  if (is(routine, len, "memcpy")) {
    for (uint64_t r = 0; r < reps; ++r) {
      OPAQUE(d, s);
      sum += (uintptr_t)memcpy(d, s, size) - (uintptr_t)a_buf;
    }
  } else if (is(routine, len, "memmove")) {
    for (uint64_t r = 0; r < reps; ++r) {
      OPAQUE(d, s);
      sum += (uintptr_t)memmove(d, a_buf + src, size) - (uintptr_t)a_buf;
    }
  } else if (is(routine, len, "memset")) {
    for (uint64_t r = 0; r < reps; ++r) {
      OPAQUE(d, s);
      sum += (uintptr_t)memset(d, (int)r, size) - (uintptr_t)a_buf;
    }
  } else if (is(routine, len, "memcmp")) {
    memcpy(d, s, size);
    for (uint64_t r = 0; r < reps; ++r) {
      OPAQUE(d, s);
      sum += (uint64_t)memcmp(d, s, size) + 1;
    }
  } else if (is(routine, len, "strlen")) {
    d[size] = 0;
    for (uint64_t r = 0; r < reps; ++r) {
      OPAQUE(d, s);
      sum += strlen((const char*)d);
    }
  } else if (is(routine, len, "strcmp")) {
    memcpy(d, s, size);
    d[size] = s[size] = 0;
    for (uint64_t r = 0; r < reps; ++r) {
      OPAQUE(d, s);
      sum += (uint64_t)strcmp((const char*)d, (const char*)s) + 1;
    }
  } else {
    return 2;
  }
  sum += a_buf[dst] + a_buf[dst + size / 2];
  write_output((const uint8_t*)&sum, sizeof sum);
  return 0;
}
