/* zkrv guest runtime: start-up, input/output (stdout the public output, stderr the debug log,
 * stdin the private input), termination, host randomness and cost scopes. Follows the eth-act zkVM standards (shared/STANDARDS.md). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zkvm.h"
#include "zkvm_typed.h"
#include "syscall.h"

/* Linker-script symbols (guest/zkrv.ld). */
extern uint8_t _input_start[], _input_end[];

/* ---- private input: read once, whole, into the input region ---- */
static const uint8_t* input_buf;
static size_t input_size;
static int input_ready;

static void load_input(void) {
  if (input_ready) return;
  uint8_t* const start = _input_start;
  const size_t capacity = (size_t)(_input_end - _input_start);
  size_t got = 0;
  while (got < capacity) {
    long r = zkrv_syscall3(ZKRV_SYS_READ, 0, (long)(start + got), (long)(capacity - got));
    if (r <= 0) break;
    got += (size_t)r;
  }
  if (got == capacity) {  /* full: anything left is an input too large for this program */
    uint8_t probe;
    if (zkrv_syscall3(ZKRV_SYS_READ, 0, (long)&probe, 1) > 0) {
      static const char msg[] = "zkrv guest: the private input is larger than the input region (ZKRV_INPUT_SIZE)\n";
      write_log((const uint8_t*)msg, sizeof msg - 1);
      zkvm_exit(ZKVM_EXIT_INPUT_TOO_LARGE);
    }
  }
  input_buf = start;
  input_size = got;
  input_ready = 1;
}

void read_input(const uint8_t** buf, size_t* size) {
  load_input();
  *buf = input_buf;
  *size = input_size;
}

static void write_all(int fd, const uint8_t* p, size_t n) {
  while (n > 0) {
    long r = zkrv_syscall3(ZKRV_SYS_WRITE, fd, (long)p, (long)n);
    if (r <= 0) return;  /* fd 1 and 2 never fail on zkrv; under Linux give up quietly */
    p += r;
    n -= (size_t)r;
  }
}

/* ---- public output (fd 1): write_output, and stdout (printf, puts, std::cout) buffered ---- */
static char out_buf[256];
static size_t out_used;

static void out_flush(void) {
  write_all(1, (const uint8_t*)out_buf, out_used);
  out_used = 0;
}

void write_output(const uint8_t* out, size_t size) {
  out_flush();  /* what printf put before comes first */
  write_all(1, out, size);
}

static int out_putc(char c, FILE* f) {
  (void)f;
  out_buf[out_used++] = c;
  if (out_used == sizeof out_buf) out_flush();
  return (unsigned char)c;
}

static int out_flush_file(FILE* f) {
  (void)f;
  out_flush();
  return 0;
}

/* ---- debug log (fd 2): write_log, and stderr line-buffered ---- */
static char log_buf[256];
static size_t log_used;

static void log_flush(void) {
  write_all(2, (const uint8_t*)log_buf, log_used);
  log_used = 0;
}

void write_log(const uint8_t* out, size_t size) {
  log_flush();
  write_all(2, out, size);
}

static int log_putc(char c, FILE* f) {
  (void)f;
  log_buf[log_used++] = c;
  if (c == '\n' || log_used == sizeof log_buf) log_flush();
  return (unsigned char)c;
}

static int log_flush_file(FILE* f) {
  (void)f;
  log_flush();
  return 0;
}

/* stdin reads the private input, through the cursor that zkvm_typed.h and read(0, ...) share. */
static int in_getc(FILE* f) {
  (void)f;
  unsigned char c;
  return zkvm_read_raw(&c, 1) == 0 ? c : EOF;
}

/* As under Linux (and qemu-riscv64): stdout is the public output, stderr the debug log, stdin the
 * private input. */
static FILE zkrv_out_file = FDEV_SETUP_STREAM(out_putc, NULL, out_flush_file, _FDEV_SETUP_WRITE);
static FILE zkrv_log_file = FDEV_SETUP_STREAM(log_putc, NULL, log_flush_file, _FDEV_SETUP_WRITE);
static FILE zkrv_in_file = FDEV_SETUP_STREAM(NULL, in_getc, NULL, _FDEV_SETUP_READ);
FILE* const stdout = &zkrv_out_file;
FILE* const stderr = &zkrv_log_file;
FILE* const stdin = &zkrv_in_file;

/* ---- termination ---- */
void _exit(int code) {
  out_flush();
  log_flush();
  zkrv_syscall3(ZKRV_SYS_EXIT, code, 0, 0);
  for (;;) {
  }
}

void zkvm_exit(int code) {
  exit(code);
  __builtin_unreachable();
}

void abort(void) {
  static const char msg[] = "zkrv guest: abort()\n";
  write_log((const uint8_t*)msg, sizeof msg - 1);
  _exit(ZKVM_EXIT_ABORT);
  __builtin_unreachable();
}

void __assert_func(const char* file, int line, const char* func, const char* expr) {
  fprintf(stderr, "assertion \"%s\" failed: file \"%s\", line %d%s%s\n", expr, file, line, func ? ", function: " : "",
          func ? func : "");
  _exit(ZKVM_EXIT_ASSERT);
  __builtin_unreachable();
}

/* ---- host services ---- */
uint64_t zkvm_cycle_count(void) {
  long r = zkrv_syscall3(ZKRV_SYS_CYCLE_COUNT, 0, 0, 0);
  return r < 0 ? UINT64_MAX : (uint64_t)r; /* -ENOSYS off zkrv; a cycle is below 2^32 */
}

uint64_t zkvm_random_u64(void) {
  long r = zkrv_syscall3(ZKRV_SYS_RANDOM_U64, 0, 0, 0);
  if (r != -ZKRV_ENOSYS) return (uint64_t)r;
  /* Not on zkrv (qemu-riscv64): a software generator. Programs must not depend on the values. */
  static uint64_t state = 0x853c49e6748fea9bull;
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

void zkvm_cost_scope_start(uint8_t id) { zkrv_syscall3(ZKRV_SYS_COST_SCOPE_START, id, 0, 0); }
void zkvm_cost_scope_end(uint8_t id) { zkrv_syscall3(ZKRV_SYS_COST_SCOPE_END, id, 0, 0); }

/* ---- start-up ---- */
extern void __libc_init_array(void);
int main(void);

void __zkrv_start(void) __attribute__((noreturn));
void __zkrv_start(void) {
  __libc_init_array();   /* C++ constructors and other initialisers */
  exit(main());          /* runs atexit handlers, static destructors, then _exit */
}
