/* check_cli_replay.c — the replay commands through the real binary
 * ($ARBITER): play is reproducible, record fed play's actions writes the
 * same bytes, record rejects illegal actions without recording them, a
 * SIGKILLed `arbiter record` leaves a .part that verifies up to its last
 * checkpoint, and verify/info exit codes, --json and --jobs. Uses the
 * first registered game. */
#include <check.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "replay_util.h"
#include "testgame.h"

static char tmpdir[64];
static const char *arbiter;
static const arb_game *G;

static const char *tpath(const char *name)
{
    static char buf[8][256];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
    return buf[k];
}

/* Run a shell command, capture stdout into out (may be NULL); returns the exit code. */
static int run(char *out, size_t size, const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    size_t n = 0;
    char tmp[4096];
    size_t k;
    while ((k = fread(tmp, 1, sizeof tmp, p)) > 0)
        if (out && n + 1 < size) {
            size_t c = k < size - 1 - n ? k : size - 1 - n;
            memcpy(out + n, tmp, c);
            n += c;
        }
    if (out) out[n] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The actions of a replay in the text syntax, one per line. */
static size_t actions_of(const char *path, char *out, size_t size, size_t max_actions)
{
    arb_replay *r;
    arb_error err = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_replay_open(&r, path, NULL, &err), ARB_OK);
    arb_replay_record rec;
    size_t n = 0, used = 0;
    while (arb_replay_next(r, &rec, &err) == 1 && n < max_actions) {
        if (rec.kind != ARB_REC_ACTION) continue;
        used += (size_t)arb_action_format(G, &rec.action, out + used, size - used);
        used += (size_t)snprintf(out + used, size - used, "\n");
        n++;
    }
    arb_replay_close(r);
    return n;
}

static size_t file_size(const char *p)
{
    size_t n;
    uint8_t *b = ru_load(p, &n);
    free(b);
    return b ? n : 0;
}

START_TEST(play_reproducible_and_verifies)
{
    char out[8192];
    const char *a = tpath("a.tcgr"), *b = tpath("b.tcgr");
    ck_assert_int_eq(run(out, sizeof out, "SOURCE_DATE_EPOCH=1700000000 %s play --game %s --seed 7 --agents greedy -o %s",
                         arbiter, G->id, a), 0);
    ck_assert_ptr_nonnull(strstr(out, "actions"));
    ck_assert_int_eq(run(NULL, 0, "SOURCE_DATE_EPOCH=1700000000 %s play --game %s --seed 7 --agents greedy -o %s",
                         arbiter, G->id, b), 0);
    size_t la, lb;
    uint8_t *x = ru_load(a, &la), *y = ru_load(b, &lb);
    ck_assert_uint_eq(la, lb);
    ck_assert_mem_eq(x, y, la);
    free(x);
    free(y);
    ck_assert_int_eq(run(out, sizeof out, "%s verify %s", arbiter, a), 0);
    ck_assert_ptr_nonnull(strstr(out, ": OK:"));
    ck_assert_int_eq(run(out, sizeof out, "%s info %s", arbiter, a), 0);
    ck_assert_ptr_nonnull(strstr(out, "2023-11-14T22:13:20Z"));
    ck_assert_ptr_nonnull(strstr(out, "outcome:"));
    ck_assert_int_eq(run(out, sizeof out, "%s info --json %s", arbiter, a), 0);
    ck_assert_ptr_nonnull(strstr(out, "\"game\":\""));
    ck_assert_ptr_nonnull(strstr(out, "\"outcome\":{"));
    /* timed and with a commitment */
    ck_assert_int_eq(run(NULL, 0, "%s play --game %s --seed 8 --timed --salt 00112233 -o %s", arbiter, G->id, b), 0);
    ck_assert_int_eq(run(out, sizeof out, "%s verify --json %s", arbiter, b), 0);
    ck_assert_ptr_nonnull(strstr(out, "\"commit\":\"ok\""));
    /* usage errors */
    ck_assert_int_eq(run(NULL, 0, "%s play --game %s -o %s 2>/dev/null", arbiter, G->id, b), 2);
    ck_assert_int_eq(run(NULL, 0, "%s play --game nosuchgame --seed 1 -o %s 2>/dev/null", arbiter, b), 3);
    for (const char *c = "play\0record\0verify\0info\0verbs\0"; *c; c += strlen(c) + 1)
        ck_assert_int_eq(run(out, sizeof out, "%s %s --help", arbiter, c), 0);
}
END_TEST

