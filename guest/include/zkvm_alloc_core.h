/* Allocator cores shared by the guest allocators and their host tests. Pure C over an
 * explicit region; no globals, so tests drive them against a test heap.
 *
 * Block layout: every block has a 16-byte header directly below its payload, holding the
 * payload size. Payloads are aligned to max(16, requested alignment); alignments must be
 * powers of two (up to the region size). Exhaustion, and sizes near SIZE_MAX, give NULL. */
#ifndef ZKRV_ALLOC_CORE_H
#define ZKRV_ALLOC_CORE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* bump: a monotonic cursor. Never serves a byte twice, never rewinds (a second init and a
 * shrinking realloc keep the cursor), so memory it has not served is still zero and
 * zeroed allocation needs no memset. free is a no-op. */
typedef struct zkrv_bump {
  uintptr_t start, cursor, end;  /* region [start, end) */
  uintptr_t top;                 /* payload of the last block served (0: none) */
  int initialized;
} zkrv_bump;

void zkrv_bump_init(zkrv_bump* b, void* start, void* end);  /* idempotent */
void* zkrv_bump_alloc(zkrv_bump* b, size_t size, size_t align);
void* zkrv_bump_calloc(zkrv_bump* b, size_t count, size_t size);
void* zkrv_bump_realloc(zkrv_bump* b, void* p, size_t size);
size_t zkrv_block_size(const void* p);

/* arena: like bump, plus O(1) reset to a mark (the start, or any earlier cursor). Memory
 * below the high-water mark may have been served before, so zeroed allocation clears only
 * the part below it. */
typedef struct zkrv_arena {
  uintptr_t start, cursor, end, top;
  uintptr_t high_water;  /* highest cursor ever reached: above it, memory was never served */
  uintptr_t last_mark;   /* the latest mark taken: only blocks at or above it grow in place, so
                            that no release can cut into a block that outlives its scope */
} zkrv_arena;

void zkrv_arena_init(zkrv_arena* a, void* start, size_t size);
void* zkrv_arena_alloc(zkrv_arena* a, size_t size, size_t align);
void* zkrv_arena_calloc(zkrv_arena* a, size_t count, size_t size);
void* zkrv_arena_realloc(zkrv_arena* a, void* p, size_t size);
uintptr_t zkrv_arena_mark(zkrv_arena* a);
void zkrv_arena_release(zkrv_arena* a, uintptr_t mark);  /* O(1): back to mark */
void zkrv_arena_reset(zkrv_arena* a);                    /* O(1): back to the start */

#ifdef __cplusplus
}
#endif

#endif
