/* bench_operator.c — timing loops for OPERATOR self-play and replay
 * verification (not a test). Random and greedy self-play straight on the
 * vtable for 2, 3 and 4 players, then record N matches as .tcgr files and
 * verify them.
 * Build: cc -O2 -Iinclude -Isrc tools/bench_operator.c build/libarbiter.a \
 *          $(pkg-config --libs zlib msgpack libxml-2.0 libxxhash libsodium) -lm -o build/bench_operator
 * Usage: build/bench_operator [GAMES] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "arbiter/agent.h"
#include "arbiter/match.h"
#include "arbiter/replay.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void setup_for(const arb_game *g, arb_setup *su, int i, int players)
{
    memset(su, 0, sizeof *su);
    su->seed = (uint64_t)i * 7919u + 1;
    su->players = players;
    for (int s = 0; s < players; s++) su->decks[s] = g->preset((unsigned)(i + s) % g->npresets);
}

static int selfplay(const arb_game *g, int games, int players, int greedy)
{
    void *st = malloc(g->state_size);
    static arb_action legal[2048];
    arb_rng ar;
    arb_rng_seed(&ar, 42);
    unsigned long long actions = 0, turns = 0;
    unsigned reasons[8] = { 0 };
    double t0 = now();
    for (int i = 0; i < games; i++) {
        arb_setup su;
        setup_for(g, &su, i, players);
        arb_error err = ARB_ERROR_INIT;
        if (g->setup(st, &su, NULL, &err)) { fprintf(stderr, "setup: %s %s\n", err.rule, err.msg); return 1; }
        for (;;) {
            size_t n = g->legal(st, legal, 2048);
            if (n == 0) break;
            size_t k = greedy ? g->greedy(st, legal, n, &ar) : arb_rng_below(&ar, (uint32_t)n);
            if (g->apply(st, &legal[k], NULL, &err)) {
                fprintf(stderr, "apply rejected a legal action: %s %s\n", err.rule, err.msg);
                return 1;
            }
            actions++;
        }
        arb_outcome oc;
        g->outcome(st, &oc);
        reasons[oc.reason]++;
        turns += oc.turns;
    }
    double sec = now() - t0;
    printf("self-play %-6s %dp: %d games, %llu actions, %.3f s: %.0f actions/s, avg %.1f turns;", greedy ? "greedy" : "random",
           players, games, actions, sec, (double)actions / sec, (double)turns / games);
    for (unsigned r = 1; r < g->noutcome_reasons; r++) printf(" %s=%u", g->outcome_reasons[r], reasons[r]);
    printf("\n");
    free(st);
    return 0;
}

static int record_verify(const arb_game *g, int games)
{
    char dir[] = "/tmp/bench_operator.XXXXXX";
    if (!mkdtemp(dir)) return 1;
    unsigned long long actions = 0, bytes = 0;
    double rec = 0, ver = 0;
    for (int i = 0; i < games; i++) {
        char path[96];
        snprintf(path, sizeof path, "%s/m.tcgr", dir);
        arb_setup su;
        setup_for(g, &su, i, 2 + i % 3);
        arb_error err = ARB_ERROR_INIT;
        arb_match *m;
        if (arb_match_new(&m, g, &su, &err)) return 1;
        arb_replay_meta meta;
        memset(&meta, 0, sizeof meta);
        meta.game = g;
        meta.setup = &su;
        meta.level = -1;
        double t0 = now();
        arb_replay_writer *w;
        if (arb_replay_writer_open(&w, path, &meta, &err) || arb_replay_record_start(w, m, &err)) return 1;
        static arb_agent ag[ARB_MAX_SEATS];
        for (int s = 0; s < su.players; s++) arb_agent_init(&ag[s], ARB_AGENT_RANDOM, su.seed, s, 0);
        arb_action a;
        for (;;) {
            arb_decision d = arb_match_decision(m);
            if (d.seat < 0 || arb_agent_choose(&ag[d.seat], m, &a)) break;
            if (arb_replay_record_step(w, m, &a, &err)) return 1;
            actions++;
        }
        bytes += arb_replay_writer_bytes(w);
        if (arb_replay_writer_close(w, &err)) return 1;
        double t1 = now();
        arb_verify_result res;
        arb_verify_opts vo = ARB_VERIFY_OPTS_INIT;
        if (arb_replay_verify_file(path, &vo, &res, &err)) {
            fprintf(stderr, "verify failed: %s\n", res.detail);
            return 1;
        }
        ver += now() - t1;
        rec += t1 - t0;
        arb_match_free(m);
        unlink(path);
    }
    rmdir(dir);
    printf("record: %d games (2-4p), %llu actions, %.0f actions/s, %.2f bytes/action\n", games, actions,
           (double)actions / rec, (double)bytes / (double)actions);
    printf("verify: %.0f actions/s (all %d replays verified)\n", (double)actions / ver, games);
    return 0;
}

int main(int argc, char **argv)
{
    const arb_game *g = arb_game_find("operator");
    int games = argc > 1 ? atoi(argv[1]) : 3000;
    for (int greedy = 0; greedy < 2; greedy++)
        for (int p = 2; p <= 4; p++)
            if (selfplay(g, games, p, greedy)) return 1;
    return record_verify(g, games / 10 > 0 ? games / 10 : 1);
}
