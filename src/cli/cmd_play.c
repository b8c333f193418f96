/* cmd_play.c — `arbiter play`: self-play between built-in agents, recorded
 * to a .tcgr through the same recorder step a game server would use. */
#include <errno.h>
#include <sys/stat.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/match_args.h"
#include "cli/pool.h"
#include "cli/progress.h"
#include "cli/shard.h"
#include "arbiter/toolkit.h"

/* An injected disconnect: after `at` actions (disc = 0: none). */
typedef struct play_disc {
    int on;
    unsigned long long at, ms;
} play_disc;

/* -q: no line per match (play --games), only the closing one */
static int quiet;

/* A played match: what play_close and play_print need. */
typedef struct play_res {
    int rc;                     /* EXIT_*: EXIT_OK until a step fails */
    uint64_t n;                 /* actions */
    int over;
    arb_outcome o;
    uint64_t bytes;             /* a single file's size, once closed */
    int64_t member;             /* an archive member's index, once closed (-1) */
    char shown[4200];           /* FILE#N of that member */
} play_res;

/* Play the match a describes (cli_match_start done) to its end or to
 * max_actions. r->rc says how it went; the writer stays open. */
static void play_run(cli_match_args *a, const char *agents, uint64_t max_actions, play_disc disc, play_res *r)
{
    int rc;
    memset(r, 0, sizeof *r);
    r->member = -1;
    int players = a->su.players;
    /* not zeroed: arb_agent_init sets every field but the scratch list of
     * legal actions (48 KiB a seat) */
    arb_agent *ag = malloc((size_t)players * sizeof *ag);
    if (!ag) {
        r->rc = EXIT_INTERNAL;
        return;
    }
    char *parts[ARB_MAX_SEATS];
    int np = 0;
    char abuf[256] = "random";
    if (agents) snprintf(abuf, sizeof abuf, "%s", agents);
    np = cli_split(abuf, parts, ARB_MAX_SEATS);
    rc = EXIT_OK;
    uint64_t n = 0;
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
            fprintf(cli_msgs(), "arbiter play: engine fault: seat %d owes a decision with no legal action\n", d.seat);
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
                fprintf(cli_msgs(), "arbiter play: engine fault: its own legal action '%s' was rejected: %s %s\n", t,
                        err.rule, err.msg);
            }
            goto done;
        }
    }
done:
    r->n = n;
    r->rc = rc;
    if (!rc) r->over = arb_match_outcome(a->m, &r->o);
    free(ag);
}

/* Close the match's writer: a single file is written and renamed, an
 * archive member goes into the archive (in the order of these calls). */
static void play_close(cli_match_args *a, play_res *r)
{
    arb_error err = ARB_ERROR_INIT;
    if (r->rc) return;
    if (a->w && a->aw) {
        /* an archive member: the archive's close writes the index; its
         * bytes are known once the archive is (the closing line) */
        r->member = (int64_t)arb_archive_writer_members(a->aw);
        snprintf(r->shown, sizeof r->shown, "%s#%" PRId64, a->out, r->member);
        if (!r->over) {
            fprintf(cli_msgs(), "arbiter play: stopped after %" PRIu64 " actions without an outcome\n", r->n);
            r->rc = EXIT_INTERNAL;
            return;
        }
        int r4 = arb_replay_writer_close(a->w, &err);
        a->w = NULL;
        if (r4) {
            r->rc = cli_fail("play", &err);
            return;
        }
    } else if (a->w) {
        if (!r->over) {
            fprintf(cli_msgs(), "arbiter play: stopped after %" PRIu64 " actions without an outcome; %s.part kept\n", r->n,
                    cli_esc(a->out));
            r->rc = EXIT_INTERNAL;
            return;
        }
        r->bytes = arb_replay_writer_bytes(a->w);
        int r3 = arb_replay_writer_close(a->w, &err);
        a->w = NULL;
        if (r3) {
            r->rc = cli_fail("play", &err);
            return;
        }
        FILE *f = fopen(a->out, "rb");
        if (f) {
            fseek(f, 0, SEEK_END);
            r->bytes = (uint64_t)ftell(f);
            fclose(f);
        }
    }
}

