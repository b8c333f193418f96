/* bench_replay.c — measures the replay layer for one game (not a test):
 * self-play actions/s unrecorded vs recorded (recorder overhead),
 * compressed bytes per action (whole file and records only; untimed and
 * timed; per zlib level), verify actions/s, decode-only actions/s
 * (inflate + MessagePack, no engine) and their ratio. The median of
 * several runs is printed. Build and run:
 *   cc -O2 -Iinclude -Isrc tools/bench_replay.c build/libarbiter.a \
 *      $(pkg-config --libs zlib libxxhash libsodium) -o build/bench_replay
 *   build/bench_replay GAME [MATCHES] [DIR]                                */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "arbiter/arbiter.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); /* CPU time: the machine may be shared */
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

typedef struct run {
    double secs;
    unsigned long long actions, bytes, header_bytes;
} run;

/* Play `matches` matches; record them into dir when dir != NULL. */
static run play(const arb_game *g, int matches, const char *dir, int level, int timed, int kind)
{
    run r = { 0, 0, 0, 0 };
    static arb_agent ag[ARB_MAX_SEATS];
    char path[512];
    double t0 = now();
    for (int i = 0; i < matches; i++) {
        arb_setup su;
        memset(&su, 0, sizeof su);
        su.seed = 1000 + (uint64_t)i;
        su.players = g->min_players;
        for (int p = 0; p < su.players; p++) su.decks[p] = g->preset((unsigned)p % g->npresets);
        arb_error err = ARB_ERROR_INIT;
        arb_match *m;
        if (arb_match_new(&m, g, &su, &err)) { fprintf(stderr, "setup: %s\n", err.msg); exit(1); }
        for (int p = 0; p < su.players; p++) arb_agent_init(&ag[p], (arb_agent_kind)kind, su.seed, p, timed);
        arb_replay_writer *w = NULL;
        if (dir) {
            arb_replay_meta meta;
            memset(&meta, 0, sizeof meta);
            meta.game = g;
            meta.setup = &su;
            meta.started = "2026-11-29T12:00:00Z";
            meta.level = level;
            meta.flags = timed ? ARB_REPLAY_FLAG_TIMED : 0;
            snprintf(path, sizeof path, "%s/m%d.tcgr", dir, i);
            if (arb_replay_writer_open(&w, path, &meta, &err)) { fprintf(stderr, "%s\n", err.msg); exit(1); }
            r.header_bytes += arb_replay_writer_bytes(w);
            arb_replay_record_start(w, m, &err);
        }
        for (;;) {
            arb_decision d = arb_match_decision(m);
            if (d.seat == ARB_SEAT_NONE) break;
            arb_action a;
            if (arb_agent_choose(&ag[d.seat < 0 ? 0 : d.seat], m, &a)) break;
            int rc = w ? arb_replay_record_step(w, m, &a, &err) : arb_match_apply(m, &a, &err);
            if (rc) { fprintf(stderr, "apply: %s %s\n", err.rule, err.msg); exit(1); }
            r.actions++;
        }
        if (w) {
            r.bytes += arb_replay_writer_bytes(w);
            arb_replay_writer_close(w, &err);
            struct stat sb;
            if (stat(path, &sb) == 0) r.bytes += (unsigned long long)sb.st_size - arb_replay_writer_bytes(w) * 0;
        }
        arb_match_free(m);
    }
    r.secs = now() - t0;
    return r;
}

static unsigned long long file_bytes(const char *dir, int matches)
{
    unsigned long long n = 0;
    char path[512];
    for (int i = 0; i < matches; i++) {
        struct stat sb;
        snprintf(path, sizeof path, "%s/m%d.tcgr", dir, i);
        if (stat(path, &sb) == 0) n += (unsigned long long)sb.st_size;
    }
    return n;
}

