/* Typed IO round trip in C (tests/guest/typed_io_test.cpp): reads a u32 a, a u64 b and a byte
 * string s; commits a + b (u64) and s reversed; then reads a u32 with zkvm_read_u32_or_exit and
 * commits it, and the bytes of input left (u64). Exit 3 when the first reads find the input too
 * short, 138 (ZKVM_EXIT_INPUT_TOO_SHORT) when the last one does. */
#include "zkvm_typed.h"

int main(void) {
  uint32_t a, len;
  uint64_t b;
  const uint8_t* s;
  if (zkvm_read_u32(&a) != 0 || zkvm_read_u64(&b) != 0 || zkvm_read_bytes(&s, &len) != 0) return 3;
  static uint8_t reversed[1 << 16];
  if (len > sizeof reversed) return 4;
  for (uint32_t i = 0; i < len; ++i) reversed[i] = s[len - 1 - i];
  zkvm_commit_u64((uint64_t)a + b);
  zkvm_commit_bytes(reversed, len);
  zkvm_commit_u32(zkvm_read_u32_or_exit());
  zkvm_commit_u64((uint64_t)zkvm_input_left());
  return 0;
}
