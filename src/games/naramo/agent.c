/* agent.c — the greedy NARAMO heuristic. It scores each legal action from
 * what the acting seat may see (its own hand and zones, both Reactors, the
 * public boards; never the opponent's hand or any deck order) and picks the
 * best, breaking ties with the agent's own PRNG. It keeps its core inside
 * the Power Order band, SCRAMs when overheated, builds its Site, strikes,
 * blocks, and pays CLEAR costs with Swipes that would be lost anyway. */
#include "games/naramo/naramo.h"

static int card_value(const nar_carddef *c)
{
    switch (c->type) {
    case NAR_T_INCIDENT: return 50;
    case NAR_T_FACILITY: return 45 + c->cost;
    case NAR_T_PERSONNEL: return 35 + c->cost + c->strike / 50;
    case NAR_T_EQUIPMENT: return 15;
    default: return c->effect == NAR_FX_PR_DRAW ? 10 : 25;
    }
}

static int own_exhausted_raiders(const nar_player *p)
{
    int n = 0;
    for (int i = 0; i < p->nroster; i++)
        if ((nar_def(p, p->roster[i])->flags & NAR_RAIDER) && (p->flags[p->roster[i]] & NAR_F_EXHAUSTED)) n++;
    return n;
}

static int opp_raiders(const nar_player *o)
{
    int n = 0;
    for (int i = 0; i < o->nroster; i++) n += (nar_def(o, o->roster[i])->flags & NAR_RAIDER) != 0;
    return n;
}

static int count_commanders(const nar_player *p)
{
    int n = 0;
    for (int i = 0; i < p->nroster; i++) n += (nar_def(p, p->roster[i])->flags & NAR_COMMANDER) != 0;
    return n;
}

/* Where the core will stand after the next own Base Load and the alarms on
 * our own board: the number the agent steers by. */
static int projected(const nar_player *p)
{
    int k = p->core + (p->shutdown ? 0 : p->hack >= NAR_HACK_THRESHOLD ? NAR_BASELOAD_HACK_K : NAR_BASELOAD_K);
    return k + 100 * p->nboard;
}

/* Cooling by `amount` is worth it when the projection overheats, and never
 * when it would drop the core below nominal (no Power Order then). */
static int cool_score(const nar_player *p, int amount, int hi, int mid)
{
    if (p->core - amount < NAR_NOMINAL_K) return -5;
    int pr = projected(p);
    return pr >= NAR_OVERHEAT_K ? hi : pr >= NAR_OVERHEAT_K - 150 ? mid : -5;
}

static int score_play(const nar_state *s, const nar_player *p, const nar_player *o, int uid, int target)
{
    const nar_carddef *c = nar_def(p, uid);
    switch (c->type) {
    case NAR_T_FACILITY:
        switch (c->effect) {
        case NAR_FX_SS_CORE: return projected(p) >= 2000 ? 150 : 80;
        case NAR_FX_SS_REACTOR_HALL: return 120;
        case NAR_FX_SS_CLEARANCE: return p->clearance < 3 ? 90 : 30;
        case NAR_FX_EDG: return 85;
        default: return 95;
        }
    case NAR_T_PERSONNEL:
        if (c->flags & NAR_RAIDER) return 110 + c->strike / 10;
        if (c->flags & NAR_COMMANDER) return count_commanders(p) ? 25 : 75;
        if (c->effect == NAR_FX_EXH_CORE) return 90;
        if (c->effect == NAR_FX_EXH_HACK) return 60 + 10 * p->hack;
        return 55;
    case NAR_T_EQUIPMENT:
        if (c->effect == NAR_FX_EQ_STRIKE)
            return (nar_def(p, target)->flags & NAR_RAIDER) ? 80 : 5;
        return 12;
    case NAR_T_PROCEDURE:
        switch (c->effect) {
        case NAR_FX_PR_CORE: { /* the heuristic's weights per cooling amount */
            int k = -c->core_k;
            return k >= 150 ? cool_score(p, k, 185, 65) : k >= 100 ? cool_score(p, k, 180, 60) : cool_score(p, k, 170, 50);
        }
        case NAR_FX_PR_DID: return opp_raiders(o) ? 60 : 5;
        case NAR_FX_PR_DRAW: return p->ndeck > 3 ? 70 : -20;
        case NAR_FX_PR_HACK: return p->hack >= 2 ? 140 : -5;
        case NAR_FX_PR_OPP_HACK: return 90;
        case NAR_FX_PR_READY_RAIDERS: return own_exhausted_raiders(p) * 60 - 10;
        case NAR_FX_PR_REASSIGN: return -50;
        default: return 10;
        }
    default: return -100;
    }
    (void)s;
}

