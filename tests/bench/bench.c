/* bench.c — `make bench`: the speed and size figures of every game in the
 * registry, measured in one run on this machine and printed as one table
 * per game with each figure beside its target (DESIGN §7, issue 10). Every
 * rate is the median of RUNS runs. Never part of a test: speed is reported,
 * not asserted.
 *
 * In-process rates are CPU time (the machine may be shared); the child
 * process figures are wall time.
 *
 *   self-play     random agents, untimed, no recording; actions applied/s
 *   recorded      the same matches through arb_replay_record_step into
 *                 files: overhead = recorded time / unrecorded time - 1,
 *                 with the files in the temporary directory and on tmpfs
 *   verify        arb_replay_verify_file over those files, in process
 *                 (and over the longest golden replay, where the per-file
 *                 cost of opening and setup matters least)
 *   decode-only   arb_replay_open + arb_replay_next over them (inflate +
 *                 MessagePack, no engine); ratio = verify time / decode time
 *   bytes/action  file bytes / actions, untimed and --timed matches
 *   peak RSS      of `arbiter verify` (ru_maxrss of the child) on the
 *                 shortest and the longest golden replay of the game: flat
 *                 in replay length when both are about the same
 *   --jobs        `arbiter verify --jobs 1` / `--jobs 2` wall time over the
 *                 game's golden corpus (listed REPEAT times, or more: until
 *                 a --jobs 1 run lasts 0.3 s, so the process start is not
 *                 what is measured)
 *   conformance   `arbiter conform --quiet --game G` wall time, and the whole
 *                 suite at the end
 *
 * --levels adds, per game, the sweep behind the writer's zlib level
 * (replays/FORMAT.md §9): bytes/action and recorded self-play actions/s at
 * levels 1, 6 and 9, untimed and timed.
 *
 * The format-v2 rows (issue 16) follow per game: v1 and v2 bytes/action on
 * the golden corpus and on 200 default-preset matches, the same matches as
 * one archive, the information limit (sum of log2 of the number of legal
 * actions at each decision), Showdown's 4.89 B/choice for reference, and
 * recording into an archive against unrecorded self-play. --v2: only those.
 *
 * usage: bench [--arbiter PATH] [--golden DIR] [--conformance DIR]
 *              [--levels] [--v2] [GAME]                                          */
#include <dirent.h>
#include <math.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "arbiter/arbiter.h"
#include "replay/internal.h"
#include "replay/rcbody.h"
#include <zlib.h>

#define RUNS 5
#define REPEAT 20
#define MAXFILES 1000

