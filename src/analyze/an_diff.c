/* an_diff.c — where two replays of the same game part ways. Headers are
 * compared field by field — every key as read, informational ones (start
 * time, deck names, engine, unknown keys, commitments) and the envelope's
 * version and flags too, since a judge must see any edit — then records in
 * lockstep, think times and encodings included, on a single match: while the records agree the
 * two replays are in the same state, so one engine instance serves both.
 * At the first disagreement each side's record is applied to its own copy
 * and the two state trees are compared field by field, which is what a
 * judge needs to see what the disputed action changed. A record both share
 * that the verifier refuses ends the comparison (an_walk.c's judge). */
#include <inttypes.h>
#include <string.h>

#include "analyze/an_int.h"
#include "arbiter/toolkit.h"

#define DIFF_MAX 200 /* differences listed; all are counted */

typedef struct diffctx {
    arb_tree *t;
    arb_tnode *arr;
    unsigned listed;
    const char *ignore;
} diffctx;

static int on_diff(void *ctx, const char *path, const arb_tnode *a, const arb_tnode *b)
{
    diffctx *d = ctx;
    if (d->ignore && strcmp(path, d->ignore) == 0) return 0;
    if (d->listed >= DIFF_MAX) { d->listed++; return 0; }
    arb_tnode *e = arb_tree_add_map(d->t, d->arr, NULL);
    arb_tree_add_str(d->t, e, "path", path);
    if (a) arb_tree_add_copy(d->t, e, "a", a);
    else arb_tree_add_null(d->t, e, "a");
    if (b) arb_tree_add_copy(d->t, e, "b", b);
    else arb_tree_add_null(d->t, e, "b");
    d->listed++;
    return 0;
}

/* A header as a tree in one canonical shape, so that two sources compare
 * the same whether or not their reader kept the raw header. Only what
 * determines the match is in it: the start time, the writer's flags and a
 * seed commitment are informational (the verifier checks commitments). */
static void header_tree(arb_tree *t, arb_tnode *root, const arb_an_header *h)
{
    arb_tree_add_str(t, root, "game", h->game->id);
    arb_tree_add_str(t, root, "rules", h->rules);
    arb_tree_add_str(t, root, "engine", h->engine);
    char seed[32];
    snprintf(seed, sizeof seed, "%" PRIu64, h->seed);
    arb_tree_add_str(t, root, "seed", seed);
    arb_tnode *pl = arb_tree_add_arr(t, root, "players");
    for (int i = 0; i < h->players; i++) {
        arb_tnode *p = arb_tree_add_map(t, pl, NULL);
        arb_tree_add_str(t, p, "name", h->names[i]);
        /* Deck attributes (a naramo bloc) are part of the setup. */
        arb_tnode *at = arb_tree_add_map(t, p, "deck_attrs");
        for (unsigned k = 0; k < h->decks[i].nattrs && k < ARB_DECK_ATTRS; k++)
            arb_tree_add_str(t, at, h->decks[i].attrs[k].key, h->decks[i].attrs[k].value);
        arb_tnode *dk = arb_tree_add_arr(t, p, "deck");
        for (unsigned k = 0; k < h->decks[i].ncards; k++) {
            const char *id = arb_an__card_id(h, i, (int32_t)k);
            arb_tree_add_str(t, dk, NULL, id ? id : "?");
        }
    }
    arb_tnode *op = arb_tree_add_map(t, root, "options");
    for (unsigned i = 0; i < h->options.n && i < ARB_OPTIONS_MAX; i++)
        arb_tree_add_int(t, op, h->options.kv[i].key, h->options.kv[i].value);
    if (h->position) arb_tree_add_copy(t, root, "position", h->position);
    else arb_tree_add_null(t, root, "position");
}

