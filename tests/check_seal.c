/* check_seal.c — issue #15's machinery: the strict header (duplicate keys
 * at any level, required keys, UTF-8), bounded work (checkpoint bombs and
 * runs of unknown records refused in time proportional to the file),
 * honest verdicts for matches started from positions, commitments checked
 * against a published value, fair seeds (commit–reveal), keys and
 * signatures. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli_run.h"
#include "replay/internal.h"
#include "arbiter/seal.h"
#include "replay_util.h"
#include "testgame.h"

static char tmpdir[64];

static const char *tpath(const char *name)
{
    static char buf[4][256];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
    return buf[k];
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Open raw decompressed content as a v1 file in memory; read every record.
 * Returns the open code; *next_rc the code that ended the records. */
static int open_raw(const uint8_t *raw, size_t n, arb_error *err, int *next_rc)
{
    size_t flen;
    uint8_t *f = ru_build(raw, n, 1, &flen);
    arb_replay *r;
    arb_error_clear(err);
    int rc = arb_replay_open_mem(&r, f, flen, "raw.tcgr", NULL, err);
    *next_rc = 0;
    if (!rc) {
        arb_replay_record rec;
        while ((*next_rc = arb_replay_next(r, &rec, err)) == 1) {}
        arb_replay_close(r);
    }
    free(f);
    return rc;
}

/* Rebuild a file from edited content, keeping its envelope. */
static uint8_t *rebuild(const uint8_t *orig, const uint8_t *raw, size_t n, size_t *out_len)
{
    return ru_build_env(raw, n, orig, out_len);
}

static void good_header(arb_mpbuf *b) { ru_good_header(b, &tg_game); }

/* good_header with one more top-level entry KEY: STR (the fixmap count
 * bumped): a duplicate when KEY is already there. */
static void header_plus(arb_mpbuf *b, const char *key, const char *str)
{
    good_header(b);
    ck_assert((b->p[0] & 0xf0) == 0x80 && (b->p[0] & 0x0f) < 15);
    b->p[0]++;
    arb_replay__mp_cstr(b, key);
    arb_replay__mp_cstr(b, str);
}

START_TEST(duplicate_keys)
{
    arb_error err = ARB_ERROR_INIT;
    int nrc;
    arb_mpbuf b = { 0 };
    /* top level: a second "game" after the real one */
    header_plus(&b, "game", "mallory");
    ck_assert_int_eq(open_raw(b.p, b.n, &err, &nrc), ARB_EFORMAT);
    ck_assert_ptr_nonnull(strstr(err.msg, "duplicate key 'game'"));
    ck_assert_ptr_nonnull(strstr(err.where, "raw.tcgr"));
    ck_assert_ptr_nonnull(strstr(err.where, "offset"));
    arb_replay__mp_free(&b);
    /* an unknown key twice is refused as well */
    good_header(&b);
    b.p[0] += 2;
    arb_replay__mp_cstr(&b, "x-note");
    arb_replay__mp_cstr(&b, "a");
    arb_replay__mp_cstr(&b, "x-note");
    arb_replay__mp_cstr(&b, "b");
    ck_assert_int_eq(open_raw(b.p, b.n, &err, &nrc), ARB_EFORMAT);
    ck_assert_ptr_nonnull(strstr(err.msg, "duplicate key 'x-note'"));
    arb_replay__mp_free(&b);
    /* nested: a player map naming the player twice */
    arb_replay__mp_map(&b, 1);
    arb_replay__mp_cstr(&b, "players");
    arb_replay__mp_array(&b, 1);
    arb_replay__mp_map(&b, 2);
    arb_replay__mp_cstr(&b, "name");
    arb_replay__mp_cstr(&b, "Alice");
    arb_replay__mp_cstr(&b, "name");
    arb_replay__mp_cstr(&b, "Mallory");
    ck_assert_int_eq(open_raw(b.p, b.n, &err, &nrc), ARB_EFORMAT);
    ck_assert_ptr_nonnull(strstr(err.msg, "duplicate key 'players.0.name'"));
    arb_replay__mp_free(&b);
    /* a large map (the sorted path) with its duplicate far apart */
    arb_replay__mp_map(&b, 40);
    for (int i = 0; i < 40; i++) {
        char k[16];
        snprintf(k, sizeof k, "k%02d", i == 37 ? 3 : i);
        arb_replay__mp_cstr(&b, k);
        arb_replay__mp_int(&b, i);
    }
    ck_assert_int_eq(open_raw(b.p, b.n, &err, &nrc), ARB_EFORMAT);
    ck_assert_ptr_nonnull(strstr(err.msg, "duplicate key 'k03'"));
    arb_replay__mp_free(&b);
    /* and the header without duplicates still opens */
    good_header(&b);
    ck_assert_int_eq(open_raw(b.p, b.n, &err, &nrc), ARB_OK);
    arb_replay__mp_free(&b);
}
END_TEST

START_TEST(utf8_and_required)
{
    arb_error err = ARB_ERROR_INIT;
    int nrc;
    arb_mpbuf b = { 0 };
    const char *bad[] = { "\xff", "a\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe2\x82" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        header_plus(&b, "x-note", bad[i]);
        ck_assert_int_eq(open_raw(b.p, b.n, &err, &nrc), ARB_EFORMAT);
        ck_assert_ptr_nonnull(strstr(err.msg, "not valid UTF-8"));
        ck_assert_ptr_nonnull(strstr(err.msg, "x-note"));
        arb_replay__mp_free(&b);
    }
    header_plus(&b, "x-note", "h\xc3\xa9 \xe2\x82\xac \xf0\x9f\x82\xa1");
    ck_assert_int_eq(open_raw(b.p, b.n, &err, &nrc), ARB_OK);
    arb_replay__mp_free(&b);
    /* every required key is required: options too */
    static const char *req[] = { "format", "game", "rules", "rng", "seed", "players", "options" };
    for (size_t k = 0; k < sizeof req / sizeof *req; k++) {
        good_header(&b);
        /* rename the key in place to an unknown one of the same length */
        size_t kl = strlen(req[k]);
        uint8_t pat[16];
        pat[0] = (uint8_t)(0xa0 | kl);
        memcpy(pat + 1, req[k], kl);
        uint8_t *at = ru_find(b.p, b.n, (const char *)pat, kl + 1);
        ck_assert_ptr_nonnull(at);
        at[1] = 'X';
        ck_assert_int_eq(open_raw(b.p, b.n, &err, &nrc), ARB_EFORMAT);
        ck_assert_msg(strstr(err.msg, req[k]) || strstr(err.where, req[k]), "%s: %s", req[k], err.msg);
        arb_replay__mp_free(&b);
    }
}
END_TEST

/* A header, the setup checkpoint and then copies of it: refused at the
 * second, whatever the number of copies, in milliseconds. */
