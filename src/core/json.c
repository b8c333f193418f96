/* json.c — a bounded JSON reader into the state tree (arb_tree).
 *
 * For the tool's own machine-readable outputs read back in (NDJSON shard
 * results, NDJSON actions): objects, arrays, strings with every escape
 * (\uXXXX and surrogate pairs → UTF-8), integers that fit int64, true,
 * false, null. Fractional numbers are refused: nothing arbiter writes has
 * them, and a silent rounding would be worse than a clear error. Depth is
 * bounded and every error names the byte offset.
 *
 * Duplicate keys are found in O(k log k) per object of k keys: each key
 * (with its offset) is pushed on a stack shared by all nesting levels, and
 * when an object closes its segment is sorted (by key, then offset, so the
 * order is deterministic) and adjacent equal keys are reported, at the
 * offset of the first repeated key in document order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/tree.h"
#include "arbiter/error.h"
#include "arbiter/text.h"

#define JSON_MAX_DEPTH 64

typedef struct jp {
    const char *s;
    size_t n, i;
    arb_tree *t;
    arb_error *err;
    char *buf;       /* scratch for one decoded string */
    size_t bufcap;
    struct jkey { const char *key; size_t off; } *keys; /* open objects' keys */
    size_t nkeys, keycap;
    struct jkey *local;  /* the first JP_LOCAL_KEYS: on the stack, no allocation */
} jp;

#define JP_LOCAL_KEYS 64

static int nomem(jp *p)
{
    arb_error_where(p->err, "offset %zu", p->i);
    return arb_error_set(p->err, ARB_ENOMEM, NULL, "out of memory reading JSON");
}

static int push_key(jp *p, const char *key, size_t off)
{
    if (p->nkeys == p->keycap) {
        size_t cap = p->keycap * 2;
        struct jkey *nk = realloc(p->keys == p->local ? NULL : p->keys, cap * sizeof *nk);
        if (!nk) return nomem(p);
        if (p->keys == p->local) memcpy(nk, p->local, p->nkeys * sizeof *nk);
        p->keys = nk;
        p->keycap = cap;
    }
    p->keys[p->nkeys].key = key;
    p->keys[p->nkeys].off = off;
    p->nkeys++;
    return 0;
}

static int key_cmp(const void *a, const void *b)
{
    const struct jkey *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    if (c) return c;
    return x->off < y->off ? -1 : x->off > y->off;
}

/* The error for key, seen again at offset off (the earliest repeat). */
static int dup_key(jp *p, const char *key, size_t off)
{
    char shown[96];
    arb_text_escape(shown, sizeof shown, key);
    p->i = off;
    arb_error_where(p->err, "offset %zu", p->i);
    return arb_error_set(p->err, ARB_EFORMAT, NULL, "JSON: duplicate key \"%s\"", shown);
}

/* Checks the keys pushed since base (one object) and pops them. */
static int check_dups(jp *p, size_t base)
{
    size_t k = p->nkeys - base;
    struct jkey *v = p->keys + base;
    p->nkeys = base;
    if (k < 2) return 0;
    if (k <= 12) { /* small objects (most): pairwise, no sort */
        size_t best = (size_t)-1, bi = 0;
        for (size_t j = 1; j < k; j++)
            for (size_t i = 0; i < j; i++)
                if (v[j].off < best && strcmp(v[i].key, v[j].key) == 0) { best = v[j].off; bi = j; break; }
        return best == (size_t)-1 ? 0 : dup_key(p, v[bi].key, best);
    }
    qsort(v, k, sizeof *v, key_cmp);
    size_t best = (size_t)-1, bi = 0;
    for (size_t i = 1; i < k; i++)
        if (strcmp(v[i - 1].key, v[i].key) == 0 && v[i].off < best) { best = v[i].off; bi = i; }
    return best == (size_t)-1 ? 0 : dup_key(p, v[bi].key, best);
}

static int fail(jp *p, const char *what)
{
    arb_error_where(p->err, "offset %zu", p->i);
    return arb_error_set(p->err, ARB_EFORMAT, NULL, "JSON: %s", what);
}

static void ws(jp *p)
{
    while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\n' || p->s[p->i] == '\r'))
        p->i++;
}

