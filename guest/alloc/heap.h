/* The heap region from the linker script, reached through 64-bit data words (absolute
 * relocations), never through `la`: the heap may lie beyond the code model's reach. */
#ifndef ZKRV_ALLOC_HEAP_H
#define ZKRV_ALLOC_HEAP_H
#include <stdint.h>
extern char _heap_start[], _heap_end[];
static char* const volatile zkrv_heap_start_word = _heap_start;
static char* const volatile zkrv_heap_end_word = _heap_end;
#endif
