/* an_walk.c — replays a source through an arb_match and hands every step
 * (setup, each record) to a callback with what the analyzer needs: the
 * turn, phase and decision the record was made in, the cumulative clock,
 * the engine's own description of the action, the events it caused, and
 * whether checkpoints and the outcome match. It judges each record as the
 * verifier does (the judge below) and ends at the first one `verify`
 * refuses, that record included (a rejected action with its rule ID, the
 * state unchanged per the contract): what a command shows of a file is its
 * verifiable prefix, so a flood of refused records costs one record. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/an_int.h"
#include "arbiter/toolkit.h"

static int setup_match(const arb_an_header *h, arb_match **m, arb_error *err)
{
    arb_setup su;
    memset(&su, 0, sizeof su);
    su.seed = h->seed;
    su.players = h->players;
    su.options = h->options;
    su.rules = h->rules;
    for (int i = 0; i < h->players && i < ARB_MAX_SEATS; i++) su.decks[i] = &h->decks[i];
    int rc = h->position ? arb_match_from_position(m, h->game, h->position, &su, err)
                         : arb_match_new(m, h->game, &su, err);
    if (rc && !err->msg[0]) arb_error_set(err, rc, NULL, "the header's setup is rejected");
    return rc;
}

void arb_an__judge_init(arb_an__judge *j, const arb_match *m)
{
    memset(j, 0, sizeof *j);
    j->turn = arb_match_turn(m);
}

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void diverge(arb_an__verdict *v, arb_verify_kind k, const char *fmt, ...)
{
    const char *kn = arb_verify_kind_name(k);
    size_t n = strlen(kn);
    memcpy(v->detail, kn, n); /* a kind name is short */
    v->detail[n++] = ':';
    v->detail[n++] = ' ';
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->detail + n, sizeof v->detail - n, fmt, ap);
    va_end(ap);
    v->diverged = k;
}

/* The checks of verify.c's loop, in its order, on the analyzer's match. */
void arb_an__judge_step(arb_an__judge *j, arb_match *m, const arb_an_record *rec, arb_an__verdict *v)
{
    memset(v, 0, sizeof *v);
    v->check = -1;
    const arb_game *g = arb_match_game(m);
    arb_outcome o;
    int over = arb_match_outcome(m, &o);
    if (j->outcome_read) {
        diverge(v, ARB_DIV_AFTER_OUTCOME, "a record follows the outcome");
        return;
    }
    if (rec->kind == ARB_AN_ACTION) {
        if (!over && j->need_cp) {
            diverge(v, ARB_DIV_MISSING_CHECKPOINT, "turn %" PRIu32 " began but no checkpoint was recorded before this action",
                    j->turn);
            return;
        }
        arb_error e = ARB_ERROR_INIT;
        int rc = arb_match_apply(m, &rec->action, &e);
        if (rc) {
            v->rejected = 1;
            v->reject = e;
            if (!v->reject.code) v->reject.code = rc;
            if (over) diverge(v, ARB_DIV_OUTCOME, "the engine ended the match but the log goes on with another action");
            else diverge(v, ARB_DIV_ILLEGAL, "%s", e.msg); /* the rule ID goes with the error */
            return;
        }
        uint32_t t = arb_match_turn(m);
        if (!arb_match_outcome(m, &o) && t != j->turn) {
            j->turn = t;
            j->need_cp = 1;
        }
    } else if (rec->kind == ARB_AN_CHECKPOINT) {
        uint32_t t = arb_match_turn(m);
        v->computed_hash = arb_match_hash(m);
        int hash_ok = rec->hash_bits == 0 || rec->hash_bits >= 64
                          ? v->computed_hash == rec->hash
                          : (v->computed_hash & (((uint64_t)1 << rec->hash_bits) - 1)) == rec->hash;
        v->check = hash_ok && rec->turn == t;
        if (rec->turn != t)
            diverge(v, ARB_DIV_CHECKPOINT_TURN, "the checkpoint records turn %" PRIu32 ", the engine is at turn %" PRIu32,
                    rec->turn, t);
        else if (!hash_ok)
            diverge(v, ARB_DIV_CHECKPOINT_HASH, "state hash differs at the checkpoint of turn %" PRIu32 ": computed 0x%016" PRIx64,
                    t, v->computed_hash);
        else
            j->need_cp = 0;
        j->turn = t;
    } else if (rec->kind == ARB_AN_OUTCOME) {
        j->outcome_read = 1;
        v->computed_hash = arb_match_hash(m);
        const char *reason = over ? arb_game_reason_name(g, o.reason) : "";
        v->check = over && o.winner == rec->winner && o.turns == rec->turn && arb_reason_same(reason, rec->reason) &&
                   v->computed_hash == rec->hash;
        if (!over)
            diverge(v, ARB_DIV_NOT_OVER, "the log records an outcome but the engine's match goes on (turn %" PRIu32 ")",
                    arb_match_turn(m));
        else if (!v->check && v->computed_hash == rec->hash)
            diverge(v, ARB_DIV_OUTCOME, "recorded winner %d, %s, %" PRIu32 " turns; computed winner %d, %s, %" PRIu32 " turns",
                    rec->winner, rec->reason, rec->turn, o.winner, reason, o.turns);
        else if (!v->check && o.winner == rec->winner && o.turns == rec->turn && arb_reason_same(reason, rec->reason))
            diverge(v, ARB_DIV_FINAL_HASH, "final state hash: recorded 0x%016" PRIx64 ", computed 0x%016" PRIx64, rec->hash,
                    v->computed_hash);
        else if (!v->check)
            diverge(v, ARB_DIV_OUTCOME, "recorded winner %d, %s, %" PRIu32 " turns; computed winner %d, %s, %" PRIu32 " turns",
                    rec->winner, rec->reason, rec->turn, o.winner, reason, o.turns);
    }
}

