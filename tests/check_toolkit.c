/* check_toolkit.c — the engine toolkit in core and the game contract.
 *
 * Unit tests of the shared pieces (name lookups, reason spellings, the
 * strict position reader, deck issues), then one generic suite run over
 * every compiled-in engine AND the test game built here as a fifth
 * (tests/testgame.h), so a new engine is
 * held to the same duties: arb_game_check, legal() <=> apply(), rejected
 * actions leave the state untouched, clones hash alike, no dropped events,
 * narration for every event and action, the position round trip,
 * determinism, and a recorded replay that verifies. The last test plays
 * matches of every game in parallel threads while others read presets and
 * cards (`make tsan` runs it under ThreadSanitizer). */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arbiter/arbiter.h"
#include "arbiter/adapter.h"
#include "testgame.h"

/* ---- names ------------------------------------------------------------ */
START_TEST(t_names)
{
    static const char *const names[] = { "a", NULL, "c" };
    ck_assert_str_eq(arb_name_at(names, 3, 0, "?"), "a");
    ck_assert_str_eq(arb_name_at(names, 3, 1, "?"), "?"); /* unset entry */
    ck_assert_str_eq(arb_name_at(names, 3, 3, "?"), "?"); /* out of range */
    ck_assert_str_eq(arb_name_at(NULL, 0, 0, "none"), "none");
    ck_assert_int_eq(arb_name_index(names, 3, "c"), 2);
    ck_assert_int_eq(arb_name_index(names, 3, "b"), -1);
    const arb_game *g = arb_game_find("naramo");
    ck_assert_ptr_nonnull(g);
    ck_assert_str_eq(arb_game_verb_name(g, 9999), "unknown");
    ck_assert_str_eq(arb_game_event_name(g, 9999), "unknown");
    ck_assert_str_eq(arb_game_decision_name(g, 9999), "unknown");
    ck_assert_str_eq(arb_game_reason_name(g, 9999), "unknown");
    ck_assert_str_eq(arb_game_verb_name(g, 0), g->verbs[0].name);
    /* One spelling (kebab-case); the v1 spelling still matches. */
    int k = arb_game_reason_find(g, "deck-out");
    ck_assert_int_ge(k, 0);
    ck_assert_int_eq(arb_game_reason_find(g, "deck_out"), k);
    ck_assert_str_eq(arb_game_reason_name(g, (unsigned)k), "deck-out");
    ck_assert(arb_reason_same("power_orders", "power-orders"));
    ck_assert(!arb_reason_same("power-order", "power-orders"));
    ck_assert(!arb_reason_same(NULL, "x"));
    ck_assert_int_eq(arb_game_reason_find(g, "no-such-reason"), -1);
}
END_TEST

/* ---- rejections and deck issues ---------------------------------------- */
START_TEST(t_reject_and_issues)
{
    arb_error e = ARB_ERROR_INIT;
    ck_assert_int_eq(ARB_ILLEGAL(&e, "X-RULE", "seat %d", 3), ARB_EILLEGAL);
    ck_assert_str_eq(e.rule, "X-RULE");
    ck_assert_str_eq(e.msg, "seat 3");
    ck_assert_int_eq(ARB_INVALID(&e, NULL, "bad"), ARB_EINVAL);
    ck_assert_str_eq(e.rule, "");
    ck_assert_int_eq(ARB_ILLEGAL(NULL, "X", "no error struct"), ARB_EILLEGAL);
    arb_deck_issue is[2];
    unsigned n = 0;
    arb_deck_issue_add(is, 2, &n, 0, "R1", "%d cards", 3);
    arb_deck_issue_add(is, 2, &n, 1, "R2", "warning");
    arb_deck_issue_add(is, 2, &n, 0, "R3", "past cap, counted");
    ck_assert_uint_eq(n, 3);
    ck_assert_str_eq(is[0].msg, "3 cards");
    ck_assert_int_eq(is[1].warning, 1);
    ck_assert_str_eq(is[1].rule, "R2");
}
END_TEST

/* ---- the position reader ------------------------------------------------ */
static arb_tree *json(const char *text)
{
    arb_tree *t = arb_tree_new();
    arb_error e = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_tree_parse_json(t, arb_tree_root(t), "v", text, strlen(text), &e), ARB_OK);
    return t;
}

