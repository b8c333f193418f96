/* check_brainstorm.c — unit and property tests of the brainstorm engine.
 *
 * Scenarios are loaded as positions (JSON literals read by arb_tree_parse_json),
 * driven with text actions, and asserted on the exported state tree and on
 * the event log, one test per catalog section (BRN-…), in the `rules` case.
 * Rejections are checked for their rule ID, for leaving state bytes and hash
 * unchanged and for emitting nothing (engine_kit.h). The `property` case
 * plays ARB_TEST_GAMES seeded random and greedy games (engine_kit_play.h) and checks the
 * contract's invariants after every action. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arbiter/game.h"
#include "arbiter/deck.h"
#include "arbiter/agent.h"
#include "arbiter/replay.h"
#include "games/brainstorm/brainstorm.h"
#include "engine_kit_play.h"

static const arb_game *G;
static brn_state S;
static arb_event evbuf[4096];
static arb_events EV;
static arb_error ERR;

static void setup_game(void) { G = arb_game_find("brainstorm"); }

static void ev_reset(void) { EV.buf = evbuf; EV.cap = 4096; EV.n = 0; EV.dropped = 0; }

static const char *pos_rules; /* the rules version positions load under (NULL: the current one) */
static int pos_rc(const char *json, arb_error *err)
{
    /* The literals write ' for " to stay readable inside C strings. */
    size_t len = strlen(json);
    char *text = malloc(len + 1);
    ck_assert_ptr_nonnull(text);
    for (size_t i = 0; i <= len; i++) text[i] = json[i] == '\'' ? '"' : json[i];
    arb_tree *t = arb_tree_new();
    arb_error je = ARB_ERROR_INIT;
    int prc = arb_tree_parse_json(t, arb_tree_root(t), "p", text, len, &je);
    free(text);
    ck_assert_msg(prc == ARB_OK, "bad test JSON (%s: %s): %s", je.where, je.msg, json);
    const arb_tnode *p = arb_tnode_get(arb_tree_root(t), "p");
    ck_assert_msg(p && p->kind == ARB_T_MAP, "test JSON is not an object: %s", json);
    arb_setup su;
    memset(&su, 0, sizeof su);
    su.seed = 42; su.players = 2; su.rules = pos_rules;
    arb_error_clear(err);
    int rc = G->load_position(G, &S, p, &su, err);
    arb_tree_free(t);
    return rc;
}

static void pos(const char *json)
{
    arb_error err = ARB_ERROR_INIT;
    int rc = pos_rc(json, &err);
    ck_assert_msg(rc == 0, "load_position: %s: %s: %s", err.where, err.rule, err.msg);
}

static arb_action parse(const char *line)
{
    arb_action a;
    arb_error_clear(&ERR);
    int rc = arb_action_parse(G, line, &a, &ERR);
    ck_assert_msg(rc == 0, "parse '%s': %s", line, ERR.msg);
    return a;
}

static int act(const char *line)
{
    arb_action a = parse(line);
    ev_reset();
    return G->apply(G, &S, &a, &EV, &ERR);
}

/* Accepted; refused with rule (and message: what a judge reads in the log),
 * the state and hash untouched, no event (engine_kit.h). */
#define OK(line) do { arb_action a_ = parse(line); ev_reset(); ek_ok(G, &S, &a_, &EV); } while (0)
#define negm(line, rule, msg) do { arb_action a_ = parse(line); ek_reject(G, &S, &a_, rule, msg); } while (0)
#define neg(line, rule) negm(line, rule, NULL)

/* Exported value at path (full view) as an integer / string. */
static int64_t geti(const char *path)
{
    arb_tree *t = arb_tree_new();
    G->export_state(G, &S, ARB_VIEW_ALL, t, arb_tree_root(t));
    const arb_tnode *n = arb_tnode_path(arb_tree_root(t), path);
    ck_assert_msg(n != NULL, "no field %s", path);
    int64_t v = n->i;
    arb_tree_free(t);
    return v;
}

static int has(const char *path, int view)
{
    arb_tree *t = arb_tree_new();
    G->export_state(G, &S, view, t, arb_tree_root(t));
    int r = arb_tnode_path(arb_tree_root(t), path) != NULL;
    arb_tree_free(t);
    return r;
}

static char sbuf[256];
static const char *gets_(const char *path)
{
    arb_tree *t = arb_tree_new();
    G->export_state(G, &S, ARB_VIEW_ALL, t, arb_tree_root(t));
    const arb_tnode *n = arb_tnode_path(arb_tree_root(t), path);
    ck_assert_msg(n != NULL, "no field %s", path);
    arb_tnode_text(n, sbuf, sizeof sbuf);
    arb_tree_free(t);
    return sbuf;
}

/* Index of the first event of type (and seat, a when >= -1 / not INT32_MIN) at or after from. */
#define ANY (-1000)
static int ev_find(int from, int type, int seat, int a)
{
    for (unsigned i = (unsigned)from; i < EV.n; i++)
        if (EV.buf[i].type == type && (seat == ANY || EV.buf[i].seat == seat) && (a == ANY || EV.buf[i].a == a))
            return (int)i;
    return -1;
}

static int phase_ev(int ph) { return ev_find(0, BRN_E_PHASE, ANY, ph); }

static int zone_total(int seat)
{
    int n = 0;
    for (int z = 0; z < BRN_NZONES; z++) n += S.p[seat].nz[z];
    for (int i = 0; i < S.nstack; i++) n += S.stack[i].kind == BRN_S_CARD && S.stack[i].seat == seat;
    return n;
}

#define DECK3 "'deck':[{'uid':0,'card':'firewall'},{'uid':1,'card':'firewall'},{'uid':2,'card':'firewall'}]"
#define GEN(u, ch) "{'uid':" #u ",'card':'basic-generator','charge':" #ch "}"

/* ---- setup, players, deck rules --------------------------------------- */
START_TEST(t_setup)
{
    arb_setup su;
    memset(&su, 0, sizeof su);
    su.seed = 7; su.players = 1;
    su.decks[0] = G->preset(G, 0); su.decks[1] = G->preset(G, 1); su.decks[2] = G->preset(G, 2);
    arb_error err = ARB_ERROR_INIT;
    ck_assert_int_ne(G->setup(G, &S, &su, NULL, &err), 0);
    ck_assert_str_eq(err.rule, "BRN-PLAYERS");
    su.players = 3;
    ck_assert_int_ne(G->setup(G, &S, &su, NULL, &err), 0);
    ck_assert_str_eq(err.rule, "BRN-PLAYERS");
    arb_deck bad = *G->preset(G, 0);
    bad.ncards--;
    su.players = 2; su.decks[0] = &bad;
    ck_assert_int_ne(G->setup(G, &S, &su, NULL, &err), 0);
    ck_assert_str_eq(err.rule, "BRN-PLAYERS");
    ck_assert_str_eq(err.msg, "deck of P1: a deck holds exactly 40 cards besides its Generator (found 39)");
    su.decks[0] = G->preset(G, 0); su.decks[1] = &bad;
    ck_assert_int_ne(G->setup(G, &S, &su, NULL, &err), 0);
    ck_assert_str_eq(err.msg, "deck of P2: a deck holds exactly 40 cards besides its Generator (found 39)");
    su.decks[1] = G->preset(G, 1);
    su.rules = "brainstorm-draft9";        /* a rules version not implemented: refused */
    ck_assert_int_eq(G->setup(G, &S, &su, NULL, &err), ARB_EUNSUPPORTED);
    su.rules = NULL;
    su.decks[0] = NULL;                    /* a C caller's missing deck: refused, not read */
    ck_assert_int_eq(G->setup(G, &S, &su, NULL, &err), ARB_EINVAL);
    ck_assert_str_eq(err.msg, "seat 0 has no deck");
    su.decks[0] = G->preset(G, 0);
    ev_reset();
    ck_assert_int_eq(G->setup(G, &S, &su, &EV, &err), 0);
    for (int seat = 0; seat < 2; seat++) {
        ck_assert_int_eq(S.p[seat].nz[BRN_Z_HAND], BRN_OPEN_HAND + 1);   /* G01 + BRN-START-DRAW */
        ck_assert_int_eq(S.p[seat].nz[BRN_Z_DECK], 40 - BRN_OPEN_HAND - 1);
        ck_assert_int_eq(zone_total(seat), 41);                        /* BRN-ZONE-FIVE */
        ck_assert_int_ne(S.p[seat].gen, BRN_NONE);
    }
    ck_assert_int_eq(geti("players.0.machine.0.charge"), 3);            /* basic: GEN 3 */
    ck_assert_int_eq(geti("players.1.machine.0.charge"), 4);            /* surge: GEN 4 */
    ck_assert_str_eq(G->phase(G, &S), "expansion");
    ck_assert_int_eq(G->decision(G, &S).seat, S.lead);
    /* BRN-MAINT-ORDER, BRN-CYCLE-PHASES */
    int r = phase_ev(BRN_P_RESET), st = phase_ev(BRN_P_START), ex = phase_ev(BRN_P_EXPANSION);
    ck_assert(r >= 0 && r < st && st < ex);
    int d0 = ev_find(st, BRN_E_DRAW, ANY, ANY), g0 = ev_find(st, BRN_E_GENERATE, ANY, ANY);
    ck_assert(d0 > st && g0 > d0 && g0 < ex);
    /* same seed → same hash; different seed → (almost surely) different */
    brn_state a = S;
    ck_assert_int_eq(G->setup(G, &S, &su, NULL, &err), 0);
    ck_assert(G->hash(G, &S) == G->hash(G, &a));
    su.seed = 8;
    ck_assert_int_eq(G->setup(G, &S, &su, NULL, &err), 0);
    ck_assert(G->hash(G, &S) != G->hash(G, &a));
}
END_TEST

