/* arbiter/replay.h — .tcgr replays: the recorder, the bounded reader and the
 * verifier. The byte format is specified in replays/FORMAT.md.
 *
 * A replay is the seed, decks and options of a match (the header) followed
 * by every action, a checkpoint (turn, state hash) at the end of each turn,
 * and the outcome. The writer streams into NAME.part and renames it to NAME
 * on close; it flushes at every checkpoint, so a recorder killed mid-match
 * leaves a .part file readable up to its last flush. The reader is
 * streaming and bounded by arb_replay_limits: a hostile file gets an error,
 * never an unbounded allocation. The verifier replays the actions against
 * the engine named in the header and reports the first divergence.
 *
 * Nothing here is specific to one game: the engine is looked up in the
 * registry by the header's "game" key (or given explicitly). */
#ifndef ARBITER_REPLAY_H
#define ARBITER_REPLAY_H

#include <stdint.h>
#include <stdio.h>

#include "arbiter/game.h"
#include "arbiter/hash.h"
#include "arbiter/match.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ARB_REPLAY_MAGIC "TCGR"
#define ARB_REPLAY_VERSION 2                /* what the writer writes by default */
#define ARB_REPLAY_VERSION_1 1              /* still read (and written on request) */
#define ARB_REPLAY_FORMAT "tcgr-1"          /* v1 header "format" value */
#define ARB_REPLAY_FORMAT_2 "tcgr-2"        /* v2 header "format" value (optional key) */
#define ARB_REPLAY_FLAG_TIMED 0x01u         /* elapsed_ms carry think time */
#define ARB_REPLAY_FLAG_ARCHIVE 0x02u       /* v2: the file is an archive of matches */
#define ARB_REPLAY_FLAG_RC 0x04u            /* v2: the body is range-coded (FORMAT.md Part D), not zlib */
/* arb_replay_meta.flags only (never written): finish a v2 file with the
 * zlib body of §B.1 instead of the range-coded one (older readers). */
#define ARB_REPLAY_WRITE_ZLIB 0x80u
/* arb_replay_meta.flags only: range-code a v2 file from empty models (byte
 * 6 = 0, as before the built-in primers of FORMAT.md §D.8; the kept corpus). */
#define ARB_REPLAY_WRITE_RC0 0x40u
/* v2: most bytes a seal block (or anything else) may take after the body. */
#define ARB_REPLAY_TRAILER_MAX 4096
#define ARB_REPLAY_DIGEST 64                /* BLAKE2b-512 content digest (arbiter/seal.h) */
/* zlib level of the writer, chosen by measurement (replays/FORMAT.md §8). */
#define ARB_REPLAY_LEVEL_DEFAULT 1
/* v2: zlib level of the finished file's single stream (FORMAT.md §B.6). */
#define ARB_REPLAY_LEVEL_FINAL 9
#define ARB_REPLAY_SALT_MAX 64
#define ARB_REPLAY_COMMIT_BYTES 32
#define ARB_REPLAY_ID_BYTES 32              /* arb_verify_result.identity */

/* Record kinds: the small integer tag that starts each record array. */
enum { ARB_REC_ACTION = 0, ARB_REC_CHECKPOINT = 1, ARB_REC_OUTCOME = 2 };

/* ---------------------------------------------------------------- limits */

/* Every bound the reader enforces. Start from ARB_REPLAY_LIMITS_INIT and
 * override fields; 0 in a field means "use the default". */
typedef struct arb_replay_limits {
    uint64_t max_decompressed;  /* total decompressed bytes of one file */
    uint32_t max_header;        /* bytes of the header object */
    uint32_t max_record;        /* bytes of one record object */
    uint32_t max_depth;         /* nesting of arrays/maps in the header */
    uint32_t max_count;         /* entries of one array or map */
    uint32_t max_string;        /* bytes of one string or binary */
    uint32_t max_nodes;         /* values in the whole header */
    uint32_t max_players;       /* entries of "players" (<= ARB_MAX_SEATS) */
    uint32_t max_deck;          /* cards in one deck (<= ARB_DECK_MAX) */
    uint32_t max_actions;       /* actions of one match; 0: the bound its game
                                   declares (arb_game_max_actions) */
} arb_replay_limits;

