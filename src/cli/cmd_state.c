/* cmd_state.c — `arbiter state FILE --at N`: the state after record N, full
 * or as one seat sees it, as JSON or as an indented listing. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

static int all_scalars(const arb_tnode *n)
{
    for (const arb_tnode *c = n->first; c; c = c->next)
        if (c->kind == ARB_T_ARR || c->kind == ARB_T_MAP) return 0;
    return 1;
}

static void inline_node(const arb_tnode *n, FILE *out)
{
    char buf[256];
    if (n->kind == ARB_T_ARR || n->kind == ARB_T_MAP) {
        fputc(n->kind == ARB_T_ARR ? '[' : '{', out);
        for (const arb_tnode *c = n->first; c; c = c->next) {
            if (c != n->first) fputs(", ", out);
            if (n->kind == ARB_T_MAP) fprintf(out, "%s: ", cli_esc(c->key));
            inline_node(c, out);
        }
        fputc(n->kind == ARB_T_ARR ? ']' : '}', out);
    } else if (n->kind == ARB_T_STR) {
        cli_json_str(out, n->s);
    } else {
        arb_text_put(out, arb_tnode_text(n, buf, sizeof buf));
    }
}

/* Maps one field a line; lists of scalars and small flat maps on one line,
 * so that a hand or a card reads as a unit. */
static void print_node(const arb_tnode *n, FILE *out, int depth)
{
    unsigned idx = 0;
    for (const arb_tnode *c = n->first; c; c = c->next) {
        fprintf(out, "%*s", depth * 2, "");
        if (n->kind == ARB_T_MAP) fprintf(out, "%s:", cli_esc(c->key));
        else if (c->kind == ARB_T_ARR || c->kind == ARB_T_MAP) fprintf(out, "- #%u", idx);
        else fputs("-", out);
        idx++;
        if ((c->kind == ARB_T_ARR || c->kind == ARB_T_MAP) && !(all_scalars(c) && c->n <= 12)) {
            fprintf(out, "%s\n", c->kind == ARB_T_ARR ? (c->n ? "" : " []") : "");
            print_node(c, out, depth + 1);
        } else {
            fputc(' ', out);
            inline_node(c, out);
            fputc('\n', out);
        }
    }
}

static int show_state(arb_an_source *src, const char *path, int64_t n, int view, int json, int many);

static const char *const state_usage[] = {
    "state FILE --at N[,N...] [--as SEAT] [--json]",
    NULL
};
static const cli_opt state_opts[] = {
    { "at", 'n', 'n', CLI_ARG_TEXT, "N", "a record index (0-based), 'setup' (before record 0) or 'last'; a comma list N,M,... shows each in turn (with --json one compact document a line)", 0, 0, CLI_SH_NONE },
    { "as", 'a', 'a', CLI_ARG_SEAT, "SEAT", "that seat's view (0-based number or P1..P4)", 0, 0, CLI_SH_NONE },
    CLI_OPT_JSON("{file, game, record, records, truncated, turn, phase, clock_ms, clock, decision:{seat,kind,clock_left_ms}, outcome, view, hash, state:{…}}"),
    CLI_OPT_END
};
const cli_spec cli_spec_state = {
    .name = "state",
    .summary = "the state after record N (--at N [--as SEAT] [--json])",
    .usage = state_usage,
    .description =
        "The full state after record N: every zone, counter and the pending\n"
        "decision, as the engine exports it (the same tree conformance cases\n"
        "assert on), or only what SEAT could see. Costs one replay from the start.\n",
    .opts = state_opts,
    .notes =
        "A truncated replay is read up to its last complete record, shown, and\n"
        "noted on stderr; the command then exits 3.\n"
        "A replay is shown up to the first record `arbiter verify` refuses: that\n"
        "record's state carries \"diverged\" (noted on stderr, exit 1); a later N\n"
        "is refused (exit 1).\n",
    .exit = "0 shown, 1 the replay diverges at or before N, 2 usage, 3 missing/corrupt/truncated file or N past the end.",
    .operands = CLI_ARG_FILE,
    .run = cmd_state,
};




