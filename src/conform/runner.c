/* runner.c — runs one conformance case against a fresh engine instance.
 *
 * A test case builds its match (seed + decks, or a position), then walks its
 * script in document order: <act> must be accepted, <reject> must be
 * refused by the named rule with the state hash unchanged, <check> and the
 * assertions nested in an <act> test the state tree, the decision owed, the
 * events, the outcome and the legal moves. The first failure decides the
 * status (FAIL, or WRONG-RULE when only the rule ID differs) and stops the
 * case, as test262 does. Every script action must be consumed: one that
 * meets a finished match fails the case (XMage's "all scripted actions
 * used"). Finally the accepted actions are recorded as a .tcgr replay
 * and verified, which must reproduce the final hash. Deck cases run the game's deck check.
 * Nothing here writes to the suite: cases run on worker threads. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arbiter/deck.h"
#include "arbiter/toolkit.h"
#include "conform/conform_int.h"

#define EV_WINDOW_MAX (1u << 20)
#define LEGAL_MAX 65536

typedef struct evbuf {
    arb_event *e;
    unsigned n, cap;
} evbuf;

typedef struct run {
    const arb_conform_suite *s;
    const cf_case *c;
    const char *path;
    const arb_game *g;
    arb_conform_result *r;
    arb_setup su;
    char rules[32];                /* <setup rules="…">, "" for the newest */
    arb_deck decks[ARB_MAX_SEATS];
    arb_tree *pos;                 /* position tree, NULL for seeded setup */
    const arb_tnode *posroot;
    arb_match *m;
    arb_match *ref;                /* opt.reference's match, or NULL */
    arb_tree *t0;                  /* full export right after setup */
    arb_tree *cache[ARB_MAX_SEATS + 1];
    evbuf checkwin, actwin;
    arb_action *log;
    size_t nlog, caplog;
    arb_action *script;            /* every action tried, and whether refused */
    unsigned char *refused;
    size_t nscript, capscript;
    int done;                      /* a status has been set */
    cf_inv inv;                    /* invariants' scratch */
} run;

/* ------------------------------------------------------------ results */

