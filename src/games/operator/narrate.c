/* narrate.c — one line of English per OPERATOR event and per
 * action, for `log`, reports and judges. Events carry pool indexes for the
 * cards they name, so narration needs no state; a hidden event (a draw)
 * reads "P2 draws a card" for every view but the drawer's. Seats print
 * 1-based ("P1") as players say them. */
#include <stdio.h>

#include "games/operator/operator.h"

static const char *cname(int32_t pool)
{
    return pool >= 0 && (unsigned)pool < arb_operator__ncards ? arb_operator__cards[pool].pub.name : "?";
}

static const char *const slot_names[] = { "Personality (fallback gear)", "Second Weapon slot", "Armor slot",
                                          "Cover Zone" };
/* Plural ending for a count in narration ("1 card", "2 cards"). */
#define PL(n) ((n) == 1 ? "" : "s")

static const char *const phase_names[] = { "Draw Phase", "First Equip Phase", "Action Phase", "Combat Phase",
                                           "Second Equip Phase", "End Turn Phase" };
static const char *const type_names[] = { "a ranged attack on a target in Cover", "a ranged attack on a target in the open",
                                          "close combat" };
static const char *const reason_text[] = { "during the opening", "replaced", "left behind by a move", "used",
                                           "broken", "played" };

static const char *slot_name(int32_t s) { return s >= 0 && s < 4 ? slot_names[s] : "?"; }

int arb_operator__event_text(const arb_game *g, const arb_event *e, int view, char *buf, size_t size)
{
    (void)g;
    int P = e->seat + 1;
    switch (e->type) {
    case OPS_E_SETUP:
        return snprintf(buf, size, "P%d plays %s with %d Health", P, cname(e->b), e->c);
    case OPS_E_DRAW:
        if (e->hidden && view != ARB_VIEW_ALL && view != e->seat) return snprintf(buf, size, "P%d draws a card", P);
        return snprintf(buf, size, "P%d draws %s (uid %d)", P, cname(e->b), e->a);
    case OPS_E_DRAW_SKIP:
        return snprintf(buf, size, "P%d cannot draw: the deck is empty and the discard pile holds %d card%s, so P%d must wait",
                        P, e->a, PL(e->a), P);
    case OPS_E_RESHUFFLE:
        return snprintf(buf, size, "P%d reshuffles %d discarded card%s into the deck, keeping the top discard", P, e->a, PL(e->a));
    case OPS_E_DISCARD:
        return snprintf(buf, size, "%s (uid %d) goes to P%d's discard pile (%s)", cname(e->c), e->a, P,
                        e->b >= 0 ? arb_name_at(reason_text, OPS_DR_COUNT, (unsigned)e->b, "?") : "?");
    case OPS_E_EQUIP:
        return snprintf(buf, size, "P%d equips %s in the %s", P, cname(e->c), slot_name(e->b));
    case OPS_E_FIRST:
        return snprintf(buf, size, "P%d is chosen at random to go first", P);
    case OPS_E_TURN:
        return snprintf(buf, size, "Turn %d: P%d", e->a, P);
    case OPS_E_PHASE:
        return snprintf(buf, size, "P%d: %s", P, e->a >= 0 && e->a < 6 ? phase_names[e->a] : "?");
    case OPS_E_SD_TICK:
        return snprintf(buf, size, "P%d takes 1 Staged Damage (%d token%s left), Health %d", P, e->a, PL(e->a), e->b);
    case OPS_E_MOVE:
        if (e->a == OPS_MV_O2C) return snprintf(buf, size, "P%d moves from the open into Cover", P);
        if (e->a == OPS_MV_C2O) return snprintf(buf, size, "P%d moves out of Cover into the open", P);
        return snprintf(buf, size, "P%d moves from Cover to new Cover", P);
    case OPS_E_ATTACH:
        return snprintf(buf, size, "P%d attaches %s to the %s", P, cname(e->c), slot_name(e->b));
    case OPS_E_STRATEGIC:
        return snprintf(buf, size, "P%d uses %s", P, cname(e->b));
    case OPS_E_HEAL:
        return snprintf(buf, size, "P%d heals %d, Health %d", P, e->a, e->b);
    case OPS_E_PASS:
        return snprintf(buf, size, "P%d passes", P);
    case OPS_E_ATTACK:
        return snprintf(buf, size, "P%d attacks P%d: %s", P, e->a + 1, e->b >= 0 && e->b < 3 ? type_names[e->b] : "?");
    case OPS_E_ANNOUNCE: {
        const ops_card *c = e->b >= 0 && (unsigned)e->b < arb_operator__ncards ? &arb_operator__cards[e->b] : NULL;
        if (!c) return snprintf(buf, size, "P%d announces a weapon", P);
        if (e->a == OPS_SRC_CARD) return snprintf(buf, size, "P%d announces %s", P, c->pub.name);
        return snprintf(buf, size, "P%d announces the fallback %s", P,
                        e->c == OPS_MODE_RANGED ? (c->fb_ranged ? c->fb_ranged : "?") : (c->fb_close ? c->fb_close : "?"));
    }
    case OPS_E_BOOST:
        return snprintf(buf, size, "P%d plays the Boost %s", P, cname(e->b));
    case OPS_E_COVER_CHECK:
        return snprintf(buf, size, "Cover check: discard total %d against Cover Value %d: %s", e->a, e->b,
                        e->c ? "the Cover breaks" : "the attack misses");
    case OPS_E_MISS:
        return snprintf(buf, size, "P%d's attack on P%d misses", P, e->a + 1);
    case OPS_E_COVER_BROKEN:
        return snprintf(buf, size, "P%d's %s is broken", P, cname(e->b));
    case OPS_E_POWER:
        return snprintf(buf, size, "Attack power %d, total %d with the target's top discard: %d damage after DEFENSE and Armor",
                        e->a, e->b, e->c);
    case OPS_E_REACT:
        return snprintf(buf, size, "P%d reacts with %s: %d damage remains", P, cname(e->b), e->c);
    case OPS_E_DAMAGE:
        return snprintf(buf, size, "P%d takes %d damage, Health %d", P, e->a, e->b);
    case OPS_E_ARMOR_BROKEN:
        return snprintf(buf, size, "P%d's %s absorbed %d and breaks", P, cname(e->c), e->b);
    case OPS_E_SD_ADD:
        return snprintf(buf, size, "P%d receives Staged Damage %d (%d token%s)", P, e->a, e->b, PL(e->b));
    case OPS_E_ELIMINATED:
        return snprintf(buf, size, "P%d is eliminated at %d Health", P, e->a);
    case OPS_E_END_EFFECT:
        return snprintf(buf, size, "P%d resolves an end-of-turn effect", P);
    case OPS_E_GAME_OVER:
        if (e->seat < 0)
            return snprintf(buf, size, "The match is a draw (%s) after %d turn%s",
                            e->a >= 0 ? arb_name_at(arb_operator__reason_names, OPS_R_COUNT, (unsigned)e->a, "?") : "?", e->b, PL(e->b));
        return snprintf(buf, size, "P%d wins (%s) after %d turn%s", e->seat + 1,
                        e->a >= 0 ? arb_name_at(arb_operator__reason_names, OPS_R_COUNT, (unsigned)e->a, "?") : "?", e->b, PL(e->b));
    case OPS_E_EXTRA_MOVE:
        return snprintf(buf, size, "P%d may move %d time%s this turn", P, e->a, PL(e->a));
    case OPS_E_OPEN_DONE:
        return snprintf(buf, size, "P%d finishes the opening equips", P);
    default:
        return snprintf(buf, size, "event %u", e->type);
    }
}

