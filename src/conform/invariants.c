/* invariants.c — what the runner checks at every step of every case, on
 * top of what the case asserts: the game contract itself (game.h), so a
 * case that never mentions legal() or a seat's view still proves them.
 *
 *   legal-unique      legal() lists no action twice
 *   legal-accepted    every listed action is accepted by apply() on a copy
 *   reject-listed     an action a case expects to be rejected is not listed
 *   reject-unchanged  a rejection leaves the state hash unchanged (runner.c)
 *   events-dropped    no step emits more events than the buffer holds
 *   view-hidden       a seat's view is the same when what it may not see
 *                     changes: the cards in the zone slots absent from its
 *                     view trade places and the PRNG differs (the position
 *                     is rebuilt through load_position), so the view names
 *                     nothing hidden from it
 *   narration-hidden  for every hidden event, what every other seat is told
 *                     names the same cards whatever the event's arguments
 *   outcome-open      outcome() agrees with its return value; while the
 *                     match goes on it names no winner (-1) and reason 0;
 *                     once over, the winner is a seat or -1 (a draw) and
 *                     the reason one of the game's (not "none"), and it
 *                     stays over
 *   decision-owed     while the match goes on someone owes the decision
 *                     (clock_left_ms >= -1); once over nobody does and no
 *                     clock runs (-1)
 *   game-over-event   the step that ends the match, and only it, emits one
 *                     public "game-over" event: seat winner, a reason,
 *                     b turns, c 0 (game.h)
 *   turn-grows        turn() is 1-based and never goes back
 *
 * Everything goes through the game contract (arb_match over a const
 * arb_game): a second driver (an external engine) needs a copy of a state
 * (legal-accepted) and a position loader (view-hidden), nothing else. The
 * first violation wins; its message names the invariant and the step. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conform/conform_int.h"
#include "arbiter/toolkit.h"

#define INV_LEGAL_MAX 65536
#define INV_UIDS_MAX 512

static int say(cf_inv *I, const char *name, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int say(cf_inv *I, const char *name, const char *fmt, ...)
{
    I->failed = name;
    int k = snprintf(I->msg, sizeof I->msg, "invariant %s: ", name);
    if (k < 0) k = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(I->msg + k, sizeof I->msg - (size_t)k, fmt, ap);
    va_end(ap);
    arb_conform__utf8_cut(I->msg);
    return -1;
}

void arb_conform__inv_free(cf_inv *I)
{
    free(I->legal);
    arb_match_free(I->copy);
    memset(I, 0, sizeof *I);
}

static int cmp_action(const void *pa, const void *pb)
{
    const arb_action *a = pa, *b = pb;
    if (a->seat != b->seat) return a->seat < b->seat ? -1 : 1;
    if (a->verb != b->verb) return a->verb < b->verb ? -1 : 1;
    if (a->nargs != b->nargs) return a->nargs < b->nargs ? -1 : 1;
    if (a->elapsed_ms != b->elapsed_ms) return a->elapsed_ms < b->elapsed_ms ? -1 : 1;
    for (unsigned i = 0; i < a->nargs; i++)
        if (a->args[i] != b->args[i]) return a->args[i] < b->args[i] ? -1 : 1;
    return 0;
}

/* legal() into I->legal (grown as needed); returns the count or -1. */
static long list_legal(cf_inv *I, const arb_match *m)
{
    for (;;) {
        size_t total = arb_match_legal(m, I->legal, I->caplegal);
        if (total <= I->caplegal) return (long)total;
        if (total > INV_LEGAL_MAX) { say(I, "legal-unique", "legal() lists %zu actions, more than %d", total, INV_LEGAL_MAX); return -1; }
        arb_action *p = realloc(I->legal, total * 2 * sizeof *p);
        if (!p) { say(I, "legal-unique", "out of memory listing legal actions"); return -1; }
        I->legal = p;
        I->caplegal = total * 2;
    }
}

static const char *action_text(const arb_game *g, const arb_action *a, char *buf, size_t size)
{
    if (arb_action_format(g, a, buf, size) < 0) snprintf(buf, size, "(unprintable action)");
    return buf;
}

/* ------------------------------------------------------------ legal() */