void arb_an__judge_error(arb_error *err, const char *name, const arb_an_record *rec, const arb_an__verdict *v)
{
    arb_error_clear(err);
    arb_error_where(err, "%s: record %" PRIu64 " (decompressed offset %" PRIu64 ")", name, rec->index, rec->offset);
    arb_error_set(err, ARB_EVERIFY, v->rejected && v->reject.rule[0] ? v->reject.rule : NULL, "%s", v->detail);
}

static void label(const arb_game *g, arb_an_step *st, uint32_t *turns, const char **phases)
{
    unsigned n = st->nevents < ARB_MATCH_EVENTS ? st->nevents : ARB_MATCH_EVENTS;
    st->nevents = n;
    arb_an__label_events(g, st->events, n, st->turn, st->phase, turns, phases);
    st->event_turn = turns;
    st->event_phase = phases;
}

int arb_an__walk(arb_an_source *src, int want_text, arb_an_step_fn fn, void *ctx,
                 arb_match **mout, arb_an_walk_result *res, arb_error *err)
{
    arb_an_walk_result dummy;
    if (!res) res = &dummy;
    memset(res, 0, sizeof *res);
    if (mout) *mout = NULL;
    /* a second analysis of one source starts from its first record again */
    int rc0 = arb_an__source_rewind(src, err);
    if (rc0) return rc0;
    const arb_an_header *h = &src->hdr;
    const arb_game *g = h->game;
    arb_match *m = NULL, *prev = NULL;
    uint32_t *ev_turn = malloc(ARB_MATCH_EVENTS * sizeof *ev_turn);
    const char **ev_phase = malloc(ARB_MATCH_EVENTS * sizeof *ev_phase);
    if (!ev_turn || !ev_phase) {
        free(ev_turn);
        free((void *)ev_phase);
        return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
    }
    int rc = setup_match(h, &m, err);
    if (rc) {
        arb_error_where(err, "%s: header", src->name);
        goto done;
    }
    if (want_text && arb_match_clone(&prev, m)) {
        rc = arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
        goto done;
    }

    arb_an_step st;
    memset(&st, 0, sizeof st);
    st.m = m;
    st.turn = arb_match_turn(m);
    st.phase = arb_match_phase(m);
    arb_decision d = arb_match_decision(m);
    st.decision_seat = d.seat;
    st.decision_kind = d.kind;
    st.check = -1;
    st.events = arb_match_events(m, &st.nevents);
    label(g, &st, ev_turn, ev_phase);
    if (fn && fn(ctx, &st)) {
        res->stopped = 1;
        goto done;
    }

    arb_an_record rec;
    arb_an__judge judge;
    arb_an__judge_init(&judge, m);
    uint64_t clock = 0;
    for (;;) {
        rc = arb_an_source_next(src, &rec, err);
        if (rc == 0) break;
        if (rc == ARB_ETRUNC) {
            res->truncated = 1;
            res->trunc = *err;
            arb_error_clear(err);
            rc = ARB_OK;
            break;
        }
        if (rc < 0) goto done;
        rc = ARB_OK;
        res->records++;
        res->last_index = rec.index;
        memset(&st, 0, sizeof st);
        st.rec = &rec;
        st.m = m;
        st.check = -1;
        st.turn = arb_match_turn(m);
        st.phase = arb_match_phase(m);
        d = arb_match_decision(m);
        st.decision_seat = d.seat;
        st.decision_kind = d.kind;
        if (rec.kind == ARB_AN_ACTION) {
            res->actions++;
            clock += rec.action.elapsed_ms;
            if (want_text) arb_match_copy(prev, m);
        }
        arb_an__verdict v;
        arb_an__judge_step(&judge, m, &rec, &v);
        st.check = v.check;
        st.computed_hash = v.computed_hash;
        st.diverged = v.diverged;
        if (rec.kind == ARB_AN_ACTION) {
            if (v.rejected) {
                st.rejected = 1;
                st.reject = v.reject;
                res->rejected++;
                if (want_text) arb_action_format(g, &rec.action, st.action_text, sizeof st.action_text);
            } else if (v.diverged) { /* not applied (a checkpoint is owed) */
                if (want_text) arb_action_format(g, &rec.action, st.action_text, sizeof st.action_text);
            } else {
                st.events = arb_match_events(m, &st.nevents);
                label(g, &st, ev_turn, ev_phase);
                if (want_text) arb_match_action_text(prev, &rec.action, st.action_text, sizeof st.action_text);
            }
        } else if (rec.kind == ARB_AN_OUTCOME) {
            res->outcome_seen = 1;
            res->outcome = rec;
        }
        if (st.check == 0) res->mismatches++;
        st.clock_ms = clock;
        res->clock_ms = clock;
        int stop = fn && fn(ctx, &st);
        if (v.diverged) { /* shown, and nothing after it (FORMAT.md §8.1) */
            res->diverged = (int)v.diverged;
            arb_an__judge_error(&res->divergence, src->name, &rec, &v);
            break;
        }
        if (stop) {
            res->stopped = 1;
            break;
        }
    }
done:
    free(ev_turn);
    free((void *)ev_phase);
    arb_match_free(prev);
    if (rc || !mout) arb_match_free(m);
    else *mout = m;
    return rc;
}

int arb_an_walk(arb_an_source *src, arb_an_step_fn fn, void *ctx, arb_match **mout,
                arb_an_walk_result *res, arb_error *err)
{
    ARB_ASSERT_ARG(err, src);
    return arb_an__walk(src, 1, fn, ctx, mout, res, err);
}
