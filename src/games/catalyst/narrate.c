/* narrate.c — one line of CATALYST narration per event, as a given view
 * sees it (a hidden event of another seat never names the card), and a
 * readable description of an action before it is applied. */
#include <stdio.h>

#include "games/catalyst/catalyst.h"

static const char *name_of(int def)
{
    return def >= 0 && (unsigned)def < CAT_NDEFS ? arb_catalyst__defs[def].card.name : "a card";
}

static const char *pos_of(int pos)
{
    return pos >= 0 ? arb_name_at(arb_catalyst__pos_names, CAT_POSITIONS, (unsigned)pos, "?") : "?";
}

int arb_catalyst__event_text(const arb_game *g, const arb_event *ev, int view, char *buf, size_t size)
{
    (void)g;
    int P = ev->seat + 1, a = ev->a, b = ev->b, c = ev->c;
    int see = !ev->hidden || view == ARB_VIEW_ALL || view == ev->seat;
    static const char *const why_draw[] = { "", " (Start Phase)", " (Action)", " (hand adjust)" };
    static const char *const why_gain[] = { "at the start of the turn", "at the end of the turn", "from an ability",
                                            "from an Impulse" };
    switch (ev->type) {
    case CAT_E_FIRST: return snprintf(buf, size, "P%d goes first", P);
    case CAT_E_CATALYST: return snprintf(buf, size, "P%d puts %s into play at %s", P, name_of(b), pos_of(c));
    case CAT_E_SHUFFLE: return snprintf(buf, size, "P%d shuffles the Vault (%d card%s)", P, a, a == 1 ? "" : "s");
    case CAT_E_DRAW:
        if (!see) return snprintf(buf, size, "P%d draws a card%s", P, c >= 0 && c < 4 ? why_draw[c] : "");
        return snprintf(buf, size, "P%d draws %s%s", P, name_of(b), c >= 0 && c < 4 ? why_draw[c] : "");
    case CAT_E_DRAW_EMPTY: return snprintf(buf, size, "P%d must draw from an empty Vault and will lose at the victory check", P);
    case CAT_E_MULLIGAN: return snprintf(buf, size, "P%d mulligans (%d of 3)", P, a);
    case CAT_E_KEEP: return snprintf(buf, size, "P%d keeps a hand of %d", P, a);
    case CAT_E_KEEP_CARD:
        if (!see) return snprintf(buf, size, "P%d keeps a card", P);
        return snprintf(buf, size, "P%d keeps %s", P, name_of(b));
    case CAT_E_RETURN: return snprintf(buf, size, "P%d returns %d unkept card%s to the Vault", P, a, a == 1 ? "" : "s");
    case CAT_E_TURN: return snprintf(buf, size, "Turn %d: P%d is the Active Player", a, P);
    case CAT_E_PHASE:
        return snprintf(buf, size, "P%d: %s phase", P, a >= 0 && a <= CAT_PH_OVER ? arb_catalyst__phase_names[a] : "?");
    case CAT_E_DEACTIVATE:
        if (b < 0) return snprintf(buf, size, "P%d Deactivates the face-down card at %s", P, pos_of(c));
        return snprintf(buf, size, "P%d Deactivates %s at %s", P, name_of(b), pos_of(c));
    case CAT_E_GAIN:
        return snprintf(buf, size, "P%d gains %d Shard%s %s%s%s", P, a, a == 1 ? "" : "s",
                        c >= 0 && c < 4 ? why_gain[c] : "", b >= 0 ? " from " : "", b >= 0 ? name_of(b) : "");
    case CAT_E_UPKEEP_PAID: return snprintf(buf, size, "P%d pays %d Shard%s Upkeep for %s", P, c, c == 1 ? "" : "s", name_of(b));
    case CAT_E_UPKEEP_ARCHIVED:
        return snprintf(buf, size, "P%d %s the Upkeep of %s: it is Archived", P, c ? "cannot pay" : "does not pay",
                        name_of(b));
    case CAT_E_SKIP_DRAW: return snprintf(buf, size, "P%d, the starting player, skips the first draw", P);
    case CAT_E_ACTIONS: return snprintf(buf, size, "P%d has %d Action%s", P, a, a == 1 ? "" : "s");
    case CAT_E_DEPLOY: return snprintf(buf, size, "P%d deploys %s face up at %s", P, name_of(b), pos_of(c));
    case CAT_E_DEPLOY_FD:
        if (!see) return snprintf(buf, size, "P%d deploys a card face down at %s", P, pos_of(c));
        return snprintf(buf, size, "P%d deploys %s face down at %s", P, name_of(b), pos_of(c));
    case CAT_E_ABILITY:
        return snprintf(buf, size, "P%d uses %s's %s", P, name_of(b), c == 0 ? "[A] ability" : "ability (+1 Power this turn)");
    case CAT_E_STRIKE:
        return snprintf(buf, size, "P%d strikes with %s at %s: target P%d's card at %s", P, name_of(b), pos_of(a),
                        c / 8 + 1, pos_of(c % 8));
    case CAT_E_DAMAGE:
        return snprintf(buf, size, "P%d's card at %s takes %d damage (%d prevented)", P, pos_of(b), a, c);
    case CAT_E_DESTROYED: return snprintf(buf, size, "P%d's %s at %s is destroyed and Archived", P, name_of(b), pos_of(c));
    case CAT_E_MOVE: return snprintf(buf, size, "P%d moves the card at %s to %s", P, pos_of(a), pos_of(b));
    case CAT_E_SWAP: return snprintf(buf, size, "P%d swaps the cards at %s and %s", P, pos_of(a), pos_of(b));
    case CAT_E_RETREAT:
        if (!see) return snprintf(buf, size, "P%d returns the face-down card at %s to hand", P, pos_of(c));
        return snprintf(buf, size, "P%d returns %s at %s to hand", P, name_of(b), pos_of(c));
    case CAT_E_ENGAGE: return snprintf(buf, size, "P%d Engages %s for %d Shard%s", P, name_of(b), c, c == 1 ? "" : "s");
    case CAT_E_REINFORCE: return snprintf(buf, size, "P%d Reinforces with the face-down card at %s", P, pos_of(a));
    case CAT_E_IMPULSE:
        if (c < 0) return snprintf(buf, size, "P%d plays %s", P, name_of(b));
        return snprintf(buf, size, "P%d plays %s on the card at %s", P, name_of(b), pos_of(c));
    case CAT_E_REACTION: return snprintf(buf, size, "P%d may react to P%d's Strike", P, a + 1);
    case CAT_E_PASS: return snprintf(buf, size, "P%d closes the Reaction window", P);
    case CAT_E_END_ACTIONS: return snprintf(buf, size, "P%d ends the Action Phase (%d Action%s unused)", P, a, a == 1 ? "" : "s");
    case CAT_E_CLEANUP: return snprintf(buf, size, "Cleanup: damage, this-turn effects and Unstable end");
    case CAT_E_HAND_ARCHIVE: return snprintf(buf, size, "P%d Archives %s from hand", P, name_of(b));
    case CAT_E_LOSE:
        return snprintf(buf, size, "P%d loses: %s", P, a == 0 ? "their Catalyst is no longer in play" : "they drew from an empty Vault");
    case CAT_E_WIN:
        if (ev->seat < 0) return snprintf(buf, size, "The match is a draw (%s)", arb_catalyst__reason_names[a % CAT_R_COUNT]);
        return snprintf(buf, size, "P%d wins (%s)", P, arb_catalyst__reason_names[a % CAT_R_COUNT]);
    case CAT_E_PAY: return snprintf(buf, size, "P%d pays %d Shard%s for %s", P, a, a == 1 ? "" : "s", name_of(b));
    default: return snprintf(buf, size, "P%d: event %u", P, ev->type);
    }
}

