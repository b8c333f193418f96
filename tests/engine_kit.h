/* engine_kit.h — what every engine's unit tests (tests/check_<game>.c)
 * assert about one action, written once: ek_ok() applies an action that
 * must be accepted; ek_reject() applies one that must be refused with the
 * given rule ID (and message, when one is given), leaving the state byte for
 * byte and hash for hash unchanged, emitting no event, and (when it takes no
 * elapsed time) not listed by legal(). A failure names the action as the text syntax spells it, the
 * rule and message the engine gave and err.where, at the caller's line.
 * ek_match_ok()/ek_match_reject() are the same for a test that drives an
 * arb_match. ek_games() is the one count of self-play games every engine's
 * property test plays: ARB_TEST_GAMES (200 when unset; the Makefile's
 * check tier runs 200, check-all 3000); the self-play harness that plays
 * them is engine_kit_play.h. Header-only, static inline, so each test
 * program compiles it with its own Check. */
#ifndef ARBITER_ENGINE_KIT_H
#define ARBITER_ENGINE_KIT_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/game.h"
#include "arbiter/match.h"

#define EK_GAMES_DEFAULT 200
#define EK_GAMES_MAX 1000000
#define EK_EVENTS 4096
#define EK_LEGAL 4096

/* The failure text of the last ek__ call (NULL: it passed). */
static char ek__why[4096];

/* ARB_TEST_GAMES, bounded to 1..EK_GAMES_MAX; a value that is not a number
 * fails the test rather than silently playing the default. */
static inline int ek_games(void)
{
    const char *e = getenv("ARB_TEST_GAMES");
    if (!e || !*e) return EK_GAMES_DEFAULT;
    char *end;
    long v = strtol(e, &end, 10);
    ck_assert_msg(*end == '\0' && v >= 1 && v <= EK_GAMES_MAX, "ARB_TEST_GAMES=%s is not a count 1..%d", e,
                  EK_GAMES_MAX);
    return (int)v;
}

/* n scaled by the count, for a test that plays a share of it (at least 1). */
static inline int ek_share(int num, int den)
{
    long long n = (long long)ek_games() * num / den;
    return n < 1 ? 1 : (int)n;
}

static inline const char *ek__action(const arb_game *g, const arb_action *a)
{
    static char buf[256];
    arb_action_format(g, a, buf, sizeof buf);
    return buf;
}

/* Does legal() list a (seat, verb and arguments; elapsed time aside)? */
static inline int ek_legal(const arb_game *g, const void *st, const arb_action *a)
{
    static arb_action buf[EK_LEGAL];
    size_t n = g->legal(g, st, buf, EK_LEGAL);
    for (size_t i = 0; i < n && i < EK_LEGAL; i++)
        if (buf[i].seat == a->seat && buf[i].verb == a->verb && buf[i].nargs == a->nargs &&
            memcmp(buf[i].args, a->args, sizeof a->args) == 0)
            return 1;
    return 0;
}

static inline const char *ek__fail(const arb_game *g, const arb_action *a, const arb_error *err, const char *what)
{
    snprintf(ek__why, sizeof ek__why, "action '%s': %s (engine: rule '%s', message '%s', where '%s')", ek__action(g, a),
             what, err->rule, err->msg, err->where);
    return ek__why;
}

/* ev: the test's own event buffer (reset here; NULL: none). */
static inline const char *ek__ok(const arb_game *g, void *st, const arb_action *a, arb_events *ev)
{
    arb_error err = ARB_ERROR_INIT;
    if (ev) ev->n = ev->dropped = 0;
    int rc = g->apply(g, st, a, ev, &err);
    if (rc != ARB_OK) return ek__fail(g, a, &err, "expected to be accepted, was refused");
    if (ev && ev->dropped) return ek__fail(g, a, &err, "accepted, but events were dropped");
    return NULL;
}

