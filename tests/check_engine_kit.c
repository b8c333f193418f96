/* check_engine_kit.c — the engine test kit (tests/engine_kit.h,
 * engine_kit_play.h) catches what it promises to: run against the test
 * game (tests/testgame.h) and against copies of it broken on purpose (a
 * refusal that changes the state, changes the hash, emits an event, or
 * refuses what legal() lists), each check must fail with its own reason and
 * name the action, the engine's rule, message and err.where; the self-play
 * harness passes the test game and fails each broken copy (accepting an
 * unlisted action, a refusal that changes bytes, a greedy agent that peeks)
 * naming the game, seed, step and the command that reruns it; and
 * ARB_TEST_GAMES is read as documented. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/arbiter.h"
#include "engine_kit_play.h"
#include "testgame.h"

static tg_state S;

static arb_setup two_players(void)
{
    arb_setup su;
    memset(&su, 0, sizeof su);
    su.seed = 11;
    su.players = 2;
    su.decks[0] = tg_preset(&tg_game, 0);
    su.decks[1] = tg_preset(&tg_game, 1);
    return su;
}

static void start(void)
{
    arb_setup su = two_players();
    arb_error err = ARB_ERROR_INIT;
    ck_assert_int_eq(tg_game.setup(&tg_game, &S, &su, NULL, &err), ARB_OK);
    for (int seat = 0; seat < 2; seat++) { /* past the mulligans */
        arb_action keep = { .seat = (int8_t)seat, .verb = TG_V_KEEP };
        ek_ok(&tg_game, &S, &keep, NULL);
    }
}

/* The uid of the card at hand index i of the seat to act. */
static int in_hand(const tg_state *s, int i) { return s->p[s->active].hand[i]; }

static arb_action play(int seat, int index)
{
    arb_action a;
    memset(&a, 0, sizeof a);
    a.seat = (int8_t)seat;
    a.verb = TG_V_PLAY;
    a.nargs = 1;
    a.args[0] = index;
    return a;
}

/* The broken copies: each wraps tg_apply and misbehaves on a refusal. */
enum { BREAK_BYTES, BREAK_HASH, BREAK_EVENT, BREAK_LEGAL, BREAK_ACCEPT };
static int breakage;
static uint64_t hash_salt;

static int broken_apply(const arb_game *g, void *st, const arb_action *a, arb_events *ev, arb_error *err)
{
    (void)g;
    tg_state *s = st;
    if (breakage == BREAK_LEGAL && a->verb == TG_V_PLAY && a->args[0] == in_hand(s, 0)) {
        arb_error_where(err, "hand.0");
        return arb_error_set(err, ARB_EILLEGAL, "TG-BROKEN", "refuses what legal() lists");
    }
    if (breakage == BREAK_ACCEPT && a->verb == TG_V_PLAY && a->seat == s->active && a->nargs == 1 && a->args[0] == 9 &&
        !s->over && s->kept == s->players) {
        arb_action pass = *a; /* a uid no 8-card deck has: taken as "end" */
        pass.verb = TG_V_END;
        pass.nargs = 0;
        return tg_game.apply(&tg_game, st, &pass, ev, err);
    }
    int rc = tg_game.apply(&tg_game, st, a, ev, err);
    if (rc == ARB_OK) return rc;
    if (breakage == BREAK_BYTES) s->clock++;
    if (breakage == BREAK_HASH) hash_salt++;
    if (breakage == BREAK_EVENT) arb_events_push(ev, 1, a->seat, 0, 0, 0, 0);
    return rc;
}

static uint64_t broken_hash(const arb_game *g, const void *st)
{
    (void)g;
    return tg_game.hash(&tg_game, st) ^ hash_salt;
}

static arb_game broken(int how)
{
    arb_game g = tg_game;
    breakage = how;
    g.apply = broken_apply;
    g.hash = broken_hash;
    return g;
}

static int has(const char *why, const char *part) { return why != NULL && strstr(why, part) != NULL; }

START_TEST(t_reject_passes_a_clean_refusal)
{
    start();
    arb_action a = play(S.active, 99);
    ck_assert_ptr_null(ek__reject(&tg_game, &S, &a, "TG-HAND", NULL, NULL));
    ck_assert_ptr_null(ek__reject(&tg_game, &S, &a, "TG-HAND", "card 99 is not in hand", NULL));
    ck_assert_ptr_null(ek__reject(&tg_game, &S, &a, NULL, NULL, NULL));
    ek_reject(&tg_game, &S, &a, "TG-HAND", NULL); /* the macro form */
}
END_TEST

