/* xc_explore.c — what crosscheck plays: match plans from the match key, the
 * conformance suite's cases as starts (xc_explore.h), think times and the
 * pairs a walk reached. Nothing here reads the time or addresses: a plan
 * and a walk follow from the key alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "arbiter/conform.h"
#include "cli/xc_explore.h"

static char *dupstr(const char *s)
{
    size_t n = strlen(s ? s : "") + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s ? s : "", n);
    return d;
}

typedef struct load_ctx {
    xc_starts *S;
    int oom;
} load_ctx;

static int take_case(void *ctx, const arb_conform_log *lg)
{
    load_ctx *L = ctx;
    xc_starts *S = L->S;
    if (lg->status != ARB_CF_PASS || !lg->script) {
        S->skipped++;
        return 0;
    }
    if (S->n == S->cap) {
        size_t nc = S->cap ? S->cap * 2 : 64;
        xc_start *p = realloc(S->v, nc * sizeof *p);
        if (!p) {
            L->oom = 1;
            return 1;
        }
        S->v = p;
        S->cap = nc;
    }
    xc_start *st = &S->v[S->n];
    memset(st, 0, sizeof *st);
    char name[256];
    snprintf(name, sizeof name, "%s/%s", lg->set ? lg->set : "", lg->id ? lg->id : "");
    st->name = dupstr(name);
    st->file = dupstr(lg->file);
    st->line = lg->line;
    st->su = *lg->setup;
    for (int i = 0; i < ARB_MAX_SEATS; i++) {
        if (lg->setup->decks[i]) st->decks[i] = *lg->setup->decks[i];
        st->su.decks[i] = lg->position || !lg->setup->decks[i] ? NULL : &st->decks[i]; /* set again at the end */
    }
    if (lg->setup->rules) {
        snprintf(st->rules, sizeof st->rules, "%s", lg->setup->rules);
        st->su.rules = st->rules;
    }
    st->script = malloc((lg->nscript ? lg->nscript : 1) * sizeof *st->script);
    st->refused = malloc(lg->nscript ? lg->nscript : 1);
    if (st->script && st->refused) {
        memcpy(st->script, lg->script, lg->nscript * sizeof *st->script);
        memcpy(st->refused, lg->refused, lg->nscript);
        st->nscript = lg->nscript;
    }
    if (lg->position && (st->pos = arb_tree_new()))
        for (const arb_tnode *k = lg->position->first; k; k = k->next)
            arb_tree_add_copy(st->pos, arb_tree_root(st->pos), k->key, k);
    S->n++; /* freed with the rest, whatever failed */
    if (!st->name || !st->file || !st->script || !st->refused ||
        (lg->position && (!st->pos || arb_tree_failed(st->pos)))) {
        L->oom = 1;
        return 1;
    }
    return 0;
}

int xc_suite_has(const char *dir, const arb_game *g)
{
    char gdir[1024];
    struct stat sb;
    snprintf(gdir, sizeof gdir, "%s/%s", dir, g->id);
    return !stat(gdir, &sb) && S_ISDIR(sb.st_mode);
}

int xc_starts_load(xc_starts *S, const arb_game *g, const char *dir, char *why, size_t size)
{
    memset(S, 0, sizeof *S);
    char gdir[1024], schema[1024];
    snprintf(gdir, sizeof gdir, "%s/%s", dir, g->id);
    snprintf(schema, sizeof schema, "%s/schema", dir);
    if (!xc_suite_has(dir, g)) return 0; /* no cases for this game */
    const arb_game *const games[2] = { g, NULL };
    arb_conform_options opt = ARB_CONFORM_OPTIONS_INIT;
    opt.schema_dir = schema;
    opt.game = g->id;
    opt.invariants = 0;
    opt.replay_check = 0;
    opt.games = games;
    arb_conform_suite *s = NULL;
    arb_error err = ARB_ERROR_INIT;
    const char *paths[1] = { gdir };
    if (arb_conform_load(&s, paths, 1, &opt, &err)) {
        char eb[ARB_MSG_MAX + ARB_WHERE_MAX + ARB_RULE_MAX + 8];
        arb_error_format(&err, eb, sizeof eb);
        snprintf(why, size, "%s", eb);
        return -1;
    }
    load_ctx L = { S, 0 };
    int rc = arb_conform_each_case(s, take_case, &L, &err);
    arb_conform_free(s);
    /* the table moved as it grew: each setup's decks are its own again */
    for (size_t i = 0; i < S->n; i++)
        for (int k = 0; k < ARB_MAX_SEATS; k++)
            if (S->v[i].su.decks[k]) S->v[i].su.decks[k] = &S->v[i].decks[k];
    for (size_t i = 0; i < S->n; i++)
        if (S->v[i].su.rules) S->v[i].su.rules = S->v[i].rules;
    if (L.oom || rc) {
        snprintf(why, size, "out of memory reading the suite's cases");
        xc_starts_free(S);
        return -1;
    }
    return 0;
}

