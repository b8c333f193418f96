/* rules.c — NARAMO setup, the shift machine, legal() and apply().
 *
 * The match advances on its own through every automatic step (Shift Start,
 * the alarms, Shift End) and stops only where a seat owes a decision; the
 * open prompt is s->kind and its sub-state lives in the state struct, so
 * apply() is "validate on the const state, then mutate and run to the next
 * prompt". Validation and legal() share the same predicates, so the two can
 * not disagree. Nothing here allocates; events go to the caller's buffer. */
#include <assert.h>
#include <string.h>

#include "arbiter/hash.h"
#include "games/naramo/naramo.h"

#define EV(type, seat, hid, a, b, c) arb_events_push(ev, (uint16_t)(type), (seat), (hid), (a), (b), (c))


/* ---- small zone helpers ---------------------------------------------- */

static int idx_of(const uint8_t *arr, int n, int uid)
{
    for (int i = 0; i < n; i++)
        if (arr[i] == uid) return i;
    return -1;
}

static void rm_at(uint8_t *arr, uint8_t *n, int i)
{
    assert(i >= 0 && i < *n); /* callers remove what they found */
    memmove(arr + i, arr + i + 1, (size_t)(*n - i - 1));
    (*n)--;
}

static int has_effect_card(const nar_player *p, int effect)
{
    for (int i = 0; i < p->nsite; i++)
        if (nar_def(p, p->site[i])->effect == effect) return 1;
    return 0;
}

static int edg_usable(const nar_player *p) { return !p->edg_used && has_effect_card(p, NAR_FX_EDG); }

static int has_commander(const nar_player *p)
{
    for (int i = 0; i < p->nroster; i++)
        if (nar_def(p, p->roster[i])->flags & NAR_COMMANDER) return 1;
    return 0;
}

static int is_ss(const nar_carddef *c)
{
    return c->effect == NAR_FX_SS_CORE || c->effect == NAR_FX_SS_CLEARANCE || c->effect == NAR_FX_SS_REACTOR_HALL;
}

static int is_exhaust(const nar_carddef *c)
{
    return c->effect == NAR_FX_EXH_CORE || c->effect == NAR_FX_EXH_HACK;
}

int arb_naramo__strike_value(const nar_state *s, int seat, int uid)
{
    const nar_player *p = &s->p[seat];
    int v = nar_def(p, uid)->strike;
    for (int i = 0; i < p->nequip; i++)
        if (p->equip_host[i] == uid && nar_def(p, p->equip[i])->effect == NAR_FX_EQ_STRIKE)
            v += nar_def(p, p->equip[i])->strike;
    return v;
}

/* An order prompt is owed only when the choice can matter: two different
 * cards still have a pending SHIFT START effect. */
int arb_naramo__can_ss_order(const nar_state *s)
{
    const nar_player *p = &s->p[s->active];
    for (int i = 1; i < s->order_n; i++)
        if (p->card[s->order[i]] != p->card[s->order[0]]) return 1;
    return 0;
}

/* Callers ask only while the match is not over. */
int arb_naramo__owing_seat(const nar_state *s)
{
    if (s->kind == NAR_D_BLOCK || s->kind == NAR_D_STRIKE) return 1 - s->active;
    return s->active;
}

static void core_add(nar_state *s, int seat, int delta, arb_events *ev)
{
    nar_player *p = &s->p[seat];
    int64_t c = (int64_t)p->core + delta;
    if (c < 0) c = 0;               /* G05 */
    if (c > NAR_CORE_LOAD_MAX_K) c = NAR_CORE_LOAD_MAX_K; /* bound for hostile positions */
    p->core = (int32_t)c;
    EV(NAR_E_CORE, seat, 0, delta, p->core, 0);
}

static void hack_add(nar_state *s, int seat, int delta, arb_events *ev)
{
    nar_player *p = &s->p[seat];
    int h = p->hack + delta;
    if (h < 0) h = 0;
    if (h > NAR_COUNTER_MAX) h = NAR_COUNTER_MAX;
    p->hack = (uint8_t)h;
    EV(NAR_E_HACK, seat, 0, delta, p->hack, 0);
}

static void po_add(nar_state *s, int seat, int delta, arb_events *ev)
{
    nar_player *p = &s->p[seat];
    int v = p->po + delta;
    if (v < 0) v = 0;
    if (v > NAR_COUNTER_MAX) v = NAR_COUNTER_MAX;
    p->po = (uint8_t)v;
    EV(NAR_E_PO, seat, 0, delta, p->po, 0);
}

static void draw(nar_state *s, int seat, arb_events *ev)
{
    nar_player *p = &s->p[seat];
    if (p->ndeck == 0) {
        p->decked = 1; /* G16 */
        EV(NAR_E_DRAW_EMPTY, seat, 0, 0, 0, 0);
        return;
    }
    uint8_t uid = p->deck[--p->ndeck];
    p->hand[p->nhand++] = uid;
    EV(NAR_E_DRAW, seat, 1, uid, p->card[uid], 0);
}

/* ---- the shift machine --------------------------------------------- */

static void begin_shift(nar_state *s, int seat, arb_events *ev);
static void clear_begin(nar_state *s, arb_events *ev);

static void resolve_ss(nar_state *s, int uid, arb_events *ev)
{
    int a = s->active;
    nar_player *p = &s->p[a];
    const nar_carddef *c = nar_def(p, uid);
    EV(NAR_E_SSE, a, 0, uid, p->card[uid], 0);
    switch (c->effect) {
    case NAR_FX_SS_CORE: core_add(s, a, c->core_k, ev); break;
    case NAR_FX_SS_CLEARANCE:
        if (p->clearance < NAR_CLEARANCE_A) { p->clearance++; EV(NAR_E_CLEARANCE, a, 0, p->clearance, 0, 0); }
        break;
    case NAR_FX_SS_REACTOR_HALL:
        if (p->core >= NAR_REACTOR_HALL_K) po_add(s, a, 1, ev);
        break;
    default: break;
    }
}

static void ss_continue(nar_state *s, arb_events *ev)
{
    while (s->order_n) {
        if (arb_naramo__can_ss_order(s)) { s->kind = NAR_D_ORDER; return; }
        uint8_t uid = s->order[0];
        rm_at(s->order, &s->order_n, 0);
        resolve_ss(s, uid, ev);
    }
    nar_player *p = &s->p[s->active];
    if (s->shift != 1) draw(s, s->active, ev); /* NAR-P1-DRAW-SKIP */
    int sw = NAR_SWIPES_BASE + p->nsite;
    p->swipes = (uint8_t)(sw > NAR_SWIPES_CAP ? NAR_SWIPES_CAP : sw);
    EV(NAR_E_SWIPES, s->active, 0, p->swipes, 0, 0);
    s->kind = NAR_D_OPS;
}

static void begin_shift(nar_state *s, int seat, arb_events *ev)
{
    s->shift++;
    s->active = (int8_t)seat;
    s->shift_ms = 0;
    s->deployed = 0;
    s->alarm_seq = -1;
    nar_player *p = &s->p[seat];
    p->act_used = p->doctrine_used = p->edg_used = 0;
    EV(NAR_E_SHIFT_BEGIN, seat, 0, (int32_t)s->shift, 0, 0);
    int n = 0;
    for (int i = 0; i < p->nroster; i++)
        if (p->flags[p->roster[i]] & NAR_F_EXHAUSTED) { p->flags[p->roster[i]] &= (uint8_t)~NAR_F_EXHAUSTED; n++; }
    EV(NAR_E_REPORT_IN, seat, 0, n, 0, 0);
    if (p->shutdown) {
        EV(NAR_E_BASE_LOAD_SKIPPED, seat, 0, 0, 0, 0);
    } else {
        int d = p->hack >= NAR_HACK_THRESHOLD ? NAR_BASELOAD_HACK_K : NAR_BASELOAD_K;
        p->core += d;
        EV(NAR_E_BASE_LOAD, seat, 0, d, p->core, 0);
    }
    s->order_n = 0;
    for (int i = 0; i < p->nsite; i++)
        if (is_ss(nar_def(p, p->site[i]))) s->order[s->order_n++] = p->site[i];
    ss_continue(s, ev);
}

