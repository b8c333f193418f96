/* toy_game.h — a tiny, complete game behind the contract, for testing the
 * analyzer without depending on any real engine: seeded shuffles, a setup
 * decision ("mulligan": each seat keeps), a first player drawn by the PRNG,
 * hidden draws, plays naming card UIDs, a score counter, an arbiter
 * timeout, and a win/draw outcome after TOY_TURNS turns. */
#ifndef ARBITER_TESTS_TOY_GAME_H
#define ARBITER_TESTS_TOY_GAME_H

#include <stdio.h>
#include <string.h>

#include "arbiter/arbiter.h"
#include "arbiter/toolkit.h"

/* Built with TOY_CONTRACT=2 the toy is the plug-in an arbiter 0.2 build
 * made: the contract-2 layout (arb_game_c2, arbiter/plugin.h), whose slots
 * take no game; the loader shims it. */
#if defined(TOY_CONTRACT) && TOY_CONTRACT == 2
#include "arbiter/plugin.h"
#define TOY_G_
typedef arb_game_c2 toy_game_type;
#define TOY_GAME_CONTRACT 2
#else
#if defined(__GNUC__)
#define TOY_G_ const arb_game *toy_g_ __attribute__((unused)),
#else
#define TOY_G_ const arb_game *toy_g_,
#endif
typedef arb_game toy_game_type;
#define TOY_GAME_CONTRACT ARB_GAME_CONTRACT
#endif

#define TOY_TURNS 8
#define TOY_HAND 24

typedef struct toy_player {
    int32_t score;
    uint8_t nhand, ndeck, nboard;
    uint8_t hand[TOY_HAND], deck[ARB_DECK_MAX], board[ARB_DECK_MAX];
    uint16_t pool[ARB_DECK_MAX]; /* uid -> pool index */
} toy_player;

typedef struct toy_state {
    arb_rng rng;
    int players, active, first, kept, over, winner, reason;
    uint32_t turn;
    toy_player p[ARB_MAX_SEATS];
} toy_state;

enum { TV_KEEP, TV_PLAY, TV_END, TV_TIMEOUT };
enum { TE_DRAW, TE_PLAY, TE_FIRST, TE_TIMEOUT, TE_OVER };
enum { TD_MULLIGAN, TD_MAIN, TD_OVER };

static const arb_verb toy_verbs[] = {
    { "keep", 0, 0, "", "keep the opening hand" },
    { "play", 1, 1, "UID", "play a card from hand" },
    { "end", 0, 0, "", "end the turn (draw a card)" },
    { "timeout", 0, 0, "", "arbiter: the clock ran out" },
};
static const char *const toy_decisions[] = { "mulligan", "main", "over" };
static const char *const toy_events[] = { "draw", "play", "first", "timeout", "game-over" };
static const char *const toy_reasons[] = { "none", "score", "timeout", "draw" };
static const arb_card toy_cards[] = {
    { "spark", "Spark", "Spell", "", "1 point" },
    { "flare", "Flare", "Spell", "", "2 points" },
    { "blaze", "Blaze", "Spell", "", "3 points" },
    { "nova", "Nova", "Spell", "", "4 points" },
};
static const arb_card *toy_card(TOY_G_ unsigned i) { return i < 4 ? &toy_cards[i] : NULL; }

/* Two presets, as the contract asks (game.h), and the one deck rule. */
static const arb_deck toy_presets[] = {
    { .name = "toy-low", .ncards = 8, .cards = { 0, 0, 0, 1, 1, 1, 2, 3 } },
    { .name = "toy-high", .ncards = 8, .cards = { 3, 3, 3, 2, 2, 2, 1, 0 } },
};
static const arb_deck *toy_preset(TOY_G_ unsigned i) { return i < 2 ? &toy_presets[i] : NULL; }
static unsigned toy_deck_check(TOY_G_ const arb_deck *d, arb_deck_issue *out, unsigned cap)
{
    unsigned n = 0;
    if (d->ncards < 4 || d->ncards > TOY_HAND) arb_deck_issue_add(out, cap, &n, 0, "TOY-DECK", "decks need 4 to %d cards", TOY_HAND);
    for (unsigned i = 0; i < d->ncards && i < ARB_DECK_MAX; i++)
        if (d->cards[i] >= 4) arb_deck_issue_add(out, cap, &n, 0, "TOY-DECK", "card %u is not a toy card", i);
    return n;
}