START_TEST(checkpoint_bomb)
{
    arb_mpbuf b = { 0 };
    good_header(&b);
    /* the real setup checkpoint of good_header's match */
    arb_setup su;
    memset(&su, 0, sizeof su);
    su.seed = 1;
    su.players = 2;
    su.decks[0] = su.decks[1] = tg_game.preset(&tg_game, 0);
    arb_match *m;
    arb_error e0 = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_match_new(&m, &tg_game, &su, &e0), ARB_OK);
    uint64_t h = arb_match_hash(m);
    uint32_t turn = arb_match_turn(m);
    arb_match_free(m);
    ck_assert_uint_lt(turn, 128);
    const size_t copies = 2000000;
    arb_replay__mp_reserve(&b, 12 * copies);
    for (size_t i = 0; i < copies; i++) {
        uint8_t rec[12] = { 0x93, 0x01, (uint8_t)turn, 0xcf };
        for (int k = 0; k < 8; k++) rec[4 + k] = (uint8_t)(h >> (56 - 8 * k));
        memcpy(b.p + b.n, rec, 12);
        b.n += 12;
    }
    size_t flen;
    uint8_t *f = ru_build(b.p, b.n, 1, &flen);
    arb_replay__mp_free(&b);
    const char *p = tpath("bomb.tcgr");
    ck_assert_int_eq(ru_save(p, f, flen), 0);
    free(f);
    double t0 = now_s();
    arb_verify_result res;
    arb_error err = ARB_ERROR_INIT;
    arb_verify_opts vo = ARB_VERIFY_OPTS_INIT;
    vo.game = &tg_game;
    int rc = arb_replay_verify_file(p, &vo, &res, &err);
    double dt = now_s() - t0;
    ck_assert_int_eq(rc, ARB_EFORMAT);
    ck_assert_ptr_nonnull(strstr(err.msg, "record 1 is a checkpoint right after the checkpoint of record 0"));
    ck_assert_ptr_nonnull(strstr(err.where, "bomb.tcgr"));
    ck_assert_msg(dt < 0.2, "the bomb took %.3f s", dt);
    /* Unknown records: 16 in a row are fine, the 17th is refused. */
    for (int run = 16; run <= 17; run++) {
        good_header(&b);
        for (int i = 0; i < 3; i++) {
            for (int k = 0; k < run; k++) {
                arb_replay__mp_array(&b, 2);
                arb_replay__mp_uint(&b, 9);
                arb_replay__mp_uint(&b, (uint64_t)k);
            }
            const uint8_t act[] = { 0x94, 0x00, 0x00, 0x00, 0x01 };
            arb_replay__mp_reserve(&b, sizeof act);
            memcpy(b.p + b.n, act, sizeof act);
            b.n += sizeof act;
        }
        int nrc;
        ck_assert_int_eq(open_raw(b.p, b.n, &err, &nrc), ARB_OK);
        if (run == 16) ck_assert_int_eq(nrc, 0);
        else {
            ck_assert_int_eq(nrc, ARB_EFORMAT);
            ck_assert_ptr_nonnull(strstr(err.msg, "record 16 is the 17-th unknown record in a row"));
        }
        arb_replay__mp_free(&b);
    }
}
END_TEST

/* The CLI refuses the bomb with exit 3 in every command that reads records. */
START_TEST(bomb_cli)
{
    const char *p = tpath("bomb.tcgr");
    /* a real naramo header, then setup-checkpoint copies */
    const char *src = tpath("n.tcgr");
    char cmd[512];
    snprintf(cmd, sizeof cmd, "play --game naramo --seed 3 --agents random -o %s", src);
    ck_assert_int_eq(cli_run(cmd)->code, 0);
    size_t len, rn;
    uint8_t *f = ru_load(src, &len);
    uint8_t *raw = ru_inflate(f, len, &rn);
    free(f);
    arb_replay *r;
    arb_error err = ARB_ERROR_INIT;
    f = ru_load(src, &len);
    ck_assert_int_eq(arb_replay_open_mem(&r, f, len, "n", NULL, &err), ARB_OK);
    size_t hs = (size_t)arb_replay_get_header(r)->size;
    arb_replay_record rec;
    ck_assert_int_eq(arb_replay_next(r, &rec, &err), 1);
    ck_assert_int_eq(rec.kind, ARB_REC_CHECKPOINT);
    size_t cs = 0;
    ck_assert_int_eq(arb_replay_next(r, &rec, &err), 1);
    cs = (size_t)rec.offset - hs;
    arb_replay_close(r);
    free(f);
    size_t copies = 400000;
    uint8_t *bomb = malloc(hs + cs * copies);
    memcpy(bomb, raw, hs);
    for (size_t i = 0; i < copies; i++) memcpy(bomb + hs + i * cs, raw + hs, cs);
    free(raw);
    size_t blen;
    f = ru_load(src, &len);
    uint8_t *bf = rebuild(f, bomb, hs + cs * copies, &blen);
    free(f);
    free(bomb);
    ck_assert_int_eq(ru_save(p, bf, blen), 0);
    free(bf);
    static const char *cmds[] = { "verify", "log", "state --at end", "stats", "report -o -" };
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
        snprintf(cmd, sizeof cmd, "%s %s", cmds[i], p);
        double t0 = now_s();
        cli_result *cr = cli_run(cmd);
        double dt = now_s() - t0;
        ck_assert_msg(cr->code == 3 || (i == 3 && cr->code != 0), "%s: exit %d\n%s%s", cmds[i], cr->code, cr->out, cr->err);
        ck_assert_msg(strstr(cr->out, "checkpoint") || strstr(cr->err, "checkpoint"), "%s: %s%s", cmds[i], cr->out, cr->err);
        ck_assert_msg(strlen(cr->out) < 20000, "%s printed %zu bytes", cmds[i], strlen(cr->out));
        ck_assert_msg(dt < 2.0, "%s took %.2f s", cmds[i], dt);
    }
}
END_TEST

/* ---- fair seeds, published commitments, positions */

static const uint8_t vec_secret[32] = { 0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                        16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31 };

static void vec_fair(arb_fair *f)
{
    memset(f, 0, sizeof *f);
    memcpy(f->secret, vec_secret, 32);
    f->n = 2;
    f->len[0] = 5;
    memcpy(f->contrib[0], "alice", 5);
    f->len[1] = 3;
    memcpy(f->contrib[1], "bob", 3);
    arb_fair_commit(f->commit, f->secret);
}

static void hex_of(const uint8_t *p, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++) sprintf(out + 2 * i, "%02x", p[i]);
}

/* FORMAT.md §12.1's vectors (re-derived in Python with hashlib.blake2b). */
START_TEST(fair_seed_vectors)
{
    arb_fair f;
    vec_fair(&f);
    char h[65];
    hex_of(f.commit, 32, h);
    ck_assert_str_eq(h, "f00ca361ab7d47f03fec909e948d3c208118cb206321b9c056c42478546331fa");
    ck_assert_uint_eq(arb_fair_seed(&f), 15201843974507675105ull);
    f.n = 3;
    f.len[2] = 1;
    f.contrib[2][0] = 0;
    ck_assert_uint_eq(arb_fair_seed(&f), 1619418103351312243ull);
}
END_TEST

/* Record a test-game match with a fair seed, in memory. */
static uint8_t *fair_file(size_t *len, const arb_fair *f, const arb_tnode *position)
{
    arb_setup su;
    memset(&su, 0, sizeof su);
    su.seed = arb_fair_seed(f);
    su.players = 2;
    su.decks[0] = su.decks[1] = tg_game.preset(&tg_game, 0);
    arb_error err = ARB_ERROR_INIT;
    arb_match *m;
    if (position) ck_assert_int_eq(arb_match_from_position(&m, &tg_game, position, &su, &err), ARB_OK);
    else ck_assert_int_eq(arb_match_new(&m, &tg_game, &su, &err), ARB_OK);
    arb_replay_meta meta;
    memset(&meta, 0, sizeof meta);
    meta.game = &tg_game;
    meta.setup = &su;
    meta.fair = f;
    meta.position = position;
    meta.level = -1;
    meta.version = 1; /* the test game is not registered (fair seeds in v2: fair_seed_cli) */
    const char *p = tpath("fair.tcgr");
    arb_replay_writer *w;
    ck_assert_int_eq(arb_replay_writer_open(&w, p, &meta, &err), ARB_OK);
    ck_assert_int_eq(arb_replay_record_start(w, m, &err), ARB_OK);
    arb_agent ag[2];
    for (int s = 0; s < 2; s++) arb_agent_init(&ag[s], ARB_AGENT_RANDOM, 7, s, 0);
    for (int n = 0; n < 100000; n++) {
        arb_decision d = arb_match_decision(m);
        if (d.seat == ARB_SEAT_NONE) break;
        arb_action a;
        if (arb_agent_choose(&ag[d.seat < 0 ? 0 : d.seat], m, &a)) break;
        ck_assert_int_eq(arb_replay_record_step(w, m, &a, &err), ARB_OK);
    }
    ck_assert_int_eq(arb_replay_writer_close(w, &err), ARB_OK);
    arb_match_free(m);
    return ru_load(p, len);
}


