/* check_catalyst.c — the CATALYST engine: unit tests per catalog section
 * (setup, mulligans, Start Phase, each Action, the free things, End Phase,
 * reactions, victory), NEG cases asserting the rule ID and an untouched
 * state (engine_kit.h), the position loader (the `rules` case), and a
 * property test over ARB_TEST_GAMES seeded random and greedy 2-, 3- and
 * 4-player games (the `property` case, engine_kit_play.h). Scenarios are built by
 * editing the engine's plain state (the internal header), which is exactly
 * what a position describes. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/agent.h"
#include "arbiter/deck.h"
#include "arbiter/game.h"
#include "arbiter/match.h"
#include "games/catalyst/catalyst.h"
#include "cli_run.h"
#include "engine_kit_play.h"

extern const arb_game arb_game_catalyst;
static const arb_game *G = &arb_game_catalyst;

/* ------------------------------------------------------------- scenario */

enum {
    U_CAT, U_SENT, U_SNIPER, U_SIEGE, U_DRONE, U_TOTEM, U_BULWARK, U_MOTE, U_FLASH, U_LANCER, U_OVER,
    U_CACHE, U_FILL /* 12..19: Shard Motes */
};
#define NTEST 20

static int def_index(const char *id)
{
    for (unsigned i = 0; i < CAT_NDEFS; i++)
        if (strcmp(arb_catalyst__defs[i].card.id, id) == 0) return (int)i;
    return -1;
}

static arb_deck test_deck(const char *catalyst)
{
    static const char *ids[] = { "shard-sentinel", "vault-sniper", "siege-engine", "scout-drone", "ember-totem",
                                 "bulwark", "shard-mote", "flash-barrier", "lancer", "overcharge", "shard-cache" };
    arb_deck d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "test");
    d.cards[d.ncards++] = (uint16_t)def_index(catalyst);
    for (unsigned i = 0; i < sizeof ids / sizeof ids[0]; i++) d.cards[d.ncards++] = (uint16_t)def_index(ids[i]);
    while (d.ncards < NTEST) d.cards[d.ncards++] = (uint16_t)def_index("shard-mote");
    return d;
}

static arb_deck DK[ARB_MAX_SEATS];
static arb_events EV;
static arb_event EVBUF[1024];

static void ev_reset(void)
{
    EV.buf = EVBUF;
    EV.cap = 1024;
    EV.n = EV.dropped = 0;
}

static void do_setup(cat_state *s, int players, uint64_t seed)
{
    arb_setup su;
    memset(&su, 0, sizeof su);
    su.seed = seed;
    su.players = players;
    for (int i = 0; i < players; i++) {
        DK[i] = test_deck("prime-catalyst");
        su.decks[i] = &DK[i];
    }
    arb_options_set(&su.options, "free_decks", 1);
    arb_error err = ARB_ERROR_INIT;
    ev_reset();
    ck_assert_int_eq(G->setup(G, s, &su, &EV, &err), ARB_OK);
}

/* Move uid of seat to a zone (at pos on the field, with flags). */
static void mv(cat_state *s, int seat, int uid, int zone, int pos, unsigned flags)
{
    cat_player *pl = &s->p[seat];
    cat_card *c = &pl->c[uid];
    uint8_t *arr = NULL, *n = NULL;
    switch (c->zone) {
    case CAT_Z_VAULT: arr = pl->vault; n = &pl->nvault; break;
    case CAT_Z_HAND: arr = pl->hand; n = &pl->nhand; break;
    case CAT_Z_ARCHIVE: arr = pl->archive; n = &pl->narchive; break;
    case CAT_Z_FIELD: pl->field[c->pos] = CAT_NOCARD; break;
    default: break;
    }
    if (arr)
        for (unsigned i = 0; i < *n; i++)
            if (arr[i] == uid) {
                memmove(arr + i, arr + i + 1, (size_t)(*n - i - 1));
                (*n)--;
                break;
            }
    memset(c, 0, sizeof *c);
    c->def = (uint8_t)DK[seat].cards[uid];
    c->zone = (uint8_t)zone;
    switch (zone) {
    case CAT_Z_VAULT: pl->vault[pl->nvault++] = (uint8_t)uid; break;
    case CAT_Z_HAND: pl->hand[pl->nhand++] = (uint8_t)uid; break;
    case CAT_Z_ARCHIVE: pl->archive[pl->narchive++] = (uint8_t)uid; break;
    case CAT_Z_FIELD:
        ck_assert_int_eq(pl->field[pos], CAT_NOCARD);
        pl->field[pos] = (uint8_t)uid;
        c->pos = (uint8_t)pos;
        c->flags = (uint8_t)flags;
        break;
    }
}

/* A quiet Action Phase: seat 0 active, turn 3, every hand back in the
 * Vault, 3 Actions, no Shards; Catalysts at B2. */
static void scen(cat_state *s, int players)
{
    do_setup(s, players, 7);
    for (int i = 0; i < players; i++) {
        while (s->p[i].nhand) mv(s, i, s->p[i].hand[0], CAT_Z_VAULT, 0, 0);
        s->p[i].shards = 0;
    }
    s->turn = 3;
    s->first = 1;
    s->active = 0;
    s->phase = CAT_PH_ACTION;
    s->dkind = CAT_D_ACTION;
    s->dseat = 0;
    s->actions = 3;
}

static arb_action act(int seat, int verb, int nargs, int x, int y, int z)
{
    arb_action a;
    memset(&a, 0, sizeof a);
    a.seat = (int8_t)seat;
    a.verb = (uint8_t)verb;
    a.nargs = (uint8_t)nargs;
    a.args[0] = x;
    a.args[1] = y;
    a.args[2] = z;
    return a;
}

/* Listed by legal() and accepted; refused with exactly this rule, state
 * bytes and hash untouched, no event, not in legal() (engine_kit.h). */
#define OK(s, seat, verb, n, x, y, z)                                                                           \
    do {                                                                                                        \
        arb_action a_ = act(seat, verb, n, x, y, z);                                                            \
        ck_assert_msg(ek_legal(G, s, &a_), "%s should be legal", arb_catalyst__verbs[verb].name);               \
        ev_reset();                                                                                             \
        ek_ok(G, s, &a_, &EV);                                                                                  \
    } while (0)

#define NEG(s, seat, verb, n, x, y, z, rule_)                                                                   \
    do {                                                                                                        \
        arb_action a_ = act(seat, verb, n, x, y, z);                                                            \
        ek_reject(G, s, &a_, rule_, NULL);                                                                      \
    } while (0)

static int count_events(int type)
{
    int n = 0;
    for (unsigned i = 0; i < EV.n; i++) n += EV.buf[i].type == type;
    return n;
}

static int event_index(int type)
{
    for (unsigned i = 0; i < EV.n; i++)
        if (EV.buf[i].type == type) return (int)i;
    return -1;
}

/* ------------------------------------------------------------ 2.A / 2.B */

START_TEST(setup_basics)
{
    cat_state s;
    do_setup(&s, 3, 42);
    ck_assert_int_eq(s.phase, CAT_PH_MULLIGAN);
    ck_assert_int_eq(s.dkind, CAT_D_MULLIGAN);
    ck_assert_int_eq(s.dseat, s.first);                        /* G13 */
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(s.p[i].nhand, CAT_START_HAND);        /* CAT-SETUP-DRAW6 */
        ck_assert_int_eq(s.p[i].nvault, NTEST - 1 - CAT_START_HAND);
        ck_assert_int_eq(s.p[i].field[4], U_CAT);              /* CAT-SETUP-CATALYST */
        ck_assert_int_eq(s.p[i].c[U_CAT].flags, 0);            /* not Unstable (G04) */
    }
    /* CAT-SETUP-FIRST: the seed decides, reproducibly; every seat can start. */
    int seen[3] = { 0 };
    for (uint64_t seed = 0; seed < 60; seed++) {
        cat_state a, b;
        do_setup(&a, 3, seed);
        do_setup(&b, 3, seed);
        ck_assert_int_eq(a.first, b.first);
        ck_assert(G->hash(G, &a) == G->hash(G, &b));
        seen[a.first] = 1;
    }
    ck_assert(seen[0] && seen[1] && seen[2]);
    /* CAT-SETUP-SHUFFLE: different seeds, different Vault orders. */
    cat_state a, b;
    do_setup(&a, 2, 1);
    do_setup(&b, 2, 2);
    ck_assert(memcmp(a.p[0].vault, b.p[0].vault, a.p[0].nvault) != 0 || memcmp(a.p[0].hand, b.p[0].hand, 6) != 0);
}
END_TEST

START_TEST(setup_rejects)
{
    cat_state s;
    arb_setup su;
    memset(&su, 0, sizeof su);
    arb_error err = ARB_ERROR_INIT;
    su.players = 5;
    ck_assert_int_eq(G->setup(G, &s, &su, NULL, &err), ARB_EILLEGAL);
    ck_assert_str_eq(err.rule, "CAT-TURN-CLOCKWISE");
    su.players = 2;
    arb_deck d = test_deck("prime-catalyst");
    su.decks[0] = su.decks[1] = &d;
    ck_assert_int_eq(G->setup(G, &s, &su, NULL, &err), ARB_EILLEGAL); /* 19-card Vault, strict decks */
    ck_assert_str_eq(err.rule, "CAT-DECK-SIZE");
    su.decks[0] = su.decks[1] = G->preset(G, 0);
    ck_assert_int_eq(G->setup(G, &s, &su, NULL, &err), ARB_OK);
    su.decks[1] = NULL; /* only the API can leave a seat without a deck */
    ck_assert_int_eq(G->setup(G, &s, &su, NULL, &err), ARB_EINVAL);
    ck_assert_msg(strstr(err.msg, "seat 1 has no deck") != NULL, "message: %s", err.msg);
}
END_TEST

