/* check_cli.c — the `arbiter` command line: dispatch, help, exit codes, and
 * the commands every build has (games, cards, deck). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/arbiter.h"
#include "cli_run.h"

START_TEST(no_args_is_usage)
{
    cli_result *r = cli_run("");
    ck_assert_int_eq(r->code, 2);
    ck_assert_ptr_nonnull(strstr(r->err, "usage: arbiter"));
}
END_TEST

START_TEST(unknown_command_is_usage)
{
    cli_result *r = cli_run("frobnicate");
    ck_assert_int_eq(r->code, 2);
    ck_assert_ptr_nonnull(strstr(r->err, "'frobnicate' is not a command"));
}
END_TEST

START_TEST(help_lists_commands_and_exit_codes)
{
    cli_result *r = cli_run("--help");
    ck_assert_int_eq(r->code, 0);
    ck_assert_ptr_nonnull(strstr(r->out, "games"));
    ck_assert_ptr_nonnull(strstr(r->out, "deck"));
    ck_assert_ptr_nonnull(strstr(r->out, "Exit codes"));
    /* Every command answers --help with exit 0 and a usage line. */
    char *cmds = strdup(r->out), *save = NULL;
    int seen = 0;
    for (char *line = strtok_r(cmds, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char name[32];
        if (strncmp(line, "  ", 2) || line[2] == ' ' || sscanf(line, " %31s", name) != 1) continue;
        if (name[0] < 'a' || name[0] > 'z') continue;
        char args[64];
        snprintf(args, sizeof args, "%s --help", name);
        cli_result *h = cli_run(args);
        ck_assert_msg(h->code == 0, "'%s --help' exited %d", name, h->code);
        ck_assert_msg(strstr(h->out, "usage: arbiter") != NULL, "'%s --help' has no usage line", name);
        ck_assert_msg(strstr(h->out, "\nExit") != NULL, "'%s --help' has no Exit section", name);
        seen++;
    }
    free(cmds);
    ck_assert_int_ge(seen, 3);
}
END_TEST

START_TEST(unknown_command_suggests)
{
    cli_result *r = cli_run("verfy");
    ck_assert_int_eq(r->code, 2);
    ck_assert_ptr_nonnull(strstr(r->err, "did you mean"));
    ck_assert_ptr_nonnull(strstr(r->err, "'verify'"));
    r = cli_run("help nonexist");
    ck_assert_int_eq(r->code, 2);
    ck_assert_ptr_nonnull(strstr(r->err, "'nonexist' is not a command"));
    ck_assert_int_eq(r->out[0], '\0');
    r = cli_run("help verify");
    ck_assert_int_eq(r->code, 0);
    ck_assert_ptr_nonnull(strstr(r->out, "usage: arbiter verify"));
    r = cli_run("$(printf 'x\\033[8m')");
    ck_assert_int_eq(r->code, 2);
    ck_assert_ptr_null(strchr(r->err, '\033'));
}
END_TEST

/* Columns line up: every row's second column starts where the header's does. */
START_TEST(games_table_aligned)
{
    cli_result *r = cli_run("games");
    ck_assert_int_eq(r->code, 0);
    const char *hdr = strstr(r->out, "TITLE");
    ck_assert_ptr_nonnull(hdr);
    long col = hdr - r->out;
    for (const char *line = strchr(r->out, '\n') + 1; *line; line = strchr(line, '\n') + 1) {
        ck_assert_msg(line[col] != ' ' && line[col - 1] == ' ' && line[col - 2] == ' ', "misaligned row: %.60s", line);
        if (!strchr(line, '\n')) break;
    }
}
END_TEST

START_TEST(json_honoured_or_refused)
{
    /* deck list/show print JSON under --json; verbs refuses two formats */
    cli_result *r = cli_run("deck list --game naramo --json");
    ck_assert_int_eq(r->code, 0);
    ck_assert_int_eq(r->out[0], '[');
    ck_assert_ptr_nonnull(strstr(r->out, "\"name\":\"defense-doe\""));
    r = cli_run("deck show --game naramo --json defense-doe");
    ck_assert_int_eq(r->code, 0);
    ck_assert_int_eq(r->out[0], '{');
    ck_assert_ptr_nonnull(strstr(r->out, "\"count\":"));
    r = cli_run("deck show --game naramo defense-doe");
    ck_assert_int_eq(r->code, 0);
    ck_assert_ptr_null(strstr(strstr(r->out, "name:") + 1, "name:")); /* name printed once */
    r = cli_run("verbs --game naramo --json --markdown");
    ck_assert_int_eq(r->code, 2);
    ck_assert_int_eq(r->out[0], '\0');
    /* conflicting flags are usage errors, never one silently winning */
    r = cli_run("verify --json --quiet replays/golden/naramo/s1001-p2-greedy.tcgr");
    ck_assert_int_eq(r->code, 2);
    r = cli_run("state replays/golden/naramo/s1001-p2-greedy.tcgr --at 3 --at 4");
    ck_assert_int_eq(r->code, 2);
    r = cli_run("play --game naramo --seed 1 --no-record -o /tmp/arb-never.tcgr");
    ck_assert_int_eq(r->code, 2);
    r = cli_run("verify -j 257 replays/golden/naramo/s1001-p2-greedy.tcgr");
    ck_assert_int_eq(r->code, 2);
    r = cli_run("conform -j 257");
    ck_assert_int_eq(r->code, 2);
    ck_assert_ptr_nonnull(strstr(r->err, "1..256"));
}
END_TEST

