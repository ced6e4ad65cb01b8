# JALR to a 2-byte-aligned target faults (isa:fault:misaligned_jump).
#include "conformance/isa/macros.h"
TEST_BEGIN
  lla t0, 1f
  jalr x0, 2(t0)
1: nop
  nop
TEST_END