static int verify_mem(const uint8_t *f, size_t n, const arb_verify_opts *vo, arb_verify_result *res,
                      arb_error *err)
{
    arb_replay *r;
    arb_error_clear(err);
    int rc = arb_replay_open_mem(&r, f, n, "mem.tcgr", &vo->limits, err);
    if (rc) return rc;
    rc = arb_replay_verify(r, vo, res, err);
    arb_replay_close(r);
    return rc;
}

START_TEST(fair_seed_tamper)
{
    arb_fair f;
    vec_fair(&f);
    size_t len, rn;
    uint8_t *file = fair_file(&len, &f, NULL);
    arb_verify_opts vo = ARB_VERIFY_OPTS_INIT;
    vo.game = &tg_game;
    arb_verify_result res;
    arb_error err = ARB_ERROR_INIT;
    ck_assert_msg(verify_mem(file, len, &vo, &res, &err) == ARB_OK, "%s: %s", err.where, err.msg);
    ck_assert_int_eq(res.fair, 1);
    ck_assert_int_eq(res.seeded, 1);
    /* the published commitment: equal passes, any other value fails */
    vo.published_commit = f.commit;
    ck_assert_int_eq(verify_mem(file, len, &vo, &res, &err), ARB_OK);
    ck_assert_int_eq(res.published, 1);
    uint8_t other[32];
    memcpy(other, f.commit, 32);
    other[31] ^= 1;
    vo.published_commit = other;
    ck_assert_int_eq(verify_mem(file, len, &vo, &res, &err), ARB_EVERIFY);
    ck_assert_int_eq(res.kind, ARB_DIV_COMMIT);
    ck_assert_int_eq(res.published, -1);
    ck_assert_ptr_nonnull(strstr(res.detail, "differs from the published commitment"));
    vo.published_commit = NULL;
    /* every byte of every contribution, the secret, the commitment: each
     * change is a divergence of kind commit */
    uint8_t *raw = ru_inflate(file, len, &rn);
    struct { const char *what; const uint8_t *pat; size_t n; } parts[] = {
        { "contribution 0", (const uint8_t *)"alice", 5 },
        { "contribution 1", (const uint8_t *)"bob", 3 },
        { "secret", f.secret, 32 },
        { "commit", f.commit, 32 },
    };
    for (size_t k = 0; k < sizeof parts / sizeof *parts; k++) {
        uint8_t *at = ru_find(raw, rn, (const char *)parts[k].pat, parts[k].n);
        ck_assert_ptr_nonnull(at);
        for (size_t i = 0; i < parts[k].n; i++) {
            at[i] ^= 0x20;
            size_t tl;
            uint8_t *t = rebuild(file, raw, rn, &tl);
            int rc = verify_mem(t, tl, &vo, &res, &err);
            ck_assert_msg(rc == ARB_EVERIFY && res.kind == ARB_DIV_COMMIT && res.fair == -1,
                          "%s byte %zu: rc %d kind %d", parts[k].what, i, rc, res.kind);
            free(t);
            at[i] ^= 0x20;
        }
    }
    /* the seed itself */
    {
        uint64_t seed = arb_fair_seed(&f);
        uint8_t pat[9] = { 0xcf };
        for (int i = 0; i < 8; i++) pat[1 + i] = (uint8_t)(seed >> (56 - 8 * i));
        uint8_t *at = ru_find(raw, rn, (const char *)pat, 9);
        ck_assert_ptr_nonnull(at);
        at[8] ^= 1;
        size_t tl;
        uint8_t *t = rebuild(file, raw, rn, &tl);
        ck_assert_int_eq(verify_mem(t, tl, &vo, &res, &err), ARB_EVERIFY);
        ck_assert_int_eq(res.kind, ARB_DIV_COMMIT);
        ck_assert_ptr_nonnull(strstr(res.detail, "not the one derived"));
        free(t);
    }
    free(raw);
    free(file);
    /* a file without a commitment fails --commitment */
    const char *p = tpath("plain.tcgr");
    ck_assert_int_gt(ru_record(&tg_game, p, 3, 2, ARB_AGENT_RANDOM, 0, NULL, NULL, 0, NULL, 0, NULL), 0);
    vo.published_commit = f.commit;
    ck_assert_int_eq(arb_replay_verify_file(p, &vo, &res, &err), ARB_EVERIFY);
    ck_assert_int_eq(res.kind, ARB_DIV_COMMIT);
    ck_assert_ptr_nonnull(strstr(res.detail, "carries no commitment"));
}
END_TEST

/* A match from a position says so in every verdict; --require-seeded refuses it. */
START_TEST(positions_never_silent)
{
    const char *src = tpath("src.tcgr"), *pos = tpath("pos.json"), *pf = tpath("pos.tcgr");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "play --game naramo --seed 11 --agents random -o %s", src);
    ck_assert_int_eq(cli_run(cmd)->code, 0);
    snprintf(cmd, sizeof cmd, "state %s --at 20 --json", src);
    cli_result *sr = cli_run(cmd);
    ck_assert_int_eq(sr->code, 0);
    ck_assert_int_eq(ru_save(pos, sr->out, strlen(sr->out)), 0);
    snprintf(cmd, sizeof cmd, "play --game naramo --seed 12 --agents random --position %s -o %s", pos, pf);
    ck_assert_int_eq(cli_run(cmd)->code, 0);
    static const char *cmds[] = { "verify", "verify --json", "info", "info --json", "stats", "stats --json" };
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
        snprintf(cmd, sizeof cmd, "%s %s", cmds[i], pf);
        cli_result *r = cli_run(cmd);
        ck_assert_msg(r->code == 0, "%s: exit %d %s", cmds[i], r->code, r->err);
        ck_assert_msg(strstr(r->out, "setup not derived from the seed"), "%s: %s", cmds[i], r->out);
    }
    snprintf(cmd, sizeof cmd, "verify --json %s", pf);
    ck_assert_ptr_nonnull(strstr(cli_run(cmd)->out, "\"seeded\":false"));
    snprintf(cmd, sizeof cmd, "verify --json %s", src);
    ck_assert_ptr_nonnull(strstr(cli_run(cmd)->out, "\"seeded\":true"));
    snprintf(cmd, sizeof cmd, "verify --require-seeded %s", pf);
    cli_result *r = cli_run(cmd);
    ck_assert_int_eq(r->code, 1);
    ck_assert_ptr_nonnull(strstr(r->out, "not-seeded"));
    snprintf(cmd, sizeof cmd, "verify --require-seeded %s", src);
    ck_assert_int_eq(cli_run(cmd)->code, 0);
}
END_TEST

