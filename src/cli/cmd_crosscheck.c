/* cmd_crosscheck.c — `arbiter crosscheck --engine CMD --game G`: differential
 * play of an external engine (through the engine protocol) against the
 * compiled-in reference engine. Both get the same setup; a seeded random
 * walk picks legal actions from the reference; at every step the decision,
 * turn, phase, legal-action set, state hash, outcome and the events of the
 * last step must agree, and so must the verdicts (accepted or rejected,
 * code and rule ID) on sampled illegal and malformed actions; the state
 * trees (member order included) are compared at every step under protocol
 * 1, and at sampled steps and on any hash difference under protocol 2,
 * which needs one round trip a step (play_p2). The first divergence is
 * reported field by field with a reproducer .tcgr (the reference's actions
 * up to the divergent step; every shorter prefix agreed at every step),
 * whose divergence is checked again on fresh states. Matches shard like
 * `play --games` (match I has seed SplitMix64(BASE + I) and its seat count
 * from BASE + I; --shard K/N runs those with I mod N = K) and run --jobs N
 * at a time, one adapter per job, through the ordered pool. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pthread.h>

#include "arbiter/adapter.h"
#include "arbiter/toolkit.h"
#include "cli/cli.h"
#include "cli/pool.h"
#include "cli/shard.h"
#include "cli/xc_explore.h"

#define XC_MAX_STEPS 20000
#define XC_LEGAL_MAX 65536
#define XC_TREE_EVERY 16   /* protocol 2: state trees every 16th step (and first, last) */
#define XC_JOBS_MAX 8
#define XC_PROMISES_EVERY 128 /* the promises (arb_adapter_promises) at steps 1, 129, … */

typedef struct xc {
    const arb_game *g, *p;      /* reference, proxy */
    arb_adapter *ad;
    int proto;                  /* the adapter's protocol */
    int probes;
    arb_match *scratch;         /* the reference's copy to try probes on (protocol 2) */
    arb_match *cand;            /* and to try the walk's candidate actions on */
    int v_timeout, v_disconnect; /* the reference's arbiter verbs, -1 none */
    int vmap[256];              /* the engine's verb number of each reference verb, -1 none */
    size_t nlg;                 /* the reference's legal actions in lg, as compare() left them */
    uint64_t hg;                /* and its hash */
    int lg_fresh;               /* lg[0..nlg) is already the reference's current list */
    arb_action *lx;             /* the reference's next legal actions in the engine's verbs */
    size_t caplx;
    arb_action *lg, *lp;
    char (*tg)[96], (*tp)[96];
    arb_events evs[ARB_ADAPTER_STEP_MAX];   /* the engine's events per batched action */
    size_t cap, capp;
    char why[4096];             /* the divergence, field by field */
    size_t wlen;
} xc;

