# Stores to the null page fault (isa:mem:null_page).
#include "conformance/isa/macros.h"
TEST_BEGIN
  sd t0, 0x7f8(zero)
TEST_END