static void game_over(nar_state *s, int winner, int reason, arb_events *ev)
{
    s->over = 1;
    s->winner = (int8_t)winner;
    s->reason = (uint8_t)reason;
    s->kind = NAR_D_OVER;
    s->strike_uid = -1; /* no prompt stays open after the end */
    s->strike_value = 0;
    s->alarm_owner = s->alarm_uid = -1;
    s->alarm_seq = -1;
    s->order_n = 0;
    EV(NAR_E_GAME_OVER, winner, 0, reason, (int32_t)s->shift, 0); /* game.h's shape: b = turns */
}

static void winloss(nar_state *s, arb_events *ev)
{
    int lose[2], win[2], lr[2];
    for (int q = 0; q < 2; q++) {
        const nar_player *p = &s->p[q];
        lr[q] = p->core >= NAR_MELTDOWN_K ? NAR_R_MELTDOWN : p->decked ? NAR_R_DECK_OUT : NAR_R_NONE;
        lose[q] = lr[q] != NAR_R_NONE;
        win[q] = p->po >= NAR_PO_TARGET && !lose[q];
    }
    if (lose[0] && lose[1]) { game_over(s, -1, NAR_R_DRAW, ev); return; }
    if (lose[0] || lose[1]) { int l = lose[0] ? 0 : 1; game_over(s, 1 - l, lr[l], ev); return; }
    if (win[0] && win[1]) { game_over(s, -1, NAR_R_DRAW, ev); return; }
    if (win[0] || win[1]) { game_over(s, win[0] ? 0 : 1, NAR_R_POWER_ORDERS, ev); return; }
    /* Both `decked` flags are 0 here: a decked seat loses above (G16). */
    begin_shift(s, 1 - s->active, ev);
}

static void discard_step(nar_state *s, arb_events *ev)
{
    if (s->p[s->active].nhand > NAR_HAND_END) { s->kind = NAR_D_DISCARD; return; }
    winloss(s, ev);
}

static void to_discard(nar_player *p, int uid) { p->discard[p->ndiscard++] = (uint8_t)uid; }

static void shift_end(nar_state *s, arb_events *ev)
{
    int a = s->active;
    nar_player *p = &s->p[a];
    /* G19: "until your next Shift End" ends as that Shift End begins. */
    for (int i = 0; i < p->neffects;) {
        if (p->effects[i].until <= s->shift) {
            EV(NAR_E_EFFECT_END, a, 0, p->effects[i].uid, p->card[p->effects[i].uid], 0);
            memmove(&p->effects[i], &p->effects[i + 1], (size_t)(p->neffects - i - 1) * sizeof p->effects[0]);
            p->neffects--;
        } else {
            i++;
        }
    }
    if (p->shutdown && p->shutdown_until <= s->shift) {
        p->shutdown = 0;
        EV(NAR_E_SHUTDOWN_END, a, 0, 0, 0, 0);
    }
    int gain = !p->shutdown && p->core >= NAR_NOMINAL_K && p->core < NAR_OVERHEAT_K; /* G03 */
    if (gain && p->po < NAR_COUNTER_MAX) p->po++;
    EV(NAR_E_PO_CHECK, a, 0, gain, p->po, 0);
    if (p->core >= NAR_OVERHEAT_K) { /* G04 */
        EV(NAR_E_OVERHEAT, a, 0, p->core, 0, 0);
        for (int i = 0; i < p->nsite; i++)
            if (nar_def(p, p->site[i])->effect == NAR_FX_SS_REACTOR_HALL) po_add(s, a, -1, ev);
    }
    for (int i = 0; i < p->nboard;) {
        nar_bentry *e = &p->board[i];
        if (e->duration >= 0) {
            e->duration--;
            EV(NAR_E_DURATION, a, 0, e->owner, e->uid, e->duration);
            if (e->duration <= 0) {
                nar_bentry x = *e;
                memmove(&p->board[i], &p->board[i + 1], (size_t)(p->nboard - i - 1) * sizeof p->board[0]);
                p->nboard--;
                to_discard(&s->p[x.owner], x.uid);
                EV(NAR_E_INCIDENT_DISCARD, a, 0, x.owner, x.uid, s->p[x.owner].card[x.uid]);
                continue;
            }
        }
        i++;
    }
    discard_step(s, ev);
}

static void deploy_begin(nar_state *s, arb_events *ev)
{
    const nar_player *p = &s->p[s->active];
    if (s->p[0].nboard < NAR_BOARD_MAX || s->p[1].nboard < NAR_BOARD_MAX)
        for (int i = 0; i < p->nhand; i++)
            if (nar_def(p, p->hand[i])->type == NAR_T_INCIDENT) { s->kind = NAR_D_DEPLOY; return; }
    clear_begin(s, ev);
}

static void clear_begin(nar_state *s, arb_events *ev)
{
    const nar_player *p = &s->p[s->active];
    int avail = p->swipes + edg_usable(p);
    for (int i = 0; i < p->nboard; i++)
        if (nar_def(&s->p[p->board[i].owner], p->board[i].uid)->clear <= avail) { /* card ids are checked on entry */
            s->kind = NAR_D_CLEAR;
            return;
        }
    shift_end(s, ev);
}

static void alarms_continue(nar_state *s, arb_events *ev)
{
    int a = s->active;
    for (;;) {
        int bb = -1, bi = -1;
        uint32_t best = UINT32_MAX;
        for (int b = 0; b < 2; b++)
            for (int i = 0; i < s->p[b].nboard; i++) {
                const nar_bentry *e = &s->p[b].board[i];
                if (b != a && !(nar_def(&s->p[e->owner], e->uid)->flags & NAR_SITEWIDE)) continue;
                if ((int64_t)e->seq <= (int64_t)s->alarm_seq || e->seq >= best) continue;
                best = e->seq; bb = b; bi = i;
            }
        if (bb < 0) break;
        const nar_bentry *e = &s->p[bb].board[bi];
        s->alarm_seq = (int32_t)e->seq;
        const nar_carddef *c = nar_def(&s->p[e->owner], e->uid);
        EV(NAR_E_ALARM, a, 0, e->owner, e->uid, s->p[e->owner].card[e->uid]);
        switch (c->effect) {
        case NAR_FX_AL_GUBBY:
            if (s->p[a].nhand > 0) {
                s->alarm_owner = (int8_t)e->owner;
                s->alarm_uid = (int8_t)e->uid;
                s->kind = NAR_D_ALARM;
                return;
            }
            core_add(s, a, NAR_GUBBY_K, ev);
            break;
        case NAR_FX_AL_CORE: core_add(s, a, nar_def(&s->p[e->owner], e->uid)->core_k, ev); break;
        case NAR_FX_AL_RELAY:
            if (s->p[a].core >= NAR_RELAY_TRIP_K) hack_add(s, a, 1, ev);
            break;
        default: break;
        }
    }
    s->alarm_seq = -1;
    deploy_begin(s, ev);
}

static void end_shift(nar_state *s, arb_events *ev)
{
    EV(NAR_E_END_SHIFT, s->active, 0, 0, 0, 0);
    s->alarm_seq = -1;
    alarms_continue(s, ev);
}

/* ---- action bodies --------------------------------------------------- */

