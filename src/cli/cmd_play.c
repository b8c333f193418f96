/* cmd_play.c — `arbiter play`: self-play between built-in agents, recorded
 * to a .tcgr through the same recorder step a game server would use. */
#include <errno.h>
#include <sys/stat.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/match_args.h"
#include "cli/progress.h"
#include "cli/shard.h"
#include "arbiter/toolkit.h"

/* An injected disconnect: after `at` actions (disc = 0: none). */
typedef struct play_disc {
    int on;
    unsigned long long at, ms;
} play_disc;

/* Play and record the match a describes (cli_match_start done); index >= 0
 * adds "index" to the JSON summary. */
/* -q: no line per match (play --games), only the closing one */
static int quiet;

static int play_match(cli_match_args *a, const char *agents, uint64_t max_actions, int json, int64_t index,
                      play_disc disc)
{
    int rc;
    int players = a->su.players;
    arb_agent *ag = calloc((size_t)players, sizeof *ag);
    if (!ag) {
        arb_replay_writer_free(a->w);
        arb_match_free(a->m);
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
        arb_agent_init(&ag[s], (arb_agent_kind)k, a->su.seed, s, a->timed);
    }
    uint64_t n = 0;
    arb_error err = ARB_ERROR_INIT;
    for (; n < max_actions; n++) {
        arb_decision d = arb_match_decision(a->m);
        if (d.seat == ARB_SEAT_NONE) break;
        if (disc.on && n >= disc.at && d.seat >= 0) {
            /* The injected disconnect: the arbiter's two actions go through
             * the same parser and recorder step as `record` input. */
            disc.on = 0;
            char line[2][64];
            snprintf(line[0], sizeof line[0], "arbiter disconnect %d", d.seat);
            snprintf(line[1], sizeof line[1], "+%llu arbiter reconnect %d", disc.ms, d.seat);
            for (int k = 0; k < 2 && arb_match_decision(a->m).seat != ARB_SEAT_NONE; k++) {
                arb_action da;
                int r1 = arb_action_parse(a->g, line[k], &da, &err);
                if (!r1) r1 = a->w ? arb_replay_record_step(a->w, a->m, &da, &err) : arb_match_apply(a->m, &da, &err);
                if (r1) { /* the game has no clock rules, or refuses it here */
                    rc = cli_fail("play", &err);
                    if (err.code == ARB_EILLEGAL) rc = EXIT_INPUT;
                    goto done;
                }
                n++;
            }
            n--;
            continue;
        }
        arb_action act;
        int seat = d.seat >= 0 && d.seat < players ? d.seat : 0;
        if (arb_agent_choose(&ag[seat], a->m, &act)) {
            fprintf(stderr, "arbiter play: engine fault: seat %d owes a decision with no legal action\n", d.seat);
            rc = EXIT_INTERNAL;
            goto done;
        }
        int r2 = a->w ? arb_replay_record_step(a->w, a->m, &act, &err) : arb_match_apply(a->m, &act, &err);
        if (r2) {
            /* EIO: the disk; ELIMIT: the game's bound on actions (FORMAT.md §8.1) */
            int io = err.code == ARB_EIO || err.code == ARB_ELIMIT;
            rc = io ? cli_fail("play", &err) : EXIT_INTERNAL;
            if (!io) {
                char t[128];
                arb_action_format(a->g, &act, t, sizeof t);
                fprintf(stderr, "arbiter play: engine fault: its own legal action '%s' was rejected: %s %s\n", t,
                        err.rule, err.msg);
            }
            goto done;
        }
    }
    arb_outcome o;
    int over = arb_match_outcome(a->m, &o);
    uint64_t bytes = 0;
    int64_t member = -1;
    char shown[4200];
    if (a->w && a->aw) {
        /* an archive member: the archive's close writes the index; its
         * bytes are known once the archive is (the closing line) */
        member = (int64_t)arb_archive_writer_members(a->aw);
        snprintf(shown, sizeof shown, "%s#%" PRId64, a->out, member);
        if (!over) {
            fprintf(stderr, "arbiter play: stopped after %" PRIu64 " actions without an outcome\n", n);
            rc = EXIT_INTERNAL;
            goto done;
        }
        int r4 = arb_replay_writer_close(a->w, &err);
        a->w = NULL;
        if (r4) {
            rc = cli_fail("play", &err);
            goto done;
        }
    } else if (a->w) {
        if (!over) {
            fprintf(stderr, "arbiter play: stopped after %" PRIu64 " actions without an outcome; %s.part kept\n", n,
                    cli_esc(a->out));
            rc = EXIT_INTERNAL;
            goto done;
        }
        bytes = arb_replay_writer_bytes(a->w);
        int r3 = arb_replay_writer_close(a->w, &err);
        a->w = NULL;
        if (r3) {
            rc = cli_fail("play", &err);
            goto done;
        }
        FILE *f = fopen(a->out, "rb");
        if (f) {
            fseek(f, 0, SEEK_END);
            bytes = (uint64_t)ftell(f);
            fclose(f);
        }
    }
    const char *reason = over ? arb_name_at(a->g->outcome_reasons, a->g->noutcome_reasons, o.reason, "unfinished") : "unfinished";
    const char *file = member >= 0 ? shown : a->out;
    if (quiet) {
        /* the closing line says it all */
    } else if (json) {
        printf("{\"file\":");
        cli_json_str(stdout, file ? file : "");
        if (member >= 0) printf(",\"member\":%" PRId64, member);
        if (index >= 0) printf(",\"index\":%" PRId64, index);
        printf(",\"game\":");
        cli_json_str(stdout, a->g->id);
        printf(",\"seed\":\"%" PRIu64 "\",\"actions\":%" PRIu64 ",\"turns\":%u,\"winner\":%d,\"reason\":", a->su.seed, n,
               over ? o.turns : arb_match_turn(a->m), over ? o.winner : -1);
        cli_json_str(stdout, reason);
        printf(",\"final_hash\":\"0x%016" PRIx64 "\"", arb_match_hash(a->m));
        if (member < 0 && a->out) printf(",\"bytes\":%" PRIu64, bytes);
        printf("}\n");
    } else {
        char win[32];
        if (over && o.winner >= 0) snprintf(win, sizeof win, "P%d wins", o.winner + 1);
        else snprintf(win, sizeof win, "%s", over ? "draw" : "no result");
        printf("%s: %s seed %" PRIu64 ", %" PRIu64 " actions, %u turns, %s (%s)", file ? cli_esc(file) : "(not recorded)",
               a->g->id, a->su.seed, n, over ? o.turns : arb_match_turn(a->m), win, reason);
        if (bytes) printf(", %" PRIu64 " bytes", bytes);
        printf("\n");
    }
done:
    if (a->w) arb_replay_writer_free(a->w);
    arb_match_free(a->m);
    free(ag);
    return rc;
}

