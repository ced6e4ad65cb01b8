/* The `arena` allocator: malloc & co. over one zkrv_arena on [_heap_start, _heap_end), with
 * O(1) scopes (zkrv_heap_mark / zkrv_heap_release) for phase-structured programs. free is a
 * no-op; memory comes back when a scope ends. */
#include <errno.h>
#include <stdlib.h>

#include "heap.h"
#include "zkvm_arena.h"

static zkrv_arena heap;
static int heap_ready;

static zkrv_arena* get(void) {
  if (!heap_ready) {
    zkrv_arena_init(&heap, zkrv_heap_start_word, (size_t)(zkrv_heap_end_word - zkrv_heap_start_word));
    heap_ready = 1;
  }
  return &heap;
}

uintptr_t zkrv_heap_mark(void) { return zkrv_arena_mark(get()); }
void zkrv_heap_release(uintptr_t mark) { zkrv_arena_release(get(), mark); }

void* malloc(size_t n) { return zkrv_arena_alloc(get(), n, 16); }
void* calloc(size_t n, size_t m) { return zkrv_arena_calloc(get(), n, m); }
void* realloc(void* p, size_t n) { return zkrv_arena_realloc(get(), p, n); }
void free(void* p) { (void)p; }
void* aligned_alloc(size_t align, size_t n) { return zkrv_arena_alloc(get(), n, align); }
void* memalign(size_t align, size_t n) { return zkrv_arena_alloc(get(), n, align); }
int posix_memalign(void** out, size_t align, size_t n) {
  if (align < sizeof(void*) || (align & (align - 1))) return EINVAL;
  void* p = zkrv_arena_alloc(get(), n, align);
  if (!p) return ENOMEM;
  *out = p;
  return 0;
}
size_t malloc_usable_size(void* p) { return p ? zkrv_block_size(p) : 0; }