static void do_review(nar_state *s, int seat, int reviewed, arb_events *ev)
{
    nar_player *p = &s->p[seat];
    if (reviewed) {
        for (int i = 0; i < p->nhand; i++) p->deck[p->ndeck++] = p->hand[i];
        p->nhand = 0;
        arb_rng_shuffle(&s->rng, p->deck, p->ndeck, 1);
        p->review_used = 1;
        EV(NAR_E_REVIEW, seat, 0, 0, 0, 0);
        EV(NAR_E_SHUFFLE, seat, 0, 0, 0, 0);
        for (int i = 0; i < NAR_OPEN_DRAW; i++) draw(s, seat, ev);
    } else {
        EV(NAR_E_KEEP, seat, 0, 0, 0, 0);
    }
    if (seat == 0) {
        s->active = 1;
        s->shift_ms = 0;
        s->kind = NAR_D_REVIEW;
        return;
    }
    s->first = (int8_t)arb_rng_below(&s->rng, 2);
    EV(NAR_E_FIRST_PLAYER, s->first, 0, 0, 0, 0);
    EV(NAR_E_SEVENTH_CARD, 1 - s->first, 0, 0, 0, 0);
    draw(s, 1 - s->first, ev);
    s->shift = 0;
    begin_shift(s, s->first, ev);
}

static void leave_play(nar_state *s, int seat, int uid, arb_events *ev)
{
    nar_player *p = &s->p[seat];
    int i = idx_of(p->roster, p->nroster, uid);
    if (i < 0) return;
    rm_at(p->roster, &p->nroster, i);
    p->flags[uid] = 0;
    to_discard(p, uid);
    EV(NAR_E_LEAVE_PLAY, seat, 0, uid, p->card[uid], 0);
    for (int k = 0; k < p->nequip;) { /* G13: its Equipment goes too */
        if (p->equip_host[k] == uid) {
            int e = p->equip[k];
            memmove(p->equip + k, p->equip + k + 1, (size_t)(p->nequip - k - 1));
            memmove(p->equip_host + k, p->equip_host + k + 1, (size_t)(p->nequip - k - 1));
            p->nequip--;
            to_discard(p, e);
            EV(NAR_E_LEAVE_PLAY, seat, 0, e, p->card[e], 0);
        } else {
            k++;
        }
    }
}

static void do_play(nar_state *s, int uid, int target, arb_events *ev)
{
    int a = s->active;
    nar_player *p = &s->p[a];
    const nar_carddef *c = nar_def(p, uid);
    rm_at(p->hand, &p->nhand, idx_of(p->hand, p->nhand, uid));
    p->swipes = (uint8_t)(p->swipes - c->cost);
    EV(NAR_E_PLAY, a, 0, uid, p->card[uid], target);
    switch (c->type) {
    case NAR_T_PERSONNEL:
        p->roster[p->nroster++] = (uint8_t)uid;
        p->flags[uid] = 0; /* G18: enters READY */
        break;
    case NAR_T_FACILITY: p->site[p->nsite++] = (uint8_t)uid; break;
    case NAR_T_EQUIPMENT:
        p->equip[p->nequip] = (uint8_t)uid;
        p->equip_host[p->nequip++] = (uint8_t)target;
        break;
    case NAR_T_PROCEDURE:
        if (c->flags & NAR_ACT) p->act_used = 1;
        if (c->flags & NAR_DOCTRINE) p->doctrine_used = 1;
        switch (c->effect) {
        case NAR_FX_PR_CORE: core_add(s, a, c->core_k, ev); break;
        case NAR_FX_PR_DRAW: draw(s, a, ev); break;
        case NAR_FX_PR_HACK: hack_add(s, a, -1, ev); break;
        case NAR_FX_PR_OPP_HACK: hack_add(s, 1 - a, 1, ev); break;
        case NAR_FX_PR_READY_RAIDERS:
            for (int i = 0; i < p->nroster; i++)
                if (nar_def(p, p->roster[i])->flags & NAR_RAIDER) p->flags[p->roster[i]] &= (uint8_t)~NAR_F_EXHAUSTED;
            break;
        case NAR_FX_PR_REASSIGN: leave_play(s, a, target, ev); break;
        case NAR_FX_PR_DID:
            if (p->neffects < NAR_EFFECTS) {
                p->effects[p->neffects].uid = (uint8_t)uid;
                p->effects[p->neffects++].until = s->shift + 2; /* G19 */
            }
            break;
        default: break;
        }
        to_discard(p, uid); /* G14 */
        break;
    default: break;
    }
}

static void do_order(nar_state *s, int uid, arb_events *ev)
{
    rm_at(s->order, &s->order_n, idx_of(s->order, s->order_n, uid));
    resolve_ss(s, uid, ev);
    ss_continue(s, ev);
}

static void strike_done(nar_state *s) { s->strike_uid = -1; s->strike_value = 0; s->kind = NAR_D_OPS; }

static void do_heat(nar_state *s, arb_events *ev)
{
    int d = 1 - s->active;
    int v = s->strike_value;
    for (int i = 0; i < s->p[d].neffects; i++) v -= NAR_DID_REDUCE_K;
    if (v < 0) v = 0;
    EV(NAR_E_TAKE_HEAT, d, 0, v, 0, 0);
    core_add(s, d, v, ev);
    strike_done(s);
}

static void do_hack(nar_state *s, arb_events *ev)
{
    EV(NAR_E_TAKE_HACK, 1 - s->active, 0, 0, 0, 0);
    hack_add(s, 1 - s->active, 1, ev);
    strike_done(s);
}

static void do_noblock(nar_state *s, arb_events *ev)
{
    EV(NAR_E_NOBLOCK, 1 - s->active, 0, 0, 0, 0);
    s->kind = NAR_D_STRIKE;
}

static void do_gubby_heat(nar_state *s, arb_events *ev)
{
    s->alarm_owner = s->alarm_uid = -1;
    core_add(s, s->active, NAR_GUBBY_K, ev);
    alarms_continue(s, ev);
}

static void do_discard(nar_state *s, int uid, arb_events *ev)
{
    nar_player *p = &s->p[s->active];
    rm_at(p->hand, &p->nhand, idx_of(p->hand, p->nhand, uid));
    to_discard(p, uid);
    EV(NAR_E_DISCARD, s->active, 0, uid, p->card[uid], 0);
}

/* Default answers when the clock runs out (L38, G20, G21): run the rest of
 * the shift with them until the next shift begins or the match ends. */
static void run_defaults(nar_state *s, arb_events *ev)
{
    uint32_t s0 = s->shift;
    while (!s->over && s->shift == s0) {
        switch (s->kind) {
        case NAR_D_OPS: end_shift(s, ev); break;
        case NAR_D_ORDER: do_order(s, s->order[0], ev); break;
        case NAR_D_BLOCK: do_noblock(s, ev); break;
        case NAR_D_STRIKE: do_heat(s, ev); break;
        case NAR_D_ALARM: do_gubby_heat(s, ev); break;
        case NAR_D_DEPLOY: s->deployed = 1; EV(NAR_E_DECLINE, s->active, 0, 0, 0, 0); clear_begin(s, ev); break;
        case NAR_D_CLEAR: EV(NAR_E_CLEARS_DONE, s->active, 0, 0, 0, 0); shift_end(s, ev); break;
        case NAR_D_DISCARD: do_discard(s, s->p[s->active].hand[0], ev); discard_step(s, ev); break;
        default: return;
        }
    }
}

/* ---- validation ------------------------------------------------------ */

static const char *const verb_rule[NAR_V_COUNT] = {
    "NAR-SETUP-REVIEW", "NAR-SETUP-REVIEW-OPTIONAL", "NAR-P1-SSE-ORDER", "NAR-P2-REPEAT",
    "NAR-P2-STATION", "NAR-P2-RECALL", "NAR-P2-STRIKE", "NAR-P2-EXHAUST", "NAR-P2-SCRAM",
    "NAR-LIMIT-SWIPES-EDG", "NAR-P2-END", "NAR-TIME-GUBBY", "NAR-TIME-GUBBY",
    "NAR-P3-DEPLOY-TARGET", "NAR-P3-DEPLOY-OPT", "NAR-P3-CLEAR", "NAR-P3-CLEAR-MANY",
    "NAR-CROSS-REACH", "NAR-CLOCK-DEFAULT-NOBLOCK", "NAR-CLOCK-DEFAULT-HEAT",
    "NAR-CLOCK-DEFAULT-HEAT", "NAR-P4-HAND", "NAR-CLOCK-SHIFT90", "NAR-CLOCK-DISCONNECT",
    "NAR-CLOCK-DISCONNECT"};

