/* check_replay2.c — format version 2 and archives: round trips of every
 * game (same records as a version-1 recording of the same match), header
 * fields (names, non-preset decks, start time), the seal hook and the
 * content digest, the .part journal of a killed recorder, archives written
 * inline and on a second thread (byte-identical), members opened by FILE#N
 * and extracted, truncation of a small archive at every byte, every byte of
 * the index and trailer corrupted, appending (also after a crash), and the
 * verifier's tree-less header reader against the full one. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replay/internal.h"
#include "replay/rec2.h"
#include "replay_util.h"

static char tmpdir[64];

static const char *tpath(const char *name)
{
    static char buf[4][256];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
    return buf[k];
}

/* Play random agents through w (file or archive member) and close it.
 * Returns actions, -1 on failure. stop_after > 0: abandon (free) after
 * that many actions instead (a killed recorder). */
static long play_into(const arb_game *g, arb_replay_writer *w, arb_match *m, uint64_t seed, int timed, long stop_after)
{
    arb_error err = ARB_ERROR_INIT;
    arb_agent ag[ARB_MAX_SEATS];
    const arb_setup *su = NULL;
    (void)su;
    for (int p = 0; p < ARB_MAX_SEATS; p++) arb_agent_init(&ag[p], ARB_AGENT_RANDOM, seed, p, timed);
    if (arb_replay_record_start(w, m, &err)) return -1;
    long n = 0;
    for (;;) {
        arb_decision d = arb_match_decision(m);
        if (d.seat == ARB_SEAT_NONE) break;
        arb_action a;
        if (arb_agent_choose(&ag[d.seat < 0 ? 0 : d.seat], m, &a)) return -1;
        if (arb_replay_record_step(w, m, &a, &err)) return -1;
        if (++n == stop_after) {
            arb_replay_writer_free(w);
            return n;
        }
    }
    (void)g;
    return arb_replay_writer_close(w, &err) ? -1 : n;
}

typedef struct match_in {
    arb_setup su;
    arb_deck decks[ARB_MAX_SEATS];
    arb_replay_meta meta;
    arb_match *m;
} match_in;

static void setup_match(match_in *mi, const arb_game *g, uint64_t seed, int timed, int version)
{
    memset(mi, 0, sizeof *mi);
    mi->su.seed = seed;
    mi->su.players = g->min_players;
    for (int p = 0; p < mi->su.players; p++) {
        mi->decks[p] = *g->preset(g, (unsigned)p % g->npresets);
        mi->su.decks[p] = &mi->decks[p];
    }
    arb_error err = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_match_new(&mi->m, g, &mi->su, &err), ARB_OK);
    mi->meta.game = g;
    mi->meta.setup = &mi->su;
    mi->meta.started = "2026-12-01T10:00:00Z";
    mi->meta.flags = timed ? ARB_REPLAY_FLAG_TIMED : 0;
    mi->meta.level = -1;
    mi->meta.version = version;
}

static long record_file(const arb_game *g, const char *path, uint64_t seed, int timed, int version)
{
    match_in mi;
    setup_match(&mi, g, seed, timed, version);
    arb_replay_writer *w;
    arb_error err = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_replay_writer_open(&w, path, &mi.meta, &err), ARB_OK);
    long n = play_into(g, w, mi.m, seed, timed, 0);
    arb_match_free(mi.m);
    return n;
}

typedef struct recs {
    size_t n;
    arb_replay_record r[8192];
    int end_rc;
} recs;

static void read_recs(arb_replay *r, recs *out)
{
    arb_error err = ARB_ERROR_INIT;
    out->n = 0;
    int rc;
    while ((rc = arb_replay_next(r, &out->r[out->n], &err)) == 1) {
        ck_assert_uint_lt(out->n, 8191);
        out->n++;
    }
    out->end_rc = rc;
}

static recs A, B;

/* v2 and v1 recordings of the same match carry the same records (short
 * checkpoint hashes being the low 8 bits of v1's). */
START_TEST(round_trip_every_game)
{
    const arb_game *g = arb_game_at((unsigned)_i / 2);
    int timed = _i % 2;
    char p1[256], p2[256];
    snprintf(p1, sizeof p1, "%s", tpath("v1.tcgr"));
    snprintf(p2, sizeof p2, "%s", tpath("v2.tcgr"));
    long n1 = record_file(g, p1, 4242 + (uint64_t)_i, timed, 1);
    long n2 = record_file(g, p2, 4242 + (uint64_t)_i, timed, 0);
    ck_assert_int_gt(n1, 0);
    ck_assert_int_eq(n1, n2);
    ck_assert_int_ne(access(tpath("v2.tcgr.part"), F_OK), 0); /* journal removed */
    ck_assert_int_ne(access(tpath("v2.tcgr.new"), F_OK), 0);
    arb_error err = ARB_ERROR_INIT;
    arb_replay *r1, *r2;
    ck_assert_int_eq(arb_replay_open(&r1, p1, NULL, &err), ARB_OK);
    ck_assert_int_eq(arb_replay_open(&r2, p2, NULL, &err), ARB_OK);
    const arb_replay_header *h1 = arb_replay_get_header(r1), *h2 = arb_replay_get_header(r2);
    ck_assert_uint_eq(h2->version, 2);
    ck_assert_str_eq(h2->format, "tcgr-2");
    ck_assert_str_eq(h1->game, h2->game);
    ck_assert_str_eq(h1->rules, h2->rules);
    ck_assert_str_eq(h1->rng, h2->rng);
    ck_assert_str_eq(h1->hash, h2->hash);
    ck_assert_str_eq(h1->started, h2->started);
    ck_assert_uint_eq(h1->seed, h2->seed);
    ck_assert_int_eq(h1->players, h2->players);
    for (int s = 0; s < h1->players; s++) {
        ck_assert_str_eq(h1->player[s].name, h2->player[s].name);
        ck_assert_str_eq(h1->player[s].deck_name, h2->player[s].deck_name);
        ck_assert_uint_eq(h1->player[s].ncards, h2->player[s].ncards);
        for (unsigned c = 0; c < h1->player[s].ncards; c++) ck_assert_str_eq(h1->player[s].cards[c], h2->player[s].cards[c]);
        ck_assert_uint_eq(h1->player[s].nattrs, h2->player[s].nattrs);
    }
    read_recs(r1, &A);
    read_recs(r2, &B);
    ck_assert_int_eq(A.end_rc, 0);
    ck_assert_int_eq(B.end_rc, 0);
    ck_assert_uint_eq(A.n, B.n);
    int full_cps = 0;
    for (size_t i = 0; i < A.n; i++) {
        const arb_replay_record *a = &A.r[i], *b = &B.r[i];
        ck_assert_int_eq(a->kind, b->kind);
        ck_assert_uint_eq(a->index, b->index);
        if (a->kind == ARB_REC_ACTION) {
            ck_assert_int_eq(a->action.seat, b->action.seat);
            ck_assert_uint_eq(a->action.verb, b->action.verb);
            ck_assert_uint_eq(a->action.nargs, b->action.nargs);
            ck_assert_uint_eq(a->action.elapsed_ms, b->action.elapsed_ms);
            for (unsigned k = 0; k < a->action.nargs; k++) ck_assert_int_eq(a->action.args[k], b->action.args[k]);
        } else if (a->kind == ARB_REC_CHECKPOINT) {
            ck_assert_uint_eq(a->turn, b->turn);
            ck_assert(arb_replay_hash_eq(b, a->hash));
            full_cps += b->hash_bits == 64;
            ck_assert(b->hash_bits == 64 || b->hash_bits == 8);
        } else if (a->kind == ARB_REC_OUTCOME) {
            ck_assert_int_eq(a->winner, b->winner);
            ck_assert_str_eq(a->reason, b->reason);
            ck_assert_uint_eq(a->turn, b->turn);
            ck_assert_uint_eq(a->hash, b->hash); /* the final hash is full */
        }
    }
    ck_assert_int_eq(full_cps, 1); /* the setup checkpoint */
    /* the digest: what the reader computes is BLAKE2b over env + content */
    uint8_t dg[64], dg2[64], env[8];
    const uint8_t *tr;
    size_t ntr;
    uint64_t body_end;
    ck_assert_int_eq(arb_replay_sealable(r1, dg, &tr, &ntr, &body_end), 0); /* v1: none */
    ck_assert_int_eq(arb_replay_sealable(r2, dg, &tr, &ntr, &body_end), 1);
    ck_assert_uint_eq(ntr, 0);
    size_t fl, cl;
    uint8_t *file = ru_load(p2, &fl);
    ck_assert_uint_eq(body_end, fl);
    uint8_t *content = ru_inflate(file, fl, &cl);
    arb_replay_envelope(r2, env);
    ck_assert_int_eq(memcmp(env, file, 8), 0);
    arb_replay__digest(env, content, cl, dg2);
    ck_assert_int_eq(memcmp(dg, dg2, 64), 0);
    free(file);
    free(content);
    arb_replay_close(r1);
    arb_replay_close(r2);
    arb_verify_result res;
    ck_assert_int_eq(arb_replay_verify_file(p2, NULL, &res, &err), ARB_OK);
    /* smaller than version 1 */
    size_t s1, s2;
    free(ru_load(p1, &s1));
    free(ru_load(p2, &s2));
    ck_assert_uint_lt(s2, s1);
}
END_TEST

