/* an_state.c — the state after record N, full or as one seat sees it.
 * It replays from the start once and stops at N (no action text, no state
 * copies), then exports the engine's state tree with the seat's view, so
 * the masking is the engine's own. The full view adds the legal actions. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/an_int.h"
#include "arbiter/toolkit.h"

typedef struct statectx {
    int64_t at;
    int64_t reached;        /* index of the last step seen, -1 setup */
    uint64_t clock_ms;
    int rejected;
    arb_error reject;
} statectx;

static int on_step(void *ctx, const arb_an_step *st)
{
    statectx *c = ctx;
    c->reached = st->rec ? (int64_t)st->rec->index : -1;
    c->clock_ms = st->clock_ms;
    c->rejected = st->rejected;
    if (st->rejected) c->reject = st->reject;
    return c->reached >= c->at;
}

/* The actions legal() lists at this point, in its order: at most max of
 * them into *out (malloc'd, the caller frees it). Returns how many legal()
 * lists (more than max when cut), or (size_t)-1 when out of memory. */
size_t arb_an__legal(const arb_match *m, size_t max, arb_action **out)
{
    size_t cap = max < 64 ? max : 64, n = 0;
    arb_action *buf = NULL;
    *out = NULL;
    if (!cap) cap = 1;
    for (;;) {
        arb_action *p = realloc(buf, cap * sizeof *p);
        if (!p) { free(buf); return (size_t)-1; }
        buf = p;
        n = arb_match_legal(m, buf, cap);
        if (n <= cap || cap >= max) break;
        cap = n < max ? n : max;
    }
    *out = buf;
    return n;
}

/* The legal actions as action text (full view only: another seat's could
 * name its hidden cards). At most STATE_LEGAL_MAX, with "legal_truncated"
 * when legal() lists more. */
#define STATE_LEGAL_MAX 4096
static void add_legal(arb_tree *t, arb_tnode *root, const arb_game *g, const arb_match *m)
{
    arb_action *buf;
    size_t n = arb_an__legal(m, STATE_LEGAL_MAX, &buf);
    if (n == (size_t)-1) { arb_tree_add_null(t, root, "legal"); return; }
    arb_tnode *ln = arb_tree_add_arr(t, root, "legal");
    char text[256];
    for (size_t i = 0; i < n && i < STATE_LEGAL_MAX; i++) {
        arb_action_format(g, &buf[i], text, sizeof text);
        arb_tree_add_str(t, ln, NULL, text);
    }
    if (n > STATE_LEGAL_MAX) arb_tree_add_bool(t, root, "legal_truncated", 1);
    free(buf);
}

