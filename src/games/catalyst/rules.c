/* rules.c — the CATALYST rules: setup, the decision owed, legal-action
 * enumeration, validation and application. One validator decides every
 * action; legal() enumerates candidates and keeps those the validator
 * accepts, so "legal ⇔ accepted" holds by construction. apply() validates
 * completely before it mutates anything, so a rejection leaves the state
 * byte-for-byte untouched. After each action the engine runs the automatic
 * steps (start-of-turn effects, draws, Cleanup, the victory check …) until
 * some seat owes a decision again. Rule IDs are the catalog's (CAT-…);
 * interpretations are cited by gap number (G05 …). */
#include <assert.h>
#include <string.h>

#include "games/catalyst/catalyst.h"


/* ---------------------------------------------------------------- helpers */

static void ev_push(arb_events *ev, int type, int seat, int hidden, int a, int b, int c)
{
    arb_events_push(ev, (uint16_t)type, seat, hidden, a, b, c);
}

static void remove_from(uint8_t *arr, uint8_t *n, uint8_t uid)
{
    assert(*n <= CAT_MAX_CARDS);
    for (unsigned i = 0; i < *n; i++)
        if (arr[i] == uid) {
            memmove(arr + i, arr + i + 1, (size_t)(*n - i - 1));
            (*n)--;
            return;
        }
}

/* Take uid out of whatever zone holds it. */
static void unzone(cat_player *pl, uint8_t uid)
{
    cat_card *c = &pl->c[uid];
    switch (c->zone) {
    case CAT_Z_VAULT: remove_from(pl->vault, &pl->nvault, uid); break;
    case CAT_Z_HAND: remove_from(pl->hand, &pl->nhand, uid); break;
    case CAT_Z_ARCHIVE: remove_from(pl->archive, &pl->narchive, uid); break;
    case CAT_Z_FIELD: if (c->pos < CAT_POSITIONS) pl->field[c->pos] = CAT_NOCARD; break;
    default: break;
    }
    c->zone = CAT_Z_NONE;
    c->pos = 0;
    c->flags = 0;
    c->damage = 0;
    c->shield = 0;
    c->bonus = 0;
}

static void to_archive(cat_player *pl, uint8_t uid)
{
    unzone(pl, uid);
    pl->archive[pl->narchive++] = uid;
    pl->c[uid].zone = CAT_Z_ARCHIVE;
}

static void to_hand(cat_player *pl, uint8_t uid)
{
    unzone(pl, uid);
    pl->hand[pl->nhand++] = uid;
    pl->c[uid].zone = CAT_Z_HAND;
}

static void to_vault(cat_player *pl, uint8_t uid)
{
    unzone(pl, uid);
    pl->vault[pl->nvault++] = uid;
    pl->c[uid].zone = CAT_Z_VAULT;
}

static void to_field(cat_player *pl, uint8_t uid, unsigned pos, uint8_t flags)
{
    unzone(pl, uid);
    pl->field[pos] = uid;
    pl->c[uid].zone = CAT_Z_FIELD;
    pl->c[uid].pos = (uint8_t)pos;
    pl->c[uid].flags = flags;
}

static void shuffle_vault(cat_state *s, unsigned seat, arb_events *ev)
{
    cat_player *pl = &s->p[seat];
    arb_rng_shuffle(&s->rng, pl->vault, pl->nvault, 1);
    ev_push(ev, CAT_E_SHUFFLE, (int)seat, 0, pl->nvault, 0, 0);
}

/* Draw the top card; an empty Vault marks the player for loss (G18). */
static void draw(cat_state *s, unsigned seat, int why, arb_events *ev)
{
    cat_player *pl = &s->p[seat];
    if (pl->nvault == 0) {
        pl->drew_empty = 1;
        ev_push(ev, CAT_E_DRAW_EMPTY, (int)seat, 0, why, 0, 0);
        return;
    }
    uint8_t uid = pl->vault[pl->nvault - 1];
    to_hand(pl, uid);
    ev_push(ev, CAT_E_DRAW, (int)seat, 1, uid, pl->c[uid].def, why);
}

static int on_field(const cat_player *pl, int uid)
{
    return uid >= 0 && uid < pl->ncards && pl->c[uid].zone == CAT_Z_FIELD;
}

static int in_hand(const cat_player *pl, int uid)
{
    return uid >= 0 && uid < pl->ncards && pl->c[uid].zone == CAT_Z_HAND;
}

static int map_of(const cat_player *pl, unsigned uid)
{
    /* A face-down card has no printed Battle Map: it may stand anywhere
     * (I-FACEDOWN-MAP, extends G11), which also keeps its identity hidden. */
    return (pl->c[uid].flags & CAT_F_FACEDOWN) ? CAT_MAP_ALL : cat_defof(pl, uid)->map;
}

static int catalyst_in_play(const cat_player *pl)
{
    for (unsigned p = 0; p < CAT_POSITIONS; p++)
        if (pl->field[p] != CAT_NOCARD && cat_defof(pl, pl->field[p])->kind == CAT_KIND_CATALYST)
            return 1;
    return 0;
}

static int reinforced_count(const cat_player *pl)
{
    int n = 0;
    for (unsigned p = 0; p < CAT_POSITIONS; p++)
        if (pl->field[p] != CAT_NOCARD && (pl->c[pl->field[p]].flags & CAT_F_REINFORCED)) n++;
    return n;
}

static void gain(cat_state *s, unsigned seat, int amount, int def, int why, arb_events *ev)
{
    s->p[seat].shards += amount;
    ev_push(ev, CAT_E_GAIN, (int)seat, 0, amount, def, why);
}

static void set_decision(cat_state *s, int kind, unsigned seat)
{
    s->dkind = (uint8_t)kind;
    s->dseat = (uint8_t)seat;
}

/* ------------------------------------------------------------ turn flow */

static void begin_turn(cat_state *s, unsigned seat, arb_events *ev);

static void begin_action(cat_state *s, arb_events *ev)
{
    s->phase = CAT_PH_ACTION;
    s->actions = CAT_ACTIONS; /* CAT-ACT-THREE, CAT-ACT-NOCARRY */
    ev_push(ev, CAT_E_PHASE, s->active, 0, CAT_PH_ACTION, 0, 0);
    ev_push(ev, CAT_E_ACTIONS, s->active, 0, CAT_ACTIONS, 0, 0);
    set_decision(s, CAT_D_ACTION, s->active);
}

/* Upkeep (G17): owed card by card while some due card is affordable;
 * when none is, every remaining due card is Archived (CAT-START-UPKEEP-CANNOT). */