START_TEST(t_decks)
{
    ck_assert_uint_ge(G->npresets, 3);
    arb_deck_issue is[8];
    for (unsigned i = 0; i < G->npresets; i++) {
        unsigned n = G->deck_check(G, G->preset(G, i), is, 8);
        for (unsigned k = 0; k < n && k < 8; k++) ck_assert_msg(is[k].warning, "preset %u: %s", i, is[k].msg);
    }
    arb_deck d = *G->preset(G, 0);
    d.cards[1] = d.cards[0];   /* a second Generator replaces a card */
    unsigned n = G->deck_check(G, &d, is, 8);
    ck_assert_uint_ge(n, 1);
    ck_assert_int_eq(is[0].warning, 0);
    ck_assert_str_eq(is[0].rule, "BRN-PLAYERS");
    arb_deck e;
    memset(&e, 0, sizeof e);
    e.cards[e.ncards++] = (uint16_t)arb_card_find(G, "basic-generator");
    for (int i = 0; i < 40; i++) e.cards[e.ncards++] = (uint16_t)arb_card_find(G, "firewall");
    n = G->deck_check(G, &e, is, 8);
    ck_assert_uint_eq(n, 1);
    ck_assert_int_eq(is[0].warning, 1);   /* legal, but no Module */
    ck_assert_str_eq(is[0].rule, "BRN-BOOT-CHOOSE");
    /* card indexes past the pool (a hostile replay header can carry any), the first one past it too */
    arb_deck f = *G->preset(G, 0);
    f.cards[2] = (uint16_t)G->ncards;
    f.cards[3] = (uint16_t)(G->ncards + 7);
    n = G->deck_check(G, &f, is, 8);
    ck_assert_uint_ge(n, 1);
    ck_assert_str_eq(is[0].rule, "BRN-PLAYERS");
    ck_assert_str_eq(is[0].msg, "2 card(s) are not in the Brainstorm pool");
    ck_assert_int_eq(is[0].warning, 0);   /* an error: setup refuses the deck */
    /* every card exports stats */
    for (unsigned i = 0; i < G->ncards; i++) {
        arb_tree *t = arb_tree_new();
        G->card_export(G, i, t, arb_tree_root(t));
        ck_assert(arb_tnode_get(arb_tree_root(t), "class") != NULL);
        arb_tree_free(t);
    }
    ck_assert_int_ge(arb_card_find(G, "Research Cell"), 0);
}
END_TEST

/* ---- zones and visibility ---------------------------------------------- */
START_TEST(t_visibility)
{
    arb_setup su;
    memset(&su, 0, sizeof su);
    su.seed = 11; su.players = 2; su.decks[0] = G->preset(G, 0); su.decks[1] = G->preset(G, 2);
    arb_error err = ARB_ERROR_INIT;
    ev_reset();
    ck_assert_int_eq(G->setup(G, &S, &su, &EV, &err), 0);
    ck_assert(has("players.0.deck", ARB_VIEW_ALL));
    ck_assert(has("rng", ARB_VIEW_ALL));
    for (int v = 0; v < 2; v++) {
        ck_assert(!has("players.0.deck", v));               /* BRN-ZONE-DECK-HIDDEN */
        ck_assert(!has("players.1.deck", v));
        ck_assert(has("players.0.deck_count", v));
        ck_assert(has(v == 0 ? "players.0.hand" : "players.1.hand", v));  /* BRN-ZONE-HAND-VISIBILITY */
        ck_assert(!has(v == 0 ? "players.1.hand" : "players.0.hand", v));
        ck_assert(has(v == 0 ? "players.1.hand_count" : "players.0.hand_count", v));
        ck_assert(!has("rng", v));
        ck_assert(has("players.1.machine.0.card", v));      /* G15 public */
    }
    int d = ev_find(0, BRN_E_DRAW, 0, ANY);
    ck_assert_int_ge(d, 0);
    ck_assert(EV.buf[d].hidden);
    char own[200], other[200];
    G->event_text(G, &EV.buf[d], 0, own, sizeof own);
    G->event_text(G, &EV.buf[d], 1, other, sizeof other);
    ck_assert_str_eq(other, "P1 draws a card");
    ck_assert_ptr_nonnull(strstr(own, G->card(G, S.p[0].c[EV.buf[d].a].id)->name));
}
END_TEST

START_TEST(t_zone_use)
{
    pos("{'phase':'expansion','players':[{" DECK3 ",'hand':[{'uid':3,'card':'relay-module'},{'uid':4,'card':'power-cell'}],"
        "'machine':[" GEN(5, 0) "],'scrapyard':[{'uid':6,'card':'sink-module'}]},{" DECK3 "}]}");
    neg("0 enable 0", "BRN-ZONE-DECK-UNUSABLE");   /* a Deck card cannot be used */
    neg("0 enable 6", "BRN-ZONE-HAND-PLAYABLE");   /* Scrapyard */
    neg("0 enable 5", "BRN-ZONE-HAND-PLAYABLE");   /* Machine */
    negm("0 enable 9", "BRN-ZONE-HAND-PLAYABLE", "P1 has no card with UID 9"); /* no such card */
    neg("0 enable 4", "BRN-EXP-ENABLE");           /* not a Module */
    neg("0 play 4", "BRN-EXP-ENABLE");             /* nothing is played in Expansion */
    OK("0 enable 3");                              /* BRN-EXP-ENABLE, BRN-ZONE-MACHINE */
    ck_assert_str_eq(gets_("players.0.machine.1.card"), "relay-module");
    ck_assert_int_eq(S.nstack, 0);                 /* G06: no Stack */
    ck_assert_int_eq(zone_total(0), 7);
}
END_TEST

/* ---- Action passing ---------------------------------------------------- */
START_TEST(t_action_passing)
{
    pos("{'phase':'expansion','lead':0,'players':[{" DECK3 ",'hand':[{'uid':3,'card':'relay-module'}],'machine':[" GEN(4, 0) "]},"
        "{" DECK3 ",'hand':[{'uid':3,'card':'relay-module'},{'uid':5,'card':'sink-module'}],'machine':[" GEN(4, 0) "]}]}");
    ck_assert_int_eq(G->decision(G, &S).seat, 0);          /* G03: lead first */
    neg("1 pass", "BRN-ACTION-REQUIRED");              /* no Action */
    neg("1 enable 3", "BRN-ACTION-REQUIRED");
    neg("arbiter timeout", "BRN-ACTION-REQUIRED");     /* no clock */
    OK("0 pass");
    ck_assert_int_eq(G->decision(G, &S).seat, 1);          /* BRN-ACTION-INTURNS */
    OK("1 enable 3");
    ck_assert_int_eq(G->decision(G, &S).seat, 0);
    OK("0 pass");                                       /* A pass, B act, A pass: continues */
    ck_assert_str_eq(G->phase(G, &S), "expansion");
    OK("1 enable 5");
    OK("0 pass");
    ck_assert_str_eq(G->phase(G, &S), "expansion");
    OK("1 pass");                                       /* BRN-ACTION-PHASE-END, BRN-EXP-ACTION */
    ck_assert_str_eq(G->phase(G, &S), "assembly");
    ck_assert_int_ge(phase_ev(BRN_P_ASSEMBLY), 0);
    ck_assert_int_eq(G->decision(G, &S).seat, 0);
    OK("0 pass"); OK("1 pass");                         /* BRN-ASM-ACTION */
    ck_assert_str_eq(G->phase(G, &S), "routing");
    OK("0 pass"); OK("1 pass");                         /* BRN-ROUTE-ACTION */
    ck_assert_str_eq(G->phase(G, &S), "plug");             /* no Module linked: Bootstrap has no choice */
    ck_assert_int_lt(phase_ev(BRN_P_BOOTSTRAP), phase_ev(BRN_P_PLUG));  /* BRN-PULSE-ORDER */
    OK("0 pass"); OK("1 pass");                         /* BRN-RUN-PLUG */
    ck_assert_str_eq(G->phase(G, &S), "showdown");
    OK("0 pass");
    neg("0 pass", "BRN-ACTION-REQUIRED");
    OK("1 pass");                                       /* BRN-RUN-SHOWDOWN → Focus → End → next Cycle */
    ck_assert_int_lt(phase_ev(BRN_P_FOCUS), phase_ev(BRN_P_END));
    ck_assert_int_lt(phase_ev(BRN_P_END), phase_ev(BRN_P_RESET));       /* BRN-EOC-LOOP */
    ck_assert_int_eq(S.cycle, 2);
    ck_assert_int_eq(S.lead, 1);                        /* lead alternates */
    ck_assert_int_eq(G->decision(G, &S).seat, 1);
}
END_TEST

/* ---- Maintenance ------------------------------------------------------- */
START_TEST(t_maintenance)
{
    /* P1 must discard one card, which ends the Cycle: Reset and Start follow. */
    pos("{'phase':'end','cycle':2,'lead':0,'players':["
        "{" DECK3 ",'hand':[{'uid':3,'card':'firewall'},{'uid':4,'card':'firewall'},{'uid':5,'card':'firewall'},"
        "{'uid':6,'card':'firewall'},{'uid':7,'card':'firewall'},{'uid':8,'card':'firewall'},{'uid':9,'card':'firewall'},"
        "{'uid':10,'card':'firewall'},{'uid':16,'card':'firewall'}],'machine':[" GEN(11, 1) ",{'uid':12,'card':'power-cell','active':true},"
        "{'uid':13,'card':'research-cell','active':true},{'uid':14,'card':'relay-module','used':[true,false]},"
        "{'uid':15,'card':'fusion-cell','active':true}],"
        "'links':[{'from':11,'out':0,'to':14,'in':0}]},"
        "{" DECK3 ",'machine':[" GEN(3, 0) ",{'uid':4,'card':'power-cell','active':true},{'uid':5,'card':'sink-module'}],"
        "'links':[{'from':3,'out':1,'to':5,'in':0}]}]}");
    ck_assert_int_eq(geti("players.0.max_hand"), 8);       /* Research Cell: 7 + 1 (G13, Golden Rule) */
    ck_assert_int_eq(G->decision(G, &S).kind, BRN_D_DISCARD);
    negm("0 discard 14", "BRN-EOC-DISCARD", "card 14 is not in your Hand");
    OK("0 discard 3");
    int r = phase_ev(BRN_P_RESET), st = phase_ev(BRN_P_START);
    ck_assert(r >= 0 && st > r);                            /* BRN-MAINT-ORDER */
    ck_assert_int_eq(S.cycle, 3);
    ck_assert_int_eq(geti("players.0.machine.1.active"), 0);   /* BRN-RESET-CELLS */
    ck_assert_int_eq(geti("players.1.machine.1.active"), 0);
    ck_assert_int_eq(geti("players.0.machine.2.active"), 1);   /* BRN-RESET-RESEARCH */
    ck_assert_int_eq(geti("players.0.machine.4.active"), 1);
    ck_assert_int_eq(S.p[0].nlinks, 0);                        /* BRN-RESET-LINKS */
    ck_assert_int_eq(S.p[1].nlinks, 0);
    ck_assert_int_eq(geti("players.0.machine.3.used.0"), 0);   /* G09 */
    ck_assert_int_ge(ev_find(r, BRN_E_DEACTIVATE, 0, 12), r);
    ck_assert_int_eq(ev_find(0, BRN_E_DEACTIVATE, 0, 13), -1);
    ck_assert_int_eq(S.p[0].nz[BRN_Z_HAND], 9);               /* 9 - 1 + 1: BRN-START-DRAW */
    ck_assert_int_eq(S.p[1].nz[BRN_Z_HAND], 1);
    ck_assert_int_eq(geti("players.1.machine.0.charge"), 3);  /* BRN-START-CHARGE: 0 → 3 */
    ck_assert_int_eq(geti("players.0.machine.0.charge"), 5);  /* 1 + 3 + Fusion Cell 1 */
    /* Both draw in the same Start (BRN-CYCLE-SIMULTANEOUS), lead (now P2) first */
    int d1 = ev_find(st, BRN_E_DRAW, 1, ANY), d0 = ev_find(st, BRN_E_DRAW, 0, ANY);
    ck_assert(d1 > st && d0 > d1);
}
END_TEST

