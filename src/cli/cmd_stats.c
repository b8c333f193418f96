/* cmd_stats.c — `arbiter stats FILE…`: statistics over many replays. Files
 * are read one at a time and only the per-game aggregate is kept, so memory
 * does not grow with the number of files; a directory argument contributes
 * the *.tcgr files under it (cli/paths.c: recursive, sorted). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/dupes.h"
#include "cli/paths.h"
#include "cli/pool.h"
#include "cli/progress.h"
#include "cli/results.h"

typedef struct run {
    arb_an_stats *s;
    cli_pool *pool;
    unsigned jobs;
    cli_progress progress;
    unsigned long n, total;
    int nomem;                  /* memory ran out: exit 4, never "0 files" */
    unsigned long skipped;      /* non-regular directory entries */
    cli_dupes seen;             /* a match counted once (#27 N6) */
} run;

/* Whether the verified match r (or result line, seen as name) was counted
 * already: noted and counted as a duplicate then (1); 0 new; -1 out of
 * memory. */
static int duplicate(run *ru, const arb_verify_result *r, const arb_tnode *line, const char *name)
{
    const char *first;
    int dk = r ? cli_dupes_check(&ru->seen, r, name, &first) : cli_dupes_check_line(&ru->seen, line, name, &first);
    if (dk < 0) {
        fprintf(stderr, "arbiter stats: out of memory\n");
        ru->nomem = 1;
        return -1;
    }
    if (!dk) return 0;
    char d[ARB_MSG_MAX];
    cli_dupes_detail(dk, first, d, sizeof d);
    arb_an_stats_add_duplicate(ru->s, name, d);
    return 1;
}

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
        char shown[4096];
        snprintf(where, sizeof where, "%s:%llu (%s)", cli_stdio_names(path, shown, sizeof shown),
                 (unsigned long long)rd.lineno, v.file);
        /* a result verify already named a duplicate, or whose match_id an
         * earlier line carried (results merged from several shards) */
        const arb_tnode *dn = arb_tnode_get(v.obj, "duplicate");
        if (dn && dn->kind == ARB_T_MAP) {
            const arb_tnode *dd = arb_tnode_get(dn, "detail");
            arb_an_stats_add_duplicate(r->s, where, dd && dd->kind == ARB_T_STR ? dd->s : "a duplicate");
            continue;
        }
        if (v.ok) {
            int d = duplicate(r, NULL, v.obj, where);
            if (d < 0) break;
            if (d) continue;
        }
        arb_error e2 = ARB_ERROR_INIT;
        arb_an_stats_add_result(r->s, &ar, where, &e2);
    }
    if (rc == ARB_ENOMEM) { cli_fail("stats", &err); r->nomem = 1; }
    else if (rc < 0) arb_an_stats_add_error(r->s, &err);
    cli_results_close(&rd);
}

/* One match: opened, verified and replayed on any thread (work), counted
 * in order on the main one (done), so --jobs N gives the same figures. */
typedef struct sitem {
    char *path;
    arb_archive *a;
    uint64_t member;
    int results;                /* an NDJSON results file, read in done */
    arb_an_source *src;
    int orc, vrc, src_rc, summarized;
    arb_error oerr, verr, serr;
    arb_verify_result vr;
    arb_an_summary sm;
} sitem;

static void work(void *it)
{
    sitem *x = it;
    if (x->results) return;
    if ((x->orc = cli_open_match(x->path, x->a, x->member, &x->src, &x->oerr))) return;
    /* The verifier's verdict decides whether the file counts (a forged
     * winner must not reach a win rate). */
    x->vrc = cli_verify_match(x->path, x->a, x->member, NULL, &x->vr, &x->verr);
    if (x->vrc == ARB_OK || x->vrc == ARB_ETRUNC) {
        x->src_rc = arb_an_summarize(x->src, &x->sm, &x->serr);
        x->summarized = !x->src_rc;
    }
}

