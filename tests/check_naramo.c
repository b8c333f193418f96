/* check_naramo.c — unit tests of the NARAMO engine, one group per catalog
 * section (setup, the four phases, timing, limits, deck rules, clock) with
 * the catalog's NEG cases asserting the rule ID, plus a property test over
 * seeded random and greedy self-play (the `property` case: ARB_TEST_GAMES
 * games, engine_kit_play.h):
 * legal() ⊆ accepted, sampled illegal actions rejected with a rule ID and no
 * byte change, memcpy replay, view masking, bounded length, and the
 * export → load_position round trip.
 *
 * Unit tests build positions by editing the internal state directly
 * ("blank" + "add"), so each rule is probed in isolation. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/agent.h"
#include "arbiter/deck.h"
#include "arbiter/hash.h"
#include "arbiter/match.h"
#include "games/naramo/naramo.h"
#include "engine_kit_play.h"

static const arb_game *G;
static nar_state S;
static arb_error E;
static arb_event evbuf[4096];
static arb_events EVS;

/* ---- helpers -------------------------------------------------------- */

static int card_ix(const char *id)
{
    for (unsigned i = 0; i < arb_naramo__ncards; i++)
        if (strcmp(arb_naramo__cards[i].pub.id, id) == 0) return (int)i;
    ck_abort_msg("no card %s", id);
    return -1;
}

static arb_setup mk_setup(uint64_t seed, const char *d0, const char *d1)
{
    arb_setup su;
    memset(&su, 0, sizeof su);
    su.seed = seed;
    su.players = 2;
    su.decks[0] = arb_deck_preset(G, d0);
    su.decks[1] = arb_deck_preset(G, d1);
    return su;
}

static arb_action mk_act(int seat, int verb, int nargs, int a0, int a1, uint32_t elapsed)
{
    arb_action a;
    memset(&a, 0, sizeof a);
    a.seat = (int8_t)seat;
    a.verb = (uint8_t)verb;
    a.nargs = (uint8_t)nargs;
    a.args[0] = a0;
    a.args[1] = a1;
    a.elapsed_ms = elapsed;
    return a;
}

static void ev_reset(void)
{
    EVS.buf = evbuf;
    EVS.cap = 4096;
    EVS.n = EVS.dropped = 0;
}

static int act(int seat, int verb, int nargs, int a0, int a1, uint32_t elapsed)
{
    arb_action a = mk_act(seat, verb, nargs, a0, a1, elapsed);
    arb_error_clear(&E);
    ev_reset();
    return G->apply(G, &S, &a, &EVS, &E);
}

/* Accepted / refused with rule ID rid, through the engine test kit. */
#define OK_(seat, verb, n, a0, a1) do { arb_action a_ = mk_act(seat, verb, n, a0, a1, 0); \
        ev_reset(); ek_ok(G, &S, &a_, &EVS); } while (0)
#define OK0(seat, verb) OK_(seat, verb, 0, 0, 0)
#define OK1(seat, verb, x) OK_(seat, verb, 1, x, 0)
#define OK2(seat, verb, x, y) OK_(seat, verb, 2, x, y)

#define REJ_(rid, seat, verb, n, a0, a1, el) do { arb_action a_ = mk_act(seat, verb, n, a0, a1, el); \
        ev_reset(); ek_reject(G, &S, &a_, rid, NULL); } while (0)
#define REJ0(rid, seat, verb) REJ_(rid, seat, verb, 0, 0, 0, 0)
#define REJ1(rid, seat, verb, x) REJ_(rid, seat, verb, 1, x, 0, 0)
#define REJ2(rid, seat, verb, x, y) REJ_(rid, seat, verb, 2, x, y, 0)
static int has_event(int type, int seat)
{
    for (unsigned i = 0; i < EVS.n; i++)
        if (evbuf[i].type == type && (seat < -1 || evbuf[i].seat == seat)) return 1;
    return 0;
}

static int event_pos(int type)
{
    for (unsigned i = 0; i < EVS.n; i++)
        if (evbuf[i].type == type) return (int)i;
    return -1;
}

/* A controlled position: shift 3, `active` in Operations, empty zones. */
static void blank(int active)
{
    arb_setup su = mk_setup(7, "defense-doe", "assault-noobia");
    ck_assert_int_eq(G->setup(G, &S, &su, NULL, &E), 0);
    for (int q = 0; q < 2; q++) {
        nar_player *p = &S.p[q];
        p->ncards = p->ndeck = p->nhand = p->nroster = p->nequip = p->nsite = p->ndiscard = p->nboard = 0;
        p->neffects = 0;
        p->review_used = 1;
        memset(p->flags, 0, sizeof p->flags);
        p->swipes = 2;
    }
    S.shift = 3;
    S.active = (int8_t)active;
    S.first = (int8_t)active;
    S.kind = NAR_D_OPS;
    S.shift_ms = 0;
}

enum { Z_DECK, Z_HAND, Z_ROSTER, Z_SITE, Z_DISCARD };

static int add(int seat, int zone, const char *id)
{
    nar_player *p = &S.p[seat];
    int uid = p->ncards++;
    p->card[uid] = (uint16_t)card_ix(id);
    switch (zone) {
    case Z_DECK: p->deck[p->ndeck++] = (uint8_t)uid; break;
    case Z_HAND: p->hand[p->nhand++] = (uint8_t)uid; break;
    case Z_ROSTER: p->roster[p->nroster++] = (uint8_t)uid; break;
    case Z_SITE: p->site[p->nsite++] = (uint8_t)uid; break;
    default: p->discard[p->ndiscard++] = (uint8_t)uid; break;
    }
    return uid;
}

static int add_board(int board, int owner, const char *id)
{
    nar_player *o = &S.p[owner];
    int uid = o->ncards++;
    o->card[uid] = (uint16_t)card_ix(id);
    nar_bentry *e = &S.p[board].board[S.p[board].nboard++];
    e->owner = (uint8_t)owner;
    e->uid = (uint8_t)uid;
    e->duration = arb_naramo__cards[o->card[uid]].duration;
    e->seq = S.next_seq++;
    return uid;
}

static void fill_deck(int seat, int n)
{
    for (int i = 0; i < n; i++) add(seat, Z_DECK, "intern");
}

static int owing(void) { return G->decision(G, &S).seat; }
static int kind(void) { return G->decision(G, &S).kind; }

static void setup_once(void) { G = arb_game_find("naramo"); }

/* ---- 2.A / 2.B setup ------------------------------------------------- */

START_TEST(t_registry)
{
    ck_assert_ptr_nonnull(G);
    ck_assert_str_eq(G->id, "naramo");
    ck_assert_int_eq(G->nverbs, NAR_V_COUNT);
    ck_assert_str_eq(G->verbs[NAR_V_TIMEOUT].name, "timeout");
    ck_assert_str_eq(G->verbs[NAR_V_DISCONNECT].name, "disconnect");
    ck_assert_str_eq(G->verbs[NAR_V_RECONNECT].name, "reconnect");
    ck_assert_int_ge(G->npresets, 4);
    const char *need[] = {"coolant-pumps", "control-room", "reactor-hall", "emergency-diesel-generators", "gubby"};
    for (unsigned i = 0; i < 5; i++) ck_assert_int_ge(arb_card_find(G, need[i]), 0);
}
END_TEST

START_TEST(t_setup_initial)
{
    arb_setup su = mk_setup(11, "defense-doe", "assault-bloxian");
    EVS.buf = evbuf; EVS.cap = 4096; EVS.n = 0;
    ck_assert_int_eq(G->setup(G, &S, &su, &EVS, &E), 0);
    for (int q = 0; q < 2; q++) {
        ck_assert_int_eq(S.p[q].core, 1420);  /* NAR-SETUP-CORE */
        ck_assert_int_eq(S.p[q].hack, 0);     /* NAR-SETUP-SKALA */
        ck_assert_int_eq(S.p[q].po, 0);       /* NAR-SETUP-PO */
        ck_assert_int_eq(S.p[q].scram_used, 0); /* NAR-SETUP-SCRAM */
        ck_assert_int_eq(S.p[q].nhand, 6);    /* NAR-SETUP-DRAW6 */
        ck_assert_int_eq(S.p[q].ndeck, 34);
        ck_assert_int_eq(S.p[q].clearance, 0); /* NAR-SETUP-CLEARANCE */
    }
    ck_assert_int_eq(S.first, -1);            /* G24: not drawn yet */
    ck_assert_int_eq(kind(), NAR_D_REVIEW);
    ck_assert_int_eq(owing(), 0);
    ck_assert_int_eq(evbuf[0].type, NAR_E_INIT_REACTORS); /* NAR-SETUP-ORDER */
    ck_assert_int_eq(evbuf[1].type, NAR_E_SHUFFLE);
    ck_assert_int_eq(evbuf[3].type, NAR_E_DRAW);
    /* NAR-SETUP-SHUFFLE: same seed, same order; a permutation of the list */
    nar_state a = S;
    ck_assert_int_eq(G->setup(G, &S, &su, NULL, &E), 0);
    ck_assert_int_eq(memcmp(&a, &S, sizeof S), 0);
    int seen[64] = {0};
    for (int i = 0; i < S.p[0].ndeck; i++) seen[S.p[0].deck[i]]++;
    for (int i = 0; i < S.p[0].nhand; i++) seen[S.p[0].hand[i]]++;
    for (int i = 0; i < 40; i++) ck_assert_int_eq(seen[i], 1);
}
END_TEST

START_TEST(t_setup_players_and_decks)
{
    arb_setup su = mk_setup(1, "defense-doe", "assault-noobia");
    su.players = 1;
    ck_assert_int_eq(G->setup(G, &S, &su, NULL, &E), ARB_EILLEGAL);
    ck_assert_str_eq(E.rule, "NAR-MATCH-TWO");
    su.players = 3;
    su.decks[2] = su.decks[0];
    ck_assert_int_eq(G->setup(G, &S, &su, NULL, &E), ARB_EILLEGAL);
    ck_assert_str_eq(E.rule, "NAR-MATCH-TWO");
    arb_deck bad = *arb_deck_preset(G, "defense-doe");
    bad.ncards = 39;
    su = mk_setup(1, "defense-doe", "assault-noobia");
    su.decks[1] = &bad;
    ck_assert_int_eq(G->setup(G, &S, &su, NULL, &E), ARB_EILLEGAL);
    ck_assert_str_eq(E.rule, "NAR-DECK-SIZE");
    /* two errors (size, then bloc): the first listed is the one named */
    bad.attrs[0].value[0] = 'X';
    ck_assert_int_eq(G->setup(G, &S, &su, NULL, &E), ARB_EILLEGAL);
    ck_assert_str_eq(E.rule, "NAR-DECK-SIZE");
    ck_assert_ptr_nonnull(strstr(E.msg, "seat 1 deck: the deck has 39 cards"));
    su.decks[1] = NULL;
    ck_assert_int_eq(G->setup(G, &S, &su, NULL, &E), ARB_EINVAL);
    ck_assert_str_eq(E.rule, "NAR-DECK-SIZE");
    /* a rules version the engine does not implement */
    su = mk_setup(1, "defense-doe", "assault-noobia");
    su.rules = "naramo-9";
    ck_assert_int_eq(G->setup(G, &S, &su, NULL, &E), ARB_EUNSUPPORTED);
    su.rules = "naramo-1";
    ck_assert_int_eq(G->setup(G, &S, &su, NULL, &E), ARB_OK);
    ck_assert_int_eq(S.rules, 1);
}
END_TEST