/* Fair seeds end to end through the CLI. */
START_TEST(fair_seed_cli)
{
    const char *sec = tpath("s.secret"), *out = tpath("fair-cli.tcgr");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "seed commit -o %s --secret 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", sec);
    cli_result *r = cli_run(cmd);
    ck_assert_int_eq(r->code, 0);
    ck_assert_ptr_nonnull(strstr(r->out, "f00ca361ab7d47f03fec909e948d3c208118cb206321b9c056c42478546331fa"));
    struct stat st;
    ck_assert_int_eq(stat(sec, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0600);
    ck_assert_int_eq(cli_run(cmd)->code, 3); /* never overwritten */
    snprintf(cmd, sizeof cmd, "seed derive --server-secret %s --contribution 0:616c696365 --contribution 1:626f62", sec);
    r = cli_run(cmd);
    ck_assert_int_eq(r->code, 0);
    ck_assert_ptr_nonnull(strstr(r->out, "seed: 15201843974507675105"));
    snprintf(cmd, sizeof cmd, "play --game naramo --server-secret %s --contribution 0:616c696365 -o %s", sec, out);
    r = cli_run(cmd);
    ck_assert_int_eq(r->code, 2);
    ck_assert_ptr_nonnull(strstr(r->err, "seat 1"));
    snprintf(cmd, sizeof cmd, "play --game naramo --server-secret %s --seed 4 --contribution 0:61 --contribution 1:62 -o %s",
             sec, out);
    ck_assert_int_eq(cli_run(cmd)->code, 2);
    snprintf(cmd, sizeof cmd, "play --game naramo --server-secret %s --contribution 0:616c696365 --contribution 1:626f62 -o %s",
             sec, out);
    ck_assert_int_eq(cli_run(cmd)->code, 0);
    snprintf(cmd, sizeof cmd, "verify --commitment f00ca361ab7d47f03fec909e948d3c208118cb206321b9c056c42478546331fa %s", out);
    r = cli_run(cmd);
    ck_assert_int_eq(r->code, 0);
    ck_assert_ptr_nonnull(strstr(r->out, "fair seed ok"));
    ck_assert_ptr_nonnull(strstr(r->out, "published commitment ok"));
    snprintf(cmd, sizeof cmd, "verify --commitment f00ca361ab7d47f03fec909e948d3c208118cb206321b9c056c42478546331fb %s", out);
    r = cli_run(cmd);
    ck_assert_int_eq(r->code, 1);
    ck_assert_ptr_nonnull(strstr(r->out, "DIVERGES (commit)"));
    snprintf(cmd, sizeof cmd, "info --json %s", out);
    ck_assert_ptr_nonnull(strstr(cli_run(cmd)->out, "\"contributions\":[\"616c696365\",\"626f62\"]"));
}
END_TEST

/* ---- keys */

START_TEST(keys_and_keyrings)
{
    const char *k = tpath("k.key");
    char cmd[1024], pub[300];
    snprintf(cmd, sizeof cmd, "keygen -o %s --label tournament-server-1", k);
    cli_result *r = cli_run(cmd);
    ck_assert_msg(r->code == 0, "%s", r->err);
    struct stat st;
    ck_assert_int_eq(stat(k, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0600);
    ck_assert_int_eq(cli_run(cmd)->code, 3); /* never overwritten */
    snprintf(pub, sizeof pub, "%s.pub", k);
    arb_seal_key sk, pk;
    arb_error err = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_seal_key_load(&sk, k, &err), ARB_OK);
    ck_assert(sk.has_secret);
    ck_assert_str_eq(sk.label, "tournament-server-1");
    ck_assert_int_eq(arb_seal_key_load(&pk, pub, &err), ARB_OK);
    ck_assert(!pk.has_secret);
    ck_assert_mem_eq(sk.pk, pk.pk, 32);
    ck_assert_str_eq(pk.label, "tournament-server-1");
    /* a seal over a digest checks with the block's key, fails on any other digest */
    uint8_t dg[64], block[ARB_SEAL_BLOCK_BYTES], got[32];
    for (int i = 0; i < 64; i++) dg[i] = (uint8_t)i;
    ck_assert_int_eq(arb_seal_block_make(&sk, dg, block, &err), ARB_OK);
    ck_assert_int_eq(arb_seal_block_make(&pk, dg, block + 0, &err) != ARB_OK, 1);
    ck_assert_int_eq(arb_seal_block_make(&sk, dg, block, &err), ARB_OK);
    ck_assert_int_eq(arb_seal_block_check(block, sizeof block, dg, got, NULL, 0), ARB_SEAL_VALID);
    ck_assert_mem_eq(got, sk.pk, 32);
    for (size_t i = 0; i < sizeof block; i++) {
        block[i] ^= 0x01;
        ck_assert_int_ne(arb_seal_block_check(block, sizeof block, dg, NULL, NULL, 0), ARB_SEAL_VALID);
        block[i] ^= 0x01;
    }
    dg[7] ^= 0x80;
    ck_assert_int_eq(arb_seal_block_check(block, sizeof block, dg, NULL, NULL, 0), ARB_SEAL_BAD);
    ck_assert_int_eq(arb_seal_block_check(block, sizeof block - 1, dg, NULL, NULL, 0), ARB_SEAL_MALFORMED);
    ck_assert_int_eq(arb_seal_block_check(block, 0, dg, NULL, NULL, 0), ARB_SEAL_NONE);
    /* the form every reader checks (FORMAT.md §B.1): nothing, or SEAL +
     * version + algorithm, a version-1 Ed25519 block exactly 102 bytes */
    char why[200];
    ck_assert_int_eq(arb_seal_block_form(block, 0, why, sizeof why), 0);
    ck_assert_int_eq(arb_seal_block_form(block, sizeof block, why, sizeof why), 0);
    ck_assert_int_eq(arb_seal_block_form(block, sizeof block - 1, why, sizeof why), -1);
    ck_assert_str_eq(why, "the seal block is 101 bytes, not 102");
    ck_assert_int_eq(arb_seal_block_form(block, 5, why, sizeof why), -1);
    ck_assert_int_eq(arb_seal_block_form((const uint8_t *)"SEALxy", 6, why, sizeof why), 0); /* a later seal version */
    ck_assert_int_eq(arb_seal_block_form((const uint8_t *)"junk!!junk", 10, why, sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "10 byte(s) after the body are not a seal block"));
    static uint8_t big[ARB_REPLAY_TRAILER_MAX + 1] = { 'S', 'E', 'A', 'L', 2, 1 };
    ck_assert_int_eq(arb_seal_block_form(big, sizeof big - 1, why, sizeof why), 0);
    ck_assert_int_eq(arb_seal_block_form(big, sizeof big, why, sizeof why), -1);
    ck_assert_int_eq(arb_seal_block_form(block, sizeof block, NULL, 0), 0);
    /* keyrings: comments, blank lines, several keys; a bad line is named */
    arb_seal_key k2;
    uint8_t seed2[32] = { 9 };
    ck_assert_int_eq(arb_seal_key_generate(&k2, seed2, "second", &err), ARB_OK);
    char pk2[65], id2[17];
    hex_of(k2.pk, 32, pk2);
    arb_seal_id_hex(k2.id, id2);
    const char *ring = tpath("ring");
    FILE *f = fopen(ring, "w");
    size_t plen;
    uint8_t *ptxt = ru_load(pub, &plen);
    fprintf(f, "# trusted servers\n\n%.*sarbiter-ed25519 %s %s second\n", (int)plen, (const char *)ptxt, pk2, id2);
    fclose(f);
    free(ptxt);
    arb_seal_keyring kr = { 0 };
    ck_assert_int_eq(arb_seal_keyring_add_file(&kr, ring, &err), ARB_OK);
    ck_assert_uint_eq(kr.n, 2);
    ck_assert_ptr_nonnull(arb_seal_keyring_find(&kr, k2.pk));
    ck_assert_str_eq(arb_seal_keyring_find(&kr, sk.pk)->label, "tournament-server-1");
    arb_seal_keyring_free(&kr);
    f = fopen(ring, "w");
    id2[0] = id2[0] == '0' ? '1' : '0';
    fprintf(f, "# x\narbiter-ed25519 %s %s second\n", pk2, id2);
    fclose(f);
    ck_assert_int_ne(arb_seal_keyring_add_file(&kr, ring, &err), ARB_OK);
    ck_assert_ptr_nonnull(strstr(err.where, "line 2"));
    ck_assert_ptr_nonnull(strstr(err.msg, "key id"));
    arb_seal_keyring_free(&kr);
    /* an unsigned (v1) file fails under --key */
    const char *v1 = tpath("v1.tcgr");
    snprintf(cmd, sizeof cmd, "play --game naramo --seed 2 -o %s", v1);
    ck_assert_int_eq(cli_run(cmd)->code, 0);
    snprintf(cmd, sizeof cmd, "verify --key %s %s", pub, v1);
    r = cli_run(cmd);
    ck_assert_int_eq(r->code, 1);
    ck_assert_ptr_nonnull(strstr(r->out, "DIVERGES (signature)"));
    snprintf(cmd, sizeof cmd, "verify --json --keyring %s %s", pub, v1);
    r = cli_run(cmd);
    ck_assert_int_eq(r->code, 1);
    ck_assert_ptr_nonnull(strstr(r->out, "\"kind\":\"signature\""));
}
END_TEST

