/* main.c — `arbiter`: git-style dispatch to the subcommands. */
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <sodium.h>
#include <xxhash.h>
#include <zlib.h>

#include "arbiter/plugin.h"
#include "cli/cli.h"

const cli_command cli_commands[] = {
    { "games", "list the games this build knows", cmd_games },
    { "cards", "list a game's card pool (--json)", cmd_cards },
    { "deck", "check a deck file or list preset decks", cmd_deck },
    { "verbs", "list a game's action verbs (the text and replay syntax)", cmd_verbs },
    { "play", "self-play between built-in agents, recorded to a .tcgr", cmd_play },
    { "record", "drive a match from actions on stdin, recorded live", cmd_record },
    { "verify", "replay .tcgr files and report the first divergence", cmd_verify },
    { "keygen", "create an Ed25519 key pair for sealing replays", cmd_keygen },
    { "sign", "seal existing format-2 replays with a secret key", cmd_sign },
    { "seed", "fair seeds: commit to a server secret, derive the seed (commit-reveal)", cmd_seed },
    { "reseal", "re-record checkpoints and outcome after an intentional rules change", cmd_reseal },
    { "info", "print a replay's header, counts and outcome (an archive: its matches)", cmd_info },
    { "extract", "one match of an archive as a standalone replay (ARCHIVE#N -o FILE)", cmd_extract },
    { "archive", "repair: copy an archive's members that verify into a new file (repair IN -o OUT)", cmd_archive },
    { "pack", "replays (files, directories, archives) into one archive, seals kept", cmd_pack },
    { "unpack", "an archive into one standalone replay per member, seals kept", cmd_unpack },
    { "select", "the matches of files, directories, archives that meet criteria (list, archive, files)", cmd_select },
    { "merge", "merge sharded `verify --json` outputs into one summary", cmd_merge },
    { "slurm-script", "print the sbatch job script for bulk verification", cmd_slurm_script },
    { "conform", "run the XML conformance suite (lint, coverage, TAP/JUnit/JSON)", cmd_conform },
    { "log", "play-by-play of a replay, optionally as one seat saw it", cmd_log },
    { "state", "the state after record N (--at N [--as SEAT] [--json])", cmd_state },
    { "diff", "first difference between two replays of a game", cmd_diff },
    { "stats", "statistics over many replays, per game", cmd_stats },
    { "report", "self-contained HTML report of a replay (-o OUT.html)", cmd_report },
    { "crosscheck", "differential play of an engine adapter against the built-in engine", cmd_crosscheck },
    { "perft", "count legal action sequences of length N (move-generator check)", cmd_perft },
    { "engine-serve", "serve a built-in engine over the engine protocol (stdin/stdout)", cmd_engine_serve },
    { NULL, NULL, NULL }
};

static void help(FILE *out)
{
    fprintf(out,
            "usage: arbiter [--version] [--help] COMMAND [ARGS]\n"
            "\n"
            "Record, replay, verify and analyze trading-card-game matches.\n"
            "\n"
            "Commands:\n");
    for (const cli_command *c = cli_commands; c->name; c++) fprintf(out, "  %-13s %s\n", c->name, c->summary);
    fprintf(out,
            "\n"
            "'arbiter COMMAND --help' describes one command.\n"
            "\n"
            "Exit codes:\n"
            "  0  success\n"
            "  1  verification failed (a replay diverges, a deck is illegal,\n"
            "     a conformance result is unexpected)\n"
            "  2  usage error (bad command line)\n"
            "  3  bad input (missing, unreadable, corrupt or unsupported file;\n"
            "     unknown game, card or deck)\n"
            "  4  internal error (out of memory, engine fault)\n");
}

/* Edit distance (insertions, deletions, substitutions), capped inputs. */
static unsigned distance(const char *a, const char *b)
{
    unsigned row[33], n = (unsigned)strlen(b);
    if (strlen(a) > 32 || n > 32) return 99;
    for (unsigned j = 0; j <= n; j++) row[j] = j;
    for (unsigned i = 1; a[i - 1]; i++) {
        unsigned diag = row[0];
        row[0] = i;
        for (unsigned j = 1; j <= n; j++) {
            unsigned up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            diag = up;
            row[j] = best;
        }
    }
    return row[n];
}

/* An unknown command: exit 2, naming the commands within two edits of it
 * or starting with it. Control bytes of the argument are not echoed. */
