/* rules.c — Brainstorm's rules: Golden Rule hooks, zones, setup, the
 * Cycle's flow, and the validate/execute split behind legal() and apply().
 *
 * apply() is validate-then-execute: arb_brainstorm__validate reads the state only
 * and names the BRN rule an action breaks, so a rejected action leaves the
 * bytes untouched; legal() enumerates candidate actions and keeps those the
 * same validator accepts, so legal and accepted cannot drift apart. The
 * automatic parts of the Cycle (Reset, Start, End-of-Cycle triggers, phase
 * changes) run inside arb_brainstorm__advance/enter until some seat owes a
 * decision, so exactly one seat owes one at any time. */
#include <assert.h>
#include <string.h>

#include "arbiter/hash.h"
#include "games/brainstorm/brainstorm.h"

const char *const arb_brainstorm__phase_names[BRN_P_COUNT] = {
    "reset", "start", "expansion", "assembly", "routing",
    "bootstrap", "plug", "showdown", "focus", "end", "over"
};

/* ---- Golden Rule hook points ------------------------------------------- */
/* Each rule parameter a card may override is read only here: the base value
 * is the house constant, and every active Cell on the seat's Machine adds
 * its printed modifier. */
#define FOR_ACTIVE_CELLS(s, seat, d)                                              \
    for (int k_ = 0; k_ < (s)->p[seat].nz[BRN_Z_MACHINE]; k_++)                   \
        for (const brn_carddef *d = arb_brainstorm__def(s, seat, (s)->p[seat].z[BRN_Z_MACHINE][k_]); \
             d; d = NULL)                                                          \
            if (d->type == BRN_T_CELL &&                                           \
                ((s)->p[seat].c[(s)->p[seat].z[BRN_Z_MACHINE][k_]].flags & BRN_F_ACTIVE))

int arb_brainstorm__hook_max_hand(const brn_state *s, int seat)
{
    int v = BRN_MAX_HAND;
    FOR_ACTIVE_CELLS(s, seat, d) v += d->mod_max_hand;
    return v < 0 ? 0 : v;
}

int arb_brainstorm__hook_start_draws(const brn_state *s, int seat)
{
    int v = BRN_START_DRAWS;
    FOR_ACTIVE_CELLS(s, seat, d) v += d->mod_draws;
    return v < 0 ? 0 : v;
}

int arb_brainstorm__hook_gen_charge(const brn_state *s, int seat)
{
    const brn_player *p = &s->p[seat];
    if (p->gen == BRN_NONE) return 0;
    int v = arb_brainstorm__def(s, seat, p->gen)->gen;
    FOR_ACTIVE_CELLS(s, seat, d) v += d->mod_gen;
    return v < 0 ? 0 : v;
}

int arb_brainstorm__hook_out_links(const brn_state *s, int seat)
{
    int v = BRN_OUT_LINKS;
    FOR_ACTIVE_CELLS(s, seat, d) v += d->mod_out_links;
    return v < 1 ? 1 : v;
}

int arb_brainstorm__hook_discards(const brn_state *s, int seat)
{
    FOR_ACTIVE_CELLS(s, seat, d) if (d->no_discard) return 0;
    return 1;
}

int arb_brainstorm__hook_transfer(const brn_state *s, int seat, int to_uid, int amount)
{
    if (amount <= 0) return amount;
    return amount + arb_brainstorm__def(s, seat, to_uid)->transfer_bonus;
}

/* ---- zones ------------------------------------------------------------- */
int arb_brainstorm__zone_index(const brn_player *p, int uid)
{
    int z = p->c[uid].zone;
    if (z >= BRN_NZONES) return -1;
    for (int i = 0; i < p->nz[z]; i++)
        if (p->z[z][i] == uid) return i;
    return -1;
}

void arb_brainstorm__zone_remove(brn_player *p, int uid)
{
    int z = p->c[uid].zone;
    int i = arb_brainstorm__zone_index(p, uid); /* -1 for the Stack, which is not a zone list */
    if (i < 0) return;
    memmove(&p->z[z][i], &p->z[z][i + 1], (size_t)(p->nz[z] - i - 1));
    p->nz[z]--;
}

void arb_brainstorm__zone_add(brn_player *p, int uid, int zone)
{
    assert(uid >= 0 && uid < BRN_CARDS_MAX && zone >= 0 && zone <= BRN_Z_STACK);
    assert(zone >= BRN_NZONES || p->nz[zone] < BRN_CARDS_MAX);
    p->c[uid].zone = (uint8_t)zone;
    if (zone < BRN_NZONES) p->z[zone][p->nz[zone]++] = (uint8_t)uid;
}

static void move_card(brn_state *s, int seat, int uid, int zone)
{
    brn_player *p = &s->p[seat];
    arb_brainstorm__zone_remove(p, uid);
    p->c[uid].flags = 0;
    p->c[uid].charge = 0;
    p->c[uid].used = 0;
    arb_brainstorm__zone_add(p, uid, zone);
}

int arb_brainstorm__draw(brn_state *s, int seat, int n, arb_events *ev)
{
    brn_player *p = &s->p[seat];
    for (int i = 0; i < n; i++) {
        if (p->nz[BRN_Z_DECK] == 0) {
            arb_events_push(ev, BRN_E_DECK_EMPTY, seat, 0, 0, 0, 0);
            return -1;
        }
        int uid = p->z[BRN_Z_DECK][p->nz[BRN_Z_DECK] - 1];
        move_card(s, seat, uid, BRN_Z_HAND);
        arb_events_push(ev, BRN_E_DRAW, seat, 1, uid, p->c[uid].id, 0);
    }
    return 0;
}

int arb_brainstorm__machine_modules(const brn_state *s, int seat)
{
    int n = 0;
    for (int i = 0; i < s->p[seat].nz[BRN_Z_MACHINE]; i++)
        n += arb_brainstorm__def(s, seat, s->p[seat].z[BRN_Z_MACHINE][i])->type == BRN_T_MODULE;
    return n;
}