#define ARB_REPLAY_LIMITS_INIT { \
    (uint64_t)1 << 30,  /* max_decompressed: 1 GiB */ \
    1u << 20,           /* max_header: 1 MiB */ \
    4096u,              /* max_record */ \
    32u,                /* max_depth */ \
    65536u,             /* max_count */ \
    65536u,             /* max_string */ \
    200000u,            /* max_nodes */ \
    ARB_MAX_SEATS,      /* max_players */ \
    ARB_DECK_MAX,       /* max_deck */ \
    0u                  /* max_actions: the game's */ }

/* ------------------------------------------------------------ fair seeds */

/* Commit–reveal seeds (FORMAT.md §12.1): the server draws a secret and
 * publishes commit = BLAKE2b-256("arbiter-fair-seed-v1 commit" || secret)
 * before the players send their contributions; the seed is then derived
 * from the secret and every contribution, and the header reveals all of
 * them so a verifier recomputes both. */
#define ARB_FAIR_SCHEME "arbiter-fair-seed-v1"
#define ARB_FAIR_SECRET_BYTES 32
#define ARB_FAIR_CONTRIB_MAX 64

typedef struct arb_fair {
    uint8_t secret[ARB_FAIR_SECRET_BYTES];
    uint8_t commit[ARB_REPLAY_COMMIT_BYTES];
    int n;                                  /* contributions: one per seat */
    uint8_t len[ARB_MAX_SEATS];             /* 1..ARB_FAIR_CONTRIB_MAX each */
    uint8_t contrib[ARB_MAX_SEATS][ARB_FAIR_CONTRIB_MAX];
} arb_fair;

/* commit = BLAKE2b-256("arbiter-fair-seed-v1 commit" || secret). */
void arb_fair_commit(uint8_t out[ARB_REPLAY_COMMIT_BYTES], const uint8_t secret[ARB_FAIR_SECRET_BYTES]);
/* The seed: the first 8 bytes, little-endian, of BLAKE2b-256(
 * "arbiter-fair-seed-v1 seed" || secret || u8(n) || for each seat in order
 * u8(len) || contribution). */
uint64_t arb_fair_seed(const arb_fair *f);

/* ---------------------------------------------------------------- writer */

/* The seal hook of a v2 writer: called once at close, after the last
 * record, with the 8 envelope bytes and the BLAKE2b-512 content digest
 * (arbiter/seal.h). It writes the seal block into out (at most cap =
 * ARB_REPLAY_TRAILER_MAX bytes) and sets *n; the writer appends it after the
 * body before renaming NAME.part to NAME. Nonzero return: the error (in err)
 * fails the close and NAME.part is kept. */
typedef int (*arb_replay_seal_fn)(void *ctx, const uint8_t envelope[8], const uint8_t digest[ARB_REPLAY_DIGEST],
                                  uint8_t *out, size_t cap, size_t *n, arb_error *err);

/* What goes into the header. names/started/salt/position may be NULL. */
typedef struct arb_replay_meta {
    const arb_game *game;
    const arb_setup *setup;         /* seed, players, decks, options */
    const char *names[ARB_MAX_SEATS];   /* NULL → "P1", "P2", … */
    const char *started;            /* ISO-8601 UTC; NULL → omitted */
    const arb_tnode *position;      /* the match starts from this position */
    const uint8_t *salt;            /* non-NULL: write salt + commit */
    size_t salt_len;                /* 1..ARB_REPLAY_SALT_MAX */
    uint8_t flags;                  /* ARB_REPLAY_FLAG_* */
    int level;                      /* zlib level 0..9; -1 → default */
    const arb_fair *fair;           /* non-NULL: write the "fair" key (the
                                       setup's seed must be arb_fair_seed) */
    int version;                    /* 0 → ARB_REPLAY_VERSION; 1 writes version 1 */
    arb_replay_seal_fn seal;        /* v2: NULL → unsigned */
    void *seal_ctx;
} arb_replay_meta;