START_TEST(t_setup_review)
{
    arb_setup su = mk_setup(5, "defense-doe", "assault-noobia");
    ck_assert_int_eq(G->setup(G, &S, &su, NULL, &E), 0);
    uint8_t hand1[8];
    memcpy(hand1, S.p[1].hand, 6);
    REJ0("NAR-SETUP-REVIEW-EACH", 1, NAR_V_REVIEW); /* seat 0 first (G24) */
    REJ1("NAR-SETUP-ORDER", 0, NAR_V_PLAY, S.p[0].hand[0]);
    OK0(0, NAR_V_REVIEW);                           /* NAR-SETUP-REVIEW */
    ck_assert(has_event(NAR_E_REVIEW, 0));
    ck_assert_int_eq(S.p[0].review_used, 1);
    ck_assert_int_eq(S.p[0].nhand, 6);
    ck_assert_int_eq(S.p[0].ndeck, 34);
    ck_assert_int_eq(owing(), 1);                /* NAR-SETUP-REVIEW-EACH */
    ck_assert_int_eq(S.first, -1);
    OK0(1, NAR_V_KEEP);                             /* NAR-SETUP-REVIEW-OPTIONAL */
    ck_assert_int_eq(S.p[1].review_used, 0);
    ck_assert(S.first == 0 || S.first == 1);     /* NAR-SETUP-FIRST-RANDOM */
    ck_assert(event_pos(NAR_E_FIRST_PLAYER) < event_pos(NAR_E_SEVENTH_CARD));
    int f = S.first;
    ck_assert_int_eq(S.p[f].nhand, 6);           /* NAR-P1-DRAW-SKIP */
    ck_assert_int_eq(S.p[1 - f].nhand, 7);       /* NAR-SETUP-SECOND-7TH */
    ck_assert_int_eq(S.p[1 - f].ndeck, 33);
    if (f == 0) ck_assert_int_eq(memcmp(hand1, S.p[1].hand, 6), 0);
    ck_assert_int_eq(S.shift, 1);
    ck_assert_int_eq(S.p[f].swipes, 2);          /* NAR-SETUP-SWIPES */
    ck_assert_int_eq(S.p[f].core, 1570);
    REJ0("NAR-SETUP-REVIEW-ONCE", f, NAR_V_REVIEW);
    /* NAR-SETUP-FIRST-RANDOM: both seats occur over seeds */
    int seenf[2] = {0, 0};
    for (uint64_t seed = 1; seed < 40; seed++) {
        su.seed = seed;
        G->setup(G, &S, &su, NULL, &E);
        OK0(0, NAR_V_KEEP);
        OK0(1, NAR_V_KEEP);
        seenf[S.first]++;
    }
    ck_assert(seenf[0] > 0 && seenf[1] > 0);
}
END_TEST

/* ---- 2.C Shift Start ------------------------------------------------ */

START_TEST(t_p1_baseload_and_reportin)
{
    blank(1);
    fill_deck(0, 5);
    fill_deck(1, 5);
    int a = add(0, Z_ROSTER, "shift-engineer");
    int b = add(1, Z_ROSTER, "noobian-raider");
    S.p[0].flags[a] = NAR_F_EXHAUSTED;
    S.p[1].flags[b] = NAR_F_EXHAUSTED;
    OK0(1, NAR_V_END);                      /* P1's shift ends → P0's Shift Start */
    ck_assert_int_eq(S.active, 0);
    ck_assert_int_eq(S.shift, 4);        /* NAR-MATCH-ALTERNATE */
    ck_assert_int_eq(S.p[0].flags[a] & NAR_F_EXHAUSTED, 0); /* NAR-P1-REPORTIN */
    ck_assert_int_ne(S.p[1].flags[b] & NAR_F_EXHAUSTED, 0); /* NAR-P1-REPORTIN-OWN */
    ck_assert_int_eq(S.p[0].core, 1570); /* NAR-P1-BASELOAD */
    ck_assert_int_eq(S.p[1].core, 1420);
    ck_assert_int_eq(S.p[0].nhand, 1);   /* NAR-P1-DRAW */
    ck_assert(event_pos(NAR_E_REPORT_IN) < event_pos(NAR_E_BASE_LOAD));
    ck_assert(event_pos(NAR_E_BASE_LOAD) < event_pos(NAR_E_DRAW));
    ck_assert(event_pos(NAR_E_DRAW) < event_pos(NAR_E_SWIPES)); /* NAR-P1-STEP-ORDER */
    int hacks[] = {2, 3, 5}, want[] = {150, 200, 200};
    for (int i = 0; i < 3; i++) {                 /* NAR-P1-BASELOAD-HACK */
        blank(1);
        fill_deck(0, 3);
        S.p[0].hack = (uint8_t)hacks[i];
        OK0(1, NAR_V_END);
        ck_assert_int_eq(S.p[0].core, 1420 + want[i]);
    }
    blank(1);                                      /* NAR-P1-BASELOAD-SHUTDOWN */
    fill_deck(0, 3);
    S.p[0].shutdown = 1;
    S.p[0].shutdown_until = 6;
    OK0(1, NAR_V_END);
    ck_assert_int_eq(S.p[0].core, 1420);
    ck_assert(has_event(NAR_E_BASE_LOAD_SKIPPED, 0));
}
END_TEST

START_TEST(t_p1_sse_order)
{
    /* NAR-P1-SSE-ORDER: core 1500, Coolant Pumps + Reactor Hall */
    for (int rh_first = 0; rh_first < 2; rh_first++) {
        blank(1);
        fill_deck(0, 3);
        S.p[0].core = 1500;
        int cp = add(0, Z_SITE, "coolant-pumps");
        int rh = add(0, Z_SITE, "reactor-hall");
        add(1, Z_SITE, "coolant-pumps"); /* NAR-P1-SSE-OWN */
        OK0(1, NAR_V_END);
        ck_assert_int_eq(S.p[1].core, 1420);
        ck_assert_int_eq(kind(), NAR_D_ORDER);
        ck_assert_str_eq(G->phase(G, &S), "shift_start");
        ck_assert_int_eq(S.p[0].core, 1650);
        REJ1("NAR-P1-AUTO", 0, NAR_V_PLAY, 0);       /* NAR-P1-AUTO */
        REJ0("NAR-P1-AUTO", 0, NAR_V_SCRAM);
        REJ1("NAR-P1-SSE-ORDER", 0, NAR_V_ORDER, 99);
        OK1(0, NAR_V_ORDER, rh_first ? rh : cp);
        ck_assert_int_eq(kind(), NAR_D_OPS);         /* last one resolves itself */
        ck_assert_int_eq(S.p[0].core, 1550);
        ck_assert_int_eq(S.p[0].po, rh_first ? 1 : 0);
        ck_assert_int_eq(S.p[0].swipes, 4);       /* NAR-P1-SWIPES-REFRESH */
    }
    /* NAR-P1-SSE-ALL with Control Room; same-card effects need no prompt */
    blank(1);
    fill_deck(0, 3);
    add(0, Z_SITE, "coolant-pumps");
    add(0, Z_SITE, "coolant-pumps");
    OK0(1, NAR_V_END);
    ck_assert_int_eq(kind(), NAR_D_OPS);
    ck_assert_int_eq(S.p[0].core, 1420 + 150 - 200);
    /* two alike then a different one: the order can matter, so it is asked
     * (every pending card is compared, not only the second) */
    blank(1);
    fill_deck(0, 3);
    add(0, Z_SITE, "coolant-pumps");
    add(0, Z_SITE, "coolant-pumps");
    add(0, Z_SITE, "reactor-hall");
    OK0(1, NAR_V_END);
    ck_assert_int_eq(kind(), NAR_D_ORDER);
    ck_assert_int_eq(S.order_n, 3);
    blank(1);
    fill_deck(0, 3);
    add(0, Z_SITE, "control-room");
    int cp = add(0, Z_SITE, "coolant-pumps");
    OK0(1, NAR_V_END);
    /* timeout default: order of entry (Control Room first) */
    ck_assert_int_eq(kind(), NAR_D_ORDER);
    OK1(0, NAR_V_ORDER, cp);
    ck_assert_int_eq(S.p[0].clearance, 1);
    ck_assert_int_eq(S.p[0].core, 1470);
}
END_TEST

START_TEST(t_p1_swipes)
{
    int nf[] = {0, 1, 3, 4, 5, 6}, want[] = {2, 3, 5, 6, 6, 6};
    for (int i = 0; i < 6; i++) { /* NAR-P1-SWIPES-CAP / NAR-LIMIT-SWIPES */
        blank(1);
        fill_deck(0, 3);
        for (int k = 0; k < nf[i]; k++) add(0, Z_SITE, "switchyard");
        for (int k = 0; k < 3; k++) add(1, Z_SITE, "switchyard"); /* NAR-P1-SWIPES-OWN */
        S.p[0].swipes = 3;                                      /* NAR-P1-SWIPES-NOCARRY */
        OK0(1, NAR_V_END);
        ck_assert_int_eq(S.p[0].swipes, want[i]);
    }
    /* NAR-P2-PLAY-FACILITY-LATE */
    blank(0);
    fill_deck(0, 3);
    fill_deck(1, 3);
    int sw = add(0, Z_HAND, "switchyard");
    OK1(0, NAR_V_PLAY, sw);
    ck_assert_int_eq(S.p[0].nsite, 1);        /* NAR-ZONE-SITE */
    ck_assert_int_eq(S.p[0].swipes, 2);
    OK0(0, NAR_V_END);
    OK0(1, NAR_V_END);
    ck_assert_int_eq(S.p[0].swipes, 3);
}
END_TEST

/* ---- 2.D Operations -------------------------------------------------- */

