/* stack.c — the Stack: Tactics and Cells played, and triggered effects.
 *
 * Interpretation G04: last in, first out. An item is pushed when a card is
 * played or an effect triggers; in an Action phase the top item resolves
 * when both players pass in sequence. End of Cycle gives no Action, so its
 * triggers (pushed lead player first) resolve top to bottom at once. Each
 * push and resolution is an event, which is how conformance cases assert
 * the resolution order. */
#include "games/brainstorm/brainstorm.h"

void arb_brainstorm__push(brn_state *s, int kind, int seat, int uid, int tseat, int tuid, arb_events *ev)
{
    brn_item *it = &s->stack[s->nstack++];
    it->kind = (uint8_t)kind; it->seat = (uint8_t)seat; it->uid = (uint8_t)uid;
    it->tseat = (uint8_t)tseat; it->tuid = (uint8_t)tuid;
    if (kind == BRN_S_CARD)
        arb_events_push(ev, BRN_E_PLAY, seat, 0, uid, s->p[seat].c[uid].id,
                        tseat == BRN_NONE ? -1 : tseat * 256 + tuid);
    else
        arb_events_push(ev, BRN_E_TRIGGER, seat, 0, uid, s->p[seat].c[uid].id, s->nstack);
}

int arb_brainstorm__triggers(const brn_state *s, int seat, int uid)
{
    const brn_carddef *d = arb_brainstorm__def(s, seat, uid);
    if (d->eoc_draw) return 1;
    return s->rules >= 2 && ((d->type == BRN_T_CELL && !d->research && d->mod_gen) || d->transfer_bonus);
}

static int target_ok(const brn_state *s, const brn_item *it)
{
    return it->tseat < BRN_PLAYERS && it->tuid < s->p[it->tseat].ncards &&
           s->p[it->tseat].c[it->tuid].zone == BRN_Z_MACHINE;
}

/* Power Cell: "When this Cell becomes active, your Generator gets 1 Charge"
 * (a non-Research Cell is always inactive again at the next Start). */
static void gen_bonus(brn_state *s, int seat, const brn_carddef *d, arb_events *ev)
{
    brn_player *p = &s->p[seat];
    if (p->gen == BRN_NONE) return;
    int v = p->c[p->gen].charge + d->mod_gen;
    if (v > BRN_CHARGE_MAX) v = BRN_CHARGE_MAX;
    p->c[p->gen].charge = (uint8_t)v;
    arb_events_push(ev, BRN_E_GEN_BONUS, seat, 0, p->gen, d->mod_gen, v);
}

/* draft0-1 applied it at once; draft0-2 (L19 "triggered effects go through
 * [the Stack] before affecting the game", G04) puts a trigger on the Stack,
 * which resolves like any item (both players pass). */
static void on_active(brn_state *s, int seat, int uid, arb_events *ev)
{
    const brn_carddef *d = arb_brainstorm__def(s, seat, uid);
    brn_player *p = &s->p[seat];
    if (d->research || !d->mod_gen || p->gen == BRN_NONE) return;
    if (s->rules >= 2) {
        if (s->nstack < BRN_STACK_MAX) arb_brainstorm__push(s, BRN_S_TRIGGER, seat, uid, BRN_NONE, BRN_NONE, ev);
        return;
    }
    int v = p->c[p->gen].charge + d->mod_gen;
    if (v > BRN_CHARGE_MAX) v = BRN_CHARGE_MAX;
    p->c[p->gen].charge = (uint8_t)v;
    arb_events_push(ev, BRN_E_GEN_BONUS, seat, 0, p->gen, d->mod_gen, v);
}