static void record_text(const arb_game *g, const arb_match *m, int rc, const arb_an_record *r,
                        char *buf, size_t size)
{
    if (rc == 0) { snprintf(buf, size, "(end of replay)"); return; }
    if (rc < 0) { snprintf(buf, size, "(truncated or unreadable: %s)", arb_strerror(rc)); return; }
    char w[160];
    switch (r->kind) {
    case ARB_AN_ACTION:
        arb_action_format(g, &r->action, w, sizeof w);
        snprintf(buf, size, "action %s", w);
        if (m && g->action_text) {
            char t[192];
            /* action_text on a shape-valid action only; the engine validates
             * the rest when it is applied. */
            if (r->action.verb < g->nverbs && r->action.nargs <= ARB_ARGS_MAX &&
                (r->action.seat == ARB_SEAT_ARBITER ||
                 (r->action.seat >= 0 && r->action.seat < arb_match_players(m)))) {
                arb_match *probe;
                arb_error e = ARB_ERROR_INIT;
                if (!arb_match_clone(&probe, m)) {
                    if (!arb_match_apply(probe, &r->action, &e)) {
                        arb_match_action_text(m, &r->action, t, sizeof t);
                        size_t n = strlen(buf);
                        snprintf(buf + n, size - n, " (%s)", t);
                    } else {
                        size_t n = strlen(buf);
                        snprintf(buf + n, size - n, " (rejected: %s %s)", e.rule, e.msg);
                    }
                    arb_match_free(probe);
                }
            }
        }
        break;
    case ARB_AN_CHECKPOINT:
    {
        char hs[48];
        snprintf(buf, size, "checkpoint turn %" PRIu32 " hash %s", r->turn,
                 arb_an__hash_str(hs, sizeof hs, r->hash, r->hash_bits));
    }
        break;
    case ARB_AN_OUTCOME:
        snprintf(buf, size, "outcome winner %d reason %s turns %" PRIu32 " hash 0x%016" PRIx64, r->winner,
                 r->reason, r->turn, r->hash);
        break;
    default: snprintf(buf, size, "record of unknown kind %d", r->kind);
    }
}

static const char *record_diff(const arb_an_record *a, const arb_an_record *b)
{
    if (a->kind != b->kind) return "kind";
    switch (a->kind) {
    case ARB_AN_ACTION: {
        const arb_action *x = &a->action, *y = &b->action;
        if (x->seat != y->seat || x->verb != y->verb || x->nargs != y->nargs) return "action";
        for (unsigned i = 0; i < x->nargs && i < ARB_ARGS_MAX; i++)
            if (x->args[i] != y->args[i]) return "action";
        if (x->elapsed_ms != y->elapsed_ms) return "clock";
        return NULL;
    }
    case ARB_AN_CHECKPOINT: return a->turn != b->turn || a->hash != b->hash ? "checkpoint" : NULL;
    case ARB_AN_OUTCOME:
        return a->winner != b->winner || a->turn != b->turn || a->hash != b->hash || !arb_reason_same(a->reason, b->reason)
                   ? "outcome" : NULL;
    default: return NULL;
    }
}

/* Same decoded records at different offsets: the bytes before them differ
 * (an unknown record's contents, or a non-shortest encoding). */
static const char *offset_diff(const arb_an_record *a, uint64_t ha, const arb_an_record *b, uint64_t hb)
{
    return a->offset - ha != b->offset - hb ? "encoding" : NULL;
}

static void state_diff(arb_tree *t, arb_tnode *root, const arb_match *ma, const arb_match *mb, const char *note)
{
    arb_tnode *sn = arb_tree_add_map(t, root, "state");
    if (!ma || !mb) {
        arb_tree_add_bool(t, sn, "compared", 0);
        arb_tree_add_str(t, sn, "reason", note ? note : "one side does not replay");
        return;
    }
    arb_tree *ta = arb_match_export(ma, ARB_VIEW_ALL), *tb = arb_match_export(mb, ARB_VIEW_ALL);
    if (!ta || !tb) {
        arb_tree_add_bool(t, sn, "compared", 0);
        arb_tree_add_str(t, sn, "reason", "out of memory");
    } else {
        arb_tree_add_bool(t, sn, "compared", 1);
        if (note) arb_tree_add_str(t, sn, "note", note);
        diffctx d = { t, arb_tree_add_arr(t, sn, "differences"), 0, NULL };
        arb_tree_diff(arb_tree_root(ta), arb_tree_root(tb), on_diff, &d);
        arb_tree_add_int(t, sn, "count", d.listed);
        char h[24];
        snprintf(h, sizeof h, "0x%016" PRIx64, arb_match_hash(ma));
        arb_tree_add_str(t, sn, "hash_a", h);
        snprintf(h, sizeof h, "0x%016" PRIx64, arb_match_hash(mb));
        arb_tree_add_str(t, sn, "hash_b", h);
    }
    arb_tree_free(ta);
    arb_tree_free(tb);
}

static int new_match(const arb_an_header *h, arb_match **m, arb_error *err)
{
    arb_setup su;
    memset(&su, 0, sizeof su);
    su.seed = h->seed;
    su.players = h->players;
    su.options = h->options;
    su.rules = h->rules;
    for (int i = 0; i < h->players; i++) su.decks[i] = &h->decks[i];
    return h->position ? arb_match_from_position(m, h->game, h->position, &su, err)
                       : arb_match_new(m, h->game, &su, err);
}

