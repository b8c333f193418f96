/* main.c — `arbiter`: git-style dispatch to the subcommands. */
#include <string.h>

#include "cli/cli.h"

const cli_command cli_commands[] = {
    { "games", "list the games this build knows", cmd_games },
    { "cards", "list a game's card pool (--json)", cmd_cards },
    { "deck", "check a deck file or list preset decks", cmd_deck },
    { "verbs", "list a game's action verbs (the text and replay syntax)", cmd_verbs },
    { "play", "self-play between built-in agents, recorded to a .tcgr", cmd_play },
    { "record", "drive a match from actions on stdin, recorded live", cmd_record },
    { "verify", "replay .tcgr files and report the first divergence", cmd_verify },
    { "reseal", "re-record checkpoints and outcome after an intentional rules change", cmd_reseal },
    { "info", "print a replay's header, counts and outcome", cmd_info },
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

int main(int argc, char **argv)
{
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
        }
        help(stdout);
        return EXIT_OK;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        printf("arbiter %s\n", arb_version());
        return EXIT_OK;
    }
    for (const cli_command *c = cli_commands; c->name; c++)
        if (strcmp(c->name, cmd) == 0) return c->run(argc - 1, argv + 1);
    fprintf(stderr, "arbiter: '%s' is not a command; see 'arbiter --help'\n", cmd);
    return EXIT_USAGE;
}
