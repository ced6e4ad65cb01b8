#include "zkvm_alloc_core.h"

#include <string.h>

enum { kHeader = 16, kMinAlign = 16 };

static int is_pow2(size_t v) { return v && !(v & (v - 1)); }

/* Places a block of `size` bytes at or above `cursor` in [cursor, end); returns the payload
 * address or 0. Never wraps. */
static uintptr_t place(uintptr_t cursor, uintptr_t end, size_t size, size_t align) {
  if (!is_pow2(align)) return 0;
  if (align < kMinAlign) align = kMinAlign;
  if (cursor > end || end - cursor < kHeader) return 0;
  const uintptr_t lowest = cursor + kHeader;
  if (align - 1 > end - lowest) return 0;
  const uintptr_t payload = (lowest + (align - 1)) & ~(uintptr_t)(align - 1);
  if (payload > end || size > end - payload) return 0;
  memcpy((void*)(payload - sizeof(size_t)), &size, sizeof size);
  return payload;
}

size_t zkrv_block_size(const void* p) {
  size_t s;
  memcpy(&s, (const uint8_t*)p - sizeof(size_t), sizeof s);
  return s;
}

static void set_block_size(void* p, size_t s) { memcpy((uint8_t*)p - sizeof(size_t), &s, sizeof s); }

/* ---- bump ---- */
void zkrv_bump_init(zkrv_bump* b, void* start, void* end) {
  if (b->initialized) return;  /* a second init must never rewind the cursor */
  b->start = b->cursor = (uintptr_t)start;
  b->end = (uintptr_t)end;
  b->top = 0;
  b->initialized = 1;
}

void* zkrv_bump_alloc(zkrv_bump* b, size_t size, size_t align) {
  const uintptr_t p = place(b->cursor, b->end, size, align);
  if (!p) return NULL;
  b->cursor = p + size;
  b->top = p;
  return (void*)p;
}

void* zkrv_bump_calloc(zkrv_bump* b, size_t count, size_t size) {
  if (count && size > SIZE_MAX / count) return NULL;
  return zkrv_bump_alloc(b, count * size, kMinAlign);  /* never-served memory is zero */
}

void* zkrv_bump_realloc(zkrv_bump* b, void* p, size_t size) {
  if (!p) return zkrv_bump_alloc(b, size, kMinAlign);
  const size_t old = zkrv_block_size(p);
  if (size <= old) {  /* shrink in place; the cursor stays */
    set_block_size(p, size);
    return p;
  }
  const uintptr_t up = (uintptr_t)p;
  if (up == b->top && size <= b->end - up) {  /* grow the top block in place */
    if (up + size > b->cursor) b->cursor = up + size;
    set_block_size(p, size);
    return p;
  }
  void* q = zkrv_bump_alloc(b, size, kMinAlign);
  if (q) memcpy(q, p, old);
  return q;
}

/* ---- arena ---- */
void zkrv_arena_init(zkrv_arena* a, void* start, size_t size) {
  a->start = a->cursor = a->high_water = a->last_mark = (uintptr_t)start;
  a->end = (uintptr_t)start + size;
  a->top = 0;
}

void* zkrv_arena_alloc(zkrv_arena* a, size_t size, size_t align) {
  const uintptr_t p = place(a->cursor, a->end, size, align);
  if (!p) return NULL;
  a->cursor = p + size;
  a->top = p;
  if (a->cursor > a->high_water) a->high_water = a->cursor;
  return (void*)p;
}

void* zkrv_arena_calloc(zkrv_arena* a, size_t count, size_t size) {
  if (count && size > SIZE_MAX / count) return NULL;
  const uintptr_t hw = a->high_water;  /* before this allocation moves it */
  uint8_t* p = (uint8_t*)zkrv_arena_alloc(a, count * size, kMinAlign);
  if (p && (uintptr_t)p < hw) {
    const uintptr_t dirty_end = hw < (uintptr_t)p + count * size ? hw : (uintptr_t)p + count * size;
    memset(p, 0, dirty_end - (uintptr_t)p);
  }
  return p;
}

void* zkrv_arena_realloc(zkrv_arena* a, void* p, size_t size) {
  if (!p) return zkrv_arena_alloc(a, size, kMinAlign);
  const size_t old = zkrv_block_size(p);
  if (size <= old) {
    set_block_size(p, size);
    return p;
  }
  const uintptr_t up = (uintptr_t)p;
  if (up == a->top && up >= a->last_mark && size <= a->end - up) {
    if (up + size > a->cursor) a->cursor = up + size;
    if (a->cursor > a->high_water) a->high_water = a->cursor;
    set_block_size(p, size);
    return p;
  }
  void* q = zkrv_arena_alloc(a, size, kMinAlign);
  if (q) memcpy(q, p, old);
  return q;
}

uintptr_t zkrv_arena_mark(zkrv_arena* a) {
  a->last_mark = a->cursor;
  return a->cursor;
}

void zkrv_arena_release(zkrv_arena* a, uintptr_t mark) {
  if (mark < a->start || mark > a->cursor) return;  /* not a mark of this arena's past: ignore */
  a->cursor = mark;
  if (a->top >= mark) a->top = 0;
}

void zkrv_arena_reset(zkrv_arena* a) {
  a->cursor = a->start;
  a->top = 0;
}
