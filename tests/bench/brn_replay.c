/* brn_replay.c — records brainstorm self-play games (random and
 * greedy agents) as .tcgr files and verifies them, timing the verifier
 * (a measurement, not a test). Usage: brn_replay [GAMES] [DIR] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arbiter/arbiter.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    int games = argc > 1 ? atoi(argv[1]) : 500;
    const char *dir = argc > 2 ? argv[2] : "/tmp";
    const arb_game *g = arb_game_find("brainstorm");
    static arb_agent ag[2];
    unsigned long long actions = 0;
    char path[512];
    double t0 = now();
    for (int i = 0; i < games; i++) {
        arb_setup su;
        memset(&su, 0, sizeof su);
        su.seed = 5000 + (uint64_t)i; su.players = 2;
        su.decks[0] = g->preset((unsigned)i % g->npresets);
        su.decks[1] = g->preset((unsigned)(i / 4) % g->npresets);
        arb_error err = ARB_ERROR_INIT;
        arb_match *m = NULL;
        if (arb_match_new(&m, g, &su, &err)) { fprintf(stderr, "setup: %s\n", err.msg); return 1; }
        snprintf(path, sizeof path, "%s/brn_%d.tcgr", dir, i);
        arb_replay_meta meta;
        memset(&meta, 0, sizeof meta);
        meta.game = g; meta.setup = &su; meta.level = -1;
        arb_replay_writer *w = NULL;
        if (arb_replay_writer_open(&w, path, &meta, &err) || arb_replay_record_start(w, m, &err)) {
            fprintf(stderr, "writer: %s\n", err.msg); return 1;
        }
        for (int s = 0; s < 2; s++) arb_agent_init(&ag[s], i % 2 ? ARB_AGENT_GREEDY : ARB_AGENT_RANDOM, su.seed, s, 0);
        arb_outcome o;
        while (!arb_match_outcome(m, &o)) {
            arb_action a;
            int seat = arb_match_decision(m).seat;
            if (arb_agent_choose(&ag[seat], m, &a)) { fprintf(stderr, "agent\n"); return 1; }
            if (arb_replay_record_step(w, m, &a, &err)) { fprintf(stderr, "record: %s %s\n", err.rule, err.msg); return 1; }
            actions++;
        }
        if (arb_replay_writer_close(w, &err)) { fprintf(stderr, "close: %s\n", err.msg); return 1; }
        arb_match_free(m);
    }
    double t1 = now();
    unsigned ok = 0;
    for (int i = 0; i < games; i++) {
        snprintf(path, sizeof path, "%s/brn_%d.tcgr", dir, i);
        arb_verify_opts vo = ARB_VERIFY_OPTS_INIT;
        arb_verify_result res;
        arb_error err = ARB_ERROR_INIT;
        int rc = arb_replay_verify_file(path, &vo, &res, &err);
        if (rc) fprintf(stderr, "%s: %s (%s)\n", path, err.msg, res.detail);
        else ok++;
    }
    double t2 = now();
    printf("brainstorm: recorded %d games (%llu actions) in %.2f s = %.0f actions/s; verified %u/%d in %.2f s = %.0f actions/s\n",
           games, actions, t1 - t0, (double)actions / (t1 - t0), ok, games, t2 - t1, (double)actions / (t2 - t1));
    for (int i = 0; i < games; i++) { snprintf(path, sizeof path, "%s/brn_%d.tcgr", dir, i); remove(path); }
    return ok == (unsigned)games ? 0 : 1;
}
