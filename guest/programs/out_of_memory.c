/* Allocates 1 MiB blocks until malloc returns NULL, with whichever allocator it is linked with
 * (programs.txt builds it with each), writing a byte of each block. Then checks that it got
 * nearly all of the heap, that a failed malloc left the heap usable, and that calloc's memory
 * reads 0 where it comes back (reused, with the `picolibc` allocator). Output: "heap exhausted
 * cleanly\n"; exit 1-6 names the check that failed. What an exhaustion costs: guest/README.md. */
#include <stdint.h>
#include <stdlib.h>

#include "zkvm_io.h"

#define BLOCK (1u << 20)

void* volatile sink; /* results escape, so the compiler cannot assume an allocation succeeds */

int main(void) {
  /* First, calloc over memory that realloc grew in place, that was written and freed, reads 0
   * (through volatile, so that the compiler keeps every step). */
  volatile unsigned char* grown = realloc(malloc(8), 4096);
  if (!grown) return 5;
  for (size_t i = 0; i < 4096; ++i) grown[i] = 0xAB;
  free((void*)grown);
  volatile const unsigned char* again = calloc(1, 4000);
  if (!again) return 5;
  for (size_t i = 0; i < 4000; ++i)
    if (again[i]) return 6;
  size_t blocks = 0;
  unsigned char* last = NULL;
  for (unsigned char* p; (p = malloc(BLOCK)) != NULL; last = p, ++blocks) p[blocks % BLOCK] = 0xA5;
  if (blocks < 3900) return 1; /* the default heap holds about 4,078 of them */
  unsigned char* small = malloc(16); /* what is left may still serve small blocks, or nothing */
  if (small) small[0] = 1;
  free(last); /* a reusing allocator gets this block back below */
  unsigned char* z = calloc(1, BLOCK);
  if (z) {
    for (size_t i = 0; i < BLOCK; i += 4093)
      if (z[i]) return 2;
    if (z[(blocks - 1) % BLOCK]) return 3; /* where the block before it was written */
  }
  sink = malloc(SIZE_MAX / 2);
  if (sink != NULL) return 4;
  static const char ok[] = "heap exhausted cleanly\n";
  write_output((const uint8_t*)ok, sizeof ok - 1);
  return 0;
}