/* Names, a deck that is no preset (reordered: UIDs follow the order), no
 * start time: all survive the positional header. */
START_TEST(header_fields)
{
    const arb_game *g = arb_game_find("naramo");
    if (!g) g = arb_game_at(0);
    match_in mi;
    setup_match(&mi, g, 77, 0, 0);
    arb_match_free(mi.m);
    arb_deck *d = &mi.decks[1];
    uint16_t t = d->cards[0];
    d->cards[0] = d->cards[d->ncards - 1];
    d->cards[d->ncards - 1] = t;
    snprintf(d->name, sizeof d->name, "my deck");
    arb_error err = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_match_new(&mi.m, g, &mi.su, &err), ARB_OK);
    mi.meta.names[0] = "Alice";
    mi.meta.names[1] = "Bob";
    mi.meta.started = NULL;
    uint8_t salt[3] = { 1, 2, 3 };
    mi.meta.salt = salt;
    mi.meta.salt_len = 3;
    arb_replay_writer *w;
    ck_assert_int_eq(arb_replay_writer_open(&w, tpath("h.tcgr"), &mi.meta, &err), ARB_OK);
    ck_assert_int_gt(play_into(g, w, mi.m, 77, 0, 0), 0);
    arb_match_free(mi.m);
    arb_replay *r;
    ck_assert_int_eq(arb_replay_open(&r, tpath("h.tcgr"), NULL, &err), ARB_OK);
    const arb_replay_header *h = arb_replay_get_header(r);
    ck_assert_str_eq(h->player[0].name, "Alice");
    ck_assert_str_eq(h->player[1].name, "Bob");
    ck_assert_str_eq(h->player[1].deck_name, "my deck");
    ck_assert_str_eq(h->player[1].preset, "");
    ck_assert_str_ne(h->player[0].preset, "");
    ck_assert_uint_eq(h->player[1].ncards, d->ncards);
    for (unsigned c = 0; c < d->ncards; c++) ck_assert_str_eq(h->player[1].cards[c], g->card(g, d->cards[c])->id);
    ck_assert_str_eq(h->started, "");
    ck_assert_int_eq(h->has_commit, 1);
    arb_verify_result res;
    ck_assert_int_eq(arb_replay_verify(r, NULL, &res, &err), ARB_OK);
    ck_assert_int_eq(res.commit, 1);
    arb_replay_close(r);
}
END_TEST

/* The seal hook: called once with the envelope and the digest the reader
 * recomputes; its block follows the body. */
static uint8_t seen_digest[64], seen_env[8];

/* The built-in primer a single file of game names (FORMAT.md §D.8). */
static unsigned primer_of(const char *game)
{
    for (unsigned k = 0; k < ARB_RC_NPRIMERS; k++) {
        const uint8_t *g;
        uint32_t len;
        ck_assert_int_eq(arb_rc_primer_game(&arb_rc_primers[k], &g, &len), 0);
        if (len == strlen(game) && memcmp(g, game, len) == 0) return arb_rc_primers[k].id;
    }
    return 0;
}
static int seal_calls;
static int test_seal(void *ctx, const uint8_t env[8], const uint8_t dg[64], uint8_t *out, size_t cap, size_t *n,
                     arb_error *err)
{
    (void)ctx;
    (void)err;
    seal_calls++;
    memcpy(seen_env, env, 8);
    memcpy(seen_digest, dg, 64);
    ck_assert_uint_ge(cap, 72);
    memcpy(out, "SEALTEST", 8);
    memcpy(out + 8, dg, 64);
    *n = 72;
    return 0;
}

START_TEST(seal_hook)
{
    const arb_game *g = arb_game_at(0);
    for (int archive = 0; archive < 2; archive++) {
        match_in mi;
        setup_match(&mi, g, 5, 0, 0);
        mi.meta.seal = test_seal;
        seal_calls = 0;
        arb_error err = ARB_ERROR_INIT;
        arb_replay_writer *w;
        arb_archive_writer *aw = NULL;
        const char *path = archive ? tpath("sa.tcgr") : tpath("s.tcgr");
        if (archive) {
            ck_assert_int_eq(arb_archive_writer_open(&aw, path, 0, 0, NULL, 0, &err), ARB_OK);
            ck_assert_int_eq(arb_replay_writer_open_archive(&w, aw, &mi.meta, &err), ARB_OK);
        } else ck_assert_int_eq(arb_replay_writer_open(&w, path, &mi.meta, &err), ARB_OK);
        ck_assert_int_gt(play_into(g, w, mi.m, 5, 0, 0), 0);
        arb_match_free(mi.m);
        if (aw) ck_assert_int_eq(arb_archive_writer_close(aw, &err), ARB_OK);
        ck_assert_int_eq(seal_calls, 1);
        arb_replay *r;
        char mp[300];
        snprintf(mp, sizeof mp, "%s%s", path, archive ? "#0" : "");
        ck_assert_int_eq(arb_replay_open(&r, mp, NULL, &err), ARB_OK);
        recs *rr = &A;
        read_recs(r, rr);
        ck_assert_int_eq(rr->end_rc, 0);
        uint8_t dg[64], env[8];
        const uint8_t *tr;
        size_t ntr;
        ck_assert_int_eq(arb_replay_sealable(r, dg, &tr, &ntr, NULL), 1);
        arb_replay_envelope(r, env);
        ck_assert_int_eq(env[5] & ARB_REPLAY_FLAG_RC, ARB_REPLAY_FLAG_RC); /* range-coded */
        /* a single file names its game's primer (§D.8); an archive member none */
        ck_assert_uint_eq(env[6], archive ? 0 : primer_of(g->id));
        env[5] &= (uint8_t)~ARB_REPLAY_FLAG_RC; /* the seal sees the envelope its digest covers */
        env[6] = 0;
        ck_assert_int_eq(memcmp(env, seen_env, 8), 0);
        ck_assert_int_eq(memcmp(dg, seen_digest, 64), 0);
        ck_assert_uint_eq(ntr, 72);
        ck_assert_int_eq(memcmp(tr, "SEALTEST", 8), 0);
        ck_assert_int_eq(memcmp(tr + 8, dg, 64), 0);
        arb_replay_close(r);
        if (archive) {
            /* extracted: the same envelope and content, the same seal */
            arb_archive *a;
            ck_assert_int_eq(arb_archive_open(&a, path, &err), ARB_OK);
            ck_assert_int_eq(arb_archive_extract(a, 0, tpath("sx.tcgr"), &err), ARB_OK);
            arb_archive_close(a);
            ck_assert_int_eq(arb_replay_open(&r, tpath("sx.tcgr"), NULL, &err), ARB_OK);
            read_recs(r, rr);
            ck_assert_int_eq(arb_replay_sealable(r, dg, &tr, &ntr, NULL), 1);
            ck_assert_int_eq(memcmp(dg, seen_digest, 64), 0);
            ck_assert_uint_eq(ntr, 72);
            arb_replay_close(r);
        }
        /* one byte more after the seal block is not a seal block any more */
        size_t fl;
        uint8_t *f = ru_load(archive ? tpath("sx.tcgr") : path, &fl);
        ck_assert_int_eq(ru_save(tpath("s2.tcgr"), f, fl - 1), 0);
        free(f);
        arb_verify_result res;
        ck_assert_int_ne(arb_replay_verify_file(tpath("s2.tcgr"), NULL, &res, &err), ARB_OK);
    }
}
END_TEST

