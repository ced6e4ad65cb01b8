# Stores into the code segment fault (isa:mem:permissions).
#include "conformance/isa/macros.h"
TEST_BEGIN
  lla t1, _start
  sw zero, 0(t1)
TEST_END

