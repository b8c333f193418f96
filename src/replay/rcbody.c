/* rcbody.c — the range-coded body of version 2 (replays/FORMAT.md Part D):
 * the tokenizer over the record grammar, the per-context models, the
 * encoder (one shot, at the end of a match) and the streaming decoder. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "replay/rcbody.h"
#include "replay/rec2.h"

#define TOP (1u << 24)
#define PBITS 11
#define PONE (1u << PBITS)
#define NMAX 30
/* A node: probability of a 0 bit in bits 0-10 (1..2047 of 2048), the
 * number of bits it has coded (0..30) in bits 11-15. Its adaptation rate
 * is rate[n] / 65536 = 1 / (n + 1.5), never below 1/32 (§D.2). */
static const uint16_t rate[NMAX + 1] = {
#define R(n) (131072u / (2u * (n) + 3u) > 2048u ? 131072u / (2u * (n) + 3u) : 2048u)
    R(0), R(1), R(2), R(3), R(4), R(5), R(6), R(7), R(8), R(9), R(10), R(11), R(12), R(13), R(14), R(15),
    R(16), R(17), R(18), R(19), R(20), R(21), R(22), R(23), R(24), R(25), R(26), R(27), R(28), R(29), R(30)
#undef R
};

/* ---------------------------------------------------------------- tokenizer */

void arb_rc_tok_init(arb_rc_tok *t, int timed)
{
    memset(t, 0, sizeof *t);
    t->st = ARB_RC_T_LENC;
    t->timed = (uint8_t)(timed != 0);
}

/* The class of a record's op byte: the context of the next op. */
static inline uint8_t op_class(uint8_t op)
{
    if (op < 0x80) return (uint8_t)(1 + (op & 31));
    if (op <= 0x85) return 33;
    if (op == 0x86) return 34;
    if (op <= 0x88) return 35;
    if (op <= 0x8d) return 36;
    if (op == 0x8e) return 37;
    return 38;
}

static inline void end_record(arb_rc_tok *t)
{
    t->st = ARB_RC_T_OP;
    t->prev = op_class(t->op);
}

static inline void start_args(arb_rc_tok *t)
{
    t->argi = 0;
    t->vb = 0;
    if (t->nargs == 0) end_record(t);
    else t->st = ARB_RC_T_ARG;
}

static inline void after_verb(arb_rc_tok *t)
{
    if (t->timed) t->st = ARB_RC_T_MSLO;
    else start_args(t);
}

static inline void varint_step(arb_rc_tok *t, uint8_t b)
{
    if (t->shift < 64) t->val |= (uint64_t)(b & 0x7f) << t->shift;
    t->shift += 7;
    if (t->vb < 255) t->vb++;
}

