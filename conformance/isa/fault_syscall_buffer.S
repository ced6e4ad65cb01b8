# write() from an unmapped buffer faults (isa:sys:write).
#include "conformance/isa/macros.h"
TEST_BEGIN
  li a0, 1
  li a1, 16
  li a2, 8
  li a7, 64
  ecall
TEST_END