static const char *arbiter_bin = "build/arbiter";
static const char *golden_dir = "replays/golden";
static const char *conform_dir = "conformance";
static char tmpdir[64], shmdir[64]; /* shmdir: tmpfs, "" when none */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* In-process figures use CPU time: the machine may be shared. */
static double cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* CPU time of the calling thread only (the recorder's thread, without the
 * archive's compressor thread). */
static double tcpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void die(const char *what, const arb_error *err)
{
    char buf[700];
    arb_error_format(err, buf, sizeof buf);
    fprintf(stderr, "bench: %s: %s\n", what, buf);
    exit(1);
}

/* Play `games` seeded random matches from seed0; record into tmpdir/tag-K
 * when tag != NULL. Returns actions applied; *bytes gets the file bytes. */
static unsigned long long header_bytes;
static int zlevel = -1; /* the writer's default unless --levels sweeps it */
static int zversion = 0; /* the writer's default format (2) unless set */
static arb_archive_writer *zarchive; /* non-NULL: record into this archive */
static double info_bits;  /* sum of log2(legal actions) at each decision (selfplay with want_info) */
static int want_info;

static long selfplay(const arb_game *g, uint64_t seed0, int games, const char *tag, int timed,
                     unsigned long long *bytes)
{
    header_bytes = 0;
    static arb_agent ag[ARB_MAX_SEATS];
    long actions = 0;
    if (bytes) *bytes = 0;
    for (int k = 0; k < games; k++) {
        arb_setup su;
        memset(&su, 0, sizeof su);
        su.seed = seed0 + (uint64_t)k;
        su.players = g->min_players;
        for (int s = 0; s < su.players; s++) su.decks[s] = g->preset(g, (unsigned)s % g->npresets);
        arb_match *m;
        arb_error err = ARB_ERROR_INIT;
        if (arb_match_new(&m, g, &su, &err)) die("setup", &err);
        for (int s = 0; s < su.players; s++) arb_agent_init(&ag[s], ARB_AGENT_RANDOM, su.seed, s, timed);
        arb_replay_writer *w = NULL;
        char path[256];
        if (tag) {
            arb_replay_meta meta;
            memset(&meta, 0, sizeof meta);
            meta.game = g;
            meta.setup = &su;
            meta.started = "2026-11-29T12:00:00Z";
            meta.level = zlevel;
            meta.flags = timed ? ARB_REPLAY_FLAG_TIMED : 0;
            meta.version = zversion;
            snprintf(path, sizeof path, "%s/%s-%d.tcgr", tmpdir, tag, k);
            if ((zarchive ? arb_replay_writer_open_archive(&w, zarchive, &meta, &err)
                          : arb_replay_writer_open(&w, path, &meta, &err)) ||
                arb_replay_record_start(w, m, &err))
                die("record", &err);
            header_bytes += arb_replay_writer_bytes(w);
        }
        for (;;) {
            arb_decision d = arb_match_decision(m);
            if (d.seat == ARB_SEAT_NONE) break;
            arb_action a;
            if (want_info) {
                static arb_action legal[ARB_AGENT_LEGAL_MAX];
                size_t nl = arb_match_legal(m, legal, ARB_AGENT_LEGAL_MAX);
                if (nl > 1) info_bits += log2((double)nl);
            }
            if (arb_agent_choose(&ag[d.seat >= 0 ? d.seat : 0], m, &a)) break;
            if (w ? arb_replay_record_step(w, m, &a, &err) : arb_match_apply(m, &a, &err)) die("apply", &err);
            actions++;
        }
        if (w) {
            if (arb_replay_writer_close(w, &err)) die("close", &err);
            struct stat sb;
            if (bytes && !zarchive && stat(path, &sb) == 0) *bytes += (unsigned long long)sb.st_size;
        }
        arb_match_free(m);
    }
    return actions;
}

/* Verify (or only decode) tmpdir/tag-0..games-1; returns actions seen. */
static long replay_all(const char *tag, int games, int decode_only)
{
    long actions = 0;
    char path[256];
    for (int k = 0; k < games; k++) {
        snprintf(path, sizeof path, "%s/%s-%d.tcgr", tmpdir, tag, k);
        arb_error err = ARB_ERROR_INIT;
        if (decode_only) {
            arb_replay *r;
            if (arb_replay_open(&r, path, NULL, &err)) die(path, &err);
            arb_replay_record rec;
            int rc;
            while ((rc = arb_replay_next(r, &rec, &err)) == 1) actions += rec.kind == ARB_REC_ACTION;
            if (rc < 0) die(path, &err);
            arb_replay_close(r);
        } else {
            arb_verify_result res;
            if (arb_replay_verify_file(path, NULL, &res, &err)) die(path, &err);
            actions += (long)res.status.actions;
        }
    }
    return actions;
}

/* Run argv (stdout/stderr to /dev/null); wall seconds, peak RSS in KiB. */
static double run_child(char **argv, long *maxrss_kb, int *status)
{
    double t0 = now();
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        execv(argv[0], argv);
        _exit(127);
    }
    int st = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    if (pid < 0 || wait4(pid, &st, 0, &ru) < 0) st = -1;
    if (maxrss_kb) *maxrss_kb = ru.ru_maxrss;
    if (status) *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return now() - t0;
}

typedef struct gfile {
    char path[512];
    long long size;
} gfile;

/* `verify --jobs 2` against `--jobs 1` over the files f[0..nf), listed
 * often enough that a --jobs 1 run lasts 0.3 s (at least `repeat` times):
 * the process start (a few ms, serial) must not be what is measured.
 * *nargs: the files listed. */
static double jobs_speedup(const gfile *f, int nf, int repeat, int *nargs)
{
    char **argv = NULL;
    int n = 0;
    double tj[2][RUNS];
    for (;;) {
        n = nf * repeat;
        free(argv);
        argv = calloc((size_t)n + 5, sizeof *argv);
        if (!argv) exit(1);
        argv[0] = (char *)arbiter_bin;
        argv[1] = "verify";
        argv[2] = "--quiet";
        argv[3] = "--jobs=1";
        for (int i = 0; i < n; i++) argv[4 + i] = (char *)f[i % nf].path;
        if (run_child(argv, NULL, NULL) >= 0.3 || repeat >= 640) break;
        repeat *= 2;
    }
    for (int r = 0; r < RUNS; r++)
        for (int j = 0; j < 2; j++) {
            argv[3] = j ? "--jobs=2" : "--jobs=1";
            tj[j][r] = run_child(argv, NULL, NULL);
        }
    free(argv);
    *nargs = n;
    return median(tj[0], RUNS) / median(tj[1], RUNS);
}