START_TEST(t_deckout)
{
    /* G02: both must draw from empty Decks at the same Start → draw */
    pos("{'phase':'end','players':[{'machine':[" GEN(0, 0) "]},{'machine':[" GEN(0, 0) "]}]}");
    arb_outcome o;
    ck_assert(G->outcome(G, &S, &o));
    ck_assert_int_eq(o.winner, -1);
    ck_assert_str_eq(G->phase(G, &S), "over");
    ck_assert_int_eq(G->decision(G, &S).seat, ARB_SEAT_NONE);
    ck_assert_int_eq(act("0 pass"), ARB_EOVER);
    ck_assert_str_eq(ERR.rule, "BRN-ZONE-DECK-DRAW");
    size_t n = G->legal(G, &S, NULL, 0);
    ck_assert_uint_eq(n, 0);
    /* only P2's Deck is empty → P1 wins */
    pos("{'phase':'end','players':[{'deck':[{'uid':0,'card':'firewall'}],'machine':[" GEN(1, 0) "]},{'machine':[" GEN(0, 0) "]}]}");
    ck_assert(G->outcome(G, &S, &o));
    ck_assert_int_eq(o.winner, 0);
}
END_TEST

/* ---- Configuration ----------------------------------------------------- */
START_TEST(t_assembly)
{
    pos("{'phase':'assembly','lead':0,'players':[{" DECK3 ",'hand':[{'uid':3,'card':'firewall'},{'uid':4,'card':'power-cell'},"
        "{'uid':5,'card':'overload'},{'uid':6,'card':'relay-module'}],'machine':[" GEN(7, 0) "]},"
        "{" DECK3 ",'hand':[{'uid':3,'card':'power-cell'}],'machine':[" GEN(4, 0) "]}]}");
    neg("0 play 5", "BRN-ASM-PLAY");          /* Overload is not Preemptive */
    neg("0 enable 6", "BRN-ASM-PLAY");        /* no enabling in Assembly */
    neg("0 play 6", "BRN-ZONE-STACK");        /* Modules are not played */
    neg("0 link 7 0 6 0", "BRN-ROUTE-LINK");  /* no Links in Assembly */
    neg("0 play 3 1 4", "BRN-GOLDEN");        /* Firewall takes no target */
    OK("0 play 3");                           /* Firewall (Preemptive) → Stack */
    ck_assert_int_eq(S.nstack, 1);
    ck_assert_str_eq(gets_("stack.0.card"), "firewall");
    ck_assert_int_eq(S.p[0].nz[BRN_Z_HAND], 3);
    ck_assert_int_eq(S.p[0].nz[BRN_Z_DECK], 3);   /* BRN-ZONE-STACK: no effect yet */
    OK("1 play 3");                           /* Power Cell → Stack, on top */
    ck_assert_int_eq(S.nstack, 2);
    OK("0 pass");
    OK("1 pass");                             /* G04: top (P2's Power Cell) resolves first */
    int res = ev_find(0, BRN_E_RESOLVE, 1, 3);
    ck_assert_int_ge(res, 0);
    ck_assert_int_eq(ev_find(0, BRN_E_RESOLVE, 0, ANY), -1);
    ck_assert_int_ge(ev_find(res, BRN_E_CELL_ON, 1, 3), res);
    ck_assert_int_eq(geti("players.1.machine.1.active"), 1);   /* G07 */
    /* brainstorm-draft0-2: "when this Cell becomes active" is a trigger on the Stack */
    ck_assert_int_eq(geti("players.1.machine.0.charge"), 0);
    ck_assert_int_eq(S.nstack, 2);
    ck_assert_int_eq(G->decision(G, &S).seat, 0);                 /* Action back to the lead */
    ck_assert_str_eq(G->phase(G, &S), "assembly");
    OK("0 pass");
    OK("1 pass");                             /* the trigger resolves */
    ck_assert_int_eq(geti("players.1.machine.0.charge"), 1);   /* Power Cell: +1 when it becomes active */
    ck_assert_int_eq(S.nstack, 1);
    OK("0 pass");
    OK("1 pass");                             /* Firewall resolves: draw 1, → Scrapyard */
    int r2 = ev_find(0, BRN_E_RESOLVE, 0, 3);
    ck_assert_int_ge(r2, 0);
    ck_assert_int_gt(ev_find(r2, BRN_E_DRAW, 0, ANY), r2);
    ck_assert_str_eq(gets_("players.0.scrapyard.0.card"), "firewall");  /* BRN-ZONE-SCRAPYARD */
    ck_assert_int_eq(S.p[0].nz[BRN_Z_DECK], 2);
    ck_assert_str_eq(G->phase(G, &S), "assembly");
    OK("0 pass");
    OK("1 pass");
    ck_assert_str_eq(G->phase(G, &S), "routing");
}
END_TEST

START_TEST(t_routing)
{
    pos("{'phase':'routing','lead':0,'players':[{" DECK3 ",'machine':[" GEN(3, 3) ",{'uid':4,'card':'relay-module'},"
        "{'uid':5,'card':'sink-module'},{'uid':6,'card':'bus-module'}]},{" DECK3 ",'machine':[" GEN(3, 0) ",{'uid':4,'card':'relay-module'}]}]}");
    neg("0 link 4 0 3 0", "BRN-ROUTE-LINK");   /* a Generator has no Input */
    neg("0 link 5 0 4 0", "BRN-ROUTE-LINK");   /* Sink has no Output */
    negm("0 link 3 2 4 0", "BRN-ROUTE-LINK", "Basic Generator has no Output O3"); /* O1, O2 only */
    neg("0 link 4 0 4 0", "BRN-ROUTE-LINK");   /* self */
    negm("0 link 3 0 4 1", "BRN-ROUTE-LINK", "Relay Module has no Input I2");     /* I1 only */
    OK("0 link 3 0 4 0");                      /* BRN-ROUTE-LINK: Generator O1 → Relay I1 */
    ck_assert_int_eq(geti("players.0.links.0.from"), 3);
    ck_assert_int_eq(geti("players.0.links.0.to"), 4);
    neg("0 link 3 1 6 0", "BRN-ACTION-REQUIRED");
    OK("1 pass");
    negm("0 link 3 0 5 0", "BRN-ROUTE-LINK", "Output O1 of Basic Generator already has 1 Link(s) (G09)");
    negm("0 link 3 1 4 0", "BRN-ROUTE-LINK", "Input I1 of Relay Module already has a Link (G09)");
    neg("0 link 3 0 1 0", "BRN-ROUTE-LINK");   /* a Deck card */
    OK("0 link 3 1 6 1");                      /* Bus has two Inputs */
    OK("1 pass");
    OK("0 link 4 0 5 0");
    size_t n = G->legal(G, &S, NULL, 0);
    ck_assert_uint_ge(n, 1);
}
END_TEST

/* ---- Pulse: Bootstrap --------------------------------------------------- */
START_TEST(t_bootstrap)
{
    pos("{'phase':'bootstrap','lead':0,'players':[{" DECK3 ",'machine':[" GEN(3, 3) ",{'uid':4,'card':'relay-module'},"
        "{'uid':5,'card':'sink-module'},{'uid':6,'card':'sink-module'}],'links':[{'from':3,'out':0,'to':4,'in':0},"
        "{'from':3,'out':1,'to':5,'in':0}]},"
        "{" DECK3 ",'machine':[" GEN(3, 3) ",{'uid':4,'card':'sink-module'}],'links':[{'from':3,'out':0,'to':4,'in':0}]}]}");
    ck_assert_int_eq(G->decision(G, &S).seat, 0);
    ck_assert_int_eq(G->decision(G, &S).kind, BRN_D_BOOTSTRAP);
    neg("0 pass", "BRN-BOOT-CHOOSE");          /* G21: no empty choice */
    negm("0 boot 6 3", "BRN-BOOT-CHOOSE",      /* not linked to the Generator */
         "card 6 is not a Module linked to an Output of your Generator, not yet chosen this Bootstrap");
    neg("0 boot 3 3", "BRN-BOOT-CHOOSE");      /* the Generator itself */
    neg("0 boot 4 4", "BRN-BOOT-TRANSFER");    /* more than the Generator holds */
    OK("0 boot 4 2");                          /* split (2, 1): first part */
    ck_assert_int_eq(geti("players.0.machine.1.charge"), 2);   /* BRN-BOOT-TRANSFER */
    ck_assert_int_eq(geti("players.0.machine.1.focused"), 1);  /* BRN-BOOT-FOCUS */
    ck_assert_int_eq(geti("players.0.machine.0.used.0"), 1);   /* BRN-BOOT-USED */
    ck_assert_int_eq(geti("players.0.machine.0.charge"), 1);
    ck_assert_int_eq(G->decision(G, &S).seat, 1);                 /* in turns */
    neg("1 boot 4 2", "BRN-BOOT-TRANSFER");    /* last choice must take all 3 */
    OK("1 boot 4 3");
    ck_assert_int_eq(G->decision(G, &S).seat, 0);
    neg("0 boot 4 1", "BRN-BOOT-CHOOSE");      /* O1 is used now */
    neg("0 boot 5 0", "BRN-BOOT-TRANSFER");    /* last: all remaining (1) */
    OK("0 boot 5 1");
    ck_assert_int_eq(geti("players.0.machine.2.charge"), 1);
    ck_assert_int_eq(geti("players.0.machine.0.charge"), 0);
    ck_assert_str_eq(G->phase(G, &S), "plug");
    ck_assert_int_eq(S.run, 1);
    ck_assert_int_ge(ev_find(0, BRN_E_RUN, ANY, 1), 0);
    neg("0 boot 5 0", "BRN-BOOT-CHOOSE");      /* Bootstrap is over */
}
END_TEST

