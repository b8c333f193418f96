/* cmd_deck.c — `arbiter deck check|list|show`: deck files and presets. */
#include <getopt.h>
#include <string.h>

#include "cli/cli.h"

static void deck_help(void)
{
    printf("usage: arbiter deck check --game GAME [--json] DECK...\n"
           "       arbiter deck list --game GAME [--json]\n"
           "       arbiter deck show --game GAME [--json] DECK\n"
           "\n"
           "check  print every rule violation (with its rule ID) and every builder\n"
           "       warning of each DECK (a preset name or a deck file); exit 1 when\n"
           "       any deck is illegal\n"
           "list   the preset decks shipped with the engine\n"
           "show   a deck's cards as a deck file\n"
           "\n"
           "Deck file: one 'COUNT NAME' or 'COUNT ID' per line, '#' comments,\n"
           "'key: value' attributes such as 'bloc: DEFENSE' and 'name: …'.\n"
           "\n"
           "  --json  check: an array of {deck, cards, legal, issues}; list: an array\n"
           "          of {name, cards, attrs}; show: {name, attrs, cards: [{count,\n"
           "          id, name}]}\n"
           "\n"
           "Exit: 0 legal / listed / shown; 1 a deck is illegal; 2 usage; 3 unknown\n"
           "game, card or deck, unreadable deck file.\n");
}

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

int cmd_deck(int argc, char **argv)
{
    static const struct option opts[] = {
        { "game", required_argument, NULL, 'g' },
        { "json", no_argument, NULL, 'j' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };
    if (argc < 2) return cli_usage("deck", "expected a subcommand: check, list or show");
    const char *sub = argv[1];
    if (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0) { deck_help(); return EXIT_OK; }
    const char *game = NULL;
    int json = 0, c;
    optind = 1;
    opterr = 0;
    argc--; argv++;
    while ((c = getopt_long(argc, argv, "g:jh", opts, NULL)) != -1) {
        switch (c) {
        case 'g': game = optarg; break;
        case 'j': json = 1; break;
        case 'h': deck_help(); return EXIT_OK;
        default: return cli_usage("deck", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (strcmp(sub, "check") && strcmp(sub, "list") && strcmp(sub, "show"))
        return cli_usage("deck", "unknown subcommand '%s' (check, list, show)", sub);
    const arb_game *g = cli_game("deck", game);
    if (!g) return game ? EXIT_INPUT : EXIT_USAGE;
    if (strcmp(sub, "list") == 0) {
        if (optind < argc) return cli_usage("deck", "list takes no DECK ('%s')", argv[optind]);
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
    if (optind >= argc) return cli_usage("deck", "%s needs a DECK (preset name or file)", sub);
    if (strcmp(sub, "show") == 0) {
        arb_deck d;
        arb_error err = ARB_ERROR_INIT;
        if (arb_deck_resolve(&d, g, argv[optind], &err)) return cli_fail("deck show", &err);
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
    return deck_check(g, json, argc - optind, argv + optind);
}
