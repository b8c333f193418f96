/* cmd_play.c — `arbiter play`: self-play between built-in agents, recorded
 * to a .tcgr through the same recorder step a game server would use. */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/setup.h"

static void play_help(void)
{
    printf("usage: arbiter play --game G --seed S [--players N] [--agents A,B,…]\n"
           "                    [--decks D1,D2,…] [--timed] [--json] -o FILE\n"
           "\n"
           "Play a match between built-in agents and record it. Agents: random\n"
           "(uniform over the legal actions) or greedy (the game's heuristic); one\n"
           "kind for every seat or one per seat (default random). --timed gives\n"
           "every decision a seeded think time, so clock rules (timeouts) apply.\n"
           "The same seed, agents, decks and start time give a byte-identical file.\n"
           "\n"
           CLI_MATCH_HELP
           "  --agents A,B,…    random | greedy, one for all or one per seat\n"
           "  --timed           seeded think times (elapsed_ms) and clock events\n"
           "  --max-actions N   stop an endless match after N actions (default 10000000)\n"
           "  --no-record       play without recording (to measure recorder overhead)\n"
           "  --json            print the summary as one JSON object\n"
           "\n"
           "Exit: 0 recorded, 2 usage, 3 bad deck/game, 4 an engine fault.\n");
}

int cmd_play(int argc, char **argv)
{
    static const struct option opts[] = {
        CLI_MATCH_LONGOPTS,
        { "agents", required_argument, NULL, 'a' },
        { "max-actions", required_argument, NULL, 'M' },
        { "no-record", no_argument, NULL, 'N' },
        { "json", no_argument, NULL, 'j' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };
    cli_match_args a;
    memset(&a, 0, sizeof a);
    a.level = -1;
    const char *agents = NULL;
    unsigned long long max_actions = 10000000ULL;
    int json = 0, c, rc;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        if ((rc = cli_match_arg(&a, "play", c, optarg)) >= 0) {
            if (rc) return rc;
            continue;
        }
        switch (c) {
        case 'a': agents = optarg; break;
        case 'M':
            if (cli_parse_u64(optarg, &max_actions) || !max_actions)
                return cli_usage("play", "--max-actions '%s' is not a positive integer", optarg);
            break;
        case 'N': a.no_record = 1; break;
        case 'j': json = 1; break;
        case 'h': play_help(); return EXIT_OK;
        default: return cli_usage("play", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc) return cli_usage("play", "unexpected argument '%s'", argv[optind]);
    if ((rc = cli_match_start(&a, "play"))) return rc;
    int players = a.su.players;
    arb_agent *ag = calloc((size_t)players, sizeof *ag);
    if (!ag) {
        arb_replay_writer_free(a.w);
        arb_match_free(a.m);
        return EXIT_INTERNAL;
    }
    char *parts[ARB_MAX_SEATS];
    int np = 0;
    char abuf[256] = "random";
    if (agents) snprintf(abuf, sizeof abuf, "%s", agents);
    np = cli_split(abuf, parts, ARB_MAX_SEATS);
    rc = EXIT_OK;
    if (np < 1 || (np > 1 && np != players)) {
        rc = cli_usage("play", "--agents lists %d agents for %d players", np, players);
        goto done;
    }
    for (int s = 0; s < players; s++) {
        int k = arb_agent_kind_parse(parts[np == 1 ? 0 : s]);
        if (k < 0) {
            rc = cli_usage("play", "unknown agent '%s' (random or greedy)", parts[np == 1 ? 0 : s]);
            goto done;
        }
        arb_agent_init(&ag[s], (arb_agent_kind)k, a.su.seed, s, a.timed);
    }
    uint64_t n = 0;
    arb_error err = ARB_ERROR_INIT;
    for (; n < max_actions; n++) {
        arb_decision d = arb_match_decision(a.m);
        if (d.seat == ARB_SEAT_NONE) break;
        arb_action act;
        int seat = d.seat >= 0 && d.seat < players ? d.seat : 0;
        if (arb_agent_choose(&ag[seat], a.m, &act)) {
            fprintf(stderr, "arbiter play: engine fault: seat %d owes a decision with no legal action\n", d.seat);
            rc = EXIT_INTERNAL;
            goto done;
        }
        int r2 = a.w ? arb_replay_record_step(a.w, a.m, &act, &err) : arb_match_apply(a.m, &act, &err);
        if (r2) {
            rc = err.code == ARB_EIO ? cli_fail("play", &err) : EXIT_INTERNAL;
            if (err.code != ARB_EIO) {
                char t[128];
                arb_action_format(a.g, &act, t, sizeof t);
                fprintf(stderr, "arbiter play: engine fault: its own legal action '%s' was rejected: %s %s\n", t,
                        err.rule, err.msg);
            }
            goto done;
        }
    }
    arb_outcome o;
    int over = arb_match_outcome(a.m, &o);
    uint64_t bytes = 0;
    if (a.w) {
        if (!over) {
            fprintf(stderr, "arbiter play: stopped after %" PRIu64 " actions without an outcome; %s.part kept\n", n,
                    a.out);
            rc = EXIT_INTERNAL;
            goto done;
        }
        bytes = arb_replay_writer_bytes(a.w);
        int r3 = arb_replay_writer_close(a.w, &err);
        a.w = NULL;
        if (r3) {
            rc = cli_fail("play", &err);
            goto done;
        }
        FILE *f = fopen(a.out, "rb");
        if (f) {
            fseek(f, 0, SEEK_END);
            bytes = (uint64_t)ftell(f);
            fclose(f);
        }
    }
    const char *reason = over && o.reason < a.g->noutcome_reasons ? a.g->outcome_reasons[o.reason] : "unfinished";
    if (json) {
        printf("{\"file\":");
        cli_json_str(stdout, a.out ? a.out : "");
        printf(",\"game\":");
        cli_json_str(stdout, a.g->id);
        printf(",\"seed\":%" PRIu64 ",\"actions\":%" PRIu64 ",\"turns\":%u,\"winner\":%d,\"reason\":", a.su.seed, n,
               over ? o.turns : arb_match_turn(a.m), over ? o.winner : -1);
        cli_json_str(stdout, reason);
        printf(",\"final_hash\":\"0x%016" PRIx64 "\",\"bytes\":%" PRIu64 "}\n", arb_match_hash(a.m), bytes);
    } else {
        char win[32];
        if (over && o.winner >= 0) snprintf(win, sizeof win, "P%d wins", o.winner + 1);
        else snprintf(win, sizeof win, "%s", over ? "draw" : "no result");
        printf("%s: %s seed %" PRIu64 ", %" PRIu64 " actions, %u turns, %s (%s)", a.out ? a.out : "(not recorded)",
               a.g->id, a.su.seed, n, over ? o.turns : arb_match_turn(a.m), win, reason);
        if (bytes) printf(", %" PRIu64 " bytes", bytes);
        printf("\n");
    }
done:
    if (a.w) arb_replay_writer_free(a.w);
    arb_match_free(a.m);
    free(ag);
    return rc;
}
