/* keccak256 chain (Ethereum Keccak-256): checks two known answers first (exit 2 if wrong), then
 * h0 = keccak256("zkrv"), h(i+1) = keccak256(h(i)); input: links; output: last digest in hex. */
#include <string.h>

#include "guest/programs/common/hex.h"
#include "guest/programs/common/input_number.h"
#include "zkvm_accelerators.h"

static const uint8_t kEmpty[32] = {0xc5, 0xd2, 0x46, 0x01, 0x86, 0xf7, 0x23, 0x3c, 0x92, 0x7e, 0x7d,
                                   0xb2, 0xdc, 0xc7, 0x03, 0xc0, 0xe5, 0x00, 0xb6, 0x53, 0xca, 0x82,
                                   0x27, 0x3b, 0x7b, 0xfa, 0xd8, 0x04, 0x5d, 0x85, 0xa4, 0x70};
static const uint8_t kAbc[32] = {0x4e, 0x03, 0x65, 0x7a, 0xea, 0x45, 0xa9, 0x4f, 0xc7, 0xd4, 0x7b,
                                 0xa8, 0x26, 0xc8, 0xd6, 0x67, 0xc0, 0xd1, 0xe6, 0xe3, 0x3a, 0x64,
                                 0xa0, 0x36, 0xec, 0x44, 0xf5, 0x8f, 0xa1, 0x2d, 0x6c, 0x45};

int main(void) {
  zkvm_bytes_32 h;
  zkvm_keccak256((const uint8_t*)"", 0, &h);
  if (memcmp(h.data, kEmpty, 32) != 0) return 2;
  zkvm_keccak256((const uint8_t*)"abc", 3, &h);
  if (memcmp(h.data, kAbc, 32) != 0) return 2;
  const uint64_t n = input_number();
  zkvm_keccak256((const uint8_t*)"zkrv", 4, &h);
  for (uint64_t i = 0; i < n; ++i) {
    zkvm_bytes_32 next;
    zkvm_keccak256(h.data, 32, &next);
    h = next;
  }
  output_hex(h.data, 32);
  return 0;
}
