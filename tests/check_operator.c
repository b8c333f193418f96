/* check_operator.c — Check tests of the OPERATOR engine: deck rules with
 * their IDs, the opening, the six combat steps' arithmetic (cover break
 * feeding Step 4, Boost changing the top card, armor absorb/break, AP,
 * DUAL, two-handed and fallback weapons), movement, deck-out reshuffles and
 * the one-card wait, Staged Damage, Multi (the `rules` case, through
 * engine_kit.h); and a property test over ARB_TEST_GAMES seeded random and
 * greedy 2-4 player games (the `property` case, engine_kit_play.h) (legal ⇔ accepted, rejections leave
 * hash and bytes unchanged, replay, views, termination, position round
 * trip). Positions are built with the tree API and loaded with
 * load_position, the same path conformance cases use. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arbiter/agent.h"
#include "arbiter/match.h"
#include "arbiter/replay.h"
#include "games/operator/operator.h"
#include "engine_kit_play.h"

extern const arb_game arb_game_operator;
#define G (&arb_game_operator)

/* ---- helpers ------------------------------------------------------------------ */
static int cid(const char *id)
{
    int i = arb_card_find(G, id);
    ck_assert_msg(i >= 0, "unknown card %s", id);
    return i;
}

static void deck_add(arb_deck *d, const char *id, int n)
{
    for (int i = 0; i < n; i++) d->cards[d->ncards++] = (uint16_t)cid(id);
}

typedef struct {
    arb_tree *t;
    arb_tnode *root, *pl[4];
    int n;
} posb;

static void pb_init(posb *b, int n, const char *const *ops)
{
    b->t = arb_tree_new();
    b->root = arb_tree_root(b->t);
    b->n = n;
    arb_tnode *a = arb_tree_add_arr(b->t, b->root, "players");
    for (int i = 0; i < n; i++) {
        b->pl[i] = arb_tree_add_map(b->t, a, NULL);
        arb_tree_add_str(b->t, b->pl[i], "operator", ops[i]);
    }
}

/* key = comma-separated card ids ("" = empty list). */
static void pb_list(posb *b, int seat, const char *key, const char *csv)
{
    arb_tnode *parent = b->pl[seat];
    if (strncmp(key, "mods.", 5) == 0) {
        arb_tnode *m = (arb_tnode *)arb_tnode_get(parent, "mods");
        if (!m) m = arb_tree_add_map(b->t, parent, "mods");
        parent = m;
        key += 5;
    }
    arb_tnode *a = arb_tree_add_arr(b->t, parent, key);
    char buf[512];
    snprintf(buf, sizeof buf, "%s", csv);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) arb_tree_add_str(b->t, a, NULL, tok);
}
static void pb_str(posb *b, int seat, const char *key, const char *v) { arb_tree_add_str(b->t, b->pl[seat], key, v); }
static void pb_int(posb *b, int seat, const char *key, int v) { arb_tree_add_int(b->t, b->pl[seat], key, v); }

static arb_match *pb_load(posb *b, arb_error *err)
{
    arb_setup su;
    memset(&su, 0, sizeof su);
    su.seed = 42;
    su.players = b->n;
    arb_match *m = NULL;
    arb_error e2 = ARB_ERROR_INIT;
    if (!err) err = &e2;
    int rc = arb_match_from_position(&m, G, b->root, &su, err);
    if (rc == 0) ck_assert_ptr_nonnull(m);
    return rc ? NULL : m;
}

static arb_match *pb_load_ok(posb *b)
{
    arb_error err = ARB_ERROR_INIT;
    arb_match *m = pb_load(b, &err);
    ck_assert_msg(m, "position rejected: %s: %s: %s", err.where, err.rule, err.msg);
    arb_tree_free(b->t);
    return m;
}

static const ops_state *S(const arb_match *m) { return arb_match_state(m); }

static arb_action act(int seat, int verb, int nargs, int a0, int a1)
{
    arb_action a;
    memset(&a, 0, sizeof a);
    a.seat = (int8_t)seat;
    a.verb = (uint8_t)verb;
    a.nargs = (uint8_t)nargs;
    a.args[0] = a0;
    a.args[1] = a1;
    return a;
}

/* Accepted; refused with rule, the state untouched (engine_kit.h). */
#define ok(m, a) do { arb_action a_ = (a); ek_match_ok(m, &a_); } while (0)
#define bad(m, a, rule) do { arb_action a_ = (a); ek_match_reject(m, &a_, rule, NULL); } while (0)

/* UID of the n-th (0-based) card with this id in seat's list. */
static int uid_of(const arb_match *m, int seat, const char *id, int nth)
{
    const ops_player *p = &S(m)->p[seat];
    int want = cid(id);
    for (int u = 0; u < p->ncards; u++)
        if (p->card[u] == want && nth-- == 0) return u;
    ck_abort_msg("seat %d has no %s", seat, id);
    return -1;
}

static int top_is(const arb_match *m, int seat, const char *id)
{
    const ops_player *p = &S(m)->p[seat];
    return p->ndiscard && p->card[p->discard[p->ndiscard - 1]] == cid(id);
}

static int has_event(const arb_match *m, int type)
{
    unsigned n;
    const arb_event *e = arb_match_events(m, &n);
    for (unsigned i = 0; i < n; i++)
        if (e[i].type == type) return 1;
    return 0;
}

static const arb_event *find_event(const arb_match *m, int type)
{
    unsigned n;
    const arb_event *e = arb_match_events(m, &n);
    for (unsigned i = 0; i < n; i++)
        if (e[i].type == type) return &e[i];
    return NULL;
}

/* A two-player duel position at P1's First Equip: attacker seat 0, target seat 1. */
static void duel(posb *b, const char *op0, const char *op1)
{
    const char *ops[2] = { op0, op1 };
    pb_init(b, 2, ops);
    pb_list(b, 0, "deck", "sprint,sprint,sprint");
    pb_list(b, 1, "deck", "sprint,sprint,sprint");
}

/* Drive seat 0 from First Equip to its attack on seat 1 with the forced weapon. */
static void attack1(arb_match *m, int weapon)
{
    ok(m, act(0, OPS_V_DONE, 0, 0, 0));
    ok(m, act(0, OPS_V_ATTACK, 2, 1, weapon));
}

/* ---- deck rules ------------------------------------------------------------------ */
START_TEST(t_presets_legal)
{
    ck_assert_uint_eq(G->ncards, arb_operator__ncards);
    ck_assert_uint_eq(G->npresets, arb_operator__npresets());
    ck_assert_uint_ge(G->npresets, 3);
    for (unsigned i = 0; i < G->npresets; i++) {
        arb_deck_issue is[8];
        unsigned n = G->deck_check(G, G->preset(G, i), is, 8);
        ck_assert_msg(n == 0, "preset %s: %s %s", G->preset(G, i)->name, n ? is[0].rule : "", n ? is[0].msg : "");
        ck_assert_uint_eq(G->preset(G, i)->ncards, 41);
    }
    for (unsigned i = 0; i < G->ncards; i++) ck_assert_ptr_nonnull(G->card(G, i));
    const char *named[] = { "Katana", "Heavy Sniper", "Explosive Rounds", "Armour Piercing Rounds", "Laser Sight",
                            "Dodge", "Duck", "Jump" };
    for (unsigned i = 0; i < 8; i++) ck_assert_int_ge(arb_card_find(G, named[i]), 0);
    arb_tree *t = arb_tree_new();
    arb_tnode *r = arb_tree_root(t);
    G->card_export(G, (unsigned)cid("katana"), t, r);
    ck_assert_int_eq(arb_tnode_get(r, "power")->i, 5);
    ck_assert_int_eq(arb_tnode_get(r, "cost")->i, 6);
    ck_assert_str_eq(arb_tnode_path(r, "keywords.1")->s, "TWO_HANDED");
    arb_tnode *v = arb_tree_add_map(t, r, "viper");
    G->card_export(G, (unsigned)cid("viper"), t, v);
    ck_assert_str_eq(arb_tnode_get(v, "fallback_close")->s, "Combat Knife");
    ck_assert_int_eq(arb_tnode_get(v, "defense")->i, 1);
    arb_tnode *w = arb_tree_add_map(t, r, "concrete");
    G->card_export(G, (unsigned)cid("concrete-barrier"), t, w);
    ck_assert_int_eq(arb_tnode_get(w, "cover_value")->i, 4);
    arb_tree_free(t);
}
END_TEST

static const char *first_rule(const arb_deck *d)
{
    static arb_deck_issue is[8];
    unsigned n = G->deck_check(G, d, is, 8);
    return n ? is[0].rule : "";
}