void arb_brainstorm__finish(brn_state *s, int winner, int reason, arb_events *ev)
{
    s->over = 1;
    s->winner = (int8_t)winner;
    s->reason = (uint8_t)reason;
    s->phase = BRN_P_OVER;
    s->actor = BRN_NONE;
    arb_events_push(ev, BRN_E_OVER, winner, 0, reason, s->cycle, 0); /* game.h's shape */
}

/* ---- the Cycle's flow -------------------------------------------------- */
static void do_reset(brn_state *s, arb_events *ev)
{
    for (int seat = 0; seat < BRN_PLAYERS; seat++) {
        brn_player *p = &s->p[seat];
        for (int i = 0; i < p->nz[BRN_Z_MACHINE]; i++) {
            int uid = p->z[BRN_Z_MACHINE][i];
            const brn_carddef *d = arb_brainstorm__def(s, seat, uid);
            /* BRN-RESET-CELLS, BRN-RESET-RESEARCH */
            if (d->type == BRN_T_CELL && !d->research && (p->c[uid].flags & BRN_F_ACTIVE)) {
                p->c[uid].flags &= (uint8_t)~BRN_F_ACTIVE;
                arb_events_push(ev, BRN_E_DEACTIVATE, seat, 0, uid, p->c[uid].id, 0);
            }
            p->c[uid].used = 0; /* G09: Outputs become unused with the Links */
        }
        arb_events_push(ev, BRN_E_SEVER, seat, 0, p->nlinks, 0, 0); /* BRN-RESET-LINKS */
        p->nlinks = 0;
    }
}

static void do_start(brn_state *s, arb_events *ev)
{
    int lost[BRN_PLAYERS] = { 0, 0 };
    for (int k = 0; k < BRN_PLAYERS; k++) {   /* BRN-START-DRAW, lead first */
        int seat = (s->lead + k) % BRN_PLAYERS;
        if (arb_brainstorm__draw(s, seat, arb_brainstorm__hook_start_draws(s, seat), ev) < 0) lost[seat] = 1;
    }
    if (lost[0] && lost[1]) { arb_brainstorm__finish(s, -1, BRN_R_BOTH_DECKOUT, ev); return; }
    if (lost[0] || lost[1]) { arb_brainstorm__finish(s, lost[0] ? 1 : 0, BRN_R_DECKOUT, ev); return; }
    for (int k = 0; k < BRN_PLAYERS; k++) {   /* BRN-START-CHARGE (G05) */
        int seat = (s->lead + k) % BRN_PLAYERS;
        brn_player *p = &s->p[seat];
        if (p->gen == BRN_NONE) continue;
        int add = arb_brainstorm__hook_gen_charge(s, seat);
        int v = p->c[p->gen].charge + add;
        if (v > BRN_CHARGE_MAX) v = BRN_CHARGE_MAX;
        p->c[p->gen].charge = (uint8_t)v;
        arb_events_push(ev, BRN_E_GENERATE, seat, 0, p->gen, add, v);
    }
}

static int must_discard(const brn_state *s, int seat)
{
    return s->p[seat].nz[BRN_Z_HAND] > arb_brainstorm__hook_max_hand(s, seat) &&
           arb_brainstorm__hook_discards(s, seat);
}

static void end_cycle(brn_state *s, arb_events *ev)
{
    if (s->cycle >= BRN_CYCLE_CAP) { arb_brainstorm__finish(s, -1, BRN_R_CYCLE_CAP, ev); return; }
    s->cycle++;
    s->lead ^= 1;                               /* G03: the lead alternates */
    s->run = 0;
    arb_events_push(ev, BRN_E_CYCLE, s->lead, 0, s->cycle, s->lead, 0);
    arb_brainstorm__enter(s, BRN_P_RESET, ev);         /* BRN-EOC-LOOP */
}

/* G14: discard in turn, lead first, one card at a time. */
static void discard_next(brn_state *s, int just_moved, arb_events *ev)
{
    int first = just_moved < 0 ? s->lead : just_moved ^ 1;
    for (int k = 0; k < BRN_PLAYERS; k++) {
        int seat = (first + k) % BRN_PLAYERS;
        if (must_discard(s, seat)) { s->actor = (uint8_t)seat; return; }
    }
    end_cycle(s, ev);
}

static int is_action_phase(int ph)
{
    return ph == BRN_P_EXPANSION || ph == BRN_P_ASSEMBLY || ph == BRN_P_ROUTING ||
           ph == BRN_P_PLUG || ph == BRN_P_SHOWDOWN;
}

void arb_brainstorm__enter(brn_state *s, int phase, arb_events *ev)
{
    if (s->over) return;
    s->phase = (uint8_t)phase;
    s->passes = 0;
    arb_events_push(ev, BRN_E_PHASE, -1, 0, phase, s->cycle, s->run);
    switch (phase) {
    case BRN_P_RESET:
        do_reset(s, ev);
        arb_brainstorm__enter(s, BRN_P_START, ev);
        return;
    case BRN_P_START:
        do_start(s, ev);
        arb_brainstorm__enter(s, BRN_P_EXPANSION, ev);
        return;
    case BRN_P_BOOTSTRAP:
        for (int seat = 0; seat < BRN_PLAYERS; seat++) s->p[seat].boot_count = 0;
        arb_brainstorm__bootstrap_next(s, -1, ev);
        return;
    case BRN_P_FOCUS:
        s->chosen = 0;
        for (int seat = 0; seat < BRN_PLAYERS; seat++) {
            brn_player *p = &s->p[seat];
            for (int i = 0; i < p->nz[BRN_Z_MACHINE]; i++) {
                int uid = p->z[BRN_Z_MACHINE][i];
                if (p->c[uid].flags & BRN_F_FOCUSED) p->c[uid].flags |= BRN_F_PENDING;
            }
        }
        arb_brainstorm__focus_next(s, -1, ev);
        return;
    case BRN_P_END:
        arb_brainstorm__eoc_triggers(s, ev);           /* BRN-EOC-TRIGGERS, then discards */
        if (s->over) return;
        for (int seat = 0; seat < BRN_PLAYERS; seat++)
            if (s->p[seat].nz[BRN_Z_HAND] > arb_brainstorm__hook_max_hand(s, seat) &&
                !arb_brainstorm__hook_discards(s, seat))
                arb_events_push(ev, BRN_E_NO_DISCARD, seat, 0, s->p[seat].nz[BRN_Z_HAND], 0, 0);
        discard_next(s, -1, ev);
        return;
    default:
        if (is_action_phase(phase)) s->actor = s->lead; /* G03 */
        return;
    }
}