START_TEST(t_posread)
{
    arb_tree *t = json("{\"a\":5,\"b\":true,\"c\":\"beta\",\"d\":[1,2,3],\"card\":\"Gubby\",\"m\":{\"x\":1}}");
    const arb_tnode *root = arb_tnode_get(arb_tree_root(t), "v");
    arb_error e = ARB_ERROR_INIT;
    arb_pos P;
    arb_pos_init(&P, arb_game_find("naramo"), &e, NULL);
    static const char *const keys[] = { "a", "b", "c", "d", "card", "m", NULL };
    static const char *const few[] = { "a", NULL };
    ck_assert_int_eq(arb_pos_keys(&P, root, keys), ARB_OK);
    ck_assert_int_eq(arb_pos_keys(&P, root, few), ARB_EINVAL);
    ck_assert_str_eq(e.where, "b");
    ck_assert_str_eq(e.msg, "unknown field 'b'");
    int64_t v = -7;
    ck_assert_int_eq(arb_pos_int(&P, root, "zz", 0, 9, &v), ARB_OK); /* absent: untouched */
    ck_assert_int_eq(v, -7);
    ck_assert_int_eq(arb_pos_int(&P, root, "a", 0, 9, &v), ARB_OK);
    ck_assert_int_eq(v, 5);
    size_t mk = arb_pos_push(&P, "players");
    arb_pos_index(&P, 1);
    ck_assert_int_eq(arb_pos_int(&P, root, "a", 0, 4, &v), ARB_EINVAL);
    ck_assert_str_eq(e.where, "players.1.a");
    ck_assert_str_eq(e.msg, "5 is out of range 0..4");
    ck_assert_int_eq(arb_pos_int(&P, root, "b", 0, 4, &v), ARB_EINVAL);
    ck_assert_str_eq(e.msg, "expected an integer");
    int b = 0;
    ck_assert_int_eq(arb_pos_bool(&P, root, "b", &b), ARB_OK);
    ck_assert_int_eq(b, 1);
    ck_assert_int_eq(arb_pos_bool(&P, root, "a", &b), ARB_EINVAL);
    ck_assert_str_eq(e.msg, "expected true or false");
    static const char *const greek[] = { "alpha", "gamma" };
    int en = -1;
    ck_assert_int_eq(arb_pos_enum(&P, root, "c", greek, 2, &en), ARB_EINVAL);
    ck_assert_str_eq(e.msg, "unknown value 'beta' (one of: alpha, gamma)");
    const arb_tnode *arr;
    ck_assert_int_eq(arb_pos_arr(&P, root, "d", 2, "X-MAX", &arr), ARB_EILLEGAL);
    ck_assert_str_eq(e.where, "players.1.d");
    ck_assert_str_eq(e.rule, "X-MAX");
    ck_assert_int_eq(arb_pos_arr(&P, root, "d", 3, NULL, &arr), ARB_OK);
    ck_assert_uint_eq(arr->n, 3);
    int card = -1;
    ck_assert_int_eq(arb_pos_card_node(&P, arb_tnode_get(root, "card"), "card", "NAR-CARDTYPES-FIVE", &card), ARB_OK);
    ck_assert_str_eq(arb_game_find("naramo")->card(arb_game_find("naramo"), (unsigned)card)->id, "gubby");
    ck_assert_int_eq(arb_pos_card_node(&P, arb_tnode_get(root, "c"), "c", "NAR-CARDTYPES-FIVE", &card), ARB_EILLEGAL);
    ck_assert_str_eq(e.msg, "unknown card 'beta'");
    ck_assert_str_eq(e.rule, "NAR-CARDTYPES-FIVE");
    arb_pos_pop(&P, mk);
    ck_assert_int_eq(arb_pos_fail(&P, NULL, NULL, "at the root"), ARB_EINVAL);
    ck_assert_str_eq(e.where, "(root)");
    /* A shape rule names malformed trees; a game check of "game". */
    arb_pos_init(&P, arb_game_find("brainstorm"), &e, "BRN-ZONE-FIVE");
    ck_assert_int_eq(arb_pos_keys(&P, arb_tnode_get(root, "a"), keys), ARB_EINVAL);
    ck_assert_str_eq(e.msg, "expected a map");
    ck_assert_str_eq(e.rule, "BRN-ZONE-FIVE");
    arb_tree *g = json("{\"game\":\"naramo\"}");
    ck_assert_int_eq(arb_pos_game(&P, arb_tnode_get(arb_tree_root(g), "v")), ARB_EINVAL);
    ck_assert_str_eq(e.where, "game");
    arb_tree_free(g);
    arb_tree_free(t);
}
END_TEST

