/* cmd_diff.c — `arbiter diff A B`: the first record where two replays of the
 * same game differ and the state differences there, field by field. */
#include <inttypes.h>
#include <string.h>

#include "cli/cli.h"

static void print_value(const arb_tnode *n)
{
    char buf[256];
    if (!n || n->kind == ARB_T_NULL) fputs("(absent)", stdout);
    else if (n->kind == ARB_T_ARR || n->kind == ARB_T_MAP) arb_tnode_json(n, stdout, 0);
    else if (n->kind == ARB_T_STR) cli_json_str(stdout, n->s);
    else fputs(arb_tnode_text(n, buf, sizeof buf), stdout);
}

static void print_diffs(const arb_tnode *arr, const char *indent)
{
    for (const arb_tnode *e = arr ? arr->first : NULL; e; e = e->next) {
        printf("%s%s: ", indent, cli_esc(arb_tnode_get(e, "path")->s));
        print_value(arb_tnode_get(e, "a"));
        fputs("  →  ", stdout);
        print_value(arb_tnode_get(e, "b"));
        putchar('\n');
    }
}

static const char *const diff_usage[] = {
    "diff A B [--json]",
    NULL
};
static const cli_opt diff_opts[] = {
    CLI_OPT_JSON("{a, b, identical, record, what, detail, header:[{path,a,b}], a_record, b_record, engine_hash, state:{compared, note, differences:[{path,a,b}], count, hash_a, hash_b}}"),
    CLI_OPT_END
};
const cli_spec cli_spec_diff = {
    .name = "diff",
    .summary = "first difference between two replays of a game",
    .usage = diff_usage,
    .description =
        "Compare two replays of the same game (say a player's client log and the\n"
        "server's): the header field by field (the start time is ignored), then the\n"
        "records in order. Reports the first record that differs (header, action,\n"
        "clock, checkpoint, outcome, length) and, when both sides replay, the state\n"
        "differences at that point, field by field, after each side's record.\n",
    .opts = diff_opts,
    .notes =
        "Records are compared up to the first one `arbiter verify` refuses on both\n"
        "(\"diverged\" in --json, noted on stderr, exit 1): no further.\n",
    .exit = "0 identical, 1 they differ or both diverge, 2 usage, 3 missing/corrupt file.",
    .operands = CLI_ARG_FILE,
    .run = cmd_diff,
};




int cmd_diff(int argc, char **argv)
{
    int json = 0, c;
    cli_parser p;
    cli_parse_init(&p, &cli_spec_diff, argc, argv);
    while ((c = cli_next(&p)) > 0) {
        switch (c) {
        case CLI_ID_JSON: json = 1; break;
        default: return cli_unhandled(&p);
        }
    }
    if (c < 0) return p.rc;
    if (p.npos != 2) return cli_usage("diff", "two replay files are required");
    arb_an_source *a, *b;
    int ec = cli_an_open("diff", p.pos[0], &a);
    if (ec) return ec;
    ec = cli_an_open("diff", p.pos[1], &b);
    if (ec) {
        arb_an_source_free(a);
        return ec;
    }
    arb_an_diff d;
    arb_error err = ARB_ERROR_INIT;
    int rc = arb_an_diff_run(a, b, &d, &err);
    arb_an_source_free(a);
    arb_an_source_free(b);
    if (rc) {
        arb_tree_free(d.tree);
        return cli_fail("diff", &err);
    }
    const arb_tnode *root = arb_tree_root(d.tree);
    if (json) {
        arb_tnode_json(root, stdout, 2);
        fputc('\n', stdout);
    } else if (!d.differ && d.diverged >= 0) {
        printf("A: %s\nB: %s\nthe same up to record #%" PRId64 ", which `arbiter verify` refuses on both: not compared "
               "further\n", cli_esc(p.pos[0]), cli_esc(p.pos[1]), d.diverged);
    } else if (!d.differ) {
        printf("identical: %s and %s\n", cli_esc(p.pos[0]), cli_esc(p.pos[1]));
    } else {
        printf("A: %s\nB: %s\n", cli_esc(p.pos[0]), cli_esc(p.pos[1]));
        if (d.record < 0) printf("first difference: header\n");
        else printf("first difference: record #%" PRId64 " (%s)\n", d.record, d.what);
        const arb_tnode *hd = arb_tnode_get(root, "header");
        if (hd && hd->n) {
            printf("header fields (A → B):\n");
            print_diffs(hd, "  ");
        }
        const arb_tnode *ra = arb_tnode_get(root, "a_record"), *rb = arb_tnode_get(root, "b_record");
        if (ra) printf("  A: %s\n  B: %s\n", ra->s, rb ? rb->s : "");
        const arb_tnode *eh = arb_tnode_get(root, "engine_hash");
        if (eh) printf("  the engine computes %s at this point\n", eh->s);
        const arb_tnode *st = arb_tnode_get(root, "state");
        if (st && arb_tnode_get(st, "compared")->i) {
            const arb_tnode *note = arb_tnode_get(st, "note");
            int64_t cnt = arb_tnode_get(st, "count")->i;
            printf("state differences (%s): %" PRId64 "\n", note ? note->s : "", cnt);
            print_diffs(arb_tnode_get(st, "differences"), "  ");
            const arb_tnode *list = arb_tnode_get(st, "differences");
            if (cnt > (int64_t)list->n) printf("  … %" PRId64 " more\n", cnt - (int64_t)list->n);
        } else if (st) {
            const arb_tnode *why = arb_tnode_get(st, "reason");
            printf("states not compared: %s\n", why ? why->s : "");
        }
    }
    int differ = d.differ;
    if (d.diverged >= 0) {
        char w[ARB_MSG_MAX + ARB_WHERE_MAX + ARB_RULE_MAX + 8];
        arb_error_format(&d.divergence, w, sizeof w);
        fprintf(stderr, "arbiter diff: %s\narbiter diff: compared up to record %" PRId64 ", which `arbiter verify` "
                "refuses; nothing after it is read\n", cli_esc(w), d.diverged);
    }
    arb_tree_free(d.tree);
    return differ || d.diverged >= 0 ? EXIT_VERIFY : EXIT_OK;
}
