# CSR instructions are not part of the target (isa:fault:illegal).
#include "conformance/isa/macros.h"
TEST_BEGIN
  csrr t0, mcycle
TEST_END