static int check_legal(cf_inv *I, const arb_game *g, const arb_match *m)
{
    long n = list_legal(I, m);
    if (n < 0) return -1;
    char b1[160], eb[ARB_MSG_MAX + ARB_RULE_MAX + ARB_WHERE_MAX + 8];
    if (n > 1) {
        arb_action *sorted = malloc((size_t)n * sizeof *sorted);
        if (!sorted) return say(I, "legal-unique", "out of memory");
        memcpy(sorted, I->legal, (size_t)n * sizeof *sorted);
        qsort(sorted, (size_t)n, sizeof *sorted, cmp_action);
        for (long i = 1; i < n; i++)
            if (arb_action_same(&sorted[i - 1], &sorted[i])) {
                action_text(g, &sorted[i], b1, sizeof b1);
                free(sorted);
                return say(I, "legal-unique", "legal() lists '%s' twice (%ld actions listed)", b1, n);
            }
        free(sorted);
    }
    if (!I->copy && arb_match_clone(&I->copy, m)) return say(I, "legal-accepted", "out of memory copying the state");
    for (long i = 0; i < n; i++) {
        arb_match_copy(I->copy, m);
        arb_error err = ARB_ERROR_INIT;
        int rc = arb_match_apply(I->copy, &I->legal[i], &err);
        if (rc) {
            arb_error_format(&err, eb, sizeof eb);
            return say(I, "legal-accepted", "legal() lists '%s' but apply() rejects it: %s",
                       action_text(g, &I->legal[i], b1, sizeof b1), eb);
        }
        if (arb_match_events_dropped(I->copy))
            return say(I, "events-dropped", "applying the listed '%s' drops %u events (buffer of %d)",
                       action_text(g, &I->legal[i], b1, sizeof b1), arb_match_events_dropped(I->copy),
                       ARB_MATCH_EVENTS);
    }
    return 0;
}

int arb_conform__inv_reject(cf_inv *I, const arb_game *g, const arb_match *m, const arb_action *a)
{
    I->failed = NULL;
    long n = list_legal(I, m);
    if (n < 0) return -1;
    char b1[160];
    for (long i = 0; i < n; i++)
        if (arb_action_same(&I->legal[i], a))
            return say(I, "reject-listed", "'%s' is expected to be rejected but legal() lists it",
                       action_text(g, a, b1, sizeof b1));
    return 0;
}

/* ------------------------------------------------------------ view */

typedef struct uidset {
    int64_t v[INV_UIDS_MAX];
    const char *card[INV_UIDS_MAX];  /* the slot's card id, for hidden uids */
    unsigned n;
} uidset;

static int uid_index(const uidset *u, int64_t v)
{
    for (unsigned i = 0; i < u->n; i++)
        if (u->v[i] == v) return (int)i;
    return -1;
}

/* The card identity field of a zone slot: "card" (most games) or "id". */
static arb_tnode *card_field(arb_tnode *map)
{
    for (arb_tnode *k = map->first; k; k = k->next)
        if (k->kind == ARB_T_STR && (!strcmp(k->key, "card") || !strcmp(k->key, "id"))) return k;
    return NULL;
}

static arb_tnode *uid_field(arb_tnode *map)
{
    for (arb_tnode *k = map->first; k; k = k->next)
        if (k->kind == ARB_T_INT && !strcmp(k->key, "uid")) return k;
    return NULL;
}

/* Every "uid" under n (a seat's view of one player). */
static void visible_uids(const arb_tnode *n, uidset *u)
{
    for (const arb_tnode *k = n->first; k; k = k->next) {
        if (k->kind == ARB_T_MAP || k->kind == ARB_T_ARR) visible_uids(k, u);
        else if (k->kind == ARB_T_INT && k->key && !strcmp(k->key, "uid") && u->n < INV_UIDS_MAX &&
                 uid_index(u, k->i) < 0)
            u->v[u->n++] = k->i;
    }
}

static void add_hidden(uidset *hid, arb_tnode *slot)
{
    arb_tnode *u = uid_field(slot), *c = card_field(slot);
    if (u && c && uid_index(hid, u->i) < 0 && hid->n < INV_UIDS_MAX) {
        hid->card[hid->n] = c->s;
        hid->v[hid->n++] = u->i;
    }
}

/* Slots (maps with uid + card) of the full tree's player whose uid the
 * view does not show. */
static void hidden_slots(arb_tnode *n, const uidset *vis, uidset *hid)
{
    for (arb_tnode *k = n->first; k; k = k->next) {
        if (k->kind == ARB_T_MAP) {
            arb_tnode *u = uid_field(k);
            if (u && uid_index(vis, u->i) < 0) add_hidden(hid, k);
        }
        if (k->kind == ARB_T_MAP || k->kind == ARB_T_ARR) hidden_slots(k, vis, hid);
    }
}

