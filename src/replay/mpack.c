/* mpack.c — the MessagePack encoder (smallest encoding of every value, so
 * equal inputs give equal bytes) and the bounded measuring decoder that
 * sizes an object, enforcing every limit, before anything is built from it. */
#include <stdlib.h>
#include <string.h>

#include "replay/mpack.h"

#define MP_MAX_DEPTH 64 /* hard ceiling whatever the limits say */

void arb_replay__mp_free(arb_mpbuf *b)
{
    free(b->p);
    b->p = NULL;
    b->n = b->cap = 0;
}

int arb_replay__mp_reserve(arb_mpbuf *b, size_t extra)
{
    if (b->failed) return -1;
    if (b->cap - b->n >= extra) return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->n < extra) {
        if (cap > SIZE_MAX / 2) { b->failed = 1; return -1; }
        cap *= 2;
    }
    uint8_t *p = realloc(b->p, cap);
    if (!p) { b->failed = 1; return -1; }
    b->p = p;
    b->cap = cap;
    return 0;
}

static void put_be(arb_mpbuf *b, uint8_t tag, uint64_t v, unsigned w)
{
    if (arb_replay__mp_reserve(b, 1 + w)) return;
    b->p[b->n++] = tag;
    for (unsigned i = w; i-- > 0;) b->p[b->n++] = (uint8_t)(v >> (8 * i));
}

void arb_replay__mp_uint(arb_mpbuf *b, uint64_t v)
{
    if (v <= 0x7f) put_be(b, (uint8_t)v, 0, 0);
    else if (v <= 0xff) put_be(b, 0xcc, v, 1);
    else if (v <= 0xffff) put_be(b, 0xcd, v, 2);
    else if (v <= 0xffffffffu) put_be(b, 0xce, v, 4);
    else put_be(b, 0xcf, v, 8);
}

void arb_replay__mp_int(arb_mpbuf *b, int64_t v)
{
    if (v >= 0) arb_replay__mp_uint(b, (uint64_t)v);
    else if (v >= -32) put_be(b, (uint8_t)(int8_t)v, 0, 0);
    else if (v >= INT8_MIN) put_be(b, 0xd0, (uint64_t)v & 0xff, 1);
    else if (v >= INT16_MIN) put_be(b, 0xd1, (uint64_t)v & 0xffff, 2);
    else if (v >= INT32_MIN) put_be(b, 0xd2, (uint64_t)v & 0xffffffffu, 4);
    else put_be(b, 0xd3, (uint64_t)v, 8);
}

static void put_bytes(arb_mpbuf *b, const void *p, size_t n)
{
    if (arb_replay__mp_reserve(b, n)) return;
    if (n) memcpy(b->p + b->n, p, n);
    b->n += n;
}

void arb_replay__mp_str(arb_mpbuf *b, const char *s, size_t n)
{
    if (n < 32) put_be(b, (uint8_t)(0xa0 | n), 0, 0);
    else if (n <= 0xff) put_be(b, 0xd9, n, 1);
    else if (n <= 0xffff) put_be(b, 0xda, n, 2);
    else put_be(b, 0xdb, n, 4);
    put_bytes(b, s, n);
}

void arb_replay__mp_cstr(arb_mpbuf *b, const char *s) { arb_replay__mp_str(b, s ? s : "", s ? strlen(s) : 0); }

void arb_replay__mp_bin(arb_mpbuf *b, const void *p, size_t n)
{
    if (n <= 0xff) put_be(b, 0xc4, n, 1);
    else if (n <= 0xffff) put_be(b, 0xc5, n, 2);
    else put_be(b, 0xc6, n, 4);
    put_bytes(b, p, n);
}

void arb_replay__mp_array(arb_mpbuf *b, uint32_t n)
{
    if (n < 16) put_be(b, (uint8_t)(0x90 | n), 0, 0);
    else if (n <= 0xffff) put_be(b, 0xdc, n, 2);
    else put_be(b, 0xdd, n, 4);
}

void arb_replay__mp_map(arb_mpbuf *b, uint32_t n)
{
    if (n < 16) put_be(b, (uint8_t)(0x80 | n), 0, 0);
    else if (n <= 0xffff) put_be(b, 0xde, n, 2);
    else put_be(b, 0xdf, n, 4);
}

void arb_replay__mp_nil(arb_mpbuf *b) { put_be(b, 0xc0, 0, 0); }
void arb_replay__mp_bool(arb_mpbuf *b, int v) { put_be(b, v ? 0xc3 : 0xc2, 0, 0); }

