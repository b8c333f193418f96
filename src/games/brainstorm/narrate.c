/* narrate.c — names and narration: verbs, decisions, events, outcome
 * reasons, one line of text per event (as a given view may see it) and per
 * action. A draw is hidden: another seat reads only "P2 draws a card". */
#include <stdio.h>

#include "games/brainstorm/brainstorm.h"

const arb_verb arb_brainstorm__verbs[BRN_V_COUNT] = {
    { "pass", 0, 0, "", "pass Action (Expansion, Assembly, Routing, Plug, Showdown)" },
    { "enable", 1, 1, "UID", "Expansion: enable a Module from your Hand onto your Machine" },
    { "play", 1, 3, "UID [SEAT UID]", "play a Cell or Tactic onto the Stack (targeted Tactics name SEAT UID)" },
    { "link", 4, 4, "FROM OUT TO IN", "Routing: Link Output OUT (0 = O1) of FROM to Input IN (0 = I1) of TO" },
    { "boot", 2, 2, "UID AMOUNT", "Bootstrap: send AMOUNT of your Generator's Charge to a linked Module" },
    { "focus", 2, 2, "FROM TO", "Focus: pass focused FROM's Charge to TO along an unused linked Output" },
    { "use", 1, 1, "UID", "Showdown: use the ability of your focused Module" },
    { "discard", 1, 1, "UID", "End of Cycle: discard a card down to your Maximum Hand Size" },
    { "timeout", 0, 0, "", "arbiter: clock timeout (Brainstorm has no clock: rejected)" },
    { "disconnect", 1, 1, "SEAT", "arbiter: a seat disconnects (rejected: no clock)" },
    { "reconnect", 1, 1, "SEAT", "arbiter: a seat reconnects (rejected: no clock)" },
};

const char *const arb_brainstorm__decision_names[BRN_D_COUNT] = { "action", "bootstrap", "focus", "discard", "over" };

const char *const arb_brainstorm__event_names[BRN_E_COUNT] = {
    "setup", "cycle", "phase", "draw", "deck-empty", "deactivate", "sever", "generate", "pass",
    "enable", "play", "trigger", "resolve", "cell-active", "to-scrapyard", "link", "boot", "focus",
    "unfocus", "run", "ability", "mill", "drain", "fizzle", "discard", "no-discard", "gen-bonus", "game-over",
    "amplify"
};

const char *const arb_brainstorm__reason_names[BRN_R_COUNT] = { "none", "deck-out", "both-deck-out", "cycle-cap" };

static const char *cname(int32_t id)
{
    return id >= 0 && (unsigned)id < arb_brainstorm__ncards ? arb_brainstorm__cards[id].pub.name : "?";
}

static const char *phname(int32_t ph)
{
    return ph >= 0 ? arb_name_at(arb_brainstorm__phase_names, BRN_P_COUNT, (unsigned)ph, "?") : "?";
}