/* A recorder killed mid-match: the .part journal reads to its last flush
 * and verifies as a truncated prefix. */
START_TEST(killed_recorder_journal)
{
    const arb_game *g = arb_game_at((unsigned)_i);
    match_in mi;
    setup_match(&mi, g, 31, 1, 0);
    arb_error err = ARB_ERROR_INIT;
    arb_replay_writer *w;
    ck_assert_int_eq(arb_replay_writer_open(&w, tpath("k.tcgr"), &mi.meta, &err), ARB_OK);
    ck_assert_int_eq(play_into(g, w, mi.m, 31, 1, 25), 25);
    arb_match_free(mi.m);
    ck_assert_int_ne(access(tpath("k.tcgr"), F_OK), 0);
    arb_verify_result res;
    int rc = arb_replay_verify_file(tpath("k.tcgr.part"), NULL, &res, &err);
    ck_assert_int_eq(rc, ARB_ETRUNC);
    ck_assert_uint_gt(res.last_good_record, 0);
    ck_assert_uint_le(res.status.actions, 25);
}
END_TEST

/* ---- archives */

static void write_archive(const char *path, const arb_game *g, int n, uint64_t seed, int threads, int append)
{
    arb_error err = ARB_ERROR_INIT;
    arb_archive_writer *aw;
    ck_assert_int_eq(arb_archive_writer_open(&aw, path, append, threads, NULL, 0, &err), ARB_OK);
    for (int i = 0; i < n; i++) {
        match_in mi;
        setup_match(&mi, g, seed + (uint64_t)i, i % 3 == 2, 0);
        arb_replay_writer *w;
        ck_assert_int_eq(arb_replay_writer_open_archive(&w, aw, &mi.meta, &err), ARB_OK);
        ck_assert_int_gt(play_into(g, w, mi.m, seed + (uint64_t)i, i % 3 == 2, 0), 0);
        arb_match_free(mi.m);
    }
    ck_assert_int_eq(arb_archive_writer_close(aw, &err), ARB_OK);
}

/* Every member of the archive at path verifies; returns the count. */
static uint64_t verify_members(const char *path, arb_archive_index *st, int *cut)
{
    arb_archive *a;
    arb_error err = ARB_ERROR_INIT;
    if (arb_archive_open(&a, path, &err)) return UINT64_MAX;
    uint64_t n = arb_archive_count(a);
    if (st) *st = arb_archive_index_state(a, NULL);
    if (cut) *cut = arb_archive_cut(a, NULL);
    for (uint64_t i = 0; i < n; i++) {
        arb_replay *r;
        ck_assert_int_eq(arb_archive_open_member(&r, a, i, NULL, &err), ARB_OK);
        arb_verify_result res;
        ck_assert_msg(arb_replay_verify(r, NULL, &res, &err) == ARB_OK, "%s member %llu: %s", path,
                      (unsigned long long)i, err.msg);
        arb_replay_close(r);
    }
    arb_archive_close(a);
    return n;
}

START_TEST(archive_round_trip)
{
    const arb_game *g = arb_game_at((unsigned)_i);
    char p1[256], p2[256];
    snprintf(p1, sizeof p1, "%s", tpath("a1.tcgr"));
    snprintf(p2, sizeof p2, "%s", tpath("a2.tcgr"));
    write_archive(p1, g, 20, 900, 0, 0);
    write_archive(p2, g, 20, 900, 1, 0); /* on the compressor thread */
    size_t n1, n2;
    uint8_t *b1 = ru_load(p1, &n1), *b2 = ru_load(p2, &n2);
    ck_assert_uint_eq(n1, n2);
    ck_assert_int_eq(memcmp(b1, b2, n1), 0);
    free(b1);
    free(b2);
    ck_assert_int_ne(access(tpath("a1.tcgr.part"), F_OK), 0);
    arb_archive_index st;
    int cut;
    ck_assert_uint_eq(verify_members(p1, &st, &cut), 20);
    ck_assert_int_eq(st, ARB_INDEX_OK);
    ck_assert_int_eq(cut, 0);
    /* the member equals a standalone recording of the same match */
    record_file(g, tpath("solo.tcgr"), 905, 1, 0);
    arb_error err = ARB_ERROR_INIT;
    arb_replay *r;
    char mp[300];
    snprintf(mp, sizeof mp, "%s#5", p1);
    ck_assert_int_eq(arb_replay_open(&r, mp, NULL, &err), ARB_OK);
    read_recs(r, &A);
    uint8_t d1[64], d2[64];
    ck_assert_int_eq(arb_replay_sealable(r, d1, NULL, NULL, NULL), 1);
    arb_replay_close(r);
    ck_assert_int_eq(arb_replay_open(&r, tpath("solo.tcgr"), NULL, &err), ARB_OK);
    read_recs(r, &B);
    ck_assert_int_eq(arb_replay_sealable(r, d2, NULL, NULL, NULL), 1);
    arb_replay_close(r);
    ck_assert_uint_eq(A.n, B.n);
    ck_assert_int_eq(memcmp(d1, d2, 64), 0); /* same envelope + content */
    /* members past the end */
    snprintf(mp, sizeof mp, "%s#20", p1);
    ck_assert_int_ne(arb_replay_open(&r, mp, NULL, &err), ARB_OK);
    /* the archive itself is not one replay */
    ck_assert_int_eq(arb_replay_open(&r, p1, NULL, &err), ARB_EFORMAT);
    ck_assert_ptr_nonnull(strstr(err.msg, "archive"));
}
END_TEST