START_TEST(t_deck_rules)
{
    arb_deck d;
    memset(&d, 0, sizeof d);
    deck_add(&d, "viper", 1);
    deck_add(&d, "dodge", 20);
    deck_add(&d, "sprint", 20);
    ck_assert_str_eq(first_rule(&d), ""); /* OPS-DECK-NOCOPYLIMIT */
    d.ncards--;
    ck_assert_str_eq(first_rule(&d), "OPS-DECK-SIZE");
    deck_add(&d, "sprint", 2);
    ck_assert_str_eq(first_rule(&d), "OPS-DECK-SIZE");
    memset(&d, 0, sizeof d);
    deck_add(&d, "sprint", 40);
    ck_assert_str_eq(first_rule(&d), "OPS-DECK-OPERATOR");
    deck_add(&d, "viper", 2);
    ck_assert_str_eq(first_rule(&d), "OPS-DECK-OPERATOR");
    /* 60 points exactly: 8 Heavy Sniper (56) + 2 Laser... use 10 cards = 60 (OPS-DECK-PAD). */
    memset(&d, 0, sizeof d);
    deck_add(&d, "bulldog", 1);
    deck_add(&d, "katana", 10); /* 60 */
    deck_add(&d, "sprint", 30);
    ck_assert_str_eq(first_rule(&d), "");
    d.cards[d.ncards - 1] = (uint16_t)cid("dodge"); /* 61 */
    ck_assert_str_eq(first_rule(&d), "OPS-DECK-POINTS");
    /* setup refuses it with the rule */
    arb_setup su;
    memset(&su, 0, sizeof su);
    su.players = 2;
    su.decks[0] = &d;
    su.decks[1] = G->preset(G, 0);
    arb_match *m = NULL;
    arb_error err = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_match_new(&m, G, &su, &err), ARB_EILLEGAL);
    ck_assert_str_eq(err.rule, "OPS-DECK-POINTS");
    su.players = 5;
    ck_assert_int_eq(arb_match_new(&m, G, &su, &err), ARB_EILLEGAL);
    ck_assert_str_eq(err.rule, "OPS-G29");
    /* A card index outside the pool (only the API can say it; the first one past the pool included)
     * is a violation of OPS-DECK-ANY, counted, not a warning, and setup refuses it. */
    d = *G->preset(G, 0);
    d.cards[d.ncards - 1] = (uint16_t)G->ncards;
    arb_deck_issue is[8];
    unsigned n = G->deck_check(G, &d, is, 8);
    ck_assert_uint_ge(n, 1);
    ck_assert_str_eq(is[0].rule, "OPS-DECK-ANY");
    ck_assert_int_eq(is[0].warning, 0);
    ck_assert_msg(strncmp(is[0].msg, "1 card(s)", 9) == 0, "message: %s", is[0].msg);
    d.cards[0] = 0xffff;
    n = G->deck_check(G, &d, is, 8);
    ck_assert_uint_ge(n, 1);
    ck_assert_str_eq(is[0].rule, "OPS-DECK-ANY");
    ck_assert_msg(strncmp(is[0].msg, "2 card(s)", 9) == 0, "message: %s", is[0].msg);
    su.players = 2;
    su.decks[0] = &d;
    ck_assert_int_eq(arb_match_new(&m, G, &su, &err), ARB_EILLEGAL);
    ck_assert_str_eq(err.rule, "OPS-DECK-ANY");
}
END_TEST

/* ---- opening ------------------------------------------------------------------ */
START_TEST(t_opening)
{
    arb_setup su;
    memset(&su, 0, sizeof su);
    su.seed = 7;
    su.players = 3;
    for (int i = 0; i < 3; i++) su.decks[i] = G->preset(G, (unsigned)i);
    arb_match *m;
    arb_error err = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_match_new(&m, G, &su, &err), 0);
    const ops_state *s = S(m);
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(s->p[i].nhand, 4);
        ck_assert_int_eq(s->p[i].ndeck, 36);
        ck_assert_int_eq(s->p[i].health, 20);
        ck_assert_int_eq(G->card(G, s->p[i].card[s->p[i].personality])->type[0], 'P');
    }
    ck_assert_str_eq(G->phase(G, s), "opening");
    {   /* while running: no winner (-1), no reason, turn 1 during the opening (the contract's turn is 1-based) */
        arb_outcome o;
        memset(&o, 0x55, sizeof o);
        ck_assert_int_eq(arb_match_outcome(m, &o), 0);
        ck_assert_int_eq(o.over, 0);
        ck_assert_int_eq(o.winner, -1);
        ck_assert_int_eq(o.reason, OPS_R_NONE);
        ck_assert_uint_eq(arb_match_turn(m), 1);
    }
    arb_decision d = arb_match_decision(m);
    ck_assert_int_eq(d.seat, 0);
    ck_assert_str_eq(G->decision_names[d.kind], "opening-discard");
    bad(m, act(1, OPS_V_DISCARD, 1, s->p[1].hand[0], 0), "OPS-SETUP-ORDER");
    bad(m, act(0, OPS_V_DONE, 0, 0, 0), "OPS-SETUP-DISCARD1");
    {   /* the refusal names the card asked for */
        int u = s->p[0].deck[0]; /* a card of the deck, not of the hand */
        char want[40];
        snprintf(want, sizeof want, "card %d is not in hand", u);
        arb_action x = act(0, OPS_V_DISCARD, 1, u, 0);
        ck_assert_int_eq(arb_match_apply(m, &x, &err), ARB_EILLEGAL);
        ck_assert_str_eq(err.rule, "OPS-SETUP-DISCARD1");
        ck_assert_msg(strstr(err.msg, want) != NULL, "message: %s", err.msg);
    }
    for (int i = 0; i < 3; i++) {
        int u = s->p[i].hand[1];
        ok(m, act(i, OPS_V_DISCARD, 1, u, 0));
        ck_assert_int_eq(s->p[i].nhand, 3);
        ck_assert_int_eq(s->p[i].ndiscard, 1);
        ck_assert_int_eq(s->p[i].discard[0], u);
    }
    ck_assert_str_eq(G->decision_names[arb_match_decision(m).kind], "opening-equip");
    for (int i = 0; i < 3; i++) ok(m, act(i, OPS_V_DONE, 0, 0, 0)); /* declining all is legal */
    ck_assert_uint_eq(s->turn, 1);
    ck_assert_int_eq(s->active, s->first);
    ck_assert_int_eq(s->p[s->first].nhand, 4); /* OPS-DRAW applies on the first turn too */
    ck_assert(has_event(m, OPS_E_FIRST));
    /* The first player varies with the seed (OPS-SETUP-FIRST). */
    int seen[3] = { 0 };
    for (uint64_t seed = 1; seed < 40; seed++) {
        arb_match *x;
        su.seed = seed;
        ck_assert_int_eq(arb_match_new(&x, G, &su, &err), 0);
        for (int i = 0; i < 3; i++) ok(x, act(i, OPS_V_DISCARD, 1, S(x)->p[i].hand[0], 0));
        for (int i = 0; i < 3; i++) ok(x, act(i, OPS_V_DONE, 0, 0, 0));
        seen[S(x)->first] = 1;
        arb_match_free(x);
    }
    ck_assert(seen[0] && seen[1] && seen[2]);
    arb_match_free(m);
}
END_TEST

START_TEST(t_opening_equips)
{
    posb b;
    const char *ops[2] = { "viper", "ronin" };
    pb_init(&b, 2, ops);
    arb_tree_add_int(b.t, b.root, "turn", 0);
    arb_tnode *d = arb_tree_add_map(b.t, b.root, "decision");
    arb_tree_add_str(b.t, d, "kind", "opening-equip");
    pb_list(&b, 0, "hand", "katana,kevlar-vest,concrete-barrier,explosive-rounds,ceramic-plate,sidearm");
    pb_list(&b, 0, "discard", "sprint");
    pb_list(&b, 0, "deck", "sprint,sprint");
    pb_list(&b, 1, "hand", "sprint,sprint,sprint");
    pb_list(&b, 1, "discard", "sprint");
    pb_list(&b, 1, "deck", "sprint,sprint");
    arb_match *m = pb_load_ok(&b);
    const ops_state *s = S(m);
    int kat = uid_of(m, 0, "katana", 0), kev = uid_of(m, 0, "kevlar-vest", 0);
    int cov = uid_of(m, 0, "concrete-barrier", 0), ex = uid_of(m, 0, "explosive-rounds", 0);
    bad(m, act(0, OPS_V_EQUIP, 2, ex, OPS_SLOT_WEAPON), "OPS-SETUP-EQUIP-ONLY3");
    bad(m, act(0, OPS_V_ATTACH, 2, ex, OPS_SLOT_PERSONALITY), "OPS-SETUP-EQUIP-ONLY3");
    bad(m, act(0, OPS_V_EQUIP, 2, kev, OPS_SLOT_WEAPON), "OPS-ZONE-WEAPON");
    ok(m, act(0, OPS_V_EQUIP, 2, kat, OPS_SLOT_WEAPON));
    ok(m, act(0, OPS_V_EQUIP, 2, kev, OPS_SLOT_ARMOR));
    ok(m, act(0, OPS_V_EQUIP, 2, cov, OPS_SLOT_COVER));
    bad(m, act(0, OPS_V_EQUIP, 2, uid_of(m, 0, "ceramic-plate", 0), OPS_SLOT_ARMOR), "OPS-SETUP-EQUIP-ONEEACH");
    bad(m, act(0, OPS_V_EQUIP, 2, uid_of(m, 0, "sidearm", 0), OPS_SLOT_WEAPON), "OPS-SETUP-EQUIP-ONEEACH");
    ck_assert_int_eq(s->p[0].ndiscard, 1); /* OPS-SETUP-EQUIP-FREE */
    ck_assert_int_eq(s->p[0].weapon, kat);
    ck_assert_int_eq(s->p[0].armor, kev);
    ck_assert_int_eq(s->p[0].cover, cov);
    ok(m, act(0, OPS_V_DONE, 0, 0, 0));
    ok(m, act(1, OPS_V_DONE, 0, 0, 0));
    ck_assert_uint_eq(s->turn, 1);
    ck_assert_int_eq(s->moves_used, 0); /* setup equips are not moves (G18) */
    arb_match_free(m);
}
END_TEST

