/* replay_util.h — helpers shared by the replay test programs: record a
 * self-play match of any game to a file, load a file, rewrite the
 * decompressed stream of a .tcgr (to forge tampered or hostile files), and
 * build raw .tcgr bytes from MessagePack bytes. */
#ifndef ARBITER_REPLAY_UTIL_H
#define ARBITER_REPLAY_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "arbiter/arbiter.h"
#include "replay/internal.h"
#include "replay/rcbody.h"
#include "replay/primer.h"

/* Format version ru_record writes (0: the writer's default, version 2). */
static int ru_version;

/* Play agents of kind against each other and record to path. Returns the
 * number of actions, or -1. flush_points (may be NULL) receives the file
 * size after each checkpoint flush. */
static inline long ru_record(const arb_game *g, const char *path, uint64_t seed, int players, int kind, int timed,
                      const arb_options *opt, const uint8_t *salt, size_t salt_len, long *flush_points,
                      size_t nflush_max, size_t *nflush)
{
    arb_setup su;
    memset(&su, 0, sizeof su);
    su.seed = seed;
    su.players = players;
    for (int p = 0; p < players; p++) su.decks[p] = g->preset(g, (unsigned)p % g->npresets);
    if (opt) su.options = *opt;
    arb_error err = ARB_ERROR_INIT;
    arb_match *m;
    if (arb_match_new(&m, g, &su, &err)) { fprintf(stderr, "setup: %s\n", err.msg); return -1; }
    arb_replay_meta meta;
    memset(&meta, 0, sizeof meta);
    meta.game = g;
    meta.setup = &su;
    meta.started = "2026-11-29T12:00:00Z";
    meta.salt = salt;
    meta.salt_len = salt_len;
    meta.flags = timed ? ARB_REPLAY_FLAG_TIMED : 0;
    meta.level = -1;
    meta.version = ru_version;
    arb_replay_writer *w;
    if (arb_replay_writer_open(&w, path, &meta, &err)) { arb_match_free(m); return -1; }
    static arb_agent ag[ARB_MAX_SEATS];
    for (int p = 0; p < players; p++) arb_agent_init(&ag[p], (arb_agent_kind)kind, seed, p, timed);
    if (nflush) *nflush = 0;
    long n = 0;
    if (arb_replay_record_start(w, m, &err)) goto fail;
    for (;;) {
        arb_decision d = arb_match_decision(m);
        if (d.seat == ARB_SEAT_NONE) break;
        arb_action a;
        int seat = d.seat < 0 ? 0 : d.seat;
        if (arb_agent_choose(&ag[seat], m, &a)) break;
        uint32_t t0 = arb_match_turn(m);
        if (arb_replay_record_step(w, m, &a, &err)) { fprintf(stderr, "step: %s %s\n", err.rule, err.msg); goto fail; }
        n++;
        if (nflush && (arb_match_turn(m) != t0) && *nflush < nflush_max)
            flush_points[(*nflush)++] = (long)arb_replay_writer_bytes(w);
        if (n > 10000000) break;
    }
    if (arb_replay_writer_close(w, &err)) { arb_match_free(m); return -1; }
    arb_match_free(m);
    return n;
fail:
    arb_replay_writer_free(w);
    arb_match_free(m);
    return -1;
}

static inline uint8_t *ru_load(const char *path, size_t *len)
{
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) { free(b); b = NULL; }
    fclose(f);
    *len = (size_t)n;
    return b;
}

static inline int ru_save(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    int ok = fwrite(p, 1, n, f) == n;
    return fclose(f) == 0 && ok ? 0 : -1;
}

static inline uint8_t *ru_find(const uint8_t *hay, size_t n, const char *needle, size_t k)
{
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(hay + i, needle, k) == 0) return (uint8_t *)(uintptr_t)(hay + i);
    return NULL;
}

/* A well-formed version-1 header of g (seed 1, two seats, preset 0) into
 * b: version 1's self-contained header, so g needs no registration. */
