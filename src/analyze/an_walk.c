/* an_walk.c — replays a source through an arb_match and hands every step
 * (setup, each record) to a callback with what the analyzer needs: the
 * turn, phase and decision the record was made in, the cumulative clock,
 * the engine's own description of the action, the events it caused, and
 * whether checkpoints and the outcome match. A rejected action is reported
 * with its rule ID and skipped (the state is unchanged, per the contract),
 * so a tampered or client-side log can still be read to its end. */
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

static int outcome_matches(const arb_match *m, const arb_an_record *r)
{
    arb_outcome o;
    const arb_game *g = arb_match_game(m);
    if (!arb_match_outcome(m, &o)) return 0;
    const char *reason = arb_name_at(g->outcome_reasons, g->noutcome_reasons, o.reason, "");
    return o.winner == r->winner && o.turns == r->turn && arb_reason_same(reason, r->reason) &&
           arb_match_hash(m) == r->hash;
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
            arb_error e = ARB_ERROR_INIT;
            int arc = arb_match_apply(m, &rec.action, &e);
            if (arc) {
                st.rejected = 1;
                st.reject = e;
                if (!st.reject.code) st.reject.code = arc;
                res->rejected++;
                if (want_text) arb_action_format(g, &rec.action, st.action_text, sizeof st.action_text);
            } else {
                st.events = arb_match_events(m, &st.nevents);
                label(g, &st, ev_turn, ev_phase);
                if (want_text) arb_match_action_text(prev, &rec.action, st.action_text, sizeof st.action_text);
            }
        } else if (rec.kind == ARB_AN_CHECKPOINT) {
            st.computed_hash = arb_match_hash(m);
            st.check = (rec.hash_bits == 0 || rec.hash_bits >= 64 ? st.computed_hash == rec.hash
                                            : (st.computed_hash & (((uint64_t)1 << rec.hash_bits) - 1)) == rec.hash) &&
                       rec.turn == arb_match_turn(m);
        } else if (rec.kind == ARB_AN_OUTCOME) {
            st.computed_hash = arb_match_hash(m);
            st.check = outcome_matches(m, &rec);
            res->outcome_seen = 1;
            res->outcome = rec;
        }
        if (st.check == 0) res->mismatches++;
        st.clock_ms = clock;
        res->clock_ms = clock;
        if (fn && fn(ctx, &st)) {
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
    return arb_an__walk(src, 1, fn, ctx, mout, res, err);
}