static int list_golden(const char *game, gfile *out, int cap)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s/%s", golden_dir, game);
    DIR *d = opendir(dir);
    if (!d) return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < cap) {
        size_t l = strlen(e->d_name);
        if (l < 6 || strcmp(e->d_name + l - 5, ".tcgr")) continue;
        if (strlen(dir) + l + 2 > sizeof out[n].path) continue;
        memcpy(out[n].path, dir, strlen(dir));
        out[n].path[strlen(dir)] = '/';
        memcpy(out[n].path + strlen(dir) + 1, e->d_name, l + 1);
        struct stat sb;
        out[n].size = stat(out[n].path, &sb) == 0 ? (long long)sb.st_size : 0;
        n++;
    }
    closedir(d);
    return n;
}

static long golden_actions(const char *path)
{
    arb_error err = ARB_ERROR_INIT;
    arb_replay *r;
    if (arb_replay_open(&r, path, NULL, &err)) return -1;
    arb_replay_record rec;
    long n = 0;
    while (arb_replay_next(r, &rec, &err) == 1) n += rec.kind == ARB_REC_ACTION;
    arb_replay_close(r);
    return n;
}

static void row(const char *figure, const char *measured, const char *target, int ok)
{
    printf("  %-52s %12s   %-18s %s\n", figure, measured, target, ok < 0 ? "" : ok ? "ok" : "MISSED");
}

static double conform_time(const char *game)
{
    char *argv[10];
    int k = 0;
    argv[k++] = (char *)arbiter_bin;
    argv[k++] = "conform";
    argv[k++] = "--quiet";
    if (game) {
        argv[k++] = "--game";
        argv[k++] = (char *)game;
    }
    argv[k++] = (char *)conform_dir;
    argv[k] = NULL;
    double t[3];
    int st = 0;
    for (int r = 0; r < 3; r++) t[r] = run_child(argv, NULL, &st);
    return st == 0 ? median(t, 3) : -1;
}

static void level_sweep(const arb_game *g, int games)
{
    static const int levels[] = { 1, 6, 9 };
    printf("  zlib level sweep (%d matches; CPU time, median of 3):\n", games);
    for (int timed = 0; timed < 2; timed++)
        for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++) {
            double t[3];
            long acts = 0;
            unsigned long long bytes = 0;
            zlevel = levels[l];
            for (int r = 0; r < 3; r++) {
                double t0 = cpu();
                acts = selfplay(g, 1000, games, "l", timed, &bytes);
                t[r] = cpu() - t0;
            }
            printf("    level %d %-8s %7.3f B/action whole file, %7.3f records only, recorded play %10.0f actions/s\n",
                   levels[l], timed ? "timed" : "untimed", (double)bytes / (double)acts,
                   (double)(bytes - header_bytes) / (double)acts, acts / median(t, 3));
        }
    zlevel = -1;
}

static int want_levels;

/* Bytes and actions of the .tcgr files directly in dir (no recursion);
 * timed: 0 untimed only, 1 timed only, -1 all. */
static void corpus_size(const char *dir, int timed, unsigned long long *bytes, long *actions)
{
    *bytes = 0;
    *actions = 0;
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l < 6 || strcmp(e->d_name + l - 5, ".tcgr")) continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        arb_replay *r;
        arb_error err = ARB_ERROR_INIT;
        if (arb_replay_open(&r, path, NULL, &err)) continue;
        int t = (arb_replay_get_header(r)->flags & ARB_REPLAY_FLAG_TIMED) != 0;
        arb_replay_record rec;
        long n = 0;
        while (arb_replay_next(r, &rec, &err) == 1) n += rec.kind == ARB_REC_ACTION;
        arb_replay_close(r);
        if (timed >= 0 && t != timed) continue;
        struct stat sb;
        if (stat(path, &sb) == 0) *bytes += (unsigned long long)sb.st_size;
        *actions += n;
    }
    closedir(d);
}


/* The range coder of FORMAT.md Part D on the golden contents of a game
 * (its v2-zlib corpus, inflated): encode and decode speed in actions/s
 * and content MB/s, and verify throughput of the range-coded corpus
 * against the same files zlib-coded. CPU time, best of 3. */
