/* cmd_conform.c — `arbiter conform`: run the XML conformance suite, print
 * one line per case and the coverage of the rule catalogs, write TAP /
 * JUnit / JSON reports; `arbiter conform lint` validates the files only.
 * Exit 1 when any result is unexpected (XPASS included), a file is invalid,
 * or an R/R* entry of a game with an engine has no passing case. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arbiter/adapter.h"
#include "arbiter/conform.h"
#include "cli/cli.h"

#define MAX_PATHS 256

static void usage(FILE *out)
{
    fprintf(out,
            "usage: arbiter conform [OPTIONS] [PATH...]\n"
            "       arbiter conform lint [--schema DIR] [PATH...]\n"
            "\n"
            "Run the conformance suite (default PATH: conformance/): every case in a\n"
            "fresh engine instance, its action log recorded as a .tcgr and verified.\n"
            "Statuses: PASS FAIL WRONG-RULE ERROR SKIP XFAIL XPASS.\n"
            "\n"
            "  --game ID          only this game's cases\n"
            "  --set GLOB         only test sets whose name matches\n"
            "  --case GLOB        only cases whose ID matches\n"
            "  --rule ID          only cases that cover this rule ID\n"
            "  -j, --jobs N       run cases on N threads (output order is the same)\n"
            "  --tap FILE         write TAP 14 ('-' = stdout)\n"
            "  --junit FILE       write JUnit XML\n"
            "  --json FILE        write results, coverage and diagnostics as JSON\n"
            "  --coverage         print every catalog entry with the cases covering it\n"
            "  --save-failing DIR write each failing case's action log as DIR/CASE.tcgr\n"
            "  --schema DIR       the XSDs (default: PATH/schema or a parent's)\n"
            "  --expectations F   known failures (default: conformance/expectations.xml)\n"
            "  --no-replay        do not record and verify each case as a replay\n"
            "  --engine CMD       run the cases against an external engine: CMD is run by\n"
            "                     /bin/sh and speaks the engine protocol (conformance/\n"
            "                     ADAPTER.md); only its game's cases run, on one thread;\n"
            "                     a dead, slow or babbling adapter is exit 4\n"
            "  --engine-timeout MS  per-request limit for --engine (default 10000)\n"
            "  -q, --quiet        print only cases that did not pass, and the summary\n"
            "\n"
            "The run fails (exit 1) on FAIL, WRONG-RULE, ERROR, XPASS, an invalid file,\n"
            "or an R/R* catalog entry of a game with an engine that no passing case\n"
            "covers (not checked with --set/--case/--rule or a single FILE).\n"
            "Exit 3: unreadable input or no schema; 2: usage, or filters that select\n"
            "no case.\n");
}

static FILE *open_out(const char *path)
{
    if (strcmp(path, "-") == 0) return stdout;
    return fopen(path, "w");
}

static int write_report(const char *path, int (*fn)(const arb_conform_suite *, FILE *),
                        const arb_conform_suite *s)
{
    FILE *f = open_out(path);
    if (!f) {
        fprintf(stderr, "arbiter conform: cannot write %s\n", path);
        return EXIT_INPUT;
    }
    int rc = fn(s, f);
    if (f != stdout && fclose(f) != 0) rc = ARB_EIO;
    if (rc) fprintf(stderr, "arbiter conform: error writing %s\n", path);
    return rc ? EXIT_INPUT : EXIT_OK;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void print_diags(const arb_conform_suite *s)
{
    for (unsigned i = 0; i < arb_conform_ndiags(s); i++) {
        const arb_conform_diag *d = arb_conform_diag_at(s, i);
        fprintf(stderr, "%s: %s\n", d->where, d->msg);
    }
}

int cmd_conform_save(const arb_conform_suite *s, const char *dir);
static int cmd_conform_run(arb_conform_options *popt, const char **paths, size_t npaths, int lint, int quiet,
                           int coverage, const char *tap, const char *junit, const char *json, const char *save,
                           double t0);

int cmd_conform(int argc, char **argv)
{
    arb_conform_options opt = ARB_CONFORM_OPTIONS_INIT;
    const char *paths[MAX_PATHS];
    size_t npaths = 0;
    const char *tap = NULL, *junit = NULL, *json = NULL, *save = NULL;
    int coverage = 0, quiet = 0, lint = 0;
    const char *engine = NULL;
    unsigned long long engine_ms = 0;
    int i = 1;
    if (argc > 1 && strcmp(argv[1], "lint") == 0) { lint = 1; i = 2; }
    for (; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define VAL(name) if (!v) return cli_usage("conform", "%s needs a value", name); i++
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); return EXIT_OK; }
        else if (!strcmp(a, "--game")) { VAL(a); opt.game = v; }
        else if (!strcmp(a, "--set")) { VAL(a); opt.set = v; }
        else if (!strcmp(a, "--case")) { VAL(a); opt.case_glob = v; }
        else if (!strcmp(a, "--rule")) { VAL(a); opt.rule = v; }
        else if (!strcmp(a, "--jobs") || !strcmp(a, "-j")) {
            VAL(a);
            unsigned long long n;
            if (cli_parse_u64(v, &n) || n < 1 || n > 64) return cli_usage("conform", "--jobs must be 1..64");
            opt.jobs = (int)n;
        }
        else if (!strcmp(a, "--tap")) { VAL(a); tap = v; }
        else if (!strcmp(a, "--junit")) { VAL(a); junit = v; }
        else if (!strcmp(a, "--json")) { VAL(a); json = v; }
        else if (!strcmp(a, "--save-failing")) { VAL(a); save = v; }
        else if (!strcmp(a, "--schema")) { VAL(a); opt.schema_dir = v; }
        else if (!strcmp(a, "--expectations")) { VAL(a); opt.expectations = v; }
        else if (!strcmp(a, "--coverage")) coverage = 1;
        else if (!strcmp(a, "--no-replay")) opt.replay_check = 0;
        else if (!strcmp(a, "--engine")) { VAL(a); engine = v; }
        else if (!strcmp(a, "--engine-timeout")) {
            VAL(a);
            if (cli_parse_u64(v, &engine_ms) || engine_ms < 1 || engine_ms > 3600000)
                return cli_usage("conform", "--engine-timeout must be 1..3600000 ms");
        }
        else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) quiet = 1;
        else if (a[0] == '-' && a[1]) return cli_usage("conform", "unknown option '%s'", a);
        else if (npaths >= MAX_PATHS) return cli_usage("conform", "more than %d paths", MAX_PATHS);
        else paths[npaths++] = a;
#undef VAL
    }
    double t0 = now_s();
    /* --engine: the adapter's proxy game replaces the registry, for its
     * game only; the proxy serializes requests, so one thread. */
    arb_adapter *ad = NULL;
    const arb_game *engine_games[2] = { NULL, NULL };
    if (engine && !lint) {
        int erc = cli_engine_open("conform", engine, opt.game, (int)engine_ms, &ad);
        if (erc) return erc;
        engine_games[0] = arb_adapter_game(ad);
        opt.games = engine_games;
        opt.game = engine_games[0]->id;
        opt.jobs = 1;
    }
    int rc_engine = cmd_conform_run(&opt, paths, npaths, lint, quiet, coverage, tap, junit, json, save, t0);
    int erc = cli_engine_check("conform", ad);
    arb_adapter_close(ad);
    return erc ? erc : rc_engine;
}