/* The same mistake gets the same message in every engine: an unknown key
 * at the root of a position. */
/* One rules-version helper for every engine: the number a state keeps, the
 * name it exports, one refusal naming what this build knows. */
START_TEST(t_rules_select)
{
    const arb_game *nar = arb_game_find("naramo"), *cat = arb_game_find("catalyst");
    arb_setup su = { 0 };
    arb_error e = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_game_rules_select(nar, NULL, &e), 2);
    ck_assert_int_eq(arb_game_rules_select(nar, &su, &e), 2);
    su.rules = "naramo-1";
    ck_assert_int_eq(arb_game_rules_select(nar, &su, &e), 1);
    ck_assert_str_eq(arb_game_rules_name(nar, 1), "naramo-1");
    ck_assert_str_eq(arb_game_rules_name(nar, 2), "naramo-2");
    ck_assert_str_eq(arb_game_rules_name(nar, 9), "naramo-1"); /* out of range: the oldest */
    su.rules = "naramo-9";
    ck_assert_int_eq(arb_game_rules_select(nar, &su, &e), ARB_EUNSUPPORTED);
    ck_assert_str_eq(e.msg, "naramo rules version 'naramo-9' is not implemented (known: naramo-1, naramo-2)");
    su.rules = NULL;
    ck_assert_int_eq(arb_game_rules_select(cat, &su, &e), 1); /* one version: number 1 */
    ck_assert_str_eq(arb_game_rules_name(cat, 1), cat->rules_version);
    su.rules = "nope";
    ck_assert_int_eq(arb_game_rules_select(cat, &su, &e), ARB_EUNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(e.msg, cat->rules_version));
}
END_TEST

START_TEST(t_positions_one_style)
{
    for (unsigned gi = 0; gi < arb_game_count(); gi++) {
        const arb_game *g = arb_game_at(gi);
        arb_tree *t = json("{\"bogus\":1}");
        arb_setup su = { .seed = 1, .players = g->min_players };
        arb_error e = ARB_ERROR_INIT;
        arb_match *m = NULL;
        ck_assert_int_ne(arb_match_from_position(&m, g, arb_tnode_get(arb_tree_root(t), "v"), &su, &e), ARB_OK);
        ck_assert_msg(strcmp(e.where, "bogus") == 0 && strcmp(e.msg, "unknown field 'bogus'") == 0,
                      "%s: %s: %s", g->id, e.where, e.msg);
        arb_tree_free(t);
    }
}
END_TEST

/* ---- the contract -------------------------------------------------------- */
static const arb_game *all_games[8];
static unsigned nall;
static int positions_of[8]; /* 1: the engine supports positions (round trip) */

static void collect(void)
{
    nall = 0;
    for (unsigned i = 0; i < arb_game_count() && nall < 6; i++) {
        positions_of[nall] = 1;
        all_games[nall++] = arb_game_at(i);
    }
    positions_of[nall] = 0; /* testgame's positions are a narrower shape than its export */
    all_games[nall++] = &tg_game;
}

/* Public entry points refuse a NULL the contract forbids with ARB_EINVAL
 * naming the argument (error.h, ARB_ASSERT_ARG), in every folder. */
START_TEST(t_argument_checks)
{
    arb_error e = ARB_ERROR_INIT;
    const arb_game *g = arb_game_find("naramo");
    arb_setup su = { .seed = 1, .players = 2 };
    arb_deck d;
    arb_match *m = NULL;
    arb_replay *r = NULL;
    arb_action a;
    arb_an_summary sm;
    arb_seal_key k;
    memset(&a, 0, sizeof a);
    struct { const char *what; int rc; } got[] = {
        { "out", arb_match_new(NULL, g, &su, &e) },
        { "su", arb_match_new(&m, g, NULL, &e) },
        { "out", arb_replay_open(NULL, "x.tcgr", NULL, &e) },
        { "path", arb_replay_open(&r, NULL, NULL, &e) },
        { "w", arb_replay_write_action(NULL, &a, &e) },
        { "out", arb_archive_open(NULL, "x.tcgr", &e) },
        { "src", arb_an_summarize(NULL, &sm, &e) },
        { "out", arb_an_open_file(NULL, "x.tcgr", &e) },
        { "s", arb_conform_run(NULL, &e) },
        { "out", arb_conform_load(NULL, NULL, 0, NULL, &e) },
        { "out", arb_adapter_open(NULL, "true", NULL, &e) },
        { "out", arb_deck_parse(NULL, g, "", 0, "x", &e) },
        { "g", arb_deck_parse(&d, NULL, "", 0, "x", &e) },
        { "path", arb_seal_key_load(&k, NULL, &e) },
    };
    for (unsigned i = 0; i < sizeof got / sizeof got[0]; i++)
        ck_assert_msg(got[i].rc == ARB_EINVAL, "call %u (NULL %s): %d", i, got[i].what, got[i].rc);
    ck_assert_ptr_null(m);
    /* the message names the argument; err may be NULL */
    ck_assert_int_eq(arb_replay_open(&r, NULL, NULL, &e), ARB_EINVAL);
    ck_assert_ptr_nonnull(strstr(e.msg, "invalid argument: path"));
    ck_assert_int_eq(arb_replay_open(NULL, "x", NULL, NULL), ARB_EINVAL);
}
END_TEST

