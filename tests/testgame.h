/* testgame.h — "testgame", the one tiny game behind the contract that the
 * test programs use (registered only in them, never in the library), so
 * the replay layer, the analyzer, the toolkit, the engine kit and plug-in
 * loading (tests/toy_plugin.c) run with no real engine: seeded shuffles, a
 * setup decision ("mulligan": each seat keeps), a first player drawn by the
 * PRNG, hidden draws, plays naming card UIDs, a reshuffle whenever a Nova
 * is played (randomness inside apply), a per-decision clock (the "clock"
 * option, 90 s unless given, 0 for none) with the arbiter's timeout, 2 to 4
 * players, explicit positions, rule IDs (TG-…) on every refusal, a greedy
 * agent, and a win/draw outcome after TG_TURNS turns. */
#ifndef ARBITER_TESTGAME_H
#define ARBITER_TESTGAME_H

#include <stdio.h>
#include <string.h>

#include "arbiter/arbiter.h"
#include "arbiter/toolkit.h"

/* Built with TG_CONTRACT=2 the test game is the plug-in an arbiter 0.2 build
 * made: the contract-2 layout (arb_game_c2, arbiter/plugin.h), whose slots
 * take no game; the loader shims it. */
#if defined(TG_CONTRACT) && TG_CONTRACT == 2
#include "arbiter/plugin.h"
#define TG_G_
typedef arb_game_c2 tg_game_type;
#define TG_GAME_CONTRACT 2
#else
#if defined(__GNUC__)
#define TG_G_ const arb_game *tg_g_ __attribute__((unused)),
#else
#define TG_G_ const arb_game *tg_g_,
#endif
typedef arb_game tg_game_type;
#define TG_GAME_CONTRACT ARB_GAME_CONTRACT
#endif

#define TG_TURNS 12
#define TG_HAND 24

typedef struct tg_player {
    int32_t score;
    uint8_t nhand, ndeck, nboard;
    uint8_t hand[TG_HAND], deck[ARB_DECK_MAX], board[ARB_DECK_MAX];
    uint16_t pool[ARB_DECK_MAX]; /* uid -> pool index */
} tg_player;

typedef struct tg_state {
    arb_rng rng;
    int players, active, first, kept, over, winner, reason;
    uint32_t turn;
    int64_t clock; /* ms a decision may take (0: no clock) */
    tg_player p[ARB_MAX_SEATS];
} tg_state;

enum { TG_V_KEEP, TG_V_PLAY, TG_V_END, TG_V_TIMEOUT };
enum { TG_E_DRAW, TG_E_PLAY, TG_E_FIRST, TG_E_TIMEOUT, TG_E_OVER, TG_E_SHUFFLE };
enum { TG_D_MULLIGAN, TG_D_MAIN, TG_D_OVER };

static const arb_verb tg_verbs[] = {
    { "keep", 0, 0, "", "keep the opening hand" },
    { "play", 1, 1, "UID", "play a card from hand" },
    { "end", 0, 0, "", "end the turn (draw a card)" },
    { "timeout", 0, 0, "", "arbiter: the clock ran out" },
};
static const char *const tg_decisions[] = { "mulligan", "main", "over" };
static const char *const tg_events[] = { "draw", "play", "first", "timeout", "game-over", "shuffle" };
static const char *const tg_reasons[] = { "none", "score", "timeout", "draw" };
static const arb_card tg_cards[] = {
    { "spark", "Spark", "Spell", "", "1 point" },
    { "flare", "Flare", "Spell", "", "2 points" },
    { "blaze", "Blaze", "Spell", "", "3 points" },
    { "nova", "Nova", "Spell", "", "4 points. Reshuffles your deck." },
};
static const arb_card *tg_card(TG_G_ unsigned i) { return i < 4 ? &tg_cards[i] : NULL; }

