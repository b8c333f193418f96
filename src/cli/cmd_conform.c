/* cmd_conform.c — `arbiter conform`: run the XML conformance suite, print
 * one line per case and the coverage of the rule catalogs, write TAP /
 * JUnit / JSON reports; `arbiter conform lint` validates the files only.
 * Exit 1 when any result is unexpected (XPASS included), a file is invalid,
 * or an R/R* entry of a game with an engine has no passing case. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "arbiter/adapter.h"
#include "arbiter/conform.h"
#include "cli/cli.h"

/* --engine CMD: the adapter's proxy game replaces the registry. */
static const arb_game *engine_games[2];

/* The protocol's promises no answer shows alone (arb_adapter_promises). */
static int adapter_promises(void *ctx, const arb_match *m, const arb_match *rm, char *why, size_t size)
{
    (void)ctx;
    int rc = arb_adapter_promises(arb_match_state(m), arb_match_game(rm), arb_match_state(rm), why, size);
    if (rc == 0 || rc == 1) return rc;
    const char *f = arb_adapter_failed(arb_adapter_of(engine_games[0]));
    snprintf(why, size, "engine adapter failed: %s", f ? f : "checking the promises");
    return 2;
}

static int adapter_dead(void *ctx, char *why, size_t size)
{
    (void)ctx;
    const char *f = engine_games[0] ? arb_adapter_failed(arb_adapter_of(engine_games[0])) : NULL;
    if (f) snprintf(why, size, "engine adapter failed: %s", f);
    return f != NULL;
}

/* A report: '-' is stdout; a file is written through PATH.part and renamed
 * (arbiter/outfile.h), so a CI job never reads half a report. */
static int write_report(const char *path, int (*fn)(const arb_conform_suite *, FILE *),
                        const arb_conform_suite *s)
{
    if (strcmp(path, "-") == 0) {
        int rc = fn(s, stdout);
        if (fflush(stdout) != 0) rc = ARB_EIO;
        if (rc) fprintf(stderr, "arbiter conform: error writing the report to stdout\n");
        return rc ? EXIT_INPUT : EXIT_OK;
    }
    char part[4200];
    arb_error err = ARB_ERROR_INIT;
    if ((size_t)snprintf(part, sizeof part, "%s.part", path) >= sizeof part)
        return cli_usage("conform", "report path too long");
    FILE *f = arb_out_create(path, part, 0666, 0, &err);
    if (!f) return cli_fail("conform", &err);
    if (fn(s, f)) {
        arb_out_discard(f, part);
        fprintf(stderr, "arbiter conform: error writing %s\n", cli_esc(path));
        return EXIT_INPUT;
    }
    return arb_out_install(f, part, path, 0, &err) ? cli_fail("conform", &err) : EXIT_OK;
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

/* mkdir -p: every missing component of dir, 0777 & umask. */
static int make_dirs(const char *dir)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf) { errno = ENAMETOOLONG; return -1; }
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    if (mkdir(buf, 0777) != 0 && errno != EEXIST) return -1;
    struct stat st;
    if (stat(buf, &st) != 0) return -1;
    if (!S_ISDIR(st.st_mode)) { errno = ENOTDIR; return -1; }
    return 0;
}

int cmd_conform_save(const arb_conform_suite *s, const char *dir, FILE *out);

