/* cmd_log.c — `arbiter log`: the play-by-play of a replay. */
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

static const char *const log_usage[] = {
    "log FILE [--as SEAT] [--from N] [--to N] [--json]",
    NULL
};
static const cli_opt log_opts[] = {
    { "as", 'a', 'a', CLI_ARG_SEAT, "SEAT", "only what that seat could see (SEAT: 0-based number or P1..P4); other seats' draws read \"draws a card\" and their actions show the verb only", 0, 0, CLI_SH_NONE },
    { "from", 'f', 'f', CLI_ARG_TEXT, "N", "start at record N (setup events are shown when N is 0)", 0, 0, CLI_SH_NONE },
    { "to", 't', 't', CLI_ARG_TEXT, "N", "stop after record N", 0, 0, CLI_SH_NONE },
    CLI_OPT_JSON("one JSON object: {file, game, seed, view, players, entries:[{record, kind, turn, phase, clock_ms, clock, seat, seat_name, text, flags, verb, args, elapsed_ms, decision, rejected, rule, event, hidden, ok}], records, actions, rejected, mismatches, complete (the outcome was read), stopped (--to ended the walk), truncated, truncation, diverged, divergence}"),
    CLI_OPT_END
};
const cli_spec cli_spec_log = {
    .name = "log",
    .summary = "play-by-play of a replay, optionally as one seat saw it",
    .usage = log_usage,
    .description =
        "The play-by-play of a replay: one line per record and per engine event with\n"
        "the record index, turn, phase, elapsed clock time (m:ss.mmm, cumulative),\n"
        "seat and the engine's narration. Arbiter actions, clock events, rejected\n"
        "actions (with the rule ID) and checkpoint/outcome mismatches are flagged.\n",
    .opts = log_opts,
    .notes =
        "A truncated replay is shown up to its last complete record (noted on stderr),\n"
        "then the command exits 3. A replay is shown up to the first record `arbiter\n"
        "verify` refuses (a rejected action, a checkpoint or outcome the engine does\n"
        "not reproduce, a missing checkpoint, a record after the outcome), that\n"
        "record included, and no further (noted on stderr and as \"diverged\" and\n"
        "\"divergence\" in --json), then the command exits 1.\n",
    .exit = "0 shown, 1 the replay diverges, 2 usage, 3 missing/corrupt/unsupported/ truncated file.",
    .operands = CLI_ARG_FILE,
    .run = cmd_log,
};




int cmd_log(int argc, char **argv)
{
    arb_an_log_opts o = ARB_AN_LOG_OPTS_INIT;
    const char *as = NULL;
    int c;
    cli_parser p;
    cli_parse_init(&p, &cli_spec_log, argc, argv);
    while ((c = cli_next(&p)) > 0) {
        switch (c) {
        case 'a': as = p.arg; break;
        case 'f':
            if (parse_index(p.arg, &o.from)) return cli_usage("log", "--from wants a record index, not '%s'", p.arg);
            break;
        case 't':
            if (parse_index(p.arg, &o.to)) return cli_usage("log", "--to wants a record index, not '%s'", p.arg);
            break;
        case CLI_ID_JSON: o.json = 1; break;
        default: return cli_unhandled(&p);
        }
    }
    if (c < 0) return p.rc;
    if (p.npos < 1) return cli_usage("log", "a replay FILE is required");
    if (p.npos > 1) return cli_usage("log", "unexpected argument '%s'", p.pos[1]);
    if (o.from >= 0 && o.to >= 0 && o.to < o.from) return cli_usage("log", "--to is before --from");
    const char *path = p.pos[0];
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