/* ---- Pulse: Run and Focus ---------------------------------------------- */
START_TEST(t_focus)
{
    pos("{'phase':'showdown','lead':0,'run':1,'players':[{" DECK3 ",'machine':[" GEN(3, 0) ","
        "{'uid':4,'card':'relay-module','charge':3,'focused':true},{'uid':5,'card':'sink-module'},{'uid':6,'card':'relay-module'}],"
        "'links':[{'from':4,'out':0,'to':5,'in':0}]},{" DECK3 ",'machine':[" GEN(3, 0) "]}]}");
    negm("0 focus 4 5", "BRN-FOCUS-CHOOSE", "Modules are chosen this way in Focus only");   /* not in Focus yet */
    OK("0 pass");
    OK("1 pass");
    ck_assert_str_eq(G->phase(G, &S), "focus");
    ck_assert_int_eq(G->decision(G, &S).kind, BRN_D_FOCUS);
    neg("0 pass", "BRN-FOCUS-CHOOSE");        /* G11: must choose when able */
    negm("0 focus 4 6", "BRN-FOCUS-CHOOSE", "card 6 is not linked to an unused Output of card 4"); /* not linked */
    negm("0 focus 5 4", "BRN-FOCUS-CHOOSE", "card 5 is not one of your focused Modules awaiting Focus");
    /* verbs past the table (a replay record can carry any number) are invalid, the first one past it too */
    for (unsigned v = BRN_V_COUNT; v <= BRN_V_COUNT + 1; v++) {
        brn_state before = S;
        arb_action x;
        memset(&x, 0, sizeof x);
        x.seat = 0;
        x.verb = (uint8_t)v;
        ev_reset();
        ck_assert_int_eq(G->apply(G, &S, &x, &EV, &ERR), ARB_EINVAL);
        ck_assert_str_eq(ERR.rule, "BRN-ACTION-REQUIRED");
        char want[32];
        snprintf(want, sizeof want, "unknown verb %u", v);
        ck_assert_str_eq(ERR.msg, want);
        ck_assert(memcmp(&before, &S, sizeof S) == 0);
    }
    arb_outcome o;
    ck_assert(!G->outcome(G, &S, &o));           /* not over: nobody has won */
    ck_assert_int_eq(o.winner, -1);
    neg("0 focus 5 4", "BRN-FOCUS-CHOOSE");   /* Sink is not focused */
    OK("0 focus 4 5");
    ck_assert_int_eq(geti("players.0.machine.2.charge"), 3);   /* BRN-FOCUS-TRANSFER */
    ck_assert_int_eq(geti("players.0.machine.1.charge"), 0);
    ck_assert_int_eq(geti("players.0.machine.1.used.0"), 1);   /* BRN-FOCUS-USED */
    ck_assert_int_eq(geti("players.0.machine.2.focused"), 1);  /* BRN-FOCUS-NEWFOCUS */
    ck_assert_int_eq(geti("players.0.machine.1.focused"), 0);
    ck_assert_str_eq(G->phase(G, &S), "plug");                    /* BRN-FOCUS-RESTART */
    ck_assert_int_eq(S.run, 2);
    int fm = ev_find(0, BRN_E_FOCUS_MOVE, 0, 4), rn = ev_find(0, BRN_E_RUN, ANY, 2);
    ck_assert(fm >= 0 && rn > fm && phase_ev(BRN_P_PLUG) > rn);
    OK("0 pass"); OK("1 pass"); OK("0 pass"); OK("1 pass");
    /* Sink cannot pass its Charge on: unfocused and emptied, Run stops */
    int uf = ev_find(0, BRN_E_UNFOCUS, 0, 5);
    ck_assert_int_ge(uf, 0);                                   /* BRN-FOCUS-CANNOT */
    ck_assert_int_eq(EV.buf[uf].b, 3);
    ck_assert_int_gt(phase_ev(BRN_P_END), uf);                 /* BRN-FOCUS-STOP */
    ck_assert_int_eq(ev_find(0, BRN_E_RUN, ANY, ANY), -1);
    ck_assert_int_eq(S.p[0].c[5].charge, 0);
    ck_assert_int_eq(S.p[0].c[5].flags & BRN_F_FOCUSED, 0);
}
END_TEST

START_TEST(t_focus_used_and_many)
{
    /* Relay A (4) has O1 used (→ Sink 5) and O2 → Relay B (6); B focused too, → Sink 7. P2 has one. */
    pos("{'phase':'focus','lead':1,'run':1,'players':[{" DECK3 ",'machine':[" GEN(3, 0) ","
        "{'uid':4,'card':'relay-module','charge':2,'focused':true,'pending':true,'used':[true,false]},{'uid':5,'card':'sink-module'},"
        "{'uid':6,'card':'relay-module','charge':1,'focused':true,'pending':true},{'uid':7,'card':'sink-module'}],"
        "'links':[{'from':4,'out':0,'to':5,'in':0},{'from':4,'out':1,'to':6,'in':0},{'from':6,'out':0,'to':7,'in':0}]},"
        "{" DECK3 ",'machine':[" GEN(3, 0) ",{'uid':4,'card':'amplifier-module','charge':2,'focused':true,'pending':true},"
        "{'uid':5,'card':'sink-module'}],'links':[{'from':4,'out':0,'to':5,'in':0}]}]}");
    ck_assert_int_eq(G->decision(G, &S).seat, 1);                /* lead first */
    OK("1 focus 4 5");
    ck_assert_int_eq(S.p[1].c[5].charge, 2);                  /* the Amplifier's bonus is on receiving, not sending */
    ck_assert_int_eq(G->decision(G, &S).seat, 0);
    neg("0 focus 4 5", "BRN-FOCUS-CHOOSE");                   /* behind a used Output */
    OK("0 focus 4 6");                                        /* B receives 2 → 3, still awaiting */
    ck_assert_int_eq(S.p[0].c[6].charge, 3);
    ck_assert_int_eq(G->decision(G, &S).seat, 0);                /* P2 has nothing left */
    OK("0 focus 6 7");
    ck_assert_int_eq(S.p[0].c[7].charge, 3);
    ck_assert_str_eq(G->phase(G, &S), "plug");
}
END_TEST

/* Drive the pulse of the current Cycle with the first legal action, counting Runs. */
static int drive_cycle(void)
{
    int runs = 0;
    uint16_t cycle = S.cycle;
    arb_action a[512];
    for (int steps = 0; steps < 10000 && S.cycle == cycle && !S.over; steps++) {
        size_t n = G->legal(G, &S, a, 512);
        ck_assert_uint_ge(n, 1);
        ev_reset();
        ck_assert_int_eq(G->apply(G, &S, &a[0], &EV, &ERR), 0);
        for (unsigned i = 0; i < EV.n; i++) runs += EV.buf[i].type == BRN_E_RUN && EV.buf[i].b == cycle;
    }
    ck_assert_int_ne(S.cycle, cycle);
    return runs;
}

START_TEST(t_run_terminates)
{
    /* A chain Generator → R1 → R2 → R3 → R4 → Sink (k = 5 Modules) with loops back (Relay O2 → earlier Bus). */
    pos("{'phase':'bootstrap','lead':0,'players':[{" DECK3 ",'machine':[" GEN(3, 3) ","
        "{'uid':4,'card':'relay-module'},{'uid':5,'card':'relay-module'},{'uid':6,'card':'relay-module'},"
        "{'uid':7,'card':'bus-module'},{'uid':8,'card':'sink-module'}],"
        "'links':[{'from':3,'out':0,'to':4,'in':0},{'from':4,'out':0,'to':5,'in':0},{'from':5,'out':0,'to':6,'in':0},"
        "{'from':6,'out':0,'to':7,'in':0},{'from':7,'out':0,'to':8,'in':0},{'from':6,'out':1,'to':7,'in':1}]},"
        "{" DECK3 ",'machine':[" GEN(3, 0) "]}]}");
    int runs = drive_cycle();
    ck_assert_int_le(runs, 5 + 1);                           /* BRN-FOCUS-TERMINATES */
    ck_assert_int_ge(runs, 5);
    /* Cyclic routing: R1 ↔ R2 — terminates because Outputs stay used */
    pos("{'phase':'bootstrap','lead':0,'players':[{" DECK3 ",'machine':[" GEN(3, 3) ","
        "{'uid':4,'card':'bus-module'},{'uid':5,'card':'relay-module'}],"
        "'links':[{'from':3,'out':0,'to':4,'in':0},{'from':4,'out':0,'to':5,'in':0},{'from':5,'out':0,'to':4,'in':1}]},"
        "{" DECK3 ",'machine':[" GEN(3, 0) "]}]}");
    runs = drive_cycle();
    ck_assert_int_le(runs, 4);
}
END_TEST

