# Addresses at or above 2^32 fault (isa:mem:address_space).
#include "conformance/isa/macros.h"
TEST_BEGIN
  li t1, 0x100000000
  ld t0, 0(t1)
TEST_END