static void coder_rows(const arb_game *g)
{
    char dir[600], path[1200], buf[64];
    snprintf(dir, sizeof dir, "%s/%s/v2-zlib", golden_dir, g->id);
    DIR *d = opendir(dir);
    if (!d) return;
    enum { MAXF = 512 };
    uint8_t *c[MAXF];
    size_t cn[MAXF], hl[MAXF];
    int tm[MAXF];
    char *names[MAXF];
    int nf = 0;
    long acts = 0;
    size_t bytes = 0;
    struct dirent *e;
    while ((e = readdir(d)) && nf < MAXF) {
        size_t l = strlen(e->d_name);
        if (l < 6 || strcmp(e->d_name + l - 5, ".tcgr")) continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f) continue;
        static uint8_t raw[1 << 20];
        size_t n = fread(raw, 1, sizeof raw, f);
        fclose(f);
        if (n < 9) continue;
        uint8_t *o = malloc(1 << 20);
        z_stream zs;
        memset(&zs, 0, sizeof zs);
        inflateInit(&zs);
        zs.next_in = raw + 8;
        zs.avail_in = (uInt)(n - 8);
        zs.next_out = o;
        zs.avail_out = 1 << 20;
        inflate(&zs, Z_FINISH);
        size_t on = zs.total_out;
        inflateEnd(&zs);
        arb_replay_limits lim;
        arb_replay__limits(&lim, NULL);
        const char *what;
        if (arb_replay__mp_measure(o, on, &lim, &hl[nf], &what) != ARB_MP_OK) { free(o); continue; }
        c[nf] = o;
        cn[nf] = on;
        tm[nf] = raw[5] & 1;
        names[nf] = strdup(e->d_name);
        bytes += on;
        acts += golden_actions(path);
        nf++;
    }
    closedir(d);
    if (!nf) return;
    arb_rc_model m;
    arb_rc_model_init(&m);
    uint8_t **z = malloc((size_t)nf * sizeof *z);
    size_t *zn = malloc((size_t)nf * sizeof *zn);
    double te = 1e9, td = 1e9;
    int reps = 1;
    for (int i = 0; i < nf; i++) {
        arb_rc_model_reset(&m);
        arb_rc_encode(&m, c[i], cn[i], hl[i], tm[i], &z[i], &zn[i]);
    }
    for (int r = 0; r < 3; r++)
        for (;;) {
            double t0 = cpu();
            for (int k = 0; k < reps; k++)
                for (int i = 0; i < nf; i++) {
                    uint8_t *y;
                    size_t yn;
                    arb_rc_model_reset(&m);
                    arb_rc_encode(&m, c[i], cn[i], hl[i], tm[i], &y, &yn);
                    free(y);
                }
            double t = cpu() - t0;
            if (t > 0.2 || reps > 1 << 20) {
                if (t / reps < te) te = t / reps;
                break;
            }
            reps *= 2;
        }
    for (int r = 0; r < 3; r++) {
        double t0 = cpu();
        for (int k = 0; k < reps; k++)
            for (int i = 0; i < nf; i++) {
                arb_rc_model_reset(&m);
                uint8_t *o;
                size_t on, h, u;
                if (arb_rc_decode_all(&m, z[i], zn[i], tm[i], 1u << 30, &o, &on, &h, &u) || on != cn[i]) {
                    fprintf(stderr, "bench: the range coder does not round-trip %s\n", names[i]);
                    exit(1);
                }
                free(o);
            }
        double t = (cpu() - t0) / reps;
        if (t < td) td = t;
    }
    printf("  range coder (FORMAT.md Part D) on the golden contents (%d files, %ld actions, %.2f B/action of content):\n",
           nf, acts, (double)bytes / (double)acts);
    snprintf(buf, sizeof buf, "%.2f M (%.1f MB/s)", acts / te / 1e6, bytes / te / 1e6);
    row("    encode, actions/s (content MB/s), one thread", buf, ">= 6 M", acts / te >= 6e6);
    snprintf(buf, sizeof buf, "%.2f M (%.1f MB/s)", acts / td / 1e6, bytes / td / 1e6);
    row("    decode, actions/s (content MB/s)", buf, "-", -1);
    /* verify: the range-coded corpus (v2/) against the zlib-coded one */
    double tv[2] = { 1e9, 1e9 };
    for (int k = 0; k < 2; k++)
        for (int r = 0; r < 3; r++) {
            double t0 = cpu();
            for (int i = 0; i < nf; i++) {
                snprintf(path, sizeof path, "%s/%s/%s/%s", golden_dir, g->id, k ? "v2-zlib" : "v2", names[i]);
                arb_verify_result res;
                arb_error err = ARB_ERROR_INIT;
                arb_replay_verify_file(path, NULL, &res, &err);
            }
            double t = cpu() - t0;
            if (t < tv[k]) tv[k] = t;
        }
    snprintf(buf, sizeof buf, "%.2f M", acts / tv[0] / 1e6);
    row("    verify, range-coded golden files, actions/s", buf, "-", -1);
    snprintf(buf, sizeof buf, "%.2f M", acts / tv[1] / 1e6);
    row("    verify, the same files zlib-coded, actions/s", buf, "-", -1);
    for (int i = 0; i < nf; i++) {
        free(c[i]);
        free(z[i]);
        free(names[i]);
    }
    free(z);
    free(zn);
    arb_rc_model_free(&m);
}

