// Recurses until the stack runs out: zkrv reports a stack overflow, naming the stack's size and
// STACK_SIZE, instead of a bare store fault far below it (tests/tools/cli_test.cpp).
#include <stdint.h>

static uint64_t descend(uint64_t depth) {
  volatile uint8_t frame[256];
  if (depth == UINT64_MAX) return 0;  // never: the stack runs out long before
  frame[depth % sizeof frame] = (uint8_t)depth;
  return descend(depth + 1) + frame[(depth * 7) % sizeof frame];
}

int main(void) { return (int)descend(0); }