static void continue_upkeep(cat_state *s, arb_events *ev)
{
    cat_player *pl = &s->p[s->active];
    for (unsigned p = 0; p < CAT_POSITIONS; p++) {
        uint8_t u = pl->field[p];
        if (u != CAT_NOCARD && (pl->c[u].flags & CAT_F_UPKEEP_DUE) && pl->shards >= cat_defof(pl, u)->upkeep) {
            set_decision(s, CAT_D_UPKEEP, s->active);
            return;
        }
    }
    for (unsigned p = 0; p < CAT_POSITIONS; p++) {
        uint8_t u = pl->field[p];
        if (u != CAT_NOCARD && (pl->c[u].flags & CAT_F_UPKEEP_DUE)) {
            int def = pl->c[u].def;
            to_archive(pl, u);
            ev_push(ev, CAT_E_UPKEEP_ARCHIVED, s->active, 0, u, def, 1);
        }
    }
    /* Draw (CAT-START-DRAW); the starting player skips it on turn 1 (G25). */
    if (s->turn == 1 && s->active == s->first) ev_push(ev, CAT_E_SKIP_DRAW, s->active, 0, 0, 0, 0);
    else draw(s, s->active, 1, ev);
    begin_action(s, ev);
}

/* Start-of-turn effects (CAT-START-EFFECTS, only "your" turn, position
 * order: every effect of the pool is a Shard gain, so the order G26 lets
 * the player choose cannot change the result and is not asked), then the
 * Upkeep step. */
static void after_deactivate(cat_state *s, arb_events *ev)
{
    cat_player *pl = &s->p[s->active];
    for (unsigned p = 0; p < CAT_POSITIONS; p++) {
        uint8_t u = pl->field[p];
        if (u == CAT_NOCARD || (pl->c[u].flags & CAT_F_FACEDOWN)) continue;
        const cat_def *d = cat_defof(pl, u);
        if (d->start_gain) gain(s, s->active, d->start_gain, pl->c[u].def, 0, ev);
    }
    /* Face-down cards have no printed Upkeep (I-FACEDOWN-UPKEEP, G11). */
    for (unsigned p = 0; p < CAT_POSITIONS; p++) {
        uint8_t u = pl->field[p];
        if (u == CAT_NOCARD || (pl->c[u].flags & CAT_F_FACEDOWN)) continue;
        if (cat_defof(pl, u)->upkeep) pl->c[u].flags |= CAT_F_UPKEEP_DUE;
    }
    continue_upkeep(s, ev);
}

static int any_activated(const cat_player *pl)
{
    for (unsigned p = 0; p < CAT_POSITIONS; p++)
        if (pl->field[p] != CAT_NOCARD && (pl->c[pl->field[p]].flags & CAT_F_ACTIVATED)) return 1;
    return 0;
}

static void begin_turn(cat_state *s, unsigned seat, arb_events *ev)
{
    s->active = (uint8_t)seat;
    s->phase = CAT_PH_START;
    s->actions = 0;
    ev_push(ev, CAT_E_TURN, (int)seat, 0, (int)s->turn, 0, 0);
    ev_push(ev, CAT_E_PHASE, (int)seat, 0, CAT_PH_START, 0, 0);
    /* The Deactivate decision is owed only while one of your cards is
     * Activated (G16): with none there is nothing to choose. */
    if (any_activated(&s->p[seat])) set_decision(s, CAT_D_DEACTIVATE, seat);
    else after_deactivate(s, ev);
}

static unsigned alive_count(const cat_state *s)
{
    unsigned n = 0;
    for (unsigned i = 0; i < s->nplayers; i++) n += s->p[i].alive;
    return n;
}

static void game_over(cat_state *s, int winner, int reason, arb_events *ev)
{
    s->over = 1;
    s->winner = (int8_t)winner;
    s->reason = (uint8_t)reason;
    s->phase = CAT_PH_OVER;
    set_decision(s, CAT_D_NONE, 0);
    ev_push(ev, CAT_E_WIN, winner, 0, reason, (int32_t)s->turn, 0);
}

/* Check for victory (G02), then pass the turn clockwise (CAT-END-PASS). */
static void finish_turn(cat_state *s, arb_events *ev)
{
    for (unsigned i = 0; i < s->nplayers; i++) {
        cat_player *pl = &s->p[i];
        if (!pl->alive) continue;
        int gone = !catalyst_in_play(pl);
        if (gone || pl->drew_empty) {
            pl->alive = 0;
            ev_push(ev, CAT_E_LOSE, (int)i, 0, gone ? 0 : 1, 0, 0);
            for (unsigned p = 0; p < CAT_POSITIONS; p++) /* a losing player's cards leave play */
                if (pl->field[p] != CAT_NOCARD) to_archive(pl, pl->field[p]);
        }
        pl->drew_empty = 0;
    }
    unsigned alive = alive_count(s);
    if (alive == 0) { game_over(s, -1, CAT_R_ALL_LOST, ev); return; }
    if (alive == 1) {
        for (unsigned i = 0; i < s->nplayers; i++)
            if (s->p[i].alive) game_over(s, (int)i, CAT_R_LAST, ev);
        return;
    }
    if (s->turn >= CAT_TURN_CAP) { game_over(s, -1, CAT_R_TURN_CAP, ev); return; }
    unsigned next = s->active;
    do next = (next + 1) % s->nplayers; while (!s->p[next].alive);
    s->turn++;
    begin_turn(s, next, ev);
}

static void after_hand_adjust(cat_state *s, arb_events *ev)
{
    if (s->p[s->active].nhand > CAT_HAND_MAX) set_decision(s, CAT_D_ARCHIVE, s->active);
    else finish_turn(s, ev);
}

/* End Phase (CAT-END-ORDER): end-of-turn effects, Cleanup, adjust hand,
 * victory, pass. */
static void end_phase(cat_state *s, arb_events *ev)
{
    s->phase = CAT_PH_END;
    ev_push(ev, CAT_E_PHASE, s->active, 0, CAT_PH_END, 0, 0);
    /* "at the end of turn" triggers every turn, "your turn" only the
     * active player's (G15); active player first, then clockwise (G26). */
    for (unsigned k = 0; k < s->nplayers; k++) {
        unsigned seat = (s->active + k) % s->nplayers;
        cat_player *pl = &s->p[seat];
        if (!pl->alive) continue;
        for (unsigned p = 0; p < CAT_POSITIONS; p++) {
            uint8_t u = pl->field[p];
            if (u == CAT_NOCARD || (pl->c[u].flags & CAT_F_FACEDOWN)) continue;
            const cat_def *d = cat_defof(pl, u);
            int amount = d->end_gain_any + (seat == s->active ? d->end_gain_own : 0);
            if (amount) gain(s, seat, amount, pl->c[u].def, 1, ev);
        }
    }
    /* Cleanup (CAT-END-CLEANUP-*): all damage, every "this turn" effect,
     * Unstable — on every player's cards. */
    for (unsigned i = 0; i < s->nplayers; i++) {
        cat_player *pl = &s->p[i];
        for (unsigned p = 0; p < CAT_POSITIONS; p++) {
            uint8_t u = pl->field[p];
            if (u == CAT_NOCARD) continue;
            cat_card *c = &pl->c[u];
            c->damage = 0;
            c->shield = 0;
            c->bonus = 0;
            c->flags &= (uint8_t)~(CAT_F_UNSTABLE | CAT_F_REINFORCED);
        }
    }
    ev_push(ev, CAT_E_CLEANUP, s->active, 0, 0, 0, 0);
    /* Adjust hand, reading A of G14: fewer than 2 → draw up to 2. */
    cat_player *pl = &s->p[s->active];
    while (pl->nhand < CAT_HAND_MIN && !pl->drew_empty) draw(s, s->active, 3, ev);
    after_hand_adjust(s, ev);
}