START_TEST(t_reject_names_what_is_wrong)
{
    start();
    arb_action a = play(S.active, 99);
    const char *why = ek__reject(&tg_game, &S, &a, "TG-TURN", NULL, NULL);
    ck_assert_msg(has(why, "wrong rule (expected TG-TURN)") && has(why, "rule 'TG-HAND'"), "%s", why);
    ck_assert_msg(has(why, "play 99") && has(why, "card 99 is not in hand"), "%s", why);
    why = ek__reject(&tg_game, &S, &a, "TG-HAND", "another sentence", NULL);
    ck_assert_msg(has(why, "wrong message (expected 'another sentence')"), "%s", why);

    arb_action ok = play(S.active, in_hand(&S, 0));
    tg_state before = S;
    why = ek__reject(&tg_game, &S, &ok, "TG-HAND", NULL, NULL);
    ck_assert_msg(has(why, "expected to be refused with TG-HAND, was accepted"), "%s", why);
    S = before;

    arb_game g = broken(BREAK_BYTES);
    why = ek__reject(&g, &S, &a, "TG-HAND", NULL, NULL);
    ck_assert_msg(has(why, "changed the state's bytes"), "%s", why);
    S = before;
    g = broken(BREAK_HASH);
    why = ek__reject(&g, &S, &a, "TG-HAND", NULL, NULL);
    ck_assert_msg(has(why, "changed the state's hash"), "%s", why);
    g = broken(BREAK_EVENT);
    why = ek__reject(&g, &S, &a, "TG-HAND", NULL, NULL);
    ck_assert_msg(has(why, "emitted an event"), "%s", why);
    g = broken(BREAK_LEGAL);
    why = ek__reject(&g, &S, &ok, "TG-BROKEN", NULL, NULL);
    ck_assert_msg(has(why, "legal() lists it") && has(why, "where 'hand.0'"), "%s", why);
}
END_TEST

START_TEST(t_ok_and_where)
{
    start();
    arb_action ok = play(S.active, in_hand(&S, 0));
    arb_event buf[64];
    arb_events ev = { buf, 64, 5, 0 };
    ck_assert_ptr_null(ek__ok(&tg_game, &S, &ok, &ev));
    ck_assert_uint_eq(ev.n, 1); /* reset, then the play's own event */
    ck_assert_int_eq(buf[0].type, 1);

    arb_game g = broken(BREAK_LEGAL);
    arb_action first = play(S.active, in_hand(&S, 0));
    const char *why = ek__ok(&g, &S, &first, NULL);
    ck_assert_msg(has(why, "expected to be accepted, was refused") && has(why, "rule 'TG-BROKEN'") &&
                      has(why, "where 'hand.0'"),
                  "%s", why);
    arb_action late = first;
    late.elapsed_ms = 5;
    /* a timed action legal() lists may be refused for the clock: not a kit failure */
    why = ek__reject(&g, &S, &late, "TG-BROKEN", NULL, NULL);
    ck_assert_ptr_null(why);
}
END_TEST

START_TEST(t_match_forms)
{
    arb_setup su = two_players();
    arb_match *m = NULL;
    arb_error err = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_match_new(&m, &tg_game, &su, &err), ARB_OK);
    const tg_state *s = arb_match_state(m);
    for (int seat = 0; seat < 2; seat++) {
        arb_action keep = { .seat = (int8_t)seat, .verb = TG_V_KEEP };
        ek_match_ok(m, &keep);
    }
    arb_action bad = play(s->active, 99), ok = play(s->active, in_hand(s, 0));
    ek_match_reject(m, &bad, "TG-HAND", NULL);
    ek_match_ok(m, &ok);
    unsigned n = 0;
    arb_match_events(m, &n);
    ck_assert_uint_eq(n, 1);
    ck_assert_ptr_nonnull(ek__match_ok(m, &bad));
    arb_match_free(m);
}
END_TEST

/* ---- the self-play harness ---------------------------------------- */

/* Any seat or the arbiter, any verb (and one beyond) at its arity, uids
 * from -1 to two past an 8-card deck. */
static void tg_sample(ek_play *p, const void *st, arb_rng *r, arb_action *a)
{
    (void)st;
    a->seat = (int8_t)((int)arb_rng_below(r, (uint32_t)p->plan.players + 1) - 1);
    a->verb = (uint8_t)arb_rng_below(r, 5);
    a->nargs = a->verb < 4 ? tg_verbs[a->verb].min_args : (uint8_t)arb_rng_below(r, 2);
    a->args[0] = (int32_t)arb_rng_below(r, 11) - 1;
}

/* What seat cannot see: the other seats' hands and decks (their uids
 * shuffled together), its own deck order. */
static void tg_scramble(ek_play *p, void *st, int seat, arb_rng *r)
{
    (void)p;
    tg_state *s = st;
    for (int q = 0; q < s->players; q++) {
        tg_player *pl = &s->p[q];
        if (q == seat) {
            arb_rng_shuffle(r, pl->deck, pl->ndeck, 1);
            continue;
        }
        ek_deal_hidden(r, pl->hand, pl->nhand, pl->deck, pl->ndeck);
    }
}

/* A greedy agent that peeks at the next seat's hand. */
static size_t peeking_greedy(const arb_game *g, const void *st, const arb_action *legal, size_t n, arb_rng *rng)
{
    const tg_state *s = st;
    int next = (s->active + 1) % s->players;
    const tg_player *o = &s->p[next];
    if (o->nhand && o->pool[o->hand[0]] > 1) return n - 1;
    return tg_game.greedy(g, st, legal, n, rng);
}