START_TEST(turn_order_clockwise)
{
    cat_state s;
    scen(&s, 3);
    int order[6];
    for (int k = 0; k < 6; k++) {
        order[k] = s.active;
        OK(&s, s.active, CAT_V_END, 0, 0, 0, 0);               /* CAT-END-PASS */
        while (s.dkind != CAT_D_ACTION) {                       /* any Start-Phase decisions */
            arb_action buf[64];
            ck_assert_uint_gt(G->legal(G, &s, buf, 64), 0);
            ck_assert_int_eq(G->apply(G, &s, &buf[0], NULL, NULL), ARB_OK);
        }
    }
    int want[6] = { 0, 1, 2, 0, 1, 2 };
    for (int k = 0; k < 6; k++) ck_assert_int_eq(order[k], want[k]); /* CAT-TURN-CLOCKWISE */
    /* CAT-TURN-ACTIVE: a non-active seat cannot act. */
    NEG(&s, (s.active + 1) % 3, CAT_V_DRAW, 0, 0, 0, 0, "CAT-TURN-ACTIVE");
}
END_TEST

START_TEST(mulligans)
{
    cat_state s;
    do_setup(&s, 2, 5);
    int f = s.first, o = 1 - f;
    uint8_t vault_before = s.p[f].nvault;
    NEG(&s, o, CAT_V_MULLIGAN, 0, 0, 0, 0, "CAT-MULL-OPTION");   /* G13: first player decides first */
    OK(&s, f, CAT_V_MULLIGAN, 0, 0, 0, 0);                        /* CAT-MULL-FIRST: 6 new, keep all */
    ck_assert_int_eq(s.p[f].nhand, 6);
    ck_assert_int_eq(s.p[f].nvault, vault_before);
    ck_assert_int_eq(s.dkind, CAT_D_MULLIGAN);
    OK(&s, f, CAT_V_MULLIGAN, 0, 0, 0, 0);                        /* CAT-MULL-SECOND: keep 5 of 6 */
    ck_assert_int_eq(s.dkind, CAT_D_MULL_KEEP);
    NEG(&s, f, CAT_V_KEEP, 0, 0, 0, 0, "CAT-MULL-SECOND");
    for (int k = 0; k < 5; k++) OK(&s, f, CAT_V_KEEP_CARD, 1, s.p[f].hand[k], 0, 0);
    ck_assert_int_eq(s.p[f].nhand, 5);
    ck_assert_int_eq(s.p[f].nvault, vault_before + 1);            /* G13: back to the Vault */
    ck_assert_int_eq(s.dkind, CAT_D_MULLIGAN);
    NEG(&s, f, CAT_V_KEEP_CARD, 1, s.p[f].hand[0], 0, 0, "CAT-MULL-SECOND"); /* a 6th keep */
    OK(&s, f, CAT_V_MULLIGAN, 0, 0, 0, 0);                        /* CAT-MULL-THIRD: keep 4 */
    ck_assert_int_eq(s.p[f].nhand, 6);
    for (int k = 0; k < 4; k++) OK(&s, f, CAT_V_KEEP_CARD, 1, s.p[f].hand[k], 0, 0);
    ck_assert_int_eq(s.p[f].nhand, 4);
    NEG(&s, f, CAT_V_KEEP_CARD, 1, s.p[f].hand[0], 0, 0, "CAT-MULL-THIRD");
    NEG(&s, f, CAT_V_MULLIGAN, 0, 0, 0, 0, "CAT-MULL-MAX");
    OK(&s, f, CAT_V_KEEP, 0, 0, 0, 0);
    ck_assert_int_eq(s.dseat, o);
    uint8_t hand[8];
    memcpy(hand, s.p[o].hand, 6);
    OK(&s, o, CAT_V_KEEP, 0, 0, 0, 0);                            /* CAT-MULL-KEEP */
    ck_assert_int_eq(memcmp(hand, s.p[o].hand, 6), 0);
    /* The game begins: the first player's turn 1, no Start-Phase draw. */
    ck_assert_int_eq(s.active, f);
    ck_assert_int_eq(s.phase, CAT_PH_ACTION);
    ck_assert_int_eq(s.p[f].nhand, 4);                            /* CAT-SETUP-SKIPDRAW */
    ck_assert_int_eq(count_events(CAT_E_SKIP_DRAW), 1);
}
END_TEST

START_TEST(mulligan_keep_choice_is_kept)
{
    cat_state s;
    do_setup(&s, 2, 9);
    int f = s.first;
    OK(&s, f, CAT_V_MULLIGAN, 0, 0, 0, 0);
    OK(&s, f, CAT_V_MULLIGAN, 0, 0, 0, 0);
    uint8_t chosen[5];
    for (int k = 0; k < 5; k++) chosen[k] = s.p[f].hand[5 - k];
    for (int k = 0; k < 5; k++) OK(&s, f, CAT_V_KEEP_CARD, 1, chosen[k], 0, 0);
    for (int k = 0; k < 5; k++) ck_assert_int_eq(s.p[f].c[chosen[k]].zone, CAT_Z_HAND);
    NEG(&s, f, CAT_V_KEEP_CARD, 1, 99, 0, 0, "CAT-MULL-SECOND");
}
END_TEST

START_TEST(skip_draw_only_first_player_turn1)
{
    cat_state s;
    do_setup(&s, 2, 3);
    int f = s.first, o = 1 - f;
    OK(&s, f, CAT_V_KEEP, 0, 0, 0, 0);
    OK(&s, o, CAT_V_KEEP, 0, 0, 0, 0);
    ck_assert_int_eq(s.p[f].nhand, 6);
    OK(&s, f, CAT_V_DRAW, 0, 0, 0, 0);                            /* the Action Draw still works (G25) */
    ck_assert_int_eq(s.p[f].nhand, 7);
    OK(&s, f, CAT_V_END, 0, 0, 0, 0);
    ck_assert_int_eq(s.active, o);
    ck_assert_int_eq(s.p[o].nhand, 7);                            /* second player draws on turn 1 */
    OK(&s, o, CAT_V_END, 0, 0, 0, 0);
    ck_assert_int_eq(s.active, f);
    ck_assert_int_eq(s.p[f].nhand, 8);                            /* first player's turn 2 draws */
}
END_TEST

/* ------------------------------------------------------------------ 2.C */

static void to_next_turn_of_0(cat_state *s)
{
    /* seat 0 active with a fresh Start Phase: end seat 1's turn. */
    s->active = 1;
    s->dseat = 1;
    OK(s, 1, CAT_V_END, 0, 0, 0, 0);
}

START_TEST(start_phase_order)
{
    cat_state s;
    scen(&s, 2);
    mv(&s, 0, U_SENT, CAT_Z_FIELD, 0, CAT_F_ACTIVATED);
    mv(&s, 0, U_LANCER, CAT_Z_FIELD, 1, CAT_F_ACTIVATED);
    mv(&s, 0, U_SNIPER, CAT_Z_FIELD, 3, 0);
    mv(&s, 1, U_SENT, CAT_Z_FIELD, 0, CAT_F_ACTIVATED);
    to_next_turn_of_0(&s);
    ck_assert_int_eq(s.phase, CAT_PH_START);
    ck_assert_int_eq(s.dkind, CAT_D_DEACTIVATE);
    NEG(&s, 0, CAT_V_DEACTIVATE, 1, U_SNIPER, 0, 0, "CAT-START-DEACT-ONCE");  /* already Deactivated */
    NEG(&s, 0, CAT_V_DEACTIVATE, 1, U_DRONE, 0, 0, "CAT-START-DEACT-OWN");   /* not in play */
    NEG(&s, 0, CAT_V_DRAW, 0, 0, 0, 0, "CAT-TURN-PHASES");
    OK(&s, 0, CAT_V_DEACTIVATE, 1, U_SENT, 0, 0);                              /* CAT-START-DEACT */
    NEG(&s, 0, CAT_V_DEACTIVATE, 1, U_SENT, 0, 0, "CAT-START-DEACT-ONCE");
    ck_assert(s.p[0].c[U_LANCER].flags & CAT_F_ACTIVATED);                     /* optional */
    ck_assert(s.p[1].c[U_SENT].flags & CAT_F_ACTIVATED);                       /* only your cards */
    OK(&s, 0, CAT_V_DONE, 0, 0, 0, 0);
    ck_assert(s.p[0].c[U_LANCER].flags & CAT_F_ACTIVATED);                     /* CAT-START-DEACT-OPTIONAL */
    /* Start effects (+3 from Prime Catalyst) come before Upkeep, which can be paid with them (G03). */
    ck_assert_int_eq(s.dkind, CAT_D_UPKEEP);
    ck_assert_int_eq(s.p[0].shards, 3);
    ck_assert_int_eq(count_events(CAT_E_GAIN), 1);
    ck_assert_int_eq(EV.buf[event_index(CAT_E_GAIN)].seat, 0);                 /* CAT-START-EFFECTS-OWN */
    uint8_t hand = s.p[0].nhand;
    OK(&s, 0, CAT_V_PAY, 1, U_SNIPER, 0, 0);                                   /* CAT-START-UPKEEP-PAY */
    ck_assert_int_eq(s.p[0].shards, 2);
    ck_assert_int_eq(s.p[0].c[U_SNIPER].zone, CAT_Z_FIELD);
    ck_assert_int_eq(s.p[0].nhand, hand + 1);                                  /* CAT-START-DRAW */
    ck_assert_int_eq(s.phase, CAT_PH_ACTION);
    ck_assert_int_eq(s.actions, 3);                                            /* CAT-ACT-THREE */
    ck_assert(event_index(CAT_E_UPKEEP_PAID) < event_index(CAT_E_DRAW));      /* CAT-START-ORDER */
    NEG(&s, 0, CAT_V_DEACTIVATE, 1, U_LANCER, 0, 0, "CAT-START-DEACT-WHEN");
}
END_TEST