static inline void tok_push(arb_rc_tok *t, uint8_t b)
{
    switch (t->st) {
    case ARB_RC_T_LENC:
    case ARB_RC_T_LENH:
        varint_step(t, b);
        if (b & 0x80) return;
        if (t->st == ARB_RC_T_LENC) {
            t->clen = t->val;
            t->st = ARB_RC_T_LENH;
        } else {
            t->hlen = t->val;
            t->st = t->hlen ? ARB_RC_T_HDR : ARB_RC_T_OP;
        }
        t->val = 0;
        t->shift = 0;
        t->vb = 0;
        return;
    case ARB_RC_T_HDR:
        t->last = b;
        if (++t->pos == t->hlen) t->st = ARB_RC_T_OP;
        return;
    case ARB_RC_T_OP:
        t->op = b;
        t->vb = 0;
        t->val = 0;
        t->shift = 0;
        if (b < 0x80) {
            t->verb = b & 31;
            t->nargs = (uint8_t)(b >> 5);
            if (t->nargs == 3) t->st = ARB_RC_T_COUNT;
            else if (t->verb == 31) t->st = ARB_RC_T_VERB;
            else after_verb(t);
        } else if (b <= 0x85) {
            t->st = ARB_RC_T_HASH;
            t->left = 1;
        } else if (b == 0x86) t->st = ARB_RC_T_EL;
        else if (b <= 0x88) t->st = ARB_RC_T_TURN;
        else if (b <= 0x8d) end_record(t);
        else if (b == 0x8e) t->st = ARB_RC_T_WIN;
        else if (b < 0xc0) t->st = ARB_RC_T_RAW;
        else t->st = ARB_RC_T_ULEN;
        return;
    case ARB_RC_T_COUNT:
        t->nargs = b;
        if (t->verb == 31) t->st = ARB_RC_T_VERB;
        else after_verb(t);
        return;
    case ARB_RC_T_VERB:
        t->verb = b < 31 ? b : 31;
        after_verb(t);
        return;
    case ARB_RC_T_MSLO: t->st = ARB_RC_T_MSHI; return;
    case ARB_RC_T_MSHI:
        if (b & 0x80) t->st = ARB_RC_T_MSVAR;
        else start_args(t);
        return;
    case ARB_RC_T_MSVAR:
        if (!(b & 0x80)) start_args(t);
        return;
    case ARB_RC_T_ARG:
        if (b & 0x80) {
            t->vb = 1;
            return;
        }
        t->vb = 0;
        if (++t->argi == t->nargs) end_record(t);
        return;
    case ARB_RC_T_HASH:
        if (--t->left == 0) end_record(t);
        return;
    case ARB_RC_T_TURN:
        t->vb = 1;
        if (b & 0x80) return;
        t->st = ARB_RC_T_HASH;
        t->left = t->op == 0x88 ? 8 : 1;
        return;
    case ARB_RC_T_EL:
        t->vb = 1;
        if (!(b & 0x80)) end_record(t);
        return;
    case ARB_RC_T_WIN: t->st = ARB_RC_T_REASON; return;
    case ARB_RC_T_REASON:
        if (b == 0xff) t->st = ARB_RC_T_RLEN;
        else t->st = ARB_RC_T_OTURNS;
        return;
    case ARB_RC_T_RLEN:
        t->left = b;
        t->st = b ? ARB_RC_T_RSTR : ARB_RC_T_OTURNS;
        return;
    case ARB_RC_T_RSTR:
        if (--t->left == 0) t->st = ARB_RC_T_OTURNS;
        return;
    case ARB_RC_T_OTURNS:
        t->vb = 1;
        if (b & 0x80) return;
        t->st = ARB_RC_T_HASH;
        t->left = 8;
        return;
    case ARB_RC_T_ULEN:
        varint_step(t, b);
        if (b & 0x80) return;
        t->left = t->val;
        if (t->left) t->st = ARB_RC_T_UBYTES;
        else end_record(t);
        return;
    case ARB_RC_T_UBYTES:
        if (--t->left == 0) end_record(t);
        return;
    default: return; /* RAW: to the end */
    }
}

void arb_rc_tok_push(arb_rc_tok *t, uint8_t b) { tok_push(t, b); }

/* ---------------------------------------------------------------- models */

static inline void upd_calc(uint16_t *s, unsigned bit)
{
    unsigned v = *s, p = v & (PONE - 1), n = v >> PBITS;
    uint32_t r = rate[n];
    unsigned dn = (p * r) >> 16, up = ((PONE - p) * r) >> 16;
    p = bit ? p - dn : p + up; /* branch-free (bits are unpredictable) */
    n += n < NMAX;
    *s = (uint16_t)(p | n << PBITS);
}

/* Every node state's successor after a 0 and after a 1 (upd_calc on all
 * 2^16 states, built once): one load instead of two multiplies per node
 * update. */
static uint16_t next_state[2][1u << 16];
static pthread_once_t next_once = PTHREAD_ONCE_INIT;
static void next_build(void)
{
    for (unsigned v = 0; v < (1u << 16); v++)
        for (unsigned b = 0; b < 2; b++) {
            uint16_t x = (uint16_t)v;
            /* a count above NMAX never occurs (updates stop at NMAX) */
            if ((v >> PBITS) <= NMAX) upd_calc(&x, b);
            next_state[b][v] = x;
        }
}
static void upd_ready(void) { pthread_once(&next_once, next_build); }

static inline void upd(uint16_t *s, unsigned bit) { *s = next_state[bit][*s]; }

int arb_rc_model_init(arb_rc_model *m)
{
    upd_ready(); /* every coder starts from a model */
    memset(m, 0, sizeof *m);
    m->cap = 96; /* a match uses 45 to 90 contexts: room without a realloc's copy */
    m->slot = malloc(m->cap * sizeof *m->slot);
    return m->slot ? 0 : -1;
}

