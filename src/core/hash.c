/* hash.c — the canonical hasher: little-endian field encodings into XXH3-64.
 *
 * Short inputs (one buffer, ARB_HASHER_BUF bytes) are hashed in one shot at
 * final. Past that the hasher streams, and the XXH3 state lives inside the
 * hasher itself: at the first spill the buffered bytes go through a state
 * on the stack, which is then kept at the (64-byte aligned) start of buf,
 * and buf's remaining ARB_HASHER_BUF - RESERVED bytes buffer the rest. No
 * allocation, nothing to fail, nothing to free; the layout of arb_hasher
 * (and so the inline writers compiled into plug-ins) is unchanged. */
#include <stdint.h>
#include <string.h>
#define XXH_STATIC_LINKING_ONLY /* XXH3_state_t's size, for a state in place */
#include <xxhash.h>

#include "arbiter/hash.h"

#define RESERVED 1024 /* bytes of buf the streaming state takes */

_Static_assert(sizeof(XXH3_state_t) + _Alignof(XXH3_state_t) - 1 <= RESERVED,
               "the XXH3 state must fit in the reserved start of arb_hasher.buf");
_Static_assert(RESERVED < ARB_HASHER_BUF, "the hasher keeps room to buffer while streaming");

/* The state's place in buf: the first 64-byte boundary in it. The address
 * only places the state; it never reaches the digest. */
static XXH3_state_t *state_of(arb_hasher *h)
{
    uintptr_t p = (uintptr_t)h->buf, a = _Alignof(XXH3_state_t);
    return (XXH3_state_t *)(void *)(h->buf + ((a - p % a) % a));
}

void arb_hasher_init(arb_hasher *h)
{
    h->xxh = NULL;
    h->len = 0;
}

void arb_hasher__spill(arb_hasher *h)
{
    if (!h->xxh) {
        XXH3_state_t tmp;
        XXH3_64bits_reset(&tmp);
        XXH3_64bits_update(&tmp, h->buf, h->len);
        memcpy(state_of(h), &tmp, sizeof tmp); /* no pointer into itself: a copy is the state */
        h->xxh = h->buf; /* a mark: streaming, the state is in buf */
    } else {
        XXH3_64bits_update(state_of(h), h->buf + RESERVED, h->len - RESERVED);
    }
    h->len = RESERVED;
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
        XXH3_state_t *s = state_of(h);
        if (h->len > RESERVED) XXH3_64bits_update(s, h->buf + RESERVED, h->len - RESERVED);
        d = XXH3_64bits_digest(s);
        h->xxh = NULL;
    }
    h->len = 0;
    return d;
}

uint64_t arb_hash64(const void *p, size_t n) { return XXH3_64bits(p, n); }
