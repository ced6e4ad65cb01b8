# Stores into read-only data fault (isa:mem:permissions).
#include "conformance/isa/macros.h"
TEST_BEGIN
  lla t1, ro
  sb zero, 0(t1)
TEST_END
  .section .rodata
ro: .dword 1