/* ---- Plug and Showdown contents (G12) ---------------------------------- */
START_TEST(t_plug_showdown)
{
    pos("{'phase':'plug','lead':0,'run':1,'players':[{" DECK3 ",'hand':[{'uid':3,'card':'firewall'},{'uid':4,'card':'overload'},"
        "{'uid':5,'card':'echo-trigger'},{'uid':6,'card':'overload'}],'machine':[" GEN(7, 0) ",{'uid':8,'card':'sink-module','charge':3,'focused':true},"
        "{'uid':9,'card':'shredder-module','charge':2,'focused':true}]},"
        "{" DECK3 ",'machine':[" GEN(3, 0) ",{'uid':4,'card':'relay-module','charge':2,'focused':true},{'uid':5,'card':'relay-module'}]}]}");
    neg("0 play 3", "BRN-RUN-PLUG");           /* Preemptive Tactic outside Assembly (G08) */
    neg("0 play 4 1 5", "BRN-GOLDEN");         /* target not focused */
    neg("0 play 4", "BRN-GOLDEN");             /* target missing */
    neg("0 use 8", "BRN-RUN-SHOWDOWN");        /* abilities in Showdown only */
    OK("0 play 4 1 4");                        /* Overload on P2's focused Relay */
    OK("1 pass"); OK("0 pass");
    ck_assert_int_ge(ev_find(0, BRN_E_DRAIN, 1, 4), 0);
    ck_assert_int_eq(S.p[1].c[4].charge, 1);
    OK("0 play 5");                            /* a Cell in Plug */
    OK("1 pass"); OK("0 pass");
    ck_assert_int_eq(S.p[0].c[5].flags & BRN_F_ACTIVE, BRN_F_ACTIVE);
    OK("0 pass"); OK("1 pass");
    ck_assert_str_eq(G->phase(G, &S), "showdown");
    neg("0 play 5", "BRN-ZONE-HAND-PLAYABLE");
    neg("0 use 9", "BRN-RUN-SHOWDOWN");        /* Shredder needs 3 */
    OK("0 use 8");                             /* Sink: spend 2, draw 1 */
    ck_assert_int_eq(S.p[0].c[8].charge, 1);
    ck_assert_int_ge(ev_find(0, BRN_E_DRAW, 0, ANY), 0);
    OK("1 pass");
    neg("0 use 8", "BRN-RUN-SHOWDOWN");        /* only 1 Charge left */
    OK("0 play 6 1 4");                        /* non-Preemptive Tactic in Showdown */
    ck_assert_int_eq(S.nstack, 1);
}
END_TEST

START_TEST(t_showdown_cell_and_mill)
{
    pos("{'phase':'showdown','lead':1,'run':1,'players':[{" DECK3 ",'hand':[{'uid':3,'card':'power-cell'}],'machine':[" GEN(4, 0) ","
        "{'uid':5,'card':'shredder-module','charge':4,'focused':true}]},{" DECK3 ",'machine':[" GEN(3, 0) "]}]}");
    OK("1 pass");
    neg("0 play 3", "BRN-RUN-SHOWDOWN");       /* no Cells in Showdown (G12) */
    OK("0 use 5");
    ck_assert_int_eq(S.p[1].nz[BRN_Z_DECK], 1);
    ck_assert_int_eq(S.p[1].nz[BRN_Z_SCRAP], 2);
    ck_assert_int_ge(ev_find(0, BRN_E_MILL, 1, ANY), 0);
}
END_TEST

/* ---- End of Cycle ------------------------------------------------------ */
#define HAND9 "'hand':[{'uid':3,'card':'firewall'},{'uid':4,'card':'firewall'},{'uid':5,'card':'firewall'},{'uid':6,'card':'firewall'}," \
    "{'uid':7,'card':'firewall'},{'uid':8,'card':'firewall'},{'uid':9,'card':'firewall'},{'uid':10,'card':'firewall'},{'uid':11,'card':'overload'}]"
#define HAND8 "'hand':[{'uid':3,'card':'firewall'},{'uid':4,'card':'firewall'},{'uid':5,'card':'firewall'},{'uid':6,'card':'firewall'}," \
    "{'uid':7,'card':'firewall'},{'uid':8,'card':'firewall'},{'uid':9,'card':'firewall'},{'uid':10,'card':'firewall'}]"

START_TEST(t_eoc_discard)
{
    pos("{'phase':'showdown','lead':0,'run':1,'players':[{" DECK3 "," HAND9 ",'machine':[" GEN(12, 0) "]},"
        "{" DECK3 "," HAND8 ",'machine':[" GEN(11, 0) "]}]}");
    OK("0 pass"); OK("1 pass");
    ck_assert_str_eq(G->phase(G, &S), "end");
    ck_assert_int_eq(G->decision(G, &S).seat, 0);
    ck_assert_int_eq(G->decision(G, &S).kind, BRN_D_DISCARD);
    neg("1 discard 3", "BRN-ACTION-REQUIRED");
    neg("0 discard 12", "BRN-EOC-DISCARD");     /* not in Hand */
    neg("0 pass", "BRN-EOC-DISCARD");
    OK("0 discard 11");
    ck_assert_str_eq(gets_("players.0.scrapyard.0.card"), "overload");   /* G14 → Scrapyard */
    ck_assert_int_eq(G->decision(G, &S).seat, 1);  /* alternate */
    OK("1 discard 3");
    ck_assert_int_eq(G->decision(G, &S).seat, 0);
    OK("0 discard 3");                          /* P1 reaches 7; P2 already at 7 */
    ck_assert_int_eq(S.cycle, 2);               /* back to Maintenance (BRN-EOC-LOOP) */
    ck_assert_int_eq(S.p[0].nz[BRN_Z_HAND], 8); /* 7 + Start draw */
    ck_assert_int_ge(phase_ev(BRN_P_RESET), 0);
}
END_TEST

START_TEST(t_eoc_triggers)
{
    /* Both have an active Echo Trigger; P2 leads: P2's trigger is pushed first and resolves last (G04). */
    pos("{'phase':'showdown','lead':1,'run':1,'players':[{" DECK3 ",'hand':[{'uid':3,'card':'firewall'},{'uid':4,'card':'firewall'},"
        "{'uid':5,'card':'firewall'},{'uid':6,'card':'firewall'},{'uid':7,'card':'firewall'},{'uid':8,'card':'firewall'},{'uid':9,'card':'firewall'}],"
        "'machine':[" GEN(10, 0) ",{'uid':11,'card':'echo-trigger','active':true}]},"
        "{" DECK3 ",'machine':[" GEN(3, 0) ",{'uid':4,'card':'echo-trigger','active':true}]}]}");
    OK("1 pass"); OK("0 pass");
    int end = phase_ev(BRN_P_END);
    int t1 = ev_find(end, BRN_E_TRIGGER, 1, 4), t0 = ev_find(end, BRN_E_TRIGGER, 0, 11);
    int r0 = ev_find(end, BRN_E_RESOLVE, 0, 11), r1 = ev_find(end, BRN_E_RESOLVE, 1, 4);
    ck_assert(end >= 0 && t1 > end && t0 > t1 && r0 > t0 && r1 > r0);  /* BRN-EOC-TRIGGERS, BRN-ZONE-STACK */
    ck_assert_int_gt(ev_find(r0, BRN_E_DRAW, 0, ANY), r0);
    /* BRN-EOC-ORDER: the Echo draw took P1 to 8 > 7: discard in this same End of Cycle */
    ck_assert_str_eq(G->phase(G, &S), "end");
    ck_assert_int_eq(G->decision(G, &S).seat, 0);
    ck_assert_int_eq(S.p[0].nz[BRN_Z_HAND], 8);
    ck_assert_int_eq(S.nstack, 0);
}
END_TEST

/* ---- Golden Rule overrides --------------------------------------------- */
START_TEST(t_golden)
{
    /* Hoarder: P1 keeps 12 cards; P2 still discards (BRN-GOLDEN, G17). */
    pos("{'phase':'showdown','lead':0,'run':1,'players':[{" DECK3 "," HAND9 ",'scrapyard':[],"
        "'machine':[" GEN(12, 0) ",{'uid':13,'card':'hoarder','active':true}]},"
        "{" DECK3 "," HAND8 ",'machine':[" GEN(11, 0) "]}]}");
    OK("0 pass"); OK("1 pass");
    ck_assert_int_ge(ev_find(0, BRN_E_NO_DISCARD, 0, 9), 0);
    ck_assert_int_eq(G->decision(G, &S).seat, 1);
    OK("1 discard 4");
    ck_assert_int_eq(S.p[0].nz[BRN_Z_HAND], 10);  /* 9, none discarded, + Start draw */
    /* Splice Cell: an Output may have 2 Links (G09 overridden) */
    pos("{'phase':'routing','lead':0,'players':[{" DECK3 ",'machine':[" GEN(3, 3) ",{'uid':4,'card':'relay-module'},"
        "{'uid':5,'card':'sink-module'},{'uid':6,'card':'splice-cell','active':true},{'uid':7,'card':'sink-module'}]},"
        "{" DECK3 ",'machine':[" GEN(3, 0) ",{'uid':4,'card':'relay-module'},{'uid':5,'card':'sink-module'}]}]}");
    OK("0 link 3 0 4 0");
    OK("1 link 3 0 4 0");
    OK("0 link 3 0 5 0");                        /* second Link on O1 */
    neg("1 link 3 0 5 0", "BRN-ROUTE-LINK");     /* P2 has no Splice Cell */
    OK("1 pass");
    neg("0 link 3 0 7 0", "BRN-ROUTE-LINK");     /* a third is still too many */
    /* Amplifier: +1 whenever Charge is transferred to it; Library Cell: draw 2 at Start */
    pos("{'phase':'bootstrap','lead':0,'players':[{" DECK3 ",'machine':[" GEN(3, 3) ",{'uid':4,'card':'amplifier-module'},"
        "{'uid':5,'card':'library-cell','active':true}],'links':[{'from':3,'out':0,'to':4,'in':0}]},"
        "{" DECK3 ",'machine':[" GEN(3, 0) "]}]}");
    OK("0 boot 4 3");
    ck_assert_int_eq(S.p[0].c[4].charge, 4);
    for (int i = 0; i < 4; i++) OK(i % 2 ? "1 pass" : "0 pass");  /* plug, showdown */
    /* focus: amplifier has no link: emptied; → end → next Cycle: Library draws 2 */
    ck_assert_int_eq(S.cycle, 2);
    ck_assert_int_eq(S.p[0].nz[BRN_Z_HAND], 2);
    ck_assert_int_eq(S.p[1].nz[BRN_Z_HAND], 1);
}
END_TEST

