/* The `picolibc` allocator: picolibc's own malloc (reuses freed memory; calloc zeroes) on top
 * of this sbrk over [_heap_start, _heap_end). Exhaustion returns (void*)-1 and malloc NULL.
 *
 * picolibc's malloc clears every block it returns, fresh or reused, and realloc the part by which
 * it grows a block in place. guest/CMakeLists.txt links copies of both whose memset calls are
 * zkrv_malloc_clear below, so that every byte they hand out passes through it: memory never
 * handed out was never written (only chunk headers, which lie outside the blocks they head when
 * written), so it reads 0 (isa:mem:zero_fill) and is not cleared again; memory handed out before
 * is cleared as picolibc clears it. A guest that moves the break itself (sbrk) defeats this. Exhausting a 4 GiB heap in
 * 1 MiB blocks then costs about 100 cycles a block instead of a memset of the whole heap. */
#include <errno.h>
#include <stdint.h>
#include <string.h>
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

/* Every heap byte at or above this has never been inside a block malloc returned. The margin
 * past a block's end covers the header malloc writes when it splits off the rest of a chunk. */
static uintptr_t never_handed_out;
#define HEADER_MARGIN 64

void* zkrv_malloc_clear(void* p, int c, size_t n) {
  const uintptr_t a = (uintptr_t)p, e = a + n;
  if (!never_handed_out) never_handed_out = (uintptr_t)zkrv_heap_start_word;
  if (c != 0 || a < (uintptr_t)zkrv_heap_start_word) return memset(p, c, n);
  if (a < never_handed_out) memset(p, 0, (e < never_handed_out ? e : never_handed_out) - a);
  if (e + HEADER_MARGIN > never_handed_out) never_handed_out = e + HEADER_MARGIN;
  return p;
}