static const char *const play_usage[] = {
    "play --game G --seed S [--players N] [--agents A,B,…] [--decks D1,D2,…] [--timed] [--json] -o FILE",
    "play --games M [--shard K/N|slurm] --seed BASE … -o DIR",
    NULL
};
static const cli_opt play_opts[] = {
    CLI_MATCH_OPTS,
    { "agents", 'a', 0, CLI_ARG_AGENTS, "A,B,…", "random | greedy, one for all or one per seat", 0, 0, CLI_SH_NONE },
    { "timed", 't', 0, CLI_ARG_NONE, NULL, "seeded think times (elapsed_ms) and clock events", 0, 0, CLI_SH_NONE },
    { "max-actions", 'M', 0, CLI_ARG_TEXT, "N", "stop an endless match after N actions (default 10000000)", 0, 0, CLI_SH_NONE },
    { "no-record", 'N', 0, CLI_ARG_NONE, NULL, "play without recording (to measure recorder overhead)", 0, 0, CLI_SH_NONE },
    { "disconnect", 'D', 0, CLI_ARG_TEXT, "N[:MS]", "after N actions the arbiter disconnects the seat that owes the decision and reconnects it MS ms later (default 60000, naramo's reconnect grace: it forfeits); only for games with clock rules", 0, 0, CLI_SH_NONE },
    CLI_OPT_JSON("print the summary as one JSON object (with --games one per match, then {\"summary\":…}; an archive's matches are \"FILE#N\" with \"member\": N)"),
    CLI_OPT_QUIET("with --games, only the closing line"),
    { "archive", 'A', 0, CLI_ARG_NONE, NULL, "-o FILE is an archive: every match of --games M goes into that one file (arbiter info FILE lists them, FILE#I names match I)", 0, 0, CLI_SH_NONE },
    { "games", 'G', 0, CLI_ARG_TEXT, "M", "play M matches into DIR/GAME-I.tcgr; match I (0-based) has the seed SplitMix64(BASE + I), so shards union to exactly the one-machine run", 0, 0, CLI_SH_NONE },
    { "shard", 'K', 0, CLI_ARG_TEXT, "K/N", "only matches I with I mod N = K ('slurm': from the job array's environment)", 0, 0, CLI_SH_NONE },
    CLI_OPT_JOBS("with --games: matches at a time (only 1 so far; N > 1 is refused)"),
    CLI_OPT_END
};
const cli_spec cli_spec_play = {
    .name = "play",
    .summary = "self-play between built-in agents, recorded to a .tcgr",
    .usage = play_usage,
    .description =
        "Play a match between built-in agents and record it. Agents: random\n"
        "(uniform over the legal actions) or greedy (the game's heuristic); one\n"
        "kind for every seat or one per seat (default random). --timed gives\n"
        "every decision a seeded think time, so clock rules (timeouts) apply.\n"
        "The same seed, agents, decks and start time give a byte-identical file.\n",
    .opts = play_opts,
    .notes =
        "  Start time in the header: SOURCE_DATE_EPOCH when set, else now.\n",
    .exit = "0 recorded, 2 usage, 3 bad deck/game (or --disconnect refused by the game, with its rule ID), 4 an engine fault.",
    .operands = CLI_ARG_FILE,
    .run = cmd_play,
};