/* ---- honest analyzers */

static void save_rebuilt(const char *path, const uint8_t *orig, const uint8_t *raw, size_t n)
{
    size_t tl;
    uint8_t *t = rebuild(orig, raw, n, &tl);
    ck_assert_int_eq(ru_save(path, t, tl), 0);
    free(t);
}

START_TEST(diff_sees_everything)
{
    char src[256], dst[256];
    snprintf(src, sizeof src, "%s", tpath("d0.tcgr"));
    snprintf(dst, sizeof dst, "%s", tpath("d1.tcgr"));
    char cmd[1024];
    /* a version-1 file: its MessagePack header and records are easy to
     * edit here, and diff works on what the reader decodes either way */
    arb_options clock = { 0 };
    arb_options_set(&clock, "clock", 20000);
    ru_version = 1;
    ck_assert_int_gt(ru_record(arb_game_find("naramo"), src, 21, 2, ARB_AGENT_RANDOM, 1, &clock, NULL, 0, NULL, 0, NULL), 0);
    ru_version = 0;
    size_t len, rn;
    uint8_t *file = ru_load(src, &len);
    uint8_t *raw = ru_inflate(file, len, &rn);
    struct { const char *name, *want; } cases[] = {
        { "started", "started" }, { "deck_name", "deck_name" }, { "flags", "flags" },
        { "unknown", "x-note" }, { "clock", "clock" },
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        uint8_t *copy = malloc(rn + 64), env[8];
        memcpy(copy, raw, rn);
        memcpy(env, file, 8);
        size_t cn = rn;
        if (!strcmp(cases[c].name, "started")) {
            uint8_t *at = ru_find(copy, cn, "started", 7);
            ck_assert_ptr_nonnull(at);
            at[8 + 3] ^= 1; /* a digit of the year */
        } else if (!strcmp(cases[c].name, "deck_name")) {
            uint8_t *at = ru_find(copy, cn, "deck_name", 9);
            ck_assert_ptr_nonnull(at);
            at[10] ^= 0x20; /* case of its first letter */
        } else if (!strcmp(cases[c].name, "flags")) {
            env[5] ^= 0x80;
        } else if (!strcmp(cases[c].name, "unknown")) {
            arb_replay *r;
            arb_error err = ARB_ERROR_INIT;
            ck_assert_int_eq(arb_replay_open_mem(&r, file, len, "x", NULL, &err), ARB_OK);
            size_t hs = (size_t)arb_replay_get_header(r)->size;
            arb_replay_close(r);
            ck_assert((copy[0] & 0xf0) == 0x80);
            copy[0]++;
            static const uint8_t kv[] = { 0xa6, 'x', '-', 'n', 'o', 't', 'e', 0xa1, 'm' };
            memmove(copy + hs + sizeof kv, copy + hs, cn - hs);
            memcpy(copy + hs, kv, sizeof kv);
            cn += sizeof kv;
        } else {
            /* move 1 ms of think time from one action to the next */
            arb_replay *r;
            arb_error err = ARB_ERROR_INIT;
            ck_assert_int_eq(arb_replay_open_mem(&r, file, len, "x", NULL, &err), ARB_OK);
            arb_replay_record prev, rec;
            memset(&prev, 0, sizeof prev);
            int have = 0, done = 0;
            while (!done && arb_replay_next(r, &rec, &err) == 1) {
                /* both think times as uint16 (cd HH LL): +1 ms on one, -1 on the next */
                if (rec.kind == ARB_REC_ACTION && have && copy[prev.offset + 2] == 0xcd && copy[rec.offset + 2] == 0xcd &&
                    prev.action.elapsed_ms < 65535 && rec.action.elapsed_ms > 256) {
                    uint32_t a0 = prev.action.elapsed_ms + 1, b0 = rec.action.elapsed_ms - 1;
                    copy[prev.offset + 3] = (uint8_t)(a0 >> 8);
                    copy[prev.offset + 4] = (uint8_t)a0;
                    copy[rec.offset + 3] = (uint8_t)(b0 >> 8);
                    copy[rec.offset + 4] = (uint8_t)b0;
                    done = 1;
                }
                prev = rec;
                have = rec.kind == ARB_REC_ACTION;
            }
            arb_replay_close(r);
            ck_assert_msg(done, "no action pair to move think time between");
        }
        size_t tl;
        uint8_t *t = ru_build_env(copy, cn, env, &tl);
        ck_assert_int_eq(ru_save(dst, t, tl), 0);
        free(t);
        free(copy);
        snprintf(cmd, sizeof cmd, "diff %s %s", src, dst);
        cli_result *cr = cli_run(cmd);
        ck_assert_msg(cr->code == 1, "%s: diff exit %d: %s%s", cases[c].name, cr->code, cr->out, cr->err);
        ck_assert_msg(strstr(cr->out, cases[c].want), "%s: %s", cases[c].name, cr->out);
        ck_assert_msg(!strstr(cr->out, "identical"), "%s: %s", cases[c].name, cr->out);
    }
    snprintf(cmd, sizeof cmd, "diff %s %s", src, src);
    ck_assert_int_eq(cli_run(cmd)->code, 0);
    free(raw);
    free(file);
}
END_TEST

START_TEST(stats_excludes_forgeries)
{
    const char *a = tpath("s0.tcgr"), *b = tpath("s1.tcgr");
    char cmd[1024];
    ru_version = 1; /* MessagePack records: the outcome's winner is one byte to forge */
    ck_assert_int_gt(ru_record(arb_game_find("naramo"), a, 31, 2, ARB_AGENT_RANDOM, 0, NULL, NULL, 0, NULL, 0, NULL), 0);
    ru_version = 0;
    size_t len, rn;
    uint8_t *file = ru_load(a, &len);
    uint8_t *raw = ru_inflate(file, len, &rn);
    /* the outcome [2, winner, …] is the last record: forge the winner */
    arb_replay *r;
    arb_error err = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_replay_open_mem(&r, file, len, "x", NULL, &err), ARB_OK);
    arb_replay_record rec;
    uint64_t off = 0;
    int winner = -2;
    while (arb_replay_next(r, &rec, &err) == 1)
        if (rec.kind == ARB_REC_OUTCOME) { off = rec.offset; winner = rec.winner; }
    arb_replay_close(r);
    ck_assert_int_ge(winner, 0);
    ck_assert_int_eq(raw[off + 2], winner);
    raw[off + 2] = (uint8_t)(1 - winner);
    save_rebuilt(b, file, raw, rn);
    free(raw);
    free(file);
    snprintf(cmd, sizeof cmd, "stats %s %s", a, b);
    cli_result *cr = cli_run(cmd);
    ck_assert_msg(strstr(cr->out, "1 file do not verify"), "%s", cr->out);
    ck_assert_msg(strstr(cr->out, "does not verify: ") && strstr(cr->out, "s1.tcgr"), "%s", cr->out);
    ck_assert_msg(strstr(cr->out, "outcome"), "%s", cr->out);
    char want[64];
    snprintf(want, sizeof want, "P%d 100.0%% (1/1)", winner + 1);
    ck_assert_msg(strstr(cr->out, want), "want %s: %s", want, cr->out);
    snprintf(cmd, sizeof cmd, "stats --json %s %s", a, b);
    cr = cli_run(cmd);
    ck_assert_msg(strstr(cr->out, "\"unverified\":1") && strstr(cr->out, "\"counted\":1"), "%s", cr->out);
}
END_TEST

