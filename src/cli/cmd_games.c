/* cmd_games.c — `arbiter games` and `arbiter cards`: what this build knows. */
#include <string.h>

#include "cli/cli.h"
#include "cli/table.h"

static const char *const games_usage[] = { "games [--json]", NULL };
static const cli_opt games_opts[] = {
    CLI_OPT_JSON("an array of {id, title, rules, engine, min_players, max_players, cards, presets, outcomes, max_actions (the most actions a replay of it may hold)}"),
    CLI_OPT_END
};
const cli_spec cli_spec_games = {
    .name = "games",
    .summary = "list the games this build knows",
    .usage = games_usage,
    .description = "List the games compiled into this build with their rules version,\n"
                   "engine version, player counts and card-pool size.\n",
    .opts = games_opts,
    .exit = "0 listed; 2 usage.",
    .run = cmd_games,
};

int cmd_games(int argc, char **argv)
{
    int json = 0, c;
    cli_parser p;
    cli_parse_init(&p, &cli_spec_games, argc, argv);
    while ((c = cli_next(&p)) > 0) {
        switch (c) {
        case CLI_ID_JSON: json = 1; break;
        default: return cli_unhandled(&p);
        }
    }
    if (c < 0) return p.rc;
    if (p.npos) return cli_usage("games", "unexpected argument '%s'", cli_esc(p.pos[0]));
    unsigned n = arb_game_count();
    if (json) {
        printf("[");
        for (unsigned i = 0; i < n; i++) {
            const arb_game *g = arb_game_at(i);
            printf("%s{\"id\":", i ? "," : "");
            cli_json_str(stdout, g->id);
            printf(",\"title\":");
            cli_json_str(stdout, g->title);
            printf(",\"rules\":");
            cli_json_str(stdout, g->rules_version);
            printf(",\"rules_versions\":[");   /* every version it verifies, oldest first */
            if (!g->nrules_versions) cli_json_str(stdout, g->rules_version);
            for (unsigned v = 0; v < g->nrules_versions; v++) {
                printf("%s", v ? "," : "");
                cli_json_str(stdout, g->rules_versions[v]);
            }
            printf("]");
            printf(",\"engine\":");
            cli_json_str(stdout, g->engine_version);
            printf(",\"min_players\":%d,\"max_players\":%d,\"cards\":%u,\"presets\":%u,\"outcomes\":[",
                   g->min_players, g->max_players, g->ncards, g->npresets);
            /* every way a match can end; "none"/"" mean it goes on */
            for (unsigned r = 0, k = 0; r < g->noutcome_reasons; r++) {
                const char *rn = g->outcome_reasons[r];
                if (!rn || !*rn || strcmp(rn, "none") == 0) continue;
                printf("%s", k++ ? "," : "");
                cli_json_str(stdout, rn);
            }
            printf("],\"max_actions\":%lu}", (unsigned long)arb_game_max_actions(g)); /* FORMAT.md §8.1 */
        }
        printf("]\n");
        return EXIT_OK;
    }
    if (n == 0) {
        printf("no game engines are compiled into this build\n");
        return EXIT_OK;
    }
    cli_table tb;
    cli_table_init(&tb, 6);
    int bad = cli_table_row(&tb, (const char *const[]){ "GAME", "TITLE", "RULES", "ENGINE", "PLAYERS", "CARDS" });
    for (unsigned i = 0; i < n; i++) {
        const arb_game *g = arb_game_at(i);
        char pl[16], nc[16];
        if (g->min_players == g->max_players) snprintf(pl, sizeof pl, "%d", g->min_players);
        else snprintf(pl, sizeof pl, "%d-%d", g->min_players, g->max_players);
        snprintf(nc, sizeof nc, "%u", g->ncards);
        bad |= cli_table_row(&tb, (const char *const[]){ g->id, g->title, g->rules_version, g->engine_version, pl, nc });
    }
    if (!bad) cli_table_print(&tb, stdout);
    cli_table_free(&tb);
    if (bad) return EXIT_INTERNAL;
    return EXIT_OK;
}

static const char *const cards_usage[] = {
    "cards --game GAME [--json]",
    NULL
};
static const cli_opt cards_opts[] = {
    CLI_OPT_JSON("an array of {id, name, type, group, stats, text}"),
    CLI_OPT_GAME("the game (see 'arbiter games')"),
    CLI_OPT_END
};
const cli_spec cli_spec_cards = {
    .name = "cards",
    .summary = "list a game's card pool (--json)",
    .usage = cards_usage,
    .description =
        "List the game's card pool: ID, name, type, group (faction or class),\n"
        "stats and text.\n",
    .opts = cards_opts,
    .exit = "0 listed; 2 usage (no --game); 3 unknown game.",
    .run = cmd_cards,
};

int cmd_cards(int argc, char **argv)
{
    const char *game = NULL;
    int json = 0, c;
    cli_parser p;
    cli_parse_init(&p, &cli_spec_cards, argc, argv);
    while ((c = cli_next(&p)) > 0) {
        switch (c) {
        case 'g': game = p.arg; break;
        case CLI_ID_JSON: json = 1; break;
        default: return cli_unhandled(&p);
        }
    }
    if (c < 0) return p.rc;
    if (p.npos > 0) return cli_usage("cards", "unexpected argument '%s'", p.pos[0]);
    const arb_game *g = cli_game("cards", game);
    if (!g) return game ? EXIT_INPUT : EXIT_USAGE;
    arb_tree *t = arb_tree_new();
    if (!t) return EXIT_INTERNAL;
    arb_tnode *arr = arb_tree_add_arr(t, arb_tree_root(t), "cards");
    for (unsigned i = 0; i < g->ncards; i++) {
        const arb_card *cd = g->card(g, i);
        arb_tnode *m = arb_tree_add_map(t, arr, NULL);
        arb_tree_add_str(t, m, "id", cd->id);
        arb_tree_add_str(t, m, "name", cd->name);
        arb_tree_add_str(t, m, "type", cd->type);
        arb_tree_add_str(t, m, "group", cd->group);
        arb_tnode *stats = arb_tree_add_map(t, m, "stats");
        arb_game_card_export(g, i, t, stats);
        arb_tree_add_str(t, m, "text", cd->text);
    }
    if (arb_tree_failed(t)) { arb_tree_free(t); return EXIT_INTERNAL; }
    if (json) {
        arb_tnode_json(arr, stdout, 0);
        putchar('\n');
    } else {
        for (const arb_tnode *m = arr->first; m; m = m->next) {
            const arb_tnode *st = arb_tnode_get(m, "stats");
            printf("%-28s %-30s %-12s %-14s", arb_tnode_get(m, "id")->s, arb_tnode_get(m, "name")->s,
                   arb_tnode_get(m, "type")->s, arb_tnode_get(m, "group")->s);
            for (const arb_tnode *s = st->first; s; s = s->next) {
                char v[64];
                printf(" %s=%s", s->key, arb_tnode_text(s, v, sizeof v));
            }
            const char *text = arb_tnode_get(m, "text")->s;
            if (*text) printf("\n    %s", text);
            putchar('\n');
        }
    }
    arb_tree_free(t);
    return EXIT_OK;
}
