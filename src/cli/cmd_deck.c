/* cmd_deck.c — `arbiter deck check|list|show`: deck files and presets. */
#include <string.h>

#include "cli/cli.h"

static void print_attrs_json(const arb_deck *d)
{
    printf("{");
    for (unsigned i = 0; i < d->nattrs; i++) {
        printf("%s", i ? "," : "");
        cli_json_str(stdout, d->attrs[i].key);
        printf(":");
        cli_json_str(stdout, d->attrs[i].value);
    }
    printf("}");
}

static int deck_check(const arb_game *g, int json, int argc, char **argv)
{
    int illegal = 0, bad_input = 0;
    if (json) printf("[");
    for (int i = 0; i < argc; i++) {
        arb_deck d;
        arb_error err = ARB_ERROR_INIT;
        int rc = arb_deck_resolve(&d, g, argv[i], &err);
        if (rc) {
            bad_input = 1;
            if (json) {
                char buf[600];
                arb_error_format(&err, buf, sizeof buf);
                printf("%s{\"deck\":", i ? "," : "");
                cli_json_str(stdout, argv[i]);
                printf(",\"error\":");
                cli_json_str(stdout, buf);
                printf("}");
            } else {
                cli_fail("deck check", &err);
            }
            continue;
        }
        arb_deck_issue issues[64];
        unsigned n = g->deck_check(g, &d, issues, 64);
        unsigned shown = n < 64 ? n : 64, violations = 0;
        for (unsigned k = 0; k < shown; k++) violations += !issues[k].warning;
        if (violations) illegal = 1;
        if (json) {
            printf("%s{\"deck\":", i ? "," : "");
            cli_json_str(stdout, argv[i]);
            printf(",\"cards\":%u,\"legal\":%s,\"issues\":[", d.ncards, violations ? "false" : "true");
            for (unsigned k = 0; k < shown; k++) {
                printf("%s{\"severity\":\"%s\",\"rule\":", k ? "," : "", issues[k].warning ? "warning" : "error");
                cli_json_str(stdout, issues[k].rule);
                printf(",\"message\":");
                cli_json_str(stdout, issues[k].msg);
                printf("}");
            }
            printf("]}");
        } else {
            printf("%s: %s (%u card%s)\n", argv[i], violations ? "ILLEGAL" : "legal", d.ncards, ARB_PLURAL(d.ncards));
            for (unsigned k = 0; k < shown; k++)
                printf("  %s %s: %s\n", issues[k].warning ? "warning" : "error", issues[k].rule, issues[k].msg);
            if (n > shown) printf("  … and %u more\n", n - shown);
        }
    }
    if (json) printf("]\n");
    return bad_input ? EXIT_INPUT : illegal ? EXIT_VERIFY : EXIT_OK;
}

static const cli_opt deck_opts[] = {
    CLI_OPT_GAME("the game (see 'arbiter games')"),
    CLI_OPT_JSON("check: an array of {deck, cards, legal, issues}; list: an array of {name, cards, attrs}; show: {name, attrs, cards: [{count, id, name}]}"),
    CLI_OPT_END
};