/* Two presets, as the contract asks (game.h), and the one deck rule. */
static const arb_deck tg_presets[] = {
    { .name = "low", .ncards = 8, .cards = { 0, 0, 0, 1, 1, 1, 2, 3 } },
    { .name = "high", .ncards = 8, .cards = { 3, 3, 3, 2, 2, 2, 1, 0 } },
};
static const arb_deck *tg_preset(TG_G_ unsigned i) { return i < 2 ? &tg_presets[i] : NULL; }
static unsigned tg_deck_check(TG_G_ const arb_deck *d, arb_deck_issue *out, unsigned cap)
{
    unsigned n = 0;
    if (d->ncards < 4 || d->ncards > TG_HAND)
        arb_deck_issue_add(out, cap, &n, 0, "TG-DECK", "decks need 4 to %d cards", TG_HAND);
    for (unsigned i = 0; i < d->ncards && i < ARB_DECK_MAX; i++)
        if (d->cards[i] >= 4) arb_deck_issue_add(out, cap, &n, 0, "TG-DECK", "card %u is not a test-game card", i);
    return n;
}

static void tg_draw(tg_state *s, int seat, arb_events *ev)
{
    tg_player *p = &s->p[seat];
    if (!p->ndeck || p->nhand >= TG_HAND) return;
    uint8_t uid = p->deck[--p->ndeck];
    p->hand[p->nhand++] = uid;
    arb_events_push(ev, TG_E_DRAW, seat, 1, uid, 0, 0);
}

static int tg_setup(TG_G_ void *st, const arb_setup *su, arb_events *ev, arb_error *err)
{
    tg_state *s = st;
    if (su->players < 2 || su->players > 4) return arb_error_set(err, ARB_EILLEGAL, "TG-PLAYERS", "2 to 4 players");
    memset(s, 0, sizeof *s);
    arb_rng_seed(&s->rng, su->seed);
    s->players = su->players;
    s->first = -1;
    s->winner = -1;
    s->turn = 1; /* the mulligans are part of turn 1 */
    s->clock = arb_options_get(&su->options, "clock", 90000);
    for (int i = 0; i < su->players; i++) {
        tg_player *p = &s->p[i];
        const arb_deck *d = su->decks[i];
        if (!d || d->ncards < 4 || d->ncards > TG_HAND)
            return arb_error_set(err, ARB_EILLEGAL, "TG-DECK", "seat %d: decks need 4 to %d cards", i, TG_HAND);
        for (unsigned k = 0; k < d->ncards; k++) {
            p->pool[k] = d->cards[k];
            p->deck[k] = (uint8_t)k;
        }
        p->ndeck = (uint8_t)d->ncards;
        arb_rng_shuffle(&s->rng, p->deck, p->ndeck, 1);
        tg_draw(s, i, ev);
        tg_draw(s, i, ev);
    }
    return ARB_OK;
}

static arb_decision tg_decide(const void *st)
{
    const tg_state *s = st;
    arb_decision d = { s->active, TG_D_MAIN, s->clock > 0 ? s->clock : -1 };
    if (s->over) {
        d.seat = ARB_SEAT_NONE;
        d.kind = TG_D_OVER;
        d.clock_left_ms = -1;
    } else if (s->kept < s->players) {
        d.seat = s->kept;
        d.kind = TG_D_MULLIGAN;
    }
    return d;
}

static arb_decision tg_decision(TG_G_ const void *st) { return tg_decide(st); }

static size_t tg_legal(TG_G_ const void *st, arb_action *out, size_t cap)
{
    const tg_state *s = st;
    arb_decision d = tg_decide(st);
    size_t n = 0;
    arb_action a;
    memset(&a, 0, sizeof a);
    if (d.seat < 0) return 0;
    a.seat = (int8_t)d.seat;
    if (d.kind == TG_D_MULLIGAN) {
        a.verb = TG_V_KEEP;
        if (n < cap) out[n] = a;
        return 1;
    }
    a.verb = TG_V_END;
    if (n < cap) out[n] = a;
    n++;
    for (unsigned i = 0; i < s->p[d.seat].nhand; i++) {
        a.verb = TG_V_PLAY;
        a.nargs = 1;
        a.args[0] = s->p[d.seat].hand[i];
        if (n < cap) out[n] = a;
        n++;
    }
    return n;
}

static void tg_finish(tg_state *s, arb_events *ev)
{
    int best = -1, tie = 0;
    for (int i = 0; i < s->players; i++) {
        if (best < 0 || s->p[i].score > s->p[best].score) {
            best = i;
            tie = 0;
        } else if (s->p[i].score == s->p[best].score) tie = 1;
    }
    s->over = 1;
    s->winner = tie ? -1 : best;
    s->reason = tie ? 3 : 1;
    arb_events_push(ev, TG_E_OVER, s->winner, 0, s->reason, (int32_t)s->turn, 0); /* game.h: b = turns */
}

