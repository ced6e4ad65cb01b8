/* Typed input and output (zkvm_typed.h) over read_input and write_output: a cursor through the
 * private input. Built for the guest (libzkrv_guest.a) and, with the host stubs, natively. */
#include <string.h>

#include "zkvm.h"
#include "zkvm_typed.h"

static size_t cursor;

static const uint8_t* take(size_t n) {
  const uint8_t* in;
  size_t size;
  read_input(&in, &size);
  if (size - cursor < n) return NULL;
  const uint8_t* at = in + cursor;
  cursor += n;
  return at;
}

size_t zkvm_input_left(void) {
  const uint8_t* in;
  size_t size;
  read_input(&in, &size);
  return size - cursor;
}

int zkvm_read_raw(void* out, size_t n) {
  const uint8_t* at = take(n);
  if (!at) return -1;
  memcpy(out, at, n);
  return 0;
}

static uint64_t little_endian(const uint8_t* p, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = v << 8 | p[i];
  return v;
}

int zkvm_read_u32(uint32_t* v) {
  const uint8_t* at = take(4);
  if (!at) return -1;
  *v = (uint32_t)little_endian(at, 4);
  return 0;
}

int zkvm_read_u64(uint64_t* v) {
  const uint8_t* at = take(8);
  if (!at) return -1;
  *v = little_endian(at, 8);
  return 0;
}

int zkvm_read_bytes(const uint8_t** data, uint32_t* len) {
  const size_t start = cursor;
  uint32_t n;
  const uint8_t* at;
  if (zkvm_read_u32(&n) != 0 || (at = take(n)) == NULL) {
    cursor = start;
    return -1;
  }
  *data = at;
  *len = n;
  return 0;
}

uint32_t zkvm_read_u32_or_exit(void) {
  uint32_t v;
  if (zkvm_read_u32(&v) != 0) zkvm_exit(ZKVM_EXIT_INPUT_TOO_SHORT);
  return v;
}

uint64_t zkvm_read_u64_or_exit(void) {
  uint64_t v;
  if (zkvm_read_u64(&v) != 0) zkvm_exit(ZKVM_EXIT_INPUT_TOO_SHORT);
  return v;
}

static void put(uint64_t v, int bytes) {
  uint8_t b[8];
  for (int i = 0; i < bytes; ++i) b[i] = (uint8_t)(v >> (8 * i));
  write_output(b, (size_t)bytes);
}

void zkvm_commit_u32(uint32_t v) { put(v, 4); }
void zkvm_commit_u64(uint64_t v) { put(v, 8); }
void zkvm_commit_bytes(const void* data, uint32_t len) {
  put(len, 4);
  write_output((const uint8_t*)data, len);
}
