/* Reads n (decimal) from the private input and publishes "fib(n) = F\n", F = F(n) mod 2^64. */
#include <stdio.h>
#include <stdlib.h>

#include "zkvm_io.h"

int main(void) {
  const uint8_t* in;
  size_t len;
  read_input(&in, &len);
  char digits[32] = {0};
  for (size_t i = 0; i < len && i < sizeof digits - 1; ++i) digits[i] = (char)in[i];
  const unsigned long long n = strtoull(digits, NULL, 10);
  unsigned long long a = 0, b = 1;
  for (unsigned long long i = 0; i < n; ++i) {
    const unsigned long long t = a + b;
    a = b;
    b = t;
  }
  char out[64];
  const int m = snprintf(out, sizeof out, "fib(%llu) = %llu\n", n, a);
  write_output((const uint8_t*)out, (size_t)m);
  return 0;
}
