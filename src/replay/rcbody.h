/* rcbody.h — the range-coded body of version 2 (replays/FORMAT.md Part D):
 * an LZMA-style adaptive binary range coder (32-bit range, 11-bit
 * probabilities) whose models are chosen, byte by byte, by a tokenizer that
 * follows the record grammar of §B.3. The encoder and the decoder run the
 * same tokenizer over the same symbol stream (varint content length,
 * varint header length, then the CONTENT bytes), so both pick the same
 * model for every byte. Models are allocated per context on first use
 * (a map from context to slot), so starting a match costs a small memset;
 * an archive member starts from a copy of a model primed with the first
 * members' contents (§D.5). Not installed. */
#ifndef ARBITER_REPLAY_RCBODY_H
#define ARBITER_REPLAY_RCBODY_H

#include <stddef.h>
#include <stdint.h>

#define ARB_RC_PRIME_MEMBERS 16 /* archive members whose contents prime the models */

/* Context ids (FORMAT.md §D.4). */
enum {
    ARB_RC_C_LEN = 0,                      /* 6: content length bytes 0,1,2+; header length 0,1,2+ */
    ARB_RC_C_HDR = ARB_RC_C_LEN + 6,       /* 256: header byte by the previous header byte (0 first) */
    ARB_RC_C_OP = ARB_RC_C_HDR + 256,      /* 39: op byte by the class of the previous op */
    ARB_RC_C_COUNT = ARB_RC_C_OP + 39,     /* 1 */
    ARB_RC_C_VERB = ARB_RC_C_COUNT + 1,    /* 1 */
    ARB_RC_C_MS = ARB_RC_C_VERB + 1,       /* 3: think time low byte, high byte, varint */
    ARB_RC_C_ARG = ARB_RC_C_MS + 3,        /* 256: (verb 0..31, argument 0..3, byte 0/1+) */
    ARB_RC_C_TURN = ARB_RC_C_ARG + 256,    /* 2 */
    ARB_RC_C_EL = ARB_RC_C_TURN + 2,       /* 2 */
    ARB_RC_C_OUT = ARB_RC_C_EL + 2,        /* 6: winner, reason, length, string, turns 0/1+ */
    ARB_RC_C_UNK = ARB_RC_C_OUT + 6,       /* 2: unknown-record length, bytes (and after a reserved op) */
    ARB_RC_C_OP0 = ARB_RC_C_UNK + 2,       /* 1: parent of every op context */
    ARB_RC_C_ARG0 = ARB_RC_C_OP0 + 1,      /* 8: parents of the argument contexts: (argument 0..3, byte 0/1+) */
    ARB_RC_NCTX = ARB_RC_C_ARG0 + 8
};

/* The parent of context c (FORMAT.md §D.3): a new op or argument context
 * starts from its parent's probabilities, and every byte coded in it also
 * updates the parent; -1: none. */
static inline int arb_rc_parent(int c)
{
    if (c >= ARB_RC_C_OP && c < ARB_RC_C_OP + 39) return ARB_RC_C_OP0;
    if (c >= ARB_RC_C_ARG && c < ARB_RC_C_ARG + 256) return ARB_RC_C_ARG0 + (c - ARB_RC_C_ARG) % 8;
    return -1;
}
#define ARB_RC_DIRECT (-1) /* the byte is 8 equiprobable bits (hash bytes) */

typedef struct arb_rc_model {
    uint16_t map[ARB_RC_NCTX];  /* slot + 1, 0: not used yet */
    unsigned nslots, cap;
    uint16_t (*slot)[256];      /* node k of a byte tree at [k], 1..255 */
    /* a model this one starts from (arb_rc_model_base), or NULL: a context
     * not used here yet takes its states from the first model of the chain
     * that has it, copied on first use; the base must outlive this model
     * and not change while it is used */
    const struct arb_rc_model *base;
} arb_rc_model;

/* The tokenizer (FORMAT.md §D.4). */
typedef struct arb_rc_tok {
    uint8_t st, timed, prev, op, verb, nargs, argi, vb, last;
    uint64_t left, val;
    unsigned shift;
    uint64_t pos;               /* header bytes seen */
    uint64_t clen, hlen;        /* decoded lengths */
} arb_rc_tok;

enum {
    ARB_RC_T_LENC, ARB_RC_T_LENH, ARB_RC_T_HDR, ARB_RC_T_OP, ARB_RC_T_COUNT, ARB_RC_T_VERB, ARB_RC_T_MSLO,
    ARB_RC_T_MSHI, ARB_RC_T_MSVAR, ARB_RC_T_ARG, ARB_RC_T_HASH, ARB_RC_T_TURN, ARB_RC_T_EL, ARB_RC_T_WIN,
    ARB_RC_T_REASON, ARB_RC_T_RLEN, ARB_RC_T_RSTR, ARB_RC_T_OTURNS, ARB_RC_T_ULEN, ARB_RC_T_UBYTES, ARB_RC_T_RAW
};

void arb_rc_tok_init(arb_rc_tok *t, int timed);