void arb_replay__mp_tree(arb_mpbuf *b, const arb_tnode *n)
{
    switch (n->kind) {
    case ARB_T_NULL: arb_replay__mp_nil(b); break;
    case ARB_T_BOOL: arb_replay__mp_bool(b, n->i != 0); break;
    case ARB_T_INT: arb_replay__mp_int(b, n->i); break;
    case ARB_T_STR: arb_replay__mp_cstr(b, n->s); break;
    case ARB_T_ARR:
        arb_replay__mp_array(b, n->n);
        for (const arb_tnode *c = n->first; c; c = c->next) arb_replay__mp_tree(b, c);
        break;
    case ARB_T_MAP:
        arb_replay__mp_map(b, n->n);
        for (const arb_tnode *c = n->first; c; c = c->next) {
            arb_replay__mp_cstr(b, c->key);
            arb_replay__mp_tree(b, c);
        }
        break;
    }
}

/* Classify the value at p: its fixed extra bytes, or its payload length
 * (strings), or its entry count (containers). */
enum { K_SCALAR, K_BYTES, K_ARRAY, K_MAP };

static int head(const uint8_t *p, const uint8_t *end, int *kind, uint64_t *len, size_t *hlen)
{
    uint8_t c = *p;
    unsigned w = 0;
    *len = 0;
    if (c <= 0x7f || c >= 0xe0 || c == 0xc0 || c == 0xc2 || c == 0xc3) { *kind = K_SCALAR; *hlen = 1; return ARB_MP_OK; }
    if ((c & 0xe0) == 0xa0) { *kind = K_BYTES; *len = c & 0x1f; *hlen = 1; return ARB_MP_OK; }
    if ((c & 0xf0) == 0x90) { *kind = K_ARRAY; *len = c & 0x0f; *hlen = 1; return ARB_MP_OK; }
    if ((c & 0xf0) == 0x80) { *kind = K_MAP; *len = c & 0x0f; *hlen = 1; return ARB_MP_OK; }
    switch (c) {
    case 0xcc: case 0xd0: *kind = K_SCALAR; *hlen = 2; return ARB_MP_OK;
    case 0xcd: case 0xd1: *kind = K_SCALAR; *hlen = 3; return ARB_MP_OK;
    case 0xce: case 0xd2: case 0xca: *kind = K_SCALAR; *hlen = 5; return ARB_MP_OK;
    case 0xcf: case 0xd3: case 0xcb: *kind = K_SCALAR; *hlen = 9; return ARB_MP_OK;
    case 0xd4: *kind = K_SCALAR; *hlen = 3; return ARB_MP_OK;   /* fixext 1 */
    case 0xd5: *kind = K_SCALAR; *hlen = 4; return ARB_MP_OK;
    case 0xd6: *kind = K_SCALAR; *hlen = 6; return ARB_MP_OK;
    case 0xd7: *kind = K_SCALAR; *hlen = 10; return ARB_MP_OK;
    case 0xd8: *kind = K_SCALAR; *hlen = 18; return ARB_MP_OK;
    case 0xc4: case 0xd9: *kind = K_BYTES; w = 1; break;
    case 0xc5: case 0xda: *kind = K_BYTES; w = 2; break;
    case 0xc6: case 0xdb: *kind = K_BYTES; w = 4; break;
    case 0xc7: *kind = K_BYTES; w = 1; break; /* ext 8: len, type, data */
    case 0xc8: *kind = K_BYTES; w = 2; break;
    case 0xc9: *kind = K_BYTES; w = 4; break;
    case 0xdc: *kind = K_ARRAY; w = 2; break;
    case 0xdd: *kind = K_ARRAY; w = 4; break;
    case 0xde: *kind = K_MAP; w = 2; break;
    case 0xdf: *kind = K_MAP; w = 4; break;
    default: return ARB_MP_BAD; /* 0xc1 is never used */
    }
    if ((size_t)(end - p) < 1 + w) return ARB_MP_MORE;
    *len = arb_mp__be(p + 1, w);
    *hlen = 1 + w + (c >= 0xc7 && c <= 0xc9); /* ext carries a type byte */
    return ARB_MP_OK;
}

int arb_replay__mp_measure(const uint8_t *p, size_t n, const arb_replay_limits *lim, size_t *size,
                           const char **what)
{
    const uint8_t *s = p, *end = p + n;
    uint64_t stack[MP_MAX_DEPTH + 1];
    unsigned depth = 0, maxd = lim->max_depth < MP_MAX_DEPTH ? lim->max_depth : MP_MAX_DEPTH;
    uint64_t remaining = 1, nodes = 0;
    *what = "";
    for (;;) {
        while (remaining == 0 && depth > 0) remaining = stack[--depth];
        if (remaining == 0) break;
        remaining--;
        if (p >= end) return ARB_MP_MORE;
        if (++nodes > lim->max_nodes) { *what = "values"; return ARB_MP_LIMIT; }
        int kind;
        uint64_t len;
        size_t hlen;
        int rc = head(p, end, &kind, &len, &hlen);
        if (rc == ARB_MP_BAD) { *what = "reserved type byte 0xc1"; return rc; }
        if (rc) return rc;
        if ((size_t)(end - p) < hlen) return ARB_MP_MORE;
        p += hlen;
        if (kind == K_BYTES) {
            if (len > lim->max_string) { *what = "string length"; return ARB_MP_LIMIT; }
            if ((uint64_t)(end - p) < len) return ARB_MP_MORE;
            p += len;
        } else if (kind == K_ARRAY || kind == K_MAP) {
            if (len > lim->max_count) { *what = kind == K_MAP ? "map entries" : "array entries"; return ARB_MP_LIMIT; }
            uint64_t items = kind == K_MAP ? 2 * len : len;
            /* Every item takes at least one byte: a count larger than the
             * bytes present cannot be complete here. */
            if (items > (uint64_t)(end - p)) return ARB_MP_MORE;
            if (items) {
                if (depth + 1 > maxd) { *what = "nesting depth"; return ARB_MP_LIMIT; }
                stack[depth++] = remaining;
                remaining = items;
            }
        }
    }
    *size = (size_t)(p - s);
    return ARB_MP_OK;
}