static const char *const conform_usage[] = {
    "conform [OPTIONS] [PATH...]",
    "conform lint [--schema DIR] [PATH...]",
    NULL
};
static const cli_opt conform_opts[] = {
    CLI_OPT_GAME("only this game's cases"),
    { "set", 's', 0, CLI_ARG_TEXT, "GLOB", "only test sets whose name matches", 0, 0, CLI_SH_NONE },
    { "case", 'c', 0, CLI_ARG_TEXT, "GLOB", "only cases whose ID matches", 0, 0, CLI_SH_NONE },
    { "rule", 'r', 0, CLI_ARG_RULE, "ID", "only cases that cover this rule ID", 0, 0, CLI_SH_NONE },
    CLI_OPT_JOBS("run cases on N threads (output order is the same)"),
    { "tap", 'T', 0, CLI_ARG_FILE, "FILE", "write TAP 13 with YAML diagnostics ('-' = stdout)", 0, 0, CLI_SH_NONE },
    { "junit", 'J', 0, CLI_ARG_FILE, "FILE", "write JUnit XML ('-' = stdout)", 0, 0, CLI_SH_NONE },
    CLI_OPT_JSON("write results, problems, coverage as JSON to stdout (as --json-file -)"),
    { "json-file", 'O', 0, CLI_ARG_FILE, "FILE", "write results, problems, coverage as JSON to FILE ('-' = stdout); `--json FILE` is the old spelling, still read with a note", 0, 0, CLI_SH_NONE },
    { "coverage", 'C', 0, CLI_ARG_NONE, NULL, "print every catalog entry with the cases covering it", 0, 0, CLI_SH_NONE },
    { "save-failing", 'S', 0, CLI_ARG_DIR, "DIR write each failing case's action log as DIR/GAME-CASE.tcgr", "(DIR is created)", 0, 0, CLI_SH_NONE },
    { "schema", 'X', 0, CLI_ARG_DIR, "DIR", "the XSDs (default: PATH/schema or a parent's)", 0, 0, CLI_SH_NONE },
    { "expectations", 'E', 0, CLI_ARG_FILE, "F", "known failures (default: conformance/expectations.xml)", 0, 0, CLI_SH_NONE },
    { "no-replay", 'R', 0, CLI_ARG_NONE, NULL, "do not record and verify each case as a replay", 0, 0, CLI_SH_NONE },
    { "no-invariants", 'I', 0, CLI_ARG_NONE, NULL, "do not check the runner's invariants at every step", 0, 0, CLI_SH_NONE },
    CLI_OPT_ENGINE("run the cases against an external engine: CMD is run by /bin/sh and speaks the engine protocol (conformance/ ADAPTER.md); only its game's cases run, on one thread; a dead, slow or babbling adapter is exit 4"),
    CLI_OPT_ENGINE_TIMEOUT,
    CLI_OPT_QUIET("print only cases that did not pass, and the summary"),
    CLI_OPT_END
};
const cli_spec cli_spec_conform = {
    .name = "conform",
    .summary = "run the XML conformance suite (lint, coverage, TAP/JUnit/JSON)",
    .usage = conform_usage,
    .description =
        "Run the conformance suite (default PATH: $ARBITER_CONFORMANCE, else\n"
        "./conformance/ in a checkout, else the installed suite): every case in a\n"
        "fresh engine instance, with the runner's invariants checked at every step\n"
        "(legal() has no duplicates and every listed action is accepted, rejections\n"
        "change nothing, no event is dropped, a seat's view and narration hide what\n"
        "the rules hide), its action log recorded as a .tcgr and verified.\n"
        "Statuses: PASS FAIL WRONG-RULE ERROR SKIP XFAIL XPASS.\n",
    .opts = conform_opts,
    .notes =
        "With a report on '-', stdout carries that report alone: the per-case lines\n"
        "and the summary go to stderr. Every report lists, besides the cases, one\n"
        "failing entry per file problem and per uncovered catalog entry.\n",
    .exit = "0 green; 1 on FAIL, WRONG-RULE, ERROR, XPASS, an invalid file, or an R/R* catalog entry of a game with an engine that no passing case covers (not checked with --set/--case/--rule or a single FILE); 3 unreadable input, no schema, an unknown --game, or a report that cannot be written; 2 usage, or --set/--case/--rule filters that select no case.",
    .operands = CLI_ARG_FILE,
    .run = cmd_conform,
};

