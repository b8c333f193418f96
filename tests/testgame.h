/* testgame.h — "testgame", a tiny deterministic card game implementing the
 * arb_game contract, registered only in test programs (never in the
 * library), so the replay layer can be exercised with no real engine:
 * shuffled decks from the seeded PRNG, a draw each turn (a hidden event),
 * up to two plays a turn then "pass", a reshuffle whenever a six is played
 * (randomness inside apply), an optional per-decision clock with the
 * arbiter's "timeout", 2 to 4 players, explicit positions, and rule IDs
 * (TG-…) on every rejection. First to 30 points wins; turn 80 is a draw. */
#ifndef ARBITER_TESTGAME_H
#define ARBITER_TESTGAME_H

#include <stdio.h>
#include <string.h>

#include "arbiter/arbiter.h"

#define TG_WIN 30
#define TG_TURNS 80
#define TG_HAND 8

typedef struct tg_state {
    arb_rng rng;
    uint8_t players, active, over, reason, plays;
    int8_t winner;
    uint32_t turn;
    int64_t clock;
    int32_t score[ARB_MAX_SEATS];
    uint8_t ndeck[ARB_MAX_SEATS], nhand[ARB_MAX_SEATS];
    uint8_t deck[ARB_MAX_SEATS][ARB_DECK_MAX];      /* uids, top at the end */
    uint8_t hand[ARB_MAX_SEATS][TG_HAND];           /* uids */
    uint8_t value[ARB_MAX_SEATS][ARB_DECK_MAX];     /* card value by uid */
} tg_state;

static const arb_verb tg_verbs[] = {
    { "play", 1, 1, "HAND_INDEX", "play a card from hand" },
    { "pass", 0, 0, "", "end the turn" },
    { "timeout", 0, 0, "", "arbiter: the acting seat ran out of time" },
};
static const char *const tg_decisions[] = { "main", "over" };
static const char *const tg_events[] = { "draw", "play", "shuffle" };
static const char *const tg_reasons[] = { "score", "timeout", "turn-limit" };
static const arb_card tg_cards[] = {
    { "one", "One", "Number", "", "" },   { "two", "Two", "Number", "", "" },
    { "three", "Three", "Number", "", "" }, { "four", "Four", "Number", "", "" },
    { "five", "Five", "Number", "", "" }, { "six", "Six", "Number", "", "Reshuffles your deck." },
};
static const arb_card *tg_card(const arb_game *g, unsigned i) { (void)g; return &tg_cards[i]; }
static unsigned tg_deck_check(const arb_game *g, const arb_deck *d, arb_deck_issue *out, unsigned cap)
{
    (void)g;
    if (d->ncards >= 4 && d->ncards <= 60) return 0;
    if (cap) {
        out->warning = 0;
        snprintf(out->rule, sizeof out->rule, "TG-DECK");
        snprintf(out->msg, sizeof out->msg, "a deck holds 4 to 60 cards");
    }
    return 1;
}
static const arb_deck tg_preset_decks[] = {
    { "mixed", 12, { 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5 }, 0, { { "", "" } } },
    { "high", 10, { 5, 5, 4, 4, 3, 3, 2, 2, 1, 0 }, 0, { { "", "" } } },
};
static const arb_deck *tg_preset(const arb_game *g, unsigned i) { (void)g; return &tg_preset_decks[i]; }

static void tg_draw(tg_state *s, int seat, arb_events *ev)
{
    if (s->ndeck[seat] == 0 || s->nhand[seat] >= TG_HAND) return;
    uint8_t uid = s->deck[seat][--s->ndeck[seat]];
    s->hand[seat][s->nhand[seat]++] = uid;
    arb_events_push(ev, 0, seat, 1, uid, 0, 0);
}