void arb_rc_model_reset(arb_rc_model *m)
{
    memset(m->map, 0, sizeof m->map);
    m->nslots = 0;
    m->base = NULL;
}

int arb_rc_model_base(arb_rc_model *dst, const arb_rc_model *src)
{
    arb_rc_model_reset(dst);
    dst->base = src;
    return 0;
}

int arb_rc_model_copy(arb_rc_model *dst, const arb_rc_model *src)
{
    if (dst->cap < src->nslots) {
        void *q = realloc(dst->slot, src->cap * sizeof *dst->slot);
        if (!q) return -1;
        dst->slot = q;
        dst->cap = src->cap;
    }
    memcpy(dst->map, src->map, sizeof dst->map);
    if (src->nslots) memcpy(dst->slot, src->slot, src->nslots * sizeof *src->slot);
    dst->nslots = src->nslots;
    dst->base = src->base;
    return 0;
}

void arb_rc_model_free(arb_rc_model *m)
{
    free(m->slot);
    memset(m, 0, sizeof *m);
}

/* Context c's states in m's base chain, or NULL. */
static const uint16_t *base_slot(const arb_rc_model *m, int c)
{
    for (const arb_rc_model *b = m->base; b; b = b->base)
        if (b->map[c]) return b->slot[b->map[c] - 1];
    return NULL;
}

/* Allocate context c's slot: a copy of its states in the base chain, else
 * from parent slot index pi + 1 (0: none). */
static int slot_new(arb_rc_model *m, int c, unsigned pi)
{
    if (m->nslots == m->cap) {
        unsigned nc = m->cap ? m->cap * 2 : 48;
        if (nc > ARB_RC_NCTX) nc = ARB_RC_NCTX;
        void *q = realloc(m->slot, nc * sizeof *m->slot);
        if (!q) return -1;
        m->slot = q;
        m->cap = nc;
    }
    uint16_t *p = m->slot[m->nslots++];
    const uint16_t *b = m->base ? base_slot(m, c) : NULL;
    if (b) memcpy(p, b, sizeof *m->slot);
    else if (pi) {
        const uint16_t *q = m->slot[pi - 1];
        for (unsigned k = 0; k < 256; k++) p[k] = (uint16_t)(q[k] & (PONE - 1)); /* the parent's p, count 0 */
    } else
        for (unsigned k = 0; k < 256; k++) p[k] = PONE / 2;
    m->map[c] = (uint16_t)m->nslots;
    return 0;
}

uint16_t *arb_rc_model_slot(arb_rc_model *m, int c)
{
    unsigned s = m->map[c];
    if (s) return m->slot[s - 1];
    int pc = arb_rc_parent(c);
    if (pc >= 0 && !m->map[pc] && slot_new(m, pc, 0)) return NULL;
    if (slot_new(m, c, pc >= 0 ? m->map[pc] : 0)) return NULL;
    return m->slot[m->map[c] - 1];
}

/* Context c's slot and its parent's (or NULL). */
static inline uint16_t *slots(arb_rc_model *m, int c, uint16_t **par)
{
    unsigned s = m->map[c];
    uint16_t *p = s ? m->slot[s - 1] : arb_rc_model_slot(m, c);
    int pc = arb_rc_parent(c);
    *par = p && pc >= 0 ? m->slot[m->map[pc] - 1] : NULL;
    return p;
}


/* The symbol stream of one member: lengths then content, through fn. */
typedef struct sym_src {
    uint8_t pre[20];
    size_t npre;
    const uint8_t *c;
    size_t n;
} sym_src;

static void sym_init(sym_src *s, const uint8_t *c, size_t n, size_t hl)
{
    uint8_t *p = s->pre;
    uint64_t v = n;
    while (v >= 0x80) { *p++ = (uint8_t)(v | 0x80); v >>= 7; }
    *p++ = (uint8_t)v;
    v = hl;
    while (v >= 0x80) { *p++ = (uint8_t)(v | 0x80); v >>= 7; }
    *p++ = (uint8_t)v;
    s->npre = (size_t)(p - s->pre);
    s->c = c;
    s->n = n;
}

