/* cmd_perft.c — `arbiter perft --game G --depth N`: the number of legal
 * action sequences of length N from a seeded setup or a position, as chess
 * move generators are checked ("perft"). Random events (draws, shuffles)
 * follow the match's seeded PRNG, so the count is a function of the seed.
 * A sequence that ends the match early is not extended (it is not counted
 * at depth N). --divide prints the count under each first action; --engine
 * counts through an engine adapter and compares the count with the
 * built-in engine of the same game from the same start (exit 1 and the
 * first actions whose counts differ when they do); the reference values are
 * in conformance/<game>/perft.md. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/adapter.h"
#include "cli/match_args.h"

#define PERFT_DEPTH_MAX 8

typedef struct perft {
    arb_match *m[PERFT_DEPTH_MAX + 1];
    arb_action *legal[PERFT_DEPTH_MAX + 1];
    size_t cap[PERFT_DEPTH_MAX + 1];
    int bad;
    char why[ARB_MSG_MAX + ARB_RULE_MAX + ARB_WHERE_MAX + 160];
} perft;

static size_t list(perft *P, int d)
{
    size_t n = arb_match_legal(P->m[d], P->legal[d], P->cap[d]);
    if (n > P->cap[d]) {
        arb_action *p = realloc(P->legal[d], n * sizeof *p);
        if (!p) { P->bad = 1; return 0; }
        P->legal[d] = p;
        P->cap[d] = n;
        n = arb_match_legal(P->m[d], P->legal[d], P->cap[d]);
    }
    return n;
}

static uint64_t count(perft *P, int d, int depth)
{
    arb_outcome o;
    if (d == depth) return 1;
    if (arb_match_outcome(P->m[d], &o)) return 0;
    size_t n = list(P, d);
    uint64_t total = 0;
    for (size_t i = 0; i < n && !P->bad; i++) {
        arb_match_copy(P->m[d + 1], P->m[d]);
        arb_error e = ARB_ERROR_INIT;
        if (arb_match_apply(P->m[d + 1], &P->legal[d][i], &e)) {
            char t[64], eb[ARB_MSG_MAX + ARB_RULE_MAX + ARB_WHERE_MAX + 8];
            arb_action_format(arb_match_game(P->m[d]), &P->legal[d][i], t, sizeof t);
            arb_error_format(&e, eb, sizeof eb);
            snprintf(P->why, sizeof P->why, "listed action '%s' at depth %d was rejected: %s", t, d + 1, eb);
            P->bad = 1;
            return total;
        }
        total += count(P, d + 1, depth);
    }
    return total;
}

static const char *const perft_usage[] = {
    "perft --game G [--seed S] [--players N] [--decks D,…] [--position FILE] --depth N [--divide] [--engine CMD]",
    NULL
};
static const cli_opt perft_opts[] = {
    CLI_MATCH_OPTS,
    { "depth", 'D', 0, CLI_ARG_TEXT, "N", "sequence length, 0..8", 0, 0, CLI_SH_NONE },
    { "divide", 'v', 0, CLI_ARG_NONE, NULL, "the count under each first action, then the total", 0, 0, CLI_SH_NONE },
    CLI_OPT_ENGINE("count through an engine adapter (conformance/ADAPTER.md)"),
    CLI_OPT_ENGINE_TIMEOUT,
    CLI_OPT_END
};
const cli_spec cli_spec_perft = {
    .name = "perft",
    .summary = "count legal action sequences of length N (move-generator check)",
    .usage = perft_usage,
    .description =
        "Count the legal action sequences of length N from the seeded setup (default\n"
        "seed 1, the game's preset decks) or from a position. Random events follow\n"
        "the seed; a sequence that ends the match before N actions is not counted.\n"
        "With --engine the count is compared with the built-in engine of the same\n"
        "game from the same start: exit 1 when they differ, naming the first actions\n"
        "whose counts differ (with --divide). Reference values:\n"
        "conformance/<game>/perft.md.\n",
    .opts = perft_opts,
    .notes =
        "  Start time in the header: SOURCE_DATE_EPOCH when set, else now.\n",
    .exit = "0 counted, 1 an action listed as legal was rejected, or --engine counts otherwise than the built-in engine of "
            "the same game, 2 usage, 3 bad game, deck or position, 4 the adapter failed.",
    .operands = CLI_ARG_FILE,
    .run = cmd_perft,
};




/* One perft run over a started match: the total, and with divide the
 * count under each first action (printed when print is set). */
