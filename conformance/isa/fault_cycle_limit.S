# An infinite loop ends at the cycle limit (isa:fault:cycle_limit).
#include "conformance/isa/macros.h"
TEST_BEGIN
1: j 1b
TEST_END

