/* cmd_stats.c — `arbiter stats FILE…`: statistics over many replays. Files
 * are read one at a time and only the per-game aggregate is kept, so memory
 * does not grow with the number of files; a directory argument contributes
 * the *.tcgr files under it (cli/paths.c: recursive, sorted). */
#include <getopt.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/paths.h"
#include "cli/progress.h"
#include "cli/results.h"

typedef struct run {
    arb_an_stats *s;
    cli_progress progress;
    unsigned long n, total;
    int nomem;                  /* memory ran out: exit 4, never "0 files" */
    unsigned long skipped;      /* non-regular directory entries */
} run;

/* NDJSON verification results (`verify --json`, `merge -o`): one match per
 * result line; shard_done lines are skipped. */
static void results(run *r, const char *path)
{
    cli_results rd;
    arb_error err = ARB_ERROR_INIT;
    int orc = cli_results_open(&rd, path, &err);
    if (orc) {
        if (orc == ARB_ENOMEM) { cli_fail("stats", &err); r->nomem = 1; return; }
        arb_an_stats_add_error(r->s, &err);
        return;
    }
    cli_vresult v;
    int rc;
    while ((rc = cli_results_next(&rd, &v, &err)) == 1) {
        if (v.is_trailer || v.is_summary) continue;
        if (v.is_archive) { /* its members follow; a failed archive is an error */
            if (!v.ok) {
                arb_error e2 = ARB_ERROR_INIT;
                arb_error_where(&e2, "%s:%llu (%s)", path, (unsigned long long)rd.lineno, v.file);
                arb_error_set(&e2, ARB_EFORMAT, NULL, "the archive does not verify as a whole (%s)", v.status);
                arb_an_stats_add_error(r->s, &e2);
            }
            continue;
        }
        arb_an_result ar = { v.game, v.players, v.ok, v.over, v.winner, v.reason, (uint32_t)v.turns,
                             (uint64_t)v.actions };
        char where[600];
        snprintf(where, sizeof where, "%s:%llu (%s)", path, (unsigned long long)rd.lineno, v.file);
        arb_error e2 = ARB_ERROR_INIT;
        arb_an_stats_add_result(r->s, &ar, where, &e2);
    }
    if (rc == ARB_ENOMEM) { cli_fail("stats", &err); r->nomem = 1; }
    else if (rc < 0) arb_an_stats_add_error(r->s, &err);
    cli_results_close(&rd);
}

static void one(run *r, const char *path, arb_archive *a, uint64_t member)
{
    r->n++;
    cli_progress_update(&r->progress, r->n);
    if (!a && cli_results_sniff(path)) {
        results(r, path);
        return;
    }
    arb_an_source *src;
    arb_error err = ARB_ERROR_INIT;
    int orc = cli_open_match(path, a, member, &src, &err);
    if (orc) {
        if (orc == ARB_ENOMEM) { cli_fail("stats", &err); r->nomem = 1; return; }
        arb_an_stats_add_error(r->s, &err);
        return;
    }
    /* The verifier's verdict decides whether the file counts (a forged
     * winner must not reach a win rate). */
    arb_verify_result vr;
    arb_error verr = ARB_ERROR_INIT;
    int vrc = cli_verify_match(path, a, member, NULL, &vr, &verr);
    if (vrc && vrc != ARB_EVERIFY && vrc != ARB_ETRUNC) {
        /* unreadable, corrupt (a checkpoint bomb), unsupported: an error */
        arb_an_stats_add_error(r->s, &verr);
        if (vrc == ARB_ENOMEM) r->nomem = 1;
        arb_an_source_free(src);
        return;
    }
    if (vrc == ARB_ETRUNC) { /* named here, counted in no figure (#27 N12) */
        char t[ARB_MSG_MAX + ARB_WHERE_MAX + 8];
        arb_error_format(&verr, t, sizeof t);
        fprintf(stderr, "arbiter stats: %s: not counted\n", cli_esc(t));
    }
    char why[ARB_MSG_MAX + ARB_WHERE_MAX + 8] = "";
    if (vrc && vrc != ARB_ETRUNC) {
        if (vrc == ARB_EVERIFY) snprintf(why, sizeof why, "%s: %s", arb_verify_kind_name(vr.kind), vr.detail);
        else arb_error_format(&verr, why, sizeof why);
    }
    if (arb_an_stats_add_checked(r->s, src, vrc == ARB_OK ? 1 : vrc == ARB_ETRUNC ? -1 : 0, why, &err) == ARB_ENOMEM) {
        cli_fail("stats", &err);
        r->nomem = 1;
    }
    arb_an_source_free(src);
}

static int count_one(void *ctx, const char *path)
{
    (void)path;
    ((run *)ctx)->total++;
    return 0;
}