START_TEST(facedown_deactivate_stays_hidden)
{
    cat_state s;
    scen(&s, 2);
    mv(&s, 0, U_SNIPER, CAT_Z_FIELD, 2, CAT_F_FACEDOWN | CAT_F_ACTIVATED);
    to_next_turn_of_0(&s);
    OK(&s, 0, CAT_V_DEACTIVATE, 1, U_SNIPER, 0, 0);
    int i = event_index(CAT_E_DEACTIVATE);
    ck_assert_int_ge(i, 0);
    ck_assert_int_eq(EV.buf[i].a, -1);            /* no UID: it would name the card */
    ck_assert_int_eq(EV.buf[i].b, -1);
    ck_assert_int_eq(EV.buf[i].c, 2);
    ck_assert_int_eq(count_events(CAT_E_UPKEEP_PAID), 0); /* no printed Upkeep face down (G11) */
    ck_assert_int_eq(s.phase, CAT_PH_ACTION);
}
END_TEST

START_TEST(upkeep_archive)
{
    cat_state s;
    scen(&s, 2);
    mv(&s, 0, U_SNIPER, CAT_Z_FIELD, 3, 0);  /* Upkeep 1 */
    mv(&s, 0, U_SIEGE, CAT_Z_FIELD, 1, 0);   /* Upkeep 2 */
    to_next_turn_of_0(&s);
    ck_assert_int_eq(s.p[0].shards, 3);
    ck_assert_int_eq(s.dkind, CAT_D_UPKEEP);
    OK(&s, 0, CAT_V_DECLINE, 1, U_SNIPER, 0, 0);                           /* CAT-START-UPKEEP-WILLNOT */
    ck_assert_int_eq(s.p[0].c[U_SNIPER].zone, CAT_Z_ARCHIVE);              /* CAT-ZONE-ARCHIVE */
    ck_assert_int_eq(s.p[0].shards, 3);
    ck_assert_int_eq(s.dkind, CAT_D_UPKEEP);
    NEG(&s, 0, CAT_V_PAY, 1, U_SNIPER, 0, 0, "CAT-START-UPKEEP-PAY");
    OK(&s, 0, CAT_V_PAY, 1, U_SIEGE, 0, 0);
    ck_assert_int_eq(s.p[0].shards, 1);
    /* Next time: 1 + 3 = 4 Shards, Siege costs 2 → pay; then with 0 Shards it cannot. */
    scen(&s, 2);
    mv(&s, 0, U_SIEGE, CAT_Z_FIELD, 1, 0);
    s.p[0].c[U_CAT].def = (uint8_t)def_index("tide-catalyst"); /* +2 */
    DK[0].cards[U_CAT] = s.p[0].c[U_CAT].def;
    mv(&s, 0, U_SNIPER, CAT_Z_FIELD, 3, 0);
    mv(&s, 0, U_LANCER, CAT_Z_FIELD, 2, 0);
    s.p[0].shards = 0;
    to_next_turn_of_0(&s);
    ck_assert_int_eq(s.dkind, CAT_D_UPKEEP);                               /* 2 Shards: Siege or Sniper */
    OK(&s, 0, CAT_V_PAY, 1, U_SIEGE, 0, 0);                                /* 0 left: Sniper cannot be paid */
    ck_assert_int_eq(s.p[0].c[U_SNIPER].zone, CAT_Z_ARCHIVE);              /* CAT-START-UPKEEP-CANNOT */
    ck_assert_int_eq(count_events(CAT_E_UPKEEP_ARCHIVED), 1);
    ck_assert_int_eq(s.phase, CAT_PH_ACTION);
}
END_TEST

/* ------------------------------------------------------------------ 2.D */

START_TEST(actions_draw_limit)
{
    cat_state s;
    scen(&s, 2);
    for (int k = 0; k < 3; k++) OK(&s, 0, CAT_V_DRAW, 0, 0, 0, 0);          /* CAT-ACT-ANYORDER, CAT-DRAW-ACTION */
    ck_assert_int_eq(s.p[0].nhand, 3);
    ck_assert_int_eq(s.actions, 0);
    NEG(&s, 0, CAT_V_DRAW, 0, 0, 0, 0, "CAT-ACT-LIMIT");
    OK(&s, 0, CAT_V_END, 0, 0, 0, 0);
    OK(&s, 1, CAT_V_END, 0, 0, 0, 0);
    ck_assert_int_eq(s.actions, 3);                                          /* CAT-ACT-NOCARRY */
}
END_TEST

START_TEST(deploy)
{
    cat_state s;
    scen(&s, 2);
    mv(&s, 0, U_SENT, CAT_Z_HAND, 0, 0);
    mv(&s, 0, U_SIEGE, CAT_Z_HAND, 0, 0);
    mv(&s, 0, U_SNIPER, CAT_Z_HAND, 0, 0);
    mv(&s, 0, U_FLASH, CAT_Z_HAND, 0, 0);
    s.p[0].shards = 2;
    NEG(&s, 0, CAT_V_DEPLOY, 2, U_SNIPER, 3, 0, "CAT-DEPLOY-SHARDS");
    NEG(&s, 0, CAT_V_DEPLOY, 2, U_SENT, 3, 0, "CAT-ZONE-BATTLEFIELD");       /* not on its map (G05) */
    NEG(&s, 0, CAT_V_DEPLOY, 2, U_SENT, 4, 0, "CAT-ZONE-BATTLEFIELD");       /* occupied by the Catalyst */
    NEG(&s, 0, CAT_V_DEPLOY, 2, U_SENT, 9, 0, "CAT-DEPLOY-FACEUP");          /* no such position */
    NEG(&s, 0, CAT_V_DEPLOY, 2, U_FLASH, 0, 0, "CAT-FREE-IMPULSE");
    OK(&s, 0, CAT_V_DEPLOY, 2, U_SENT, 0, 0);                                /* CAT-DEPLOY-FACEUP */
    ck_assert_int_eq(s.actions, 2);
    ck_assert_int_eq(s.p[0].shards, 0);
    ck_assert_int_eq(s.p[0].field[0], U_SENT);
    ck_assert(s.p[0].c[U_SENT].flags & CAT_F_UNSTABLE);                      /* CAT-DEPLOY-UNSTABLE */
    mv(&s, 1, U_SENT, CAT_Z_FIELD, 0, 0);
    NEG(&s, 0, CAT_V_STRIKE, 3, U_SENT, 1, 0, "CAT-DEPLOY-NOACTIVATE");      /* CAT-DEPLOY-NOACTIVATE */
    NEG(&s, 0, CAT_V_DEPLOY_FD, 2, U_SIEGE, 1, 0, "CAT-DEPLOY-FACEDOWN");    /* 0 Shards */
    s.p[0].shards = 10;
    s.actions = 1;
    NEG(&s, 0, CAT_V_DEPLOY, 2, U_SIEGE, 1, 0, "CAT-DEPLOY-ACTIONCOST");     /* AC 2, 1 left */
    OK(&s, 0, CAT_V_DEPLOY_FD, 2, U_SIEGE, 3, 0);                            /* CAT-DEPLOY-FACEDOWN: anywhere */
    ck_assert_int_eq(s.actions, 0);
    ck_assert_int_eq(s.p[0].shards, 9);
    ck_assert_int_eq(s.p[0].c[U_SIEGE].flags, CAT_F_FACEDOWN | CAT_F_UNSTABLE);
    NEG(&s, 0, CAT_V_REINFORCE, 1, U_SIEGE, 0, 0, "CAT-DEPLOY-NOACTIVATE");
    NEG(&s, 0, CAT_V_DEPLOY_FD, 2, U_SNIPER, 5, 0, "CAT-ACT-LIMIT");
    s.actions = 3;
    OK(&s, 0, CAT_V_DEPLOY, 2, U_SNIPER, 5, 0);
    s.actions = 3;
    mv(&s, 0, U_SIEGE, CAT_Z_HAND, 0, 0);
    OK(&s, 0, CAT_V_DEPLOY, 2, U_SIEGE, 1, 0);                               /* CAT-DEPLOY-ACTIONCOST */
    ck_assert_int_eq(s.actions, 1);
}
END_TEST

START_TEST(abilities)
{
    cat_state s;
    scen(&s, 2);
    mv(&s, 0, U_DRONE, CAT_Z_FIELD, 0, CAT_F_UNSTABLE);
    mv(&s, 0, U_SENT, CAT_Z_FIELD, 1, 0);
    OK(&s, 0, CAT_V_ABILITY, 2, U_DRONE, 0, 0);                              /* CAT-ABILITY-ACTION */
    ck_assert_int_eq(s.actions, 2);
    ck_assert_int_eq(s.p[0].shards, 1);
    OK(&s, 0, CAT_V_ABILITY, 2, U_DRONE, 1, 0);                              /* CAT-FREE-ABILITY */
    ck_assert_int_eq(s.actions, 2);
    ck_assert_int_eq(s.p[0].shards, 0);
    ck_assert_int_eq(arb_catalyst__power(&s.p[0], U_DRONE), 2);
    NEG(&s, 0, CAT_V_ABILITY, 2, U_DRONE, 1, 0, "CAT-FREE-ABILITY");        /* no Shard */
    NEG(&s, 0, CAT_V_ABILITY, 2, U_SENT, 0, 0, "CAT-ABILITY-ACTION");        /* no such ability */
    s.actions = 0;
    NEG(&s, 0, CAT_V_ABILITY, 2, U_DRONE, 0, 0, "CAT-ABILITY-ACTION");
    s.p[0].shards = 1;
    OK(&s, 0, CAT_V_ABILITY, 2, U_DRONE, 1, 0);                              /* CAT-FREE-NOACTIONS */
    OK(&s, 0, CAT_V_END, 0, 0, 0, 0);
    ck_assert_int_eq(arb_catalyst__power(&s.p[0], U_DRONE), 1);              /* CAT-END-CLEANUP-THISTURN */
}
END_TEST