static int put(jp *p, size_t *len, unsigned c)
{
    if (*len + 4 >= p->bufcap) return fail(p, "string too long");
    if (c < 0x80) p->buf[(*len)++] = (char)c;
    else if (c < 0x800) {
        p->buf[(*len)++] = (char)(0xc0 | (c >> 6));
        p->buf[(*len)++] = (char)(0x80 | (c & 0x3f));
    } else if (c < 0x10000) {
        p->buf[(*len)++] = (char)(0xe0 | (c >> 12));
        p->buf[(*len)++] = (char)(0x80 | ((c >> 6) & 0x3f));
        p->buf[(*len)++] = (char)(0x80 | (c & 0x3f));
    } else {
        p->buf[(*len)++] = (char)(0xf0 | (c >> 18));
        p->buf[(*len)++] = (char)(0x80 | ((c >> 12) & 0x3f));
        p->buf[(*len)++] = (char)(0x80 | ((c >> 6) & 0x3f));
        p->buf[(*len)++] = (char)(0x80 | (c & 0x3f));
    }
    return 0;
}

static int hex4(jp *p, unsigned *out)
{
    unsigned v = 0;
    if (p->n - p->i < 4) return fail(p, "short \\u escape");
    for (int k = 0; k < 4; k++) {
        char c = p->s[p->i++];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
        else return fail(p, "bad \\u escape");
    }
    *out = v;
    return 0;
}

/* Decodes a string at p->i (the opening quote) into p->buf; sets *len. */
static int string(jp *p, size_t *len)
{
    *len = 0;
    p->i++;
    for (;;) {
        /* a run of plain characters at once, when it fits */
        size_t j = p->i;
        while (j < p->n) {
            unsigned char x = (unsigned char)p->s[j];
            if (x == '"' || x == '\\' || x < 0x20) break;
            j++;
        }
        if (j > p->i && *len + (j - p->i) + 1 < p->bufcap) {
            memcpy(p->buf + *len, p->s + p->i, j - p->i);
            *len += j - p->i;
            p->i = j;
        }
        if (p->i >= p->n) return fail(p, "unterminated string");
        unsigned char c = (unsigned char)p->s[p->i++];
        if (c == '"') break;
        if (c < 0x20) return fail(p, "control character in string");
        if (c != '\\') {
            if (*len + 1 >= p->bufcap) return fail(p, "string too long");
            p->buf[(*len)++] = (char)c;
            continue;
        }
        if (p->i >= p->n) return fail(p, "unterminated escape");
        char e = p->s[p->i++];
        unsigned u;
        switch (e) {
        case '"': case '\\': case '/': if (put(p, len, (unsigned)e)) return -1; break;
        case 'b': if (put(p, len, '\b')) return -1; break;
        case 'f': if (put(p, len, '\f')) return -1; break;
        case 'n': if (put(p, len, '\n')) return -1; break;
        case 'r': if (put(p, len, '\r')) return -1; break;
        case 't': if (put(p, len, '\t')) return -1; break;
        case 'u':
            if (hex4(p, &u)) return -1;
            if (u >= 0xd800 && u < 0xdc00) {
                unsigned lo;
                if (p->n - p->i < 2 || p->s[p->i] != '\\' || p->s[p->i + 1] != 'u')
                    return fail(p, "lone high surrogate");
                p->i += 2;
                if (hex4(p, &lo)) return -1;
                if (lo < 0xdc00 || lo > 0xdfff) return fail(p, "bad low surrogate");
                u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
            } else if (u >= 0xdc00 && u < 0xe000) {
                return fail(p, "lone low surrogate");
            }
            if (u == 0) return fail(p, "NUL in string");
            if (put(p, len, u)) return -1;
            break;
        default: return fail(p, "bad escape");
        }
    }
    p->buf[*len] = '\0';
    return 0;
}

static int value(jp *p, arb_tnode *parent, const char *key, int depth);

static int literal(jp *p, const char *word)
{
    size_t k = strlen(word);
    if (p->n - p->i < k || memcmp(p->s + p->i, word, k) != 0) return fail(p, "unexpected character");
    p->i += k;
    return 0;
}