/* Cut at every byte: every complete member is recovered and verifies,
 * the cut one is reported, nothing crashes. */
START_TEST(archive_truncation_every_byte)
{
    const arb_game *g = arb_game_find("naramo") ? arb_game_find("naramo") : arb_game_at(0);
    const char *p = tpath("t.tcgr");
    write_archive(p, g, 3, 60, 0, 0);
    arb_archive *a;
    arb_error err = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_archive_open(&a, p, &err), ARB_OK);
    uint64_t ends[3];
    for (int i = 0; i < 3; i++) {
        const arb_archive_member *m = arb_archive_member_at(a, (uint64_t)i);
        ends[i] = i < 2 ? arb_archive_member_at(a, (uint64_t)i + 1)->offset : 0;
        (void)m;
    }
    arb_archive_close(a);
    size_t n;
    uint8_t *b = ru_load(p, &n);
    /* the end of member 2: the index frame's offset, from the trailer */
    ends[2] = b[n - 16] | (uint64_t)b[n - 15] << 8 | (uint64_t)b[n - 14] << 16 | (uint64_t)b[n - 13] << 24;
    const char *q = tpath("tq.tcgr");
    for (size_t len = 0; len < n; len++) {
        ck_assert_int_eq(ru_save(q, b, len), 0);
        if (len < 8) {
            ck_assert_int_ne(arb_archive_open(&a, q, &err), ARB_OK);
            continue;
        }
        arb_archive_index st;
        int cut;
        uint64_t got = verify_members(q, &st, &cut);
        uint64_t want = (len >= ends[0]) + (len >= ends[1]) + (len >= ends[2]);
        ck_assert_msg(got == want, "cut at %zu: %llu members, want %llu", len, (unsigned long long)got,
                      (unsigned long long)want);
        ck_assert_int_ne(st, ARB_INDEX_OK); /* the trailer is gone: rebuilt */
        int want_cut = len > 8 && len < ends[2] && len != ends[0] && len != ends[1];
        ck_assert_msg(cut == want_cut, "cut at %zu: cut flag %d", len, cut);
    }
    free(b);
}
END_TEST

/* Every byte of the index frame and the trailer flipped: the index is
 * never trusted wrongly — the members found are the real ones. */
START_TEST(archive_index_corruption)
{
    const arb_game *g = arb_game_at(0);
    const char *p = tpath("ic.tcgr");
    write_archive(p, g, 4, 70, 0, 0);
    size_t n;
    uint8_t *b = ru_load(p, &n);
    uint64_t ioff = b[n - 16] | (uint64_t)b[n - 15] << 8 | (uint64_t)b[n - 14] << 16 | (uint64_t)b[n - 13] << 24;
    const char *q = tpath("icq.tcgr");
    for (size_t i = ioff; i < n; i++) {
        for (int bit = 0; bit < 8; bit += 3) {
            b[i] ^= (uint8_t)(1u << bit);
            ck_assert_int_eq(ru_save(q, b, n), 0);
            arb_archive_index st;
            int cut;
            uint64_t got = verify_members(q, &st, &cut);
            ck_assert_msg(got == 4, "byte %zu bit %d: %llu members", i, bit, (unsigned long long)got);
            ck_assert_msg(st != ARB_INDEX_OK, "byte %zu bit %d: a damaged index was trusted", i, bit);
            ck_assert_int_eq(cut, 0);
            b[i] ^= (uint8_t)(1u << bit);
        }
    }
    /* an index with a consistent CRC that points into a member: not trusted */
    arb_archive *a;
    arb_error err = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_archive_open(&a, p, &err), ARB_OK);
    ck_assert_int_eq(arb_archive_index_state(a, NULL), ARB_INDEX_OK);
    arb_archive_close(a);
    uint8_t *c = malloc(n);
    memcpy(c, b, n);
    /* entry 1's offset delta is the byte after 'I', count, d0, clen0(varint), acts0(varint) */
    const uint8_t *ip = c + ioff + 1;
    while (*ip & 0x80) ip++; /* count */
    ip++;
    for (int f = 0; f < 3; f++) { while (*ip & 0x80) ip++; ip++; } /* d0 clen0 acts0 */
    c[ip - c] ^= 1; /* delta of member 1 off by one */
    uLong crc = crc32(0, c + ioff, (uInt)(n - 16 - 4 - ioff));
    for (int k = 0; k < 4; k++) c[n - 20 + k] = (uint8_t)(crc >> (8 * k));
    ck_assert_int_eq(ru_save(q, c, n), 0);
    ck_assert_int_eq(arb_archive_open(&a, q, &err), ARB_OK);
    const char *note;
    ck_assert_int_eq(arb_archive_index_state(a, &note), ARB_INDEX_CORRUPT);
    ck_assert_ptr_nonnull(strstr(note, "offsets"));
    ck_assert_uint_eq(arb_archive_count(a), 4);
    arb_archive_close(a);
    free(c);
    free(b);
}
END_TEST

/* Appending: to a clean archive, and after a crash cut its last member. */
START_TEST(archive_append)
{
    const arb_game *g = arb_game_at(1 % arb_game_count());
    const char *p = tpath("ap.tcgr");
    write_archive(p, g, 3, 80, 0, 0);
    write_archive(p, g, 2, 83, 1, 1);
    write_archive(tpath("ap5.tcgr"), g, 5, 80, 0, 0);
    size_t n1, n2;
    uint8_t *b1 = ru_load(p, &n1), *b2 = ru_load(tpath("ap5.tcgr"), &n2);
    /* appending gives the same bytes as writing all five at once */
    ck_assert_uint_eq(n1, n2);
    ck_assert_int_eq(memcmp(b1, b2, n1), 0);
    arb_archive_index st;
    ck_assert_uint_eq(verify_members(p, &st, NULL), 5);
    ck_assert_int_eq(st, ARB_INDEX_OK);
    /* a crash: the file ends inside member 4 */
    arb_archive *a;
    arb_error err = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_archive_open(&a, p, &err), ARB_OK);
    uint64_t off4 = arb_archive_member_at(a, 4)->offset;
    arb_archive_close(a);
    ck_assert_int_eq(ru_save(p, b1, (size_t)off4 + 5), 0);
    char note[256];
    arb_archive_writer *aw;
    ck_assert_int_eq(arb_archive_writer_open(&aw, p, 1, 0, note, sizeof note, &err), ARB_OK);
    ck_assert_ptr_nonnull(strstr(note, "dropped"));
    ck_assert_int_eq(arb_archive_writer_close(aw, &err), ARB_OK);
    int cut;
    ck_assert_uint_eq(verify_members(p, &st, &cut), 4);
    ck_assert_int_eq(st, ARB_INDEX_OK);
    ck_assert_int_eq(cut, 0);
    free(b1);
    free(b2);
}
END_TEST

/* The CLI on archives: play --archive, verify (NDJSON per member), info,
 * log/state FILE#N, extract. */