static int tg_apply(TG_G_ void *st, const arb_action *a, arb_events *ev, arb_error *err)
{
    tg_state *s = st;
    if (s->over) return arb_error_set(err, ARB_EOVER, NULL, "the match is over");
    arb_decision d = tg_decide(st);
    if (a->verb == TG_V_TIMEOUT) {
        if (a->seat != ARB_SEAT_ARBITER || s->clock <= 0)
            return arb_error_set(err, ARB_EILLEGAL, "TG-CLOCK", "only the arbiter times out, and only with a clock");
        arb_events_push(ev, TG_E_TIMEOUT, d.seat, 0, 0, 0, 0);
        s->over = 1;
        s->winner = (d.seat + 1) % s->players;
        s->reason = 2;
        arb_events_push(ev, TG_E_OVER, s->winner, 0, s->reason, (int32_t)s->turn, 0); /* game.h: b = turns */
        return ARB_OK;
    }
    if (a->verb > TG_V_TIMEOUT) return arb_error_set(err, ARB_EINVAL, NULL, "unknown verb %u", a->verb);
    if (a->seat != d.seat)
        return arb_error_set(err, ARB_EILLEGAL, "TG-TURN", "seat %d does not owe a decision", a->seat);
    if (s->clock > 0 && a->elapsed_ms >= s->clock)
        return arb_error_set(err, ARB_EILLEGAL, "TG-CLOCK", "the action came after the clock ran out");
    if (a->nargs != tg_verbs[a->verb].min_args)
        return arb_error_set(err, ARB_EINVAL, "TG-ARGS", "%s takes %d arguments", tg_verbs[a->verb].name,
                             tg_verbs[a->verb].min_args);
    if (d.kind == TG_D_MULLIGAN) {
        if (a->verb != TG_V_KEEP) return arb_error_set(err, ARB_EILLEGAL, "TG-KEEP", "keep first");
        if (++s->kept == s->players) {
            s->first = (int)arb_rng_below(&s->rng, (uint32_t)s->players);
            s->active = s->first;
            arb_events_push(ev, TG_E_FIRST, s->first, 0, 0, 0, 0);
        }
        return ARB_OK;
    }
    tg_player *p = &s->p[d.seat];
    if (a->verb == TG_V_PLAY) {
        int at = -1;
        for (int i = 0; i < p->nhand; i++)
            if (a->nargs == 1 && p->hand[i] == a->args[0]) at = i;
        if (at < 0) {
            arb_error_where(err, "players.%d.hand", d.seat);
            return arb_error_set(err, ARB_EILLEGAL, "TG-HAND", "card %d is not in hand", a->args[0]);
        }
        uint8_t uid = p->hand[at];
        memmove(p->hand + at, p->hand + at + 1, (size_t)(p->nhand - at - 1));
        p->nhand--;
        p->board[p->nboard++] = uid;
        p->score += p->pool[uid] + 1;
        arb_events_push(ev, TG_E_PLAY, d.seat, 0, uid, p->pool[uid], p->score);
        if (p->pool[uid] == 3 && p->ndeck > 1) {
            arb_rng_shuffle(&s->rng, p->deck, p->ndeck, 1);
            arb_events_push(ev, TG_E_SHUFFLE, d.seat, 0, 0, 0, 0);
        }
        return ARB_OK;
    }
    if (a->verb == TG_V_END) {
        tg_draw(s, d.seat, ev);
        s->active = (s->active + 1) % s->players;
        if (s->turn >= TG_TURNS) tg_finish(s, ev); /* the last turn ends the match: no new turn */
        else s->turn++;
        return ARB_OK;
    }
    return arb_error_set(err, ARB_EILLEGAL, "TG-VERB", "not now");
}