static inline int arb_rc_tok_ctx(const arb_rc_tok *t)
{
    unsigned b1 = t->vb ? 1u : 0u;
    switch (t->st) {
    case ARB_RC_T_LENC: return ARB_RC_C_LEN + (t->vb < 2 ? t->vb : 2);
    case ARB_RC_T_LENH: return ARB_RC_C_LEN + 3 + (t->vb < 2 ? t->vb : 2);
    case ARB_RC_T_HDR: return ARB_RC_C_HDR + t->last;
    case ARB_RC_T_OP: return ARB_RC_C_OP + t->prev;
    case ARB_RC_T_COUNT: return ARB_RC_C_COUNT;
    case ARB_RC_T_VERB: return ARB_RC_C_VERB;
    case ARB_RC_T_MSLO: return ARB_RC_DIRECT;
    case ARB_RC_T_MSHI: return ARB_RC_C_MS + 1;
    case ARB_RC_T_MSVAR: return ARB_RC_C_MS + 2;
    case ARB_RC_T_ARG:
        return ARB_RC_C_ARG + (int)((((unsigned)t->verb * 4u) + (t->argi < 3 ? t->argi : 3u)) * 2u + b1);
    case ARB_RC_T_HASH: return ARB_RC_DIRECT;
    case ARB_RC_T_TURN: return ARB_RC_C_TURN + (int)b1;
    case ARB_RC_T_EL: return ARB_RC_C_EL + (int)b1;
    case ARB_RC_T_WIN: return ARB_RC_C_OUT;
    case ARB_RC_T_REASON: return ARB_RC_C_OUT + 1;
    case ARB_RC_T_RLEN: return ARB_RC_C_OUT + 2;
    case ARB_RC_T_RSTR: return ARB_RC_C_OUT + 3;
    case ARB_RC_T_OTURNS: return ARB_RC_C_OUT + 4 + (int)b1;
    case ARB_RC_T_ULEN: return ARB_RC_C_UNK;
    default: return ARB_RC_C_UNK + 1; /* UBYTES, RAW */
    }
}

/* Advance the tokenizer past byte b. */
void arb_rc_tok_push(arb_rc_tok *t, uint8_t b);

/* Models. */
int arb_rc_model_init(arb_rc_model *m);       /* 0 ok, -1 no memory */
void arb_rc_model_reset(arb_rc_model *m);     /* every context back to p = 1/2 */
int arb_rc_model_copy(arb_rc_model *dst, const arb_rc_model *src);
/* dst starts from src (which must outlive it, unchanged) without copying
 * it: the same coding as arb_rc_model_copy, paying only for the contexts
 * dst uses. 0 ok. */
int arb_rc_model_base(arb_rc_model *dst, const arb_rc_model *src);
void arb_rc_model_free(arb_rc_model *m);
/* The 255 node states of context c (allocated on first use: from its
 * parent's probabilities, else p = 1/2); NULL when out of memory. */
uint16_t *arb_rc_model_slot(arb_rc_model *m, int c);

/* Feed one member's symbol stream through m's updates without coding
 * (archive priming, §D.5). 0 ok, -1 no memory. */
int arb_rc_prime(arb_rc_model *m, const uint8_t *content, size_t n, size_t header_len, int timed);

/* Encode content (header_len bytes of header first) with model m (its
 * state on entry is the starting state): *out (malloc'd, *outn bytes) is
 * the whole body: varint coded length, coded bytes, CRC-32 of the
 * content. 0 ok, -1 no memory. */
int arb_rc_encode(arb_rc_model *m, const uint8_t *content, size_t n, size_t header_len, int timed, uint8_t **out,
                  size_t *outn);

/* ---- the streaming decoder */
typedef struct arb_rc_dec {
    uint32_t range, code;
    uint32_t win;               /* the last 4 coded bytes read (padding as 0) */
    const uint8_t *p, *e;       /* input */
    int (*fill)(void *ctx, const uint8_t **p, const uint8_t **e); /* more input: 1, or 0 at its end */
    void *fill_ctx;
    int cut;                    /* a byte past the end of the input was needed */
    int over;                   /* ... past the body's coded length (corrupt) */
    uint64_t consumed;          /* coded bytes read */
    uint64_t limit;             /* the body's coded length (its prefix) */
    unsigned pad;               /* zero bytes supplied past CODED (at most 4) */
    arb_rc_tok tok;
    arb_rc_model *m;
    uint64_t done;              /* content bytes produced */
    int started;                /* the lengths have been decoded */
    uint32_t crc;
} arb_rc_dec;

/* Start (d->limit set from the body's prefix): read the first 4 coded
 * bytes and decode the two lengths. Returns 0 ok, 1 the input ends first
 * (truncated), 2 a length is malformed or the body too short (corrupt). */
int arb_rc_dec_start(arb_rc_dec *d, arb_rc_model *m, int timed);
/* Decode up to cap content bytes into out: returns the number of bytes
 * produced; d->cut set when the input ended (bytes returned are exact). */
size_t arb_rc_dec_bytes(arb_rc_dec *d, uint8_t *out, size_t cap);
/* After the last content byte: the final normalisation. 0 ok, 1 cut, 2
 * the coded bytes do not end there (corrupt), 3 the last coded bytes are
 * not one of the two flushes §D.2 allows (corrupt: other bytes there would
 * decode to the same content, so a seal could not tell them apart). */
int arb_rc_dec_finish(arb_rc_dec *d);

/* The body's coded-length prefix (a varint) at p[0..n): 0 ok (*coded,
 * *used), 1 more bytes needed, 2 malformed. */
int arb_rc_body_prefix(const uint8_t *p, size_t n, uint64_t *coded, size_t *used);

/* One-shot decode of a whole body in memory (archive members): *content
 * malloc'd; *used: bytes of body consumed (coded bytes + 4). Returns 0 ok,
 * or a message for the error. max bounds the content length. */
const char *arb_rc_decode_all(arb_rc_model *m, const uint8_t *body, size_t n, int timed, uint64_t max,
                              uint8_t **content, size_t *cn, size_t *header_len, size_t *used);

#endif