/* The match's line (or JSON object) on out; index >= 0 adds "index". */
static void play_print(const cli_match_args *a, const play_res *r, int json, int64_t index, FILE *out)
{
    if (r->rc) return;
    const char *reason = r->over ? arb_name_at(a->g->outcome_reasons, a->g->noutcome_reasons, r->o.reason, "unfinished") : "unfinished";
    const char *file = r->member >= 0 ? r->shown : a->out;
    if (quiet) {
        /* the closing line says it all */
    } else if (json) {
        fprintf(out, "{\"file\":");
        cli_json_str(out, file ? file : "");
        if (r->member >= 0) fprintf(out, ",\"member\":%" PRId64, r->member);
        if (index >= 0) fprintf(out, ",\"index\":%" PRId64, index);
        fprintf(out, ",\"game\":");
        cli_json_str(out, a->g->id);
        fprintf(out, ",\"seed\":\"%" PRIu64 "\",\"actions\":%" PRIu64 ",\"turns\":%u,\"winner\":%d,\"reason\":", a->su.seed, r->n,
               r->over ? r->o.turns : arb_match_turn(a->m), r->over ? r->o.winner : -1);
        cli_json_str(out, reason);
        fprintf(out, ",\"final_hash\":\"0x%016" PRIx64 "\"", arb_match_hash(a->m));
        if (r->member < 0 && a->out) fprintf(out, ",\"bytes\":%" PRIu64, r->bytes);
        fprintf(out, "}\n");
    } else {
        char win[32];
        if (r->over && r->o.winner >= 0) snprintf(win, sizeof win, "P%d wins", r->o.winner + 1);
        else snprintf(win, sizeof win, "%s", r->over ? "draw" : "no result");
        fprintf(out, "%s: %s seed %" PRIu64 ", %" PRIu64 " actions, %u turns, %s (%s)", file ? cli_esc(file) : "(not recorded)",
               a->g->id, a->su.seed, r->n, r->over ? r->o.turns : arb_match_turn(a->m), win, reason);
        if (r->bytes) fprintf(out, ", %" PRIu64 " bytes", r->bytes);
        fprintf(out, "\n");
    }
}

/* The writer (if still open) and the match. */
static void play_free(cli_match_args *a)
{
    if (a->w) arb_replay_writer_free(a->w);
    a->w = NULL;
    arb_match_free(a->m);
    a->m = NULL;
}

/* Play, close, print and free the match a describes (cli_match_start
 * done); index >= 0 adds "index" to the JSON summary. */
static int play_match(cli_match_args *a, const char *agents, uint64_t max_actions, int json, int64_t index,
                      play_disc disc)
{
    play_res r;
    play_run(a, agents, max_actions, disc, &r);
    play_close(a, &r);
    play_print(a, &r, json, index, stdout);
    play_free(a);
    return r.rc;
}

/* --games M [-j N]: matches are played on N threads (cli/pool.c) and
 * finished in match order on this one, so lines, files and an archive's
 * members are the same whatever N is. An archive member is closed (added
 * to the archive) when it is finished, in order; a single file is closed
 * by the thread that played it. */
typedef struct play_games {
    cli_match_args *a;
    const char *agents;
    uint64_t max_actions;
    int json;
    play_disc disc;
    int worst, stop;            /* stop: a usage, input or engine fault ends the run */
    _Atomic int fault;          /* a worker met one: the others start no new match */
    uint64_t done;
    cli_progress prog;
} play_games;

typedef struct play_item {
    play_games *g;
    int64_t index;
    cli_match_args one;
    char path[4096];
    int started;                /* cli_match_start's code */
    play_res r;
    char *line;                 /* a single file's printed line(s) */
    size_t nline;
    cli_msgbuf msg;             /* its messages, printed in order */
} play_item;

static void play_work_one(play_item *it);

static void play_work(void *p)
{
    play_item *it = p;
    cli_msgs_begin(&it->msg);
    play_work_one(it);
    cli_msgs_end(&it->msg);
}

static void play_work_one(play_item *it)
{
    play_games *g = it->g;
    if (g->fault) { /* matches already under way finish; no new one starts */
        it->started = -1;
        return;
    }
    if ((it->started = cli_match_start(&it->one, "play")) != EXIT_OK) {
        if (it->started != EXIT_VERIFY) g->fault = 1;
        return;
    }
    play_run(&it->one, g->agents, g->max_actions, g->disc, &it->r);
    if (g->a->archive) return; /* closed in order (play_done) */
    play_close(&it->one, &it->r);
    FILE *out = open_memstream(&it->line, &it->nline);
    if (out) {
        play_print(&it->one, &it->r, g->json, it->index, out);
        fclose(out);
    } else if (!it->r.rc)
        it->r.rc = EXIT_INTERNAL;
    play_free(&it->one);
    if (it->r.rc == EXIT_USAGE || it->r.rc == EXIT_INTERNAL || it->r.rc == EXIT_INPUT) g->fault = 1;
}