static int tg_setup(const arb_game *g, void *st, const arb_setup *su, arb_events *ev, arb_error *err)
{
    (void)g;
    tg_state *s = st;
    if (su->players < 2 || su->players > 4)
        return arb_error_set(err, ARB_EILLEGAL, "TG-PLAYERS", "testgame needs 2 to 4 players");
    for (int p = 0; p < su->players; p++)
        if (!su->decks[p] || tg_deck_check(g, su->decks[p], NULL, 0))
            return arb_error_set(err, ARB_EILLEGAL, "TG-DECK", "seat %d: a deck holds 4 to 60 cards", p);
    memset(s, 0, sizeof *s);
    arb_rng_seed(&s->rng, su->seed);
    s->players = (uint8_t)su->players;
    s->clock = arb_options_get(&su->options, "clock", 0);
    s->turn = 1;
    s->winner = -1;
    for (int p = 0; p < su->players; p++) {
        const arb_deck *d = su->decks[p];
        for (unsigned i = 0; i < d->ncards; i++) {
            s->deck[p][i] = (uint8_t)i;
            s->value[p][i] = (uint8_t)(d->cards[i] % 6 + 1);
        }
        s->ndeck[p] = (uint8_t)d->ncards;
        arb_rng_shuffle(&s->rng, s->deck[p], s->ndeck[p], 1);
        for (int k = 0; k < 3; k++) tg_draw(s, p, ev);
    }
    s->active = (uint8_t)arb_rng_below(&s->rng, s->players);
    tg_draw(s, s->active, ev);
    return ARB_OK;
}

static int tg_load_position(const arb_game *g, void *st, const arb_tnode *pos, const arb_setup *su, arb_error *err)
{
    (void)g;
    tg_state *s = st;
    memset(s, 0, sizeof *s);
    arb_rng_seed(&s->rng, su->seed);
    s->players = (uint8_t)su->players;
    s->winner = -1;
    s->turn = 1;
    s->clock = arb_options_get(&su->options, "clock", 0);
    for (const arb_tnode *n = pos->first; n; n = n->next) {
        if (strcmp(n->key, "turn") == 0 && n->kind == ARB_T_INT && n->i >= 1) s->turn = (uint32_t)n->i;
        else if (strcmp(n->key, "active") == 0 && n->kind == ARB_T_INT && n->i >= 0 && n->i < su->players)
            s->active = (uint8_t)n->i;
        else if (strcmp(n->key, "scores") == 0 && n->kind == ARB_T_ARR && n->n == (uint32_t)su->players) {
            int p = 0;
            for (const arb_tnode *c = n->first; c; c = c->next, p++) {
                if (c->kind != ARB_T_INT || c->i < 0 || c->i >= TG_WIN) {
                    arb_error_where(err, "scores.%d", p);
                    return arb_error_set(err, ARB_EILLEGAL, "TG-POS", "a score is 0..29");
                }
                s->score[p] = (int32_t)c->i;
            }
        } else {
            arb_error_where(err, "%s", n->key);
            return arb_error_set(err, ARB_EILLEGAL, "TG-POS", "unknown or invalid position field");
        }
    }
    for (int p = 0; p < su->players; p++) {
        for (unsigned i = 0; i < 20; i++) {
            s->deck[p][i] = (uint8_t)i;
            s->value[p][i] = (uint8_t)(i % 6 + 1);
        }
        s->ndeck[p] = 20;
        for (int k = 0; k < 3; k++) tg_draw(s, p, NULL);
    }
    return ARB_OK;
}

static arb_decision tg_decision(const arb_game *g, const void *st)
{
    (void)g;
    const tg_state *s = st;
    arb_decision d = { s->active, 0, s->clock > 0 ? s->clock : -1 };
    if (s->over) d = (arb_decision){ ARB_SEAT_NONE, 1, -1 }; /* "over" (game.h) */
    return d;
}

static size_t tg_legal(const arb_game *g, const void *st, arb_action *out, size_t cap)
{
    (void)g;
    const tg_state *s = st;
    size_t n = 0;
    if (s->over) return 0;
    arb_action a;
    memset(&a, 0, sizeof a);
    a.seat = (int8_t)s->active;
    if (s->plays < 2)
        for (unsigned i = 0; i < s->nhand[s->active]; i++) {
            a.verb = 0;
            a.nargs = 1;
            a.args[0] = (int32_t)i;
            if (n < cap) out[n] = a;
            n++;
        }
    a.verb = 1;
    a.nargs = 0;
    a.args[0] = 0;
    if (n < cap) out[n] = a;
    return n + 1;
}