/* ---- signatures */

static const uint8_t key_seed[32] = { 0x5e, 0xa1, 0x15, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
                                      14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29 };

/* Self-play of g (seed), recorded and sealed with k in format 2. */
/* Write zlib bodies (FORMAT.md §B.1, what older writers wrote) instead of
 * range-coded ones: signed_file and signed_archive. */
static int write_zlib;

static uint8_t *signed_file(const arb_game *g, uint64_t seed, const arb_seal_key *k, const char *path, size_t *len)
{
    arb_setup su;
    memset(&su, 0, sizeof su);
    su.seed = seed;
    su.players = g->min_players;
    for (int p = 0; p < su.players; p++) su.decks[p] = g->preset(g, (unsigned)p % g->npresets);
    arb_error err = ARB_ERROR_INIT;
    arb_match *m;
    ck_assert_int_eq(arb_match_new(&m, g, &su, &err), ARB_OK);
    arb_replay_meta meta;
    memset(&meta, 0, sizeof meta);
    meta.game = g;
    meta.setup = &su;
    meta.started = "2026-12-01T12:00:00Z";
    meta.level = -1;
    if (write_zlib) meta.flags |= ARB_REPLAY_WRITE_ZLIB;
    meta.seal = k ? arb_seal_writer_hook : NULL;
    meta.seal_ctx = (void *)(uintptr_t)k;
    arb_replay_writer *w;
    ck_assert_int_eq(arb_replay_writer_open(&w, path, &meta, &err), ARB_OK);
    ck_assert_int_eq(arb_replay_record_start(w, m, &err), ARB_OK);
    static arb_agent ag[ARB_MAX_SEATS];
    for (int p = 0; p < su.players; p++) arb_agent_init(&ag[p], ARB_AGENT_GREEDY, seed, p, 0);
    for (int n = 0; n < 100000; n++) {
        arb_decision d = arb_match_decision(m);
        if (d.seat == ARB_SEAT_NONE) break;
        arb_action a;
        if (arb_agent_choose(&ag[d.seat < 0 ? 0 : d.seat], m, &a)) break;
        ck_assert_int_eq(arb_replay_record_step(w, m, &a, &err), ARB_OK);
    }
    ck_assert_msg(arb_replay_writer_close(w, &err) == ARB_OK, "%s", err.msg);
    arb_match_free(m);
    return ru_load(path, len);
}

/* Where the body ends (the seal block starts). */
static size_t body_end_of(const uint8_t *f, size_t len)
{
    arb_replay *r;
    arb_error err = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_replay_open_mem(&r, f, len, "b", NULL, &err), ARB_OK);
    arb_replay_record rec;
    while (arb_replay_next(r, &rec, &err) == 1) {}
    uint64_t be = 0;
    ck_assert(arb_replay_sealable(r, NULL, NULL, NULL, &be));
    arb_replay_close(r);
    return (size_t)be;
}

START_TEST(sign_round_trip_every_game)
{
    arb_seal_key k, other;
    arb_error err = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_seal_key_generate(&k, key_seed, "server-1", &err), ARB_OK);
    uint8_t s2[32] = { 1 };
    ck_assert_int_eq(arb_seal_key_generate(&other, s2, "other", &err), ARB_OK);
    arb_seal_keyring trusted = { 0 }, foreign = { 0 };
    ck_assert_int_eq(arb_seal_keyring_add(&trusted, &k, &err), ARB_OK);
    ck_assert_int_eq(arb_seal_keyring_add(&foreign, &other, &err), ARB_OK);
    for (unsigned gi = 0; gi < arb_game_count(); gi++) {
        const arb_game *g = arb_game_at(gi);
        size_t len, ulen;
        uint8_t *f = signed_file(g, 5, &k, tpath("rt.tcgr"), &len);
        uint8_t *u = signed_file(g, 5, NULL, tpath("rt-u.tcgr"), &ulen);
        ck_assert_uint_eq(len, ulen + ARB_SEAL_BLOCK_BYTES); /* the cost of a seal */
        ck_assert_mem_eq(f, u, ulen);                         /* and the body is the same */
        arb_verify_opts vo = ARB_VERIFY_OPTS_INIT;
        arb_verify_result res;
        ck_assert_msg(verify_mem(f, len, &vo, &res, &err) == ARB_OK, "%s: %s", g->id, err.msg);
        ck_assert_int_eq(res.seal, ARB_SEAL_VALID);
        ck_assert_int_eq(res.trusted, 0);
        vo.trusted = &trusted;
        ck_assert_int_eq(verify_mem(f, len, &vo, &res, &err), ARB_OK);
        ck_assert_int_eq(res.trusted, 1);
        ck_assert_str_eq(res.signer_label, "server-1");
        char id[17];
        ck_assert_str_eq(res.signer_id, arb_seal_id_hex(k.id, id));
        /* unsigned, or signed by another key: signature, under --key */
        ck_assert_int_eq(verify_mem(u, ulen, &vo, &res, &err), ARB_EVERIFY);
        ck_assert_int_eq(res.kind, ARB_DIV_SIGNATURE);
        ck_assert_ptr_nonnull(strstr(res.detail, "not signed"));
        vo.trusted = &foreign;
        ck_assert_int_eq(verify_mem(f, len, &vo, &res, &err), ARB_EVERIFY);
        ck_assert_int_eq(res.kind, ARB_DIV_SIGNATURE);
        ck_assert_ptr_nonnull(strstr(res.detail, "not among"));
        /* a seal cut short is not a seal block: the file is corrupt
         * (FORMAT.md §B.1), for every reader, with or without keys */
        vo.trusted = NULL;
        ck_assert_int_eq(verify_mem(f, len - 1, &vo, &res, &err), ARB_EFORMAT);
        ck_assert_ptr_nonnull(strstr(err.msg, "the seal block is 101 bytes, not 102"));
        vo.trusted = &trusted;
        ck_assert_int_eq(verify_mem(f, len - 1, &vo, &res, &err), ARB_EFORMAT);
        free(f);
        free(u);
    }
    arb_seal_keyring_free(&trusted);
    arb_seal_keyring_free(&foreign);
}
END_TEST

/* Every byte: each decompressed content byte flipped (recompressed), each
 * envelope byte and each seal byte flipped: verify --key fails every time;
 * whenever the file still opens, the verdict is kind "signature". */
