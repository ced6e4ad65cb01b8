/* Never-written memory reads 0: bss, heap and stack. Input: pairs "REGION OFFSET" (b = bss,
 * h = heap, s = stack, offsets in decimal); output: the byte at each place, one per line.
 * With no input it checks a fixed set and exits 1 on any non-zero byte. */
#include <stdint.h>
#include <stdio.h>

#include "zkvm_io.h"

extern char _heap_start[], _heap_end[], _stack_bottom[];
static char* const volatile heap_start_word = _heap_start;   /* 64-bit data words: see heap.h */
static char* const volatile heap_end_word = _heap_end;
static char* const volatile stack_bottom_word = _stack_bottom;
static uint8_t big_bss[1 << 16];

int main(void) {
  const uint8_t* in;
  size_t len;
  read_input(&in, &len);
  if (len == 0) {
    for (size_t k = 0; k < sizeof big_bss; k += 4093)
      if (big_bss[k]) return 1;
    for (char* p = heap_start_word; p < heap_end_word; p += 1 << 20)
      if (*p) return 1;
    if (*stack_bottom_word) return 1;
    write_output((const uint8_t*)"zero\n", 5);
    return 0;
  }
  for (size_t i = 0; i < len;) {
    const char region = (char)in[i++];
    while (i < len && in[i] == ' ') ++i;
    uint64_t off = 0;
    while (i < len && in[i] >= '0' && in[i] <= '9') off = off * 10 + (uint64_t)(in[i++] - '0');
    while (i < len && (in[i] == '\n' || in[i] == ' ')) ++i;
    const volatile uint8_t* p;
    if (region == 'b') p = big_bss + off % sizeof big_bss;
    else if (region == 'h') p = (const uint8_t*)heap_start_word + off % (uint64_t)(heap_end_word - heap_start_word);
    else p = (const uint8_t*)stack_bottom_word + off % 65536;  /* deep, never reached by main */
    char line[8];
    const int m = snprintf(line, sizeof line, "%u\n", (unsigned)*p);
    write_output((const uint8_t*)line, (size_t)m);
  }
  return 0;
}