static const uint8_t verb_kind[NAR_V_COUNT] = {
    NAR_D_REVIEW, NAR_D_REVIEW, NAR_D_ORDER, NAR_D_OPS, NAR_D_OPS, NAR_D_OPS, NAR_D_OPS, NAR_D_OPS, NAR_D_OPS, NAR_D_OPS, NAR_D_OPS,
    NAR_D_ALARM, NAR_D_ALARM, NAR_D_DEPLOY, NAR_D_DEPLOY, NAR_D_CLEAR, NAR_D_CLEAR, NAR_D_BLOCK, NAR_D_BLOCK,
    NAR_D_STRIKE, NAR_D_STRIKE, NAR_D_DISCARD, NAR_D_COUNT, NAR_D_COUNT, NAR_D_COUNT};

static int in_hand(const nar_player *p, int uid) { return uid >= 0 && uid < p->ncards && idx_of(p->hand, p->nhand, uid) >= 0; }
static int in_roster(const nar_player *p, int uid) { return uid >= 0 && uid < p->ncards && idx_of(p->roster, p->nroster, uid) >= 0; }

static int chk_play(const nar_state *s, int uid, int has_target, int target, arb_error *err)
{
    const nar_player *p = &s->p[s->active];
    if (!in_hand(p, uid)) return ARB_ILLEGAL(err, "NAR-ZONE-HAND", "that card is not in your hand");
    const nar_carddef *c = nar_def(p, uid);
    static const char *const typerule[] = {"NAR-P2-PLAY-PERSONNEL", "NAR-P2-PLAY-EQUIPMENT",
                                           "NAR-P2-PLAY-FACILITY", "NAR-P2-PLAY-PROCEDURE"};
    if (c->type == NAR_T_INCIDENT)
        return ARB_ILLEGAL(err, "NAR-P3-DEPLOY-ONLY-HERE", "Incidents are deployed in the Incident phase, not played");
    int needs = (c->flags & NAR_TARGETED) != 0;
    if (needs && !has_target) return ARB_INVALID(err, typerule[c->type], "this card needs a TARGET: one of your Personnel");
    if (!needs && has_target) return ARB_INVALID(err, typerule[c->type], "this card takes no TARGET");
    if (c->cost > p->swipes) return ARB_ILLEGAL(err, "NAR-P2-PAY-SWIPES", "not enough Swipes to pay the card's cost");
    if (p->clearance < c->clr) return ARB_ILLEGAL(err, "NAR-P2-CLEARANCE", "your Clearance is below the card's requirement");
    switch (c->type) {
    case NAR_T_PERSONNEL:
        if (p->nroster >= NAR_ROSTER_MAX) return ARB_ILLEGAL(err, "NAR-LIMIT-ROSTER", "your Roster already holds 7 Personnel");
        if (c->flags & NAR_UNIQUE)
            for (int i = 0; i < p->nroster; i++)
                if (p->card[p->roster[i]] == p->card[uid])
                    return ARB_ILLEGAL(err, "NAR-DECK-UNIQUE-PLAY", "a Unique card of that name is already in play");
        break;
    case NAR_T_FACILITY:
        if (p->nsite >= NAR_SITE_MAX) return ARB_ILLEGAL(err, "NAR-LIMIT-SITE", "your Site already holds 6 Facilities");
        break;
    case NAR_T_EQUIPMENT:
        if (!in_roster(p, target)) return ARB_ILLEGAL(err, "NAR-P2-PLAY-EQUIPMENT", "Equipment must attach to one of your Personnel in play");
        break;
    case NAR_T_PROCEDURE:
        if ((c->flags & NAR_ACT) && p->act_used) return ARB_ILLEGAL(err, "NAR-LIMIT-ACT", "you already played an ACT Procedure this shift");
        if (c->flags & NAR_DOCTRINE) {
            if (p->doctrine_used) return ARB_ILLEGAL(err, "NAR-LIMIT-DOCTRINE", "you already played a DOCTRINE Procedure this shift");
            if (!has_commander(p)) return ARB_ILLEGAL(err, "NAR-LIMIT-DOCTRINE-CMDR", "DOCTRINE Procedures need a COMMANDER in your Roster");
        }
        if (needs && !in_roster(p, target)) return ARB_ILLEGAL(err, "NAR-P2-PLAY-PROCEDURE", "the TARGET must be one of your Personnel in play");
        break;
    default: break;
    }
    return ARB_OK;
}

static int chk_deploy(const nar_state *s, int uid, int seat, arb_error *err)
{
    const nar_player *p = &s->p[s->active];
    if (!in_hand(p, uid) || nar_def(p, uid)->type != NAR_T_INCIDENT)
        return ARB_ILLEGAL(err, "NAR-P3-DEPLOY-TARGET", "deploy needs an Incident from your hand");
    if (seat < 0 || seat > 1) return ARB_ILLEGAL(err, "NAR-P3-DEPLOY-TARGET", "an Incident goes onto seat 0's or seat 1's shift");
    if (s->p[seat].nboard >= NAR_BOARD_MAX) return ARB_ILLEGAL(err, "NAR-LIMIT-ALARM", "that Alarm Board already holds 3 Incidents");
    return ARB_OK;
}

static int board_clear_cost(const nar_state *s, int idx)
{
    const nar_bentry *e = &s->p[s->active].board[idx];
    return nar_def(&s->p[e->owner], e->uid)->clear;
}

/* The rule a seat that does not owe the decision breaks, by decision. */
static const char *wrong_seat_rule(const nar_state *s)
{
    switch (s->kind) {
    case NAR_D_REVIEW: return "NAR-SETUP-REVIEW-EACH";  /* the other seat's Roster Review */
    case NAR_D_ORDER: return "NAR-P1-AUTO";            /* only the active player orders SHIFT START effects */
    case NAR_D_OPS: return "NAR-P2-ACTIVE-ONLY";       /* Operations belong to the shift's player */
    case NAR_D_BLOCK: case NAR_D_STRIKE: return "NAR-P2-STRIKE"; /* the defender answers a strike */
    case NAR_D_ALARM: case NAR_D_DEPLOY: case NAR_D_CLEAR: return "NAR-P3-ACTIVE-ONLY"; /* the Incident phase */
    default: return "NAR-P4-HAND-OWN";                 /* only the shift's player discards at Shift End */
    }
}

