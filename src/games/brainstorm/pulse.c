/* pulse.c — the Pulse: Bootstrap and the Run's Focus step.
 *
 * Bootstrap (G10, G21) is a sequence of single choices "boot MODULE AMOUNT",
 * players alternating lead first, each choice using the lowest unused
 * Generator Output linked to the Module; a player's Bootstrap ends when the
 * Generator's Charge is spent (after at least one choice) or no eligible
 * Module remains, and the last possible choice must take all the remaining
 * Charge. Focus (G11) processes every Module focused at its start: players
 * alternate, lead first, choosing "focus FROM TO" while they can; a focused
 * Module with no unused linked Output is unfocused and emptied (L47). The
 * Run restarts only if something was chosen, and every choice uses an
 * Output that stays used until Reset, so the Run loop terminates after at
 * most (Outputs on both Machines + 1) iterations (BRN-FOCUS-TERMINATES). */
#include "games/brainstorm/brainstorm.h"

void arb_brainstorm__give_charge(brn_state *s, int seat, int uid, int amount, arb_events *ev)
{
    brn_cardst *c = &s->p[seat].c[uid];
    if (s->rules < 2) {
        int v = c->charge + arb_brainstorm__hook_transfer(s, seat, uid, amount);
        c->charge = (uint8_t)(v > BRN_CHARGE_MAX ? BRN_CHARGE_MAX : v);
        return;
    }
    int v = c->charge + amount;
    c->charge = (uint8_t)(v > BRN_CHARGE_MAX ? BRN_CHARGE_MAX : v);
    /* draft0-2 (L19, G04): Amplifier's "whenever" is a triggered effect and
     * goes through the Stack; Bootstrap and Focus give no Action, so it
     * resolves at once (like End of Cycle triggers). */
    if (arb_brainstorm__hook_transfer(s, seat, uid, amount) != amount && s->nstack < BRN_STACK_MAX) {
        arb_brainstorm__push(s, BRN_S_TRIGGER, seat, uid, BRN_NONE, BRN_NONE, ev);
        arb_brainstorm__resolve_top(s, ev);
    }
}

/* draft0-1: the lowest unused Generator Output linked to the Module (the
 * Focus restriction of L45, which L38 does not have). draft0-2 (L38): the
 * lowest Generator Output linked to the Module, used or not (Splice Cell
 * puts two Links on one Output), for a Module not yet chosen this Bootstrap. */
int arb_brainstorm__boot_port(const brn_state *s, int seat, int uid)
{
    const brn_player *p = &s->p[seat];
    if (p->gen == BRN_NONE || arb_brainstorm__def(s, seat, uid)->type != BRN_T_MODULE) return -1;
    int any = s->rules >= 2;
    if (any && (p->c[uid].flags & BRN_F_FOCUSED)) return -1;
    int best = -1;
    for (int i = 0; i < p->nlinks; i++) {
        const brn_link *l = &p->links[i];
        if (l->from == p->gen && l->to == uid && (any || !(p->c[p->gen].used & (1u << l->out))) &&
            (best < 0 || l->out < best))
            best = l->out;
    }
    return best;
}

int arb_brainstorm__boot_others(const brn_state *s, int seat, int uid, int port)
{
    if (s->rules < 2) return arb_brainstorm__boot_outputs(s, seat, port);
    const brn_player *p = &s->p[seat];
    int n = 0;
    for (int i = 0; i < p->nz[BRN_Z_MACHINE]; i++) {
        int m = p->z[BRN_Z_MACHINE][i];
        if (m != uid && arb_brainstorm__boot_port(s, seat, m) >= 0) n++;
    }
    return n;
}

int arb_brainstorm__boot_outputs(const brn_state *s, int seat, int skip_out)
{
    const brn_player *p = &s->p[seat];
    if (p->gen == BRN_NONE) return 0;
    unsigned mask = 0;
    for (int i = 0; i < p->nlinks; i++) {
        const brn_link *l = &p->links[i];
        if (l->from == p->gen && l->out != skip_out && !(p->c[p->gen].used & (1u << l->out)))
            mask |= 1u << l->out;
    }
    int n = 0;
    for (; mask; mask &= mask - 1) n++;
    return n;
}

int arb_brainstorm__boot_done(const brn_state *s, int seat)
{
    const brn_player *p = &s->p[seat];
    if (p->gen == BRN_NONE || arb_brainstorm__boot_others(s, seat, -1, -1) == 0) return 1;
    return p->boot_count > 0 && p->c[p->gen].charge == 0;
}

static void start_run(brn_state *s, arb_events *ev)
{
    arb_events_push(ev, BRN_E_RUN, -1, 0, s->run, s->cycle, 0);
    arb_brainstorm__enter(s, BRN_P_PLUG, ev);
}

void arb_brainstorm__bootstrap_next(brn_state *s, int just_moved, arb_events *ev)
{
    int first = just_moved < 0 ? s->lead : just_moved ^ 1;
    for (int k = 0; k < BRN_PLAYERS; k++) {
        int seat = (first + k) % BRN_PLAYERS;
        if (!arb_brainstorm__boot_done(s, seat)) { s->actor = (uint8_t)seat; return; }
    }
    s->run = 1;
    start_run(s, ev);
}

int arb_brainstorm__focus_port(const brn_state *s, int seat, int from, int to)
{
    const brn_player *p = &s->p[seat];
    int best = -1;
    for (int i = 0; i < p->nlinks; i++) {
        const brn_link *l = &p->links[i];
        if (l->from == from && l->to == to && !(p->c[from].used & (1u << l->out)) &&
            (best < 0 || l->out < best))
            best = l->out;
    }
    return best;
}

int arb_brainstorm__focus_has_choice(const brn_state *s, int seat, int uid)
{
    const brn_player *p = &s->p[seat];
    for (int i = 0; i < p->nlinks; i++)
        if (p->links[i].from == uid && !(p->c[uid].used & (1u << p->links[i].out))) return 1;
    return 0;
}

void arb_brainstorm__focus_next(brn_state *s, int just_moved, arb_events *ev)
{
    int first = just_moved < 0 ? s->lead : just_moved ^ 1;
    for (int k = 0; k < BRN_PLAYERS; k++) {
        int seat = (first + k) % BRN_PLAYERS;
        brn_player *p = &s->p[seat];
        for (int i = 0; i < p->nz[BRN_Z_MACHINE]; i++) {
            int uid = p->z[BRN_Z_MACHINE][i];
            if ((p->c[uid].flags & BRN_F_PENDING) && arb_brainstorm__focus_has_choice(s, seat, uid)) {
                s->actor = (uint8_t)seat;
                return;
            }
        }
        /* BRN-FOCUS-CANNOT: nothing left to choose for this seat */
        for (int i = 0; i < p->nz[BRN_Z_MACHINE]; i++) {
            int uid = p->z[BRN_Z_MACHINE][i];
            brn_cardst *c = &p->c[uid];
            if (!(c->flags & BRN_F_PENDING)) continue;
            arb_events_push(ev, BRN_E_UNFOCUS, seat, 0, uid, c->charge, 0);
            c->flags &= (uint8_t)~(BRN_F_PENDING | BRN_F_FOCUSED);
            c->charge = 0;
        }
    }
    if (s->chosen && s->run < BRN_RUN_MAX) {   /* BRN-FOCUS-RESTART */
        s->run++;
        start_run(s, ev);
        return;
    }
    arb_brainstorm__enter(s, BRN_P_END, ev);          /* BRN-FOCUS-STOP */
}