START_TEST(t_contract)
{
    collect();
    ck_assert_uint_ge(nall, 5);
    for (unsigned i = 0; i < nall; i++) {
        arb_error e = ARB_ERROR_INIT;
        ck_assert_msg(arb_game_check(all_games[i], &e) == ARB_OK, "%s", e.msg);
    }
    /* The checker refuses what the header forbids. */
    arb_game bad = tg_game;
    arb_error e = ARB_ERROR_INIT;
    bad.npresets = 0;
    ck_assert_int_eq(arb_game_check(&bad, &e), ARB_EUNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(e.msg, "at least 2"));
    bad = tg_game;
    bad.contract = ARB_GAME_CONTRACT + 1;
    ck_assert_int_eq(arb_game_check(&bad, &e), ARB_EUNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(e.msg, "newer"));
    bad.contract = ARB_GAME_CONTRACT_MIN - 1; /* contract 2: slots without the game */
    ck_assert_int_eq(arb_game_check(&bad, &e), ARB_EUNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(e.msg, "older"));
    bad.contract = ARB_GAME_CONTRACT_MIN; /* contract is a minimum, not an exact match */
    ck_assert_int_eq(arb_game_check(&bad, &e), ARB_OK);
    bad = tg_game;
    bad.apply = NULL;
    ck_assert_int_eq(arb_game_check(&bad, &e), ARB_EUNSUPPORTED);
    bad = *arb_game_find("naramo");
    static const char *const old_reasons[] = { "none", "deck_out" };
    bad.outcome_reasons = old_reasons;
    bad.noutcome_reasons = 2;
    ck_assert_int_eq(arb_game_check(&bad, &e), ARB_EUNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(e.msg, "kebab-case"));
    /* The vocabulary (game.h), one planted engine per rule: the test game
     * with one table changed. */
    static const char *const snake_events[] = { "draw", "play", "first_player", "timeout", "game-over", "shuffle" };
    static const char *const no_game_over[] = { "draw", "play", "first", "timeout", "end", "shuffle" };
    static const char *const reason0[] = { "pending", "score", "timeout", "draw" };
    static const char *const snake_decisions[] = { "mulligan", "main_phase", "over" };
    static const char *const no_over[] = { "mulligan", "main", "none" };
    static const char *const empty_reason[] = { "", "score", "timeout", "draw" };
    static const struct { const char *const *ev, *const *dn, *const *rs; const char *says; } plant[] = {
        { snake_events, NULL, NULL, "event name 'first_player' is not kebab-case" },
        { NULL, snake_decisions, NULL, "decision name 'main_phase' is not kebab-case" },
        { NULL, no_over, NULL, "no decision named 'over'" },
        { NULL, NULL, empty_reason, "an outcome reason is missing" },
        { no_game_over, NULL, NULL, "no event named 'game-over'" },
        { NULL, NULL, reason0, "outcome reason 0 is 'pending'" },
    };
    for (unsigned i = 0; i < sizeof plant / sizeof plant[0]; i++) {
        bad = tg_game;
        if (plant[i].ev) bad.event_names = plant[i].ev;
        if (plant[i].dn) bad.decision_names = plant[i].dn;
        if (plant[i].rs) bad.outcome_reasons = plant[i].rs;
        memset(&e, 0, sizeof e);
        ck_assert_int_eq(arb_game_check(&bad, &e), ARB_EUNSUPPORTED);
        ck_assert_msg(strstr(e.msg, plant[i].says), "plant %u: %s", i, e.msg);
    }
    /* aliases name an old spelling and a current event; the old one finds it */
    static const char *const alias_ok[] = { "over", "game-over" };
    static const char *const alias_bad[] = { "end", "finish" };
    bad = tg_game;
    bad.event_aliases = alias_ok, bad.nevent_aliases = 1;
    ck_assert_int_eq(arb_game_check(&bad, &e), ARB_OK);
    ck_assert_int_eq(arb_game_event_find(&bad, "over"), arb_game_event_find(&bad, "game-over"));
    ck_assert_int_eq(arb_game_event_find(&bad, "finish"), -1);
    bad.event_aliases = alias_bad;
    ck_assert_int_eq(arb_game_check(&bad, &e), ARB_EUNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(e.msg, "event alias 0"));
    /* a contract-2 plug-in predates the vocabulary: only its layout is checked */
    bad = tg_game;
    bad.event_names = no_game_over;
    ck_assert_int_eq(arb_game_check_layout(&bad, &e), ARB_OK);
    /* catalyst's replay table predates reason 0 "none" (FORMAT.md §B.7) */
    unsigned nr = 0;
    const arb_game *cat = arb_game_find("catalyst");
    const char *const *rt = arb_game_replay_reasons(cat, &nr);
    ck_assert_uint_eq(nr, cat->noutcome_reasons - 1);
    ck_assert_str_eq(rt[0], "last-player");
    ck_assert_str_eq(cat->outcome_reasons[0], "none");
    ck_assert_ptr_eq(arb_game_replay_reasons(arb_game_find("naramo"), &nr), arb_game_find("naramo")->outcome_reasons);
    ck_assert(arb_name_kebab("shift-begin") && arb_name_kebab("b2") && !arb_name_kebab("") &&
              !arb_name_kebab("a--b") && !arb_name_kebab("-a") && !arb_name_kebab("a-") && !arb_name_kebab("Draw"));
    /* Old event spellings still name the event (case files, adapters). */
    const arb_game *nar = arb_game_find("naramo");
    ck_assert_int_ge(arb_game_event_find(nar, "shift-begin"), 0);
    ck_assert_int_eq(arb_game_event_find(nar, "shift_begin"), arb_game_event_find(nar, "shift-begin"));
    ck_assert_int_eq(arb_game_event_find(nar, "shift begin"), -1);
    /* The optional members' fallbacks. */
    bad = tg_game;
    bad.event_text = NULL;
    bad.action_text = NULL;
    arb_event ev = { 1, 0, 1, 7, 8, 9 };
    char buf[128];
    arb_game_event_text(&bad, &ev, 1, buf, sizeof buf);
    ck_assert_msg(strstr(buf, "P1") && !strstr(buf, "7"), "hidden args stay hidden: %s", buf);
    arb_game_event_text(&bad, &ev, ARB_VIEW_ALL, buf, sizeof buf);
    ck_assert_ptr_nonnull(strstr(buf, "7 8 9"));
    arb_action a = { 0, 0, 1, 0, 0, { 0 } };
    arb_game_action_text(&bad, NULL, &a, buf, sizeof buf);
    ck_assert_str_eq(buf, "0 play");
}
END_TEST