typedef struct pf_line {
    char act[96];
    uint64_t n;
} pf_line;

typedef struct pf_run {
    uint64_t total;
    pf_line *lines;
    size_t nlines;
    perft P;
} pf_run;

static void pf_free(pf_run *R)
{
    for (int d = 1; d <= PERFT_DEPTH_MAX; d++) arb_match_free(R->P.m[d]);
    for (int d = 0; d <= PERFT_DEPTH_MAX; d++) free(R->P.legal[d]);
    free(R->lines);
}

static void pf_go(pf_run *R, arb_match *m, int depth, int divide, int print)
{
    perft *P = &R->P;
    P->m[0] = m;
    for (int d = 1; d <= depth && !P->bad; d++)
        if (arb_match_clone(&P->m[d], m)) P->bad = 1;
    if (P->bad) return;
    if (!divide || depth == 0) {
        R->total = count(P, 0, depth);
        return;
    }
    size_t n = list(P, 0);
    arb_action *first = n ? malloc(n * sizeof *first) : NULL;
    R->lines = n ? calloc(n, sizeof *R->lines) : NULL;
    if (n && (!first || !R->lines)) { P->bad = 1; free(first); return; }
    if (n) memcpy(first, P->legal[0], n * sizeof *first);
    for (size_t i = 0; i < n && !P->bad; i++) {
        /* the first level by hand, so each first action gets its line */
        arb_match_copy(P->m[1], P->m[0]);
        arb_error e = ARB_ERROR_INIT;
        pf_line *L = &R->lines[R->nlines];
        arb_action_format(arb_match_game(m), &first[i], L->act, sizeof L->act);
        if (arb_match_apply(P->m[1], &first[i], &e)) {
            snprintf(P->why, sizeof P->why, "listed action '%s' at depth 1 was rejected: %s", L->act, e.msg);
            P->bad = 1;
            break;
        }
        L->n = count(P, 1, depth);
        if (print) printf("%s: %" PRIu64 "\n", L->act, L->n);
        R->total += L->n;
        R->nlines++;
    }
    free(first);
}

/* --engine against the compiled-in engine of the same game, from the same
 * setup: a move generator that counts otherwise is wrong somewhere below
 * the first differing action. Returns EXIT_VERIFY when they differ. */
static int pf_compare(int argc, char **argv, const arb_game *eg, const pf_run *E, unsigned long long depth,
                      int divide)
{
    const arb_game *ref = arb_game_find(eg->id);
    if (!ref) return 0; /* no built-in engine: perft.md is the reference */
    cli_match_args b;
    memset(&b, 0, sizeof b);
    b.no_record = 1;
    b.level = -1;
    cli_parser p;
    int c;
    cli_parse_init(&p, &cli_spec_perft, argc, argv);
    while ((c = cli_next(&p)) > 0) (void)cli_match_arg(&b, "perft", c, p.arg);
    if (!b.have_seed) { b.seed = 1; b.have_seed = 1; }
    if (cli_match_start(&b, "perft")) { cli_match_args_free(&b); return EXIT_INTERNAL; }
    pf_run R;
    memset(&R, 0, sizeof R);
    pf_go(&R, b.m, (int)depth, divide, 0);
    int rc = 0;
    if (R.P.bad) {
        fprintf(stderr, "arbiter perft: the built-in %s engine could not count: %s\n", ref->id,
                R.P.why[0] ? R.P.why : "out of memory");
        rc = EXIT_INTERNAL;
    } else if (R.total != E->total) {
        fprintf(stderr, "arbiter perft: the engine counts %" PRIu64 " sequences of depth %llu, the built-in %s engine %"
                PRIu64 ": they differ\n", E->total, depth, ref->id, R.total);
        /* by action text, not position: the two may list in other orders */
        for (size_t i = 0; i < E->nlines; i++) {
            size_t k = 0;
            while (k < R.nlines && strcmp(E->lines[i].act, R.lines[k].act) != 0) k++;
            if (k == R.nlines) fprintf(stderr, "  %s: listed by the engine only\n", E->lines[i].act);
            else if (E->lines[i].n != R.lines[k].n)
                fprintf(stderr, "  %s: engine %" PRIu64 ", built-in %" PRIu64 "\n", E->lines[i].act, E->lines[i].n,
                        R.lines[k].n);
        }
        for (size_t k = 0; k < R.nlines; k++) {
            size_t i = 0;
            while (i < E->nlines && strcmp(E->lines[i].act, R.lines[k].act) != 0) i++;
            if (i == E->nlines) fprintf(stderr, "  %s: listed by the built-in engine only\n", R.lines[k].act);
        }
        if (!divide) fprintf(stderr, "  (--divide names the first actions whose counts differ)\n");
        rc = EXIT_VERIFY;
    }
    pf_free(&R);
    arb_match_free(b.m);
    cli_match_args_free(&b);
    return rc;
}

