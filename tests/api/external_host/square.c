/* Reads a number n (decimal) from the private input and writes "n^2 = ..." as its public output. */
#include <stdint.h>
#include <stdio.h>

#include "zkvm_io.h"

int main(void) {
  const uint8_t* in;
  size_t len;
  read_input(&in, &len);
  uint64_t n = 0;
  for (size_t i = 0; i < len && in[i] >= '0' && in[i] <= '9'; ++i) n = n * 10 + (uint64_t)(in[i] - '0');
  char msg[64];
  const int k = snprintf(msg, sizeof msg, "%llu^2 = %llu\n", (unsigned long long)n, (unsigned long long)(n * n));
  write_output((const uint8_t*)msg, (size_t)k);
  return 0;
}