static void toy_draw(toy_state *s, int seat, arb_events *ev)
{
    toy_player *p = &s->p[seat];
    if (!p->ndeck || p->nhand >= TOY_HAND) return;
    uint8_t uid = p->deck[--p->ndeck];
    p->hand[p->nhand++] = uid;
    arb_events_push(ev, TE_DRAW, seat, 1, uid, 0, 0);
}

static int toy_setup(TOY_G_ void *st, const arb_setup *su, arb_events *ev, arb_error *err)
{
    toy_state *s = st;
    if (su->players < 2 || su->players > 4) return arb_error_set(err, ARB_EILLEGAL, "TOY-PLAYERS", "2 to 4 players");
    memset(s, 0, sizeof *s);
    arb_rng_seed(&s->rng, su->seed);
    s->players = su->players;
    s->first = -1;
    s->winner = -1;
    for (int i = 0; i < su->players; i++) {
        toy_player *p = &s->p[i];
        const arb_deck *d = su->decks[i];
        if (!d || d->ncards < 4) return arb_error_set(err, ARB_EILLEGAL, "TOY-DECK", "decks need 4+ cards");
        for (unsigned k = 0; k < d->ncards; k++) {
            p->pool[k] = d->cards[k];
            p->deck[k] = (uint8_t)k;
        }
        p->ndeck = (uint8_t)d->ncards;
        arb_rng_shuffle(&s->rng, p->deck, p->ndeck, 1);
        toy_draw(s, i, ev);
        toy_draw(s, i, ev);
    }
    return ARB_OK;
}

static arb_decision toy_decide(const void *st)
{
    const toy_state *s = st;
    arb_decision d = { s->active, TD_MAIN, 90000 };
    if (s->over) { d.seat = ARB_SEAT_NONE; d.kind = TD_OVER; d.clock_left_ms = -1; }
    else if (s->kept < s->players) { d.seat = s->kept; d.kind = TD_MULLIGAN; }
    return d;
}

static arb_decision toy_decision(TOY_G_ const void *st) { return toy_decide(st); }

static size_t toy_legal(TOY_G_ const void *st, arb_action *out, size_t cap)
{
    const toy_state *s = st;
    arb_decision d = toy_decide(st);
    size_t n = 0;
    arb_action a;
    memset(&a, 0, sizeof a);
    if (d.seat < 0) return 0;
    a.seat = (int8_t)d.seat;
    if (d.kind == TD_MULLIGAN) {
        a.verb = TV_KEEP;
        if (n < cap) out[n] = a;
        return 1;
    }
    a.verb = TV_END;
    if (n < cap) out[n] = a;
    n++;
    for (unsigned i = 0; i < s->p[d.seat].nhand; i++) {
        a.verb = TV_PLAY;
        a.nargs = 1;
        a.args[0] = s->p[d.seat].hand[i];
        if (n < cap) out[n] = a;
        n++;
    }
    return n;
}

static void toy_finish(toy_state *s, arb_events *ev)
{
    int best = -1, tie = 0;
    for (int i = 0; i < s->players; i++) {
        if (best < 0 || s->p[i].score > s->p[best].score) { best = i; tie = 0; }
        else if (s->p[i].score == s->p[best].score) tie = 1;
    }
    s->over = 1;
    s->winner = tie ? -1 : best;
    s->reason = tie ? 3 : 1;
    arb_events_push(ev, TE_OVER, s->winner, 0, s->reason, (int32_t)(s->turn > TOY_TURNS ? TOY_TURNS : s->turn), 0);
}