static int done(void *ctx, void *it)
{
    run *r = ctx;
    sitem *x = it;
    r->n++;
    cli_progress_update(&r->progress, r->n);
    if (x->results) {
        results(r, x->path);
    } else if (x->orc) {
        if (x->orc == ARB_ENOMEM) { cli_fail("stats", &x->oerr); r->nomem = 1; }
        else arb_an_stats_add_error(r->s, &x->oerr);
    } else if (x->vrc && x->vrc != ARB_EVERIFY && x->vrc != ARB_ETRUNC) {
        /* unreadable, corrupt (a checkpoint bomb), unsupported: an error */
        arb_an_stats_add_error(r->s, &x->verr);
        if (x->vrc == ARB_ENOMEM) r->nomem = 1;
    } else {
        if (x->vrc == ARB_ETRUNC) { /* named here, counted in no figure (#27 N12) */
            char t[ARB_MSG_MAX + ARB_WHERE_MAX + 8];
            arb_error_format(&x->verr, t, sizeof t);
            fprintf(stderr, "arbiter stats: %s: not counted\n", cli_esc(t));
        }
        /* a match counted once (#27 N6): a later copy is named and skipped */
        int dup = x->vrc == ARB_OK ? duplicate(r, &x->vr, NULL, x->path) : 0;
        char why[ARB_MSG_MAX + ARB_WHERE_MAX + 8] = "";
        if (x->vrc == ARB_EVERIFY) snprintf(why, sizeof why, "%s: %s", arb_verify_kind_name(x->vr.kind), x->vr.detail);
        int verified = x->vrc == ARB_OK ? 1 : x->vrc == ARB_ETRUNC ? -1 : 0;
        arb_error err = ARB_ERROR_INIT;
        int arc;
        if (dup) {
            arc = ARB_OK; /* named (or out of memory, noted) by duplicate() */
        } else if (verified && x->src_rc) {
            arb_an_stats_add_error(r->s, &x->serr);
            arc = x->src_rc;
        } else {
            arc = arb_an_stats_add_summary(r->s, x->src, &x->sm, verified, why, &err);
        }
        if (arc == ARB_ENOMEM) {
            cli_fail("stats", arc == x->src_rc ? &x->serr : &err);
            r->nomem = 1;
        }
    }
    if (x->summarized) arb_an_summary_free(&x->sm);
    arb_an_source_free(x->src);
    free(x->path);
    return r->nomem ? -1 : 0;
}

static int queue(run *r, const char *path, arb_archive *a, uint64_t member)
{
    sitem *x = cli_pool_slot(r->pool);
    if (!x) return -1;
    if (!(x->path = strdup(path))) {
        r->nomem = 1;
        fprintf(stderr, "arbiter stats: out of memory\n");
        return -1;
    }
    x->a = a;
    x->member = member;
    x->results = !a && cli_results_sniff(path);
    cli_pool_submit(r->pool);
    return 0;
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
    return queue(r, path, a, member) || r->nomem ? -1 : 0;
}

/* Before an archive closes, every member queued from it is done. */
static void drain(void *ctx)
{
    run *r = ctx;
    int rc = cli_pool_end(r->pool);
    r->pool = cli_pool_new(r->jobs, sizeof(sitem), work, done, r);
    if (rc || !r->pool) r->nomem = 1;
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
    return cli_each_match(path, read_match, archive_bad, drain, ctx);
}