static int read_match(void *ctx, const char *path, arb_archive *a, unsigned long long member)
{
    run *r = ctx;
    one(r, path, a, member);
    return r->nomem ? -1 : 0;
}

/* What of an archive is no member (a cut member, unread bytes): named,
 * counted as an error. */
static void archive_bad(void *ctx, const arb_error *err)
{
    run *r = ctx;
    char t[ARB_MSG_MAX + ARB_WHERE_MAX + 8];
    arb_error_format(err, t, sizeof t);
    fprintf(stderr, "arbiter stats: %s: not counted\n", cli_esc(t));
    arb_an_stats_add_error(r->s, err);
}

/* A file, or each member of an archive (one pass over it). */
static int read_one(void *ctx, const char *path)
{
    return cli_each_match(path, read_match, archive_bad, ctx);
}

int cmd_stats(int argc, char **argv)
{
    static const struct option opts[] = {
        { "json", no_argument, NULL, 'j' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };
    int json = 0, c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "jh", opts, NULL)) != -1) {
        switch (c) {
        case 'j': json = 1; break;
        case 'h':
            printf("usage: arbiter stats FILE|DIR|ARCHIVE… [--json]\n\n"
                   "Statistics over many replays, per game: matches, outcomes and their\n"
                   "reasons, win rate by seat and by first player, average length in turns and\n"
                   "actions, clock timeouts, disconnects and forfeits, most played cards.\n"
                   "A directory contributes the *.tcgr files under it (recursively, sorted by\n"
                   "name, at most 16 levels deep), an archive each of its matches (a cut\n"
                   "member or bytes no member holds are named and counted as errors).\n"
                   "Files are read one at a time\n"
                   "(memory does not grow with their number); unreadable files are counted\n"
                   "and the first few errors listed. Progress goes to stderr when it is a\n"
                   "terminal.\n\n"
                   "A FILE whose first byte is '{' is read as NDJSON verification results\n"
                   "(`arbiter verify --json`, `arbiter merge -o`): each result line counts as\n"
                   "one match (outcome, seats, turns, actions, verified or not); first player,\n"
                   "cards and clock events are not in results and are not counted.\n\n"
                   "First player: the seat owing the first decision that is not a setup\n"
                   "decision (review, mulligan, keep, setup, draft, pregame), or the state's\n"
                   "top-level \"first\" when the engine exports one. Played cards: the card\n"
                   "named by a UID argument of a play/deploy/cast/summon action.\n\n"
                   "  --json   {files, errors, error_messages, games:[{game, matches, complete,\n"
                   "           unfinished, truncated, unverified, rejected_actions, players,\n"
                   "           wins, draws, reasons, by_seat:[{seat,matches,wins,win_rate}],\n"
                   "           first_player:{known,decided,wins,win_rate,by_seat}, avg_turns,\n"
                   "           avg_actions, total_actions, timeouts, disconnects, forfeits,\n"
                   "           card_plays, top_cards:[{card,name,count}]}]}\n\n"
                   "In a directory only regular files are read; a FIFO, device or socket named\n"
                   "*.tcgr there is skipped with a note on stderr (never opened).\n\n"
                   "A truncated (cut) file is named on stderr and counted in no figure.\n\n"
                   "Exit: 0 every file read completely; 3 some file unreadable or truncated\n"
                   "(statistics of the others still printed); 4 out of memory; 2 usage.\n");
            return EXIT_OK;
        default: return cli_usage("stats", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind >= argc) return cli_usage("stats", "at least one replay FILE or DIR is required");
    run r = { arb_an_stats_new(), { 0 }, 0, 0, 0, 0 };
    if (!r.s) {
        fprintf(stderr, "arbiter stats: out of memory\n");
        return EXIT_INTERNAL;
    }
    cli_progress_start(&r.progress, "stats", "files", 0);
    if (r.progress.on) {
        /* count first, quietly, so the progress line shows a total */
        cli_walk cw = { "stats", count_one, &r, 1, 0, 0, 0 };
        for (int i = optind; i < argc; i++) cli_walk_path(&cw, argv[i]);
        r.progress.total = r.total;
    }
    cli_walk w = { "stats", read_one, &r, 0, 0, 0, 0 };
    for (int i = optind; i < argc && !r.nomem; i++) cli_walk_path(&w, argv[i]);
    r.skipped = w.skipped + w.unreadable;
    cli_progress_end(&r.progress);
    if (r.nomem) {
        arb_an_stats_free(r.s);
        return EXIT_INTERNAL; /* the message is printed; no partial statistics */
    }
    arb_an_stats_print(r.s, stdout, json);
    int errors = arb_an_stats_errors(r.s) != 0 || arb_an_stats_truncated(r.s) != 0;
    arb_an_stats_free(r.s);
    return errors ? EXIT_INPUT : EXIT_OK;
}