/* After a mulligan decision completes: next seat clockwise, or the first turn. */
static void next_mulligan_seat(cat_state *s, arb_events *ev)
{
    unsigned next = (s->dseat + 1u) % s->nplayers;
    if (next == s->first) {
        begin_turn(s, s->first, ev);
        return;
    }
    set_decision(s, CAT_D_MULLIGAN, next);
}

/* ---------------------------------------------------------------- setup */

int arb_catalyst__setup(const arb_game *g, void *st, const arb_setup *su, arb_events *ev, arb_error *err)
{
    (void)g;
    int rules = arb_game_rules_select(&arb_game_catalyst, su, err); /* one version so far: index 0 */
    if (rules < 0) return rules;
    if (su->players < 2 || su->players > ARB_MAX_SEATS)
        return ARB_ILLEGAL(err, "CAT-TURN-CLOCKWISE", "CATALYST is played by 2 to 4 players (G21), not %d", su->players);
    int free_decks = arb_options_get(&su->options, "free_decks", 0) != 0;
    for (int i = 0; i < su->players; i++) {
        const arb_deck *d = su->decks[i];
        if (!d) return ARB_INVALID(err, NULL, "seat %d has no deck", i);
        arb_deck_issue iss[8];
        const unsigned cap = (unsigned)(sizeof iss / sizeof iss[0]);
        memset(iss, 0, sizeof iss); /* defined contents past the n issues found */
        unsigned n = arb_catalyst__deck_check(g, d, iss, cap);
        if (n > cap) n = cap; /* the count goes on past the buffer */
        for (unsigned k = 0; k < n; k++) {
            if (iss[k].warning) continue;
            if (free_decks && strcmp(iss[k].rule, "CAT-DECK-CATALYST") != 0 &&
                strcmp(iss[k].rule, "CAT-DECK-POOL") != 0)
                continue;
            return ARB_ILLEGAL(err, iss[k].rule, "seat %d's deck: %s", i, iss[k].msg);
        }
        if (d->ncards > CAT_MAX_CARDS || d->ncards < 1)
            return ARB_ILLEGAL(err, "CAT-DECK-SIZE", "seat %d's deck has %u cards, at most %d", i, d->ncards, CAT_MAX_CARDS);
    }
    cat_state *s = st;
    memset(s, 0, sizeof *s);
    arb_rng_seed(&s->rng, su->seed);
    s->nplayers = (uint8_t)su->players;
    s->turn = 1;
    s->winner = -1;
    /* CAT-SETUP-FIRST: the coin flip is the seeded PRNG. */
    s->first = (uint8_t)arb_rng_below(&s->rng, (uint32_t)su->players);
    s->active = s->first;
    s->phase = CAT_PH_MULLIGAN;
    ev_push(ev, CAT_E_FIRST, s->first, 0, 0, 0, 0);
    for (int i = 0; i < su->players; i++) {
        const arb_deck *d = su->decks[i];
        cat_player *pl = &s->p[i];
        pl->alive = 1;
        pl->ncards = (uint8_t)d->ncards;
        memset(pl->field, CAT_NOCARD, sizeof pl->field);
        for (unsigned u = 0; u < d->ncards; u++) {
            pl->c[u].def = (uint8_t)d->cards[u];
            if (arb_catalyst__defs[d->cards[u]].kind == CAT_KIND_CATALYST) {
                /* CAT-SETUP-CATALYST (G04): B2 when its map allows, else its first position. */
                unsigned map = arb_catalyst__defs[d->cards[u]].map, pos = 4;
                if (!(map & (1u << pos)))
                    for (pos = 0; pos < CAT_POSITIONS && !(map & (1u << pos)); pos++) {}
                if (pos >= CAT_POSITIONS) pos = 4;
                pl->field[pos] = (uint8_t)u;
                pl->c[u].zone = CAT_Z_FIELD;
                pl->c[u].pos = (uint8_t)pos;
                ev_push(ev, CAT_E_CATALYST, i, 0, (int)u, d->cards[u], (int)pos);
            } else {
                pl->vault[pl->nvault++] = (uint8_t)u;
                pl->c[u].zone = CAT_Z_VAULT;
            }
        }
        shuffle_vault(s, (unsigned)i, ev);
        for (int k = 0; k < CAT_START_HAND; k++) draw(s, (unsigned)i, 0, ev);
    }
    set_decision(s, CAT_D_MULLIGAN, s->first);
    return ARB_OK;
}

arb_decision arb_catalyst__decision(const arb_game *g, const void *st)
{
    (void)g;
    const cat_state *s = st;
    arb_decision d;
    d.seat = s->over ? ARB_SEAT_NONE : s->dseat;
    d.kind = s->dkind;
    d.clock_left_ms = -1;
    return d;
}

/* ------------------------------------------------------------ validation */

/* Which decision kinds accept each verb, and the rule broken otherwise. */
static const struct {
    uint8_t kinds;
    const char *when;
} verb_when[CAT_V_COUNT] = {
    [CAT_V_KEEP] = { 1u << CAT_D_MULLIGAN, "CAT-MULL-KEEP" },
    [CAT_V_MULLIGAN] = { 1u << CAT_D_MULLIGAN, "CAT-MULL-OPTION" },
    [CAT_V_KEEP_CARD] = { 1u << CAT_D_MULL_KEEP, "CAT-MULL-SECOND" },
    [CAT_V_DEACTIVATE] = { 1u << CAT_D_DEACTIVATE, "CAT-START-DEACT-WHEN" },
    [CAT_V_DONE] = { 1u << CAT_D_DEACTIVATE, "CAT-START-DEACT-WHEN" },
    [CAT_V_PAY] = { 1u << CAT_D_UPKEEP, "CAT-START-UPKEEP-PAY" },
    [CAT_V_DECLINE] = { 1u << CAT_D_UPKEEP, "CAT-START-UPKEEP-WILLNOT" },
    [CAT_V_DEPLOY] = { 1u << CAT_D_ACTION, "CAT-DEPLOY-FACEUP" },
    [CAT_V_DEPLOY_FD] = { 1u << CAT_D_ACTION, "CAT-DEPLOY-FACEDOWN" },
    [CAT_V_ABILITY] = { 1u << CAT_D_ACTION, "CAT-ABILITY-ACTION" },
    [CAT_V_STRIKE] = { 1u << CAT_D_ACTION, "CAT-STRIKE" },
    [CAT_V_MOVE] = { 1u << CAT_D_ACTION, "CAT-REPOSITION-MOVE" },
    [CAT_V_SWAP] = { 1u << CAT_D_ACTION, "CAT-REPOSITION-SWAP" },
    [CAT_V_RETREAT] = { 1u << CAT_D_ACTION, "CAT-RETREAT" },
    [CAT_V_DRAW] = { 1u << CAT_D_ACTION, "CAT-DRAW-ACTION" },
    [CAT_V_ENGAGE] = { 1u << CAT_D_ACTION, "CAT-FREE-ENGAGE" },
    [CAT_V_REINFORCE] = { (1u << CAT_D_ACTION) | (1u << CAT_D_REACTION), "CAT-FREE-REINFORCE" },
    [CAT_V_IMPULSE] = { (1u << CAT_D_ACTION) | (1u << CAT_D_REACTION), "CAT-FREE-IMPULSE" },
    [CAT_V_END] = { 1u << CAT_D_ACTION, "CAT-TURN-ALLPHASES" },
    [CAT_V_PASS] = { 1u << CAT_D_REACTION, "CAT-FREE-IMPULSE-REACTION" },
    [CAT_V_ARCHIVE] = { 1u << CAT_D_ARCHIVE, "CAT-END-HAND-MAX" },
    [CAT_V_TIMEOUT] = { 0, "CAT-NOCLOCK" },
    [CAT_V_DISCONNECT] = { 0, "CAT-NOCLOCK" },
    [CAT_V_RECONNECT] = { 0, "CAT-NOCLOCK" },
};

