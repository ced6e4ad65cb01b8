# Loads from the null page fault (isa:mem:null_page).
#include "conformance/isa/macros.h"
TEST_BEGIN
  ld t0, 8(zero)
TEST_END

