/* mpack.h — the small MessagePack encoder and bounded decoder the replay
 * layer uses instead of msgpack-c: a .tcgr file uses only nil, booleans,
 * integers, strings, binaries, arrays and maps, and a hand-written decoder
 * can check every claimed count against the bytes actually present before
 * anything is allocated (msgpack-c reserves memory for the claimed count). */
#ifndef ARBITER_REPLAY_MPACK_H
#define ARBITER_REPLAY_MPACK_H

#include <stddef.h>
#include <stdint.h>

#include "arbiter/replay.h"
#include "arbiter/tree.h"

/* ---- encoder: an append buffer that grows; failed sticks on ENOMEM. */
typedef struct arb_mpbuf {
    uint8_t *p;
    size_t n, cap;
    int failed;
} arb_mpbuf;

void arb_replay__mp_free(arb_mpbuf *b);
int arb_replay__mp_reserve(arb_mpbuf *b, size_t extra);
void arb_replay__mp_uint(arb_mpbuf *b, uint64_t v);
void arb_replay__mp_int(arb_mpbuf *b, int64_t v);
void arb_replay__mp_str(arb_mpbuf *b, const char *s, size_t n);
void arb_replay__mp_cstr(arb_mpbuf *b, const char *s);
void arb_replay__mp_bin(arb_mpbuf *b, const void *p, size_t n);
void arb_replay__mp_array(arb_mpbuf *b, uint32_t n);
void arb_replay__mp_map(arb_mpbuf *b, uint32_t n);
void arb_replay__mp_nil(arb_mpbuf *b);
void arb_replay__mp_bool(arb_mpbuf *b, int v);
/* A state tree node (positions) as MessagePack. */
void arb_replay__mp_tree(arb_mpbuf *b, const arb_tnode *n);

/* ---- decoder results. */
enum {
    ARB_MP_OK = 0,
    ARB_MP_MORE = 1,    /* the object continues past the bytes given */
    ARB_MP_BAD = 2,     /* malformed (reserved byte 0xc1, wrong type) */
    ARB_MP_LIMIT = 3    /* a count, length, depth or node bound is exceeded */
};

/* Size of the object at p[0..n) without building anything; checks depth,
 * counts, string lengths and the node total against lim. *what names the
 * bound broken on ARB_MP_LIMIT / the problem on ARB_MP_BAD. */
int arb_replay__mp_measure(const uint8_t *p, size_t n, const arb_replay_limits *lim,
                           size_t *size, const char **what);

/* One value of a complete, measured object into tree t under parent.
 * Advances *p. Binary becomes a lowercase hex string; floats and
 * extension types become null. Returns ARB_MP_OK or ARB_MP_BAD. */
int arb_replay__mp_to_tree(const uint8_t **p, const uint8_t *end, arb_tree *t,
                           arb_tnode *parent, const char *key, unsigned depth);

/* Scalar readers over p[0..end), inline because the verifier's hot loop is
 * made of them: ARB_MP_MORE when the bytes run out, ARB_MP_BAD when the
 * value is not of the kind asked for. */
static inline uint64_t arb_mp__be(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++) v = v << 8 | p[i];
    return v;
}

static inline int arb_mp_rd_int(const uint8_t **pp, const uint8_t *end, int64_t *v)
{
    const uint8_t *p = *pp;
    *v = 0; /* defined on every path (gcc -O1 cannot see that a failure is never read) */
    if (p >= end) return ARB_MP_MORE;
    uint8_t c = *p;
    if (c <= 0x7f) { *v = c; *pp = p + 1; return ARB_MP_OK; }
    if (c >= 0xe0) { *v = (int8_t)c; *pp = p + 1; return ARB_MP_OK; }
    unsigned w;
    switch (c) {
    case 0xcc: case 0xd0: w = 1; break;
    case 0xcd: case 0xd1: w = 2; break;
    case 0xce: case 0xd2: w = 4; break;
    case 0xcf: case 0xd3: w = 8; break;
    default: return ARB_MP_BAD;
    }
    if ((size_t)(end - p) < 1 + w) return ARB_MP_MORE;
    uint64_t u = arb_mp__be(p + 1, w);
    if (c <= 0xcf) {
        if (u > INT64_MAX) return ARB_MP_BAD;
        *v = (int64_t)u;
    } else {
        /* sign-extend from w bytes */
        unsigned shift = 64 - 8 * w;
        *v = shift ? (int64_t)(u << shift) >> shift : (int64_t)u;
    }
    *pp = p + 1 + w;
    return ARB_MP_OK;
}