static void say(xc *X, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void say(xc *X, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    arb_text_vappendf(X->why, sizeof X->why, &X->wlen, fmt, ap);
    va_end(ap);
}

static int cmp_str(const void *a, const void *b) { return strcmp(a, b); }
static int to_proxy(xc *X, const arb_action *a, arb_action *out);

/* The legal actions of m into *buf, and their texts into *txt when texts is set. */
static size_t get_legal(const arb_match *m, const arb_game *g, arb_action **buf, size_t *cap, char (**txt)[96],
                        int texts)
{
    size_t n = arb_match_legal(m, *buf, *cap);
    if (n > *cap) {
        size_t nc = n < XC_LEGAL_MAX ? n : XC_LEGAL_MAX;
        arb_action *p = realloc(*buf, nc * sizeof *p);
        char (*t)[96] = realloc(*txt, nc * sizeof *t);
        if (p) *buf = p;
        if (t) *txt = t;
        if (!p || !t) return 0;
        *cap = nc;
        n = arb_match_legal(m, *buf, *cap);
        if (n > *cap) n = *cap;
    }
    for (size_t i = 0; i < n && texts; i++) arb_action_format(g, &(*buf)[i], (*txt)[i], sizeof (*txt)[i]);
    return n;
}

typedef struct diffctx { xc *X; unsigned shown; } diffctx;

static int tree_diff_cb(void *ctx, const char *path, const arb_tnode *a, const arb_tnode *b)
{
    diffctx *d = ctx;
    char va[200], vb[200];
    if (d->shown++ >= 8) return 1;
    say(d->X, "    %s: reference %s, engine %s\n", path, a ? arb_tnode_text(a, va, sizeof va) : "(absent)",
        b ? arb_tnode_text(b, vb, sizeof vb) : "(absent)");
    return 0;
}

static const char *ename(const arb_game *g, unsigned t) { return t < g->nevent_names ? g->event_names[t] : "?"; }

/* The events of one accepted action (or of the setup) on both sides. */
static int compare_events(xc *X, const arb_event *eg, unsigned neg, const arb_event *ep, unsigned nep)
{
    int bad = 0;
    unsigned ne = neg > nep ? neg : nep;
    for (unsigned k = 0; k < ne; k++) {
        if (k < neg && k < nep && !strcmp(ename(X->g, eg[k].type), ename(X->p, ep[k].type)) && eg[k].seat == ep[k].seat &&
            eg[k].hidden == ep[k].hidden && eg[k].a == ep[k].a && eg[k].b == ep[k].b && eg[k].c == ep[k].c)
            continue;
        say(X, "  events: %u from the reference, %u from the engine; first difference at event %u:\n", neg, nep, k);
        if (k < neg) say(X, "    reference %s(seat %d%s %d %d %d)\n", ename(X->g, eg[k].type), eg[k].seat,
                         eg[k].hidden ? " hidden" : "", eg[k].a, eg[k].b, eg[k].c);
        else say(X, "    reference (none)\n");
        if (k < nep) say(X, "    engine    %s(seat %d%s %d %d %d)\n", ename(X->p, ep[k].type), ep[k].seat,
                         ep[k].hidden ? " hidden" : "", ep[k].a, ep[k].b, ep[k].c);
        else say(X, "    engine    (none)\n");
        bad = 1;
        break;
    }
    return bad;
}

#define XC_ALL_VIEWS 0x1f
/* Compare everything observable, and the state trees of the views in
 * trees (bit 0 the full state, bit 1 + S seat S's view; every view when
 * the hashes differ); 0 equal, 1 a divergence described in X->why. */
static int compare(xc *X, const arb_match *mg, const arb_match *mp, int players, unsigned trees)
{
    int bad = 0;
    arb_decision dg = arb_match_decision(mg), dp = arb_match_decision(mp);
    const char *kg = dg.kind < X->g->ndecision_names ? X->g->decision_names[dg.kind] : "?";
    const char *kp = dp.kind < X->p->ndecision_names ? X->p->decision_names[dp.kind] : "?";
    if (dg.seat != dp.seat || strcmp(kg, kp) || dg.clock_left_ms != dp.clock_left_ms) {
        say(X, "  decision: reference seat %d '%s' clock %" PRId64 ", engine seat %d '%s' clock %" PRId64 "\n", dg.seat,
            kg, dg.clock_left_ms, dp.seat, kp, dp.clock_left_ms);
        bad = 1;
    }
    uint32_t tg = arb_match_turn(mg), tp = arb_match_turn(mp);
    if (tg != tp) { say(X, "  turn: reference %" PRIu32 ", engine %" PRIu32 "\n", tg, tp); bad = 1; }
    const char *pg = X->g->phase(X->g, arb_match_state(mg)), *pp = X->p->phase(X->p, arb_match_state(mp));
    if (strcmp(pg ? pg : "", pp ? pp : "")) { say(X, "  phase: reference '%s', engine '%s'\n", pg, pp); bad = 1; }
    arb_outcome og, op;
    arb_match_outcome(mg, &og);
    arb_match_outcome(mp, &op);
    const char *rg = og.reason < X->g->noutcome_reasons ? X->g->outcome_reasons[og.reason] : "?";
    const char *rp = op.reason < X->p->noutcome_reasons ? X->p->outcome_reasons[op.reason] : "?";
    if (og.over != op.over || (og.over && (og.winner != op.winner || og.turns != op.turns || strcmp(rg, rp)))) {
        say(X, "  outcome: reference %s winner %d '%s' %" PRIu32 " turns, engine %s winner %d '%s' %" PRIu32 " turns\n",
            og.over ? "over" : "running", og.winner, rg, og.turns, op.over ? "over" : "running", op.winner, rp, op.turns);
        bad = 1;
    }
    uint64_t hg = arb_match_hash(mg), hp = arb_match_hash(mp);
    X->hg = hg;
    if (hg != hp) { say(X, "  hash: reference %016" PRIx64 ", engine %016" PRIx64 "\n", hg, hp); bad = 1; trees = XC_ALL_VIEWS; }
    /* the walk may have listed them already, right after its action */
    size_t ng = X->lg_fresh ? X->nlg : get_legal(mg, X->g, &X->lg, &X->cap, &X->tg, 0);
    size_t np = get_legal(mp, X->p, &X->lp, &X->capp, &X->tp, 0);
    X->nlg = ng;
    X->lg_fresh = 0;
    /* the same list in the same order (the common case) is the same set */
    int same = ng == np;
    for (size_t k = 0; k < ng && same; k++) {
        arb_action x;
        same = !to_proxy(X, &X->lg[k], &x) && arb_action_same(&x, &X->lp[k]);
    }
    if (!same) {
        for (size_t k = 0; k < ng; k++) arb_action_format(X->g, &X->lg[k], X->tg[k], sizeof X->tg[k]);
        for (size_t k = 0; k < np; k++) arb_action_format(X->p, &X->lp[k], X->tp[k], sizeof X->tp[k]);
    } else {
        ng = np = 0; /* nothing to compare as text */
    }
    qsort(X->tg, ng, sizeof *X->tg, cmp_str);
    qsort(X->tp, np, sizeof *X->tp, cmp_str);
    size_t i = 0, j = 0;
    unsigned shown = 0;
    while (i < ng || j < np) {
        int c = i >= ng ? 1 : j >= np ? -1 : strcmp(X->tg[i], X->tp[j]);
        if (c == 0) { i++; j++; continue; }
        if (!bad && !shown) say(X, "  legal actions: reference lists %zu, engine %zu\n", ng, np);
        else if (!shown) say(X, "  legal actions: reference lists %zu, engine %zu\n", ng, np);
        if (shown++ < 6) say(X, "    %s '%s'\n", c < 0 ? "missing from the engine:" : "extra in the engine:",
                             c < 0 ? X->tg[i] : X->tp[j]);
        if (c < 0) i++;
        else j++;
        bad = 1;
    }
    for (int v = -1; v < players && trees; v++) {
        if (!(trees >> (v + 1) & 1)) continue;
        arb_tree *a = arb_match_export(mg, v), *b = NULL;
        if (a && X->proto < 2) {
            /* fast path: the adapter's answer is byte for byte this tree */
            char *js = NULL;
            size_t jl = 0;
            FILE *m = open_memstream(&js, &jl);
            int bytes_same = 0;
            if (m) {
                arb_tnode_json(arb_tree_root(a), m, 0);
                fclose(m);
                bytes_same = js && arb_adapter_state_is(arb_match_state(mp), v, js, jl);
            }
            free(js);
            if (bytes_same) { arb_tree_free(a); continue; }
        }
        /* protocol 2: the tree the step brought, as parsed */
        const arb_tnode *bt = X->proto >= 2 ? arb_adapter_tree(arb_match_state(mp), v) : NULL;
        if (!bt && (b = arb_match_export(mp, v))) bt = arb_tree_root(b);
        if (a && bt && !arb_tnode_equal(arb_tree_root(a), bt)) {
            diffctx d = { X, 0 };
            char head[64];
            snprintf(head, sizeof head, v < 0 ? "the full state" : "seat %d's view", v);
            say(X, "  state tree (%s):\n", head);
            char where[256];
            if (!arb_tree_diff(arb_tree_root(a), bt, tree_diff_cb, &d)) {
                if (arb_tree_order_differs(arb_tree_root(a), bt, where, sizeof where))
                    say(X, "    %s%s: the same members in another order (maps are ordered: ADAPTER.md section 5)\n",
                        where[0] ? "" : "the root", where);
                else say(X, "    the same members in another order (maps are ordered: ADAPTER.md section 5)\n");
            }
            bad = 1;
        }
        arb_tree_free(a);
        arb_tree_free(b);
    }
    return bad;
}

static void verdict_text(int rc, const arb_error *e, char *buf, size_t size)
{
    if (rc == ARB_OK) snprintf(buf, size, "accepted");
    else snprintf(buf, size, "rejected (%s, %s)", arb_strerror(rc), e->rule[0] ? e->rule : "no rule ID");
}

static int same_verdict(xc *X, int rg, const arb_error *eg, int rp, const arb_error *ep, const char *txt)
{
    if (rg == rp && (rg == ARB_OK || strcmp(eg->rule, ep->rule) == 0)) return 1;
    char a[96], b[96];
    verdict_text(rg, eg, a, sizeof a);
    verdict_text(rp, ep, b, sizeof b);
    say(X, "  verdict on '%s': reference %s, engine %s\n", txt, a, b);
    if (rg) say(X, "    reference: %s\n", eg->msg);
    if (rp) say(X, "    engine:    %s\n", ep->msg);
    return 0;
}

/* The candidate's copy of a reference action (verbs matched by name). */
static int to_proxy(xc *X, const arb_action *a, arb_action *out)
{
    *out = *a;
    if (a->verb >= X->g->nverbs) return 0;
    int v = X->vmap[a->verb];
    if (v < 0) return -1;
    out->verb = (uint8_t)v;
    return 0;
}

/* A probe: usually illegal (another seat, a shifted argument), sometimes
 * malformed (unknown verb number, too many arguments). */
static void make_probe(const xc *X, arb_rng *r, const arb_action *legal, size_t n, int players, arb_action *out)
{
    memset(out, 0, sizeof *out);
    uint32_t kind = arb_rng_below(r, 5);
    if (n) *out = legal[arb_rng_below(r, (uint32_t)n)];
    else out->verb = (uint8_t)arb_rng_below(r, X->g->nverbs);
    switch (kind) {
    case 0: out->seat = (int8_t)((out->seat + 1 + (int)arb_rng_below(r, (uint32_t)players)) % players); break;
    case 1: if (out->nargs) out->args[arb_rng_below(r, out->nargs)] += 1 + (int32_t)arb_rng_below(r, 3);
            else out->verb = (uint8_t)arb_rng_below(r, X->g->nverbs);
            break;
    case 2: if (out->nargs) out->args[0] = -1 - (int32_t)arb_rng_below(r, 100); else out->seat = (int8_t)((out->seat + 1) % players); break;
    case 3: out->verb = (uint8_t)(X->g->nverbs + arb_rng_below(r, 4)); break;
    default: out->nargs = ARB_ARGS_MAX; break;
    }
}

/* A match of g from su, or from the position pos when there is one. */
static int match_start(arb_match **m, const arb_game *g, const arb_setup *su, const arb_tree *pos, arb_error *err)
{
    if (pos) return arb_match_from_position(m, g, arb_tree_root((arb_tree *)pos), su, err);
    return arb_match_new(m, g, su, err);
}

static int write_repro(const arb_game *g, const arb_setup *su, const arb_tree *pos, const arb_action *log, size_t n,
                       const char *path, arb_error *err)
{
    arb_replay_meta meta;
    memset(&meta, 0, sizeof meta);
    meta.game = g;
    meta.setup = su;
    meta.position = pos ? arb_tree_root((arb_tree *)pos) : NULL;
    meta.level = -1;
    arb_match *m = NULL;
    arb_replay_writer *w = NULL;
    int rc = match_start(&m, g, su, pos, err);
    if (rc) return rc;
    if ((rc = arb_replay_writer_open(&w, path, &meta, err))) goto out;
    if ((rc = arb_replay_record_start(w, m, err))) goto out;
    uint32_t turn_before = arb_match_turn(m);
    for (size_t i = 0; i < n; i++) {
        turn_before = arb_match_turn(m);
        if ((rc = arb_replay_record_step(w, m, &log[i], err))) goto out;
    }
    /* Pin the prefix's end state with a checkpoint, unless the last step
     * wrote one (it ended a turn) or there was no step: a file holds at most
     * one checkpoint per action (FORMAT.md §8.1). */
    arb_outcome o;
    if (n > 0 && arb_match_turn(m) == turn_before && !arb_match_outcome(m, &o) &&
        (rc = arb_replay_write_checkpoint(w, arb_match_turn(m), arb_match_hash(m), err)))
        goto out;
    rc = arb_replay_writer_close(w, err);
    w = NULL;
out:
    arb_replay_writer_free(w);
    arb_match_free(m);
    return rc;
}

typedef struct xrun xrun;

/* One match: filled in order, played by any job, finished in order. */
typedef struct xmatch {
    xrun *R;
    uint64_t index, seed;
    int players;
    arb_setup su, sp;
    arb_deck dg[ARB_MAX_SEATS], dp[ARB_MAX_SEATS];
    arb_action *log;            /* reference actions applied (probes that both accepted too) */
    size_t nlog, caplog;
    size_t steps;               /* of the segment played last */
    /* what it plays (xc_explore.h): fresh or the suite's cases one after
     * the other (segments), each start's script, then a walk */
    uint64_t key;               /* --seed + index */
    xc_plan plan;
    const xc_start *start;      /* the segment's case, or NULL: a fresh setup */
    size_t si;                  /* its script's next action */
    size_t cont;                /* random steps after the script */
    int timed;
    unsigned seg;               /* segments begun */
    size_t steps_total;
    uint64_t narb;              /* the arbiter's actions it played (timeouts, disconnects) */
    xc_pairs pairs;             /* what the match reached */
    int has_probe;              /* the divergence is the verdict on this action */
    int probe_hash;             /* ... or the engine's hash after it, refused */
    int promise;                /* ... or a promise broken (arb_adapter_promises) */
    arb_action probe;
    int result;                 /* 0 agreed, 1 diverged, 4 internal, 5 the pool lacks a card, -1 skipped */
    int again;                  /* a divergence shows again on fresh states */
    unsigned long long nreq;    /* requests this match made */
    char *why;                  /* the divergence or the adapter's failure (malloc'd) */
    int failed;                 /* the adapter failed (why says how) */
} xmatch;

static int log_push(xmatch *M, const arb_action *a)
{
    if (M->nlog == M->caplog) {
        size_t nc = M->caplog ? M->caplog * 2 : 256;
        arb_action *p = realloc(M->log, nc * sizeof *p);
        if (!p) return -1;
        M->log = p;
        M->caplog = nc;
    }
    M->log[M->nlog++] = *a;
    return 0;
}

/* Replays M->log on fresh states and compares the end: 1 when the
 * divergence shows again. */
static int reconfirm(xc *X, xmatch *M)
{
    arb_match *mg = NULL, *mp = NULL;
    arb_error e1 = ARB_ERROR_INIT, e2 = ARB_ERROR_INIT;
    int again = 0;
    size_t save = X->wlen;
    const arb_tree *pos = M->start ? M->start->pos : NULL;
    if (match_start(&mg, X->g, &M->su, pos, &e1) || match_start(&mp, X->p, &M->sp, pos, &e2)) goto out;
    unsigned neg, nep;
    const arb_event *eg = arb_match_events(mg, &neg), *ep = arb_match_events(mp, &nep);
    if (compare_events(X, eg, neg, ep, nep)) { again = 1; goto out; }
    for (size_t i = 0; i < M->nlog; i++) {
        arb_action pa;
        to_proxy(X, &M->log[i], &pa);
        int rg = arb_match_apply(mg, &M->log[i], &e1), rp = arb_match_apply(mp, &pa, &e2);
        if (rg != rp) { again = 1; goto out; }
        eg = arb_match_events(mg, &neg);
        ep = arb_match_events(mp, &nep);
        if (compare_events(X, eg, neg, ep, nep)) { again = 1; goto out; }
    }
    if (M->has_probe) {
        arb_action pa;
        to_proxy(X, &M->probe, &pa);
        int rg = arb_match_apply(mg, &M->probe, &e1), rp = arb_match_apply(mp, &pa, &e2);
        again = !(rg == rp && (rg == ARB_OK || strcmp(e1.rule, e2.rule) == 0));
        /* a refused probe that changed the engine's state */
        if (M->probe_hash && !again) again = rg && arb_match_hash(mg) != arb_match_hash(mp);
        goto out;
    }
    if (M->promise) {
        char why[1024];
        again = arb_adapter_promises(arb_match_state(mp), X->g, arb_match_state(mg), why, sizeof why) == 1;
        goto out;
    }
    again = compare(X, mg, mp, M->players, XC_ALL_VIEWS);
out:
    X->wlen = save;
    X->why[save] = '\0';
    arb_match_free(mg);
    arb_match_free(mp);
    return again;
}

/* Both sides' setup, compared (verdict, then events), and the walk's rng:
 * 0 play on, 1 diverged (X->why), -1 both refused the setup alike. */
static int match_open(xc *X, xmatch *M, arb_match **mg, arb_match **mp, arb_rng *r)
{
    arb_error e1 = ARB_ERROR_INIT, e2 = ARB_ERROR_INIT;
    const arb_tree *pos = M->start ? M->start->pos : NULL;
    int rg = match_start(mg, X->g, &M->su, pos, &e1), rp = match_start(mp, X->p, &M->sp, pos, &e2);
    M->has_probe = M->probe_hash = M->promise = 0;
    if (!same_verdict(X, rg, &e1, rp, &e2, "setup")) return 1;
    if (rg) return -1;
    /* a fresh match's walk as before segments; each segment its own */
    arb_rng_seed(r, M->seed ^ 0x63726f7373636865ull ^ (M->seg > 1 ? 0x9e3779b97f4a7c15ull * M->seg : 0));
    if (!X->cand && arb_match_clone(&X->cand, *mg)) return 4;
    unsigned neg, nep;
    const arb_event *eg = arb_match_events(*mg, &neg), *ep = arb_match_events(*mp, &nep);
    if (compare_events(X, eg, neg, ep, nep)) { say(X, "  (the setup's events)\n"); return 1; }
    return 0;
}

/* At sampled steps, the protocol's promises that no answer shows alone
 * (legal order, clone, describe): 1 when one is broken (X->why). */
static int promises(xc *X, xmatch *M, const arb_match *mg, const arb_match *mp)
{
    if (M->steps % XC_PROMISES_EVERY != 1) return 0;
    char why[1024];
    if (arb_adapter_promises(arb_match_state(mp), X->g, arb_match_state(mg), why, sizeof why) != 1) return 0;
    say(X, "  %s\n", why);
    M->promise = 1;
    return 1;
}

/* What the walk reached: the events of m's last action with the phase
 * after it, or a refusal's rule with the phase it was refused in. */
static void note_events(xc *X, xmatch *M, const arb_match *m)
{
    unsigned ne;
    const arb_event *ev = arb_match_events(m, &ne);
    const char *ph = arb_match_phase(m);
    for (unsigned k = 0; k < ne; k++) (void)xc_pairs_add(&M->pairs, xc_pair_event(ename(X->g, ev[k].type), ph));
}

static void note_refusal(xmatch *M, const arb_error *e, const char *phase)
{
    (void)xc_pairs_add(&M->pairs, xc_pair_rule(e->rule[0] ? e->rule : arb_strerror(e->code), phase));
}

/* How much of what action a leads to the match has not reached yet (the
 * events' pairs), tried on a copy; -1 when refused. */
static int novelty(xc *X, xmatch *M, const arb_match *mg, const arb_action *a)
{
    arb_match_copy(X->cand, mg);
    arb_error e = ARB_ERROR_INIT;
    if (arb_match_apply(X->cand, a, &e)) return -1;
    unsigned ne;
    const arb_event *ev = arb_match_events(X->cand, &ne);
    const char *ph = arb_match_phase(X->cand);
    int score = 0;
    for (unsigned k = 0; k < ne; k++) score += !xc_pairs_has(&M->pairs, xc_pair_event(ename(X->g, ev[k].type), ph));
    return score;
}

#ifndef XC_CANDIDATES
#define XC_CANDIDATES 3 /* -DXC_CANDIDATES=1: no bias, to measure what it adds */
#endif
/* The walk's next step: probes into ag[0..*np) (at most maxp) and, when it
 * returns 1, the action *act. A suite case's script comes first: its
 * refused actions are probes, its accepted ones the actions. Then the
 * random walk: X->probes sampled probes (in a timed walk now and then an
 * arbiter action too), and of XC_CANDIDATES legal actions drawn from the
 * n in X->lg the one whose events the match has reached least, with a
 * think time in a timed walk (the arbiter's timeout when it reaches the
 * clock, now and then a disconnect of the seat to act). 0: probes only,
 * -1 the segment is over (its random steps are spent), -2 no legal action. */
static int next_step(xc *X, xmatch *M, const arb_match *mg, arb_rng *r, size_t n, arb_action *ag, size_t *np,
                     size_t maxp, arb_action *act)
{
    *np = 0;
    const xc_start *st = M->start;
    if (st && M->si < st->nscript) {
        while (M->si < st->nscript && st->refused[M->si]) {
            if (*np >= maxp) return 0;
            ag[(*np)++] = st->script[M->si++];
        }
        if (M->si < st->nscript) { *act = st->script[M->si++]; return 1; }
        if (*np) return 0;
    }
    if (st && M->cont++ >= XC_SEGMENT_STEPS) return -1;
    if (n == 0) return -2;
    for (int k = 0; k < X->probes && *np < maxp; k++) make_probe(X, r, X->lg, n, M->players, &ag[(*np)++]);
    arb_decision d = arb_match_decision(mg);
    if (M->timed && *np < maxp && X->v_timeout >= 0 && arb_rng_below(r, 4) == 0) {
        /* the arbiter: a timeout before (or at) the clock, a disconnect or
         * reconnect of any seat, one past the table */
        arb_action *a = &ag[(*np)++];
        memset(a, 0, sizeof *a);
        a->seat = ARB_SEAT_ARBITER;
        uint32_t kind = arb_rng_below(r, 3);
        if (kind == 0 || X->v_disconnect < 0) {
            a->verb = (uint8_t)X->v_timeout;
            a->elapsed_ms = d.clock_left_ms >= 0 && d.clock_left_ms < 200000 && arb_rng_below(r, 2)
                                ? (uint32_t)d.clock_left_ms - (d.clock_left_ms > 0)
                                : xc_think_ms(r);
        } else {
            a->verb = (uint8_t)(X->v_disconnect + (kind == 2)); /* reconnect follows disconnect */
            a->nargs = 1;
            a->args[0] = (int32_t)arb_rng_below(r, (uint32_t)M->players + 1);
            a->elapsed_ms = xc_think_ms(r);
        }
    }
    size_t pick = arb_rng_below(r, (uint32_t)n);
    if (n > 1) {
        int best = novelty(X, M, mg, &X->lg[pick]);
        for (int c = 1; c < XC_CANDIDATES; c++) {
            size_t i = arb_rng_below(r, (uint32_t)n);
            int sc = i == pick ? best : novelty(X, M, mg, &X->lg[i]);
            if (sc > best) { best = sc; pick = i; }
        }
    }
    *act = X->lg[pick];
    if (!M->timed) return 1;
    uint32_t think = xc_think_ms(r);
    if (d.clock_left_ms >= 0 && (int64_t)think >= d.clock_left_ms && X->v_timeout >= 0) {
        memset(act, 0, sizeof *act);
        act->seat = ARB_SEAT_ARBITER;
        act->verb = (uint8_t)X->v_timeout;
        act->elapsed_ms = (uint32_t)d.clock_left_ms;
        return 1;
    }
    act->elapsed_ms = think;
    if (X->v_disconnect >= 0 && d.seat >= 0 && arb_rng_below(r, 40) == 0) {
        arb_action dc;
        memset(&dc, 0, sizeof dc);
        dc.seat = ARB_SEAT_ARBITER;
        dc.verb = (uint8_t)X->v_disconnect;
        dc.nargs = 1;
        dc.args[0] = d.seat;
        dc.elapsed_ms = think / 2;
        arb_error e = ARB_ERROR_INIT;
        arb_match_copy(X->cand, mg);
        if (!arb_match_apply(X->cand, &dc, &e)) *act = dc;
        else if (*np < maxp) ag[(*np)++] = dc;
    }
    return 1;
}

/* Protocol 1: plays match M, the probes applied as actions (one accepted
 * by both is a step of the walk); 0 agreed, 1 diverged (X->why), 4
 * internal. */
static int play_p1(xc *X, xmatch *M)
{
    arb_match *mg = NULL, *mp = NULL;
    arb_rng r;
    int rc = match_open(X, M, &mg, &mp, &r);
    if (rc) { rc = rc < 0 ? 0 : rc; goto out; }
    arb_adapter_prefetch(arb_match_state(mp), M->players);
    for (M->steps = 0; M->steps < XC_MAX_STEPS; M->steps++) {
        if (compare(X, mg, mp, M->players, XC_ALL_VIEWS)) { rc = 1; break; }
        if (arb_adapter_failed(X->ad)) break;
        if (promises(X, M, mg, mp)) { rc = 1; break; }
        arb_outcome o;
        if (arb_match_outcome(mg, &o)) break;
        size_t n = get_legal(mg, X->g, &X->lg, &X->cap, &X->tg, 0);
        /* one round trip: the probes, then the walk's action */
        arb_action ag[ARB_ADAPTER_STEP_MAX], ap[ARB_ADAPTER_STEP_MAX];
        int rcs[ARB_ADAPTER_STEP_MAX];
        arb_error errs[ARB_ADAPTER_STEP_MAX];
        size_t na = 0;
        int has = next_step(X, M, mg, &r, n, ag, &na, ARB_ADAPTER_STEP_MAX - 1, &ag[ARB_ADAPTER_STEP_MAX - 1]);
        if (has == -1) break;
        if (has == -2) { say(X, "  the reference lists no legal action in a running match\n"); rc = 4; break; }
        if (has) ag[na++] = ag[ARB_ADAPTER_STEP_MAX - 1];
        for (size_t k = 0; k < na; k++) to_proxy(X, &ag[k], &ap[k]);
        if (arb_adapter_step(arb_match_state_mut(mp), ap, na, rcs, errs, X->evs, M->players)) break;
        int accepted = 0;
        for (size_t k = 0; k < na; k++) {
            char txt[128];
            arb_action_format(X->g, &ag[k], txt, sizeof txt);
            arb_error e = ARB_ERROR_INIT;
            uint64_t h0 = arb_match_hash(mg);
            const char *ph = arb_match_phase(mg);
            int a1 = arb_match_apply(mg, &ag[k], &e);
            if (!same_verdict(X, a1, &e, rcs[k], &errs[k], txt)) {
                M->has_probe = 1;
                M->probe = ag[k];
                rc = 1;
                goto out;
            }
            if (a1) {
                note_refusal(M, &e, ph);
                if (arb_match_hash(mg) != h0) { say(X, "  the reference changed its state rejecting '%s'\n", txt); rc = 4; goto out; }
                continue;
            }
            accepted++;
            M->narb += ag[k].seat == ARB_SEAT_ARBITER;
            note_events(X, M, mg);
            if (log_push(M, &ag[k])) { rc = 4; goto out; }
            unsigned neg;
            const arb_event *eg = arb_match_events(mg, &neg);
            if (compare_events(X, eg, neg, X->evs[k].buf, X->evs[k].n)) { say(X, "  (the events of '%s')\n", txt); rc = 1; goto out; }
        }
        if (!accepted && has) { say(X, "  the reference rejected its own legal action\n"); rc = 4; break; }
    }
out:
    arb_match_free(mg);
    arb_match_free(mp);
    return rc;
}

/* X->lx: the n legal actions in X->lg as the engine numbers them; 0 when
 * one has no verb there (or out of memory). */
static int expect_legal(xc *X, size_t n)
{
    if (n > X->caplx) {
        arb_action *p = realloc(X->lx, n * sizeof *p);
        if (!p) return 0;
        X->lx = p;
        X->caplx = n;
    }
    for (size_t k = 0; k < n; k++)
        if (to_proxy(X, &X->lg[k], &X->lx[k])) return 0;
    return 1;
}

/* Protocol 2: plays match M in one round trip a step (a probe of the
 * sampled actions and a step of the walk's action, which learns the next
 * decision, outcome, hash and legal actions); the probes are tried on a
 * copy and never advance the walk. State trees: every view at the first
 * step and the end, one view (the full state and each seat's in turn)
 * every XC_TREE_EVERY steps, every view whenever the hashes differ. 0 agreed,
 * 1 diverged (X->why), 4 internal. */
static int play_p2(xc *X, xmatch *M)
{
    arb_match *mg = NULL, *mp = NULL;
    arb_rng r;
    int rc = match_open(X, M, &mg, &mp, &r);
    if (rc) { rc = rc < 0 ? 0 : rc; goto out; }
    arb_error e1 = ARB_ERROR_INIT, e2 = ARB_ERROR_INIT;
    int rp;
    if (!X->scratch && arb_match_clone(&X->scratch, mg)) { rc = 4; goto out; }
    int views[ARB_MAX_SEATS + 1], sv[1] = { ARB_VIEW_ALL };
    unsigned nv = 0;
    views[nv++] = ARB_VIEW_ALL;
    for (int v = 0; v < M->players; v++) views[nv++] = v;
    if (arb_adapter_step2(arb_match_state_mut(mp), NULL, NULL, NULL, 1, views, nv, NULL, &e2) == ARB_EIO) goto out;
    unsigned trees = XC_ALL_VIEWS;
    for (M->steps = 0; M->steps < XC_MAX_STEPS; M->steps++) {
        if (compare(X, mg, mp, M->players, trees)) { rc = 1; break; }
        if (arb_adapter_failed(X->ad)) break;
        if (promises(X, M, mg, mp)) { rc = 1; break; }
        arb_outcome o;
        if (arb_match_outcome(mg, &o)) break;
        size_t n = X->nlg; /* compare() just listed them */
        arb_action ag[ARB_ADAPTER_STEP_MAX], ap[ARB_ADAPTER_STEP_MAX], act = { 0 }, pact;
        int rcs[ARB_ADAPTER_STEP_MAX];
        arb_error errs[ARB_ADAPTER_STEP_MAX];
        size_t np = 0;
        int has = next_step(X, M, mg, &r, n, ag, &np, ARB_ADAPTER_STEP_MAX - 1, &act);
        if (has == -1) break;
        if (has == -2) { say(X, "  the reference lists no legal action in a running match\n"); rc = 4; break; }
        for (size_t k = 0; k < np; k++) to_proxy(X, &ag[k], &ap[k]);
        to_proxy(X, &act, &pact);
        /* sampled: one view, the full state and each seat's in turn (the
         * hash, compared every step, covers the full state already) */
        trees = 0;
        if ((M->steps + 1) % XC_TREE_EVERY == 0) {
            sv[0] = (int)(((M->steps + 1) / XC_TREE_EVERY) % (size_t)(M->players + 1)) - 1;
            trees = 1u << (1 + sv[0]);
        }
        /* the reference first: its verdicts on the probes (on copies), then
         * the action and the legal list it leads to, which the engine's
         * answer is expected to repeat */
        uint64_t h0 = X->hg; /* compare() just hashed it */
        int grc[ARB_ADAPTER_STEP_MAX];
        arb_error gerr[ARB_ADAPTER_STEP_MAX];
        const char *ph = arb_match_phase(mg);
        for (size_t k = 0; k < np; k++) {
            arb_error_clear(&gerr[k]);
            arb_match_copy(X->scratch, mg);
            grc[k] = arb_match_apply(X->scratch, &ag[k], &gerr[k]);
            if (grc[k]) note_refusal(M, &gerr[k], ph);
        }
        arb_error_clear(&e1);
        /* no action (the script's refusals only): the list stands */
        int a1 = has ? arb_match_apply(mg, &act, &e1) : 0;
        size_t ne = a1 ? 0 : has ? get_legal(mg, X->g, &X->lg, &X->cap, &X->tg, 0) : n;
        X->nlg = ne;
        X->lg_fresh = !a1;
        arb_adapter_expect ex = { !a1 && expect_legal(X, ne) ? X->lx : NULL, ne, NULL, 0, 0 };
        char *tj = NULL; /* the sampled view as the reference adapter would write it */
        if (trees && !a1) {
            arb_tree *t = arb_match_export(mg, sv[0]);
            FILE *m = t ? open_memstream(&tj, &ex.trees_len) : NULL;
            if (m) {
                fputc('[', m);
                arb_tnode_json(arb_tree_root(t), m, 0);
                fputc(']', m);
                fclose(m);
                ex.trees = tj;
            }
            arb_tree_free(t);
        }
        arb_adapter_probes pr = { ap, np, rcs, errs, 0 };
        X->evs[0].n = X->evs[0].dropped = 0;
        arb_error_clear(&e2);
        rp = arb_adapter_step2(arb_match_state_mut(mp), &pr, has ? &pact : NULL, &X->evs[0], 1, sv, trees ? 1 : 0, &ex, &e2);
        free(tj);
        if (ex.trees_same) trees = 0; /* agreed byte for byte: nothing left to compare */
        if (arb_adapter_failed(X->ad)) break;
        for (size_t k = 0; k < np; k++) {
            char txt[128];
            arb_action_format(X->g, &ag[k], txt, sizeof txt);
            if (!same_verdict(X, grc[k], &gerr[k], rcs[k], &errs[k], txt)) {
                M->has_probe = 1;
                M->probe = ag[k];
                rc = 1;
                goto out;
            }
        }
        if (np && pr.hash != h0) {
            say(X, "  hash after the probes (each refused or tried on a copy): reference %016" PRIx64 " (unchanged), engine %016" PRIx64 "\n",
                h0, pr.hash);
            for (size_t k = 0; k < np; k++) {
                char txt[128];
                arb_action_format(X->g, &ag[k], txt, sizeof txt);
                say(X, "    probe %zu: '%s'\n", k, txt);
            }
            for (size_t k = np; k-- > 0;)
                if (rcs[k]) { M->has_probe = M->probe_hash = 1; M->probe = ag[k]; break; }
            rc = 1;
            goto out;
        }
        if (!has) continue;
        char txt[128];
        arb_action_format(X->g, &act, txt, sizeof txt);
        if (!same_verdict(X, a1, &e1, rp, &e2, txt)) {
            M->has_probe = 1;
            M->probe = act;
            rc = 1;
            break;
        }
        if (a1) { say(X, "  the reference rejected its own legal action\n"); rc = 4; break; }
        if (log_push(M, &act)) { rc = 4; break; }
        M->narb += act.seat == ARB_SEAT_ARBITER;
        note_events(X, M, mg);
        unsigned neg;
        const arb_event *eg = arb_match_events(mg, &neg);
        if (compare_events(X, eg, neg, X->evs[0].buf, X->evs[0].n)) { say(X, "  (the events of '%s')\n", txt); rc = 1; break; }
        if (trees != XC_ALL_VIEWS && arb_match_outcome(mg, &o)) { /* the end: its trees, in one request */
            if (arb_adapter_step2(arb_match_state_mut(mp), NULL, NULL, NULL, 0, views, nv, NULL, &e2) == ARB_EIO) break;
            trees = XC_ALL_VIEWS;
        }
    }
out:
    arb_match_free(mg);
    arb_match_free(mp);
    return rc;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int resolve(const arb_game *to, const arb_deck *from, const arb_game *fg, arb_deck *out)
{
    *out = *from;
    for (unsigned i = 0; i < from->ncards; i++) {
        int k = arb_card_find(to, fg->card(fg, from->cards[i])->id);
        if (k < 0) return -1;
        out->cards[i] = (uint16_t)k;
    }
    return 0;
}

/* The run: its options, and one job (an adapter and its buffers) per
 * --jobs, each playing one match at a time. */
struct xrun {
    const arb_game *g;
    const char *engine;
    const char *suite_opt;      /* --suite DIR as given, for the rerun line */
    xc_starts starts;           /* the suite's cases (loaded when a match needs them) */
    int have_suite;             /* the suite has a directory for the game */
    int json, tmo;
    const char *repro;
    unsigned long long base, players_opt;
    unsigned njobs;
    xc *jobs;
    int *busy;
    pthread_mutex_t mu;
    uint64_t stop_at;           /* matches past it need not be played */
    /* done()'s tallies, in match order */
    uint64_t played, steps;
    uint64_t nsuite, ntimed, nolder, nsegs, narb; /* suite matches (their cases), timed, older rules, arbiter actions */
    xc_pairs pairs;             /* what every match reached */
    unsigned char *used;        /* the cases played, one flag each */
    unsigned long long nreq;
    int result;
    char repro_path[512];
    int64_t div_index;
    char *failure;              /* the adapter's failure, said at the end */
};

static xc *job_take(xrun *R)
{
    pthread_mutex_lock(&R->mu);
    xc *X = NULL;
    for (unsigned k = 0; k < R->njobs && !X; k++)
        if (!R->busy[k]) { R->busy[k] = 1; X = &R->jobs[k]; }
    pthread_mutex_unlock(&R->mu);
    return X;
}

static void job_give(xrun *R, xc *X)
{
    pthread_mutex_lock(&R->mu);
    R->busy[X - R->jobs] = 0;
    pthread_mutex_unlock(&R->mu);
}

/* One segment (the whole match, for a fresh one) on X: its result, the
 * adapter's failure or the divergence, confirmed on fresh states. */
static void play_segment(xc *X, xmatch *M)
{
    X->wlen = 0;
    X->why[0] = '\0';
    M->nlog = 0;
    M->si = M->cont = 0;
    M->steps = 0;
    M->seg++;
    M->result = X->proto >= 2 ? play_p2(X, M) : play_p1(X, M);
    M->steps_total += M->steps;
    X->lg_fresh = 0; /* only ever for the step that set it */
    if (arb_adapter_failed(X->ad)) {
        M->failed = 1;
        M->why = strdup(arb_adapter_failed(X->ad));
    } else if (M->result) {
        M->why = strdup(X->why);
        if (M->result == 1) {
            arb_adapter_forget(X->ad);
            M->again = reconfirm(X, M);
        }
    }
    arb_adapter_forget(X->ad);
}

/* Any thread: play the match on a free job's adapter, as its plan says. */
static void xc_work(void *item)
{
    xmatch *M = item;
    xrun *R = M->R;
    pthread_mutex_lock(&R->mu);
    int skip = M->index > R->stop_at;
    pthread_mutex_unlock(&R->mu);
    M->result = -1;
    if (skip) return;
    xc *X = job_take(R); /* never NULL: the pool runs at most njobs works at once */
    if (!X) { M->result = 4; M->why = strdup("  no free adapter\n"); return; }
    const arb_game *g = R->g;
    unsigned long long r0 = arb_adapter_requests(X->ad);
    M->result = 0;
    if (M->plan.suite) {
        /* the group's cases, one after the other */
        size_t ng = R->starts.n < XC_GROUPS ? R->starts.n : XC_GROUPS;
        for (size_t j = M->plan.group % ng; j < R->starts.n && !M->result && !M->failed; j += ng) {
            const xc_start *st = &R->starts.v[j];
            M->start = st;
            M->su = st->su;
            M->sp = st->su;
            M->players = st->su.players;
            for (int s = 0; s < M->players && s < ARB_MAX_SEATS && !st->pos && !M->result; s++) {
                if (resolve(X->p, &st->decks[s], g, &M->dp[s])) M->result = 5;
                M->sp.decks[s] = &M->dp[s];
            }
            M->timed = xc_segment_timed(M->key, j, st);
            if (!M->result) play_segment(X, M);
        }
    } else {
        for (int s = 0; s < M->players && !M->result; s++) {
            M->dg[s] = g->npresets ? *g->preset(g, (unsigned)s % g->npresets) : (arb_deck){ 0 };
            M->su.decks[s] = &M->dg[s];
            if (resolve(X->p, &M->dg[s], g, &M->dp[s])) M->result = 5;
            M->sp.decks[s] = &M->dp[s];
        }
        M->su.rules = M->sp.rules = M->plan.rules;
        M->timed = M->plan.timed;
        if (!M->result) play_segment(X, M);
    }
    M->nreq = arb_adapter_requests(X->ad) - r0;
    job_give(R, X);
}

/* The calling thread, in match order: tally, report the first divergence
 * or failure and set stop_at. */
static int xc_done(void *ctx, void *item)
{
    xrun *R = ctx;
    xmatch *M = item;
    const arb_game *g = R->g;
    int stop = 0;
    if (M->result < 0 || M->index > R->stop_at) goto out; /* played past the end: not reported */
    R->played++;
    R->steps += M->steps_total;
    R->nreq += M->nreq;
    R->narb += M->narb;
    if (M->plan.suite) {
        R->nsuite++;
        R->nsegs += M->seg;
        size_t ng = R->starts.n < XC_GROUPS ? R->starts.n : XC_GROUPS, j = M->plan.group % ng;
        for (unsigned t = 0; R->used && t < M->seg && j < R->starts.n; t++, j += ng) R->used[j] = 1;
    } else {
        R->ntimed += M->plan.timed != 0;
        R->nolder += M->plan.rules != NULL;
    }
    if (xc_pairs_merge(&R->pairs, &M->pairs)) { fprintf(stderr, "arbiter crosscheck: out of memory\n"); R->result = EXIT_INTERNAL; stop = 1; }
    if (M->failed) {
        R->failure = M->why;
        M->why = NULL;
        R->result = EXIT_INTERNAL;
        stop = 1;
    } else if (M->result == 5) {
        R->played--;
        fprintf(stderr, "arbiter crosscheck: the engine's card pool lacks a card of %s's presets\n", g->id);
        R->result = EXIT_VERIFY;
        stop = 1;
    } else if (M->result == 4) {
        fprintf(stderr, "arbiter crosscheck: internal error in match %" PRIu64 ":\n%s", M->index, M->why ? M->why : "");
        R->result = EXIT_INTERNAL;
        stop = 1;
    } else if (M->result == 1) {
        char path[512];
        if (R->repro) snprintf(path, sizeof path, "%s", R->repro);
        else snprintf(path, sizeof path, "crosscheck-%s-%" PRIu64 ".tcgr", g->id, M->seed);
        arb_error err = ARB_ERROR_INIT;
        int wrc = write_repro(g, &M->su, M->start ? M->start->pos : NULL, M->log, M->nlog, path, &err);
        /* with --json the report goes to stderr: stdout stays one JSON object */
        FILE *rep = R->json ? stderr : stdout;
        fprintf(rep, "DIVERGENCE %s match %" PRIu64 " (seed %" PRIu64 ", %d players) after %zu actions (step %zu):\n%s",
                g->id, M->index, M->seed, M->players, M->nlog, M->steps, M->why ? M->why : "");
        if (M->start)
            fprintf(rep, "  start: the suite's case %s (%s:%d): its %zu scripted actions, then %s steps\n", M->start->name,
                    M->start->file, M->start->line, M->start->nscript, M->timed ? "timed random" : "random");
        else if (M->timed || M->plan.rules)
            fprintf(rep, "  start: a fresh setup%s%s, %s steps\n", M->plan.rules ? " under rules " : "",
                    M->plan.rules ? M->plan.rules : "", M->timed ? "timed random" : "random");
        if (wrc) {
            char eb[ARB_MSG_MAX + ARB_WHERE_MAX + ARB_RULE_MAX + 8];
            arb_error_format(&err, eb, sizeof eb);
            fprintf(rep, "  reproducer: cannot write %s: %s\n", path, eb);
        } else {
            fprintf(rep, "  reproducer: %s (%zu actions from the %s; every shorter prefix agreed at every\n"
                    "  step; replayed on fresh states, %s)\n", path, M->nlog,
                    M->start && M->start->pos ? "case's position" : "seeded setup",
                    M->again ? "the divergence shows again" : "the divergence did NOT show again: the engine depends on its history");
            snprintf(R->repro_path, sizeof R->repro_path, "%s", path);
            if (M->has_probe) {
                char t[128];
                arb_action_format(g, &M->probe, t, sizeof t);
                fprintf(rep, "  then the action '%s' gets the verdicts above\n", t);
            }
        }
        fprintf(rep, "  this match alone: crosscheck --game %s --seed %llu --games 1%s", g->id,
                R->base + (unsigned long long)M->index, R->players_opt ? " --players " : "");
        if (R->players_opt) fprintf(rep, "%llu", R->players_opt);
        if (R->suite_opt) fprintf(rep, " --suite %s", R->suite_opt);
        fputs(" (and the same --engine, --probes)\n", rep);
        R->div_index = (int64_t)M->index;
        R->result = EXIT_VERIFY;
        stop = 1;
    }
    if (stop) {
        pthread_mutex_lock(&R->mu);
        R->stop_at = M->index;
        pthread_mutex_unlock(&R->mu);
    }
out:
    free(M->log);
    free(M->why);
    xc_pairs_free(&M->pairs);
    M->log = NULL;
    M->why = NULL;
    return 0; /* the pool goes on to finish (and free) what it has; the filling loop stops */
}

static const char *const xc_usage[] = {
    "crosscheck --engine CMD --game G [--games N] [--seed S] [--players P] [--shard K/N|slurm] [--repro FILE] "
    "[--probes N] [--suite DIR] [--engine-timeout MS] [--jobs N] [--json]",
    NULL
};
enum { XC_GAMES = CLI_ID_LONG, XC_SEED, XC_PLAYERS, XC_SHARD, XC_PROBES, XC_REPRO, XC_SUITE };
static const cli_opt xc_opts[] = {
    CLI_OPT_ENGINE("the adapter command (run by /bin/sh)"),
    CLI_OPT_GAME("the reference engine"),
    { "games", XC_GAMES, 0, CLI_ARG_INT, "N", "matches (default 100); match I has seed SplitMix64(S + I)", 1, 100000000, CLI_SH_NONE },
    { "seed", XC_SEED, 0, CLI_ARG_INT, "S", "base seed (default 1)", 0, 0, CLI_SH_NONE },
    { "players", XC_PLAYERS, 0, CLI_ARG_INT, "P", "seats (default: cycles through the game's range)", 1, ARB_MAX_SEATS, CLI_SH_NONE },
    { "shard", XC_SHARD, 0, CLI_ARG_TEXT, "K/N", "only matches I with I mod N = K ('slurm': the job array)", 0, 0, CLI_SH_NONE },
    { "probes", XC_PROBES, 0, CLI_ARG_INT, "N", "illegal/malformed actions tried per step (default 2)", 0, ARB_ADAPTER_STEP_MAX - 1, CLI_SH_NONE },
    { "repro", XC_REPRO, 0, CLI_ARG_FILE, "FILE", "the reproducer (default crosscheck-G-SEED.tcgr)", 0, 0, CLI_SH_NONE },
    { "suite", XC_SUITE, 0, CLI_ARG_DIR, "DIR", "the conformance suite whose cases start the odd-keyed matches (default: as conform finds it; 'none': fresh setups only)", 0, 0, CLI_SH_NONE },
    CLI_OPT_ENGINE_TIMEOUT,
    CLI_OPT_JOBS("matches at a time, each job with an adapter process of its own (at most 8); the output is the same for any N"),
    CLI_OPT_JSON("the summary as one JSON object"),
    CLI_OPT_END
};
const cli_spec cli_spec_crosscheck = {
    .name = "crosscheck",
    .summary = "differential play of an engine adapter against the built-in engine",
    .usage = xc_usage,
    .description =
        "Play N seeded matches on the built-in engine G and on the engine\n"
        "adapter CMD (conformance/ADAPTER.md) side by side. Match I's key S + I\n"
        "says what it plays: an odd key plays a group of the conformance suite's\n"
        "cases (every 50th case of G's directory in --suite DIR: each from its\n"
        "setup or position, its scripted actions, refused ones as probes, then up\n"
        "to 400 random steps), so 100 matches start from every case once; an even\n"
        "key a fresh setup, every other one timed (seeded think times, the\n"
        "arbiter's timeout when one reaches the clock, now and then a disconnect)\n"
        "and a third of them under an older rules version when G keeps one. The\n"
        "walk picks, of three legal actions, the one whose (event, phase) pairs\n"
        "the match has reached least; the run reports the pairs reached and the\n"
        "cases played. At every step the\n"
        "decision, turn, phase, legal actions (as a set), hash, outcome and events\n"
        "must agree, and so must the verdicts on sampled illegal and malformed\n"
        "actions (accepted/rejected, code, rule ID); the state trees (full and each\n"
        "seat's view) are compared at the first step, every 16th, the end and on\n"
        "any hash difference (at every step with a protocol-1 adapter). The first\n"
        "divergence stops the run: it is printed field by field, its actions are\n"
        "written as a .tcgr reproducer, and the command that reruns that match\n"
        "alone is given (match I of --seed S is match 0 of --seed S+I).\n",
    .opts = xc_opts,
    .exit = "0 no divergence, 1 a divergence (reported), 2 usage, 3 bad game or adapter that cannot start, 4 the "
            "adapter failed mid-run (dead, slow or babbling: the request is named).",
    .run = cmd_crosscheck,
};

int cmd_crosscheck(int argc, char **argv)
{
    const char *engine = NULL, *game = NULL, *repro = NULL, *suite = NULL;
    unsigned long long games = 100, seed = 1, players = 0, probes = 2, tmo = 0, jobs = 1;
    cli_shard shard = { 0, 1 };
    int json = 0, c;
    cli_parser p;
    cli_parse_init(&p, &cli_spec_crosscheck, argc, argv);
    while ((c = cli_next(&p)) > 0) {
        switch (c) {
        case CLI_ID_ENGINE: engine = p.arg; break;
        case 'g': game = p.arg; break;
        case XC_REPRO: repro = p.arg; break;
        case XC_SUITE: suite = p.arg; break;
        case XC_GAMES: games = p.num; break;
        case XC_SEED: seed = p.num; break;
        case XC_PLAYERS: players = p.num; break;
        case XC_PROBES: probes = p.num; break;
        case CLI_ID_ENGINE_TIMEOUT: tmo = p.num; break;
        case XC_SHARD:
            if (cli_shard_parse("crosscheck", p.arg, &shard)) return EXIT_USAGE;
            break;
        case 'j': jobs = p.num; break;
        case CLI_ID_JSON: json = 1; break;
        default: return cli_unhandled(&p);
        }
    }
    if (c < 0) return p.rc;
    if (p.npos) return cli_usage("crosscheck", "unexpected argument '%s'", cli_esc(p.pos[0]));
    if (!engine) return cli_usage("crosscheck", "--engine CMD is required");
    if (jobs > XC_JOBS_MAX) return cli_usage("crosscheck", "--jobs %llu: at most %d adapters at once", jobs, XC_JOBS_MAX);
    const arb_game *g = cli_game("crosscheck", game);
    if (!g) return game ? EXIT_INPUT : EXIT_USAGE;
    if (players && ((int)players < g->min_players || (int)players > g->max_players))
        return cli_usage("crosscheck", "%s takes %d..%d players", g->id, g->min_players, g->max_players);
    xrun R;
    memset(&R, 0, sizeof R);
    R.g = g;
    R.engine = engine;
    R.json = json;
    R.repro = repro;
    R.base = seed;
    R.players_opt = players;
    R.stop_at = UINT64_MAX;
    R.div_index = -1;
    R.result = EXIT_OK;
    R.suite_opt = suite;
    /* the suite: found as conform finds it, loaded when a match of this
     * run starts from its cases */
    const char *sdir = suite ? (strcmp(suite, "none") ? suite : NULL) : arb_conform_default_dir();
    R.have_suite = sdir && xc_suite_has(sdir, g);
    if (suite && sdir && !R.have_suite)
        return cli_usage("crosscheck", "--suite %s: no directory %s/%s", cli_esc(suite), cli_esc(suite), g->id);
    int odd = 0;
    for (uint64_t i = shard.k; i < games && i < shard.k + 2 * shard.n; i += shard.n) odd |= (int)((seed + i) & 1);
    if (R.have_suite && odd) {
        char why[ARB_MSG_MAX + ARB_WHERE_MAX + 64];
        if (xc_starts_load(&R.starts, g, sdir, why, sizeof why)) {
            fprintf(stderr, "arbiter crosscheck: the suite %s: %s\n", sdir, why);
            return EXIT_INPUT;
        }
        if (R.starts.n && !(R.used = calloc(R.starts.n, 1))) { xc_starts_free(&R.starts); return EXIT_INTERNAL; }
    }
    pthread_mutex_init(&R.mu, NULL);
    R.jobs = calloc(jobs, sizeof *R.jobs);
    R.busy = calloc(jobs, sizeof *R.busy);
    int rc = EXIT_OK;
    if (!R.jobs || !R.busy) { fprintf(stderr, "arbiter crosscheck: out of memory\n"); rc = EXIT_INTERNAL; goto end; }
    for (; R.njobs < jobs; R.njobs++) {
        xc *X = &R.jobs[R.njobs];
        arb_adapter *ad = NULL;
        if ((rc = cli_engine_open("crosscheck", engine, g->id, (int)tmo, &ad))) goto end;
        X->g = g;
        X->p = arb_adapter_game(ad);
        X->ad = ad;
        X->proto = arb_adapter_protocol(ad);
        X->probes = (int)probes;
        X->v_timeout = arb_verb_find(g, "timeout");
        X->v_disconnect = arb_verb_find(g, "disconnect");
        if (X->v_disconnect >= 0 && arb_verb_find(g, "reconnect") != X->v_disconnect + 1) X->v_disconnect = -1;
        for (unsigned v = 0; v < g->nverbs && v < 256; v++) X->vmap[v] = arb_verb_find(X->p, g->verbs[v].name);
        for (int k = 0; k < ARB_ADAPTER_STEP_MAX; k++) {
            X->evs[k].buf = malloc(ARB_MATCH_EVENTS * sizeof *X->evs[k].buf);
            X->evs[k].cap = X->evs[k].buf ? ARB_MATCH_EVENTS : 0;
        }
    }
    double t0 = now_s();
    cli_pool *pool = cli_pool_new((unsigned)jobs, sizeof(xmatch), xc_work, xc_done, &R);
    if (!pool) { fprintf(stderr, "arbiter crosscheck: out of memory\n"); rc = EXIT_INTERNAL; goto end; }
    for (uint64_t i = shard.k; i < games && R.stop_at == UINT64_MAX; i += shard.n) {
        xmatch *M = cli_pool_slot(pool);
        if (!M) break;
        M->R = &R;
        M->index = i;
        M->seed = cli_game_seed(seed, i);
        /* from S + I, like the seed: match I of --seed S is match 0 of --seed S+I */
        M->players = players ? (int)players
                             : g->min_players + (int)((seed + i) % (uint64_t)(g->max_players - g->min_players + 1));
        M->su.seed = M->seed;
        M->su.players = M->players;
        M->sp = M->su;
        M->key = seed + i;
        xc_plan_of(g, M->key, R.have_suite, R.starts.n, &M->plan);
        cli_pool_submit(pool);
    }
    cli_pool_end(pool);
    double secs = now_s() - t0;
    if (R.failure) fprintf(stderr, "arbiter crosscheck: engine adapter failed: %s\n", R.failure);
    double per = R.steps ? (double)R.nreq / (double)R.steps : 0.0;
    size_t used = 0;
    for (size_t j = 0; R.used && j < R.starts.n; j++) used += R.used[j];
    if (json) {
        printf("{\"game\":\"%s\",\"shard\":\"%" PRIu64 "/%" PRIu64 "\",\"protocol\":%d,\"matches\":%" PRIu64
               ",\"steps\":%" PRIu64 ",\"requests\":%llu,\"requests_per_step\":%.2f,\"divergences\":%d,\"seconds\":%.3f,"
               "\"matches_per_s\":%.1f",
               g->id, shard.k, shard.n, R.jobs[0].proto, R.played, R.steps, R.nreq, per, R.result == EXIT_VERIFY, secs,
               secs > 0 ? R.played / secs : 0.0);
        printf(",\"suite_matches\":%" PRIu64 ",\"suite_cases\":%zu,\"suite_cases_played\":%zu,\"timed_matches\":%" PRIu64
               ",\"older_rules_matches\":%" PRIu64 ",\"arbiter_actions\":%" PRIu64 ",\"event_pairs\":%zu,\"refusal_pairs\":%zu",
               R.nsuite, R.starts.n, used, R.ntimed, R.nolder, R.narb, R.pairs.nevent, R.pairs.nrule);
        if (R.div_index >= 0) {
            printf(",\"divergent_match\":%" PRId64 ",\"reproducer\":", R.div_index);
            arb_json_str(stdout, R.repro_path);
        }
        printf("}\n");
    } else
        printf("crosscheck %s: %" PRIu64 " matches, %" PRIu64 " steps, %llu requests (%.2f a step, protocol %d), %d "
               "divergence%s, %.2f s (%.1f matches/s)\n",
               g->id, R.played, R.steps, R.nreq, per, R.jobs[0].proto, R.result == EXIT_VERIFY,
               R.result == EXIT_VERIFY ? "" : "s", secs, secs > 0 ? R.played / secs : 0.0);
    if (!json) {
        printf("crosscheck %s reached %zu (event, phase) and %zu (refusal rule, phase) pairs, %" PRIu64
               " arbiter actions; %" PRIu64 " fresh matches (%" PRIu64 " timed, %" PRIu64 " under an older rules version)",
               g->id, R.pairs.nevent, R.pairs.nrule, R.narb, R.played - R.nsuite, R.ntimed, R.nolder);
        if (R.have_suite)
            printf(", %" PRIu64 " from the suite's cases (%zu of %zu cases played)\n", R.nsuite, used, R.starts.n);
        else printf(", no suite\n");
    }
    rc = R.result;
end:
    for (unsigned k = 0; k < R.njobs; k++) {
        xc *X = &R.jobs[k];
        free(X->lg);
        free(X->lx);
        free(X->lp);
        free(X->tg);
        free(X->tp);
        for (int e = 0; e < ARB_ADAPTER_STEP_MAX; e++) free(X->evs[e].buf);
        arb_match_free(X->scratch);
        arb_match_free(X->cand);
        arb_adapter_close(X->ad);
    }
    free(R.jobs);
    free(R.busy);
    free(R.used);
    xc_starts_free(&R.starts);
    xc_pairs_free(&R.pairs);
    free(R.failure);
    pthread_mutex_destroy(&R.mu);
    return rc;
}
