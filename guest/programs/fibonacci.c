/* Reads n (decimal) from the private input and publishes "fib(n) = F" where F = F(n) mod 2^64. */
#include "guest/include/zkrv_guest.h"

int main(void) {
  uint8_t buf[32];
  size_t len = zkrv_read(buf, sizeof buf);
  uint64_t n = zkrv_parse_u64(buf, len);
  uint64_t a = 0, b = 1;
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t t = a + b;
    a = b;
    b = t;
  }
  zkrv_print(1, "fib(");
  zkrv_print_u64(1, n);
  zkrv_print(1, ") = ");
  zkrv_print_u64(1, a);
  zkrv_print(1, "\n");
  return 0;
}