/* Slots under a zone views.xml declares hidden from this seat, whether or
 * not the view shows them (when it does, the view leaks). */
static void declared_slots(arb_tnode *zone, const char *when, uidset *hid)
{
    for (arb_tnode *k = zone->first; k; k = k->next) {
        if (k->kind != ARB_T_MAP) continue;
        if (when[0]) {
            const arb_tnode *w = arb_tnode_get(k, when);
            if (!w || w->kind != ARB_T_BOOL || !w->i) continue;
        }
        add_hidden(hid, k);
    }
}

/* Move every hidden card one hidden slot on: uid u becomes the next hidden
 * uid, with that uid's card. Returns how many slots changed card. */
static unsigned rotate(arb_tnode *n, const uidset *hid)
{
    unsigned changed = 0;
    for (arb_tnode *k = n->first; k; k = k->next) {
        if (k->kind == ARB_T_MAP) {
            arb_tnode *u = uid_field(k), *c = card_field(k);
            int i = u && c ? uid_index(hid, u->i) : -1;
            if (i >= 0) {
                unsigned j = ((unsigned)i + 1) % hid->n;
                changed += strcmp(c->s, hid->card[j]) != 0;
                u->i = hid->v[j];
                c->s = hid->card[j];
            }
        }
        if (k->kind == ARB_T_MAP || k->kind == ARB_T_ARR) changed += rotate(k, hid);
    }
    return changed;
}

/* A different PRNG state of the same shape (ints or hex strings); a new
 * string goes to buf, which must outlive the tree's use. */
static void perturb_rng(arb_tnode *root, char *buf, size_t size)
{
    for (arb_tnode *k = root->first; k; k = k->next) {
        if (!k->key || strcmp(k->key, "rng") != 0) continue;
        arb_tnode *v = k->kind == ARB_T_ARR ? k->first : k;
        if (!v) return;
        if (v->kind == ARB_T_INT) {
            v->i ^= 0x5A5A;
        } else if (v->kind == ARB_T_STR && v->s[0] && strlen(v->s) < size) {
            size_t l = strlen(v->s);
            memcpy(buf, v->s, l + 1);
            buf[l - 1] = buf[l - 1] == '5' ? 'a' : '5';
            v->s = buf;
        }
        return;
    }
}

typedef struct diffctx {
    char *buf;
    size_t size;
} diffctx;

static int first_diff(void *ctx, const char *path, const arb_tnode *a, const arb_tnode *b)
{
    diffctx *d = ctx;
    char x[96], y[96];
    snprintf(d->buf, d->size, "%s: %s vs %s", path, a ? arb_tnode_text(a, x, sizeof x) : "(absent)",
             b ? arb_tnode_text(b, y, sizeof y) : "(absent)");
    return 1;
}

