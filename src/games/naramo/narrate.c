/* narrate.c — the Shift Supervisor: one line of plant-radio narration per
 * event, and a readable line per action. A hidden event (a draw) names the
 * card only for its own seat and the full view. No rules here. */
#include <stdio.h>

#include "games/naramo/naramo.h"

static const char *cname(int32_t idx)
{
    return idx >= 0 && (unsigned)idx < arb_naramo__ncards ? arb_naramo__cards[idx].pub.name : "?";
}

static const char *const reason_text[NAR_R_COUNT] = {
    "", "core meltdown", "Power Order target reached", "deck ran dry", "three clock expiries",
    "disconnect", "draw"};

int arb_naramo__event_text(const arb_game *g, const arb_event *ev, int view, char *buf, size_t size)
{
    (void)g;
    int P = ev->seat + 1;
    int32_t a = ev->a, b = ev->b, c = ev->c;
    switch (ev->type) {
    case NAR_E_INIT_REACTORS: return snprintf(buf, size, "Supervisor: both reactors at %d K nominal, SKALA clean, SCRAM armed.", a);
    case NAR_E_SHUFFLE: return snprintf(buf, size, "Supervisor: P%d, shuffle up.", P);
    case NAR_E_DRAW:
        if (ev->hidden && view != ARB_VIEW_ALL && view != ev->seat)
            return snprintf(buf, size, "Supervisor: P%d draws a card.", P);
        return snprintf(buf, size, "Supervisor: P%d draws %s (uid %d).", P, cname(b), a);
    case NAR_E_DRAW_EMPTY: return snprintf(buf, size, "Supervisor: P%d, your deck is dry. That goes in the log.", P);
    case NAR_E_REVIEW: return snprintf(buf, size, "Supervisor: P%d calls a Roster Review. Hand back, draw six.", P);
    case NAR_E_KEEP: return snprintf(buf, size, "Supervisor: P%d keeps the roster as dealt.", P);
    case NAR_E_FIRST_PLAYER: return snprintf(buf, size, "Supervisor: P%d takes the first shift.", P);
    case NAR_E_SEVENTH_CARD: return snprintf(buf, size, "Supervisor: P%d is second in, draws a seventh card.", P);
    case NAR_E_SHIFT_BEGIN: return snprintf(buf, size, "Supervisor: Shift %d. P%d, you have the plant.", a, P);
    case NAR_E_REPORT_IN: return snprintf(buf, size, "Supervisor: P%d, crew reports in (%d readied).", P, a);
    case NAR_E_BASE_LOAD: return snprintf(buf, size, "Supervisor: P%d base load +%d K, core at %d K.", P, a, b);
    case NAR_E_BASE_LOAD_SKIPPED: return snprintf(buf, size, "Supervisor: P%d reactor is SHUT DOWN, no base load.", P);
    case NAR_E_SSE: return snprintf(buf, size, "Supervisor: P%d, %s reports SHIFT START.", P, cname(b));
    case NAR_E_CORE: return snprintf(buf, size, "Supervisor: P%d core %+d K, now %d K.", P, a, b);
    case NAR_E_CLEARANCE: return snprintf(buf, size, "Supervisor: P%d cleared to level %s.", P,
                                       a >= 0 && a < 4 ? arb_naramo__clearance_names[a] : "?");
    case NAR_E_PO: return snprintf(buf, size, "Supervisor: P%d Power Orders %+d, tally %d.", P, a, b);
    case NAR_E_HACK: return snprintf(buf, size, "Supervisor: P%d SKALA %+d HACK, panel shows %d.", P, a, b);
    case NAR_E_SWIPES: return snprintf(buf, size, "Supervisor: P%d, %d Swipe%s on the badge.", P, a, a == 1 ? "" : "s");
    case NAR_E_PLAY:
        if (c >= 0) return snprintf(buf, size, "Supervisor: P%d brings in %s (uid %d) on uid %d.", P, cname(b), a, c);
        return snprintf(buf, size, "Supervisor: P%d brings in %s (uid %d).", P, cname(b), a);
    case NAR_E_STATION: return snprintf(buf, size, "Supervisor: P%d stations %s.", P, cname(b));
    case NAR_E_RECALL: return snprintf(buf, size, "Supervisor: P%d recalls %s.", P, cname(b));
    case NAR_E_STRIKE: return snprintf(buf, size, "Supervisor: Raid alert. P%d's %s strikes for %d K.", P, cname(b), c);
    case NAR_E_BLOCK: return snprintf(buf, size, "Supervisor: P%d's %s holds the line. Strike stopped.", P, cname(b));
    case NAR_E_NOBLOCK: return snprintf(buf, size, "Supervisor: P%d, no block. Raiders are through.", P);
    case NAR_E_TAKE_HEAT: return snprintf(buf, size, "Supervisor: P%d eats the heat, %d K.", P, a);
    case NAR_E_TAKE_HACK: return snprintf(buf, size, "Supervisor: P%d takes the hack on SKALA.", P);
    case NAR_E_EXHAUST: return snprintf(buf, size, "Supervisor: P%d's %s is on it. Exhausted.", P, cname(b));
    case NAR_E_SCRAM: return snprintf(buf, size, "Supervisor: SCRAM SCRAM SCRAM. P%d rods in, reactor SHUT DOWN.", P);
    case NAR_E_EDG: return snprintf(buf, size, "Supervisor: P%d diesels online, %d Swipe%s.", P, a, a == 1 ? "" : "s");
    case NAR_E_END_SHIFT: return snprintf(buf, size, "Supervisor: P%d closes out Operations.", P);
    case NAR_E_ALARM: return snprintf(buf, size, "Supervisor: ALARM on P%d's shift: %s.", P, cname(c));
    case NAR_E_DEPLOY: return snprintf(buf, size, "Supervisor: P%d drops %s on P%d's board.", P, cname(c), b + 1);
    case NAR_E_DECLINE: return snprintf(buf, size, "Supervisor: P%d deploys nothing.", P);
    case NAR_E_CLEAR: return snprintf(buf, size, "Supervisor: P%d pays to clear %s.", P, cname(c));
    case NAR_E_CLEARS_DONE: return snprintf(buf, size, "Supervisor: P%d, board work done.", P);
    case NAR_E_PO_CHECK: return snprintf(buf, size, "Supervisor: P%d Power Order check: %s, tally %d.", P,
                                      a ? "on target, +1" : "no order", b);
    case NAR_E_OVERHEAT: return snprintf(buf, size, "Supervisor: P%d OVERHEAT at %d K.", P, a);
    case NAR_E_DURATION: return snprintf(buf, size, "Supervisor: P%d, incident uid %d of P%d, %d shift%s left.", P, b, a + 1, c, c == 1 ? "" : "s");
    case NAR_E_INCIDENT_DISCARD: return snprintf(buf, size, "Supervisor: P%d, %s has run its course.", P, cname(c));
    case NAR_E_DISCARD: return snprintf(buf, size, "Supervisor: P%d bins %s.", P, cname(b));
    case NAR_E_EFFECT_END: return snprintf(buf, size, "Supervisor: P%d, %s stands down.", P, cname(b));
    case NAR_E_SHUTDOWN_END: return snprintf(buf, size, "Supervisor: P%d reactor back from SHUT DOWN.", P);
    case NAR_E_LEAVE_PLAY: return snprintf(buf, size, "Supervisor: P%d, %s leaves the plant.", P, cname(b));
    case NAR_E_TIMEOUT:
        if (b) return snprintf(buf, size, "Supervisor: P%d never came back on the line.", P);
        return snprintf(buf, size, "Supervisor: P%d, time. Clock ran out (%d in a row).", P, a);
    case NAR_E_FORFEIT: return snprintf(buf, size, "Supervisor: P%d, three strikes on the clock. You forfeit.", P);
    case NAR_E_DISCONNECT: return snprintf(buf, size, "Supervisor: Lost P%d's line. Sixty seconds.", P);
    case NAR_E_RECONNECT: return snprintf(buf, size, a ? "Supervisor: P%d back, too late." : "Supervisor: P%d back on the line.", P);
    case NAR_E_GAME_OVER:
        if (ev->seat < 0) return snprintf(buf, size, "Supervisor: End of match. Draw (%s).", reason_text[a >= 0 && a < NAR_R_COUNT ? a : 0]);
        return snprintf(buf, size, "Supervisor: End of match. P%d wins: %s.", P, reason_text[a >= 0 && a < NAR_R_COUNT ? a : 0]);
    default: return snprintf(buf, size, "Supervisor: (event %u)", (unsigned)ev->type);
    }
}

