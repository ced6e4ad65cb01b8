/* Keccak-f[1600] and Keccak-256 (Ethereum padding 0x01 ... 0x80, rate 136 bytes), in portable C.
 * Also compiled for the host, where tests check it against known answers and, through the
 * SHA3-256 padding, against OpenSSL's permutation. */
#include "hashes.h"

#include <string.h>

static const uint64_t keccak_rc[24] = {
    0x0000000000000001ull, 0x0000000000008082ull, 0x800000000000808aull, 0x8000000080008000ull,
    0x000000000000808bull, 0x0000000080000001ull, 0x8000000080008081ull, 0x8000000000008009ull,
    0x000000000000008aull, 0x0000000000000088ull, 0x0000000080008009ull, 0x000000008000000aull,
    0x000000008000808bull, 0x800000000000008bull, 0x8000000000008089ull, 0x8000000000008003ull,
    0x8000000000008002ull, 0x8000000000000080ull, 0x000000000000800aull, 0x800000008000000aull,
    0x8000000080008081ull, 0x8000000000008080ull, 0x0000000080000001ull, 0x8000000080008008ull};
static const unsigned keccak_rot[25] = {0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43,
                                        25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14};

static uint64_t rol(uint64_t v, unsigned s) { return s ? (v << s) | (v >> (64 - s)) : v; }

void zkrv_keccak_f1600(uint64_t a[25]) {
  for (int round = 0; round < 24; ++round) {
    uint64_t c[5], d[5], b[25];
    for (int x = 0; x < 5; ++x) c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];  /* theta */
    for (int x = 0; x < 5; ++x) d[x] = c[(x + 4) % 5] ^ rol(c[(x + 1) % 5], 1);
    for (int i = 0; i < 25; ++i) a[i] ^= d[i % 5];
    for (int x = 0; x < 5; ++x)                                                              /* rho, pi */
      for (int y = 0; y < 5; ++y) b[y + 5 * ((2 * x + 3 * y) % 5)] = rol(a[x + 5 * y], keccak_rot[x + 5 * y]);
    for (int x = 0; x < 5; ++x)                                                              /* chi */
      for (int y = 0; y < 5; ++y) a[x + 5 * y] = b[x + 5 * y] ^ (~b[(x + 1) % 5 + 5 * y] & b[(x + 2) % 5 + 5 * y]);
    a[0] ^= keccak_rc[round];                                                                /* iota */
  }
}

void zkrv_keccak_sponge(const uint8_t* data, size_t len, uint8_t pad, uint8_t out[32]) {
  enum { rate = 136 };
  uint64_t st[25];
  memset(st, 0, sizeof st);
  uint8_t block[rate];
  for (;;) {
    const size_t take = len < rate ? len : rate;
    memset(block, 0, rate);
    if (take) memcpy(block, data, take);
    if (take == rate) {
      for (int i = 0; i < rate / 8; ++i) {
        uint64_t w = 0;
        for (int k = 7; k >= 0; --k) w = (w << 8) | block[8 * i + k];
        st[i] ^= w;
      }
      zkrv_keccak_f1600(st);
      data += rate;
      len -= rate;
      continue;
    }
    block[take] ^= pad;          /* multi-rate padding: pad byte, zeros, final 0x80 */
    block[rate - 1] ^= 0x80;
    for (int i = 0; i < rate / 8; ++i) {
      uint64_t w = 0;
      for (int k = 7; k >= 0; --k) w = (w << 8) | block[8 * i + k];
      st[i] ^= w;
    }
    zkrv_keccak_f1600(st);
    break;
  }
  for (int i = 0; i < 32; ++i) out[i] = (uint8_t)(st[i / 8] >> (8 * (i % 8)));
}