int cmd_play(int argc, char **argv)
{
    cli_match_args a;
    memset(&a, 0, sizeof a);
    a.level = -1;
    const char *agents = NULL;
    unsigned long long max_actions = 10000000ULL, games = 0;
    cli_shard shard = { 0, 1 };
    int sharded = 0;
    int json = 0, c, rc;
    play_disc disc = { 0, 0, 60000 };
    quiet = 0;
    cli_parser p;
    cli_parse_init(&p, &cli_spec_play, argc, argv);
    while ((c = cli_next(&p)) > 0) {
        if ((rc = cli_match_arg(&a, "play", c, p.arg)) >= 0) {
            if (rc) return rc;
            continue;
        }
        switch (c) {
        case 'a': agents = p.arg; break;
        case 'M':
            if (cli_parse_u64(p.arg, &max_actions) || !max_actions)
                return cli_usage("play", "--max-actions '%s' is not a positive integer", p.arg);
            break;
        case 'N': a.no_record = 1; break;
        case 'D': {
            char dbuf[64], *colon;
            snprintf(dbuf, sizeof dbuf, "%s", p.arg);
            if ((colon = strchr(dbuf, ':'))) *colon++ = '\0';
            if (cli_parse_u64(dbuf, &disc.at) || (colon && (cli_parse_u64(colon, &disc.ms) || disc.ms > 86400000ULL)))
                return cli_usage("play", "--disconnect '%s' is not N[:MS]", p.arg);
            disc.on = 1;
            break;
        }
        case CLI_ID_JSON: json = 1; break;
        case 'q': quiet = 1; break;
        case 'G':
            if (cli_parse_u64(p.arg, &games) || !games || games > 1000000000ULL)
                return cli_usage("play", "--games '%s' is not 1..1000000000", p.arg);
            break;
        case 'K':
            if (cli_shard_parse("play", p.arg, &shard)) return EXIT_USAGE;
            sharded = 1;
            break;
        case 'j':
            if (p.num > 1) return cli_usage("play", "--jobs %llu: only --jobs 1 so far", (unsigned long long)p.num);
            break;
        default: return cli_unhandled(&p);
        }
    }
    if (c < 0) return p.rc;
    if (p.npos > 0) return cli_usage("play", "unexpected argument '%s'", p.pos[0]);
    if (!games) {
        if (sharded) return cli_usage("play", "--shard needs --games");
        if ((rc = cli_match_start(&a, "play")) == EXIT_OK) rc = play_match(&a, agents, max_actions, json, -1, disc);
        int crc = cli_match_archive_close(&a, "play", rc == EXIT_OK);
        cli_match_args_free(&a);
        return rc ? rc : crc;
    }
    if (a.server_secret) return cli_usage("play", "a fair seed (--server-secret) is for one match: not with --games");
    if (!a.have_seed) return cli_usage("play", "--seed BASE is required");
    if (!a.out && !a.no_record) return cli_usage("play", "-o DIR is required with --games");
    if (a.out && a.no_record) return cli_usage("play", "--no-record and -o exclude each other");
    if (a.archive && a.no_record) return cli_usage("play", "--archive and --no-record exclude each other");
    if (a.archive) {
        /* one file for every match: members in match order */
        if ((rc = cli_match_archive(&a, "play"))) return rc;
        int worst = EXIT_OK;
        cli_progress prog;
        uint64_t done = 0;
        cli_progress_start(&prog, "play", "matches", games > shard.k ? (games - shard.k + shard.n - 1) / shard.n : 0);
        for (uint64_t i = shard.k; i < games; i += shard.n) {
            cli_match_args one = a;
            one.seed = cli_game_seed(a.seed, i);
            cli_progress_end(&prog);
            if ((rc = cli_match_start(&one, "play")) == EXIT_OK)
                rc = play_match(&one, agents, max_actions, json, (int64_t)i, disc);
            cli_match_args_free(&one);
            fflush(stdout);
            cli_progress_update(&prog, ++done);
            if (rc > worst) worst = rc;
            if (rc == EXIT_USAGE || rc == EXIT_INTERNAL || rc == EXIT_INPUT) break;
        }
        cli_progress_end(&prog);
        uint64_t members = arb_archive_writer_members(a.aw);
        int crc = cli_match_archive_close(&a, "play", worst == EXIT_OK);
        if (!crc && json && worst == EXIT_OK)
            printf("{\"summary\":{\"schema\":\"arbiter-results-1\",\"command\":\"play\",\"matches\":%" PRIu64 "}}\n",
                   members);
        if (!crc && !json && worst == EXIT_OK) {
            FILE *f = fopen(a.out, "rb");
            long sz = -1;
            if (f) {
                fseek(f, 0, SEEK_END);
                sz = ftell(f);
                fclose(f);
            }
            printf("%s: archive of %" PRIu64 " match%s, %ld bytes\n", cli_esc(a.out), members, members == 1 ? "" : "es", sz);
        }
        return worst ? worst : crc;
    }
    if (a.out && mkdir(a.out, 0777) && errno != EEXIST) {
        fprintf(stderr, "arbiter play: %s: cannot create directory: %s\n", cli_esc(a.out), strerror(errno));
        return EXIT_INPUT;
    }
    const char *dir = a.out;
    uint64_t base = a.seed;
    int worst = EXIT_OK;
    cli_progress prog;
    uint64_t done = 0;
    cli_progress_start(&prog, "play", "matches", games > shard.k ? (games - shard.k + shard.n - 1) / shard.n : 0);
    for (uint64_t i = shard.k; i < games; i += shard.n) {
        cli_match_args one = a;
        char path[4096];
        cli_progress_end(&prog);
        one.seed = cli_game_seed(base, i);
        if (dir) {
            snprintf(path, sizeof path, "%s/%s-%06" PRIu64 ".tcgr", dir, a.game ? a.game : "game", i);
            one.out = path;
        }
        if ((rc = cli_match_start(&one, "play")) == EXIT_OK)
            rc = play_match(&one, agents, max_actions, json, (int64_t)i, disc);
        cli_match_args_free(&one);
        fflush(stdout);
        cli_progress_update(&prog, ++done);
        if (rc == EXIT_USAGE || rc == EXIT_INTERNAL || rc == EXIT_INPUT) { cli_progress_end(&prog); return rc; }
        if (rc > worst) worst = rc;
    }
    cli_progress_end(&prog);
    if (json)
        printf("{\"summary\":{\"schema\":\"arbiter-results-1\",\"command\":\"play\",\"matches\":%" PRIu64 "}}\n", done);
    else if (worst == EXIT_OK)
        printf("play: %" PRIu64 " match%s %s%s\n", done, done == 1 ? "" : "es", dir ? "recorded into " : "played",
               dir ? cli_esc(dir) : "");
    return worst;
}
