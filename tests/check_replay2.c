/* check_replay2.c — format version 2 and archives: round trips of every
 * game (same records as a version-1 recording of the same match), header
 * fields (names, non-preset decks, start time), the seal hook and the
 * content digest, the .part journal of a killed recorder, archives written
 * inline and on a second thread (byte-identical), members opened by FILE#N
 * and extracted, truncation of a small archive at every byte, every byte of
 * the index and trailer corrupted, and appending (also after a crash). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replay/internal.h"
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
        mi->decks[p] = *g->preset((unsigned)p % g->npresets);
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
    for (unsigned c = 0; c < d->ncards; c++) ck_assert_str_eq(h->player[1].cards[c], g->card(d->cards[c])->id);
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
    snprintf(cmd, sizeof cmd, "test $(%s verify --json %s | grep -c '\"status\":\"ok\"') = 5", arb, tpath("c.tcgr"));
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
