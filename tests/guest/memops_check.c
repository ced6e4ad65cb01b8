/* Runs the C library's memory routines (the SDK's word-at-a-time ones) on commands from the
 * input, for tests/guest/memops_test.cpp to compare with a byte-wise model. The input is a
 * sequence of commands, each a 16-byte header and the initial contents of buffers X and Y:
 *   u8 op, u8 at_end, u8 c, u8 0, u32 n, u32 a, u32 b, X[2048], Y[2048]
 * op: 0 memcpy(X+a, Y+b, n), 1 memmove(X+a, X+b, n), 2 memset(X+a, c, n), 3 memcmp(X+a, Y+b, n),
 * 4 strlen(X+a), 5 strcmp(X+a, Y+b), 6 read the byte after the input region (a fault). With
 * at_end 1 the string at X+a (4, 5), with 2 the one at Y+b (5), is first copied so that its
 * zero is the last byte of the input region, where the next byte faults: a routine that reads
 * past a string's end stops the run. The output, per command: the result
 * (i64: the returned pointer's offset into X; memcmp and strcmp: -1, 0 or 1; strlen: the
 * length), then X and Y after the call. */
#include <stdint.h>
#include <string.h>

#include "zkvm_io.h"

#define SIZE 2048
static unsigned char X[SIZE] __attribute__((aligned(64)));
static unsigned char Y[SIZE] __attribute__((aligned(64)));
extern unsigned char _input_end[];

static int sign(int v) { return (v > 0) - (v < 0); }

/* A copy of the string at s, its zero the last byte of the input region; NULL if s has no zero
 * within its buffer. */
static const char* at_region_end(const unsigned char* s) {
  const unsigned char* end = s < Y ? X + SIZE : Y + SIZE;
  size_t l = 0;
  while (s + l < end && s[l]) ++l;
  if (s + l == end) return 0;
  unsigned char* to = _input_end - (l + 1);
  for (size_t i = 0; i <= l; ++i) to[i] = s[i];
  return (const char*)to;
}

int main(void) {
  const uint8_t* in;
  size_t len;
  read_input(&in, &len);
  for (size_t at = 0; at + 16 + 2 * SIZE <= len; at += 16 + 2 * SIZE) {
    const uint8_t* h = in + at;
    const uint32_t n = h[4] | h[5] << 8 | (uint32_t)h[6] << 16 | (uint32_t)h[7] << 24;
    const uint32_t a = h[8] | h[9] << 8 | (uint32_t)h[10] << 16 | (uint32_t)h[11] << 24;
    const uint32_t b = h[12] | h[13] << 8 | (uint32_t)h[14] << 16 | (uint32_t)h[15] << 24;
    if (n > SIZE || a > SIZE || b > SIZE) return 2;
    for (size_t i = 0; i < SIZE; ++i) X[i] = h[16 + i], Y[i] = h[16 + SIZE + i];
    const char* xs = (const char*)X + a;
    const char* ys = (const char*)Y + b;
    if (h[1] == 1 && (h[0] == 4 || h[0] == 5)) xs = at_region_end(X + a);
    if (h[1] == 2 && h[0] == 5) ys = at_region_end(Y + b);
    if (!xs || !ys) return 2;
    int64_t r;
    switch (h[0]) {
      case 0: r = (unsigned char*)memcpy(X + a, Y + b, n) - X; break;
      case 1: r = (unsigned char*)memmove(X + a, X + b, n) - X; break;
      case 2: r = (unsigned char*)memset(X + a, h[2], n) - X; break;
      case 3: r = sign(memcmp(X + a, Y + b, n)); break;
      case 4: r = (int64_t)strlen(xs); break;
      case 5: r = sign(strcmp(xs, ys)); break;
      case 6: r = *(volatile unsigned char*)_input_end; break; /* faults: the region ends there */
      default: return 2;
    }
    write_output((const uint8_t*)&r, sizeof r);
    write_output(X, SIZE);
    write_output(Y, SIZE);
  }
  return 0;
}
