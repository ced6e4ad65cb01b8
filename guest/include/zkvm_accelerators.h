/* zkVM accelerators (eth-act zkVM standards), zkrv edition. Every function returns a
 * zkvm_status; checks report through `bool* verified`. C and C++ (C11 / C++11 and later).
 *
 * Implemented today (in software, inside libzkrv_guest.a; precompiles come later):
 *   zkvm_keccak256, zkvm_sha256.
 * Not implemented yet: every other function returns ZKVM_EFAIL and writes nothing. */
#ifndef ZKVM_ACCELERATORS_H
#define ZKVM_ACCELERATORS_H

#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef int32_t zkvm_status;
#define ZKVM_EOK ((zkvm_status)0)
#define ZKVM_EFAIL ((zkvm_status)-1)

#if defined(__cplusplus) && __cplusplus >= 201103L
#define ZKVM_ALIGN8 alignas(8)
#else
#define ZKVM_ALIGN8 _Alignas(8)
#endif

typedef struct { ZKVM_ALIGN8 uint8_t data[20]; } zkvm_bytes_20;
typedef struct { ZKVM_ALIGN8 uint8_t data[32]; } zkvm_bytes_32;
typedef struct { ZKVM_ALIGN8 uint8_t data[48]; } zkvm_bytes_48;
typedef struct { ZKVM_ALIGN8 uint8_t data[64]; } zkvm_bytes_64;
typedef struct { ZKVM_ALIGN8 uint8_t data[96]; } zkvm_bytes_96;
typedef struct { ZKVM_ALIGN8 uint8_t data[128]; } zkvm_bytes_128;
typedef struct { ZKVM_ALIGN8 uint8_t data[192]; } zkvm_bytes_192;

/* Hashes (implemented: keccak256 with Ethereum padding, sha256). */
zkvm_status zkvm_keccak256(const uint8_t* data, size_t len, zkvm_bytes_32* output);
zkvm_status zkvm_sha256(const uint8_t* data, size_t len, zkvm_bytes_32* output);
zkvm_status zkvm_ripemd160(const uint8_t* data, size_t len, zkvm_bytes_32* output);          /* EFAIL */
zkvm_status zkvm_blake2f(uint32_t rounds, zkvm_bytes_64* h, const zkvm_bytes_128* m,
                         const uint64_t t[2], bool final_block);                              /* EFAIL */

/* ECDSA (not implemented: EFAIL). */
zkvm_status zkvm_secp256k1_verify(const zkvm_bytes_32* msg, const zkvm_bytes_64* sig,
                                  const zkvm_bytes_64* pubkey, bool* verified);
zkvm_status zkvm_secp256k1_ecrecover(const zkvm_bytes_32* msg, const zkvm_bytes_64* sig,
                                     uint8_t recid, zkvm_bytes_64* pubkey);
zkvm_status zkvm_secp256r1_verify(const zkvm_bytes_32* msg, const zkvm_bytes_64* sig,
                                  const zkvm_bytes_64* pubkey, bool* verified);

/* BN254 (not implemented: EFAIL). */
zkvm_status zkvm_bn254_g1_add(const zkvm_bytes_64* p, const zkvm_bytes_64* q, zkvm_bytes_64* result);
zkvm_status zkvm_bn254_g1_mul(const zkvm_bytes_64* p, const zkvm_bytes_32* scalar, zkvm_bytes_64* result);
zkvm_status zkvm_bn254_pairing(const uint8_t* pairs, size_t num_pairs, bool* verified);

/* BLS12-381 (not implemented: EFAIL). */
zkvm_status zkvm_bls12_g1_add(const zkvm_bytes_96* p, const zkvm_bytes_96* q, zkvm_bytes_96* result);
zkvm_status zkvm_bls12_g1_msm(const uint8_t* pairs, size_t num_pairs, zkvm_bytes_96* result);
zkvm_status zkvm_bls12_g2_add(const zkvm_bytes_192* p, const zkvm_bytes_192* q, zkvm_bytes_192* result);
zkvm_status zkvm_bls12_g2_msm(const uint8_t* pairs, size_t num_pairs, zkvm_bytes_192* result);
zkvm_status zkvm_bls12_pairing(const uint8_t* pairs, size_t num_pairs, bool* verified);
zkvm_status zkvm_bls12_map_fp_to_g1(const zkvm_bytes_48* fp, zkvm_bytes_96* result);
zkvm_status zkvm_bls12_map_fp2_to_g2(const zkvm_bytes_96* fp2, zkvm_bytes_192* result);

/* modexp and KZG (not implemented: EFAIL). */
zkvm_status zkvm_modexp(const uint8_t* base, size_t base_len, const uint8_t* exp, size_t exp_len,
                        const uint8_t* mod, size_t mod_len, uint8_t* output);
zkvm_status zkvm_kzg_point_evaluation(const zkvm_bytes_48* commitment, const zkvm_bytes_32* z,
                                      const zkvm_bytes_32* y, const zkvm_bytes_48* proof, bool* verified);

#ifdef __cplusplus
}
#endif

#endif /* ZKVM_ACCELERATORS_H */
