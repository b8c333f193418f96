/* rules.c — the OPERATOR TCG rules: setup and the opening, the six
 * turn phases, deck-out reshuffles, equips, movement, the six combat steps
 * with their top-of-discard arithmetic, Staged Damage, elimination and the
 * turn cap; plus legal(), hash() and the small queries of the contract.
 * Every handler validates completely before it mutates, so a rejection
 * leaves the state byte-for-byte untouched, and every rejection names the
 * OPS rule (or OPS-Gnn interpretation) it breaks. */
#include <assert.h>
#include <string.h>

#include "arbiter/hash.h"
#include "games/operator/operator.h"


/* ---- small helpers ------------------------------------------------------- */
int arb_operator__in_cover(const ops_player *p) { return p->cover >= 0; }

static int hand_index(const ops_player *p, int32_t uid)
{
    if (uid < 0 || uid >= p->ncards) return -1;
    for (int i = 0; i < p->nhand; i++)
        if (p->hand[i] == uid) return i;
    return -1;
}

static void hand_remove(ops_player *p, int idx)
{
    assert(idx >= 0 && idx < p->nhand); /* callers remove what they found */
    memmove(&p->hand[idx], &p->hand[idx + 1], (size_t)(p->nhand - idx - 1));
    p->nhand--;
}

static int top_cost(const ops_player *p)
{
    return p->ndiscard ? ops_uc(p, p->discard[p->ndiscard - 1])->cost : 0;
}

static void to_discard(ops_state *s, int seat, int uid, int reason, arb_events *ev)
{
    ops_player *p = &s->p[seat];
    p->discard[p->ndiscard++] = (uint8_t)uid;
    arb_events_push(ev, OPS_E_DISCARD, seat, 0, uid, reason, p->card[uid]);
}

static void discard_mods(ops_state *s, int seat, int slot, int reason, arb_events *ev)
{
    ops_player *p = &s->p[seat];
    for (int i = 0; i < p->nmods[slot]; i++) to_discard(s, seat, p->mods[slot][i], reason, ev);
    p->nmods[slot] = 0;
}

/* OPS-DECKOUT-*: reshuffle all but the top discard into the deck. */
static int reshuffle(ops_state *s, int seat, arb_events *ev)
{
    ops_player *p = &s->p[seat];
    if (p->ndiscard < 2) return 0;
    int n = p->ndiscard - 1;
    memcpy(p->deck, p->discard, (size_t)n);
    p->ndeck = (uint8_t)n;
    p->discard[0] = p->discard[n];
    p->ndiscard = 1;
    arb_rng_shuffle(&s->rng, p->deck, (size_t)n, 1);
    arb_events_push(ev, OPS_E_RESHUFFLE, seat, 0, n, p->discard[0], 0);
    return 1;
}

static void draw(ops_state *s, int seat, arb_events *ev)
{
    ops_player *p = &s->p[seat];
    if (p->ndeck == 0 && !reshuffle(s, seat, ev)) {
        arb_events_push(ev, OPS_E_DRAW_SKIP, seat, 0, p->ndiscard, 0, 0); /* OPS-DECKOUT-ONE, G25 */
        return;
    }
    uint8_t uid = p->deck[--p->ndeck];
    p->hand[p->nhand++] = uid;
    arb_events_push(ev, OPS_E_DRAW, seat, 1, uid, p->card[uid], 0);
}

static int alive_count(const ops_state *s, int *last)
{
    int n = 0;
    for (int i = 0; i < s->players; i++)
        if (!s->p[i].eliminated) { n++; if (last) *last = i; }
    return n;
}

static int next_seat(const ops_state *s, int from)
{
    for (int k = 1; k <= s->players; k++) {
        int q = (from + k) % s->players;
        if (!s->p[q].eliminated) return q;
    }
    return from;
}

static void game_over(ops_state *s, int winner, int reason, arb_events *ev)
{
    s->over = 1;
    s->winner = (int8_t)winner;
    s->reason = (uint8_t)reason;
    s->phase = OPS_PH_OVER;
    s->owner = ARB_SEAT_NONE;
    s->cb.target = OPS_NONE8;
    arb_events_push(ev, OPS_E_GAME_OVER, winner, 0, reason, (int32_t)s->turn, 0); /* game.h's shape */
}

/* OPS-G02: Health ≤ 0 eliminates; the last player standing wins. */
static void eliminate(ops_state *s, int seat, arb_events *ev)
{
    s->p[seat].eliminated = 1;
    arb_events_push(ev, OPS_E_ELIMINATED, seat, 0, s->p[seat].health, 0, 0);
    int last = -1, n = alive_count(s, &last);
    if (n == 1) game_over(s, last, OPS_R_ELIMINATION, ev);
    else if (n == 0) game_over(s, -1, OPS_R_MUTUAL, ev);
}

/* ---- weapons ------------------------------------------------------------------ */
int arb_operator__dual_doubles(const ops_state *s, int seat, int wuid)
{
    const ops_player *p = &s->p[seat];
    const ops_card *w = ops_uc(p, wuid), *pc = ops_uc(p, p->personality);
    if (!(w->flags & OPS_F_DUAL) || (w->flags & OPS_F_TWOHANDED)) return 0;
    const char *fb = (w->flags & OPS_F_RANGED) ? pc->fb_ranged : pc->fb_close;
    return strcmp(fb, w->pub.name) == 0; /* OPS-G06: exact name, same mode */
}

int arb_operator__weapon_for(const ops_state *s, int seat, int mode, int *src, int *wuid)
{
    const ops_player *p = &s->p[seat];
    if (p->weapon >= 0) {
        const ops_card *w = ops_uc(p, p->weapon);
        int wm = (w->flags & OPS_F_RANGED) ? OPS_MODE_RANGED : OPS_MODE_CLOSE;
        if (wm == mode) {
            *src = OPS_SRC_CARD;
            *wuid = p->weapon;
            return w->power * (arb_operator__dual_doubles(s, seat, p->weapon) ? 2 : 1);
        }
    }
    const ops_card *pc = ops_uc(p, p->personality);
    *src = OPS_SRC_FALLBACK;
    *wuid = -1;
    return mode == OPS_MODE_RANGED ? pc->fb_ranged_power : pc->fb_close_power;
}

static int mod_applies(const ops_card *m, int src, int mode)
{
    return src == OPS_SRC_CARD || m->mod_target != OPS_MT_RANGED || mode == OPS_MODE_RANGED;
}