START_TEST(archive_cli)
{
    char cmd[1024];
    const char *arb = getenv("ARBITER");
    if (!arb) arb = "build/arbiter";
    const arb_game *g = arb_game_at(0);
    snprintf(cmd, sizeof cmd, "%s play --game %s --games 5 --seed 3 --archive -o %s >/dev/null", arb, g->id,
             tpath("c.tcgr"));
    ck_assert_int_eq(system(cmd), 0);
    /* one line per member, after the archive's own line (kind archive) */
    snprintf(cmd, sizeof cmd, "test $(%s verify --json %s | grep -c '\"member\":[0-9]*,.*\"status\":\"ok\"') = 5", arb,
             tpath("c.tcgr"));
    ck_assert_int_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s verify --json %s | head -n 1 | grep -q '\"kind\":\"archive\",\"status\":\"ok\"'", arb,
             tpath("c.tcgr"));
    ck_assert_int_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s info %s | grep -q 'members:    5'", arb, tpath("c.tcgr"));
    ck_assert_int_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s log %s#2 >/dev/null && %s state %s#2 --at 3 >/dev/null", arb, tpath("c.tcgr"), arb,
             tpath("c.tcgr"));
    ck_assert_int_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s extract %s#4 -o %s && %s verify %s >/dev/null", arb, tpath("c.tcgr"), tpath("c4.tcgr"),
             arb, tpath("c4.tcgr"));
    ck_assert_int_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s extract %s#5 -o %s 2>/dev/null", arb, tpath("c.tcgr"), tpath("c5.tcgr"));
    ck_assert_int_eq(WEXITSTATUS(system(cmd)), 3);
    /* a cut archive: verify exits 3 and names the cut member */
    snprintf(cmd, sizeof cmd, "head -c 300 %s > %s; %s verify %s | grep -q 'TRUNCATED'; test $? = 0", tpath("c.tcgr"),
             tpath("cc.tcgr"), arb, tpath("cc.tcgr"));
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST


/* ---------------------------------------------------------------- the range-coded body (FORMAT.md Part D) */

/* Content with every record kind of §B.3 after the header of a real file
 * (timed or not): actions of 0..4 arguments, a verb byte, seat changes,
 * an elapsed prefix (untimed), long think times (timed), next-turn,
 * seat-folding, explicit-turn and full checkpoints, an unknown record and
 * an outcome whose reason is a string. */
static uint8_t *all_kinds(int timed, size_t *n, size_t *hl)
{
    const arb_game *g = arb_game_find("naramo");
    record_file(g, tpath("hdr.tcgr"), 3, timed, 0);
    size_t fl, cl;
    uint8_t *f = ru_load(tpath("hdr.tcgr"), &fl);
    uint8_t *c = ru_inflate(f, fl, &cl);
    free(f);
    arb_replay_limits lim;
    arb_replay__limits(&lim, NULL);
    const char *what;
    ck_assert_int_eq(arb_replay__mp_measure(c, cl, &lim, hl, &what), ARB_MP_OK);
    uint8_t *out = malloc(*hl + 4096), *p = out + *hl;
    memcpy(out, c, *hl);
    free(c);
    arb_r2_state st;
    arb_r2_init(&st, timed);
    p = arb_r2_checkpoint(p, &st, 1, 0x1122334455667788ull, -2);
    for (int i = 0; i < 40; i++) {
        arb_action a = { 0 };
        a.seat = (int8_t)(i % 7 == 3 ? -1 : i % 5 == 0 ? 1 : 0);
        a.verb = (uint8_t)(i % 9 == 4 ? 40 + i : i % 6);
        a.nargs = (uint8_t)(i % 5);
        for (unsigned k = 0; k < a.nargs; k++) a.args[k] = (int32_t)(k == 1 ? -i * 1000 : i * 37 + (int)k);
        a.elapsed_ms = i % 4 == 1 ? (uint32_t)(i * 12345u) : i % 13 == 7 ? 4000000000u : 0;
        p = arb_r2_action(p, &st, &a);
        if (i % 6 == 5) p = arb_r2_checkpoint(p, &st, st.cp_turn + (i % 12 == 11 ? 3u : 1u), (uint64_t)i * 77, i % 2);
        if (i == 20) { *p++ = 0xc5; *p++ = 3; *p++ = 1; *p++ = 2; *p++ = 3; } /* an unknown record */
    }
    p = arb_r2_outcome(p, 1, -1, "by-a-string", 11, 9, 0xfedcba9876543210ull);
    *n = (size_t)(p - out);
    return out;
}

static void env_for(uint8_t env[8], int timed, int rc)
{
    memcpy(env, "TCGR\x02\x00\x00\x00", 8);
    env[5] = (uint8_t)((timed ? ARB_REPLAY_FLAG_TIMED : 0) | (rc ? ARB_REPLAY_FLAG_RC : 0));
}

static void read_mem(const uint8_t *f, size_t n, recs *out, int *open_rc)
{
    arb_replay *r;
    arb_error err = ARB_ERROR_INIT;
    out->n = 0;
    out->end_rc = 0;
    *open_rc = arb_replay_open_mem(&r, f, n, "mem", NULL, &err);
    if (*open_rc) return;
    read_recs(r, out);
    arb_replay_close(r);
}

static void same_recs(const recs *a, const recs *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const arb_replay_record *x = &a->r[i], *y = &b->r[i];
        ck_assert_int_eq(x->kind, y->kind);
        ck_assert_uint_eq(x->offset, y->offset);
        if (x->kind == ARB_REC_ACTION) ck_assert_int_eq(memcmp(&x->action, &y->action, sizeof x->action), 0);
        if (x->kind == ARB_REC_CHECKPOINT || x->kind == ARB_REC_OUTCOME) {
            ck_assert_uint_eq(x->turn, y->turn);
            ck_assert_uint_eq(x->hash, y->hash);
        }
        if (x->kind == ARB_REC_OUTCOME) ck_assert_str_eq(x->reason, y->reason);
    }
}

/* Every record kind, timed and untimed: the range-coded and the zlib body
 * of the same content read the same records, and the same digest. */
START_TEST(rc_every_record_kind)
{
    int timed = _i;
    size_t n, hl, zl, rl;
    uint8_t *c = all_kinds(timed, &n, &hl);
    uint8_t env[8];
    env_for(env, timed, 0);
    uint8_t *z = ru_build_env(c, n, env, &zl);
    env_for(env, timed, 1);
    uint8_t *r = ru_build_env(c, n, env, &rl);
    int o1, o2;
    read_mem(z, zl, &A, &o1);
    read_mem(r, rl, &B, &o2);
    ck_assert_int_eq(o1, ARB_OK);
    ck_assert_int_eq(o2, ARB_OK);
    ck_assert_int_eq(A.end_rc, 0);
    ck_assert_int_eq(B.end_rc, 0);
    ck_assert_uint_eq(A.n, B.n);
    ck_assert_uint_gt(A.n, 45);
    same_recs(&A, &B, A.n);
    int kinds = 0;
    for (size_t i = 0; i < B.n; i++) kinds |= 1 << (B.r[i].kind < 3 ? B.r[i].kind : 3);
    ck_assert_int_eq(kinds, 15); /* actions, checkpoints, the outcome and the unknown record */
    ck_assert_str_eq(B.r[B.n - 1].reason, "by-a-string");
    /* the content decoded back is the content */
    size_t dn;
    uint8_t *d = ru_inflate(r, rl, &dn);
    ck_assert_uint_eq(dn, n);
    ck_assert_int_eq(memcmp(d, c, n), 0);
    ck_assert_uint_lt(rl, zl);
    free(d);
    free(c);
    free(z);
    free(r);
}
END_TEST

/* A small range-coded file cut at every byte: the records returned are
 * the first ones of the whole file, exactly, then ARB_ETRUNC; never a
 * clean end. */
