/* match.c — arb_match: one allocation holding a game's state and the event
 * buffer of its last step. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/match.h"

struct arb_match {
    const arb_game *g;
    arb_events ev;
    arb_event evbuf[ARB_MATCH_EVENTS];
    int players;
#ifdef ARB_CHECK_STATE
    arb_setup su;               /* for the state check: no decks, rules a name the game owns */
#endif
    max_align_t state[]; /* g->state_size bytes */
};

/* Everything zeroed but the event buffer (128 KiB, written before it is
 * read: only ev.n events are ever handed out): a match per short replay
 * must not pay for clearing it. */
static arb_match *alloc_match(const arb_game *g)
{
    arb_match *m = malloc(sizeof *m + g->state_size);
    if (!m) return NULL;
    memset(m, 0, offsetof(arb_match, evbuf));
    m->players = 0;
    memset(m->state, 0, g->state_size);
    m->g = g;
    m->ev.buf = m->evbuf;
    m->ev.cap = ARB_MATCH_EVENTS;
    return m;
}

/* Debug and sanitizer builds (-DARB_CHECK_STATE, `make sanitize`) assert
 * every engine's state invariants after every accepted action: the state
 * must pass the engine's own position loader, which refuses what cannot
 * be (a card in two zones, counts past a zone, a decision the phase does
 * not take), and load back to the same hash (game.h's round trip). */
#ifdef ARB_CHECK_STATE
extern const arb_game *const arb__games[]; /* registry.c: the compiled-in engines */

static void keep_setup(arb_match *m, const arb_setup *su)
{
    m->su = *su;
    for (int i = 0; i < ARB_MAX_SEATS; i++) m->su.decks[i] = NULL;
    int k = arb_game_rules_index(m->g, su->rules);
    m->su.rules = m->g->nrules_versions && k >= 0 ? m->g->rules_versions[k] : NULL;
}

static int check_state(const arb_match *m, const arb_action *a, arb_error *err)
{
    /* the compiled-in engines: a plug-in or a test's game may keep
     * positions narrower than its export */
    int builtin = 0;
    for (unsigned i = 0; arb__games[i]; i++) builtin |= arb__games[i] == m->g;
    if (!builtin) return ARB_OK;
    arb_tree *t = arb_match_export(m, ARB_VIEW_ALL);
    void *copy = malloc(m->g->state_size);
    int rc = ARB_OK;
    if (t && copy) {
        arb_error e = ARB_ERROR_INIT;
        memset(copy, 0, m->g->state_size);
        if (m->g->load_position(m->g, copy, arb_tree_root(t), &m->su, &e))
            rc = arb_error_set(err, ARB_EINVAL, NULL, "%s: the state after action '%u' (seat %d) breaks the "
                               "engine's invariants: its position loader refuses it: %s%s%s", m->g->id,
                               (unsigned)a->verb, a->seat, e.where, e.where[0] ? ": " : "", e.msg);
        else if (m->g->hash(m->g, copy) != m->g->hash(m->g, m->state))
            rc = arb_error_set(err, ARB_EINVAL, NULL, "%s: the state after action '%u' (seat %d) does not load "
                               "back to the same hash", m->g->id, (unsigned)a->verb, a->seat);
    }
    free(copy);
    arb_tree_free(t);
    return rc;
}
#endif

int arb_match_new(arb_match **out, const arb_game *g, const arb_setup *su, arb_error *err)
{
    ARB_ASSERT_ARG(err, out != NULL);
    *out = NULL;
    ARB_ASSERT_ARG(err, g != NULL && su != NULL);
    if (arb_game_rules_index(g, su->rules) < 0)
        return arb_error_set(err, ARB_EUNSUPPORTED, NULL, "%s rules version '%s' is not implemented by this build "
                             "(newest: %s)", g->id, su->rules, g->rules_version);
    arb_match *m = alloc_match(g);
    if (!m) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory for a %s match", g->id);
    int rc = g->setup(g, m->state, su, &m->ev, err);
    if (rc) { free(m); return rc; }
    m->players = su->players;
#ifdef ARB_CHECK_STATE
    keep_setup(m, su);
#endif
    *out = m;
    return ARB_OK;
}