START_TEST(sign_every_byte)
{
    arb_seal_key k;
    arb_error err = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_seal_key_generate(&k, key_seed, "server-1", &err), ARB_OK);
    arb_seal_keyring trusted = { 0 };
    ck_assert_int_eq(arb_seal_keyring_add(&trusted, &k, &err), ARB_OK);
    arb_verify_opts vo = ARB_VERIFY_OPTS_INIT;
    vo.trusted = &trusted;
    for (unsigned gi = 0; gi < arb_game_count(); gi++) {
        const arb_game *g = arb_game_at(gi);
        /* the shortest of a few greedy matches */
        size_t len = 0;
        uint8_t *f = NULL;
        for (uint64_t seed = 1; seed <= 6; seed++) {
            size_t l;
            uint8_t *t = signed_file(g, seed, &k, tpath("eb.tcgr"), &l);
            if (!f || l < len) { free(f); f = t; len = l; }
            else free(t);
        }
        arb_verify_result res;
        ck_assert_int_eq(verify_mem(f, len, &vo, &res, &err), ARB_OK);
        size_t be = body_end_of(f, len), cn;
        uint8_t *content = ru_inflate(f, be, &cn);
        unsigned as_sig = 0, refused = 0;
        for (size_t i = 0; i < cn; i++) {
            content[i] ^= 0xff;
            size_t zl;
            uint8_t *z = ru_build_env(content, cn, f, &zl);
            z = realloc(z, zl + ARB_SEAL_BLOCK_BYTES);
            memcpy(z + zl, f + be, ARB_SEAL_BLOCK_BYTES);
            int rc = verify_mem(z, zl + ARB_SEAL_BLOCK_BYTES, &vo, &res, &err);
            ck_assert_msg(rc != ARB_OK, "%s: content byte %zu flipped still verifies", g->id, i);
            if (rc == ARB_EVERIFY) {
                ck_assert_msg(res.kind == ARB_DIV_SIGNATURE, "%s: content byte %zu: kind %s", g->id, i,
                              arb_verify_kind_name(res.kind));
                as_sig++;
            } else refused++;
            free(z);
            content[i] ^= 0xff;
        }
        for (size_t i = 0; i < 8; i++) {
            f[i] ^= 0xff;
            int rc = verify_mem(f, len, &vo, &res, &err);
            ck_assert_msg(rc != ARB_OK, "%s: envelope byte %zu flipped still verifies", g->id, i);
            if (rc == ARB_EVERIFY) ck_assert_int_eq(res.kind, ARB_DIV_SIGNATURE);
            f[i] ^= 0xff;
        }
        for (size_t i = be; i < len; i++) {
            f[i] ^= 0x01;
            int rc = verify_mem(f, len, &vo, &res, &err);
            /* a changed magic makes the bytes no seal block (corrupt); a
             * changed version or algorithm, key or signature is a seal this
             * verifier cannot accept (signature) */
            if (i - be < 4) ck_assert_msg(rc == ARB_EFORMAT, "%s: seal byte %zu: %d", g->id, i - be, rc);
            else ck_assert_msg(rc == ARB_EVERIFY && res.kind == ARB_DIV_SIGNATURE, "%s: seal byte %zu", g->id, i - be);
            f[i] ^= 0x01;
        }
        /* the reader refuses a flip only inside the header (it cannot be opened) */
        ck_assert_uint_gt(as_sig, refused);
        printf("sign_every_byte: %s: %zu content bytes (%u signature, %u unreadable), 8 envelope, %zu seal bytes\n",
               g->id, cn, as_sig, refused, len - be);
        free(content);
        free(f);
    }
    arb_seal_keyring_free(&trusted);
}
END_TEST

/* What `verify --key PATH` decides, through the same library calls as the
 * CLI (cmd_verify.c): a path whose envelope says archive is opened as one,
 * the archive as a whole must pass arb_archive_verdict (no unread byte, no
 * corrupt index, at least one match), no member may be cut, and every
 * member must verify; any other path is one replay. */
static int verify_path(const char *path, const arb_verify_opts *vo)
{
    arb_error err = ARB_ERROR_INIT;
    arb_verify_result res;
    if (!arb_archive_is(path)) return arb_replay_verify_file(path, vo, &res, &err);
    arb_archive *a;
    int rc = arb_archive_open(&a, path, &err);
    if (rc) return rc;
    rc = arb_archive_verdict(a, &err);
    if (!rc && arb_archive_cut(a, NULL)) rc = ARB_ETRUNC;
    for (uint64_t i = 0; !rc && i < arb_archive_count(a); i++) {
        arb_replay *r;
        if ((rc = arb_archive_open_member(&r, a, i, &vo->limits, &err))) break;
        rc = arb_replay_verify(r, vo, &res, &err);
        arb_replay_close(r);
    }
    arb_archive_close(a);
    return rc;
}

/* A signed archive of n greedy matches of g (seeds from seed on). */
static uint8_t *signed_archive(const arb_game *g, uint64_t seed, int n, const arb_seal_key *k, const char *path,
                               size_t *len)
{
    arb_error err = ARB_ERROR_INIT;
    arb_archive_writer *aw;
    ck_assert_int_eq(arb_archive_writer_open(&aw, path, 0, 0, NULL, 0, &err), ARB_OK);
    if (write_zlib) arb_archive__writer_zlib(aw, 1);
    for (int i = 0; i < n; i++) {
        arb_setup su;
        memset(&su, 0, sizeof su);
        su.seed = seed + (uint64_t)i;
        su.players = g->min_players;
        for (int p = 0; p < su.players; p++) su.decks[p] = g->preset(g, (unsigned)p % g->npresets);
        arb_match *m;
        ck_assert_int_eq(arb_match_new(&m, g, &su, &err), ARB_OK);
        arb_replay_meta meta;
        memset(&meta, 0, sizeof meta);
        meta.game = g;
        meta.setup = &su;
        meta.level = -1;
        meta.seal = arb_seal_writer_hook;
        meta.seal_ctx = (void *)(uintptr_t)k;
        arb_replay_writer *w;
        ck_assert_int_eq(arb_replay_writer_open_archive(&w, aw, &meta, &err), ARB_OK);
        ck_assert_int_eq(arb_replay_record_start(w, m, &err), ARB_OK);
        static arb_agent ag[ARB_MAX_SEATS];
        for (int p = 0; p < su.players; p++) arb_agent_init(&ag[p], ARB_AGENT_GREEDY, su.seed, p, 0);
        while (arb_match_decision(m).seat != ARB_SEAT_NONE) {
            arb_decision d = arb_match_decision(m);
            arb_action a;
            ck_assert_int_eq(arb_agent_choose(&ag[d.seat < 0 ? 0 : d.seat], m, &a), 0);
            ck_assert_int_eq(arb_replay_record_step(w, m, &a, &err), ARB_OK);
        }
        ck_assert_int_eq(arb_replay_writer_close(w, &err), ARB_OK);
        arb_match_free(m);
    }
    ck_assert_int_eq(arb_archive_writer_close(aw, &err), ARB_OK);
    return ru_load(path, len);
}

/* Issue #27 N1: every single-bit flip of a signed single file and of a
 * signed archive is refused under --key (byte 5 bit 1 of a single file,
 * the archive flag, used to make it an "archive of 0 members", exit 0),
 * and a sample of them, that bit first, through the CLI itself. No bit is
 * exempt: the last coded bytes of a range-coded body, which any of several
 * values would decode alike, must be the one flush §D.2 writes (FORMAT.md
 * §D.6), so a flip there is corrupt too. */