START_TEST(rc_truncation_every_byte)
{
    const arb_game *g = arb_game_at((unsigned)_i);
    record_file(g, tpath("t.tcgr"), 11, _i % 2, 0);
    size_t len;
    uint8_t *f = ru_load(tpath("t.tcgr"), &len);
    ck_assert_int_eq(f[5] & ARB_REPLAY_FLAG_RC, ARB_REPLAY_FLAG_RC);
    int orc;
    read_mem(f, len, &A, &orc);
    ck_assert_int_eq(orc, ARB_OK);
    ck_assert_int_eq(A.end_rc, 0);
    size_t last = 0;
    for (size_t cut = 0; cut < len; cut++) {
        read_mem(f, cut, &B, &orc);
        if (orc) {
            /* an empty file is "not a .tcgr replay" */
            ck_assert_msg(orc == ARB_ETRUNC || (cut == 0 && orc == ARB_EFORMAT), "cut %zu: open gives %d", cut, orc);
            continue;
        }
        ck_assert_msg(B.end_rc == ARB_ETRUNC, "cut %zu of %zu: ends with %d after %zu records", cut, len, B.end_rc, B.n);
        ck_assert_uint_le(B.n, A.n);
        ck_assert_uint_ge(B.n, last);
        last = B.n;
        same_recs(&A, &B, B.n);
    }
    /* only the flush and the CRC are missing: every record is there */
    read_mem(f, len - 4, &B, &orc);
    ck_assert_uint_eq(B.n, A.n);
    ck_assert_int_eq(B.end_rc, ARB_ETRUNC);
    free(f);
}
END_TEST

/* A flipped bit at every offset of a range-coded file is detected (the
 * file does not open or read to a clean end) or changes nothing that is
 * read: the same records and the same digest. */
START_TEST(rc_flip_every_byte)
{
    const arb_game *g = arb_game_at((unsigned)_i);
    record_file(g, tpath("f.tcgr"), 12, _i % 2, 0);
    size_t len;
    uint8_t *f = ru_load(tpath("f.tcgr"), &len);
    int orc;
    read_mem(f, len, &A, &orc);
    unsigned detected = 0, same = 0;
    for (size_t i = 0; i < len; i++)
        for (int m = 0; m < 2; m++) {
            uint8_t x = m ? 0x80 : 0x01;
            f[i] ^= x;
            read_mem(f, len, &B, &orc);
            if (orc || B.end_rc) detected++;
            else {
                /* only bits readers ignore: flags bit 7, the reserved
                 * envelope bytes, the coder's last flush bytes (bits of
                 * `low` no decoder needs) */
                ck_assert_msg((i == 5 && x == 0x80) || i == 6 || i == 7 || (i >= len - 8 && i < len - 4),
                              "byte %zu ^ %02x of %zu goes unnoticed", i, x, len);
                ck_assert_msg(B.n == A.n, "byte %zu ^ %02x: %zu records instead of %zu, no error", i, x, B.n, A.n);
                same_recs(&A, &B, A.n);
                same++;
            }
            f[i] ^= x;
        }
    ck_assert_uint_le(same, 13);
    ck_assert_uint_ge(detected, 2 * len - 13);
    free(f);
}
END_TEST

/* The same match written with the zlib body (older readers) and with the
 * range coder: the same records and digest; the range-coded file is
 * smaller; both verify. */
/* Record seed's match into path with extra writer flags (meta.flags). */
static void record_flags(const arb_game *g, const char *path, uint64_t seed, int timed, unsigned flags)
{
    match_in mi;
    setup_match(&mi, g, seed, timed, 0);
    mi.meta.flags |= flags;
    arb_replay_writer *w;
    arb_error err = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_replay_writer_open(&w, path, &mi.meta, &err), ARB_OK);
    ck_assert_int_gt(play_into(g, w, mi.m, seed, timed, 0), 0);
    arb_match_free(mi.m);
}

/* Two codings of one match: the same records, the same digest, and both
 * verify. */
static void same_replay(const char *a, const char *b)
{
    size_t al, bl;
    uint8_t *x = ru_load(a, &al), *y = ru_load(b, &bl);
    int o;
    read_mem(x, al, &A, &o);
    ck_assert_int_eq(o, ARB_OK);
    read_mem(y, bl, &B, &o);
    ck_assert_int_eq(o, ARB_OK);
    ck_assert_int_eq(A.end_rc, 0);
    ck_assert_int_eq(B.end_rc, 0);
    ck_assert_uint_eq(A.n, B.n);
    same_recs(&A, &B, A.n);
    free(x);
    free(y);
    uint8_t d[2][64];
    arb_error err = ARB_ERROR_INIT;
    for (int k = 0; k < 2; k++) {
        arb_replay *rd;
        ck_assert_int_eq(arb_replay_open(&rd, k ? b : a, NULL, &err), ARB_OK);
        read_recs(rd, &A);
        ck_assert_int_eq(arb_replay_sealable(rd, d[k], NULL, NULL, NULL), 1);
        arb_replay_close(rd);
        arb_verify_result res;
        ck_assert_int_eq(arb_replay_verify_file(k ? b : a, NULL, &res, &err), ARB_OK);
    }
    ck_assert_int_eq(memcmp(d[0], d[1], 64), 0);
}

START_TEST(rc_and_zlib_v2)
{
    const arb_game *g = arb_game_at((unsigned)_i);
    for (int timed = 0; timed < 2; timed++) {
        record_flags(g, tpath("z.tcgr"), 21, timed, ARB_REPLAY_WRITE_ZLIB);
        record_file(g, tpath("r.tcgr"), 21, timed, 0);
        size_t zl, rl;
        uint8_t *z = ru_load(tpath("z.tcgr"), &zl), *r = ru_load(tpath("r.tcgr"), &rl);
        ck_assert_int_eq(z[5], timed ? ARB_REPLAY_FLAG_TIMED : 0);
        ck_assert_int_eq(r[5], (timed ? ARB_REPLAY_FLAG_TIMED : 0) | ARB_REPLAY_FLAG_RC);
        ck_assert_uint_lt(rl, zl);
        same_replay(tpath("z.tcgr"), tpath("r.tcgr"));
        free(z);
        free(r);
    }
}
END_TEST

/* Archives: members are range-coded from primed models; member 18 opened
 * first (random access: the reader primes from members 0..15 itself)
 * reads what a sequential pass reads; an archive whose first members are
 * zlib-coded (an older writer) and whose later ones are appended
 * range-coded reads and verifies throughout, primed from the zlib
 * members' contents; the range-coded archive is smaller than zlib's. */