static const char *mull_rule(const cat_player *pl)
{
    return pl->mulligans >= 3 ? "CAT-MULL-THIRD" : "CAT-MULL-SECOND";
}

static int need_actions(const cat_state *s, unsigned n, const char *rule, arb_error *err)
{
    if (s->actions == 0) return ARB_ILLEGAL(err, "CAT-ACT-LIMIT", "no Actions left this turn");
    if (s->actions < n) return ARB_ILLEGAL(err, rule, "this costs %u Actions, %u left", n, s->actions);
    return ARB_OK;
}

static int check_uid(const cat_player *pl, int uid, const char *rule, arb_error *err)
{
    if (uid < 0 || uid >= pl->ncards) return ARB_INVALID(err, rule, "no card with UID %d (0..%d)", uid, pl->ncards - 1);
    return ARB_OK;
}

static int check_pos(int pos, const char *rule, arb_error *err)
{
    if (pos < 0 || pos >= CAT_POSITIONS) return ARB_INVALID(err, rule, "position %d is not 0..5 (F1 F2 F3 B1 B2 B3)", pos);
    return ARB_OK;
}

static int validate_verb(const cat_state *s, const arb_action *a, arb_error *err);

/* The precheck's rule IDs (toolkit.h: the refusal precedence); a wrong
 * argument count names the rule of the verb's decision. */
static const arb_precheck_rules prechecks = {
    .over = "CAT-END-VICTORY", .clock = 0, .arbiter_verbs = CAT_V_TIMEOUT, .no_clock = "CAT-NOCLOCK",
    .seat = "CAT-TURN-ACTIVE",
};

int arb_catalyst__validate(const cat_state *s, const arb_action *a, arb_error *err)
{
    arb_precheck_rules r = prechecks;
    r.nargs_any = a->verb < CAT_V_COUNT ? verb_when[a->verb].when : NULL;
    const char *wrong_seat = s->dkind == CAT_D_MULLIGAN || s->dkind == CAT_D_MULL_KEEP ? "CAT-MULL-OPTION"
                             : s->dkind == CAT_D_REACTION                            ? "CAT-FREE-IMPULSE-REACTION"
                                                                                     : "CAT-TURN-ACTIVE";
    int rc = arb_action_precheck(&arb_game_catalyst, &r, s->over, s->nplayers, s->dseat, wrong_seat, a, err);
    if (rc) return rc;
    const arb_verb *vb = &arb_catalyst__verbs[a->verb];
    const cat_player *pl = &s->p[a->seat];
    if (!(verb_when[a->verb].kinds & (1u << s->dkind))) {
        const char *rule = verb_when[a->verb].when;
        if (s->dkind == CAT_D_REACTION) rule = "CAT-FREE-IMPULSE-REACTION";
        else if (a->verb == CAT_V_KEEP_CARD) rule = pl->mulligans >= 2 ? mull_rule(pl) : "CAT-MULL-OPTION";
        else if (s->dkind == CAT_D_MULL_KEEP && (a->verb == CAT_V_KEEP || a->verb == CAT_V_MULLIGAN))
            rule = mull_rule(pl);
        else if (s->dkind != CAT_D_ACTION && a->verb >= CAT_V_DEPLOY && a->verb < CAT_V_END &&
                 a->verb != CAT_V_ENGAGE && a->verb != CAT_V_REINFORCE && a->verb != CAT_V_IMPULSE)
            rule = s->phase == CAT_PH_ACTION ? rule : "CAT-TURN-PHASES";
        return ARB_ILLEGAL(err, rule, "'%s' is not possible now: %s is owed", vb->name,
                       arb_catalyst__decision_names[s->dkind]);
    }
    return validate_verb(s, a, err);
}

/* The verb-specific half of validation, for an action already known to
 * come from the owing seat, with a verb its decision accepts and a right
 * argument count (legal() builds only such candidates; apply() checks them
 * first in arb_catalyst__validate). */