/* An Action phase ends: both passed in sequence with an empty Stack. */
static void action_phase_over(brn_state *s, arb_events *ev)
{
    switch (s->phase) {
    case BRN_P_EXPANSION: arb_brainstorm__enter(s, BRN_P_ASSEMBLY, ev); break;
    case BRN_P_ASSEMBLY: arb_brainstorm__enter(s, BRN_P_ROUTING, ev); break;
    case BRN_P_ROUTING: arb_brainstorm__enter(s, BRN_P_BOOTSTRAP, ev); break;
    case BRN_P_PLUG: arb_brainstorm__enter(s, BRN_P_SHOWDOWN, ev); break;
    case BRN_P_SHOWDOWN: arb_brainstorm__enter(s, BRN_P_FOCUS, ev); break;
    default: break;
    }
}

/* ---- validation -------------------------------------------------------- */

static int card_ok(const brn_state *s, int seat, int32_t uid)
{
    return seat >= 0 && seat < BRN_PLAYERS && uid >= 0 && uid < s->p[seat].ncards;
}

static int check_in_hand(const brn_state *s, int seat, int32_t uid, arb_error *err)
{
    if (!card_ok(s, seat, uid))
        return ARB_INVALID(err, "BRN-ZONE-HAND-PLAYABLE", "P%d has no card with UID %d", seat + 1, (int)uid);
    int z = s->p[seat].c[uid].zone;
    if (z == BRN_Z_DECK)
        return ARB_ILLEGAL(err, "BRN-ZONE-DECK-UNUSABLE", "card %d is in the Deck, which cannot be used", (int)uid);
    if (z != BRN_Z_HAND)
        return ARB_ILLEGAL(err, "BRN-ZONE-HAND-PLAYABLE", "card %d is not in Hand; only Hand cards can be played", (int)uid);
    return 0;
}

static int on_machine(const brn_state *s, int seat, int32_t uid)
{
    return card_ok(s, seat, uid) && s->p[seat].c[uid].zone == BRN_Z_MACHINE;
}

static const char *step_rule(int phase)
{
    switch (phase) {
    case BRN_P_EXPANSION: return "BRN-EXP-ENABLE";
    case BRN_P_ASSEMBLY: return "BRN-ASM-PLAY";
    case BRN_P_ROUTING: return "BRN-ROUTE-LINK";
    case BRN_P_BOOTSTRAP: return "BRN-BOOT-CHOOSE";
    case BRN_P_PLUG: return "BRN-RUN-PLUG";
    case BRN_P_SHOWDOWN: return "BRN-RUN-SHOWDOWN";
    case BRN_P_FOCUS: return "BRN-FOCUS-CHOOSE";
    default: return "BRN-EOC-DISCARD";
    }
}

static int check_play(const brn_state *s, const arb_action *a, arb_error *err)
{
    int seat = a->seat, ph = s->phase;
    int32_t uid = a->args[0];
    int rc = check_in_hand(s, seat, uid, err);
    if (rc) return rc;
    const brn_carddef *d = arb_brainstorm__def(s, seat, uid);
    if (d->type != BRN_T_CELL && d->type != BRN_T_TACTIC)
        return ARB_ILLEGAL(err, "BRN-ZONE-STACK", "only Tactics and Cells are played onto the Stack");
    switch (ph) {
    case BRN_P_ASSEMBLY:
        if (d->type == BRN_T_TACTIC && !d->preemptive)
            return ARB_ILLEGAL(err, "BRN-ASM-PLAY", "only Preemptive Tactics and Cells can be played in Assembly");
        break;
    case BRN_P_PLUG:
        if (d->type == BRN_T_TACTIC && d->preemptive)
            return ARB_ILLEGAL(err, "BRN-RUN-PLUG", "Preemptive Tactics are played in Assembly only (G08)");
        break;
    case BRN_P_SHOWDOWN:
        if (d->type == BRN_T_CELL)
            return ARB_ILLEGAL(err, "BRN-RUN-SHOWDOWN", "Cells cannot be played in Showdown (G12)");
        if (d->preemptive)
            return ARB_ILLEGAL(err, "BRN-RUN-SHOWDOWN", "Preemptive Tactics are played in Assembly only (G08)");
        break;
    default:
        return ARB_ILLEGAL(err, step_rule(ph), "cards cannot be played in %s", arb_brainstorm__phase_names[ph]);
    }
    if (s->nstack >= BRN_STACK_MAX)
        return ARB_ILLEGAL(err, "BRN-ZONE-STACK", "the Stack is full");
    if (d->target == BRN_TGT_NONE) {
        if (a->nargs != 1)
            return ARB_INVALID(err, "BRN-GOLDEN", "%s takes no target", d->pub.name);
        return 0;
    }
    if (a->nargs != 3)
        return ARB_INVALID(err, "BRN-GOLDEN", "%s needs a target: play UID SEAT UID", d->pub.name);
    int ts = a->args[1];
    int32_t tu = a->args[2];
    if (!card_ok(s, ts, tu))
        return ARB_INVALID(err, "BRN-GOLDEN", "no target card %d of seat %d", (int)tu, ts);
    if (!on_machine(s, ts, tu))
        return ARB_ILLEGAL(err, "BRN-GOLDEN", "the target of %s must be on a Machine", d->pub.name);
    const brn_carddef *td = arb_brainstorm__def(s, ts, tu);
    uint8_t tf = s->p[ts].c[tu].flags;
    if (d->target == BRN_TGT_FOCUSED_MODULE && !(td->type == BRN_T_MODULE && (tf & BRN_F_FOCUSED)))
        return ARB_ILLEGAL(err, "BRN-GOLDEN", "%s targets a focused Module", d->pub.name);
    if (d->target == BRN_TGT_OWN_INACTIVE_CELL &&
        !(ts == seat && td->type == BRN_T_CELL && !(tf & BRN_F_ACTIVE)))
        return ARB_ILLEGAL(err, "BRN-GOLDEN", "%s targets an inactive Cell on your Machine", d->pub.name);
    return 0;
}