static int cmd_conform_run(arb_conform_options *popt, const char **paths, size_t npaths, int lint, int quiet,
                           int coverage, const char *tap, const char *junit, const char *json, const char *save,
                           double t0)
{
    arb_conform_options opt = *popt;
    arb_conform_suite *s = NULL;
    arb_error err = ARB_ERROR_INIT;
    if (arb_conform_load(&s, npaths ? paths : NULL, npaths, &opt, &err)) return cli_fail("conform", &err);
    arb_conform_lint(s);
    if (lint) {
        print_diags(s);
        unsigned nd = arb_conform_ndiags(s);
        printf("conform lint: %u files, %u cases, %u problems\n", arb_conform_nfiles(s), arb_conform_ncases(s), nd);
        arb_conform_free(s);
        return nd ? EXIT_VERIFY : EXIT_OK;
    }
    if (!arb_conform_ncases(s) && (opt.game || opt.set || opt.case_glob || opt.rule)) {
        /* A filter that selects nothing is almost always a typo in a CI
         * script; a green run over zero cases would hide it. */
        print_diags(s);
        fprintf(stderr, "arbiter conform: no case matches the filters (--game/--set/--case/--rule)\n");
        arb_conform_free(s);
        return EXIT_USAGE;
    }
    if (arb_conform_run(s, &err)) {
        arb_conform_free(s);
        return cli_fail("conform", &err);
    }
    double secs = now_s() - t0;
    print_diags(s);
    unsigned counts[ARB_CF_XPASS + 1] = { 0 };
    for (unsigned k = 0; k < arb_conform_nresults(s); k++) {
        const arb_conform_result *r = arb_conform_result_at(s, k);
        counts[r->status]++;
        if (quiet && (r->status == ARB_CF_PASS || r->status == ARB_CF_SKIP)) continue;
        printf("%-10s %s/%s/%s", arb_cf_status_name(r->status), r->game, r->set, r->id);
        if (r->status != ARB_CF_PASS) {
            printf("\n           %s:%d: %s", r->file, r->line, r->message);
            if (r->status == ARB_CF_XFAIL && r->reason) printf("\n           known failure: %s", r->reason);
            if (r->status != ARB_CF_SKIP) printf("\n           covers %s; seed %llu", r->covers,
                                                   (unsigned long long)r->seed);
        }
        putchar('\n');
    }
    if (coverage) arb_conform_write_coverage(s, stdout);
    /* Uncovered entries are failures only when the gate applies. */
    unsigned unc = arb_conform_uncovered(s);
    if (unc && arb_conform_gated(s)) {
        for (unsigned k = 0; k < arb_conform_nentries(s); k++) {
            const arb_conform_entry *e = arb_conform_entry_at(s, k);
            if (e->testable && e->engine && !e->npassing && !e->uncovered_reason)
                printf("UNCOVERED  %s %s%s%s%s\n", e->game, e->id, e->ncases ? " (no passing case among: " : "",
                       e->ncases ? e->cases : "", e->ncases ? ")" : "");
        }
    }
    int rc = EXIT_OK;
    if (tap && write_report(tap, arb_conform_write_tap, s)) rc = EXIT_INPUT;
    if (junit && write_report(junit, arb_conform_write_junit, s)) rc = EXIT_INPUT;
    if (json && write_report(json, arb_conform_write_json, s)) rc = EXIT_INPUT;
    if (save && cmd_conform_save(s, save)) rc = EXIT_INPUT;
    unsigned fails = arb_conform_failures(s);
    printf("conform: %u cases: %u PASS, %u FAIL, %u WRONG-RULE, %u ERROR, %u SKIP, %u XFAIL, %u XPASS; "
           "%u uncovered%s; %u file problems; %.3f s\n",
           arb_conform_nresults(s), counts[ARB_CF_PASS], counts[ARB_CF_FAIL], counts[ARB_CF_WRONG_RULE],
           counts[ARB_CF_ERROR], counts[ARB_CF_SKIP], counts[ARB_CF_XFAIL], counts[ARB_CF_XPASS], unc,
           arb_conform_gated(s) ? "" : " (not gated: partial run)", arb_conform_ndiags(s), secs);
    arb_conform_free(s);
    if (rc) return rc;
    return fails ? EXIT_VERIFY : EXIT_OK;
}

/* Each unexpected result of a test case becomes DIR/GAME-CASE.tcgr: the
 * accepted actions up to the failure, from the case's seed or position. */
int cmd_conform_save(const arb_conform_suite *s, const char *dir)
{
    int bad = 0;
    unsigned saved = 0;
    for (unsigned i = 0; i < arb_conform_nresults(s); i++) {
        const arb_conform_result *r = arb_conform_result_at(s, i);
        if (!arb_cf_status_unexpected(r->status) && r->status != ARB_CF_XFAIL) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s-%s.tcgr", dir, r->game, r->id);
        arb_error err = ARB_ERROR_INIT;
        int rc = arb_conform_save_case(s, i, path, &err);
        if (rc == ARB_ENOTFOUND) continue;
        if (rc) {
            char buf[ARB_MSG_MAX + ARB_WHERE_MAX + ARB_RULE_MAX + 8];
            arb_error_format(&err, buf, sizeof buf);
            fprintf(stderr, "arbiter conform: cannot save %s: %s\n", path, buf);
            bad = 1;
            continue;
        }
        saved++;
        printf("saved      %s\n", path);
    }
    (void)saved;
    return bad ? -1 : 0;
}