static int validate_verb(const cat_state *s, const arb_action *a, arb_error *err)
{
    const cat_player *pl = &s->p[a->seat];
    /* Each verb reads only the arguments it takes (the count is checked
     * before, and an Impulse reads its target only when it has one). */
    int x = a->args[0], y = a->args[1], z = a->args[2];
    const char *rule = verb_when[a->verb].when;
    int rc;
    switch (a->verb) {
    case CAT_V_KEEP:
        return ARB_OK;
    case CAT_V_MULLIGAN:
        if (pl->mulligans >= CAT_MULL_MAX) return ARB_ILLEGAL(err, "CAT-MULL-MAX", "at most %d mulligans", CAT_MULL_MAX);
        return ARB_OK;
    case CAT_V_KEEP_CARD:
        if ((rc = check_uid(pl, x, mull_rule(pl), err))) return rc;
        if (!in_hand(pl, x) || (pl->c[x].flags & CAT_F_KEPT))
            return ARB_ILLEGAL(err, mull_rule(pl), "card %d is not one of the new cards still to choose", x);
        return ARB_OK;
    case CAT_V_DEACTIVATE:
        if ((rc = check_uid(pl, x, "CAT-START-DEACT-OWN", err))) return rc;
        if (!on_field(pl, x)) return ARB_ILLEGAL(err, "CAT-START-DEACT-OWN", "card %d is not one of your cards in play", x);
        if (!(pl->c[x].flags & CAT_F_ACTIVATED))
            return ARB_ILLEGAL(err, "CAT-START-DEACT-ONCE", "card %d is already Deactivated (G16)", x);
        return ARB_OK;
    case CAT_V_DONE:
        return ARB_OK;
    case CAT_V_PAY:
    case CAT_V_DECLINE:
        if ((rc = check_uid(pl, x, rule, err))) return rc;
        if (!on_field(pl, x) || !(pl->c[x].flags & CAT_F_UPKEEP_DUE))
            return ARB_ILLEGAL(err, rule, "card %d has no Upkeep due now", x);
        if (a->verb == CAT_V_PAY && pl->shards < cat_defof(pl, (unsigned)x)->upkeep)
            return ARB_ILLEGAL(err, "CAT-START-UPKEEP-CANNOT", "Upkeep %u, only %d Shards (G17)",
                           cat_defof(pl, (unsigned)x)->upkeep, pl->shards);
        return ARB_OK;
    case CAT_V_DEPLOY:
    case CAT_V_DEPLOY_FD: {
        int fd = a->verb == CAT_V_DEPLOY_FD;
        if ((rc = check_uid(pl, x, rule, err)) || (rc = check_pos(y, rule, err))) return rc;
        if (!in_hand(pl, x)) return ARB_ILLEGAL(err, rule, "card %d is not in your hand", x);
        const cat_def *d = cat_defof(pl, (unsigned)x);
        if (d->kind == CAT_KIND_IMPULSE)
            return ARB_ILLEGAL(err, fd ? "CAT-DEPLOY-FACEDOWN" : "CAT-FREE-IMPULSE",
                           "an Impulse card is played with 'impulse', not Deployed (I-IMPULSE-PLAY)");
        if (d->kind == CAT_KIND_CATALYST) return ARB_ILLEGAL(err, "CAT-SETUP-CATALYST", "a Catalyst is never Deployed (G04)");
        if (pl->field[y] != CAT_NOCARD)
            return ARB_ILLEGAL(err, fd ? "CAT-DEPLOY-FACEDOWN" : "CAT-ZONE-BATTLEFIELD", "%s is occupied (G05)",
                           arb_catalyst__pos_names[y]);
        if (!fd && !(d->map & (1u << y)))
            return ARB_ILLEGAL(err, "CAT-ZONE-BATTLEFIELD", "%s is not on %s's Battle Map (G05)", arb_catalyst__pos_names[y],
                           d->card.name);
        if ((rc = need_actions(s, fd ? 1 : d->acost, "CAT-DEPLOY-ACTIONCOST", err))) return rc;
        unsigned cost = fd ? 1 : d->cost;
        if (pl->shards < (int32_t)cost)
            return ARB_ILLEGAL(err, fd ? "CAT-DEPLOY-FACEDOWN" : "CAT-DEPLOY-SHARDS", "costs %u Shards, you have %d", cost,
                           pl->shards);
        return ARB_OK;
    }
    case CAT_V_ABILITY: {
        if ((rc = check_uid(pl, x, rule, err))) return rc;
        if (y != 0 && y != 1) return ARB_INVALID(err, rule, "ability %d: 0 is the [A] ability, 1 the free one", y);
        const char *r = y == 0 ? "CAT-ABILITY-ACTION" : "CAT-FREE-ABILITY";
        if (!on_field(pl, x) || (pl->c[x].flags & CAT_F_FACEDOWN))
            return ARB_ILLEGAL(err, r, "card %d is not one of your face-up cards in play", x);
        const cat_def *d = cat_defof(pl, (unsigned)x);
        if (!(d->abilities & (y == 0 ? CAT_AB_ACTION_GAIN : CAT_AB_PAY_POWER)))
            return ARB_ILLEGAL(err, r, "%s has no such ability", d->card.name);
        if (y == 0) {
            if (s->actions == 0) return ARB_ILLEGAL(err, "CAT-ABILITY-ACTION", "no Actions left for an [A] ability (G08)");
        } else if (pl->shards < 1) {
            return ARB_ILLEGAL(err, "CAT-FREE-ABILITY", "the ability costs 1 Shard, you have %d", pl->shards);
        }
        return ARB_OK;
    }
    case CAT_V_STRIKE: {
        if ((rc = check_uid(pl, x, "CAT-STRIKE-BATTLEFIELD", err))) return rc;
        if (!on_field(pl, x)) return ARB_ILLEGAL(err, "CAT-STRIKE-BATTLEFIELD", "card %d is not on your Battlefield", x);
        const cat_card *c = &pl->c[x];
        if (c->flags & CAT_F_FACEDOWN) return ARB_ILLEGAL(err, "CAT-STRIKE", "a face-down card cannot Strike (G11)");
        if (c->flags & CAT_F_UNSTABLE)
            return ARB_ILLEGAL(err, "CAT-DEPLOY-NOACTIVATE", "an Unstable card cannot Activate until the end of the turn");
        if (c->flags & CAT_F_ACTIVATED)
            return ARB_ILLEGAL(err, "CAT-STRIKE-ACTIVATED", "card %d is already Activated (G07)", x);
        if (arb_catalyst__power(pl, (unsigned)x) < 1)
            return ARB_ILLEGAL(err, "CAT-STRIKE", "a card without Power cannot Strike (G04, G07)");
        if (y < 0 || y >= s->nplayers) return ARB_INVALID(err, "CAT-STRIKE", "seat %d is not in this match", y);
        if (y == a->seat) return ARB_ILLEGAL(err, "CAT-STRIKE", "a Strike targets an opponent's card (G21)");
        if (!s->p[y].alive) return ARB_ILLEGAL(err, "CAT-STRIKE", "seat %d has left the game", y);
        if ((rc = check_pos(z, "CAT-STRIKE", err))) return rc;
        if (s->p[y].field[z] == CAT_NOCARD)
            return ARB_ILLEGAL(err, "CAT-STRIKE", "seat %d has no card at %s", y, arb_catalyst__pos_names[z]);
        int dist = arb_catalyst__distance((unsigned)c->pos, (unsigned)z);
        if (dist > cat_defof(pl, (unsigned)x)->range)
            return ARB_ILLEGAL(err, "CAT-STRIKE-RANGE", "distance %d is beyond Range %u (G06)", dist,
                           cat_defof(pl, (unsigned)x)->range);
        return need_actions(s, 1, "CAT-ACT-LIMIT", err);
    }
    case CAT_V_MOVE:
        if ((rc = check_uid(pl, x, rule, err)) || (rc = check_pos(y, rule, err))) return rc;
        if (!on_field(pl, x)) return ARB_ILLEGAL(err, rule, "card %d is not on your Battlefield", x);
        if (pl->field[y] != CAT_NOCARD)
            return ARB_ILLEGAL(err, rule, "%s is occupied: use 'swap' (G05)", arb_catalyst__pos_names[y]);
        if (!(map_of(pl, (unsigned)x) & (1u << y)))
            return ARB_ILLEGAL(err, rule, "%s is not on the card's Battle Map (G05)", arb_catalyst__pos_names[y]);
        return need_actions(s, 1, "CAT-ACT-LIMIT", err);
    case CAT_V_SWAP:
        if ((rc = check_uid(pl, x, rule, err)) || (rc = check_uid(pl, y, rule, err))) return rc;
        if (!on_field(pl, x) || !on_field(pl, y) || x == y)
            return ARB_ILLEGAL(err, rule, "a swap needs two different cards on your Battlefield");
        if (!(map_of(pl, (unsigned)x) & (1u << pl->c[y].pos)) || !(map_of(pl, (unsigned)y) & (1u << pl->c[x].pos)))
            return ARB_ILLEGAL(err, rule, "both Battle Maps must allow the swap (G05)");
        return need_actions(s, 1, "CAT-ACT-LIMIT", err);
    case CAT_V_RETREAT:
        if ((rc = check_uid(pl, x, rule, err))) return rc;
        if (!on_field(pl, x)) return ARB_ILLEGAL(err, rule, "card %d is not one of your cards in play", x);
        if (cat_defof(pl, (unsigned)x)->kind == CAT_KIND_CATALYST)
            return ARB_ILLEGAL(err, rule, "the Catalyst cannot Retreat (G04)");
        return need_actions(s, 1, "CAT-ACT-LIMIT", err);
    case CAT_V_DRAW:
        return need_actions(s, 1, "CAT-ACT-LIMIT", err);
    case CAT_V_ENGAGE: {
        if ((rc = check_uid(pl, x, rule, err))) return rc;
        if (!on_field(pl, x) || !(pl->c[x].flags & CAT_F_FACEDOWN))
            return ARB_ILLEGAL(err, rule, "card %d is not one of your face-down cards", x);
        const cat_def *d = cat_defof(pl, (unsigned)x);
        int cost = d->cost > 0 ? d->cost - 1 : 0; /* G12 */
        if (pl->shards < cost) return ARB_ILLEGAL(err, rule, "Engage costs %d Shards, you have %d", cost, pl->shards);
        return ARB_OK;
    }
    case CAT_V_REINFORCE:
        if ((rc = check_uid(pl, x, rule, err))) return rc;
        if (!on_field(pl, x) || !(pl->c[x].flags & CAT_F_FACEDOWN))
            return ARB_ILLEGAL(err, rule, "only your face-down cards can Reinforce");
        if (pl->c[x].flags & CAT_F_UNSTABLE)
            return ARB_ILLEGAL(err, "CAT-DEPLOY-NOACTIVATE", "an Unstable card cannot Activate until the end of the turn");
        if (pl->c[x].flags & CAT_F_ACTIVATED) return ARB_ILLEGAL(err, rule, "card %d is already Activated (G09)", x);
        return ARB_OK;
    case CAT_V_IMPULSE: {
        const char *r = s->dkind == CAT_D_REACTION ? "CAT-FREE-IMPULSE-REACTION" : "CAT-FREE-IMPULSE";
        if ((rc = check_uid(pl, x, r, err))) return rc;
        if (!in_hand(pl, x)) return ARB_ILLEGAL(err, r, "card %d is not in your hand", x);
        const cat_def *d = cat_defof(pl, (unsigned)x);
        if (d->kind != CAT_KIND_IMPULSE) return ARB_ILLEGAL(err, r, "%s is not an Impulse card", d->card.name);
        if (pl->shards < d->cost) return ARB_ILLEGAL(err, r, "costs %u Shards, you have %d", d->cost, pl->shards);
        if (d->fx == CAT_FX_SHARDS) {
            if (a->nargs != 1) return ARB_INVALID(err, r, "%s takes no target", d->card.name);
            return ARB_OK;
        }
        if (a->nargs != 2) return ARB_INVALID(err, r, "%s needs a target: one of your cards in play", d->card.name);
        if ((rc = check_uid(pl, y, r, err))) return rc;
        if (!on_field(pl, y)) return ARB_ILLEGAL(err, r, "the target must be one of your cards in play");
        if (d->fx == CAT_FX_POWER && (pl->c[y].flags & CAT_F_FACEDOWN))
            return ARB_ILLEGAL(err, r, "a face-down card has no Power to raise (G11)");
        return ARB_OK;
    }
    case CAT_V_END:
    case CAT_V_PASS:
        return ARB_OK;
    case CAT_V_ARCHIVE:
        if ((rc = check_uid(pl, x, rule, err))) return rc;
        if (!in_hand(pl, x)) return ARB_ILLEGAL(err, rule, "card %d is not in your hand", x);
        return ARB_OK;
    default:
        return ARB_INVALID(err, NULL, "unknown verb %u", a->verb);
    }
}