static int check_view(cf_inv *I, const arb_conform_suite *s, const arb_game *g, const arb_match *m,
                      const arb_setup *su)
{
    if (!g->load_position) return 0;
    int players = arb_match_players(m);
    arb_tree *full = arb_match_export(m, ARB_VIEW_ALL);
    if (!full) return say(I, "view-hidden", "out of memory exporting the state");
    const arb_tnode *fp = arb_tnode_get(arb_tree_root(full), "players");
    int rc = 0;
    for (int v = 0; v < players && !rc; v++) {
        arb_tree *view = arb_match_export(m, v), *alt = arb_tree_new(), *view2 = NULL;
        arb_match *m2 = NULL;
        if (!view || !alt) { rc = say(I, "view-hidden", "out of memory"); goto next; }
        arb_tnode *aroot = arb_tree_root(alt);
        for (const arb_tnode *k = arb_tree_root(full)->first; k; k = k->next) arb_tree_add_copy(alt, aroot, k->key, k);
        const arb_tnode *vp = arb_tnode_get(arb_tree_root(view), "players");
        arb_tnode *ap = (arb_tnode *)arb_tnode_get(aroot, "players");
        unsigned changed = 0;
        if (fp && vp && ap && fp->kind == ARB_T_ARR) {
            const arb_tnode *vk = vp->first;
            int p = 0;
            for (arb_tnode *ak = ap->first; ak && vk; ak = ak->next, vk = vk->next, p++) {
                uidset vis, hid;
                vis.n = hid.n = 0;
                for (unsigned h = 0; h < s->nhidden; h++) {
                    const cf_hidden *d = &s->hidden[h];
                    if (strcmp(d->game, g->id) != 0 || (!d->from_all && p == v)) continue;
                    arb_tnode *zone = (arb_tnode *)arb_tnode_get(ak, d->zone);
                    if (zone && (zone->kind == ARB_T_ARR || zone->kind == ARB_T_MAP)) declared_slots(zone, d->when, &hid);
                }
                visible_uids(vk, &vis);
                hidden_slots(ak, &vis, &hid);
                if (hid.n >= 2) changed += rotate(ak, &hid);
            }
        }
        char rngbuf[128];
        perturb_rng(aroot, rngbuf, sizeof rngbuf);
        if (arb_tree_failed(alt)) { rc = say(I, "view-hidden", "out of memory"); goto next; }
        arb_error err = ARB_ERROR_INIT;
        if (arb_match_from_position(&m2, g, aroot, su, &err)) {
            /* The moved cards make a position the engine refuses (a card
             * where it cannot be): nothing to compare at this step. */
            I->view_skipped++;
            goto next;
        }
        I->view_checked++;
        view2 = arb_match_export(m2, v);
        if (!view2) { rc = say(I, "view-hidden", "out of memory"); goto next; }
        if (!arb_tnode_equal(arb_tree_root(view), arb_tree_root(view2))) {
            char where[300] = "";
            diffctx d = { where, sizeof where };
            arb_tree_diff(arb_tree_root(view), arb_tree_root(view2), first_diff, &d);
            rc = say(I, "view-hidden", "seat %d's view changes when only what is hidden from it changes "
                     "(%u hidden slots now hold another card, PRNG changed): %s", v, changed, where);
        }
    next:
        arb_tree_free(view);
        arb_tree_free(view2);
        arb_tree_free(alt);
        arb_match_free(m2);
    }
    arb_tree_free(full);
    return rc;
}

/* ------------------------------------------------------------ narration */

/* Whether a and b name the same cards of the pool. */
static int same_cards(const arb_game *g, const char *a, const char *b)
{
    for (unsigned i = 0; i < g->ncards; i++) {
        const arb_card *c = g->card(g, i);
        if (!c || !c->name || !c->name[0]) continue;
        if (!strstr(a, c->name) != !strstr(b, c->name)) return 0;
    }
    return 1;
}

static int check_narration(cf_inv *I, const arb_game *g, const arb_match *m, const arb_event *ev, unsigned n)
{
    if (!g->event_text || !g->ncards) return 0;
    int players = arb_match_players(m);
    for (unsigned i = 0; i < n; i++) {
        const arb_event *e = &ev[i];
        if (!e->hidden) continue;
        for (int v = 0; v < players; v++) {
            if (v == e->seat) continue;
            char base[256], alt[256];
            arb_game_event_text(g, e, v, base, sizeof base);
            for (int arg = 0; arg < 3; arg++) {
                for (int step = 1; step <= 2; step++) {
                    arb_event p = *e;
                    int32_t *x = arg == 0 ? &p.a : arg == 1 ? &p.b : &p.c;
                    int64_t nc = g->ncards;
                    int64_t cur = *x < 0 ? 0 : *x % nc;
                    *x = (int32_t)((cur + (step == 1 ? 1 : nc / 2 + 1)) % nc);
                    arb_game_event_text(g, &p, v, alt, sizeof alt);
                    if (strcmp(base, alt) != 0 && !same_cards(g, base, alt)) {
                        char own[256];
                        arb_game_event_text(g, e, e->seat, own, sizeof own);
                        const char *nm = arb_name_at(g->event_names, g->nevent_names, e->type, "?");
                        return say(I, "narration-hidden", "seat %d is told about seat %d's hidden '%s' event "
                                   "with a card that depends on its hidden arguments: \"%s\" (arg %c = %d: \"%s\"; "
                                   "its owner reads \"%s\")", v, e->seat, nm, base, "abc"[arg], (int)*x, alt, own);
                    }
                }
            }
        }
    }
    return 0;
}

/* ------------------------------------------------------------ progress */

/* outcome-open, decision-owed, turn-grows: the contract's outcome(),
 * decision() and turn() (game.h). */
