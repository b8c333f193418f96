/* cmdtab.c — the option parser every subcommand runs, built from its spec
 * (cli/cmdtab.h): long and short options, "--name=value", numbers checked
 * against the table's range, operands collected in order, --help, and
 * usage errors with did-you-mean; subcommand dispatch. */
#include <string.h>

#include "cli/cli.h"

void cli_parse_init(cli_parser *p, const cli_spec *s, int argc, char **argv)
{
    memset(p, 0, sizeof *p);
    p->spec = s;
    p->argc = argc;
    p->argv = argv;
    p->i = 1;
    p->pos = argv + 1;
    p->rc = EXIT_OK;
}

static int stop(cli_parser *p, int rc)
{
    p->rc = rc;
    return -1;
}

const char *cli_optname(const cli_parser *p)
{
    static char buf[80];
    if (!p->opt) return "?";
    snprintf(buf, sizeof buf, "--%s", p->opt->name);
    return buf;
}

/* An unknown option: its name (escaped) and the nearest long names. */
static int unknown_option(cli_parser *p, const char *word)
{
    char name[72];
    size_t n = strcspn(word, "=");
    snprintf(name, sizeof name, "%.*s", (int)(n < 64 ? n : 64), word);
    const char *bare = name;
    while (*bare == '-') bare++;
    arb_near nr;
    arb_near_init(&nr, bare);
    for (const cli_opt *o = p->spec->opts; o && o->name; o++) arb_near_add(&nr, o->name);
    arb_near_add(&nr, "help");
    char shown[ARB_NEAR_LEN * 4 + 8], hint[3 * (ARB_NEAR_LEN + 8) + 32] = "";
    size_t k = 0;
    for (unsigned i = 0; i < nr.n && k < sizeof hint; i++)
        k += (size_t)snprintf(hint + k, sizeof hint - k, "%s'--%s'",
                              i == 0          ? "; did you mean "
                              : i + 1 == nr.n ? " or "
                                              : ", ",
                              nr.best[i]);
    if (nr.n && k < sizeof hint) snprintf(hint + k, sizeof hint - k, "?");
    return stop(p, cli_usage(p->spec->name, "unknown option '%s'%s", arb_text_escape(shown, sizeof shown, name), hint));
}

static int take_value(cli_parser *p, const cli_opt *o, const char *inline_val, const char *written)
{
    if (inline_val) {
        p->arg = inline_val;
    } else {
        if (p->i >= p->argc)
            return stop(p, cli_usage(p->spec->name, "%s needs %s", written, o->argname ? o->argname : "a value"));
        p->arg = p->argv[p->i++];
    }
    if (o->arg == CLI_ARG_INT) {
        uint64_t hi = o->hi ? o->hi : UINT64_MAX;
        if (cli_parse_num(p->arg, o->lo, hi, &p->num)) {
            char shown[128];
            arb_text_escape(shown, sizeof shown, p->arg);
            if (o->hi)
                return stop(p, cli_usage(p->spec->name, "--%s '%s' is not %llu..%llu", o->name, shown,
                                         (unsigned long long)o->lo, (unsigned long long)o->hi));
            return stop(p, cli_usage(p->spec->name, "--%s '%s' is not a number", o->name, shown));
        }
    }
    return o->id;
}

static void add_operand(cli_parser *p, char *a)
{
    /* operands move to the front; every slot before p->i is consumed */
    p->pos[p->npos++] = a;
}

int cli_next(cli_parser *p)
{
    p->arg = NULL;
    p->opt = NULL;
    p->num = 0;
    while (p->i < p->argc) {
        char *a = p->argv[p->i++];
        if (p->dashdash || a[0] != '-' || a[1] == '\0') {
            add_operand(p, a);
            continue;
        }
        if (a[1] == '-' && a[2] == '\0') {
            p->dashdash = 1;
            continue;
        }
        if (a[1] == '-') {
            const char *eq = strchr(a + 2, '=');
            size_t n = eq ? (size_t)(eq - (a + 2)) : strlen(a + 2);
            if (n == 4 && !strncmp(a + 2, "help", 4)) {
                cli_spec_help(p->spec, stdout);
                return stop(p, EXIT_OK);
            }
            for (const cli_opt *o = p->spec->opts; o && o->name; o++) {
                if (strlen(o->name) != n || strncmp(o->name, a + 2, n)) continue;
                p->opt = o;
                if (o->arg == CLI_ARG_NONE) {
                    if (eq) return stop(p, cli_usage(p->spec->name, "--%s takes no value", o->name));
                    return o->id;
                }
                return take_value(p, o, eq ? eq + 1 : NULL, cli_optname(p));
            }
            return unknown_option(p, a);
        }
        /* one short option (no bundling: every short flag stands alone) */
        if (a[1] == 'h' && a[2] == '\0') {
            cli_spec_help(p->spec, stdout);
            return stop(p, EXIT_OK);
        }
        for (const cli_opt *o = p->spec->opts; o && o->name; o++) {
            if (!o->shortc || o->shortc != a[1]) continue;
            p->opt = o;
            if (o->arg == CLI_ARG_NONE) {
                if (a[2]) break;
                return o->id;
            }
            return take_value(p, o, a[2] ? a + 2 : NULL, cli_optname(p));
        }
        return unknown_option(p, a);
    }
    return 0;
}

int cli_unhandled(const cli_parser *p)
{
    fprintf(stderr, "arbiter %s: internal: option %s is declared but not handled\n", p->spec->name, cli_optname(p));
    return EXIT_INTERNAL;
}

const cli_spec *cli_spec_find(const cli_spec *const *specs, const char *name)
{
    const char *sp;
    for (; specs && *specs; specs++) {
        /* a subcommand's spec is named "parent sub" */
        const char *n = (sp = strrchr((*specs)->name, ' ')) ? sp + 1 : (*specs)->name;
        if (!strcmp(n, name)) return *specs;
    }
    return NULL;
}

char *cli_spec_near(const cli_spec *const *specs, const char *name, char *buf, size_t size)
{
    arb_near nr;
    arb_near_init(&nr, name);
    for (; specs && *specs; specs++)
        if (!(*specs)->hidden) {
            const char *sp = strrchr((*specs)->name, ' ');
            arb_near_add(&nr, sp ? sp + 1 : (*specs)->name);
        }
    return arb_near_format(&nr, buf, size);
}

int cli_sub_unknown(const cli_spec *s, const char *name)
{
    char shown[128], hint[512];
    cli_spec_near(s->subs, name, hint, sizeof hint);
    return cli_usage(s->name, "unknown subcommand '%s'%s", arb_text_escape(shown, sizeof shown, name), hint);
}

int cli_sub_run(const cli_spec *s, int argc, char **argv)
{
    if (argc < 2) {
        cli_spec_help(s, stderr);
        return EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        cli_spec_help(s, stdout);
        return EXIT_OK;
    }
    const cli_spec *sub = cli_spec_find(s->subs, argv[1]);
    if (!sub) return cli_sub_unknown(s, argv[1]);
    return sub->run(argc - 1, argv + 1);
}
