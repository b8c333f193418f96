/* check_reseal.c — `arbiter reseal` for every game in the registry: a file
 * recorded "under an older engine" (forged: checkpoints and outcome that the
 * current engine does not compute, or an older rules version in the header)
 * is resealed, the change is reported with the record and turn of the first
 * divergence, and the result verifies; an unchanged file is not rewritten;
 * a file with an action the engine rejects is refused and left byte for byte
 * as it was, with no .part left behind. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_run.h"
#include "replay_util.h"

static char tmpdir[64];

/* Copy src's actions into dst; checkpoints from record `from_cp` on carry
 * hash ^ 1 and the outcome's winner/reason are replaced. Returns the index
 * of the first forged record, or -1. illegal: append an action by a seat
 * that owes nothing instead. */
static long forge_as(const arb_game *g, const char *src, const char *dst, int from_cp, int illegal, unsigned wflags)
{
    arb_error err = ARB_ERROR_INIT;
    arb_replay *r;
    if (arb_replay_open(&r, src, NULL, &err)) return -1;
    arb_setup su;
    arb_deck decks[ARB_MAX_SEATS];
    if (arb_replay_setup(r, g, &su, decks, &err)) { arb_replay_close(r); return -1; }
    arb_replay_meta meta;
    memset(&meta, 0, sizeof meta);
    meta.game = g;
    meta.setup = &su;
    meta.started = arb_replay_get_header(r)->started;
    meta.level = -1;
    meta.version = arb_replay_get_header(r)->version; /* the forgery keeps the version */
    meta.flags = wflags;                              /* ... and is coded as asked */
    arb_replay_writer *w;
    if (arb_replay_writer_open(&w, dst, &meta, &err)) { arb_replay_close(r); return -1; }
    arb_replay_record rec;
    long first = -1;
    int cps = 0, n_actions = 0;
    while (arb_replay_next(r, &rec, &err) == 1) {
        if (rec.kind == ARB_REC_ACTION) {
            if (illegal && ++n_actions == 3) {
                arb_action bad = rec.action;
                bad.seat = ARB_SEAT_ARBITER; /* the arbiter owes no main decision */
                bad.verb = 0;
                bad.nargs = 0;
                arb_replay_write_action(w, &bad, &err);
                first = (long)rec.index;
            } else {
                arb_replay_write_action(w, &rec.action, &err);
            }
        } else if (rec.kind == ARB_REC_CHECKPOINT) {
            int bump = !illegal && cps++ >= from_cp;
            if (bump && first < 0) first = (long)rec.index;
            arb_replay_write_checkpoint(w, rec.turn, rec.hash ^ (bump ? 1u : 0u), &err);
        } else if (rec.kind == ARB_REC_OUTCOME) {
            if (!illegal && first < 0) first = (long)rec.index;
            arb_replay_write_outcome(w, illegal ? rec.winner : rec.winner == 0 ? 1 : 0, illegal ? rec.reason : g->outcome_reasons[g->noutcome_reasons - 1],
                                     rec.turn, rec.hash, &err);
        }
    }
    arb_replay_close(r);
    if (arb_replay_writer_close(w, &err)) return -1;
    return first;
}

static long forge(const arb_game *g, const char *src, const char *dst, int from_cp, int illegal)
{
    return forge_as(g, src, dst, from_cp, illegal, 0);
}

static int play_file(const arb_game *g, const char *path, uint64_t seed)
{
    char args[512];
    snprintf(args, sizeof args, "play --game %s --seed %llu --agents greedy -o %s", g->id, (unsigned long long)seed,
             path);
    return cli_run(args)->code;
}

/* A test's game (loop index i) and its two files, TAG.tcgr (seed's match,
 * played) and TAG-2.tcgr (for the forgery). */
static const arb_game *begin(int i, const char *tag, uint64_t seed, char orig[256], char dst[256])
{
    const arb_game *g = arb_game_at((unsigned)i);
    snprintf(orig, 256, "%s/%s-%s.tcgr", tmpdir, g->id, tag);
    snprintf(dst, 256, "%s/%s-%s-2.tcgr", tmpdir, g->id, tag);
    ck_assert_int_eq(play_file(g, orig, seed), 0);
    return g;
}

START_TEST(reseal_reports_and_repairs)
{
    char orig[256], old[256], args[600];
    const arb_game *g = begin(_i, "rr", 7, orig, old);
    long first = forge(g, orig, old, 1, 0);
    ck_assert_int_ge(first, 0);
    snprintf(args, sizeof args, "verify %s", old);
    ck_assert_int_eq(cli_run(args)->code, 1);

    /* dry run: reports, writes nothing */
    size_t n0, n1;
    uint8_t *before = ru_load(old, &n0);
    snprintf(args, sizeof args, "reseal --dry-run %s", old);
    cli_result *r = cli_run(args);
    ck_assert_int_eq(r->code, 0);
    char want[96];
    snprintf(want, sizeof want, "first divergence at record %ld,", first);
    ck_assert_msg(strstr(r->out, "would reseal") && strstr(r->out, want), "%s", r->out);
    ck_assert_msg(strstr(r->out, "outcome "), "%s", r->out);
    uint8_t *after = ru_load(old, &n1);
    ck_assert(n0 == n1 && memcmp(before, after, n0) == 0);
    free(after);

    snprintf(args, sizeof args, "reseal %s", old);
    r = cli_run(args);
    ck_assert_int_eq(r->code, 0);
    ck_assert_msg(strstr(r->out, "resealed") && strstr(r->out, want), "%s", r->out);
    snprintf(args, sizeof args, "verify %s", old);
    ck_assert_int_eq(cli_run(args)->code, 0);
    /* resealed = what the current engine records for those actions */
    uint8_t *a = ru_load(orig, &n0), *b = ru_load(old, &n1);
    ck_assert(n0 == n1 && memcmp(a, b, n0) == 0);
    free(a);
    free(b);
    free(before);

    /* a second reseal finds nothing to do and leaves the file alone */
    snprintf(args, sizeof args, "reseal %s", old);
    r = cli_run(args);
    ck_assert_int_eq(r->code, 0);
    ck_assert_msg(strstr(r->out, "unchanged"), "%s", r->out);
}
END_TEST