START_TEST(t_p2_play_and_pay)
{
    blank(0);
    fill_deck(0, 3);
    S.p[0].swipes = 4;
    int a = add(0, Z_HAND, "shift-engineer"), b = add(0, Z_HAND, "coolant-pumps");
    int c = add(0, Z_HAND, "dosimeter"), d = add(0, Z_HAND, "plant-director");
    REJ0("NAR-P2-ACTIVE-ONLY", 1, NAR_V_END);     /* NAR-P2-ACTIVE-ONLY */
    REJ1("NAR-P2-PLAY-EQUIPMENT", 0, NAR_V_PLAY, c); /* needs a target */
    REJ2("NAR-P2-PLAY-EQUIPMENT", 0, NAR_V_PLAY, c, a); /* a not in play (G13) */
    REJ1("NAR-P2-CLEARANCE", 0, NAR_V_PLAY, d);   /* needs C */
    OK1(0, NAR_V_PLAY, a);                        /* NAR-P2-PLAY-PERSONNEL */
    ck_assert_int_eq(S.p[0].nroster, 1);       /* NAR-ZONE-ROSTER */
    ck_assert_int_eq(S.p[0].flags[a], 0);      /* G18 READY */
    OK1(0, NAR_V_PLAY, b);
    OK2(0, NAR_V_PLAY, c, a);                     /* NAR-P2-PLAY-EQUIPMENT */
    ck_assert_int_eq(S.p[0].nequip, 1);
    ck_assert_int_eq(S.p[0].swipes, 1);        /* NAR-P2-REPEAT */
    S.p[0].clearance = 1;
    REJ1("NAR-P2-PAY-SWIPES", 0, NAR_V_PLAY, d);  /* NAR-P2-PAY-SWIPES */
    S.p[0].swipes = 2;
    OK1(0, NAR_V_PLAY, d);                        /* NAR-P2-CLEARANCE accepted at C */
    /* Incidents are not played: NAR-P3-DEPLOY-ONLY-HERE */
    int g = add(0, Z_HAND, "gubby");
    REJ1("NAR-P3-DEPLOY-ONLY-HERE", 0, NAR_V_PLAY, g);
    REJ2("NAR-P3-DEPLOY-ONLY-HERE", 0, NAR_V_DEPLOY, g, 1);
    REJ1("NAR-P3-STEP-ORDER", 0, NAR_V_CLEAR, 0);
}
END_TEST

START_TEST(t_p2_station_recall_exhaust)
{
    blank(0);
    fill_deck(0, 3);
    int a = add(0, Z_ROSTER, "shift-engineer");
    int g = add(0, Z_ROSTER, "station-guard");
    REJ1("NAR-P2-RECALL", 0, NAR_V_RECALL, a);
    OK1(0, NAR_V_STATION, a);
    ck_assert_int_ne(S.p[0].flags[a] & NAR_F_STATIONED, 0);
    REJ1("NAR-P2-STATION", 0, NAR_V_STATION, a);
    OK1(0, NAR_V_RECALL, a);
    ck_assert_int_eq(S.p[0].flags[a] & NAR_F_STATIONED, 0);
    REJ1("NAR-P2-EXHAUST", 0, NAR_V_EXHAUST, g);
    OK1(0, NAR_V_EXHAUST, a);                   /* NAR-P2-EXHAUST */
    ck_assert_int_eq(S.p[0].core, 1370);
    ck_assert_int_ne(S.p[0].flags[a] & NAR_F_EXHAUSTED, 0);
    REJ1("NAR-P2-EXHAUST", 0, NAR_V_EXHAUST, a);
}
END_TEST

START_TEST(t_p2_station_wrong_seat_rule)
{
    blank(0);
    int a = add(1, Z_ROSTER, "station-guard");
    REJ1("NAR-P2-ACTIVE-ONLY", 1, NAR_V_STATION, a); /* NAR-P2-STATION NEG: opponent's shift */
}
END_TEST

START_TEST(t_p2_strike_block)
{
    blank(1);
    fill_deck(0, 5);
    fill_deck(1, 5);
    int r = add(1, Z_ROSTER, "noobian-raider");
    int sg = add(0, Z_ROSTER, "station-guard");
    int se = add(1, Z_ROSTER, "shift-engineer");
    REJ1("NAR-P2-STRIKE", 1, NAR_V_STRIKE, se);     /* non-RAIDER */
    OK1(1, NAR_V_STRIKE, r);                        /* NAR-P2-STRIKE */
    ck_assert_int_ne(S.p[1].flags[r] & NAR_F_EXHAUSTED, 0);
    ck_assert_int_eq(kind(), NAR_D_BLOCK);
    ck_assert_int_eq(owing(), 0);
    REJ0("NAR-P2-STRIKE", 1, NAR_V_END);           /* the defender owes */
    OK1(0, NAR_V_BLOCK, sg);                        /* NAR-CROSS-REACH */
    ck_assert_int_eq(S.p[0].core, 1420);
    ck_assert_int_eq(kind(), NAR_D_OPS);
    REJ1("NAR-P2-STRIKE", 1, NAR_V_STRIKE, r);      /* exhausted */
    /* unblocked: heat or hack */
    S.p[1].flags[r] = 0;
    OK1(1, NAR_V_STRIKE, r);
    ck_assert_int_eq(kind(), NAR_D_STRIKE);         /* guard exhausted: no block prompt */
    OK0(0, NAR_V_HEAT);
    ck_assert_int_eq(S.p[0].core, 1570);
    S.p[1].flags[r] = 0;
    OK1(1, NAR_V_STRIKE, r);
    OK0(0, NAR_V_HACK);
    ck_assert_int_eq(S.p[0].hack, 1);
    ck_assert_int_eq(S.p[0].core, 1570);
    /* Breaching Charge adds to STRIKE */
    S.p[1].flags[r] = 0;
    int bc = add(1, Z_HAND, "breaching-charge");
    OK2(1, NAR_V_PLAY, bc, r);
    OK1(1, NAR_V_STRIKE, r);
    ck_assert_int_eq(S.strike_value, 200);
}
END_TEST

START_TEST(t_p2_scram)
{
    blank(0);
    fill_deck(0, 5);
    fill_deck(1, 5);
    S.p[0].core = 2399;
    REJ0("NAR-P2-SCRAM", 0, NAR_V_SCRAM);
    S.p[0].core = 2400;
    OK0(0, NAR_V_SCRAM);                          /* G06 */
    ck_assert_int_eq(S.p[0].core, 1420);
    ck_assert_int_eq(S.p[0].shutdown, 1);
    S.p[0].core = 2500;
    REJ0("NAR-LIMIT-SCRAM", 0, NAR_V_SCRAM);      /* NAR-LIMIT-SCRAM */
    S.p[0].core = 1420;
    OK0(0, NAR_V_END);                            /* PO check skipped while SHUT DOWN */
    ck_assert_int_eq(S.p[0].po, 0);
    S.p[1].core = 2400;
    OK0(1, NAR_V_SCRAM);                          /* P2's SCRAM still available */
    OK0(1, NAR_V_END);
    ck_assert_int_eq(S.p[0].core, 1420);       /* base load skipped */
    OK0(0, NAR_V_END);                            /* SHUT DOWN ends as this Shift End begins */
    ck_assert_int_eq(S.p[0].shutdown, 0);
    ck_assert_int_eq(S.p[0].po, 1);
}
END_TEST

/* ---- 2.E Incident phase --------------------------------------------- */

START_TEST(t_p3_alarms)
{
    /* NAR-P3-ALARM-OLDEST: Relay Trip (older) then Steam Leak at 1650 */
    for (int rev = 0; rev < 2; rev++) {
        blank(0);
        fill_deck(0, 3);
        fill_deck(1, 3);
        S.p[0].core = 1650;
        if (!rev) { add_board(0, 1, "relay-trip"); add_board(0, 1, "steam-leak"); }
        else { add_board(0, 1, "steam-leak"); add_board(0, 1, "relay-trip"); }
        add_board(1, 0, "steam-leak");          /* NAR-P3-ALARM-NOT-OPP */
        S.p[0].swipes = 0;                      /* no CLEAR prompt */
        OK0(0, NAR_V_END);
        ck_assert_int_eq(S.p[0].core, 1750);
        ck_assert_int_eq(S.p[0].hack, rev ? 1 : 0);
        ck_assert_int_eq(S.p[1].core, 1570);
    }
    /* NAR-P3-ALARM-SITEWIDE: Grid Blackout on P1's board alarms for P0 */
    blank(0);
    fill_deck(0, 3);
    fill_deck(1, 3);
    add_board(1, 0, "grid-blackout");
    OK0(0, NAR_V_END);
    ck_assert_int_eq(S.p[0].core, 1470);
    ck_assert_int_eq(S.p[1].nboard, 1);          /* NAR-P4-DURATION-OWN */
    ck_assert_int_eq(S.p[1].board[0].duration, 3);
}
END_TEST

START_TEST(t_p3_gubby_prompt)
{
    blank(0);
    fill_deck(0, 3);
    fill_deck(1, 3);
    int x = add(0, Z_HAND, "intern");
    add(0, Z_HAND, "intern");
    add_board(0, 1, "gubby");
    OK0(0, NAR_V_END);
    ck_assert_int_eq(kind(), NAR_D_ALARM);         /* NAR-TIME-PROMPT-PAUSE */
    ck_assert_str_eq(G->phase(G, &S), "incident");
    REJ0("NAR-P3-ALARM-MANDATORY", 0, NAR_V_DONE);
    REJ2("NAR-P3-DEPLOY-AFTER-ALARMS", 0, NAR_V_DEPLOY, x, 1);
    REJ0("NAR-P3-ACTIVE-ONLY", 1, NAR_V_GUBBY_HEAT);
    S.p[0].swipes = 1;                          /* Gubby's CLEAR 2 unaffordable */
    OK1(0, NAR_V_GUBBY_DISCARD, x);                /* NAR-TIME-GUBBY */
    ck_assert_int_eq(S.p[0].core, 1420);
    ck_assert_int_eq(S.p[0].nhand, 1);
    ck_assert_int_eq(S.active, 1);              /* resumed on its own */
    ck_assert_int_eq(S.p[0].nboard, 1);         /* NAR-P4-DURATION-NONE */
    /* heat answer */
    blank(0);
    fill_deck(0, 3);
    fill_deck(1, 3);
    add(0, Z_HAND, "intern");
    add_board(0, 1, "gubby");
    OK0(0, NAR_V_END);
    OK0(0, NAR_V_GUBBY_HEAT);
    ck_assert_int_eq(kind(), NAR_D_CLEAR);         /* Swipes 2 pay CLEAR 2 */
    OK0(0, NAR_V_DONE);
    ck_assert_int_eq(S.p[0].core, 1520);
    ck_assert_int_eq(S.p[0].nhand, 1);
}
END_TEST

