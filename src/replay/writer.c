/* writer.c — the recorder: the 8-byte envelope, then one zlib stream of
 * MessagePack objects written to NAME.part and renamed to NAME on close.
 * Records are encoded straight into a raw buffer and deflated in blocks;
 * each checkpoint (the end of a turn) is followed by Z_SYNC_FLUSH + fflush
 * so that a recorder killed mid-match leaves a file the reader recovers up
 * to that turn. arb_replay_record_step ties the writer to a running match:
 * it records only actions the engine accepted, and adds the checkpoints
 * and the outcome itself, so every caller writes the same records. Into an
 * archive whose compressor runs on its own thread, it leaves the hash bytes
 * blank and hands over copies of the states instead (internal.h, "late
 * hashes"): the compressor hashes them, and the bytes are the same. */
#include <errno.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "arbiter/outfile.h"
#include "arbiter/seal.h"
#include "replay/internal.h"
#include "arbiter/toolkit.h"
#include "replay/rec2.h"
#include "replay/rcbody.h"
#include "replay/primer.h"

#define RAW_CAP (32 * 1024)
#define OUT_CAP (32 * 1024)
#define REC_MAX 96 /* bytes of the largest record the writer emits */
/* An 8 KiB window and memLevel 7 keep zlib's state under glibc's mmap
 * threshold: the default 32 KiB / 8 costs ~43 us of mmap and page faults
 * per replay, four times a whole unrecorded naramo match, for no gain on
 * files of a few KiB (measured: FORMAT.md §9). */
#define ARB_REPLAY__WBITS 13
#define ARB_REPLAY__MEMLEVEL 7

struct arb_replay_writer {
    FILE *f;
    char *path, *part, *fin;
    z_stream zs;
    int zinit, failed, closed_outcome;
    const arb_game *g;
    uint32_t last_turn;
    uint64_t bytes;
    size_t nraw;
    /* version 2: the whole CONTENT stays in memory (cont); the journal
     * (NAME.part) deflates cont[jpos..) at level 1 with a sync flush per
     * turn; close writes NAME as one deflate stream of cont. */
    int v2, final_level, zlib_final, rc0;
    size_t hlen;                /* bytes of the header at the start of cont */
    arb_r2_state st;
    arb_mpbuf cont;
    size_t jpos;
    uint8_t env[ARB_REPLAY_ENVELOPE];
    arb_replay_seal_fn seal;
    void *seal_ctx;
    arb_archive_writer *aw;     /* archive mode: no journal, close adds a member */
    int defer;                  /* archive compressed on its own thread: late hashes */
    arb_replay__late late;
    uint64_t nactions;
    uint8_t *raw;               /* RAW_CAP (v1 staging) and OUT_CAP bytes, file mode only */
    uint8_t *out;
};

static int io_fail(arb_replay_writer *w, arb_error *err, const char *what)
{
    w->failed = 1;
    arb_error_where(err, "%s", w->part);
    return arb_error_set(err, ARB_EIO, NULL, "%s: %s", what, strerror(errno));
}

/* Deflate the raw buffer with the given flush mode and write the output. */
static int pump(arb_replay_writer *w, int flush, arb_error *err)
{
    if (w->failed) return arb_error_set(err, ARB_EIO, NULL, "the replay writer failed earlier");
    if (w->aw) {
        w->jpos = w->cont.n;
        return ARB_OK;
    }
    if (w->v2) {
        w->zs.next_in = w->cont.p + w->jpos;
        w->zs.avail_in = (uInt)(w->cont.n - w->jpos);
        w->jpos = w->cont.n;
    } else {
        w->zs.next_in = w->raw;
        w->zs.avail_in = (uInt)w->nraw;
    }
    for (;;) {
        w->zs.next_out = w->out;
        w->zs.avail_out = OUT_CAP;
        int zr = deflate(&w->zs, flush);
        if (zr == Z_STREAM_ERROR) {
            w->failed = 1;
            return arb_error_set(err, ARB_EIO, NULL, "zlib deflate failed");
        }
        size_t have = OUT_CAP - w->zs.avail_out;
        if (have && fwrite(w->out, 1, have, w->f) != have) return io_fail(w, err, "write failed");
        w->bytes += have;
        if (flush == Z_FINISH ? zr == Z_STREAM_END : w->zs.avail_out != 0) break;
    }
    w->nraw = 0;
    if (flush != Z_NO_FLUSH && fflush(w->f)) return io_fail(w, err, "flush failed");
    return ARB_OK;
}