/* Format v2 (issue 16): sizes beside v1, archives, the information limit,
 * Showdown's figure, and recording into an archive at engine speed. */
static void v2_rows(const arb_game *g)
{
    char buf[64], fig[128];
    enum { N = 200 };
    printf("  format v2 (issue 16): sizes in whole-file bytes per action, header included\n");
    char d1[600], d2[600];
    snprintf(d1, sizeof d1, "%s/%s", golden_dir, g->id);
    snprintf(d2, sizeof d2, "%s/%s/v2", golden_dir, g->id);
    unsigned long long b1, b2;
    long a1, a2;
    corpus_size(d1, -1, &b1, &a1);
    corpus_size(d2, -1, &b2, &a2);
    if (a1 > 0) {
        snprintf(buf, sizeof buf, "%.3f", (double)b1 / (double)a1);
        row("golden corpus, v1 files", buf, "-", -1);
    }
    if (a2 > 0) {
        snprintf(buf, sizeof buf, "%.3f", (double)b2 / (double)a2);
        row("golden corpus, v2 files", buf, "<= 2.0", (double)b2 / (double)a2 <= 2.0);
        for (int t = 0; t < 2; t++) {
            corpus_size(d2, t, &b2, &a2);
            snprintf(buf, sizeof buf, "%.3f", a2 ? (double)b2 / (double)a2 : 0.0);
            row(t ? "  v2, its --timed files (think times: ~1.7 B/action)" : "  v2, its untimed files", buf, "-", -1);
        }
    }
    unsigned long long bv1, bv2, bar, btar;
    zversion = 1;
    long acts = selfplay(g, 5000, N, "v1", 0, &bv1);
    zversion = 0;
    want_info = 1;
    info_bits = 0;
    selfplay(g, 5000, N, "v2", 0, &bv2);
    want_info = 0;
    snprintf(fig, sizeof fig, "default-preset self-play (%d random matches), v1", N);
    snprintf(buf, sizeof buf, "%.3f", (double)bv1 / (double)acts);
    row(fig, buf, "-", -1);
    snprintf(buf, sizeof buf, "%.3f", (double)bv2 / (double)acts);
    row("  same matches, v2 single files", buf, "<= 2.0", (double)bv2 / (double)acts <= 2.0);
    arb_error err = ARB_ERROR_INIT;
    char ap[300];
    for (int timed = 0; timed < 2; timed++) {
        snprintf(ap, sizeof ap, "%s/archive-%d.tcgr", tmpdir, timed);
        if (arb_archive_writer_open(&zarchive, ap, 0, 1, NULL, 0, &err)) die("archive", &err);
        long aa = selfplay(g, 5000, N, "a", timed, NULL);
        if (arb_archive_writer_close(zarchive, &err)) die("archive", &err);
        zarchive = NULL;
        struct stat sb;
        unsigned long long *pb = timed ? &btar : &bar;
        *pb = stat(ap, &sb) == 0 ? (unsigned long long)sb.st_size : 0;
        snprintf(fig, sizeof fig, "  same matches, one %d-match archive%s", N, timed ? " (--timed)" : "");
        snprintf(buf, sizeof buf, "%.3f", (double)*pb / (double)aa);
        row(fig, buf, timed ? "-" : "<= 1.0", timed ? -1 : (double)*pb / (double)aa <= 1.0);
    }
    snprintf(buf, sizeof buf, "%.3f", info_bits / 8.0 / (double)acts);
    row("  information limit: sum log2(legal actions) / 8", buf, "(floor)", -1);
    row("  Pokemon Showdown input log, per choice (reference)", "4.890", "(peer)", -1);
    coder_rows(g);
    /* recording into an archive vs not recording: wall time (the
     * compressor runs on a second thread) and CPU time */
    double pw[RUNS], rw[RUNS], pc[RUNS], rc[RUNS], rt[RUNS];
    long pa = 0;
    int ns = N; /* enough matches for ~0.3 s of unrecorded play: fixed costs (thread, index) fade */
    for (;;) {
        double c0 = cpu();
        selfplay(g, 7000, ns, NULL, 0, NULL);
        if (cpu() - c0 > 0.3 || ns >= 1 << 17) break;
        ns *= 2;
    }
    for (int r = 0; r < RUNS; r++) {
        double w0 = now(), c0 = cpu();
        pa = selfplay(g, 7000, ns, NULL, 0, NULL);
        pw[r] = now() - w0;
        pc[r] = cpu() - c0;
        snprintf(ap, sizeof ap, "%s/archive-speed.tcgr", tmpdir);
        if (arb_archive_writer_open(&zarchive, ap, 0, 1, NULL, 0, &err)) die("archive", &err);
        w0 = now();
        c0 = cpu();
        double t0 = tcpu();
        selfplay(g, 7000, ns, "s", 0, NULL);
        rt[r] = tcpu() - t0;
        if (arb_archive_writer_close(zarchive, &err)) die("archive", &err);
        zarchive = NULL;
        rw[r] = now() - w0;
        rc[r] = cpu() - c0;
    }
    double mpw = median(pw, RUNS), mrw = median(rw, RUNS), mpc = median(pc, RUNS), mrc = median(rc, RUNS);
    snprintf(buf, sizeof buf, "%.0f", pa / mpw);
    snprintf(fig, sizeof fig, "unrecorded self-play actions/s (wall, %d matches)", ns);
    row(fig, buf, "-", -1);
    snprintf(buf, sizeof buf, "%.0f", pa / mrw);
    row("recorded into an archive, actions/s (wall)", buf, "-", -1);
    snprintf(buf, sizeof buf, "%.1f %%", 100.0 * mpw / mrw);
    row("  recorded / unrecorded, wall (2nd thread compresses)", buf, ">= 70 %", mpw / mrw >= 0.70);
    snprintf(buf, sizeof buf, "%.1f %%", 100.0 * mpc / median(rt, RUNS));
    row("  recorded / unrecorded, CPU of the recording thread", buf, ">= 70 %", mpc / median(rt, RUNS) >= 0.70);
    snprintf(buf, sizeof buf, "%.1f %%", 100.0 * mpc / mrc);
    row("  recorded / unrecorded, CPU time of both threads", buf, "-", -1);
}

