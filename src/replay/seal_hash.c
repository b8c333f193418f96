/* seal_hash.c — the content hasher of version-2 replays (arbiter/seal.h):
 * unkeyed BLAKE2b-512 (libsodium crypto_generichash) over the domain string,
 * the envelope and the decompressed content. */
#include <sodium.h>
#include <string.h>

#include "arbiter/seal.h"

_Static_assert(sizeof(crypto_generichash_state) <= sizeof(arb_seal_hasher), "arb_seal_hasher is too small");
_Static_assert(_Alignof(crypto_generichash_state) <= 64, "arb_seal_hasher is not aligned enough");

void arb_seal_hasher_init(arb_seal_hasher *h, const unsigned char envelope[8])
{
    crypto_generichash_state *st = (crypto_generichash_state *)(void *)h->opaque;
    /* sodium_init picks the fastest BLAKE2b; the reference code runs
     * without it, so its failure changes nothing here (no abort) */
    int sodium_ok = sodium_init() >= 0;
    (void)sodium_ok;
    crypto_generichash_init(st, NULL, 0, ARB_SEAL_DIGEST);
    crypto_generichash_update(st, (const unsigned char *)ARB_SEAL_DOMAIN, strlen(ARB_SEAL_DOMAIN));
    /* The body's coding (flag bit 2: range-coded, FORMAT.md Part D; byte 6:
     * its primer, §D.8) is not covered: the same content signs the same
     * whichever way it is coded. */
    unsigned char env[8];
    memcpy(env, envelope, 8);
    env[5] &= (unsigned char)~0x04u;
    env[6] = 0;
    crypto_generichash_update(st, env, 8);
}

void arb_seal_hasher_update(arb_seal_hasher *h, const void *p, size_t n)
{
    if (n) crypto_generichash_update((crypto_generichash_state *)(void *)h->opaque, p, n);
}

void arb_seal_hasher_final(arb_seal_hasher *h, unsigned char digest[ARB_SEAL_DIGEST])
{
    crypto_generichash_final((crypto_generichash_state *)(void *)h->opaque, digest, ARB_SEAL_DIGEST);
}