static int room_slow(arb_replay_writer *w, size_t n, arb_error *err);

/* Space for n more bytes of records: the common case without a call. */
static inline int room(arb_replay_writer *w, size_t n, arb_error *err)
{
    if (w->v2 && !w->failed && w->cont.cap - w->cont.n >= n && w->cont.n - w->jpos < RAW_CAP) return ARB_OK;
    return room_slow(w, n, err);
}

static int room_slow(arb_replay_writer *w, size_t n, arb_error *err)
{
    if (w->failed) return arb_error_set(err, ARB_EIO, NULL, "the replay writer failed earlier");
    if (w->v2) {
        if (w->cont.n - w->jpos >= RAW_CAP) {
            int rc = pump(w, Z_NO_FLUSH, err);
            if (rc) return rc;
        }
        if (arb_replay__mp_reserve(&w->cont, n)) {
            w->failed = 1;
            return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory recording a replay");
        }
        return ARB_OK;
    }
    if (RAW_CAP - w->nraw < n) return pump(w, Z_NO_FLUSH, err);
    return ARB_OK;
}

/* Minimal MessagePack integer into p (same encoding as mpack.c). */
static uint8_t *put_uint(uint8_t *p, uint64_t v)
{
    if (v <= 0x7f) { *p++ = (uint8_t)v; return p; }
    unsigned w;
    if (v <= 0xff) { *p++ = 0xcc; w = 1; }
    else if (v <= 0xffff) { *p++ = 0xcd; w = 2; }
    else if (v <= 0xffffffffu) { *p++ = 0xce; w = 4; }
    else { *p++ = 0xcf; w = 8; }
    for (unsigned i = w; i-- > 0;) *p++ = (uint8_t)(v >> (8 * i));
    return p;
}

static uint8_t *put_int(uint8_t *p, int64_t v)
{
    if (v >= 0) return put_uint(p, (uint64_t)v);
    if (v >= -32) { *p++ = (uint8_t)(int8_t)v; return p; }
    unsigned w;
    if (v >= INT8_MIN) { *p++ = 0xd0; w = 1; }
    else if (v >= INT16_MIN) { *p++ = 0xd1; w = 2; }
    else if (v >= INT32_MIN) { *p++ = 0xd2; w = 4; }
    else { *p++ = 0xd3; w = 8; }
    for (unsigned i = w; i-- > 0;) *p++ = (uint8_t)((uint64_t)v >> (8 * i));
    return p;
}

int arb_replay_writer_open_archive(arb_replay_writer **out, arb_archive_writer *aw, const arb_replay_meta *meta,
                                   arb_error *err)
{
    ARB_ASSERT_ARG(err, out);
    ARB_ASSERT_ARG(err, aw);
    ARB_ASSERT_ARG(err, meta);
    *out = NULL;
    if (meta->version == 1) return arb_error_set(err, ARB_EINVAL, NULL, "archives hold version-2 matches only");
    arb_replay_writer *w = calloc(1, sizeof *w);
    if (!w) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory opening a replay writer");
    int rc = arb_replay__header_encode(&w->cont, meta, err);
    if (rc) {
        arb_replay_writer_free(w);
        return rc;
    }
    w->aw = aw;
    w->g = meta->game;
    w->v2 = 1;
    w->hlen = w->cont.n;
    arb_r2_init(&w->st, (meta->flags & ARB_REPLAY_FLAG_TIMED) != 0);
    w->seal = meta->seal;
    w->seal_ctx = meta->seal_ctx;
    /* The seal signs the final bytes, so a sealed member hashes inline. */
    w->defer = !w->seal && w->g->hash && w->g->state_size &&
               arb_archive__late_take(aw, &w->late, w->g->state_size);
    w->late.game = w->g;
    w->late.state_size = w->g->state_size;
    uint8_t env[ARB_REPLAY_ENVELOPE] = { 'T', 'C', 'G', 'R', 2, (uint8_t)(meta->flags & ARB_REPLAY_FLAG_TIMED), 0, 0 };
    memcpy(w->env, env, sizeof env);
    w->jpos = w->cont.n;
    *out = w;
    return ARB_OK;
}

