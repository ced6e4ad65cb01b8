# _start: set sp and gp, run constructors, call main, hand its result to exit(93).
# It never returns. Static init and destructors come with the full SDK.
  .section .text.start, "ax"
  .globl _start
  .type _start, @function
_start:
  .option push
  .option norelax
  lla gp, __global_pointer$
  .option pop
  lla sp, _stack_top
  call __zkrv_run_main        # runs constructors, main, destructors; returns main's result
  li a7, 93                   # exit(a0)
  ecall
1:
  j 1b                        # unreachable: exit never returns
  .size _start, . - _start
