#pragma once
// The per-element bodies of the CUDA kernels, written once for host and device (ZKRV_HD). The
// kernels in *.cu are thin loops over them; tests/cuda/kernels_hd_test.cpp runs the same bodies
// on the CPU, emulating the grids, and compares with the CPU backend, so the index arithmetic is
// checked on machines without a GPU. No CUDA headers here.

#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "optimized/field/goldilocks.h"

#if defined(__CUDA_ARCH__)
#define ZKRV_UNROLL _Pragma("unroll")
#else
#define ZKRV_UNROLL
#endif

namespace zkrv::opt::cuda {

// ---------------------------------------------------------------------------------------------
// Keccak

ZKRV_HD uint64_t keccak_rotl(uint64_t v, unsigned s) { return s == 0 ? v : (v << s) | (v >> (64 - s)); }

ZKRV_HD void keccak_f1600(uint64_t a[25]) {
  constexpr uint64_t kRc[24] = {
      0x0000000000000001ull, 0x0000000000008082ull, 0x800000000000808aull, 0x8000000080008000ull,
      0x000000000000808bull, 0x0000000080000001ull, 0x8000000080008081ull, 0x8000000000008009ull,
      0x000000000000008aull, 0x0000000000000088ull, 0x0000000080008009ull, 0x000000008000000aull,
      0x000000008000808bull, 0x800000000000008bull, 0x8000000000008089ull, 0x8000000000008003ull,
      0x8000000000008002ull, 0x8000000000000080ull, 0x000000000000800aull, 0x800000008000000aull,
      0x8000000080008081ull, 0x8000000000008080ull, 0x0000000080000001ull, 0x8000000080008008ull};
  constexpr int kPi[24] = {10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4, 15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1};
  constexpr unsigned kRot[24] = {1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14, 27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44};
  for (int round = 0; round < 24; ++round) {
    uint64_t c[5];
ZKRV_UNROLL
    for (int x = 0; x < 5; ++x) c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
ZKRV_UNROLL
    for (int x = 0; x < 5; ++x) {
      const uint64_t d = c[(x + 4) % 5] ^ keccak_rotl(c[(x + 1) % 5], 1);
      for (int y = 0; y < 25; y += 5) a[y + x] ^= d;
    }
    uint64_t t = a[1];
ZKRV_UNROLL
    for (int i = 0; i < 24; ++i) {
      const uint64_t next = a[kPi[i]];
      a[kPi[i]] = keccak_rotl(t, kRot[i]);
      t = next;
    }
ZKRV_UNROLL
    for (int y = 0; y < 25; y += 5) {
      const uint64_t b0 = a[y], b1 = a[y + 1], b2 = a[y + 2], b3 = a[y + 3], b4 = a[y + 4];
      a[y] = b0 ^ (~b1 & b2);
      a[y + 1] = b1 ^ (~b2 & b3);
      a[y + 2] = b2 ^ (~b3 & b4);
      a[y + 3] = b3 ^ (~b4 & b0);
      a[y + 4] = b4 ^ (~b0 & b1);
    }
    a[0] ^= kRc[round];
  }
}

// Keccak-256 (protocol:hash:keccak256) of the message prefix || w(0) || ... || w(k-1): one
// prefix byte then k little-endian words (a Merkle leaf: prefix 0x00 and the row; a node: 0x01
// and the two digests as 4 words each). Word g of the byte stream is
// (w(g-1) >> 56) | (w(g) << 8), with the prefix in byte 0. out = the digest as 4 words.
template <typename Word>
ZKRV_HD void keccak256_prefixed(uint8_t prefix, size_t k, Word w, uint64_t out[4]) {
  constexpr size_t kLanes = 17;  // rate 136 bytes
  const size_t len = 1 + 8 * k, blocks = len / 136 + 1;
  uint64_t a[25];
  for (int i = 0; i < 25; ++i) a[i] = 0;
  for (size_t b = 0; b < blocks; ++b) {
    ZKRV_UNROLL
    for (size_t lane = 0; lane < kLanes; ++lane) {
      const size_t g = b * kLanes + lane;
      uint64_t v = 0;
      if (g == 0) v = prefix;
      else if (g <= k) v = w(g - 1) >> 56;
      if (g < k) v |= w(g) << 8;
      if (g == k) v ^= uint64_t{0x01} << 8;  // padding: 0x01 at byte len = 8k + 1
      if (g == blocks * kLanes - 1) v ^= uint64_t{0x80} << 56;
      a[lane] ^= v;
    }
    keccak_f1600(a);
  }
  for (int i = 0; i < 4; ++i) out[i] = a[i];
}

// ---------------------------------------------------------------------------------------------
// Grinding (Backend::grind; protocol:transcript:pow, optimized/hash/pow.h)

struct PowWords {
  const uint64_t* state;
  uint64_t nonce;
  ZKRV_HD uint64_t operator()(size_t i) const { return i < 4 ? state[i] : nonce; }
};
// The leading zero bits of H(0x03 ‖ state ‖ nonce), the state as its 4 little-endian words: the
// digest's bytes in order, each from its top bit.
ZKRV_HD unsigned pow_zero_bits(const uint64_t state[4], uint64_t nonce) {
  uint64_t d[4];
  keccak256_prefixed(0x03, 5, PowWords{state, nonce}, d);
  unsigned zeros = 0;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j) {
      const unsigned byte = static_cast<unsigned>(d[i] >> (8 * j)) & 0xff;
      if (byte == 0) {
        zeros += 8;
        continue;
      }
      for (unsigned bit = 0x80; (byte & bit) == 0; bit >>= 1) ++zeros;
      return zeros;
    }
  return zeros;
}
// The device searches windows of kGrindWindow nonces, one nonce a thread, each window's smallest
// hit kept (atomicMin), and stops after the first window with a hit: the smallest valid nonce,
// whatever order the threads ran in.
constexpr uint64_t kGrindWindow = uint64_t{1} << 22;
constexpr uint64_t kNoNonce = ~uint64_t{0};