START_TEST(record_matches_play)
{
    static char acts[1 << 20];
    const char *a = tpath("p.tcgr"), *b = tpath("r.tcgr"), *in = tpath("in.txt");
    ck_assert_int_eq(run(NULL, 0, "SOURCE_DATE_EPOCH=1700000000 %s play --game %s --seed 11 -o %s", arbiter, G->id, a), 0);
    size_t n = actions_of(a, acts, sizeof acts, SIZE_MAX);
    ck_assert_uint_gt(n, 3);
    ck_assert_int_eq(ru_save(in, acts, strlen(acts)), 0);
    static char out[1 << 20];
    ck_assert_int_eq(run(out, sizeof out, "SOURCE_DATE_EPOCH=1700000000 %s record --game %s --seed 11 -o %s < %s",
                         arbiter, G->id, b, in), 0);
    ck_assert_ptr_nonnull(strstr(out, "owed: turn 1"));
    ck_assert_ptr_nonnull(strstr(out, "over: "));
    /* the end line has the form record --help gives */
    ck_assert_msg(strstr(out, "over: winner ") || strstr(out, "over: draw ("), "end line: %.200s", strstr(out, "over: "));
    ck_assert_ptr_nonnull(strstr(strstr(out, "over: "), ", final hash 0x"));
    size_t la, lb;
    uint8_t *x = ru_load(a, &la), *y = ru_load(b, &lb);
    ck_assert_uint_eq(la, lb);
    ck_assert_mem_eq(x, y, la);
    free(x);
    free(y);
    /* the same through NDJSON, with an illegal action and a syntax error
     * in the middle: both answered, neither recorded */
    const char *inj = tpath("in.json");
    FILE *f = fopen(inj, "w");
    char *line = strtok(acts, "\n");
    int k = 0;
    for (; line; line = strtok(NULL, "\n"), k++) {
        if (k == 2) {
            /* a well-formed action the engine must reject: a one-argument verb, a card that does not exist */
            unsigned v1 = 0;
            while (v1 + 1 < G->nverbs && !(G->verbs[v1].min_args <= 1 && G->verbs[v1].max_args >= 1)) v1++;
            fprintf(f, "{\"action\":\"0 %s 999999\"}\n", G->verbs[v1].name);
            fprintf(f, "{\"seat\":0,\"verb\":\"no-such-verb\"}\n");
        }
        fprintf(f, "{\"action\":\"%s\"}\n", line);
    }
    fclose(f);
    ck_assert_int_eq(run(out, sizeof out, "SOURCE_DATE_EPOCH=1700000000 %s record --json --game %s --seed 11 -o %s < %s",
                         arbiter, G->id, b, inj), 0);
    ck_assert_ptr_nonnull(strstr(out, "{\"type\":\"rejected\""));
    ck_assert_ptr_nonnull(strstr(out, "{\"type\":\"error\""));
    ck_assert_ptr_nonnull(strstr(out, "{\"type\":\"over\""));
    x = ru_load(a, &la);
    y = ru_load(b, &lb);
    ck_assert_uint_eq(la, lb);
    ck_assert_mem_eq(x, y, la);
    free(x);
    free(y);
    /* stdin ending early: exit 3, and the file is left as FILE.part (nothing
     * under FILE looks finished), complete up to its last action: verify
     * calls it no-outcome, verify --unfinished consistent, not finished */
    unlink(b);
    ck_assert_int_eq(run(out, sizeof out, "head -n 3 %s | %s record --game %s --seed 11 -o %s 2>&1 >/dev/null", in,
                         arbiter, G->id, b), 3);
    ck_assert_ptr_nonnull(strstr(out, ".part holds the 3 accepted actions and no outcome"));
    ck_assert_int_eq(access(b, F_OK), -1);
    char bp[4200];
    snprintf(bp, sizeof bp, "%s.part", b);
    ck_assert_int_eq(run(out, sizeof out, "%s verify %s", arbiter, bp), 1);
    ck_assert_ptr_nonnull(strstr(out, "no-outcome"));
    ck_assert_int_eq(run(out, sizeof out, "%s verify --unfinished %s", arbiter, bp), 0);
    ck_assert_ptr_nonnull(strstr(out, ": CONSISTENT, NOT FINISHED: 3 actions"));
    ck_assert_int_eq(run(out, sizeof out, "%s verify --unfinished --json %s", arbiter, bp), 0);
    ck_assert_ptr_nonnull(strstr(out, "\"status\":\"unfinished\",\"ok\":true,\"finished\":false"));
    /* --unfinished accepts only a consistent prefix: a finished match still
     * verifies as OK, and a wrong action is still a divergence */
    ck_assert_int_eq(run(out, sizeof out, "%s verify --unfinished %s", arbiter, a), 0);
    ck_assert_ptr_nonnull(strstr(out, ": OK: "));
    unlink(bp);
}
END_TEST