/* --------------------------------------------------------------- legal */

typedef struct lbuf {
    const cat_state *s;
    arb_legal L;                /* the core legal-action buffer */
} lbuf;

/* A candidate: offered when the validator accepts it. */
static void cand(lbuf *b, int verb, int nargs, int x, int y, int z)
{
    arb_action a = arb_legal_action(b->L.seat, (unsigned)verb, (unsigned)nargs, x, y, z, 0);
    if (validate_verb(b->s, &a, NULL) != ARB_OK) return;
    arb_legal_push(&b->L, &a);
}

static void legal_impulses(lbuf *b, const cat_player *pl)
{
    for (unsigned h = 0; h < pl->nhand; h++) {
        unsigned u = pl->hand[h];
        const cat_def *d = cat_defof(pl, u);
        if (d->kind != CAT_KIND_IMPULSE || pl->shards < d->cost) continue;
        if (d->fx == CAT_FX_SHARDS) { cand(b, CAT_V_IMPULSE, 1, (int)u, 0, 0); continue; }
        for (unsigned p = 0; p < CAT_POSITIONS; p++)
            if (pl->field[p] != CAT_NOCARD) cand(b, CAT_V_IMPULSE, 2, (int)u, pl->field[p], 0);
    }
}

size_t arb_catalyst__legal(const arb_game *g, const void *st, arb_action *out, size_t cap)
{
    (void)g;
    const cat_state *s = st;
    if (s->over) return 0;
    lbuf b = { s, arb_legal_init(out, cap, (int8_t)s->dseat) };
    const cat_player *pl = &s->p[s->dseat];
    switch (s->dkind) {
    case CAT_D_MULLIGAN:
        cand(&b, CAT_V_KEEP, 0, 0, 0, 0);
        cand(&b, CAT_V_MULLIGAN, 0, 0, 0, 0);
        break;
    case CAT_D_MULL_KEEP:
        for (unsigned h = 0; h < pl->nhand; h++) cand(&b, CAT_V_KEEP_CARD, 1, pl->hand[h], 0, 0);
        break;
    case CAT_D_DEACTIVATE:
        for (unsigned p = 0; p < CAT_POSITIONS; p++)
            if (pl->field[p] != CAT_NOCARD) cand(&b, CAT_V_DEACTIVATE, 1, pl->field[p], 0, 0);
        cand(&b, CAT_V_DONE, 0, 0, 0, 0);
        break;
    case CAT_D_UPKEEP:
        for (unsigned p = 0; p < CAT_POSITIONS; p++)
            if (pl->field[p] != CAT_NOCARD && (pl->c[pl->field[p]].flags & CAT_F_UPKEEP_DUE)) {
                cand(&b, CAT_V_PAY, 1, pl->field[p], 0, 0);
                cand(&b, CAT_V_DECLINE, 1, pl->field[p], 0, 0);
            }
        break;
    case CAT_D_ACTION: {
        /* Candidates are pre-filtered with the cheap necessary conditions
         * (Actions, Shards, Battle Map, Range); the validator still decides. */
        int act = s->actions > 0;
        for (unsigned h = 0; h < pl->nhand; h++) {
            unsigned u = pl->hand[h];
            const cat_def *d = cat_defof(pl, u);
            if (d->kind != CAT_KIND_UNIT) continue;
            int up = s->actions >= d->acost && act && pl->shards >= d->cost, down = act && pl->shards >= 1;
            for (unsigned p = 0; p < CAT_POSITIONS; p++)
                if (pl->field[p] == CAT_NOCARD) {
                    if (up && (d->map & (1u << p))) cand(&b, CAT_V_DEPLOY, 2, (int)u, (int)p, 0);
                    if (down) cand(&b, CAT_V_DEPLOY_FD, 2, (int)u, (int)p, 0);
                }
        }
        legal_impulses(&b, pl);
        for (unsigned p = 0; p < CAT_POSITIONS; p++) {
            int u = pl->field[p];
            if (u == CAT_NOCARD) continue;
            const cat_card *c = &pl->c[u];
            const cat_def *d = cat_defof(pl, (unsigned)u);
            if (!(c->flags & CAT_F_FACEDOWN)) {
                if ((d->abilities & CAT_AB_ACTION_GAIN) && act) cand(&b, CAT_V_ABILITY, 2, u, 0, 0);
                if ((d->abilities & CAT_AB_PAY_POWER) && pl->shards >= 1) cand(&b, CAT_V_ABILITY, 2, u, 1, 0);
                if (act && !(c->flags & (CAT_F_ACTIVATED | CAT_F_UNSTABLE)) && arb_catalyst__power(pl, (unsigned)u) > 0)
                    for (unsigned t = 0; t < s->nplayers; t++)
                        if (t != s->dseat && s->p[t].alive)
                            for (unsigned q = 0; q < CAT_POSITIONS; q++)
                                if (s->p[t].field[q] != CAT_NOCARD && arb_catalyst__distance(p, q) <= d->range)
                                    cand(&b, CAT_V_STRIKE, 3, u, (int)t, (int)q);
            } else {
                cand(&b, CAT_V_ENGAGE, 1, u, 0, 0);
                if (!(c->flags & (CAT_F_ACTIVATED | CAT_F_UNSTABLE))) cand(&b, CAT_V_REINFORCE, 1, u, 0, 0);
            }
            if (act) {
                int map = (c->flags & CAT_F_FACEDOWN) ? CAT_MAP_ALL : d->map;
                for (unsigned q = 0; q < CAT_POSITIONS; q++) {
                    if (q == p || !(map & (1 << q))) continue;
                    if (pl->field[q] == CAT_NOCARD) cand(&b, CAT_V_MOVE, 2, u, (int)q, 0);
                    else cand(&b, CAT_V_SWAP, 2, u, pl->field[q], 0);
                }
                if (d->kind != CAT_KIND_CATALYST) cand(&b, CAT_V_RETREAT, 1, u, 0, 0);
            }
        }
        if (act) cand(&b, CAT_V_DRAW, 0, 0, 0, 0);
        cand(&b, CAT_V_END, 0, 0, 0, 0);
        break;
    }
    case CAT_D_REACTION:
        legal_impulses(&b, pl);
        for (unsigned p = 0; p < CAT_POSITIONS; p++)
            if (pl->field[p] != CAT_NOCARD && (pl->c[pl->field[p]].flags & CAT_F_FACEDOWN))
                cand(&b, CAT_V_REINFORCE, 1, pl->field[p], 0, 0);
        cand(&b, CAT_V_PASS, 0, 0, 0, 0);
        break;
    case CAT_D_ARCHIVE:
        for (unsigned h = 0; h < pl->nhand; h++) cand(&b, CAT_V_ARCHIVE, 1, pl->hand[h], 0, 0);
        break;
    default:
        break;
    }
    return b.L.n;
}

