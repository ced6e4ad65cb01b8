# FENCE.I (Zifencei) is not part of the target (isa:fault:illegal).
#include "conformance/isa/macros.h"
TEST_BEGIN
  .word 0x0000100f
TEST_END

