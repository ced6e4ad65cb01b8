/* Greets the name given as private input; allocates through the chosen allocator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zkvm_io.h"

int main(void) {
  const uint8_t* in;
  size_t len;
  read_input(&in, &len);
  while (len > 0 && (in[len - 1] == '\n' || in[len - 1] == '\r')) --len;
  char* msg = malloc(len + 16);
  if (!msg) return 1;
  const int n = snprintf(msg, len + 16, "hello, %.*s\n", (int)len, (const char*)in);
  write_output((const uint8_t*)msg, (size_t)n);
  free(msg);
  return 0;
}
