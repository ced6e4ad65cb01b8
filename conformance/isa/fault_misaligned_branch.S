# A taken branch with offset 6 faults (isa:fault:misaligned_jump).
#include "conformance/isa/macros.h"
TEST_BEGIN
  .word 0x00000363   # beq x0, x0, .+6
  nop
  nop
TEST_END

