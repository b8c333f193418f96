/* cmd_log.c — `arbiter log`: the play-by-play of a replay. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

static int parse_index(const char *s, int64_t *out)
{
    uint64_t v;
    if (cli_parse_num(s, 0, INT64_MAX - 1, &v)) return -1;
    *out = (int64_t)v;
    return 0;
}

int cmd_log(int argc, char **argv)
{
    static const struct option opts[] = {
        { "as", required_argument, NULL, 'a' },
        { "from", required_argument, NULL, 'f' },
        { "to", required_argument, NULL, 't' },
        { "json", no_argument, NULL, 'j' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };
    arb_an_log_opts o = ARB_AN_LOG_OPTS_INIT;
    const char *as = NULL;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "a:f:t:jh", opts, NULL)) != -1) {
        switch (c) {
        case 'a': as = optarg; break;
        case 'f':
            if (parse_index(optarg, &o.from)) return cli_usage("log", "--from wants a record index, not '%s'", optarg);
            break;
        case 't':
            if (parse_index(optarg, &o.to)) return cli_usage("log", "--to wants a record index, not '%s'", optarg);
            break;
        case 'j': o.json = 1; break;
        case 'h':
            printf("usage: arbiter log FILE [--as SEAT] [--from N] [--to N] [--json]\n\n"
                   "The play-by-play of a replay: one line per record and per engine event with\n"
                   "the record index, turn, phase, elapsed clock time (m:ss.mmm, cumulative),\n"
                   "seat and the engine's narration. Arbiter actions, clock events, rejected\n"
                   "actions (with the rule ID) and checkpoint/outcome mismatches are flagged.\n\n"
                   "  --as SEAT   only what that seat could see (SEAT: 0-based number or P1..P4);\n"
                   "              other seats' draws read \"draws a card\" and their actions\n"
                   "              show the verb only\n"
                   "  --from N    start at record N (setup events are shown when N is 0)\n"
                   "  --to N      stop after record N\n"
                   "  --json      one JSON object: {file, game, seed, view, players, entries:[{record,\n"
                   "              kind, turn, phase, clock_ms, clock, seat, seat_name, text, flags,\n"
                   "              verb, args, elapsed_ms, decision, rejected, rule, event, hidden,\n"
                   "              ok}], records, actions, rejected, mismatches, complete (the\n"
                   "              outcome was read), stopped (--to ended the walk), truncated,\n"
                   "              truncation, diverged, divergence}\n\n"
                   "A truncated replay is shown up to its last complete record (noted on stderr),\n"
                   "then the command exits 3. A replay is shown up to the first record `arbiter\n"
                   "verify` refuses (a rejected action, a checkpoint or outcome the engine does\n"
                   "not reproduce, a missing checkpoint, a record after the outcome), that\n"
                   "record included, and no further (noted on stderr and as \"diverged\" and\n"
                   "\"divergence\" in --json), then the command exits 1.\n"
                   "Exit: 0 shown, 1 the replay diverges, 2 usage, 3 missing/corrupt/unsupported/\n"
                   "truncated file.\n");
            return EXIT_OK;
        default: return cli_usage("log", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind >= argc) return cli_usage("log", "a replay FILE is required");
    if (optind + 1 < argc) return cli_usage("log", "unexpected argument '%s'", argv[optind + 1]);
    if (o.from >= 0 && o.to >= 0 && o.to < o.from) return cli_usage("log", "--to is before --from");
    const char *path = argv[optind];
    arb_an_source *src;
    int ec = cli_an_open("log", path, &src);
    if (ec) return ec;
    if (as) {
        o.view = cli_an_seat(as, arb_an_source_header(src)->players);
        if (o.view == -3) {
            int players = arb_an_source_header(src)->players;
            arb_an_source_free(src);
            return cli_usage("log", "--as wants a seat of this %d-player match (0..%d or P1..P%d), not '%s'", players,
                             players - 1, players, as);
        }
    }
    arb_error err = ARB_ERROR_INIT;
    arb_an_walk_result res;
    int rc = arb_an_log(src, &o, stdout, &res, &err);
    arb_an_source_free(src);
    fflush(stdout);
    if (rc) return cli_fail("log", &err);
    return cli_an_end("log", &res, EXIT_VERIFY);
}
