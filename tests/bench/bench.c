/* bench.c — `make bench`: speed and size figures per game, measured in one
 * run on this machine and printed as one table per game with each figure
 * beside its target. Medians of several runs. Never part of a test: speed
 * is reported, not asserted.
 *
 * Self-play: random agents, untimed, no recording; actions/s counts every
 * applied action (setup excluded). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arbiter/arbiter.h"

#define RUNS 5

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
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

/* Plays `games` seeded random games; returns actions applied. */
static long selfplay(const arb_game *g, uint64_t seed0, int games, int players)
{
    static arb_agent ag[ARB_MAX_SEATS];
    long actions = 0;
    for (int k = 0; k < games; k++) {
        arb_setup su = { 0 };
        su.seed = seed0 + (uint64_t)k;
        su.players = players;
        for (int s = 0; s < players; s++) su.decks[s] = g->preset((unsigned)s % g->npresets);
        arb_match *m;
        arb_error err = ARB_ERROR_INIT;
        if (arb_match_new(&m, g, &su, &err)) {
            char buf[600];
            arb_error_format(&err, buf, sizeof buf);
            fprintf(stderr, "bench: %s setup: %s\n", g->id, buf);
            exit(1);
        }
        for (int s = 0; s < players; s++) arb_agent_init(&ag[s], ARB_AGENT_RANDOM, su.seed, s, 0);
        for (;;) {
            arb_decision d = arb_match_decision(m);
            if (d.seat == ARB_SEAT_NONE) break;
            arb_action a;
            int seat = d.seat >= 0 ? d.seat : 0;
            if (arb_agent_choose(&ag[seat], m, &a)) break;
            if (arb_match_apply(m, &a, &err)) {
                fprintf(stderr, "bench: %s: legal action rejected: %s %s\n", g->id, err.rule, err.msg);
                exit(1);
            }
            actions++;
        }
        arb_match_free(m);
    }
    return actions;
}

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : NULL;
    for (unsigned i = 0; i < arb_game_count(); i++) {
        const arb_game *g = arb_game_at(i);
        if (only && strcmp(only, g->id)) continue;
        /* Size the run to about 0.3 s per measurement. */
        int games = 10;
        for (;;) {
            double t0 = now();
            selfplay(g, 1, games, g->min_players);
            if (now() - t0 > 0.3 || games > 1000000) break;
            games *= 2;
        }
        double rate[RUNS];
        long per_run = 0;
        for (int r = 0; r < RUNS; r++) {
            double t0 = now();
            per_run = selfplay(g, 1000 + (uint64_t)r * games, games, g->min_players);
            rate[r] = per_run / (now() - t0);
        }
        printf("\n%s (%s, rules %s) — medians of %d runs\n", g->id, g->title, g->rules_version, RUNS);
        printf("  %-44s %14s   %s\n", "figure", "measured", "target");
        printf("  %-44s %14.0f   >= 1,000,000\n", "self-play actions/s (random, 1 core)", median(rate, RUNS));
        printf("  %-44s %14.1f\n", "  actions per game", (double)per_run / games);
    }
    return 0;
}
