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

/* Decode the measured header object p[0..n) into h, building the generic
 * tree in t. name labels errors. */
int arb_replay__header_decode(arb_replay_header *h, arb_tree *t, const uint8_t *p, size_t n,
                              const arb_replay_limits *lim, const char *name, arb_error *err);

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

/* Archive writer: add a finished match (the content buffer is taken over
 * and cleared) as the next member; seal (may be NULL) seals it. */
int arb_archive__add(arb_archive_writer *aw, const uint8_t env[8], arb_mpbuf *content, uint64_t actions,
                     arb_replay_seal_fn seal, void *seal_ctx, arb_error *err);
/* Reader over a member image (envelope + zlib stream + seal block) whose
 * stream uses the preset dictionary dict (borrowed until close). */
int arb_replay__open_mem_dict(arb_replay **out, const void *buf, size_t len, const uint8_t *dict, size_t dict_len,
                              const char *name, const arb_replay_limits *lim, arb_error *err);
/* Hand buffers to the reader, freed at arb_replay_close. */
void arb_replay__own(arb_replay *r, void *a, void *b);
/* The CONTENT hash of env + content (arbiter/seal.h). */
void arb_replay__digest(const uint8_t env[8], const uint8_t *p, size_t n, uint8_t digest[ARB_REPLAY_DIGEST]);

/* Fill zero fields of lim from the defaults into out. */
void arb_replay__limits(arb_replay_limits *out, const arb_replay_limits *lim);

#endif
