/* Big-integer modular exponentiation (up to 256-bit operands, 32-bit limbs, schoolbook multiply,
 * shift-subtract reduction). Input: "BASE EXP MOD" in hex; output: BASE^EXP mod MOD in hex. */
#include <stdint.h>
#include <string.h>

#include "zkvm_io.h"

#define LIMBS 8                  /* 256 bits */
typedef struct { uint32_t w[2 * LIMBS + 1]; } big;  /* little-endian limbs, room for products */

static int parse_hex(const uint8_t** p, const uint8_t* end, big* out) {
  memset(out, 0, sizeof *out);
  while (*p < end && (**p == ' ' || **p == '\n')) ++*p;
  int digits = 0;
  while (*p < end) {
    const uint8_t c = **p;
    int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (v < 0) break;
    for (int i = 2 * LIMBS; i > 0; --i) out->w[i] = (out->w[i] << 4) | (out->w[i - 1] >> 28);
    out->w[0] = (out->w[0] << 4) | (uint32_t)v;
    ++*p;
    ++digits;
  }
  return digits > 0 && digits <= LIMBS * 8;
}

static int bits(const big* a) {
  for (int i = 2 * LIMBS; i >= 0; --i)
    if (a->w[i]) return 32 * i + 32 - __builtin_clz(a->w[i]);
  return 0;
}
static int bit(const big* a, int k) { return (a->w[k / 32] >> (k % 32)) & 1; }

/* r = r mod m, by shift-subtract from the top bit. */
static void reduce(big* r, const big* m) {
  const int mb = bits(m);
  for (int shift = bits(r) - mb; shift >= 0; --shift) {
    /* compare r with m << shift and subtract if r >= m << shift */
    big t;
    memset(&t, 0, sizeof t);
    for (int i = 0; i <= 2 * LIMBS; ++i) {
      const int src = i - shift / 32;
      uint64_t v = 0;
      if (src >= 0 && src <= 2 * LIMBS) v = (uint64_t)m->w[src] << (shift % 32);
      if (src - 1 >= 0 && src - 1 <= 2 * LIMBS && shift % 32) v |= (uint64_t)m->w[src - 1] >> (32 - shift % 32);
      t.w[i] = (uint32_t)v;
    }
    int ge = 1;
    for (int i = 2 * LIMBS; i >= 0; --i)
      if (r->w[i] != t.w[i]) { ge = r->w[i] > t.w[i]; break; }
    if (ge) {
      uint64_t borrow = 0;
      for (int i = 0; i <= 2 * LIMBS; ++i) {
        const uint64_t d = (uint64_t)r->w[i] - t.w[i] - borrow;
        r->w[i] = (uint32_t)d;
        borrow = (d >> 63) & 1;
      }
    }
  }
}

static void mulmod(big* a, const big* b, const big* m) {
  big r;
  memset(&r, 0, sizeof r);
  for (int i = 0; i < LIMBS; ++i) {
    uint64_t carry = 0;
    for (int j = 0; j < LIMBS; ++j) {
      const uint64_t cur = (uint64_t)a->w[i] * b->w[j] + r.w[i + j] + carry;
      r.w[i + j] = (uint32_t)cur;
      carry = cur >> 32;
    }
    r.w[i + LIMBS] = (uint32_t)carry;
  }
  reduce(&r, m);
  *a = r;
}

int main(void) {
  const uint8_t* in;
  size_t len;
  read_input(&in, &len);
  const uint8_t* p = in;
  big base, e, m;
  if (!parse_hex(&p, in + len, &base) || !parse_hex(&p, in + len, &e) || !parse_hex(&p, in + len, &m)) return 2;
  if (bits(&m) == 0) return 3;
  big result;
  memset(&result, 0, sizeof result);
  result.w[0] = 1;
  reduce(&result, &m);
  reduce(&base, &m);
  for (int k = bits(&e) - 1; k >= 0; --k) {
    mulmod(&result, &result, &m);
    if (bit(&e, k)) mulmod(&result, &base, &m);
  }
  static const char digits[] = "0123456789abcdef";
  char out[LIMBS * 8 + 2];
  int n = 0, started = 0;
  for (int i = LIMBS * 8 - 1; i >= 0; --i) {
    const int d = (result.w[i / 8] >> (4 * (i % 8))) & 15;
    if (d || started || i == 0) { out[n++] = digits[d]; started = 1; }
  }
  out[n++] = '\n';
  write_output((const uint8_t*)out, (size_t)n);
  return 0;
}
