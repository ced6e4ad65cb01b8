/* zkrv_add_guest's options (tests/CMakeLists.txt, ctest guest.options): compiled with -fPIC (its
 * globals reached through the GOT, which zkrv.ld places in the data segment), -Werror, OPTIMIZE s
 * and GUEST_NUMBER from the target's COMPILE_DEFINITIONS property, in the default GNU C dialect
 * (typeof, asm); options_third_party.c, a THIRD_PARTY_SOURCES file, is compiled without -Wall.
 * Output: "pic 45 42 6\n". */
#include <stdio.h>

#include "zkvm_io.h"

int third_party_sum(int n);

int counter = 5;
static int twice(int x) { return 2 * x; }
int (*volatile op)(int) = twice;  /* a function pointer in data: a GOT entry and a relocation */
const char* const names[] = {"pic", "static"};

int main(void) {
  typeof(counter) add = op(20);
  __asm__ volatile("" : "+r"(add));
  counter += add;
  char out[64];
  const int n = snprintf(out, sizeof out, "%s %d %d %d\n", names[0], counter, GUEST_NUMBER, third_party_sum(3));
  write_output((const uint8_t*)out, (size_t)n);
  return 0;
}
