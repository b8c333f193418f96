/* main.c — `arbiter`: git-style dispatch to the subcommands. */
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <sodium.h>
#include <xxhash.h>
#include <zlib.h>

#include "arbiter/plugin.h"
#include "cli/cli.h"

const cli_spec *const cli_specs[] = {
    &cli_spec_games,
    &cli_spec_cards,
    &cli_spec_deck,
    &cli_spec_verbs,
    &cli_spec_play,
    &cli_spec_record,
    &cli_spec_verify,
    &cli_spec_keygen,
    &cli_spec_sign,
    &cli_spec_seed,
    &cli_spec_reseal,
    &cli_spec_info,
    &cli_spec_extract,
    &cli_spec_archive,
    &cli_spec_pack,
    &cli_spec_unpack,
    &cli_spec_select,
    &cli_spec_merge,
    &cli_spec_slurm_script,
    &cli_spec_conform,
    &cli_spec_log,
    &cli_spec_state,
    &cli_spec_diff,
    &cli_spec_stats,
    &cli_spec_report,
    &cli_spec_crosscheck,
    &cli_spec_perft,
    &cli_spec_engine_serve,
    &cli_spec_complete, &cli_spec_man_cmd, NULL
};

static void help(FILE *out)
{
    fprintf(out,
            "usage: arbiter [--version] [--help] COMMAND [ARGS]\n"
            "\n"
            "Record, replay, verify and analyze trading-card-game matches.\n"
            "\n"
            "Commands:\n");
    for (const cli_spec *const *c = cli_specs; *c; c++)
        if (!(*c)->hidden) fprintf(out, "  %-13s %s\n", (*c)->name, (*c)->summary);
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

/* An unknown command: exit 2, naming the commands near it. Control bytes
 * of the argument are not echoed. */
static int unknown(const char *cmd)
{
    char shown[80], hint[512];
    arb_text_escape(shown, sizeof shown, cmd);
    cli_spec_near(cli_specs, cmd, hint, sizeof hint);
    fprintf(stderr, "arbiter: '%s' is not a command%s%ssee 'arbiter --help'\n", shown, hint, hint[0] ? " " : "; ");
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
            const cli_spec *c = cli_spec_find(cli_specs, argv[2]);
            if (!c) return unknown(argv[2]);
            char *av[] = { argv[2], "--help", NULL };
            return c->run(2, av);
        }
        help(stdout);
        return EXIT_OK;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        return version();
    }
    const cli_spec *c = cli_spec_find(cli_specs, cmd);
    if (!c) return unknown(cmd);
    int out_used = 0;
    int rc = stdio_args(cmd, argc - 1, argv + 1, &out_used);
    if (rc) return rc;
    rc = c->run(argc - 1, argv + 1);
    return out_used ? cli_out_finish(cmd, "-", rc) : rc;
}
