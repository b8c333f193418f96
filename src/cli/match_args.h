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
    int archive;                /* --archive: -o names an archive; 2: append to it (record) */
    int format;                 /* --format 1|2 (0: the default, 2) */
    const char *rules;          /* --rules R: an older rules version of the game (NULL: the newest) */
    arb_archive_writer *aw;     /* the open archive (shared by a --games loop) */
    arb_options options;
    uint8_t salt[ARB_REPLAY_SALT_MAX];
    size_t salt_len;
    /* results */
    const arb_game *g;
    arb_setup su;
    arb_deck decks_buf[ARB_MAX_SEATS];
    char names_buf[512];
    char started[40];
    arb_match *m;
    arb_replay_writer *w;
} cli_match_args;

/* The long options both commands take; their getopt codes. */
#define CLI_MATCH_LONGOPTS \
    { "game", required_argument, NULL, 'g' }, \
    { "seed", required_argument, NULL, 's' }, \
    { "players", required_argument, NULL, 'p' }, \
    { "decks", required_argument, NULL, 'd' }, \
    { "names", required_argument, NULL, 'n' }, \
    { "output", required_argument, NULL, 'o' }, \
    { "option", required_argument, NULL, 'O' }, \
    { "salt", required_argument, NULL, 'S' }, \
    { "level", required_argument, NULL, 'L' }, \
    { "timed", no_argument, NULL, 't' }, \
    { "position", required_argument, NULL, 'P' }, \
    { "archive", no_argument, NULL, 'A' }, \
    { "format", required_argument, NULL, 'F' }, \
    { "rules", required_argument, NULL, 'R' }
#define CLI_MATCH_HELP \
    "  --game G          the game (see 'arbiter games')\n" \
    "  --seed S          the match seed (decimal or 0x hex, 64-bit)\n" \
    "  --players N       seats (default: the game's minimum)\n" \
    "  --decks D1,D2,…   preset names or deck files, one for all or one per\n" \
    "                    seat (default: the game's presets in order)\n" \
    "  --names A,B,…     player names for the header (default P1, P2, …)\n" \
    "  --option K=V      a match option (integer), repeatable\n" \
    "  --salt HEX        write the seed commitment BLAKE2b-256(seed||salt)\n" \
    "  --level N         zlib level 0..9 (default: 9 for the finished file, 1\n" \
    "                    for its .part journal; version 1: 1)\n" \
    "  --format 1|2      replay format version (default 2; 1 for old readers)\n" \
    "  --rules R         play under an older rules version of the game (default:\n" \
    "                    the newest; 'arbiter games --json' lists them)\n" \
    "  -o, --output FILE the replay (written as FILE.part, renamed at the end)\n" \
    "  --position FILE   start from an explicit position instead of the seeded\n" \
    "                    setup: the game's state tree as JSON, e.g. the output of\n" \
    "                    `arbiter state REPLAY --at N --json` (its \"state\" is taken);\n" \
    "                    the seed then drives only later random events\n" \
    "  Start time in the header: SOURCE_DATE_EPOCH when set, else now.\n"

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