void xc_starts_free(xc_starts *S)
{
    for (size_t i = 0; i < S->n; i++) {
        free(S->v[i].name);
        free(S->v[i].file);
        free(S->v[i].script);
        free(S->v[i].refused);
        arb_tree_free(S->v[i].pos);
    }
    free(S->v);
    memset(S, 0, sizeof *S);
}

/* Odd keys are suite matches (when there is a suite), even ones fresh
 * setups: every other fresh match is timed, and a third of them play an
 * older rules version when the engine keeps one. */
void xc_plan_of(const arb_game *g, uint64_t key, int have_suite, size_t nstarts, xc_plan *p)
{
    memset(p, 0, sizeof *p);
    if (have_suite && nstarts && (key & 1)) {
        p->suite = 1;
        p->group = (unsigned)((key >> 1) % XC_GROUPS);
        return;
    }
    uint64_t f = have_suite ? key >> 1 : key;
    p->timed = (int)(f & 1);
    if (g->rules_versions && g->nrules_versions > 1 && (f >> 1) % 3 == 1)
        p->rules = g->rules_versions[(f / 6) % (g->nrules_versions - 1)];
}

int xc_segment_timed(uint64_t key, size_t j, const xc_start *st)
{
    for (size_t i = 0; i < st->nscript; i++)
        if (st->script[i].elapsed_ms) return 1; /* a clock case: keep the clock going */
    return (int)((key >> 1 ^ j) & 1);
}

uint32_t xc_think_ms(arb_rng *r)
{
    uint32_t roll = arb_rng_below(r, 1000);
    if (roll < 850) return 300 + arb_rng_below(r, 7700);
    if (roll < 980) return 8000 + arb_rng_below(r, 32000);
    return 60000 + arb_rng_below(r, 60000);
}

/* FNV-1a over the kind and the two names; bit 0 tells the kind. */
static uint64_t pair_key(int kind, const char *a, const char *b)
{
    uint64_t h = 0xcbf29ce484222325ull;
    const char *parts[2] = { a ? a : "", b ? b : "" };
    h = (h ^ (uint64_t)kind) * 0x100000001b3ull;
    for (int p = 0; p < 2; p++) {
        for (const unsigned char *s = (const unsigned char *)parts[p]; *s; s++) h = (h ^ *s) * 0x100000001b3ull;
        h = (h ^ 0xff) * 0x100000001b3ull;
    }
    h = (h & ~(uint64_t)1) | (uint64_t)kind;
    return h > 1 ? h : h + 2;
}

uint64_t xc_pair_event(const char *event, const char *phase) { return pair_key(0, event, phase); }
uint64_t xc_pair_rule(const char *rule, const char *phase) { return pair_key(1, rule, phase); }

int xc_pairs_has(const xc_pairs *P, uint64_t key)
{
    if (!P->cap) return 0;
    for (size_t i = (size_t)(key >> 7) & (P->cap - 1);; i = (i + 1) & (P->cap - 1)) {
        if (P->k[i] == key) return 1;
        if (!P->k[i]) return 0;
    }
}

int xc_pairs_add(xc_pairs *P, uint64_t key)
{
    if (xc_pairs_has(P, key)) return 0;
    if (2 * (P->n + 1) > P->cap) {
        size_t nc = P->cap ? P->cap * 2 : 256;
        uint64_t *k = calloc(nc, sizeof *k);
        if (!k) return -1;
        for (size_t i = 0; i < P->cap; i++) {
            if (!P->k[i]) continue;
            size_t j = (size_t)(P->k[i] >> 7) & (nc - 1);
            while (k[j]) j = (j + 1) & (nc - 1);
            k[j] = P->k[i];
        }
        free(P->k);
        P->k = k;
        P->cap = nc;
    }
    size_t i = (size_t)(key >> 7) & (P->cap - 1);
    while (P->k[i]) i = (i + 1) & (P->cap - 1);
    P->k[i] = key;
    P->n++;
    if (key & 1) P->nrule++;
    else P->nevent++;
    return 1;
}

int xc_pairs_merge(xc_pairs *to, const xc_pairs *from)
{
    for (size_t i = 0; i < from->cap; i++)
        if (from->k[i] && xc_pairs_add(to, from->k[i]) < 0) return -1;
    return 0;
}

void xc_pairs_clear(xc_pairs *P)
{
    if (P->k) memset(P->k, 0, P->cap * sizeof *P->k);
    P->n = P->nevent = P->nrule = 0;
}

void xc_pairs_free(xc_pairs *P)
{
    free(P->k);
    memset(P, 0, sizeof *P);
}
