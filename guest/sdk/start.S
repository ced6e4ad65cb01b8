# _start: set gp, sp and tp, then __zkrv_start (input, constructors, main, destructors, exit).
# It never returns.
  .section .text.start, "ax"
  .globl _start
  .type _start, @function
_start:
  .option push
  .option norelax
  lla gp, __global_pointer$
  .option pop
  lla sp, _stack_top
  lla tp, __tls_base          # single thread: TLS (picolibc's errno) lives in the data segment
  call __zkrv_start
1:
  j 1b                        # unreachable: __zkrv_start exits
  .size _start, . - _start
