/* Termination: a jump to an address that is not a multiple of 4 is an abnormal termination
 * (the executor reports a misaligned-jump fault; no exit code). */
#include <stdint.h>
static int target(void) { return 7; }
int main(void) {
  int (*volatile f)(void) = (int (*)(void))((uintptr_t)&target + 2);
  return f();
}