typedef struct arb_replay_writer arb_replay_writer;

/* Every header field of meta within the bound its reader keeps (a name of
 * at most ARB_REPLAY_NAME_MAX bytes, …): ARB_OK, or ARB_ELIMIT naming the
 * field, its length and the bound. The writers call it before writing a
 * byte; a recorder calls it before the match starts. */
#define ARB_REPLAY_NAME_MAX 63
int arb_replay_meta_check(const arb_replay_meta *meta, arb_error *err);

/* Create PATH.part and write the envelope and header. */
int arb_replay_writer_open(arb_replay_writer **out, const char *path,
                           const arb_replay_meta *meta, arb_error *err);
int arb_replay_write_action(arb_replay_writer *w, const arb_action *a, arb_error *err);
/* Writes the record and flushes (Z_SYNC_FLUSH + fflush). */
int arb_replay_write_checkpoint(arb_replay_writer *w, uint32_t turn, uint64_t hash,
                                arb_error *err);
/* reason is the outcome reason's name (arb_game.outcome_reasons). */
int arb_replay_write_outcome(arb_replay_writer *w, int winner, const char *reason,
                             uint32_t turns, uint64_t final_hash, arb_error *err);
/* Flush the whole stream. */
int arb_replay_writer_flush(arb_replay_writer *w, arb_error *err);
/* Finish the zlib stream, close, rename PATH.part to PATH, free. */
int arb_replay_writer_close(arb_replay_writer *w, arb_error *err);
/* A match that ends without an outcome (stdin ran out, the recorder was
 * told to stop): finish the body (and the seal) as close does but leave
 * the file as PATH.part, so nothing under PATH looks like a finished match.
 * The file verifies as "consistent, not finished" (res.unfinished). Frees w. */
int arb_replay_writer_close_unfinished(arb_replay_writer *w, arb_error *err);
/* Abandon: close PATH.part as it is (flushed, not finished) and free. NULL ok. */
void arb_replay_writer_free(arb_replay_writer *w);
/* Bytes written to the file so far (envelope included). */
uint64_t arb_replay_writer_bytes(const arb_replay_writer *w);

/* The recorder's step: apply a to m; when accepted, record it, then a
 * checkpoint if the turn changed and the outcome if the match ended.
 * A rejected action is not recorded (the engine's code and rule ID are
 * returned in err) and the match is unchanged. */
int arb_replay_record_step(arb_replay_writer *w, arb_match *m, const arb_action *a,
                           arb_error *err);
/* The first checkpoint (turn and hash of the state after setup); call once
 * after arb_replay_writer_open. */
int arb_replay_record_start(arb_replay_writer *w, const arb_match *m, arb_error *err);

/* ---------------------------------------------------------------- reader */

typedef struct arb_replay_player {
    char name[64];
    char deck_name[64];
    char preset[64];            /* v2: the deck is this preset ("" otherwise) */
    uint16_t ncards;
    const char *cards[ARB_DECK_MAX];    /* card IDs, borrowed from the reader */
    uint8_t nattrs;
    arb_deck_attr attrs[ARB_DECK_ATTRS];
} arb_replay_player;

typedef struct arb_replay_header {
    uint8_t version, flags;
    char format[32];
    char game[32];
    char rules[32];
    char rng[64];
    char hash[32];              /* "" when absent */
    char engine[64];
    char started[40];
    uint64_t seed;
    int players;
    arb_replay_player player[ARB_MAX_SEATS];
    arb_options options;
    const arb_tnode *position;  /* NULL for a seeded setup */
    int has_commit;
    uint8_t commit[ARB_REPLAY_COMMIT_BYTES];
    size_t salt_len;
    uint8_t salt[ARB_REPLAY_SALT_MAX];
    int has_fair;               /* the "fair" key: a commit–reveal seed */
    arb_fair fair;
    const arb_tnode *tree;      /* the whole header map, unknown keys too */
    uint64_t size;              /* bytes of the header object */
} arb_replay_header;

