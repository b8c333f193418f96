/* agent.c — the random and greedy agents and seeded think times. */
#include <assert.h>
#include <string.h>

#include "arbiter/agent.h"

int arb_agent_kind_parse(const char *name)
{
    if (strcmp(name, "random") == 0) return ARB_AGENT_RANDOM;
    if (strcmp(name, "greedy") == 0) return ARB_AGENT_GREEDY;
    return -1;
}

const char *arb_agent_kind_name(arb_agent_kind k) { return k == ARB_AGENT_GREEDY ? "greedy" : "random"; }

void arb_agent_init(arb_agent *ag, arb_agent_kind kind, uint64_t match_seed, int seat, int timed)
{
    ag->kind = kind;
    ag->timed = timed;
    /* Independent of the match PRNG: a different SplitMix64 stream per seat. */
    uint64_t sm = match_seed ^ (0xa0761d6478bd642fULL * (uint64_t)(seat + 1));
    arb_rng_seed(&ag->rng, arb_splitmix64(&sm));
}

/* Think time: mostly quick (0.3–8 s), sometimes slow (8–40 s), rarely a
 * stall long enough to meet any 90 s clock. */
static uint32_t think_ms(arb_rng *r)
{
    uint32_t roll = arb_rng_below(r, 1000);
    if (roll < 850) return 300 + arb_rng_below(r, 7700);
    if (roll < 990) return 8000 + arb_rng_below(r, 32000);
    return 60000 + arb_rng_below(r, 60000);
}

int arb_agent_choose(arb_agent *ag, const arb_match *m, arb_action *out)
{
    const arb_game *g = arb_match_game(m);
    arb_decision d = arb_match_decision(m);
    if (d.seat == ARB_SEAT_NONE) return ARB_EOVER;
    uint32_t think = ag->timed ? think_ms(&ag->rng) : 0;
    if (ag->timed && d.clock_left_ms >= 0 && (int64_t)think >= d.clock_left_ms) {
        int v = arb_verb_find(g, "timeout");
        if (v >= 0) {
            memset(out, 0, sizeof *out);
            out->seat = ARB_SEAT_ARBITER;
            out->verb = (uint8_t)v;
            out->elapsed_ms = (uint32_t)d.clock_left_ms;
            return ARB_OK;
        }
    }
    size_t n = arb_match_legal(m, ag->legal, ARB_AGENT_LEGAL_MAX);
    if (n > ARB_AGENT_LEGAL_MAX) n = ARB_AGENT_LEGAL_MAX;
    if (n == 0) return ARB_EOVER; /* an engine owing a decision with no legal action is a bug */
    size_t pick;
    if (ag->kind == ARB_AGENT_GREEDY && g->greedy)
        pick = g->greedy(g, arb_match_state(m), ag->legal, n, &ag->rng);
    else
        pick = arb_rng_below(&ag->rng, (uint32_t)n);
    assert(pick < n); /* a greedy heuristic returns an index into legal */
    if (pick >= n) pick = 0;
    *out = ag->legal[pick];
    out->elapsed_ms = think;
    return ARB_OK;
}