// The host's loop over the windows [base, base + window): `search(base)` gives the window's
// smallest nonce with the work, or kNoNonce. Returns the first window's hit; throws once the
// next window would pass 2^64 − 1 (it never wraps). The CUDA backend runs it with kGrindWindow
// and a kernel launch; tests/cuda/kernels_hd_test.cpp with small windows, so that later windows
// and the end are reached.
template <class Search>
uint64_t grind_windows(uint64_t window, Search&& search) {
  if (window == 0) throw std::invalid_argument("grind: a window of no nonces");
  for (uint64_t base = 0;; base += window) {
    if (const uint64_t found = search(base); found != kNoNonce) return found;
    if (window - 1 > kNoNonce - window || base > kNoNonce - window - (window - 1))
      throw std::runtime_error("grind: no nonce has the work");
  }
}

// ---------------------------------------------------------------------------------------------
// Merkle levels (Backend::hash_leaves, Backend::hash_level; protocol:merkle:*)

// A slot of a leaf's message: `width` words for leaf q at values[width·q] (values already at the
// slot's offset).
struct LeafSlot {
  const uint64_t* values;
  size_t width;
};
// Word g of leaf q's message, the slots one after another. keccak256_prefixed asks for the words
// in non-decreasing order, so the walk over the slots only moves forward (a request below the
// current slot restarts it).
struct LeafWords {
  const LeafSlot* slots;
  size_t q;
  size_t s = 0, base = 0;
  ZKRV_HD uint64_t operator()(size_t g) {
    if (g < base) s = 0, base = 0;
    while (g >= base + slots[s].width) base += slots[s].width, ++s;
    return slots[s].values[slots[s].width * q + (g - base)];
  }
};
// protocol:merkle:leaf of leaf q: 0x00 and the slots' `words` words.
ZKRV_HD void hash_leaf(const LeafSlot* slots, size_t words, size_t q, uint64_t out[4]) {
  keccak256_prefixed(0x00, words, LeafWords{slots, q}, out);
}