START_TEST(verify_every_bit_file_and_archive)
{
    arb_seal_key k;
    arb_error err = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_seal_key_generate(&k, key_seed, "server-1", &err), ARB_OK);
    arb_seal_keyring trusted = { 0 };
    ck_assert_int_eq(arb_seal_keyring_add(&trusted, &k, &err), ARB_OK);
    arb_verify_opts vo = ARB_VERIFY_OPTS_INIT;
    vo.trusted = &trusted;
    char pub[300], cmd[1024];
    snprintf(pub, sizeof pub, "%s", tpath("ebit.key.pub"));
    ck_assert_int_eq(arb_seal_key_save(&k, tpath("ebit.key"), &err), ARB_OK);
    for (unsigned gi = 0; arb_game_at(gi); gi++)
    for (int coding = 0; coding < 4; coding++) {
        const arb_game *g = arb_game_at(gi);
        int archive = coding & 1;
        write_zlib = coding >> 1;
        if (write_zlib && gi % 2) continue; /* zlib, the older coding: two games suffice */
        size_t len;
        const char *p = tpath("eb.tcgr");
        uint8_t *f = archive ? signed_archive(g, 1, 2, &k, p, &len) : signed_file(g, 1, &k, p, &len);
        const char *q = tpath("ebq.tcgr");
        ck_assert_int_eq(ru_save(q, f, len), 0);
        ck_assert_int_eq(verify_path(q, &vo), ARB_OK);
        snprintf(cmd, sizeof cmd, "verify --key %s %s", pub, q);
        ck_assert_int_eq(cli_run(cmd)->code, 0);
        /* a zlib single file's last deflate byte (before the Adler-32)
         * ends in padding bits */
        size_t pad_byte = !archive && write_zlib ? body_end_of(f, len) - 5 : (size_t)-1;
        unsigned alike = 0;
        for (size_t i = 0; i < len; i++)
            for (int bit = 0; bit < 8; bit++) {
                f[i] ^= (uint8_t)(1u << bit);
                ck_assert_int_eq(ru_save(q, f, len), 0);
                int rc = verify_path(q, &vo);
                /* A range-coded body has one coding of its content (FORMAT.md
                 * §D.2, §D.6): no flip may verify. A zlib body (the older
                 * coding) may have another LZ77 coding one bit away (a match
                 * copied from another distance holding the same bytes); the
                 * seal then holds because the content is the very one
                 * signed (its BLAKE2b digest), but never through padding. */
                ck_assert_msg(rc != ARB_OK || (write_zlib && i != pad_byte),
                              "%s: %s (%s): byte %zu of %zu bit %d flipped still verifies under --key", g->id,
                              archive ? "archive" : "single file", write_zlib ? "zlib" : "range-coded", i, len, bit);
                alike += rc == ARB_OK;
                /* the CLI agrees: the archive flag, and one flip in 97 */
                if (rc != ARB_OK && ((i == 5 && bit == 1) || (i * 8 + (size_t)bit) % 97 == 0)) {
                    cli_result *cr = cli_run(cmd);
                    ck_assert_msg(cr->code == 1 || cr->code == 3, "%s: %s: byte %zu bit %d: verify --key exits %d: %s",
                                  g->id, archive ? "archive" : "single file", i, bit, cr->code, cr->out);
                }
                f[i] ^= (uint8_t)(1u << bit);
            }
        printf("verify_every_bit: %s: %s, %s: %zu bytes x 8 bit flips refused under --key, but %u that "
               "inflate to the signed content\n", g->id, archive ? "signed archive of 2" : "signed single file",
               write_zlib ? "zlib" : "range-coded", len, alike);
        free(f);
    }
    arb_seal_keyring_free(&trusted);
}
END_TEST

/* A crash-left .part verifies as an unsigned prefix; `sign` seals its
 * complete records into NAME. */
START_TEST(sign_part_and_cli)
{
    char key[256], pub[300], part[320], fin[300], cmd[2048];
    snprintf(key, sizeof key, "%s", tpath("c.key"));
    snprintf(pub, sizeof pub, "%s.pub", key);
    snprintf(cmd, sizeof cmd, "keygen -o %s --label judge-test", key);
    ck_assert_int_eq(cli_run(cmd)->code, 0);
    snprintf(fin, sizeof fin, "%s", tpath("m.tcgr"));
    snprintf(part, sizeof part, "%s.part", fin);
    /* a full signed play, then its journal cut after the first half */
    snprintf(cmd, sizeof cmd, "play --game naramo --seed 8 --sign %s -o %s", key, fin);
    ck_assert_int_eq(cli_run(cmd)->code, 0);
    snprintf(cmd, sizeof cmd, "verify --key %s %s", pub, fin);
    cli_result *r = cli_run(cmd);
    ck_assert_int_eq(r->code, 0);
    ck_assert_msg(strstr(r->out, "(judge-test)"), "%s", r->out);
    /* a journal: record with the writer and abandon it mid-match */
    const arb_game *g = arb_game_find("naramo");
    arb_setup su;
    memset(&su, 0, sizeof su);
    su.seed = 8;
    su.players = 2;
    su.decks[0] = g->preset(g, 0);
    su.decks[1] = g->preset(g, 1 % g->npresets);
    arb_error err = ARB_ERROR_INIT;
    arb_match *m;
    ck_assert_int_eq(arb_match_new(&m, g, &su, &err), ARB_OK);
    arb_replay_meta meta;
    memset(&meta, 0, sizeof meta);
    meta.game = g;
    meta.setup = &su;
    meta.level = -1;
    char jf[300];
    snprintf(jf, sizeof jf, "%s", tpath("j.tcgr"));
    arb_replay_writer *w;
    ck_assert_int_eq(arb_replay_writer_open(&w, jf, &meta, &err), ARB_OK);
    ck_assert_int_eq(arb_replay_record_start(w, m, &err), ARB_OK);
    arb_agent ag[2];
    for (int p = 0; p < 2; p++) arb_agent_init(&ag[p], ARB_AGENT_RANDOM, 8, p, 0);
    for (int n = 0; n < 20; n++) {
        arb_decision d = arb_match_decision(m);
        if (d.seat == ARB_SEAT_NONE) break;
        arb_action a;
        ck_assert_int_eq(arb_agent_choose(&ag[d.seat < 0 ? 0 : d.seat], m, &a), 0);
        ck_assert_int_eq(arb_replay_record_step(w, m, &a, &err), ARB_OK);
    }
    ck_assert_int_eq(arb_replay_writer_flush(w, &err), ARB_OK);
    arb_replay_writer_free(w); /* the crash: NAME.part stays */
    arb_match_free(m);
    char jpart[320];
    snprintf(jpart, sizeof jpart, "%s.part", jf);
    snprintf(cmd, sizeof cmd, "verify %s", jpart);
    r = cli_run(cmd);
    ck_assert_int_eq(r->code, 3);
    ck_assert_msg(strstr(r->out, "TRUNCATED") && strstr(r->out, "unsigned prefix"), "%s", r->out);
    snprintf(cmd, sizeof cmd, "sign --key %s %s", key, jpart);
    r = cli_run(cmd);
    ck_assert_msg(r->code == 0, "%s%s", r->out, r->err);
    ck_assert_ptr_nonnull(strstr(r->out, "signed prefix"));
    snprintf(cmd, sizeof cmd, "verify --key %s %s", pub, jf);
    r = cli_run(cmd);
    ck_assert_int_eq(r->code, 1);
    ck_assert_msg(strstr(r->out, "no-outcome") && strstr(r->out, "judge-test"), "%s", r->out);
    snprintf(cmd, sizeof cmd, "sign --key %s %s", key, jpart); /* NAME exists now: refused */
    ck_assert_int_eq(cli_run(cmd)->code, 3);
    /* re-signing replaces the seal: same size */
    snprintf(cmd, sizeof cmd, "sign --key %s %s", key, fin);
    r = cli_run(cmd);
    ck_assert_int_eq(r->code, 0);
    ck_assert_ptr_nonnull(strstr(r->out, "seal replaced"));
    snprintf(cmd, sizeof cmd, "verify --json --key %s %s", pub, fin);
    r = cli_run(cmd);
    ck_assert_int_eq(r->code, 0);
    ck_assert_msg(strstr(r->out, "\"signature\":\"valid\"") && strstr(r->out, "\"trusted\":true") &&
                  strstr(r->out, "\"signer\":\"judge-test\"") && strstr(r->out, "\"key_id\":"), "%s", r->out);
    /* a public key cannot sign */
    snprintf(cmd, sizeof cmd, "sign --key %s %s", pub, fin);
    ck_assert_int_eq(cli_run(cmd)->code, 3);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("seal");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, duplicate_keys);
    tcase_add_test(tc, utf8_and_required);
    tcase_add_test(tc, checkpoint_bomb);
    tcase_add_test(tc, bomb_cli);
    tcase_add_test(tc, fair_seed_vectors);
    tcase_add_test(tc, fair_seed_tamper);
    tcase_add_test(tc, positions_never_silent);
    tcase_add_test(tc, fair_seed_cli);
    tcase_add_test(tc, keys_and_keyrings);
    tcase_add_test(tc, diff_sees_everything);
    tcase_add_test(tc, stats_excludes_forgeries);
    tcase_add_test(tc, sign_round_trip_every_game);
    tcase_add_test(tc, sign_every_byte);
    tcase_add_test(tc, verify_every_bit_file_and_archive);
    tcase_add_test(tc, sign_part_and_cli);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/arbiter-seal-XXXXXX");
    if (!mkdtemp(tmpdir)) return 2;
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd)) {}
    return failed ? 1 : 0;
}