START_TEST(rc_archive_priming)
{
    const arb_game *g = arb_game_at((unsigned)_i);
    char pr[256], pz[256], pm[256];
    snprintf(pr, sizeof pr, "%s", tpath("ar.tcgr"));
    snprintf(pz, sizeof pz, "%s", tpath("az.tcgr"));
    snprintf(pm, sizeof pm, "%s", tpath("am.tcgr"));
    write_archive(pr, g, 20, 300, 0, 0);
    arb_error err = ARB_ERROR_INIT;
    for (int k = 0; k < 2; k++) {
        const char *path = k ? pm : pz;
        for (int part = 0; part < 2; part++) {
            arb_archive_writer *aw;
            { int orc_ = arb_archive_writer_open(&aw, path, part, 0, NULL, 0, &err); ck_assert_msg(orc_ == ARB_OK, "%s %s", err.where, err.msg); }
            if (k == 0 || part == 0) arb_archive__writer_zlib(aw, 1);
            for (int i = part * 10; i < part * 10 + 10; i++) {
                match_in mi;
                setup_match(&mi, g, 300 + (uint64_t)i, i % 3 == 2, 0);
                arb_replay_writer *w;
                ck_assert_int_eq(arb_replay_writer_open_archive(&w, aw, &mi.meta, &err), ARB_OK);
                ck_assert_int_gt(play_into(g, w, mi.m, 300 + (uint64_t)i, i % 3 == 2, 0), 0);
                arb_match_free(mi.m);
            }
            ck_assert_int_eq(arb_archive_writer_close(aw, &err), ARB_OK);
        }
    }
    size_t nr, nz;
    free(ru_load(pr, &nr));
    free(ru_load(pz, &nz));
    ck_assert_uint_lt(nr, nz);
    ck_assert_uint_eq(verify_members(pm, NULL, NULL), 20);
    const char *paths[3] = { pr, pz, pm };
    for (int k = 0; k < 3; k++) {
        arb_archive *a;
        ck_assert_int_eq(arb_archive_open(&a, paths[k], &err), ARB_OK);
        for (uint64_t i = 0; i < 20; i++) {
            int rcm = (arb_archive_member_at(a, i)->flags & ARB_REPLAY_FLAG_RC) != 0;
            ck_assert_int_eq(rcm, k == 0 || (k == 2 && i >= 10));
        }
        arb_archive_close(a);
        /* random access first, then sequentially */
        char mp[300];
        snprintf(mp, sizeof mp, "%s#18", paths[k]);
        arb_replay *r;
        ck_assert_int_eq(arb_replay_open(&r, mp, NULL, &err), ARB_OK);
        read_recs(r, &A);
        arb_replay_close(r);
        ck_assert_int_eq(arb_archive_open(&a, paths[k], &err), ARB_OK);
        for (uint64_t i = 0; i <= 18; i++) {
            ck_assert_int_eq(arb_archive_open_member(&r, a, i, NULL, &err), ARB_OK);
            read_recs(r, &B);
            arb_replay_close(r);
        }
        arb_archive_close(a);
        ck_assert_int_eq(A.end_rc, 0);
        ck_assert_uint_eq(A.n, B.n);
        same_recs(&A, &B, A.n);
    }
    /* extracted members of both codings: range-coded, same records */
    for (uint64_t i = 4; i <= 14; i += 10) {
        arb_archive *a;
        ck_assert_int_eq(arb_archive_open(&a, pm, &err), ARB_OK);
        ck_assert_int_eq(arb_archive_extract(a, i, tpath("x.tcgr"), &err), ARB_OK);
        arb_replay *r;
        ck_assert_int_eq(arb_archive_open_member(&r, a, i, NULL, &err), ARB_OK);
        read_recs(r, &A);
        arb_replay_close(r);
        arb_archive_close(a);
        size_t xl;
        uint8_t *x = ru_load(tpath("x.tcgr"), &xl);
        ck_assert_int_eq(x[5] & ARB_REPLAY_FLAG_RC, ARB_REPLAY_FLAG_RC);
        int o;
        read_mem(x, xl, &B, &o);
        ck_assert_int_eq(B.end_rc, 0);
        ck_assert_uint_eq(A.n, B.n);
        same_recs(&A, &B, A.n);
        free(x);
    }
}
END_TEST

/* Built-in primers (FORMAT.md §D.8) and the short flush (§D.2): a single
 * file names its game's primer in byte 6 and is smaller than the same
 * content coded from empty models (ARB_REPLAY_WRITE_RC0, byte 6 = 0, the
 * older coding), with the same records and digest; a wrong primer never
 * decodes silently, an unknown one is unsupported, a zlib body with a
 * primer is corrupt, and a body that needs more than 4 padding bytes is
 * corrupt. */
START_TEST(rc_primers)
{
    const arb_game *g = arb_game_at((unsigned)_i);
    arb_error err = ARB_ERROR_INIT;
    for (int timed = 0; timed < 2; timed++) {
        record_file(g, tpath("p.tcgr"), 33, timed, 0);
        record_flags(g, tpath("p0.tcgr"), 33, timed, ARB_REPLAY_WRITE_RC0);
        size_t pl, ql;
        uint8_t *p = ru_load(tpath("p.tcgr"), &pl), *q = ru_load(tpath("p0.tcgr"), &ql);
        ck_assert_uint_eq(p[6], primer_of(g->id));
        ck_assert_uint_ne(p[6], 0);
        ck_assert_uint_eq(q[6], 0);
        ck_assert_int_eq(p[5], q[5]);
        ck_assert_uint_lt(pl, ql);
        same_replay(tpath("p.tcgr"), tpath("p0.tcgr")); /* byte 6 is not in the digest (§B.1) */
        arb_verify_result res;
        /* the wrong primer (none, or another game's): never the same records */
        for (unsigned id = 0; id <= ARB_RC_NPRIMERS; id++) {
            if (id == p[6]) continue;
            p[6] = (uint8_t)id;
            ck_assert_int_eq(ru_save(tpath("w.tcgr"), p, pl), 0);
            err = (arb_error)ARB_ERROR_INIT;
            ck_assert_int_ne(arb_replay_verify_file(tpath("w.tcgr"), NULL, &res, &err), ARB_OK);
            p[6] = (uint8_t)primer_of(g->id);
        }
        /* an id this reader does not have */
        p[6] = ARB_RC_NPRIMERS + 1;
        ck_assert_int_eq(ru_save(tpath("w.tcgr"), p, pl), 0);
        err = (arb_error)ARB_ERROR_INIT;
        ck_assert_int_eq(arb_replay_verify_file(tpath("w.tcgr"), NULL, &res, &err), ARB_EUNSUPPORTED);
        ck_assert_ptr_nonnull(strstr(err.where, "offset 6"));
        ck_assert_ptr_nonnull(strstr(err.msg, "primer 5"));
        free(p);
        free(q);
    }
    /* a zlib body with a primer: corrupt, at byte 6 */
    record_flags(g, tpath("z.tcgr"), 34, 0, ARB_REPLAY_WRITE_ZLIB);
    size_t zl;
    uint8_t *z = ru_load(tpath("z.tcgr"), &zl);
    z[6] = 1;
    ck_assert_int_eq(ru_save(tpath("w.tcgr"), z, zl), 0);
    arb_verify_result res;
    err = (arb_error)ARB_ERROR_INIT;
    ck_assert_int_eq(arb_replay_verify_file(tpath("w.tcgr"), NULL, &res, &err), ARB_EFORMAT);
    ck_assert_ptr_nonnull(strstr(err.where, "offset 6"));
    free(z);
    /* one coded byte: the decoder wants more than 4 bytes of padding */
    const uint8_t tiny[] = { 'T', 'C', 'G', 'R', 2, ARB_REPLAY_FLAG_RC, 0, 0, 1, 0x55, 0, 0, 0, 0 };
    int orc;
    read_mem(tiny, sizeof tiny, &A, &orc);
    ck_assert_int_eq(orc, ARB_EFORMAT);
}
END_TEST

/* The header of path read twice: as the verifier reads it (the common
 * version-2 shape without a tree) and as arb_replay_get_header gives it
 * (the full decoder, with its tree): every field the same. Returns 1 when
 * the first read took the tree-less path. */