START_TEST(strike)
{
    cat_state s;
    scen(&s, 3);
    mv(&s, 0, U_SENT, CAT_Z_FIELD, 0, 0);      /* P2 R1 at F1 */
    mv(&s, 0, U_SNIPER, CAT_Z_FIELD, 3, 0);    /* P3 R3 at B1 */
    mv(&s, 0, U_BULWARK, CAT_Z_FIELD, 1, 0);   /* P0 */
    mv(&s, 1, U_SENT, CAT_Z_FIELD, 1, 0);      /* H3 at F2 */
    mv(&s, 1, U_LANCER, CAT_Z_FIELD, 2, 0);    /* at F3 */
    mv(&s, 2, U_SENT, CAT_Z_FIELD, 0, 0);
    NEG(&s, 0, CAT_V_STRIKE, 3, U_SENT, 1, 2, "CAT-STRIKE-RANGE");           /* F1→F3: distance 2 */
    NEG(&s, 0, CAT_V_STRIKE, 3, U_SENT, 0, 1, "CAT-STRIKE");                 /* own card (G21) */
    NEG(&s, 0, CAT_V_STRIKE, 3, U_SENT, 1, 5, "CAT-STRIKE");                 /* nobody at B3 */
    NEG(&s, 0, CAT_V_STRIKE, 3, U_BULWARK, 1, 1, "CAT-STRIKE");              /* no Power */
    NEG(&s, 0, CAT_V_STRIKE, 3, U_DRONE, 1, 1, "CAT-STRIKE-BATTLEFIELD");    /* not in play */
    OK(&s, 0, CAT_V_STRIKE, 3, U_SENT, 1, 1);                                /* CAT-STRIKE */
    ck_assert(s.p[0].c[U_SENT].flags & CAT_F_ACTIVATED);
    ck_assert_int_eq(s.actions, 2);
    ck_assert_int_eq(s.dkind, CAT_D_REACTION);                               /* G10: target's controller */
    ck_assert_int_eq(s.dseat, 1);
    NEG(&s, 2, CAT_V_PASS, 0, 0, 0, 0, "CAT-FREE-IMPULSE-REACTION");
    NEG(&s, 0, CAT_V_DRAW, 0, 0, 0, 0, "CAT-FREE-IMPULSE-REACTION");
    OK(&s, 1, CAT_V_PASS, 0, 0, 0, 0);
    ck_assert_int_eq(s.dkind, CAT_D_REACTION);                               /* passes clockwise to seat 2 */
    ck_assert_int_eq(s.dseat, 2);
    ck_assert_int_eq(s.p[1].c[U_SENT].damage, 0);                            /* not resolved yet */
    OK(&s, 2, CAT_V_PASS, 0, 0, 0, 0);
    ck_assert_int_eq(s.p[1].c[U_SENT].damage, 2);
    ck_assert_int_eq(s.dkind, CAT_D_ACTION);
    NEG(&s, 0, CAT_V_STRIKE, 3, U_SENT, 1, 1, "CAT-STRIKE-ACTIVATED");
    OK(&s, 0, CAT_V_STRIKE, 3, U_SNIPER, 1, 1);                              /* B1→F2: 1+0+1 = 2 ≤ 3 */
    OK(&s, 1, CAT_V_PASS, 0, 0, 0, 0);
    OK(&s, 2, CAT_V_PASS, 0, 0, 0, 0);
    ck_assert_int_eq(s.p[1].c[U_SENT].zone, CAT_Z_ARCHIVE);                  /* destroyed at once (G07) */
    ck_assert_int_eq(count_events(CAT_E_DESTROYED), 1);
    s.p[0].c[U_SNIPER].flags = 0;
    OK(&s, 0, CAT_V_STRIKE, 3, U_SNIPER, 2, 0);                              /* any opponent (G21) */
    ck_assert_int_eq(s.dseat, 1);                                            /* window from the active seat on */
    OK(&s, 1, CAT_V_PASS, 0, 0, 0, 0);
    ck_assert_int_eq(s.dseat, 2);
    OK(&s, 2, CAT_V_PASS, 0, 0, 0, 0);                        /* 3 ≥ 3: destroyed */
    ck_assert_int_eq(s.p[2].c[U_SENT].zone, CAT_Z_ARCHIVE);
    {   /* a Strike at a seat that left the game says so (G21), before looking for its card */
        cat_state d;
        scen(&d, 3);
        mv(&d, 0, U_LANCER, CAT_Z_FIELD, 1, 0);  /* lancer at F2 (Range 1) */
        mv(&d, 2, 0, CAT_Z_ARCHIVE, 0, 0);       /* seat 2 lost: its Catalyst Archived */
        d.p[2].alive = 0;
        NEG(&d, 0, CAT_V_STRIKE, 3, U_LANCER, 2, 4, "CAT-STRIKE");
        arb_action a = act(0, CAT_V_STRIKE, 3, U_LANCER, 2, 4);
        arb_error e = ARB_ERROR_INIT;
        ck_assert_int_eq(G->apply(G, &d, &a, NULL, &e), ARB_EILLEGAL);
        ck_assert_msg(strstr(e.msg, "seat 2 has left the game") != NULL, "message: %s", e.msg);
    }
}
END_TEST

START_TEST(reposition_retreat)
{
    cat_state s;
    scen(&s, 2);
    mv(&s, 0, U_SENT, CAT_Z_FIELD, 1, CAT_F_UNSTABLE);
    mv(&s, 0, U_SIEGE, CAT_Z_FIELD, 2, 0);
    mv(&s, 0, U_LANCER, CAT_Z_FIELD, 0, 0);
    NEG(&s, 0, CAT_V_MOVE, 2, U_SENT, 3, 0, "CAT-REPOSITION-MOVE");          /* B1 not on the map */
    NEG(&s, 0, CAT_V_MOVE, 2, U_SENT, 2, 0, "CAT-REPOSITION-MOVE");          /* occupied */
    OK(&s, 0, CAT_V_SWAP, 2, U_SENT, U_SIEGE, 0);                            /* CAT-REPOSITION-SWAP */
    ck_assert_int_eq(s.p[0].field[2], U_SENT);
    ck_assert_int_eq(s.p[0].field[1], U_SIEGE);
    OK(&s, 0, CAT_V_MOVE, 2, U_SIEGE, 5, 0);                                 /* Siege F2 → B3 */
    NEG(&s, 0, CAT_V_SWAP, 2, U_SENT, U_SIEGE, 0, "CAT-REPOSITION-SWAP");    /* Sentinel would be at B3 */
    OK(&s, 0, CAT_V_MOVE, 2, U_SENT, 1, 0);                                  /* CAT-REPOSITION-MOVE, Unstable ok (G24) */
    ck_assert_int_eq(s.actions, 0);
    s.actions = 3;
    s.p[0].c[U_LANCER].damage = 1;
    OK(&s, 0, CAT_V_RETREAT, 1, U_LANCER, 0, 0);                             /* CAT-RETREAT */
    ck_assert_int_eq(s.p[0].c[U_LANCER].zone, CAT_Z_HAND);
    ck_assert_int_eq(s.p[0].c[U_LANCER].damage, 0);
    ck_assert_int_eq(s.p[0].field[0], CAT_NOCARD);
    ck_assert_int_eq(s.actions, 2);
    NEG(&s, 0, CAT_V_RETREAT, 1, U_CAT, 0, 0, "CAT-RETREAT");                /* G04 */
    NEG(&s, 0, CAT_V_RETREAT, 1, U_LANCER, 0, 0, "CAT-RETREAT");             /* not in play */
}
END_TEST

START_TEST(free_things)
{
    cat_state s;
    scen(&s, 2);
    mv(&s, 0, U_SNIPER, CAT_Z_FIELD, 0, CAT_F_FACEDOWN);
    mv(&s, 0, U_MOTE, CAT_Z_FIELD, 1, CAT_F_FACEDOWN);
    mv(&s, 0, U_BULWARK, CAT_Z_FIELD, 2, CAT_F_FACEDOWN);
    mv(&s, 0, U_SENT, CAT_Z_FIELD, 3, CAT_F_FACEDOWN | CAT_F_ACTIVATED);
    mv(&s, 0, U_FLASH, CAT_Z_HAND, 0, 0);
    mv(&s, 0, U_CACHE, CAT_Z_HAND, 0, 0);
    s.actions = 0;
    s.p[0].shards = 1;
    NEG(&s, 0, CAT_V_ENGAGE, 1, U_SNIPER, 0, 0, "CAT-FREE-ENGAGE");          /* needs 2 */
    OK(&s, 0, CAT_V_ENGAGE, 1, U_MOTE, 0, 0);                                /* cost 0 → pays 0 (G12) */
    ck_assert_int_eq(s.p[0].shards, 1);
    NEG(&s, 0, CAT_V_ENGAGE, 1, U_MOTE, 0, 0, "CAT-FREE-ENGAGE");            /* already face up */
    OK(&s, 0, CAT_V_IMPULSE, 1, U_CACHE, 0, 0);                              /* CAT-FREE-IMPULSE */
    ck_assert_int_eq(s.p[0].shards, 2);
    OK(&s, 0, CAT_V_ENGAGE, 1, U_SNIPER, 0, 0);                              /* CAT-FREE-ENGAGE */
    ck_assert_int_eq(s.p[0].shards, 0);
    ck_assert_int_eq(s.p[0].c[U_SNIPER].flags, 0);
    NEG(&s, 0, CAT_V_REINFORCE, 1, U_SNIPER, 0, 0, "CAT-FREE-REINFORCE");    /* face up */
    NEG(&s, 0, CAT_V_REINFORCE, 1, U_SENT, 0, 0, "CAT-FREE-REINFORCE");      /* already Activated */
    OK(&s, 0, CAT_V_REINFORCE, 1, U_BULWARK, 0, 0);                          /* CAT-FREE-REINFORCE */
    ck_assert(s.p[0].c[U_BULWARK].flags & CAT_F_ACTIVATED);
    NEG(&s, 0, CAT_V_IMPULSE, 2, U_FLASH, U_SNIPER, 0, "CAT-FREE-IMPULSE");  /* no Shard */
    s.p[0].shards = 1;
    NEG(&s, 0, CAT_V_IMPULSE, 2, U_FLASH, U_DRONE, 0, "CAT-FREE-IMPULSE");   /* target not in play */
    OK(&s, 0, CAT_V_IMPULSE, 2, U_FLASH, U_SNIPER, 0);                       /* CAT-FREE-NOACTIONS */
    ck_assert_int_eq(s.p[0].c[U_FLASH].zone, CAT_Z_ARCHIVE);
    ck_assert_int_eq(s.p[0].c[U_SNIPER].shield, 2);
    ck_assert_int_eq(s.actions, 0);
    NEG(&s, 0, CAT_V_DEPLOY_FD, 2, U_FLASH, 4, 0, "CAT-DEPLOY-FACEDOWN");    /* not in hand */
}
END_TEST

