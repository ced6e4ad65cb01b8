# The guard below the stack faults (isa:mem:stack_guard).
#include "conformance/isa/macros.h"
TEST_BEGIN
  lla t1, _stack_bottom
  sd zero, -8(t1)
TEST_END