static int conform_main(int argc, char **argv)
{
    arb_conform_options opt = ARB_CONFORM_OPTIONS_INIT;
    const char *tap = NULL, *junit = NULL, *json = NULL, *save = NULL;
    int coverage = 0, quiet = 0, lint = 0, c;
    if (argc > 1 && strcmp(argv[1], "lint") == 0) {
        lint = 1;
        argc--;
        argv++;
    }
    cli_parser p;
    cli_parse_init(&p, &cli_spec_conform, argc, argv);
    while ((c = cli_next(&p)) > 0) {
        switch (c) {
        case 'g': opt.game = p.arg; break;
        case 's': opt.set = p.arg; break;
        case 'c': opt.case_glob = p.arg; break;
        case 'r': opt.rule = p.arg; break;
        case 'j': {
            unsigned long long n;
            if (cli_parse_u64(p.arg, &n) || n < 1 || n > CLI_JOBS_MAX)
                return cli_usage("conform", "--jobs '%s' is not 1..%d", p.arg, CLI_JOBS_MAX);
            opt.jobs = (int)n;
            break;
        }
        case 'T': tap = p.arg; break;
        case 'J': junit = p.arg; break;
        case CLI_ID_JSON: json = "-"; break;
        case 'O': json = p.arg; break;
        case 'S': save = p.arg; break;
        case 'X': opt.schema_dir = p.arg; break;
        case 'E': opt.expectations = p.arg; break;
        case 'C': coverage = 1; break;
        case 'R': opt.replay_check = 0; break;
        case 'I': opt.invariants = 0; break;
        case 'q': quiet = 1; break;
        default: return cli_unhandled(&p);
        }
    }
    if (c < 0) return p.rc;
    int npaths = p.npos;
    const char *const *paths = npaths ? (const char *const *)(p.pos) : NULL;
    if (lint && (tap || junit || json || save || coverage))
        return cli_usage("conform", "lint writes no reports (--tap/--junit/--json/--save-failing/--coverage)");
    int ndash = (tap && !strcmp(tap, "-")) + (junit && !strcmp(junit, "-")) + (json && !strcmp(json, "-"));
    if (ndash > 1) return cli_usage("conform", "only one report can go to stdout ('-')");
    /* A report on stdout owns it: everything for people goes to stderr. */
    FILE *out = ndash ? stderr : stdout;
    if (save && make_dirs(save) != 0) {
        fprintf(stderr, "arbiter conform: cannot create --save-failing directory %s: %s\n", save, strerror(errno));
        return EXIT_INPUT;
    }
    if (engine_games[0]) {
        /* only the adapter's game; the proxy serializes requests: one thread */
        if (opt.game && strcmp(opt.game, engine_games[0]->id) != 0)
            return cli_usage("conform", "--game %s, but the engine adapter serves %s", opt.game, engine_games[0]->id);
        opt.games = engine_games;
        opt.stop = adapter_dead; /* a dead adapter stops the run at the case it died in */
        /* every case on the built-in engine of the game too, and the promises */
        opt.reference = arb_game_find(engine_games[0]->id);
        opt.promises = adapter_promises;
        opt.game = engine_games[0]->id;
        opt.jobs = 1;
    }
    double t0 = now_s();
    arb_conform_suite *s = NULL;
    arb_error err = ARB_ERROR_INIT;
    if (arb_conform_load(&s, paths, (size_t)npaths, &opt, &err)) return cli_fail("conform", &err);
    arb_conform_lint(s);
    if (lint) {
        print_diags(s);
        unsigned nd = arb_conform_ndiags(s);
        printf("conform lint: %u file%s, %u case%s, %u problem%s\n", arb_conform_nfiles(s), ARB_PLURAL(arb_conform_nfiles(s)),
               arb_conform_ncases(s), ARB_PLURAL(arb_conform_ncases(s)), nd, ARB_PLURAL(nd));
        arb_conform_free(s);
        return nd ? EXIT_VERIFY : EXIT_OK;
    }
    if (!arb_conform_ncases(s) && opt.game && !arb_game_find(opt.game)) {
        /* No engine and no case: not a game this build or suite knows. */
        print_diags(s);
        fprintf(stderr, "arbiter conform: unknown game '%s' (known:", opt.game);
        for (unsigned k = 0; k < arb_game_count(); k++) fprintf(stderr, " %s", arb_game_at(k)->id);
        fprintf(stderr, ")\n");
        arb_conform_free(s);
        return EXIT_INPUT;
    }
    if (!arb_conform_ncases(s) && (opt.game || opt.set || opt.case_glob || opt.rule)) {
        /* A filter that selects nothing is almost always a typo in a CI
         * script; a green run over zero cases would hide it. */
        print_diags(s);
        char hint[512] = "";
        if (opt.rule && !arb_conform_run(s, &err)) { /* no case runs: the catalogs' entries */
            arb_near nr;
            arb_near_init(&nr, opt.rule);
            for (unsigned k = 0; k < arb_conform_nentries(s); k++) arb_near_add(&nr, arb_conform_entry_at(s, k)->id);
            arb_near_format(&nr, hint, sizeof hint);
        }
        fprintf(stderr, "arbiter conform: no case matches the filters (--game/--set/--case/--rule)%s\n", hint);
        arb_conform_free(s);
        return EXIT_USAGE;
    }
    if (arb_conform_run(s, &err)) {
        arb_conform_free(s);
        return cli_fail("conform", &err);
    }
    double secs = now_s() - t0;
    print_diags(s);
    unsigned counts[ARB_CF_XPASS + 1] = { 0 }, not_run = 0;
    for (unsigned k = 0; k < arb_conform_nresults(s); k++) {
        const arb_conform_result *r = arb_conform_result_at(s, k);
        counts[r->status]++;
        if (r->not_run) { not_run++; continue; } /* one line below, not one each */
        if (quiet && (r->status == ARB_CF_PASS || r->status == ARB_CF_SKIP)) continue;
        fprintf(out, "%-10s %s/%s/%s", arb_cf_status_name(r->status), r->game, r->set, r->id);
        if (r->status != ARB_CF_PASS) {
            fprintf(out, "\n           %s:%d: %s", r->file, r->at_line > 0 ? r->at_line : r->line, r->message);
            if (r->status == ARB_CF_XFAIL && r->reason) fprintf(out, "\n           known failure: %s", r->reason);
            if (r->status != ARB_CF_SKIP)
                fprintf(out, "\n           case %s:%d covers %s; seed %llu", r->file, r->line, r->covers,
                        (unsigned long long)r->seed);
        }
        fputc('\n', out);
    }
    if (not_run)
        fprintf(out, "conform: the run stopped: %u case%s not run (the engine adapter failed; the ERROR above says where)\n",
                not_run, not_run == 1 ? "" : "s");
    if (coverage) arb_conform_write_coverage(s, out);
    /* Uncovered entries are failures only when the gate applies. */
    unsigned unc = arb_conform_uncovered(s);
    if (unc && arb_conform_gated(s)) {
        for (unsigned k = 0; k < arb_conform_nentries(s); k++) {
            const arb_conform_entry *e = arb_conform_entry_at(s, k);
            if (e->testable && e->engine && !e->npassing && !e->uncovered_reason)
                fprintf(out, "UNCOVERED  %s %s%s%s%s\n", e->game, e->id,
                        e->ncases ? " (no passing case among: " : "", e->ncases ? e->cases : "", e->ncases ? ")" : "");
        }
    }
    int rc = EXIT_OK;
    if (tap && write_report(tap, arb_conform_write_tap, s)) rc = EXIT_INPUT;
    if (junit && write_report(junit, arb_conform_write_junit, s)) rc = EXIT_INPUT;
    if (json && write_report(json, arb_conform_write_json, s)) rc = EXIT_INPUT;
    if (save && cmd_conform_save(s, save, out)) rc = EXIT_INPUT;
    unsigned fails = arb_conform_failures(s);
    fprintf(out,
            "conform: %u case%s: %u PASS, %u FAIL, %u WRONG-RULE, %u ERROR, %u SKIP, %u XFAIL, %u XPASS; "
            "%u uncovered%s; %u file problem%s; %.3f s\n",
            arb_conform_nresults(s), ARB_PLURAL(arb_conform_nresults(s)), counts[ARB_CF_PASS], counts[ARB_CF_FAIL], counts[ARB_CF_WRONG_RULE],
            counts[ARB_CF_ERROR], counts[ARB_CF_SKIP], counts[ARB_CF_XFAIL], counts[ARB_CF_XPASS], unc,
            arb_conform_gated(s) ? "" : " (not gated: partial run)", arb_conform_ndiags(s),
            ARB_PLURAL(arb_conform_ndiags(s)), secs);
    arb_conform_free(s);
    if (rc) return rc;
    return fails ? EXIT_VERIFY : EXIT_OK;
}

