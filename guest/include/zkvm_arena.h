/* Scoped arenas with O(1) reset, usable from C and C++ (any allocator). With the `arena`
 * allocator, malloc itself draws from the heap arena and zkrv_heap_mark/zkrv_heap_release
 * scope it. */
#ifndef ZKVM_ARENA_H
#define ZKVM_ARENA_H

#include "zkvm_alloc_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Only with the `arena` allocator: the malloc heap's current position, and an O(1) return to it. */
uintptr_t zkrv_heap_mark(void);
void zkrv_heap_release(uintptr_t mark);

#ifdef __cplusplus
}

namespace zkvm {
/* RAII scope on an explicit arena: everything allocated inside is released on exit, in O(1). */
class ArenaScope {
 public:
  explicit ArenaScope(zkrv_arena& a) : arena_(a), mark_(zkrv_arena_mark(&a)) {}
  ~ArenaScope() { zkrv_arena_release(&arena_, mark_); }
  ArenaScope(const ArenaScope&) = delete;
  ArenaScope& operator=(const ArenaScope&) = delete;

 private:
  zkrv_arena& arena_;
  uintptr_t mark_;
};
}  // namespace zkvm
#endif

#endif
