/* match_args.h — shared setup of `play` and `record` (see match_args.c). */
#ifndef ARBITER_CLI_MATCH_ARGS_H
#define ARBITER_CLI_MATCH_ARGS_H

#include "cli/cli.h"

typedef struct cli_match_args {
    const char *game, *decks, *names, *out;
    const char *position;       /* --position FILE (JSON), NULL for a seeded setup */
    arb_tree *pos_tree;         /* owns the parsed position; cli_match_args_free */
    const char *pos_hash;       /* the "hash" `state --json` recorded beside it, or NULL */
    uint64_t seed;
    int have_seed, players, timed, no_record, level;
    const arb_game *engine;     /* set: use this game (an --engine proxy), not --game's */
    int archive;                /* --archive: -o names an archive; 2: append to it (record) */
    int format;                 /* --format 1|2 (0: the default, 2) */
    const char *rules;          /* --rules R: an older rules version of the game (NULL: the newest) */
    arb_archive_writer *aw;     /* the open archive (shared by a --games loop) */
    arb_options options;
    uint8_t salt[ARB_REPLAY_SALT_MAX];
    size_t salt_len;
    /* fair seed (--server-secret, --contribution) */
    const char *server_secret;
    arb_fair fair;
    unsigned fair_seen;
    const char *sign_key;       /* --sign KEY: seal the file at close */
    arb_seal_key key;           /* loaded from sign_key */
    /* results */
    const arb_game *g;
    arb_setup su;
    arb_deck decks_buf[ARB_MAX_SEATS];
    char names_buf[512];
    char started[40];
    arb_match *m;
    arb_replay_writer *w;
} cli_match_args;

/* Codes of long options without a short letter (above any char). */
#define CLI_OPT_SERVER_SECRET 0x150
#define CLI_OPT_CONTRIBUTION 0x151
#define CLI_OPT_SIGN 0x152

/* The options both commands take (and perft, which starts a match the
 * same way); cli_match_arg handles them. */
#define CLI_MATCH_OPTS \
    CLI_OPT_GAME("the game (see 'arbiter games')"), \
    { "seed", 's', 's', CLI_ARG_TEXT, "S", "the match seed (decimal or 0x hex, 64-bit)", 0, 0, CLI_SH_NONE }, \
    { "players", 'p', 'p', CLI_ARG_TEXT, "N", "seats (default: the game's minimum)", 0, 0, CLI_SH_NONE }, \
    { "decks", 'd', 'd', CLI_ARG_DECKS, "D1,D2,…", "preset names or deck files, one for all or one per seat (default: the game's presets in order)", 0, 0, CLI_SH_NONE }, \
    { "names", 'n', 0, CLI_ARG_TEXT, "A,B,…", "player names for the header (default P1, P2, …)", 0, 0, CLI_SH_NONE }, \
    { "option", 'O', 0, CLI_ARG_TEXT, "K=V", "a match option (integer), repeatable", 0, 0, CLI_SH_NONE }, \
    { "salt", 'S', 0, CLI_ARG_TEXT, "HEX", "write the seed commitment BLAKE2b-256(seed||salt)", 0, 0, CLI_SH_NONE }, \
    { "server-secret", CLI_OPT_SERVER_SECRET, 0, CLI_ARG_FILE, "S.secret", "a fair seed (commit-reveal, FORMAT.md §12.1): the seed is derived from the secret of `arbiter seed commit` and every seat's --contribution (instead of --seed)", 0, 0, CLI_SH_NONE }, \
    { "contribution", CLI_OPT_CONTRIBUTION, 0, CLI_ARG_TEXT, "SEAT:HEX", "seat's contribution to the fair seed (1-64 bytes)", 0, 0, CLI_SH_NONE }, \
    { "sign", CLI_OPT_SIGN, 0, CLI_ARG_FILE, "KEY", "seal the finished file with the secret key KEY (arbiter keygen): an Ed25519 signature over every byte, 102 bytes", 0, 0, CLI_SH_NONE }, \
    { "level", 'L', 0, CLI_ARG_TEXT, "N", "zlib level 0..9 (default: 9 for the finished file, 1 for its .part journal; version 1: 1)", 0, 0, CLI_SH_NONE }, \
    { "format", 'F', 0, CLI_ARG_TEXT, "1|2", "replay format version (default 2; 1 for old readers)", 0, 0, CLI_SH_NONE }, \
    { "rules", 'R', 0, CLI_ARG_TEXT, "R", "play under an older rules version of the game (default: the newest; 'arbiter games --json' lists them)", 0, 0, CLI_SH_NONE }, \
    CLI_OPT_OUTPUT("the replay (written as FILE.part, renamed at the end)"), \
    { "position", 'P', 0, CLI_ARG_FILE, "FILE", "start from an explicit position instead of the seeded setup: the game's state tree as JSON, e.g. the output of `arbiter state REPLAY --at N --json` (its \"state\" is taken); the seed then drives only later random events", 0, 0, CLI_SH_NONE }

/* Handle one of the shared options: 0 handled, -1 not ours, else an exit code. */
int cli_match_arg(cli_match_args *a, const char *cmd, int c, const char *arg);
/* Resolve decks, set up the match and open the writer (unless no_record).
 * Returns EXIT_OK or an exit code after printing the error. */
int cli_match_start(cli_match_args *a, const char *cmd);
/* --archive: open the archive writer a->aw (append when a->archive == 2). */
int cli_match_archive(cli_match_args *a, const char *cmd);
/* Write the index and close a->aw (ok = 0: abandon, members stay readable). */
int cli_match_archive_close(cli_match_args *a, const char *cmd, int ok);
/* Release what cli_match_start kept beyond the match (the position tree). */
void cli_match_args_free(cli_match_args *a);

#endif