int arb_operator__action_text(const arb_game *g, const void *st, const arb_action *a, char *buf, size_t size)
{
    (void)g;
    const ops_state *s = st;
    if (a->seat == ARB_SEAT_ARBITER || a->verb >= OPS_V_COUNT)
        return snprintf(buf, size, "arbiter %s", a->verb < OPS_V_COUNT ? arb_operator__verbs[a->verb].name : "?");
    int P = a->seat + 1;
    const ops_player *p = a->seat >= 0 && a->seat < s->players ? &s->p[a->seat] : NULL;
#define CARD(i) (p && a->nargs > (i) && a->args[i] >= 0 && a->args[i] < p->ncards ? ops_uc(p, a->args[i])->pub.name : "?")
    switch (a->verb) {
    case OPS_V_DISCARD: return snprintf(buf, size, "P%d discards %s", P, CARD(0));
    case OPS_V_EQUIP: return snprintf(buf, size, "P%d equips %s in the %s", P, CARD(0), slot_name(a->args[1]));
    case OPS_V_DONE: return snprintf(buf, size, "P%d is done", P);
    case OPS_V_MOVE:
        if (a->nargs == 2) return snprintf(buf, size, "P%d moves with %s into %s", P, CARD(0), CARD(1));
        return snprintf(buf, size, "P%d moves into the open with %s", P, CARD(0));
    case OPS_V_ATTACH: return snprintf(buf, size, "P%d attaches %s to the %s", P, CARD(0), slot_name(a->args[1]));
    case OPS_V_ATTACK:
        return snprintf(buf, size, "P%d attacks P%d with the %s", P, a->args[0] + 1,
                        a->args[1] ? "equipped weapon" : "fallback weapon");
    case OPS_V_PLAY: return snprintf(buf, size, "P%d uses %s", P, CARD(0));
    case OPS_V_PASS: return snprintf(buf, size, "P%d passes", P);
    case OPS_V_BOOST: return snprintf(buf, size, "P%d boosts with %s", P, CARD(0));
    case OPS_V_REACT: return snprintf(buf, size, "P%d reacts with %s", P, CARD(0));
    default: return snprintf(buf, size, "P%d %s", P, arb_operator__verbs[a->verb].name);
    }
#undef CARD
}