static const char *uid_name(const cat_state *s, int seat, int uid)
{
    if (seat < 0 || seat >= s->nplayers || uid < 0 || uid >= s->p[seat].ncards) return "?";
    return cat_defof(&s->p[seat], (unsigned)uid)->card.name;
}

int arb_catalyst__action_text(const arb_game *g, const void *st, const arb_action *a, char *buf, size_t size)
{
    (void)g;
    const cat_state *s = st;
    int P = a->seat + 1, x = a->args[0], y = a->args[1], z = a->args[2];
    if (a->seat == ARB_SEAT_ARBITER || a->verb >= CAT_V_COUNT)
        return snprintf(buf, size, "arbiter %s", a->verb < CAT_V_COUNT ? arb_catalyst__verbs[a->verb].name : "?");
    const char *n1 = uid_name(s, a->seat, x);
    switch (a->verb) {
    case CAT_V_KEEP: return snprintf(buf, size, "P%d keeps the hand", P);
    case CAT_V_MULLIGAN: return snprintf(buf, size, "P%d mulligans", P);
    case CAT_V_KEEP_CARD: return snprintf(buf, size, "P%d keeps %s (uid %d)", P, n1, x);
    case CAT_V_DEACTIVATE: return snprintf(buf, size, "P%d Deactivates %s (uid %d)", P, n1, x);
    case CAT_V_DONE: return snprintf(buf, size, "P%d is done Deactivating", P);
    case CAT_V_PAY: return snprintf(buf, size, "P%d pays the Upkeep of %s (uid %d)", P, n1, x);
    case CAT_V_DECLINE: return snprintf(buf, size, "P%d declines the Upkeep of %s (uid %d)", P, n1, x);
    case CAT_V_DEPLOY: return snprintf(buf, size, "P%d deploys %s (uid %d) face up at %s", P, n1, x, pos_of(y));
    case CAT_V_DEPLOY_FD: return snprintf(buf, size, "P%d deploys %s (uid %d) face down at %s", P, n1, x, pos_of(y));
    case CAT_V_ABILITY: return snprintf(buf, size, "P%d uses ability %d of %s (uid %d)", P, y, n1, x);
    case CAT_V_STRIKE: return snprintf(buf, size, "P%d strikes with %s (uid %d) at P%d's %s", P, n1, x, y + 1, pos_of(z));
    case CAT_V_MOVE: return snprintf(buf, size, "P%d moves %s (uid %d) to %s", P, n1, x, pos_of(y));
    case CAT_V_SWAP: return snprintf(buf, size, "P%d swaps %s (uid %d) and %s (uid %d)", P, n1, x, uid_name(s, a->seat, y), y);
    case CAT_V_RETREAT: return snprintf(buf, size, "P%d retreats %s (uid %d)", P, n1, x);
    case CAT_V_DRAW: return snprintf(buf, size, "P%d draws (Action)", P);
    case CAT_V_ENGAGE: return snprintf(buf, size, "P%d Engages %s (uid %d)", P, n1, x);
    case CAT_V_REINFORCE: return snprintf(buf, size, "P%d Reinforces with %s (uid %d)", P, n1, x);
    case CAT_V_IMPULSE:
        if (a->nargs < 2) return snprintf(buf, size, "P%d plays %s (uid %d)", P, n1, x);
        return snprintf(buf, size, "P%d plays %s (uid %d) on %s (uid %d)", P, n1, x, uid_name(s, a->seat, y), y);
    case CAT_V_END: return snprintf(buf, size, "P%d ends the Action Phase", P);
    case CAT_V_PASS: return snprintf(buf, size, "P%d passes the Reaction window", P);
    case CAT_V_ARCHIVE: return snprintf(buf, size, "P%d Archives %s (uid %d) from hand", P, n1, x);
    default: return snprintf(buf, size, "P%d %s", P, arb_catalyst__verbs[a->verb].name);
    }
}
