/* check_position_cli.c — a judge replays a disputed situation from the
 * point it arose: `arbiter state REPLAY --at N --json` gives the position,
 * `arbiter play|record --position FILE` starts a new recorded match from
 * exactly that state (same state hash), and the result verifies. Bad
 * position files are bad input (exit 3) naming the file and offset or path. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/arbiter.h"
#include "cli_run.h"

static char dir[] = "/tmp/arb-pos-XXXXXX";

/* The value of the first "hash": "…" in s, into out. */
static void hash_of(const char *s, char *out, size_t n)
{
    const char *p = strstr(s, "\"hash\": \"");
    size_t skip = 9;
    if (!p) { p = strstr(s, "\"hash\":\""); skip = 8; }
    ck_assert_ptr_nonnull(p);
    p += skip;
    size_t k = 0;
    while (p[k] && p[k] != '"' && k + 1 < n) { out[k] = p[k]; k++; }
    out[k] = '\0';
}

/* No JSON number in s has more than 15 digits: every 64-bit value (the PRNG
 * words) is a string, so JSON.parse and friends keep it exact. */
static void assert_json_safe(const char *s, const char *what)
{
    int in_str = 0, digits = 0;
    for (const char *p = s; *p; p++) {
        if (in_str) {
            if (*p == '\\' && p[1]) p++;
            else if (*p == '"') in_str = 0;
            continue;
        }
        if (*p == '"') { in_str = 1; digits = 0; continue; }
        digits = *p >= '0' && *p <= '9' ? digits + 1 : 0;
        ck_assert_msg(digits <= 15, "%s: a JSON number with more than 15 digits near '%.40s'", what, p - 15);
    }
}

START_TEST(play_from_a_position_of_every_game)
{
    const arb_game *g = arb_game_at((unsigned)_i);
    char args[1024], h0[64], h1[64];
    setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
    snprintf(args, sizeof args, "play --game %s --seed 21 -o %s/%s.tcgr", g->id, dir, g->id);
    ck_assert_int_eq(cli_run(args)->code, 0);
    snprintf(args, sizeof args, "state %s/%s.tcgr --at 8 --json", dir, g->id);
    cli_result *r = cli_run(args);
    ck_assert_int_eq(r->code, 0);
    hash_of(r->out, h0, sizeof h0);
    assert_json_safe(r->out, g->id);
    ck_assert_ptr_nonnull(strstr(r->out, "\"rng\": ["));
    char path[600];
    snprintf(path, sizeof path, "%s/%s-pos.json", dir, g->id);
    FILE *f = fopen(path, "w");
    fputs(r->out, f);
    fclose(f);
    snprintf(args, sizeof args, "play --game %s --seed 3 --position %s -o %s/%s-whatif.tcgr", g->id, path, dir, g->id);
    r = cli_run(args);
    ck_assert_msg(r->code == 0, "%s: play --position exit %d: %s", g->id, r->code, r->err);
    snprintf(args, sizeof args, "verify %s/%s-whatif.tcgr", dir, g->id);
    ck_assert_int_eq(cli_run(args)->code, 0);
    snprintf(args, sizeof args, "state %s/%s-whatif.tcgr --at setup --json", dir, g->id);
    r = cli_run(args);
    ck_assert_int_eq(r->code, 0);
    hash_of(r->out, h1, sizeof h1);
    ck_assert_msg(strcmp(h0, h1) == 0, "%s: the what-if starts at %s, the position was %s", g->id, h1, h0);
    snprintf(args, sizeof args, "info %s/%s-whatif.tcgr", dir, g->id);
    ck_assert_ptr_nonnull(strstr(cli_run(args)->out, "explicit position"));
}
END_TEST

START_TEST(bad_position_files_are_bad_input)
{
    const arb_game *g = arb_game_at(0);
    char args[1024], path[600];
    snprintf(path, sizeof path, "%s/broken.json", dir);
    FILE *f = fopen(path, "w");
    fputs("{\"players\": [", f);
    fclose(f);
    snprintf(args, sizeof args, "play --game %s --seed 1 --position %s -o %s/x.tcgr", g->id, path, dir);
    cli_result *r = cli_run(args);
    ck_assert_int_eq(r->code, 3);
    ck_assert_ptr_nonnull(strstr(r->err, "broken.json: offset"));
    f = fopen(path, "w");
    fputs("{\"game\": \"no-such-game\", \"state\": {}}", f);
    fclose(f);
    r = cli_run(args);
    ck_assert_int_eq(r->code, 3);
    ck_assert_ptr_nonnull(strstr(r->err, "not"));
    f = fopen(path, "w");
    fputs("{\"players\": 1, \"surprise\": true}", f);
    fclose(f);
    r = cli_run(args);
    ck_assert_int_eq(r->code, 3);
    snprintf(args, sizeof args, "play --game %s --seed 1 --position %s/none.json -o %s/x.tcgr", g->id, dir, dir);
    ck_assert_int_eq(cli_run(args)->code, 3);
}
END_TEST

/* A position whose recorded "hash" is not what it loads to is refused: an
 * edited field, or a 64-bit value rounded by a JSON library. Without the
 * "hash" (a hand-written position) it loads. */
START_TEST(position_hash_is_checked)
{
    const arb_game *g = arb_game_find("naramo");
    if (!g) return;
    char args[1024], path[600];
    setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
    snprintf(args, sizeof args, "play --game naramo --seed 21 -o %s/h.tcgr", dir);
    ck_assert_int_eq(cli_run(args)->code, 0);
    snprintf(args, sizeof args, "state %s/h.tcgr --at 8 --json", dir);
    cli_result *r = cli_run(args);
    ck_assert_int_eq(r->code, 0);
    char *edited = strdup(r->out), *p = strstr(edited, "\"next_seq\": ");
    ck_assert_ptr_nonnull(p);
    p += strlen("\"next_seq\": ");
    *p = *p == '9' ? '8' : (char)(*p + 1);      /* one digit of one field */
    snprintf(path, sizeof path, "%s/edited.json", dir);
    FILE *f = fopen(path, "w");
    fputs(edited, f);
    fclose(f);
    snprintf(args, sizeof args, "play --game naramo --position %s -o %s/e.tcgr", path, dir);
    r = cli_run(args);
    ck_assert_int_eq(r->code, 3);
    ck_assert_ptr_nonnull(strstr(r->err, "loads to state hash 0x"));
    /* the same edit without the recorded hash is a new, hand-made position */
    char *h = strstr(edited, "\"hash\": \"");
    ck_assert_ptr_nonnull(h);
    memcpy(h + 1, "hosh", 4);
    f = fopen(path, "w");
    fputs(edited, f);
    fclose(f);
    r = cli_run(args);
    ck_assert_msg(r->code == 0, "exit %d: %s", r->code, r->err);
    free(edited);
}
END_TEST

static void setup_dir(void) { ck_assert_ptr_nonnull(mkdtemp(dir)); }
static void teardown_dir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd)) {}
}

int main(void)
{
    if (arb_game_count() == 0) return EXIT_SUCCESS;
    Suite *s = suite_create("position-cli");
    TCase *t = tcase_create("what-if");
    tcase_add_unchecked_fixture(t, setup_dir, teardown_dir);
    tcase_add_loop_test(t, play_from_a_position_of_every_game, 0, (int)arb_game_count());
    tcase_add_test(t, bad_position_files_are_bad_input);
    tcase_add_test(t, position_hash_is_checked);
    tcase_set_timeout(t, 60);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
