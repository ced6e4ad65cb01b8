/* zkrv guest API beyond the standard IO and accelerator headers: host randomness, cost
 * scopes, termination codes. C and C++ (C11 / C++11 and later). */
#ifndef ZKVM_H
#define ZKVM_H

#include <stddef.h>
#include <stdint.h>

#include "zkvm_io.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Exit codes of the failure paths (distinct, documented; main's own return value otherwise). */
#define ZKVM_EXIT_ABORT 134             /* abort() */
#define ZKVM_EXIT_ASSERT 135            /* a failed assert(): message on the debug log first */
#define ZKVM_EXIT_OUT_OF_MEMORY 136     /* operator new (or another must-not-fail allocation) failed */
#define ZKVM_EXIT_INPUT_TOO_LARGE 137   /* the private input does not fit the input region */
#define ZKVM_EXIT_INPUT_TOO_SHORT 138   /* typed input (zkvm_typed.h) ended before the value read */

/* Host randomness: a CSPRNG per run on the zkrv host (replayable with zkrv run --random-seed);
 * a software generator elsewhere. A standard guest's output and exit code must not depend on it. */
uint64_t zkvm_random_u64(void);

/* The cycles this run has completed before the call (the ecall's own cycle, counted from the start
 * of the run; spec/isa.md isa:sys:cycle_count), bound by the proof. UINT64_MAX where the call does
 * not exist (qemu-riscv64). The clock of <time.h> follows it (sdk/posix.c). */
uint64_t zkvm_cycle_count(void);

/* Cost scopes attribute cost to labelled steps; they nest and change neither behaviour nor cost. */
void zkvm_cost_scope_start(uint8_t id);
void zkvm_cost_scope_end(uint8_t id);

/* Ends the program with `code` (flushes the debug log first). */
void zkvm_exit(int code) __attribute__((noreturn));

#ifdef __cplusplus
}
#endif

#endif /* ZKVM_H */
