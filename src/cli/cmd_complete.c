/* cmd_complete.c — the hidden commands the shell completions and the man
 * page build run, both answered from the command table: `arbiter
 * __complete WORD…` prints the candidates for the last WORD (the words
 * after `arbiter` up to the cursor; one per line, "@files"/"@dirs" for the
 * shell's own file completion; with --describe "name:summary" lines for
 * zsh), `arbiter __man CMD` the roff page of CMD, `arbiter __man --list`
 * the commands that have one. */
#include <stdlib.h>
#include <string.h>

#include "arbiter/conform.h"
#include "cli/cli.h"

static int describe;

/* One candidate if it starts with prefix cur (pre is kept in front of
 * the value for comma lists). ':' is escaped for zsh's _describe. */
static void offer(const char *pre, const char *cur, const char *cand, const char *desc)
{
    if (strncmp(cand, cur, strlen(cur))) return;
    fputs(pre, stdout);
    for (const char *p = cand; *p; p++) {
        if (describe && *p == ':') fputc('\\', stdout);
        fputc(*p, stdout);
    }
    if (describe && desc) {
        fputc(':', stdout);
        size_t n = strcspn(desc, "\n;(");
        fprintf(stdout, "%.*s", (int)(n > 60 ? 60 : n), desc);
    }
    fputc('\n', stdout);
}

static void offer_specs(const cli_spec *const *specs, const char *cur)
{
    for (; *specs; specs++) {
        if ((*specs)->hidden) continue;
        const char *sp = strrchr((*specs)->name, ' ');
        offer("", cur, sp ? sp + 1 : (*specs)->name, (*specs)->summary);
    }
}

/* --game/-g given earlier among the words, or NULL. */
static const arb_game *game_in(int n, char **w)
{
    for (int i = 0; i + 1 < n; i++) {
        if (!strcmp(w[i], "--game") || !strcmp(w[i], "-g")) return arb_game_find(w[i + 1]);
        if (!strncmp(w[i], "--game=", 7)) return arb_game_find(w[i] + 7);
    }
    return NULL;
}

static void offer_rules(const arb_game *g, const char *cur)
{
    arb_conform_options opt = ARB_CONFORM_OPTIONS_INIT;
    opt.game = g ? g->id : NULL;
    arb_conform_suite *s = NULL;
    arb_error err = ARB_ERROR_INIT;
    opt.case_glob = "\x01"; /* no case: only the catalogs' entries are wanted */
    if (arb_conform_load(&s, NULL, 0, &opt, &err) || arb_conform_run(s, &err)) {
        arb_conform_free(s);
        return;
    }
    for (unsigned i = 0; i < arb_conform_nentries(s); i++) {
        const arb_conform_entry *e = arb_conform_entry_at(s, i);
        if (!g || !strcmp(e->game, g->id)) offer("", cur, e->id, NULL);
    }
    arb_conform_free(s);
}

static int offer_value(cli_arg kind, const char *cur, int n, char **w)
{
    char pre[256] = "";
    const char *comma = strrchr(cur, ',');
    if ((kind == CLI_ARG_DECKS || kind == CLI_ARG_AGENTS) && comma && (size_t)(comma - cur) < sizeof pre - 1) {
        snprintf(pre, sizeof pre, "%.*s", (int)(comma + 1 - cur), cur);
        cur = comma + 1;
    }
    const arb_game *g = game_in(n, w);
    switch (kind) {
    case CLI_ARG_FILE: puts("@files"); break;
    case CLI_ARG_DIR: puts("@dirs"); break;
    case CLI_ARG_GAME:
        for (unsigned i = 0; i < arb_game_count(); i++) offer("", cur, arb_game_at(i)->id, NULL);
        break;
    case CLI_ARG_DECKS:
        if (strchr(cur, '/') || strchr(cur, '.')) {
            puts("@files");
            break;
        }
        for (unsigned i = 0; i < arb_game_count(); i++) {
            const arb_game *h = arb_game_at(i);
            if (g && h != g) continue;
            for (unsigned k = 0; k < h->npresets; k++) offer(pre, cur, h->preset(h, k)->name, NULL);
        }
        break;
    case CLI_ARG_AGENTS:
        offer(pre, cur, arb_agent_kind_name(ARB_AGENT_RANDOM), NULL);
        offer(pre, cur, arb_agent_kind_name(ARB_AGENT_GREEDY), NULL);
        break;
    case CLI_ARG_RULE: offer_rules(g, cur); break;
    case CLI_ARG_SEAT: {
        static const char *const seats[] = { "P1", "P2", "P3", "P4", "all" };
        for (unsigned i = 0; i < 5; i++) offer("", cur, seats[i], NULL);
        break;
    }
    default: break; /* numbers, text, shell commands: nothing to offer */
    }
    return EXIT_OK;
}

