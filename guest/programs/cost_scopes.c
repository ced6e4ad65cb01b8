/* Cost scopes: nested zkvm_cost_scope_start/end around two phases (hash, then sort). They must
 * change neither the output nor the cycle count's meaning. Output: a digest of the work. */
#include <string.h>

#include "guest/programs/common/hex.h"
#include "zkvm.h"
#include "zkvm_accelerators.h"

int main(void) {
  uint8_t buf[256];
  zkvm_cost_scope_start(1);          /* phase 1: hashing */
  for (int i = 0; i < 256; ++i) buf[i] = (uint8_t)(i * 7);
  zkvm_bytes_32 h;
  zkvm_cost_scope_start(2);          /* nested: the hash itself */
  zkvm_sha256(buf, sizeof buf, &h);
  zkvm_cost_scope_end(2);
  zkvm_cost_scope_end(1);
  zkvm_cost_scope_start(3);          /* phase 2: insertion sort of the digest bytes */
  for (int i = 1; i < 32; ++i)
    for (int j = i; j > 0 && h.data[j - 1] > h.data[j]; --j) {
      const uint8_t t = h.data[j];
      h.data[j] = h.data[j - 1];
      h.data[j - 1] = t;
    }
  zkvm_cost_scope_end(3);
  output_hex(h.data, 32);
  return 0;
}
