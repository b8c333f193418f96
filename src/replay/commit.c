/* commit.c — seed commitments. The salted one: BLAKE2b-256 (libsodium's
 * generic hash, unkeyed) over the seed as 8 little-endian bytes followed by
 * the salt, so a server can publish the commitment before a match and a
 * judge can check it against the seed and salt the header reveals. The fair
 * (commit–reveal) seed: the server commits to a secret before the players
 * contribute theirs, and the seed is derived from all of them, so nobody
 * alone chooses it (FORMAT.md §12.1 gives the algorithm and vectors). */
#include <stdlib.h>

#include <sodium.h>

#include "arbiter/replay.h"

int arb_replay_commit(uint8_t out[ARB_REPLAY_COMMIT_BYTES], uint64_t seed, const uint8_t *salt,
                      size_t salt_len)
{
    if (sodium_init() < 0) return ARB_EINVAL;
    uint8_t le[8];
    for (int i = 0; i < 8; i++) le[i] = (uint8_t)(seed >> (8 * i));
    crypto_generichash_state st;
    if (crypto_generichash_init(&st, NULL, 0, ARB_REPLAY_COMMIT_BYTES)) return ARB_EINVAL;
    crypto_generichash_update(&st, le, sizeof le);
    if (salt_len) crypto_generichash_update(&st, salt, salt_len);
    crypto_generichash_final(&st, out, ARB_REPLAY_COMMIT_BYTES);
    return ARB_OK;
}

void arb_fair_commit(uint8_t out[ARB_REPLAY_COMMIT_BYTES], const uint8_t secret[ARB_FAIR_SECRET_BYTES])
{
    static const char dom[] = ARB_FAIR_SCHEME " commit";
    /* sodium_init picks the fastest BLAKE2b; the reference code runs
     * without it, so its failure changes nothing here (no abort) */
    int sodium_ok = sodium_init() >= 0;
    (void)sodium_ok;
    crypto_generichash_state st;
    crypto_generichash_init(&st, NULL, 0, ARB_REPLAY_COMMIT_BYTES);
    crypto_generichash_update(&st, (const unsigned char *)dom, sizeof dom - 1);
    crypto_generichash_update(&st, secret, ARB_FAIR_SECRET_BYTES);
    crypto_generichash_final(&st, out, ARB_REPLAY_COMMIT_BYTES);
}

uint64_t arb_fair_seed(const arb_fair *f)
{
    static const char dom[] = ARB_FAIR_SCHEME " seed";
    /* sodium_init picks the fastest BLAKE2b; the reference code runs
     * without it, so its failure changes nothing here (no abort) */
    int sodium_ok = sodium_init() >= 0;
    (void)sodium_ok;
    crypto_generichash_state st;
    uint8_t d[32], n = (uint8_t)f->n;
    crypto_generichash_init(&st, NULL, 0, sizeof d);
    crypto_generichash_update(&st, (const unsigned char *)dom, sizeof dom - 1);
    crypto_generichash_update(&st, f->secret, ARB_FAIR_SECRET_BYTES);
    crypto_generichash_update(&st, &n, 1);
    for (int i = 0; i < f->n && i < ARB_MAX_SEATS; i++) {
        crypto_generichash_update(&st, &f->len[i], 1);
        crypto_generichash_update(&st, f->contrib[i], f->len[i]);
    }
    crypto_generichash_final(&st, d, sizeof d);
    uint64_t seed = 0;
    for (int i = 7; i >= 0; i--) seed = seed << 8 | d[i];
    return seed;
}