static int play_done(void *ctx, void *p)
{
    play_games *g = ctx;
    play_item *it = p;
    cli_msgs_print(&it->msg);
    if (it->started < 0) return 0; /* skipped after a fault (which stopped the run) */
    int rc = it->started ? it->started : it->r.rc;
    /* after a fatal error the matches still in the pool are only freed */
    if (!g->stop) cli_progress_end(&g->prog); /* the progress line makes room */
    if (!g->stop && !it->started && g->a->archive) {
        play_close(&it->one, &it->r);
        play_print(&it->one, &it->r, g->json, it->index, stdout);
        rc = it->r.rc;
    } else if (!g->stop && it->line)
        fwrite(it->line, 1, it->nline, stdout);
    if (!it->started) play_free(&it->one);
    free(it->line);
    cli_match_args_free(&it->one);
    if (g->stop) return 0;
    fflush(stdout);
    cli_progress_update(&g->prog, ++g->done);
    if (rc > g->worst) g->worst = rc;
    if (rc == EXIT_USAGE || rc == EXIT_INTERNAL || rc == EXIT_INPUT) g->stop = 1;
    return 0;
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
    CLI_OPT_JOBS("with --games, play N matches at a time (the same files, archive and lines, in match order)"),
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
    unsigned long long max_actions = 10000000ULL, games = 0, jobs = 1;
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
        case 'j':
            if (cli_parse_u64(p.arg, &jobs) || jobs < 1 || jobs > CLI_JOBS_MAX)
                return cli_usage("play", "--jobs '%s' is not 1..%d", p.arg, CLI_JOBS_MAX);
            break;
        case 'G':
            if (cli_parse_u64(p.arg, &games) || !games || games > 1000000000ULL)
                return cli_usage("play", "--games '%s' is not 1..1000000000", p.arg);
            break;
        case 'K':
            if (cli_shard_parse("play", p.arg, &shard)) return EXIT_USAGE;
            sharded = 1;
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
    if (a.archive && (rc = cli_match_archive(&a, "play"))) return rc; /* one file for every match, in match order */
    if (!a.archive && a.out && mkdir(a.out, 0777) && errno != EEXIST) {
        fprintf(stderr, "arbiter play: %s: cannot create directory: %s\n", cli_esc(a.out), strerror(errno));
        return EXIT_INPUT;
    }
    play_games g = { &a, agents, max_actions, json, disc, EXIT_OK, 0, 0, 0, { 0 } };
    cli_progress_start(&g.prog, "play", "matches", games > shard.k ? (games - shard.k + shard.n - 1) / shard.n : 0);
    cli_pool *pool = cli_pool_new((unsigned)jobs, sizeof(play_item), play_work, play_done, &g);
    if (!pool) {
        fprintf(stderr, "arbiter play: out of memory\n");
        if (a.archive) cli_match_archive_close(&a, "play", 0);
        return EXIT_INTERNAL;
    }
    for (uint64_t i = shard.k; i < games && !g.stop; i += shard.n) {
        play_item *it = cli_pool_slot(pool);
        if (!it) break;
        it->g = &g;
        it->index = (int64_t)i;
        it->one = a;
        it->one.seed = cli_game_seed(a.seed, i);
        if (a.out && !a.archive) {
            snprintf(it->path, sizeof it->path, "%s/%s-%06" PRIu64 ".tcgr", a.out, a.game ? a.game : "game", i);
            it->one.out = it->path;
        }
        cli_pool_submit(pool);
    }
    cli_pool_end(pool);
    cli_progress_end(&g.prog);
    int worst = g.worst;
    if (a.archive) {
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
    if (g.stop) return worst; /* a usage, input or engine fault: its message said it */
    if (json)
        printf("{\"summary\":{\"schema\":\"arbiter-results-1\",\"command\":\"play\",\"matches\":%" PRIu64 "}}\n",
               g.done);
    else if (worst == EXIT_OK)
        printf("play: %" PRIu64 " match%s %s%s\n", g.done, g.done == 1 ? "" : "es", a.out ? "recorded into " : "played",
               a.out ? cli_esc(a.out) : "");
    return worst;
}