/* ---- combat arithmetic ------------------------------------------------------------ */
START_TEST(t_step3_break_feeds_step4)
{
    posb b;
    duel(&b, "bulldog", "viper");
    pb_str(&b, 0, "cover", "concrete-barrier");
    pb_list(&b, 0, "discard", "jump");          /* COST 2 */
    pb_str(&b, 1, "cover", "wooden-crate");     /* CV 1, COST 1 */
    pb_list(&b, 1, "discard", "sprint");        /* COST 0 */
    arb_match *m = pb_load_ok(&b);
    attack1(m, OPS_SRC_FALLBACK);               /* attacker in Cover: Carbine 3 */
    ck_assert_int_eq(S(m)->cb.type, OPS_CT_RANGED_COVER);
    ok(m, act(0, OPS_V_DONE, 0, 0, 0));         /* no Boost */
    const arb_event *cc = find_event(m, OPS_E_COVER_CHECK);
    ck_assert_ptr_nonnull(cc);
    ck_assert_int_eq(cc->a, 2);                 /* 2 + 0 */
    ck_assert_int_eq(cc->b, 1);
    ck_assert(top_is(m, 1, "wooden-crate"));    /* Step 3: broken Cover is the new top */
    ck_assert_int_eq(S(m)->p[1].cover, -1);
    /* Step 4: 3 + COST(crate) 1 = 4 − DEFENSE 1 = 3 */
    ck_assert_int_eq(S(m)->cb.attack, 4);
    ck_assert_int_eq(S(m)->cb.damage, 3);
    ck_assert_str_eq(G->decision_names[arb_match_decision(m).kind], "react");
    ck_assert_int_eq(arb_match_decision(m).seat, 1); /* the defender owes it in P1's turn */
    ok(m, act(1, OPS_V_DONE, 0, 0, 0));
    ck_assert_int_eq(S(m)->p[1].health, 17);
    ck_assert_str_eq(G->phase(G, S(m)), "second-equip");
    arb_match_free(m);
}
END_TEST

START_TEST(t_step3_miss_equal)
{
    posb b;
    duel(&b, "bulldog", "viper");
    pb_str(&b, 0, "cover", "sandbags");
    pb_str(&b, 0, "weapon", "assault-rifle");
    pb_list(&b, 0, "discard", "jump");           /* 2 */
    pb_str(&b, 1, "cover", "concrete-barrier");  /* CV 4 */
    pb_list(&b, 1, "discard", "jump");           /* 2: total 4, not > 4 */
    arb_match *m = pb_load_ok(&b);
    bad(m, act(0, OPS_V_ATTACK, 2, 1, 1), "OPS-COMBAT-WHEN"); /* not in First Equip */
    ok(m, act(0, OPS_V_DONE, 0, 0, 0));
    bad(m, act(0, OPS_V_ATTACK, 2, 1, OPS_SRC_FALLBACK), "OPS-COMBAT-STEP2-MUSTEQUIPPED");
    bad(m, act(0, OPS_V_ATTACK, 2, 0, OPS_SRC_CARD), "OPS-ACT-ATTACK");
    ok(m, act(0, OPS_V_ATTACK, 2, 1, OPS_SRC_CARD));
    ok(m, act(0, OPS_V_DONE, 0, 0, 0));
    ck_assert(has_event(m, OPS_E_MISS));
    ck_assert_int_eq(S(m)->p[1].health, 20);
    ck_assert_int_ge(S(m)->p[1].cover, 0);
    ck_assert(top_is(m, 0, "assault-rifle"));    /* a miss still uses the weapon (G11) */
    ck_assert_int_eq(S(m)->p[0].weapon, -1);
    bad(m, act(0, OPS_V_ATTACK, 2, 1, OPS_SRC_FALLBACK), "OPS-COMBAT-ONEATTACK");
    arb_match_free(m);
}
END_TEST

static arb_match *boost_pos(void)
{
    posb b;
    duel(&b, "bulldog", "viper");
    pb_str(&b, 0, "cover", "sandbags");
    pb_list(&b, 0, "discard", "sprint");        /* 0 */
    pb_list(&b, 0, "hand", "adrenaline,crossfire");
    pb_str(&b, 1, "cover", "wooden-crate");     /* CV 1 */
    pb_list(&b, 1, "discard", "dodge");         /* 1 */
    return pb_load_ok(&b);
}

START_TEST(t_boost_changes_top)
{
    arb_match *m = boost_pos();
    attack1(m, OPS_SRC_FALLBACK);
    ok(m, act(0, OPS_V_DONE, 0, 0, 0));          /* 0 + 1 = 1, not > 1: miss */
    ck_assert(has_event(m, OPS_E_MISS));
    arb_match_free(m);

    m = boost_pos();
    attack1(m, OPS_SRC_FALLBACK);
    bad(m, act(0, OPS_V_BOOST, 1, uid_of(m, 0, "crossfire", 0), 0), "OPS-GL-MULTI");
    ok(m, act(0, OPS_V_BOOST, 1, uid_of(m, 0, "adrenaline", 0), 0));
    const arb_event *cc = find_event(m, OPS_E_COVER_CHECK);
    ck_assert_ptr_nonnull(cc);
    ck_assert_int_eq(cc->a, 2);                  /* Adrenaline (1) is the attacker's top now */
    ck_assert_int_eq(cc->c, 1);
    /* Step 4: Carbine 3 + Adrenaline 2 = 5, + crate 1 = 6 − DEF 1 = 5 */
    ck_assert_int_eq(S(m)->cb.power, 5);
    ck_assert_int_eq(S(m)->cb.damage, 5);
    bad(m, act(0, OPS_V_BOOST, 1, uid_of(m, 0, "crossfire", 0), 0), "OPS-TURN-ORDER");
    ok(m, act(1, OPS_V_DONE, 0, 0, 0));
    ck_assert_int_eq(S(m)->p[1].health, 15);
    bad(m, act(0, OPS_V_BOOST, 1, uid_of(m, 0, "crossfire", 0), 0), "OPS-GL-BOOST");
    arb_match_free(m);
}
END_TEST

static arb_match *armor_pos(const char *weapon, const char *target_top, const char *mods)
{
    posb b;
    duel(&b, "viper", "bulldog");
    if (weapon) pb_str(&b, 0, "weapon", weapon);
    if (mods) pb_list(&b, 0, "mods.weapon", mods);
    pb_str(&b, 1, "armor", "kevlar-vest");      /* 2 */
    pb_list(&b, 1, "discard", target_top);
    pb_list(&b, 1, "hand", "dodge,duck,jump,kevlar-vest,sprint");
    return pb_load_ok(&b);
}