static uint64_t tg_hash(TG_G_ const void *st)
{
    const tg_state *s = st;
    arb_hasher h;
    arb_hasher_init(&h);
    for (int i = 0; i < 4; i++) arb_hasher_u64(&h, s->rng.s[i]);
    arb_hasher_i32(&h, s->players);
    arb_hasher_i32(&h, s->active);
    arb_hasher_i32(&h, s->first);
    arb_hasher_i32(&h, s->kept);
    arb_hasher_i32(&h, s->over);
    arb_hasher_i32(&h, s->winner);
    arb_hasher_u32(&h, s->turn);
    for (int i = 0; i < s->players; i++) {
        const tg_player *p = &s->p[i];
        arb_hasher_i32(&h, p->score);
        arb_hasher_u8(&h, p->nhand);
        arb_hasher_bytes(&h, p->hand, p->nhand);
        arb_hasher_u8(&h, p->ndeck);
        arb_hasher_bytes(&h, p->deck, p->ndeck);
        arb_hasher_u8(&h, p->nboard);
        arb_hasher_bytes(&h, p->board, p->nboard);
    }
    return arb_hasher_final(&h);
}

static int tg_outcome(TG_G_ const void *st, arb_outcome *o)
{
    const tg_state *s = st;
    o->over = s->over;
    o->winner = s->winner;
    o->reason = (uint16_t)s->reason;
    o->turns = s->turn;
    return s->over;
}

static uint32_t tg_turn(TG_G_ const void *st) { return ((const tg_state *)st)->turn; }
static const char *tg_phase_name(const void *st)
{
    const tg_state *s = st;
    return s->over ? "over" : s->kept < s->players ? "mulligan" : "main";
}

static const char *tg_phase(TG_G_ const void *st) { return tg_phase_name(st); }

static void tg_export(TG_G_ const void *st, int view, arb_tree *t, arb_tnode *root)
{
    const tg_state *s = st;
    arb_tree_add_int(t, root, "turn", s->turn);
    arb_tree_add_int(t, root, "active", s->active);
    arb_tree_add_int(t, root, "first", s->first);
    arb_tree_add_str(t, root, "phase", tg_phase_name(st));
    arb_tnode *pl = arb_tree_add_arr(t, root, "players");
    for (int i = 0; i < s->players; i++) {
        const tg_player *p = &s->p[i];
        arb_tnode *pm = arb_tree_add_map(t, pl, NULL);
        arb_tree_add_int(t, pm, "score", p->score);
        arb_tree_add_int(t, pm, "hand_count", p->nhand);
        if (view == ARB_VIEW_ALL || view == i) {
            arb_tnode *h = arb_tree_add_arr(t, pm, "hand");
            for (int k = 0; k < p->nhand; k++) arb_tree_add_str(t, h, NULL, tg_cards[p->pool[p->hand[k]]].id);
        }
        arb_tree_add_int(t, pm, "deck_count", p->ndeck);
        arb_tnode *b = arb_tree_add_arr(t, pm, "board");
        for (int k = 0; k < p->nboard; k++) arb_tree_add_str(t, b, NULL, tg_cards[p->pool[p->board[k]]].id);
    }
}

/* The event args carry uids; the text needs the pool, which the event does
 * not carry: the test game narrates the uid, as a real engine would narrate a
 * card name it keeps in the event args. */
static int tg_event_text(TG_G_ const arb_event *e, int view, char *buf, size_t size)
{
    switch (e->type) {
    case TG_E_DRAW:
        if (view != ARB_VIEW_ALL && view != e->seat) return snprintf(buf, size, "P%d draws a card", e->seat + 1);
        return snprintf(buf, size, "P%d draws card %d", e->seat + 1, e->a);
    case TG_E_PLAY: return snprintf(buf, size, "P%d plays card %d, score %d", e->seat + 1, e->a, e->c);
    case TG_E_FIRST: return snprintf(buf, size, "P%d goes first", e->seat + 1);
    case TG_E_TIMEOUT: return snprintf(buf, size, "P%d ran out of time", e->seat + 1);
    case TG_E_OVER: return snprintf(buf, size, "the match is over");
    case TG_E_SHUFFLE: return snprintf(buf, size, "P%d reshuffles", e->seat + 1);
    default: return snprintf(buf, size, "?");
    }
}

static int tg_action_text(TG_G_ const void *st, const arb_action *a, char *buf, size_t size)
{
    const tg_state *s = st;
    if (a->seat == ARB_SEAT_ARBITER) return snprintf(buf, size, "arbiter: timeout");
    if (a->verb == TG_V_PLAY && a->seat >= 0 && a->seat < s->players && a->args[0] >= 0 && a->args[0] < ARB_DECK_MAX)
        return snprintf(buf, size, "P%d plays %s", a->seat + 1, tg_cards[s->p[a->seat].pool[a->args[0]] & 3].name);
    return snprintf(buf, size, "P%d %s", a->seat + 1, a->verb < 4 ? tg_verbs[a->verb].name : "?");
}