int arb_an_state(arb_an_source *src, int64_t at, int view, arb_tree **out, arb_error *err)
{
    ARB_ASSERT_ARG(err, src);
    ARB_ASSERT_ARG(err, out);
    *out = NULL;
    const arb_an_header *h = &src->hdr;
    if (view != ARB_VIEW_ALL && (view < 0 || view >= h->players))
        return arb_error_set(err, ARB_EINVAL, NULL, "seat %d is not in this %d-player match", view, h->players);
    statectx c = { at, -1, 0, 0, ARB_ERROR_INIT };
    arb_match *m = NULL;
    arb_an_walk_result res;
    int rc = arb_an__walk(src, 0, on_step, &c, &m, &res, err);
    if (rc) return rc;
    /* The walk stopped at the record asked for: the rest is decoded (no
     * engine) so a cut or corrupt file is reported as every other command
     * reports it (#27 N11), not shown as complete. */
    if (res.stopped && !res.truncated && !res.diverged) {
        arb_an_record rec;
        arb_error e = ARB_ERROR_INIT;
        int nr;
        while ((nr = arb_an_source_next(src, &rec, &e)) == 1) arb_error_clear(&e);
        if (nr == ARB_ETRUNC) {
            res.truncated = 1;
            res.trunc = e;
        } else if (nr < 0) {
            arb_match_free(m);
            *err = e;
            return nr;
        }
    }
    char dv[ARB_MSG_MAX + ARB_WHERE_MAX + ARB_RULE_MAX + 8] = "";
    if (res.diverged) arb_error_format(&res.divergence, dv, sizeof dv);
    if (at != INT64_MAX && c.reached < at) {
        arb_match_free(m);
        if (res.diverged)
            return arb_error_set(err, ARB_EVERIFY, NULL,
                                 "record %" PRId64 " is not shown: the replay diverges at record %" PRId64
                                 " and nothing after it is read (%s)", at, c.reached, dv);
        if (res.truncated)
            return arb_error_set(err, ARB_ENOTFOUND, NULL,
                                 "record %" PRId64 " is past the end: the replay is truncated after %" PRIu64
                                 " complete records (%s)", at, res.records, res.trunc.where);
        return arb_error_set(err, ARB_ENOTFOUND, NULL, "record %" PRId64 " is past the end: the replay has %" PRIu64
                             " records (0..%" PRIu64 ")", at, res.records, res.records ? res.records - 1 : 0);
    }
    const arb_game *g = h->game;
    arb_tree *t = arb_tree_new();
    if (!t) {
        arb_match_free(m);
        return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
    }
    arb_tnode *root = arb_tree_root(t);
    arb_tree_add_str(t, root, "file", src->name);
    arb_tree_add_str(t, root, "game", g->id);
    arb_tree_add_int(t, root, "record", c.reached);
    arb_tree_add_int(t, root, "records", (int64_t)res.records);
    arb_tree_add_bool(t, root, "truncated", res.truncated);
    if (res.diverged && c.reached == (int64_t)res.last_index) {
        /* the record shown is the one `verify` refuses */
        arb_tnode *dn = arb_tree_add_map(t, root, "diverged");
        arb_tree_add_str(t, dn, "kind", arb_verify_kind_name((arb_verify_kind)res.diverged));
        arb_tree_add_str(t, dn, "error", dv);
    }
    arb_tree_add_int(t, root, "turn", arb_match_turn(m));
    arb_tree_add_str(t, root, "phase", arb_match_phase(m));
    arb_tree_add_int(t, root, "clock_ms", (int64_t)c.clock_ms);
    char buf[32];
    arb_tree_add_str(t, root, "clock", arb_an_clock(c.clock_ms, buf, sizeof buf));
    if (c.rejected) {
        arb_tnode *rj = arb_tree_add_map(t, root, "rejected");
        arb_tree_add_str(t, rj, "rule", c.reject.rule);
        arb_tree_add_str(t, rj, "msg", c.reject.msg);
    }
    arb_decision d = arb_match_decision(m);
    arb_tnode *dn = arb_tree_add_map(t, root, "decision");
    arb_tree_add_int(t, dn, "seat", d.seat);
    if (d.seat != ARB_SEAT_NONE)
        arb_tree_add_str(t, dn, "kind", arb_an__decision_name(g, d.kind, buf, sizeof buf));
    else
        arb_tree_add_null(t, dn, "kind");
    arb_tree_add_int(t, dn, "clock_left_ms", d.clock_left_ms);
    arb_outcome o;
    memset(&o, 0, sizeof o);
    arb_tnode *on = arb_tree_add_map(t, root, "outcome");
    arb_tree_add_bool(t, on, "over", arb_match_outcome(m, &o));
    if (o.over) {
        arb_tree_add_int(t, on, "winner", o.winner);
        arb_tree_add_str(t, on, "reason", arb_name_at(g->outcome_reasons, g->noutcome_reasons, o.reason, ""));
        arb_tree_add_int(t, on, "turns", o.turns);
    }
    if (view == ARB_VIEW_ALL) arb_tree_add_str(t, root, "view", "all");
    else arb_tree_add_int(t, root, "view", view);
    snprintf(buf, sizeof buf, "0x%016" PRIx64, arb_match_hash(m));
    if (view == ARB_VIEW_ALL) arb_tree_add_str(t, root, "hash", buf);
    if (view == ARB_VIEW_ALL) add_legal(t, root, g, m);
    arb_tnode *sn = arb_tree_add_map(t, root, "state");
    g->export_state(g, arb_match_state(m), view, t, sn);
    arb_match_free(m);
    if (arb_tree_failed(t)) {
        arb_tree_free(t);
        return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
    }
    *out = t;
    return ARB_OK;
}
