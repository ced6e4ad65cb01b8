/* Small helpers shared by the example programs. */
#ifndef ZKRV_PROGRAMS_HEX_H
#define ZKRV_PROGRAMS_HEX_H
#include <stddef.h>
#include <stdint.h>
#include "zkvm_io.h"
static inline void output_hex(const uint8_t* p, size_t n) {
  static const char digits[] = "0123456789abcdef";
  char buf[2];
  for (size_t i = 0; i < n; ++i) {
    buf[0] = digits[p[i] >> 4];
    buf[1] = digits[p[i] & 15];
    write_output((const uint8_t*)buf, 2);
  }
  write_output((const uint8_t*)"\n", 1);
}
#endif
