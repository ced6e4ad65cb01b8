/* memcpy, memmove, memset, memcmp, strlen and strcmp a word at a time. They override
 * picolibc's byte-at-a-time ones: libzkrv_guest.a comes before libc.a on the link line, and
 * lld takes the first archive that defines a symbol.
 *
 * Costs (cycles per byte over 4 KiB, guest/programs/bench_memops.c; the README's table):
 * the main loops move eight 8-byte words per iteration. A head and a tail that are not whole
 * aligned words are moved as one misaligned 8-byte access each (isa:mem:misaligned: one cycle,
 * like an aligned one) instead of byte by byte; where the two pointers differ in alignment,
 * the loads are misaligned and the stores aligned. memcmp reads only bytes inside its ranges.
 *
 * strlen and strcmp must not read past the end of a string into memory that may not exist:
 * they read aligned 8-byte words only, and only a word holding at least one byte that the
 * string is known to reach (the word after one with no zero byte), so every word they read lies
 * in the 8-aligned span of a readable byte. zkrv.ld ends every region on an 8-byte boundary,
 * so that span is readable too. strcmp over strings of different alignments reads b's aligned
 * words and shifts each pair together, reading the next only when the one before had no zero.
 *
 * Compiled without builtins, so that the compiler does not turn a loop here into a call to the
 * function it is in. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef uint64_t __attribute__((may_alias)) word;
typedef struct {
  unsigned char b[8];
} bytes8;

#define K1 0x0101010101010101ull
#define K8 0x8080808080808080ull

/* One 8-byte load or store at any alignment (plain C would split a misaligned one into bytes). */
static inline word ldu(const unsigned char* p) {
  word v;
  __asm__("ld %0, %1" : "=r"(v) : "m"(*(const bytes8*)p));
  return v;
}
static inline void sdu(unsigned char* p, word v) { __asm__("sd %1, %0" : "=m"(*(bytes8*)p) : "r"(v)); }
/* Eight of them from p, p + 8, ..., p + 56: one asm, so that the offsets are immediates. */
typedef struct {
  unsigned char b[64];
} bytes64;
#define LDU8(p, v)                                                                                             \
  __asm__("ld %0, 0(%8)\n\tld %1, 8(%8)\n\tld %2, 16(%8)\n\tld %3, 24(%8)\n\t"                                     \
          "ld %4, 32(%8)\n\tld %5, 40(%8)\n\tld %6, 48(%8)\n\tld %7, 56(%8)"                                         \
          : "=&r"(v[0]), "=&r"(v[1]), "=&r"(v[2]), "=&r"(v[3]), "=&r"(v[4]), "=&r"(v[5]), "=&r"(v[6]), "=&r"(v[7]) \
          : "r"(p), "m"(*(const bytes64*)(p)))

/* Whether v has a zero byte. (v - K1) & K8 flags every zero byte and also bytes above 0x80: a
 * quick test, exact for ASCII; & ~v then drops the false ones. */
static inline int zero_byte(word v) {
  const word t = (v - K1) & K8;
  return __builtin_expect(t != 0, 0) && (t & ~v) != 0;
}

/* Copies n >= 8 bytes upward: the first and last 8 bytes are loaded before anything is stored
 * and stored last, and each word is loaded before the word below it is stored, so that this is
 * also memmove's copy for d <= s. */
__attribute__((no_builtin)) static void copy_up(unsigned char* d, const unsigned char* s, size_t n) {
  const word head = ldu(s), tail = ldu(s + n - 8);
  unsigned char* const d0 = d;
  const size_t k = 8 - ((uintptr_t)d & 7); /* 1..8: the head covers these; d is aligned after */
  d += k;
  s += k;
  n -= k;
  unsigned char* const end = d + (n & ~(size_t)7); /* the tail covers the last n % 8 bytes */
  unsigned char* const end64 = d + (n & ~(size_t)63);
  if (((uintptr_t)s & 7) == 0) {
    for (; d != end64; d += 64, s += 64) {
      const word* w = (const word*)s;
      word* o = (word*)d;
      o[0] = w[0], o[1] = w[1], o[2] = w[2], o[3] = w[3], o[4] = w[4], o[5] = w[5], o[6] = w[6], o[7] = w[7];
    }
    for (; d != end; d += 8, s += 8) *(word*)d = *(const word*)s;
  } else {
    for (; d != end64; d += 64, s += 64) { /* all eight loaded first: also right for d <= s */
      word* o = (word*)d;
      word v[8];
      LDU8(s, v);
      o[0] = v[0], o[1] = v[1], o[2] = v[2], o[3] = v[3], o[4] = v[4], o[5] = v[5], o[6] = v[6], o[7] = v[7];
    }
    for (; d != end; d += 8, s += 8) *(word*)d = ldu(s);
  }
  sdu(d0, head);
  sdu(d0 + (n + k) - 8, tail);
}

