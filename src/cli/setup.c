/* setup.c — what `play` and `record` share: turning --game/--seed/
 * --players/--decks/--option/--names/--salt into an arb_setup, a started
 * match and an open replay writer with its header. */
#include <stdlib.h>
#include <string.h>

#include "cli/setup.h"

int cli_match_start(cli_match_args *a, const char *cmd)
{
    arb_error err = ARB_ERROR_INIT;
    memset(&a->su, 0, sizeof a->su);
    a->g = cli_game(cmd, a->game);
    if (!a->g) return a->game ? EXIT_INPUT : EXIT_USAGE;
    const arb_game *g = a->g;
    if (!a->have_seed) return cli_usage(cmd, "--seed is required");
    if (!a->out && !a->no_record) return cli_usage(cmd, "-o FILE is required");
    int players = a->players ? a->players : g->min_players;
    if (players < g->min_players || players > g->max_players || players > ARB_MAX_SEATS)
        return cli_usage(cmd, "%s takes %d to %d players", g->id, g->min_players, g->max_players);
    a->su.seed = a->seed;
    a->su.players = players;
    a->su.options = a->options;
    char *dparts[ARB_MAX_SEATS] = { 0 };
    int nd = 0;
    char dbuf[1024];
    if (a->decks) {
        snprintf(dbuf, sizeof dbuf, "%s", a->decks);
        nd = cli_split(dbuf, dparts, ARB_MAX_SEATS);
        if (nd < 1) return cli_usage(cmd, "--decks takes one to %d comma-separated decks", ARB_MAX_SEATS);
    }
    for (int s = 0; s < players; s++) {
        if (nd) {
            /* one deck for everybody, or one per seat */
            const char *spec = dparts[nd == 1 ? 0 : s < nd ? s : nd - 1];
            if (nd > 1 && nd != players) return cli_usage(cmd, "--decks lists %d decks for %d players", nd, players);
            if (arb_deck_resolve(&a->decks_buf[s], g, spec, &err)) return cli_fail(cmd, &err);
        } else {
            if (g->npresets == 0) return cli_usage(cmd, "%s ships no preset decks: give --decks", g->id);
            a->decks_buf[s] = *g->preset((unsigned)s % g->npresets);
        }
        a->su.decks[s] = &a->decks_buf[s];
    }
    char *nparts[ARB_MAX_SEATS] = { 0 };
    if (a->names) {
        snprintf(a->names_buf, sizeof a->names_buf, "%s", a->names);
        int nn = cli_split(a->names_buf, nparts, ARB_MAX_SEATS);
        if (nn != players) return cli_usage(cmd, "--names lists %d names for %d players", nn, players);
    }
    int rc = arb_match_new(&a->m, g, &a->su, &err);
    if (rc) return cli_fail(cmd, &err);
    if (a->no_record) return EXIT_OK;
    if (cli_started(a->started, sizeof a->started)) {
        arb_match_free(a->m);
        a->m = NULL;
        return cli_usage(cmd, "SOURCE_DATE_EPOCH is not a number of seconds");
    }
    arb_replay_meta meta;
    memset(&meta, 0, sizeof meta);
    meta.game = g;
    meta.setup = &a->su;
    for (int s = 0; s < players; s++) meta.names[s] = nparts[s];
    meta.started = a->started;
    meta.flags = a->timed ? ARB_REPLAY_FLAG_TIMED : 0;
    meta.level = a->level;
    if (a->salt_len) {
        meta.salt = a->salt;
        meta.salt_len = a->salt_len;
    }
    if ((rc = arb_replay_writer_open(&a->w, a->out, &meta, &err)) ||
        (rc = arb_replay_record_start(a->w, a->m, &err))) {
        arb_replay_writer_free(a->w);
        a->w = NULL;
        arb_match_free(a->m);
        a->m = NULL;
        return cli_fail(cmd, &err);
    }
    return EXIT_OK;
}

int cli_match_arg(cli_match_args *a, const char *cmd, int c, const char *arg)
{
    unsigned long long v;
    switch (c) {
    case 'g': a->game = arg; return 0;
    case 's':
        if (cli_parse_u64(arg, &v)) return cli_usage(cmd, "--seed '%s' is not an unsigned 64-bit integer", arg);
        a->seed = v;
        a->have_seed = 1;
        return 0;
    case 'p':
        if (cli_parse_u64(arg, &v) || v < 1 || v > ARB_MAX_SEATS)
            return cli_usage(cmd, "--players '%s' is not 1..%d", arg, ARB_MAX_SEATS);
        a->players = (int)v;
        return 0;
    case 'd': a->decks = arg; return 0;
    case 'n': a->names = arg; return 0;
    case 'o': a->out = arg; return 0;
    case 'O':
        if (cli_option(&a->options, arg)) return cli_usage(cmd, "--option '%s' is not KEY=INTEGER", arg);
        return 0;
    case 'S':
        if (cli_parse_hex(arg, a->salt, sizeof a->salt, &a->salt_len))
            return cli_usage(cmd, "--salt '%s' is not 1 to %d bytes of hex", arg, ARB_REPLAY_SALT_MAX);
        return 0;
    case 'L':
        if (cli_parse_u64(arg, &v) || v > 9) return cli_usage(cmd, "--level '%s' is not 0..9", arg);
        a->level = (int)v;
        return 0;
    case 't': a->timed = 1; return 0;
    default: return -1;
    }
}
