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

static void good_header(arb_mpbuf *b)
{
    arb_setup su;
    memset(&su, 0, sizeof su);
    su.seed = 1;
    su.players = 2;
    su.decks[0] = su.decks[1] = tg_game.preset(0);
    arb_replay_meta meta;
    memset(&meta, 0, sizeof meta);
    meta.game = &tg_game;
    meta.setup = &su;
    arb_error err = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_replay__header_encode(b, &meta, &err), ARB_OK);
}

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
    su.decks[0] = su.decks[1] = tg_game.preset(0);
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
    uint8_t *bf = ru_build(bomb, hs + cs * copies, 1, &blen);
    free(bomb);
    ck_assert_int_eq(ru_save(p, bf, blen), 0);
    free(bf);
    static const char *cmds[] = { "verify", "log", "state --at end", "stats", "report -o /dev/null" };
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

static Suite *suite(void)
{
    Suite *s = suite_create("seal");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, duplicate_keys);
    tcase_add_test(tc, utf8_and_required);
    tcase_add_test(tc, checkpoint_bomb);
    tcase_add_test(tc, bomb_cli);
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
