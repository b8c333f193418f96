/* match_args.c — what `play` and `record` share: turning --game/--seed/
 * --players/--decks/--option/--names/--salt into an arb_setup, a started
 * match and an open replay writer with its header. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/match_args.h"

#define POSITION_FILE_MAX (4u << 20)

/* Parse --position FILE: a state tree as JSON, bare or wrapped the way
 * `arbiter state --json` prints it ({"game": …, "state": {…}}). */
static int load_position_file(cli_match_args *a, const char *cmd, const arb_tnode **out)
{
    arb_error err = ARB_ERROR_INIT;
    FILE *f = fopen(a->position, "rb");
    if (!f) {
        fprintf(cli_msgs(), "arbiter %s: %s: cannot open position: %s\n", cmd, a->position, strerror(errno));
        return EXIT_INPUT;
    }
    char *buf = malloc(POSITION_FILE_MAX + 1);
    size_t n = buf ? fread(buf, 1, POSITION_FILE_MAX + 1, f) : 0;
    int rderr = ferror(f);
    fclose(f);
    if (!buf) return EXIT_INTERNAL;
    if (rderr || n > POSITION_FILE_MAX) {
        free(buf);
        fprintf(cli_msgs(), "arbiter %s: %s: %s\n", cmd, a->position,
                rderr ? "read error" : "position file larger than 4 MiB");
        return EXIT_INPUT;
    }
    arb_tree_free(a->pos_tree);
    a->pos_tree = arb_tree_new();
    if (!a->pos_tree) { free(buf); return EXIT_INTERNAL; }
    int rc = arb_tree_parse_json(a->pos_tree, arb_tree_root(a->pos_tree), "p", buf, n, &err);
    free(buf);
    if (rc) {
        char w[64];
        snprintf(w, sizeof w, "%.60s", err.where);
        arb_error_where(&err, "%.180s: %s", a->position, w);
        return cli_fail(cmd, &err);
    }
    const arb_tnode *p = arb_tnode_get(arb_tree_root(a->pos_tree), "p");
    const arb_tnode *st = arb_tnode_get(p, "state");
    const arb_tnode *game = arb_tnode_get(p, "game");
    const arb_tnode *hash = arb_tnode_get(p, "hash");
    a->pos_hash = st && hash && hash->kind == ARB_T_STR ? hash->s : NULL;
    if (st && st->kind == ARB_T_MAP) {
        if (game && game->kind == ARB_T_STR && strcmp(game->s, a->g->id) != 0) {
            fprintf(cli_msgs(), "arbiter %s: %s: a %s state, not %s\n", cmd, a->position, game->s, a->g->id);
            return EXIT_INPUT;
        }
        p = st;
    }
    if (!p || p->kind != ARB_T_MAP) {
        fprintf(cli_msgs(), "arbiter %s: %s: a position is a JSON object (the game's state tree)\n", cmd, a->position);
        return EXIT_INPUT;
    }
    *out = p;
    return EXIT_OK;
}

void cli_match_args_free(cli_match_args *a)
{
    arb_tree_free(a->pos_tree);
    a->pos_tree = NULL;
    memset(&a->key, 0, sizeof a->key);
}

int cli_match_archive(cli_match_args *a, const char *cmd)
{
    arb_error err = ARB_ERROR_INIT;
    char note[256];
    if (!a->out) return cli_usage(cmd, "--archive needs -o FILE");
    if (a->format == 1) return cli_usage(cmd, "--archive holds format-2 matches only");
    if (arb_archive_writer_open(&a->aw, a->out, a->archive == 2, 1, note, sizeof note, &err)) return cli_fail(cmd, &err);
    if (note[0]) fprintf(cli_msgs(), "arbiter %s: %s: %s\n", cmd, a->out, note);
    return EXIT_OK;
}

int cli_match_archive_close(cli_match_args *a, const char *cmd, int ok)
{
    if (!a->aw) return EXIT_OK;
    arb_error err = ARB_ERROR_INIT;
    int rc = EXIT_OK;
    if (ok) {
        if (arb_archive_writer_close(a->aw, &err)) rc = cli_fail(cmd, &err);
    } else arb_archive_writer_free(a->aw); /* the members written stay readable (FILE.part) */
    a->aw = NULL;
    return rc;
}