static ek_play_spec tg_spec(const arb_game *g)
{
    ek_play_spec sp = {
        .game = g,
        .tcase = "rules",
        .program = "check_engine_kit",
        .seed_base = 7,
        .seed_step = 3,
        .samples = 3,
        .sample = tg_sample,
        .rule_prefix = "TG-",
        .einval_unnamed = 1,
        .timed_unlisted_ok = 1,
        .seated_only = 1,
        .legal_every = 1,
        .no_positions = 1,
        .view_every = 5,
        .blind_every = 1,
        .scramble = tg_scramble,
        .max_turns = TG_TURNS,
    };
    return sp;
}

START_TEST(t_selfplay_passes)
{
    setenv("ARB_TEST_GAMES", "40", 1);
    ek_play_spec sp = tg_spec(&tg_game);
    ek_selfplay(&sp);
    unsetenv("ARB_TEST_GAMES");
}
END_TEST

/* Each fails the test (checked by the messages below). */
static arb_game broken_game;
START_TEST(t_selfplay_broken)
{
    setenv("ARB_TEST_GAMES", "40", 1);
    broken_game = broken(_i == 0 ? BREAK_ACCEPT : BREAK_BYTES);
    if (_i == 2) {
        broken_game = tg_game;
        broken_game.greedy = peeking_greedy;
    }
    ek_play_spec sp = tg_spec(&broken_game);
    ek_selfplay(&sp);
}
END_TEST

START_TEST(t_games_count)
{
    unsetenv("ARB_TEST_GAMES");
    ck_assert_int_eq(ek_games(), EK_GAMES_DEFAULT);
    setenv("ARB_TEST_GAMES", "3000", 1);
    ck_assert_int_eq(ek_games(), 3000);
    ck_assert_int_eq(ek_share(8, 22), 1090);
    setenv("ARB_TEST_GAMES", "1", 1);
    ck_assert_int_eq(ek_share(2, 22), 1); /* never zero games */
    unsetenv("ARB_TEST_GAMES");
}
END_TEST

START_TEST(t_games_count_refuses_garbage)
{
    setenv("ARB_TEST_GAMES", "12x", 1);
    ek_games(); /* fails the test: checked by the exit status below */
}
END_TEST

int main(void)
{
    Suite *s = suite_create("engine_kit");
    TCase *tc = tcase_create("rules");
    tcase_add_test(tc, t_reject_passes_a_clean_refusal);
    tcase_add_test(tc, t_reject_names_what_is_wrong);
    tcase_add_test(tc, t_ok_and_where);
    tcase_add_test(tc, t_match_forms);
    tcase_add_test(tc, t_games_count);
    tcase_add_test(tc, t_selfplay_passes);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);

    /* A count that is not a number must fail, not play the default. */
    Suite *g = suite_create("engine_kit_garbage");
    TCase *tg = tcase_create("garbage");
    tcase_add_test(tg, t_games_count_refuses_garbage);
    suite_add_tcase(g, tg);
    SRunner *gr = srunner_create(g);
    srunner_run_all(gr, CK_SILENT);
    int garbage_failed = srunner_ntests_failed(gr);
    srunner_free(gr);
    unsetenv("ARB_TEST_GAMES");

    /* The harness fails each broken copy of the test game, saying why and
     * where, with the command that reruns the game. */
    static const char *const want[3][2] = {
        { "an action legal() does not list was accepted", "play " },
        { "changed the state's bytes", ", action '" },
        { "the greedy choice depends on hidden information", "greedy agent" },
    };
    Suite *b = suite_create("engine_kit_broken");
    TCase *tb = tcase_create("broken");
    tcase_add_loop_test(tb, t_selfplay_broken, 0, 3);
    suite_add_tcase(b, tb);
    SRunner *br = srunner_create(b);
    srunner_run_all(br, CK_SILENT);
    unsetenv("ARB_TEST_GAMES");
    int nb = srunner_ntests_failed(br);
    TestResult **res = srunner_failures(br);
    for (int i = 0; i < nb && i < 3; i++) {
        const char *m = tr_msg(res[i]);
        int k = i; /* failures come in loop order */
        if (!strstr(m, want[k][0]) || !strstr(m, want[k][1]) || !strstr(m, "testgame property game ") ||
            !strstr(m, "(seed ") || !strstr(m, "), step ") || !strstr(m, "rerun it alone: ARB_TEST_GAME=") ||
            !strstr(m, "CK_RUN_CASE=rules build/tests/check_engine_kit")) {
            fprintf(stderr, "engine_kit: broken copy %d reported as: %s\n", k, m);
            failed++;
        }
    }
    free(res);
    srunner_free(br);
    if (nb != 3) {
        fprintf(stderr, "engine_kit: %d of 3 broken copies failed the self-play harness\n", nb);
        failed++;
    }
    if (garbage_failed != 1) {
        fprintf(stderr, "engine_kit: ARB_TEST_GAMES=12x was accepted\n");
        failed++;
    }
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