int arb_replay_writer_open(arb_replay_writer **out, const char *path, const arb_replay_meta *meta,
                           arb_error *err)
{
    ARB_ASSERT_ARG(err, out);
    ARB_ASSERT_ARG(err, path);
    ARB_ASSERT_ARG(err, meta);
    *out = NULL;
    /* Version 2 names decks by the registered engine's pool and presets; an
     * engine outside the registry (tests, embedders) is written as version
     * 1, whose header spells every card ID. */
    arb_replay_meta m1;
    if (meta->version != 1 && arb_game_find(meta->game->id) != meta->game) {
        m1 = *meta;
        m1.version = 1;
        meta = &m1;
    }
    arb_mpbuf hb = { 0 };
    int rc = arb_replay__header_encode(&hb, meta, err);
    if (rc) { arb_replay__mp_free(&hb); return rc; }
    arb_replay_writer *w = calloc(1, sizeof *w);
    size_t plen = strlen(path);
    if (w) {
        w->path = malloc(plen + 1);
        w->part = malloc(plen + 6);
        w->fin = malloc(plen + 5);
    }
    if (!w || !w->path || !w->part || !w->fin) {
        rc = arb_error_set(err, ARB_ENOMEM, NULL, "out of memory opening a replay writer");
        goto fail;
    }
    memcpy(w->path, path, plen + 1);
    memcpy(w->part, path, plen);
    memcpy(w->part + plen, ".part", 6);
    memcpy(w->fin, path, plen);
    memcpy(w->fin + plen, ".new", 5);
    w->raw = malloc(RAW_CAP);
    w->out = malloc(OUT_CAP);
    if (!w->raw || !w->out) {
        rc = arb_error_set(err, ARB_ENOMEM, NULL, "out of memory opening a replay writer");
        goto fail;
    }
    w->g = meta->game;
    w->v2 = meta->version != 1;
    arb_r2_init(&w->st, (meta->flags & ARB_REPLAY_FLAG_TIMED) != 0);
    w->seal = meta->seal;
    w->seal_ctx = meta->seal_ctx;
    int level = meta->level < 0 || meta->level > 9 ? ARB_REPLAY_LEVEL_DEFAULT : meta->level;
    w->final_level = meta->level < 0 || meta->level > 9 ? ARB_REPLAY_LEVEL_FINAL : meta->level;
    if (w->v2) level = 1; /* the journal: speed; the final stream gets final_level */
    if (deflateInit2(&w->zs, level, Z_DEFLATED, ARB_REPLAY__WBITS, ARB_REPLAY__MEMLEVEL, Z_DEFAULT_STRATEGY) != Z_OK) {
        rc = arb_error_set(err, ARB_ENOMEM, NULL, "zlib deflateInit failed");
        goto fail;
    }
    w->zinit = 1;
    /* version 2 finishes through NAME.new: a link planted there is refused
     * now, before the match is played, not at the end */
    if (w->v2 && (rc = arb_out_check(w->fin, 0, err))) goto fail;
    w->f = arb_out_create(w->path, w->part, 0666, 0, err);
    if (!w->f) {
        rc = err->code;
        goto fail;
    }
    uint8_t env[ARB_REPLAY_ENVELOPE] = { 'T', 'C', 'G', 'R', w->v2 ? 2 : ARB_REPLAY_VERSION_1,
                                         (uint8_t)(meta->flags & ARB_REPLAY_FLAG_TIMED), 0, 0 };
    memcpy(w->env, env, sizeof env);
    if (fwrite(env, 1, sizeof env, w->f) != sizeof env) { rc = io_fail(w, err, "write failed"); goto fail; }
    w->bytes = sizeof env;
    if (w->v2) {
        w->cont = hb;
        w->hlen = hb.n;
        w->zlib_final = (meta->flags & ARB_REPLAY_WRITE_ZLIB) != 0;
        w->rc0 = (meta->flags & ARB_REPLAY_WRITE_RC0) != 0;
        memset(&hb, 0, sizeof hb);
        if ((rc = pump(w, Z_SYNC_FLUSH, err))) goto fail;
        *out = w;
        return ARB_OK;
    }
    /* The header goes through the raw buffer in slices. */
    for (size_t off = 0; off < hb.n;) {
        size_t k = hb.n - off < RAW_CAP - w->nraw ? hb.n - off : RAW_CAP - w->nraw;
        memcpy(w->raw + w->nraw, hb.p + off, k);
        w->nraw += k;
        off += k;
        if (w->nraw == RAW_CAP && (rc = pump(w, Z_NO_FLUSH, err))) goto fail;
    }
    arb_replay__mp_free(&hb);
    if ((rc = pump(w, Z_SYNC_FLUSH, err))) goto fail;
    *out = w;
    return ARB_OK;
fail:
    arb_replay__mp_free(&hb);
    if (w && w->f) {
        arb_out_discard(w->f, w->part);
        w->f = NULL;
    }
    arb_replay_writer_free(w);
    return rc;
}