int arb_an_diff_run(arb_an_source *A, arb_an_source *B, arb_an_diff *d, arb_error *err)
{
    memset(d, 0, sizeof *d);
    d->record = -1;
    d->diverged = -1;
    int rc0 = arb_an__source_rewind(A, err);
    if (!rc0) rc0 = arb_an__source_rewind(B, err);
    if (rc0) return rc0;
    arb_tree *t = arb_tree_new();
    if (!t) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
    d->tree = t;
    arb_tnode *root = arb_tree_root(t);
    const arb_an_header *ha = &A->hdr, *hb = &B->hdr;
    arb_tree_add_str(t, root, "a", A->name);
    arb_tree_add_str(t, root, "b", B->name);
    arb_tnode *ident = arb_tree_add_bool(t, root, "identical", 0);
    arb_tnode *recn = arb_tree_add_int(t, root, "record", -1);
    arb_tnode *hdiffs = arb_tree_add_arr(t, root, "header");

    /* Header, field by field. */
    arb_tree *xa = arb_tree_new(), *xb = arb_tree_new();
    if (!xa || !xb) {
        arb_tree_free(xa);
        arb_tree_free(xb);
        return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
    }
    header_tree(xa, arb_tree_root(xa), ha);
    header_tree(xb, arb_tree_root(xb), hb);
    diffctx hd = { t, hdiffs, 0, NULL };
    arb_tree_diff(arb_tree_root(xa), arb_tree_root(xb), on_diff, &hd);
    arb_tree_free(xa);
    arb_tree_free(xb);
    unsigned setup_diffs = hd.listed;
    /* Then every key of the header as read (informational and unknown
     * ones) and the envelope: nothing in a file is outside the comparison.
     * These do not change the match, so the records are compared too. */
    if (!setup_diffs) {
        xa = arb_tree_new();
        xb = arb_tree_new();
        if (!xa || !xb) {
            arb_tree_free(xa);
            arb_tree_free(xb);
            return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
        }
        if (ha->tree && hb->tree) {
            arb_tree_add_copy(xa, arb_tree_root(xa), "header", ha->tree);
            arb_tree_add_copy(xb, arb_tree_root(xb), "header", hb->tree);
        }
        if (ha->has_envelope && hb->has_envelope) {
            arb_tnode *ea = arb_tree_add_map(xa, arb_tree_root(xa), "envelope");
            arb_tnode *eb = arb_tree_add_map(xb, arb_tree_root(xb), "envelope");
            arb_tree_add_int(xa, ea, "version", ha->version);
            arb_tree_add_int(xb, eb, "version", hb->version);
            arb_tree_add_int(xa, ea, "flags", ha->flags);
            arb_tree_add_int(xb, eb, "flags", hb->flags);
            if (ha->header_bytes && hb->header_bytes) {
                arb_tree_add_int(xa, ea, "header_bytes", (int64_t)ha->header_bytes);
                arb_tree_add_int(xb, eb, "header_bytes", (int64_t)hb->header_bytes);
            }
        }
        arb_tree_diff(arb_tree_root(xa), arb_tree_root(xb), on_diff, &hd);
        arb_tree_free(xa);
        arb_tree_free(xb);
    }

    arb_match *m = NULL, *ma = NULL, *mb = NULL;
    arb_error ea = ARB_ERROR_INIT, eb = ARB_ERROR_INIT;
    int rc = ARB_OK;
    if (setup_diffs) {
        d->differ = 1;
        snprintf(d->what, sizeof d->what, "header");
        snprintf(d->detail, sizeof d->detail, "the headers differ in %u field%s (first: %s)", hd.listed,
                 hd.listed == 1 ? "" : "s", arb_tnode_get(arb_tnode_at(hdiffs, 0), "path")->s);
        if (ha->game == hb->game) {
            int ra = new_match(ha, &ma, &ea), rb = new_match(hb, &mb, &eb);
            state_diff(t, root, ra ? NULL : ma, rb ? NULL : mb, ra || rb ? "a setup is rejected" : "after setup");
        } else {
            state_diff(t, root, NULL, NULL, "different games");
        }
        goto finish;
    }
    if (hd.listed) {
        /* informational fields only: said, and the records still compared */
        d->differ = 1;
        snprintf(d->what, sizeof d->what, "header");
        snprintf(d->detail, sizeof d->detail,
                 "the headers differ in %u informational field%s (first: %s); the setups are the same", hd.listed,
                 hd.listed == 1 ? "" : "s", arb_tnode_get(arb_tnode_at(hdiffs, 0), "path")->s);
    }

    rc = new_match(ha, &m, err);
    if (rc) {
        arb_error_where(err, "%s: header", A->name);
        goto out;
    }
    arb_an_record ra, rb;
    arb_an__judge judge;
    arb_an__judge_init(&judge, m);
    for (uint64_t i = 0;; i++) {
        int ca = arb_an_source_next(A, &ra, &ea), cb = arb_an_source_next(B, &rb, &eb);
        if ((ca < 0 && ca != ARB_ETRUNC) || (cb < 0 && cb != ARB_ETRUNC)) {
            *err = ca < 0 && ca != ARB_ETRUNC ? ea : eb;
            rc = err->code ? err->code : ARB_EFORMAT;
            goto out;
        }
        const char *what = NULL;
        if (ca <= 0 && cb <= 0) {
            if (ca != cb) what = "end";
            else break;
        } else if (ca <= 0 || cb <= 0) {
            what = "length";
        } else {
            what = record_diff(&ra, &rb);
            if (!what) what = offset_diff(&ra, ha->header_bytes, &rb, hb->header_bytes);
        }
        if (!what) {
            /* the same record on both sides: judged once, as verify would */
            arb_an__verdict v;
            arb_an__judge_step(&judge, m, &ra, &v);
            if (!v.diverged) continue;
            d->diverged = (int64_t)i;
            arb_an__judge_error(&d->divergence, A->name, &ra, &v);
            char w[ARB_MSG_MAX + ARB_WHERE_MAX + ARB_RULE_MAX + 8];
            arb_error_format(&d->divergence, w, sizeof w);
            arb_tnode *dn = arb_tree_add_map(t, root, "diverged");
            arb_tree_add_int(t, dn, "record", (int64_t)i);
            arb_tree_add_str(t, dn, "kind", arb_verify_kind_name(v.diverged));
            arb_tree_add_str(t, dn, "error", w);
            break;
        }
        d->differ = 1;
        d->record = (int64_t)i;
        snprintf(d->what, sizeof d->what, "%s", what);
        char ta[400], tb[400];
        record_text(ha->game, m, ca, &ra, ta, sizeof ta);
        record_text(hb->game, m, cb, &rb, tb, sizeof tb);
        arb_tree_add_str(t, root, "a_record", ta);
        arb_tree_add_str(t, root, "b_record", tb);
        if (!strcmp(what, "end"))
            snprintf(d->detail, sizeof d->detail, "both end after %" PRIu64 " records but %s is truncated", i,
                     ca < 0 ? "A" : "B");
        else if (!strcmp(what, "encoding"))
            snprintf(d->detail, sizeof d->detail,
                     "record %" PRIu64 " reads the same but starts at decompressed offset %" PRIu64 " in A and %" PRIu64
                     " in B (%" PRIu64 " and %" PRIu64 " bytes after the header): the bytes before it differ (an unknown "
                     "record's contents or a non-shortest encoding)",
                     i, ra.offset, rb.offset, ra.offset - ha->header_bytes, rb.offset - hb->header_bytes);
        else if (!strcmp(what, "clock"))
            snprintf(d->detail, sizeof d->detail,
                     "record %" PRIu64 " differs (clock): the same action with think time %" PRIu32 " ms in A and %" PRIu32
                     " ms in B: %.200s", i, ra.action.elapsed_ms, rb.action.elapsed_ms, ta);
        else
            snprintf(d->detail, sizeof d->detail, "record %" PRIu64 " differs (%s): A has %.200s; B has %.200s", i, what, ta,
                     tb);
        /* Each side's record applied to its own copy of the common state. */
        if (arb_match_clone(&ma, m) || arb_match_clone(&mb, m)) {
            rc = arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
            goto out;
        }
        const char *note = "after each side's record";
        if (ca > 0 && ra.kind == ARB_AN_ACTION && arb_match_apply(ma, &ra.action, &ea))
            note = "A's action is rejected by the engine (state as before it)";
        if (cb > 0 && rb.kind == ARB_AN_ACTION && arb_match_apply(mb, &rb.action, &eb))
            note = "B's action is rejected by the engine (state as before it)";
        if (!strcmp(what, "checkpoint") || !strcmp(what, "outcome")) {
            char h[24];
            snprintf(h, sizeof h, "0x%016" PRIx64, arb_match_hash(m));
            arb_tree_add_str(t, root, "engine_hash", h);
            note = "both replays reach the same state; only the recorded values differ";
        }
        state_diff(t, root, ma, mb, note);
        break;
    }
finish:
    ident->kind = ARB_T_BOOL;
    ident->i = !d->differ && d->diverged < 0;
    recn->i = d->record;
    if (d->differ) {
        arb_tree_add_str(t, root, "what", d->what);
        arb_tree_add_str(t, root, "detail", d->detail);
    }
    if (arb_tree_failed(t)) rc = arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
out:
    arb_match_free(m);
    arb_match_free(ma);
    arb_match_free(mb);
    return rc;
}