START_TEST(t_reactivate)
{
    pos("{'phase':'plug','lead':0,'run':1,'players':[{" DECK3 ",'hand':[{'uid':3,'card':'reactivate'}],'machine':[" GEN(4, 0) ","
        "{'uid':5,'card':'power-cell'},{'uid':6,'card':'echo-trigger','active':true}]},{" DECK3 ",'machine':[" GEN(3, 0) ",{'uid':4,'card':'power-cell'}]}]}");
    neg("0 play 3 0 6", "BRN-GOLDEN");   /* already active */
    neg("0 play 3 1 4", "BRN-GOLDEN");   /* not yours */
    OK("0 play 3 0 5");
    OK("1 pass"); OK("0 pass");
    ck_assert_int_eq(S.p[0].c[5].flags & BRN_F_ACTIVE, BRN_F_ACTIVE);
    /* brainstorm-draft0-2: "when this Cell becomes active" is a Stack trigger */
    ck_assert_int_eq(S.nstack, 1);
    ck_assert_int_eq(S.p[0].c[4].charge, 0);
    OK("0 pass"); OK("1 pass");
    ck_assert_int_eq(S.nstack, 0);
    ck_assert_int_eq(S.p[0].c[4].charge, 1);   /* Power Cell becoming active: +1 */
    ck_assert_str_eq(gets_("players.0.scrapyard.0.card"), "reactivate");
}
END_TEST

/* ---- load_position strictness ------------------------------------------ */
static void pos_bad(const char *json, const char *where, const char *rule)
{
    arb_error err = ARB_ERROR_INIT;
    int rc = pos_rc(json, &err);
    ck_assert_msg(rc != 0, "accepted: %s", json);
    ck_assert_msg(strcmp(err.where, where) == 0, "where '%s', expected '%s' (%s)", err.where, where, err.msg);
    if (rule) ck_assert_msg(strcmp(err.rule, rule) == 0, "rule %s, expected %s", err.rule, rule);
}

START_TEST(t_load_strict)
{
    pos_bad("{'bogus':1,'players':[{},{}]}", "bogus", NULL);
    pos_bad("{'players':[{},{},{}]}", "players", "BRN-PLAYERS");
    pos_bad("{'players':[{},{'machine':[{'card':'basic-generator','foo':1}]}]}", "players.1.machine.0.foo", NULL);
    pos_bad("{'players':[{},{'hand':[{'card':'no-such-card'}]}]}", "players.1.hand.0.card", NULL);
    pos_bad("{'players':[{'machine':[{'card':'firewall'}]},{}]}", "players.0.machine.0", "BRN-ZONE-MACHINE");
    pos_bad("{'players':[{'hand':[{'card':'basic-generator'}]},{}]}", "players.0.hand.0", "BRN-ZONE-MACHINE");
    pos_bad("{'players':[{'hand':[{'uid':0,'card':'firewall'},{'uid':0,'card':'firewall'}]},{}]}", "players.0.hand.1.uid", NULL);
    pos_bad("{'players':[{'hand':[{'uid':1,'card':'firewall'}]},{}]}", "players.0", "BRN-ZONE-FIVE");
    pos_bad("{'phase':'reset','players':[{},{}]}", "phase", NULL);
    pos_bad("{'players':[{'machine':[{'card':'basic-generator','charge':31}]},{}]}", "players.0.machine.0.charge", NULL);
    pos_bad("{'players':[{'machine':[{'uid':0,'card':'basic-generator'},{'uid':1,'card':'sink-module'}],"
            "'links':[{'from':1,'out':0,'to':0,'in':0}]},{}]}", "players.0.links.0", "BRN-ROUTE-LINK");
    pos_bad("{'phase':'expansion','stack':[{'seat':0,'card':'firewall'}],'players':[{},{}]}", "stack", "BRN-ZONE-STACK");
    pos_bad("{'players':[{'hand_count':3},{}]}", "players.0.hand_count", NULL);
    pos_bad("{'phase':'bootstrap','decision':{'seat':1},'players':[{},{}]}", "decision.seat", "BRN-ACTION-REQUIRED");
    pos_bad("{'players':[{'machine':[{'card':'relay-module','used':[true,true,true]}]},{}]}", "players.0.machine.0.used", NULL);
    pos_bad("{'players':[{'machine':[{'card':'power-cell','focused':true}]},{}]}", "players.0.machine.0.focused", "BRN-BOOT-FOCUS");
    /* bare card ids (the conformance XML's inline lists) get uids in reading order */
    pos("{'players':[{'deck':['firewall','overload'],'hand':['relay-module'],'machine':['basic-generator']},{}]}");
    ck_assert_str_eq(gets_("players.0.hand.0.card"), "relay-module");
    ck_assert_int_eq(geti("players.0.hand.0.uid"), 2);
    ck_assert_int_eq(geti("players.0.deck.0.uid"), 0);
    ck_assert_int_eq(geti("players.0.machine.0.uid"), 3);
    /* a minimal position is fine, with documented defaults */
    pos("{'players':[{},{}]}");
    ck_assert_str_eq(G->phase(G, &S), "expansion");
    ck_assert_int_eq(S.cycle, 1);
}
END_TEST

/* ---- property test (engine_kit_play.h) -------------------------------- */
/* Check records every passing ck_assert through the fork channel, which
 * would dominate a hot loop; REQ only talks to Check when it fails. */
#define REQ(c) do { if (!(c)) ck_abort_msg("%s:%d: %s", __FILE__, __LINE__, #c); } while (0)

/* Any verb at its arity, mostly the actor's; arguments are small numbers
 * (ports, amounts, seats) or real uids of the seat's Hand and Machine, so
 * near-legal actions are sampled too. */
static void random_action(ek_play *pl, const void *st, arb_rng *r, arb_action *a)
{
    (void)pl;
    const brn_state *s = st;
    a->verb = (uint8_t)arb_rng_below(r, BRN_V_COUNT);
    a->seat = (int8_t)(arb_rng_below(r, 8) == 0 ? -1 : (arb_rng_below(r, 4) ? s->actor : (s->actor ^ 1)));
    const arb_verb *v = &G->verbs[a->verb];
    a->nargs = (uint8_t)(v->min_args + arb_rng_below(r, (uint32_t)(v->max_args - v->min_args + 1)));
    const brn_player *p = a->seat >= 0 ? &s->p[a->seat] : &s->p[0];
    for (int i = 0; i < a->nargs; i++) {
        uint32_t k = arb_rng_below(r, 3);
        if (k == 1 && p->nz[BRN_Z_MACHINE]) a->args[i] = p->z[BRN_Z_MACHINE][arb_rng_below(r, p->nz[BRN_Z_MACHINE])];
        else if (k == 2 && p->nz[BRN_Z_HAND]) a->args[i] = p->z[BRN_Z_HAND][arb_rng_below(r, p->nz[BRN_Z_HAND])];
        else a->args[i] = (int32_t)arb_rng_below(r, 6) - 1;
    }
    if (a->verb == BRN_V_PLAY && a->nargs == 2) a->nargs = 3;
}

/* A seat sees no PRNG, no deck, not the opponent's hand. */
static void check_view(ek_play *pl, const void *st, int seat)
{
    (void)pl;
    arb_tree *t = arb_tree_new();
    G->export_state(G, st, seat, t, arb_tree_root(t));
    const arb_tnode *root = arb_tree_root(t);
    char p[64];
    EK_REQ(arb_tnode_get(root, "rng") == NULL, "seat %d sees the PRNG", seat);
    for (int k = 0; k < 2; k++) {
        snprintf(p, sizeof p, "players.%d.deck", k);
        EK_REQ(arb_tnode_path(root, p) == NULL, "seat %d sees %s", seat, p);
    }
    snprintf(p, sizeof p, "players.%d.hand", seat ^ 1);
    EK_REQ(arb_tnode_path(root, p) == NULL, "seat %d sees %s", seat, p);
    arb_tree_free(t);
}

/* What the actor cannot see: the opponent's Hand and Deck contents, its own
 * Deck order. */
static void scramble(ek_play *pl, void *st, int me, arb_rng *r)
{
    (void)pl;
    brn_state *s = st;
    brn_player *opp = &s->p[me ^ 1];
    uint8_t ids[2 * BRN_CARDS_MAX];
    int k = 0;
    for (int z = BRN_Z_DECK; z <= BRN_Z_HAND; z++)
        for (int i = 0; i < opp->nz[z]; i++) ids[k++] = opp->c[opp->z[z][i]].id;
    arb_rng_shuffle(r, ids, (size_t)k, 1);
    k = 0;
    for (int z = BRN_Z_DECK; z <= BRN_Z_HAND; z++)
        for (int i = 0; i < opp->nz[z]; i++) opp->c[opp->z[z][i]].id = ids[k++];
    arb_rng_shuffle(r, s->p[me].z[BRN_Z_DECK], s->p[me].nz[BRN_Z_DECK], 1);
}

/* The actor owes the decision; in every 25th game, every fourth Routing
 * decision tries every link over the actor's Machine and ports -1..2:
 * accepted exactly when listed. */
static void routing_links(ek_play *pl, const void *st)
{
    static brn_state copy;
    const brn_state *s = st;
    EK_REQ(pl->d.seat == s->actor, "seat %d owes the decision, the actor is %d", pl->d.seat, s->actor);
    if (s->phase != BRN_P_ROUTING || pl->plan.index % 25 != 0 || pl->step % 4 != 0) return;
    const brn_player *pp = &s->p[s->actor];
    arb_error err = ARB_ERROR_INIT;
    for (int i = 0; i < pp->nz[BRN_Z_MACHINE]; i++)
        for (int j = 0; j < pp->nz[BRN_Z_MACHINE]; j++)
            for (int port = -1; port < 3; port++)
                for (int in = -1; in < 3; in++) {
                    arb_action x;
                    memset(&x, 0, sizeof x);
                    x.seat = (int8_t)s->actor;
                    x.verb = BRN_V_LINK;
                    x.nargs = 4;
                    x.args[0] = pp->z[BRN_Z_MACHINE][i];
                    x.args[1] = port;
                    x.args[2] = pp->z[BRN_Z_MACHINE][j];
                    x.args[3] = in;
                    pl->action = &x;
                    copy = *s;
                    int ok = G->apply(G, &copy, &x, NULL, &err) == 0;
                    EK_REQ(ok == ek__listed(&x, pl->legal, pl->nlegal), "a link accepted=%d (%s)", ok, err.msg);
                }
    pl->action = NULL;
}