/* What every reader would refuse is never written: one action more than
 * the game's bound (FORMAT.md §8.1). */
static int action_room(const arb_replay_writer *w, arb_error *err)
{
    uint32_t max = arb_game_max_actions(w->g);
    if (w->nactions < max) return ARB_OK;
    return arb_error_set(err, ARB_ELIMIT, NULL, "a %s match holds at most %lu actions (the game's bound): not recorded",
                         w->g ? w->g->id : "?", (unsigned long)max);
}

int arb_replay_write_action(arb_replay_writer *w, const arb_action *a, arb_error *err)
{
    ARB_ASSERT_ARG(err, w);
    int rc = room(w, REC_MAX, err);
    if (rc) return rc;
    if (a->nargs > ARB_ARGS_MAX) return arb_error_set(err, ARB_EINVAL, NULL, "action with %u arguments", a->nargs);
    if ((rc = action_room(w, err))) return rc;
    w->nactions++;
    if (w->v2) {
        if (a->seat < ARB_SEAT_ARBITER || a->seat >= ARB_MAX_SEATS)
            return arb_error_set(err, ARB_EINVAL, NULL, "action by seat %d", a->seat);
        w->cont.n = (size_t)(arb_r2_action(w->cont.p + w->cont.n, &w->st, a) - w->cont.p);
        return ARB_OK;
    }
    uint8_t *p = w->raw + w->nraw;
    *p++ = (uint8_t)(0x90 | (4 + a->nargs));
    *p++ = ARB_REC_ACTION;
    p = put_uint(p, a->elapsed_ms);
    p = put_int(p, a->seat);
    p = put_uint(p, a->verb);
    for (unsigned i = 0; i < a->nargs; i++) p = put_int(p, a->args[i]);
    w->nraw = (size_t)(p - w->raw);
    return ARB_OK;
}

static int checkpoint(arb_replay_writer *w, uint32_t turn, uint64_t hash, int next_seat, arb_error *err);

int arb_replay_write_checkpoint(arb_replay_writer *w, uint32_t turn, uint64_t hash, arb_error *err)
{
    ARB_ASSERT_ARG(err, w);
    return checkpoint(w, turn, hash, -2, err);
}

static int checkpoint(arb_replay_writer *w, uint32_t turn, uint64_t hash, int next_seat, arb_error *err)
{
    int rc = room(w, REC_MAX, err);
    if (rc) return rc;
    if (w->v2) {
        /* The first checkpoint carries the full hash, later ones 16 bits
         * (the outcome's final hash is full): FORMAT.md §B.3. */
        uint8_t *e = arb_r2_checkpoint(w->cont.p + w->cont.n, &w->st, turn, hash, next_seat);
        w->cont.n = (size_t)(e - w->cont.p);
        return pump(w, Z_SYNC_FLUSH, err);
    }
    uint8_t *p = w->raw + w->nraw;
    *p++ = 0x93;
    *p++ = ARB_REC_CHECKPOINT;
    p = put_uint(p, turn);
    p = put_uint(p, hash);
    w->nraw = (size_t)(p - w->raw);
    return pump(w, Z_SYNC_FLUSH, err);
}

