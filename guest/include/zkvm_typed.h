/* Typed private input and public output: values in one simple encoding, which the host writes
 * with zkvm::Writer (zkvm_typed.hpp) or `zkrv input`, and reads back with zkvm::Reader.
 *
 * Encoding: integers little-endian in their width; a byte string is its length (u32) and its
 * bytes; nothing else (no tags, no padding). Reads take the private input in order from its
 * start (read_input still gives the whole input). C and C++ (C11 / C++11 and later); the C++
 * header adds read<T>() and commit(x) for trivially copyable types, std::string and std::vector. */
#ifndef ZKVM_TYPED_H
#define ZKVM_TYPED_H

#include <stddef.h>
#include <stdint.h>

#include "zkvm.h"
#include "zkvm_io.h"

#ifdef __cplusplus
extern "C" {
#endif

/* zkvm_read_*_or_exit (and zkvm::read in C++) end the guest with ZKVM_EXIT_INPUT_TOO_SHORT
 * (138, zkvm.h) when the input ends too early. */

/* Each returns 0, or -1 when the input has too few bytes left (then nothing is consumed). */
int zkvm_read_raw(void* out, size_t n);                     /* the next n bytes, as they are */
int zkvm_read_u32(uint32_t* v);
int zkvm_read_u64(uint64_t* v);
int zkvm_read_bytes(const uint8_t** data, uint32_t* len);   /* a byte string: points into the input */
/* The same, ending the program with ZKVM_EXIT_INPUT_TOO_SHORT instead of returning -1. */
uint32_t zkvm_read_u32_or_exit(void);
uint64_t zkvm_read_u64_or_exit(void);
/* The bytes of the input not read yet. */
size_t zkvm_input_left(void);

/* Appends to the public output in the same encoding. */
void zkvm_commit_u32(uint32_t v);
void zkvm_commit_u64(uint64_t v);
void zkvm_commit_bytes(const void* data, uint32_t len);    /* its length (u32), then its bytes */

#ifdef __cplusplus
}
#endif

#endif /* ZKVM_TYPED_H */