static const cli_opt *find_opt(const cli_spec *s, const char *word)
{
    for (const cli_opt *o = s->opts; o && o->name; o++) {
        if (word[0] == '-' && word[1] == '-' && !strcmp(word + 2, o->name)) return o;
        if (word[0] == '-' && o->shortc && word[1] == o->shortc && !word[2]) return o;
    }
    return NULL;
}

int cmd_complete(int argc, char **argv)
{
    int n = argc - 1;
    char **w = argv + 1;
    describe = 0;
    if (n > 0 && !strcmp(w[0], "--describe")) {
        describe = 1;
        n--;
        w++;
    }
    if (n < 1) return EXIT_OK;
    const char *cur = w[n - 1];
    if (n == 1) {
        offer_specs(cli_specs, cur);
        offer("", cur, "help", "describe one command");
        return EXIT_OK;
    }
    if (!strcmp(w[0], "help")) {
        if (n == 2) offer_specs(cli_specs, cur);
        return EXIT_OK;
    }
    const cli_spec *s = cli_spec_find(cli_specs, w[0]);
    if (!s) return EXIT_OK;
    int first = 1; /* the word after the command */
    if (s->subs) {
        if (n == 2) {
            offer_specs(s->subs, cur);
            if (!strncmp(cur, "-", 1)) offer("", cur, "--help", "this help");
            return EXIT_OK;
        }
        if (!(s = cli_spec_find(s->subs, w[1]))) return EXIT_OK;
        first = 2;
    }
    /* bash splits "--opt=value" at '=' */
    const char *prev = n - 2 >= first ? w[n - 2] : NULL;
    if (prev && !strcmp(prev, "=") && n - 3 >= first) prev = w[n - 3];
    const cli_opt *po = prev ? find_opt(s, prev) : NULL;
    if (po && po->arg != CLI_ARG_NONE) return offer_value(po->arg, cur, n, w);
    if (!strncmp(cur, "--", 2) && strchr(cur, '=')) {
        char name[80];
        snprintf(name, sizeof name, "%.*s", (int)(strchr(cur, '=') - cur), cur);
        const cli_opt *o = find_opt(s, name);
        if (o && o->arg != CLI_ARG_NONE) return offer_value(o->arg, strchr(cur, '=') + 1, n, w);
        return EXIT_OK;
    }
    if (cur[0] == '-') {
        char name[80];
        for (const cli_opt *o = s->opts; o && o->name; o++) {
            snprintf(name, sizeof name, "--%s", o->name);
            offer("", cur, name, o->help);
        }
        offer("", cur, "--help", "this help");
        return EXIT_OK;
    }
    return s->operands ? offer_value(s->operands, cur, n, w) : EXIT_OK;
}

int cmd_man(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--list")) {
        for (const cli_spec *const *s = cli_specs; *s; s++)
            if (!(*s)->hidden) puts((*s)->name);
        return EXIT_OK;
    }
    if (argc != 2) return cli_usage("__man", "one COMMAND (or --list)");
    const cli_spec *s = cli_spec_find(cli_specs, argv[1]);
    if (!s) return cli_usage("__man", "no command '%s'", cli_esc(argv[1]));
    const char *date = getenv("ARBITER_MAN_DATE");
    return cli_spec_man(s, arb_version(), date ? date : "", stdout) ? EXIT_INTERNAL : EXIT_OK;
}

static const char *const complete_usage[] = { "__complete [--describe] WORD...", NULL };
const cli_spec cli_spec_complete = { .name = "__complete",
                                     .summary = "completion candidates for the last WORD (shell scripts)",
                                     .usage = complete_usage,
                                     .run = cmd_complete,
                                     .hidden = 1 };
static const char *const man_usage[] = { "__man COMMAND", "__man --list", NULL };
const cli_spec cli_spec_man_cmd = { .name = "__man",
                                    .summary = "the roff man page of COMMAND (the build's man target)",
                                    .usage = man_usage,
                                    .run = cmd_man,
                                    .hidden = 1 };