static int armor_value(const ops_player *p)
{
    if (p->armor < 0) return 0;
    int v = ops_uc(p, p->armor)->armor;
    for (int i = 0; i < p->nmods[OPS_SLOT_ARMOR]; i++) v += ops_uc(p, p->mods[OPS_SLOT_ARMOR][i])->armor;
    return v;
}

/* ---- turn flow ---------------------------------------------------------------- */
static void start_turn(ops_state *s, int seat, arb_events *ev)
{
    for (;;) {
        if (s->turn >= OPS_TURN_CAP) { game_over(s, -1, OPS_R_TURN_CAP, ev); return; }
        s->turn++;
        s->active = (uint8_t)seat;
        s->moves_used = 0; s->moves_allowed = 1;
        s->attacks_made = 0; s->attacks_allowed = 1;
        s->attacked = 0; s->acted = 0; s->end_draws = 0;
        s->cb.target = OPS_NONE8;
        arb_events_push(ev, OPS_E_TURN, seat, 0, (int32_t)s->turn, 0, 0);
        ops_player *p = &s->p[seat];
        if (p->sd) { /* OPS-GL-SD-TICK: first event of the turn (G20) */
            p->sd--;
            p->health--;
            arb_events_push(ev, OPS_E_SD_TICK, seat, 0, p->sd, p->health, 0);
            if (p->health <= 0) {
                eliminate(s, seat, ev);
                if (s->over) return;
                seat = next_seat(s, seat);
                continue;
            }
        }
        arb_events_push(ev, OPS_E_PHASE, seat, 0, OPS_PN_DRAW, 0, 0);
        draw(s, seat, ev);
        arb_events_push(ev, OPS_E_PHASE, seat, 0, OPS_PN_EQUIP1, 0, 0);
        s->phase = OPS_PH_EQUIP1;
        s->owner = (int8_t)seat;
        return;
    }
}

static void end_turn(ops_state *s, arb_events *ev)
{
    int seat = s->active;
    ops_player *p = &s->p[seat];
    arb_events_push(ev, OPS_E_PHASE, seat, 0, OPS_PN_END, 0, 0);
    for (int i = 0; i < s->end_draws; i++) { /* OPS-END-EFFECTS */
        arb_events_push(ev, OPS_E_END_EFFECT, seat, 0, 0, 0, 0);
        draw(s, seat, ev);
    }
    if (p->ndeck == 0) reshuffle(s, seat, ev); /* OPS-END-RESHUFFLE, G24 */
    start_turn(s, next_seat(s, seat), ev);     /* OPS-END-PASS, G23 */
}

static int can_attack_someone(const ops_state *s)
{
    if (s->attacks_made >= s->attacks_allowed) return 0;
    for (int q = 0; q < s->players; q++)
        if (q != s->active && !s->p[q].eliminated && !(s->attacked & (1u << q))) return 1;
    return 0;
}

static void to_equip2(ops_state *s, arb_events *ev)
{
    s->phase = OPS_PH_EQUIP2;
    s->owner = (int8_t)s->active;
    arb_events_push(ev, OPS_E_PHASE, s->active, 0, OPS_PN_EQUIP2, 0, 0);
}

/* ---- combat ------------------------------------------------------------------- */
/* After Step 6 or a miss: the used weapon's Modifiers, then the weapon
 * (G10/G11), then elimination, then more attacks (Crossfire) or Second Equip. */
static void finish_combat(ops_state *s, arb_events *ev)
{
    int a = s->active, t = s->cb.target;
    ops_player *A = &s->p[a];
    if (s->cb.source == OPS_SRC_CARD) {
        discard_mods(s, a, OPS_SLOT_WEAPON, OPS_DR_USED, ev);
        A->weapon = OPS_NONE8;
        to_discard(s, a, s->cb.wuid, OPS_DR_USED, ev);
    } else {
        int keep = 0;
        for (int i = 0; i < A->nmods[OPS_SLOT_PERSONALITY]; i++) {
            int m = A->mods[OPS_SLOT_PERSONALITY][i];
            if (mod_applies(ops_uc(A, m), OPS_SRC_FALLBACK, s->cb.mode)) to_discard(s, a, m, OPS_DR_USED, ev);
            else A->mods[OPS_SLOT_PERSONALITY][keep++] = (uint8_t)m;
        }
        A->nmods[OPS_SLOT_PERSONALITY] = (uint8_t)keep;
    }
    s->cb.target = OPS_NONE8;
    if (s->p[t].health <= 0 && !s->p[t].eliminated) eliminate(s, t, ev);
    if (s->over) return;
    if (can_attack_someone(s)) {
        s->phase = OPS_PH_ACTION;
        s->owner = (int8_t)a;
        arb_events_push(ev, OPS_E_PHASE, a, 0, OPS_PN_ACTION, 0, 0);
    } else to_equip2(s, ev);
}

static void step6(ops_state *s, arb_events *ev)
{
    int t = s->cb.target;
    ops_player *D = &s->p[t];
    if (s->cb.damage > 0) { /* OPS-COMBAT-STEP6-DAMAGE */
        D->health = (int16_t)(D->health - s->cb.damage);
        arb_events_push(ev, OPS_E_DAMAGE, t, 0, s->cb.damage, D->health, 0);
    }
    if (s->cb.absorbed > 0 && D->armor >= 0) { /* OPS-COMBAT-STEP6-ARMORBREAK, G09 */
        int uid = D->armor;
        arb_events_push(ev, OPS_E_ARMOR_BROKEN, t, 0, uid, s->cb.absorbed, D->card[uid]);
        discard_mods(s, t, OPS_SLOT_ARMOR, OPS_DR_BROKEN, ev);
        D->armor = OPS_NONE8;
        to_discard(s, t, uid, OPS_DR_BROKEN, ev);
        for (int i = 0; i < ops_uc(D, uid)->break_draw; i++) draw(s, t, ev); /* OPS-ARMOR-KEYWORDS */
    }
    if (s->cb.damage > 0 && s->cb.sd > 0) { /* OPS-GL-SD-TOKENS */
        int n = D->sd + s->cb.sd;
        D->sd = (uint8_t)(n > OPS_MAX_SD ? OPS_MAX_SD : n);
        arb_events_push(ev, OPS_E_SD_ADD, t, 0, s->cb.sd, D->sd, 0);
    }
    finish_combat(s, ev);
}

