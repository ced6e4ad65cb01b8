/* Quicksort over the input: whitespace-separated signed decimal integers. Output: the sorted
 * numbers, one per line. Uses malloc (the program's allocator) for the array. */
#include <stdio.h>
#include <stdlib.h>

#include "zkvm_io.h"

static void quicksort(long long* a, long lo, long hi) {
  while (lo < hi) {
    const long long pivot = a[lo + (hi - lo) / 2];
    long i = lo, j = hi;
    while (i <= j) {
      while (a[i] < pivot) ++i;
      while (a[j] > pivot) --j;
      if (i <= j) {
        const long long t = a[i];
        a[i++] = a[j];
        a[j--] = t;
      }
    }
    if (j - lo < hi - i) {  /* recurse into the smaller side: bounded stack */
      quicksort(a, lo, j);
      lo = i;
    } else {
      quicksort(a, i, hi);
      hi = j;
    }
  }
}

int main(void) {
  const uint8_t* in;
  size_t len;
  read_input(&in, &len);
  size_t cap = 16, n = 0;
  long long* a = malloc(cap * sizeof *a);
  if (!a) return 3;
  for (size_t i = 0; i < len;) {
    while (i < len && (in[i] == ' ' || in[i] == '\n' || in[i] == '\t' || in[i] == '\r')) ++i;
    if (i >= len) break;
    int neg = 0;
    if (in[i] == '-') { neg = 1; ++i; }
    long long v = 0;
    while (i < len && in[i] >= '0' && in[i] <= '9') v = v * 10 + (in[i++] - '0');
    if (n == cap) {
      cap *= 2;
      a = realloc(a, cap * sizeof *a);
      if (!a) return 3;
    }
    a[n++] = neg ? -v : v;
  }
  if (n > 0) quicksort(a, 0, (long)n - 1);
  for (size_t i = 0; i < n; ++i) {
    char line[32];
    const int m = snprintf(line, sizeof line, "%lld\n", a[i]);
    write_output((const uint8_t*)line, (size_t)m);
  }
  free(a);
  return 0;
}
