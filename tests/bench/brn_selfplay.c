/* brn_selfplay.c — random self-play throughput of the brainstorm engine
 * (a timing loop, not a test): legal() + apply() per action, no recording.
 * Build after `make`: cc -O2 -Iinclude -Isrc tests/bench/brn_selfplay.c build/libarbiter.a \
 *   $(pkg-config --libs zlib msgpack libxml-2.0 libxxhash libsodium) -lm -o build/brn_selfplay */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arbiter/game.h"
#include "arbiter/deck.h"

int main(int argc, char **argv)
{
    const arb_game *g = arb_game_find("brainstorm");
    int games = argc > 1 ? atoi(argv[1]) : 20000;
    void *st = malloc(g->state_size);
    arb_action legal[4096];
    arb_rng ag;
    arb_rng_seed(&ag, 7);
    unsigned long long actions = 0, maxlegal = 0, cycles = 0;
    int wins[3] = { 0, 0, 0 };
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < games; i++) {
        arb_setup su;
        memset(&su, 0, sizeof su);
        su.seed = (uint64_t)i * 7919u + 1;
        su.players = 2;
        su.decks[0] = g->preset((unsigned)i % g->npresets);
        su.decks[1] = g->preset((unsigned)(i / 4) % g->npresets);
        arb_error err = ARB_ERROR_INIT;
        if (g->setup(st, &su, NULL, &err)) { fprintf(stderr, "setup: %s\n", err.msg); return 1; }
        arb_outcome o;
        while (!g->outcome(st, &o)) {
            size_t n = g->legal(st, legal, 4096);
            if (n == 0) { fprintf(stderr, "no legal action in %s\n", g->phase(st)); return 1; }
            if (n > maxlegal) maxlegal = n;
            size_t k = arb_rng_below(&ag, (uint32_t)n);
            if (g->apply(st, &legal[k], NULL, &err)) { fprintf(stderr, "legal rejected: %s %s\n", err.rule, err.msg); return 1; }
            actions++;
        }
        cycles += o.turns;
        wins[o.winner + 1]++;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double sec = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("brainstorm random self-play: %d games, %llu actions in %.3f s = %.0f actions/s\n",
           games, actions, sec, (double)actions / sec);
    printf("  mean %.1f actions/game, %.1f cycles/game, max legal %llu, draws %d, P1 %d, P2 %d\n",
           (double)actions / games, (double)cycles / games, maxlegal, wins[0], wins[1], wins[2]);
    /* greedy (seat 0) against random (seat 1), not timed */
    int gw[3] = { 0, 0, 0 };
    for (int i = 0; i < 2000; i++) {
        arb_setup su;
        memset(&su, 0, sizeof su);
        su.seed = (uint64_t)i + 99; su.players = 2;
        su.decks[0] = g->preset((unsigned)i % g->npresets);
        su.decks[1] = g->preset((unsigned)(i / 4) % g->npresets);
        arb_error err = ARB_ERROR_INIT;
        g->setup(st, &su, NULL, &err);
        arb_outcome o;
        while (!g->outcome(st, &o)) {
            size_t n = g->legal(st, legal, 4096);
            size_t k = g->decision(st).seat == 0 ? g->greedy(st, legal, n, &ag) : arb_rng_below(&ag, (uint32_t)n);
            g->apply(st, &legal[k], NULL, &err);
        }
        gw[o.winner + 1]++;
    }
    printf("  greedy (P1) vs random (P2), 2000 games: greedy %d, random %d, draws %d\n", gw[1], gw[2], gw[0]);
    free(st);
    return 0;
}
