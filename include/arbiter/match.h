/* arbiter/match.h — a running match: a game's state plus its event buffer.
 *
 * A thin owner over the game contract so that callers need not size and
 * allocate engine states themselves. arb_match_apply keeps the events of the
 * last setup/apply until the next call. */
#ifndef ARBITER_MATCH_H
#define ARBITER_MATCH_H

#include "arbiter/game.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ARB_MATCH_EVENTS 4096

typedef struct arb_match arb_match;

int arb_match_new(arb_match **out, const arb_game *g, const arb_setup *su,
                  arb_error *err);
int arb_match_from_position(arb_match **out, const arb_game *g,
                            const arb_tnode *pos, const arb_setup *su,
                            arb_error *err);
int arb_match_clone(arb_match **out, const arb_match *m);
/* Overwrite dst's state with src's (same game). */
void arb_match_copy(arb_match *dst, const arb_match *src);
void arb_match_free(arb_match *m); /* NULL ok */

const arb_game *arb_match_game(const arb_match *m);
const void *arb_match_state(const arb_match *m);
void *arb_match_state_mut(arb_match *m);
int arb_match_players(const arb_match *m);

int arb_match_apply(arb_match *m, const arb_action *a, arb_error *err);
/* Events of the last setup or apply (a rejected apply leaves none). */
const arb_event *arb_match_events(const arb_match *m, unsigned *n);
/* Events of the last setup or apply that did not fit the buffer
 * (ARB_MATCH_EVENTS): 0 unless an engine emits more than it should. Every
 * consumer that relies on complete events (narration, conformance) checks
 * it; check_toolkit fails on any drop. */
unsigned arb_match_events_dropped(const arb_match *m);
size_t arb_match_legal(const arb_match *m, arb_action *out, size_t cap);
arb_decision arb_match_decision(const arb_match *m);
uint64_t arb_match_hash(const arb_match *m);
int arb_match_outcome(const arb_match *m, arb_outcome *out);
uint32_t arb_match_turn(const arb_match *m);
/* The game's phase name (arb_game.phase). */
const char *arb_match_phase(const arb_match *m);
/* Text of action a in the current state, before it is applied (the
 * engine's action_text, or the action syntax for an engine without one or
 * an unknown verb). Returns snprintf's value. */
int arb_match_action_text(const arb_match *m, const arb_action *a, char *buf, size_t size);
/* Narration of ev as seen by view (arb_game_event_text). */
int arb_match_event_text(const arb_match *m, const arb_event *ev, int view, char *buf, size_t size);
/* Export the state tree (view: seat or ARB_VIEW_ALL) into a new tree. */
arb_tree *arb_match_export(const arb_match *m, int view);

#ifdef __cplusplus
}
#endif
#endif