typedef struct arb_replay_record {
    int kind;                   /* ARB_REC_*, or the unknown tag */
    uint64_t index;             /* 0-based, the header excluded */
    uint64_t offset;            /* decompressed offset of the record */
    arb_action action;          /* ARB_REC_ACTION */
    uint32_t turn;              /* CHECKPOINT: turn; OUTCOME: turns */
    uint64_t hash;              /* CHECKPOINT and OUTCOME; a short (v2)
                                   checkpoint hash holds its low hash_bits */
    uint8_t hash_bits;          /* 64, or 8 for a v2 mid-match checkpoint */
    int winner;                 /* OUTCOME: seat or -1 for a draw */
    char reason[64];            /* OUTCOME */
} arb_replay_record;

typedef struct arb_replay arb_replay;

/* Open and read the envelope and header. lim NULL → defaults. Errors:
 * ARB_EIO, ARB_EFORMAT (not a .tcgr / corrupt), ARB_EUNSUPPORTED (future
 * format version), ARB_ETRUNC, ARB_ELIMIT; err->where names the file and
 * the offset. */
int arb_replay_open(arb_replay **out, const char *path, const arb_replay_limits *lim,
                    arb_error *err);
/* The same over a memory buffer (borrowed until close). */
int arb_replay_open_mem(arb_replay **out, const void *buf, size_t len, const char *name,
                        const arb_replay_limits *lim, arb_error *err);
void arb_replay_close(arb_replay *r); /* NULL ok */

const arb_replay_header *arb_replay_get_header(const arb_replay *r);
/* The path or name the replay was opened with (used in error locations). */
const char *arb_replay_name(const arb_replay *r);
/* Next record: 1 when rec is filled, 0 at the clean end of the stream, or
 * a negative code. ARB_ETRUNC means the input ended inside the stream:
 * every record before it was complete and returned (see status). */
int arb_replay_next(arb_replay *r, arb_replay_record *rec, arb_error *err);

typedef struct arb_replay_status {
    uint64_t records, actions, checkpoints, outcomes, unknown;
    int ended;                  /* the zlib stream ended cleanly */
    int truncated;              /* the input ended inside the stream */
    uint64_t file_bytes;        /* bytes of the file consumed */
    uint64_t good_offset;       /* decompressed offset after the last complete record */
    uint64_t decompressed;      /* decompressed bytes produced */
} arb_replay_status;

void arb_replay_get_status(const arb_replay *r, arb_replay_status *st);

/* Does a recorded checkpoint/outcome hash agree with a computed state hash?
 * (Compares the low rec->hash_bits bits.) */
static inline int arb_replay_hash_eq(const arb_replay_record *rec, uint64_t computed)
{
    uint64_t mask = rec->hash_bits == 0 || rec->hash_bits >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << rec->hash_bits) - 1);
    return (rec->hash & mask) == (computed & mask);
}

/* The 8 envelope bytes as read. */
void arb_replay_envelope(const arb_replay *r, uint8_t env[8]);
/* v2, once the body has been read to its end (arb_replay_next returned 0):
 * the BLAKE2b-512 digest of domain || envelope || CONTENT (arbiter/seal.h)
 * in digest, the bytes that follow the body (a seal block, or nothing) in
 * *trailer / *n (borrowed until close), and the file offset where the body
 * ends in *body_end. Returns 1, or 0 when the body has not ended (or the
 * file is version 1: no digest, no trailer). */
int arb_replay_sealable(const arb_replay *r, uint8_t digest[ARB_REPLAY_DIGEST], const uint8_t **trailer,
                        size_t *n, uint64_t *body_end);

/* Resolve player seat's deck (card IDs → pool indexes) for game g. */
int arb_replay_deck(const arb_replay *r, const arb_game *g, int seat, arb_deck *out,
                    arb_error *err);
/* The arb_setup the header describes (decks resolved into decks[]). */
int arb_replay_setup(const arb_replay *r, const arb_game *g, arb_setup *su,
                     arb_deck decks[ARB_MAX_SEATS], arb_error *err);

/* -------------------------------------------------------------- archives */