static inline uint8_t sym_at(const sym_src *s, size_t i) { return i < s->npre ? s->pre[i] : s->c[i - s->npre]; }

/* ---------------------------------------------------------------- encoder */

typedef struct enc {
    uint64_t low;
    uint32_t range;
    uint8_t cache;
    uint64_t csize;
    int first;
    uint8_t *o;
    size_t n, cap;
    int failed;
} enc;

static void put(enc *e, uint8_t b)
{
    if (e->first) { e->first = 0; return; } /* the leading byte is always 0: not written */
    if (e->n == e->cap) {
        size_t nc = e->cap * 2;
        uint8_t *q = realloc(e->o, nc);
        if (!q) { e->failed = 1; return; }
        e->o = q;
        e->cap = nc;
    }
    e->o[e->n++] = b;
}

static void shift_low(enc *e)
{
    if ((uint32_t)e->low < 0xff000000u || (e->low >> 32) != 0) {
        uint8_t carry = (uint8_t)(e->low >> 32);
        uint8_t temp = e->cache;
        do {
            put(e, (uint8_t)(temp + carry));
            temp = 0xff;
        } while (--e->csize != 0);
        e->cache = (uint8_t)(e->low >> 24);
    }
    e->csize++;
    e->low = (e->low & 0x00ffffffu) << 8;
}

/* The coder's low and range live in the caller's registers (lo, rg) and
 * go through e only when a byte is shifted out. */
static inline void enc_norm(enc *e, uint64_t *lo, uint32_t *rg)
{
    while (*rg < TOP) {
        *rg <<= 8;
        e->low = *lo;
        shift_low(e);
        *lo = e->low;
    }
}

static inline void enc_bit(enc *e, uint64_t *lo, uint32_t *rg, uint16_t *p, unsigned bit)
{
    uint32_t bound = (*rg >> PBITS) * (*p & (PONE - 1));
    upd(p, bit);
    *lo += bound & (0u - bit);
    *rg = bit ? *rg - bound : bound;
    enc_norm(e, lo, rg);
}

static inline void enc_direct(enc *e, uint64_t *lo, uint32_t *rg, uint8_t b)
{
    for (int j = 7; j >= 0; j--) {
        *rg >>= 1;
        if ((b >> j) & 1u) *lo += *rg;
        enc_norm(e, lo, rg);
    }
}

/* One walk over a member's symbols (§D.1) through m's models: coded into
 * e, or with e NULL only updating them (priming, §D.5). The two callers
 * pass a constant e, so each gets its own loop. 0 ok, -1 no memory. */
static inline int walk(arb_rc_model *m, const uint8_t *content, size_t n, size_t header_len, int timed, enc *e)
{
    sym_src s;
    sym_init(&s, content, n, header_len);
    arb_rc_tok t;
    arb_rc_tok_init(&t, timed);
    size_t total = s.npre + s.n;
    uint64_t lo = e ? e->low : 0;
    uint32_t rg = e ? e->range : 0;
    for (size_t i = 0; i < total; i++) {
        uint8_t b = sym_at(&s, i);
        int c = arb_rc_tok_ctx(&t);
        if (c >= 0) {
            uint16_t *q, *p = slots(m, c, &q);
            if (!p) return -1;
            unsigned k = 1;
            for (int j = 7; j >= 0; j--) {
                unsigned bit = (b >> j) & 1u;
                if (e) enc_bit(e, &lo, &rg, &p[k], bit);
                else upd(&p[k], bit);
                if (q) upd(&q[k], bit);
                k = k * 2 + bit;
            }
        } else if (e)
            enc_direct(e, &lo, &rg, b);
        tok_push(&t, b);
    }
    if (e) {
        e->low = lo;
        e->range = rg;
    }
    return 0;
}

int arb_rc_prime(arb_rc_model *m, const uint8_t *content, size_t n, size_t header_len, int timed)
{
    return walk(m, content, n, header_len, timed, NULL);
}