START_TEST(t_armor_absorb_break)
{
    /* Katana 5 + 0 − DEF 2 = 3: Kevlar absorbs 2, 1 damage, Vest breaks. */
    arb_match *m = armor_pos("katana", "sprint", NULL);
    attack1(m, OPS_SRC_CARD);
    ck_assert_int_eq(S(m)->cb.type, OPS_CT_CLOSE);
    ok(m, act(0, OPS_V_DONE, 0, 0, 0));
    ck_assert_int_eq(S(m)->cb.absorbed, 2);
    ck_assert_int_eq(S(m)->cb.damage, 1);
    ok(m, act(1, OPS_V_DONE, 0, 0, 0));
    ck_assert_int_eq(S(m)->p[1].health, 19);
    ck_assert_int_eq(S(m)->p[1].armor, -1);
    ck_assert(top_is(m, 1, "kevlar-vest"));
    ck_assert(top_is(m, 0, "katana"));          /* two-handed weapon used → discarded */
    arb_match_free(m);

    /* Fallback Combat Knife 2 + 0 − 2 = 0: floor, Armor absorbs nothing, stays. */
    m = armor_pos(NULL, "sprint", NULL);
    attack1(m, OPS_SRC_FALLBACK);
    ok(m, act(0, OPS_V_DONE, 0, 0, 0));
    ck_assert_int_eq(S(m)->p[1].health, 20);
    ck_assert_int_ge(S(m)->p[1].armor, 0);
    ck_assert_str_eq(G->phase(G, S(m)), "second-equip"); /* no reaction owed at 0 damage */
    ck_assert_int_eq(S(m)->p[0].ndiscard, 0);         /* the fallback is never discarded */
    arb_match_free(m);

    /* 2 + Jump top (2) = 4 − 2 = 2 absorbed fully: 0 damage but the Vest breaks. */
    m = armor_pos(NULL, "jump", NULL);
    attack1(m, OPS_SRC_FALLBACK);
    ok(m, act(0, OPS_V_DONE, 0, 0, 0));
    ck_assert_int_eq(S(m)->p[1].health, 20);
    ck_assert_int_eq(S(m)->p[1].armor, -1);
    arb_match_free(m);
}
END_TEST

START_TEST(t_reactions)
{
    /* Katana 5 + Jump-top 2 = 7 − 2 = 5, Armor 2 → 3 damage. */
    arb_match *m = armor_pos("katana", "jump", NULL);
    attack1(m, OPS_SRC_CARD);
    ok(m, act(0, OPS_V_DONE, 0, 0, 0));
    ck_assert_int_eq(S(m)->cb.damage, 3);
    bad(m, act(0, OPS_V_REACT, 1, 0, 0), "OPS-COMBAT-STEP5-WHO");
    bad(m, act(1, OPS_V_REACT, 1, uid_of(m, 1, "kevlar-vest", 0), 0), "OPS-COMBAT-STEP5-TYPE");
    bad(m, act(1, OPS_V_REACT, 1, uid_of(m, 1, "sprint", 0), 0), "OPS-GL-REACTION");
    bad(m, act(1, OPS_V_EQUIP, 2, uid_of(m, 1, "kevlar-vest", 0), OPS_SLOT_ARMOR), "OPS-ARMOR-WHEN");
    ok(m, act(1, OPS_V_REACT, 1, uid_of(m, 1, "duck", 0), 0));  /* 3 → 2 */
    ck_assert_int_eq(S(m)->cb.damage, 2);
    ck_assert(top_is(m, 1, "duck"));
    ok(m, act(1, OPS_V_REACT, 1, uid_of(m, 1, "dodge", 0), 0)); /* 2 → 0: resolves */
    ck_assert_int_eq(S(m)->p[1].health, 20);
    ck_assert_int_eq(S(m)->p[1].armor, -1);                      /* absorbed 2 > 0: broken (G09) */
    arb_match_free(m);

    /* Two reactions used, damage left: a third is rejected. Katana 5 + Jump 2 + AP: 7 − 2 = 5. */
    m = armor_pos("katana", "jump", "armour-piercing-rounds");
    attack1(m, OPS_SRC_CARD);
    ok(m, act(0, OPS_V_DONE, 0, 0, 0));
    ck_assert_int_eq(S(m)->cb.damage, 5);        /* AP: Kevlar not subtracted */
    ok(m, act(1, OPS_V_REACT, 1, uid_of(m, 1, "duck", 0), 0));
    ok(m, act(1, OPS_V_REACT, 1, uid_of(m, 1, "dodge", 0), 0));
    bad(m, act(1, OPS_V_REACT, 1, uid_of(m, 1, "jump", 0), 0), "OPS-COMBAT-STEP5-MAX2");
    ok(m, act(1, OPS_V_DONE, 0, 0, 0));
    ck_assert_int_eq(S(m)->p[1].health, 18);
    ck_assert_int_ge(S(m)->p[1].armor, 0);       /* AP: the Vest absorbed nothing, stays */
    /* discard order: AP rounds, then the Katana on top (G10) */
    const ops_player *A = &S(m)->p[0];
    ck_assert_int_eq(A->ndiscard, 2);
    ck_assert_int_eq(A->card[A->discard[0]], cid("armour-piercing-rounds"));
    ck_assert_int_eq(A->card[A->discard[1]], cid("katana"));
    arb_match_free(m);
}
END_TEST

static int power_of(const char *op, const char *weapon, int in_cover)
{
    posb b;
    duel(&b, op, "bulldog");
    pb_str(&b, 0, "weapon", weapon);
    if (in_cover) pb_str(&b, 0, "cover", "sandbags");
    arb_match *m = pb_load_ok(&b);
    int src, wuid;
    int p = arb_operator__weapon_for(S(m), 0, in_cover ? OPS_MODE_RANGED : OPS_MODE_CLOSE, &src, &wuid);
    arb_tree *t = arb_match_export(m, ARB_VIEW_ALL);
    const arb_tnode *th = arb_tnode_path(arb_tree_root(t), "players.0.weapon_two_handed");
    int two = th ? (int)th->i : -1;
    arb_tree_free(t);
    arb_match_free(m);
    return p * 10 + two;
}

START_TEST(t_dual)
{
    ck_assert_int_eq(power_of("viper", "combat-knife", 0), 40);  /* name match → doubled */
    ck_assert_int_eq(power_of("viper", "sidearm", 1), 40);       /* ranged name match */
    ck_assert_int_eq(power_of("viper", "machete", 0), 31);       /* mismatch: 3, counts as Two Handed */
    ck_assert_int_eq(power_of("valkyrie", "machete", 0), 60);    /* Valkyrie's fallback is Machete */
    ck_assert_int_eq(power_of("ronin", "nodachi", 0), 41);       /* Two Handed never doubles */
    ck_assert_int_eq(power_of("viper", "sidearm", 0), 20);       /* ranged card, open: fallback knife 2 */
}
END_TEST

START_TEST(t_sniper_keep_then_use)
{
    posb b;
    duel(&b, "viper", "bulldog");
    pb_str(&b, 0, "weapon", "heavy-sniper");
    pb_list(&b, 0, "hand", "sandbags,explosive-rounds,laser-sight,katana");
    pb_list(&b, 1, "discard", "sprint");
    arb_match *m = pb_load_ok(&b);
    int sn = uid_of(m, 0, "heavy-sniper", 0);
    ok(m, act(0, OPS_V_DONE, 0, 0, 0));
    bad(m, act(0, OPS_V_ATTACK, 2, 1, OPS_SRC_CARD), "OPS-WPN-FALLBACK-AUTO");
    ok(m, act(0, OPS_V_ATTACK, 2, 1, OPS_SRC_FALLBACK));
    ok(m, act(0, OPS_V_DONE, 0, 0, 0));          /* knife 2 + 0 − 2 = 0 */
    ck_assert_int_eq(S(m)->p[0].weapon, sn);     /* OPS-WPN-2H-KEEP */
    ck_assert_int_eq(S(m)->p[0].ndiscard, 0);
    /* Second Equip: into Cover, Explosive + Laser on the Sniper; Explosive on Katana is refused later. */
    ok(m, act(0, OPS_V_EQUIP, 2, uid_of(m, 0, "sandbags", 0), OPS_SLOT_COVER));
    ok(m, act(0, OPS_V_ATTACH, 2, uid_of(m, 0, "explosive-rounds", 0), OPS_SLOT_WEAPON));
    ok(m, act(0, OPS_V_ATTACH, 2, uid_of(m, 0, "laser-sight", 0), OPS_SLOT_WEAPON));
    bad(m, act(0, OPS_V_ATTACH, 2, uid_of(m, 0, "katana", 0), OPS_SLOT_WEAPON), "OPS-EQ1-MOD");
    ok(m, act(0, OPS_V_DONE, 0, 0, 0));          /* turn passes to seat 1 */
    ok(m, act(1, OPS_V_DONE, 0, 0, 0));
    ok(m, act(1, OPS_V_PASS, 0, 0, 0));
    ok(m, act(1, OPS_V_DONE, 0, 0, 0));
    /* Seat 0 in Cover: the Sniper applies. 6 + 2 + 1 = 9 + top 0 − 2 = 7. */
    attack1(m, OPS_SRC_CARD);
    ok(m, act(0, OPS_V_DONE, 0, 0, 0));
    ck_assert_int_eq(S(m)->cb.power, 9);
    ck_assert_int_eq(S(m)->cb.damage, 7);
    ok(m, act(1, OPS_V_DONE, 0, 0, 0));
    ck_assert_int_eq(S(m)->p[1].health, 13);
    const ops_player *A = &S(m)->p[0];
    ck_assert(top_is(m, 0, "heavy-sniper"));
    ck_assert_int_eq(A->card[A->discard[A->ndiscard - 2]], cid("laser-sight"));
    ck_assert_int_eq(A->card[A->discard[A->ndiscard - 3]], cid("explosive-rounds"));
    ck_assert_int_eq(A->nmods[OPS_SLOT_WEAPON], 0);
    /* Explosive Rounds needs a Ranged weapon. */
    ok(m, act(0, OPS_V_EQUIP, 2, uid_of(m, 0, "katana", 0), OPS_SLOT_WEAPON));
    arb_match_free(m);
}
END_TEST