static int toy_apply(TOY_G_ void *st, const arb_action *a, arb_events *ev, arb_error *err)
{
    toy_state *s = st;
    if (s->over) return arb_error_set(err, ARB_EOVER, NULL, "the match is over");
    arb_decision d = toy_decide(st);
    if (a->verb == TV_TIMEOUT) {
        if (a->seat != ARB_SEAT_ARBITER) return arb_error_set(err, ARB_EILLEGAL, "TOY-ARBITER", "only the arbiter");
        arb_events_push(ev, TE_TIMEOUT, d.seat, 0, 0, 0, 0);
        s->over = 1;
        s->winner = (d.seat + 1) % s->players;
        s->reason = 2;
        arb_events_push(ev, TE_OVER, s->winner, 0, s->reason, (int32_t)(s->turn > TOY_TURNS ? TOY_TURNS : s->turn), 0);
        return ARB_OK;
    }
    if (a->seat != d.seat) return arb_error_set(err, ARB_EILLEGAL, "TOY-TURN", "seat %d does not owe a decision", a->seat);
    if (a->verb > TV_TIMEOUT) return arb_error_set(err, ARB_EINVAL, NULL, "unknown verb");
    if (d.kind == TD_MULLIGAN) {
        if (a->verb != TV_KEEP) return arb_error_set(err, ARB_EILLEGAL, "TOY-KEEP", "keep first");
        if (++s->kept == s->players) {
            s->first = (int)arb_rng_below(&s->rng, (uint32_t)s->players);
            s->active = s->first;
            s->turn = 1;
            arb_events_push(ev, TE_FIRST, s->first, 0, 0, 0, 0);
        }
        return ARB_OK;
    }
    toy_player *p = &s->p[d.seat];
    if (a->verb == TV_PLAY) {
        int at = -1;
        for (int i = 0; i < p->nhand; i++)
            if (a->nargs == 1 && p->hand[i] == a->args[0]) at = i;
        if (at < 0) return arb_error_set(err, ARB_EILLEGAL, "TOY-HAND", "card %d is not in hand", a->args[0]);
        uint8_t uid = p->hand[at];
        memmove(p->hand + at, p->hand + at + 1, (size_t)(p->nhand - at - 1));
        p->nhand--;
        p->board[p->nboard++] = uid;
        p->score += p->pool[uid] + 1;
        arb_events_push(ev, TE_PLAY, d.seat, 0, uid, p->pool[uid], p->score);
        return ARB_OK;
    }
    if (a->verb == TV_END) {
        toy_draw(s, d.seat, ev);
        s->active = (s->active + 1) % s->players;
        s->turn++;
        if (s->turn > TOY_TURNS) toy_finish(s, ev);
        return ARB_OK;
    }
    return arb_error_set(err, ARB_EILLEGAL, "TOY-VERB", "not now");
}

