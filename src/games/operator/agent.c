/* agent.c — the greedy OPERATOR agent: scores each legal action
 * with a fixed heuristic and takes the best (ties broken by the agent's own
 * PRNG). It reads only what export_state(st, seat) shows that seat: its own
 * hand and slots, and every player's public board (Health, Cover, Armor,
 * discard tops). It never looks at another hand or at any deck order. */
#include "games/operator/operator.h"

/* How much a card is worth keeping, for the opening discard. */
static int keep_value(const ops_card *c)
{
    switch (c->kind) {
    case OPS_K_WEAPON: return 6 + c->power;
    case OPS_K_ARMOR: return 7 + c->armor;
    case OPS_K_COVER: return 6 + c->cover;
    case OPS_K_MODIFIER: return 4;
    case OPS_K_BOOST: return 4;
    case OPS_K_STRATEGIC: return 3;
    case OPS_K_MOVE: case OPS_K_ACTION: return 1 + c->reduce;
    default: return 0;
    }
}

static int top_cost(const ops_player *p)
{
    return p->ndiscard ? ops_uc(p, p->discard[p->ndiscard - 1])->cost : 0;
}

/* Would an attack on t pass Step 3 now? Public: both tops, t's Cover;
 * own: the Laser Sights on the weapon this attack would use. */
static int breaks_cover(const ops_state *s, int seat, int t)
{
    const ops_player *me = &s->p[seat], *tp = &s->p[t];
    if (tp->cover < 0) return 1;
    int src, wuid, mode = me->cover >= 0 ? OPS_MODE_RANGED : OPS_MODE_CLOSE;
    arb_operator__weapon_for(s, seat, mode, &src, &wuid);
    int slot = src == OPS_SRC_CARD ? OPS_SLOT_WEAPON : OPS_SLOT_PERSONALITY, bonus = 0;
    for (int i = 0; i < me->nmods[slot]; i++) bonus += ops_uc(me, me->mods[slot][i])->mod_cover;
    return top_cost(me) + top_cost(tp) + bonus > ops_uc(tp, tp->cover)->cover;
}

static int any_breakable(const ops_state *s, int seat)
{
    for (int t = 0; t < s->players; t++)
        if (t != seat && !s->p[t].eliminated && breaks_cover(s, seat, t)) return 1;
    return 0;
}

static int holds_boost(const ops_player *me)
{
    for (int i = 0; i < me->nhand; i++)
        if (ops_uc(me, me->hand[i])->kind == OPS_K_BOOST) return 1;
    return 0;
}

static int score(const void *st, const arb_action *a)
{
    const ops_state *s = st;
    int seat = s->owner;
    const ops_player *me = &s->p[seat];
    const ops_card *c = a->nargs && a->verb != OPS_V_ATTACK && a->args[0] >= 0 && a->args[0] < me->ncards
                            ? ops_uc(me, a->args[0]) : NULL;
    switch (a->verb) {
    case OPS_V_DISCARD: return c ? -keep_value(c) : 0;
    case OPS_V_EQUIP:
        if (s->phase == OPS_PH_OPEN_EQUIP) return 10;
        if (a->args[1] == OPS_SLOT_COVER) return 10;
        if (a->args[1] == OPS_SLOT_ARMOR) return me->armor < 0 ? 9 : -5;
        return me->weapon < 0 ? 8 : -5;
    case OPS_V_ATTACH:
        if (a->args[1] == OPS_SLOT_WEAPON) return 6;
        if (a->args[1] == OPS_SLOT_ARMOR) return 4;
        return 3;
    case OPS_V_MOVE:
        /* Leaving Cover puts the old Cover on top of the discard pile, which
         * feeds the next Step 3; worth it only when no attack would land. */
        return a->nargs == 1 && !any_breakable(s, seat) && ops_uc(me, me->cover)->cost > top_cost(me) ? 4 : -5;
    case OPS_V_ATTACK: {
        const ops_player *t = &s->p[a->args[0]];
        int v = 20 + (OPS_START_HEALTH - t->health);
        if (!breaks_cover(s, seat, a->args[0]) && !holds_boost(me))
            return a->args[1] == OPS_SRC_CARD ? -3 : 1; /* a sure miss wastes a card weapon */
        if (t->cover < 0) v += 5;
        if (t->armor < 0) v += 2;
        return v;
    }
    case OPS_V_PLAY:
        if (!c) return 0;
        if (c->heal) return me->health <= OPS_START_HEALTH - 8 ? 30 : -1;
        if (c->end_draw) return 2;
        return -1;
    case OPS_V_BOOST: return c ? 5 + c->boost_power + 2 * c->boost_attacks : 0;
    case OPS_V_REACT: return c ? 3 * c->reduce : 0;
    default: return 0; /* done, pass */
    }
}

size_t arb_operator__greedy(const arb_game *g, const void *st, const arb_action *legal, size_t n, arb_rng *rng)
{
    (void)g;
    return arb_greedy_pick(st, legal, n, score, rng);
}
