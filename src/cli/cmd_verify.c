/* cmd_verify.c — `arbiter verify FILE…`: replay each file from its seed
 * with the engine its header names and report the first divergence; with
 * --jobs N files are verified on N threads and reported in argument order
 * as they complete; --json prints one result object per line (NDJSON). */
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/adapter.h"
#include "cli/cli.h"
#include "cli/shard.h"

/* --engine CMD: the proxy game every file is verified with. */
static const arb_game *engine_game;

typedef struct vjob {
    const char *path;
    int64_t index;              /* manifest entry index, -1 from the command line */
    arb_verify_result res;
    arb_error err;
    int rc, done;
} vjob;

typedef struct vpool {
    vjob *jobs;
    int n, next;
    pthread_mutex_t mu;
    pthread_cond_t cv;
} vpool;

static void verify_one(vjob *j)
{
    arb_verify_opts vo = ARB_VERIFY_OPTS_INIT;
    vo.game = engine_game;
    arb_error_clear(&j->err);
    j->rc = arb_replay_verify_file(j->path, &vo, &j->res, &j->err);
    /* A failed adapter answers neutrally; what looks like a divergence is
     * the adapter's failure, reported as such. */
    const char *af = engine_game ? arb_adapter_failed(arb_adapter_of(engine_game)) : NULL;
    if (af) {
        j->rc = ARB_EIO;
        arb_error_clear(&j->err);
        arb_error_set(&j->err, ARB_EIO, NULL, "engine adapter failed: %s", af);
    }
}

static void *worker(void *arg)
{
    vpool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->mu);
        int i = p->next < p->n ? p->next++ : -1;
        pthread_mutex_unlock(&p->mu);
        if (i < 0) return NULL;
        verify_one(&p->jobs[i]);
        pthread_mutex_lock(&p->mu);
        p->jobs[i].done = 1;
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
    }
}

static const char *status_name(int rc)
{
    switch (rc) {
    case ARB_OK: return "ok";
    case ARB_EVERIFY: return "diverged";
    case ARB_ETRUNC: return "truncated";
    case ARB_EUNSUPPORTED: return "unsupported";
    case ARB_ENOMEM: return "error";
    default: return "unreadable";
    }
}

static void print_json(const vjob *j, const cli_shard *sh)
{
    const arb_verify_result *r = &j->res;
    printf("{\"file\":");
    cli_json_str(stdout, j->path);
    if (j->index >= 0)
        printf(",\"index\":%" PRId64 ",\"shard\":\"%" PRIu64 "/%" PRIu64 "\"", j->index, sh->k, sh->n);
    printf(",\"game\":");
    cli_json_str(stdout, r->game);
    printf(",\"players\":%d", r->players);
    printf(",\"status\":\"%s\",\"ok\":%s", status_name(j->rc), j->rc == ARB_OK ? "true" : "false");
    printf(",\"records\":%" PRIu64 ",\"actions\":%" PRIu64 ",\"checkpoints\":%" PRIu64, r->status.records,
           r->status.actions, r->status.checkpoints);
    printf(",\"commit\":\"%s\"", r->commit == 1 ? "ok" : r->commit == -1 ? "mismatch" : "absent");
    if (r->over) {
        printf(",\"winner\":%d,\"reason\":", r->winner);
        cli_json_str(stdout, r->reason);
        printf(",\"turns\":%" PRIu32 ",\"final_hash\":\"0x%016" PRIx64 "\"", r->turns, r->final_hash);
    }
    if (j->rc == ARB_EVERIFY) {
        printf(",\"divergence\":{\"kind\":\"%s\",\"record\":%" PRIu64 ",\"span_first\":%" PRIu64 ",\"turn\":%" PRIu32
               ",\"seat\":%d,\"action\":",
               arb_verify_kind_name(r->kind), r->record, r->span_first, r->turn, r->seat);
        cli_json_str(stdout, r->action);
        printf(",\"rule\":");
        cli_json_str(stdout, r->rule);
        if (r->kind == ARB_DIV_CHECKPOINT_HASH || r->kind == ARB_DIV_FINAL_HASH)
            printf(",\"expected\":\"0x%016" PRIx64 "\",\"computed\":\"0x%016" PRIx64 "\"", r->expected, r->computed);
        printf(",\"detail\":");
        cli_json_str(stdout, r->detail);
        printf("}");
    } else if (j->rc != ARB_OK) {
        char buf[ARB_MSG_MAX + ARB_WHERE_MAX + 8];
        arb_error_format(&j->err, buf, sizeof buf);
        printf(",\"error\":");
        cli_json_str(stdout, buf);
        if (j->rc == ARB_ETRUNC)
            printf(",\"verified_records\":%" PRIu64 ",\"last_checkpoint_turn\":%" PRIu32, r->last_good_record,
                   r->last_turn);
    }
    printf("}\n");
}