static const char *const stats_usage[] = {
    "stats FILE|DIR|ARCHIVE… [--json] [-j N]",
    NULL
};
static const cli_opt stats_opts[] = {
    CLI_OPT_JOBS("read N matches at a time (the same figures)"),
    CLI_OPT_JSON("{files, errors, error_messages, games:[{game, matches, complete, unfinished, truncated, unverified, rejected_actions, players, wins, draws, reasons, by_seat:[{seat,matches,wins,win_rate}], first_player:{known,decided,wins,win_rate,by_seat}, avg_turns, avg_actions, total_actions, timeouts, disconnects, forfeits, card_plays, top_cards:[{card,name,count}]}]}"),
    CLI_OPT_END
};
const cli_spec cli_spec_stats = {
    .name = "stats",
    .summary = "statistics over many replays, per game",
    .usage = stats_usage,
    .description =
        "Statistics over many replays, per game: matches, outcomes and their\n"
        "reasons, win rate by seat and by first player, average length in turns and\n"
        "actions, clock timeouts, disconnects and forfeits, most played cards.\n"
        "A directory contributes the *.tcgr files under it (recursively, sorted by\n"
        "name, at most 16 levels deep), an archive each of its matches (a cut\n"
        "member or bytes no member holds are named and counted as errors).\n"
        "Files are read one at a time\n"
        "(memory does not grow with their number); unreadable files are counted\n"
        "and the first few errors listed. Progress goes to stderr when it is a\n"
        "terminal.\n"
        "\n"
        "A FILE whose first byte is '{' is read as NDJSON verification results\n"
        "(`arbiter verify --json`, `arbiter merge -o`): each result line counts as\n"
        "one match (outcome, seats, turns, actions, verified or not); first player,\n"
        "cards and clock events are not in results and are not counted.\n"
        "\n"
        "First player: the seat owing the first decision that is not a setup\n"
        "decision (review, mulligan, keep, setup, draft, pregame), or the state's\n"
        "top-level \"first\" when the engine exports one. Played cards: the card\n"
        "named by a UID argument of a play/deploy/cast/summon action.\n",
    .opts = stats_opts,
    .notes =
        "In a directory only regular files are read; a FIFO, device or socket named\n"
        "*.tcgr there is skipped with a note on stderr (never opened).\n"
        "\n"
        "A truncated (cut) file is named on stderr and counted in no figure.\n",
    .exit = "0 every file read completely; 3 some file unreadable or truncated (statistics of the others still printed); 4 out of memory; 2 usage.",
    .operands = CLI_ARG_FILE,
    .run = cmd_stats,
};




int cmd_stats(int argc, char **argv)
{
    int json = 0, c;
    unsigned long long jobs = 1;
    cli_parser p;
    cli_parse_init(&p, &cli_spec_stats, argc, argv);
    while ((c = cli_next(&p)) > 0) {
        switch (c) {
        case CLI_ID_JSON: json = 1; break;
        case 'j':
            if (cli_parse_u64(p.arg, &jobs) || jobs < 1 || jobs > CLI_JOBS_MAX)
                return cli_usage("stats", "--jobs '%s' is not 1..%d", p.arg, CLI_JOBS_MAX);
            break;
        default: return cli_unhandled(&p);
        }
    }
    if (c < 0) return p.rc;
    if (p.npos < 1) return cli_usage("stats", "at least one replay FILE or DIR is required");
    run r;
    memset(&r, 0, sizeof r);
    r.s = arb_an_stats_new();
    r.jobs = (unsigned)jobs;
    if (r.s) r.pool = cli_pool_new(r.jobs, sizeof(sitem), work, done, &r);
    if (!r.s || !r.pool) {
        arb_an_stats_free(r.s);
        fprintf(stderr, "arbiter stats: out of memory\n");
        return EXIT_INTERNAL;
    }
    cli_progress_start(&r.progress, "stats", "files", 0);
    if (r.progress.on) {
        /* count first, quietly, so the progress line shows a total */
        cli_walk cw = { "stats", count_one, &r, 1, 0, 0, 0 };
        for (int i = 0; i < p.npos; i++) cli_walk_path(&cw, p.pos[i]);
        r.progress.total = r.total;
    }
    cli_walk w = { "stats", read_one, &r, 0, 0, 0, 0 };
    for (int i = 0; i < p.npos && !r.nomem; i++) cli_walk_path(&w, p.pos[i]);
    if (r.pool && cli_pool_end(r.pool)) r.nomem = 1;
    r.skipped = w.skipped + w.unreadable;
    cli_progress_end(&r.progress);
    cli_dupes_free(&r.seen);
    if (r.nomem) {
        arb_an_stats_free(r.s);
        return EXIT_INTERNAL; /* the message is printed; no partial statistics */
    }
    arb_an_stats_print(r.s, stdout, json);
    int errors = arb_an_stats_errors(r.s) != 0 || arb_an_stats_truncated(r.s) != 0;
    arb_an_stats_free(r.s);
    return errors ? EXIT_INPUT : EXIT_OK;
}
