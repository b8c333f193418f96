/* arbiter/hash.h — canonical state hashing.
 *
 * A state hash is XXH3-64 (seed 0) over a byte string the engine builds
 * field by field in a documented order, every integer little-endian at its
 * declared width. Never raw struct bytes: padding and layout differ between
 * compilers. The hasher buffers locally and streams into XXH3 so that the
 * many small writes of a state walk cost almost nothing. It never
 * allocates and cannot fail: past one buffer the XXH3 state is kept inside
 * buf (hash.c), so a hasher is plain stack memory with nothing to free. */
#ifndef ARBITER_HASH_H
#define ARBITER_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ARB_HASH_NAME "xxh3-64-le-v1"
#define ARB_HASHER_BUF 8192

typedef struct arb_hasher {
    void *xxh;           /* non-NULL once streaming: the XXH3 state is then in buf */
    size_t len;
    uint8_t buf[ARB_HASHER_BUF];
} arb_hasher;

void arb_hasher_init(arb_hasher *h);
/* Raw bytes (the slow path streams across buffer spills). */
void arb_hasher__bytes_slow(arb_hasher *h, const void *p, size_t n);
/* Streams the buffer into XXH3 (internal; used by the inline writers). */
void arb_hasher__spill(arb_hasher *h);

/* Fixed-width little-endian writers, inline: a state walk makes hundreds of
 * these calls per hash. */
static inline void arb_hasher__le(arb_hasher *h, uint64_t v, int bytes)
{
    if (ARB_HASHER_BUF - h->len < (size_t)bytes) arb_hasher__spill(h);
    /* len through a local: a store into buf (uint8_t) may alias h->len,
     * which would make the compiler reload and store it per byte */
    size_t n = h->len;
    for (int i = 0; i < bytes; i++) h->buf[n + (size_t)i] = (uint8_t)(v >> (8 * i));
    h->len = n + (size_t)bytes;
}
static inline void arb_hasher_u8(arb_hasher *h, uint8_t v)
{
    if (h->len == ARB_HASHER_BUF) arb_hasher__spill(h);
    size_t n = h->len;
    h->buf[n] = v;
    h->len = n + 1;
}
/* Raw bytes. Inline (C99: hash.c holds the external definition). */
inline void arb_hasher_bytes(arb_hasher *h, const void *p, size_t n)
{
    if (n <= ARB_HASHER_BUF - h->len) {
        size_t k = h->len;
        /* a state walk writes many short arrays (a hand, a deck): 8 bytes
         * at a time, not a memcpy the compiler may inline as `rep movs`,
         * whose start-up costs more than such an array */
        const unsigned char *c = (const unsigned char *)p;
        unsigned char *d = h->buf + k;
        size_t i = 0;
        for (; i + 8 <= n; i += 8) {
            uint64_t w;
            memcpy(&w, c + i, 8);
            memcpy(d + i, &w, 8);
        }
        for (; i < n; i++) d[i] = c[i];
        h->len = k + n;
    } else {
        arb_hasher__bytes_slow(h, p, n);
    }
}
static inline void arb_hasher_u16(arb_hasher *h, uint16_t v) { arb_hasher__le(h, v, 2); }
/* n u16 values, each little-endian: the same bytes as n arb_hasher_u16
 * calls (one copy on a little-endian host). */
static inline void arb_hasher_u16s(arb_hasher *h, const uint16_t *v, size_t n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    arb_hasher_bytes(h, v, 2 * n);
#else
    for (size_t i = 0; i < n; i++) arb_hasher_u16(h, v[i]);
#endif
}
static inline void arb_hasher_u32(arb_hasher *h, uint32_t v) { arb_hasher__le(h, v, 4); }
static inline void arb_hasher_u64(arb_hasher *h, uint64_t v) { arb_hasher__le(h, v, 8); }
static inline void arb_hasher_i32(arb_hasher *h, int32_t v) { arb_hasher__le(h, (uint32_t)v, 4); }
static inline void arb_hasher_i64(arb_hasher *h, int64_t v) { arb_hasher__le(h, (uint64_t)v, 8); }
/* Length-prefixed (u32) string. */
void arb_hasher_str(arb_hasher *h, const char *s);
/* Final digest. The hasher must be re-inited before it is used again. */
uint64_t arb_hasher_final(arb_hasher *h);

/* One-shot XXH3-64 of a buffer. */
uint64_t arb_hash64(const void *p, size_t n);

#ifdef __cplusplus
}
#endif
#endif