START_TEST(t_explosive_on_katana)
{
    posb b;
    duel(&b, "viper", "bulldog");
    pb_str(&b, 0, "weapon", "katana");
    pb_list(&b, 0, "hand", "explosive-rounds,reinforced-lining,laser-sight,assault-rifle");
    pb_str(&b, 0, "armor", "kevlar-vest");
    arb_match *m = pb_load_ok(&b);
    int ex = uid_of(m, 0, "explosive-rounds", 0);
    bad(m, act(0, OPS_V_ATTACH, 2, ex, OPS_SLOT_WEAPON), "OPS-MOD-EXPLOSIVE");
    bad(m, act(0, OPS_V_ATTACH, 2, ex, OPS_SLOT_COVER), "OPS-MOD-ATTACH");
    bad(m, act(0, OPS_V_ATTACH, 2, uid_of(m, 0, "reinforced-lining", 0), OPS_SLOT_WEAPON), "OPS-MOD-ATTACH");
    ok(m, act(0, OPS_V_ATTACH, 2, uid_of(m, 0, "reinforced-lining", 0), OPS_SLOT_ARMOR));
    ok(m, act(0, OPS_V_ATTACH, 2, uid_of(m, 0, "laser-sight", 0), OPS_SLOT_WEAPON));
    /* Replacing the Katana discards its Laser Sight first, then the Katana (G26, OPS-GL-MOD-DISCARD). */
    ok(m, act(0, OPS_V_EQUIP, 2, uid_of(m, 0, "assault-rifle", 0), OPS_SLOT_WEAPON));
    ck_assert(top_is(m, 0, "katana"));
    const ops_player *A = &S(m)->p[0];
    ck_assert_int_eq(A->card[A->discard[A->ndiscard - 2]], cid("laser-sight"));
    ok(m, act(0, OPS_V_ATTACH, 2, ex, OPS_SLOT_WEAPON));
    ok(m, act(0, OPS_V_DONE, 0, 0, 0));
    bad(m, act(0, OPS_V_ATTACH, 2, ex, OPS_SLOT_WEAPON), "OPS-MOD-WHEN");
    arb_match_free(m);
}
END_TEST

/* ---- movement ---------------------------------------------------------------------- */
START_TEST(t_movement)
{
    posb b;
    duel(&b, "viper", "bulldog");
    pb_list(&b, 0, "hand", "sandbags,wooden-crate,sprint,dodge,second-wind,concrete-barrier");
    arb_match *m = pb_load_ok(&b);
    const ops_state *s = S(m);
    bad(m, act(0, OPS_V_MOVE, 1, uid_of(m, 0, "sprint", 0), 0), "OPS-MOVE-O2C-REQ");
    ok(m, act(0, OPS_V_EQUIP, 2, uid_of(m, 0, "sandbags", 0), OPS_SLOT_COVER)); /* free, no MOVE */
    ck_assert_int_eq(s->p[0].ndiscard, 0);
    ck_assert_int_eq(s->moves_used, 1);
    bad(m, act(0, OPS_V_EQUIP, 2, uid_of(m, 0, "wooden-crate", 0), OPS_SLOT_COVER), "OPS-EQ1-COVER-REPLACE");
    bad(m, act(0, OPS_V_MOVE, 2, uid_of(m, 0, "sprint", 0), uid_of(m, 0, "wooden-crate", 0)), "OPS-MOVE-ONCE");
    bad(m, act(0, OPS_V_MOVE, 2, uid_of(m, 0, "second-wind", 0), uid_of(m, 0, "wooden-crate", 0)), "OPS-MOVE-C2C-REQ");
    {   /* the message names the card that is not a Cover */
        arb_error e2 = ARB_ERROR_INIT;
        int dg = uid_of(m, 0, "dodge", 0);
        arb_action mv = act(0, OPS_V_MOVE, 2, uid_of(m, 0, "sprint", 0), dg);
        mv.args[2] = 99;
        ck_assert_int_eq(arb_match_apply(m, &mv, &e2), ARB_EILLEGAL);
        char want[64];
        snprintf(want, sizeof want, "card %d is not a COVER card in hand", dg);
        ck_assert_msg(strstr(e2.msg, want) != NULL, "message: %s", e2.msg);
        int sw = uid_of(m, 0, "second-wind", 0);
        mv = act(0, OPS_V_MOVE, 1, sw, 0);
        ck_assert_int_eq(arb_match_apply(m, &mv, &e2), ARB_EILLEGAL);
        snprintf(want, sizeof want, "card %d is not a MOVE card in hand", sw);
        ck_assert_msg(strstr(e2.msg, want) != NULL, "message: %s", e2.msg);
    }
    ok(m, act(0, OPS_V_DONE, 0, 0, 0));
    bad(m, act(0, OPS_V_MOVE, 1, uid_of(m, 0, "sprint", 0), 0), "OPS-MOVE-WHEN");
    ok(m, act(0, OPS_V_PLAY, 1, uid_of(m, 0, "second-wind", 0), 0));
    bad(m, act(0, OPS_V_ATTACK, 2, 1, OPS_SRC_FALLBACK), "OPS-ACT-ONE");
    /* Second Equip: Cover→Cover (Sprint + Wooden Crate) is the allowed second move. */
    int sp = uid_of(m, 0, "sprint", 0), cr = uid_of(m, 0, "wooden-crate", 0);
    ok(m, act(0, OPS_V_MOVE, 2, sp, cr));
    ck_assert_int_eq(s->p[0].cover, cr);
    ck_assert(top_is(m, 0, "sandbags"));         /* [.., Sprint, old Cover (top)] */
    ck_assert_int_eq(s->p[0].card[s->p[0].discard[s->p[0].ndiscard - 2]], cid("sprint"));
    bad(m, act(0, OPS_V_MOVE, 1, uid_of(m, 0, "dodge", 0), 0), "OPS-MOVE-ONCE");
    arb_match_free(m);

    /* Cover → open with Dodge (a MOVE card). */
    duel(&b, "viper", "bulldog");
    pb_str(&b, 0, "cover", "sandbags");
    pb_list(&b, 0, "hand", "dodge");
    m = pb_load_ok(&b);
    ok(m, act(0, OPS_V_MOVE, 1, uid_of(m, 0, "dodge", 0), 0));
    ck_assert_int_eq(S(m)->p[0].cover, -1);
    ck_assert(top_is(m, 0, "sandbags"));
    arb_match_free(m);
}
END_TEST