static int unknown(const char *cmd)
{
    char shown[80];
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)cmd; *p && n + 5 < sizeof shown; p++)
        n += (size_t)snprintf(shown + n, sizeof shown - n, *p < 0x20 || *p == 0x7f ? "\\x%02x" : "%c", *p);
    shown[n] = '\0';
    fprintf(stderr, "arbiter: '%s' is not a command", shown);
    int k = 0;
    size_t len = strlen(cmd);
    for (const cli_command *c = cli_commands; c->name; c++)
        if (distance(cmd, c->name) <= 2 || (len >= 2 && strncmp(cmd, c->name, len) == 0))
            fprintf(stderr, "%s'%s'", k++ ? " or " : "; did you mean ", c->name);
    fprintf(stderr, "%ssee 'arbiter --help'\n", k ? "? " : "; ");
    return EXIT_USAGE;
}

/* --version: the tool, every engine with its rules and engine versions, and
 * the libraries this binary runs with (as they report themselves). */
static int version(void)
{
    printf("arbiter %s\n", arb_version());
    printf("replay formats read: 1, 2\n");
    for (unsigned i = 0; i < arb_game_count(); i++) {
        const arb_game *g = arb_game_at(i);
        printf("  %-11s rules %-21s engine %s\n", g->id, g->rules_version, g->engine_version);
    }
    unsigned x = XXH_versionNumber();
    long xml = strtol(xmlParserVersion, NULL, 10);
    printf("libraries: zlib %s, libxml2 %ld.%ld.%ld, libsodium %s, xxhash %u.%u.%u\n", zlibVersion(),
           xml / 10000, xml / 100 % 100, xml % 100, sodium_version_string(), x / 10000, x / 100 % 100, x % 100);
    return EXIT_OK;
}

/* Plug-in engines (arbiter/plugin.h): ARBITER_GAMES_PATH, then every
 * leading `--plugin FILE`. Returns how many arguments it consumed, or -1
 * after printing the error. */
static int load_plugins(int argc, char **argv, int *code)
{
    arb_error err = ARB_ERROR_INIT;
    if (arb_plugin_load_env(&err)) { *code = cli_fail("plugin", &err); return -1; }
    int k = 0;
    while (1 + k < argc && strcmp(argv[1 + k], "--plugin") == 0) {
        if (2 + k >= argc) { *code = cli_usage("plugin", "--plugin needs a FILE"); return -1; }
        const arb_game *g;
        if (arb_plugin_load(argv[2 + k], &g, &err)) { *code = cli_fail("plugin", &err); return -1; }
        k += 2;
    }
    return k;
}

/* '-' in a command's arguments (cli/stdio.c): after -o/--output, the
 * command's output goes to stdout (for the commands that write a replay,
 * an archive or results to a file; report writes '-' itself); anywhere
 * else, stdin is the input file, for the commands that read one. */
static int in_list(const char *cmd, const char *const *list)
{
    for (; *list; list++)
        if (!strcmp(cmd, *list)) return 1;
    return 0;
}

static int stdio_args(const char *cmd, int argc, char **argv, int *out_used)
{
    static const char *const readers[] = { "verify", "info", "log", "state", "report", "diff", "stats", "merge",
                                           "select", "pack", "unpack", "archive", NULL };
    static const char *const writers[] = { "play", "record", "merge", "extract", "pack", "select", "archive", NULL };
    int r = in_list(cmd, readers), w = in_list(cmd, writers);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-") || !strcmp(argv[i - 1], "--")) continue;
        int is_out = !strcmp(argv[i - 1], "-o") || !strcmp(argv[i - 1], "--output");
        const char *p = NULL;
        if (is_out && w) {
            if (!(p = cli_out(cmd, "-"))) return EXIT_INTERNAL;
            *out_used = 1;
        } else if (!is_out && r) {
            if (!(p = cli_in(cmd, "-"))) return EXIT_INPUT;
        } else {
            continue;
        }
        argv[i] = (char *)p;
    }
    return EXIT_OK;
}

int main(int argc, char **argv)
{
    int code = EXIT_OK;
    int k = load_plugins(argc, argv, &code);
    if (k < 0) return code;
    argv[k] = argv[0];
    argc -= k;
    argv += k;
    if (argc < 2) {
        help(stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        if (argc > 2 && strcmp(cmd, "help") == 0) {
            for (const cli_command *c = cli_commands; c->name; c++)
                if (strcmp(c->name, argv[2]) == 0) {
                    char *av[] = { argv[2], "--help", NULL };
                    return c->run(2, av);
                }
            return unknown(argv[2]);
        }
        help(stdout);
        return EXIT_OK;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        return version();
    }
    for (const cli_command *c = cli_commands; c->name; c++)
        if (strcmp(c->name, cmd) == 0) {
            int out_used = 0;
            int rc = stdio_args(cmd, argc - 1, argv + 1, &out_used);
            if (rc) return rc;
            rc = c->run(argc - 1, argv + 1);
            return out_used ? cli_out_finish(cmd, "-", rc) : rc;
        }
    return unknown(cmd);
}
