# A recursion that never returns (the profiler's deep-stack case): _start calls f, and f calls
# itself forever, one frame per cycle, until the cycle limit.
  .section .text.start, "ax"
  .globl _start
  .type _start, @function
_start:
  jal ra, f
  .size _start, . - _start

  .text
  .type f, @function
f:
  jal ra, f
  .size f, . - f
