/* arbiter/server.h — helpers for a game server that records live matches:
 * the header's start time, the think time of each decision, the arbiter's
 * timeout when a seat's clock runs out, and agents allocated by the library
 * (an arb_agent holds a 2048-action buffer: too large for a caller's stack).
 * README "Recording from your own server" shows them in a complete program. */
#ifndef ARBITER_SERVER_H
#define ARBITER_SERVER_H

#include <stddef.h>
#include <stdint.h>

#include "arbiter/agent.h"
#include "arbiter/match.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The current time as ISO-8601 UTC ("2026-12-01T15:04:05Z") for
 * arb_replay_meta.started. SOURCE_DATE_EPOCH (decimal seconds, no sign or
 * space) replaces the clock, so a recording can be made reproducible.
 * Returns ARB_OK, or ARB_EINVAL (bad SOURCE_DATE_EPOCH, buffer under 21). */
int arb_started_now(char *buf, size_t size);

/* Think time of one decision, on the monotonic clock. Start it when a
 * decision is put to a seat; lap it when the seat's action arrives. */
typedef struct arb_stopwatch { int64_t t0_ns; } arb_stopwatch;
void arb_stopwatch_start(arb_stopwatch *sw);
/* Milliseconds since the start or the previous lap (saturating at
 * UINT32_MAX), and restart: the value for arb_action.elapsed_ms. */
uint32_t arb_stopwatch_lap_ms(arb_stopwatch *sw);

/* The clock's bookkeeping for the decision m owes now: when the owing seat
 * has thought elapsed_ms and that reaches its clock (decision.clock_left_ms)
 * in a game with a "timeout" verb, *out becomes the arbiter's timeout action
 * (elapsed_ms = the clock that was left) and the function returns 1: record
 * that instead of the late action. Returns 0 (out untouched) otherwise. */
int arb_match_clock_expired(const arb_match *m, uint32_t elapsed_ms, arb_action *out);

/* An agent on the heap (arb_agent_init's arguments); NULL when out of
 * memory. arb_agent_free(NULL) is a no-op. */
arb_agent *arb_agent_new(arb_agent_kind kind, uint64_t match_seed, int seat, int timed);
void arb_agent_free(arb_agent *ag);

#ifdef __cplusplus
}
#endif
#endif