static int wrong_kind(const nar_state *s, int verb, arb_error *err)
{
    if (verb == NAR_V_REVIEW || verb == NAR_V_KEEP) return ARB_ILLEGAL(err, "NAR-SETUP-REVIEW-ONCE", "the Roster Review is over");
    int ops = verb_kind[verb] == NAR_D_OPS;
    switch (s->kind) {
    case NAR_D_REVIEW: return ARB_ILLEGAL(err, "NAR-SETUP-ORDER", "the Roster Review comes first: review or keep");
    case NAR_D_ORDER: return ARB_ILLEGAL(err, "NAR-P1-AUTO", "Shift Start is automatic; only the SHIFT START order is open");
    case NAR_D_OPS:
        if (verb == NAR_V_DEPLOY) return ARB_ILLEGAL(err, "NAR-P3-DEPLOY-ONLY-HERE", "Incidents can only be deployed in the Incident phase");
        if (verb == NAR_V_CLEAR || verb == NAR_V_DONE || verb == NAR_V_DECLINE)
            return ARB_ILLEGAL(err, "NAR-P3-STEP-ORDER", "the Incident phase has not begun");
        return ARB_ILLEGAL(err, "NAR-TIME-PROMPT-PAUSE", "no such prompt is open");
    case NAR_D_BLOCK: case NAR_D_STRIKE: return ARB_ILLEGAL(err, "NAR-P2-STRIKE", "answer the strike first");
    case NAR_D_ALARM:
        if (verb == NAR_V_DEPLOY) return ARB_ILLEGAL(err, "NAR-P3-DEPLOY-AFTER-ALARMS", "deploy comes after every alarm has resolved");
        return ARB_ILLEGAL(err, "NAR-P3-ALARM-MANDATORY", "an alarm is resolving and needs its answer");
    case NAR_D_DEPLOY:
        if (verb == NAR_V_CLEAR || verb == NAR_V_DONE) return ARB_ILLEGAL(err, "NAR-P3-STEP-ORDER", "deploy or decline before paying CLEAR costs");
        if (ops) return ARB_ILLEGAL(err, "NAR-P2-END", "the shift has left Operations");
        return ARB_ILLEGAL(err, "NAR-TIME-PROMPT-PAUSE", "no such prompt is open");
    case NAR_D_CLEAR:
        if (verb == NAR_V_DEPLOY)
            return s->deployed == 2 ? ARB_ILLEGAL(err, "NAR-P3-DEPLOY-ONE", "one Incident per Incident phase")
                                    : ARB_ILLEGAL(err, "NAR-P3-STEP-ORDER", "the deploy step is over");
        if (verb == NAR_V_DECLINE) return ARB_ILLEGAL(err, "NAR-P3-STEP-ORDER", "the deploy step is over");
        if (ops) return ARB_ILLEGAL(err, "NAR-P2-END", "the shift has left Operations");
        return ARB_ILLEGAL(err, "NAR-TIME-PROMPT-PAUSE", "no such prompt is open");
    default: return ARB_ILLEGAL(err, "NAR-P4-AUTO", "Shift End is automatic; only the discard choice is open");
    }
}

/* Earliest deadline in match ms, or UINT64_MAX; *grace_seat = seat whose
 * reconnect grace it is, or -1 for the shift/review clock. */
static uint64_t earliest_deadline(const nar_state *s, int *grace_seat)
{
    uint64_t e = UINT64_MAX;
    *grace_seat = -1;
    for (int q = 0; q < 2; q++)
        if (s->p[q].disc_at >= 0) {
            uint64_t g = (uint64_t)s->p[q].disc_at + NAR_GRACE_MS;
            if (g < e) { e = g; *grace_seat = q; }
        }
    if (s->clock_on) {
        uint64_t c = s->match_ms - s->shift_ms + NAR_CLOCK_MS;
        if (c < e) { e = c; *grace_seat = -1; }
    }
    return e;
}

/* The precheck's rule IDs (toolkit.h: the refusal precedence). NARAMO has
 * a clock: timeout, disconnect and reconnect are the arbiter's. */
static const arb_precheck_rules prechecks = {
    .over = "NAR-P4-WINLOSS", .verb = "NAR-P2-REPEAT", .nargs = verb_rule, .clock = 1, .arbiter_verbs = NAR_V_TIMEOUT,
    .arbiter_verb = verb_rule, .seat_verb = "NAR-P2-ACTIVE-ONLY", .seat = "NAR-MATCH-TWO",
};

static int validate(const nar_state *s, const arb_action *a, arb_error *err)
{
    int rc = arb_action_precheck(&arb_game_naramo, &prechecks, s->over, 2, arb_naramo__owing_seat(s), wrong_seat_rule(s),
                                 a, err);
    if (rc) return rc;
    uint64_t now = s->match_ms + a->elapsed_ms;
    const char *clock_rule = s->kind == NAR_D_REVIEW ? "NAR-CLOCK-REVIEW90" : "NAR-CLOCK-SHIFT90";
    if (a->verb == NAR_V_TIMEOUT) {
        int gs;
        uint64_t e = earliest_deadline(s, &gs);
        if (e == UINT64_MAX || now < e) return ARB_ILLEGAL(err, clock_rule, "the clock has not run out");
        return ARB_OK;
    }
    if (s->clock_on && (uint64_t)s->shift_ms + a->elapsed_ms >= NAR_CLOCK_MS)
        return ARB_ILLEGAL(err, clock_rule, "the 90 s clock ran out before this action; the arbiter must record the timeout");
    for (int q = 0; q < 2; q++)
        if (s->p[q].disc_at >= 0 && now >= (uint64_t)s->p[q].disc_at + NAR_GRACE_MS &&
            !(a->verb == NAR_V_RECONNECT && a->args[0] == q))
            return ARB_ILLEGAL(err, "NAR-CLOCK-DISCONNECT", "a reconnect grace expired before this action; the arbiter must record the timeout");
    if (a->verb == NAR_V_DISCONNECT || a->verb == NAR_V_RECONNECT) {
        int q = a->args[0];
        if (q != 0 && q != 1) return ARB_INVALID(err, "NAR-CLOCK-DISCONNECT", "SEAT must be 0 or 1");
        if (a->verb == NAR_V_DISCONNECT && s->p[q].disc_at >= 0) return ARB_ILLEGAL(err, "NAR-CLOCK-DISCONNECT", "that seat is already disconnected");
        if (a->verb == NAR_V_RECONNECT && s->p[q].disc_at < 0) return ARB_ILLEGAL(err, "NAR-CLOCK-DISCONNECT", "that seat is connected");
        return ARB_OK;
    }
    int seat = a->seat;
    if (s->p[seat].disc_at >= 0) return ARB_ILLEGAL(err, "NAR-CLOCK-DISCONNECT", "that seat is disconnected");
    if (verb_kind[a->verb] != s->kind && !(a->verb == NAR_V_EDG && (s->kind == NAR_D_DEPLOY || s->kind == NAR_D_CLEAR)))
        return wrong_kind(s, a->verb, err);
    const nar_player *p = &s->p[seat];
    int x = a->nargs > 0 ? a->args[0] : -1;
    switch (a->verb) {
    case NAR_V_REVIEW: case NAR_V_KEEP: return ARB_OK;
    case NAR_V_ORDER:
        if (x < 0 || x >= NAR_CARDS || idx_of(s->order, s->order_n, x) < 0)
            return ARB_ILLEGAL(err, "NAR-P1-SSE-ORDER", "that Facility has no pending SHIFT START effect");
        return ARB_OK;
    case NAR_V_PLAY: return chk_play(s, x, a->nargs == 2, a->nargs == 2 ? a->args[1] : -1, err);
    case NAR_V_STATION:
        if (!in_roster(p, x) || (p->flags[x] & NAR_F_STATIONED)) return ARB_ILLEGAL(err, "NAR-P2-STATION", "station one of your unstationed Personnel");
        return ARB_OK;
    case NAR_V_RECALL:
        if (!in_roster(p, x) || !(p->flags[x] & NAR_F_STATIONED)) return ARB_ILLEGAL(err, "NAR-P2-RECALL", "recall one of your stationed Personnel");
        return ARB_OK;
    case NAR_V_STRIKE:
        if (!in_roster(p, x)) return ARB_ILLEGAL(err, "NAR-P2-STRIKE", "strike with one of your Personnel in play");
        if (!(nar_def(p, x)->flags & NAR_RAIDER)) return ARB_ILLEGAL(err, "NAR-P2-STRIKE", "only a RAIDER strikes");
        if (p->flags[x] & NAR_F_EXHAUSTED) return ARB_ILLEGAL(err, "NAR-P2-STRIKE", "an EXHAUSTED RAIDER cannot strike");
        return ARB_OK;
    case NAR_V_EXHAUST:
        if (!in_roster(p, x) || !is_exhaust(nar_def(p, x))) return ARB_ILLEGAL(err, "NAR-P2-EXHAUST", "that Personnel has no Exhaust: ability");
        if (p->flags[x] & NAR_F_EXHAUSTED) return ARB_ILLEGAL(err, "NAR-P2-EXHAUST", "that Personnel is already EXHAUSTED");
        return ARB_OK;
    case NAR_V_SCRAM:
        if (p->scram_used) return ARB_ILLEGAL(err, "NAR-LIMIT-SCRAM", "SCRAM is once per match");
        if (p->core < NAR_OVERHEAT_K) return ARB_ILLEGAL(err, "NAR-P2-SCRAM", "SCRAM needs your core in the Overheat band (>= 2,400 K)");
        return ARB_OK;
    case NAR_V_EDG:
        if (!has_effect_card(p, NAR_FX_EDG)) return ARB_ILLEGAL(err, "NAR-LIMIT-SWIPES-EDG", "you control no Emergency Diesel Generators");
        if (p->edg_used) return ARB_ILLEGAL(err, "NAR-LIMIT-SWIPES-EDG", "the generators already gave their Swipe this shift");
        return ARB_OK;
    case NAR_V_END: case NAR_V_GUBBY_HEAT: case NAR_V_DECLINE: case NAR_V_DONE: case NAR_V_NOBLOCK: case NAR_V_HEAT: case NAR_V_HACK:
        return ARB_OK;
    case NAR_V_GUBBY_DISCARD:
        if (!in_hand(p, x)) return ARB_ILLEGAL(err, "NAR-TIME-GUBBY", "discard a card from your hand");
        return ARB_OK;
    case NAR_V_DEPLOY: return chk_deploy(s, x, a->args[1], err);
    case NAR_V_CLEAR:
        if (x < 0 || x >= p->nboard) return ARB_ILLEGAL(err, "NAR-P3-CLEAR-OWN", "only Incidents on your own shift can be cleared");
        if (board_clear_cost(s, x) > p->swipes) return ARB_ILLEGAL(err, "NAR-P3-CLEAR-PAY", "not enough Swipes to pay the CLEAR cost");
        return ARB_OK;
    case NAR_V_BLOCK:
        if (!in_roster(p, x) || (p->flags[x] & NAR_F_EXHAUSTED)) return ARB_ILLEGAL(err, "NAR-CROSS-REACH", "block with one of your READY Personnel");
        return ARB_OK;
    case NAR_V_DISCARD:
        if (!in_hand(p, x)) return ARB_ILLEGAL(err, "NAR-P4-HAND", "discard a card from your hand");
        return ARB_OK;
    default: return ARB_INVALID(err, "NAR-P2-REPEAT", "unknown verb");
    }
}