static int links_from(const brn_player *p, int from, int out)
{
    int n = 0;
    for (int i = 0; i < p->nlinks; i++) n += p->links[i].from == from && p->links[i].out == out;
    return n;
}

static int links_to(const brn_player *p, int to, int in)
{
    int n = 0;
    for (int i = 0; i < p->nlinks; i++) n += p->links[i].to == to && p->links[i].in == in;
    return n;
}

static int check_link(const brn_state *s, const arb_action *a, int out_limit, arb_error *err)
{
    int seat = a->seat;
    const brn_player *p = &s->p[seat];
    int32_t from = a->args[0], out = a->args[1], to = a->args[2], in = a->args[3];
    if (!on_machine(s, seat, from) || !on_machine(s, seat, to))
        return ARB_ILLEGAL(err, "BRN-ROUTE-LINK", "Links join cards on your own Machine (G09)");
    if (from == to)
        return ARB_ILLEGAL(err, "BRN-ROUTE-LINK", "a card cannot be linked to itself (G09)");
    const brn_carddef *fd = arb_brainstorm__def(s, seat, from), *td = arb_brainstorm__def(s, seat, to);
    if (out < 0 || out >= fd->outs)
        return ARB_ILLEGAL(err, "BRN-ROUTE-LINK", "%s has no Output O%d", fd->pub.name, (int)out + 1);
    if (td->type != BRN_T_MODULE || in < 0 || in >= td->ins)
        return ARB_ILLEGAL(err, "BRN-ROUTE-LINK", "%s has no Input I%d", td->pub.name, (int)in + 1);
    if (links_from(p, from, out) >= out_limit)
        return ARB_ILLEGAL(err, "BRN-ROUTE-LINK", "Output O%d of %s already has %d Link(s) (G09)",
               (int)out + 1, fd->pub.name, out_limit);
    if (links_to(p, to, in) >= BRN_IN_LINKS)
        return ARB_ILLEGAL(err, "BRN-ROUTE-LINK", "Input I%d of %s already has a Link (G09)", (int)in + 1, td->pub.name);
    if (p->nlinks >= BRN_LINKS_MAX)
        return ARB_ILLEGAL(err, "BRN-ROUTE-LINK", "a Machine holds at most %d Links", BRN_LINKS_MAX);
    return 0;
}

static int validate_link(const brn_state *s, const arb_action *a, arb_error *err)
{
    return check_link(s, a, arb_brainstorm__hook_out_links(s, a->seat), err);
}

/* The precheck's rule IDs (toolkit.h: the refusal precedence). */
static const arb_precheck_rules prechecks = {
    .over = "BRN-ZONE-DECK-DRAW", .verb = "BRN-ACTION-REQUIRED", .nargs_any = "BRN-ACTION-REQUIRED",
    .clock = 0, .arbiter_verbs = BRN_V_TIMEOUT, .no_clock = "BRN-ACTION-REQUIRED", .seat = "BRN-ACTION-REQUIRED",
};