static int score(const void *st, const arb_action *a)
{
    const nar_state *s = st;
    int me = a->seat;
    if (me < 0 || me > 1) return 0; /* arbiter: reconnect is the only option */
    const nar_player *p = &s->p[me], *o = &s->p[1 - me];
    int x = a->nargs ? a->args[0] : -1;
    switch (a->verb) {
    case NAR_V_REVIEW: {
        int fac = 0, per = 0;
        for (int i = 0; i < p->nhand; i++) {
            const nar_carddef *c = nar_def(p, p->hand[i]);
            fac += c->type == NAR_T_FACILITY;
            per += c->type == NAR_T_PERSONNEL;
        }
        return (fac >= 1 || per >= 2) ? -10 : 10;
    }
    case NAR_V_KEEP: return 0;
    case NAR_V_ORDER: {
        const nar_carddef *c = nar_def(p, x);
        if (c->effect == NAR_FX_SS_REACTOR_HALL) return p->core >= NAR_REACTOR_HALL_K ? 100 : 10;
        if (c->effect == NAR_FX_SS_CLEARANCE) return 80;
        return 50;
    }
    case NAR_V_PLAY: {
        int sc = score_play(s, p, o, x, a->nargs == 2 ? a->args[1] : -1);
        /* keep Swipes for the CLEAR costs of a hot board */
        int reserve = 0;
        for (int i = 0; i < p->nboard; i++)
            reserve += nar_def(&s->p[p->board[i].owner], p->board[i].uid)->clear;
        if (reserve && projected(p) >= 2100 && p->swipes - nar_def(p, x)->cost < reserve && sc < 150) sc -= 100;
        return sc;
    }
    case NAR_V_STATION: case NAR_V_RECALL: return -100;
    case NAR_V_STRIKE: return 130 + arb_naramo__strike_value(s, me, x) / 10;
    case NAR_V_EXHAUST: {
        const nar_carddef *c = nar_def(p, x);
        if (c->effect == NAR_FX_EXH_HACK) return p->hack >= 1 ? 150 : -10;
        return cool_score(p, -c->core_k, 200, 30);
    }
    case NAR_V_SCRAM: return 1000;
    case NAR_V_EDG: {
        for (int i = 0; i < p->nhand; i++)
            if (nar_def(p, p->hand[i])->cost == p->swipes + 1 && s->kind == NAR_D_OPS) return 50;
        if (s->kind == NAR_D_CLEAR)
            for (int i = 0; i < p->nboard; i++)
                if (nar_def(&s->p[p->board[i].owner], p->board[i].uid)->clear == p->swipes + 1) return 40;
        return -20;
    }
    case NAR_V_END: case NAR_V_DONE: case NAR_V_DECLINE: case NAR_V_NOBLOCK: return 0;
    case NAR_V_GUBBY_HEAT: return p->core + 100 >= 2350 ? -50 : 20;
    case NAR_V_GUBBY_DISCARD: return 40 - card_value(nar_def(p, x)) / 2;
    case NAR_V_DEPLOY: {
        int onto = a->args[1];
        if (onto == me) return -100;
        return 100 + (nar_def(p, x)->effect == NAR_FX_AL_GUBBY ? 20 : 0);
    }
    case NAR_V_CLEAR: {
        const nar_bentry *e = &p->board[x];
        return 50 + 10 * nar_def(&s->p[e->owner], e->uid)->clear;
    }
    case NAR_V_BLOCK: {
        const nar_carddef *c = nar_def(p, x);
        return 100 - c->cost - ((c->flags & NAR_RAIDER) ? 5 : 0);
    }
    case NAR_V_HEAT: case NAR_V_HACK: {
        int v = s->strike_value;
        for (int i = 0; i < p->neffects; i++) v -= NAR_DID_REDUCE_K;
        if (v < 0) v = 0;
        int heat_bad = p->core + v >= 2300;
        int hack_bad = p->hack + 1 >= NAR_HACK_THRESHOLD;
        int prefer_hack = heat_bad && (!hack_bad || p->core + v >= 2600);
        return (a->verb == NAR_V_HACK) == prefer_hack ? 10 : 0;
    }
    case NAR_V_DISCARD: return -card_value(nar_def(p, x));
    default: return 0;
    }
}

size_t arb_naramo__greedy(const arb_game *g, const void *st, const arb_action *legal, size_t n, arb_rng *rng)
{
    (void)g;
    return arb_greedy_pick(st, legal, n, score, rng);
}
