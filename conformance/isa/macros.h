/* Self-checking test macros for the ISA conformance programs (assembled with clang for
 * riscv64im). Each program runs its cases in order; the first mismatch exits with that case's
 * number (1..255), reaching the end exits 0. s11 holds the current case number. */
#pragma once

#define TEST_BEGIN        \
  .section .text.start, "ax"; \
  .globl _start;          \
  _start:

#define TEST_END          \
  li a0, 0;               \
  li a7, 93;              \
  ecall;                  \
  fail:                   \
  mv a0, s11;             \
  li a7, 93;              \
  ecall

#define CASE(n) li s11, n
/* Checks jump to `fail` through JAL (+-1 MiB) so that long programs stay in range. */
#define CHECK_EQ(a, b) beq a, b, 99f; j fail; 99:
#define CHECK_ZERO(a) beqz a, 99f; j fail; 99:
#define CHECK_NONZERO(a) bnez a, 99f; j fail; 99:

/* rd = op(rs1, rs2) with distinct registers. */
#define TEST_RR(n, op, exp, a, b) \
  CASE(n); li t1, a; li t2, b; op t0, t1, t2; li t3, exp; CHECK_EQ(t0, t3)
/* rd == rs1 */
#define TEST_RR_D1(n, op, exp, a, b) \
  CASE(n); li t1, a; li t2, b; op t1, t1, t2; li t3, exp; CHECK_EQ(t1, t3)
/* rd == rs2 */
#define TEST_RR_D2(n, op, exp, a, b) \
  CASE(n); li t1, a; li t2, b; op t2, t1, t2; li t3, exp; CHECK_EQ(t2, t3)
/* rs1 == rs2 */
#define TEST_RR_SAME(n, op, exp, a) \
  CASE(n); li t1, a; op t0, t1, t1; li t3, exp; CHECK_EQ(t0, t3)
/* rd == x0: the write must not stick */
#define TEST_RR_X0(n, op, a, b) \
  CASE(n); li t1, a; li t2, b; op x0, t1, t2; mv t0, x0; CHECK_ZERO(t0)
/* rd = op(rs1, imm) */
#define TEST_RI(n, op, exp, a, imm) \
  CASE(n); li t1, a; op t0, t1, imm; li t3, exp; CHECK_EQ(t0, t3)
#define TEST_RI_D1(n, op, exp, a, imm) \
  CASE(n); li t1, a; op t1, t1, imm; li t3, exp; CHECK_EQ(t1, t3)
/* branch: taken must be 1 or 0 */
#define TEST_BR(n, op, taken, a, b) \
  CASE(n); li t1, a; li t2, b; li t0, 0; op t1, t2, 1f; j 2f; 1: li t0, 1; 2: li t3, taken; CHECK_EQ(t0, t3)
/* load: rd = load(base + off), base is a label */
#define TEST_LD(n, op, exp, label, off) \
  CASE(n); lla t1, label; op t0, off(t1); li t3, exp; CHECK_EQ(t0, t3)
/* store then reload with ld/lw etc. and compare */
#define TEST_ST(n, st, ldop, val, label, off, exp) \
  CASE(n); lla t1, label; li t2, val; st t2, off(t1); ldop t0, off(t1); li t3, exp; CHECK_EQ(t0, t3)