/* Each unexpected result of a test case becomes DIR/GAME-CASE.tcgr: the
 * accepted actions up to the failure, from the case's seed or position. */
int cmd_conform_save(const arb_conform_suite *s, const char *dir, FILE *out)
{
    int bad = 0;
    unsigned saved = 0;
    for (unsigned i = 0; i < arb_conform_nresults(s); i++) {
        const arb_conform_result *r = arb_conform_result_at(s, i);
        if (!arb_cf_status_unexpected(r->status) && r->status != ARB_CF_XFAIL) continue;
        char path[4096];
        size_t dl = strlen(dir);
        const char *sep = dl && dir[dl - 1] == '/' ? "" : "/"; /* "judge/" names judge/X, not judge//X */
        snprintf(path, sizeof path, "%s%s%s-%s.tcgr", dir, sep, r->game, r->id);
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
        fprintf(out, "saved      %s\n", path);
    }
    (void)saved;
    return bad ? -1 : 0;
}

static int json_name(const char *s)
{
    size_t n = strlen(s);
    return n > 5 && !strcmp(s + n - 5, ".json");
}

/* --engine CMD and --engine-timeout MS are taken out here (not for lint);
 * the rest is the plain runner over the adapter's proxy game. */
int cmd_conform(int argc, char **argv)
{
    const char *engine = NULL;
    unsigned long long ms = 0;
    char **av = calloc((size_t)argc + 1, sizeof *av);
    if (!av) return EXIT_INTERNAL;
    int ac = 0, lint = argc > 1 && strcmp(argv[1], "lint") == 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        /* the old spelling `--json FILE` (now --json-file FILE) */
        if (i > 0 && (!strncmp(a, "--json=", 7) ||
                      (!strcmp(a, "--json") && i + 1 < argc && (!strcmp(argv[i + 1], "-") || json_name(argv[i + 1]))))) {
            fprintf(stderr, "arbiter conform: note: '--json FILE' is now '--json-file FILE' (--json alone is JSON on stdout)\n");
            av[ac++] = "--json-file";
            av[ac++] = a[6] == '=' ? (char *)a + 7 : argv[++i];
            continue;
        }
        if (i > 0 && (!strcmp(a, "--engine") || !strcmp(a, "--engine-timeout"))) {
            if (i + 1 >= argc) { free(av); return cli_usage("conform", "%s needs a value", a); }
            if (a[8] == '\0') engine = argv[++i];
            else if (cli_parse_u64(argv[++i], &ms) || ms < 1 || ms > 3600000) {
                free(av);
                return cli_usage("conform", "--engine-timeout must be 1..3600000 ms");
            }
            continue;
        }
        av[ac++] = argv[i];
    }
    arb_adapter *ad = NULL;
    if (engine && !lint) {
        int erc = cli_engine_open("conform", engine, NULL, (int)ms, &ad);
        if (erc) { free(av); return erc; }
        engine_games[0] = arb_adapter_game(ad);
    }
    int rc = conform_main(ac, av);
    int erc = cli_engine_check("conform", ad);
    arb_adapter_close(ad);
    engine_games[0] = NULL;
    free(av);
    return erc ? erc : rc;
}