static inline void ru_good_header(arb_mpbuf *b, const arb_game *g)
{
    arb_setup su;
    memset(&su, 0, sizeof su);
    su.seed = 1;
    su.players = 2;
    su.decks[0] = su.decks[1] = g->preset(g, 0);
    arb_replay_meta meta;
    memset(&meta, 0, sizeof meta);
    meta.game = g;
    meta.setup = &su;
    meta.version = 1;
    arb_error err = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_replay__header_encode(b, &meta, &err), ARB_OK);
}

/* The decompressed stream of a .tcgr file (malloc'd). */
static inline uint8_t *ru_inflate(const uint8_t *file, size_t len, size_t *out_len)
{
    size_t cap = 1 << 16, n = 0;
    uint8_t *out = malloc(cap);
    *out_len = 0;
    if (len < 8) return out;
    if (file[4] == 2 && (file[5] & ARB_REPLAY_FLAG_RC)) {
        /* a range-coded body (FORMAT.md Part D) */
        arb_rc_model m;
        uint8_t *c = NULL;
        size_t cn = 0, hl, used;
        arb_rc_model_start(&m, file[6]); /* from the primer byte 6 names (§D.8) */
        if (!arb_rc_decode_all(&m, file + 8, len - 8, file[5] & 1, (uint64_t)1 << 32, &c, &cn, &hl, &used)) {
            free(out);
            out = c;
            *out_len = cn;
        }
        arb_rc_model_free(&m);
        return out;
    }
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    inflateInit(&zs);
    zs.next_in = (Bytef *)(uintptr_t)(file + 8);
    zs.avail_in = (uInt)(len - 8);
    for (;;) {
        if (cap - n < 4096) out = realloc(out, cap *= 2);
        zs.next_out = out + n;
        zs.avail_out = (uInt)(cap - n);
        int zr = inflate(&zs, Z_NO_FLUSH);
        n = cap - zs.avail_out;
        if (zr != Z_OK) break;
    }
    inflateEnd(&zs);
    *out_len = n;
    return out;
}

/* envelope (version, flags) + zlib(raw) → file bytes (malloc'd). */
static inline uint8_t *ru_build(const uint8_t *raw, size_t n, uint8_t version, size_t *out_len)
{
    uLongf cap = compressBound((uLong)n) + 8;
    uint8_t *out = malloc(cap + 8);
    memcpy(out, "TCGR", 4);
    out[4] = version;
    out[5] = 0;
    out[6] = out[7] = 0;
    compress2(out + 8, &cap, raw, (uLong)n, 6);
    *out_len = cap + 8;
    return out;
}

/* envelope env (kept) + raw coded as env says: range-coded when its
 * flags have ARB_REPLAY_FLAG_RC (from the primer its byte 6 names), else
 * zlib → file bytes (malloc'd). */
static inline uint8_t *ru_build_env(const uint8_t *raw, size_t n, const uint8_t env[8], size_t *out_len)
{
    if (env[4] == 2 && (env[5] & ARB_REPLAY_FLAG_RC)) {
        arb_replay_limits lim;
        arb_replay__limits(&lim, NULL);
        size_t hl = n;
        const char *what;
        if (arb_replay__mp_measure(raw, n, &lim, &hl, &what) != ARB_MP_OK) hl = n;
        arb_rc_model m;
        uint8_t *z = NULL;
        size_t zn = 0;
        arb_rc_model_start(&m, env[6]); /* from the primer byte 6 names (§D.8) */
        arb_rc_encode(&m, raw, n, hl, env[5] & 1, &z, &zn);
        arb_rc_model_free(&m);
        uint8_t *out = malloc(zn + 8);
        memcpy(out, env, 8);
        memcpy(out + 8, z, zn);
        free(z);
        *out_len = zn + 8;
        return out;
    }
    uint8_t *f = ru_build(raw, n, env[4], out_len);
    memcpy(f, env, 8);
    return f;
}

#endif
