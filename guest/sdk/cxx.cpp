// C++ support: operator new/delete over the program's allocator (they take precedence over the
// standard library's: the SDK is linked first).
// A failed allocation in a throwing form cannot throw, so it ends the program with
// ZKVM_EXIT_OUT_OF_MEMORY; the nothrow forms return nullptr.
#include <stddef.h>
#include <stdlib.h>

#include "zkvm.h"

namespace std {
struct nothrow_t;
enum class align_val_t : size_t;
}  // namespace std

namespace {
void* allocate(size_t size, size_t align, bool must) {
  if (size == 0) size = 1;
  void* p = align <= 16 ? malloc(size) : aligned_alloc(align, (size + align - 1) / align * align);
  if (!p && must) {
    static const char msg[] = "zkrv guest: operator new: out of memory\n";
    write_log(reinterpret_cast<const uint8_t*>(msg), sizeof msg - 1);
    zkvm_exit(ZKVM_EXIT_OUT_OF_MEMORY);
  }
  return p;
}
}  // namespace

void* operator new(size_t n) { return allocate(n, 16, true); }
void* operator new[](size_t n) { return allocate(n, 16, true); }
void* operator new(size_t n, const std::nothrow_t&) noexcept { return allocate(n, 16, false); }
void* operator new[](size_t n, const std::nothrow_t&) noexcept { return allocate(n, 16, false); }
void* operator new(size_t n, std::align_val_t a) { return allocate(n, static_cast<size_t>(a), true); }
void* operator new[](size_t n, std::align_val_t a) { return allocate(n, static_cast<size_t>(a), true); }
void operator delete(void* p) noexcept { free(p); }
void operator delete[](void* p) noexcept { free(p); }
void operator delete(void* p, size_t) noexcept { free(p); }
void operator delete[](void* p, size_t) noexcept { free(p); }
void operator delete(void* p, std::align_val_t) noexcept { free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { free(p); }
void operator delete(void* p, size_t, std::align_val_t) noexcept { free(p); }
void operator delete[](void* p, size_t, std::align_val_t) noexcept { free(p); }

// Weak: libsupc++ defines it too (pure.o, beside __cxa_deleted_virtual), and a C++ guest that
// links the standard library may pull that in; both abort.
extern "C" __attribute__((weak)) void __cxa_pure_virtual() { abort(); }
// Weak: crtbegin.o defines it too, and C++ guests that keep exception tables link that.
extern "C" {
__attribute__((weak)) void* __dso_handle = nullptr;
}