int cmd_state(int argc, char **argv)
{
    const char *at = NULL, *as = NULL;
    int json = 0, c;
    cli_parser p;
    cli_parse_init(&p, &cli_spec_state, argc, argv);
    while ((c = cli_next(&p)) > 0) {
        switch (c) {
        case 'n':
            if (at) return cli_usage("state", "--at is given twice (use one --at N,M,… list)");
            at = p.arg;
            break;
        case 'a': as = p.arg; break;
        case CLI_ID_JSON: json = 1; break;
        default: return cli_unhandled(&p);
        }
    }
    if (c < 0) return p.rc;
    if (p.npos < 1) return cli_usage("state", "a replay FILE is required");
    if (p.npos > 1) return cli_usage("state", "unexpected argument '%s'", p.pos[1]);
    if (!at) return cli_usage("state", "--at N is required");
    /* --at N or a comma list N,M,…: one state each, one replay walk each. */
    size_t nat = 1;
    for (const char *q = at; *q; q++) nat += *q == ',';
    int64_t *ns = malloc(nat * sizeof *ns);
    if (!ns) return cli_usage("state", "out of memory for --at");
    size_t k = 0;
    for (const char *q = at;; k++) {
        size_t len = strcspn(q, ",");
        char item[32];
        if (len == 0 || len >= sizeof item) {
            free(ns);
            return cli_usage("state", "--at wants record indexes (0..%lld), 'setup' or 'last', comma-separated; "
                             "item %zu of '%s' is %s", (long long)INT64_MAX - 1, k + 1, at, len ? "too long" : "empty");
        }
        memcpy(item, q, len);
        item[len] = 0;
        if (!strcmp(item, "last") || !strcmp(item, "end")) ns[k] = INT64_MAX;
        else if (!strcmp(item, "setup")) ns[k] = -1;
        else {
            uint64_t v;
            if (cli_parse_num(item, 0, INT64_MAX - 1, &v)) {
                free(ns);
                return cli_usage("state", "--at wants a record index (0..%lld), 'setup' or 'last', not '%s'",
                                 (long long)INT64_MAX - 1, item);
            }
            ns[k] = (int64_t)v;
        }
        if (!q[len]) break;
        q += len + 1;
    }
    const char *path = p.pos[0];
    arb_an_source *src;
    int ec = cli_an_open("state", path, &src);
    if (ec) { free(ns); return ec; }
    int view = ARB_VIEW_ALL;
    if (as) {
        int players = arb_an_source_header(src)->players;
        view = cli_an_seat(as, players);
        if (view == -3) {
            arb_an_source_free(src);
            free(ns);
            return cli_usage("state", "--as wants a seat of this %d-player match (0..%d or P1..P%d), not '%s'", players,
                             players - 1, players, as);
        }
    }
    /* A fresh source for each state: a walk leaves the source where it
     * stopped, and a second walk over it does not start clean. */
    int rc = show_state(src, path, ns[0], view, json, nat > 1);
    arb_an_source_free(src);
    for (size_t i = 1; i < nat && rc == EXIT_OK; i++) {
        if ((rc = cli_an_open("state", path, &src))) break;
        rc = show_state(src, path, ns[i], view, json, 1);
        arb_an_source_free(src);
    }
    free(ns);
    return rc;
}

/* One state: as an indented JSON document (one compact line each when
 * several were asked for) or as the listing. */
static int show_state(arb_an_source *src, const char *path, int64_t n, int view, int json, int many)
{
    arb_error err = ARB_ERROR_INIT;
    arb_tree *t;
    int rc = arb_an_state(src, n, view, &t, &err);
    if (rc) return cli_fail("state", &err);
    const arb_tnode *root = arb_tree_root(t);
    int truncated = arb_tnode_get(root, "truncated")->i != 0;
    const arb_tnode *dv = arb_tnode_get(root, "diverged");
    int diverged = dv != NULL;
    if (dv)
        fprintf(stderr, "arbiter state: %s\narbiter state: record %" PRId64 " is the last shown: `arbiter verify` "
                "refuses it and nothing after it is read\n", cli_esc(arb_tnode_get(dv, "error")->s),
                arb_tnode_get(root, "record")->i);
    if (truncated)
        fprintf(stderr, "arbiter state: %s: truncated replay, read up to its last complete record (%" PRId64
                " records)\n", path, arb_tnode_get(root, "records")->i);
    if (json) {
        arb_tnode_json(root, stdout, many ? 0 : 2);
        fputc('\n', stdout);
    } else {
        char buf[64];
        const arb_tnode *rec = arb_tnode_get(root, "record");
        if (rec->i < 0) printf("%s: after setup", cli_esc(path));
        else printf("%s: after record #%" PRId64, cli_esc(path), rec->i);
        printf(" — turn %s, phase %s, clock %s", arb_tnode_text(arb_tnode_get(root, "turn"), buf, sizeof buf),
               arb_tnode_get(root, "phase")->s, arb_tnode_get(root, "clock")->s);
        if (view != ARB_VIEW_ALL) printf(", as seen by P%d", view + 1);
        putchar('\n');
        const arb_tnode *d = arb_tnode_get(root, "decision");
        int64_t ds = arb_tnode_get(d, "seat")->i;
        if (ds == ARB_SEAT_NONE) printf("decision: none (the match is over)\n");
        else printf("decision: %s owes '%s'\n", arb_an_seat_name((int)ds, buf, sizeof buf), arb_tnode_get(d, "kind")->s);
        const arb_tnode *o = arb_tnode_get(root, "outcome");
        if (arb_tnode_get(o, "over")->i) {
            int64_t w = arb_tnode_get(o, "winner")->i;
            printf("outcome: %s%s (%s)\n", w >= 0 ? arb_an_seat_name((int)w, buf, sizeof buf) : "draw", w >= 0 ? " wins" : "",
                   cli_esc(arb_tnode_get(o, "reason")->s));
        }
        const arb_tnode *rj = arb_tnode_get(root, "rejected");
        if (rj) printf("note: record #%" PRId64 " was rejected by the engine: %s %s\n", rec->i,
                       cli_esc(arb_tnode_get(rj, "rule")->s), cli_esc(arb_tnode_get(rj, "msg")->s));
        const arb_tnode *h = arb_tnode_get(root, "hash");
        if (h) printf("hash: %s\n", h->s);
        printf("state:\n");
        print_node(arb_tnode_get(root, "state"), stdout, 1);
    }
    arb_tree_free(t);
    return diverged ? EXIT_VERIFY : truncated ? EXIT_INPUT : EXIT_OK; /* shown up to the divergence (1) or the cut (3) */
}