START_TEST(t_p3_deploy_clear)
{
    blank(0);
    fill_deck(0, 3);
    fill_deck(1, 3);
    int sl = add(0, Z_HAND, "steam-leak");
    int gb = add(0, Z_HAND, "gubby");
    S.p[0].swipes = 0;
    OK0(0, NAR_V_END);
    ck_assert_int_eq(kind(), NAR_D_DEPLOY);
    REJ2("NAR-P3-DEPLOY-TARGET", 0, NAR_V_DEPLOY, sl, 2);
    REJ0("NAR-P3-ACTIVE-ONLY", 1, NAR_V_DECLINE);
    OK2(0, NAR_V_DEPLOY, sl, 1);                   /* NAR-P3-DEPLOY-TARGET, -FREE */
    ck_assert_int_eq(S.p[1].nboard, 1);         /* NAR-ZONE-ALARM */
    ck_assert_int_eq(S.p[1].board[0].owner, 0);
    ck_assert_int_eq(S.p[0].swipes, 0);
    ck_assert_int_eq(S.p[1].core, 1570);        /* P1's base load only: no alarm yet */
    (void)gb;
    /* no clear prompt: nothing on own board → next shift began */
    ck_assert_int_eq(S.active, 1);
    /* NAR-P3-DEPLOY-ONE / STEP-ORDER / CLEAR */
    blank(0);
    fill_deck(0, 3);
    fill_deck(1, 3);
    sl = add(0, Z_HAND, "steam-leak");
    gb = add(0, Z_HAND, "gubby");
    add_board(0, 1, "gubby");
    add_board(0, 1, "relay-trip");
    add_board(1, 0, "steam-leak");
    S.p[0].swipes = 3;
    S.p[0].nhand = 2;
    OK0(0, NAR_V_END);
    ck_assert_int_eq(kind(), NAR_D_ALARM);
    OK0(0, NAR_V_GUBBY_HEAT);
    ck_assert_int_eq(kind(), NAR_D_DEPLOY);
    REJ1("NAR-P3-STEP-ORDER", 0, NAR_V_CLEAR, 0);
    OK2(0, NAR_V_DEPLOY, sl, 1);
    ck_assert_int_eq(kind(), NAR_D_CLEAR);
    REJ2("NAR-P3-DEPLOY-ONE", 0, NAR_V_DEPLOY, gb, 1);          /* NAR-P3-DEPLOY-ONE */
    REJ0("NAR-P3-STEP-ORDER", 0, NAR_V_DECLINE);
}
END_TEST

START_TEST(t_p3_clear_rules)
{
    blank(0);
    fill_deck(0, 3);
    fill_deck(1, 3);
    int sl = add(0, Z_HAND, "steam-leak");
    add_board(0, 1, "gubby");       /* CLEAR 2 */
    add_board(0, 1, "relay-trip");  /* CLEAR 1 */
    add_board(1, 1, "steam-leak");
    S.p[0].swipes = 3;
    S.p[0].core = 1500;
    S.p[0].nhand = 0;               /* Gubby: no card to discard → heat */
    S.p[0].hand[0] = (uint8_t)sl;
    S.p[0].nhand = 1;
    OK0(0, NAR_V_END);
    OK0(0, NAR_V_GUBBY_HEAT);
    ck_assert_int_eq(kind(), NAR_D_DEPLOY);
    OK0(0, NAR_V_DECLINE);                          /* NAR-P3-DEPLOY-OPT */
    ck_assert_int_eq(kind(), NAR_D_CLEAR);
    REJ2("NAR-P3-STEP-ORDER", 0, NAR_V_DEPLOY, sl, 1);
    REJ1("NAR-P3-CLEAR-OWN", 0, NAR_V_CLEAR, 5);
    S.p[0].swipes = 1;
    REJ1("NAR-P3-CLEAR-PAY", 0, NAR_V_CLEAR, 0);    /* Gubby costs 2 */
    S.p[0].swipes = 3;
    OK1(0, NAR_V_CLEAR, 0);                         /* NAR-P3-CLEAR */
    ck_assert_int_eq(S.p[1].ndiscard, 1);        /* to its owner's discard */
    ck_assert_int_eq(kind(), NAR_D_CLEAR);
    OK1(0, NAR_V_CLEAR, 0);                         /* NAR-P3-CLEAR-MANY */
    ck_assert_int_eq(S.p[0].nboard, 0);
    ck_assert_int_eq(S.p[0].swipes, 0);
    ck_assert_int_eq(S.active, 1);
}
END_TEST

START_TEST(t_p3_deploy_limit)
{
    blank(0);
    fill_deck(0, 3);
    fill_deck(1, 3);
    int sl = add(0, Z_HAND, "steam-leak");
    for (int i = 0; i < 3; i++) add_board(1, 0, "gubby");
    S.p[0].swipes = 0;
    OK0(0, NAR_V_END);
    ck_assert_int_eq(kind(), NAR_D_DEPLOY);
    REJ2("NAR-LIMIT-ALARM", 0, NAR_V_DEPLOY, sl, 1);   /* NAR-LIMIT-ALARM */
    OK2(0, NAR_V_DEPLOY, sl, 0);                       /* NAR-LIMIT-ALARM-PERBOARD */
    ck_assert_int_eq(S.p[0].nboard, 1);
    ck_assert_int_eq(S.p[0].core, 1420);            /* NAR-P3-DEPLOY-AFTER-ALARMS */
}
END_TEST

/* ---- 2.F Shift End -------------------------------------------------- */

START_TEST(t_p4_po_overheat)
{
    int cores[] = {1600, 2400, 1400}, gain[] = {1, 0, 0};
    for (int i = 0; i < 3; i++) {              /* NAR-P4-PO-CHECK */
        blank(0);
        fill_deck(0, 3);
        fill_deck(1, 3);
        S.p[0].core = cores[i];
        S.p[0].po = 1;
        OK0(0, NAR_V_END);
        ck_assert(has_event(NAR_E_PO_CHECK, 0));
        ck_assert_int_eq(S.p[0].po, 1 + gain[i]);
    }
    blank(0);                                    /* NAR-P4-OVERHEAT */
    fill_deck(0, 3);
    fill_deck(1, 3);
    add(0, Z_SITE, "reactor-hall");
    S.p[0].core = 2400;
    S.p[0].po = 2;
    S.p[1].core = 2500;
    OK0(0, NAR_V_END);
    ck_assert(has_event(NAR_E_OVERHEAT, 0));
    ck_assert(!has_event(NAR_E_OVERHEAT, 1));       /* NAR-P4-OVERHEAT-OWN */
    ck_assert_int_eq(S.p[0].po, 1);
    blank(0);
    fill_deck(0, 3);
    fill_deck(1, 3);
    S.p[0].core = 2399;
    OK0(0, NAR_V_END);
    ck_assert(!has_event(NAR_E_OVERHEAT, 0));
    ck_assert(event_pos(NAR_E_PO_CHECK) < event_pos(NAR_E_SHIFT_BEGIN)); /* NAR-P4-STEP-ORDER */
}
END_TEST

START_TEST(t_p4_duration_discard_hand)
{
    blank(0);
    fill_deck(0, 3);
    fill_deck(1, 3);
    add_board(0, 1, "steam-leak");
    add_board(0, 1, "relay-trip");
    for (int i = 0; i < 9; i++) add(0, Z_HAND, "intern");
    for (int i = 0; i < 9; i++) add(1, Z_HAND, "intern");
    S.p[0].swipes = 0;
    OK0(0, NAR_V_END);
    ck_assert_int_eq(S.p[0].nboard, 1);              /* NAR-P4-DURATION-DISCARD */
    ck_assert_int_eq(S.p[0].board[0].duration, 1);   /* NAR-P4-DURATION-DEC */
    ck_assert_int_eq(S.p[1].ndiscard, 1);
    ck_assert_int_eq(kind(), NAR_D_DISCARD);            /* NAR-P4-HAND */
    ck_assert_str_eq(G->phase(G, &S), "shift_end");
    REJ0("NAR-P4-AUTO", 0, NAR_V_END);                  /* NAR-P4-AUTO */
    REJ1("NAR-P4-HAND-OWN", 1, NAR_V_DISCARD, 0);
    REJ1("NAR-P4-HAND", 0, NAR_V_DISCARD, 200);
    OK1(0, NAR_V_DISCARD, S.p[0].hand[3]);
    ck_assert_int_eq(kind(), NAR_D_DISCARD);
    OK1(0, NAR_V_DISCARD, S.p[0].hand[0]);
    ck_assert_int_eq(S.p[0].nhand, 7);
    ck_assert_int_eq(S.active, 1);
    ck_assert_int_eq(S.p[1].nhand, 10);              /* NAR-P4-HAND-OWN */
    /* NAR-LIMIT-HAND: 9 cards during Operations is fine */
    ck_assert_int_eq(kind(), NAR_D_OPS);
}
END_TEST

START_TEST(t_p4_winloss)
{
    blank(0);                                        /* PO target */
    fill_deck(0, 3);
    fill_deck(1, 3);
    S.p[0].po = NAR_PO_TARGET - 1;
    S.p[0].core = 1600;
    OK0(0, NAR_V_END);
    arb_outcome oc;
    ck_assert(G->outcome(G, &S, &oc));
    ck_assert_int_eq(oc.winner, 0);
    ck_assert_int_eq(oc.reason, NAR_R_POWER_ORDERS);
    ck_assert_int_eq(owing(), ARB_SEAT_NONE);
    arb_action tmp[4];
    ck_assert_int_eq(G->legal(G, &S, tmp, 4), 0);
    ck_assert_int_eq(act(0, NAR_V_END, 0, 0, 0, 0), ARB_EOVER);
    blank(0);                                        /* meltdown */
    fill_deck(0, 3);
    fill_deck(1, 3);
    S.p[0].core = 3100;
    S.p[1].po = NAR_PO_TARGET;
    OK0(0, NAR_V_END);
    ck_assert(G->outcome(G, &S, &oc));
    ck_assert_int_eq(oc.winner, 1);
    ck_assert_int_eq(oc.reason, NAR_R_MELTDOWN);
    blank(0);                                        /* deck-out, G16 */
    fill_deck(1, 3);
    int w = add(0, Z_HAND, "work-order");
    OK1(0, NAR_V_PLAY, w);
    ck_assert_int_eq(S.p[0].decked, 1);
    OK0(0, NAR_V_END);
    ck_assert(G->outcome(G, &S, &oc));
    ck_assert_int_eq(oc.winner, 1);
    ck_assert_int_eq(oc.reason, NAR_R_DECK_OUT);
}
END_TEST

/* ---- 2.G timing ------------------------------------------------------ */

START_TEST(t_time_until_next_se)
{
    blank(0);
    fill_deck(0, 5);
    fill_deck(1, 5);
    add(0, Z_ROSTER, "political-officer");
    int did = add(0, Z_HAND, "defense-in-depth");
    int r = add(1, Z_ROSTER, "noobian-raider");
    OK1(0, NAR_V_PLAY, did);                      /* shift 3 */
    ck_assert_int_eq(S.p[0].neffects, 1);
    S.p[0].flags[S.p[0].roster[0]] = 0;
    OK0(0, NAR_V_END);                            /* NAR-TIME-UNTIL-NOT-CURRENT */
    ck_assert_int_eq(S.p[0].neffects, 1);
    OK1(1, NAR_V_STRIKE, r);                      /* shift 4 */
    ck_assert_int_eq(kind(), NAR_D_BLOCK);
    OK0(0, NAR_V_NOBLOCK);
    OK0(0, NAR_V_HEAT);
    ck_assert_int_eq(S.p[0].core, 1420 + 50);  /* 150 - 100 */
    OK0(1, NAR_V_END);
    ck_assert_int_eq(S.p[0].neffects, 1);
    OK0(0, NAR_V_END);                            /* shift 5's Shift End: gone */
    ck_assert_int_eq(S.p[0].neffects, 0);
    ck_assert(has_event(NAR_E_EFFECT_END, 0));
}
END_TEST