/* A position: turn, active seat and scores over fresh 20-card decks,
 * past the mulligans. */
static int tg_load(TG_G_ void *st, const arb_tnode *pos, const arb_setup *su, arb_error *err)
{
    tg_state *s = st;
    if (su->players < 2 || su->players > 4) return arb_error_set(err, ARB_EILLEGAL, "TG-PLAYERS", "2 to 4 players");
    memset(s, 0, sizeof *s);
    arb_rng_seed(&s->rng, su->seed);
    s->players = su->players;
    s->kept = su->players;
    s->winner = -1;
    s->turn = 1;
    s->clock = arb_options_get(&su->options, "clock", 90000);
    for (const arb_tnode *n = pos->first; n; n = n->next) {
        if (strcmp(n->key, "turn") == 0 && n->kind == ARB_T_INT && n->i >= 1 && n->i <= TG_TURNS)
            s->turn = (uint32_t)n->i;
        else if (strcmp(n->key, "active") == 0 && n->kind == ARB_T_INT && n->i >= 0 && n->i < su->players)
            s->active = (int)n->i;
        else if (strcmp(n->key, "scores") == 0 && n->kind == ARB_T_ARR && n->n == (uint32_t)su->players) {
            int p = 0;
            for (const arb_tnode *c = n->first; c; c = c->next, p++) {
                if (c->kind != ARB_T_INT || c->i < 0 || c->i > 999) {
                    arb_error_where(err, "scores.%d", p);
                    return arb_error_set(err, ARB_EILLEGAL, "TG-POS", "a score is 0..999");
                }
                s->p[p].score = (int32_t)c->i;
            }
        } else {
            arb_error_where(err, "%s", n->key);
            return arb_error_set(err, ARB_EILLEGAL, "TG-POS", "unknown or invalid position field");
        }
    }
    s->first = s->active;
    for (int i = 0; i < su->players; i++) {
        tg_player *p = &s->p[i];
        for (unsigned k = 0; k < 20; k++) {
            p->pool[k] = (uint16_t)(k % 4);
            p->deck[k] = (uint8_t)k;
        }
        p->ndeck = 20;
        tg_draw(s, i, NULL);
        tg_draw(s, i, NULL);
    }
    return ARB_OK;
}

/* Greedy: the highest card in hand, else end the turn (keep first). */
static size_t tg_greedy(TG_G_ const void *st, const arb_action *legal, size_t n, arb_rng *rng)
{
    const tg_state *s = st;
    size_t best = 0;
    int bv = -1;
    (void)rng;
    for (size_t i = 0; i < n; i++)
        if (legal[i].verb == TG_V_PLAY && legal[i].seat >= 0) {
            int v = s->p[legal[i].seat].pool[legal[i].args[0]];
            if (v > bv) {
                bv = v;
                best = i;
            }
        }
    return best;
}

static const tg_game_type tg_game = {
    .contract = TG_GAME_CONTRACT,
    .id = "testgame",
    .title = "Test Game",
    .rules_version = "tg-1",
    .engine_version = "tg-engine-1",
    .min_players = 2,
    .max_players = 4,
    .state_size = sizeof(tg_state),
    .verbs = tg_verbs,
    .nverbs = 4,
    .decision_names = tg_decisions,
    .ndecision_names = 3,
    .event_names = tg_events,
    .nevent_names = 6,
    .outcome_reasons = tg_reasons,
    .noutcome_reasons = 4,
    .ncards = 4,
    .card = tg_card,
    .deck_check = tg_deck_check,
    .npresets = 2,
    .preset = tg_preset,
    .setup = tg_setup,
    .load_position = tg_load,
    .decision = tg_decision,
    .legal = tg_legal,
    .apply = tg_apply,
    .hash = tg_hash,
    .outcome = tg_outcome,
    .turn = tg_turn,
    .phase = tg_phase,
    .export_state = tg_export,
    .event_text = tg_event_text,
    .action_text = tg_action_text,
    .greedy = tg_greedy,
};

#endif
