/* zkvm_accelerators.h: keccak256 and sha256 in software; the rest are not implemented yet and
 * return ZKVM_EFAIL without writing anything (the header says so). */
#include "zkvm_accelerators.h"

#include "hashes.h"

zkvm_status zkvm_keccak256(const uint8_t* data, size_t len, zkvm_bytes_32* output) {
  if (!output || (!data && len)) return ZKVM_EFAIL;
  zkrv_keccak_sponge(data, len, 0x01, output->data);
  return ZKVM_EOK;
}

zkvm_status zkvm_sha256(const uint8_t* data, size_t len, zkvm_bytes_32* output) {
  if (!output || (!data && len)) return ZKVM_EFAIL;
  zkrv_sha256(data, len, output->data);
  return ZKVM_EOK;
}

/* The stubs take the standard's parameters and use none of them. */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#define ZKVM_NOT_YET(decl) \
  zkvm_status decl { return ZKVM_EFAIL; }

ZKVM_NOT_YET(zkvm_ripemd160(const uint8_t* d, size_t l, zkvm_bytes_32* o))
ZKVM_NOT_YET(zkvm_blake2f(uint32_t r, zkvm_bytes_64* h, const zkvm_bytes_128* m, const uint64_t t[2], bool f))
ZKVM_NOT_YET(zkvm_secp256k1_verify(const zkvm_bytes_32* m, const zkvm_bytes_64* s, const zkvm_bytes_64* p, bool* v))
ZKVM_NOT_YET(zkvm_secp256k1_ecrecover(const zkvm_bytes_32* m, const zkvm_bytes_64* s, uint8_t r, zkvm_bytes_64* p))
ZKVM_NOT_YET(zkvm_secp256r1_verify(const zkvm_bytes_32* m, const zkvm_bytes_64* s, const zkvm_bytes_64* p, bool* v))
ZKVM_NOT_YET(zkvm_bn254_g1_add(const zkvm_bytes_64* p, const zkvm_bytes_64* q, zkvm_bytes_64* r))
ZKVM_NOT_YET(zkvm_bn254_g1_mul(const zkvm_bytes_64* p, const zkvm_bytes_32* s, zkvm_bytes_64* r))
ZKVM_NOT_YET(zkvm_bn254_pairing(const uint8_t* p, size_t n, bool* v))
ZKVM_NOT_YET(zkvm_bls12_g1_add(const zkvm_bytes_96* p, const zkvm_bytes_96* q, zkvm_bytes_96* r))
ZKVM_NOT_YET(zkvm_bls12_g1_msm(const uint8_t* p, size_t n, zkvm_bytes_96* r))
ZKVM_NOT_YET(zkvm_bls12_g2_add(const zkvm_bytes_192* p, const zkvm_bytes_192* q, zkvm_bytes_192* r))
ZKVM_NOT_YET(zkvm_bls12_g2_msm(const uint8_t* p, size_t n, zkvm_bytes_192* r))
ZKVM_NOT_YET(zkvm_bls12_pairing(const uint8_t* p, size_t n, bool* v))
ZKVM_NOT_YET(zkvm_bls12_map_fp_to_g1(const zkvm_bytes_48* f, zkvm_bytes_96* r))
ZKVM_NOT_YET(zkvm_bls12_map_fp2_to_g2(const zkvm_bytes_96* f, zkvm_bytes_192* r))
ZKVM_NOT_YET(zkvm_modexp(const uint8_t* b, size_t bl, const uint8_t* e, size_t el, const uint8_t* m, size_t ml, uint8_t* o))
ZKVM_NOT_YET(zkvm_kzg_point_evaluation(const zkvm_bytes_48* c, const zkvm_bytes_32* z, const zkvm_bytes_32* y,
                                       const zkvm_bytes_48* p, bool* v))