int arb_rc_encode(arb_rc_model *m, const uint8_t *content, size_t n, size_t header_len, int timed, uint8_t **out,
                  size_t *outn)
{
    *out = NULL;
    *outn = 0;
    enc e = { 0, 0xffffffffu, 0, 1, 1, NULL, 0, 0, 0 };
    e.cap = n + n / 2 + 64;
    e.o = malloc(e.cap);
    if (!e.o) return -1;
    e.n = 10; /* room for the coded length, moved into place at the end */
    if (walk(m, content, n, header_len, timed, &e)) {
        free(e.o);
        return -1;
    }
    /* The shortest flush (§D.2): a value in [low, low + range) whose low 4
     * (else 3) bytes are zero, so the decoder's zero padding supplies them. */
    uint64_t v4 = (e.low + 0xffffffffu) & ~(uint64_t)0xffffffffu;
    if (v4 < e.low + e.range) {
        e.low = v4;
        shift_low(&e);
    } else {
        e.low = (e.low + 0xffffffu) & ~(uint64_t)0xffffffu;
        shift_low(&e);
        shift_low(&e);
        if (e.n > 10 && e.o[e.n - 1] == 0) e.n--; /* a zero last byte is padding too */
    }
    uint8_t pre[10];
    size_t np = 0;
    for (uint64_t v = e.n - 10;; v >>= 7) {
        pre[np++] = (uint8_t)(v >= 0x80 ? (v & 0x7f) | 0x80 : v);
        if (v < 0x80) break;
    }
    memcpy(e.o + 10 - np, pre, np);
    memmove(e.o, e.o + 10 - np, e.n - (10 - np));
    e.n -= 10 - np;
    uint32_t crc = (uint32_t)crc32(0, content, (uInt)n);
    for (int i = 0; i < 4; i++) {
        e.first = 0;
        put(&e, (uint8_t)(crc >> (8 * i)));
    }
    if (e.failed) { free(e.o); return -1; }
    *out = e.o;
    *outn = e.n;
    return 0;
}

/* ---------------------------------------------------------------- decoder */

static inline uint8_t in_byte(arb_rc_dec *d)
{
    if (d->consumed >= d->limit) {
        /* past CODED: up to 4 zero bytes of padding (§D.2's flush) */
        if (d->pad < 4) {
            d->pad++;
            return 0;
        }
        d->over = 1;
        d->cut = 1;
        return 0;
    }
    if (d->p == d->e && (d->cut || !d->fill || !d->fill(d->fill_ctx, &d->p, &d->e))) {
        d->cut = 1;
        return 0;
    }
    d->consumed++;
    return *d->p++;
}

static inline void dec_norm(arb_rc_dec *d)
{
    while (d->range < TOP) {
        d->range <<= 8;
        uint8_t b = in_byte(d);
        d->code = (d->code << 8) | b;
        d->win = (d->win << 8) | b;
    }
}

static inline uint8_t dec_byte(arb_rc_dec *d, int c)
{
    unsigned k = 1;
    if (c < 0) {
        for (int j = 0; j < 8; j++) {
            dec_norm(d);
            d->range >>= 1;
            unsigned bit = d->code >= d->range;
            if (bit) d->code -= d->range;
            k = k * 2 + bit;
        }
        return (uint8_t)k;
    }
    uint16_t *q, *p = slots(d->m, c, &q);
    if (!p) { d->cut = 2; return 0; }
    for (int j = 0; j < 8; j++) {
        dec_norm(d);
        uint32_t bound = (d->range >> PBITS) * (p[k] & (PONE - 1));
        unsigned bit = d->code >= bound;
        d->code -= bound & (0u - bit);
        d->range = bit ? d->range - bound : bound;
        upd(&p[k], bit);
        if (q) upd(&q[k], bit);
        k = k * 2 + bit;
    }
    return (uint8_t)k;
}

int arb_rc_dec_start(arb_rc_dec *d, arb_rc_model *m, int timed)
{
    d->range = 0xffffffffu;
    d->code = 0;
    d->pad = 0;
    d->m = m;
    d->done = 0;
    d->crc = (uint32_t)crc32(0, NULL, 0);
    arb_rc_tok_init(&d->tok, timed);
    d->win = 0;
    for (int i = 0; i < 4; i++) {
        uint8_t b = in_byte(d);
        d->code = (d->code << 8) | b;
        d->win = (d->win << 8) | b;
    }
    while (d->tok.st == ARB_RC_T_LENC || d->tok.st == ARB_RC_T_LENH) {
        if (d->tok.vb >= 10) return 2;
        uint8_t b = dec_byte(d, arb_rc_tok_ctx(&d->tok));
        if (d->cut) return d->over ? 2 : 1;
        tok_push(&d->tok, b);
    }
    if (d->tok.hlen > d->tok.clen) return 2;
    d->started = 1;
    return 0;
}