int arb_match_from_position(arb_match **out, const arb_game *g, const arb_tnode *pos,
                            const arb_setup *su, arb_error *err)
{
    ARB_ASSERT_ARG(err, out != NULL);
    *out = NULL;
    ARB_ASSERT_ARG(err, g != NULL && pos != NULL && su != NULL);
    if (arb_game_rules_index(g, su->rules) < 0)
        return arb_error_set(err, ARB_EUNSUPPORTED, NULL, "%s rules version '%s' is not implemented by this build "
                             "(newest: %s)", g->id, su->rules, g->rules_version);
    arb_match *m = alloc_match(g);
    if (!m) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory for a %s match", g->id);
    int rc = g->load_position(g, m->state, pos, su, err);
    if (rc) { free(m); return rc; }
    m->players = su->players;
#ifdef ARB_CHECK_STATE
    keep_setup(m, su);
#endif
    *out = m;
    return ARB_OK;
}

int arb_match_clone(arb_match **out, const arb_match *src)
{
    if (!out || !src) return ARB_EINVAL; /* no arb_error here: the code says it */
    *out = alloc_match(src->g);
    if (!*out) return ARB_ENOMEM;
    arb_match_copy(*out, src);
    return ARB_OK;
}

void arb_match_copy(arb_match *dst, const arb_match *src)
{
    dst->players = src->players;
#ifdef ARB_CHECK_STATE
    dst->su = src->su;
#endif
    memcpy(dst->state, src->state, src->g->state_size);
    dst->ev.n = dst->ev.dropped = 0;
}

void arb_match_free(arb_match *m) { free(m); }

const arb_game *arb_match_game(const arb_match *m) { return m->g; }
const void *arb_match_state(const arb_match *m) { return m->state; }
void *arb_match_state_mut(arb_match *m) { return m->state; }
int arb_match_players(const arb_match *m) { return m->players; }

int arb_match_apply(arb_match *m, const arb_action *a, arb_error *err)
{
    ARB_ASSERT_ARG(err, m != NULL && a != NULL);
    m->ev.n = m->ev.dropped = 0;
    int rc = m->g->apply(m->g, m->state, a, &m->ev, err);
    if (rc) m->ev.n = 0;
#ifdef ARB_CHECK_STATE
    else rc = check_state(m, a, err);
#endif
    return rc;
}

const arb_event *arb_match_events(const arb_match *m, unsigned *n)
{
    *n = m->ev.n;
    return m->evbuf;
}

unsigned arb_match_events_dropped(const arb_match *m) { return m->ev.dropped; }

size_t arb_match_legal(const arb_match *m, arb_action *out, size_t cap) { return m->g->legal(m->g, m->state, out, cap); }
arb_decision arb_match_decision(const arb_match *m) { return m->g->decision(m->g, m->state); }
uint64_t arb_match_hash(const arb_match *m) { return m->g->hash(m->g, m->state); }
int arb_match_outcome(const arb_match *m, arb_outcome *out) { return m->g->outcome(m->g, m->state, out); }
uint32_t arb_match_turn(const arb_match *m) { return m->g->turn(m->g, m->state); }
const char *arb_match_phase(const arb_match *m) { return m->g->phase(m->g, m->state); }

int arb_match_action_text(const arb_match *m, const arb_action *a, char *buf, size_t size)
{
    return arb_game_action_text(m->g, m->state, a, buf, size);
}

int arb_match_event_text(const arb_match *m, const arb_event *ev, int view, char *buf, size_t size)
{
    return arb_game_event_text(m->g, ev, view, buf, size);
}

arb_tree *arb_match_export(const arb_match *m, int view)
{
    arb_tree *t = arb_tree_new();
    if (!t) return NULL;
    m->g->export_state(m->g, m->state, view, t, arb_tree_root(t));
    if (arb_tree_failed(t)) { arb_tree_free(t); return NULL; }
    return t;
}