START_TEST(reactions)
{
    cat_state s;
    scen(&s, 2);
    mv(&s, 0, U_SIEGE, CAT_Z_FIELD, 1, 0);       /* Power 4, Range 2 */
    mv(&s, 1, U_SENT, CAT_Z_FIELD, 1, 0);        /* Health 3 */
    mv(&s, 1, U_BULWARK, CAT_Z_FIELD, 0, CAT_F_FACEDOWN);
    mv(&s, 1, U_FLASH, CAT_Z_HAND, 0, 0);
    mv(&s, 1, U_LANCER, CAT_Z_HAND, 0, 0);
    s.p[1].shards = 1;
    OK(&s, 0, CAT_V_STRIKE, 3, U_SIEGE, 1, 1);
    NEG(&s, 1, CAT_V_IMPULSE, 2, U_LANCER, U_SENT, 0, "CAT-FREE-IMPULSE-REACTION"); /* not an Impulse */
    NEG(&s, 1, CAT_V_DEPLOY, 2, U_LANCER, 2, 0, "CAT-FREE-IMPULSE-REACTION");
    OK(&s, 1, CAT_V_IMPULSE, 2, U_FLASH, U_SENT, 0);                          /* CAT-FREE-IMPULSE-REACTION */
    OK(&s, 1, CAT_V_REINFORCE, 1, U_BULWARK, 0, 0);                           /* Reinforce as a Reaction (G09) */
    OK(&s, 1, CAT_V_PASS, 0, 0, 0, 0);
    /* 4 − 1 (Reinforce) − 2 (Barrier) = 1 */
    ck_assert_int_eq(s.p[1].c[U_SENT].damage, 1);
    ck_assert_int_eq(EV.buf[event_index(CAT_E_DAMAGE)].c, 3);
    ck_assert_int_eq(s.p[1].c[U_SENT].zone, CAT_Z_FIELD);
    /* Cleanup clears every card's damage, the shield and the Reinforce bonus. */
    OK(&s, 0, CAT_V_END, 0, 0, 0, 0);
    ck_assert_int_eq(s.p[1].c[U_SENT].damage, 0);                             /* CAT-END-CLEANUP-DAMAGE */
    ck_assert(!(s.p[1].c[U_BULWARK].flags & CAT_F_REINFORCED));
    ck_assert(s.p[1].c[U_BULWARK].flags & CAT_F_ACTIVATED);                   /* orientation stays */
}
END_TEST

/* ------------------------------------------------------------------ 2.E */

START_TEST(end_phase_order_and_cleanup)
{
    cat_state s;
    scen(&s, 2);
    mv(&s, 0, U_TOTEM, CAT_Z_FIELD, 3, 0);
    mv(&s, 1, U_TOTEM, CAT_Z_FIELD, 3, 0);
    mv(&s, 0, U_SENT, CAT_Z_FIELD, 0, CAT_F_UNSTABLE);
    mv(&s, 1, U_SENT, CAT_Z_FIELD, 0, 0);
    s.p[1].c[U_SENT].damage = 2;
    OK(&s, 0, CAT_V_END, 0, 0, 0, 0);
    /* G15: "at the end of turn" fires for both Totems, active player's first. */
    ck_assert_int_eq(s.p[0].shards, 1);
    ck_assert_int_eq(s.p[1].shards, 1 + 3);                                   /* + seat 1's start gain */
    int g = event_index(CAT_E_GAIN), c = event_index(CAT_E_CLEANUP), d = -1, w = event_index(CAT_E_TURN);
    for (unsigned i = 0; i < EV.n; i++)
        if (EV.buf[i].type == CAT_E_DRAW && EV.buf[i].c == 3) { d = (int)i; break; }
    ck_assert_int_eq(EV.buf[g].seat, 0);
    ck_assert(g < c && c < d && d < w);                                       /* CAT-END-ORDER */
    ck_assert_int_eq(s.p[1].c[U_SENT].damage, 0);                             /* opponents' damage too */
    ck_assert(!(s.p[0].c[U_SENT].flags & CAT_F_UNSTABLE));                    /* CAT-END-CLEANUP-UNSTABLE */
    ck_assert_int_eq(s.p[0].nhand, 2);                                        /* CAT-END-HAND-MIN: 0 → 2 */
    ck_assert_int_eq(s.active, 1);
}
END_TEST

START_TEST(hand_adjust_readings)
{
    /* G14 reading A: fewer than 2 → draw up to 2; 2..7 → nothing (reading B
     * would draw 2 with a hand of 1..6). */
    for (int h = 0; h <= 9; h++) {
        cat_state s;
        scen(&s, 2);
        for (int k = 0; k < h; k++) mv(&s, 0, k + 1, CAT_Z_HAND, 0, 0);
        OK(&s, 0, CAT_V_END, 0, 0, 0, 0);
        if (h > CAT_HAND_MAX) {
            ck_assert_int_eq(s.dkind, CAT_D_ARCHIVE);                         /* CAT-END-HAND-MAX */
            NEG(&s, 0, CAT_V_DRAW, 0, 0, 0, 0, "CAT-TURN-PHASES");
            NEG(&s, 0, CAT_V_ARCHIVE, 1, U_CAT, 0, 0, "CAT-END-HAND-MAX");
            while (s.dkind == CAT_D_ARCHIVE) OK(&s, 0, CAT_V_ARCHIVE, 1, s.p[0].hand[0], 0, 0);
            ck_assert_int_eq(s.p[0].nhand, CAT_HAND_MAX);
            ck_assert_int_eq(s.p[0].narchive, h - CAT_HAND_MAX);
        } else {
            ck_assert_int_eq(s.p[0].nhand, h < 2 ? 2 : h);                    /* CAT-END-HAND-MIN */
        }
        ck_assert_int_eq(s.active, 1);
    }
}
END_TEST

START_TEST(victory_after_cleanup)
{
    /* The opponent's Catalyst destroyed this turn → the active player wins
     * at the victory check, after Cleanup (G02, CAT-END-VICTORY). */
    cat_state s;
    scen(&s, 2);
    mv(&s, 0, U_SIEGE, CAT_Z_FIELD, 1, 0);
    s.p[1].c[U_CAT].damage = 11;
    OK(&s, 0, CAT_V_STRIKE, 3, U_SIEGE, 1, 4);                                /* F2 → B2: distance 1 */
    OK(&s, 1, CAT_V_PASS, 0, 0, 0, 0);
    ck_assert_int_eq(s.p[1].c[U_CAT].zone, CAT_Z_ARCHIVE);
    ck_assert(!s.over);                                                       /* not earlier */
    OK(&s, 0, CAT_V_END, 0, 0, 0, 0);
    ck_assert(s.over);
    ck_assert_int_eq(s.winner, 0);
    ck_assert(event_index(CAT_E_CLEANUP) < event_index(CAT_E_LOSE));
    arb_decision d = G->decision(G, &s);
    ck_assert_int_eq(d.seat, ARB_SEAT_NONE);
    NEG(&s, 0, CAT_V_DRAW, 0, 0, 0, 0, "CAT-END-VICTORY");
    /* Damage that does not destroy is removed by Cleanup and cannot win. */
    scen(&s, 2);
    s.p[1].c[U_CAT].damage = 11;
    OK(&s, 0, CAT_V_END, 0, 0, 0, 0);
    ck_assert(!s.over);
    ck_assert_int_eq(s.p[1].c[U_CAT].damage, 0);
}
END_TEST

START_TEST(victory_multiplayer_and_empty_vault)
{
    cat_state s;
    scen(&s, 3);
    mv(&s, 0, U_SIEGE, CAT_Z_FIELD, 1, 0);
    s.p[2].c[U_CAT].damage = 11;
    OK(&s, 0, CAT_V_STRIKE, 3, U_SIEGE, 2, 4);
    OK(&s, 1, CAT_V_PASS, 0, 0, 0, 0);
    OK(&s, 2, CAT_V_PASS, 0, 0, 0, 0);
    OK(&s, 0, CAT_V_END, 0, 0, 0, 0);
    ck_assert(!s.over);
    ck_assert(!s.p[2].alive);                                                 /* removed */
    ck_assert_int_eq(s.active, 1);
    OK(&s, 1, CAT_V_END, 0, 0, 0, 0);
    ck_assert_int_eq(s.active, 0);                                            /* seat 2 skipped */
    while (s.dkind != CAT_D_ACTION) {
        arb_action buf[64];
        ck_assert_uint_gt(G->legal(G, &s, buf, 64), 0);
        ck_assert_int_eq(G->apply(G, &s, &buf[0], NULL, NULL), ARB_OK);
    }
    /* Empty Vault: seat 0 draws from it → loses at the check (G18). */
    while (s.p[0].nvault) mv(&s, 0, s.p[0].vault[0], CAT_Z_ARCHIVE, 0, 0);
    OK(&s, 0, CAT_V_DRAW, 0, 0, 0, 0);
    ck_assert(s.p[0].drew_empty);
    OK(&s, 0, CAT_V_END, 0, 0, 0, 0);
    ck_assert(s.over);
    ck_assert_int_eq(s.winner, 1);
    /* Both remaining lose together → a draw. */
    scen(&s, 2);
    for (int i = 0; i < 2; i++)
        while (s.p[i].nvault) mv(&s, i, s.p[i].vault[0], CAT_Z_ARCHIVE, 0, 0);
    s.p[1].drew_empty = 1;
    OK(&s, 0, CAT_V_END, 0, 0, 0, 0);                                         /* seat 0 refills from empty */
    ck_assert(s.over);
    ck_assert_int_eq(s.winner, -1);
    ck_assert_int_eq(s.reason, CAT_R_ALL_LOST);
}
END_TEST

