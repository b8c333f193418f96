/* internal.h — what the replay layer's files share: the header codec
 * between writer/reader and header.c. Not installed. */
#ifndef ARBITER_REPLAY_INTERNAL_H
#define ARBITER_REPLAY_INTERNAL_H

#include "arbiter/replay.h"
#include "replay/mpack.h"

#define ARB_REPLAY_ENVELOPE 8 /* "TCGR", version, flags, 2 reserved */

/* Encode the header map of meta into b. Returns ARB_OK or an error in err
 * (a card index outside the pool, too many players, …). */
int arb_replay__header_encode(arb_mpbuf *b, const arb_replay_meta *meta, arb_error *err);

/* The card indices of each seat's deck as version 2 codes them (a preset
 * or card runs): the reader's deck needs no card-ID search then. Valid
 * for seat s when have[s], in the pool `pool` (the game's newest table). */
typedef struct arb_replay__decks {
    const arb_game *pool;
    uint8_t have[ARB_MAX_SEATS];
    uint16_t n[ARB_MAX_SEATS];
    uint16_t idx[ARB_MAX_SEATS][ARB_DECK_MAX];
} arb_replay__decks;

/* Decode the measured header object p[0..n) into h, building the generic
 * tree in t. name labels errors. dk (or NULL) receives version 2's deck
 * indices. */
int arb_replay__header_decode(arb_replay_header *h, arb_tree *t, const uint8_t *p, size_t n,
                              const arb_replay_limits *lim, const char *name, arb_error *err,
                              arb_replay__decks *dk);
/* The same, but the common version-2 header (preset decks, no extra keys)
 * fills h without building the tree: *no_tree is then 1 and h->tree NULL
 * (arb_replay_get_header builds it when someone asks). Every other header,
 * and every error, goes through arb_replay__header_decode's path. */
int arb_replay__header_decode_lazy(arb_replay_header *h, arb_tree *t, const uint8_t *p, size_t n,
                                   const arb_replay_limits *lim, const char *name, arb_error *err,
                                   arb_replay__decks *dk, int *no_tree);
/* The header as decoded, without building a tree the fast path left out
 * (h->tree may be NULL): for the verifier, which never reads the tree. */
const arb_replay_header *arb_replay__header(const arb_replay *r);

/* Strict checks over the measured header p[0..n): no map at any level
 * holds a key twice, every key is a string, every string is valid UTF-8
 * without a NUL byte. v2: the root is version 2's positional array, whose
 * fields the key paths name by their version-1 keys (players.0.name);
 * 2: the root is version 2's header translated to the version-1 map, whose
 * strings were all checked in the positional form (only keys are checked:
 * an extra key may repeat a translated one).
 * 0 ok; -1 with msg and *off (offset from p) naming the problem; -2 no
 * memory. */
int arb_replay__header_strict(const uint8_t *p, size_t n, int v2, size_t *off, char *msg, size_t msgsize);
/* 1 when s[0..n) is valid UTF-8 (no overlongs, surrogates or code points
 * above U+10FFFF); else 0 and *bad = offset of the first bad sequence. */
int arb_replay__utf8_valid(const uint8_t *s, size_t n, size_t *bad);

/* What the header proves beyond the replay (trust.c): the fair seed
 * recomputed, the published commitment compared, the seeded setup
 * required. Fills res (fair, published, seeded); returns ARB_OK or the
 * divergence kind with res->detail set. */
int arb_replay__verify_trust_header(const arb_replay_header *h, const arb_verify_opts *opts,
                                    arb_verify_result *res, const char *name);

/* The seal verdict once the stream has been read (trust.c): fills res
 * (seal, signer, trusted); returns ARB_OK, or ARB_DIV_SIGNATURE with
 * res->detail when the seal is broken, or trusted keys were given and the
 * file is unsigned or signed by another key. */
int arb_replay__verify_seal(arb_replay *r, const arb_verify_opts *opts, arb_verify_result *res);
/* The match identity (identity.c): init with the header once the setup is
 * accepted, one call per applied action, final once the outcome verified
 * (0, or -1 when no identity could be computed: out is then not one). */
typedef struct arb_replay__id {
    _Alignas(64) unsigned char opaque[384]; /* crypto_generichash_state */
    uint8_t buf[2048];
    size_t n;
    int failed;
} arb_replay__id;
void arb_replay__id_init(arb_replay__id *id, const arb_replay_header *h);
void arb_replay__id_action(arb_replay__id *id, const arb_action *a);
int arb_replay__id_final(arb_replay__id *id, uint64_t actions, uint8_t out[ARB_REPLAY_ID_BYTES]);

