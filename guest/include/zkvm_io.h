/* Guest IO (eth-act zkVM standards): the private input and the public output.
 * C and C++ (C11 / C++11 and later). */
#ifndef ZKVM_IO_H
#define ZKVM_IO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The whole private input. Cannot fail, idempotent (every call returns the same buffer and
 * size), usable as soon as main starts; the buffer must be treated as read-only. */
void read_input(const uint8_t** buf, size_t* size);

/* Appends `size` bytes to the public output; calls concatenate. Cannot fail. */
void write_output(const uint8_t* out, size_t size);

/* Writes to the debug log (outside the proven statement); so does stderr. stdout (printf) is the
 * public output, after everything write_output wrote before. */
void write_log(const uint8_t* out, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* ZKVM_IO_H */