/* --------------------------------------------------------------- apply */

/* Damage from the pending Strike, after its Reaction window (G07, G09, G10). */
static void resolve_strike(cat_state *s, arb_events *ev)
{
    cat_pending pd = s->pend;
    memset(&s->pend, 0, sizeof s->pend);
    cat_player *ap = &s->p[pd.seat], *tp = &s->p[pd.tseat];
    uint8_t t = tp->field[pd.tpos];
    if (t != CAT_NOCARD && ap->c[pd.uid].zone == CAT_Z_FIELD) {
        int dmg = arb_catalyst__power(ap, pd.uid);
        int reduce = reinforced_count(tp);
        int prevented = reduce < dmg ? reduce : dmg;
        dmg -= prevented;
        cat_card *tc = &tp->c[t];
        int shield = tc->shield < dmg ? tc->shield : dmg;
        tc->shield = (uint16_t)(tc->shield - shield);
        dmg -= shield;
        prevented += shield;
        ev_push(ev, CAT_E_DAMAGE, pd.tseat, 0, dmg, pd.tpos, prevented);
        int total = tc->damage + dmg;
        if (total >= arb_catalyst__health(tp, t)) {
            int def = tc->def;
            to_archive(tp, t);
            ev_push(ev, CAT_E_DESTROYED, pd.tseat, 0, t, def, pd.tpos);
        } else {
            tc->damage = (uint8_t)total;
        }
    }
    set_decision(s, CAT_D_ACTION, s->active);
}

/* The Reaction window of a declared Strike (G10, I-REACTION-ORDER): it
 * passes clockwise from the Active Player through every other seat still in
 * the game, each reacting (Impulses, Reinforce) until it passes; after the
 * last seat the Strike resolves. `after` is the seat that just passed (the
 * Active Player when the Strike was just declared). */
static void open_reaction(cat_state *s, unsigned after, arb_events *ev)
{
    for (unsigned k = (after + 1u) % s->nplayers; k != s->active; k = (k + 1u) % s->nplayers)
        if (s->p[k].alive) {
            ev_push(ev, CAT_E_REACTION, (int)k, 0, s->active, 0, 0);
            set_decision(s, CAT_D_REACTION, k);
            return;
        }
    resolve_strike(s, ev);
}