/* verify and stats take directories: the *.tcgr files under them, sorted. */
START_TEST(directories_where_files_are)
{
    cli_result *r = cli_run("verify --quiet replays/golden/naramo/v2");
    ck_assert_msg(r->code == 0, "verify DIR exit %d: %.300s", r->code, r->err);
    /* The corpus directory holds each match in four codings (version 1,
     * then v2/, v2-rc0/, v2-zlib/ below it): over the whole tree the first
     * copy, in name order, verifies and the others are duplicates (#27 N6). */
    r = cli_run("verify replays/golden/naramo");
    ck_assert_int_eq(r->code, 1);
    const char *a = strstr(r->out, "rare-draw-s12503.tcgr"), *b = strstr(r->out, "s1000-p2-random.tcgr");
    ck_assert_msg(a && b && a < b, "verify DIR lists its files in name order");
    ck_assert_ptr_nonnull(strstr(r->out, "replays/golden/naramo/s1000-p2-random.tcgr: OK: "));
    ck_assert_ptr_nonnull(strstr(r->out, "replays/golden/naramo/v2/s1000-p2-random.tcgr: DUPLICATE (match): the same "
                                         "match (setup and actions) as replays/golden/naramo/s1000-p2-random.tcgr"));
    ck_assert_ptr_null(strstr(r->out, "/v2/s1000-p2-random.tcgr: OK"));  /* recursive, and counted once */
    r = cli_run("stats replays/golden/naramo/v2");
    ck_assert_int_eq(r->code, 0);
    ck_assert_ptr_nonnull(strstr(r->out, "54 replays"));
    r = cli_run("verify /dev/null/none");
    ck_assert_int_eq(r->code, 3);
    /* report DIR -o OUTDIR: one page per replay */
    char dir[] = "/tmp/arb-cli-rep-XXXXXX", args[256], page[300];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(args, sizeof args, "report replays/golden/catalyst/v2 -o %s/pages", dir);
    r = cli_run(args);
    ck_assert_msg(r->code == 0, "report DIR exit %d: %.300s", r->code, r->err);
    snprintf(page, sizeof page, "%s/pages/s1000-p2-random.tcgr.html", dir);
    FILE *f = fopen(page, "rb");
    ck_assert_msg(f != NULL, "no page %s", page);
    fclose(f);
    snprintf(args, sizeof args, "rm -rf %s", dir);
    ck_assert_int_eq(system(args), 0);
}
END_TEST

/* Progress goes to stderr on a terminal only (forced here), never stdout. */
START_TEST(progress_on_stderr_only)
{
    cli_result *r = cli_run("verify --quiet replays/golden/naramo/v2");
    ck_assert_int_eq(r->code, 0);
    ck_assert_ptr_null(strstr(r->err, "files ("));   /* not a terminal: none */
    setenv("ARBITER_PROGRESS", "1", 1);
    r = cli_run("verify --quiet replays/golden/naramo/v2");
    ck_assert_int_eq(r->code, 0);
    ck_assert_ptr_nonnull(strstr(r->err, "verify: "));
    ck_assert_ptr_null(strstr(r->out, "verify: "));
    r = cli_run("play --game naramo --games 3 --seed 1 --no-record");
    ck_assert_ptr_nonnull(strstr(r->err, "play: 3/3 matches"));
    unsetenv("ARBITER_PROGRESS");
}
END_TEST

START_TEST(version)
{
    cli_result *r = cli_run("--version");
    ck_assert_int_eq(r->code, 0);
    ck_assert_ptr_nonnull(strstr(r->out, ARB_VERSION));
    /* engines with their rules versions, and the libraries */
    for (unsigned i = 0; i < arb_game_count(); i++)
        ck_assert_ptr_nonnull(strstr(r->out, arb_game_at(i)->rules_version));
    ck_assert_ptr_nonnull(strstr(r->out, "zlib "));
    ck_assert_ptr_nonnull(strstr(r->out, "libsodium "));
}
END_TEST

