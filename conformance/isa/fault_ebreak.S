# EBREAK stops the guest (isa:fault:ebreak).
#include "conformance/isa/macros.h"
TEST_BEGIN
  ebreak
TEST_END