int arb_replay_write_outcome(arb_replay_writer *w, int winner, const char *reason, uint32_t turns,
                             uint64_t final_hash, arb_error *err)
{
    ARB_ASSERT_ARG(err, w);
    size_t rlen = strlen(reason);
    if (rlen > 63) return arb_error_set(err, ARB_EINVAL, NULL, "outcome reason longer than 63 bytes");
    int rc = room(w, REC_MAX + rlen, err);
    if (rc) return rc;
    if (w->v2) {
        if (winner < -1 || winner >= ARB_MAX_SEATS) return arb_error_set(err, ARB_EINVAL, NULL, "winner %d", winner);
        /* The reason as its index in the game's table (FORMAT.md §B.4);
         * an engine outside the registry (tests, plugins) writes the name,
         * since a reader could not look the index up. */
        int ri = -1;
        unsigned nr = 0;
        const char *const *rt = arb_game_replay_reasons(w->g, &nr); /* §B.7's table, not always the engine's */
        for (unsigned i = 0; arb_game_find(w->g->id) == w->g && i < nr && ri < 0; i++)
            if (strcmp(rt[i], reason) == 0) ri = (int)i;
        uint8_t *e = arb_r2_outcome(w->cont.p + w->cont.n, winner, ri, reason, rlen, turns, final_hash);
        w->cont.n = (size_t)(e - w->cont.p);
        w->closed_outcome = 1;
        return pump(w, Z_SYNC_FLUSH, err);
    }
    uint8_t *p = w->raw + w->nraw;
    *p++ = 0x95;
    *p++ = ARB_REC_OUTCOME;
    p = put_int(p, winner);
    if (rlen < 32) *p++ = (uint8_t)(0xa0 | rlen);
    else { *p++ = 0xd9; *p++ = (uint8_t)rlen; }
    memcpy(p, reason, rlen);
    p += rlen;
    p = put_uint(p, turns);
    p = put_uint(p, final_hash);
    w->nraw = (size_t)(p - w->raw);
    w->closed_outcome = 1;
    return pump(w, Z_SYNC_FLUSH, err);
}

int arb_replay_writer_flush(arb_replay_writer *w, arb_error *err) { return pump(w, Z_SYNC_FLUSH, err); }

uint64_t arb_replay_writer_bytes(const arb_replay_writer *w) { return w->aw ? w->cont.n : w->bytes; }

/* Smallest zlib window (9..15 bits) that holds n bytes: the same content
 * always gives the same stream, and small files need little memory. */
static int wbits_for(size_t n)
{
    int b = 9;
    while (b < 15 && ((size_t)1 << b) < n + 262) b++;
    return b;
}

/* v2 close: NAME.new = envelope + one deflate stream of the content + the
 * seal block; rename it to NAME; remove the journal. */
/* The finished file goes to target: w->path, or w->part itself for a match
 * closed unfinished (the journal is then replaced by the finished body). */
static int close2(arb_replay_writer *w, const char *target, arb_error *err)
{
    int rc = ARB_OK;
    if (w->failed) return arb_error_set(err, ARB_EIO, NULL, "the replay writer failed earlier");
    /* The journal is complete up to the outcome (flushed); leave it be
     * until the final file is in place. */
    uint8_t seal[ARB_REPLAY_TRAILER_MAX];
    size_t nseal = 0;
    if (w->seal) {
        arb_seal_hasher hs;
        uint8_t dg[ARB_REPLAY_DIGEST];
        arb_seal_hasher_init(&hs, w->env);
        arb_seal_hasher_update(&hs, w->cont.p, w->cont.n);
        arb_seal_hasher_final(&hs, dg);
        if ((rc = w->seal(w->seal_ctx, w->env, dg, seal, sizeof seal, &nseal, err))) return rc;
        if (nseal > sizeof seal) return arb_error_set(err, ARB_EINVAL, NULL, "a seal block of %zu bytes", nseal);
    }
    uint8_t *z = NULL;
    size_t zn = 0;
    uint8_t env[ARB_REPLAY_ENVELOPE];
    memcpy(env, w->env, sizeof env);
    if (w->zlib_final) {
        if ((rc = arb_replay__deflate_once(w->cont.p, w->cont.n, w->final_level, NULL, 0, &z, &zn, err))) return rc;
    } else {
        /* the range-coded body (FORMAT.md Part D) from the game's built-in
         * primer (§D.8, byte 6); the journal stays zlib */
        if (arb_rc_code_standalone(w->cont.p, w->cont.n, w->hlen, (w->env[5] & ARB_REPLAY_FLAG_TIMED) != 0, !w->rc0, env, &z,
                                   &zn))
            return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory coding a replay");
    }
    FILE *f = arb_out_create(target, w->fin, 0666, 0, err);
    if (!f) {
        free(z);
        return err->code;
    }
    int ok = fwrite(env, 1, sizeof env, f) == sizeof env && fwrite(z, 1, zn, f) == zn &&
             (!nseal || fwrite(seal, 1, nseal, f) == nseal);
    free(z);
    if (!ok) {
        int en = errno;
        arb_out_discard(f, w->fin);
        arb_error_where(err, "%s", w->fin);
        return arb_error_set(err, ARB_EIO, NULL, "write failed: %s", strerror(en));
    }
    w->bytes = sizeof w->env + zn + nseal;
    if ((rc = arb_out_install(f, w->fin, target, 0, err))) return rc;
    fclose(w->f);
    w->f = NULL;
    if (target != w->part) remove(w->part);
    return ARB_OK;
}

