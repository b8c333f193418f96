/* xc_explore.h — what crosscheck plays (xc_explore.c): each match's plan
 * from its key (--seed S + match index I, so match I of --seed S is match
 * 0 of --seed S+I), the conformance suite's cases as starting positions
 * with their scripts, seeded think times for timed matches, and the
 * (event, phase) / (refusal rule, phase) pairs a match reached, which bias
 * the walk toward what it has not seen yet and make the run's report. */
#ifndef CLI_XC_EXPLORE_H
#define CLI_XC_EXPLORE_H

#include <stddef.h>
#include <stdint.h>

#include "arbiter/game.h"
#include "arbiter/rng.h"
#include "arbiter/tree.h"

/* The suite's cases are dealt into XC_GROUPS groups (case j into group j
 * mod XC_GROUPS); a suite match plays one group, case after case, and half
 * the matches are suite matches, so 2 * XC_GROUPS consecutive matches
 * start from every case once. */
#define XC_GROUPS 50
/* Random steps after a case's script, at most (its position's decks are
 * small: most end sooner). */
#define XC_SEGMENT_STEPS 400

/* One test case of the suite as a start: its setup or position and its
 * script, every action in document order (refused ones marked). */
typedef struct xc_start {
    char *name; /* "set/case-id" */
    char *file;
    int line;
    arb_setup su;
    arb_deck decks[ARB_MAX_SEATS];
    char rules[32];
    arb_tree *pos; /* NULL: a seeded setup */
    arb_action *script;
    unsigned char *refused;
    size_t nscript;
} xc_start;

typedef struct xc_starts {
    xc_start *v;
    size_t n, cap;
    unsigned skipped; /* cases that do not pass on the reference */
} xc_starts;

/* Whether the suite at dir has a directory for g. */
int xc_suite_has(const char *dir, const arb_game *g);
/* The test cases of g in the suite at dir (conformance/: dir/<g->id>),
 * each run on g once for its script. 0, or -1 with why (a suite that does
 * not load). */
int xc_starts_load(xc_starts *S, const arb_game *g, const char *dir, char *why, size_t size);
void xc_starts_free(xc_starts *S);

/* What match key k plays. */
typedef struct xc_plan {
    int suite; /* from the cases of group `group` */
    unsigned group;
    int timed;         /* think times, timeouts, disconnects */
    const char *rules; /* an older rules version, or NULL */
} xc_plan;
/* have_suite: the suite has a directory for g (nstarts: its cases that
 * pass on g; none makes the odd keys fresh too). */
void xc_plan_of(const arb_game *g, uint64_t key, int have_suite, size_t nstarts, xc_plan *p);
/* Whether the continuation after case j of a suite match of key k is timed. */
int xc_segment_timed(uint64_t key, size_t j, const xc_start *st);

/* Think time of one decision: mostly 0.3-8 s, sometimes 8-40 s, rarely
 * 60-120 s (past naramo's 90 s clock and 60 s reconnect grace). */
uint32_t xc_think_ms(arb_rng *r);

/* A set of pairs (open addressing; keys are never 0). */
typedef struct xc_pairs {
    uint64_t *k;
    size_t n, cap;
    size_t nevent, nrule; /* of each kind */
} xc_pairs;
uint64_t xc_pair_event(const char *event, const char *phase);
uint64_t xc_pair_rule(const char *rule, const char *phase);
int xc_pairs_has(const xc_pairs *P, uint64_t key);
/* 1 new, 0 known, -1 out of memory. */
int xc_pairs_add(xc_pairs *P, uint64_t key);
/* Every pair of from into to. */
int xc_pairs_merge(xc_pairs *to, const xc_pairs *from);
void xc_pairs_clear(xc_pairs *P);
void xc_pairs_free(xc_pairs *P);

#endif