/* Steps 3 and 4 (after the Boost decision of Step 2). */
static void resolve(ops_state *s, arb_events *ev)
{
    int a = s->active, t = s->cb.target;
    ops_player *A = &s->p[a], *D = &s->p[t];
    int src, wuid;
    int power = arb_operator__weapon_for(s, a, s->cb.mode, &src, &wuid);
    int cover_bonus = 0, ap = 0, sd = 0;
    int slot = src == OPS_SRC_CARD ? OPS_SLOT_WEAPON : OPS_SLOT_PERSONALITY;
    for (int i = 0; i < A->nmods[slot]; i++) {
        const ops_card *m = ops_uc(A, A->mods[slot][i]);
        if (!mod_applies(m, src, s->cb.mode)) continue;
        power += m->mod_power;
        cover_bonus += m->mod_cover;
        ap |= m->mod_ap;
        sd += m->mod_sd;
    }
    if (s->cb.boost >= 0) power += ops_uc(A, s->cb.boost)->boost_power;
    s->cb.power = (int16_t)power;
    s->cb.ap = (uint8_t)ap;
    s->cb.sd = (uint8_t)(sd > OPS_MAX_SD ? OPS_MAX_SD : sd);
    s->cb.cover_total = -1;
    if (D->cover >= 0) { /* Step 3 (OPS-COMBAT-STEP3-*) */
        int total = top_cost(A) + top_cost(D) + cover_bonus;
        int cv = ops_uc(D, D->cover)->cover;
        s->cb.cover_total = (int16_t)total;
        arb_events_push(ev, OPS_E_COVER_CHECK, a, 0, total, cv, total > cv);
        if (total <= cv) {
            arb_events_push(ev, OPS_E_MISS, a, 0, t, 0, 0);
            s->cb.attack = s->cb.absorbed = s->cb.damage = 0;
            finish_combat(s, ev);
            return;
        }
        int uid = D->cover;
        D->cover = OPS_NONE8;
        arb_events_push(ev, OPS_E_COVER_BROKEN, t, 0, uid, D->card[uid], 0);
        to_discard(s, t, uid, OPS_DR_BROKEN, ev); /* OPS-COMBAT-STEP4-COVERTOP */
    }
    /* Step 4 (G08): atk − DEFENSE, then Armor absorbs. */
    int atk = power + top_cost(D);
    int remaining = atk - ops_uc(D, D->personality)->defense;
    int armor = ap ? 0 : armor_value(D);
    int pos = remaining > 0 ? remaining : 0;
    s->cb.attack = (int16_t)atk;
    s->cb.absorbed = (int16_t)(armor < pos ? armor : pos);
    s->cb.damage = (int16_t)(pos - s->cb.absorbed);
    arb_events_push(ev, OPS_E_POWER, a, 0, power, atk, s->cb.damage);
    if (s->cb.damage > 0) { /* Step 5: the defender owes the decision */
        s->phase = OPS_PH_REACT;
        s->owner = (int8_t)t;
    } else step6(s, ev);
}

/* ---- setup -------------------------------------------------------------------- */
int arb_operator__setup(const arb_game *g, void *st, const arb_setup *su, arb_events *ev, arb_error *err)
{
    (void)g;
    int rules = arb_game_rules_select(&arb_game_operator, su, err); /* one version so far: index 0 */
    if (rules < 0) return rules;
    ops_state *s = st;
    if (su->players < 2 || su->players > ARB_MAX_SEATS)
        return ARB_ILLEGAL(err, "OPS-G29", "OPERATOR is played by 2 to %d players, not %d", ARB_MAX_SEATS, su->players);
    for (int i = 0; i < su->players; i++) {
        if (!su->decks[i]) return ARB_INVALID(err, "OPS-DECK-SIZE", "seat %d has no deck", i);
        arb_deck_issue is;
        if (arb_operator__deck_check(g, su->decks[i], &is, 1))
            return ARB_ILLEGAL(err, is.rule, "seat %d's deck: %s", i, is.msg);
    }
    memset(s, 0, sizeof *s);
    arb_rng_seed(&s->rng, su->seed);
    s->players = (uint8_t)su->players;
    s->winner = -1;
    s->cb.target = OPS_NONE8;
    for (int i = 0; i < su->players; i++) {
        const arb_deck *d = su->decks[i];
        ops_player *p = &s->p[i];
        p->ncards = (uint8_t)d->ncards;
        p->cover = p->weapon = p->armor = OPS_NONE8;
        p->health = OPS_START_HEALTH;
        for (int u = 0; u < d->ncards; u++) {
            p->card[u] = d->cards[u];
            if (arb_operator__card(d->cards[u])->kind == OPS_K_PERSONALITY) p->personality = (uint8_t)u;
            else p->deck[p->ndeck++] = (uint8_t)u;
        }
        arb_rng_shuffle(&s->rng, p->deck, p->ndeck, 1); /* OPS-SETUP-DECK */
        arb_events_push(ev, OPS_E_SETUP, i, 0, p->personality, p->card[p->personality], p->health);
    }
    for (int i = 0; i < su->players; i++)
        for (int k = 0; k < OPS_OPEN_DRAW; k++) draw(s, i, ev); /* OPS-SETUP-DRAW4 */
    s->phase = OPS_PH_OPEN_DISCARD;
    s->owner = 0;
    return ARB_OK;
}

/* ---- validation --------------------------------------------------------------- */
static const char *phase_rule(int verb, const ops_state *s, const arb_action *a)
{
    switch (verb) {
    case OPS_V_DISCARD: return "OPS-SETUP-DISCARD1";
    case OPS_V_EQUIP: {
        if (s->phase == OPS_PH_OPEN_DISCARD) return "OPS-SETUP-ORDER";
        int slot = a->args[1];
        if (slot == OPS_SLOT_ARMOR) return "OPS-ARMOR-WHEN";
        if (slot == OPS_SLOT_WEAPON) return "OPS-WPN-EQUIP";
        return "OPS-MOVE-WHEN";
    }
    case OPS_V_DONE:
        return s->phase == OPS_PH_OPEN_DISCARD ? "OPS-SETUP-DISCARD1" : "OPS-ACT-ONE";
    case OPS_V_MOVE: return "OPS-MOVE-WHEN";
    case OPS_V_ATTACH:
        return s->phase == OPS_PH_OPEN_EQUIP ? "OPS-SETUP-EQUIP-ONLY3" : "OPS-MOD-WHEN";
    case OPS_V_ATTACK:
        if (s->phase == OPS_PH_EQUIP2 && s->attacks_made) return "OPS-COMBAT-ONEATTACK";
        if (s->phase == OPS_PH_EQUIP2 && s->acted) return "OPS-ACT-ONE";
        return "OPS-COMBAT-WHEN";
    case OPS_V_PLAY:
        return s->phase == OPS_PH_EQUIP2 && s->acted ? "OPS-ACT-ONE" : "OPS-ACT-STRATEGIC";
    case OPS_V_PASS: return "OPS-ACT-PASS";
    case OPS_V_BOOST: return "OPS-GL-BOOST";
    case OPS_V_REACT: return "OPS-COMBAT-STEP5-REACT";
    default: return "OPS-TURN-ORDER";
    }
}