static const char *uid_name(const nar_state *s, int seat, int32_t uid)
{
    if (seat < 0 || seat > 1 || uid < 0 || uid >= s->p[seat].ncards) return "?";
    return cname(s->p[seat].card[uid]);
}

int arb_naramo__action_text(const arb_game *g, const void *st, const arb_action *a, char *buf, size_t size)
{
    (void)g;
    const nar_state *s = st;
    if (a->verb >= NAR_V_COUNT) return snprintf(buf, size, "unknown verb %u", (unsigned)a->verb);
    const char *v = arb_naramo__verbs[a->verb].name;
    if (a->seat == ARB_SEAT_ARBITER) {
        if (a->nargs) return snprintf(buf, size, "arbiter: %s P%d", v, a->args[0] + 1);
        return snprintf(buf, size, "arbiter: %s", v);
    }
    int P = a->seat + 1, seat = a->seat;
    switch (a->verb) {
    case NAR_V_PLAY:
        if (a->nargs == 2)
            return snprintf(buf, size, "P%d plays %s (uid %d) on %s (uid %d)", P, uid_name(s, seat, a->args[0]),
                            a->args[0], uid_name(s, seat, a->args[1]), a->args[1]);
        /* fall through */
    case NAR_V_ORDER: case NAR_V_STATION: case NAR_V_RECALL: case NAR_V_STRIKE: case NAR_V_EXHAUST:
    case NAR_V_GUBBY_DISCARD: case NAR_V_BLOCK: case NAR_V_DISCARD:
        return snprintf(buf, size, "P%d %s %s (uid %d)", P, v, uid_name(s, seat, a->args[0]), a->args[0]);
    case NAR_V_DEPLOY:
        return snprintf(buf, size, "P%d deploys %s (uid %d) onto P%d's shift", P, uid_name(s, seat, a->args[0]),
                        a->args[0], a->args[1] + 1);
    case NAR_V_CLEAR:
        if (seat >= 0 && seat < 2 && a->args[0] >= 0 && a->args[0] < s->p[seat].nboard) {
            const nar_bentry *e = &s->p[seat].board[a->args[0]];
            return snprintf(buf, size, "P%d clears %s (board %d)", P, uid_name(s, e->owner, e->uid), a->args[0]);
        }
        return snprintf(buf, size, "P%d clears board %d", P, a->args[0]);
    default:
        return snprintf(buf, size, "P%d %s", P, v);
    }
}