static uint64_t toy_hash(TOY_G_ const void *st)
{
    const toy_state *s = st;
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
        const toy_player *p = &s->p[i];
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

static int toy_outcome(TOY_G_ const void *st, arb_outcome *o)
{
    const toy_state *s = st;
    o->over = s->over;
    o->winner = s->winner;
    o->reason = (uint16_t)s->reason;
    o->turns = s->turn > TOY_TURNS ? TOY_TURNS : s->turn;
    return s->over;
}

static uint32_t toy_turn(TOY_G_ const void *st) { return ((const toy_state *)st)->turn; }
static const char *toy_phase_name(const void *st)
{
    const toy_state *s = st;
    return s->over ? "over" : s->kept < s->players ? "mulligan" : "main";
}

static const char *toy_phase(TOY_G_ const void *st) { return toy_phase_name(st); }

static void toy_export(TOY_G_ const void *st, int view, arb_tree *t, arb_tnode *root)
{
    const toy_state *s = st;
    arb_tree_add_int(t, root, "turn", s->turn);
    arb_tree_add_int(t, root, "active", s->active);
    arb_tree_add_int(t, root, "first", s->first);
    arb_tree_add_str(t, root, "phase", toy_phase_name(st));
    arb_tnode *pl = arb_tree_add_arr(t, root, "players");
    for (int i = 0; i < s->players; i++) {
        const toy_player *p = &s->p[i];
        arb_tnode *pm = arb_tree_add_map(t, pl, NULL);
        arb_tree_add_int(t, pm, "score", p->score);
        arb_tree_add_int(t, pm, "hand_count", p->nhand);
        if (view == ARB_VIEW_ALL || view == i) {
            arb_tnode *h = arb_tree_add_arr(t, pm, "hand");
            for (int k = 0; k < p->nhand; k++) arb_tree_add_str(t, h, NULL, toy_cards[p->pool[p->hand[k]]].id);
        }
        arb_tree_add_int(t, pm, "deck_count", p->ndeck);
        arb_tnode *b = arb_tree_add_arr(t, pm, "board");
        for (int k = 0; k < p->nboard; k++) arb_tree_add_str(t, b, NULL, toy_cards[p->pool[p->board[k]]].id);
    }
}

/* The event args carry uids; the text needs the pool, which the event does
 * not carry: the toy narrates the uid, as a real engine would narrate a
 * card name it keeps in the event args. */
static int toy_event_text(TOY_G_ const arb_event *e, int view, char *buf, size_t size)
{
    switch (e->type) {
    case TE_DRAW:
        if (view != ARB_VIEW_ALL && view != e->seat) return snprintf(buf, size, "P%d draws a card", e->seat + 1);
        return snprintf(buf, size, "P%d draws card %d", e->seat + 1, e->a);
    case TE_PLAY: return snprintf(buf, size, "P%d plays card %d, score %d", e->seat + 1, e->a, e->c);
    case TE_FIRST: return snprintf(buf, size, "P%d goes first", e->seat + 1);
    case TE_TIMEOUT: return snprintf(buf, size, "P%d ran out of time", e->seat + 1);
    case TE_OVER: return snprintf(buf, size, "the match is over");
    default: return snprintf(buf, size, "?");
    }
}

static int toy_action_text(TOY_G_ const void *st, const arb_action *a, char *buf, size_t size)
{
    const toy_state *s = st;
    if (a->seat == ARB_SEAT_ARBITER) return snprintf(buf, size, "arbiter: timeout");
    if (a->verb == TV_PLAY && a->seat >= 0 && a->seat < s->players && a->args[0] >= 0 && a->args[0] < ARB_DECK_MAX)
        return snprintf(buf, size, "P%d plays %s", a->seat + 1, toy_cards[s->p[a->seat].pool[a->args[0]] & 3].name);
    return snprintf(buf, size, "P%d %s", a->seat + 1, a->verb < 4 ? toy_verbs[a->verb].name : "?");
}

static int toy_load(TOY_G_ void *st, const arb_tnode *pos, const arb_setup *su, arb_error *err)
{
    (void)st; (void)pos; (void)su;
    return arb_error_set(err, ARB_EUNSUPPORTED, NULL, "no positions");
}

static const toy_game_type toy_game = {
    .contract = TOY_GAME_CONTRACT, .id = "toy", .title = "Toy Game", .rules_version = "toy-1", .engine_version = "1",
    .min_players = 2, .max_players = 4, .state_size = sizeof(toy_state),
    .verbs = toy_verbs, .nverbs = 4,
    .decision_names = toy_decisions, .ndecision_names = 3,
    .event_names = toy_events, .nevent_names = 5,
    .outcome_reasons = toy_reasons, .noutcome_reasons = 4,
    .ncards = 4, .card = toy_card,
    .deck_check = toy_deck_check, .npresets = 2, .preset = toy_preset,
    .setup = toy_setup, .load_position = toy_load,
    .decision = toy_decision, .legal = toy_legal, .apply = toy_apply,
    .hash = toy_hash, .outcome = toy_outcome, .turn = toy_turn, .phase = toy_phase,
    .export_state = toy_export, .event_text = toy_event_text, .action_text = toy_action_text,
};

#endif