static int verb_ok_in_phase(int verb, int ph)
{
    switch (verb) {
    case OPS_V_DISCARD: return ph == OPS_PH_OPEN_DISCARD;
    case OPS_V_EQUIP: return ph == OPS_PH_OPEN_EQUIP || ph == OPS_PH_EQUIP1 || ph == OPS_PH_EQUIP2;
    case OPS_V_DONE:
        return ph == OPS_PH_OPEN_EQUIP || ph == OPS_PH_EQUIP1 || ph == OPS_PH_EQUIP2 ||
               ph == OPS_PH_BOOST || ph == OPS_PH_REACT;
    case OPS_V_MOVE: case OPS_V_ATTACH: return ph == OPS_PH_EQUIP1 || ph == OPS_PH_EQUIP2;
    case OPS_V_ATTACK: case OPS_V_PLAY: case OPS_V_PASS: return ph == OPS_PH_ACTION;
    case OPS_V_BOOST: return ph == OPS_PH_BOOST;
    case OPS_V_REACT: return ph == OPS_PH_REACT;
    default: return 0;
    }
}

static int check_equip(const ops_state *s, const arb_action *a, arb_error *err)
{
    const ops_player *p = &s->p[s->owner];
    int uid = a->args[0], slot = a->args[1];
    int opening = s->phase == OPS_PH_OPEN_EQUIP;
    if (slot < OPS_SLOT_WEAPON || slot > OPS_SLOT_COVER)
        return ARB_ILLEGAL(err, "OPS-ZONE-WEAPON", "equip slot %d is not 1 (second weapon), 2 (armor) or 3 (cover)", slot);
    if (hand_index(p, uid) < 0)
        return ARB_ILLEGAL(err, slot == OPS_SLOT_ARMOR ? "OPS-ARMOR-WHEN" : slot == OPS_SLOT_WEAPON ? "OPS-WPN-EQUIP" : "OPS-ZONE-COVER",
                       "card %d is not in seat %d's hand", uid, s->owner);
    const ops_card *c = ops_uc(p, uid);
    static const uint8_t need[] = { 0, OPS_K_WEAPON, OPS_K_ARMOR, OPS_K_COVER };
    static const char *const zone_rule[] = { "", "OPS-ZONE-WEAPON", "OPS-ZONE-ARMOR", "OPS-ZONE-COVER" };
    if (opening && c->kind != OPS_K_WEAPON && c->kind != OPS_K_ARMOR && c->kind != OPS_K_COVER)
        return ARB_ILLEGAL(err, "OPS-SETUP-EQUIP-ONLY3", "only a Second Weapon, a Cover and an Armor may be equipped before the first turn");
    if (c->kind != need[slot])
        return ARB_ILLEGAL(err, zone_rule[slot], "%s (%s) cannot go into the %s slot", c->pub.name,
                       arb_operator__kind_name(c->kind),
                       slot == OPS_SLOT_WEAPON ? "Second Weapon" : slot == OPS_SLOT_ARMOR ? "Armor" : "Cover");
    if (opening) {
        static const uint8_t bit[] = { 0, OPS_OPENED_WEAPON, OPS_OPENED_ARMOR, OPS_OPENED_COVER };
        if (p->opened & bit[slot])
            return ARB_ILLEGAL(err, "OPS-SETUP-EQUIP-ONEEACH", "only one of each kind may be equipped before the first turn");
        if (slot == OPS_SLOT_COVER && p->cover >= 0)
            return ARB_ILLEGAL(err, "OPS-GL-COVER-ONE", "a player may only have one Cover card in play at a time");
        return ARB_OK;
    }
    if (slot == OPS_SLOT_COVER) {
        if (p->cover >= 0)
            return ARB_ILLEGAL(err, "OPS-EQ1-COVER-REPLACE", "replacing Cover is a Cover-to-Cover move and needs a MOVE card (use move)");
        if (s->moves_used >= s->moves_allowed)
            return ARB_ILLEGAL(err, "OPS-MOVE-ONCE", "seat %d has already moved this turn", s->owner);
    }
    return ARB_OK;
}

static int check_move(const ops_state *s, const arb_action *a, arb_error *err)
{
    const ops_player *p = &s->p[s->owner];
    int c2c = a->nargs == 2;
    if (p->cover < 0)
        return ARB_ILLEGAL(err, "OPS-MOVE-O2C-REQ", "seat %d is in the open: moving into Cover needs only a COVER card (equip it)", s->owner);
    if (hand_index(p, a->args[0]) < 0 || ops_uc(p, a->args[0])->kind != OPS_K_MOVE)
        return ARB_ILLEGAL(err, c2c ? "OPS-MOVE-C2C-REQ" : "OPS-MOVE-C2O-REQ", "card %d is not a MOVE card in hand", a->args[0]);
    if (c2c && (hand_index(p, a->args[1]) < 0 || ops_uc(p, a->args[1])->kind != OPS_K_COVER))
        return ARB_ILLEGAL(err, "OPS-MOVE-C2C-REQ", "card %d is not a COVER card in hand", a->args[1]);
    if (s->moves_used >= s->moves_allowed)
        return ARB_ILLEGAL(err, "OPS-MOVE-ONCE", "seat %d has already moved this turn", s->owner);
    return ARB_OK;
}

/* Modifier uid under slot (Personality, weapon, armor) for the owing seat:
 * apply() checks `attach UID SLOT` with it, legal() each candidate slot. */
