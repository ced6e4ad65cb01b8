/* Termination: a failed assert() logs the expression and ends with ZKVM_EXIT_ASSERT (135). */
#include <assert.h>
#include "guest/programs/common/input_number.h"
int main(void) {
  assert(input_number() == 42);
  return 0;
}