/* An archive (FORMAT.md §C) holds many matches in one v2 file: member
 * frames (each a match's CONTENT as a zlib stream whose preset dictionary
 * is the content of the archive's first members, plus its own seal block),
 * an index for random access and a fixed trailer. Members are written as
 * matches end (a killed recorder loses only the unfinished matches); a
 * missing or inconsistent index is rebuilt from the frames, never trusted
 * blindly. A path "FILE#N" names member N (0-based) wherever a replay path
 * is taken (arb_replay_open). */
#define ARB_ARCHIVE_DICT_MEMBERS 16     /* members whose content forms the dictionary */
#define ARB_ARCHIVE_DICT_MAX 3584       /* bytes of dictionary (the last ones); fits a 4 KiB window */
/* The writer's member compression, chosen by measurement (FORMAT.md §C.5). */
#define ARB_ARCHIVE_LEVEL 6
#define ARB_ARCHIVE_WBITS 12
#define ARB_ARCHIVE_MEMLEVEL 6

typedef struct arb_archive arb_archive;
typedef struct arb_archive_writer arb_archive_writer;

typedef struct arb_archive_member {
    uint64_t offset;            /* file offset of the member frame */
    uint64_t zlen, slen;        /* bytes of its zlib stream and seal block */
    uint64_t content;           /* decompressed bytes (0 when unknown) */
    uint64_t actions;           /* from the index (0 when rebuilt) */
    uint8_t flags;              /* the member's own envelope flags */
} arb_archive_member;

typedef enum arb_archive_index {
    ARB_INDEX_OK = 0,           /* present and consistent with the frames */
    ARB_INDEX_MISSING,          /* no trailer (a .part, or a killed writer): rebuilt */
    ARB_INDEX_CORRUPT           /* present but inconsistent: ignored and rebuilt */
} arb_archive_index;

/* Is the file at path an archive? 1 yes, 0 no (or unreadable). */
int arb_archive_is(const char *path);
int arb_archive_open(arb_archive **out, const char *path, arb_error *err);
void arb_archive_close(arb_archive *a);
uint64_t arb_archive_count(const arb_archive *a);
const arb_archive_member *arb_archive_member_at(const arb_archive *a, uint64_t i);
/* How the index was found (note: one sentence, "" when OK). */
arb_archive_index arb_archive_index_state(const arb_archive *a, const char **note);
/* A member cut by the end of the file: 1 with its frame offset, else 0. */
int arb_archive_cut(const arb_archive *a, uint64_t *offset);
/* Bytes after the last complete member that are neither a frame nor a
 * valid index and trailer (an index frame whose trailer is gone, garbage
 * after the trailer, an impossible frame header): 1 with the offset of the
 * first such byte, else 0. */
int arb_archive_unread(const arb_archive *a, uint64_t *offset);
/* The archive as a whole, beside its members' own verdicts: ARB_OK when
 * every byte is a member frame, the envelope, or a valid index and trailer
 * (a missing index is fine: rebuilt) and at least one member is complete
 * (or cut); ARB_EFORMAT for a corrupt index or unread bytes; ARB_EVERIFY
 * ("no match") for an archive with no member at all. err names the file
 * and offset. A member cut by the end of the file is arb_archive_cut's. */
int arb_archive_verdict(const arb_archive *a, arb_error *err);
/* Open member i as a replay (its standalone envelope, content and seal). */
int arb_archive_open_member(arb_replay **out, arb_archive *a, uint64_t i, const arb_replay_limits *lim,
                            arb_error *err);
/* Write member i as a standalone v2 file (content recompressed without the
 * dictionary; the seal block kept: the signature covers envelope + content). */
int arb_archive_extract(arb_archive *a, uint64_t i, const char *path, arb_error *err);

/* Create path (written as path.part, renamed on close) or, with append,
 * add to an existing archive (created when missing). threads: 1 compresses
 * members on a second thread (same bytes either way). note (may be NULL)
 * receives what append repaired ("" when nothing). */
int arb_archive_writer_open(arb_archive_writer **out, const char *path, int append, int threads, char *note,
                            size_t note_size, arb_error *err);