int arb_replay__mp_skip(const uint8_t **pp, const uint8_t *end)
{
    static const arb_replay_limits lax = { UINT64_MAX, UINT32_MAX, UINT32_MAX, MP_MAX_DEPTH,
                                           UINT32_MAX, UINT32_MAX, UINT32_MAX, 0, 0, 0 };
    size_t size;
    const char *what;
    int rc = arb_replay__mp_measure(*pp, (size_t)(end - *pp), &lax, &size, &what);
    if (rc == ARB_MP_OK) *pp += size;
    return rc;
}

static const char hexd[] = "0123456789abcdef";

int arb_replay__mp_to_tree(const uint8_t **pp, const uint8_t *end, arb_tree *t, arb_tnode *parent,
                           const char *key, unsigned depth)
{
    const uint8_t *p = *pp;
    if (p >= end || depth > MP_MAX_DEPTH) return ARB_MP_BAD;
    uint8_t c = *p;
    int64_t iv;
    uint64_t uv;
    if (c == 0xc0) { arb_tree_add_null(t, parent, key); *pp = p + 1; return ARB_MP_OK; }
    if (c == 0xc2 || c == 0xc3) { arb_tree_add_bool(t, parent, key, c == 0xc3); *pp = p + 1; return ARB_MP_OK; }
    if (c == 0xcf) {
        /* uint64 above INT64_MAX: the tree has int64 only; keep the bits. */
        if (arb_mp_rd_u64(&p, end, &uv)) return ARB_MP_BAD;
        arb_tree_add_int(t, parent, key, (int64_t)uv);
        *pp = p;
        return ARB_MP_OK;
    }
    if (arb_mp_rd_int(&p, end, &iv) == ARB_MP_OK) {
        arb_tree_add_int(t, parent, key, iv);
        *pp = p;
        return ARB_MP_OK;
    }
    const uint8_t *s;
    uint32_t len;
    int is_bin;
    p = *pp;
    if (arb_mp_rd_str(&p, end, &s, &len, &is_bin) == ARB_MP_OK) {
        if (is_bin) {
            char *hex = malloc(2 * (size_t)len + 1);
            if (!hex) return ARB_MP_BAD;
            for (uint32_t i = 0; i < len; i++) {
                hex[2 * i] = hexd[s[i] >> 4];
                hex[2 * i + 1] = hexd[s[i] & 15];
            }
            arb_tree_add_strn(t, parent, key, hex, 2 * (size_t)len);
            free(hex);
            *pp = p;
            return ARB_MP_OK;
        }
        if (memchr(s, 0, len)) return ARB_MP_BAD;
        arb_tree_add_strn(t, parent, key, (const char *)s, len);
        *pp = p;
        return ARB_MP_OK;
    }
    uint32_t n;
    p = *pp;
    if (arb_mp_rd_array(&p, end, &n) == ARB_MP_OK) {
        arb_tnode *a = arb_tree_add_arr(t, parent, key);
        for (uint32_t i = 0; i < n; i++)
            if (arb_replay__mp_to_tree(&p, end, t, a, NULL, depth + 1)) return ARB_MP_BAD;
        *pp = p;
        return ARB_MP_OK;
    }
    p = *pp;
    if (arb_mp_rd_map(&p, end, &n) == ARB_MP_OK) {
        arb_tnode *m = arb_tree_add_map(t, parent, key);
        for (uint32_t i = 0; i < n; i++) {
            char k[256];
            if (arb_mp_rd_str(&p, end, &s, &len, &is_bin) || is_bin || len >= sizeof k || memchr(s, 0, len))
                return ARB_MP_BAD;
            memcpy(k, s, len);
            k[len] = '\0';
            if (arb_replay__mp_to_tree(&p, end, t, m, k, depth + 1)) return ARB_MP_BAD;
        }
        *pp = p;
        return ARB_MP_OK;
    }
    /* floats and extension types: carried as null */
    p = *pp;
    if (arb_replay__mp_skip(&p, end)) return ARB_MP_BAD;
    arb_tree_add_null(t, parent, key);
    *pp = p;
    return ARB_MP_OK;
}