static int attach_ok(const ops_state *s, int uid, int slot, arb_error *err)
{
    const ops_player *p = &s->p[s->owner];
    if (hand_index(p, uid) < 0 || ops_uc(p, uid)->kind != OPS_K_MODIFIER)
        return ARB_ILLEGAL(err, "OPS-EQ1-MOD", "card %d is not a Modifier in hand", uid);
    const ops_card *m = ops_uc(p, uid);
    switch (slot) {
    case OPS_SLOT_PERSONALITY:
        if (m->mod_target == OPS_MT_ARMOR)
            return ARB_ILLEGAL(err, "OPS-MOD-ATTACH", "%s modifies Armor, not fallback weapons", m->pub.name);
        break;
    case OPS_SLOT_WEAPON:
        if (p->weapon < 0) return ARB_ILLEGAL(err, "OPS-MOD-ATTACH", "no weapon is equipped in the Second Weapon slot");
        if (m->mod_target == OPS_MT_ARMOR)
            return ARB_ILLEGAL(err, "OPS-MOD-ATTACH", "%s modifies Armor, not weapons", m->pub.name);
        if (m->mod_target == OPS_MT_RANGED && !(ops_uc(p, p->weapon)->flags & OPS_F_RANGED))
            return ARB_ILLEGAL(err, "OPS-MOD-EXPLOSIVE", "%s needs a Ranged weapon", m->pub.name);
        break;
    case OPS_SLOT_ARMOR:
        if (p->armor < 0) return ARB_ILLEGAL(err, "OPS-MOD-ATTACH", "no Armor is equipped");
        if (m->mod_target != OPS_MT_ARMOR)
            return ARB_ILLEGAL(err, "OPS-MOD-ATTACH", "%s modifies weapons, not Armor", m->pub.name);
        break;
    default:
        return ARB_ILLEGAL(err, "OPS-MOD-ATTACH", "Modifiers attach to 0 (Personality), 1 (weapon) or 2 (armor), not %d", slot);
    }
    if (p->nmods[slot] >= OPS_MAX_MODS)
        return ARB_ILLEGAL(err, "OPS-ZONE-MODIFIER", "at most %d Modifiers under one item (house bound)", OPS_MAX_MODS);
    return ARB_OK;
}

static int check_attach(const ops_state *s, const arb_action *a, arb_error *err)
{
    return attach_ok(s, a->args[0], a->args[1], err);
}

static int attack_mode(const ops_state *s, int seat)
{
    return arb_operator__in_cover(&s->p[seat]) ? OPS_MODE_RANGED : OPS_MODE_CLOSE; /* G05 */
}

static int check_attack(const ops_state *s, const arb_action *a, arb_error *err)
{
    int t = a->args[0], w = a->args[1];
    if (s->acted && s->attacks_made == 0)
        return ARB_ILLEGAL(err, "OPS-ACT-ONE", "the Action Phase allows one choice; a strategic card was already used");
    if (s->attacks_made >= s->attacks_allowed)
        return ARB_ILLEGAL(err, "OPS-COMBAT-ONEATTACK", "only one attack per turn unless a card allows more");
    if (t == s->active) return ARB_ILLEGAL(err, "OPS-ACT-ATTACK", "a player cannot attack themself");
    if (t < 0 || t >= s->players || s->p[t].eliminated)
        return ARB_ILLEGAL(err, "OPS-ACT-ATTACK", "seat %d is not a player still in the game (G23)", t);
    if (s->attacked & (1u << t))
        return ARB_ILLEGAL(err, "OPS-COMBAT-ONEATTACK", "seat %d was already attacked this turn", t);
    int src, wuid;
    arb_operator__weapon_for(s, s->active, attack_mode(s, s->active), &src, &wuid);
    if (w != src) {
        if (src == OPS_SRC_CARD)
            return ARB_ILLEGAL(err, "OPS-COMBAT-STEP2-MUSTEQUIPPED", "the equipped weapon applies and must be used (weapon argument 1)");
        return ARB_ILLEGAL(err, s->p[s->active].weapon >= 0 ? "OPS-WPN-FALLBACK-AUTO" : "OPS-WPN-FALLBACK",
                       "no equipped weapon of this type applies: the fallback weapon is used (weapon argument 0)");
    }
    return ARB_OK;
}

static int check_play(const ops_state *s, const arb_action *a, arb_error *err)
{
    const ops_player *p = &s->p[s->owner];
    int uid = a->args[0];
    if (s->acted) return ARB_ILLEGAL(err, "OPS-ACT-ONE", "the Action Phase choice was already made this turn");
    if (hand_index(p, uid) < 0) return ARB_ILLEGAL(err, "OPS-ACT-STRATEGIC", "card %d is not in hand", uid);
    const ops_card *c = ops_uc(p, uid);
    if (c->kind == OPS_K_BOOST)
        return ARB_ILLEGAL(err, "OPS-GL-BOOST", "a Boost is declared at the beginning of an attack (G14)");
    if (c->kind != OPS_K_STRATEGIC)
        return ARB_ILLEGAL(err, "OPS-ACT-STRATEGIC", "%s is not a strategic card", c->pub.name);
    return ARB_OK;
}

static int check_boost(const ops_state *s, const arb_action *a, arb_error *err)
{
    const ops_player *p = &s->p[s->owner];
    int uid = a->args[0];
    if (hand_index(p, uid) < 0 || ops_uc(p, uid)->kind != OPS_K_BOOST)
        return ARB_ILLEGAL(err, "OPS-COMBAT-STEP2-BOOST", "card %d is not a Boost card in hand", uid);
    if ((ops_uc(p, uid)->flags & OPS_F_MULTI) && s->players < 3)
        return ARB_ILLEGAL(err, "OPS-GL-MULTI", "Multi cards are only usable in a game with three or more players");
    return ARB_OK;
}

static int check_react(const ops_state *s, const arb_action *a, arb_error *err)
{
    const ops_player *p = &s->p[s->owner];
    int uid = a->args[0];
    if (s->cb.reactions >= OPS_MAX_REACTIONS)
        return ARB_ILLEGAL(err, "OPS-COMBAT-STEP5-MAX2", "up to two reactions per attack");
    if (hand_index(p, uid) < 0) return ARB_ILLEGAL(err, "OPS-COMBAT-STEP5-REACT", "card %d is not in hand", uid);
    const ops_card *c = ops_uc(p, uid);
    if (c->kind != OPS_K_MOVE && c->kind != OPS_K_ACTION)
        return ARB_ILLEGAL(err, "OPS-COMBAT-STEP5-TYPE", "only MOVE or ACTION cards are reactions, not %s", c->pub.name);
    if (!(c->flags & OPS_F_REACTION) && !c->reduce)
        return ARB_ILLEGAL(err, "OPS-GL-REACTION", "%s has no Reaction keyword or REDUCE value", c->pub.name);
    return ARB_OK;
}

/* The precheck's rule IDs (toolkit.h: the refusal precedence). */
static const arb_precheck_rules prechecks = {
    .clock = 0, .arbiter_verbs = OPS_V_TIMEOUT, .no_clock = "OPS-G28", .seat = "OPS-TURN-ORDER",
};