static int check_progress(cf_inv *I, const arb_game *g, const arb_match *m, const arb_event *ev, unsigned ne)
{
    arb_outcome o;
    memset(&o, 0, sizeof o);
    o.winner = -1;
    int over = arb_match_outcome(m, &o);
    if (!over != !o.over)
        return say(I, "outcome-open", "outcome() returned %d but set over = %d", over, o.over);
    if (!o.over && (o.winner != -1 || o.reason != 0))
        return say(I, "outcome-open", "the match goes on, yet outcome() names winner %d and reason %u "
                   "(while it goes on: winner -1, reason 0)", o.winner, (unsigned)o.reason);
    /* a game whose reason 0 is "none" ends for one of the others */
    unsigned lo = g->noutcome_reasons && g->outcome_reasons[0] && !strcmp(g->outcome_reasons[0], "none");
    if (o.over && (o.winner < -1 || o.winner >= ARB_MAX_SEATS || o.reason < lo || o.reason >= g->noutcome_reasons))
        return say(I, "outcome-open", "the match is over with winner %d and reason %u (a seat or -1; a reason "
                   "%u..%u of the game's)", o.winner, (unsigned)o.reason, lo,
                   g->noutcome_reasons ? g->noutcome_reasons - 1 : 0);
    if (I->was_over && !o.over) return say(I, "outcome-open", "the match was over and goes on again");
    /* game-over-event: the step that ends the match, and only it, emits one
     * public "game-over" {seat winner, a reason, b turns, c 0} (game.h) */
    int go = arb_game_event_find(g, "game-over");
    unsigned ngo = 0;
    const arb_event *e = NULL;
    for (unsigned i = 0; go >= 0 && i < ne; i++)
        if (ev[i].type == (unsigned)go) ngo++, e = &ev[i];
    int ends = o.over && !I->was_over;
    /* a position loaded over, or settled over while loading, may say so */
    if (go >= 0 && (I->stepped ? ngo != (unsigned)ends : ngo > (unsigned)ends))
        return say(I, "game-over-event", ends ? "the step that ends the match emits %u 'game-over' events (one)"
                                              : "a step that does not end the match emits %u 'game-over' events",
                   ngo);
    if (e && (e->seat != o.winner || e->a != (int32_t)o.reason || e->b != (int32_t)o.turns || e->c != 0 || e->hidden))
        return say(I, "game-over-event", "'game-over' says seat %d, a %d, b %d, c %d%s; the outcome says winner %d, "
                   "reason %u, turns %u (the shape: seat winner, a reason, b turns, c 0, public)", e->seat, (int)e->a,
                   (int)e->b, (int)e->c, e->hidden ? ", hidden" : "", o.winner, (unsigned)o.reason, (unsigned)o.turns);
    arb_decision d = arb_match_decision(m);
    if (o.over && (d.seat != ARB_SEAT_NONE || d.clock_left_ms != -1))
        return say(I, "decision-owed", "the match is over, yet seat %d owes a decision with %lld ms left "
                   "(once over: nobody, -1)", d.seat, (long long)d.clock_left_ms);
    if (o.over && strcmp(arb_name_at(g->decision_names, g->ndecision_names, d.kind, "?"), "over") != 0)
        return say(I, "decision-owed", "the match is over, yet the decision kind is '%s' (once over: \"over\")",
                   arb_name_at(g->decision_names, g->ndecision_names, d.kind, "?"));
    if (!o.over && (d.seat == ARB_SEAT_NONE || d.clock_left_ms < -1))
        return say(I, "decision-owed", "the match goes on, yet the decision names seat %d with %lld ms left "
                   "(someone owes it; -1 without a clock)", d.seat, (long long)d.clock_left_ms);
    uint32_t t = arb_match_turn(m);
    if (t < 1) return say(I, "turn-grows", "turn() is 0 (turns count from 1)");
    if (I->stepped && t < I->turn) return say(I, "turn-grows", "turn() went back from %u to %u", I->turn, t);
    I->turn = t;
    I->stepped = 1;
    I->was_over = o.over != 0;
    return 0;
}

/* ------------------------------------------------------------ a step */

int arb_conform__inv_step(cf_inv *I, const arb_conform_suite *s, const arb_game *g, const arb_match *m,
                          const arb_setup *su)
{
    I->failed = NULL;
    unsigned ne;
    const arb_event *ev = arb_match_events(m, &ne);
    if (arb_match_events_dropped(m))
        return say(I, "events-dropped", "this step emitted %u events more than the buffer of %d holds",
                   arb_match_events_dropped(m), ARB_MATCH_EVENTS);
    if (check_narration(I, g, m, ev, ne)) return -1;
    if (check_progress(I, g, m, ev, ne)) return -1;
    if (check_legal(I, g, m)) return -1;
    if (check_view(I, s, g, m, su)) return -1;
    return 0;
}