static int v2_only;

static void bench_game(const arb_game *g)
{
    char buf[64], tgt[64];
    if (v2_only) {
        printf("\n%s (%s, rules %s)\n", g->id, g->title, g->rules_version);
        v2_rows(g);
        return;
    }
    /* Size the run to about 0.25 s of unrecorded self-play. */
    int games = 8;
    for (;;) {
        double t0 = cpu();
        selfplay(g, 1, games, NULL, 0, NULL);
        if (cpu() - t0 > 0.25 || games >= 1 << 16) break;
        games *= 2;
    }
    if (games > MAXFILES) games = MAXFILES;
    double plain[RUNS], rec[RUNS], ver[RUNS], dec[RUNS];
    long acts = 0, va = 0, da = 0;
    unsigned long long bytes = 0, tbytes = 0;
    for (int r = 0; r < RUNS; r++) {
        double t0 = cpu();
        acts = selfplay(g, 1000, games, NULL, 0, NULL);
        plain[r] = cpu() - t0;
        t0 = cpu();
        selfplay(g, 1000, games, "u", 0, &bytes);
        rec[r] = cpu() - t0;
    }
    for (int r = 0; r < RUNS; r++) {
        double t0 = cpu();
        va = replay_all("u", games, 0);
        ver[r] = cpu() - t0;
        t0 = cpu();
        da = replay_all("u", games, 1);
        dec[r] = cpu() - t0;
    }
    double shm[RUNS], mshm = -1;
    if (shmdir[0]) { /* the same recording into tmpfs: the recorder without the disk */
        char keep[64];
        memcpy(keep, tmpdir, sizeof keep);
        memcpy(tmpdir, shmdir, sizeof tmpdir);
        for (int r = 0; r < RUNS; r++) {
            double t0 = cpu();
            selfplay(g, 1000, games, "s", 0, NULL);
            shm[r] = cpu() - t0;
        }
        memcpy(tmpdir, keep, sizeof tmpdir);
        mshm = median(shm, RUNS);
    }
    unsigned long long hb = header_bytes;
    long tacts = selfplay(g, 1000, games, "t", 1, &tbytes);
    unsigned long long thb = header_bytes;
    double mp = median(plain, RUNS), mr = median(rec, RUNS), mv = median(ver, RUNS), md = median(dec, RUNS);

    printf("\n%s (%s, rules %s): %d random matches, %.1f actions each; medians of %d runs\n", g->id, g->title,
           g->rules_version, games, (double)acts / games, RUNS);
    printf("  %-52s %12s   %-18s\n", "figure", "measured", "target");
    snprintf(buf, sizeof buf, "%.0f", acts / mp);
    row("self-play actions/s (random, 1 core)", buf, ">= 1,000,000", acts / mp >= 1e6);
    snprintf(buf, sizeof buf, "%.0f", va / mv);
    row("verify actions/s (1 core)", buf, ">= 3,000,000", va / mv >= 3e6);
    snprintf(buf, sizeof buf, "%.0f", da / md);
    row("decode-only actions/s (inflate+msgpack)", buf, "-", -1);
    snprintf(buf, sizeof buf, "%.2f", mv / md);
    row("ratio verify / decode-only (time)", buf, "<= 3", mv / md <= 3);
    snprintf(buf, sizeof buf, "%+.1f %%", 100.0 * (mr / mp - 1));
    row("recorder overhead vs unrecorded self-play", buf, "<= 10 %", mr / mp - 1 <= 0.10);
    if (mshm >= 0) {
        snprintf(buf, sizeof buf, "%+.1f %%", 100.0 * (mshm / mp - 1));
        row("  same, files on tmpfs (/dev/shm)", buf, "<= 10 %", mshm / mp - 1 <= 0.10);
    }
    snprintf(buf, sizeof buf, "%.3f", (double)bytes / (double)acts);
    row("compressed bytes/action, untimed, whole file", buf, "<= 2.0", (double)bytes / (double)acts <= 2.0);
    snprintf(buf, sizeof buf, "%.3f", (double)(bytes - hb) / (double)acts);
    row("  untimed, records only (header excluded)", buf, "<= 2.0", (double)(bytes - hb) / (double)acts <= 2.0);
    snprintf(buf, sizeof buf, "%.3f", (double)tbytes / (double)tacts);
    row("compressed bytes/action, --timed, whole file", buf, "-", -1);
    snprintf(buf, sizeof buf, "%.3f", (double)(tbytes - thb) / (double)tacts);
    row("  --timed, records only", buf, "-", -1);

    static gfile gf[1024];
    int ng = list_golden(g->id, gf, 1024);
    if (ng == 0) {
        row("golden corpus figures", "no corpus", "-", -1);
    } else {
        int lo = 0, hi = 0;
        for (int i = 1; i < ng; i++) {
            if (gf[i].size < gf[lo].size) lo = i;
            if (gf[i].size > gf[hi].size) hi = i;
        }
        long rss[2][RUNS];
        double rs[2];
        for (int w = 0; w < 2; w++) {
            char *argv[] = { (char *)arbiter_bin, "verify", gf[w ? hi : lo].path, NULL };
            double v[RUNS];
            for (int r = 0; r < RUNS; r++) {
                run_child(argv, &rss[w][r], NULL);
                v[r] = (double)rss[w][r];
            }
            rs[w] = median(v, RUNS);
        }
        snprintf(buf, sizeof buf, "%.1f MiB", rs[1] / 1024);
        snprintf(tgt, sizeof tgt, "longest (%ld act.)", golden_actions(gf[hi].path));
        row("peak RSS of arbiter verify, longest golden", buf, "<= 16 MiB", rs[1] / 1024 <= 16);
        snprintf(buf, sizeof buf, "%.1f MiB", rs[0] / 1024);
        char fig[96];
        snprintf(fig, sizeof fig, "  same, shortest golden (%ld vs %ld actions)", golden_actions(gf[lo].path),
                 golden_actions(gf[hi].path));
        row(fig, buf, "flat: ~ the same", rs[1] <= rs[0] * 1.1 + 512);
        /* verify speed without the per-file cost: the longest replay */
        {
            double v[RUNS];
            long a = 0;
            int reps = 1;
            for (;;) {
                double t0 = cpu();
                for (int k = 0; k < reps; k++) {
                    arb_verify_result res;
                    arb_error err = ARB_ERROR_INIT;
                    if (arb_replay_verify_file(gf[hi].path, NULL, &res, &err)) die(gf[hi].path, &err);
                    a = (long)res.status.actions;
                }
                if (cpu() - t0 > 0.05 || reps > 1 << 20) break;
                reps *= 2;
            }
            for (int r = 0; r < RUNS; r++) {
                double t0 = cpu();
                for (int k = 0; k < reps; k++) {
                    arb_verify_result res;
                    arb_error err = ARB_ERROR_INIT;
                    arb_replay_verify_file(gf[hi].path, NULL, &res, &err);
                }
                v[r] = (double)a * reps / (cpu() - t0);
            }
            char vfig[96];
            snprintf(buf, sizeof buf, "%.0f", median(v, RUNS));
            snprintf(vfig, sizeof vfig, "  verify actions/s, longest golden (%ld actions)", a);
            row(vfig, buf, ">= 3,000,000", median(v, RUNS) >= 3e6);
            /* what a short file costs beyond its actions: the random
             * matches' time per file less their actions at the longest
             * replay's rate */
            double per_file = (mv / games - (double)va / games / median(v, RUNS)) * 1e6;
            snprintf(buf, sizeof buf, "%.1f us", per_file);
            row("  verify cost per file beyond its actions", buf, "<= 10 us", per_file <= 10);
        }
        /* --jobs 1 vs --jobs 2 over the corpus, listed REPEAT times or more */
        int nargs;
        double sp = jobs_speedup(gf, ng, REPEAT, &nargs);
        snprintf(buf, sizeof buf, "%.2fx", sp);
        snprintf(fig, sizeof fig, "verify --jobs 2 speed-up (%d files)", nargs);
        row(fig, buf, ">= 1.8", sp >= 1.8);
    }
    v2_rows(g);
    if (want_levels) level_sweep(g, games);
    double ct = conform_time(g->id);
    if (ct < 0) row("conformance suite wall time (this game)", "failed", "-", -1);
    else {
        snprintf(buf, sizeof buf, "%.3f s", ct);
        row("conformance suite wall time (this game)", buf, "-", -1);
    }
}