START_TEST(turns_unbounded_and_cap)
{
    /* CAT-TURN-UNBOUNDED: turn 200 with no victory → the match goes on. */
    cat_state s;
    scen(&s, 2);
    s.turn = 200;
    OK(&s, 0, CAT_V_END, 0, 0, 0, 0);
    ck_assert(!s.over);
    ck_assert_uint_eq(s.turn, 201);
    /* I-TURNCAP: the safety net ends turn 1000 in a draw. */
    scen(&s, 2);
    s.turn = CAT_TURN_CAP;
    OK(&s, 0, CAT_V_END, 0, 0, 0, 0);
    ck_assert(s.over);
    ck_assert_int_eq(s.winner, -1);
    ck_assert_int_eq(s.reason, CAT_R_TURN_CAP);
}
END_TEST

START_TEST(arbiter_and_malformed)
{
    cat_state s;
    scen(&s, 2);
    NEG(&s, ARB_SEAT_ARBITER, CAT_V_TIMEOUT, 0, 0, 0, 0, "CAT-NOCLOCK");
    NEG(&s, 0, CAT_V_DISCONNECT, 1, 1, 0, 0, "CAT-NOCLOCK");
    arb_action a = act(0, CAT_V_DEPLOY, 1, 1, 0, 0);
    arb_error e = ARB_ERROR_INIT;
    ck_assert_int_eq(G->apply(G, &s, &a, NULL, &e), ARB_EINVAL);
    a = act(0, 200, 0, 0, 0, 0);
    ck_assert_int_eq(G->apply(G, &s, &a, NULL, &e), ARB_EINVAL);
    a = act(0, CAT_V_RETREAT, 1, -5, 0, 0);
    ck_assert_int_eq(G->apply(G, &s, &a, NULL, &e), ARB_EINVAL);
    ck_assert_str_eq(e.rule, "CAT-RETREAT");
    {   /* the message gives the UID range */
        char want[40];
        snprintf(want, sizeof want, "(0..%d)", s.p[0].ncards - 1);
        ck_assert_msg(strstr(e.msg, want) != NULL, "message: %s", e.msg);
    }
    a = act(0, CAT_V_COUNT, 0, 0, 0, 0); /* the first number past the verb table */
    ck_assert_int_eq(G->apply(G, &s, &a, NULL, &e), ARB_EINVAL);
    /* A card index outside the pool (only the API can say it) is a violation, not a warning, and setup refuses it. */
    arb_deck d = *G->preset(G, 0);
    d.cards[d.ncards - 1] = (uint16_t)CAT_NDEFS;
    arb_deck_issue iss[8];
    unsigned n = G->deck_check(G, &d, iss, 8), pool = 0;
    for (unsigned k = 0; k < n && k < 8; k++)
        if (strcmp(iss[k].rule, "CAT-DECK-POOL") == 0) { pool++; ck_assert_int_eq(iss[k].warning, 0); }
    ck_assert_uint_eq(pool, 1);
    arb_setup su;
    memset(&su, 0, sizeof su);
    su.seed = 1;
    su.players = 2;
    su.decks[0] = &d;
    su.decks[1] = G->preset(G, 1);
    cat_state s2;
    ck_assert_int_eq(G->setup(G, &s2, &su, NULL, &e), ARB_EILLEGAL);
    ck_assert_str_eq(e.rule, "CAT-DECK-POOL");
    /* free_decks skips the Vault size and copy limits, never the pool (G20) */
    arb_options_set(&su.options, "free_decks", 1);
    ck_assert_int_eq(G->setup(G, &s2, &su, NULL, &e), ARB_EILLEGAL);
    ck_assert_str_eq(e.rule, "CAT-DECK-POOL");
}
END_TEST

/* Fail without Check's per-assertion bookkeeping (one write() per
 * ck_assert), which would dominate the property test's run time. */
#define REQ(c, ...) do { if (!(c)) ck_abort_msg(__VA_ARGS__); } while (0)

/* -------------------------------------------------------- export / load */

static int has_key_deep(const arb_tnode *n, const char *key)
{
    for (const arb_tnode *c = n->first; c; c = c->next) {
        if (c->key && strcmp(c->key, key) == 0) return 1;
        if ((c->kind == ARB_T_MAP || c->kind == ARB_T_ARR) && has_key_deep(c, key)) return 1;
    }
    return 0;
}

static void roundtrip(const cat_state *s)
{
    arb_tree *t = arb_tree_new();
    G->export_state(G, s, ARB_VIEW_ALL, t, arb_tree_root(t));
    REQ(!arb_tree_failed(t), "!arb_tree_failed(t)");
    cat_state l;
    arb_setup su;
    memset(&su, 0, sizeof su);
    su.players = s->nplayers;
    arb_error e = ARB_ERROR_INIT;
    int rc = G->load_position(G, &l, arb_tree_root(t), &su, &e);
    REQ(rc == ARB_OK, "load_position(export): %s: %s %s", e.where, e.rule, e.msg);
    REQ(G->hash(G, &l) == G->hash(G, s), "round trip changed the hash (turn %u, phase %s)", s->turn,
                  G->phase(G, s));
    arb_tree_free(t);
}

START_TEST(export_load_roundtrip_and_views)
{
    cat_state s;
    scen(&s, 3);
    mv(&s, 0, U_SIEGE, CAT_Z_FIELD, 1, CAT_F_FACEDOWN | CAT_F_UNSTABLE);
    mv(&s, 0, U_LANCER, CAT_Z_HAND, 0, 0);
    mv(&s, 1, U_SENT, CAT_Z_FIELD, 0, CAT_F_ACTIVATED);
    roundtrip(&s);
    arb_tree *t = arb_tree_new();
    G->export_state(G, &s, 1, t, arb_tree_root(t));
    const arb_tnode *r = arb_tree_root(t);
    REQ(!arb_tnode_get(r, "rng"), "!arb_tnode_get(r, \"rng\")");
    REQ(!arb_tnode_get(arb_tnode_path(r, "players.0"), "hand"), "!arb_tnode_get(arb_tnode_path(r, \"players.0\"), \"hand\")");
    REQ(!arb_tnode_get(arb_tnode_path(r, "players.0"), "cards"), "!arb_tnode_get(arb_tnode_path(r, \"players.0\"), \"cards\")");
    REQ(!arb_tnode_get(arb_tnode_path(r, "players.1"), "vault"), "!arb_tnode_get(arb_tnode_path(r, \"players.1\"), \"vault\")");
    REQ(arb_tnode_get(arb_tnode_path(r, "players.1"), "hand"), "arb_tnode_get(arb_tnode_path(r, \"players.1\"), \"hand\")");
    REQ(!arb_tnode_get(arb_tnode_path(r, "players.0.battlefield.F2"), "uid"), "!arb_tnode_get(arb_tnode_path(r, \"players.0.battlefield.F2\"), \"uid\")");
    ck_assert_int_eq(arb_tnode_path(r, "players.0.battlefield.F2.face_down")->i, 1);
    ck_assert_int_eq(arb_tnode_path(r, "players.0.hand_count")->i, 1);
    ck_assert_str_eq(arb_tnode_path(r, "players.1.battlefield.F1.card")->s, "shard-sentinel");
    arb_tree_free(t);
}
END_TEST

