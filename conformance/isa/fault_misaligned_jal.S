# JAL with offset 2 faults (isa:fault:misaligned_jump).
#include "conformance/isa/macros.h"
TEST_BEGIN
  .word 0x0020006f   # jal x0, .+2
  nop
TEST_END