/* ---- 2.H limits ------------------------------------------------------ */

START_TEST(t_limits)
{
    blank(0);
    fill_deck(0, 5);
    S.p[0].swipes = 6;
    for (int i = 0; i < 6; i++) add(0, Z_ROSTER, "intern");
    int i7 = add(0, Z_HAND, "intern"), i8 = add(0, Z_HAND, "intern");
    OK1(0, NAR_V_PLAY, i7);                       /* 7th accepted */
    REJ1("NAR-LIMIT-ROSTER", 0, NAR_V_PLAY, i8);
    for (int i = 0; i < 5; i++) add(0, Z_SITE, "switchyard");
    int f6 = add(0, Z_HAND, "switchyard"), f7 = add(0, Z_HAND, "switchyard");
    OK1(0, NAR_V_PLAY, f6);
    REJ1("NAR-LIMIT-SITE", 0, NAR_V_PLAY, f7);
    int ev1 = add(0, Z_HAND, "emergency-venting"), bi = add(0, Z_HAND, "boron-injection");
    OK1(0, NAR_V_PLAY, ev1);                      /* NAR-PLAY-PROCEDURE: to discard */
    ck_assert_int_eq(S.p[0].discard[S.p[0].ndiscard - 1], ev1);
    REJ1("NAR-LIMIT-ACT", 0, NAR_V_PLAY, bi);
    int md = add(0, Z_HAND, "ministry-directive"), md2 = add(0, Z_HAND, "ministry-directive");
    REJ1("NAR-LIMIT-DOCTRINE-CMDR", 0, NAR_V_PLAY, md);
    /* swap an intern for a commander */
    S.p[0].card[S.p[0].roster[0]] = (uint16_t)card_ix("political-officer");
    OK1(0, NAR_V_PLAY, md);                       /* NAR-LIMIT-ACT-DOCTRINE-SEPARATE */
    REJ1("NAR-LIMIT-DOCTRINE", 0, NAR_V_PLAY, md2);
    /* EDG */
    REJ0("NAR-LIMIT-SWIPES-EDG", 0, NAR_V_EDG);
    S.p[0].card[S.p[0].site[0]] = (uint16_t)card_ix("emergency-diesel-generators");
    S.p[0].swipes = 6;
    OK0(0, NAR_V_EDG);
    ck_assert_int_eq(S.p[0].swipes, 7);
    REJ0("NAR-LIMIT-SWIPES-EDG", 0, NAR_V_EDG);
    /* unique in play */
    blank(0);
    int v1 = add(0, Z_HAND, "chief-engineer-vessa"), v2 = add(0, Z_HAND, "chief-engineer-vessa");
    S.p[0].swipes = 4;
    OK1(0, NAR_V_PLAY, v1);
    REJ1("NAR-DECK-UNIQUE-PLAY", 0, NAR_V_PLAY, v2);
    int ra = add(0, Z_HAND, "reassignment");
    OK2(0, NAR_V_PLAY, ra, v1);
    OK1(0, NAR_V_PLAY, v2);
}
END_TEST

/* ---- 2.I deck rules --------------------------------------------------- */

static unsigned deck_rules(const arb_deck *d, const char *rule, int *warning)
{
    arb_deck_issue is[32];
    unsigned n = G->deck_check(G, d, is, 32), hits = 0;
    for (unsigned i = 0; i < n && i < 32; i++)
        if (strcmp(is[i].rule, rule) == 0) { hits++; if (warning) *warning = is[i].warning; }
    return hits;
}

/* The message of the first issue under rule (what the deck's author reads). */
static char deck_msgbuf[256];
static const char *deck_msg(const arb_deck *d, const char *rule)
{
    arb_deck_issue is[32];
    unsigned n = G->deck_check(G, d, is, 32);
    for (unsigned i = 0; i < n && i < 32; i++)
        if (strcmp(is[i].rule, rule) == 0) {
            snprintf(deck_msgbuf, sizeof deck_msgbuf, "%s", is[i].msg);
            return deck_msgbuf;
        }
    return "";
}

static int deck_illegal(const arb_deck *d)
{
    arb_deck_issue is[32];
    unsigned n = G->deck_check(G, d, is, 32);
    for (unsigned i = 0; i < n && i < 32; i++)
        if (!is[i].warning) return 1;
    return 0;
}

static void set_card(arb_deck *d, int pos, const char *id) { d->cards[pos] = (uint16_t)card_ix(id); }

START_TEST(t_deck_rules)
{
    for (unsigned i = 0; i < G->npresets; i++) ck_assert(!deck_illegal(G->preset(G, i)));
    arb_deck d = *arb_deck_preset(G, "defense-doe");
    ck_assert_int_eq(deck_rules(&d, "NAR-DECK-WARN-DEFENSE", NULL), 0); /* NAR-DECK-WARN-NONE */
    d.ncards = 39;
    ck_assert_int_eq(deck_rules(&d, "NAR-DECK-SIZE", NULL), 1);
    d.ncards = 41;
    d.cards[40] = (uint16_t)card_ix("intern");
    ck_assert_int_eq(deck_rules(&d, "NAR-DECK-SIZE", NULL), 1);
    d = *arb_deck_preset(G, "defense-doe");
    d.cards[5] = (uint16_t)arb_naramo__ncards;   /* the first index past the pool (a hostile replay header) */
    int warn = -1;
    ck_assert_int_eq(deck_rules(&d, "NAR-CARDTYPES-FIVE", &warn), 1);
    ck_assert_int_eq(warn, 0);                   /* an error, not a warning: setup refuses the deck */
    ck_assert(deck_illegal(&d));
    d = *arb_deck_preset(G, "defense-doe");
    /* d[0..2] shift-engineer; make a 4th copy */
    ck_assert_int_eq(d.cards[3], card_ix("reactor-physicist"));
    set_card(&d, 3, "shift-engineer");
    ck_assert_int_eq(deck_rules(&d, "NAR-DECK-COPIES", NULL), 1);
    d = *arb_deck_preset(G, "defense-doe");
    set_card(&d, 3, "classified-dossier-z-1"); /* 2x Z-1 */
    ck_assert_int_eq(deck_rules(&d, "NAR-DECK-Z-COPY", NULL), 1);
    set_card(&d, 3, "classified-dossier-z-2");
    ck_assert(!deck_illegal(&d));
    set_card(&d, 4, "classified-dossier-z-3");
    ck_assert_int_eq(deck_rules(&d, "NAR-DECK-Z-TOTAL", NULL), 1);
    d = *arb_deck_preset(G, "defense-doe");
    set_card(&d, 3, "chief-engineer-vessa");   /* 3 Vessa: legal */
    ck_assert(!deck_illegal(&d));
    set_card(&d, 4, "chief-engineer-vessa");   /* 4 */
    ck_assert_int_eq(deck_rules(&d, "NAR-DECK-UNIQUE-DECK", NULL), 1);
    d = *arb_deck_preset(G, "defense-doe");
    set_card(&d, 3, "bloxian-warlord");
    ck_assert_int_eq(deck_rules(&d, "NAR-DECK-BLOC-ONLY", NULL), 1);
    ck_assert_str_eq(deck_msg(&d, "NAR-DECK-BLOC-ONLY"), "Bloxian Warlord (Bloxian) is not legal in a DEFENSE deck");
    d = *arb_deck_preset(G, "assault-noobia");
    set_card(&d, 0, "station-guard");
    ck_assert_int_eq(deck_rules(&d, "NAR-DECK-BLOC-ONLY", NULL), 1);
    ck_assert_str_eq(deck_msg(&d, "NAR-DECK-BLOC-ONLY"), "Station Guard (SECFOR) is not legal in a ASSAULT deck");
    d = *arb_deck_preset(G, "defense-doe");
    arb_deck_attr_set(&d, "bloc", "NEUTRAL");
    ck_assert_int_eq(deck_rules(&d, "NAR-DECK-BLOC-DECLARE", NULL), 1);
    d.nattrs = 0;
    ck_assert_int_eq(deck_rules(&d, "NAR-DECK-BLOC-DECLARE", NULL), 1);
    /* warnings, still legal */
    d = *arb_deck_preset(G, "defense-doe");
    static const char *const repd[] = {"intern", "intern", "intern", "switchyard", "switchyard",
                                       "switchyard", "station-guard", "station-guard"};
    for (int i = 0, k = 0; i < 40; i++) {
        const nar_carddef *c = &arb_naramo__cards[d.cards[i]];
        if (c->flags & NAR_OPERATOR) set_card(&d, i, repd[k++]);
    }
    int w = -1;
    ck_assert(!deck_illegal(&d));
    ck_assert_int_eq(deck_rules(&d, "NAR-DECK-WARN-DEFENSE", &w), 1);
    ck_assert_int_eq(w, 1);
    arb_setup su = mk_setup(3, "defense-doe", "assault-noobia");
    su.decks[0] = &d;
    ck_assert_int_eq(G->setup(G, &S, &su, NULL, &E), 0);
    d = *arb_deck_preset(G, "assault-noobia");
    static const char *const repa[] = {"intern", "intern", "switchyard", "noobian-captain",
                                       "emergency-diesel-generators", "emergency-diesel-generators"};
    for (int i = 0, k = 0; i < 40; i++) {
        const nar_carddef *c = &arb_naramo__cards[d.cards[i]];
        if (c->flags & NAR_RAIDER) set_card(&d, i, repa[k++]);
    }
    ck_assert(!deck_illegal(&d));
    ck_assert_int_eq(deck_rules(&d, "NAR-DECK-WARN-ASSAULT", NULL), 1);
    /* deck file syntax with the bloc line */
    const char *txt = "# test\nbloc: ASSAULT\n3 Noobian Raider\n37 intern\n";
    arb_deck f;
    ck_assert_int_eq(arb_deck_parse(&f, G, txt, strlen(txt), "t.deck", &E), 0);
    ck_assert_int_eq(arb_naramo__bloc(&f), NAR_BLOC_ASSAULT);
    ck_assert_int_eq(deck_rules(&f, "NAR-DECK-COPIES", NULL), 1);
    ck_assert_int_eq(deck_rules(&f, "NAR-DECK-SIZE", NULL), 0);
}
END_TEST

/* ---- 2.J clock -------------------------------------------------------- */

