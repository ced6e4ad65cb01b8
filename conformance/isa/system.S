# system: ecall services (isa:sys:*) and FENCE (isa:rv64i:fence). Run with system.input
# ("zkrv-input") as the private input. Exit 0 = pass, else the failing case number.
#include "conformance/isa/macros.h"
TEST_BEGIN
  CASE(1); li a0, 1; lla a1, hello; li a2, 6; li a7, 64; ecall; li t3, 6; CHECK_EQ(a0, t3)   # write(1) returns count
  CASE(2); li a0, 2; lla a1, logmsg; li a2, 4; li a7, 64; ecall; li t3, 4; CHECK_EQ(a0, t3)  # write(2): debug log
  CASE(3); li a0, 7; lla a1, hello; li a2, 6; li a7, 64; ecall; li t3, -9; CHECK_EQ(a0, t3)  # bad fd: -EBADF
  CASE(4); li a0, 1; lla a1, hello; li a2, 0; li a7, 64; ecall; CHECK_ZERO(a0)               # empty write
  CASE(5); li a0, 0; lla a1, buf; li a2, 64; li a7, 63; ecall; li t3, 10; CHECK_EQ(a0, t3)   # read(0): all 10 bytes
  CASE(6); lla t1, buf; ld t0, 0(t1); li t3, 0x706e692d76726b7a; CHECK_EQ(t0, t3)            # "zkrv-inp"
  CASE(7); lla t1, buf; lhu t0, 8(t1); li t3, 0x7475; CHECK_EQ(t0, t3)                       # "ut"
  CASE(8); lla t1, buf; lbu t0, 10(t1); CHECK_ZERO(t0)                                       # nothing past the input
  CASE(9); li a0, 0; lla a1, buf; li a2, 64; li a7, 63; ecall; CHECK_ZERO(a0)                # end of input: 0
  CASE(10); li a0, 3; lla a1, buf; li a2, 8; li a7, 63; ecall; li t3, -9; CHECK_EQ(a0, t3)   # read(3): -EBADF
  CASE(11); li a0, 0; li a7, 0x5A0FF; ecall; li t3, -38; CHECK_EQ(a0, t3)                    # unknown: -ENOSYS
  CASE(12); li a0, 0; li a7, 1000; ecall; li t3, -38; CHECK_EQ(a0, t3)
  CASE(13); li t0, 5; fence; fence rw, rw; li t3, 5; CHECK_EQ(t0, t3)                        # FENCE is a no-op
  CASE(14); li a0, 1; lla a1, hello; li a2, 6; li a7, 64; ecall; li t3, 6; CHECK_EQ(a0, t3)  # outputs concatenate
TEST_END
  .section .rodata
hello: .ascii "hello\n"
logmsg: .ascii "log\n"
  .bss
buf: .space 64