static inline const char *ek__reject(const arb_game *g, void *st, const arb_action *a, const char *rule,
                                     const char *msg, arb_error *out)
{
    static arb_event evbuf[EK_EVENTS];
    arb_events ev = { evbuf, EK_EVENTS, 0, 0 };
    arb_error err = ARB_ERROR_INIT;
    const char *why = NULL;
    /* legal() lists what may be done now; the same action after elapsed
     * time may be refused for the clock, so only a timeless one counts */
    int listed = a->elapsed_ms == 0 && ek_legal(g, st, a);
    void *before = malloc(g->state_size);
    ck_assert_ptr_nonnull(before);
    memcpy(before, st, g->state_size);
    uint64_t h = g->hash(g, st);
    int rc = g->apply(g, st, a, &ev, &err);
    if (rc == ARB_OK) {
        char what[160];
        snprintf(what, sizeof what, "expected to be refused with %s, was accepted", rule);
        why = ek__fail(g, a, &err, what);
    } else if (rule && strcmp(err.rule, rule) != 0) {
        char what[160];
        snprintf(what, sizeof what, "refused with the wrong rule (expected %s)", rule);
        why = ek__fail(g, a, &err, what);
    } else if (msg && strcmp(err.msg, msg) != 0) {
        char what[ARB_MSG_MAX + 64];
        snprintf(what, sizeof what, "refused with the wrong message (expected '%s')", msg);
        why = ek__fail(g, a, &err, what);
    } else if (memcmp(before, st, g->state_size) != 0) {
        why = ek__fail(g, a, &err, "the refusal changed the state's bytes");
    } else if (g->hash(g, st) != h) {
        why = ek__fail(g, a, &err, "the refusal changed the state's hash");
    } else if (ev.n || ev.dropped) {
        why = ek__fail(g, a, &err, "the refusal emitted an event");
    } else if (listed) {
        why = ek__fail(g, a, &err, "refused, but legal() lists it");
    }
    free(before);
    if (out) *out = err;
    return why;
}

/* Apply a, which must be accepted; ev may be NULL. */
#define ek_ok(g, st, a, ev)                                                                                            \
    do {                                                                                                               \
        const char *ek_w_ = ek__ok((g), (st), (a), (ev));                                                              \
        ck_assert_msg(ek_w_ == NULL, "%s", ek_w_);                                                                     \
    } while (0)

/* Apply a, which must be refused with rule (NULL: any) and message (NULL:
 * any), changing nothing and emitting nothing. */
#define ek_reject(g, st, a, rule, msg)                                                                                 \
    do {                                                                                                               \
        const char *ek_w_ = ek__reject((g), (st), (a), (rule), (msg), NULL);                                           \
        ck_assert_msg(ek_w_ == NULL, "%s", ek_w_);                                                                     \
    } while (0)

/* The same through an arb_match: accepted by arb_match_apply, so the match's
 * event list is the action's; refused by the engine itself, so an event
 * emitted on the way to a refusal is seen (arb_match_apply hides it). */
static inline const char *ek__match_ok(arb_match *m, const arb_action *a)
{
    arb_error err = ARB_ERROR_INIT;
    if (arb_match_apply(m, a, &err) != ARB_OK)
        return ek__fail(arb_match_game(m), a, &err, "expected to be accepted, was refused");
    if (arb_match_events_dropped(m)) return ek__fail(arb_match_game(m), a, &err, "accepted, but events were dropped");
    return NULL;
}

#define ek_match_ok(m, a)                                                                                              \
    do {                                                                                                               \
        const char *ek_w_ = ek__match_ok((m), (a));                                                                    \
        ck_assert_msg(ek_w_ == NULL, "%s", ek_w_);                                                                     \
    } while (0)

#define ek_match_reject(m, a, rule, msg)                                                                               \
    do {                                                                                                               \
        const char *ek_w_ = ek__reject(arb_match_game(m), arb_match_state_mut(m), (a), (rule), (msg), NULL);           \
        ck_assert_msg(ek_w_ == NULL, "%s", ek_w_);                                                                     \
    } while (0)

#endif