int cmd_perft(int argc, char **argv)
{
    cli_match_args a;
    memset(&a, 0, sizeof a);
    a.no_record = 1;
    a.level = -1;
    unsigned long long depth = 0, tmo = 0;
    int divide = 0, c, have_depth = 0;
    const char *engine = NULL;
    cli_parser p;
    cli_parse_init(&p, &cli_spec_perft, argc, argv);
    while ((c = cli_next(&p)) > 0) {
        int r = cli_match_arg(&a, "perft", c, p.arg);
        if (r == 0) continue;
        if (r > 0) return r;
        switch (c) {
        case 'D':
            if (cli_parse_u64(p.arg, &depth) || depth > PERFT_DEPTH_MAX)
                return cli_usage("perft", "--depth must be 0..%d", PERFT_DEPTH_MAX);
            have_depth = 1;
            break;
        case 'v': divide = 1; break;
        case CLI_ID_ENGINE: engine = p.arg; break;
        case CLI_ID_ENGINE_TIMEOUT:
            if (cli_parse_u64(p.arg, &tmo) || tmo < 1 || tmo > 3600000)
                return cli_usage("perft", "--engine-timeout must be 1..3600000 ms");
            break;
        default: return cli_unhandled(&p);
        }
    }
    if (c < 0) return p.rc;
    if (p.npos > 0) return cli_usage("perft", "unexpected argument '%s'", p.pos[0]);
    if (!have_depth) return cli_usage("perft", "--depth N is required");
    if (!a.have_seed) { a.seed = 1; a.have_seed = 1; }
    arb_adapter *ad = NULL;
    if (engine) {
        int erc = cli_engine_open("perft", engine, a.game, (int)tmo, &ad);
        if (erc) return erc;
        a.engine = arb_adapter_game(ad);
    }
    int rc = cli_match_start(&a, "perft");
    if (rc) { cli_match_args_free(&a); arb_adapter_close(ad); return rc; }
    pf_run R;
    memset(&R, 0, sizeof R);
    pf_go(&R, a.m, (int)depth, divide, 1);
    int erc = cli_engine_check("perft", ad);
    if (!erc && R.P.bad) {
        fprintf(stderr, "arbiter perft: %s\n", R.P.why[0] ? R.P.why : "out of memory");
        rc = R.P.why[0] ? EXIT_VERIFY : EXIT_INTERNAL;
    } else if (!erc) {
        printf("perft %s depth %llu: %" PRIu64 "\n", a.g->id, depth, R.total);
        fflush(stdout);
        if (engine) rc = pf_compare(argc, argv, a.g, &R, depth, divide);
    }
    pf_free(&R);
    arb_match_free(a.m);
    cli_match_args_free(&a);
    arb_adapter_close(ad);
    return erc ? erc : rc;
}