/* One match of g from presets, every duty checked at every step. */
static void generic_match(const arb_game *g, int positions, uint64_t seed, int players, arb_agent_kind kind,
                          uint64_t *final_hash, const char *record_to)
{
    arb_setup su;
    memset(&su, 0, sizeof su);
    su.seed = seed;
    su.players = players;
    arb_deck decks[ARB_MAX_SEATS];
    for (int i = 0; i < players; i++) {
        decks[i] = *g->preset(g, (unsigned)i % g->npresets);
        su.decks[i] = &decks[i];
    }
    arb_error e = ARB_ERROR_INIT;
    arb_match *m;
    ck_assert_msg(arb_match_new(&m, g, &su, &e) == ARB_OK, "%s: setup: %s", g->id, e.msg);
    ck_assert_uint_eq(arb_match_events_dropped(m), 0);
    arb_replay_writer *w = NULL;
    if (record_to) {
        arb_replay_meta meta;
        memset(&meta, 0, sizeof meta);
        meta.game = g;
        meta.setup = &su;
        meta.level = -1;
        /* Format 2 names cards by pool index and resolves them through the
         * registry; an engine outside it records format 1 (card IDs). */
        if (arb_game_find(g->id) != g) meta.version = 1;
        ck_assert_int_eq(arb_replay_writer_open(&w, record_to, &meta, &e), ARB_OK);
        ck_assert_int_eq(arb_replay_record_start(w, m, &e), ARB_OK);
    }
    static _Thread_local arb_agent ag[ARB_MAX_SEATS];
    for (int i = 0; i < players; i++) arb_agent_init(&ag[i], kind, seed, i, 0);
    static _Thread_local arb_action legal[ARB_AGENT_LEGAL_MAX];
    unsigned char *before = malloc(g->state_size);
    arb_rng fr;
    arb_rng_seed(&fr, seed ^ 0x5eed);
    char text[512];
    int steps = 0;
    while (arb_match_decision(m).seat != ARB_SEAT_NONE && steps < 3000) {
        arb_decision d = arb_match_decision(m);
        size_t n = arb_match_legal(m, legal, ARB_AGENT_LEGAL_MAX);
        ck_assert_msg(n > 0, "%s: seat %d owes a decision but legal() is empty", g->id, d.seat);
        /* A forged action: rejected ones leave the state byte-for-byte. */
        arb_action f = legal[arb_rng_below(&fr, (uint32_t)(n < ARB_AGENT_LEGAL_MAX ? n : ARB_AGENT_LEGAL_MAX))];
        f.args[0] += (int32_t)arb_rng_below(&fr, 5) - 2;
        f.seat = (int8_t)((int)arb_rng_below(&fr, (uint32_t)players + 1) - (arb_rng_below(&fr, 4) == 0));
        arb_match *probe;
        ck_assert_int_eq(arb_match_clone(&probe, m), ARB_OK);
        memcpy(before, arb_match_state(probe), g->state_size);
        arb_error fe = ARB_ERROR_INIT;
        if (arb_match_apply(probe, &f, &fe) != ARB_OK) {
            ck_assert_msg(memcmp(before, arb_match_state(probe), g->state_size) == 0,
                          "%s: a rejected action (%s) changed the state", g->id, fe.msg);
            unsigned ne;
            arb_match_events(probe, &ne);
            ck_assert_uint_eq(ne, 0);
        }
        arb_match_free(probe);
        arb_action a;
        ck_assert_int_eq(arb_agent_choose(&ag[d.seat < 0 ? 0 : d.seat], m, &a), ARB_OK);
        ck_assert_int_gt(arb_match_action_text(m, &a, text, sizeof text), 0);
        if (w) ck_assert_msg(arb_replay_record_step(w, m, &a, &e) == ARB_OK, "%s: %s", g->id, e.msg);
        else ck_assert_msg(arb_match_apply(m, &a, &e) == ARB_OK, "%s: a legal action refused: %s", g->id, e.msg);
        ck_assert_msg(arb_match_events_dropped(m) == 0, "%s: %u events dropped", g->id, arb_match_events_dropped(m));
        unsigned ne;
        const arb_event *ev = arb_match_events(m, &ne);
        for (unsigned i = 0; i < ne; i++)
            for (int v = ARB_VIEW_ALL; v < players; v++)
                ck_assert_int_gt(arb_match_event_text(m, &ev[i], v, text, sizeof text), 0);
        ck_assert_ptr_nonnull(arb_match_phase(m));
        /* A memcpy clone is the same match. */
        ck_assert_int_eq(arb_match_clone(&probe, m), ARB_OK);
        ck_assert_uint_eq(arb_match_hash(probe), arb_match_hash(m));
        arb_match_free(probe);
        if (positions && steps % 7 == 0) { /* the position round trip */
            arb_tree *t = arb_match_export(m, ARB_VIEW_ALL);
            arb_match *pm;
            arb_error pe = ARB_ERROR_INIT;
            ck_assert_msg(arb_match_from_position(&pm, g, arb_tree_root(t), &su, &pe) == ARB_OK, "%s: round trip: %s: %s",
                          g->id, pe.where, pe.msg);
            ck_assert_uint_eq(arb_match_hash(pm), arb_match_hash(m));
            ck_assert_int_eq(arb_match_decision(pm).seat, arb_match_decision(m).seat);
            arb_match_free(pm);
            arb_tree_free(t);
        }
        steps++;
    }
    *final_hash = arb_match_hash(m);
    if (w) ck_assert_int_eq(arb_replay_writer_close(w, &e), ARB_OK);
    free(before);
    arb_match_free(m);
}