static void print_text(const vjob *j, int quiet)
{
    const arb_verify_result *r = &j->res;
    if (j->rc == ARB_OK) {
        if (quiet) return;
        char win[32];
        if (r->winner >= 0) snprintf(win, sizeof win, "P%d wins", r->winner + 1);
        else snprintf(win, sizeof win, "draw");
        printf("%s: OK: %" PRIu64 " actions, %" PRIu64 " checkpoints, %s (%s) after %" PRIu32
               " turns, final hash 0x%016" PRIx64 "%s\n",
               j->path, r->status.actions, r->status.checkpoints, win, r->reason, r->turns, r->final_hash,
               r->commit == 1 ? ", seed commitment ok" : "");
        return;
    }
    if (j->rc == ARB_EVERIFY) {
        printf("%s: DIVERGES (%s) at record %" PRIu64 ", turn %" PRIu32, j->path, arb_verify_kind_name(r->kind),
               r->record, r->turn);
        if (r->seat >= 0) printf(", seat %d", r->seat);
        else if (r->seat == ARB_SEAT_ARBITER) printf(", arbiter");
        if (r->action[0]) printf(", action '%s'", r->action);
        if (r->rule[0]) printf(", rule %s", r->rule);
        printf(": %s\n", r->detail);
        return;
    }
    char buf[ARB_MSG_MAX + ARB_WHERE_MAX + 8];
    arb_error_format(&j->err, buf, sizeof buf);
    printf("%s: %s: %s\n", j->path, j->rc == ARB_ETRUNC ? "TRUNCATED" : j->rc == ARB_EUNSUPPORTED ? "UNSUPPORTED" : "UNREADABLE",
           buf);
    if (j->rc == ARB_ETRUNC && r->status.records)
        printf("%s: the %" PRIu64 " complete record(s) before the cut replay without divergence (last matching "
               "checkpoint: turn %" PRIu32 ")\n",
               j->path, r->last_good_record, r->last_turn);
}