/* A hidden event does not name its card to the other seat; a Run ends
 * (a bounded number a cycle); no seat holds more than its 41 cards. */
static void after_step(ek_play *pl, const void *st, const arb_action *a, const arb_events *ev)
{
    static uint16_t last_cycle;
    static int runs;
    const brn_state *s = st;
    (void)pl;
    if (!a) {
        last_cycle = s->cycle;
        runs = 0;
    }
    for (unsigned i = 0; i < ev->n; i++) {
        char buf[256];
        if (ev->buf[i].hidden) {
            G->event_text(G, &ev->buf[i], ev->buf[i].seat ^ 1, buf, sizeof buf);
            EK_REQ(strstr(buf, G->card(G, ev->buf[i].b)->name) == NULL, "a hidden event leaks: %s", buf);
        }
        if (ev->buf[i].type == BRN_E_RUN) runs++;
    }
    if (s->cycle != last_cycle) {
        last_cycle = s->cycle;
        runs = 0;
    }
    EK_REQ(runs <= 2 * (BRN_MACHINE_MODULES * 3 + 3) + 1, "%d Runs in cycle %u", runs, s->cycle);
    for (int seat = 0; seat < 2; seat++) {
        int n = 0;
        for (int z = 0; z < BRN_NZONES; z++) n += s->p[seat].nz[z];
        for (int i = 0; i < s->nstack; i++) n += s->stack[i].kind == BRN_S_CARD && s->stack[i].seat == seat;
        EK_REQ(n <= 41, "seat %d holds %d cards", seat, n);
    }
}

/* One greedy game in three; every 50th checks every legal action at every
 * step, every 10th round trips its positions. */
static void plan(ek_plan *p) { p->greedy = p->index % 3 == 0; }

START_TEST(t_property)
{
    static const ek_play_spec spec = {
        .game = &arb_game_brainstorm, .program = "check_brainstorm", .seed_base = 1000, .seed_step = 1,
        .players_min = 2, .players_max = 2, .plan = plan, .max_turns = BRN_CYCLE_CAP,
        .samples = 2, .sample = random_action, .rule_prefix = "BRN-", .seated_only = 1,
        .full_every = 50, .roundtrip_every = 41, .roundtrip_games = 10, .view_every = 97, .blind_every = 7,
        .check_view = check_view, .scramble = scramble, .before_step = routing_links, .after_step = after_step,
    };
    ek_selfplay(&spec);
}
END_TEST

/* ---- hostile positions: mutated exports never crash load_position ------ */
static unsigned count_nodes(const arb_tnode *n)
{
    unsigned k = 1;
    for (const arb_tnode *c = n->first; c; c = c->next) k += count_nodes(c);
    return k;
}

static arb_tnode *nth_node(arb_tnode *n, unsigned *i)
{
    if ((*i)-- == 0) return n;
    for (arb_tnode *c = n->first; c; c = c->next) {
        arb_tnode *r = nth_node(c, i);
        if (r) return r;
    }
    return NULL;
}

START_TEST(t_hostile_positions)
{
    static const char *const strs[] = { "bogus", "firewall", "basic-generator", "relay-module", "focus", "end",
                                        "over", "trigger", "card", "" };
    arb_rng r;
    arb_rng_seed(&r, 77);
    unsigned accepted = 0, rejected = 0;
    static brn_state st;
    static arb_action legal[4096];
    for (unsigned gi = 0; gi < 300; gi++) {
        arb_setup su;
        memset(&su, 0, sizeof su);
        su.seed = 300 + gi; su.players = 2;
        su.decks[0] = G->preset(G, gi % G->npresets); su.decks[1] = G->preset(G, (gi + 1) % G->npresets);
        arb_error err = ARB_ERROR_INIT;
        ck_assert_int_eq(G->setup(G, &S, &su, NULL, &err), 0);
        unsigned steps = arb_rng_below(&r, 400);
        for (unsigned k = 0; k < steps && !S.over; k++) {
            size_t n = G->legal(G, &S, legal, 4096);
            G->apply(G, &S, &legal[arb_rng_below(&r, (uint32_t)n)], NULL, &err);
        }
        for (int rep = 0; rep < 10; rep++) {
            arb_tree *t = arb_tree_new();
            G->export_state(G, &S, ARB_VIEW_ALL, t, arb_tree_root(t));
            arb_tnode *root = arb_tree_root(t);
            int muts = 1 + (int)arb_rng_below(&r, 3);
            for (int m = 0; m < muts; m++) {
                unsigned i = arb_rng_below(&r, count_nodes(root));
                arb_tnode *x = nth_node(root, &i);
                if (!x || x == root) continue;
                switch (arb_rng_below(&r, 4)) {
                case 0: x->kind = ARB_T_INT; x->i = (int64_t)arb_rng_below(&r, 80) - 3; break;
                case 1: x->kind = ARB_T_BOOL; x->i = arb_rng_below(&r, 2); break;
                case 2: x->kind = ARB_T_STR; x->s = strs[arb_rng_below(&r, 10)]; break;
                default: x->i = x->i + 1; break;
                }
            }
            arb_error_clear(&err);
            int rc = G->load_position(G, &st, root, &su, &err);
            if (rc) {
                REQ(err.where[0] != 0 || err.rule[0] != 0);
                REQ(strncmp(err.rule, "BRN-", 4) == 0);
                rejected++;
            } else {
                /* an accepted position is a playable state */
                accepted++;
                for (int k = 0; k < 200 && !st.over; k++) {
                    size_t n = G->legal(G, &st, legal, 4096);
                    REQ(n >= 1 && n <= 4096);
                    REQ(G->apply(G, &st, &legal[arb_rng_below(&r, (uint32_t)n)], NULL, &err) == 0);
                }
            }
            arb_tree_free(t);
        }
    }
    fprintf(stderr, "brainstorm hostile positions: %u accepted, %u rejected\n", accepted, rejected);
    ck_assert_uint_gt(rejected, 0);
}
END_TEST

/* ---- replays: self-play recorded as .tcgr, verified by the verifier ---- */
START_TEST(t_replays)
{
    char dir[] = "/tmp/brn_replays_XXXXXX", path[128];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    static arb_agent ag[2];
    for (int i = 0; i < 60; i++) {
        arb_setup su;
        memset(&su, 0, sizeof su);
        su.seed = 900 + (uint64_t)i; su.players = 2;
        su.decks[0] = G->preset(G, (unsigned)i % G->npresets);
        su.decks[1] = G->preset(G, (unsigned)(i + 1) % G->npresets);
        arb_error err = ARB_ERROR_INIT;
        arb_match *m = NULL;
        ck_assert_int_eq(arb_match_new(&m, G, &su, &err), 0);
        snprintf(path, sizeof path, "%s/%d.tcgr", dir, i);
        arb_replay_meta meta;
        memset(&meta, 0, sizeof meta);
        meta.game = G; meta.setup = &su; meta.level = -1;
        arb_replay_writer *w = NULL;
        ck_assert_int_eq(arb_replay_writer_open(&w, path, &meta, &err), 0);
        ck_assert_int_eq(arb_replay_record_start(w, m, &err), 0);
        for (int k = 0; k < 2; k++) arb_agent_init(&ag[k], i % 2 ? ARB_AGENT_GREEDY : ARB_AGENT_RANDOM, su.seed, k, 0);
        arb_outcome o;
        unsigned n = 0;
        while (!arb_match_outcome(m, &o)) {
            arb_action a;
            if (arb_agent_choose(&ag[arb_match_decision(m).seat], m, &a)) ck_abort_msg("agent found no action");
            if (arb_replay_record_step(w, m, &a, &err)) ck_abort_msg("record: %s %s", err.rule, err.msg);
            n++;
        }
        ck_assert_uint_gt(n, 0);
        ck_assert_int_eq(arb_replay_writer_close(w, &err), 0);
        uint64_t final = arb_match_hash(m);
        arb_match_free(m);
        arb_verify_opts vo = ARB_VERIFY_OPTS_INIT;
        arb_verify_result res;
        int rc = arb_replay_verify_file(path, &vo, &res, &err);
        ck_assert_msg(rc == 0, "%s: %s / %s", path, err.msg, res.detail);
        ck_assert(res.over);
        ck_assert(res.final_hash == final);
        ck_assert_int_eq(res.winner, o.winner);
        remove(path);
    }
    rmdir(dir);
}
END_TEST

/* ---- the engine's own contract: argument counts, messages, bounds ------- */
/* A state followed by bytes that read as a third player: an engine that looked
 * at seat 2 would find 255 cards there, all in no zone. */
static struct { brn_state s; unsigned char past[sizeof(brn_player)]; } W;