int cli_match_start(cli_match_args *a, const char *cmd)
{
    arb_error err = ARB_ERROR_INIT;
    memset(&a->su, 0, sizeof a->su);
    a->g = a->engine ? a->engine : cli_game(cmd, a->game);
    if (!a->g) return a->game ? EXIT_INPUT : EXIT_USAGE;
    const arb_game *g = a->g;
    if (a->server_secret && a->have_seed)
        return cli_usage(cmd, "--server-secret derives the seed: give it or --seed, not both");
    if (!a->server_secret && a->fair_seen) return cli_usage(cmd, "--contribution needs --server-secret");
    /* A position carries its own PRNG state: the seed is then optional
     * (recorded as 0) and drives nothing the position does not. */
    if (!a->have_seed && !a->server_secret && !a->position)
        return cli_usage(cmd, "--seed is required (or --position FILE)");
    if (!a->out && !a->no_record) return cli_usage(cmd, "-o FILE is required");
    if (a->out && a->no_record) return cli_usage(cmd, "--no-record and -o exclude each other");
    const arb_tnode *pos = NULL;
    if (a->position) {
        int prc = load_position_file(a, cmd, &pos);
        if (prc) return prc;
    }
    const arb_tnode *pl = pos ? arb_tnode_get(pos, "players") : NULL;
    int players = a->players ? a->players
                  : pl && pl->kind == ARB_T_ARR && pl->n >= 1 && pl->n <= ARB_MAX_SEATS ? (int)pl->n
                                                                                     : g->min_players;
    if (!a->players && pl && pl->kind == ARB_T_ARR &&
        (pl->n < (uint32_t)g->min_players || pl->n > (uint32_t)g->max_players || pl->n > ARB_MAX_SEATS)) {
        /* The count comes from the file: bad input, not a bad command line. */
        fprintf(cli_msgs(), "arbiter %s: %s: players: the position has %u seats; %s takes %d to %d players\n", cmd,
                cli_esc(a->position), pl->n, g->id, g->min_players, g->max_players);
        return EXIT_INPUT;
    }
    if (players < g->min_players || players > g->max_players || players > ARB_MAX_SEATS)
        return cli_usage(cmd, "%s takes %d to %d players", g->id, g->min_players, g->max_players);
    if (a->server_secret) {
        int frc = cli_fair_secret_load(cmd, a->server_secret, 0, a->fair.secret);
        if (frc || (frc = cli_fair_finish(cmd, &a->fair, a->fair_seen, players))) return frc;
        a->seed = arb_fair_seed(&a->fair);
    }
    a->su.seed = a->seed;
    if (a->rules) {
        if (arb_game_rules_index(g, a->rules) < 0)
            return cli_usage(cmd, "--rules '%s' is not a rules version of %s (newest: %s)", a->rules, g->id,
                             g->rules_version);
        a->su.rules = a->rules;
    }
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
    for (int s = 0; s < players && (!pos || nd); s++) {
        if (nd) {
            /* one deck for everybody, or one per seat */
            const char *spec = dparts[nd == 1 ? 0 : s < nd ? s : nd - 1];
            if (nd > 1 && nd != players) return cli_usage(cmd, "--decks lists %d decks for %d players", nd, players);
            if (arb_deck_resolve(&a->decks_buf[s], g, spec, &err)) return cli_fail(cmd, &err);
        } else {
            if (g->npresets == 0) return cli_usage(cmd, "%s ships no preset decks: give --decks", g->id);
            a->decks_buf[s] = *g->preset(g, (unsigned)s % g->npresets);
        }
        a->su.decks[s] = &a->decks_buf[s];
    }
    char *nparts[ARB_MAX_SEATS] = { 0 };
    if (a->names) {
        if (strlen(a->names) >= sizeof a->names_buf)
            return cli_usage(cmd, "--names is %zu bytes long; a name holds at most %d bytes", strlen(a->names),
                             ARB_REPLAY_NAME_MAX);
        snprintf(a->names_buf, sizeof a->names_buf, "%s", a->names);
        int nn = cli_split(a->names_buf, nparts, ARB_MAX_SEATS);
        if (nn != players) return cli_usage(cmd, "--names lists %d names for %d players", nn, players);
        /* what the replay's reader keeps: a longer name would be written
         * into a file that info, verify and report then refuse */
        for (int s = 0; s < nn; s++)
            if (strlen(nparts[s]) > ARB_REPLAY_NAME_MAX)
                return cli_usage(cmd, "--names: the name of P%d is %zu bytes; a name holds at most %d bytes", s + 1,
                                 strlen(nparts[s]), ARB_REPLAY_NAME_MAX);
    }
    int rc = pos ? arb_match_from_position(&a->m, g, pos, &a->su, &err) : arb_match_new(&a->m, g, &a->su, &err);
    if (rc && pos) {
        /* Name the position file in front of the path inside it. */
        char w[ARB_WHERE_MAX];
        snprintf(w, sizeof w, "%s", err.where);
        arb_error_where(&err, "%s%s%s", a->position, w[0] ? ": " : "", w);
    }
    if (rc) {
        /* An illegal deck or position is bad input here, not a failed verification. */
        int ec = cli_fail(cmd, &err);
        return ec == EXIT_VERIFY ? EXIT_INPUT : ec;
    }
    if (pos && a->pos_hash) {
        /* The hash `state --json` printed beside the position: what it must
         * load to. A mismatch means the file was edited, or passed through a
         * JSON library that rounded a 64-bit number. */
        const char *h = a->pos_hash;
        char hx[24];
        if (h[0] == '0' && (h[1] == 'x' || h[1] == 'X')) h += 2;
        snprintf(hx, sizeof hx, "0x%.18s", h); /* the one number parser, hex where documented */
        uint64_t want = 0, got = arb_match_hash(a->m);
        if (strlen(h) > 16 || arb_parse_u64s(hx, ARB_NUM_HEX, 0, UINT64_MAX, &want)) {
            fprintf(cli_msgs(), "arbiter %s: %s: \"hash\" is not a 64-bit hex hash\n", cmd, a->position);
            arb_match_free(a->m);
            a->m = NULL;
            return EXIT_INPUT;
        }
        if ((uint64_t)want != got) {
            fprintf(cli_msgs(),
                    "arbiter %s: %s: the position loads to state hash 0x%016" PRIx64 ", but the file records "
                    "0x%016" PRIx64 ": it was edited, or a JSON tool changed a value (64-bit numbers above 2^53 "
                    "must be kept exact)\n", cmd, a->position, got, want);
            arb_match_free(a->m);
            a->m = NULL;
            return EXIT_INPUT;
        }
    }
    if (!a->no_record && (rc = cli_output_target(cmd, a->out))) {
        arb_match_free(a->m);
        a->m = NULL;
        return rc;
    }
    if ((!a->no_record || a->server_secret) && cli_started(a->started, sizeof a->started)) {
        arb_match_free(a->m);
        a->m = NULL;
        return cli_usage(cmd, "SOURCE_DATE_EPOCH is not a number of seconds");
    }
    if (a->server_secret) {
        /* the secret is spent now, before the match is played: its first
         * match reveals it, so a second would let a player grind (#27 N5) */
        char what[900], cm[20];
        for (size_t i = 0; i < 8; i++)
            snprintf(cm + 2 * i, 3, "%02x", a->fair.commit[i]);
        snprintf(what, sizeof what, "%s %s%s, seed %" PRIu64 ", commitment %s…, at %s", cmd,
                 a->no_record ? "--no-record" : "-o ", a->no_record ? "" : cli_esc(a->out), a->seed, cm, a->started);
        if ((rc = cli_fair_secret_consume(cmd, a->server_secret, a->fair.secret, what))) {
            arb_match_free(a->m);
            a->m = NULL;
            return rc;
        }
    }
    if (a->no_record) return EXIT_OK;
    arb_replay_meta meta;
    memset(&meta, 0, sizeof meta);
    meta.game = g;
    meta.setup = &a->su;
    for (int s = 0; s < players; s++) meta.names[s] = nparts[s];
    meta.started = a->started;
    meta.position = pos;
    meta.flags = a->timed ? ARB_REPLAY_FLAG_TIMED : 0;
    meta.level = a->level;
    meta.version = a->format;
    if (a->archive && a->format == 1) {
        arb_match_free(a->m);
        a->m = NULL;
        return cli_usage(cmd, "--archive holds format-2 matches only");
    }
    if (a->archive && !a->aw && (rc = cli_match_archive(a, cmd))) {
        arb_match_free(a->m);
        a->m = NULL;
        return rc;
    }
    if (a->salt_len) {
        meta.salt = a->salt;
        meta.salt_len = a->salt_len;
    }
    if (a->server_secret) meta.fair = &a->fair;
    if (a->sign_key) {
        if (arb_seal_key_load(&a->key, a->sign_key, &err)) {
            arb_match_free(a->m);
            a->m = NULL;
            return cli_fail(cmd, &err);
        }
        if (!a->key.has_secret) {
            arb_match_free(a->m);
            a->m = NULL;
            fprintf(cli_msgs(), "arbiter %s: %s: a public key: --sign needs the secret key file\n", cmd, a->sign_key);
            return EXIT_INPUT;
        }
        meta.seal = arb_seal_writer_hook;
        meta.seal_ctx = &a->key;
    }
    if ((rc = a->aw ? arb_replay_writer_open_archive(&a->w, a->aw, &meta, &err)
                    : arb_replay_writer_open(&a->w, a->out, &meta, &err)) ||
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
    {
        uint64_t sv;
        if (arb_parse_u64s(arg, ARB_NUM_HEX, 0, UINT64_MAX, &sv))
            return cli_usage(cmd, "--seed '%s' is not a 64-bit number: decimal 0..18446744073709551615 or 0x and 1-16 "
                             "hex digits (no sign, space or leading zero)", arg);
        a->seed = sv;
    }
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
    case 'A': a->archive = a->archive ? a->archive : 1; return 0;
    case 'R': a->rules = arg; return 0;
    case 'F':
        if (strcmp(arg, "1") != 0 && strcmp(arg, "2") != 0) return cli_usage(cmd, "--format '%s' is not 1 or 2", arg);
        a->format = arg[0] - '0';
        return 0;
    case 'P': a->position = arg; return 0;
    case CLI_OPT_SERVER_SECRET: a->server_secret = arg; return 0;
    case CLI_OPT_SIGN: a->sign_key = arg; return 0;
    case CLI_OPT_CONTRIBUTION: {
        int rc = cli_fair_contribution(cmd, arg, &a->fair, &a->fair_seen);
        return rc ? rc : 0;
    }
    default: return -1;
    }
}