static double verify_all(const char *dir, int matches, int decode_only, unsigned long long *actions)
{
    char path[512];
    *actions = 0;
    double t0 = now();
    for (int i = 0; i < matches; i++) {
        snprintf(path, sizeof path, "%s/m%d.tcgr", dir, i);
        arb_error err = ARB_ERROR_INIT;
        if (decode_only) {
            arb_replay *r;
            if (arb_replay_open(&r, path, NULL, &err)) { fprintf(stderr, "%s\n", err.msg); exit(1); }
            arb_replay_record rec;
            while (arb_replay_next(r, &rec, &err) == 1) *actions += rec.kind == ARB_REC_ACTION;
            arb_replay_close(r);
        } else {
            arb_verify_result res;
            if (arb_replay_verify_file(path, NULL, &res, &err)) { fprintf(stderr, "%s: %s\n", path, err.msg); exit(1); }
            *actions += res.status.actions;
        }
    }
    return now() - t0;
}

int main(int argc, char **argv)
{
    const arb_game *g = arb_game_find(argc > 1 ? argv[1] : "naramo");
    int matches = argc > 2 ? atoi(argv[2]) : 2000;
    const char *dir = argc > 3 ? argv[3] : "/tmp/arbiter-bench";
    int reps = 5;
    if (!g) { fprintf(stderr, "unknown game\n"); return 2; }
    mkdir(dir, 0777);
    double plain[8], rec[8], ver[8], dec[8];
    run rp = { 0 }, rr = { 0 };
    for (int k = 0; k < reps; k++) {
        rp = play(g, matches, NULL, -1, 0, ARB_AGENT_RANDOM);
        plain[k] = rp.secs;
        rr = play(g, matches, dir, -1, 0, ARB_AGENT_RANDOM);
        rec[k] = rr.secs;
    }
    unsigned long long va = 0, da = 0;
    for (int k = 0; k < reps; k++) {
        ver[k] = verify_all(dir, matches, 0, &va);
        dec[k] = verify_all(dir, matches, 1, &da);
    }
    qsort(plain, (size_t)reps, sizeof(double), cmpd);
    qsort(rec, (size_t)reps, sizeof(double), cmpd);
    qsort(ver, (size_t)reps, sizeof(double), cmpd);
    qsort(dec, (size_t)reps, sizeof(double), cmpd);
    double mp = plain[reps / 2], mr = rec[reps / 2], mv = ver[reps / 2], md = dec[reps / 2];
    unsigned long long fb = file_bytes(dir, matches);
    printf("game %s: %d matches, %llu actions (%.1f per match), random agents, level %d, median of %d\n", g->id,
           matches, rp.actions, (double)rp.actions / matches, ARB_REPLAY_LEVEL_DEFAULT, reps);
    printf("  self-play unrecorded   %12.0f actions/s\n", (double)rp.actions / mp);
    printf("  self-play recorded     %12.0f actions/s   overhead %+.1f %%\n", (double)rr.actions / mr,
           100.0 * (mr / mp - 1.0));
    printf("  verify                 %12.0f actions/s\n", (double)va / mv);
    printf("  decode-only            %12.0f actions/s   verify/decode ratio %.2f\n", (double)da / md, mv / md);
    printf("  bytes/action untimed   %12.3f whole file, %.3f records only (header %.0f B/match)\n",
           (double)fb / (double)rr.actions, (double)(fb - rr.header_bytes) / (double)rr.actions,
           (double)rr.header_bytes / matches);
    for (int timed = 0; timed < 2; timed++)
        for (int lvl = 1; lvl <= 9; lvl += (lvl == 1 ? 5 : 3)) {
            double tt[8];
            run x = { 0 };
            for (int k = 0; k < 3; k++) {
                x = play(g, matches, dir, lvl, timed, ARB_AGENT_RANDOM);
                tt[k] = x.secs;
            }
            qsort(tt, 3, sizeof(double), cmpd);
            unsigned long long b = file_bytes(dir, matches);
            printf("  %s level %d: %.3f B/action whole, %.3f records only, recorded play %.0f actions/s\n",
                   timed ? "timed  " : "untimed", lvl, (double)b / (double)x.actions,
                   (double)(b - x.header_bytes) / (double)x.actions, (double)x.actions / tt[1]);
        }
    return 0;
}
