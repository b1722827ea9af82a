/*
 * SHA-256 (FIPS 180-4), for the logs' provenance: the digest of each
 * model's JSON text as it was read (file or built-in bytes).
 */
#ifndef VQHIP_BASE_SHA256_H
#define VQHIP_BASE_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct VqSha256 {
    uint32_t h[8];
    uint64_t n_bytes;   /* message length so far */
    uint8_t block[64];  /* bytes not yet compressed: n_bytes % 64 of them */
} VqSha256;

void vq_sha256_init(VqSha256 *s);
void vq_sha256_update(VqSha256 *s, const void *data, size_t len);
/* Writes the 32-byte digest; s must be initialized again to reuse it. */
void vq_sha256_final(VqSha256 *s, uint8_t digest[32]);
/* The digest of data as 64 lowercase hex digits and a terminator. */
void vq_sha256_hex(const void *data, size_t len, char hex[65]);

#endif