int arb_brainstorm__validate(const brn_state *s, const arb_action *a, arb_error *err)
{
    int pre = arb_action_precheck(&arb_game_brainstorm, &prechecks, s->over, BRN_PLAYERS, s->actor,
                                  "BRN-ACTION-REQUIRED", a, err);
    if (pre) return pre;
    int seat = a->seat, ph = s->phase;
    const brn_player *p = &s->p[seat];
    switch (a->verb) {
    case BRN_V_PASS:
        if (!is_action_phase(ph))
            return ARB_ILLEGAL(err, step_rule(ph), "there is no passing in %s: a choice is owed",
                   arb_brainstorm__phase_names[ph]);
        return 0;
    case BRN_V_ENABLE: {
        if (ph != BRN_P_EXPANSION)
            return ARB_ILLEGAL(err, ph == BRN_P_ASSEMBLY ? "BRN-ASM-PLAY" : "BRN-EXP-ENABLE",
                   "Modules are enabled in Expansion only");
        int rc = check_in_hand(s, seat, a->args[0], err);
        if (rc) return rc;
        if (arb_brainstorm__def(s, seat, a->args[0])->type != BRN_T_MODULE)
            return ARB_ILLEGAL(err, "BRN-EXP-ENABLE", "only Modules are enabled");
        if (arb_brainstorm__machine_modules(s, seat) >= BRN_MACHINE_MODULES)
            return ARB_ILLEGAL(err, "BRN-EXP-ENABLE", "a Machine holds at most %d Modules (G06)", BRN_MACHINE_MODULES);
        return 0;
    }
    case BRN_V_PLAY:
        if (ph == BRN_P_EXPANSION)
            return ARB_ILLEGAL(err, "BRN-EXP-ENABLE", "only Modules are enabled in Expansion; nothing is played");
        return check_play(s, a, err);
    case BRN_V_LINK:
        if (ph != BRN_P_ROUTING)
            return ARB_ILLEGAL(err, "BRN-ROUTE-LINK", "Links are added in Routing only");
        return validate_link(s, a, err);
    case BRN_V_BOOT: {
        if (ph != BRN_P_BOOTSTRAP)
            return ARB_ILLEGAL(err, "BRN-BOOT-CHOOSE", "Modules are chosen for the Generator's Charge in Bootstrap only");
        if (!on_machine(s, seat, a->args[0]))
            return ARB_ILLEGAL(err, "BRN-BOOT-CHOOSE", "card %d is not on your Machine", (int)a->args[0]);
        int port = arb_brainstorm__boot_port(s, seat, a->args[0]);
        if (port < 0)
            return ARB_ILLEGAL(err, "BRN-BOOT-CHOOSE", s->rules >= 2 ?
                   "card %d is not a Module linked to an Output of your Generator, not yet chosen this Bootstrap" :
                   "card %d is not a Module linked to an unused Output of your Generator", (int)a->args[0]);
        int charge = p->c[p->gen].charge;
        if (a->args[1] < 0 || a->args[1] > charge)
            return ARB_ILLEGAL(err, "BRN-BOOT-TRANSFER", "the Generator holds %d Charge", charge);
        if (a->args[1] != charge && arb_brainstorm__boot_others(s, seat, a->args[0], port) == 0)
            return ARB_ILLEGAL(err, "BRN-BOOT-TRANSFER",
                   "this is the last Module you can choose: all %d remaining Charge goes to it (G10)", charge);
        return 0;
    }
    case BRN_V_FOCUS:
        if (ph != BRN_P_FOCUS)
            return ARB_ILLEGAL(err, "BRN-FOCUS-CHOOSE", "Modules are chosen this way in Focus only");
        if (!on_machine(s, seat, a->args[0]) || !(p->c[a->args[0]].flags & BRN_F_PENDING))
            return ARB_ILLEGAL(err, "BRN-FOCUS-CHOOSE", "card %d is not one of your focused Modules awaiting Focus",
                   (int)a->args[0]);
        if (!on_machine(s, seat, a->args[1]) || arb_brainstorm__focus_port(s, seat, a->args[0], a->args[1]) < 0)
            return ARB_ILLEGAL(err, "BRN-FOCUS-CHOOSE", "card %d is not linked to an unused Output of card %d",
                   (int)a->args[1], (int)a->args[0]);
        return 0;
    case BRN_V_USE: {
        if (ph != BRN_P_SHOWDOWN)
            return ARB_ILLEGAL(err, "BRN-RUN-SHOWDOWN", "Module abilities are used in Showdown only (G12)");
        if (!on_machine(s, seat, a->args[0]))
            return ARB_ILLEGAL(err, "BRN-RUN-SHOWDOWN", "card %d is not on your Machine", (int)a->args[0]);
        const brn_carddef *d = arb_brainstorm__def(s, seat, a->args[0]);
        const brn_cardst *c = &p->c[a->args[0]];
        if (!d->ability)
            return ARB_ILLEGAL(err, "BRN-RUN-SHOWDOWN", "%s has no ability", d->pub.name);
        if (!(c->flags & BRN_F_FOCUSED))
            return ARB_ILLEGAL(err, "BRN-RUN-SHOWDOWN", "%s is not focused", d->pub.name);
        if (c->charge < d->ab_cost)
            return ARB_ILLEGAL(err, "BRN-RUN-SHOWDOWN", "%s holds %d Charge, needs %d", d->pub.name,
                   c->charge, d->ab_cost);
        return 0;
    }
    case BRN_V_DISCARD:
        if (ph != BRN_P_END)
            return ARB_ILLEGAL(err, "BRN-EOC-DISCARD", "cards are discarded at End of Cycle only");
        if (!card_ok(s, seat, a->args[0]) || p->c[a->args[0]].zone != BRN_Z_HAND)
            return ARB_ILLEGAL(err, "BRN-EOC-DISCARD", "card %d is not in your Hand", (int)a->args[0]);
        return 0;
    default:
        return ARB_INVALID(err, "BRN-ACTION-REQUIRED", "unknown verb");
    }
}

/* ---- execution (the action is valid) ---------------------------------- */
static void acted(brn_state *s)
{
    s->passes = 0;
    s->actor ^= 1;              /* BRN-ACTION-INTURNS */
}

