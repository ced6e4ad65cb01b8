# Known call structure for the profiler tests: recursion (fact, depth 5), a call through a
# function pointer (leaf), and a tail call (tailer jumps to leaf without linking).
  .section .text.start, "ax"
  .globl _start
  .type _start, @function
_start:
  lla sp, _stack_top
  li a0, 5
  call fact
  lla t1, leaf
  jalr ra, 0(t1)
  call tailer
  li a0, 0
  li a7, 93
  ecall
  .size _start, . - _start

  .text
  .type fact, @function
fact:
  addi sp, sp, -16
  sd ra, 8(sp)
  addi a0, a0, -1
  beqz a0, 1f
  call fact
1:
  ld ra, 8(sp)
  addi sp, sp, 16
  ret
  .size fact, . - fact

  .type leaf, @function
leaf:
  addi t2, t2, 1
  addi t2, t2, 1
  ret
  .size leaf, . - leaf

  .type tailer, @function
tailer:
  addi t3, t3, 1
  j leaf
  .size tailer, . - tailer
