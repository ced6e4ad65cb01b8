# An all-zero word is not an instruction (isa:fault:illegal).
#include "conformance/isa/macros.h"
TEST_BEGIN
  nop
  .word 0
TEST_END

