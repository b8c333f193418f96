/* hash.c — the canonical hasher: little-endian field encodings into XXH3-64. */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "arbiter/hash.h"

void arb_hasher_init(arb_hasher *h)
{
    h->xxh = NULL;
    h->len = 0;
}

void arb_hasher__spill(arb_hasher *h)
{
    if (!h->xxh) {
        h->xxh = XXH3_createState();
        if (!h->xxh) abort(); /* a 576-byte allocation; nothing sane to do */
        XXH3_64bits_reset(h->xxh);
    }
    XXH3_64bits_update(h->xxh, h->buf, h->len);
    h->len = 0;
}

void arb_hasher__bytes_slow(arb_hasher *h, const void *p, size_t n)
{
    const unsigned char *c = p;
    while (n > 0) {
        if (h->len == ARB_HASHER_BUF) arb_hasher__spill(h);
        size_t k = ARB_HASHER_BUF - h->len;
        if (k > n) k = n;
        memcpy(h->buf + h->len, c, k);
        h->len += k; c += k; n -= k;
    }
}

extern inline void arb_hasher_bytes(arb_hasher *h, const void *p, size_t n);

void arb_hasher_str(arb_hasher *h, const char *s)
{
    size_t n = strlen(s);
    arb_hasher_u32(h, (uint32_t)n);
    arb_hasher_bytes(h, s, n);
}

uint64_t arb_hasher_final(arb_hasher *h)
{
    uint64_t d;
    if (!h->xxh) {
        d = XXH3_64bits(h->buf, h->len);
    } else {
        if (h->len) XXH3_64bits_update(h->xxh, h->buf, h->len);
        d = XXH3_64bits_digest(h->xxh);
        XXH3_freeState(h->xxh);
        h->xxh = NULL;
    }
    h->len = 0;
    return d;
}

uint64_t arb_hash64(const void *p, size_t n) { return XXH3_64bits(p, n); }