int arb_replay__deflate_once(const uint8_t *p, size_t n, int level, const uint8_t *dict, size_t dict_len,
                             uint8_t **out, size_t *outn, arb_error *err)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    *out = NULL;
    *outn = 0;
    size_t span = n + dict_len;
    if (deflateInit2(&zs, level, Z_DEFLATED, wbits_for(span), span < 4096 ? 7 : 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return arb_error_set(err, ARB_ENOMEM, NULL, "zlib deflateInit failed");
    if (dict_len && deflateSetDictionary(&zs, dict, (uInt)dict_len) != Z_OK) {
        deflateEnd(&zs);
        return arb_error_set(err, ARB_EINVAL, NULL, "zlib rejects the dictionary");
    }
    size_t cap = deflateBound(&zs, (uLong)n) + 16;
    uint8_t *buf = malloc(cap);
    if (!buf) {
        deflateEnd(&zs);
        return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory compressing a replay");
    }
    zs.next_in = (Bytef *)(uintptr_t)p;
    zs.avail_in = (uInt)n;
    zs.next_out = buf;
    zs.avail_out = (uInt)cap;
    int zr = deflate(&zs, Z_FINISH);
    deflateEnd(&zs);
    if (zr != Z_STREAM_END) {
        free(buf);
        return arb_error_set(err, ARB_EIO, NULL, "zlib deflate failed");
    }
    *out = buf;
    *outn = cap - zs.avail_out;
    return ARB_OK;
}

static int finish(arb_replay_writer *w, const char *target, arb_error *err);

int arb_replay_writer_close(arb_replay_writer *w, arb_error *err)
{
    if (!w) return ARB_OK;
    if (w->aw) {
        int rc3 = w->failed ? arb_error_set(err, ARB_EIO, NULL, "the replay writer failed earlier")
                            : arb_archive__add(w->aw, w->env, &w->cont, w->hlen, w->nactions, &w->late, w->seal,
                                               w->seal_ctx, err);
        arb_replay_writer_free(w);
        return rc3;
    }
    return finish(w, w->path, err);
}

/* Both closes: finish the body (and the seal) into target, free w. */
static int finish(arb_replay_writer *w, const char *target, arb_error *err)
{
    if (w->v2) {
        int rc2 = close2(w, target, err);
        arb_replay_writer_free(w);
        return rc2;
    }
    int rc = pump(w, Z_FINISH, err);
    if (rc) fclose(w->f);
    else if (target != w->part) rc = arb_out_install(w->f, w->part, target, 0, err);
    else { /* it stays PATH.part: never unlinked, even when a write fails */
        int ok = fflush(w->f) == 0 && fsync(fileno(w->f)) == 0;
        int en = errno;
        if (fclose(w->f) != 0 && ok) {
            ok = 0;
            en = errno;
        }
        if (!ok) {
            arb_error_where(err, "%s", w->part);
            rc = arb_error_set(err, ARB_EIO, NULL, "write failed: %s", strerror(en));
        }
    }
    w->f = NULL;
    arb_replay_writer_free(w);
    return rc;
}

int arb_replay_writer_close_unfinished(arb_replay_writer *w, arb_error *err)
{
    if (!w) return ARB_OK;
    if (w->aw) {
        arb_replay_writer_free(w);
        return arb_error_set(err, ARB_EINVAL, NULL, "an archive takes finished matches only");
    }
    return finish(w, w->part, err);
}

void arb_replay_writer_free(arb_replay_writer *w)
{
    if (!w) return;
    if (w->f) {
        arb_error e = ARB_ERROR_INIT;
        if (!w->failed) pump(w, Z_SYNC_FLUSH, &e);
        fclose(w->f);
    }
    if (w->zinit) deflateEnd(&w->zs);
    arb_replay__mp_free(&w->cont);
    arb_replay__late_free(&w->late);
    free(w->path);
    free(w->part);
    free(w->fin);
    free(w->raw);
    free(w->out);
    free(w);
}

/* Late hashes (internal.h): keep a copy of the state whose hash fills
 * the last `width` bytes written. */
static int late_push(arb_replay_writer *w, const arb_match *m, unsigned width, arb_error *err)
{
    arb_replay__late *l = &w->late;
    if (l->n == l->cap) {
        /* offsets and widths grow by doubling; states go in blocks that
         * never move (a catalyst state is 5 KB: no realloc copies) */
        size_t nc = l->cap ? l->cap * 2 : 4 * ARB_REPLAY__LATE_BLK;
        size_t *off = realloc(l->off, nc * sizeof *off);
        if (off) l->off = off;
        uint8_t *wd = off ? realloc(l->width, nc) : NULL;
        if (wd) l->width = wd;
        uint8_t **blk = wd ? realloc(l->blk, nc / ARB_REPLAY__LATE_BLK * sizeof *blk) : NULL;
        if (!blk) {
            w->failed = 1;
            return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory recording a replay");
        }
        for (size_t k = l->cap / ARB_REPLAY__LATE_BLK; k < nc / ARB_REPLAY__LATE_BLK; k++) blk[k] = NULL;
        l->blk = blk;
        l->cap = nc;
    }
    uint8_t **b = &l->blk[l->n / ARB_REPLAY__LATE_BLK];
    if (!*b && !(*b = malloc(ARB_REPLAY__LATE_BLK * l->state_size))) {
        w->failed = 1;
        return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory recording a replay");
    }
    l->off[l->n] = w->cont.n - width;
    l->width[l->n] = (uint8_t)width;
    memcpy(*b + l->n % ARB_REPLAY__LATE_BLK * l->state_size, arb_match_state(m), l->state_size);
    l->n++;
    return ARB_OK;
}

void arb_replay__late_fill(arb_replay__late *l, uint8_t *content, size_t n)
{
    for (size_t k = 0; k < l->n; k++) {
        if (l->off[k] > n || n - l->off[k] < l->width[k]) continue; /* cannot happen: the writer made them */
        const uint8_t *st = l->blk[k / ARB_REPLAY__LATE_BLK] + k % ARB_REPLAY__LATE_BLK * l->state_size;
        arb_r2_put_le(content + l->off[k], l->game->hash(l->game, st), l->width[k]);
    }
    l->n = 0;
}

void arb_replay__late_free(arb_replay__late *l)
{
    for (size_t k = 0; l->blk && k < l->cap / ARB_REPLAY__LATE_BLK; k++) free(l->blk[k]);
    free(l->blk);
    free(l->off);
    free(l->width);
    l->blk = NULL;
    l->off = NULL;
    l->width = NULL;
    l->n = l->cap = 0;
}

/* A checkpoint after the move to turn t: hashed now, or late. */
static int record_checkpoint(arb_replay_writer *w, const arb_match *m, uint32_t t, arb_error *err)
{
    int full = !w->st.have_cp; /* the first checkpoint carries all 64 bits (FORMAT.md §B.3) */
    int rc = checkpoint(w, t, w->defer ? 0 : arb_match_hash(m), arb_match_decision(m).seat, err);
    if (rc || !w->defer) return rc;
    return late_push(w, m, full ? 8 : 1, err);
}

int arb_replay_record_start(arb_replay_writer *w, const arb_match *m, arb_error *err)
{
    w->last_turn = arb_match_turn(m);
    return record_checkpoint(w, m, w->last_turn, err);
}

int arb_replay_record_step(arb_replay_writer *w, arb_match *m, const arb_action *a, arb_error *err)
{
    ARB_ASSERT_ARG(err, w);
    ARB_ASSERT_ARG(err, m);
    if (w->failed) return arb_error_set(err, ARB_EIO, NULL, "the replay writer failed earlier");
    int rc = action_room(w, err); /* before the match moves on */
    if (rc) return rc;
    rc = arb_match_apply(m, a, err);
    if (rc) return rc;
    if ((rc = arb_replay_write_action(w, a, err))) return rc;
    arb_outcome o;
    if (arb_match_outcome(m, &o)) {
        const arb_game *g = w->g;
        const char *reason = arb_game_reason_name(g, o.reason);
        rc = arb_replay_write_outcome(w, o.winner, reason, o.turns, w->defer ? 0 : arb_match_hash(m), err);
        return rc || !w->defer ? rc : late_push(w, m, 8, err);
    }
    uint32_t t = arb_match_turn(m);
    if (t != w->last_turn) {
        w->last_turn = t;
        return record_checkpoint(w, m, t, err);
    }
    return ARB_OK;
}
