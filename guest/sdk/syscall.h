/* The zkrv syscall ABI (spec/isa.md section 7): number in a7, arguments in a0..a2, result in a0. */
#ifndef ZKRV_GUEST_SYSCALL_H
#define ZKRV_GUEST_SYSCALL_H

#define ZKRV_SYS_READ 63
#define ZKRV_SYS_WRITE 64
#define ZKRV_SYS_EXIT 93
#define ZKRV_SYS_RANDOM_U64 0x5A000
#define ZKRV_SYS_COST_SCOPE_START 0x5A001
#define ZKRV_SYS_COST_SCOPE_END 0x5A002
#define ZKRV_SYS_CYCLE_COUNT 0x5A003
#define ZKRV_ENOSYS 38

static inline long zkrv_syscall3(long n, long a0, long a1, long a2) {
  register long r_a0 __asm__("a0") = a0;
  register long r_a1 __asm__("a1") = a1;
  register long r_a2 __asm__("a2") = a2;
  register long r_a7 __asm__("a7") = n;
  __asm__ volatile("ecall" : "+r"(r_a0) : "r"(r_a1), "r"(r_a2), "r"(r_a7) : "memory");
  return r_a0;
}

#endif