static int header_both_ways(const char *path)
{
    arb_replay *r;
    arb_error err = ARB_ERROR_INIT;
    ck_assert_msg(arb_replay_open(&r, path, NULL, &err) == ARB_OK, "%s: %s", path, err.msg);
    static arb_replay_header a;
    a = *arb_replay__header(r);
    const arb_replay_header *b = arb_replay_get_header(r);
    ck_assert_ptr_nonnull(b->tree);
    ck_assert_int_eq(a.version, b->version);
    ck_assert_int_eq(a.flags, b->flags);
    ck_assert_str_eq(a.format, b->format);
    ck_assert_str_eq(a.game, b->game);
    ck_assert_str_eq(a.rules, b->rules);
    ck_assert_str_eq(a.rng, b->rng);
    ck_assert_str_eq(a.hash, b->hash);
    ck_assert_str_eq(a.engine, b->engine);
    ck_assert_str_eq(a.started, b->started);
    ck_assert_uint_eq(a.seed, b->seed);
    ck_assert_uint_eq(a.size, b->size);
    ck_assert_int_eq(a.players, b->players);
    for (int s = 0; s < a.players; s++) {
        const arb_replay_player *x = &a.player[s], *y = &b->player[s];
        ck_assert_str_eq(x->name, y->name);
        ck_assert_str_eq(x->deck_name, y->deck_name);
        ck_assert_str_eq(x->preset, y->preset);
        ck_assert_uint_eq(x->ncards, y->ncards);
        for (unsigned i = 0; i < x->ncards; i++) ck_assert_str_eq(x->cards[i], y->cards[i]);
        ck_assert_uint_eq(x->nattrs, y->nattrs);
        for (unsigned i = 0; i < x->nattrs; i++) {
            ck_assert_str_eq(x->attrs[i].key, y->attrs[i].key);
            ck_assert_str_eq(x->attrs[i].value, y->attrs[i].value);
        }
    }
    ck_assert_uint_eq(a.options.n, b->options.n);
    for (unsigned i = 0; i < a.options.n; i++) {
        ck_assert_str_eq(a.options.kv[i].key, b->options.kv[i].key);
        ck_assert_int_eq(a.options.kv[i].value, b->options.kv[i].value);
    }
    ck_assert_int_eq(a.position != NULL, b->position != NULL);
    ck_assert_int_eq(a.has_commit, b->has_commit);
    ck_assert_uint_eq(a.salt_len, b->salt_len);
    ck_assert_int_eq(a.has_fair, b->has_fair);
    /* the deck indices the setup uses stay those of the header */
    arb_setup su;
    arb_deck da[ARB_MAX_SEATS];
    const arb_game *g = arb_game_find(b->game);
    if (g) ck_assert_int_eq(arb_replay_setup(r, g, &su, da, &err), ARB_OK);
    int fast = a.tree == NULL;
    arb_replay_close(r);
    return fast;
}

/* The verifier's tree-less header reader fills what the full one does,
 * over fresh recordings of every game (preset decks: the fast shape), a
 * header with names, salt and a non-preset deck (the full decoder), and
 * the golden version-2 corpus when the tests run from the repository. A
 * file's bytes verified from memory give the file's verdict and message. */
START_TEST(header_fast_same)
{
    int fast = 0, full = 0;
    for (unsigned gi = 0; gi < arb_game_count(); gi++) {
        const arb_game *g = arb_game_at(gi);
        for (int timed = 0; timed < 2; timed++) {
            record_file(g, tpath("h.tcgr"), 40 + (uint64_t)timed, timed, 0);
            if (header_both_ways(tpath("h.tcgr"))) fast++;
            else full++;
        }
        match_in mi;
        setup_match(&mi, g, 41, 0, 0);
        mi.meta.names[0] = "Alice";
        arb_replay_writer *w;
        arb_error err = ARB_ERROR_INIT;
        ck_assert_int_eq(arb_replay_writer_open(&w, tpath("n.tcgr"), &mi.meta, &err), ARB_OK);
        ck_assert_int_ge(play_into(g, w, mi.m, 41, 0, 0), 1);
        arb_match_free(mi.m);
        if (header_both_ways(tpath("n.tcgr"))) fast++;
        else full++;
        /* verify from memory = verify from the file, good and corrupt */
        size_t n;
        uint8_t *f = ru_load(tpath("h.tcgr"), &n);
        for (int flip = 0; flip < 3; flip++) {
            if (flip) f[n / 2 + (size_t)flip] ^= 0x40;
            ck_assert_int_eq(ru_save(tpath("m.tcgr"), f, n), 0);
            arb_verify_result r1, r2;
            arb_error e1 = ARB_ERROR_INIT, e2 = ARB_ERROR_INIT;
            int rc1 = arb_replay_verify_file(tpath("m.tcgr"), NULL, &r1, &e1);
            int rc2 = arb_replay_verify_mem(f, n, tpath("m.tcgr"), NULL, &r2, &e2);
            ck_assert_int_eq(rc1, rc2);
            if (!flip) ck_assert_int_eq(rc1, ARB_OK);
            ck_assert_str_eq(e1.msg, e2.msg);
            ck_assert_str_eq(e1.where, e2.where);
            ck_assert_uint_eq(r1.status.actions, r2.status.actions);
            ck_assert_uint_eq(r1.final_hash, r2.final_hash);
        }
        free(f);
    }
    static const char *const dirs[] = { "v2", "v2-rc0", "v2-zlib" };
    for (unsigned gi = 0; gi < arb_game_count(); gi++)
        for (unsigned k = 0; k < 3; k++) {
            char dir[256];
            snprintf(dir, sizeof dir, "replays/golden/%s/%s", arb_game_at(gi)->id, dirs[k]);
            DIR *d = opendir(dir);
            if (!d) continue;
            struct dirent *e;
            while ((e = readdir(d))) {
                size_t l = strlen(e->d_name);
                if (l < 6 || strcmp(e->d_name + l - 5, ".tcgr")) continue;
                char path[600];
                snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
                if (header_both_ways(path)) fast++;
                else full++;
            }
            closedir(d);
        }
    ck_assert_int_ge(fast, 2 * (int)arb_game_count());
    ck_assert_int_ge(full, (int)arb_game_count());
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("replay2");
    TCase *tc = tcase_create("v2");
    tcase_set_timeout(tc, 300);
    int ng = (int)arb_game_count();
    tcase_add_loop_test(tc, round_trip_every_game, 0, 2 * ng);
    tcase_add_test(tc, header_fields);
    tcase_add_test(tc, seal_hook);
    tcase_add_loop_test(tc, killed_recorder_journal, 0, ng);
    tcase_add_loop_test(tc, archive_round_trip, 0, ng);
    tcase_add_test(tc, archive_truncation_every_byte);
    tcase_add_test(tc, archive_index_corruption);
    tcase_add_test(tc, archive_append);
    tcase_add_test(tc, archive_cli);
    tcase_add_loop_test(tc, rc_every_record_kind, 0, 2);
    tcase_add_loop_test(tc, rc_truncation_every_byte, 0, ng);
    tcase_add_loop_test(tc, rc_flip_every_byte, 0, ng);
    tcase_add_loop_test(tc, rc_and_zlib_v2, 0, ng);
    tcase_add_loop_test(tc, rc_archive_priming, 0, ng);
    tcase_add_loop_test(tc, rc_primers, 0, ng);
    tcase_add_test(tc, header_fast_same);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/arb_replay2_XXXXXX");
    if (!mkdtemp(tmpdir)) return 1;
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (system(cmd)) { /* best effort */ }
    return failed ? 1 : 0;
}