/* ---- contract -------------------------------------------------------- */

int arb_naramo__setup(const arb_game *g, void *st, const arb_setup *su, arb_events *ev, arb_error *err)
{
    (void)g;
    nar_state *s = st;
    int rules = arb_game_rules_select(&arb_game_naramo, su, err);
    if (rules < 0) return rules;
    if (su->players != 2)
        return ARB_ILLEGAL(err, "NAR-MATCH-TWO", "a NARAMO match has exactly two players, not %d", su->players);
    for (int q = 0; q < 2; q++) {
        const arb_deck *d = su->decks[q];
        if (!d) return ARB_INVALID(err, "NAR-DECK-SIZE", "seat %d has no deck", q);
        /* deck_check lists every error before its one possible warning, so
         * the first issue is an error whenever the deck has one. */
        arb_deck_issue is[1];
        if (arb_naramo__deck_check(g, d, is, 1) > 0 && !is[0].warning)
            return ARB_ILLEGAL(err, is[0].rule, "seat %d deck: %s", q, is[0].msg);
    }
    memset(s, 0, sizeof *s);
    s->rules = (uint8_t)rules;
    arb_rng_seed(&s->rng, su->seed);
    s->clock_on = arb_options_get(&su->options, "clock", 1) != 0;
    s->strike_uid = -1;
    s->alarm_seq = -1;
    s->alarm_owner = s->alarm_uid = -1;
    s->winner = -1;
    s->first = -1;
    EV(NAR_E_INIT_REACTORS, -1, 0, NAR_NOMINAL_K, 0, 0);
    for (int q = 0; q < 2; q++) {
        nar_player *p = &s->p[q];
        const arb_deck *d = su->decks[q];
        p->ncards = (uint8_t)d->ncards;
        for (int i = 0; i < d->ncards; i++) { p->card[i] = d->cards[i]; p->deck[i] = (uint8_t)i; }
        p->ndeck = p->ncards;
        p->core = NAR_NOMINAL_K;
        p->disc_at = -1;
        arb_rng_shuffle(&s->rng, p->deck, p->ndeck, 1);
        EV(NAR_E_SHUFFLE, q, 0, 0, 0, 0);
    }
    for (int q = 0; q < 2; q++)
        for (int i = 0; i < NAR_OPEN_DRAW; i++) draw(s, q, ev);
    s->active = 0;
    s->kind = NAR_D_REVIEW;
    return ARB_OK;
}

static int64_t clock_left(const nar_state *s)
{
    int gs;
    uint64_t e = earliest_deadline(s, &gs);
    if (e == UINT64_MAX) return -1;
    return e > s->match_ms ? (int64_t)(e - s->match_ms) : 0;
}

arb_decision arb_naramo__decision(const arb_game *g, const void *st)
{
    (void)g;
    const nar_state *s = st;
    arb_decision d = {ARB_SEAT_NONE, NAR_D_OVER, -1};
    if (s->over) return d;
    d.seat = arb_naramo__owing_seat(s);
    d.kind = s->kind;
    if (s->p[d.seat].disc_at >= 0) { d.seat = ARB_SEAT_ARBITER; d.kind = NAR_D_RECONNECT; }
    d.clock_left_ms = clock_left(s);
    return d;
}

/* Offer an action of `seat` through the core legal-action buffer LB. */
#define PUSH(vb, n_, a0, a1) (LB.seat = seat, arb_legal_add(&LB, (vb), (n_), (a0), (a1), 0, 0))