START_TEST(record_killed)
{
    static char acts[1 << 20];
    const char *a = tpath("k0.tcgr"), *b = tpath("k.tcgr");
    ck_assert_int_eq(run(NULL, 0, "%s play --game %s --seed 5 -o %s", arbiter, G->id, a), 0);
    actions_of(a, acts, sizeof acts, SIZE_MAX);
    /* stop after the 3rd checkpoint following setup, plus one action */
    arb_replay *r;
    arb_error err = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_replay_open(&r, a, NULL, &err), ARB_OK);
    arb_replay_record rec;
    int cps = 0;
    size_t feed = 0;
    while (arb_replay_next(r, &rec, &err) == 1) {
        if (rec.kind == ARB_REC_CHECKPOINT && ++cps == 4) break;
        feed += rec.kind == ARB_REC_ACTION;
    }
    arb_replay_close(r);
    ck_assert_int_eq(cps, 4);
    feed += 1;
    int to[2], from[2];
    ck_assert_int_eq(pipe(to), 0);
    ck_assert_int_eq(pipe(from), 0);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        close(to[1]);
        close(from[0]);
        execl(arbiter, arbiter, "record", "--game", G->id, "--seed", "5", "-o", b, (char *)NULL);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    char *line = strtok(acts, "\n");
    for (size_t i = 0; i < feed && line; i++, line = strtok(NULL, "\n")) {
        ck_assert(write(to[1], line, strlen(line)) > 0);
        ck_assert(write(to[1], "\n", 1) == 1);
    }
    /* wait until every fed action is answered */
    FILE *fo = fdopen(from[0], "r");
    char buf[65536];
    size_t oks = 0;
    while (oks < feed && fgets(buf, sizeof buf, fo))
        if (strncmp(buf, "ok ", 3) == 0) oks++;
    ck_assert_uint_eq(oks, feed);
    kill(pid, SIGKILL);
    int st;
    waitpid(pid, &st, 0);
    ck_assert(WIFSIGNALED(st));
    fclose(fo);
    close(to[1]);
    char part[300];
    snprintf(part, sizeof part, "%s.part", b);
    ck_assert_int_ne(access(b, F_OK), 0);
    char out[8192];
    ck_assert_int_eq(run(out, sizeof out, "%s verify %s", arbiter, part), 3);
    ck_assert_ptr_nonnull(strstr(out, "TRUNCATED"));
    ck_assert_ptr_nonnull(strstr(out, "replay without divergence"));
    arb_verify_result res;
    ck_assert_int_eq(arb_replay_verify_file(part, NULL, &res, &err), ARB_ETRUNC);
    ck_assert_uint_eq(res.status.checkpoints, 4);
    ck_assert_int_eq(res.kind, ARB_DIV_NONE);
    ck_assert_uint_eq(res.last_good_record, res.status.records);
}
END_TEST