static int number(jp *p, arb_tnode *parent, const char *key)
{
    size_t start = p->i;
    int neg = 0;
    if (p->s[p->i] == '-') { neg = 1; p->i++; }
    if (p->i >= p->n || p->s[p->i] < '0' || p->s[p->i] > '9') return fail(p, "bad number");
    if (p->s[p->i] == '0' && p->i + 1 < p->n && p->s[p->i + 1] >= '0' && p->s[p->i + 1] <= '9')
        return fail(p, "leading zero in number");
    uint64_t v = 0;
    while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9') {
        unsigned d = (unsigned)(p->s[p->i] - '0');
        if (v > (UINT64_MAX - d) / 10) { p->i = start; return fail(p, "number out of range"); }
        v = v * 10 + d;
        p->i++;
    }
    if (p->i < p->n && (p->s[p->i] == '.' || p->s[p->i] == 'e' || p->s[p->i] == 'E'))
        return fail(p, "fractional numbers are not accepted");
    if ((!neg && v > (uint64_t)INT64_MAX) || (neg && v > (uint64_t)INT64_MAX + 1)) {
        p->i = start;
        return fail(p, "number out of range");
    }
    int64_t iv = neg ? (v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v) : (int64_t)v;
    arb_tree_add_int(p->t, parent, key, iv);
    return 0;
}

static int value(jp *p, arb_tnode *parent, const char *key, int depth)
{
    ws(p);
    if (p->i >= p->n) return fail(p, "unexpected end of input");
    char c = p->s[p->i];
    if (c == '{' || c == '[') {
        if (depth >= JSON_MAX_DEPTH) return fail(p, "nested too deeply");
        int obj = c == '{';
        arb_tnode *n = obj ? arb_tree_add_map(p->t, parent, key) : arb_tree_add_arr(p->t, parent, key);
        p->i++;
        ws(p);
        if (p->i < p->n && p->s[p->i] == (obj ? '}' : ']')) { p->i++; return 0; }
        size_t base = p->nkeys;
        for (;;) {
            if (obj) {
                ws(p);
                if (p->i >= p->n || p->s[p->i] != '"') return fail(p, "expected a key string");
                size_t len, kpos = p->i;
                if (string(p, &len)) return -1;
                char keybuf[256];
                if (len >= sizeof keybuf) return fail(p, "key too long");
                memcpy(keybuf, p->buf, len + 1);
                ws(p);
                if (p->i >= p->n || p->s[p->i] != ':') return fail(p, "expected ':'");
                p->i++;
                if (value(p, n, keybuf, depth + 1)) return -1;
                if (arb_tree_failed(p->t)) return nomem(p);
                if (push_key(p, n->last->key, kpos)) return -1;
            } else if (value(p, n, NULL, depth + 1)) {
                return -1;
            }
            ws(p);
            if (p->i >= p->n) return fail(p, "unexpected end of input");
            if (p->s[p->i] == ',') { p->i++; continue; }
            if (p->s[p->i] == (obj ? '}' : ']')) {
                p->i++;
                return obj ? check_dups(p, base) : 0;
            }
            return fail(p, obj ? "expected ',' or '}'" : "expected ',' or ']'");
        }
    }
    if (c == '"') {
        size_t len;
        if (string(p, &len)) return -1;
        arb_tree_add_strn(p->t, parent, key, p->buf, len);
        return 0;
    }
    if (c == 't') { if (literal(p, "true")) return -1; arb_tree_add_bool(p->t, parent, key, 1); return 0; }
    if (c == 'f') { if (literal(p, "false")) return -1; arb_tree_add_bool(p->t, parent, key, 0); return 0; }
    if (c == 'n') { if (literal(p, "null")) return -1; arb_tree_add_null(p->t, parent, key); return 0; }
    if (c == '-' || (c >= '0' && c <= '9')) return number(p, parent, key);
    return fail(p, "unexpected character");
}

int arb_tree_parse_json(arb_tree *t, arb_tnode *parent, const char *key, const char *text, size_t len,
                        arb_error *err)
{
    ARB_ASSERT_ARG(err, t && (text || !len));
    char buf[65536];
    struct jkey local[JP_LOCAL_KEYS];
    jp p = { text, len, 0, t, err, buf, sizeof buf, local, 0, JP_LOCAL_KEYS, local };
    int rc = value(&p, parent, key, 0);
    if (p.keys != local) free(p.keys);
    if (rc) return err ? err->code : ARB_EFORMAT;
    ws(&p);
    if (p.i != p.n) return fail(&p, "trailing characters after the value");
    if (arb_tree_failed(t)) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory reading JSON");
    return ARB_OK;
}