static int check_action(const ops_state *s, const arb_action *a, arb_error *err)
{
    const char *wrong_seat = a->verb == OPS_V_REACT && s->phase == OPS_PH_REACT ? "OPS-COMBAT-STEP5-WHO"
                             : s->turn == 0                                     ? "OPS-SETUP-ORDER"
                                                                                : "OPS-TURN-ORDER";
    int rc = arb_action_precheck(&arb_game_operator, &prechecks, s->over, s->players, s->owner, wrong_seat, a, err);
    if (rc) return rc;
    const arb_verb *v = &arb_operator__verbs[a->verb];
    if (!verb_ok_in_phase(a->verb, s->phase))
        return ARB_ILLEGAL(err, phase_rule(a->verb, s, a), "%s is not allowed now (%s)", v->name,
                       arb_operator__decision_names[s->phase + 1]);
    const ops_player *p = &s->p[s->owner];
    switch (a->verb) {
    case OPS_V_DISCARD:
        if (hand_index(p, a->args[0]) < 0) return ARB_ILLEGAL(err, "OPS-SETUP-DISCARD1", "card %d is not in hand", a->args[0]);
        return ARB_OK;
    case OPS_V_EQUIP: return check_equip(s, a, err);
    case OPS_V_MOVE: return check_move(s, a, err);
    case OPS_V_ATTACH: return check_attach(s, a, err);
    case OPS_V_ATTACK: return check_attack(s, a, err);
    case OPS_V_PLAY: return check_play(s, a, err);
    case OPS_V_BOOST: return check_boost(s, a, err);
    case OPS_V_REACT: return check_react(s, a, err);
    default: return ARB_OK; /* done, pass */
    }
}

/* ---- apply -------------------------------------------------------------------- */
static void do_equip(ops_state *s, int seat, int uid, int slot, arb_events *ev)
{
    ops_player *p = &s->p[seat];
    hand_remove(p, hand_index(p, uid));
    if (s->phase == OPS_PH_OPEN_EQUIP) {
        static const uint8_t bit[] = { 0, OPS_OPENED_WEAPON, OPS_OPENED_ARMOR, OPS_OPENED_COVER };
        p->opened |= bit[slot];
    }
    if (slot == OPS_SLOT_COVER) {
        p->cover = (int8_t)uid;
        if (s->phase == OPS_PH_OPEN_EQUIP) arb_events_push(ev, OPS_E_EQUIP, seat, 0, uid, slot, p->card[uid]);
        else {
            s->moves_used++; /* G17 */
            arb_events_push(ev, OPS_E_MOVE, seat, 0, OPS_MV_O2C, -1, uid);
        }
        return;
    }
    int8_t *cur = slot == OPS_SLOT_WEAPON ? &p->weapon : &p->armor;
    if (*cur >= 0) { /* replace (G07, G26): Modifiers first, then the item */
        int old = *cur;
        discard_mods(s, seat, slot, OPS_DR_REPLACED, ev);
        to_discard(s, seat, old, OPS_DR_REPLACED, ev);
    }
    *cur = (int8_t)uid;
    arb_events_push(ev, OPS_E_EQUIP, seat, 0, uid, slot, p->card[uid]);
}