int main(int argc, char **argv)
{
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--arbiter") && i + 1 < argc) arbiter_bin = argv[++i];
        else if (!strcmp(argv[i], "--golden") && i + 1 < argc) golden_dir = argv[++i];
        else if (!strcmp(argv[i], "--conformance") && i + 1 < argc) conform_dir = argv[++i];
        else if (!strcmp(argv[i], "--levels")) want_levels = 1;
        else if (!strcmp(argv[i], "--v2")) v2_only = 1;
        else only = argv[i];
    }
    snprintf(tmpdir, sizeof tmpdir, "/tmp/arbiter-bench-XXXXXX");
    if (!mkdtemp(tmpdir)) return 2;
    snprintf(shmdir, sizeof shmdir, "/dev/shm/arbiter-bench-XXXXXX");
    if (!mkdtemp(shmdir)) shmdir[0] = '\0';
    printf("arbiter %s bench on %ld online core(s); figures beside their targets (never asserted)\n", arb_version(),
           sysconf(_SC_NPROCESSORS_ONLN));
    for (unsigned i = 0; i < arb_game_count(); i++) {
        const arb_game *g = arb_game_at(i);
        if (only && strcmp(only, g->id)) continue;
        bench_game(g);
    }
    if (!only) {
        double ct = conform_time(NULL);
        char buf[64];
        printf("\nall games\n");
        /* --jobs 1 vs 2 over the whole golden corpus, listed REPEAT/2 times */
        static gfile all[4096];
        int na = 0;
        for (unsigned i = 0; i < arb_game_count() && na < 4096; i++)
            na += list_golden(arb_game_at(i)->id, all + na, 4096 - na);
        if (na > 0) {
            int nargs;
            double sp = jobs_speedup(all, na, REPEAT / 2, &nargs);
            char fig[96];
            snprintf(buf, sizeof buf, "%.2fx", sp);
            snprintf(fig, sizeof fig, "verify --jobs 2 speed-up, whole corpus (%d files)", nargs);
            row(fig, buf, ">= 1.8", sp >= 1.8);
        }
        if (ct < 0) row("conformance suite wall time (all games)", "failed", "< 2 s", -1);
        else {
            snprintf(buf, sizeof buf, "%.3f s", ct);
            row("conformance suite wall time (all games)", buf, "< 2 s", ct < 2);
        }
    }
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd)) {}
    if (shmdir[0]) {
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", shmdir);
        if (system(cmd)) {}
    }
    return 0;
}