/* LEB128 varint into p (at most 10 bytes); returns the end. */
static inline uint8_t *arb_replay__varint(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

/* Seconds since the epoch → "YYYY-MM-DDTHH:MM:SSZ". */
void arb_replay__iso(char *out, size_t n, uint64_t t);

/* One-shot zlib stream of p[0..n) at level, with an optional preset
 * dictionary; the smallest window that holds dict + data. *out is malloc'd. */
int arb_replay__deflate_once(const uint8_t *p, size_t n, int level, const uint8_t *dict, size_t dict_len,
                             uint8_t **out, size_t *outn, arb_error *err);

/* Version 2: inflate (and hash) the rest of the body without decoding
 * it, so the content digest and the trailer are known even after a
 * divergence or a malformed record (the seal then says whether the bytes
 * are the ones signed). ARB_OK when the body's end was reached. */
int arb_replay__drain(arb_replay *r, arb_error *err);
/* A standalone version-2 file opened to keep its content: arb_replay__kept
 * then drains the body and hands over the whole content (header and
 * records, as the seal digests it; the caller frees it) and the header's
 * length in it. */
int arb_replay__open_keep(arb_replay **out, const char *path, const arb_replay_limits *lim, arb_error *err);
int arb_replay__kept(arb_replay *r, uint8_t **content, size_t *n, size_t *header_len, arb_error *err);
/* A version-2 body that is corrupt when read to its end (after a
 * divergence, say): a range-coded body whose CRC-32 fails (the bytes
 * decoded were not the ones written), or bytes after the body that are not
 * a seal block (FORMAT.md §B.1): ARB_EFORMAT with err naming it; otherwise
 * ARB_OK. */
int arb_replay__body_corrupt(arb_replay *r, arb_error *err);
/* An archive member read through a trusted index: when its last record
 * has been read, the member must hold exactly content bytes and actions
 * actions, else arb_replay_next fails (ARB_EFORMAT: the index is corrupt). */
void arb_replay__index_expect(arb_replay *r, uint64_t member, uint64_t content, uint64_t actions);
/* What follows the body is not a seal block (the reader has failed). */
int arb_replay__trailer_bad(const arb_replay *r);
/* Late hashes: when an archive compresses on its own thread, the
 * recorder leaves the checkpoint and outcome hash bytes blank and hands
 * over a copy of the match state of each instead; the compressor hashes
 * the copies and fills the bytes in before it compresses the member. The
 * content is byte for byte what inline hashing writes (a state copy is a
 * clone: game.h), only the hashing moves off the recording thread. */
typedef struct arb_replay__late {
    const arb_game *game;       /* whose hash() fills them */
    size_t state_size;
    size_t n, cap;
    size_t *off;                /* content offset of hash k's bytes */
    uint8_t *width;             /* 1 or 8 bytes (little-endian low bytes) */
    uint8_t **blk;              /* the states, ARB_REPLAY__LATE_BLK per block: never moved */
} arb_replay__late;
#define ARB_REPLAY__LATE_BLK 16
/* Hash every state copy into its bytes of content (n bytes, each offset
 * checked against it); the list is then empty (its memory kept). */
void arb_replay__late_fill(arb_replay__late *l, uint8_t *content, size_t n);
void arb_replay__late_free(arb_replay__late *l);
/* Archive writer: add a finished match (the content buffer is taken over
 * and cleared; header_len: bytes of its header) as the next member; seal
 * (may be NULL) seals it. late (may
 * be NULL or empty; taken over and cleared) lists hash bytes still to fill
 * in; a sealed member must have none (the seal signs final bytes). */
int arb_archive__add(arb_archive_writer *aw, const uint8_t env[8], arb_mpbuf *content, size_t header_len,
                     uint64_t actions, arb_replay__late *late, arb_replay_seal_fn seal, void *seal_ctx, arb_error *err);
/* Whether the next member should have late hashes (a threaded writer
 * whose compressor is keeping up); then l is an empty late-hash list whose
 * memory the compressor has used before (no malloc and fresh pages per
 * match), or a zeroed one. */
int arb_archive__late_take(arb_archive_writer *aw, arb_replay__late *l, size_t state_size);
/* Reader over a member image (envelope + zlib stream + seal block) whose
 * stream uses the preset dictionary dict (borrowed until close). */
int arb_replay__open_mem_dict(arb_replay **out, const void *buf, size_t len, const uint8_t *dict, size_t dict_len,
                              const char *name, const arb_replay_limits *lim, arb_error *err);
/* The same over a range-coded member (FORMAT.md §D.5): prime (copied)
 * is the model primed with the archive's first members, or NULL. */
struct arb_rc_model;
int arb_replay__open_mem_prime(arb_replay **out, const void *buf, size_t len, const struct arb_rc_model *prime,
                               const char *name, const arb_replay_limits *lim, arb_error *err);
/* Archive writer: finish members with zlib (§C.1) instead of the range
 * coder (tests of older archives). */
void arb_archive__writer_zlib(arb_archive_writer *aw, int on);
/* Hand buffers to the reader, freed at arb_replay_close. */
void arb_replay__own(arb_replay *r, void *a, void *b);
/* The CONTENT hash of env + content (arbiter/seal.h). */
void arb_replay__digest(const uint8_t env[8], const uint8_t *p, size_t n, uint8_t digest[ARB_REPLAY_DIGEST]);

/* Deflate's padding bits must be zero in a version-2 body (FORMAT.md
 * §B.1): inflate never looks at them (after the last block's end code,
 * between a stored block's 3-bit header and its length), so one flipped
 * padding bit would change the file but not the content a seal covers.
 * Call zpad_at at every block boundary of inflate(Z_BLOCK) (data_type bit
 * 128) with the last input byte taken; when it leaves p->pend set, call
 * zpad_next with the next input byte before inflating on. 1: a padding
 * bit is set (corrupt). */
typedef struct arb_replay__zpad {
    uint8_t pend, k, hi;
} arb_replay__zpad;
int arb_replay__zpad_at(arb_replay__zpad *p, int data_type, uint8_t last);
int arb_replay__zpad_next(arb_replay__zpad *p, uint8_t next);

/* Fill zero fields of lim from the defaults into out. */
void arb_replay__limits(arb_replay_limits *out, const arb_replay_limits *lim);

#endif