void arb_brainstorm__exec(brn_state *s, const arb_action *a, arb_events *ev)
{
    int seat = a->seat;
    brn_player *p = &s->p[seat];
    switch (a->verb) {
    case BRN_V_PASS:
        arb_events_push(ev, BRN_E_PASS, seat, 0, s->phase, s->nstack, 0);
        if (++s->passes < BRN_PLAYERS) { s->actor ^= 1; return; }
        if (s->nstack) {        /* G04: both passed: the top item resolves */
            arb_brainstorm__resolve_top(s, ev);
            s->passes = 0;
            if (!s->over) s->actor = s->lead;
            return;
        }
        action_phase_over(s, ev); /* BRN-ACTION-PHASE-END */
        return;
    case BRN_V_ENABLE:
        move_card(s, seat, a->args[0], BRN_Z_MACHINE);
        arb_events_push(ev, BRN_E_ENABLE, seat, 0, a->args[0], p->c[a->args[0]].id, 0);
        acted(s);
        return;
    case BRN_V_PLAY:
        arb_brainstorm__zone_remove(p, a->args[0]);
        p->c[a->args[0]].zone = BRN_Z_STACK;
        if (a->nargs == 3)
            arb_brainstorm__push(s, BRN_S_CARD, seat, a->args[0], a->args[1], a->args[2], ev);
        else
            arb_brainstorm__push(s, BRN_S_CARD, seat, a->args[0], BRN_NONE, BRN_NONE, ev);
        acted(s);
        return;
    case BRN_V_LINK: {
        brn_link *l = &p->links[p->nlinks++];
        l->from = (uint8_t)a->args[0]; l->out = (uint8_t)a->args[1];
        l->to = (uint8_t)a->args[2]; l->in = (uint8_t)a->args[3];
        arb_events_push(ev, BRN_E_LINK, seat, 0, a->args[0] | (a->args[1] << 8),
                        a->args[2] | (a->args[3] << 8), 0);
        acted(s);
        return;
    }
    case BRN_V_BOOT: {
        int uid = a->args[0], port = arb_brainstorm__boot_port(s, seat, uid);
        brn_cardst *g = &p->c[p->gen];
        g->charge = (uint8_t)(g->charge - a->args[1]);
        g->used |= (uint8_t)(1u << port);                /* BRN-BOOT-USED */
        /* draft0-2: the choice is told before the trigger it may cause */
        if (s->rules >= 2) arb_events_push(ev, BRN_E_BOOT, seat, 0, uid, a->args[1], port);
        arb_brainstorm__give_charge(s, seat, uid, a->args[1], ev);  /* BRN-BOOT-TRANSFER */
        p->c[uid].flags |= BRN_F_FOCUSED;                /* BRN-BOOT-FOCUS */
        p->boot_count++;
        if (s->rules < 2) arb_events_push(ev, BRN_E_BOOT, seat, 0, uid, a->args[1], port);
        arb_brainstorm__bootstrap_next(s, seat, ev);
        return;
    }
    case BRN_V_FOCUS: {
        int from = a->args[0], to = a->args[1], port = arb_brainstorm__focus_port(s, seat, from, to);
        brn_cardst *f = &p->c[from];
        int amount = f->charge;
        f->used |= (uint8_t)(1u << port);                /* BRN-FOCUS-USED */
        f->charge = 0;
        f->flags &= (uint8_t)~(BRN_F_FOCUSED | BRN_F_PENDING); /* G11 */
        if (s->rules >= 2) arb_events_push(ev, BRN_E_FOCUS_MOVE, seat, 0, from, to, amount);
        arb_brainstorm__give_charge(s, seat, to, amount, ev);       /* BRN-FOCUS-TRANSFER */
        p->c[to].flags |= BRN_F_FOCUSED;                 /* BRN-FOCUS-NEWFOCUS */
        s->chosen = 1;
        if (s->rules < 2) arb_events_push(ev, BRN_E_FOCUS_MOVE, seat, 0, from, to, amount);
        arb_brainstorm__focus_next(s, seat, ev);
        return;
    }
    case BRN_V_USE: {
        int uid = a->args[0];
        const brn_carddef *d = arb_brainstorm__def(s, seat, uid);
        p->c[uid].charge = (uint8_t)(p->c[uid].charge - d->ab_cost);
        arb_events_push(ev, BRN_E_ABILITY, seat, 0, uid, d->ab_cost, p->c[uid].id);
        if (d->ability == BRN_AB_DRAW) {
            if (arb_brainstorm__draw(s, seat, d->ab_amount, ev) < 0) {
                arb_brainstorm__finish(s, seat ^ 1, BRN_R_DECKOUT, ev);
                return;
            }
        } else if (d->ability == BRN_AB_MILL) {
            brn_player *o = &s->p[seat ^ 1];
            for (int k = 0; k < d->ab_amount && o->nz[BRN_Z_DECK]; k++) {
                int m = o->z[BRN_Z_DECK][o->nz[BRN_Z_DECK] - 1];
                move_card(s, seat ^ 1, m, BRN_Z_SCRAP);
                arb_events_push(ev, BRN_E_MILL, seat ^ 1, 0, m, o->c[m].id, 0);
            }
        }
        acted(s);
        return;
    }
    case BRN_V_DISCARD:
        move_card(s, seat, a->args[0], BRN_Z_SCRAP);
        arb_events_push(ev, BRN_E_DISCARD, seat, 0, a->args[0], p->c[a->args[0]].id, 0);
        discard_next(s, seat, ev);
        return;
    default:
        return;
    }
}

/* ---- legal ------------------------------------------------------------- */
typedef struct { arb_legal L; const brn_state *s; } brn_emit; /* the core legal-action buffer */

/* A candidate: offered when the validator accepts it. */
static void try_add(brn_emit *e, const arb_action *a)
{
    if (arb_brainstorm__validate(e->s, a, NULL) != 0) return;
    arb_legal_push(&e->L, a);
}

static arb_action act(int seat, int verb, int nargs, int a0, int a1, int a2, int a3)
{
    return arb_legal_action(seat, (unsigned)verb, (unsigned)nargs, a0, a1, a2, a3);
}