size_t arb_naramo__legal(const arb_game *g, const void *st, arb_action *out, size_t cap)
{
    (void)g;
    const nar_state *s = st;
    arb_legal LB = arb_legal_init(out, cap, 0);
    if (s->over) return 0;
    int seat = arb_naramo__owing_seat(s);
    if (s->p[seat].disc_at >= 0) {
        int q = seat;
        seat = ARB_SEAT_ARBITER;
        PUSH(NAR_V_RECONNECT, 1, q, 0);
        return LB.n;
    }
    const nar_player *p = &s->p[seat];
    switch (s->kind) {
    case NAR_D_REVIEW: PUSH(NAR_V_REVIEW, 0, 0, 0); PUSH(NAR_V_KEEP, 0, 0, 0); break;
    case NAR_D_ORDER:
        for (int i = 0; i < s->order_n; i++) PUSH(NAR_V_ORDER, 1, s->order[i], 0);
        break;
    case NAR_D_OPS:
        for (int i = 0; i < p->nhand; i++) {
            int uid = p->hand[i];
            const nar_carddef *c = nar_def(p, uid);
            if (c->type == NAR_T_INCIDENT) continue;
            if (c->flags & NAR_TARGETED) {
                for (int k = 0; k < p->nroster; k++)
                    if (chk_play(s, uid, 1, p->roster[k], NULL) == ARB_OK) PUSH(NAR_V_PLAY, 2, uid, p->roster[k]);
            } else if (chk_play(s, uid, 0, -1, NULL) == ARB_OK) {
                PUSH(NAR_V_PLAY, 1, uid, 0);
            }
        }
        for (int k = 0; k < p->nroster; k++) {
            int uid = p->roster[k];
            const nar_carddef *c = nar_def(p, uid);
            PUSH((p->flags[uid] & NAR_F_STATIONED) ? NAR_V_RECALL : NAR_V_STATION, 1, uid, 0);
            if (!(p->flags[uid] & NAR_F_EXHAUSTED)) {
                if (c->flags & NAR_RAIDER) PUSH(NAR_V_STRIKE, 1, uid, 0);
                if (is_exhaust(c)) PUSH(NAR_V_EXHAUST, 1, uid, 0);
            }
        }
        if (!p->scram_used && p->core >= NAR_OVERHEAT_K) PUSH(NAR_V_SCRAM, 0, 0, 0);
        if (edg_usable(p)) PUSH(NAR_V_EDG, 0, 0, 0);
        PUSH(NAR_V_END, 0, 0, 0);
        break;
    case NAR_D_BLOCK:
        for (int k = 0; k < p->nroster; k++)
            if (!(p->flags[p->roster[k]] & NAR_F_EXHAUSTED)) PUSH(NAR_V_BLOCK, 1, p->roster[k], 0);
        PUSH(NAR_V_NOBLOCK, 0, 0, 0);
        break;
    case NAR_D_STRIKE: PUSH(NAR_V_HEAT, 0, 0, 0); PUSH(NAR_V_HACK, 0, 0, 0); break;
    case NAR_D_ALARM:
        for (int i = 0; i < p->nhand; i++) PUSH(NAR_V_GUBBY_DISCARD, 1, p->hand[i], 0);
        PUSH(NAR_V_GUBBY_HEAT, 0, 0, 0);
        break;
    case NAR_D_DEPLOY:
        for (int i = 0; i < p->nhand; i++)
            if (nar_def(p, p->hand[i])->type == NAR_T_INCIDENT)
                for (int q = 0; q < 2; q++)
                    if (s->p[q].nboard < NAR_BOARD_MAX) PUSH(NAR_V_DEPLOY, 2, p->hand[i], q);
        PUSH(NAR_V_DECLINE, 0, 0, 0);
        if (edg_usable(p)) PUSH(NAR_V_EDG, 0, 0, 0);
        break;
    case NAR_D_CLEAR:
        for (int i = 0; i < p->nboard; i++)
            if (board_clear_cost(s, i) <= p->swipes) PUSH(NAR_V_CLEAR, 1, i, 0);
        PUSH(NAR_V_DONE, 0, 0, 0);
        if (edg_usable(p)) PUSH(NAR_V_EDG, 0, 0, 0);
        break;
    case NAR_D_DISCARD:
        for (int i = 0; i < p->nhand; i++) PUSH(NAR_V_DISCARD, 1, p->hand[i], 0);
        break;
    default: break;
    }
    return LB.n;
}

static void perform(nar_state *s, const arb_action *a, arb_events *ev)
{
    int x = a->nargs > 0 ? a->args[0] : -1;
    int seat = a->seat;
    nar_player *p = seat >= 0 ? &s->p[seat] : NULL;
    switch (a->verb) {
    case NAR_V_REVIEW: case NAR_V_KEEP:
        p->timeouts = 0;
        do_review(s, seat, a->verb == NAR_V_REVIEW, ev);
        break;
    case NAR_V_ORDER: do_order(s, x, ev); break;
    case NAR_V_PLAY: do_play(s, x, a->nargs == 2 ? a->args[1] : -1, ev); break;
    case NAR_V_STATION: p->flags[x] |= NAR_F_STATIONED; EV(NAR_E_STATION, seat, 0, x, p->card[x], 0); break;
    case NAR_V_RECALL: p->flags[x] &= (uint8_t)~NAR_F_STATIONED; EV(NAR_E_RECALL, seat, 0, x, p->card[x], 0); break;
    case NAR_V_STRIKE:
        p->flags[x] |= NAR_F_EXHAUSTED;
        s->strike_uid = (int8_t)x;
        s->strike_value = (int16_t)arb_naramo__strike_value(s, seat, x);
        EV(NAR_E_STRIKE, seat, 0, x, p->card[x], s->strike_value);
        s->kind = NAR_D_STRIKE;
        for (int k = 0; k < s->p[1 - seat].nroster; k++)
            if (!(s->p[1 - seat].flags[s->p[1 - seat].roster[k]] & NAR_F_EXHAUSTED)) { s->kind = NAR_D_BLOCK; break; }
        break;
    case NAR_V_EXHAUST: {
        const nar_carddef *c = nar_def(p, x);
        p->flags[x] |= NAR_F_EXHAUSTED;
        EV(NAR_E_EXHAUST, seat, 0, x, p->card[x], 0);
        if (c->effect == NAR_FX_EXH_CORE) core_add(s, seat, c->core_k, ev);
        else hack_add(s, seat, -1, ev);
        break;
    }
    case NAR_V_SCRAM: /* G06 */
        p->scram_used = 1;
        p->shutdown = 1;
        p->shutdown_until = s->shift + 2;
        EV(NAR_E_SCRAM, seat, 0, 0, 0, 0);
        core_add(s, seat, NAR_NOMINAL_K - p->core, ev);
        break;
    case NAR_V_EDG:
        p->edg_used = 1;
        p->swipes++;
        EV(NAR_E_EDG, seat, 0, p->swipes, 0, 0);
        if (s->kind == NAR_D_CLEAR) { /* stays open */ }
        break;
    case NAR_V_END: p->timeouts = 0; end_shift(s, ev); break;
    case NAR_V_GUBBY_DISCARD:
        rm_at(p->hand, &p->nhand, idx_of(p->hand, p->nhand, x));
        to_discard(p, x);
        EV(NAR_E_DISCARD, seat, 0, x, p->card[x], 0);
        s->alarm_owner = s->alarm_uid = -1;
        alarms_continue(s, ev);
        break;
    case NAR_V_GUBBY_HEAT: do_gubby_heat(s, ev); break;
    case NAR_V_DEPLOY: {
        int q = a->args[1];
        rm_at(p->hand, &p->nhand, idx_of(p->hand, p->nhand, x));
        nar_bentry *e = &s->p[q].board[s->p[q].nboard++];
        e->owner = (uint8_t)seat;
        e->uid = (uint8_t)x;
        e->duration = nar_def(p, x)->duration;
        e->pad_ = 0;
        e->seq = s->next_seq++;
        s->deployed = 2;
        EV(NAR_E_DEPLOY, seat, 0, x, q, p->card[x]);
        clear_begin(s, ev);
        break;
    }
    case NAR_V_DECLINE: s->deployed = 1; EV(NAR_E_DECLINE, seat, 0, 0, 0, 0); clear_begin(s, ev); break;
    case NAR_V_CLEAR: {
        nar_bentry e = p->board[x];
        p->swipes = (uint8_t)(p->swipes - board_clear_cost(s, x));
        memmove(&p->board[x], &p->board[x + 1], (size_t)(p->nboard - x - 1) * sizeof p->board[0]);
        p->nboard--;
        to_discard(&s->p[e.owner], e.uid);
        EV(NAR_E_CLEAR, seat, 0, e.owner, e.uid, s->p[e.owner].card[e.uid]);
        clear_begin(s, ev);
        break;
    }
    case NAR_V_DONE: EV(NAR_E_CLEARS_DONE, seat, 0, 0, 0, 0); shift_end(s, ev); break;
    case NAR_V_BLOCK:
        p->flags[x] |= NAR_F_EXHAUSTED;
        EV(NAR_E_BLOCK, seat, 0, x, p->card[x], 0);
        strike_done(s);
        break;
    case NAR_V_NOBLOCK: do_noblock(s, ev); break;
    case NAR_V_HEAT: do_heat(s, ev); break;
    case NAR_V_HACK: do_hack(s, ev); break;
    case NAR_V_DISCARD: do_discard(s, x, ev); discard_step(s, ev); break;
    case NAR_V_DISCONNECT:
        s->p[x].disc_at = (int64_t)s->match_ms;
        EV(NAR_E_DISCONNECT, x, 0, 0, 0, 0);
        break;
    case NAR_V_RECONNECT:
        if (s->match_ms >= (uint64_t)s->p[x].disc_at + NAR_GRACE_MS) {
            EV(NAR_E_RECONNECT, x, 0, 1, 0, 0);
            game_over(s, 1 - x, NAR_R_DISCONNECT, ev);
        } else {
            s->p[x].disc_at = -1;
            EV(NAR_E_RECONNECT, x, 0, 0, 0, 0);
        }
        break;
    case NAR_V_TIMEOUT: {
        int gs;
        uint64_t e = earliest_deadline(s, &gs);
        s->match_ms = e; /* excess past the deadline is dropped */
        if (gs >= 0) {
            EV(NAR_E_TIMEOUT, gs, 0, 0, 1, 0);
            game_over(s, 1 - gs, NAR_R_DISCONNECT, ev);
            break;
        }
        int owe = arb_naramo__owing_seat(s);
        nar_player *o = &s->p[owe];
        if (o->timeouts < NAR_COUNTER_MAX) o->timeouts++;
        /* naramo-2 (L38, G22): the opponent's timeout ends the shift player's
         * shift without a timeout of theirs, so their run is broken. */
        if (s->rules >= 2 && owe != s->active) s->p[s->active].timeouts = 0;
        s->shift_ms = NAR_CLOCK_MS;
        EV(NAR_E_TIMEOUT, owe, 0, o->timeouts, 0, 0);
        if (o->timeouts >= NAR_FORFEIT_TIMEOUTS) {
            EV(NAR_E_FORFEIT, owe, 0, 0, 0, 0);
            game_over(s, 1 - owe, NAR_R_TIMEOUTS, ev);
            break;
        }
        if (s->kind == NAR_D_REVIEW) do_review(s, owe, 0, ev);
        else run_defaults(s, ev);
        break;
    }
    default: break;
    }
}

