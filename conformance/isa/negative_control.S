# negative_control: a deliberately wrong expectation (1 + 2 == 4). Every executor must report
# it as failing with case 1; a harness that calls it a pass is broken.
#include "conformance/isa/macros.h"
TEST_BEGIN
  TEST_RR(1, add, 4, 1, 2)
TEST_END
