#pragma once
/* Minimal zkrv guest API (freestanding). The standard SDK headers (zkvm_io.h,
 * zkvm_accelerators.h) build on these. Syscall numbers follow spec/isa.md. */
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

size_t zkrv_read(void* buf, size_t n);              /* private input (fd 0); returns bytes read */
void zkrv_write(int fd, const void* buf, size_t n); /* fd 1: public output, fd 2: debug log */
void zkrv_exit(int code) __attribute__((noreturn));
uint64_t zkrv_random_u64(void);
void zkrv_print(int fd, const char* s);
void zkrv_print_u64(int fd, uint64_t v);
uint64_t zkrv_parse_u64(const uint8_t* p, size_t n); /* leading decimal digits */

#ifdef __cplusplus
}
#endif
