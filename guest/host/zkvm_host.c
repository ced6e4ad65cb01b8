/* Host stubs: the same guest source builds as a normal native program for debugging. The
 * private input is stdin, the public output stdout, the debug log stderr; randomness comes
 * from the OS; cost scopes do nothing. Accelerators use the same software code as the guest. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>

#include "zkvm.h"

static uint8_t* input_buf;
static size_t input_size;
static int input_ready;

void read_input(const uint8_t** buf, size_t* size) {
  if (!input_ready) {
    size_t cap = 1 << 16;
    input_buf = malloc(cap);
    size_t n;
    while (input_buf && (n = fread(input_buf + input_size, 1, cap - input_size, stdin)) > 0) {
      input_size += n;
      if (input_size == cap) input_buf = realloc(input_buf, cap *= 2);
    }
    if (!input_buf) {
      fputs("zkvm host: out of memory reading the input\n", stderr);
      exit(ZKVM_EXIT_OUT_OF_MEMORY);
    }
    input_ready = 1;
  }
  *buf = input_buf;
  *size = input_size;
}

void write_output(const uint8_t* out, size_t size) { fwrite(out, 1, size, stdout); }
void write_log(const uint8_t* out, size_t size) { fwrite(out, 1, size, stderr); }

uint64_t zkvm_random_u64(void) {
  uint64_t v = 0;
  if (getrandom(&v, sizeof v, 0) != (ssize_t)sizeof v) v = (uint64_t)rand();
  return v;
}

/* There is no cycle count natively: UINT64_MAX, as under qemu (zkvm.h). */
uint64_t zkvm_cycle_count(void) { return UINT64_MAX; }

void zkvm_cost_scope_start(uint8_t id) { (void)id; }
void zkvm_cost_scope_end(uint8_t id) { (void)id; }
void zkvm_exit(int code) { exit(code); }