size_t arb_brainstorm__legal(const brn_state *s, arb_action *out, size_t cap)
{
    brn_emit e = { arb_legal_init(out, cap, s->actor), s };
    if (s->over) return 0;
    int seat = s->actor;
    const brn_player *p = &s->p[seat];
    arb_action a;
    switch (s->phase) {
    case BRN_P_EXPANSION:
        a = act(seat, BRN_V_PASS, 0, 0, 0, 0, 0); try_add(&e, &a);
        for (int i = 0; i < p->nz[BRN_Z_HAND]; i++) {
            a = act(seat, BRN_V_ENABLE, 1, p->z[BRN_Z_HAND][i], 0, 0, 0); try_add(&e, &a);
        }
        break;
    case BRN_P_ASSEMBLY: case BRN_P_PLUG: case BRN_P_SHOWDOWN:
        a = act(seat, BRN_V_PASS, 0, 0, 0, 0, 0); try_add(&e, &a);
        for (int i = 0; i < p->nz[BRN_Z_HAND]; i++) {
            int uid = p->z[BRN_Z_HAND][i];
            const brn_carddef *d = arb_brainstorm__def(s, seat, uid);
            if (d->target == BRN_TGT_NONE) {
                a = act(seat, BRN_V_PLAY, 1, uid, 0, 0, 0); try_add(&e, &a);
                continue;
            }
            for (int ts = 0; ts < BRN_PLAYERS; ts++)
                for (int k = 0; k < s->p[ts].nz[BRN_Z_MACHINE]; k++) {
                    a = act(seat, BRN_V_PLAY, 3, uid, ts, s->p[ts].z[BRN_Z_MACHINE][k], 0);
                    try_add(&e, &a);
                }
        }
        if (s->phase == BRN_P_SHOWDOWN)
            for (int k = 0; k < p->nz[BRN_Z_MACHINE]; k++) {
                a = act(seat, BRN_V_USE, 1, p->z[BRN_Z_MACHINE][k], 0, 0, 0); try_add(&e, &a);
            }
        break;
    case BRN_P_ROUTING: {
        /* The same conditions as check_link, counted once per call instead
         * of once per candidate (Routing dominates random self-play); the
         * property test keeps the two in agreement. */
        a = act(seat, BRN_V_PASS, 0, 0, 0, 0, 0); try_add(&e, &a);
        if (p->nlinks >= BRN_LINKS_MAX) break;
        int lim = arb_brainstorm__hook_out_links(s, seat);
        uint8_t outc[BRN_CARDS_MAX][BRN_PORTS_MAX], inc[BRN_CARDS_MAX][BRN_PORTS_MAX];
        memset(outc, 0, sizeof outc);
        memset(inc, 0, sizeof inc);
        for (int i = 0; i < p->nlinks; i++) {
            const brn_link *l = &p->links[i];
            if (l->from < BRN_CARDS_MAX && l->out < BRN_PORTS_MAX) outc[l->from][l->out]++;
            if (l->to < BRN_CARDS_MAX && l->in < BRN_PORTS_MAX) inc[l->to][l->in]++;
        }
        for (int i = 0; i < p->nz[BRN_Z_MACHINE]; i++) {
            int from = p->z[BRN_Z_MACHINE][i];
            const brn_carddef *fd = arb_brainstorm__def(s, seat, from);
            for (int o = 0; o < fd->outs; o++) {
                if (outc[from][o] >= lim) continue;
                for (int j = 0; j < p->nz[BRN_Z_MACHINE]; j++) {
                    int to = p->z[BRN_Z_MACHINE][j];
                    const brn_carddef *td = arb_brainstorm__def(s, seat, to);
                    if (to == from || td->type != BRN_T_MODULE) continue;
                    for (int in = 0; in < td->ins; in++) {
                        if (inc[to][in] >= BRN_IN_LINKS) continue;
                        a = act(seat, BRN_V_LINK, 4, from, o, to, in);
                        arb_legal_push(&e.L, &a); /* prevalidated: no validator call per link */
                    }
                }
            }
        }
        break;
    }
    case BRN_P_BOOTSTRAP: {
        int charge = p->gen == BRN_NONE ? 0 : p->c[p->gen].charge;
        for (int k = 0; k < p->nz[BRN_Z_MACHINE]; k++)
            for (int amt = 0; amt <= charge; amt++) {
                a = act(seat, BRN_V_BOOT, 2, p->z[BRN_Z_MACHINE][k], amt, 0, 0); try_add(&e, &a);
            }
        break;
    }
    case BRN_P_FOCUS:
        for (int k = 0; k < p->nz[BRN_Z_MACHINE]; k++) {
            int from = p->z[BRN_Z_MACHINE][k];
            if (!(p->c[from].flags & BRN_F_PENDING)) continue;
            for (int j = 0; j < p->nz[BRN_Z_MACHINE]; j++) {
                a = act(seat, BRN_V_FOCUS, 2, from, p->z[BRN_Z_MACHINE][j], 0, 0); try_add(&e, &a);
            }
        }
        break;
    case BRN_P_END:
        for (int i = 0; i < p->nz[BRN_Z_HAND]; i++) {
            a = act(seat, BRN_V_DISCARD, 1, p->z[BRN_Z_HAND][i], 0, 0, 0); try_add(&e, &a);
        }
        break;
    default:
        break;
    }
    return e.L.n;
}

/* ---- setup ------------------------------------------------------------- */
int arb_brainstorm__setup(const arb_game *g, void *st, const arb_setup *su, arb_events *ev, arb_error *err)
{
    (void)g;
    int rules = arb_game_rules_select(&arb_game_brainstorm, su, err);
    if (rules < 0) return rules;
    if (su->players != BRN_PLAYERS)
        return ARB_ILLEGAL(err, "BRN-PLAYERS", "Brainstorm is played between 2 players, not %d",
                             su->players);
    for (int seat = 0; seat < BRN_PLAYERS; seat++) {
        const arb_deck *d = su->decks[seat];
        if (!d) return ARB_INVALID(err, "BRN-PLAYERS", "seat %d has no deck", seat);
        arb_deck_issue is[4];
        unsigned n = arb_brainstorm__deck_check(g, d, is, 4);
        for (unsigned i = 0; i < n && i < 4; i++)
            if (!is[i].warning) {
                ARB_ILLEGAL(err, is[i].rule, "deck of P%d: %s", seat + 1, is[i].msg);
                arb_error_where(err, "decks.%d", seat);
                return ARB_EILLEGAL;
            }
    }
    brn_state *s = st;
    memset(s, 0, sizeof *s);
    s->rules = (uint8_t)rules;
    arb_rng_seed(&s->rng, su->seed);
    for (int seat = 0; seat < BRN_PLAYERS; seat++) {
        const arb_deck *d = su->decks[seat];
        brn_player *p = &s->p[seat];
        p->ncards = (uint8_t)d->ncards;
        p->gen = BRN_NONE;
        for (int uid = 0; uid < d->ncards; uid++) {
            p->c[uid].id = (uint8_t)d->cards[uid];
            if (arb_brainstorm__cards[d->cards[uid]].type == BRN_T_GENERATOR) {
                p->gen = (uint8_t)uid;
                arb_brainstorm__zone_add(p, uid, BRN_Z_MACHINE);  /* G01 */
            } else {
                arb_brainstorm__zone_add(p, uid, BRN_Z_DECK);
            }
        }
        arb_rng_shuffle(&s->rng, p->z[BRN_Z_DECK], p->nz[BRN_Z_DECK], 1);
    }
    s->lead = (uint8_t)arb_rng_below(&s->rng, BRN_PLAYERS);      /* G03 */
    s->winner = -1;
    s->cycle = 1;
    arb_events_push(ev, BRN_E_SETUP, -1, 0, s->lead, BRN_OPEN_HAND, 0);
    for (int k = 0; k < BRN_PLAYERS; k++)
        arb_brainstorm__draw(s, (s->lead + k) % BRN_PLAYERS, BRN_OPEN_HAND, ev);
    arb_events_push(ev, BRN_E_CYCLE, s->lead, 0, s->cycle, s->lead, 0);
    arb_brainstorm__enter(s, BRN_P_RESET, ev);
    return ARB_OK;
}