static void generic_suite(const arb_game *g, int positions)
{
    arb_error e = ARB_ERROR_INIT;
    ck_assert_msg(arb_game_check(g, &e) == ARB_OK, "%s", e.msg);
    for (int players = g->min_players; players <= g->max_players; players++)
        for (uint64_t seed = 1; seed <= 2; seed++) {
            uint64_t h1, h2;
            generic_match(g, positions, seed * 7919 + (uint64_t)players, players, ARB_AGENT_RANDOM, &h1, NULL);
            generic_match(g, 0, seed * 7919 + (uint64_t)players, players, ARB_AGENT_RANDOM, &h2, NULL);
            ck_assert_msg(h1 == h2, "%s: the same seed played twice ends differently", g->id);
        }
    /* Recorded and verified through the public replay API (the game need
     * not be registered: opts.game names it). */
    char path[128];
    snprintf(path, sizeof path, "/tmp/arb-toolkit-%s-%d.tcgr", g->id, (int)getpid());
    uint64_t h;
    generic_match(g, 0, 4242, g->min_players, ARB_AGENT_GREEDY, &h, path);
    arb_verify_opts vo = ARB_VERIFY_OPTS_INIT;
    vo.game = g;
    arb_verify_result vr;
    ck_assert_msg(arb_replay_verify_file(path, &vo, &vr, &e) == ARB_OK, "%s: verify: %s", g->id, e.msg);
    ck_assert_uint_eq(vr.final_hash, h);
    unlink(path);
}