START_TEST(games_lists_every_engine)
{
    cli_result *r = cli_run("games");
    ck_assert_int_eq(r->code, 0);
    for (unsigned i = 0; i < arb_game_count(); i++)
        ck_assert_ptr_nonnull(strstr(r->out, arb_game_at(i)->id));
    r = cli_run("games --json");
    ck_assert_int_eq(r->code, 0);
    ck_assert_int_eq(r->out[0], '[');
    r = cli_run("games --bogus");
    ck_assert_int_eq(r->code, 2);
}
END_TEST

START_TEST(cards_needs_a_known_game)
{
    cli_result *r = cli_run("cards");
    ck_assert_int_eq(r->code, 2);
    ck_assert_ptr_nonnull(strstr(r->err, "--game is required"));
    r = cli_run("cards --game no-such-game");
    ck_assert_int_eq(r->code, 3);
    ck_assert_ptr_nonnull(strstr(r->err, "unknown game"));
    r = cli_run("cards --game x --frob");
    ck_assert_int_eq(r->code, 2);
}
END_TEST

START_TEST(deck_usage_errors)
{
    cli_result *r = cli_run("deck");
    ck_assert_int_eq(r->code, 2);
    r = cli_run("deck explode --game x");
    ck_assert_int_eq(r->code, 2);
    ck_assert_ptr_nonnull(strstr(r->err, "unknown subcommand"));
}
END_TEST

/* Per engine: presets pass `deck check`, a missing file is bad input, and
 * a deck missing most of its cards is illegal (exit 1) with a rule ID. */
START_TEST(deck_check_per_game)
{
    for (unsigned i = 0; i < arb_game_count(); i++) {
        const arb_game *g = arb_game_at(i);
        char args[512];
        ck_assert_msg(g->npresets >= 2, "%s ships fewer than two preset decks", g->id);
        for (unsigned k = 0; k < g->npresets; k++) {
            snprintf(args, sizeof args, "deck check --game %s '%s'", g->id, g->preset(g, k)->name);
            cli_result *r = cli_run(args);
            ck_assert_msg(r->code == 0, "%s preset %s: exit %d\n%s", g->id, g->preset(g, k)->name, r->code, r->out);
        }
        snprintf(args, sizeof args, "deck check --game %s /nonexistent/deck.txt", g->id);
        cli_result *r = cli_run(args);
        ck_assert_int_eq(r->code, 3);
        ck_assert_ptr_nonnull(strstr(r->err, "/nonexistent/deck.txt"));

        char path[] = "/tmp/arb-deck-XXXXXX";
        int fd = mkstemp(path);
        ck_assert_int_ge(fd, 0);
        FILE *f = fdopen(fd, "w");
        const arb_deck *p = g->preset(g, 0);
        for (unsigned a = 0; a < p->nattrs; a++) fprintf(f, "%s: %s\n", p->attrs[a].key, p->attrs[a].value);
        fprintf(f, "# far too small\n1 %s\n", g->card(g, p->cards[0])->name);
        fclose(f);
        snprintf(args, sizeof args, "deck check --game %s --json %s", g->id, path);
        r = cli_run(args);
        ck_assert_msg(r->code == 1, "%s: a one-card deck exits %d", g->id, r->code);
        ck_assert_ptr_nonnull(strstr(r->out, "\"legal\":false"));
        ck_assert_ptr_nonnull(strstr(r->out, "\"rule\":\""));
        FILE *w = fopen(path, "w");
        fprintf(w, "3 No Such Card Anywhere\n");
        fclose(w);
        snprintf(args, sizeof args, "deck check --game %s %s", g->id, path);
        r = cli_run(args);
        ck_assert_int_eq(r->code, 3);
        ck_assert_ptr_nonnull(strstr(r->err, ":1: "));
        unlink(path);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cli");
    TCase *t = tcase_create("dispatch");
    tcase_add_test(t, no_args_is_usage);
    tcase_add_test(t, unknown_command_is_usage);
    tcase_add_test(t, help_lists_commands_and_exit_codes);
    tcase_add_test(t, version);
    tcase_add_test(t, unknown_command_suggests);
    tcase_add_test(t, games_table_aligned);
    tcase_add_test(t, json_honoured_or_refused);
    tcase_add_test(t, directories_where_files_are);
    tcase_add_test(t, progress_on_stderr_only);
    tcase_add_test(t, games_lists_every_engine);
    tcase_add_test(t, cards_needs_a_known_game);
    tcase_add_test(t, deck_usage_errors);
    tcase_add_test(t, deck_check_per_game);
    tcase_set_timeout(t, 60);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