/* The same downward, for memmove with d > s: each word is loaded before the word above it is
 * stored. */
__attribute__((no_builtin)) static void copy_down(unsigned char* d, const unsigned char* s, size_t n) {
  const word head = ldu(s), tail = ldu(s + n - 8);
  const size_t m = (uintptr_t)(d + n) & 7; /* the tail covers the top m bytes; d + t is aligned */
  size_t t = n - m;                         /* bytes [0, t) are left, t >= 1; the head covers [0, 8) */
  if (((uintptr_t)(s + t) & 7) == 0) {
    for (; t >= 64; t -= 64) {
      const word* w = (const word*)(s + t - 64);
      word* o = (word*)(d + t - 64);
      o[7] = w[7], o[6] = w[6], o[5] = w[5], o[4] = w[4], o[3] = w[3], o[2] = w[2], o[1] = w[1], o[0] = w[0];
    }
    for (; t >= 8; t -= 8) *(word*)(d + t - 8) = *(const word*)(s + t - 8);
  } else {
    for (; t >= 64; t -= 64) {
      word* o = (word*)(d + t - 64);
      word v[8];
      LDU8(s + t - 64, v);
      o[7] = v[7], o[6] = v[6], o[5] = v[5], o[4] = v[4], o[3] = v[3], o[2] = v[2], o[1] = v[1], o[0] = v[0];
    }
    for (; t >= 8; t -= 8) *(word*)(d + t - 8) = ldu(s + t - 8);
  }
  sdu(d + n - 8, tail);
  sdu(d, head);
}

__attribute__((no_builtin)) void* memcpy(void* restrict dst, const void* restrict src, size_t n) {
  unsigned char* d = dst;
  const unsigned char* s = src;
  if (n >= 8) {
    copy_up(d, s, n);
  } else {
    for (size_t i = 0; i < n; ++i) d[i] = s[i];
  }
  return dst;
}

__attribute__((no_builtin)) void* memmove(void* dst, const void* src, size_t n) {
  unsigned char* d = dst;
  const unsigned char* s = src;
  if (n >= 8) {
    if ((uintptr_t)d - (uintptr_t)s >= n) /* d below s, or above its end: upward is safe */
      copy_up(d, s, n);
    else
      copy_down(d, s, n);
  } else if (d < s) {
    for (size_t i = 0; i < n; ++i) d[i] = s[i];
  } else {
    for (size_t i = n; i > 0; --i) d[i - 1] = s[i - 1];
  }
  return dst;
}

__attribute__((no_builtin)) void* memset(void* dst, int c, size_t n) {
  unsigned char* d = dst;
  if (n < 8) {
    for (size_t i = 0; i < n; ++i) d[i] = (unsigned char)c;
    return dst;
  }
  const word v = (word)(unsigned char)c * K1;
  sdu(d, v);
  sdu(d + n - 8, v);
  unsigned char* p = (unsigned char*)(((uintptr_t)d + 8) & ~(uintptr_t)7);
  unsigned char* const end = (unsigned char*)((uintptr_t)(d + n) & ~(uintptr_t)7);
  unsigned char* const end64 = p + ((size_t)(end - p) & ~(size_t)63);
  for (; p != end64; p += 64) {
    word* o = (word*)p;
    o[0] = v, o[1] = v, o[2] = v, o[3] = v, o[4] = v, o[5] = v, o[6] = v, o[7] = v;
  }
  for (; p != end; p += 8) *(word*)p = v;
  return dst;
}

/* The difference of the first differing bytes of two different words (little-endian: the
 * lowest byte is the first). */
static int word_diff(word a, word b) {
  while (((a ^ b) & 0xff) == 0) a >>= 8, b >>= 8;
  return (int)(a & 0xff) - (int)(b & 0xff);
}