START_TEST(t_clock_shift)
{
    blank(0);
    fill_deck(0, 10);
    fill_deck(1, 10);
    ck_assert_int_eq(G->decision(G, &S).clock_left_ms, 90000);
    int a = add(0, Z_ROSTER, "station-guard");
    ck_assert_int_eq(act(0, NAR_V_STATION, 1, a, 0, 89000), 0);   /* 89 s: may act */
    ck_assert_int_eq(G->decision(G, &S).clock_left_ms, 1000);
    REJ_("NAR-CLOCK-SHIFT90", 0, NAR_V_RECALL, 1, a, 0, 1000);     /* at 90 s: too late */
    REJ_("NAR-CLOCK-SHIFT90", -1, NAR_V_TIMEOUT, 0, 0, 0, 999);    /* not yet */
    ck_assert_int_eq(act(-1, NAR_V_TIMEOUT, 0, 0, 0, 1000), 0);   /* NAR-CLOCK-AUTOEND */
    ck_assert_int_eq(S.active, 1);
    ck_assert_int_eq(S.p[0].timeouts, 1);
    ck_assert_int_eq(S.shift_ms, 0);
    ck_assert_int_eq(S.match_ms, 90000);
    /* NAR-CLOCK-FORFEIT: timeout, end, timeout, timeout → no forfeit */
    ck_assert_int_eq(act(1, NAR_V_END, 0, 0, 0, 0), 0);
    ck_assert_int_eq(act(-1, NAR_V_TIMEOUT, 0, 0, 0, 90000), 0);  /* P0: 2 */
    ck_assert_int_eq(S.p[0].timeouts, 2);
    OK0(1, NAR_V_END);
    OK0(0, NAR_V_END);                                            /* reset */
    ck_assert_int_eq(S.p[0].timeouts, 0);
    for (int k = 0; k < 3; k++) {
        OK0(1, NAR_V_END);
        ck_assert_int_eq(act(-1, NAR_V_TIMEOUT, 0, 0, 0, 90000), 0);
    }
    arb_outcome oc;
    ck_assert(G->outcome(G, &S, &oc));
    ck_assert_int_eq(oc.winner, 1);
    ck_assert_int_eq(oc.reason, NAR_R_TIMEOUTS);
}
END_TEST

START_TEST(t_clock_defaults)
{
    /* block prompt expires: no block, heat (NAR-CLOCK-DEFAULT-NOBLOCK/HEAT) */
    blank(1);
    fill_deck(0, 10);
    fill_deck(1, 10);
    int r = add(1, Z_ROSTER, "noobian-raider");
    add(0, Z_ROSTER, "station-guard");
    OK1(1, NAR_V_STRIKE, r);
    ck_assert_int_eq(kind(), NAR_D_BLOCK);
    ck_assert_int_eq(act(-1, NAR_V_TIMEOUT, 0, 0, 0, 90000), 0);
    ck_assert_int_eq(S.p[0].core, 1420 + 150 + 150); /* heat, then P0's base load */
    ck_assert_int_eq(S.p[0].hack, 0);
    ck_assert_int_eq(S.p[0].timeouts, 1);            /* owed by the defender */
    /* Gubby expires → heat (G21); discard-to-7 expires → earliest cards */
    blank(0);
    fill_deck(0, 10);
    fill_deck(1, 10);
    add_board(0, 1, "gubby");
    for (int i = 0; i < 9; i++) add(0, Z_HAND, "intern");
    int first = S.p[0].hand[0], second = S.p[0].hand[1], third = S.p[0].hand[2];
    OK0(0, NAR_V_END);
    ck_assert_int_eq(kind(), NAR_D_ALARM);
    ck_assert_int_eq(act(-1, NAR_V_TIMEOUT, 0, 0, 0, 90000), 0);
    ck_assert_int_eq(S.p[0].core, 1520);
    ck_assert_int_eq(S.p[0].nhand, 7);
    ck_assert_int_eq(S.p[0].discard[0], first);
    ck_assert_int_eq(S.p[0].discard[1], second);
    ck_assert_int_eq(S.p[0].hand[0], third);
    /* Review expires → keep (NAR-CLOCK-REVIEW90, NAR-CLOCK-DEFAULT-KEEP) */
    arb_setup su = mk_setup(9, "defense-doe", "assault-noobia");
    G->setup(G, &S, &su, NULL, &E);
    uint8_t h[6];
    memcpy(h, S.p[0].hand, 6);
    REJ_("NAR-CLOCK-REVIEW90", 0, NAR_V_REVIEW, 0, 0, 0, 90000);
    REJ_("NAR-CLOCK-REVIEW90", -1, NAR_V_TIMEOUT, 0, 0, 0, 100);
    ck_assert_int_eq(act(-1, NAR_V_TIMEOUT, 0, 0, 0, 90000), 0);
    ck_assert_int_eq(memcmp(h, S.p[0].hand, 6), 0);
    ck_assert_int_eq(S.p[0].review_used, 0);
    ck_assert_int_eq(owing(), 1);
    ck_assert_int_eq(G->decision(G, &S).clock_left_ms, 90000);
}
END_TEST

START_TEST(t_clock_disconnect)
{
    blank(0);
    fill_deck(0, 10);
    fill_deck(1, 10);
    ck_assert_int_eq(act(-1, NAR_V_DISCONNECT, 1, 0, 0, 1000), 0);
    ck_assert_int_eq(owing(), ARB_SEAT_ARBITER);
    ck_assert_int_eq(kind(), NAR_D_RECONNECT);
    ck_assert_int_eq(G->decision(G, &S).clock_left_ms, 60000);
    REJ0("NAR-CLOCK-DISCONNECT", 0, NAR_V_END);
    REJ1("NAR-CLOCK-DISCONNECT", -1, NAR_V_DISCONNECT, 0);
    REJ1("NAR-CLOCK-DISCONNECT", -1, NAR_V_RECONNECT, 1);
    arb_action l[4];
    ck_assert_int_eq(G->legal(G, &S, l, 4), 1);
    ck_assert_int_eq(l[0].verb, NAR_V_RECONNECT);
    ck_assert_int_eq(act(-1, NAR_V_RECONNECT, 1, 0, 0, 59000), 0);  /* t+59 s */
    ck_assert_int_eq(owing(), 0);
    OK0(0, NAR_V_END);
    /* late reconnect: opponent wins */
    ck_assert_int_eq(act(-1, NAR_V_DISCONNECT, 1, 0, 0, 0), 0);
    REJ_("NAR-CLOCK-DISCONNECT", -1, NAR_V_RECONNECT, 1, 1, 0, 0); /* seat 1 is connected */
    ck_assert_int_eq(act(-1, NAR_V_RECONNECT, 1, 0, 0, 60000), 0);
    arb_outcome oc;
    ck_assert(G->outcome(G, &S, &oc));
    ck_assert_int_eq(oc.winner, 1);
    ck_assert_int_eq(oc.reason, NAR_R_DISCONNECT);
    /* grace observed by timeout; other seat's actions past it rejected */
    blank(0);
    fill_deck(0, 10);
    fill_deck(1, 10);
    ck_assert_int_eq(act(-1, NAR_V_DISCONNECT, 1, 1, 0, 0), 0);
    ck_assert_int_eq(S.p[1].disc_at, 0);
    REJ_("NAR-CLOCK-DISCONNECT", 0, NAR_V_END, 0, 0, 0, 60000);
    REJ_("NAR-CLOCK-SHIFT90", -1, NAR_V_TIMEOUT, 0, 0, 0, 59999);
    ck_assert_int_eq(act(-1, NAR_V_TIMEOUT, 0, 0, 0, 60000), 0);
    ck_assert(G->outcome(G, &S, &oc));
    ck_assert_int_eq(oc.winner, 0);
    ck_assert_int_eq(oc.reason, NAR_R_DISCONNECT);
}
END_TEST

START_TEST(t_clock_off_and_texts)
{
    arb_setup su = mk_setup(4, "defense-doe", "assault-noobia");
    arb_options_set(&su.options, "clock", 0);
    ck_assert_int_eq(G->setup(G, &S, &su, NULL, &E), 0);
    ck_assert_int_eq(G->decision(G, &S).clock_left_ms, -1);
    REJ_("NAR-CLOCK-REVIEW90", -1, NAR_V_TIMEOUT, 0, 0, 0, 500000);
    ck_assert_int_eq(act(0, NAR_V_KEEP, 0, 0, 0, 500000), 0);     /* no 90 s limit */
    char buf[200];
    arb_action a;
    memset(&a, 0, sizeof a);
    a.seat = 1;
    a.verb = NAR_V_KEEP;
    ck_assert_int_gt(G->action_text(G, &S, &a, buf, sizeof buf), 0);
    ck_assert_str_eq(buf, "P2 keep");
    a.verb = NAR_V_PLAY;
    a.nargs = 1;
    a.args[0] = S.p[1].hand[0];
    G->action_text(G, &S, &a, buf, sizeof buf);
    ck_assert_ptr_nonnull(strstr(buf, arb_naramo__cards[S.p[1].card[a.args[0]]].pub.name));
    /* card_export gives the stats */
    arb_tree *t = arb_tree_new();
    G->card_export(G, (unsigned)card_ix("noobian-raider"), t, arb_tree_root(t));
    ck_assert_int_eq(arb_tnode_get(arb_tree_root(t), "strike")->i, 150);
    ck_assert_int_eq(arb_tnode_get(arb_tree_root(t), "cost")->i, 1);
    ck_assert_str_eq(G->card(G, (unsigned)card_ix("noobian-raider"))->group, "West Noobia");
    ck_assert_ptr_null(arb_tnode_get(arb_tree_root(t), "name")); /* stats only: name etc. are arb_card's */
    arb_tree_free(t);
    t = arb_tree_new();
    G->card_export(G, (unsigned)card_ix("gubby"), t, arb_tree_root(t));
    ck_assert_int_eq(arb_tnode_get(arb_tree_root(t), "clear")->i, 2);
    ck_assert_int_eq(arb_tnode_get(arb_tree_root(t), "duration")->i, -1);
    arb_tree_free(t);
    /* the five card types, and the SHIFT START examples */
    int types[5] = {0};
    for (unsigned i = 0; i < G->ncards; i++) types[arb_naramo__cards[i].type]++;
    for (int k = 0; k < 5; k++) ck_assert_int_gt(types[k], 0);  /* NAR-CARDTYPES-FIVE */
    ck_assert_ptr_nonnull(strstr(G->card(G, (unsigned)card_ix("reactor-hall"))->text, "SHIFT START:")); /* NAR-P1-SSE-EXAMPLES */
    ck_assert_ptr_nonnull(strstr(G->card(G, (unsigned)card_ix("control-room"))->text, "SHIFT START:"));
    ck_assert_ptr_nonnull(strstr(G->card(G, (unsigned)card_ix("coolant-pumps"))->text, "SHIFT START:"));
}
END_TEST

/* ---- views, export, load ------------------------------------------- */

static arb_tree *export_tree(const void *st, int view)
{
    arb_tree *t = arb_tree_new();
    G->export_state(G, st, view, t, arb_tree_root(t));
    return t;
}