/* ---- deck-out ------------------------------------------------------------------------ */
START_TEST(t_deckout)
{
    /* Seat 1 ends its turn; seat 0 (deck 0, discard a b c t) draws. */
    const char *ops[2] = { "viper", "bulldog" };
    posb b;
    pb_init(&b, 2, ops);
    arb_tree_add_int(b.t, b.root, "active", 1);
    arb_tnode *d = arb_tree_add_map(b.t, b.root, "decision");
    arb_tree_add_str(b.t, d, "kind", "second-equip");
    pb_list(&b, 0, "discard", "sprint,dodge,duck,jump");
    pb_list(&b, 1, "deck", "sprint,sprint");
    arb_match *m = pb_load_ok(&b);
    ok(m, act(1, OPS_V_DONE, 0, 0, 0));
    const ops_player *p = &S(m)->p[0];
    ck_assert_int_eq(p->nhand, 1);
    ck_assert_int_eq(p->ndeck, 2);
    ck_assert_int_eq(p->ndiscard, 1);
    ck_assert(top_is(m, 0, "jump"));             /* OPS-DECKOUT-TOP */
    ck_assert_int_ne(p->card[p->hand[0]], cid("jump")); /* drawn from the reshuffled cards */
    ck_assert(has_event(m, OPS_E_RESHUFFLE));
    arb_match_free(m);

    /* One card in the discard: the draw is skipped; later two cards → reshuffle 1 and draw it. */
    pb_init(&b, 2, ops);
    arb_tree_add_int(b.t, b.root, "active", 1);
    d = arb_tree_add_map(b.t, b.root, "decision");
    arb_tree_add_str(b.t, d, "kind", "second-equip");
    pb_list(&b, 0, "discard", "jump");
    pb_list(&b, 0, "hand", "sandbags,sprint");
    pb_list(&b, 1, "deck", "sprint,sprint,sprint");
    m = pb_load_ok(&b);
    ok(m, act(1, OPS_V_DONE, 0, 0, 0));
    ck_assert(has_event(m, OPS_E_DRAW_SKIP));
    ck_assert_int_eq(S(m)->p[0].nhand, 2);
    ck_assert_int_eq(S(m)->p[0].ndiscard, 1);
    /* Seat 0 puts a card into its discard pile: into Cover, then out with Sprint next turn... simpler: pass. */
    ok(m, act(0, OPS_V_EQUIP, 2, uid_of(m, 0, "sandbags", 0), OPS_SLOT_COVER));
    ok(m, act(0, OPS_V_DONE, 0, 0, 0));
    ok(m, act(0, OPS_V_PASS, 0, 0, 0));
    ok(m, act(0, OPS_V_DONE, 0, 0, 0));
    ok(m, act(1, OPS_V_DONE, 0, 0, 0));
    ok(m, act(1, OPS_V_PASS, 0, 0, 0));
    ok(m, act(1, OPS_V_DONE, 0, 0, 0));
    ck_assert(has_event(m, OPS_E_DRAW_SKIP));    /* still one card: still waiting */
    ok(m, act(0, OPS_V_MOVE, 1, uid_of(m, 0, "sprint", 0), 0)); /* Sprint + Sandbags enter the pile */
    ck_assert_int_eq(S(m)->p[0].ndiscard, 3);
    ok(m, act(0, OPS_V_DONE, 0, 0, 0));
    ok(m, act(0, OPS_V_PASS, 0, 0, 0));
    ok(m, act(0, OPS_V_DONE, 0, 0, 0));           /* End Turn: deck empty, 3 in discard → reshuffle 2 */
    ck_assert_int_eq(S(m)->p[0].ndeck, 2);
    ck_assert_int_eq(S(m)->p[0].ndiscard, 1);
    ck_assert(top_is(m, 0, "sandbags"));         /* OPS-END-RESHUFFLE keeps the top */
    arb_match_free(m);
}
END_TEST

/* ---- Staged Damage ------------------------------------------------------------------- */
START_TEST(t_staged_damage)
{
    posb b;
    duel(&b, "viper", "bulldog");
    pb_str(&b, 0, "weapon", "katana");
    pb_list(&b, 0, "mods.weapon", "incendiary-rounds");
    pb_list(&b, 1, "discard", "sprint");
    arb_match *m = pb_load_ok(&b);
    attack1(m, OPS_SRC_CARD);
    ok(m, act(0, OPS_V_DONE, 0, 0, 0));          /* 5 − 2 = 3 */
    ok(m, act(1, OPS_V_DONE, 0, 0, 0));
    ck_assert_int_eq(S(m)->p[1].health, 17);     /* tokens cause no immediate loss */
    ck_assert_int_eq(S(m)->p[1].sd, 3);
    ok(m, act(0, OPS_V_DONE, 0, 0, 0));          /* end turn → seat 1 ticks before drawing */
    ck_assert_int_eq(S(m)->p[1].sd, 2);
    ck_assert_int_eq(S(m)->p[1].health, 16);
    unsigned n;
    const arb_event *e = arb_match_events(m, &n);
    int tick = -1, draw = -1;
    for (unsigned i = 0; i < n; i++) {
        if (e[i].type == OPS_E_SD_TICK && tick < 0) tick = (int)i;
        if (e[i].type == OPS_E_DRAW && e[i].seat == 1 && draw < 0) draw = (int)i;
    }
    ck_assert_int_ge(tick, 0);
    ck_assert_int_gt(draw, tick);
    arb_match_free(m);

    /* Cover and Armor do not stop it; 1 token → 1 damage then none. */
    duel(&b, "viper", "bulldog");
    arb_tree_add_int(b.t, b.root, "active", 1);
    arb_tnode *d = arb_tree_add_map(b.t, b.root, "decision");
    arb_tree_add_str(b.t, d, "kind", "second-equip");
    pb_str(&b, 0, "cover", "sandbags");
    pb_str(&b, 0, "armor", "kevlar-vest");
    pb_int(&b, 0, "staged_damage", 1);
    pb_int(&b, 0, "health", 1);
    m = pb_load_ok(&b);
    ok(m, act(1, OPS_V_DONE, 0, 0, 0));
    arb_outcome o;
    ck_assert(arb_match_outcome(m, &o));         /* eliminated at 0 (G02) */
    ck_assert_int_eq(o.winner, 1);
    ck_assert_str_eq(G->outcome_reasons[o.reason], "elimination");
    ck_assert_int_ge(S(m)->p[0].armor, 0);
    ck_assert_int_ge(S(m)->p[0].cover, 0);
    arb_match_free(m);
}
END_TEST

/* ---- Multi / several attacks ---------------------------------------------------------- */
START_TEST(t_multi)
{
    posb b;
    const char *ops[3] = { "bulldog", "viper", "ronin" };
    pb_init(&b, 3, ops);
    for (int i = 0; i < 3; i++) pb_list(&b, i, "deck", "sprint,sprint");
    pb_list(&b, 0, "hand", "crossfire,medkit");
    arb_match *m = pb_load_ok(&b);
    ok(m, act(0, OPS_V_DONE, 0, 0, 0));
    ok(m, act(0, OPS_V_ATTACK, 2, 1, OPS_SRC_FALLBACK));
    ok(m, act(0, OPS_V_BOOST, 1, uid_of(m, 0, "crossfire", 0), 0)); /* 3 players: Multi allowed */
    /* Fists 1 + top 0 − DEFENSE 1 = 0: resolved without a reaction; Crossfire allows one more attack. */
    ck_assert_str_eq(G->phase(G, S(m)), "action");
    bad(m, act(0, OPS_V_ATTACK, 2, 1, OPS_SRC_FALLBACK), "OPS-COMBAT-ONEATTACK");
    bad(m, act(0, OPS_V_PLAY, 1, uid_of(m, 0, "medkit", 0), 0), "OPS-ACT-ONE");
    ok(m, act(0, OPS_V_ATTACK, 2, 2, OPS_SRC_FALLBACK));
    ok(m, act(0, OPS_V_DONE, 0, 0, 0));
    if (arb_match_decision(m).seat == 2) ok(m, act(2, OPS_V_DONE, 0, 0, 0));
    ck_assert_str_eq(G->phase(G, S(m)), "second-equip");
    arb_match_free(m);
}
END_TEST

