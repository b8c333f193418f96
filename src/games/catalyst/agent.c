/* agent.c — the CATALYST greedy agent: scores each legal action with a
 * one-step heuristic and picks the best (ties broken by the agent's own
 * PRNG). It reads only what export_state(st, seat) shows the deciding seat:
 * its own hand and cards, and the public face of the Battlefields (an
 * opponent's face-down card is just "Health 1"); never a Vault or another
 * seat's hand. */
#include "games/catalyst/catalyst.h"

/* Damage a Strike by (seat, uid) would deal to the card of tseat at tpos,
 * from public information only. */
static int strike_damage(const cat_state *s, unsigned seat, unsigned uid, unsigned tseat, unsigned tpos)
{
    const cat_player *tp = &s->p[tseat];
    int dmg = arb_catalyst__power(&s->p[seat], uid);
    for (unsigned p = 0; p < CAT_POSITIONS; p++)
        if (tp->field[p] != CAT_NOCARD && (tp->c[tp->field[p]].flags & CAT_F_REINFORCED)) dmg--;
    if (dmg < 0) dmg = 0;
    int shield = tp->c[tp->field[tpos]].shield;
    return dmg > shield ? dmg - shield : 0;
}

/* Could seat's ready attackers, with the Actions left, destroy the card of
 * tseat at tpos this turn? Damage does not survive Cleanup, so chip damage
 * on a Catalyst is worth something only when the whole kill fits in a turn. */
static int lethal_this_turn(const cat_state *s, unsigned seat, unsigned tseat, unsigned tpos)
{
    const cat_player *pl = &s->p[seat], *tp = &s->p[tseat];
    int hits[CAT_POSITIONS], n = 0;
    for (unsigned p = 0; p < CAT_POSITIONS; p++) {
        unsigned u = pl->field[p];
        if (u == CAT_NOCARD || (pl->c[u].flags & (CAT_F_FACEDOWN | CAT_F_ACTIVATED | CAT_F_UNSTABLE))) continue;
        if (arb_catalyst__distance(p, tpos) > cat_defof(pl, u)->range) continue;
        int d = strike_damage(s, seat, u, tseat, tpos);
        if (d > 0) hits[n++] = d;
    }
    /* the biggest hits first, one per Action left */
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (hits[j] > hits[i]) { int t = hits[i]; hits[i] = hits[j]; hits[j] = t; }
    int total = 0;
    for (int i = 0; i < n && i < s->actions; i++) total += hits[i];
    unsigned t = tp->field[tpos];
    return total >= arb_catalyst__health(tp, t) - tp->c[t].damage;
}

static int is_catalyst_public(const cat_player *pl, unsigned uid)
{
    return !(pl->c[uid].flags & CAT_F_FACEDOWN) && cat_defof(pl, uid)->kind == CAT_KIND_CATALYST;
}

static int score(const void *st, const arb_action *a)
{
    const cat_state *s = st;
    unsigned seat = (unsigned)a->seat;
    const cat_player *pl = &s->p[seat];
    int x = a->args[0], y = a->args[1], z = a->args[2];
    switch (a->verb) {
    case CAT_V_KEEP: return 10;
    case CAT_V_MULLIGAN: {
        int cheap = 0;
        for (unsigned h = 0; h < pl->nhand; h++) {
            const cat_def *d = cat_defof(pl, pl->hand[h]);
            cheap += d->kind == CAT_KIND_UNIT && d->cost <= 3;
        }
        return pl->mulligans == 0 && cheap < 2 ? 20 : 0;
    }
    case CAT_V_KEEP_CARD: return 20 - cat_defof(pl, (unsigned)x)->cost;
    case CAT_V_DEACTIVATE: return 10;
    case CAT_V_DONE: return 0;
    case CAT_V_PAY: return 10;
    case CAT_V_DECLINE: return 0;
    case CAT_V_STRIKE: {
        const cat_player *tp = &s->p[y];
        unsigned t = tp->field[z];
        int dmg = strike_damage(s, seat, (unsigned)x, (unsigned)y, (unsigned)z);
        int left = arb_catalyst__health(tp, t) - tp->c[t].damage;
        int cat = is_catalyst_public(tp, t);
        if (dmg >= left) return cat ? 1000 : 100 + ((tp->c[t].flags & CAT_F_FACEDOWN) ? 10 : cat_defof(tp, t)->cost * 5);
        if (cat) return lethal_this_turn(s, seat, (unsigned)y, (unsigned)z) ? 500 + dmg : 5 + dmg;
        return dmg > 0 ? 20 + dmg : -5;
    }
    case CAT_V_DEPLOY: {
        const cat_def *d = cat_defof(pl, (unsigned)x);
        int sc = 30 + d->cost * 3 + d->power * 2;
        if (d->upkeep && pl->shards - d->cost < d->upkeep) sc -= 15;
        return sc;
    }
    case CAT_V_DEPLOY_FD: return 4;
    case CAT_V_ENGAGE: return 25;
    case CAT_V_ABILITY:
        if (y == 0) return 8;
        return (pl->c[x].flags & (CAT_F_ACTIVATED | CAT_F_UNSTABLE)) ? -5 : 3;
    case CAT_V_IMPULSE: {
        const cat_def *d = cat_defof(pl, (unsigned)x);
        if (d->fx == CAT_FX_SHARDS) return 12;
        if (s->dkind == CAT_D_REACTION) {
            /* Shield the card under attack when the Strike would destroy it. */
            if (d->fx != CAT_FX_SHIELD || seat != s->pend.tseat || pl->c[y].pos != s->pend.tpos) return -5;
            int dmg = strike_damage(s, s->pend.seat, s->pend.uid, seat, s->pend.tpos);
            return dmg >= arb_catalyst__health(pl, (unsigned)y) - pl->c[y].damage ? 50 : -5;
        }
        if (d->fx == CAT_FX_POWER)
            return (pl->c[y].flags & (CAT_F_ACTIVATED | CAT_F_UNSTABLE)) ? -5 : 15;
        return -5;
    }
    case CAT_V_REINFORCE: {
        if (s->dkind != CAT_D_REACTION || seat != s->pend.tseat) return -1;
        int dmg = strike_damage(s, s->pend.seat, s->pend.uid, seat, s->pend.tpos);
        return dmg > 0 ? 20 : -1;
    }
    case CAT_V_MOVE:
    case CAT_V_SWAP: return -2;
    case CAT_V_RETREAT: return -10;
    case CAT_V_DRAW: return pl->nvault == 0 ? -100 : pl->nhand < 4 ? 6 : -3;
    case CAT_V_END: return 1;
    case CAT_V_PASS: return 0;
    case CAT_V_ARCHIVE: return 20 - cat_defof(pl, (unsigned)x)->cost;
    default: return -50;
    }
}

size_t arb_catalyst__greedy(const arb_game *g, const void *st, const arb_action *legal, size_t n, arb_rng *rng)
{
    (void)g;
    return arb_greedy_pick(st, legal, n, score, rng);
}