START_TEST(t_generic_every_engine)
{
    collect();
    ck_assert_int_ge(_i, 0);
    if ((unsigned)_i < nall) generic_suite(all_games[_i], positions_of[_i]);
}
END_TEST

/* ---- threads (ThreadSanitizer) ------------------------------------------- */
typedef struct { const arb_game *g; int positions; uint64_t seed, hash; } job;

static void *play_thread(void *p)
{
    job *j = p;
    for (unsigned i = 0; i < j->g->npresets; i++) ck_assert_ptr_nonnull(j->g->preset(j->g, i));
    for (unsigned i = 0; i < j->g->ncards; i++) ck_assert_ptr_nonnull(j->g->card(j->g, i));
    generic_match(j->g, j->positions, j->seed, j->g->min_players, ARB_AGENT_GREEDY, &j->hash, NULL);
    return NULL;
}

START_TEST(t_threads)
{
    collect();
    job jobs[16];
    pthread_t th[16];
    unsigned n = 0;
    for (unsigned k = 0; k < 2; k++)
        for (unsigned i = 0; i < nall && n < 16; i++, n++) {
            jobs[n] = (job){ all_games[i], positions_of[i], 99 + i, 0 };
            ck_assert_int_eq(pthread_create(&th[n], NULL, play_thread, &jobs[n]), 0);
        }
    for (unsigned i = 0; i < n; i++) ck_assert_int_eq(pthread_join(th[i], NULL), 0);
    for (unsigned i = 0; i + nall < n; i++) ck_assert_uint_eq(jobs[i].hash, jobs[i + nall].hash);
}
END_TEST

/* The greedy helper: the first best without an rng, a uniform pick among
 * the best with one (reservoir sampling), never a worse action. */
static int score_arg0(const void *st, const arb_action *a)
{
    (void)st;
    return a->args[0];
}

START_TEST(t_greedy_pick)
{
    arb_action l[5];
    static const int32_t sc[5] = { 3, 7, 1, 7, 7 };
    for (int i = 0; i < 5; i++) l[i] = arb_legal_action(0, 0, 1, sc[i], 0, 0, 0);
    ck_assert_uint_eq(arb_greedy_pick(NULL, l, 5, score_arg0, NULL), 1);
    ck_assert_uint_eq(arb_greedy_pick(NULL, l, 0, score_arg0, NULL), 0);
    arb_rng r;
    arb_rng_seed(&r, 3);
    unsigned count[5] = { 0 };
    for (int k = 0; k < 3000; k++) count[arb_greedy_pick(NULL, l, 5, score_arg0, &r)]++;
    ck_assert_uint_eq(count[0] + count[2], 0);
    for (int i = 1; i < 5; i += i == 1 ? 2 : 1)
        ck_assert_msg(count[i] > 850 && count[i] < 1150, "index %d picked %u of 3000", i, count[i]);
}
END_TEST