struct NodeWords {
  const uint64_t* left;
  const uint64_t* right;
  ZKRV_HD uint64_t operator()(size_t i) const { return i < 4 ? left[i] : right[i - 4]; }
};
struct InjectWords {
  const uint64_t* node;
  const uint64_t* const* columns;
  size_t q;
  ZKRV_HD uint64_t operator()(size_t i) const { return i < 4 ? node[i] : columns[i - 4][q]; }
};
// protocol:merkle:node from the children's digests (4 words each); where `inject` columns enter
// at this height (protocol:merkle:mixed), then 0x02, that node and the columns' values at q.
ZKRV_HD void hash_node(const uint64_t* left, const uint64_t* right, const uint64_t* const* inject, size_t ninject,
                       size_t q, uint64_t out[4]) {
  uint64_t node[4];
  keccak256_prefixed(0x01, 8, NodeWords{left, right}, node);
  if (ninject == 0) {
    for (int i = 0; i < 4; ++i) out[i] = node[i];
    return;
  }
  keccak256_prefixed(0x02, 4 + ninject, InjectWords{node, inject, q}, out);
}

// ---------------------------------------------------------------------------------------------
// NTT passes: a transform of 2^log_n is split into passes of consecutive stages that run in
// shared memory. Pass (s0, s1) covers stages s0 <= t < s1; a block holds the 2^(s1-s0) x chunk
// elements index = hi 2^s1 + mid 2^s0 + lo_block chunk + lo (mid < 2^(s1-s0), lo < chunk).

struct NttPass {
  unsigned log_n, s0, s1, log_chunk;
};
constexpr unsigned kFirstPassStages = 12;  // 4096 elements, chunk 1
constexpr unsigned kLaterPassStages = 9;   // 512 x 8 elements
constexpr unsigned kMaxPasses = 4;         // enough for 2^30

// The passes in DIT order (ascending stages); DIF runs them in reverse, stages descending.
ZKRV_HD unsigned ntt_passes(unsigned log_n, NttPass out[kMaxPasses]) {
  unsigned count = 0;
  for (unsigned s0 = 0; s0 < log_n;) {
    const unsigned s1 = s0 + (s0 == 0 ? kFirstPassStages : kLaterPassStages) < log_n
                            ? s0 + (s0 == 0 ? kFirstPassStages : kLaterPassStages)
                            : log_n;
    const unsigned log_chunk = s0 == 0 ? 0 : (s0 < 3 ? s0 : 3);
    out[count++] = {log_n, s0, s1, log_chunk};
    s0 = s1;
  }
  return count;
}
ZKRV_HD size_t pass_elements(const NttPass& p) { return size_t{1} << (p.s1 - p.s0 + p.log_chunk); }
ZKRV_HD size_t pass_blocks(const NttPass& p) { return size_t{1} << (p.log_n - p.s1 + p.s0 - p.log_chunk); }
// Global index of element e (< pass_elements) of block b (< pass_blocks).
ZKRV_HD size_t pass_index(const NttPass& p, size_t b, size_t e) {
  const size_t lo_blocks_log = p.s0 - p.log_chunk;
  const size_t hi = b >> lo_blocks_log, lb = b & ((size_t{1} << lo_blocks_log) - 1);
  const size_t mid = e >> p.log_chunk, lo = e & ((size_t{1} << p.log_chunk) - 1);
  return (hi << p.s1) | (mid << p.s0) | (lb << p.log_chunk) | lo;
}
// Butterfly k (< pass_elements / 2) of stage t in block b: the two shared-memory slots and the
// twiddle index into the tree (entry 2^t + j).
struct Butterfly {
  size_t ea, eb, tw;
};
ZKRV_HD Butterfly pass_butterfly(const NttPass& p, unsigned t, size_t b, size_t k) {
  const size_t chunk_mask = (size_t{1} << p.log_chunk) - 1;
  const size_t lo_blocks_log = p.s0 - p.log_chunk;
  const size_t lb = b & ((size_t{1} << lo_blocks_log) - 1);
  const size_t q = k >> p.log_chunk, lo = k & chunk_mask;
  const unsigned hm_log = t - p.s0;
  const size_t jm = q & ((size_t{1} << hm_log) - 1), grp = q >> hm_log;
  const size_t mid_a = (grp << (hm_log + 1)) | jm, mid_b = mid_a | (size_t{1} << hm_log);
  const size_t j = (jm << p.s0) | (lb << p.log_chunk) | lo;
  return {(mid_a << p.log_chunk) | lo, (mid_b << p.log_chunk) | lo, (size_t{1} << t) + j};
}
ZKRV_HD void dit_butterfly(Fp* s, const Butterfly& bf, const Fp* tw) {
  const Fp x = s[bf.ea], y = s[bf.eb] * tw[bf.tw];
  s[bf.ea] = x + y;
  s[bf.eb] = x - y;
}
ZKRV_HD void dif_butterfly(Fp* s, const Butterfly& bf, const Fp* tw) {
  const Fp x = s[bf.ea], y = s[bf.eb];
  s[bf.ea] = x + y;
  s[bf.eb] = (x - y) * tw[bf.tw];
}

