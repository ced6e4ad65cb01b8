/* Allocator stress, built once per allocator (alloc_stress_bump, _picolibc, _arena). Random
 * malloc/calloc/realloc/free with content checks: calloc memory reads 0, realloc keeps the
 * contents, live blocks never overlap, alignment requests up to 4096 hold, SIZE_MAX-ish
 * requests return NULL. Exits with a distinct code per broken invariant; prints "ok" and
 * counts. Input: the number of operations (decimal). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guest/programs/common/input_number.h"
#if defined(ZKRV_ARENA)
#include "zkvm_arena.h"
#endif

#define SLOTS 64
static struct { uint8_t* p; size_t n; uint8_t tag; } slot[SLOTS];
static uint64_t rng = 0x243F6A8885A308D3ull;
static uint64_t next(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }

static int check(int i) {
  for (size_t k = 0; k < slot[i].n; ++k)
    if (slot[i].p[k] != (uint8_t)(slot[i].tag + k)) return 0;
  return 1;
}
static void fill(int i) {
  for (size_t k = 0; k < slot[i].n; ++k) slot[i].p[k] = (uint8_t)(slot[i].tag + k);
}

int main(void) {
  const uint64_t ops = input_number();
  uint64_t allocs = 0, bytes = 0;
  /* Through volatile: a compiler may otherwise assume an unused allocation succeeds. */
  static void* volatile sink;
  volatile size_t huge = SIZE_MAX - 8;
  sink = malloc(huge);
  if (sink != NULL) return 10;
  sink = calloc(huge / 2, 4);
  if (sink != NULL) return 11;
  for (uint64_t op = 0; op < ops; ++op) {
    const int i = (int)(next() % SLOTS);
    const uint64_t r = next();
    const size_t n = (size_t)(r % 2000);
    switch ((r >> 32) % 5) {
      case 0: {  /* calloc: must read zero */
        if (slot[i].p && !check(i)) return 20;
        free(slot[i].p);
        uint8_t* p = calloc(n, 1);
        if (!p && n) return 21;
        for (size_t k = 0; k < n; ++k)
          if (p[k] != 0) return 22;
        slot[i].p = p; slot[i].n = n; slot[i].tag = (uint8_t)r;
        fill(i);
        break;
      }
      case 1: {  /* realloc: contents preserved up to the smaller size */
        if (!slot[i].p) break;
        if (!check(i)) return 30;
        uint8_t* p = realloc(slot[i].p, n);
        if (!p && n) return 31;
        const size_t keep = n < slot[i].n ? n : slot[i].n;
        for (size_t k = 0; k < keep; ++k)
          if (p[k] != (uint8_t)(slot[i].tag + k)) return 32;
        slot[i].p = p; slot[i].n = n;
        fill(i);
        break;
      }
      case 2: {  /* aligned allocation */
        const size_t align = (size_t)1 << (4 + (r >> 40) % 9);  /* 16 .. 4096 */
        if (slot[i].p && !check(i)) return 40;
        free(slot[i].p);
        uint8_t* p = aligned_alloc(align, (n + align - 1) / align * align);
        if (!p) return 41;
        if ((uintptr_t)p % align) return 42;
        slot[i].p = p; slot[i].n = n; slot[i].tag = (uint8_t)r;
        fill(i);
        break;
      }
      default: {  /* malloc + free */
        if (slot[i].p && !check(i)) return 50;
        free(slot[i].p);
        uint8_t* p = malloc(n);
        if (!p && n) return 51;
        slot[i].p = p; slot[i].n = n; slot[i].tag = (uint8_t)r;
        fill(i);
        break;
      }
    }
    ++allocs;
    bytes += n;
    if (op % 256 == 255) {  /* live blocks are disjoint and intact */
      for (int a = 0; a < SLOTS; ++a) {
        if (slot[a].p && !check(a)) return 60;
        for (int b = a + 1; b < SLOTS; ++b)
          if (slot[a].p && slot[b].p && slot[a].n && slot[b].n && slot[a].p < slot[b].p + slot[b].n &&
              slot[b].p < slot[a].p + slot[a].n)
            return 61;
      }
    }
  }
#if defined(ZKRV_ARENA)
  /* A scope: everything allocated inside goes away in O(1), and memory is served again. */
  const uintptr_t mark = zkrv_heap_mark();
  uint8_t* volatile a = malloc(1000);
  memset(a, 0xAB, 1000);
  zkrv_heap_release(mark);
  uint8_t* volatile b = calloc(1000, 1);
  if ((uintptr_t)b != (uintptr_t)a) return 70;
  for (int k = 0; k < 1000; ++k)
    if (b[k] != 0) return 71;  /* reused memory is cleared by calloc */
#endif
  char line[96];
  const int m = snprintf(line, sizeof line, "alloc_stress: ok, %llu operations, %llu bytes requested\n",
                         (unsigned long long)allocs, (unsigned long long)bytes);
  write_output((const uint8_t*)line, (size_t)m);
  return 0;
}