START_TEST(reseal_rules_version_bump)
{
    char orig[256], old[256], args[600];
    const arb_game *g = begin(_i, "rv", 11, orig, old);
    size_t n, raw_n, out_n;
    uint8_t *file = ru_load(orig, &n);
    uint8_t *raw = ru_inflate(file, n, &raw_n);
    size_t k = strlen(g->rules_version);
    uint8_t *p = ru_find(raw, raw_n, g->rules_version, k);
    ck_assert_ptr_nonnull(p);
    p[k - 1] = p[k - 1] == '0' ? '9' : '0'; /* an older rules version, same length */
    uint8_t *forged = ru_build(raw, raw_n, file[4], &out_n);
    ck_assert_int_eq(ru_save(old, forged, out_n), 0);
    snprintf(args, sizeof args, "verify %s", old);
    ck_assert_int_eq(cli_run(args)->code, 3); /* refused: unsupported rules version */
    snprintf(args, sizeof args, "reseal %s", old);
    cli_result *r = cli_run(args);
    ck_assert_int_eq(r->code, 0);
    ck_assert_msg(strstr(r->out, "checkpoints and outcome unchanged") && strstr(r->out, "rules "), "%s", r->out);
    snprintf(args, sizeof args, "verify %s", old);
    ck_assert_int_eq(cli_run(args)->code, 0);
    free(file);
    free(raw);
    free(forged);
}
END_TEST

/* reseal keeps a version-2 file's body coding: zlib stays zlib, a body
 * range-coded from empty models (the kept v2-rc0 corpus) stays so, one
 * from the game's primer (FORMAT.md §D.8) stays primed. */
START_TEST(reseal_keeps_coding)
{
    char orig[256], old[256], args[600];
    const arb_game *g = begin(_i, "kc", 9, orig, old);
    const unsigned wflags[3] = { ARB_REPLAY_WRITE_ZLIB, ARB_REPLAY_WRITE_RC0, 0 };
    for (int k = 0; k < 3; k++) {
        ck_assert_int_ge(forge_as(g, orig, old, 1, 0, wflags[k]), 0);
        size_t n0, n1;
        uint8_t *f0 = ru_load(old, &n0);
        snprintf(args, sizeof args, "reseal %s", old);
        ck_assert_int_eq(cli_run(args)->code, 0);
        snprintf(args, sizeof args, "verify %s", old);
        ck_assert_int_eq(cli_run(args)->code, 0);
        uint8_t *f1 = ru_load(old, &n1);
        ck_assert_int_eq(f1[5] & ARB_REPLAY_FLAG_RC, k ? ARB_REPLAY_FLAG_RC : 0);
        ck_assert_int_eq(f1[5], f0[5]);
        ck_assert_int_eq(f1[6], f0[6]);
        ck_assert_int_eq(f1[6] != 0, k == 2);
        free(f0);
        free(f1);
    }
}
END_TEST

START_TEST(reseal_refuses_illegal)
{
    char orig[256], bad[256], args[600];
    const arb_game *g = begin(_i, "il", 13, orig, bad);
    ck_assert_int_ge(forge(g, orig, bad, 0, 1), 0);
    size_t n0, n1;
    uint8_t *before = ru_load(bad, &n0);
    snprintf(args, sizeof args, "reseal %s %s", orig, bad);
    cli_result *r = cli_run(args);
    ck_assert_int_eq(r->code, 1);
    ck_assert_msg(strstr(r->out, "REFUSED") && strstr(r->out, "illegal"), "%s", r->out);
    ck_assert_msg(strstr(r->out, "unchanged"), "%s", r->out); /* the good file is still handled */
    uint8_t *after = ru_load(bad, &n1);
    ck_assert(n0 == n1 && memcmp(before, after, n0) == 0);
    char part[300];
    snprintf(part, sizeof part, "%s.part", bad);
    struct stat sb;
    ck_assert_int_ne(stat(part, &sb), 0);
    free(before);
    free(after);
    /* unreadable input: exit 3 */
    snprintf(args, sizeof args, "reseal %s/missing.tcgr", tmpdir);
    ck_assert_int_eq(cli_run(args)->code, 3);
}
END_TEST

int main(void)
{
    int ng = (int)arb_game_count();
    if (ng == 0) {
        fprintf(stderr, "check_reseal: no game engine is compiled in\n");
        return 1;
    }
    snprintf(tmpdir, sizeof tmpdir, "/tmp/arbiter-reseal-XXXXXX");
    if (!mkdtemp(tmpdir)) return 2;
    Suite *s = suite_create("reseal");
    TCase *tc = tcase_create("reseal");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, reseal_reports_and_repairs, 0, ng);
    tcase_add_loop_test(tc, reseal_rules_version_bump, 0, ng);
    tcase_add_loop_test(tc, reseal_refuses_illegal, 0, ng);
    tcase_add_loop_test(tc, reseal_keeps_coding, 0, ng);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd)) {}
    return failed ? 1 : 0;
}
