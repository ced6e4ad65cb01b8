/* Shared by the benchmark workloads: the private input is one decimal number. */
#ifndef ZKRV_PROGRAMS_INPUT_NUMBER_H
#define ZKRV_PROGRAMS_INPUT_NUMBER_H
#include <stdint.h>
#include "zkvm_io.h"
static inline uint64_t input_number(void) {
  const uint8_t* in;
  size_t len;
  read_input(&in, &len);
  uint64_t v = 0;
  for (size_t i = 0; i < len && in[i] >= '0' && in[i] <= '9'; ++i) v = v * 10 + (uint64_t)(in[i] - '0');
  return v;
}
#endif