START_TEST(t_misc_rules)
{
    posb b;
    duel(&b, "viper", "bulldog");
    pb_list(&b, 0, "hand", "medkit,adrenaline,kevlar-vest,ceramic-plate");
    pb_int(&b, 0, "health", 19);
    arb_match *m = pb_load_ok(&b);
    ok(m, act(0, OPS_V_EQUIP, 2, uid_of(m, 0, "kevlar-vest", 0), OPS_SLOT_ARMOR));
    ok(m, act(0, OPS_V_EQUIP, 2, uid_of(m, 0, "ceramic-plate", 0), OPS_SLOT_ARMOR)); /* replace */
    ck_assert(top_is(m, 0, "kevlar-vest"));
    ok(m, act(0, OPS_V_DONE, 0, 0, 0));
    bad(m, act(0, OPS_V_PLAY, 1, uid_of(m, 0, "adrenaline", 0), 0), "OPS-GL-BOOST");
    bad(m, act(1, OPS_V_PASS, 0, 0, 0), "OPS-TURN-ORDER");
    arb_action t = act(ARB_SEAT_ARBITER, OPS_V_TIMEOUT, 0, 0, 0);
    bad(m, t, "OPS-G28");
    ok(m, act(0, OPS_V_PLAY, 1, uid_of(m, 0, "medkit", 0), 0));
    ck_assert_int_eq(S(m)->p[0].health, 20);     /* cap (G22) */
    bad(m, act(0, OPS_V_ATTACK, 2, 1, 0), "OPS-ACT-ONE");
    /* malformed: wrong arg count, unknown verb (the text syntax cannot say either) */
    arb_action x = act(0, OPS_V_EQUIP, 1, 0, 0);
    arb_error err = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_match_apply(m, &x, &err), ARB_EINVAL);
    x = act(0, OPS_V_DONE, 1, 0, 0);
    ck_assert_int_eq(arb_match_apply(m, &x, &err), ARB_EINVAL);
    x = act(0, OPS_V_COUNT, 0, 0, 0); /* the first number past the verb table */
    ck_assert_int_eq(arb_match_apply(m, &x, &err), ARB_EINVAL);
    ck_assert_msg(strstr(err.msg, "unknown verb") != NULL, "message: %s", err.msg);
    x = act(0, 200, 1, 0, 0);
    ck_assert_int_eq(arb_match_apply(m, &x, &err), ARB_EINVAL);
    ck_assert_msg(strstr(err.msg, "unknown verb 200") != NULL, "message: %s", err.msg);
    ck_assert_int_eq(arb_match_decision(m).clock_left_ms, -1);
    /* a verb out of its phase says which decision is owed */
    x = act(0, OPS_V_REACT, 1, 1, 0);
    ck_assert_int_eq(arb_match_apply(m, &x, &err), ARB_EILLEGAL);
    ck_assert_msg(strstr(err.msg, "(second-equip)") != NULL, "message: %s", err.msg);
    /* the messages name the slot and the card */
    x = act(0, OPS_V_EQUIP, 2, uid_of(m, 0, "adrenaline", 0), OPS_SLOT_WEAPON);
    ck_assert_int_eq(arb_match_apply(m, &x, &err), ARB_EILLEGAL);
    ck_assert_msg(strstr(err.msg, "cannot go into the Second Weapon slot") != NULL, "message: %s", err.msg);
    x.args[1] = OPS_SLOT_ARMOR;
    ck_assert_int_eq(arb_match_apply(m, &x, &err), ARB_EILLEGAL);
    ck_assert_msg(strstr(err.msg, "cannot go into the Armor slot") != NULL, "message: %s", err.msg);
    x.args[1] = OPS_SLOT_COVER;
    ck_assert_int_eq(arb_match_apply(m, &x, &err), ARB_EILLEGAL);
    ck_assert_msg(strstr(err.msg, "cannot go into the Cover slot") != NULL, "message: %s", err.msg);
    /* a seat without a deck is refused before anything is set up */
    arb_setup su;
    memset(&su, 0, sizeof su);
    su.seed = 1;
    su.players = 2;
    su.decks[0] = G->preset(G, 0);
    ops_state *st = malloc(sizeof *st);
    memset(st, 0xA5, sizeof *st);
    ck_assert_int_eq(G->setup(G, st, &su, NULL, &err), ARB_EINVAL);
    ck_assert_str_eq(err.rule, "OPS-DECK-SIZE");
    su.decks[1] = G->preset(G, 1);
    ck_assert_int_eq(G->setup(G, st, &su, NULL, &err), ARB_OK);
    free(st);
    arb_match_free(m);
}
END_TEST

/* ---- positions ------------------------------------------------------------------------ */
START_TEST(t_position_errors)
{
    posb b;
    arb_error err;
    duel(&b, "viper", "bulldog");
    pb_str(&b, 0, "cover", "katana");
    err = (arb_error)ARB_ERROR_INIT;
    ck_assert_ptr_null(pb_load(&b, &err));
    ck_assert_str_eq(err.rule, "OPS-ZONE-COVER");
    ck_assert_str_eq(err.where, "players.0.cover");
    arb_tree_free(b.t);

    duel(&b, "viper", "bulldog");
    arb_tnode *mods = arb_tree_add_map(b.t, b.pl[1], "mods");
    arb_tree_add_arr(b.t, mods, "wepon");
    err = (arb_error)ARB_ERROR_INIT;
    ck_assert_ptr_null(pb_load(&b, &err));
    ck_assert_str_eq(err.where, "players.1.mods.wepon");
    arb_tree_free(b.t);

    duel(&b, "viper", "bulldog");
    pb_int(&b, 0, "hand_count", 3);
    err = (arb_error)ARB_ERROR_INIT;
    ck_assert_ptr_null(pb_load(&b, &err));
    ck_assert_str_eq(err.where, "players.0.hand_count");
    arb_tree_free(b.t);

    duel(&b, "viper", "bulldog");
    pb_str(&b, 0, "hand", "nope");
    err = (arb_error)ARB_ERROR_INIT;
    ck_assert_ptr_null(pb_load(&b, &err));
    ck_assert_str_eq(err.where, "players.0.hand");
    arb_tree_free(b.t);
}
END_TEST


/* ---- replays: 2-, 3- and 4-player matches record and verify ------------------------- */
START_TEST(t_replay_verify)
{
    char dir[] = "/tmp/check_operator.XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    for (int k = 0; k < 12; k++) {
        char path[96];
        snprintf(path, sizeof path, "%s/m%d.tcgr", dir, k);
        arb_setup su;
        memset(&su, 0, sizeof su);
        su.seed = 900 + (uint64_t)k;
        su.players = 2 + k % 3;
        for (int i = 0; i < su.players; i++) su.decks[i] = G->preset(G, (unsigned)(k + i) % G->npresets);
        arb_error err = ARB_ERROR_INIT;
        arb_match *m;
        ck_assert_int_eq(arb_match_new(&m, G, &su, &err), 0);
        arb_replay_meta meta;
        memset(&meta, 0, sizeof meta);
        meta.game = G;
        meta.setup = &su;
        meta.level = -1;
        arb_replay_writer *w;
        ck_assert_int_eq(arb_replay_writer_open(&w, path, &meta, &err), ARB_OK);
        ck_assert_int_eq(arb_replay_record_start(w, m, &err), ARB_OK);
        static arb_agent ag[4];
        for (int i = 0; i < su.players; i++) arb_agent_init(&ag[i], k % 2 ? ARB_AGENT_GREEDY : ARB_AGENT_RANDOM, su.seed, i, 0);
        arb_action a;
        for (;;) {
            arb_decision d = arb_match_decision(m);
            if (d.seat < 0 || arb_agent_choose(&ag[d.seat], m, &a) != ARB_OK) break;
            ck_assert_int_eq(arb_replay_record_step(w, m, &a, &err), ARB_OK);
        }
        ck_assert_int_eq(arb_replay_writer_close(w, &err), ARB_OK);
        arb_outcome o;
        ck_assert(arb_match_outcome(m, &o));
        arb_verify_result res;
        arb_verify_opts vo = ARB_VERIFY_OPTS_INIT;
        int rc = arb_replay_verify_file(path, &vo, &res, &err);
        ck_assert_msg(rc == ARB_OK, "verify: %s %s", res.detail, err.msg);
        ck_assert_int_eq(res.winner, o.winner);
        ck_assert_uint_eq(res.turns, o.turns);
        ck_assert(res.final_hash == arb_match_hash(m));
        arb_match_free(m);
        unlink(path);
    }
    rmdir(dir);
}
END_TEST

/* ---- property test (engine_kit_play.h) ------------------------------------------------- */
/* Check's ck_assert writes the assertion location to a pipe on every call;
 * in loops of millions of checks that is most of the run time, so the hot
 * loops use these, which only involve Check on failure. */
#define REQ(c) do { if (!(c)) ck_abort_msg("%s:%d: %s", __FILE__, __LINE__, #c); } while (0)
#define REQ_MSG(c, ...) do { if (!(c)) ck_abort_msg(__VA_ARGS__); } while (0)

/* A seat sees no PRNG, no deck, and only its own hand (every hand's count). */
static void check_view(ek_play *p, const void *st, int seat)
{
    (void)p;
    arb_tree *t = arb_tree_new();
    G->export_state(G, st, seat, t, arb_tree_root(t));
    const arb_tnode *root = arb_tree_root(t);
    EK_REQ(!arb_tnode_get(root, "rng"), "seat %d sees the PRNG", seat);
    const arb_tnode *pl = arb_tnode_get(root, "players");
    for (uint32_t i = 0; i < pl->n; i++) {
        const arb_tnode *q = arb_tnode_at(pl, i);
        EK_REQ(!arb_tnode_get(q, "deck"), "seat %d sees seat %u's deck", seat, i);
        EK_REQ(!arb_tnode_get(q, "hand") == ((int)i != seat), "seat %d: seat %u's hand shown wrongly", seat, i);
        EK_REQ(arb_tnode_get(q, "hand_count") != NULL, "seat %d: seat %u has no hand_count", seat, i);
    }
    arb_tree_free(t);
}

/* What seat cannot see: other seats' hand+deck contents, every deck order,
 * the PRNG state. */
static void hide_shuffle(ek_play *p, void *st, int seat, arb_rng *r)
{
    (void)p;
    ops_state *x = st;
    for (int q = 0; q < x->players; q++) {
        ops_player *pl = &x->p[q];
        if (q != seat) ek_deal_hidden(r, pl->hand, pl->nhand, pl->deck, pl->ndeck);
        else arb_rng_shuffle(r, pl->deck, pl->ndeck, 1);
    }
    x->rng.s[0] ^= 0x9e3779b97f4a7c15ull;
}