static int roundtrip_ok(const nar_state *s, char *why, size_t n)
{
    arb_tree *t = export_tree(s, ARB_VIEW_ALL);
    nar_state *b = malloc(sizeof *b);
    arb_setup su;
    memset(&su, 0, sizeof su);
    su.players = 2;
    su.seed = 99;
    arb_error e = ARB_ERROR_INIT;
    int rc = G->load_position(G, b, arb_tree_root(t), &su, &e);
    int ok = rc == 0 && G->hash(G, b) == G->hash(G, s);
    if (!ok) snprintf(why, n, "rc %d %s %.120s at %.120s", rc, e.rule, e.msg, e.where);
    free(b);
    arb_tree_free(t);
    return ok;
}

START_TEST(t_views_and_roundtrip)
{
    arb_setup su = mk_setup(21, "defense-secfor", "assault-bloxian");
    G->setup(G, &S, &su, NULL, &E);
    char why[400] = "";
    ck_assert_msg(roundtrip_ok(&S, why, sizeof why), "%s", why);
    arb_tree *t = export_tree(&S, 0);
    const arb_tnode *r = arb_tree_root(t);
    ck_assert_ptr_nonnull(arb_tnode_path(r, "players.0.hand"));
    ck_assert_ptr_null(arb_tnode_path(r, "players.1.hand"));
    ck_assert_ptr_null(arb_tnode_path(r, "players.0.deck"));
    ck_assert_ptr_null(arb_tnode_path(r, "players.1.cards"));
    ck_assert_ptr_null(arb_tnode_path(r, "rng"));
    ck_assert_int_eq(arb_tnode_path(r, "players.1.hand_count")->i, 6);
    ck_assert_int_eq(arb_tnode_path(r, "players.0.core")->i, 1420);
    arb_tree_free(t);
    /* hidden draw text */
    arb_event ev = {NAR_E_DRAW, 0, 1, 3, card_ix("gubby"), 0};
    char buf[200];
    G->event_text(G, &ev, 1, buf, sizeof buf);
    ck_assert_ptr_null(strstr(buf, "Gubby"));
    G->event_text(G, &ev, 0, buf, sizeof buf);
    ck_assert_ptr_nonnull(strstr(buf, "Gubby"));
    for (unsigned k = 0; k < G->nevent_names; k++) {
        arb_event e2 = {(uint16_t)k, 0, 0, 1, 2, 3};
        ck_assert_int_gt(G->event_text(G, &e2, ARB_VIEW_ALL, buf, sizeof buf), 0);
        ck_assert_ptr_nonnull(strstr(buf, "Supervisor"));
    }
}
END_TEST

static arb_tnode *pos_player(arb_tree *t, arb_tnode *players)
{
    arb_tnode *p = arb_tree_add_map(t, players, NULL);
    return p;
}

START_TEST(t_load_position)
{
    arb_tree *t = arb_tree_new();
    arb_tnode *r = arb_tree_root(t);
    arb_tree_add_int(t, r, "shift", 3);
    arb_tree_add_int(t, r, "active", 1);
    arb_tnode *pl = arb_tree_add_arr(t, r, "players");
    arb_tnode *p0 = pos_player(t, pl), *p1 = pos_player(t, pl);
    arb_tree_add_int(t, p0, "core", 2000);
    arb_tnode *h = arb_tree_add_arr(t, p1, "hand");
    arb_tree_add_str(t, h, NULL, "gubby");
    arb_tree_add_str(t, h, NULL, "Coolant Pumps");
    arb_tnode *ro = arb_tree_add_arr(t, p1, "roster");
    arb_tnode *e = arb_tree_add_map(t, ro, NULL);
    arb_tree_add_str(t, e, "card", "noobian-raider");
    arb_tree_add_bool(t, e, "exhausted", 1);
    arb_tnode *b = arb_tree_add_arr(t, p0, "board");
    arb_tnode *be = arb_tree_add_map(t, b, NULL);
    arb_tree_add_int(t, be, "owner", 1);
    arb_tree_add_str(t, be, "card", "steam-leak");
    arb_setup su;
    memset(&su, 0, sizeof su);
    su.players = 2;
    su.seed = 5;
    arb_error e2 = ARB_ERROR_INIT;
    int rc = G->load_position(G, &S, r, &su, &e2);
    ck_assert_msg(rc == 0, "%s %s %s", e2.rule, e2.msg, e2.where);
    ck_assert_int_eq(S.p[0].core, 2000);
    ck_assert_int_eq(S.p[1].nhand, 2);
    ck_assert_int_eq(S.p[1].ncards, 4);
    ck_assert_int_eq(S.p[0].board[0].owner, 1);
    ck_assert_int_eq(S.p[0].board[0].uid, 3);
    ck_assert_int_eq(owing(), 1);
    char why[300];
    ck_assert_msg(roundtrip_ok(&S, why, sizeof why), "%s", why);
    /* unknown key, with its path */
    arb_tree_add_int(t, e, "tapped", 1);
    ck_assert_int_ne(G->load_position(G, &S, r, &su, &e2), 0);
    ck_assert_str_eq(e2.where, "players.1.roster.0.tapped");
    arb_tree_free(t);
    /* too many in the roster → the limit's rule */
    t = arb_tree_new();
    r = arb_tree_root(t);
    pl = arb_tree_add_arr(t, r, "players");
    p0 = pos_player(t, pl);
    pos_player(t, pl);
    ro = arb_tree_add_arr(t, p0, "roster");
    for (int i = 0; i < 8; i++) arb_tree_add_str(t, ro, NULL, "intern");
    ck_assert_int_ne(G->load_position(G, &S, r, &su, &e2), 0);
    ck_assert_str_eq(e2.rule, "NAR-LIMIT-ROSTER");
    ck_assert_str_eq(e2.where, "players.0.roster.7");
    arb_tree_free(t);
    /* one player only */
    t = arb_tree_new();
    r = arb_tree_root(t);
    pl = arb_tree_add_arr(t, r, "players");
    pos_player(t, pl);
    ck_assert_int_ne(G->load_position(G, &S, r, &su, &e2), 0);
    ck_assert_str_eq(e2.rule, "NAR-MATCH-TWO");
    arb_tree_free(t);
}
END_TEST

/* ---- property test (engine_kit_play.h) ------------------------------ */

#define MAX_LOG 20000

static void view_clean(ek_play *p, const void *st, int seat)
{
    const nar_state *s = st;
    arb_tree *t = export_tree(s, seat);
    const arb_tnode *r = arb_tree_root(t);
    char path[64];
    snprintf(path, sizeof path, "players.%d.hand", 1 - seat);
    EK_REQ(!arb_tnode_path(r, path), "seat %d sees %s", seat, path);
    EK_REQ(!arb_tnode_path(r, "players.0.deck") && !arb_tnode_path(r, "players.1.deck"), "seat %d sees a deck", seat);
    EK_REQ(!arb_tnode_path(r, "players.0.cards") && !arb_tnode_path(r, "players.1.cards"), "seat %d sees cards", seat);
    EK_REQ(!arb_tnode_path(r, "rng"), "seat %d sees the PRNG", seat);
    /* no uid of the opponent's hand appears anywhere as that seat's card */
    const nar_player *o = &s->p[1 - seat];
    snprintf(path, sizeof path, "players.%d", 1 - seat);
    const arb_tnode *op = arb_tnode_path(r, path);
    for (const arb_tnode *z = op->first; z; z = z->next) {
        if (z->kind != ARB_T_ARR || strcmp(z->key, "board") == 0) continue;
        for (const arb_tnode *c = z->first; c; c = c->next) {
            const arb_tnode *u = arb_tnode_get(c, "uid");
            if (!u) continue;
            for (int i = 0; i < o->nhand; i++)
                EK_REQ(u->i != o->hand[i], "seat %d sees uid %d of the opponent's hand in %s", seat, o->hand[i], z->key);
        }
    }
    arb_tree_free(t);
    (void)p;
}

/* Seats -1..2, every verb and two beyond, 0-2 arguments, sometimes late. */
static void sample(ek_play *p, const void *st, arb_rng *ar, arb_action *x)
{
    (void)p;
    (void)st;
    x->seat = (int8_t)((int)arb_rng_below(ar, 4) - 1);
    x->verb = (uint8_t)arb_rng_below(ar, NAR_V_COUNT + 2);
    x->nargs = (uint8_t)arb_rng_below(ar, 3);
    x->args[0] = (int32_t)arb_rng_below(ar, 70) - 2;
    x->args[1] = (int32_t)arb_rng_below(ar, 5) - 1;
    x->elapsed_ms = arb_rng_below(ar, 8) == 0 ? arb_rng_below(ar, 200000) : 0;
}

/* What `seat` cannot see: an opponent's hand card swapped with one of its
 * deck cards, and seat's own deck reordered. */
static void scramble(ek_play *p, void *st, int seat, arb_rng *r)
{
    (void)p;
    (void)r;
    nar_state *cp = st;
    nar_player *o = &cp->p[1 - seat];
    if (o->nhand && o->ndeck) {
        uint8_t t = o->hand[0];
        o->hand[0] = o->deck[0];
        o->deck[0] = t;
    }
    nar_player *me = &cp->p[seat];
    if (me->ndeck > 1) {
        uint8_t t = me->deck[0];
        me->deck[0] = me->deck[me->ndeck - 1];
        me->deck[me->ndeck - 1] = t;
    }
}

/* Timed games (variant 1): each action takes thinking time, a slow one
 * runs the shift clock out (the arbiter's timeout), and now and then a
 * seat disconnects or reconnects. */
static int choose(ek_play *p, const void *st, arb_rng *ar, arb_action *a)
{
    const nar_state *s = st;
    if (!p->plan.variant) return 0;
    arb_decision d = p->d;
    uint32_t think = arb_rng_below(ar, 100) < 97 ? arb_rng_below(ar, 8000) : 60000 + arb_rng_below(ar, 60000);
    memset(a, 0, sizeof *a);
    if (d.clock_left_ms >= 0 && (int64_t)think >= d.clock_left_ms) {
        a->seat = ARB_SEAT_ARBITER;
        a->verb = NAR_V_TIMEOUT;
        a->elapsed_ms = (uint32_t)d.clock_left_ms;
    } else if (arb_rng_below(ar, 300) == 0 && d.seat >= 0) {
        a->seat = ARB_SEAT_ARBITER;
        a->verb = NAR_V_DISCONNECT;
        a->nargs = 1;
        a->args[0] = (int32_t)arb_rng_below(ar, 2);
        a->elapsed_ms = think;
        if (s->p[a->args[0]].disc_at >= 0) a->verb = NAR_V_RECONNECT;
    } else {
        size_t k = p->plan.greedy ? G->greedy(G, st, p->legal, p->nlegal, ar) : arb_rng_below(ar, (uint32_t)p->nlegal);
        *a = p->legal[k];
        a->elapsed_ms = think;
    }
    return 1;
}

