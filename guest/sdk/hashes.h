/* Software hash cores behind zkvm_keccak256 / zkvm_sha256 (host-compilable for tests). */
#ifndef ZKRV_GUEST_HASHES_H
#define ZKRV_GUEST_HASHES_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
void zkrv_keccak_f1600(uint64_t state[25]);
/* Keccak sponge with rate 136 and 32-byte output; pad 0x01 = Keccak-256, 0x06 = SHA3-256. */
void zkrv_keccak_sponge(const uint8_t* data, size_t len, uint8_t pad, uint8_t out[32]);
void zkrv_sha256(const uint8_t* data, size_t len, uint8_t out[32]);
#ifdef __cplusplus
}
#endif
#endif