static void effect(brn_state *s, const brn_item *it, const brn_carddef *d, arb_events *ev)
{
    int seat = it->seat;
    switch (d->effect) {
    case BRN_FX_DRAW:
        if (arb_brainstorm__draw(s, seat, d->amount, ev) < 0) arb_brainstorm__finish(s, seat ^ 1, BRN_R_DECKOUT, ev);
        return;
    case BRN_FX_DRAIN: {
        brn_cardst *t = target_ok(s, it) ? &s->p[it->tseat].c[it->tuid] : NULL;
        if (!t || !(t->flags & BRN_F_FOCUSED)) {
            arb_events_push(ev, BRN_E_FIZZLE, seat, 0, it->uid, 0, 0);
            return;
        }
        int lose = t->charge < d->amount ? t->charge : d->amount;
        t->charge = (uint8_t)(t->charge - lose);
        arb_events_push(ev, BRN_E_DRAIN, it->tseat, 0, it->tuid, lose, t->charge);
        return;
    }
    case BRN_FX_ACTIVATE: {
        brn_cardst *t = target_ok(s, it) && it->tseat == seat ? &s->p[seat].c[it->tuid] : NULL;
        if (!t || (t->flags & BRN_F_ACTIVE) || arb_brainstorm__cards[t->id].type != BRN_T_CELL) {
            arb_events_push(ev, BRN_E_FIZZLE, seat, 0, it->uid, 0, 0);
            return;
        }
        t->flags |= BRN_F_ACTIVE;
        arb_events_push(ev, BRN_E_CELL_ON, seat, 0, it->tuid, t->id, 0);
        on_active(s, seat, it->tuid, ev);
        return;
    }
    case BRN_FX_GEN_CHARGE: {
        brn_player *p = &s->p[seat];
        if (p->gen == BRN_NONE) { arb_events_push(ev, BRN_E_FIZZLE, seat, 0, it->uid, 0, 0); return; }
        int v = p->c[p->gen].charge + d->amount;
        if (v > BRN_CHARGE_MAX) v = BRN_CHARGE_MAX;
        p->c[p->gen].charge = (uint8_t)v;
        arb_events_push(ev, BRN_E_GEN_BONUS, seat, 0, p->gen, d->amount, v);
        return;
    }
    default:
        return;
    }
}

void arb_brainstorm__resolve_top(brn_state *s, arb_events *ev)
{
    if (!s->nstack) return;
    brn_item it = s->stack[--s->nstack];
    brn_player *p = &s->p[it.seat];
    const brn_carddef *d = arb_brainstorm__def(s, it.seat, it.uid);
    arb_events_push(ev, BRN_E_RESOLVE, it.seat, 0, it.uid, it.kind, p->c[it.uid].id);
    if (it.kind == BRN_S_TRIGGER && s->rules >= 2 && d->type == BRN_T_CELL && !d->research && d->mod_gen) {
        gen_bonus(s, it.seat, d, ev);   /* Power Cell: "when this Cell becomes active" */
        return;
    }
    if (it.kind == BRN_S_TRIGGER && s->rules >= 2 && d->transfer_bonus) {
        brn_cardst *c = &p->c[it.uid];   /* Amplifier: "whenever Charge is transferred" */
        if (c->zone != BRN_Z_MACHINE) return;
        int v = c->charge + d->transfer_bonus;
        c->charge = (uint8_t)(v > BRN_CHARGE_MAX ? BRN_CHARGE_MAX : v);
        arb_events_push(ev, BRN_E_AMPLIFY, it.seat, 0, it.uid, d->transfer_bonus, c->charge);
        return;
    }
    if (it.kind == BRN_S_TRIGGER) {     /* Echo Trigger and kin */
        if (arb_brainstorm__draw(s, it.seat, d->eoc_draw, ev) < 0)
            arb_brainstorm__finish(s, it.seat ^ 1, BRN_R_DECKOUT, ev);
        return;
    }
    if (d->type == BRN_T_CELL) {        /* G04/G07: a resolved Cell enters the Machine, active */
        arb_brainstorm__zone_add(p, it.uid, BRN_Z_MACHINE);
        p->c[it.uid].flags = BRN_F_ACTIVE;
        arb_events_push(ev, BRN_E_CELL_ON, it.seat, 0, it.uid, p->c[it.uid].id, 0);
        on_active(s, it.seat, it.uid, ev);
        return;
    }
    effect(s, &it, d, ev);
    arb_brainstorm__zone_add(p, it.uid, BRN_Z_SCRAP);  /* G08/G18 */
    arb_events_push(ev, BRN_E_TO_SCRAP, it.seat, 0, it.uid, p->c[it.uid].id, 0);
}

void arb_brainstorm__eoc_triggers(brn_state *s, arb_events *ev)
{
    for (int k = 0; k < BRN_PLAYERS; k++) {
        int seat = (s->lead + k) % BRN_PLAYERS;
        const brn_player *p = &s->p[seat];
        for (int i = 0; i < p->nz[BRN_Z_MACHINE]; i++) {
            int uid = p->z[BRN_Z_MACHINE][i];
            const brn_carddef *d = arb_brainstorm__def(s, seat, uid);
            if (d->type == BRN_T_CELL && d->eoc_draw && (p->c[uid].flags & BRN_F_ACTIVE) &&
                s->nstack < BRN_STACK_MAX)
                arb_brainstorm__push(s, BRN_S_TRIGGER, seat, uid, BRN_NONE, BRN_NONE, ev);
        }
    }
    while (s->nstack && !s->over) arb_brainstorm__resolve_top(s, ev);
}