/* Write the index and the trailer (and rename path.part into place). */
int arb_archive_writer_close(arb_archive_writer *aw, arb_error *err);
/* Abandon without an index (the frames written stay readable). NULL ok. */
void arb_archive_writer_free(arb_archive_writer *aw);
uint64_t arb_archive_writer_members(const arb_archive_writer *aw);
uint64_t arb_archive_writer_bytes(const arb_archive_writer *aw);
/* Add member i of archive a to aw: its content coded again for aw's
 * dictionary, its envelope flags and seal block kept (the seal covers
 * envelope and content). actions goes into aw's index. Used by `archive
 * repair`, which copies what verifies into a new archive. */
int arb_archive_writer_copy(arb_archive_writer *aw, arb_archive *a, uint64_t i, uint64_t actions, arb_error *err);
/* Add the standalone format-2 replay at path to aw (`arbiter pack`): its
 * content exactly as written, its envelope flags and its seal block kept,
 * so the member verifies as the file does; *actions is its action count
 * (for the index). A format-1 file is refused (ARB_EUNSUPPORTED), a file
 * that does not read to its end is the reader's error. */
int arb_archive_writer_add_file(arb_archive_writer *aw, const char *path, uint64_t *actions, arb_error *err);
/* A match writer whose close adds the match to aw as a member (no journal:
 * crash safety is per member). */
int arb_replay_writer_open_archive(arb_replay_writer **out, arb_archive_writer *aw, const arb_replay_meta *meta,
                                   arb_error *err);

/* ---------------------------------------------------------------- commit */

/* BLAKE2b-256 over the seed (8 bytes, little-endian) followed by the salt. */
int arb_replay_commit(uint8_t out[ARB_REPLAY_COMMIT_BYTES], uint64_t seed,
                      const uint8_t *salt, size_t salt_len);

/* -------------------------------------------------------------- verifier */

typedef enum arb_verify_kind {
    ARB_DIV_NONE = 0,
    ARB_DIV_ILLEGAL,            /* an action the engine rejects */
    ARB_DIV_CHECKPOINT_TURN,    /* checkpoint turn differs */
    ARB_DIV_CHECKPOINT_HASH,    /* checkpoint hash differs */
    ARB_DIV_MISSING_CHECKPOINT, /* the turn changed, no checkpoint followed */
    ARB_DIV_OUTCOME,            /* winner, reason or turns differ */
    ARB_DIV_FINAL_HASH,         /* outcome's final hash differs */
    ARB_DIV_NOT_OVER,           /* outcome recorded, the engine goes on */
    ARB_DIV_NO_OUTCOME,         /* the stream ends without an outcome */
    ARB_DIV_AFTER_OUTCOME,      /* records follow the outcome */
    ARB_DIV_COMMIT,             /* seed commitment or fair seed does not match,
                                   or differs from the published commitment */
    ARB_DIV_SETUP,              /* the header's setup is rejected */
    ARB_DIV_SIGNATURE,          /* seal missing, broken or not by a trusted key */
    ARB_DIV_NOT_SEEDED          /* require_seeded, and the match starts from a position */
} arb_verify_kind;

const char *arb_verify_kind_name(arb_verify_kind k);

struct arb_seal_keyring;

typedef struct arb_verify_opts {
    const arb_game *game;       /* NULL: the registered game the header names */
    arb_replay_limits limits;
    /* The commitment published before the match (32 bytes) or NULL: it
     * must equal the file's fair-seed commitment (or its seed commitment). */
    const uint8_t *published_commit;
    int require_seeded;         /* a match from a position is a divergence */
    /* Trusted keys, or NULL: when given, the file must carry a valid seal
     * by one of them (else a divergence of kind "signature"). */
    const struct arb_seal_keyring *trusted;
} arb_verify_opts;

#define ARB_VERIFY_OPTS_INIT { NULL, ARB_REPLAY_LIMITS_INIT, NULL, 0, NULL }