/* Mostly the deciding seat, a seat verb at its arity or one more, small args. */
static void sample(ek_play *p, const void *st, arb_rng *r, arb_action *a)
{
    (void)st;
    a->verb = (uint8_t)arb_rng_below(r, OPS_V_TIMEOUT);
    a->seat = (int8_t)(arb_rng_below(r, 4) == 0 ? (int)arb_rng_below(r, (uint32_t)p->plan.players) : p->d.seat);
    a->nargs = G->verbs[a->verb].min_args;
    if (a->nargs < G->verbs[a->verb].max_args && arb_rng_below(r, 2)) a->nargs++;
    for (int j = 0; j < a->nargs; j++) a->args[j] = (int32_t)arb_rng_below(r, 45) - 2;
}

/* Every action is narrated, and a hidden draw reads "Pn draws a card" to
 * another seat. */
static void after_step(ek_play *p, const void *st, const arb_action *a, const arb_events *ev)
{
    (void)st;
    EK_REQ(!a || ev->n > 0, "an accepted action emitted no event");
    for (unsigned i = 0; i < ev->n; i++) {
        char buf[256], want[64];
        if (!ev->buf[i].hidden) continue;
        int other = (ev->buf[i].seat + 1) % p->plan.players;
        G->event_text(G, &ev->buf[i], other, buf, sizeof buf);
        snprintf(want, sizeof want, "P%d draws a card", ev->buf[i].seat + 1);
        EK_REQ(strcmp(buf, want) == 0, "seat %d reads a hidden event as '%s'", other, buf);
    }
}

/* 2-4 players in turn, three random games then three greedy ones; every
 * 40th game checks every legal action at every step, views and round trips. */
static void plan(ek_plan *p) { p->greedy = (p->index / 3) % 2; }

START_TEST(t_property)
{
    static const ek_play_spec spec = {
        .game = &arb_game_operator, .program = "check_operator", .seed_base = 0x5eed0000ull, .seed_step = 7919,
        .players_min = 2, .players_max = 4, .plan = plan, .max_turns = OPS_TURN_CAP,
        .samples = 3, .sample = sample, .rule_prefix = "OPS-", .illegal_only = 1, .no_clock = 1, .seated_only = 1,
        .legal_every = 7, .full_every = 40, .roundtrip_every = 11, .roundtrip_games = 40, .view_every = 11,
        .view_games = 40, .blind_every = 1,
        .check_view = check_view, .scramble = hide_shuffle, .after_step = after_step,
    };
    ek_selfplay(&spec);
}
END_TEST

/* ---- hostile positions: mutated exports load or fail cleanly, never crash -------------- */
static unsigned count_nodes(const arb_tnode *n)
{
    unsigned k = 1;
    for (const arb_tnode *c = (n->kind == ARB_T_MAP || n->kind == ARB_T_ARR) ? n->first : NULL; c; c = c->next)
        k += count_nodes(c);
    return k;
}

static arb_tnode *nth_node(arb_tnode *n, unsigned *k)
{
    if ((*k)-- == 0) return n;
    for (arb_tnode *c = (n->kind == ARB_T_MAP || n->kind == ARB_T_ARR) ? n->first : NULL; c; c = c->next) {
        arb_tnode *r = nth_node(c, k);
        if (r) return r;
    }
    return NULL;
}

static void mutate(arb_tnode *root, arb_rng *r)
{
    static const char *const strs[] = { "katana", "viper", "react", "boost", "nope", "", "close", "card", "over" };
    unsigned k = arb_rng_below(r, count_nodes(root));
    arb_tnode *n = nth_node(root, &k);
    switch (n->kind) {
    case ARB_T_INT: n->i = (int64_t)arb_rng_below(r, 80) - 5; break;
    case ARB_T_BOOL: n->i = !n->i; break;
    case ARB_T_STR: n->s = strs[arb_rng_below(r, 9)]; break;
    case ARB_T_NULL: n->kind = ARB_T_INT; n->i = (int64_t)arb_rng_below(r, 50); break;
    case ARB_T_ARR: case ARB_T_MAP:
        if (n->n == 0) { n->kind = ARB_T_INT; n->i = 1; break; }
        if (n->n == 1) { n->first = n->last = NULL; n->n = 0; break; }
        { /* drop one child */
            unsigned d = arb_rng_below(r, n->n);
            if (d == 0) n->first = n->first->next;
            else {
                arb_tnode *c = n->first;
                for (unsigned i = 1; i < d; i++) c = c->next;
                if (c->next == n->last) n->last = c;
                c->next = c->next->next;
            }
            n->n--;
        }
        break;
    }
}

START_TEST(t_position_fuzz)
{
    arb_rng r;
    arb_rng_seed(&r, 77);
    static arb_action legal[ARB_AGENT_LEGAL_MAX];
    unsigned accepted = 0, rejected = 0;
    for (int g = 0; g < 60; g++) {
        arb_setup su;
        memset(&su, 0, sizeof su);
        su.seed = 5000 + (uint64_t)g;
        su.players = 2 + g % 3;
        for (int i = 0; i < su.players; i++) su.decks[i] = G->preset(G, (unsigned)(g + i) % G->npresets);
        arb_match *m;
        arb_error err = ARB_ERROR_INIT;
        REQ(arb_match_new(&m, G, &su, &err) == 0);
        int stop = (int)arb_rng_below(&r, 300);
        for (int step = 0; step < stop; step++) {
            size_t n = arb_match_legal(m, legal, ARB_AGENT_LEGAL_MAX);
            if (!n) break;
            REQ(arb_match_apply(m, &legal[arb_rng_below(&r, (uint32_t)n)], &err) == 0);
        }
        for (int t = 0; t < 25; t++) {
            arb_tree *tr = arb_match_export(m, ARB_VIEW_ALL);
            int muts = 1 + (int)arb_rng_below(&r, 3);
            for (int k = 0; k < muts; k++) mutate(arb_tree_root(tr), &r);
            arb_match *x = NULL;
            arb_error e2 = ARB_ERROR_INIT;
            int rc = arb_match_from_position(&x, G, arb_tree_root(tr), &su, &e2);
            if (rc) {
                rejected++;
                REQ(rc == ARB_EINVAL || rc == ARB_EILLEGAL);
                REQ(e2.msg[0] != 0);
            } else {
                accepted++;
                /* an accepted position must play on: legal ⇒ accepted, and its own round trip */
                for (int step = 0; step < 40 && !arb_match_outcome(x, &(arb_outcome){ 0 }); step++) {
                    size_t n = arb_match_legal(x, legal, ARB_AGENT_LEGAL_MAX);
                    REQ(n > 0);
                    REQ_MSG(arb_match_apply(x, &legal[arb_rng_below(&r, (uint32_t)n)], &e2) == 0, "%s %s", e2.rule, e2.msg);
                }
                arb_tree *t2 = arb_match_export(x, ARB_VIEW_ALL);
                arb_match *y = NULL;
                REQ_MSG(arb_match_from_position(&y, G, arb_tree_root(t2), &su, &e2) == 0, "%s: %s", e2.where, e2.msg);
                REQ(arb_match_hash(x) == arb_match_hash(y));
                arb_match_free(y);
                arb_tree_free(t2);
                arb_match_free(x);
            }
            arb_tree_free(tr);
        }
        arb_match_free(m);
    }
    ck_assert_uint_gt(accepted, 10);
    ck_assert_uint_gt(rejected, 10);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("operator");
    TCase *tc = tcase_create("rules");
    tcase_add_test(tc, t_presets_legal);
    tcase_add_test(tc, t_deck_rules);
    tcase_add_test(tc, t_opening);
    tcase_add_test(tc, t_opening_equips);
    tcase_add_test(tc, t_step3_break_feeds_step4);
    tcase_add_test(tc, t_step3_miss_equal);
    tcase_add_test(tc, t_boost_changes_top);
    tcase_add_test(tc, t_armor_absorb_break);
    tcase_add_test(tc, t_reactions);
    tcase_add_test(tc, t_dual);
    tcase_add_test(tc, t_sniper_keep_then_use);
    tcase_add_test(tc, t_explosive_on_katana);
    tcase_add_test(tc, t_movement);
    tcase_add_test(tc, t_deckout);
    tcase_add_test(tc, t_staged_damage);
    tcase_add_test(tc, t_multi);
    tcase_add_test(tc, t_misc_rules);
    tcase_add_test(tc, t_position_errors);
    tcase_add_test(tc, t_replay_verify);
    suite_add_tcase(s, tc);
    TCase *tp = tcase_create("property");
    tcase_set_timeout(tp, 300);
    tcase_add_test(tp, t_property);
    tcase_add_test(tp, t_position_fuzz);
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
