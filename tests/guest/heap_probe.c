/* What a guest gets from the memory layout: allocates 1 MiB blocks until malloc returns NULL
 * (touching only the last byte of the last one, near the top of the address space), then prints
 * "heap N MiB, stack S KiB, top byte ok". */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "zkvm_io.h"

extern char _stack_bottom[], _stack_top[];
static char* const volatile stack_bottom_word = _stack_bottom;  /* 64-bit data words, as heap.h */
static char* const volatile stack_top_word = _stack_top;

int main(void) {
  size_t blocks = 0;
  volatile char* last = NULL;
  for (char* p; (p = malloc(1 << 20)) != NULL; ++blocks) last = p;
  int top_ok = 0;
  if (last) {
    last[(1 << 20) - 1] = 0x5a;
    top_ok = last[(1 << 20) - 1] == 0x5a;
  }
  char line[96];
  const int n = snprintf(line, sizeof line, "heap %zu MiB, stack %zu KiB, top byte %s\n", blocks,
                         (size_t)(stack_top_word - stack_bottom_word) / 1024, top_ok ? "ok" : "bad");
  write_output((const uint8_t*)line, (size_t)n);
  return 0;
}
