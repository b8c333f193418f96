/* fuzz_action.c — libFuzzer target for the `record` action syntax and the
 * engines behind it: the first byte picks a compiled-in game and the match
 * seed, then every line is either parsed with arb_action_parse and applied
 * (a rejection must leave the state untouched: its hash is compared), or,
 * for a line "!K", the legal action K mod n is applied so the match gets
 * deep enough for the interesting decisions. Built and run by `make fuzz`;
 * seeds in tests/fuzz/corpus_action/ (gameN-walk.txt: registry entry N).  */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/arbiter.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static arb_action legal[ARB_AGENT_LEGAL_MAX];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || arb_game_count() == 0 || size > (1u << 16)) return 0;
    const arb_game *g = arb_game_at(data[0] % arb_game_count());
    arb_setup su;
    memset(&su, 0, sizeof su);
    su.seed = data[0] >> 2;
    su.players = g->min_players + (data[0] >> 6) % (g->max_players - g->min_players + 1);
    for (int s = 0; s < su.players; s++) su.decks[s] = g->preset(g, (unsigned)s % g->npresets);
    arb_match *m;
    arb_error err = ARB_ERROR_INIT;
    if (arb_match_new(&m, g, &su, &err)) return 0;
    char line[512];
    size_t i = 1;
    while (i < size && arb_match_decision(m).seat != ARB_SEAT_NONE) {
        size_t j = i;
        while (j < size && data[j] != '\n') j++;
        size_t n = j - i < sizeof line - 1 ? j - i : sizeof line - 1;
        memcpy(line, data + i, n);
        line[n] = '\0';
        i = j + 1;
        if (line[0] == '!') {
            size_t k = arb_match_legal(m, legal, ARB_AGENT_LEGAL_MAX);
            if (k == 0) break;
            unsigned pick = (unsigned)(unsigned char)line[1];
            if (arb_match_apply(m, &legal[pick % k], &err)) abort(); /* a legal action was refused */
            continue;
        }
        arb_action a;
        if (arb_action_parse(g, line, &a, &err) != ARB_OK) continue;
        char back[256];
        arb_action_format(g, &a, back, sizeof back);
        uint64_t h = arb_match_hash(m);
        if (arb_match_apply(m, &a, &err) != ARB_OK && arb_match_hash(m) != h) abort(); /* rejection mutated */
    }
    arb_match_free(m);
    return 0;
}