START_TEST(verify_codes_json_jobs)
{
    char out[16384], out2[16384];
    const char *a = tpath("v1.tcgr"), *b = tpath("v2.tcgr"), *t = tpath("trunc.tcgr"), *g = tpath("garbage.tcgr"),
               *u = tpath("unsup.tcgr");
    ck_assert_int_eq(run(NULL, 0, "%s play --game %s --seed 21 -o %s", arbiter, G->id, a), 0);
    ck_assert_int_eq(run(NULL, 0, "%s play --game %s --seed 22 --agents greedy -o %s", arbiter, G->id, b), 0);
    size_t n;
    uint8_t *x = ru_load(a, &n);
    ck_assert_int_eq(ru_save(t, x, n - 7), 0);
    ck_assert_int_eq(ru_save(g, "hello world, not a replay", 25), 0);
    free(x);
    ck_assert_int_gt(ru_record(&tg_game, u, 3, 2, ARB_AGENT_RANDOM, 0, NULL, NULL, 0, NULL, 0, NULL), 0);
    ck_assert_int_eq(run(out, sizeof out, "%s verify %s %s", arbiter, a, b), 0);
    ck_assert_int_eq(run(out, sizeof out, "%s verify %s %s", arbiter, a, t), 3);
    ck_assert_int_eq(run(out, sizeof out, "%s verify %s", arbiter, g), 3);
    ck_assert_ptr_nonnull(strstr(out, "TCGR"));
    ck_assert_int_eq(run(out, sizeof out, "%s verify %s", arbiter, u), 3);
    ck_assert_ptr_nonnull(strstr(out, "not compiled into this build"));
    ck_assert_int_eq(run(out, sizeof out, "%s verify %s/missing.tcgr", arbiter, tmpdir), 3);
    ck_assert_int_eq(run(NULL, 0, "%s verify 2>/dev/null", arbiter), 2);
    ck_assert_int_eq(run(out, sizeof out, "%s info %s", arbiter, t), 3);
    ck_assert_ptr_nonnull(strstr(out, "truncated"));
    /* --json: one object per file, in order, identical with --jobs 2, then
     * the closing summary */
    ck_assert_int_eq(run(out, sizeof out, "%s verify --json %s %s %s %s %s", arbiter, a, b, t, g, u), 3);
    ck_assert_int_eq(run(out2, sizeof out2, "%s verify --json --jobs 2 %s %s %s %s %s", arbiter, a, b, t, g, u), 3);
    ck_assert_str_eq(out, out2);
    int lines = 0;
    for (char *p = out; *p; p++) lines += *p == '\n';
    ck_assert_int_eq(lines, 6);
    ck_assert_ptr_nonnull(strstr(out, "{\"summary\":{\"schema\":\"arbiter-results-1\",\"command\":\"verify\",\"matches\":5,"
                                      "\"ok\":2,\"failed\":3}}\n"));
    ck_assert_ptr_nonnull(strstr(out, "\"status\":\"truncated\""));
    ck_assert_ptr_nonnull(strstr(out, "\"status\":\"unsupported\""));
    ck_assert_ptr_nonnull(strstr(out, "\"status\":\"unreadable\""));
    ck_assert_uint_gt(file_size(a), 8);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("cli_replay");
    TCase *tc = tcase_create("cli");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, play_reproducible_and_verifies);
    tcase_add_test(tc, record_matches_play);
    tcase_add_test(tc, record_killed);
    tcase_add_test(tc, verify_codes_json_jobs);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    arbiter = getenv("ARBITER");
    if (!arbiter) arbiter = "build/arbiter";
    if (arb_game_count() == 0) {
        fprintf(stderr, "check_cli_replay: no game engine is compiled in: the CLI replay tests need one\n");
        return 1;
    }
    G = arb_game_at(0);
    snprintf(tmpdir, sizeof tmpdir, "/tmp/arbiter-cli-XXXXXX");
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