int arb_operator__apply(const arb_game *g, void *st, const arb_action *a, arb_events *ev, arb_error *err)
{
    (void)g;
    ops_state *s = st;
    int rc = check_action(s, a, err);
    if (rc) return rc;
    int seat = s->owner;
    ops_player *p = &s->p[seat];
    switch (a->verb) {
    case OPS_V_DISCARD:
        hand_remove(p, hand_index(p, a->args[0]));
        to_discard(s, seat, a->args[0], OPS_DR_OPENING, ev);
        if (seat + 1 < s->players) s->owner = (int8_t)(seat + 1);
        else { s->phase = OPS_PH_OPEN_EQUIP; s->owner = 0; }
        break;
    case OPS_V_EQUIP: do_equip(s, seat, a->args[0], a->args[1], ev); break;
    case OPS_V_DONE:
        switch (s->phase) {
        case OPS_PH_OPEN_EQUIP:
            arb_events_push(ev, OPS_E_OPEN_DONE, seat, 0, p->opened, 0, 0);
            if (seat + 1 < s->players) s->owner = (int8_t)(seat + 1);
            else {
                int first = (int)arb_rng_below(&s->rng, s->players); /* OPS-SETUP-FIRST */
                s->first = (uint8_t)first;
                arb_events_push(ev, OPS_E_FIRST, first, 0, 0, 0, 0);
                start_turn(s, first, ev);
            }
            break;
        case OPS_PH_EQUIP1:
            s->phase = OPS_PH_ACTION;
            arb_events_push(ev, OPS_E_PHASE, seat, 0, OPS_PN_ACTION, 0, 0);
            break;
        case OPS_PH_EQUIP2: end_turn(s, ev); break;
        case OPS_PH_BOOST: resolve(s, ev); break;
        case OPS_PH_REACT: step6(s, ev); break;
        default: break;
        }
        break;
    case OPS_V_MOVE: {
        int mv = a->args[0];
        hand_remove(p, hand_index(p, mv));
        s->moves_used++;
        to_discard(s, seat, mv, OPS_DR_PLAYED, ev);
        int old = p->cover;
        p->cover = OPS_NONE8;
        to_discard(s, seat, old, OPS_DR_MOVE, ev);
        if (a->nargs == 2) {
            hand_remove(p, hand_index(p, a->args[1]));
            p->cover = (int8_t)a->args[1];
            arb_events_push(ev, OPS_E_MOVE, seat, 0, OPS_MV_C2C, mv, a->args[1]);
        } else arb_events_push(ev, OPS_E_MOVE, seat, 0, OPS_MV_C2O, mv, -1);
        break;
    }
    case OPS_V_ATTACH: {
        int slot = a->args[1];
        hand_remove(p, hand_index(p, a->args[0]));
        p->mods[slot][p->nmods[slot]++] = (uint8_t)a->args[0];
        arb_events_push(ev, OPS_E_ATTACH, seat, 0, a->args[0], slot, p->card[a->args[0]]);
        break;
    }
    case OPS_V_ATTACK: {
        int t = a->args[0];
        s->acted = 1;
        s->attacks_made++;
        s->attacked |= (uint8_t)(1u << t);
        memset(&s->cb, 0, sizeof s->cb);
        s->cb.target = (int8_t)t;
        s->cb.boost = OPS_NONE8;
        s->cb.cover_total = -1;
        s->cb.mode = (uint8_t)attack_mode(s, seat);
        s->cb.type = (uint8_t)(s->p[t].cover >= 0 ? OPS_CT_RANGED_COVER
                               : p->cover >= 0 ? OPS_CT_RANGED_OPEN : OPS_CT_CLOSE);
        int src, wuid;
        s->cb.power = (int16_t)arb_operator__weapon_for(s, seat, s->cb.mode, &src, &wuid);
        s->cb.source = (uint8_t)src;
        s->cb.wuid = (int8_t)wuid;
        arb_events_push(ev, OPS_E_PHASE, seat, 0, OPS_PN_COMBAT, 0, 0);
        arb_events_push(ev, OPS_E_ATTACK, seat, 0, t, s->cb.type, 0);
        arb_events_push(ev, OPS_E_ANNOUNCE, seat, 0, src, p->card[wuid >= 0 ? wuid : p->personality], s->cb.mode);
        s->phase = OPS_PH_BOOST;
        break;
    }
    case OPS_V_PLAY: {
        int uid = a->args[0];
        const ops_card *c = ops_uc(p, uid);
        hand_remove(p, hand_index(p, uid));
        s->acted = 1;
        arb_events_push(ev, OPS_E_STRATEGIC, seat, 0, uid, p->card[uid], 0);
        to_discard(s, seat, uid, OPS_DR_PLAYED, ev);
        if (c->heal) {
            int h = p->health + c->heal;
            if (h > OPS_START_HEALTH) h = OPS_START_HEALTH; /* G22 */
            if (h < p->health) h = p->health;               /* a loaded Health above 20 is not lowered */
            int gained = h - p->health;
            p->health = (int16_t)h;
            arb_events_push(ev, OPS_E_HEAL, seat, 0, gained, p->health, 0);
        }
        s->end_draws = (uint8_t)(s->end_draws + c->end_draw);
        if (c->extra_move) {
            s->moves_allowed = (uint8_t)(s->moves_allowed + c->extra_move);
            arb_events_push(ev, OPS_E_EXTRA_MOVE, seat, 0, s->moves_allowed, 0, 0);
        }
        to_equip2(s, ev);
        break;
    }
    case OPS_V_PASS:
        arb_events_push(ev, OPS_E_PASS, seat, 0, 0, 0, 0);
        to_equip2(s, ev);
        break;
    case OPS_V_BOOST: {
        int uid = a->args[0];
        hand_remove(p, hand_index(p, uid));
        s->cb.boost = (int8_t)uid;
        s->attacks_allowed = (uint8_t)(s->attacks_allowed + ops_uc(p, uid)->boost_attacks);
        arb_events_push(ev, OPS_E_BOOST, seat, 0, uid, p->card[uid], 0);
        to_discard(s, seat, uid, OPS_DR_PLAYED, ev); /* G10: the Boost is the new top before Step 3 */
        resolve(s, ev);
        break;
    }
    case OPS_V_REACT: {
        int uid = a->args[0];
        int red = ops_uc(p, uid)->reduce;
        hand_remove(p, hand_index(p, uid));
        s->cb.reactions++;
        s->cb.damage = (int16_t)(s->cb.damage > red ? s->cb.damage - red : 0);
        arb_events_push(ev, OPS_E_REACT, seat, 0, uid, p->card[uid], s->cb.damage);
        to_discard(s, seat, uid, OPS_DR_PLAYED, ev);
        if (s->cb.damage == 0) step6(s, ev); /* after two reactions only done remains */
        break;
    }
    default: break;
    }
    return ARB_OK;
}

/* ---- legal -------------------------------------------------------------------- */
typedef arb_legal lbuf; /* the core legal-action buffer */

static void push(lbuf *b, int verb, int nargs, int a0, int a1) { arb_legal_add(b, (unsigned)verb, (unsigned)nargs, a0, a1, 0, 0); }

size_t arb_operator__legal(const arb_game *g, const void *st, arb_action *out, size_t cap)
{
    (void)g;
    const ops_state *s = st;
    if (s->over) return 0;
    lbuf b = arb_legal_init(out, cap, s->owner);
    const ops_player *p = &s->p[s->owner];
    switch (s->phase) {
    case OPS_PH_OPEN_DISCARD:
        for (int i = 0; i < p->nhand; i++) push(&b, OPS_V_DISCARD, 1, p->hand[i], 0);
        break;
    case OPS_PH_OPEN_EQUIP:
        for (int i = 0; i < p->nhand; i++) {
            int k = ops_uc(p, p->hand[i])->kind;
            if (k == OPS_K_WEAPON && !(p->opened & OPS_OPENED_WEAPON)) push(&b, OPS_V_EQUIP, 2, p->hand[i], OPS_SLOT_WEAPON);
            if (k == OPS_K_ARMOR && !(p->opened & OPS_OPENED_ARMOR)) push(&b, OPS_V_EQUIP, 2, p->hand[i], OPS_SLOT_ARMOR);
            if (k == OPS_K_COVER && !(p->opened & OPS_OPENED_COVER) && p->cover < 0) push(&b, OPS_V_EQUIP, 2, p->hand[i], OPS_SLOT_COVER);
        }
        push(&b, OPS_V_DONE, 0, 0, 0);
        break;
    case OPS_PH_EQUIP1: case OPS_PH_EQUIP2: {
        int can_move = s->moves_used < s->moves_allowed;
        for (int i = 0; i < p->nhand; i++) {
            int u = p->hand[i];
            const ops_card *c = ops_uc(p, u);
            switch (c->kind) {
            case OPS_K_WEAPON: push(&b, OPS_V_EQUIP, 2, u, OPS_SLOT_WEAPON); break;
            case OPS_K_ARMOR: push(&b, OPS_V_EQUIP, 2, u, OPS_SLOT_ARMOR); break;
            case OPS_K_COVER: if (can_move && p->cover < 0) push(&b, OPS_V_EQUIP, 2, u, OPS_SLOT_COVER); break;
            case OPS_K_MODIFIER:
                for (int slot = 0; slot < OPS_SLOTS; slot++)
                    if (attach_ok(s, u, slot, NULL) == ARB_OK) push(&b, OPS_V_ATTACH, 2, u, slot);
                break;
            case OPS_K_MOVE:
                if (can_move && p->cover >= 0) {
                    push(&b, OPS_V_MOVE, 1, u, 0);
                    for (int j = 0; j < p->nhand; j++)
                        if (ops_uc(p, p->hand[j])->kind == OPS_K_COVER) push(&b, OPS_V_MOVE, 2, u, p->hand[j]);
                }
                break;
            default: break;
            }
        }
        push(&b, OPS_V_DONE, 0, 0, 0);
        break;
    }
    case OPS_PH_ACTION: {
        if (!(s->acted && s->attacks_made == 0) && s->attacks_made < s->attacks_allowed) {
            int src, wuid;
            arb_operator__weapon_for(s, s->active, attack_mode(s, s->active), &src, &wuid);
            for (int t = 0; t < s->players; t++)
                if (t != s->active && !s->p[t].eliminated && !(s->attacked & (1u << t)))
                    push(&b, OPS_V_ATTACK, 2, t, src);
        }
        if (!s->acted)
            for (int i = 0; i < p->nhand; i++)
                if (ops_uc(p, p->hand[i])->kind == OPS_K_STRATEGIC) push(&b, OPS_V_PLAY, 1, p->hand[i], 0);
        push(&b, OPS_V_PASS, 0, 0, 0);
        break;
    }
    case OPS_PH_BOOST:
        for (int i = 0; i < p->nhand; i++) {
            const ops_card *c = ops_uc(p, p->hand[i]);
            if (c->kind == OPS_K_BOOST && (!(c->flags & OPS_F_MULTI) || s->players >= 3))
                push(&b, OPS_V_BOOST, 1, p->hand[i], 0);
        }
        push(&b, OPS_V_DONE, 0, 0, 0);
        break;
    case OPS_PH_REACT:
        for (int i = 0; i < p->nhand && s->cb.reactions < OPS_MAX_REACTIONS; i++) {
            const ops_card *c = ops_uc(p, p->hand[i]);
            if ((c->kind == OPS_K_MOVE || c->kind == OPS_K_ACTION) && ((c->flags & OPS_F_REACTION) || c->reduce))
                push(&b, OPS_V_REACT, 1, p->hand[i], 0);
        }
        push(&b, OPS_V_DONE, 0, 0, 0);
        break;
    default: break;
    }
    return b.n;
}

