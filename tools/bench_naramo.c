/* bench_naramo.c — timing loop for NARAMO random self-play (not a test).
 * Build: cc -O2 -Iinclude -Isrc tools/bench_naramo.c build/libarbiter.a $(pkg-config --libs libxxhash) -o build/bench_naramo
 * Usage: build/bench_naramo [GAMES] [greedy] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arbiter/agent.h"
#include "arbiter/deck.h"
#include "arbiter/match.h"

int main(int argc, char **argv)
{
    const arb_game *g = arb_game_find("naramo");
    int games = argc > 1 ? atoi(argv[1]) : 2000;
    int greedy = argc > 2 && strcmp(argv[2], "greedy") == 0;
    void *st = malloc(g->state_size);
    arb_action legal[512];
    arb_rng ar;
    arb_rng_seed(&ar, 42);
    unsigned long long actions = 0, shifts = 0;
    int wins[3] = {0, 0, 0};
    unsigned reasons[8] = {0};
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
        if (g->setup(st, &su, NULL, &err)) { fprintf(stderr, "setup: %s %s\n", err.rule, err.msg); return 1; }
        for (;;) {
            size_t n = g->legal(st, legal, 512);
            if (n == 0) break;
            size_t k = greedy ? g->greedy(st, legal, n, &ar) : arb_rng_below(&ar, (uint32_t)n);
            if (g->apply(st, &legal[k], NULL, &err)) {
                fprintf(stderr, "apply rejected legal action: %s %s\n", err.rule, err.msg);
                return 1;
            }
            actions++;
        }
        arb_outcome oc;
        g->outcome(st, &oc);
        wins[oc.winner + 1]++;
        reasons[oc.reason]++;
        shifts += oc.turns;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double sec = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("%d %s games, %llu actions in %.3f s: %.0f actions/s, avg %.1f shifts, %.1f actions/game\n", games,
           greedy ? "greedy" : "random", actions, sec, (double)actions / sec, (double)shifts / games,
           (double)actions / games);
    printf("draws %d, seat0 %d, seat1 %d; reasons:", wins[0], wins[1], wins[2]);
    for (unsigned r = 0; r < g->noutcome_reasons; r++) printf(" %s=%u", g->outcome_reasons[r], reasons[r]);
    printf("\n");
    free(st);
    return 0;
}