int cmd_verify(int argc, char **argv)
{
    static const struct option opts[] = {
        { "json", no_argument, NULL, 'x' },
        { "jobs", required_argument, NULL, 'j' },
        { "quiet", no_argument, NULL, 'q' },
        { "manifest", required_argument, NULL, 'm' },
        { "shard", required_argument, NULL, 's' },
        { "engine", required_argument, NULL, 'E' },
        { "engine-timeout", required_argument, NULL, 'T' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };
    int json = 0, quiet = 0, c;
    unsigned long long jobs = 1;
    const char *manifest = NULL;
    cli_shard shard = { 0, 1 };
    int sharded = 0;
    const char *engine = NULL;
    unsigned long long engine_ms = 0;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "j:qh", opts, NULL)) != -1) {
        switch (c) {
        case 'x': json = 1; break;
        case 'j':
            if (cli_parse_u64(optarg, &jobs) || jobs < 1 || jobs > 256)
                return cli_usage("verify", "--jobs '%s' is not 1..256", optarg);
            break;
        case 'q': quiet = 1; break;
        case 'm': manifest = optarg; break;
        case 'E': engine = optarg; break;
        case 'T':
            if (cli_parse_u64(optarg, &engine_ms) || engine_ms < 1 || engine_ms > 3600000)
                return cli_usage("verify", "--engine-timeout '%s' is not 1..3600000 ms", optarg);
            break;
        case 's':
            if (cli_shard_parse("verify", optarg, &shard)) return EXIT_USAGE;
            sharded = 1;
            break;
        case 'h':
            printf("usage: arbiter verify [--json] [--jobs N] [--quiet] FILE...\n"
                   "       arbiter verify --manifest FILE [--shard K/N|slurm] [--json] [--jobs N]\n"
                   "\n"
                   "Replay each .tcgr from its seed (or position) with the engine its header\n"
                   "names: every action must be legal, every checkpoint hash and the outcome\n"
                   "must be reproduced, and the seed commitment must match when present.\n"
                   "The first divergence is reported with its record index, turn, seat,\n"
                   "action, and the rule ID broken or the expected and computed hashes.\n"
                   "\n"
                   "  --json     one JSON object per file and line (NDJSON)\n"
                   "  -j, --jobs N  verify N files at a time (results stay in argument order)\n"
                   "  --quiet    print only files that do not verify\n"
                   "  --engine CMD  verify through an external engine: CMD is run by /bin/sh and\n"
                   "             speaks the engine protocol (conformance/ADAPTER.md), e.g.\n"
                   "             \"arbiter engine-serve --game naramo\"; a dead, slow or\n"
                   "             babbling adapter is exit 4 naming the request\n"
                   "  --engine-timeout MS  per-request limit for --engine (default 10000)\n"
                   "  --manifest FILE  verify the files listed in FILE (one path per line;\n"
                   "             blank lines and '#' lines are not entries)\n"
                   "  --shard K/N  only manifest entries whose 0-based index i has i mod N = K;\n"
                   "             'slurm' takes K and N from the job array's environment. With\n"
                   "             --json each line carries \"index\" and \"shard\", and a last line\n"
                   "             {\"shard_done\":…} marks the shard complete for `arbiter merge`.\n"
                   "             Per-file failures are data then: exit 0 once the shard ran.\n"
                   "\n"
                   "Exit: 0 all verified; 1 a replay diverges; 3 a file is unreadable,\n"
                   "truncated, corrupt, or of an unsupported game, rules version, rng or\n"
                   "format version (3 wins over 1); 2 usage.\n");
            return EXIT_OK;
        default: return cli_usage("verify", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (sharded && !manifest) return cli_usage("verify", "--shard needs --manifest");
    if (manifest && optind < argc) return cli_usage("verify", "give either --manifest or FILE arguments, not both");
    cli_manifest mf = { 0 };
    int n;
    if (manifest) {
        int mrc = cli_manifest_read("verify", manifest, &shard, &mf);
        if (mrc) return mrc;
        if (mf.count > (uint64_t)INT32_MAX) { cli_manifest_free(&mf); return cli_usage("verify", "manifest too large"); }
        n = (int)mf.count;
    } else {
        n = argc - optind;
        if (n < 1) return cli_usage("verify", "no replay file given");
    }
    arb_adapter *ad = NULL;
    if (engine) {
        int erc = cli_engine_open("verify", engine, NULL, (int)engine_ms, &ad);
        if (erc) { cli_manifest_free(&mf); return erc; }
        engine_game = arb_adapter_game(ad);
    }
    vjob *jv = calloc(n ? (size_t)n : 1, sizeof *jv);
    if (!jv) { cli_manifest_free(&mf); arb_adapter_close(ad); return EXIT_INTERNAL; }
    for (int i = 0; i < n; i++) {
        jv[i].path = manifest ? mf.paths[i] : argv[optind + i];
        jv[i].index = manifest ? (int64_t)mf.index[i] : -1;
    }
    vpool pool = { jv, n, 0, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER };
    int nthreads = (int)(jobs < (unsigned long long)n ? jobs : (unsigned long long)n);
    pthread_t th[256];
    int started = 0;
    /* The main thread is a worker too: it takes jobs like the others and,
     * between them, prints every finished result in argument order. A main
     * thread that only waited would be woken once per file and steal a core
     * from the workers. */
    if (nthreads > 1)
        for (; started < nthreads - 1; started++)
            if (pthread_create(&th[started], NULL, worker, &pool)) break;
    int any_div = 0, any_bad = 0, any_nomem = 0;
    uint64_t n_ok = 0;
    int printed = 0;
    while (printed < n) {
        int i = -1;
        pthread_mutex_lock(&pool.mu);
        if (pool.next < n) i = pool.next++;
        else
            while (!jv[printed].done) pthread_cond_wait(&pool.cv, &pool.mu);
        pthread_mutex_unlock(&pool.mu);
        if (i >= 0) {
            verify_one(&jv[i]);
            pthread_mutex_lock(&pool.mu);
            jv[i].done = 1;
            pthread_mutex_unlock(&pool.mu);
        }
        for (;;) {
            pthread_mutex_lock(&pool.mu);
            int ready = printed < n && jv[printed].done;
            pthread_mutex_unlock(&pool.mu);
            if (!ready) break;
            const vjob *j = &jv[printed++];
            if (json) print_json(j, &shard);
            else print_text(j, quiet);
            if (j->rc == ARB_OK) n_ok++;
            if (j->rc == ARB_EVERIFY) any_div = 1;
            else if (j->rc == ARB_ENOMEM) any_nomem = 1;
            else if (j->rc) any_bad = 1;
        }
        fflush(stdout);
    }
    for (int t = 0; t < started; t++) pthread_join(th[t], NULL);
    free(jv);
    if (manifest && json)
        printf("{\"shard_done\":{\"k\":%" PRIu64 ",\"n\":%" PRIu64 ",\"manifest_entries\":%" PRIu64
               ",\"files\":%d,\"ok\":%" PRIu64 ",\"failed\":%" PRIu64 "}}\n",
               shard.k, shard.n, mf.total, n, n_ok, (uint64_t)n - n_ok);
    cli_manifest_free(&mf);
    int erc = cli_engine_check("verify", ad);
    arb_adapter_close(ad);
    engine_game = NULL;
    if (erc) return erc;
    if (sharded) return any_nomem ? EXIT_INTERNAL : EXIT_OK;
    return any_nomem ? EXIT_INTERNAL : any_bad ? EXIT_INPUT : any_div ? EXIT_VERIFY : EXIT_OK;
}