/* ---- small contract members ------------------------------------------- */
int arb_brainstorm__apply(const arb_game *g, void *st, const arb_action *a, arb_events *ev, arb_error *err)
{
    (void)g;
    brn_state *s = st;
    int rc = arb_brainstorm__validate(s, a, err);
    if (rc) return rc;
    arb_brainstorm__exec(s, a, ev);
    return ARB_OK;
}

arb_decision arb_brainstorm__decision(const arb_game *g, const void *st)
{
    (void)g;
    const brn_state *s = st;
    arb_decision d = { ARB_SEAT_NONE, BRN_D_OVER, -1 };
    if (s->over) return d;
    d.seat = s->actor;
    switch (s->phase) {
    case BRN_P_BOOTSTRAP: d.kind = BRN_D_BOOTSTRAP; break;
    case BRN_P_FOCUS: d.kind = BRN_D_FOCUS; break;
    case BRN_P_END: d.kind = BRN_D_DISCARD; break;
    default: d.kind = BRN_D_ACTION; break;
    }
    return d;
}

uint64_t arb_brainstorm__hash(const arb_game *g, const void *st)
{
    (void)g;
    const brn_state *s = st;
    arb_hasher h;
    arb_hasher_init(&h);
    arb_hasher_str(&h, "brainstorm");
    for (int i = 0; i < 4; i++) arb_hasher_u64(&h, s->rng.s[i]);
    arb_hasher_u16(&h, s->cycle);
    arb_hasher_u8(&h, s->lead); arb_hasher_u8(&h, s->phase); arb_hasher_u8(&h, s->actor);
    arb_hasher_u8(&h, s->passes); arb_hasher_u8(&h, s->run); arb_hasher_u8(&h, s->chosen);
    arb_hasher_u8(&h, s->over); arb_hasher_u8(&h, (uint8_t)s->winner); arb_hasher_u8(&h, s->reason);
    arb_hasher_u8(&h, s->nstack);
    for (int i = 0; i < s->nstack; i++) {
        const brn_item *it = &s->stack[i];
        arb_hasher_u8(&h, it->kind); arb_hasher_u8(&h, it->seat); arb_hasher_u8(&h, it->uid);
        arb_hasher_u8(&h, it->tseat); arb_hasher_u8(&h, it->tuid);
    }
    for (int seat = 0; seat < BRN_PLAYERS; seat++) {
        const brn_player *p = &s->p[seat];
        arb_hasher_u8(&h, p->ncards); arb_hasher_u8(&h, p->gen);
        arb_hasher_u8(&h, p->boot_count);
        for (int i = 0; i < p->ncards; i++) {
            const brn_cardst *c = &p->c[i];
            arb_hasher_u8(&h, c->id); arb_hasher_u8(&h, c->zone); arb_hasher_u8(&h, c->flags);
            arb_hasher_u8(&h, c->charge); arb_hasher_u8(&h, c->used);
        }
        for (int z = 0; z < BRN_NZONES; z++) {
            arb_hasher_u8(&h, p->nz[z]);
            arb_hasher_bytes(&h, p->z[z], p->nz[z]);
        }
        arb_hasher_u8(&h, p->nlinks);
        for (int i = 0; i < p->nlinks; i++) {
            const brn_link *l = &p->links[i];
            arb_hasher_u8(&h, l->from); arb_hasher_u8(&h, l->out);
            arb_hasher_u8(&h, l->to); arb_hasher_u8(&h, l->in);
        }
    }
    /* From brainstorm-draft0-2 on the version is part of the state
     * (draft0-1 hashes as it always did, so its replays keep verifying). */
    if (s->rules >= 2) arb_hasher_u8(&h, s->rules);
    return arb_hasher_final(&h);
}

int arb_brainstorm__outcome(const arb_game *g, const void *st, arb_outcome *out)
{
    (void)g;
    const brn_state *s = st;
    out->over = s->over;
    out->winner = s->over ? s->winner : -1;
    out->reason = s->reason;
    out->turns = s->cycle;
    return out->over;
}

uint32_t arb_brainstorm__turn(const arb_game *g, const void *st) { (void)g; return ((const brn_state *)st)->cycle; }

const char *arb_brainstorm__phase(const arb_game *g, const void *st)
{
    (void)g;
    const brn_state *s = st;
    return arb_brainstorm__phase_names[s->phase < BRN_P_COUNT ? s->phase : BRN_P_OVER];
}

size_t arb_brainstorm__legal_vt(const arb_game *g, const void *st, arb_action *out, size_t cap)
{
    (void)g;
    return arb_brainstorm__legal(st, out, cap);
}
