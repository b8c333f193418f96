/* arbiter/agent.h — built-in players for self-play, fuzzing and benches.
 *
 * "random" picks uniformly among legal(); "greedy" asks the game's
 * heuristic, which decides from the acting seat's view only. Each agent has
 * its own PRNG, independent of the match's, so agents never perturb the
 * game's random events. With timed set, each decision also gets a seeded
 * think time, and the driver turns one that overruns the clock into the
 * arbiter's timeout action. */
#ifndef ARBITER_AGENT_H
#define ARBITER_AGENT_H

#include "arbiter/match.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum arb_agent_kind { ARB_AGENT_RANDOM = 0, ARB_AGENT_GREEDY = 1 } arb_agent_kind;

#define ARB_AGENT_LEGAL_MAX 2048

typedef struct arb_agent {
    arb_agent_kind kind;
    int timed;
    arb_rng rng;
    arb_action legal[ARB_AGENT_LEGAL_MAX];
} arb_agent;

/* "random" / "greedy" → kind, -1 when unknown. */
int arb_agent_kind_parse(const char *name);
const char *arb_agent_kind_name(arb_agent_kind k);
/* Seeded from the match seed and the seat, so every seat differs. */
void arb_agent_init(arb_agent *ag, arb_agent_kind kind, uint64_t match_seed,
                    int seat, int timed);
/* Choose the next action for the seat that owes the decision in m. With
 * timed, out->elapsed_ms is the think time; when it reaches the clock the
 * action becomes the arbiter's "timeout" (if the game has one). Returns
 * ARB_OK, or ARB_EOVER when nobody owes a decision. */
int arb_agent_choose(arb_agent *ag, const arb_match *m, arb_action *out);

#ifdef __cplusplus
}
#endif
#endif