/* ---- queries -------------------------------------------------------------------- */
arb_decision arb_operator__decision(const arb_game *g, const void *st)
{
    (void)g;
    const ops_state *s = st;
    arb_decision d;
    d.seat = s->over ? ARB_SEAT_NONE : s->owner;
    d.kind = (uint16_t)(s->over ? OPS_D_OVER : s->phase + 1);
    d.clock_left_ms = -1;
    return d;
}

int arb_operator__outcome(const arb_game *g, const void *st, arb_outcome *out)
{
    (void)g;
    const ops_state *s = st;
    out->over = s->over;
    out->winner = s->over ? s->winner : -1;
    out->reason = s->over ? s->reason : OPS_R_NONE;
    out->turns = s->turn;
    return out->over;
}

uint32_t arb_operator__turn(const arb_game *g, const void *st)
{
    (void)g;
    const ops_state *s = st;
    return s->turn ? s->turn : 1;
}

const char *arb_operator__phase(const arb_game *g, const void *st)
{
    (void)g;
    return arb_operator__phase_names[((const ops_state *)st)->phase];
}

/* Canonical order: rng, match fields, combat, then each seat's card list,
 * zones (length-prefixed), slots, Modifiers and counters. */
uint64_t arb_operator__hash(const arb_game *g, const void *st)
{
    (void)g;
    const ops_state *s = st;
    arb_hasher h;
    arb_hasher_init(&h);
    arb_hasher_str(&h, "operator/1");
    for (int i = 0; i < 4; i++) arb_hasher_u64(&h, s->rng.s[i]);
    arb_hasher_u8(&h, s->players);
    arb_hasher_u8(&h, s->phase);
    arb_hasher_u8(&h, (uint8_t)s->owner);
    arb_hasher_u8(&h, s->active);
    arb_hasher_u8(&h, s->first);
    arb_hasher_u32(&h, s->turn);
    arb_hasher_u8(&h, s->moves_used);
    arb_hasher_u8(&h, s->moves_allowed);
    arb_hasher_u8(&h, s->attacks_made);
    arb_hasher_u8(&h, s->attacks_allowed);
    arb_hasher_u8(&h, s->attacked);
    arb_hasher_u8(&h, s->acted);
    arb_hasher_u8(&h, s->end_draws);
    arb_hasher_u8(&h, s->over);
    arb_hasher_u8(&h, (uint8_t)s->winner);
    arb_hasher_u8(&h, s->reason);
    const ops_combat *c = &s->cb;
    arb_hasher_u8(&h, (uint8_t)c->target);
    if (c->target >= 0) {
        arb_hasher_u8(&h, c->type); arb_hasher_u8(&h, c->mode); arb_hasher_u8(&h, c->source);
        arb_hasher_u8(&h, (uint8_t)c->wuid); arb_hasher_u8(&h, (uint8_t)c->boost);
        arb_hasher_u8(&h, c->reactions); arb_hasher_u8(&h, c->ap); arb_hasher_u8(&h, c->sd);
        arb_hasher_u16(&h, (uint16_t)c->power); arb_hasher_u16(&h, (uint16_t)c->cover_total);
        arb_hasher_u16(&h, (uint16_t)c->attack); arb_hasher_u16(&h, (uint16_t)c->absorbed);
        arb_hasher_u16(&h, (uint16_t)c->damage);
    }
    for (int i = 0; i < s->players; i++) {
        const ops_player *p = &s->p[i];
        arb_hasher_u8(&h, p->ncards);
        arb_hasher_u16s(&h, p->card, p->ncards);
        arb_hasher_u8(&h, p->personality);
        arb_hasher_u8(&h, p->ndeck); arb_hasher_bytes(&h, p->deck, p->ndeck);
        arb_hasher_u8(&h, p->nhand); arb_hasher_bytes(&h, p->hand, p->nhand);
        arb_hasher_u8(&h, p->ndiscard); arb_hasher_bytes(&h, p->discard, p->ndiscard);
        arb_hasher_u8(&h, (uint8_t)p->cover); arb_hasher_u8(&h, (uint8_t)p->weapon);
        arb_hasher_u8(&h, (uint8_t)p->armor);
        for (int k = 0; k < OPS_SLOTS; k++) {
            arb_hasher_u8(&h, p->nmods[k]);
            arb_hasher_bytes(&h, p->mods[k], p->nmods[k]);
        }
        arb_hasher_u16(&h, (uint16_t)p->health);
        arb_hasher_u8(&h, p->sd);
        arb_hasher_u8(&h, p->eliminated);
        arb_hasher_u8(&h, p->opened);
    }
    return arb_hasher_final(&h);
}
