// Termination: operator new that cannot allocate ends with ZKVM_EXIT_OUT_OF_MEMORY (136);
// the nothrow form returns nullptr first.
#include <stddef.h>
#include <stdint.h>
namespace std { struct nothrow_t {}; extern const nothrow_t nothrow; }
void* operator new[](size_t, const std::nothrow_t&) noexcept;
const std::nothrow_t std::nothrow{};

struct Big {
  char bytes[1 << 20];
};

Big* volatile sink;  // results escape, so the compiler cannot assume the allocations succeed

int main() {
  volatile size_t count = SIZE_MAX / (2u << 20);  // more than the heap can ever hold
  sink = new (std::nothrow) Big[count];
  if (sink != nullptr) return 1;
  sink = new Big[count];  // does not return
  return sink == nullptr ? 2 : 3;
}