/* The decoder's hot loop keeps range, code, the input cursor and its
 * limit in locals: lim is the end of the buffered input or of the body's
 * coded bytes (d->limit), whichever comes first, so a byte costs one
 * compare; the bytes read from ip0 on are added to d->consumed whenever
 * the state is written back (an input refill, the end of the body, the
 * end of the call). */
#define SYNC() (d->consumed += (uint64_t)(ip - ip0), ip0 = ip)
#define LIMIT()                                                                                                         \
    do {                                                                                                                \
        uint64_t left_ = d->limit > d->consumed ? d->limit - d->consumed : 0;                                           \
        lim = (uint64_t)(ie - ip) <= left_ ? ie : ip + left_;                                                           \
        ip0 = ip;                                                                                                       \
    } while (0)
#define NORM()                                                                                                          \
    while (range < TOP) {                                                                                               \
        uint8_t nb_;                                                                                                    \
        if (ip < lim) {                                                                                                 \
            nb_ = *ip++;                                                                                                \
        } else {                                                                                                        \
            SYNC();                                                                                                     \
            d->p = ip;                                                                                                  \
            d->e = ie;                                                                                                  \
            nb_ = in_byte(d);                                                                                           \
            ip = d->p;                                                                                                  \
            ie = d->e;                                                                                                  \
            LIMIT();                                                                                                    \
        }                                                                                                               \
        range <<= 8;                                                                                                    \
        code = (code << 8) | nb_;                                                                                       \
        win = (win << 8) | nb_;                                                                                         \
    }

/* The 8 bits of a byte coded with context states p (and, through
 * PARENT_UPD, its parent's) into x. */
#define TREE_BITS(PARENT_UPD)                                                                                           \
    for (int j = 0; j < 8; j++) {                                                                                       \
        NORM();                                                                                                         \
        uint32_t bound = (range >> PBITS) * (p[x] & (PONE - 1));                                                        \
        unsigned bit = code >= bound;                                                                                   \
        code -= bound & (0u - bit);                                                                                     \
        range = bit ? range - bound : bound;                                                                            \
        upd(&p[x], bit);                                                                                                \
        PARENT_UPD;                                                                                                     \
        x = x * 2 + bit;                                                                                                \
    }

size_t arb_rc_dec_bytes(arb_rc_dec *d, uint8_t *out, size_t cap)
{
    size_t k = 0;
    uint64_t left = d->tok.clen - d->done;
    if (cap > left) cap = (size_t)left;
    uint32_t range = d->range, code = d->code, win = d->win;
    const uint8_t *ip = d->p, *ie = d->e, *lim, *ip0;
    LIMIT();
    arb_rc_model *m = d->m;
    while (k < cap) {
        int c = arb_rc_tok_ctx(&d->tok);
        unsigned x = 1;
        if (c < 0) {
            for (int j = 0; j < 8; j++) {
                NORM();
                range >>= 1;
                unsigned bit = code >= range;
                code -= range & (0u - bit);
                x = x * 2 + bit;
            }
        } else {
            uint16_t *q, *p = slots(m, c, &q);
            if (!p) {
                d->cut = 2;
                break;
            }
            /* one copy of the bit loop per case, so that the parent's
             * test leaves the loop (3 % of verify's instructions) */
            if (q) {
                TREE_BITS(upd(&q[x], bit))
            } else {
                TREE_BITS((void)0)
            }
        }
        if (d->cut) break;
        uint8_t b = (uint8_t)x;
        tok_push(&d->tok, b);
        out[k++] = b;
    }
    SYNC();
    d->range = range;
    d->code = code;
    d->win = win;
    d->p = ip;
    d->e = ie;
    if (k) d->crc = (uint32_t)crc32(d->crc, out, (uInt)k);
    d->done += k;
    return k;
}
#undef TREE_BITS
#undef NORM
#undef LIMIT
#undef SYNC

