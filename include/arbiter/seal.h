/* arbiter/seal.h — the content hasher that a seal (signature) covers:
 * BLAKE2b-512 over the domain string "arbiter-tcgr-seal-v2", the 8 envelope
 * bytes and then every CONTENT byte of a version-2 replay (the decompressed
 * header and records, replays/FORMAT.md). The v2 writer runs one over what
 * it emits, the v2 reader over what it decodes; the seal block (owned by the
 * sealed-replays work, issue #15) signs the digest. */
#ifndef ARBITER_SEAL_H
#define ARBITER_SEAL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ARB_SEAL_DOMAIN "arbiter-tcgr-seal-v2"
#define ARB_SEAL_DIGEST 64

/* Wraps libsodium's crypto_generichash_state (384 bytes, 64-aligned). */
typedef struct { _Alignas(64) unsigned char opaque[384]; } arb_seal_hasher;

/* Start: hash the domain string, then the 8 envelope bytes. */
void arb_seal_hasher_init(arb_seal_hasher *h, const unsigned char envelope[8]);
void arb_seal_hasher_update(arb_seal_hasher *h, const void *p, size_t n);
void arb_seal_hasher_final(arb_seal_hasher *h, unsigned char digest[ARB_SEAL_DIGEST]);

#ifdef __cplusplus
}
#endif
#endif
