/* The `bump` allocator (default): malloc & co. over zkrv_bump on [_heap_start, _heap_end). */
#include <errno.h>
#include <stdlib.h>

#include "zkvm_alloc_core.h"
#include "heap.h"

static zkrv_bump heap;

static zkrv_bump* get(void) {
  zkrv_bump_init(&heap, zkrv_heap_start_word, zkrv_heap_end_word);  /* idempotent */
  return &heap;
}

void* malloc(size_t n) { return zkrv_bump_alloc(get(), n, 16); }
void* calloc(size_t n, size_t m) { return zkrv_bump_calloc(get(), n, m); }
void* realloc(void* p, size_t n) { return zkrv_bump_realloc(get(), p, n); }
void free(void* p) { (void)p; }
void* aligned_alloc(size_t align, size_t n) { return zkrv_bump_alloc(get(), n, align); }
void* memalign(size_t align, size_t n) { return zkrv_bump_alloc(get(), n, align); }
int posix_memalign(void** out, size_t align, size_t n) {
  if (align < sizeof(void*) || (align & (align - 1))) return EINVAL;
  void* p = zkrv_bump_alloc(get(), n, align);
  if (!p) return ENOMEM;
  *out = p;
  return 0;
}
size_t malloc_usable_size(void* p) { return p ? zkrv_block_size(p) : 0; }