START_TEST(load_rejects)
{
    arb_tree *t = arb_tree_new();
    arb_tnode *r = arb_tree_root(t);
    arb_tree_add_str(t, r, "phase", "action");
    arb_tnode *ps = arb_tree_add_arr(t, r, "players");
    for (int i = 0; i < 2; i++) {
        arb_tnode *p = arb_tree_add_map(t, ps, NULL);
        arb_tnode *c = arb_tree_add_arr(t, p, "cards");
        arb_tree_add_str(t, c, NULL, "prime-catalyst");
        arb_tree_add_str(t, c, NULL, "shard-sentinel");
        arb_tree_add_str(t, c, NULL, "lancer");
        arb_tnode *bf = arb_tree_add_map(t, p, "battlefield");
        arb_tree_add_int(t, arb_tree_add_map(t, bf, "B2"), "uid", 0);
        arb_tnode *h = arb_tree_add_arr(t, p, "hand");
        arb_tree_add_int(t, h, NULL, 2);
        arb_tree_add_int(t, p, "shards", 5);
    }
    cat_state s;
    arb_setup su;
    memset(&su, 0, sizeof su);
    su.players = 2;
    arb_error e = ARB_ERROR_INIT;
    ck_assert_int_eq(G->load_position(G, &s, r, &su, &e), ARB_OK);
    REQ((s.dkind) == (CAT_D_ACTION), "s.dkind == CAT_D_ACTION");
    REQ((s.actions) == (3), "s.actions == 3");
    REQ((s.p[1].nvault) == (1), "s.p[1].nvault == 1");                 /* unplaced → Vault */
    OK(&s, 0, CAT_V_DEPLOY, 2, 2, 0, 0);                /* a position-started match plays on */
    /* Unknown key → path. */
    arb_tree_add_int(t, arb_tnode_get(r, "players")->first, "bogus", 1);
    ck_assert_int_ne(G->load_position(G, &s, r, &su, &e), ARB_OK);
    ck_assert_str_eq(e.where, "players.0.bogus");
    arb_tree_free(t);
    /* A card in two zones, and a Catalyst in hand. */
    t = arb_tree_new();
    r = arb_tree_root(t);
    ps = arb_tree_add_arr(t, r, "players");
    for (int i = 0; i < 2; i++) {
        arb_tnode *p = arb_tree_add_map(t, ps, NULL);
        arb_tnode *c = arb_tree_add_arr(t, p, "cards");
        arb_tree_add_str(t, c, NULL, "prime-catalyst");
        arb_tree_add_str(t, c, NULL, "shard-sentinel");
        arb_tnode *h = arb_tree_add_arr(t, p, "hand");
        arb_tree_add_int(t, h, NULL, i == 0 ? 1 : 0);
        if (i == 0) arb_tree_add_int(t, arb_tree_add_map(t, arb_tree_add_map(t, p, "battlefield"), "F1"), "uid", 1);
    }
    ck_assert_int_ne(G->load_position(G, &s, r, &su, &e), ARB_OK);
    ck_assert_str_eq(e.where, "players.0.battlefield.F1");
    arb_tree_free(t);
    /* Short form (no `cards`): UIDs in reading order, a default Catalyst at B2;
     * a UID then makes no sense; a keep choice with too few cards is refused. */
    t = arb_tree_new();
    r = arb_tree_root(t);
    ps = arb_tree_add_arr(t, r, "players");
    arb_tnode *p0 = arb_tree_add_map(t, ps, NULL);
    arb_tree_add_str(t, arb_tree_add_arr(t, p0, "hand"), NULL, "lancer");
    arb_tnode *f1 = arb_tree_add_map(t, arb_tree_add_map(t, p0, "battlefield"), "F1");
    arb_tree_add_str(t, f1, "card", "bulwark");
    arb_tree_add_map(t, ps, NULL);
    ck_assert_int_eq(G->load_position(G, &s, r, &su, &e), ARB_OK);
    ck_assert_int_eq(s.p[0].ncards, 3);
    ck_assert_int_eq(s.p[0].hand[0], 0);
    ck_assert_int_eq(s.p[0].field[0], 1);
    ck_assert_int_eq(s.p[0].field[4], 2);
    ck_assert_str_eq(arb_catalyst__defs[s.p[0].c[2].def].card.id, "prime-catalyst");
    ck_assert_int_eq(s.p[1].field[4], 0);
    arb_tree_add_int(t, f1, "uid", 1);
    ck_assert_int_ne(G->load_position(G, &s, r, &su, &e), ARB_OK);
    ck_assert_str_eq(e.where, "players.0.battlefield.F1.uid");
    arb_tree_free(t);
    t = arb_tree_new();
    r = arb_tree_root(t);
    arb_tree_add_str(t, r, "phase", "mulligan");
    ps = arb_tree_add_arr(t, r, "players");
    p0 = arb_tree_add_map(t, ps, NULL);
    arb_tree_add_int(t, p0, "keep_left", 2);
    arb_tree_add_str(t, arb_tree_add_arr(t, p0, "hand"), NULL, "lancer");
    arb_tree_add_map(t, ps, NULL);
    ck_assert_int_ne(G->load_position(G, &s, r, &su, &e), ARB_OK);
    ck_assert_str_eq(e.where, "players.0.keep_left");
    arb_tree_free(t);
}
END_TEST

/* ------------------------------------------------------------ cards/decks */

START_TEST(cards_and_decks)
{
    REQ((G->npresets) >= (3), "G->npresets >= 3");
    for (unsigned i = 0; i < G->npresets; i++) {
        arb_deck_issue iss[8];
        ck_assert_uint_eq(G->deck_check(G, G->preset(G, i), iss, 8), 0);
    }
    int catalysts = 0;
    for (unsigned i = 0; i < G->ncards; i++) {
        catalysts += strcmp(G->card(G, i)->type, "Catalyst") == 0;
        arb_tree *t = arb_tree_new();
        G->card_export(G, i, t, arb_tree_root(t));
        REQ(arb_tnode_get(arb_tree_root(t), "kind"), "arb_tnode_get(arb_tree_root(t), \"kind\")");
        arb_tree_free(t);
    }
    REQ((catalysts) >= (3), "catalysts >= 3");
    arb_deck d = *G->preset(G, 0);
    d.cards[1] = d.cards[0];                             /* two Catalysts, 39 Vault cards */
    arb_deck_issue iss[8];
    unsigned n = G->deck_check(G, &d, iss, 8);
    REQ((n) == (2), "n == 2");
    ck_assert_str_eq(iss[0].rule, "CAT-DECK-CATALYST");
    ck_assert_str_eq(iss[1].rule, "CAT-DECK-SIZE");
    d = *G->preset(G, 0);
    for (int k = 1; k < 5; k++) d.cards[k] = (uint16_t)def_index("lancer");
    n = G->deck_check(G, &d, iss, 8);
    REQ((n) == (1), "n == 1");
    ck_assert_str_eq(iss[0].rule, "CAT-DECK-COPIES");
}
END_TEST

START_TEST(preset_deck_files)
{
    /* src/games/catalyst/decks/NAME.deck holds the same list as the preset. */
    for (unsigned i = 0; i < G->npresets; i++) {
        const arb_deck *p = G->preset(G, i);
        char path[256];
        snprintf(path, sizeof path, "src/games/catalyst/decks/%s.deck", p->name);
        arb_deck d;
        arb_error e = ARB_ERROR_INIT;
        ck_assert_msg(arb_deck_load(&d, G, path, &e) == ARB_OK, "%s: %s", path, e.msg);
        ck_assert_str_eq(d.name, p->name);
        ck_assert_uint_eq(d.ncards, p->ncards);
        ck_assert_int_eq(memcmp(d.cards, p->cards, sizeof(uint16_t) * p->ncards), 0);
        ck_assert_ptr_eq(arb_deck_preset(G, p->name), p);
    }
}
END_TEST

START_TEST(narration)
{
    char buf[256];
    arb_event e = { CAT_E_DRAW, 1, 1, 3, (int32_t)def_index("vault-sniper"), 1 };
    G->event_text(G, &e, 0, buf, sizeof buf);
    REQ(strstr(buf, "draws a card") && !strstr(buf, "Sniper"), "strstr(buf, \"draws a card\") && !strstr(buf, \"Sniper\")");
    G->event_text(G, &e, 1, buf, sizeof buf);
    REQ(strstr(buf, "Vault Sniper"), "strstr(buf, \"Vault Sniper\")");
    for (unsigned t = 0; t < CAT_E_COUNT; t++) {
        arb_event x = { (uint16_t)t, 0, 0, 1, 1, 1 };
        ck_assert_int_gt(G->event_text(G, &x, ARB_VIEW_ALL, buf, sizeof buf), 0);
        REQ(!strstr(buf, "event "), "!strstr(buf, \"event \")");
    }
}
END_TEST

/* ------------------------------------------- property test (engine_kit_play.h) */

#define LBUF 4096
static arb_action LEG[LBUF];

/* What seat v sees: no Vault, no PRNG, no other seat's hand or cards, and
 * no identity of another seat's face-down card. */
static void check_view(ek_play *p, const void *st, int v)
{
    (void)p;
    arb_tree *t = arb_tree_new();
    G->export_state(G, st, v, t, arb_tree_root(t));
    const arb_tnode *r = arb_tree_root(t);
    EK_REQ(!has_key_deep(r, "vault"), "seat %d sees a Vault", v);
    EK_REQ(!arb_tnode_get(r, "rng"), "seat %d sees the PRNG", v);
    const arb_tnode *ps = arb_tnode_get(r, "players");
    int i = 0;
    for (const arb_tnode *q = ps->first; q; q = q->next, i++) {
        if (i == v) continue;
        EK_REQ(!arb_tnode_get(q, "hand") && !arb_tnode_get(q, "cards"), "seat %d sees seat %d's hand", v, i);
        for (const arb_tnode *c = arb_tnode_get(q, "battlefield")->first; c; c = c->next)
            if (arb_tnode_get(c, "face_down")->i)
                EK_REQ(!arb_tnode_get(c, "uid") && !arb_tnode_get(c, "card"), "seat %d sees a face-down card", v);
    }
    arb_tree_free(t);
}

/* A hidden event (a draw) does not name its card to another seat. */
static void after_step(ek_play *p, const void *st, const arb_action *a, const arb_events *ev)
{
    (void)st;
    (void)a;
    char buf[256];
    for (unsigned i = 0; i < ev->n; i++) {
        const arb_event *e = &ev->buf[i];
        if (!e->hidden) continue;
        for (int v = 0; v < p->plan.players; v++) {
            if (v == e->seat) continue;
            G->event_text(G, e, v, buf, sizeof buf);
            EK_REQ(!strstr(buf, arb_catalyst__defs[(unsigned)e->b % CAT_NDEFS].card.name),
                   "hidden event leaks to seat %d: %s", v, buf);
        }
    }
}

/* Change everything `seat` may not see: other seats' hands and Vaults
 * (contents and order), the identity of their face-down cards, and the order
 * of seat's own Vault. The greedy agent must not notice. */
static void scramble_hidden(ek_play *p, void *st, int seat, arb_rng *r)
{
    (void)p;
    cat_state *s = st;
    for (int i = 0; i < s->nplayers; i++) {
        cat_player *pl = &s->p[i];
        arb_rng_shuffle(r, pl->vault, pl->nvault, 1);
        if (i == seat) continue;
        uint8_t pool[CAT_MAX_CARDS], n = 0;
        for (unsigned u = 0; u < pl->ncards; u++) {
            const cat_card *c = &pl->c[u];
            if (c->zone == CAT_Z_HAND || c->zone == CAT_Z_VAULT ||
                (c->zone == CAT_Z_FIELD && (c->flags & CAT_F_FACEDOWN)))
                pool[n++] = c->def;
        }
        arb_rng_shuffle(r, pool, n, 1);
        n = 0;
        for (unsigned u = 0; u < pl->ncards; u++) {
            cat_card *c = &pl->c[u];
            if (c->zone == CAT_Z_HAND || c->zone == CAT_Z_VAULT ||
                (c->zone == CAT_Z_FIELD && (c->flags & CAT_F_FACEDOWN)))
                c->def = pool[n++];
        }
    }
}

