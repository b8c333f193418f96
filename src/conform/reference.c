/* reference.c — conform --engine's second opinion: each case is played on
 * the built-in engine of the same game as well (arb_conform_options
 * .reference), and after the setup, every accepted action and every
 * refusal the two must agree on everything observable: the decision
 * (its clock included), turn, phase, outcome, hash, the legal actions (as
 * a set), the full state tree (member order included) and the events of
 * the action. A case's own assertions test a few fields; this tests all
 * of them, so an engine that is right where the case looks and wrong a
 * field beside (a clock one millisecond off, maps in another order) fails
 * the case, with the first differences named. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/text.h"
#include "arbiter/toolkit.h"
#include "conform/conform_int.h"

#define REF_LEGAL_MAX 65536
#define REF_FIELDS 4 /* differing tree fields named */

typedef struct said {
    char *buf;
    size_t size, len;
} said;

static void say(said *S, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void say(said *S, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    arb_text_vappendf(S->buf, S->size, &S->len, fmt, ap);
    va_end(ap);
}

int arb_conform__ref_action(const arb_game *g, const arb_game *rg, const arb_action *a, arb_action *out)
{
    *out = *a;
    if (a->verb >= g->nverbs) return 0; /* malformed on purpose: the same number */
    int v = arb_verb_find(rg, g->verbs[a->verb].name);
    if (v < 0) return -1;
    out->verb = (uint8_t)v;
    return 0;
}

static int cmp_text(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* m's legal actions as sorted texts (malloc'd block); their count, or -1. */
static long legal_texts(const arb_match *m, char ***out)
{
    const arb_game *g = arb_match_game(m);
    size_t n = arb_match_legal(m, NULL, 0);
    if (n > REF_LEGAL_MAX) return -1;
    arb_action *l = malloc((n ? n : 1) * sizeof *l);
    char **t = malloc((n ? n : 1) * (sizeof *t + 96));
    if (!l || !t) {
        free(l);
        free(t);
        return -1;
    }
    n = arb_match_legal(m, l, n);
    char *txt = (char *)(t + (n ? n : 1));
    for (size_t i = 0; i < n; i++) {
        t[i] = txt + i * 96;
        arb_action_format(g, &l[i], t[i], 96);
    }
    free(l);
    qsort(t, n, sizeof *t, cmp_text);
    *out = t;
    return (long)n;
}

static void compare_legal(said *S, const arb_match *m, const arb_match *rm)
{
    char **a = NULL, **b = NULL;
    long na = legal_texts(m, &a), nb = legal_texts(rm, &b);
    if (na >= 0 && nb >= 0) {
        long i = 0, j = 0, shown = 0;
        while ((i < na || j < nb) && shown < 2) {
            int c = i >= na ? 1 : j >= nb ? -1 : strcmp(a[i], b[j]);
            if (c == 0) {
                i++;
                j++;
                continue;
            }
            if (!shown++) say(S, "; legal actions: the engine lists %ld, the built-in engine %ld", na, nb);
            say(S, ", %s '%s'", c < 0 ? "extra in the engine" : "missing from the engine", c < 0 ? a[i] : b[j]);
            if (c < 0) i++;
            else j++;
        }
    }
    free(a);
    free(b);
}

typedef struct tdiff {
    said *S;
    unsigned shown;
} tdiff;

static int tree_cb(void *ctx, const char *path, const arb_tnode *a, const arb_tnode *b)
{
    tdiff *d = ctx;
    char va[96], vb[96];
    if (d->shown++ >= REF_FIELDS) return 1;
    say(d->S, "%s %s: engine %s, built-in %s", d->shown == 1 ? "" : ",", path,
        a ? arb_tnode_text(a, va, sizeof va) : "(absent)", b ? arb_tnode_text(b, vb, sizeof vb) : "(absent)");
    return 0;
}

static void compare_tree(said *S, const arb_match *m, const arb_match *rm)
{
    arb_tree *a = arb_match_export(m, ARB_VIEW_ALL), *b = arb_match_export(rm, ARB_VIEW_ALL);
    if (a && b && !arb_tnode_equal(arb_tree_root(a), arb_tree_root(b))) {
        say(S, "; state tree:");
        tdiff d = { S, 0 };
        char where[256];
        if (!arb_tree_diff(arb_tree_root(a), arb_tree_root(b), tree_cb, &d)) {
            if (arb_tree_order_differs(arb_tree_root(a), arb_tree_root(b), where, sizeof where))
                say(S, " %s: the same members in another order (maps are ordered: ADAPTER.md section 5)",
                    where[0] ? where : "the root");
            else say(S, " the same members in another order (maps are ordered: ADAPTER.md section 5)");
        }
    }
    arb_tree_free(a);
    arb_tree_free(b);
}

static void compare_events(said *S, const arb_match *m, const arb_match *rm)
{
    const arb_game *g = arb_match_game(m), *rg = arb_match_game(rm);
    unsigned na, nb;
    const arb_event *a = arb_match_events(m, &na), *b = arb_match_events(rm, &nb);
    for (unsigned k = 0; k < na || k < nb; k++) {
        const char *ta = k < na ? arb_name_at(g->event_names, g->nevent_names, a[k].type, "?") : "(none)";
        const char *tb = k < nb ? arb_name_at(rg->event_names, rg->nevent_names, b[k].type, "?") : "(none)";
        if (k < na && k < nb && !strcmp(ta, tb) && a[k].seat == b[k].seat && a[k].hidden == b[k].hidden &&
            a[k].a == b[k].a && a[k].b == b[k].b && a[k].c == b[k].c)
            continue;
        say(S, "; events: %u from the engine, %u from the built-in engine, event %u engine %s", na, nb, k, ta);
        if (k < na) say(S, "(seat %d%s %d %d %d)", a[k].seat, a[k].hidden ? " hidden" : "", a[k].a, a[k].b, a[k].c);
        say(S, ", built-in %s", tb);
        if (k < nb) say(S, "(seat %d%s %d %d %d)", b[k].seat, b[k].hidden ? " hidden" : "", b[k].a, b[k].b, b[k].c);
        return;
    }
}

int arb_conform__ref_compare(const arb_match *m, const arb_match *rm, int events, char *msg, size_t size)
{
    said S = { msg, size, 0 };
    if (size) msg[0] = '\0';
    const arb_game *g = arb_match_game(m), *rg = arb_match_game(rm);
    arb_decision d = arb_match_decision(m), rd = arb_match_decision(rm);
    const char *k = arb_name_at(g->decision_names, g->ndecision_names, d.kind, "?");
    const char *rk = arb_name_at(rg->decision_names, rg->ndecision_names, rd.kind, "?");
    if (d.seat != rd.seat || strcmp(k, rk) || d.clock_left_ms != rd.clock_left_ms)
        say(&S, "; decision: engine seat %d '%s' clock %" PRId64 ", built-in seat %d '%s' clock %" PRId64, d.seat, k,
            d.clock_left_ms, rd.seat, rk, rd.clock_left_ms);
    uint32_t t = arb_match_turn(m), rt = arb_match_turn(rm);
    if (t != rt) say(&S, "; turn: engine %" PRIu32 ", built-in %" PRIu32, t, rt);
    const char *p = arb_match_phase(m), *rp = arb_match_phase(rm);
    if (strcmp(p ? p : "", rp ? rp : "")) say(&S, "; phase: engine '%s', built-in '%s'", p ? p : "", rp ? rp : "");
    arb_outcome o, ro;
    arb_match_outcome(m, &o);
    arb_match_outcome(rm, &ro);
    const char *r = arb_name_at(g->outcome_reasons, g->noutcome_reasons, o.reason, "?");
    const char *rr = arb_name_at(rg->outcome_reasons, rg->noutcome_reasons, ro.reason, "?");
    if (o.over != ro.over || (o.over && (o.winner != ro.winner || o.turns != ro.turns || strcmp(r, rr))))
        say(&S, "; outcome: engine %s winner %d '%s', built-in %s winner %d '%s'", o.over ? "over" : "running",
            o.winner, r, ro.over ? "over" : "running", ro.winner, rr);
    uint64_t h = arb_match_hash(m), rh = arb_match_hash(rm);
    if (h != rh) say(&S, "; hash: engine %016" PRIx64 ", built-in %016" PRIx64, h, rh);
    if (events) compare_events(&S, m, rm);
    compare_legal(&S, m, rm);
    compare_tree(&S, m, rm);
    if (!S.len) return 0;
    /* drop the leading "; " */
    memmove(msg, msg + 2, S.len - 1);
    return 1;
}