static void tg_end_turn(tg_state *s, arb_events *ev)
{
    s->plays = 0;
    s->active = (uint8_t)((s->active + 1) % s->players);
    s->turn++;
    if (s->turn > TG_TURNS) {
        s->over = 1;
        s->winner = -1;
        s->reason = 2;
        return;
    }
    tg_draw(s, s->active, ev);
}

static int tg_apply(const arb_game *g, void *st, const arb_action *a, arb_events *ev, arb_error *err)
{
    (void)g;
    tg_state *s = st;
    if (s->over) return arb_error_set(err, ARB_EOVER, "TG-OVER", "the match is over");
    if (a->verb >= 3) return arb_error_set(err, ARB_EINVAL, NULL, "unknown verb %u", a->verb);
    if (a->verb == 2) {
        if (a->seat != ARB_SEAT_ARBITER || s->clock <= 0)
            return arb_error_set(err, ARB_EILLEGAL, "TG-CLOCK", "only the arbiter times out, and only with a clock");
        s->over = 1;
        s->reason = 1;
        s->winner = (int8_t)((s->active + 1) % s->players);
        return ARB_OK;
    }
    if (a->seat != s->active)
        return arb_error_set(err, ARB_EILLEGAL, "TG-TURN", "seat %d acts out of turn", a->seat);
    if (s->clock > 0 && a->elapsed_ms >= s->clock)
        return arb_error_set(err, ARB_EILLEGAL, "TG-CLOCK", "the action came after the clock ran out");
    if (a->verb == 1) {
        tg_end_turn(s, ev);
        return ARB_OK;
    }
    if (a->nargs != 1 || a->args[0] < 0 || a->args[0] >= s->nhand[s->active])
        return arb_error_set(err, ARB_EILLEGAL, "TG-HAND", "no card at that hand index");
    if (s->plays >= 2) return arb_error_set(err, ARB_EILLEGAL, "TG-PLAYS", "two plays a turn at most");
    int p = s->active;
    uint8_t uid = s->hand[p][a->args[0]];
    memmove(&s->hand[p][a->args[0]], &s->hand[p][a->args[0] + 1], (size_t)(s->nhand[p] - a->args[0] - 1));
    s->nhand[p]--;
    s->score[p] += s->value[p][uid];
    s->plays++;
    arb_events_push(ev, 1, p, 0, uid, s->value[p][uid], 0);
    if (s->value[p][uid] == 6 && s->ndeck[p] > 1) {
        arb_rng_shuffle(&s->rng, s->deck[p], s->ndeck[p], 1);
        arb_events_push(ev, 2, p, 0, 0, 0, 0);
    }
    if (s->score[p] >= TG_WIN) {
        s->over = 1;
        s->winner = (int8_t)p;
        s->reason = 0;
    }
    return ARB_OK;
}

static uint64_t tg_hash(const arb_game *g, const void *st)
{
    (void)g;
    const tg_state *s = st;
    arb_hasher h;
    arb_hasher_init(&h);
    for (int i = 0; i < 4; i++) arb_hasher_u64(&h, s->rng.s[i]);
    arb_hasher_u8(&h, s->players);
    arb_hasher_u8(&h, s->active);
    arb_hasher_u8(&h, s->over);
    arb_hasher_u8(&h, s->reason);
    arb_hasher_u8(&h, s->plays);
    arb_hasher_u8(&h, (uint8_t)s->winner);
    arb_hasher_u32(&h, s->turn);
    for (int p = 0; p < s->players; p++) {
        arb_hasher_i32(&h, s->score[p]);
        arb_hasher_u8(&h, s->ndeck[p]);
        arb_hasher_bytes(&h, s->deck[p], s->ndeck[p]);
        arb_hasher_u8(&h, s->nhand[p]);
        arb_hasher_bytes(&h, s->hand[p], s->nhand[p]);
    }
    return arb_hasher_final(&h);
}