typedef struct arb_verify_result {
    int code;                   /* ARB_OK, ARB_EVERIFY, or the reader's error */
    char game[32];              /* the header's game, "" when unreadable */
    int players;                /* the header's seats, 0 when unreadable */
    arb_replay_status status;
    int commit;                 /* 0 absent, 1 checked and matching, -1 mismatch */
    int fair;                   /* fair seed: 0 absent, 1 recomputed and matching, -1 not */
    int published;              /* --commitment: 0 not asked, 1 equal, -1 differs or absent */
    int seeded;                 /* 1 setup derived from the seed; 0 from a position */
    /* The seal (format 2): status, the signer's key and whether it is trusted. */
    int seal;                   /* arb_seal_status */
    int trusted;                /* 1 a trusted key signed; 0 not checked (no keys given); -1 not trusted */
    uint8_t signer[32];         /* the public key in the seal block */
    char signer_id[17];         /* its key id in hex, "" unsigned */
    char signer_label[64];      /* the trusted key's label, "" */
    int over;                   /* the outcome was reproduced */
    int winner;
    char reason[64];
    uint32_t turns;
    uint64_t final_hash;
    uint32_t last_turn;         /* turn of the last matching checkpoint */
    uint64_t last_good_record;  /* records replayed without divergence
                                   (all complete ones of a truncated file) */
    /* The first divergence (kind != ARB_DIV_NONE). */
    arb_verify_kind kind;
    uint64_t record;            /* index of the record that diverges */
    uint64_t span_first;        /* first record after the last matching
                                   checkpoint: a hash mismatch lies in
                                   records span_first..record */
    uint32_t turn;              /* the engine's turn there */
    int seat;                   /* the acting seat, or -1 / -2 */
    char action[160];           /* the action as text, "" for none */
    char rule[ARB_RULE_MAX];
    uint64_t expected, computed; /* hashes, or turns for CHECKPOINT_TURN */
    char detail[ARB_MSG_MAX];   /* one sentence */
    /* A consistent prefix: the only divergence is ARB_DIV_NO_OUTCOME, every
     * record replayed legal and every checkpoint matched, and the engine has
     * not ended the match (a recording stopped early, `record` leaving
     * NAME.part). `verify --unfinished` accepts such a file as "consistent,
     * not finished". 0 for every other verdict. */
    int unfinished;
    /* Set when the match verified (code ARB_OK): its identity, BLAKE2b-256
     * over the setup (game, seed, seats, decks, options, position) and
     * every action (seat, verb, arguments) — not names, start time, think
     * times, rules or engine version, seal or encoding, so two files with
     * one identity hold one match twice (a replayed match); and the
     * commitments it reveals, which a second match may not share. */
    int has_identity;
    uint8_t identity[ARB_REPLAY_ID_BYTES];
    int has_fair_commit;        /* fair seed: the commitment of its secret */
    uint8_t fair_commit[ARB_REPLAY_COMMIT_BYTES];
    int has_seed_commit;        /* seed commitment BLAKE2b-256(seed || salt) */
    uint8_t seed_commit[ARB_REPLAY_COMMIT_BYTES];
} arb_verify_result;

/* Verify an opened replay (records not yet consumed). Returns ARB_OK when
 * every record matched and the outcome was reproduced, ARB_EVERIFY at the
 * first divergence (res filled), ARB_EUNSUPPORTED for an unknown game,
 * rules version, rng or hash, or the reader's code (ARB_ETRUNC: the prefix
 * before the truncation verified, see res->last_good_record). */
int arb_replay_verify(arb_replay *r, const arb_verify_opts *opts, arb_verify_result *res,
                      arb_error *err);
int arb_replay_verify_file(const char *path, const arb_verify_opts *opts,
                           arb_verify_result *res, arb_error *err);
/* The same over a file's bytes in memory (borrowed), named name in every
 * error: the verdict and messages of arb_replay_verify_file on that file. */
int arb_replay_verify_mem(const void *buf, size_t len, const char *name, const arb_verify_opts *opts,
                          arb_verify_result *res, arb_error *err);

#ifdef __cplusplus
}
#endif
#endif