static inline int arb_mp_rd_u64(const uint8_t **pp, const uint8_t *end, uint64_t *v)
{
    const uint8_t *p = *pp;
    *v = 0;
    if (p >= end) return ARB_MP_MORE;
    uint8_t c = *p;
    if (c <= 0x7f) { *v = c; *pp = p + 1; return ARB_MP_OK; }
    unsigned w;
    switch (c) {
    case 0xcc: w = 1; break;
    case 0xcd: w = 2; break;
    case 0xce: w = 4; break;
    case 0xcf: w = 8; break;
    default: return ARB_MP_BAD;
    }
    if ((size_t)(end - p) < 1 + w) return ARB_MP_MORE;
    *v = arb_mp__be(p + 1, w);
    *pp = p + 1 + w;
    return ARB_MP_OK;
}

static inline int arb_mp_rd_container(const uint8_t **pp, const uint8_t *end, uint32_t *n,
                                      uint8_t fixbase, uint8_t c16)
{
    const uint8_t *p = *pp;
    *n = 0;
    if (p >= end) return ARB_MP_MORE;
    uint8_t c = *p;
    if ((c & 0xf0) == fixbase) { *n = c & 0x0f; *pp = p + 1; return ARB_MP_OK; }
    unsigned w;
    if (c == c16) w = 2;
    else if (c == c16 + 1) w = 4;
    else return ARB_MP_BAD;
    if ((size_t)(end - p) < 1 + w) return ARB_MP_MORE;
    *n = (uint32_t)arb_mp__be(p + 1, w);
    *pp = p + 1 + w;
    return ARB_MP_OK;
}

static inline int arb_mp_rd_array(const uint8_t **pp, const uint8_t *end, uint32_t *n)
{
    return arb_mp_rd_container(pp, end, n, 0x90, 0xdc);
}

static inline int arb_mp_rd_map(const uint8_t **pp, const uint8_t *end, uint32_t *n)
{
    return arb_mp_rd_container(pp, end, n, 0x80, 0xde);
}

/* A string or binary: *s points into the input. */
static inline int arb_mp_rd_str(const uint8_t **pp, const uint8_t *end, const uint8_t **s,
                                uint32_t *len, int *is_bin)
{
    const uint8_t *p = *pp;
    *s = NULL;
    *len = 0;
    *is_bin = 0;
    if (p >= end) return ARB_MP_MORE;
    uint8_t c = *p;
    unsigned w;
    *is_bin = 0;
    if ((c & 0xe0) == 0xa0) {
        w = 0;
        *len = c & 0x1f;
    } else {
        switch (c) {
        case 0xd9: w = 1; break;
        case 0xda: w = 2; break;
        case 0xdb: w = 4; break;
        case 0xc4: w = 1; *is_bin = 1; break;
        case 0xc5: w = 2; *is_bin = 1; break;
        case 0xc6: w = 4; *is_bin = 1; break;
        default: return ARB_MP_BAD;
        }
        if ((size_t)(end - p) < 1 + w) return ARB_MP_MORE;
        *len = (uint32_t)arb_mp__be(p + 1, w);
    }
    if ((size_t)(end - p) - 1 - w < *len) return ARB_MP_MORE;
    *s = p + 1 + w;
    *pp = p + 1 + w + *len;
    return ARB_MP_OK;
}

/* Skip one value (bounded only by the bytes; use on measured data). */
int arb_replay__mp_skip(const uint8_t **p, const uint8_t *end);

#endif
