/* sha256 chain: h0 = sha256("zkrv"), h(i+1) = sha256(h(i)); input: the number of links (decimal);
 * output: the last digest in hex. */
#include <string.h>

#include "guest/programs/common/hex.h"
#include "guest/programs/common/input_number.h"
#include "zkvm_accelerators.h"

int main(void) {
  const uint64_t n = input_number();
  zkvm_bytes_32 h;
  if (zkvm_sha256((const uint8_t*)"zkrv", 4, &h) != ZKVM_EOK) return 1;
  for (uint64_t i = 0; i < n; ++i) {
    zkvm_bytes_32 next;
    zkvm_sha256(h.data, 32, &next);
    h = next;
  }
  output_hex(h.data, 32);
  return 0;
}
