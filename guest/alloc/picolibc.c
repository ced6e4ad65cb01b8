/* The `picolibc` allocator: picolibc's own malloc (reuses freed memory; calloc zeroes) on top
 * of this sbrk over [_heap_start, _heap_end). Exhaustion returns (void*)-1 and malloc NULL. */
#include <errno.h>
#include <stdint.h>
#include <unistd.h>

#include "heap.h"

static char* brk_cursor;

void* sbrk(ptrdiff_t incr) {
  if (!brk_cursor) brk_cursor = zkrv_heap_start_word;
  char* const start = zkrv_heap_start_word;
  char* const end = zkrv_heap_end_word;
  if ((incr > 0 && incr > end - brk_cursor) || (incr < 0 && -incr > brk_cursor - start)) {
    errno = ENOMEM;
    return (void*)-1;
  }
  char* old = brk_cursor;
  brk_cursor += incr;
  return old;
}