START_TEST(t_contract_edges)
{
    /* Argument counts reach the engine unparsed from replays and the C API:
     * validate() refuses a count outside the verb's, malformed (invalid). */
    pos("{'phase':'expansion','lead':0,'players':[{" DECK3 ",'hand':[{'uid':3,'card':'relay-module'}],'machine':[" GEN(4, 0) "]},"
        "{" DECK3 ",'machine':[" GEN(3, 0) "]}]}");
    brn_state before = S;
    arb_action a = arb_legal_action(0, BRN_V_PASS, 1, 0, 0, 0, 0);
    ev_reset();
    ck_assert_int_eq(G->apply(G, &S, &a, &EV, &ERR), ARB_EINVAL);
    ck_assert_str_eq(ERR.rule, "BRN-ACTION-REQUIRED");
    ck_assert_str_eq(ERR.msg, "'pass' takes 0 to 0 arguments, not 1");
    a = arb_legal_action(0, BRN_V_COUNT, 0, 0, 0, 0, 0);   /* a verb past the table */
    ck_assert_int_eq(G->apply(G, &S, &a, &EV, &ERR), ARB_EINVAL);
    ck_assert_str_eq(ERR.rule, "BRN-ACTION-REQUIRED");
    a = arb_legal_action(0, BRN_V_ENABLE, 0, 3, 0, 0, 0);
    ck_assert_int_eq(G->apply(G, &S, &a, &EV, &ERR), ARB_EINVAL);
    ck_assert_str_eq(ERR.rule, "BRN-ACTION-REQUIRED");
    ck_assert(memcmp(&before, &S, sizeof S) == 0);
    ck_assert_uint_eq(EV.n, 0);
    /* A match going on has no winner yet: -1, like a draw's, and over = 0 says which. */
    arb_outcome o;
    memset(&o, 0x55, sizeof o);
    ck_assert_int_eq(G->outcome(G, &S, &o), 0);
    ck_assert_int_eq(o.over, 0);
    ck_assert_int_eq(o.winner, -1);
    /* Brainstorm has no clock (BRN-ACTION-REQUIRED): no decision has a deadline. */
    ck_assert(G->decision(G, &S).clock_left_ms == -1);
    negm("1 pass", "BRN-ACTION-REQUIRED", "seat 0 owes the decision, not seat 1");
    OK("0 pass");
    negm("0 pass", "BRN-ACTION-REQUIRED", "seat 1 owes the decision, not seat 0");
    ck_assert(G->decision(G, &S).clock_left_ms == -1);

    /* A finished match owes nothing: no seat, kind 0, no clock (what drivers and the adapter print). */
    pos("{'phase':'showdown','lead':1,'run':1,'players':[{" DECK3 ",'machine':[" GEN(3, 0) "]},"
        "{'machine':[{'uid':0,'card':'sink-module','charge':2,'focused':true}," GEN(1, 0) "]}]}");
    OK("1 use 0");
    ck_assert_int_eq(G->outcome(G, &S, &o), 1);
    ck_assert_int_eq(o.winner, 0);
    arb_decision dd = G->decision(G, &S);
    ck_assert_int_eq(dd.seat, ARB_SEAT_NONE);
    ck_assert_str_eq(G->decision_names[dd.kind], "over");
    ck_assert(dd.clock_left_ms == -1);

    /* The card named in a refusal is the one the action names. */
    pos("{'phase':'showdown','lead':0,'run':1,'players':[{" DECK3 ",'hand':[{'uid':3,'card':'relay-module'}],'machine':[" GEN(4, 0) "]},"
        "{" DECK3 ",'machine':[" GEN(3, 0) "]}]}");
    negm("0 use 3", "BRN-RUN-SHOWDOWN", "card 3 is not on your Machine");
    pos("{'phase':'bootstrap','lead':0,'players':[{" DECK3 ",'hand':[{'uid':3,'card':'relay-module'}],'machine':[" GEN(4, 2) ","
        "{'uid':5,'card':'relay-module'}],'links':[{'from':4,'out':0,'to':5,'in':0}]},"
        "{" DECK3 ",'machine':[" GEN(3, 0) "]}]}");
    negm("0 boot 3 2", "BRN-BOOT-CHOOSE", "card 3 is not on your Machine");
    /* brainstorm-draft0-1 (kept for its replays) words the refusal of an unlinked Module after its own rule */
    pos_rules = "brainstorm-draft0-1";
    pos("{'phase':'bootstrap','lead':0,'players':[{" DECK3 ",'machine':[" GEN(3, 2) ","
        "{'uid':4,'card':'relay-module'},{'uid':5,'card':'sink-module'}],'links':[{'from':3,'out':0,'to':4,'in':0}]},"
        "{" DECK3 ",'machine':[" GEN(3, 0) "]}]}");
    pos_rules = NULL;
    ck_assert_int_eq(S.rules, 1);
    negm("0 boot 5 2", "BRN-BOOT-CHOOSE", "card 5 is not a Module linked to an unused Output of your Generator");

    /* A target seat past the match is no card (invalid), without reading past the players. */
    pos("{'phase':'plug','lead':0,'run':1,'players':[{" DECK3 ",'hand':[{'uid':3,'card':'overload'}],'machine':[" GEN(4, 0) "]},"
        "{" DECK3 ",'machine':[" GEN(3, 0) ",{'uid':4,'card':'relay-module','focused':true,'charge':1}]}]}");
    W.s = S;
    {   /* every byte past the two players (the state's tail padding too) */
        unsigned char *end = (unsigned char *)(W.s.p + BRN_PLAYERS);
        memset(end, 0xFF, (size_t)((unsigned char *)&W + sizeof W - end));
    }
    arb_error_clear(&ERR);
    ck_assert_int_eq(arb_action_parse(G, "0 play 3 2 0", &a, &ERR), 0);
    ev_reset();
    ck_assert_int_eq(G->apply(G, &W.s, &a, &EV, &ERR), ARB_EINVAL);
    ck_assert_str_eq(ERR.rule, "BRN-GOLDEN");
    ck_assert_str_eq(ERR.msg, "no target card 0 of seat 2");
    ck_assert_int_eq(G->decision(G, &W.s).seat, 0);
    OK("0 play 3 1 4");
}
END_TEST

/* ---- nothing read or written past the two players ----------------------- */
/* A ghost third player right after the state: its Machine holds one active
 * (and focused) Hoarder, its Hand 20, its boot count 7. An engine that walked seat 2 in any
 * phase change would mark, reset or report it. */
static struct { brn_state s; unsigned char past[sizeof(brn_player) + 16]; } G3;

static brn_player *ghost(void) { return (brn_player *)(void *)(G3.s.p + BRN_PLAYERS); }

static void ghost_set(void)
{
    brn_player g;
    memset(&g, 0, sizeof g);
    g.ncards = 21; g.gen = 0; g.boot_count = 7;
    g.nz[BRN_Z_MACHINE] = 1; g.z[BRN_Z_MACHINE][0] = 0; g.c[0].zone = BRN_Z_MACHINE;
    g.c[0].id = (uint8_t)arb_card_find(G, "hoarder"); g.c[0].flags = BRN_F_FOCUSED | BRN_F_ACTIVE;
    g.nz[BRN_Z_HAND] = 20;
    for (int i = 0; i < 20; i++) { g.z[BRN_Z_HAND][i] = (uint8_t)(i + 1); g.c[i + 1].zone = BRN_Z_HAND; }
    memcpy(ghost(), &g, sizeof g);
}

static void ghost_act(const char *line)
{
    arb_action a;
    arb_error_clear(&ERR);
    ck_assert_int_eq(arb_action_parse(G, line, &a, &ERR), 0);
    ev_reset();
    ck_assert_msg(G->apply(G, &G3.s, &a, &EV, &ERR) == 0, "'%s' rejected: %s", line, ERR.msg);
    for (unsigned i = 0; i < EV.n; i++) ck_assert_int_lt(EV.buf[i].seat, BRN_PLAYERS);
}

START_TEST(t_no_third_seat)
{
    brn_player want;
    /* Routing -> Bootstrap (boot counts reset) -> Plug, Showdown -> Focus (focused Modules marked) -> End of Cycle */
    pos("{'phase':'routing','lead':0,'players':[{" DECK3 ",'machine':[" GEN(3, 3) ",{'uid':4,'card':'relay-module'},"
        "{'uid':5,'card':'sink-module'}]},{" DECK3 ",'machine':[" GEN(3, 3) "]}]}");
    G3.s = S;
    ghost_set();
    memcpy(&want, ghost(), sizeof want);
    ghost_act("0 link 3 0 4 0");
    ghost_act("1 pass");
    ghost_act("0 link 4 0 5 0");
    ghost_act("1 pass");
    ghost_act("0 pass");                      /* Bootstrap */
    ck_assert(memcmp(ghost(), &want, sizeof want) == 0);
    ghost_act("0 boot 4 3");
    ghost_act("0 pass"); ghost_act("1 pass"); /* Plug */
    ghost_act("0 pass"); ghost_act("1 pass"); /* Showdown: Focus */
    ck_assert(memcmp(ghost(), &want, sizeof want) == 0);
    ghost_act("0 focus 4 5");
    ck_assert(memcmp(ghost(), &want, sizeof want) == 0);
    ghost_act("0 pass"); ghost_act("1 pass"); /* Run 2: Plug */
    ghost_act("0 pass"); ghost_act("1 pass"); /* Showdown; Focus has no choice: End of Cycle, the next Cycle */
    ck_assert_int_eq(G3.s.cycle, 2);
    ck_assert(memcmp(ghost(), &want, sizeof want) == 0);
    ck_assert_int_eq(G3.s.over, 0);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("brainstorm");
    TCase *tc = tcase_create("rules");
    tcase_add_checked_fixture(tc, setup_game, NULL);
    tcase_add_test(tc, t_setup);
    tcase_add_test(tc, t_decks);
    tcase_add_test(tc, t_visibility);
    tcase_add_test(tc, t_zone_use);
    tcase_add_test(tc, t_action_passing);
    tcase_add_test(tc, t_maintenance);
    tcase_add_test(tc, t_deckout);
    tcase_add_test(tc, t_assembly);
    tcase_add_test(tc, t_routing);
    tcase_add_test(tc, t_bootstrap);
    tcase_add_test(tc, t_focus);
    tcase_add_test(tc, t_focus_used_and_many);
    tcase_add_test(tc, t_run_terminates);
    tcase_add_test(tc, t_plug_showdown);
    tcase_add_test(tc, t_showdown_cell_and_mill);
    tcase_add_test(tc, t_eoc_discard);
    tcase_add_test(tc, t_eoc_triggers);
    tcase_add_test(tc, t_golden);
    tcase_add_test(tc, t_reactivate);
    tcase_add_test(tc, t_load_strict);
    tcase_add_test(tc, t_contract_edges);
    tcase_add_test(tc, t_no_third_seat);
    suite_add_tcase(s, tc);
    TCase *tp = tcase_create("property");
    tcase_add_checked_fixture(tp, setup_game, NULL);
    tcase_set_timeout(tp, 600);
    tcase_add_test(tp, t_property);
    tcase_add_test(tp, t_replays);
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
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