static int tg_outcome(const arb_game *g, const void *st, arb_outcome *o)
{
    (void)g;
    const tg_state *s = st;
    o->over = s->over;
    o->winner = s->winner;
    o->reason = s->reason;
    o->turns = s->turn > TG_TURNS ? TG_TURNS : s->turn;
    return o->over;
}
static uint32_t tg_turn(const arb_game *g, const void *st) { (void)g; return ((const tg_state *)st)->turn; }
static const char *tg_phase(const arb_game *g, const void *st) { (void)g; return ((const tg_state *)st)->over ? "over" : "main"; }

static void tg_export(const arb_game *g, const void *st, int view, arb_tree *t, arb_tnode *root)
{
    (void)g;
    const tg_state *s = st;
    arb_tree_add_int(t, root, "turn", s->turn);
    arb_tree_add_int(t, root, "active", s->active);
    arb_tnode *pl = arb_tree_add_arr(t, root, "players");
    for (int p = 0; p < s->players; p++) {
        arb_tnode *m = arb_tree_add_map(t, pl, NULL);
        arb_tree_add_int(t, m, "score", s->score[p]);
        if (view == ARB_VIEW_ALL || view == p) {
            arb_tnode *h = arb_tree_add_arr(t, m, "hand");
            for (int i = 0; i < s->nhand[p]; i++) arb_tree_add_int(t, h, NULL, s->value[p][s->hand[p][i]]);
        } else {
            arb_tree_add_int(t, m, "hand", s->nhand[p]);
        }
    }
}

static int tg_event_text(const arb_game *g, const arb_event *ev, int view, char *buf, size_t size)
{
    (void)g;
    if (ev->type == 0 && ev->hidden && view != ev->seat && view != ARB_VIEW_ALL)
        return snprintf(buf, size, "P%d draws a card", ev->seat + 1);
    if (ev->type == 0) return snprintf(buf, size, "P%d draws card %d", ev->seat + 1, ev->a);
    if (ev->type == 1) return snprintf(buf, size, "P%d scores %d", ev->seat + 1, ev->b);
    return snprintf(buf, size, "P%d reshuffles", ev->seat + 1);
}

static int tg_action_text(const arb_game *g, const void *st, const arb_action *a, char *buf, size_t size)
{
    (void)g;
    (void)st;
    if (a->seat == ARB_SEAT_ARBITER) return snprintf(buf, size, "the arbiter calls %s", tg_verbs[a->verb % 3].name);
    if (a->verb == 0) return snprintf(buf, size, "P%d plays hand %d", a->seat + 1, a->args[0]);
    return snprintf(buf, size, "P%d %ss", a->seat + 1, tg_verbs[a->verb % 3].name);
}

static size_t tg_greedy(const arb_game *g, const void *st, const arb_action *legal, size_t n, arb_rng *rng)
{
    (void)g;
    const tg_state *s = st;
    size_t best = n - 1;
    int bv = 0;
    (void)rng;
    for (size_t i = 0; i < n; i++)
        if (legal[i].verb == 0) {
            int v = s->value[s->active][s->hand[s->active][legal[i].args[0]]];
            if (v > bv) { bv = v; best = i; }
        }
    return best;
}

static const arb_game tg_game = {
    .contract = ARB_GAME_CONTRACT, .id = "testgame", .title = "Test Game", .rules_version = "tg-1", .engine_version = "tg-engine-1",
    .min_players = 2, .max_players = 4, .state_size = sizeof(tg_state),
    .verbs = tg_verbs, .nverbs = 3,
    .decision_names = tg_decisions, .ndecision_names = 2,
    .event_names = tg_events, .nevent_names = 3,
    .outcome_reasons = tg_reasons, .noutcome_reasons = 3,
    .ncards = 6, .card = tg_card, .card_export = NULL,
    .deck_check = tg_deck_check, .npresets = 2, .preset = tg_preset,
    .setup = tg_setup, .load_position = tg_load_position, .decision = tg_decision,
    .legal = tg_legal, .apply = tg_apply, .hash = tg_hash, .outcome = tg_outcome,
    .turn = tg_turn, .phase = tg_phase, .export_state = tg_export, .event_text = tg_event_text,
    .action_text = tg_action_text, .greedy = tg_greedy,
};

#endif