static void after_step(ek_play *p, const void *st, const arb_action *a, const arb_events *ev)
{
    (void)p;
    (void)a;
    (void)ev;
    EK_REQ(((const nar_state *)st)->shift <= 400, "shift %d: too many shifts", ((const nar_state *)st)->shift);
}

/* Seeded random and greedy games, half of them timed (clock, timeouts,
 * disconnects), every legal action tried at every step. */
static void plan(ek_plan *p) { p->variant = (p->index % 4) >= 2; }

START_TEST(t_property_selfplay)
{
    static const ek_play_spec spec = {
        .game = &arb_game_naramo, .program = "check_naramo", .seed_base = 1, .seed_step = 1,
        .players_min = 2, .players_max = 2, .plan = plan, .max_steps = MAX_LOG,
        .samples = 3, .sample = sample, .rule_prefix = "NAR-", .timed_unlisted_ok = 1,
        .legal_every = 1, .roundtrip_every = 13, .view_every = 13, .blind_every = 7,
        .check_view = view_clean, .scramble = scramble, .choose = choose, .after_step = after_step,
    };
    ek_selfplay(&spec);
}
END_TEST

static void mutate(arb_tnode *n, arb_rng *r, int *budget)
{
    static const int64_t vals[] = {-3, -1, 0, 1, 2, 3, 7, 8, 40, 63, 64, 255, 256, 2400, 89999, 90000, 1000001};
    for (arb_tnode *c = n->first; c; c = c->next) {
        if (*budget <= 0) return;
        if (c->kind == ARB_T_INT && arb_rng_below(r, 6) == 0) {
            c->i = vals[arb_rng_below(r, sizeof vals / sizeof vals[0])];
            (*budget)--;
        } else if (c->kind == ARB_T_BOOL && arb_rng_below(r, 8) == 0) {
            c->i = !c->i;
            (*budget)--;
        } else if (c->kind == ARB_T_STR && arb_rng_below(r, 20) == 0) {
            c->s = arb_rng_below(r, 2) ? "gubby" : "operations";
            (*budget)--;
        } else if (c->kind == ARB_T_ARR || c->kind == ARB_T_MAP) {
            mutate(c, r, budget);
        }
    }
}

START_TEST(t_hostile_positions)
{
    /* mutated exports: rejected with a path, or accepted and then playable */
    arb_rng r;
    arb_rng_seed(&r, 77);
    unsigned accepted = 0, rejected = 0;
    static arb_action legal[1024];
    for (int g = 0; g < 60; g++) {
        arb_setup su = mk_setup((uint64_t)g + 100, "defense-doe", "assault-bloxian");
        G->setup(G, &S, &su, NULL, &E);
        int steps = (int)arb_rng_below(&r, 80);
        for (int i = 0; i < steps && G->decision(G, &S).seat != ARB_SEAT_NONE; i++) {
            size_t n = G->legal(G, &S, legal, 1024);
            ck_assert_int_eq(G->apply(G, &S, &legal[arb_rng_below(&r, (uint32_t)n)], NULL, &E), 0);
        }
        for (int m = 0; m < 20; m++) {
            arb_tree *t = export_tree(&S, ARB_VIEW_ALL);
            int budget = 1 + (int)arb_rng_below(&r, 3);
            mutate(arb_tree_root(t), &r, &budget);
            nar_state *x = malloc(sizeof *x);
            arb_error e = ARB_ERROR_INIT;
            if (G->load_position(G, x, arb_tree_root(t), &su, &e) != 0) {
                ck_assert_msg(e.where[0] || e.rule[0], "rejection names neither a path nor a rule: %s", e.msg);
                rejected++;
            } else {
                accepted++;
                char why[400];
                for (int i = 0; i < 40 && G->decision(G, x).seat != ARB_SEAT_NONE; i++) {
                    size_t n = G->legal(G, x, legal, 1024);
                    ck_assert_uint_gt(n, 0);
                    arb_action a = legal[arb_rng_below(&r, (uint32_t)n)];
                    ck_assert_msg(G->apply(G, x, &a, NULL, &e) == 0, "loaded position: legal action rejected %s %s", e.rule, e.msg);
                }
                ck_assert_msg(roundtrip_ok(x, why, sizeof why), "%s", why);
            }
            free(x);
            arb_tree_free(t);
        }
    }
    ck_assert_uint_gt(accepted, 0);
    ck_assert_uint_gt(rejected, 0);
}
END_TEST

START_TEST(t_match_and_agents)
{
    /* the generic agents drive the engine through arb_match, timed */
    for (uint64_t seed = 1; seed <= 40; seed++) {
        arb_setup su = mk_setup(seed, "defense-doe", "assault-noobia");
        arb_match *m = NULL;
        ck_assert_int_eq(arb_match_new(&m, G, &su, &E), 0);
        arb_agent *ag[2];
        for (int q = 0; q < 2; q++) {
            ag[q] = malloc(sizeof *ag[q]);
            arb_agent_init(ag[q], q ? ARB_AGENT_GREEDY : ARB_AGENT_RANDOM, seed, q, (int)(seed % 2));
        }
        int steps = 0;
        for (;;) {
            arb_decision d = arb_match_decision(m);
            if (d.seat == ARB_SEAT_NONE) break;
            arb_action a;
            int who = d.seat >= 0 ? d.seat : 0;
            ck_assert_int_eq(arb_agent_choose(ag[who], m, &a), 0);
            int rc = arb_match_apply(m, &a, &E);
            ck_assert_msg(rc == 0, "%s %s", E.rule, E.msg);
            ck_assert_int_lt(++steps, MAX_LOG);
        }
        for (int q = 0; q < 2; q++) free(ag[q]);
        arb_match_free(m);
    }
}
END_TEST

/* Shapes the action text cannot write (its parser checks verbs and
 * arity), but a replay record or an adapter can: an unknown verb, and every
 * verb with one argument too few or too many. Each is refused as invalid
 * with its verb's rule ID and leaves the state untouched. */
START_TEST(t_validate_shapes)
{
    blank(0);
    add(0, Z_DECK, "intern");
    add(0, Z_HAND, "steam-leak");
    static const struct { int verb, nargs; const char *rule; } bad[] = {
        {NAR_V_COUNT, 0, "NAR-P2-REPEAT"},      {NAR_V_COUNT + 1, 1, "NAR-P2-REPEAT"},
        {NAR_V_END, 1, "NAR-P2-END"},           {NAR_V_PLAY, 0, "NAR-P2-REPEAT"},
        {NAR_V_PLAY, 3, "NAR-P2-REPEAT"},       {NAR_V_STRIKE, 0, "NAR-P2-STRIKE"},
        {NAR_V_STRIKE, 2, "NAR-P2-STRIKE"},     {NAR_V_DEPLOY, 1, "NAR-P3-DEPLOY-TARGET"},
        {NAR_V_DEPLOY, 3, "NAR-P3-DEPLOY-TARGET"}, {NAR_V_KEEP, 1, "NAR-SETUP-REVIEW-OPTIONAL"},
        {NAR_V_TIMEOUT, 1, "NAR-CLOCK-SHIFT90"}, {NAR_V_DISCONNECT, 0, "NAR-CLOCK-DISCONNECT"},
        {NAR_V_RECONNECT, 2, "NAR-CLOCK-DISCONNECT"}, {NAR_V_DISCARD, 0, "NAR-P4-HAND"},
    };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        nar_state before = S;
        int seat = bad[i].verb >= NAR_V_TIMEOUT && bad[i].verb < NAR_V_COUNT ? ARB_SEAT_ARBITER : 0;
        int rc = act(seat, bad[i].verb, bad[i].nargs, 1, 0, 0);
        ck_assert_msg(rc == ARB_EINVAL, "verb %d with %d args: rc %d (%s)", bad[i].verb, bad[i].nargs, rc, E.rule);
        ck_assert_str_eq(E.rule, bad[i].rule);
        ck_assert_msg(memcmp(&before, &S, sizeof S) == 0, "verb %d: the rejection changed the state", bad[i].verb);
    }
    /* every verb at its arity bounds is judged on its merits, not refused as invalid */
    for (int v = 0; v < NAR_V_COUNT; v++) {
        const arb_verb *vb = &arb_naramo__verbs[v];
        int seat = v >= NAR_V_TIMEOUT ? ARB_SEAT_ARBITER : 0;
        int n[2] = {vb->min_args, vb->max_args};
        for (int k = 0; k < 2; k++) {
            nar_state before = S;
            int rc = act(seat, v, n[k], 1, 0, 0);
            ck_assert_msg(rc != ARB_EINVAL, "verb %s with %d args refused as invalid: %s", vb->name, n[k], E.msg);
            S = before;
        }
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("naramo");
    TCase *tc = tcase_create("rules");
    tcase_add_unchecked_fixture(tc, setup_once, NULL);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, t_registry);
    tcase_add_test(tc, t_setup_initial);
    tcase_add_test(tc, t_setup_players_and_decks);
    tcase_add_test(tc, t_setup_review);
    tcase_add_test(tc, t_p1_baseload_and_reportin);
    tcase_add_test(tc, t_p1_sse_order);
    tcase_add_test(tc, t_p1_swipes);
    tcase_add_test(tc, t_p2_play_and_pay);
    tcase_add_test(tc, t_p2_station_recall_exhaust);
    tcase_add_test(tc, t_p2_station_wrong_seat_rule);
    tcase_add_test(tc, t_p2_strike_block);
    tcase_add_test(tc, t_p2_scram);
    tcase_add_test(tc, t_p3_alarms);
    tcase_add_test(tc, t_p3_gubby_prompt);
    tcase_add_test(tc, t_p3_deploy_clear);
    tcase_add_test(tc, t_p3_clear_rules);
    tcase_add_test(tc, t_p3_deploy_limit);
    tcase_add_test(tc, t_p4_po_overheat);
    tcase_add_test(tc, t_p4_duration_discard_hand);
    tcase_add_test(tc, t_p4_winloss);
    tcase_add_test(tc, t_time_until_next_se);
    tcase_add_test(tc, t_limits);
    tcase_add_test(tc, t_deck_rules);
    tcase_add_test(tc, t_clock_shift);
    tcase_add_test(tc, t_clock_defaults);
    tcase_add_test(tc, t_clock_disconnect);
    tcase_add_test(tc, t_clock_off_and_texts);
    tcase_add_test(tc, t_validate_shapes);
    tcase_add_test(tc, t_views_and_roundtrip);
    tcase_add_test(tc, t_load_position);
    tcase_add_test(tc, t_match_and_agents);
    suite_add_tcase(s, tc);
    TCase *tp = tcase_create("property");
    tcase_add_unchecked_fixture(tp, setup_once, NULL);
    tcase_set_timeout(tp, 600);
    tcase_add_test(tp, t_property_selfplay);
    tcase_add_test(tp, t_hostile_positions);
    suite_add_tcase(s, tp);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