/* Mostly the seat that owes the decision, any verb, its arity, small args. */
static void random_action(ek_play *p, const void *st, arb_rng *r, arb_action *a)
{
    (void)p;
    const cat_state *s = st;
    a->seat = (int8_t)(arb_rng_below(r, 4) == 0 ? arb_rng_below(r, s->nplayers) : s->dseat);
    a->verb = (uint8_t)arb_rng_below(r, CAT_V_COUNT);
    a->nargs = (uint8_t)(arb_catalyst__verbs[a->verb].min_args +
                         arb_rng_below(r, arb_catalyst__verbs[a->verb].max_args - arb_catalyst__verbs[a->verb].min_args + 1u));
    for (int k = 0; k < a->nargs; k++) a->args[k] = (int32_t)arb_rng_below(r, 24) - 2;
}

/* Bounded: each seat loses at the latest when its Vault runs dry. */
static void at_end(ek_play *p, const void *st, const arb_outcome *o)
{
    (void)o;
    const cat_state *s = st;
    EK_REQ(s->over, "outcome() is over, the state is not");
    EK_REQ(s->turn <= (uint32_t)p->plan.players * (CAT_VAULT_SIZE + 2), "turn %u: longer than the Vaults", s->turn);
}

/* The mix the four property tests had, 8 : 5 : 3 random 2-, 3- and
 * 4-player games and 2 greedy games at each player count, in every 22. */
static void plan(ek_plan *p)
{
    int k = p->index % 22;
    p->greedy = k >= 16;
    p->players = k < 8 ? 2 : k < 13 ? 3 : k < 16 ? 4 : 2 + k % 3;
}

START_TEST(property)
{
    static const ek_play_spec spec = {
        .game = &arb_game_catalyst, .program = "check_catalyst", .seed_base = 1000, .seed_step = 7919,
        .plan = plan, .samples = 3, .sample = random_action, .rule_prefix = "CAT-", .einval_unnamed = 1,
        .no_clock = 1, .seated_only = 1, .legal_every = 23, .roundtrip_every = 97, .view_every = 97, .blind_every = 11,
        .check_view = check_view, .scramble = scramble_hidden, .after_step = after_step, .at_end = at_end,
    };
    ek_selfplay(&spec);
}
END_TEST

/* Hostile positions: mutate one scalar of a real full export at random and
 * load it. A refused position names a path; an accepted one must be a
 * playable state (someone owes a decision that has a legal action, every
 * legal action applies) whose export loads back to the same hash. */
static arb_tnode *nth_scalar(arb_tnode *n, unsigned *k)
{
    for (arb_tnode *c = n->first; c; c = c->next) {
        if (c->kind == ARB_T_MAP || c->kind == ARB_T_ARR) {
            arb_tnode *r = nth_scalar(c, k);
            if (r) return r;
        } else if ((*k)-- == 0) {
            return c;
        }
    }
    return NULL;
}

START_TEST(hostile_positions)
{
    static const char *const strs[] = { "F1", "B3", "action", "start", "end", "mulligan", "reaction", "upkeep",
                                        "archive", "lancer", "prime-catalyst", "flash-barrier", "", "zz" };
    arb_rng r;
    arb_rng_seed(&r, 99);
    arb_setup su;
    memset(&su, 0, sizeof su);
    int accepted = 0, refused = 0;
    int games = ek_share(1, 5) < 40 ? ek_share(1, 5) : 40; /* 40 from ARB_TEST_GAMES=200 up */
    for (int g = 0; g < games; g++) {
        su.seed = (uint64_t)g;
        su.players = 2 + g % 3;
        for (int i = 0; i < su.players; i++) su.decks[i] = G->preset(G, (unsigned)i % G->npresets);
        cat_state s, l, c;
        ck_assert_int_eq(G->setup(G, &s, &su, NULL, NULL), ARB_OK);
        int steps = (int)arb_rng_below(&r, 400);
        for (int k = 0; k < steps && !s.over; k++) {
            size_t n = G->legal(G, &s, LEG, LBUF);
            G->apply(G, &s, &LEG[arb_rng_below(&r, (uint32_t)n)], NULL, NULL);
        }
        for (int m = 0; m < 25; m++) {
            arb_tree *t = arb_tree_new();
            arb_tnode *root = arb_tree_root(t);
            G->export_state(G, &s, ARB_VIEW_ALL, t, root);
            unsigned total = 0, k = UINT32_MAX;
            nth_scalar(root, &k);
            total = UINT32_MAX - k;
            k = arb_rng_below(&r, total);
            arb_tnode *x = nth_scalar(root, &k);
            REQ(x != NULL, "no scalar");
            if (x->kind == ARB_T_INT) x->i = (int64_t)arb_rng_below(&r, 80) - 5;
            else if (x->kind == ARB_T_BOOL) x->i = !x->i;
            else if (x->kind == ARB_T_STR) x->s = strs[arb_rng_below(&r, sizeof strs / sizeof strs[0])];
            arb_error e = ARB_ERROR_INIT;
            if (G->load_position(G, &l, root, &su, &e) != ARB_OK) {
                REQ(e.where[0] != '\0', "a refused position names a path: %s", e.msg);
                refused++;
            } else {
                accepted++;
                roundtrip(&l);
                if (!l.over) {
                    arb_decision d = G->decision(G, &l);
                    REQ(d.seat >= 0 && d.seat < l.nplayers, "decision seat");
                    size_t n = G->legal(G, &l, LEG, LBUF);
                    REQ(n > 0, "loaded position with no legal action (kind %s)", arb_catalyst__decision_names[d.kind]);
                    for (size_t i = 0; i < n && i < LBUF; i++) {
                        memcpy(&c, &l, sizeof l);
                        REQ(G->apply(G, &c, &LEG[i], NULL, &e) == ARB_OK, "legal action refused: %s", e.msg);
                    }
                }
            }
            arb_tree_free(t);
        }
    }
    /* both outcomes occur often: > 100 each over the default 40 games, at
     * least one per game when a run is scaled down (make tsan) */
    int floor = games >= 40 ? 100 : games;
    REQ(accepted > floor && refused > floor, "mutations: %d accepted, %d refused", accepted, refused);
}
END_TEST

/* Recorded self-play through the CLI: `play` 2, 3 and 4 players with random
 * and greedy agents, then `verify` every file. */
START_TEST(cli_play_and_verify)
{
    char dir[] = "/tmp/arb-catalyst-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char args[1024], files[8192] = "";
    for (int g = 0; g < 12; g++) {
        int players = 2 + g % 3;
        const char *agents = g % 2 ? "greedy" : "random";
        snprintf(args, sizeof args, "play --game catalyst --seed %d --players %d --agents %s -o %s/g%d.tcgr", 500 + g,
                 players, agents, dir, g);
        cli_result *r = cli_run(args);
        ck_assert_msg(r->code == 0, "%s: %s", args, r->err);
        size_t len = strlen(files);
        snprintf(files + len, sizeof files - len, " %s/g%d.tcgr", dir, g);
    }
    static char vargs[sizeof files + 16];
    snprintf(vargs, sizeof vargs, "verify%s", files);
    cli_result *r = cli_run(vargs);
    ck_assert_msg(r->code == 0, "verify: %s %s", r->out, r->err);
    ck_assert_ptr_nonnull(strstr(r->out, "OK"));
    for (int g = 0; g < 12; g++) {
        snprintf(args, sizeof args, "%s/g%d.tcgr", dir, g);
        unlink(args);
    }
    rmdir(dir);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("catalyst");
    TCase *tc = tcase_create("rules");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, setup_basics);
    tcase_add_test(tc, setup_rejects);
    tcase_add_test(tc, turn_order_clockwise);
    tcase_add_test(tc, mulligans);
    tcase_add_test(tc, mulligan_keep_choice_is_kept);
    tcase_add_test(tc, skip_draw_only_first_player_turn1);
    tcase_add_test(tc, start_phase_order);
    tcase_add_test(tc, upkeep_archive);
    tcase_add_test(tc, facedown_deactivate_stays_hidden);
    tcase_add_test(tc, actions_draw_limit);
    tcase_add_test(tc, deploy);
    tcase_add_test(tc, abilities);
    tcase_add_test(tc, strike);
    tcase_add_test(tc, reposition_retreat);
    tcase_add_test(tc, free_things);
    tcase_add_test(tc, reactions);
    tcase_add_test(tc, end_phase_order_and_cleanup);
    tcase_add_test(tc, hand_adjust_readings);
    tcase_add_test(tc, victory_after_cleanup);
    tcase_add_test(tc, victory_multiplayer_and_empty_vault);
    tcase_add_test(tc, turns_unbounded_and_cap);
    tcase_add_test(tc, arbiter_and_malformed);
    tcase_add_test(tc, export_load_roundtrip_and_views);
    tcase_add_test(tc, load_rejects);
    tcase_add_test(tc, cards_and_decks);
    tcase_add_test(tc, preset_deck_files);
    tcase_add_test(tc, narration);
    suite_add_tcase(su, tc);
    TCase *tp = tcase_create("property");
    tcase_set_timeout(tp, 600);
    tcase_add_test(tp, property);
    tcase_add_test(tp, hostile_positions);
    tcase_add_test(tp, cli_play_and_verify);
    suite_add_tcase(su, tp);
    SRunner *sr = srunner_create(su);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
