# Executing data faults (isa:fault:fetch).
#include "conformance/isa/macros.h"
TEST_BEGIN
  lla t1, d
  jr t1
TEST_END
  .data
  .balign 4
d: .word 0x00000013
