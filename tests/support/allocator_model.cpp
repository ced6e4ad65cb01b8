#include "tests/support/allocator_model.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <map>

#include "guest/include/zkvm_alloc_core.h"

namespace zkrv::testing {
namespace {
constexpr size_t kHeap = kModelHeapBytes;
struct Live {
  std::vector<uint8_t> shadow;
};
}  // namespace


AllocatorCounts run_allocator_model(bool kArena, const std::vector<AllocatorOp>& ops) {
  std::vector<uint8_t> heap(kHeap + 8192, 0);
  uint8_t* const base = heap.data() + 4096;  // guard space either side to catch overruns
  zkrv_bump bump{};
  zkrv_arena arena{};
  if (kArena) zkrv_arena_init(&arena, base, kHeap); else zkrv_bump_init(&bump, base, base + kHeap);
  std::vector<uint8_t> served(kHeap, 0);  // bump: how often each byte was served
  std::map<uint8_t*, Live> live;
  std::vector<uintptr_t> marks;
  AllocatorCounts c;
  uintptr_t last_cursor = reinterpret_cast<uintptr_t>(base);
  auto cursor = [&] { return kArena ? arena.cursor : bump.cursor; };

  auto note_served = [&](uint8_t* p, size_t n) {
    if (!p) return;
    if (p < base || p + n > base + kHeap) { ++c.wrapped; return; }
    if (!kArena)
      for (size_t k = 0; k < n; ++k)
        if (served[static_cast<size_t>(p - base) + k]++ > 0) ++c.double_serves;
  };
  auto place = [&](uint8_t* p, size_t n, uint8_t fill, bool zeroed) {
    if (!p) return;
    if (zeroed)
      for (size_t k = 0; k < n; ++k)
        if (p[k] != 0) ++c.dirty_zeroed;
    Live l;
    l.shadow.resize(n);
    for (size_t k = 0; k < n; ++k) p[k] = l.shadow[k] = static_cast<uint8_t>(fill + k);
    live[p] = std::move(l);
  };

  for (const AllocatorOp& op : ops) {
    uint8_t* target = nullptr;
    if (!live.empty()) {
      auto it = live.begin();
      std::advance(it, static_cast<long>(op.pick % live.size()));
      target = it->first;
    }
    switch (op.kind) {
      case 0: {
        auto* p = static_cast<uint8_t*>(kArena ? zkrv_arena_alloc(&arena, op.size, 16) : zkrv_bump_alloc(&bump, op.size, 16));
        if (p && reinterpret_cast<uintptr_t>(p) % 16) ++c.misaligned;
        note_served(p, op.size);
        place(p, op.size, op.fill, false);
        break;
      }
      case 1: {
        const size_t n = op.size % 4096, m = 1 + op.pick % 3;
        auto* p = static_cast<uint8_t*>(kArena ? zkrv_arena_calloc(&arena, n, m) : zkrv_bump_calloc(&bump, n, m));
        note_served(p, n * m);
        place(p, n * m, op.fill, true);
        // Overflowing count * size must fail, not wrap.
        if ((kArena ? zkrv_arena_calloc(&arena, SIZE_MAX / 2, 3) : zkrv_bump_calloc(&bump, SIZE_MAX / 2, 3)) != nullptr) ++c.wrapped;
        break;
      }
      case 2: {
        if (!target) break;
        Live old = live[target];
        const uintptr_t before = cursor();
        auto* p = static_cast<uint8_t*>(kArena ? zkrv_arena_realloc(&arena, target, op.size) : zkrv_bump_realloc(&bump, target, op.size));
        if (!p) break;  // exhausted: the old block stays valid
        const size_t keep = std::min(op.size, old.shadow.size());
        for (size_t k = 0; k < keep; ++k)
          if (p[k] != old.shadow[k]) ++c.lost_realloc;
        live.erase(target);
        if (p != target) note_served(p, op.size);
        else if (op.size > old.shadow.size() && !kArena) {
          // grown in place: bytes beyond the old cursor are newly served
          const uintptr_t from = std::max(before, reinterpret_cast<uintptr_t>(p) + old.shadow.size());
          const uintptr_t to = reinterpret_cast<uintptr_t>(p) + op.size;
          if (to > from) note_served(reinterpret_cast<uint8_t*>(from), to - from);
        }
        place(p, op.size, op.fill, false);
        break;
      }
      case 3:
        if (target) live.erase(target);  // free is a no-op for both; the model just forgets it
        break;
      case 4: {
        const size_t align = size_t{1} << op.align_log;
        const size_t n = op.size % 8192;
        auto* p = static_cast<uint8_t*>(kArena ? zkrv_arena_alloc(&arena, n, align) : zkrv_bump_alloc(&bump, n, align));
        if (p && reinterpret_cast<uintptr_t>(p) % std::max<size_t>(align, 16)) ++c.misaligned;
        note_served(p, n);
        place(p, n, op.fill, false);
        break;
      }
      case 5:
        if (kArena) marks.push_back(zkrv_arena_mark(&arena));
        else zkrv_bump_init(&bump, base, base + kHeap);  // must not rewind
        break;
      case 6:
        if (kArena && !marks.empty()) {
          const uintptr_t m = marks.back();
          marks.pop_back();
          zkrv_arena_release(&arena, m);
          for (auto it = live.begin(); it != live.end();)  // blocks at or above the mark are gone
            it = reinterpret_cast<uintptr_t>(it->first) >= m ? live.erase(it) : std::next(it);
          last_cursor = cursor();
        }
        break;
    }
    if (cursor() < last_cursor) ++c.rewinds;
    last_cursor = cursor();
    for (const auto& [p, l] : live)  // every live block keeps its contents
      if (!l.shadow.empty() && std::memcmp(p, l.shadow.data(), l.shadow.size()) != 0) { ++c.lost_realloc; break; }
  }
  for (size_t k = 0; k < 4096; ++k)  // nothing written outside the heap
    if (heap[k] != 0 || heap[4096 + kHeap + k] != 0) { ++c.wrapped; break; }
  return c;
}

}  // namespace zkrv::testing