int arb_brainstorm__event_text(const arb_game *g, const arb_event *e, int view, char *buf, size_t size)
{
    (void)g;
    int P = e->seat + 1;
    switch (e->type) {
    case BRN_E_SETUP: return snprintf(buf, size, "Setup: Generators on the Machines, %d-card hands; P%d leads Cycle 1", e->b, e->a + 1);
    case BRN_E_CYCLE: return snprintf(buf, size, "Cycle %d begins; P%d leads", e->a, e->b + 1);
    case BRN_E_PHASE: return snprintf(buf, size, "Phase: %s", phname(e->a));
    case BRN_E_DRAW:
        if (e->hidden && view != ARB_VIEW_ALL && view != e->seat)
            return snprintf(buf, size, "P%d draws a card", P);
        return snprintf(buf, size, "P%d draws %s (uid %d)", P, cname(e->b), e->a);
    case BRN_E_DECK_EMPTY: return snprintf(buf, size, "P%d must draw from an empty Deck", P);
    case BRN_E_DEACTIVATE: return snprintf(buf, size, "Reset: P%d's %s (uid %d) is deactivated", P, cname(e->b), e->a);
    case BRN_E_SEVER: return snprintf(buf, size, "Reset: P%d's %d Link%s severed", P, e->a, e->a == 1 ? " is" : "s are");
    case BRN_E_GENERATE: return snprintf(buf, size, "P%d's Generator generates %d Charge (now %d)", P, e->b, e->c);
    case BRN_E_PASS: return snprintf(buf, size, "P%d passes", P);
    case BRN_E_ENABLE: return snprintf(buf, size, "P%d enables %s (uid %d)", P, cname(e->b), e->a);
    case BRN_E_PLAY:
        if (e->c >= 0)
            return snprintf(buf, size, "P%d plays %s (uid %d) onto the Stack, targeting P%d's uid %d", P,
                            cname(e->b), e->a, e->c / 256 + 1, e->c % 256);
        return snprintf(buf, size, "P%d plays %s (uid %d) onto the Stack", P, cname(e->b), e->a);
    case BRN_E_TRIGGER: return snprintf(buf, size, "P%d's %s (uid %d) triggers: its effect goes on the Stack (depth %d)", P, cname(e->b), e->a, e->c);
    case BRN_E_RESOLVE: return snprintf(buf, size, "Resolves: P%d's %s%s (uid %d)", P, cname(e->c), e->b ? " trigger" : "", e->a);
    case BRN_E_CELL_ON: return snprintf(buf, size, "P%d's %s (uid %d) is active on the Machine", P, cname(e->b), e->a);
    case BRN_E_TO_SCRAP: return snprintf(buf, size, "P%d's %s (uid %d) goes to the Scrapyard", P, cname(e->b), e->a);
    case BRN_E_LINK: return snprintf(buf, size, "P%d links uid %d O%d to uid %d I%d", P, e->a & 255, (e->a >> 8) + 1, e->b & 255, (e->b >> 8) + 1);
    case BRN_E_BOOT: return snprintf(buf, size, "Bootstrap: P%d sends %d Charge through Generator O%d to uid %d, now focused", P, e->b, e->c + 1, e->a);
    case BRN_E_FOCUS_MOVE: return snprintf(buf, size, "Focus: P%d passes %d Charge from uid %d to uid %d, now focused", P, e->c, e->a, e->b);
    case BRN_E_UNFOCUS: return snprintf(buf, size, "Focus: P%d's uid %d cannot pass its Charge on: unfocused, %d Charge emptied", P, e->a, e->b);
    case BRN_E_RUN: return snprintf(buf, size, "Run %d of Cycle %d", e->a, e->b);
    case BRN_E_ABILITY: return snprintf(buf, size, "P%d's %s (uid %d) spends %d Charge on its ability", P, cname(e->c), e->a, e->b);
    case BRN_E_MILL: return snprintf(buf, size, "P%d's %s (uid %d) goes from the Deck to the Scrapyard", P, cname(e->b), e->a);
    case BRN_E_DRAIN: return snprintf(buf, size, "P%d's uid %d loses %d Charge (now %d)", P, e->a, e->b, e->c);
    case BRN_E_FIZZLE: return snprintf(buf, size, "P%d's uid %d has no legal target left: no effect", P, e->a);
    case BRN_E_DISCARD: return snprintf(buf, size, "P%d discards %s (uid %d)", P, cname(e->b), e->a);
    case BRN_E_NO_DISCARD: return snprintf(buf, size, "P%d keeps %d card%s: a card overrides the discard (Golden Rule)", P, e->a, e->a == 1 ? "" : "s");
    case BRN_E_GEN_BONUS: return snprintf(buf, size, "P%d's Generator gets %d Charge (now %d)", P, e->b, e->c);
    case BRN_E_AMPLIFY: return snprintf(buf, size, "P%d's Amplifier (uid %d) gets %d more Charge (now %d)", P, e->a, e->b, e->c);
    case BRN_E_OVER:
        if (e->seat < 0) return snprintf(buf, size, "The match is drawn (%s) in Cycle %d", arb_brainstorm__reason_names[(unsigned)e->a % BRN_R_COUNT], e->b);
        return snprintf(buf, size, "P%d wins (%s) in Cycle %d", e->seat + 1, arb_brainstorm__reason_names[(unsigned)e->a % BRN_R_COUNT], e->b);
    default: return snprintf(buf, size, "event %u", (unsigned)e->type);
    }
}

static const char *uname(const brn_state *s, int seat, int32_t uid)
{
    if (seat < 0 || seat >= BRN_PLAYERS || uid < 0 || uid >= s->p[seat].ncards) return "?";
    return arb_brainstorm__def(s, seat, uid)->pub.name;
}

int arb_brainstorm__action_text(const arb_game *g, const void *st, const arb_action *a, char *buf, size_t size)
{
    (void)g;
    const brn_state *s = st;
    int P = a->seat + 1, seat = a->seat;
    const int32_t *x = a->args;
    if (a->seat == ARB_SEAT_ARBITER)
        return snprintf(buf, size, "arbiter %s", a->verb < BRN_V_COUNT ? arb_brainstorm__verbs[a->verb].name : "?");
    switch (a->verb) {
    case BRN_V_PASS: return snprintf(buf, size, "P%d passes", P);
    case BRN_V_ENABLE: return snprintf(buf, size, "P%d enables %s (uid %d)", P, uname(s, seat, x[0]), (int)x[0]);
    case BRN_V_PLAY:
        if (a->nargs == 3)
            return snprintf(buf, size, "P%d plays %s (uid %d) targeting P%d's %s (uid %d)", P, uname(s, seat, x[0]),
                            (int)x[0], (int)x[1] + 1, uname(s, x[1], x[2]), (int)x[2]);
        return snprintf(buf, size, "P%d plays %s (uid %d)", P, uname(s, seat, x[0]), (int)x[0]);
    case BRN_V_LINK: return snprintf(buf, size, "P%d links %s (uid %d) O%d to %s (uid %d) I%d", P, uname(s, seat, x[0]),
                                     (int)x[0], (int)x[1] + 1, uname(s, seat, x[2]), (int)x[2], (int)x[3] + 1);
    case BRN_V_BOOT: return snprintf(buf, size, "P%d boots %s (uid %d) with %d Charge", P, uname(s, seat, x[0]), (int)x[0], (int)x[1]);
    case BRN_V_FOCUS: return snprintf(buf, size, "P%d focuses from %s (uid %d) to %s (uid %d)", P, uname(s, seat, x[0]),
                                      (int)x[0], uname(s, seat, x[1]), (int)x[1]);
    case BRN_V_USE: return snprintf(buf, size, "P%d uses %s (uid %d)", P, uname(s, seat, x[0]), (int)x[0]);
    case BRN_V_DISCARD: return snprintf(buf, size, "P%d discards %s (uid %d)", P, uname(s, seat, x[0]), (int)x[0]);
    default: return snprintf(buf, size, "P%d %s", P, a->verb < BRN_V_COUNT ? arb_brainstorm__verbs[a->verb].name : "?");
    }
}
