/* agent.c — the greedy Brainstorm agent.
 *
 * Scores each legal action with a fixed heuristic and takes the best (ties:
 * a uniform pick drawn from the agent's rng, arb_greedy_pick, as in every
 * game; before contract 3 the first in legal() order, so greedy Brainstorm
 * self-play files of arbiter 0.2 are not reproduced; they still verify).
 * It reads only what export_state(st, seat) shows that seat: its own Hand,
 * both Machines, the Stack and Deck counts — never a Deck's order or the
 * opponent's Hand. The plan it follows: enable
 * Modules, route the Generator towards a Shredder (which mills the
 * opponent, the quickest way to win by deck-out, G02), spend Charge there,
 * Overload the opponent's focused Modules, and avoid extra draws when its
 * own Deck runs low. */
#include "games/brainstorm/brainstorm.h"

static int module_value(const brn_carddef *d)
{
    if (d->ability == BRN_AB_MILL) return 9;
    if (d->transfer_bonus) return 7;
    if (d->outs >= 2) return 6;
    if (d->ability == BRN_AB_DRAW) return 5;
    return 4;
}

static int card_value(const brn_state *s, int seat, int uid)
{
    const brn_carddef *d = arb_brainstorm__def(s, seat, uid);
    int deck = s->p[seat].nz[BRN_Z_DECK];
    switch (d->type) {
    case BRN_T_MODULE: return 10 + module_value(d);
    case BRN_T_CELL:
        if (d->mod_gen) return 8;
        if (d->mod_out_links) return 4;
        if (d->mod_max_hand || d->no_discard) return 3;
        if (d->mod_draws || d->eoc_draw) return deck > 15 ? 2 : -5;
        return 1;
    case BRN_T_TACTIC:
        if (d->effect == BRN_FX_GEN_CHARGE) return 7;
        if (d->effect == BRN_FX_DRAW) return deck > 10 ? 1 : -5;
        return 5;
    default: return 0;
    }
}

static int score(const void *st, const arb_action *a)
{
    const brn_state *s = st;
    int seat = a->seat;
    const brn_player *p = &s->p[seat];
    const int32_t *x = a->args;
    switch (a->verb) {
    case BRN_V_PASS: return 0;
    case BRN_V_ENABLE: return card_value(s, seat, x[0]);
    case BRN_V_PLAY: {
        const brn_carddef *d = arb_brainstorm__def(s, seat, x[0]);
        if (d->target == BRN_TGT_FOCUSED_MODULE) {
            if (x[1] == seat) return -10;
            return s->p[x[1]].c[x[2]].charge > 0 ? 6 + s->p[x[1]].c[x[2]].charge : -1;
        }
        if (d->target == BRN_TGT_OWN_INACTIVE_CELL) {
            const brn_carddef *t = arb_brainstorm__def(s, seat, x[2]);
            return t->mod_gen ? 6 : (t->eoc_draw ? -2 : 2);
        }
        return card_value(s, seat, x[0]);
    }
    case BRN_V_LINK: {
        int v = module_value(arb_brainstorm__def(s, seat, x[2]));
        return v + (x[0] == p->gen ? 3 : 0);
    }
    case BRN_V_BOOT: {
        int gen = p->c[p->gen].charge;
        return module_value(arb_brainstorm__def(s, seat, x[0])) * 40 + (x[1] == gen ? 30 : x[1]);
    }
    case BRN_V_FOCUS: return module_value(arb_brainstorm__def(s, seat, x[1]));
    case BRN_V_USE: {
        const brn_carddef *d = arb_brainstorm__def(s, seat, x[0]);
        if (d->ability == BRN_AB_MILL) return 20;
        return p->nz[BRN_Z_DECK] > 8 ? 5 : -1;
    }
    case BRN_V_DISCARD: return -card_value(s, seat, x[0]);
    default: return -100;
    }
}

size_t arb_brainstorm__greedy(const arb_game *g, const void *st, const arb_action *legal, size_t n, arb_rng *rng)
{
    (void)g;
    return arb_greedy_pick(st, legal, n, score, rng);
}