int arb_catalyst__apply(const arb_game *g, void *st, const arb_action *a, arb_events *ev, arb_error *err)
{
    (void)g;
    cat_state *s = st;
    int rc = arb_catalyst__validate(s, a, err);
    if (rc) return rc;
    unsigned seat = (unsigned)a->seat;
    cat_player *pl = &s->p[seat];
    uint8_t x = (uint8_t)a->args[0], y = (uint8_t)a->args[1], z = (uint8_t)a->args[2]; /* as validated */
    switch (a->verb) {
    case CAT_V_KEEP:
        ev_push(ev, CAT_E_KEEP, (int)seat, 0, pl->nhand, 0, 0);
        next_mulligan_seat(s, ev);
        break;
    case CAT_V_MULLIGAN: {
        pl->mulligans++;
        ev_push(ev, CAT_E_MULLIGAN, (int)seat, 0, pl->mulligans, 0, 0);
        while (pl->nhand) to_vault(pl, pl->hand[pl->nhand - 1]);
        shuffle_vault(s, seat, ev);
        for (int k = 0; k < CAT_START_HAND; k++) draw(s, seat, 0, ev);
        if (pl->mulligans >= 2) {
            pl->keep_left = pl->mulligans == 2 ? CAT_MULL_KEEP2 : CAT_MULL_KEEP3;
            if (pl->keep_left > pl->nhand) pl->keep_left = pl->nhand;
            if (pl->keep_left) set_decision(s, CAT_D_MULL_KEEP, seat);
        }
        break;
    }
    case CAT_V_KEEP_CARD:
        pl->c[x].flags |= CAT_F_KEPT;
        ev_push(ev, CAT_E_KEEP_CARD, (int)seat, 1, x, pl->c[x].def, 0);
        if (--pl->keep_left == 0) {
            int returned = 0;
            for (unsigned h = pl->nhand; h-- > 0;) {
                uint8_t u = pl->hand[h];
                if (pl->c[u].flags & CAT_F_KEPT) pl->c[u].flags &= (uint8_t)~CAT_F_KEPT;
                else { to_vault(pl, u); returned++; }
            }
            ev_push(ev, CAT_E_RETURN, (int)seat, 0, returned, 0, 0);
            shuffle_vault(s, seat, ev); /* G13 */
            set_decision(s, CAT_D_MULLIGAN, seat);
        }
        break;
    case CAT_V_DEACTIVATE:
        pl->c[x].flags &= (uint8_t)~CAT_F_ACTIVATED;
        if (pl->c[x].flags & CAT_F_FACEDOWN) /* the UID would name the card: keep it hidden */
            ev_push(ev, CAT_E_DEACTIVATE, (int)seat, 0, -1, -1, pl->c[x].pos);
        else
            ev_push(ev, CAT_E_DEACTIVATE, (int)seat, 0, x, pl->c[x].def, pl->c[x].pos);
        if (!any_activated(pl)) after_deactivate(s, ev);
        break;
    case CAT_V_DONE:
        after_deactivate(s, ev);
        break;
    case CAT_V_PAY:
        pl->shards -= cat_defof(pl, x)->upkeep;
        pl->c[x].flags &= (uint8_t)~CAT_F_UPKEEP_DUE;
        ev_push(ev, CAT_E_UPKEEP_PAID, (int)seat, 0, x, pl->c[x].def, cat_defof(pl, x)->upkeep);
        continue_upkeep(s, ev);
        break;
    case CAT_V_DECLINE: {
        int def = pl->c[x].def;
        to_archive(pl, x);
        ev_push(ev, CAT_E_UPKEEP_ARCHIVED, (int)seat, 0, x, def, 0);
        continue_upkeep(s, ev);
        break;
    }
    case CAT_V_DEPLOY: {
        const cat_def *d = cat_defof(pl, x);
        s->actions = (uint8_t)(s->actions - d->acost);
        pl->shards -= d->cost;
        to_field(pl, x, y, CAT_F_UNSTABLE);
        if (d->cost) ev_push(ev, CAT_E_PAY, (int)seat, 0, d->cost, pl->c[x].def, x);
        ev_push(ev, CAT_E_DEPLOY, (int)seat, 0, x, pl->c[x].def, y);
        break;
    }
    case CAT_V_DEPLOY_FD:
        s->actions--;
        pl->shards -= 1;
        to_field(pl, x, y, CAT_F_UNSTABLE | CAT_F_FACEDOWN);
        ev_push(ev, CAT_E_DEPLOY_FD, (int)seat, 1, x, pl->c[x].def, y);
        break;
    case CAT_V_ABILITY:
        if (y == 0) {
            s->actions--;
            ev_push(ev, CAT_E_ABILITY, (int)seat, 0, x, pl->c[x].def, 0);
            gain(s, seat, 1, pl->c[x].def, 2, ev);
        } else {
            pl->shards -= 1;
            pl->c[x].bonus += 1;
            ev_push(ev, CAT_E_ABILITY, (int)seat, 0, x, pl->c[x].def, 1);
        }
        break;
    case CAT_V_STRIKE:
        s->actions--;
        pl->c[x].flags |= CAT_F_ACTIVATED;
        ev_push(ev, CAT_E_STRIKE, (int)seat, 0, pl->c[x].pos, pl->c[x].def, y * 8 + z);
        s->pend.on = 1;
        s->pend.seat = (uint8_t)seat;
        s->pend.uid = x;
        s->pend.tseat = y;
        s->pend.tpos = z;
        open_reaction(s, seat, ev);
        break;
    case CAT_V_MOVE: {
        uint8_t from = pl->c[x].pos;
        pl->field[from] = CAT_NOCARD;
        pl->field[y] = x;
        pl->c[x].pos = y;
        s->actions--;
        ev_push(ev, CAT_E_MOVE, (int)seat, 0, from, y, 0);
        break;
    }
    case CAT_V_SWAP: {
        uint8_t px = pl->c[x].pos, py = pl->c[y].pos;
        pl->field[px] = y;
        pl->field[py] = x;
        pl->c[x].pos = py;
        pl->c[y].pos = px;
        s->actions--;
        ev_push(ev, CAT_E_SWAP, (int)seat, 0, px, py, 0);
        break;
    }
    case CAT_V_RETREAT: {
        int fd = (pl->c[x].flags & CAT_F_FACEDOWN) != 0, pos = pl->c[x].pos;
        to_hand(pl, x); /* G23: damage and state cleared */
        s->actions--;
        ev_push(ev, CAT_E_RETREAT, (int)seat, fd, x, pl->c[x].def, pos);
        break;
    }
    case CAT_V_DRAW:
        s->actions--;
        draw(s, seat, 2, ev);
        break;
    case CAT_V_ENGAGE: {
        const cat_def *d = cat_defof(pl, x);
        int cost = d->cost > 0 ? d->cost - 1 : 0;
        pl->shards -= cost;
        pl->c[x].flags &= (uint8_t)~CAT_F_FACEDOWN; /* keeps orientation and Unstable (G12) */
        ev_push(ev, CAT_E_ENGAGE, (int)seat, 0, x, pl->c[x].def, cost);
        break;
    }
    case CAT_V_REINFORCE:
        pl->c[x].flags |= CAT_F_ACTIVATED | CAT_F_REINFORCED;
        ev_push(ev, CAT_E_REINFORCE, (int)seat, 0, pl->c[x].pos, 0, 0);
        break;
    case CAT_V_IMPULSE: {
        const cat_def *d = cat_defof(pl, x);
        int def = pl->c[x].def;
        pl->shards -= d->cost;
        if (d->cost) ev_push(ev, CAT_E_PAY, (int)seat, 0, d->cost, def, x);
        to_archive(pl, x); /* resolves, then is Archived (G10) */
        ev_push(ev, CAT_E_IMPULSE, (int)seat, 0, x, def, d->fx == CAT_FX_SHARDS ? -1 : pl->c[y].pos);
        if (d->fx == CAT_FX_SHIELD) {
            unsigned sh = pl->c[y].shield + d->fx_amount;
            pl->c[y].shield = (uint16_t)(sh > CAT_SHIELD_MAX ? CAT_SHIELD_MAX : sh);
        } else if (d->fx == CAT_FX_POWER) {
            pl->c[y].bonus += d->fx_amount;
        } else {
            gain(s, seat, d->fx_amount, def, 3, ev);
        }
        break;
    }
    case CAT_V_END:
        ev_push(ev, CAT_E_END_ACTIONS, (int)seat, 0, s->actions, 0, 0);
        s->actions = 0;
        end_phase(s, ev);
        break;
    case CAT_V_PASS:
        ev_push(ev, CAT_E_PASS, (int)seat, 0, 0, 0, 0);
        open_reaction(s, seat, ev);
        break;
    case CAT_V_ARCHIVE: {
        int def = pl->c[x].def;
        to_archive(pl, x);
        ev_push(ev, CAT_E_HAND_ARCHIVE, (int)seat, 0, x, def, 0);
        after_hand_adjust(s, ev);
        break;
    }
    default:
        break;
    }
    return ARB_OK;
}
