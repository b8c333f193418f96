/* cmd_perft.c — `arbiter perft --game G --depth N`: the number of legal
 * action sequences of length N from a seeded setup or a position, as chess
 * move generators are checked ("perft"). Random events (draws, shuffles)
 * follow the match's seeded PRNG, so the count is a function of the seed.
 * A sequence that ends the match early is not extended (it is not counted
 * at depth N). --divide prints the count under each first action; --engine
 * counts through an engine adapter, to compare an implementation's move
 * generator with the reference values in conformance/<game>/perft.md. */
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
        "Reference values: conformance/<game>/perft.md.\n",
    .opts = perft_opts,
    .notes =
        "  Start time in the header: SOURCE_DATE_EPOCH when set, else now.\n",
    .exit = "0 counted, 1 an action listed as legal was rejected, 2 usage, 3 bad game, deck or position, 4 the adapter failed.",
    .operands = CLI_ARG_FILE,
    .run = cmd_perft,
};




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
    perft P;
    memset(&P, 0, sizeof P);
    P.m[0] = a.m;
    for (int d = 1; d <= (int)depth && !P.bad; d++)
        if (arb_match_clone(&P.m[d], a.m)) P.bad = 1;
    uint64_t total = 0;
    if (!P.bad && divide && depth > 0) {
        size_t n = list(&P, 0);
        arb_action *first = n ? malloc(n * sizeof *first) : NULL;
        if (n && !first) P.bad = 1;
        else if (n) memcpy(first, P.legal[0], n * sizeof *first);
        for (size_t i = 0; i < n && !P.bad; i++) {
            /* the first level by hand, so each first action gets its line */
            arb_match_copy(P.m[1], P.m[0]);
            arb_error e = ARB_ERROR_INIT;
            char t[96];
            arb_action_format(a.g, &first[i], t, sizeof t);
            if (arb_match_apply(P.m[1], &first[i], &e)) {
                snprintf(P.why, sizeof P.why, "listed action '%s' at depth 1 was rejected: %s", t, e.msg);
                P.bad = 1;
                break;
            }
            uint64_t k = count(&P, 1, (int)depth);
            printf("%s: %" PRIu64 "\n", t, k);
            total += k;
        }
        free(first);
    } else if (!P.bad) {
        total = count(&P, 0, (int)depth);
    }
    int erc = cli_engine_check("perft", ad);
    if (!erc && P.bad) {
        fprintf(stderr, "arbiter perft: %s\n", P.why[0] ? P.why : "out of memory");
        rc = P.why[0] ? EXIT_VERIFY : EXIT_INTERNAL;
    } else if (!erc) {
        printf("perft %s depth %llu: %" PRIu64 "\n", a.g->id, depth, total);
    }
    for (int d = 1; d <= PERFT_DEPTH_MAX; d++) arb_match_free(P.m[d]);
    for (int d = 0; d <= PERFT_DEPTH_MAX; d++) free(P.legal[d]);
    arb_match_free(a.m);
    cli_match_args_free(&a);
    arb_adapter_close(ad);
    return erc ? erc : rc;
}