ZKRV_HD size_t reverse_bits(size_t x, unsigned bits) {
  size_t r = 0;
  for (unsigned i = 0; i < bits; ++i, x >>= 1) r = (r << 1) | (x & 1);
  return r;
}

// LDE middle step for position p of the bit-reversed coefficients (after the DIF inverse):
// coefficient rev(p) times shift^rev(p) / n, placed at p * blowup (zeros between).
ZKRV_HD Fp lde_scaled_coefficient(Fp c, size_t p, unsigned log_n, Fp shift, Fp n_inv) {
  return c * n_inv * shift.pow(reverse_bits(p, log_n));
}

// The LDE's first forward pass loads straight from the bit-reversed coefficients: element q of
// the spread array is coefficient q / blowup times its factor, or zero between them.
ZKRV_HD Fp lde_spread_value(const Fp* coeffs, const Fp* factors, size_t q, unsigned log_blowup) {
  if (q & ((size_t{1} << log_blowup) - 1)) return Fp();
  return coeffs[q >> log_blowup] * factors[q >> log_blowup];
}

// ---------------------------------------------------------------------------------------------
// FRI fold of output i: v_j = in[i + j m], x^-1 = shift^-1 ω^-i, zeta[t] = ζ^-t / a.
ZKRV_HD Fp3 fri_fold_one(const Fp3* in, size_t m, unsigned log_arity, size_t i, Fp x_inv, const Fp3& beta,
                         const Fp* zeta) {
  const size_t a = size_t{1} << log_arity;
  const Fp3 s = beta * x_inv;
  if (a == 2) {
    const Fp3 v0 = in[i], v1 = in[i + m];
    return (v0 + v1) * zeta[0] + s * ((v0 - v1) * zeta[0]);
  }
  Fp3 v[16];
  for (size_t j = 0; j < a; ++j) v[j] = in[i + j * m];
  Fp3 r;
  for (size_t k = a; k-- > 0;) {
    Fp3 g;
    for (size_t j = 0; j < a; ++j) g = g + v[j] * zeta[(j * k) & (a - 1)];
    r = (k == a - 1) ? g : r * s + g;
  }
  return r;
}

// The barycentric weight ω^i / (z - ω^i) for one row.
ZKRV_HD Fp3 ood_weight(Fp w, size_t i, const Fp3& z) {
  const Fp x = w.pow(i);
  return (z - Fp3{{x, Fp(), Fp()}}).inverse() * x;
}

}  // namespace zkrv::opt::cuda