__attribute__((no_builtin)) int memcmp(const void* x, const void* y, size_t n) {
  const unsigned char* a = x;
  const unsigned char* b = y;
  if (n < 8) {
    for (size_t i = 0; i < n; ++i)
      if (a[i] != b[i]) return (int)a[i] - (int)b[i];
    return 0;
  }
  word wa = ldu(a), wb = ldu(b);
  if (wa != wb) return word_diff(wa, wb);
  const size_t k = 8 - ((uintptr_t)a & 7); /* a is aligned after the head */
  const unsigned char* const last = a + n - 8;
  const unsigned char* const b_last = b + n - 8;
  a += k;
  b += k;
  n -= k;
  const unsigned char* const end = a + (n & ~(size_t)7);
  const unsigned char* const end64 = a + (n & ~(size_t)63);
  for (; a != end64; a += 64, b += 64) {
    const word* w = (const word*)a;
    word v[8];
    LDU8(b, v);
    if (w[0] != v[0] || w[1] != v[1] || w[2] != v[2] || w[3] != v[3] || w[4] != v[4] || w[5] != v[5] || w[6] != v[6] ||
        w[7] != v[7])
      break; /* the word loop below finds it */
  }
  for (; a != end; a += 8, b += 8)
    if ((wa = *(const word*)a) != (wb = ldu(b))) return word_diff(wa, wb);
  wa = ldu(last), wb = ldu(b_last);
  return wa == wb ? 0 : word_diff(wa, wb);
}

__attribute__((no_builtin)) size_t strlen(const char* str) {
  const unsigned char* p = (const unsigned char*)str;
  for (; (uintptr_t)p & 7; ++p)
    if (*p == 0) return (size_t)(p - (const unsigned char*)str);
  const word* w = (const word*)p;
  for (;; w += 4) { /* each word is read only after the one before it held no zero byte */
    if (zero_byte(w[0])) break;
    if (zero_byte(w[1])) { w += 1; break; }
    if (zero_byte(w[2])) { w += 2; break; }
    if (zero_byte(w[3])) { w += 3; break; }
  }
  p = (const unsigned char*)w;
  while (*p) ++p;
  return (size_t)(p - (const unsigned char*)str);
}

__attribute__((no_builtin)) int strcmp(const char* x, const char* y) {
  const unsigned char* a = (const unsigned char*)x;
  const unsigned char* b = (const unsigned char*)y;
  if ((((uintptr_t)a ^ (uintptr_t)b) & 7) == 0) {
    for (; (uintptr_t)a & 7; ++a, ++b) {
      const int ca = *a, cb = *b;
      if (ca != cb || ca == 0) return ca - cb;
    }
    const word* wa = (const word*)a;
    const word* wb = (const word*)b;
    /* a word pair is read only after the pair before it was equal and held no zero byte */
    for (;; wa += 4, wb += 4) {
      if (wa[0] != wb[0] || zero_byte(wa[0])) break;
      if (wa[1] != wb[1] || zero_byte(wa[1])) { wa += 1, wb += 1; break; }
      if (wa[2] != wb[2] || zero_byte(wa[2])) { wa += 2, wb += 2; break; }
      if (wa[3] != wb[3] || zero_byte(wa[3])) { wa += 3, wb += 3; break; }
    }
    a = (const unsigned char*)wa;
    b = (const unsigned char*)wb;
  } else { /* a's aligned words against b's, each shifted together from two aligned words */
    for (; (uintptr_t)a & 7; ++a, ++b) {
      const int ca = *a, cb = *b;
      if (ca != cb || ca == 0) return ca - cb;
    }
    const unsigned r = (uintptr_t)b & 7; /* 1..7 */
    const word* wa = (const word*)a;
    const word* wb = (const word*)(b - r);
    const unsigned right = 8 * r, left = 64 - right;
    word w0 = wb[0];
    /* Invariant: the bytes of w0 from b's position on hold no zero, so b reaches wb[1]. */
    if (!zero_byte(w0 | (((word)1 << right) - 1))) {
      for (;; wa += 2, wb += 2) {
        const word w1 = wb[1];
        if (zero_byte(w1) || wa[0] != ((w0 >> right) | (w1 << left))) break;
        w0 = wb[2];
        if (zero_byte(w0) || wa[1] != ((w1 >> right) | (w0 << left))) {
          ++wa, ++wb;
          break;
        }
      }
    }
    a = (const unsigned char*)wa;
    b = (const unsigned char*)wb + r;
  }
  for (;;) {
    const int ca = *a++, cb = *b++;
    if (ca != cb) return ca - cb;
    if (ca == 0) return 0;
  }
}