static void set_status(run *R, int status, const xmlNode *at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static void set_status(run *R, int status, const xmlNode *at, const char *fmt, ...)
{
    if (R->done) return;
    R->done = 1;
    R->r->status = status;
    if (at) R->r->at_line = (int)xmlGetLineNo((xmlNodePtr)at);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(R->r->message, sizeof R->r->message, fmt, ap);
    va_end(ap);
    arb_conform__utf8_cut(R->r->message);
}

static const char *errtext(const arb_error *e, char *buf, size_t size)
{
    arb_error_format(e, buf, size);
    return buf;
}

/* ------------------------------------------------------------ events */

static int ev_push(evbuf *b, const arb_event *e, unsigned n)
{
    if (n == 0) return 0; /* e may be NULL: an action with no events */
    if (b->n + n > EV_WINDOW_MAX) return -1;
    if (b->n + n > b->cap) {
        unsigned nc = b->cap ? b->cap : 256;
        while (nc < b->n + n) nc *= 2;
        arb_event *p = realloc(b->e, nc * sizeof *p);
        if (!p) return -1;
        b->e = p;
        b->cap = nc;
    }
    memcpy(b->e + b->n, e, n * sizeof *e);
    b->n += n;
    return 0;
}

static const char *event_name(const arb_game *g, unsigned type)
{
    return arb_name_at(g->event_names, g->nevent_names, type, "?");
}

/* ------------------------------------------------------------ trees */

static void invalidate(run *R)
{
    for (int i = 0; i <= ARB_MAX_SEATS; i++) {
        arb_tree_free(R->cache[i]);
        R->cache[i] = NULL;
    }
}

static const arb_tnode *export_root(run *R, int view)
{
    int slot = view < 0 ? ARB_MAX_SEATS : view;
    if (slot > ARB_MAX_SEATS) return NULL;
    if (!R->cache[slot]) R->cache[slot] = arb_match_export(R->m, view);
    return R->cache[slot] ? arb_tree_root(R->cache[slot]) : NULL;
}

static int parse_seat(const char *s, int *seat)
{
    if (strcmp(s, "arbiter") == 0) { *seat = ARB_SEAT_ARBITER; return 0; }
    if (strcmp(s, "none") == 0) { *seat = ARB_SEAT_NONE; return 0; }
    char *e;
    long v = strtol(s, &e, 10);
    if (!*s || *e || v < 0 || v >= ARB_MAX_SEATS) return -1;
    *seat = (int)v;
    return 0;
}

static const char *seat_text(int seat, char *buf, size_t size)
{
    if (seat == ARB_SEAT_ARBITER) return "arbiter";
    if (seat == ARB_SEAT_NONE) return "none";
    snprintf(buf, size, "%d", seat);
    return buf;
}

/* A scalar node against the text of an expectation. */
static int value_equals(const arb_tnode *n, const char *want)
{
    if (n->kind == ARB_T_STR) {
        size_t l = strlen(want);
        if (l >= 2 && want[0] == '"' && want[l - 1] == '"') return strlen(n->s) == l - 2 && strncmp(n->s, want + 1, l - 2) == 0;
        return strcmp(n->s, want) == 0;
    }
    arb_tree *t = arb_tree_new();
    if (!t) return 0;
    arb_error err = ARB_ERROR_INIT;
    int eq = 0;
    if (arb_conform__value(t, arb_tree_root(t), "v", want, &err) == ARB_OK) {
        const arb_tnode *w = arb_tnode_get(arb_tree_root(t), "v");
        eq = w && arb_tnode_equal(n, w);
    }
    arb_tree_free(t);
    return eq;
}

static int contains(const arb_tnode *n, const char *want)
{
    if (n->kind != ARB_T_ARR && n->kind != ARB_T_MAP) return 0;
    for (const arb_tnode *k = n->first; k; k = k->next) {
        if (k->kind == ARB_T_MAP) {
            for (const arb_tnode *f = k->first; f; f = f->next)
                if (f->kind != ARB_T_MAP && f->kind != ARB_T_ARR && value_equals(f, want)) return 1;
        } else if (k->kind != ARB_T_ARR && value_equals(k, want)) {
            return 1;
        }
    }
    return 0;
}

static const char *node_text(const arb_tnode *n, char *buf, size_t size)
{
    if (!n) return "(absent)";
    if (n->kind == ARB_T_ARR || n->kind == ARB_T_MAP) {
        /* Compact JSON, so a failing list comparison shows the list. */
        FILE *f = fmemopen(buf, size, "w");
        if (!f) return arb_tnode_text(n, buf, size);
        arb_tnode_json(n, f, 0);
        fputc('\0', f);
        fclose(f);
        buf[size - 1] = '\0';
        return buf;
    }
    return arb_tnode_text(n, buf, size);
}

/* ------------------------------------------------------------ assertions */

typedef struct actx {
    run *R;
    const evbuf *win;
    char *msg;                     /* why the last leaf was false */
    size_t size;
    int line;                      /* the line of that leaf */
} actx;

enum { A_FALSE = 0, A_TRUE = 1, A_ERROR = -1 };

/* Writes "<elem> …" into A->msg and the element's line into A->line;
 * fail() and error() differ only in what they return (a false assertion vs
 * a case that cannot be judged). */
static void vsay(actx *A, const xmlNode *n, const char *fmt, va_list ap)
{
    A->line = (int)xmlGetLineNo((xmlNodePtr)n);
    int k = snprintf(A->msg, A->size, "<%s> ", (const char *)n->name);
    if (k < 0) k = 0;
    if ((size_t)k >= A->size) k = (int)A->size - 1;
    vsnprintf(A->msg + k, A->size - (size_t)k, fmt, ap);
    arb_conform__utf8_cut(A->msg);
}

static int fail(actx *A, const xmlNode *n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int fail(actx *A, const xmlNode *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay(A, n, fmt, ap);
    va_end(ap);
    return A_FALSE;
}

static int error(actx *A, const xmlNode *n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int error(actx *A, const xmlNode *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay(A, n, fmt, ap);
    va_end(ap);
    return A_ERROR;
}

static int num(const char *s, int64_t *v)
{
    char *e;
    if (!*s) return -1;
    *v = strtoll(s, &e, 10);
    return *e ? -1 : 0;
}

static int a_state(actx *A, const xmlNode *n)
{
    run *R = A->R;
    char path[256], view[16], v[512], got[512];
    arb_conform__attr(n, "path", path, sizeof path);
    int seat = ARB_VIEW_ALL;
    if (arb_conform__attr(n, "view", view, sizeof view) && parse_seat(view, &seat))
        return error(A, n, "view '%s' is not a seat", view);
    if (seat == ARB_SEAT_NONE) seat = ARB_VIEW_ALL;
    if (seat >= 0 && seat >= arb_match_players(R->m)) return error(A, n, "view %d: no such seat", seat);
    const arb_tnode *root = export_root(R, seat < 0 ? ARB_VIEW_ALL : seat);
    if (!root) return error(A, n, "out of memory exporting the state");
    const arb_tnode *node = arb_tnode_path(root, path);
    if (arb_conform__attr(n, "exists", v, sizeof v)) {
        int want = strcmp(v, "true") == 0 || strcmp(v, "1") == 0;
        if (!!node != want)
            return fail(A, n, "%s: expected %s, got %s", path, want ? "present" : "absent",
                        node ? node_text(node, got, sizeof got) : "absent");
        if (!node) return A_TRUE;
    }
    if (!node) return fail(A, n, "%s: no such field in the %s state", path, seat < 0 ? "full" : "seat's");
    if (arb_conform__attr(n, "equals", v, sizeof v) && !value_equals(node, v))
        return fail(A, n, "%s: expected %s, got %s", path, v, node_text(node, got, sizeof got));
    int64_t want = 0, have;
    int isnum = node->kind == ARB_T_INT || node->kind == ARB_T_BOOL;
    if (arb_conform__attr(n, "at-least", v, sizeof v)) {
        num(v, &want);
        if (!isnum) return fail(A, n, "%s: expected a number >= %s, got %s", path, v, node_text(node, got, sizeof got));
        if (node->i < want) return fail(A, n, "%s: expected >= %s, got %lld", path, v, (long long)node->i);
    }
    if (arb_conform__attr(n, "at-most", v, sizeof v)) {
        num(v, &want);
        if (!isnum) return fail(A, n, "%s: expected a number <= %s, got %s", path, v, node_text(node, got, sizeof got));
        if (node->i > want) return fail(A, n, "%s: expected <= %s, got %lld", path, v, (long long)node->i);
    }
    if (arb_conform__attr(n, "count", v, sizeof v)) {
        num(v, &want);
        if (node->kind != ARB_T_ARR && node->kind != ARB_T_MAP)
            return fail(A, n, "%s: expected a list of %s, got %s", path, v, node_text(node, got, sizeof got));
        if ((int64_t)node->n != want)
            return fail(A, n, "%s: expected %s entries, got %u: %s", path, v, node->n, node_text(node, got, sizeof got));
    }
    if (arb_conform__attr(n, "contains", v, sizeof v) && !contains(node, v))
        return fail(A, n, "%s: expected to contain %s, got %s", path, v, node_text(node, got, sizeof got));
    int unch = arb_conform__attr(n, "unchanged", v, sizeof v) && (strcmp(v, "true") == 0 || strcmp(v, "1") == 0);
    char dv[32];
    int hasdelta = arb_conform__attr(n, "delta", dv, sizeof dv);
    if (unch || hasdelta) {
        const arb_tnode *old = R->t0 ? arb_tnode_path(arb_tree_root(R->t0), path) : NULL;
        if (!old) return fail(A, n, "%s: absent from the state at the start of the case", path);
        char was[512];
        if (unch && !arb_tnode_equal(old, node))
            return fail(A, n, "%s: expected unchanged %s, got %s", path, node_text(old, was, sizeof was),
                        node_text(node, got, sizeof got));
        if (hasdelta) {
            num(dv, &want);
            if (old->kind != ARB_T_INT || node->kind != ARB_T_INT)
                return fail(A, n, "%s: delta needs an integer field, got %s", path, node_text(node, got, sizeof got));
            have = node->i - old->i;
            if (have != want)
                return fail(A, n, "%s: expected a change of %+lld (from %lld), got %+lld (now %lld)", path,
                            (long long)want, (long long)old->i, (long long)have, (long long)node->i);
        }
    }
    return A_TRUE;
}

static int a_decision(actx *A, const xmlNode *n)
{
    run *R = A->R;
    const arb_game *g = R->g;
    arb_decision d = arb_match_decision(R->m);
    const char *kname = arb_name_at(g->decision_names, g->ndecision_names, d.kind, "?");
    char v[64], b1[16];
    if (arb_conform__attr(n, "seat", v, sizeof v)) {
        int seat;
        if (parse_seat(v, &seat)) return error(A, n, "seat '%s' is not a seat", v);
        if (seat != d.seat)
            return fail(A, n, "expected seat %s to owe a decision, got seat %s (%s)", v,
                        seat_text(d.seat, b1, sizeof b1), kname);
    }
    if (arb_conform__attr(n, "kind", v, sizeof v) && strcmp(v, kname) != 0)
        return fail(A, n, "expected a '%s' decision, got '%s' owed by seat %s", v, kname,
                    seat_text(d.seat, b1, sizeof b1));
    return A_TRUE;
}

typedef struct evpat {
    int type;
    int has_seat, has_a, has_b, has_c, has_hidden;
    int64_t seat, a, b, c, hidden;
} evpat;

static int ev_pattern(actx *A, const xmlNode *n, evpat *p)
{
    char v[64];
    memset(p, 0, sizeof *p);
    arb_conform__attr(n, "name", v, sizeof v);
    p->type = arb_game_event_find(A->R->g, v);
    if (p->type < 0) return error(A, n, "the %s engine has no event named '%s'", A->R->g->id, v);
    if ((p->has_seat = arb_conform__attr(n, "seat", v, sizeof v))) num(v, &p->seat);
    if ((p->has_a = arb_conform__attr(n, "a", v, sizeof v))) num(v, &p->a);
    if ((p->has_b = arb_conform__attr(n, "b", v, sizeof v))) num(v, &p->b);
    if ((p->has_c = arb_conform__attr(n, "c", v, sizeof v))) num(v, &p->c);
    if ((p->has_hidden = arb_conform__attr(n, "hidden", v, sizeof v)))
        p->hidden = strcmp(v, "true") == 0 || strcmp(v, "1") == 0;
    return A_TRUE;
}

static int ev_match(const evpat *p, const arb_event *e)
{
    return e->type == p->type && (!p->has_seat || e->seat == p->seat) && (!p->has_a || e->a == p->a) &&
           (!p->has_b || e->b == p->b) && (!p->has_c || e->c == p->c) &&
           (!p->has_hidden || e->hidden == p->hidden);
}

/* "name(seat a b c), …" of the window, shortened, for messages. */
static void window_text(const run *R, const evbuf *w, char *buf, size_t size)
{
    size_t k = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < w->n && k + 40 < size; i++) {
        const arb_event *e = &w->e[i];
        int m = snprintf(buf + k, size - k, "%s%s(%d %d %d %d)", i ? ", " : "", event_name(R->g, e->type),
                         e->seat, e->a, e->b, e->c);
        if (m < 0) break;
        k += (size_t)m;
    }
    if (k + 40 >= size && size > 4) snprintf(buf + size - 5, 5, "...");
    if (!w->n) snprintf(buf, size, "no events");
}

static int a_event(actx *A, const xmlNode *n)
{
    evpat p;
    int rc = ev_pattern(A, n, &p);
    if (rc != A_TRUE) return rc;
    for (unsigned i = 0; i < A->win->n; i++)
        if (ev_match(&p, &A->win->e[i])) return A_TRUE;
    char buf[400];
    window_text(A->R, A->win, buf, sizeof buf);
    char nm[64];
    arb_conform__attr(n, "name", nm, sizeof nm);
    return fail(A, n, "expected an event '%s' (as given), got: %s", nm, buf);
}

static int a_events(actx *A, const xmlNode *n)
{
    char v[16];
    int exact = arb_conform__attr(n, "exact", v, sizeof v) && (strcmp(v, "true") == 0 || strcmp(v, "1") == 0);
    unsigned at = 0, want = 0;
    for (const xmlNode *k = n->children; k; k = k->next) {
        if (!arb_conform__is(k, "event")) continue;
        evpat p;
        int rc = ev_pattern(A, k, &p);
        if (rc != A_TRUE) return rc;
        want++;
        int found = 0;
        if (exact) {
            found = at < A->win->n && ev_match(&p, &A->win->e[at]);
            if (found) at++;
        } else {
            while (at < A->win->n && !found) found = ev_match(&p, &A->win->e[at++]);
        }
        if (!found) {
            char buf[400], nm[64];
            window_text(A->R, A->win, buf, sizeof buf);
            arb_conform__attr(k, "name", nm, sizeof nm);
            return fail(A, n, "expected event #%u '%s' (line %ld) %s, got: %s", want, nm, xmlGetLineNo((xmlNodePtr)k),
                        exact ? "at that position" : "after the previous ones, in order", buf);
        }
    }
    if (exact && at != A->win->n) {
        char buf[400];
        window_text(A->R, A->win, buf, sizeof buf);
        return fail(A, n, "expected exactly %u events, got %u: %s", want, A->win->n, buf);
    }
    return A_TRUE;
}

static int a_outcome(actx *A, const xmlNode *n)
{
    run *R = A->R;
    arb_outcome o;
    memset(&o, 0, sizeof o);
    arb_match_outcome(R->m, &o);
    const char *reason = o.over ? arb_name_at(R->g->outcome_reasons, R->g->noutcome_reasons, o.reason, "none") : "none";
    char v[64], got[160];
    if (o.over) snprintf(got, sizeof got, "over, %s%d, reason %s, %u turn%s", o.winner < 0 ? "draw " : "winner ",
                         o.winner, reason, o.turns, o.turns == 1 ? "" : "s");
    else snprintf(got, sizeof got, "not over (turn %u)", arb_match_turn(R->m));
    if (arb_conform__attr(n, "over", v, sizeof v)) {
        int want = strcmp(v, "true") == 0 || strcmp(v, "1") == 0;
        if (!!o.over != want) return fail(A, n, "expected the match %s, got %s", want ? "over" : "not over", got);
    }
    int any = 0;
    if (arb_conform__attr(n, "winner", v, sizeof v)) {
        any = 1;
        if (!o.over || o.winner != atoi(v)) return fail(A, n, "expected winner %s, got %s", v, got);
    }
    if (arb_conform__attr(n, "draw", v, sizeof v)) {
        any = 1;
        int want = strcmp(v, "true") == 0 || strcmp(v, "1") == 0;
        if (!o.over || (o.winner < 0) != want) return fail(A, n, "expected %s, got %s", want ? "a draw" : "no draw", got);
    }
    if (arb_conform__attr(n, "reason", v, sizeof v)) {
        any = 1;
        if (!o.over || !arb_reason_same(v, reason)) return fail(A, n, "expected reason %s, got %s", v, got);
    }
    if (arb_conform__attr(n, "turns", v, sizeof v)) {
        any = 1;
        if (!o.over || o.turns != (uint32_t)atoi(v)) return fail(A, n, "expected %s turns, got %s", v, got);
    }
    (void)any;
    return A_TRUE;
}

static int a_legal(actx *A, const xmlNode *n)
{
    run *R = A->R;
    char text[256], v[16];
    arb_conform__attr(n, "do", text, sizeof text);
    int present = !arb_conform__attr(n, "present", v, sizeof v) || strcmp(v, "true") == 0 || strcmp(v, "1") == 0;
    arb_action a;
    arb_error err = ARB_ERROR_INIT;
    if (arb_action_parse(R->g, text, &a, &err)) return error(A, n, "'%s': %s", text, err.msg);
    size_t cap = 256;
    arb_action *buf = NULL;
    size_t total = 0;
    for (;;) {
        arb_action *p = realloc(buf, cap * sizeof *p);
        if (!p) { free(buf); return error(A, n, "out of memory listing legal actions"); }
        buf = p;
        total = arb_match_legal(R->m, buf, cap);
        if (total <= cap || cap >= LEGAL_MAX) break;
        cap = total < LEGAL_MAX ? total : LEGAL_MAX;
    }
    if (total > cap) total = cap;
    int found = 0;
    for (size_t i = 0; i < total && !found; i++) {
        const arb_action *l = &buf[i];
        found = l->seat == a.seat && l->verb == a.verb && l->nargs == a.nargs &&
                memcmp(l->args, a.args, a.nargs * sizeof a.args[0]) == 0;
    }
    free(buf);
    if (found != present)
        return fail(A, n, "expected '%s' %s the legal actions (%zu listed)", text, present ? "among" : "not among", total);
    return A_TRUE;
}

static int eval(actx *A, const xmlNode *n);

static int eval_all(actx *A, const xmlNode *parent)
{
    for (const xmlNode *k = parent->children; k; k = k->next) {
        if (k->type != XML_ELEMENT_NODE) continue;
        int rc = eval(A, k);
        if (rc != A_TRUE) return rc;
    }
    return A_TRUE;
}

static int eval(actx *A, const xmlNode *n)
{
    const char *nm = (const char *)n->name;
    if (!strcmp(nm, "state")) return a_state(A, n);
    if (!strcmp(nm, "decision")) return a_decision(A, n);
    if (!strcmp(nm, "event")) return a_event(A, n);
    if (!strcmp(nm, "events")) return a_events(A, n);
    if (!strcmp(nm, "outcome")) return a_outcome(A, n);
    if (!strcmp(nm, "legal")) return a_legal(A, n);
    if (!strcmp(nm, "phase")) {
        char v[64];
        arb_conform__attr(n, "is", v, sizeof v);
        const char *ph = arb_match_phase(A->R->m);
        return ph && strcmp(ph, v) == 0 ? A_TRUE : fail(A, n, "expected phase %s, got %s", v, ph ? ph : "(none)");
    }
    if (!strcmp(nm, "hash")) {   /* the state hash is part of the replay format: pin it */
        char v[32];
        arb_conform__attr(n, "equals", v, sizeof v);
        uint64_t want = strtoull(v, NULL, 16), got = arb_match_hash(A->R->m);
        return got == want ? A_TRUE : fail(A, n, "expected state hash %s, got 0x%016llx", v, (unsigned long long)got);
    }
    if (!strcmp(nm, "turn")) {
        char v[32];
        arb_conform__attr(n, "is", v, sizeof v);
        uint32_t t = arb_match_turn(A->R->m);
        return t == (uint32_t)strtoul(v, NULL, 10) ? A_TRUE : fail(A, n, "expected turn %s, got %u", v, t);
    }
    if (!strcmp(nm, "all-of")) return eval_all(A, n);
    if (!strcmp(nm, "any-of")) {
        char first[ARB_CF_MSG_MAX] = "";
        int fl = 0;
        for (const xmlNode *k = n->children; k; k = k->next) {
            if (k->type != XML_ELEMENT_NODE) continue;
            int rc = eval(A, k);
            if (rc != A_FALSE) return rc;
            if (!first[0]) { snprintf(first, sizeof first, "%s", A->msg); fl = A->line; }
        }
        return fail(A, n, "none holds; first (line %d): %s", fl, first);
    }
    if (!strcmp(nm, "not")) {
        int rc = eval_all(A, n);
        if (rc == A_ERROR) return rc;
        return rc == A_TRUE ? fail(A, n, "expected this to be false, but every assertion in it holds") : A_TRUE;
    }
    return error(A, n, "unknown assertion");
}

/* Evaluate the assertion children of parent against a window; sets the
 * case status on the first failure. */
static void assert_block(run *R, const xmlNode *parent, const evbuf *win)
{
    char msg[ARB_CF_MSG_MAX];
    actx A = { R, win, msg, sizeof msg, 0 };
    msg[0] = '\0';
    int rc = eval_all(&A, parent);
    if (rc != A_TRUE && !R->done) R->r->at_line = A.line;
    if (rc == A_FALSE) set_status(R, ARB_CF_FAIL, NULL, "%s", msg);
    else if (rc == A_ERROR) set_status(R, ARB_CF_ERROR, NULL, "%s", msg);
}

/* ------------------------------------------------------------ setup */

static const xmlNode *child(const xmlNode *n, const char *name)
{
    for (const xmlNode *k = n ? n->children : NULL; k; k = k->next)
        if (arb_conform__is(k, name)) return k;
    return NULL;
}

static const xmlNode *environment(const xmlNode *casenode, const char *name)
{
    for (const xmlNode *k = casenode->parent->children; k; k = k->next) {
        char v[128];
        if (arb_conform__is(k, "environment") && arb_conform__attr(k, "name", v, sizeof v) && strcmp(v, name) == 0)
            return k;
    }
    return NULL;
}

static int load_deck(run *R, const xmlNode *d, arb_deck *out, arb_error *err)
{
    char preset[128];
    if (arb_conform__attr(d, "preset", preset, sizeof preset)) {
        const arb_deck *p = arb_deck_preset(R->g, preset);
        if (!p) {
            arb_error_where(err, "%s:%ld", R->path, xmlGetLineNo((xmlNodePtr)d));
            return arb_error_set(err, ARB_ENOTFOUND, NULL, "the %s engine has no preset deck '%s'", R->g->id, preset);
        }
        *out = *p;
        return ARB_OK;
    }
    char *text = arb_conform__text(d);
    if (!text) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
    char fname[512];
    snprintf(fname, sizeof fname, "%s:<deck line %ld>", R->path, xmlGetLineNo((xmlNodePtr)d));
    int rc = arb_deck_parse(out, R->g, text, strlen(text), fname, err);
    free(text);
    return rc;
}

/* Setup from an environment (if named) overlaid by the case's own <setup>. */
static int build_setup(run *R, const xmlNode *setup, arb_error *err)
{
    const xmlNode *layers[2] = { NULL, setup };
    char v[128];
    if (arb_conform__attr(setup, "environment", v, sizeof v)) {
        layers[0] = environment(R->c->node, v);
        if (!layers[0]) {
            arb_error_where(err, "%s:%ld", R->path, xmlGetLineNo((xmlNodePtr)setup));
            return arb_error_set(err, ARB_ENOTFOUND, NULL, "no environment named '%s' in this test set", v);
        }
    }
    memset(&R->su, 0, sizeof R->su);
    R->su.seed = 1;
    R->su.players = 2;
    const xmlNode *decks = NULL, *pos = NULL;
    for (int l = 0; l < 2; l++) {
        const xmlNode *L = layers[l];
        if (!L) continue;
        if (arb_conform__attr(L, "seed", v, sizeof v)) R->su.seed = strtoull(v, NULL, 10);
        if (arb_conform__attr(L, "players", v, sizeof v)) R->su.players = atoi(v);
        char rv[sizeof R->rules];
        if (arb_conform__attr(L, "rules", rv, sizeof rv)) {
            memcpy(R->rules, rv, sizeof rv);
            R->su.rules = R->rules;
        }
        for (const xmlNode *k = L->children; k; k = k->next) {
            if (arb_conform__is(k, "option")) {
                char key[32], val[32];
                arb_conform__attr(k, "key", key, sizeof key);
                arb_conform__attr(k, "value", val, sizeof val);
                arb_options_set(&R->su.options, key, strtoll(val, NULL, 10));
            }
        }
        if (child(L, "deck")) { decks = L; pos = NULL; }
        if (child(L, "position")) { pos = child(L, "position"); decks = NULL; }
    }
    R->r->seed = R->su.seed;
    if (R->su.players < 1 || R->su.players > ARB_MAX_SEATS) {
        arb_error_where(err, "%s", R->path);
        return arb_error_set(err, ARB_EINVAL, NULL, "players=\"%d\": a match has 1..%d seats", R->su.players,
                             ARB_MAX_SEATS);
    }
    if (pos) {
        R->pos = arb_tree_new();
        if (!R->pos) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
        int rc = arb_conform__position(R->pos, arb_tree_root(R->pos), pos, err);
        if (rc) {
            char where[ARB_WHERE_MAX];
            snprintf(where, sizeof where, "%s", err->where);
            arb_error_where(err, "%s: %s", R->path, where);
            return rc;
        }
        R->posroot = arb_tree_root(R->pos);
        return ARB_OK;
    }
    int n = 0;
    if (decks) {
        for (const xmlNode *k = decks->children; k; k = k->next) {
            if (!arb_conform__is(k, "deck")) continue;
            int seat = n;
            if (arb_conform__attr(k, "seat", v, sizeof v)) seat = atoi(v);
            if (seat < 0 || seat >= ARB_MAX_SEATS) {
                arb_error_where(err, "%s:%ld", R->path, xmlGetLineNo((xmlNodePtr)k));
                return arb_error_set(err, ARB_EINVAL, NULL, "deck seat %d out of range", seat);
            }
            int rc = load_deck(R, k, &R->decks[seat], err);
            if (rc) return rc;
            if (seat + 1 > n) n = seat + 1;
        }
    }
    /* Seats without a deck: the last given deck, or the engine's presets. */
    for (int i = 0; i < ARB_MAX_SEATS; i++) {
        if (i < n) { R->su.decks[i] = &R->decks[i]; continue; }
        if (n) R->decks[i] = R->decks[n - 1];
        else if (R->g->npresets) R->decks[i] = *R->g->preset(R->g, (unsigned)i % R->g->npresets);
        R->su.decks[i] = &R->decks[i];
    }
    return ARB_OK;
}

static int new_match(run *R, arb_match **m, arb_error *err)
{
    if (R->posroot) return arb_match_from_position(m, R->g, R->posroot, &R->su, err);
    return arb_match_new(m, R->g, &R->su, err);
}

/* ------------------------------------------------------------ reference */

/* opt.reference (reference.c): the built-in engine plays the case too and
 * must agree with the engine. Each returns 0, or -1 with the status set. */
static int ref_same(run *R, const xmlNode *at, const char *when, int events)
{
    char msg[ARB_CF_MSG_MAX - 160];
    if (!arb_conform__ref_compare(R->m, R->ref, events, msg, sizeof msg)) return 0;
    set_status(R, ARB_CF_FAIL, at, "the engine and the built-in %s engine differ %s: %s", R->s->opt.reference->id, when,
               msg);
    return -1;
}

static int ref_promises(run *R, const xmlNode *at, const char *when)
{
    const arb_conform_options *o = &R->s->opt;
    if (!R->ref || !o->promises) return 0;
    char why[ARB_CF_MSG_MAX - 64];
    why[0] = '\0';
    int rc = o->promises(o->promises_ctx, R->m, R->ref, why, sizeof why);
    if (!rc) return 0;
    set_status(R, rc == 1 ? ARB_CF_FAIL : ARB_CF_ERROR, at, "%s: %s", when, why);
    return -1;
}

static int ref_start(run *R, const xmlNode *at)
{
    const arb_game *rg = R->s->opt.reference;
    if (!rg) return 0;
    arb_error err = ARB_ERROR_INIT;
    char eb[ARB_MSG_MAX + ARB_RULE_MAX + ARB_WHERE_MAX + 8];
    int rc = R->posroot ? arb_match_from_position(&R->ref, rg, R->posroot, &R->su, &err)
                        : arb_match_new(&R->ref, rg, &R->su, &err);
    if (rc) {
        set_status(R, ARB_CF_FAIL, at, "the engine accepted the setup, the built-in %s engine refuses it: %s", rg->id,
                   errtext(&err, eb, sizeof eb));
        return -1;
    }
    if (ref_same(R, at, "after the setup", 1)) return -1;
    return ref_promises(R, at, "after the setup");
}

static int ref_act(run *R, const xmlNode *n, const arb_action *a, const char *text)
{
    const arb_game *rg = R->s->opt.reference;
    arb_action ra;
    arb_error err = ARB_ERROR_INIT;
    char eb[ARB_MSG_MAX + ARB_RULE_MAX + ARB_WHERE_MAX + 8], when[320];
    if (arb_conform__ref_action(R->g, rg, a, &ra)) arb_error_set(&err, ARB_EINVAL, NULL, "it has no such verb");
    if (err.code || arb_match_apply(R->ref, &ra, &err)) {
        set_status(R, ARB_CF_FAIL, n, "the engine accepted '%s', the built-in %s engine refuses it: %s", text, rg->id,
                   errtext(&err, eb, sizeof eb));
        return -1;
    }
    snprintf(when, sizeof when, "after '%s' (step %u)", text, R->r->actions);
    return ref_same(R, n, when, 1);
}

/* The engine refused a with rc and e: so must the reference, alike. */
static int ref_reject(run *R, const xmlNode *n, const arb_action *a, const char *text, int rc, const arb_error *e)
{
    const arb_game *rg = R->s->opt.reference;
    arb_action ra;
    arb_error err = ARB_ERROR_INIT;
    char when[320];
    int rrc = arb_conform__ref_action(R->g, rg, a, &ra) ? ARB_EINVAL : arb_match_apply(R->ref, &ra, &err);
    if (rrc == ARB_OK) {
        set_status(R, ARB_CF_FAIL, n, "the engine refused '%s' (%s), the built-in %s engine accepts it", text,
                   e->rule[0] ? e->rule : arb_strerror(rc), rg->id);
        return -1;
    }
    if (rrc != rc || strcmp(err.rule, e->rule)) {
        set_status(R, ARB_CF_WRONG_RULE, n, "the engine refused '%s' as %s by %s, the built-in %s engine as %s by %s", text,
                   arb_strerror(rc), e->rule[0] ? e->rule : "(no rule ID)", rg->id, arb_strerror(rrc),
                   err.rule[0] ? err.rule : "(no rule ID)");
        return -1;
    }
    snprintf(when, sizeof when, "after refusing '%s' (step %u)", text, R->r->actions);
    return ref_same(R, n, when, 0);
}

/* ------------------------------------------------------------ script */

/* The script as tried (arb_conform_log.script): out of memory only drops
 * it, a case's verdict never depends on it. */
static void script_push(run *R, const arb_action *a, int refused)
{
    if (R->nscript == R->capscript) {
        size_t nc = R->capscript ? R->capscript * 2 : 64;
        arb_action *p = realloc(R->script, nc * sizeof *p);
        if (p) R->script = p;
        unsigned char *q = p ? realloc(R->refused, nc) : NULL;
        if (q) R->refused = q;
        if (!p || !q) return;
        R->capscript = nc;
    }
    R->script[R->nscript] = *a;
    R->refused[R->nscript++] = (unsigned char)(refused != 0);
}

static int log_push(run *R, const arb_action *a)
{
    script_push(R, a, 0);
    if (R->nlog >= CF_ACTIONS_MAX) return -1;
    if (R->nlog == R->caplog) {
        size_t nc = R->caplog ? R->caplog * 2 : 64;
        arb_action *p = realloc(R->log, nc * sizeof *p);
        if (!p) return -1;
        R->log = p;
        R->caplog = nc;
    }
    R->log[R->nlog++] = *a;
    return 0;
}

static void take_events(run *R, evbuf *b)
{
    unsigned n;
    const arb_event *e = arb_match_events(R->m, &n);
    if (n && ev_push(b, e, n)) set_status(R, ARB_CF_ERROR, NULL, "more than %u events in one window", EV_WINDOW_MAX);
}

static int parse_action(run *R, const xmlNode *n, arb_action *a, char *text, size_t size)
{
    arb_error err = ARB_ERROR_INIT;
    if (arb_conform__action(R->g, n, text, size, a, &err)) {
        set_status(R, ARB_CF_ERROR, n, "'%s': %s", text, err.msg);
        return -1;
    }
    return 0;
}

/* The contract: legal() lists every player action apply() accepts. An
 * engine whose list misses an action a case plays fails here (arbiter
 * actions are outside legal() by definition). Returns 1 when listed. */
static int listed_legal(run *R, const arb_action *a)
{
    if (a->seat == ARB_SEAT_ARBITER) return 1;
    arb_action first[64], *buf = first;
    size_t total = arb_match_legal(R->m, first, 64);
    if (total > LEGAL_MAX) return 1;
    if (total > 64) {
        if (!(buf = malloc(total * sizeof *buf))) return 1;
        total = arb_match_legal(R->m, buf, total);
    }
    int found = 0;
    for (size_t i = 0; i < total && !found; i++)
        found = buf[i].seat == a->seat && buf[i].verb == a->verb && buf[i].nargs == a->nargs &&
                memcmp(buf[i].args, a->args, a->nargs * sizeof a->args[0]) == 0;
    if (buf != first) free(buf);
    return found;
}

static void do_act(run *R, const xmlNode *n)
{
    char text[256], v[32], eb[ARB_MSG_MAX + ARB_RULE_MAX + ARB_WHERE_MAX + 8];
    arb_action a;
    if (parse_action(R, n, &a, text, sizeof text)) return;
    long repeat = arb_conform__attr(n, "repeat", v, sizeof v) ? atol(v) : 1;
    if (repeat < 1 || repeat > CF_ACTIONS_MAX) {
        set_status(R, ARB_CF_ERROR, n, "repeat=\"%s\" is outside 1..%d", v, CF_ACTIONS_MAX);
        return;
    }
    R->actwin.n = 0;
    for (long i = 0; i < repeat && !R->done; i++) {
        arb_error err = ARB_ERROR_INIT;
        int listed = listed_legal(R, &a);
        int rc = arb_match_apply(R->m, &a, &err);
        if (rc == ARB_EOVER) {
            set_status(R, ARB_CF_FAIL, n, "scripted action '%s' not used: the match is already over", text);
            return;
        }
        if (rc) {
            set_status(R, ARB_CF_FAIL, n, "expected '%s'%s to be accepted, got rejected: %s", text,
                       repeat > 1 ? " (repeat)" : "", errtext(&err, eb, sizeof eb));
            return;
        }
        invalidate(R);
        R->r->actions++;
        if (log_push(R, &a)) { set_status(R, ARB_CF_ERROR, n, "too many actions in one case"); return; }
        if (!listed) {
            set_status(R, ARB_CF_FAIL, n, "'%s' was accepted but legal() did not list it (the contract: "
                       "legal() lists every action apply() accepts)", text);
            return;
        }
        if (R->s->opt.invariants && arb_conform__inv_step(&R->inv, R->s, R->g, R->m, &R->su)) {
            set_status(R, ARB_CF_FAIL, n, "%s (step %u: after '%s'%s)", R->inv.msg, R->r->actions, text,
                       repeat > 1 ? ", repeated" : "");
            return;
        }
        if (R->ref && ref_act(R, n, &a, text)) return;
        take_events(R, &R->actwin);
    }
    if (R->done) return;
    assert_block(R, n, &R->actwin);
    if (ev_push(&R->checkwin, R->actwin.e, R->actwin.n))
        set_status(R, ARB_CF_ERROR, n, "more than %u events in one window", EV_WINDOW_MAX);
}

static void do_reject(run *R, const xmlNode *n)
{
    char text[256], rule[ARB_RULE_MAX], code[16], eb[ARB_MSG_MAX + ARB_RULE_MAX + ARB_WHERE_MAX + 8];
    arb_action a;
    if (parse_action(R, n, &a, text, sizeof text)) return;
    int want_rule = arb_conform__attr(n, "rule", rule, sizeof rule);
    int want_code = arb_conform__attr(n, "code", code, sizeof code);
    if (R->s->opt.invariants && arb_conform__inv_reject(&R->inv, R->g, R->m, &a)) {
        set_status(R, ARB_CF_FAIL, n, "%s (step %u)", R->inv.msg, R->r->actions);
        return;
    }
    uint64_t before = arb_match_hash(R->m);
    arb_error err = ARB_ERROR_INIT;
    int rc = arb_match_apply(R->m, &a, &err);
    if (rc) script_push(R, &a, 1);
    if (rc == ARB_OK) {
        /* The engine took it: keep it in the log, so a saved replay shows a
         * judge the action that should have been refused. */
        invalidate(R);
        R->r->actions++;
        log_push(R, &a);
        set_status(R, ARB_CF_FAIL, n, "expected '%s' to be rejected%s%s, got accepted", text,
                   want_rule ? " by " : "", want_rule ? rule : "");
        return;
    }
    if (arb_match_hash(R->m) != before) {
        set_status(R, ARB_CF_FAIL, n, "invariant reject-unchanged: rejecting '%s' changed the state (hash %016llx -> %016llx) (step %u)",
                   text, (unsigned long long)before, (unsigned long long)arb_match_hash(R->m), R->r->actions);
        return;
    }
    int code_rc = !strcmp(code, "illegal") ? ARB_EILLEGAL : !strcmp(code, "invalid") ? ARB_EINVAL
                : !strcmp(code, "over") ? ARB_EOVER : 0;
    if (want_code && code_rc != rc) {
        set_status(R, ARB_CF_FAIL, n, "expected '%s' to be rejected as %s, got %s: %s", text, code,
                   arb_strerror(rc), errtext(&err, eb, sizeof eb));
        return;
    }
    if (want_rule && strcmp(rule, err.rule) != 0) {
        set_status(R, ARB_CF_WRONG_RULE, n, "expected '%s' to be rejected by %s, got %s: %s", text, rule,
                   err.rule[0] ? err.rule : "(no rule ID)", errtext(&err, eb, sizeof eb));
        return;
    }
    char says[256];
    if (arb_conform__attr(n, "says", says, sizeof says) && !strstr(err.msg, says))
        set_status(R, ARB_CF_FAIL, n, "expected the refusal of '%s' to say '%s', got: %s", text, says,
                   errtext(&err, eb, sizeof eb));
    if (!R->done && R->ref) ref_reject(R, n, &a, text, rc, &err);
}

/* The accepted actions, recorded as a .tcgr from the same seed or position
 * and verified by the replay verifier, must reproduce the final hash. */
static void replay_check(run *R)
{
    arb_conform_log lg = { .game = R->g, .setup = &R->su, .position = R->posroot, .nactions = R->nlog, .actions = R->log };
    char msg[ARB_CF_MSG_MAX];
    if (arb_conform__roundtrip(&lg, arb_match_hash(R->m), msg, sizeof msg))
        set_status(R, ARB_CF_FAIL, NULL, "%s", msg);
}

static void run_test_case(run *R)
{
    const xmlNode *cn = R->c->node;
    const xmlNode *setup = child(cn, "setup");
    arb_error err = ARB_ERROR_INIT;
    char eb[ARB_MSG_MAX + ARB_RULE_MAX + ARB_WHERE_MAX + 8];
    if (build_setup(R, setup, &err)) {
        set_status(R, ARB_CF_ERROR, setup, "setup: %s", errtext(&err, eb, sizeof eb));
        return;
    }
    const xmlNode *rej = child(cn, "setup-rejected");
    int rc = new_match(R, &R->m, &err);
    if (rej) {
        char rule[ARB_RULE_MAX], where[256], says[256];
        int want_rule = arb_conform__attr(rej, "rule", rule, sizeof rule);
        int want_where = arb_conform__attr(rej, "where", where, sizeof where);
        int want_says = arb_conform__attr(rej, "says", says, sizeof says);
        if (rc == ARB_OK) {
            set_status(R, ARB_CF_FAIL, rej, "expected the setup to be rejected%s%s, got accepted",
                       want_rule ? " by " : "", want_rule ? rule : "");
        } else if (rc == ARB_ENOMEM) {
            set_status(R, ARB_CF_ERROR, rej, "setup: %s", errtext(&err, eb, sizeof eb));
        } else if (want_where && !strstr(err.where, where)) {
            set_status(R, ARB_CF_FAIL, rej, "expected the setup to be rejected at '%s', got: %s", where,
                       errtext(&err, eb, sizeof eb));
        } else if (want_rule && strcmp(rule, err.rule) != 0) {
            set_status(R, ARB_CF_WRONG_RULE, rej, "expected the setup to be rejected by %s, got %s: %s", rule,
                       err.rule[0] ? err.rule : "(no rule ID)", errtext(&err, eb, sizeof eb));
        } else if (want_says && !strstr(err.msg, says)) {
            set_status(R, ARB_CF_FAIL, rej, "expected the setup's refusal to say '%s', got: %s", says,
                       errtext(&err, eb, sizeof eb));
        }
        return;
    }
    if (rc) {
        set_status(R, ARB_CF_ERROR, setup, "setup failed: %s", errtext(&err, eb, sizeof eb));
        return;
    }
    if (R->s->opt.invariants && arb_conform__inv_step(&R->inv, R->s, R->g, R->m, &R->su)) {
        set_status(R, ARB_CF_FAIL, setup, "%s (step 0: after the setup)", R->inv.msg);
        return;
    }
    take_events(R, &R->checkwin);
    R->t0 = arb_match_export(R->m, ARB_VIEW_ALL);
    if (!R->t0) { set_status(R, ARB_CF_ERROR, setup, "out of memory exporting the state"); return; }
    if (ref_start(R, setup)) return;
    for (const xmlNode *k = setup->next; k && !R->done; k = k->next) {
        if (arb_conform__is(k, "act")) {
            do_act(R, k);
        } else if (arb_conform__is(k, "reject")) {
            do_reject(R, k);
        } else if (arb_conform__is(k, "check")) {
            assert_block(R, k, &R->checkwin);
            R->checkwin.n = 0;
        }
    }
    if (!R->done) ref_promises(R, NULL, "at the case's end");
    if (!R->done && R->s->opt.replay_check) replay_check(R);
}

static void run_deck_case(run *R)
{
    const xmlNode *cn = R->c->node;
    const xmlNode *dn = child(cn, "deck");
    arb_error err = ARB_ERROR_INIT;
    char eb[ARB_MSG_MAX + ARB_RULE_MAX + ARB_WHERE_MAX + 8];
    if (load_deck(R, dn, &R->decks[0], &err)) {
        set_status(R, ARB_CF_ERROR, dn, "deck: %s", errtext(&err, eb, sizeof eb));
        return;
    }
    if (!R->g->deck_check) { set_status(R, ARB_CF_ERROR, dn, "the %s engine has no deck check", R->g->id); return; }
    arb_deck_issue is[64];
    unsigned total = R->g->deck_check(R->g, &R->decks[0], is, 64);
    unsigned n = total < 64 ? total : 64, nviol = 0, nwarn = 0;
    char viol[400] = "", warn[400] = "";
    for (unsigned i = 0; i < n; i++) {
        char *dst = is[i].warning ? warn : viol;
        size_t l = strlen(dst);
        snprintf(dst + l, 400 - l, "%s%s", l ? ", " : "", is[i].rule[0] ? is[i].rule : "(no rule ID)");
        if (is[i].warning) nwarn++;
        else nviol++;
    }
    const xmlNode *legal = child(cn, "legal");
    if (legal) {
        if (nviol) { set_status(R, ARB_CF_FAIL, legal, "expected a legal deck, got illegal: %s", viol); return; }
        char v[16];
        if (arb_conform__attr(legal, "starts", v, sizeof v) && (strcmp(v, "true") == 0 || strcmp(v, "1") == 0)) {
            memset(&R->su, 0, sizeof R->su);
            R->su.seed = 1;
            R->su.players = R->g->min_players;
            for (int i = 0; i < ARB_MAX_SEATS; i++) R->su.decks[i] = &R->decks[0];
            if (arb_match_new(&R->m, R->g, &R->su, &err)) {
                set_status(R, ARB_CF_FAIL, legal, "expected a match with this deck to start, got: %s",
                           errtext(&err, eb, sizeof eb));
                return;
            }
        }
    }
    for (const xmlNode *k = dn->next; k && !R->done; k = k->next) {
        char rule[ARB_RULE_MAX], says[256];
        int isill = arb_conform__is(k, "illegal"), iswarn = arb_conform__is(k, "warning");
        if (isill || iswarn) {
            arb_conform__attr(k, "rule", rule, sizeof rule);
            int want_says = arb_conform__attr(k, "says", says, sizeof says);
            int found = 0, said = 0;
            const char *other = "";
            for (unsigned i = 0; i < n; i++)
                if (!!is[i].warning == iswarn && strcmp(is[i].rule, rule) == 0) {
                    found = 1;
                    if (!want_says || strstr(is[i].msg, says)) said = 1;
                    else other = is[i].msg;
                }
            if (found && !said) {
                set_status(R, ARB_CF_FAIL, k, "expected %s %s to say '%s', got: %s", isill ? "illegal by" : "warning",
                           rule, says, other);
                continue;
            }
            if (found) continue;
            if (isill && !nviol) set_status(R, ARB_CF_FAIL, k, "expected illegal by %s, got a legal deck", rule);
            else if (isill) set_status(R, ARB_CF_WRONG_RULE, k, "expected illegal by %s, got illegal by %s", rule, viol);
            else set_status(R, ARB_CF_FAIL, k, "expected warning %s, got %s", rule, nwarn ? warn : "no warning");
        } else if (arb_conform__is(k, "no-warning") && nwarn) {
            set_status(R, ARB_CF_FAIL, k, "expected no warning, got %s", warn);
        }
    }
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void arb_conform__run_case(const arb_conform_suite *s, const cf_case *c, arb_conform_result *r,
                           int (*logcb)(void *ctx, const arb_conform_log *log), void *ctx)
{
    double t = now_ms();
    const cf_file *f = &s->files[c->file];
    memset(r, 0, sizeof *r);
    r->game = f->game;
    r->set = f->name;
    r->id = c->id;
    r->file = f->path;
    r->line = c->line;
    r->covers = c->covers;
    r->status = ARB_CF_PASS;
    run R;
    memset(&R, 0, sizeof R);
    R.s = s;
    R.c = c;
    R.path = f->path;
    R.r = r;
    R.g = arb_conform__game(s, f->game);
    const cf_expect *skip = arb_conform__expectations_skip(s, f->game, c->id);
    if (!R.g) {
        set_status(&R, ARB_CF_SKIP, NULL, "no engine for game '%s' in this build", f->game);
    } else if (skip) {
        set_status(&R, ARB_CF_SKIP, NULL, "skipped by expectations.xml:%d: %s", skip->line, skip->reason);
        r->listed = 1;
        r->reason = skip->reason;
    } else if (c->deck) {
        run_deck_case(&R);
    } else {
        run_test_case(&R);
        if (logcb && R.m) {
            arb_conform_log lg = { R.g, &R.su, R.posroot, R.nlog, R.log, c->id, f->name, f->path, c->line,
                                   r->status, R.nscript, R.script, R.refused };
            logcb(ctx, &lg);
        }
    }
    invalidate(&R);
    arb_tree_free(R.t0);
    arb_tree_free(R.pos);
    arb_match_free(R.m);
    arb_match_free(R.ref);
    free(R.checkwin.e);
    free(R.actwin.e);
    free(R.log);
    free(R.script);
    free(R.refused);
    arb_conform__inv_free(&R.inv);
    r->ms = now_ms() - t;
}