int arb_naramo__apply(const arb_game *g, void *st, const arb_action *a, arb_events *ev, arb_error *err)
{
    (void)g;
    nar_state *s = st;
    int rc = validate(s, a, err);
    if (rc != ARB_OK) return rc;
    s->match_ms += a->elapsed_ms;
    uint64_t sm = (uint64_t)s->shift_ms + a->elapsed_ms;
    s->shift_ms = sm > UINT32_MAX ? UINT32_MAX : (uint32_t)sm;
    perform(s, a, ev);
    return ARB_OK;
}

/* ---- hash and small queries ----------------------------------------- */

uint64_t arb_naramo__hash(const arb_game *g, const void *st)
{
    (void)g;
    const nar_state *s = st;
    arb_hasher h;
    arb_hasher_init(&h);
    arb_hasher_str(&h, "naramo-1");
    for (int i = 0; i < 4; i++) arb_hasher_u64(&h, s->rng.s[i]);
    arb_hasher_u64(&h, s->match_ms);
    arb_hasher_u32(&h, s->shift_ms);
    arb_hasher_u32(&h, s->shift);
    arb_hasher_u32(&h, s->next_seq);
    arb_hasher_i32(&h, s->alarm_seq);
    arb_hasher_i32(&h, s->strike_value);
    arb_hasher_i32(&h, s->strike_uid);
    arb_hasher_i32(&h, s->alarm_owner);
    arb_hasher_i32(&h, s->alarm_uid);
    arb_hasher_i32(&h, s->active);
    arb_hasher_i32(&h, s->first);
    arb_hasher_u8(&h, s->kind);
    arb_hasher_u8(&h, s->clock_on);
    arb_hasher_u8(&h, s->deployed);
    arb_hasher_u8(&h, s->order_n);
    arb_hasher_bytes(&h, s->order, s->order_n); /* u8 array: the same bytes */
    arb_hasher_u8(&h, s->over);
    arb_hasher_u8(&h, s->reason);
    arb_hasher_i32(&h, s->winner);
    for (int q = 0; q < 2; q++) {
        const nar_player *p = &s->p[q];
        arb_hasher_i64(&h, p->disc_at);
        arb_hasher_i32(&h, p->core);
        arb_hasher_u32(&h, p->shutdown_until);
        arb_hasher_u8(&h, p->hack);
        arb_hasher_u8(&h, p->po);
        arb_hasher_u8(&h, p->clearance);
        arb_hasher_u8(&h, p->swipes);
        arb_hasher_u8(&h, p->scram_used);
        arb_hasher_u8(&h, p->shutdown);
        arb_hasher_u8(&h, p->review_used);
        arb_hasher_u8(&h, p->decked);
        arb_hasher_u8(&h, p->act_used);
        arb_hasher_u8(&h, p->doctrine_used);
        arb_hasher_u8(&h, p->edg_used);
        arb_hasher_u8(&h, p->timeouts);
        arb_hasher_u8(&h, p->ncards);
        arb_hasher_u16s(&h, p->card, p->ncards);
        arb_hasher_u8(&h, p->ndeck);
        arb_hasher_bytes(&h, p->deck, p->ndeck); /* u8 array: the same bytes */
        arb_hasher_u8(&h, p->nhand);
        arb_hasher_bytes(&h, p->hand, p->nhand); /* u8 array: the same bytes */
        arb_hasher_u8(&h, p->nroster);
        for (int i = 0; i < p->nroster; i++) {
            arb_hasher_u8(&h, p->roster[i]);
            arb_hasher_u8(&h, p->flags[p->roster[i]]);
        }
        arb_hasher_u8(&h, p->nequip);
        for (int i = 0; i < p->nequip; i++) { arb_hasher_u8(&h, p->equip[i]); arb_hasher_u8(&h, p->equip_host[i]); }
        arb_hasher_u8(&h, p->nsite);
        arb_hasher_bytes(&h, p->site, p->nsite); /* u8 array: the same bytes */
        arb_hasher_u8(&h, p->ndiscard);
        arb_hasher_bytes(&h, p->discard, p->ndiscard); /* u8 array: the same bytes */
        arb_hasher_u8(&h, p->nboard);
        for (int i = 0; i < p->nboard; i++) {
            arb_hasher_u8(&h, p->board[i].owner);
            arb_hasher_u8(&h, p->board[i].uid);
            arb_hasher_i32(&h, p->board[i].duration);
            arb_hasher_u32(&h, p->board[i].seq);
        }
        arb_hasher_u8(&h, p->neffects);
        for (int i = 0; i < p->neffects; i++) {
            arb_hasher_u8(&h, p->effects[i].uid);
            arb_hasher_u32(&h, p->effects[i].until);
        }
    }
    /* From naramo-2 on the version is part of the state (naramo-1 hashes
     * as it always did, so its replays keep verifying). */
    if (s->rules >= 2) arb_hasher_u8(&h, s->rules);
    return arb_hasher_final(&h);
}

int arb_naramo__outcome(const arb_game *g, const void *st, arb_outcome *out)
{
    (void)g;
    const nar_state *s = st;
    out->over = s->over;
    out->winner = s->over ? s->winner : -1;
    out->reason = s->reason;
    out->turns = s->shift;
    return out->over;
}

uint32_t arb_naramo__turn(const arb_game *g, const void *st)
{
    (void)g;
    const nar_state *s = st;
    return s->shift ? s->shift : 1;
}

const char *arb_naramo__phase_of(unsigned kind)
{
    switch (kind) {
    case NAR_D_REVIEW: return "review";
    case NAR_D_ORDER: return "shift_start";
    case NAR_D_OPS: case NAR_D_BLOCK: case NAR_D_STRIKE: return "operations";
    case NAR_D_ALARM: case NAR_D_DEPLOY: case NAR_D_CLEAR: return "incident";
    case NAR_D_DISCARD: return "shift_end";
    default: return "over";
    }
}

const char *arb_naramo__phase(const arb_game *g, const void *st) { (void)g; return arb_naramo__phase_of(((const nar_state *)st)->kind); }