/* check, list and show: the same options, then what the subcommand does. */
static int deck_main(const cli_spec *spec, int argc, char **argv)
{
    const char *sub = argv[0], *game = NULL;
    int json = 0, c;
    cli_parser p;
    cli_parse_init(&p, spec, argc, argv);
    while ((c = cli_next(&p)) > 0) {
        switch (c) {
        case 'g': game = p.arg; break;
        case CLI_ID_JSON: json = 1; break;
        default: return cli_unhandled(&p);
        }
    }
    if (c < 0) return p.rc;
    const arb_game *g = cli_game("deck", game);
    if (!g) return game ? EXIT_INPUT : EXIT_USAGE;
    if (strcmp(sub, "list") == 0) {
        if (p.npos) return cli_usage("deck", "list takes no DECK ('%s')", p.pos[0]);
        if (json) printf("[");
        for (unsigned i = 0; i < g->npresets; i++) {
            const arb_deck *d = g->preset(g, i);
            const char *bloc = arb_deck_attr_get(d, "bloc");
            if (json) {
                printf("%s{\"name\":", i ? "," : "");
                cli_json_str(stdout, d->name);
                printf(",\"cards\":%u,\"attrs\":", d->ncards);
                print_attrs_json(d);
                printf("}");
            } else {
                printf("%-24s %3u cards%s%s\n", d->name, d->ncards, bloc ? "  bloc: " : "", bloc ? bloc : "");
            }
        }
        if (json) printf("]\n");
        return EXIT_OK;
    }
    if (!p.npos) return cli_usage("deck", "%s needs a DECK (preset name or file)", sub);
    if (strcmp(sub, "show") == 0) {
        arb_deck d;
        arb_error err = ARB_ERROR_INIT;
        if (arb_deck_resolve(&d, g, p.pos[0], &err)) return cli_fail("deck show", &err);
        if (json) {
            printf("{\"name\":");
            cli_json_str(stdout, d.name);
            printf(",\"attrs\":");
            print_attrs_json(&d);
            printf(",\"cards\":[");
        } else {
            printf("name: %s\n", d.name);
            for (unsigned i = 0; i < d.nattrs; i++)
                if (strcmp(d.attrs[i].key, "name") != 0) printf("%s: %s\n", d.attrs[i].key, d.attrs[i].value);
        }
        for (unsigned i = 0, k = 0; i < d.ncards; k++) {
            unsigned j = i;
            while (j < d.ncards && d.cards[j] == d.cards[i]) j++;
            const arb_card *cd = g->card(g, d.cards[i]);
            if (json) {
                printf("%s{\"count\":%u,\"id\":", k ? "," : "", j - i);
                cli_json_str(stdout, cd->id);
                printf(",\"name\":");
                cli_json_str(stdout, cd->name);
                printf("}");
            } else {
                printf("%u %s\n", j - i, cd->name);
            }
            i = j;
        }
        if (json) printf("]}\n");
        return EXIT_OK;
    }
    return deck_check(g, json, p.npos, p.pos);
}

static int deck_check_run(int argc, char **argv);
static int deck_list_run(int argc, char **argv);
static int deck_show_run(int argc, char **argv);
static const char *const check_usage[] = { "deck check --game GAME [--json] DECK...", NULL };
static const char *const list_usage[] = { "deck list --game GAME [--json]", NULL };
static const char *const show_usage[] = { "deck show --game GAME [--json] DECK", NULL };
static const cli_spec deck_check_spec = {
    .name = "deck check",
    .summary = "print every rule violation (with its rule ID) and every builder warning of each DECK (a preset name or a deck file); exit 1 when any deck is illegal",
    .usage = check_usage, .opts = deck_opts, .operands = CLI_ARG_DECKS, .run = deck_check_run,
    .exit = "0 legal; 1 a deck is illegal; 2 usage; 3 unknown game, card or deck, unreadable deck file.",
};
static const cli_spec deck_list_spec = {
    .name = "deck list", .summary = "the preset decks shipped with the engine",
    .usage = list_usage, .opts = deck_opts, .run = deck_list_run,
    .exit = "0 listed; 2 usage; 3 unknown game.",
};
static const cli_spec deck_show_spec = {
    .name = "deck show", .summary = "a deck's cards as a deck file",
    .usage = show_usage, .opts = deck_opts, .operands = CLI_ARG_DECKS, .run = deck_show_run,
    .exit = "0 shown; 2 usage; 3 unknown game, card or deck, unreadable deck file.",
};
static int deck_check_run(int argc, char **argv) { return deck_main(&deck_check_spec, argc, argv); }
static int deck_list_run(int argc, char **argv) { return deck_main(&deck_list_spec, argc, argv); }
static int deck_show_run(int argc, char **argv) { return deck_main(&deck_show_spec, argc, argv); }
static const cli_spec *const deck_subs[] = { &deck_check_spec, &deck_list_spec, &deck_show_spec, NULL };

const cli_spec cli_spec_deck = {
    .name = "deck",
    .summary = "check a deck file or list preset decks",
    .description = "Deck file: one 'COUNT NAME' or 'COUNT ID' per line, '#' comments,\n"
                   "'key: value' attributes such as 'bloc: DEFENSE' and 'name: …'.\n",
    .exit = "0 legal / listed / shown; 1 a deck is illegal; 2 usage; 3 unknown game, card or deck, unreadable deck file.",
    .subs = deck_subs,
    .run = cmd_deck,
};

int cmd_deck(int argc, char **argv)
{
    return cli_sub_run(&cli_spec_deck, argc, argv);
}
