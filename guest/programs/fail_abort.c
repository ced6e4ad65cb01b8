/* Termination: abort() ends the run with ZKVM_EXIT_ABORT (134). */
#include <stdlib.h>
int main(void) {
  abort();
}