/* One refusal precedence in every built-in game (arb_action_precheck,
 * conformance/ADAPTER.md): each action below breaks the named check and
 * every later one, so the first check decides, with one message. */
START_TEST(t_precheck_order)
{
    static const char *const ids[] = { "naramo", "catalyst", "operator", "brainstorm" };
    const arb_game *g = arb_game_find(ids[_i]);
    arb_setup su;
    memset(&su, 0, sizeof su);
    su.seed = 11;
    su.players = 2;
    su.decks[0] = g->preset(g, 0);
    su.decks[1] = g->preset(g, 1);
    arb_match *m;
    arb_error e = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_match_new(&m, g, &su, &e), ARB_OK);
    int owing = arb_match_decision(m).seat, other = 1 - owing;
    unsigned seatverb = 0; /* verb 0 is a seat's verb in every game */
    ck_assert_int_lt(g->verbs[seatverb].max_args, ARB_ARGS_MAX);
    /* 2 beats 3, 4, 5: a verb past the table, too many arguments, a seat outside */
    arb_action a = { 0, 7, (uint8_t)g->nverbs, ARB_ARGS_MAX, 0, { 0 } };
    ck_assert_int_eq(arb_match_apply(m, &a, &e), ARB_EINVAL);
    ck_assert_msg(strstr(e.msg, "unknown verb"), "%s: %s", g->id, e.msg);
    /* 3 beats 4: too many arguments from the arbiter */
    a = (arb_action){ 0, ARB_SEAT_ARBITER, (uint8_t)seatverb, ARB_ARGS_MAX, 0, { 0 } };
    ck_assert_int_eq(arb_match_apply(m, &a, &e), ARB_EINVAL);
    ck_assert_msg(strstr(e.msg, "arguments, not 6"), "%s: %s", g->id, e.msg);
    /* 4 beats 5: the arbiter acting with a seat's verb is refused by who it is */
    a.nargs = g->verbs[seatverb].min_args;
    ck_assert_int_eq(arb_match_apply(m, &a, &e), ARB_EILLEGAL);
    ck_assert_msg(strstr(e.msg, "no clock") || strstr(e.msg, "the arbiter records only"), "%s: %s", g->id, e.msg);
    a.seat = 7;
    ck_assert_int_eq(arb_match_apply(m, &a, &e), ARB_EINVAL);
    ck_assert_str_eq(e.msg, "seat 7 is not in this match");
    /* 5: the other seat */
    a.seat = (int8_t)other;
    ck_assert_int_eq(arb_match_apply(m, &a, &e), ARB_EILLEGAL);
    char want[64];
    snprintf(want, sizeof want, "seat %d owes the decision, not seat %d", owing, other);
    ck_assert_str_eq(e.msg, want);
    arb_match_free(m);
}
END_TEST

/* A tiny event buffer overflows: the count says so, nothing is written past. */
START_TEST(t_events_dropped)
{
    const arb_game *g = arb_game_find("naramo");
    unsigned char *st = malloc(g->state_size);
    arb_event buf[2];
    arb_events ev = { buf, 2, 0, 0 };
    arb_setup su;
    memset(&su, 0, sizeof su);
    su.seed = 5;
    su.players = 2;
    su.decks[0] = g->preset(g, 0);
    su.decks[1] = g->preset(g, 1);
    arb_error e = ARB_ERROR_INIT;
    ck_assert_int_eq(g->setup(g, st, &su, &ev, &e), ARB_OK);
    ck_assert_uint_eq(ev.n, 2);
    ck_assert_uint_gt(ev.dropped, 0);
    free(st);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("toolkit");
    TCase *t = tcase_create("core");
    tcase_add_test(t, t_names);
    tcase_add_test(t, t_reject_and_issues);
    tcase_add_test(t, t_posread);
    tcase_add_test(t, t_positions_one_style);
    tcase_add_test(t, t_rules_select);
    tcase_add_test(t, t_greedy_pick);
    tcase_add_loop_test(t, t_precheck_order, 0, 4);
    tcase_add_test(t, t_contract);
    tcase_add_test(t, t_argument_checks);
    tcase_add_test(t, t_events_dropped);
    suite_add_tcase(s, t);
    TCase *gen = tcase_create("generic");
    tcase_set_timeout(gen, 600);
    tcase_add_loop_test(gen, t_generic_every_engine, 0, 6);
    tcase_add_test(gen, t_threads);
    suite_add_tcase(s, gen);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