/* The flush is canonical (§D.2): the decoder's last window W (its last 4
 * bytes, padding included) and the encoder's low (W − code) say which
 * bytes the writer wrote. Any W with W − low < range decodes to the same
 * content, so without this check the last coded bytes would have slack
 * bits that change the file and not the match. Two flushes are allowed:
 * the shortest (W = low rounded up to 2^32, else to 2^24; its zero bytes
 * are padding) and the older five-shift one (W = low, no padding). */
static int flush_canonical(const arb_rc_dec *d)
{
    uint32_t low = d->win - d->code;
    if (d->code == 0 && d->pad == 0) return 1; /* five shifts: every byte written */
    uint32_t w = low == 0 || (uint32_t)(0u - low) < d->range ? 0 : (uint32_t)(((uint64_t)low + 0xffffffu) & 0xff000000u);
    return d->win == w && d->pad == (w == 0 ? 4u : 3u);
}

int arb_rc_dec_finish(arb_rc_dec *d)
{
    dec_norm(d);
    if (d->over || (!d->cut && d->consumed != d->limit)) return 2;
    if (d->cut) return 1;
    return flush_canonical(d) ? 0 : 3;
}

/* The body's coded-length prefix at p[0..n): its value and *used, or 1
 * (more bytes needed), 2 (malformed): a record varint (rec2.h). */
static int prefix(const uint8_t *p, size_t n, uint64_t *v, size_t *used)
{
    const uint8_t *q = p;
    int rc = arb_r2_get_varint(&q, p + n, v);
    if (rc == 0) *used = (size_t)(q - p);
    return rc;
}

int arb_rc_body_prefix(const uint8_t *p, size_t n, uint64_t *coded, size_t *used)
{
    return prefix(p, n, coded, used);
}

const char *arb_rc_decode_all(arb_rc_model *m, const uint8_t *body, size_t n, int timed, uint64_t max,
                              uint8_t **content, size_t *cn, size_t *header_len, size_t *used)
{
    arb_rc_dec d;
    memset(&d, 0, sizeof d);
    *content = NULL;
    size_t pu;
    int pr = prefix(body, n, &d.limit, &pu);
    if (pr) return pr == 1 ? "the range-coded body ends inside its length" : "the range-coded body's length is malformed";
    d.p = body + pu;
    d.e = body + n;
    int rc = arb_rc_dec_start(&d, m, timed);
    if (rc == 1) return "the range-coded body ends inside its lengths";
    if (rc == 2) return "the range-coded body's lengths are malformed";
    if (d.tok.clen > max) return "the range-coded body claims more content than allowed";
    /* grown as bytes decode: a length that lies costs no more memory than
     * the bytes that really decode */
    size_t cap = d.tok.clen < 65536 ? (size_t)d.tok.clen : 65536, k = 0;
    uint8_t *c = malloc(cap ? cap : 1);
    if (!c) return "out of memory decoding a member";
    while (k < d.tok.clen && !d.cut) {
        if (k == cap) {
            size_t nc = (uint64_t)cap * 2 < d.tok.clen ? cap * 2 : (size_t)d.tok.clen;
            uint8_t *q = realloc(c, nc);
            if (!q) { free(c); return "out of memory decoding a member"; }
            c = q;
            cap = nc;
        }
        k += arb_rc_dec_bytes(&d, c + k, cap - k);
    }
    if (d.cut == 2) { free(c); return "out of memory decoding a member"; }
    int fr = k == d.tok.clen ? arb_rc_dec_finish(&d) : d.over ? 2 : 1;
    if (fr) {
        free(c);
        return fr == 2   ? "the range-coded body does not end where its length says: corrupt"
               : fr == 3 ? "the range-coded body's last coded bytes are not the flush FORMAT.md D.2 writes: corrupt"
                         : "the range-coded body ends early";
    }
    size_t off = (size_t)(d.p - body);
    if (n - off < 4) { free(c); return "the range-coded body ends before its CRC-32"; }
    uint32_t crc = (uint32_t)body[off] | (uint32_t)body[off + 1] << 8 | (uint32_t)body[off + 2] << 16 |
                   (uint32_t)body[off + 3] << 24;
    if (crc != d.crc) { free(c); return "the range-coded body's CRC-32 does not match its content: corrupt"; }
    *content = c;
    *cn = k;
    *header_len = (size_t)d.tok.hlen;
    *used = off + 4;
    return NULL;
}
